//! Swizzles and composed layouts, checked at every index against the
//! definition `i ↦ Sw(O + L(i))` with `Sw` written from the batch protocol's
//! formula (not from the library's code): evaluation, offset streams, text
//! round trips, composition on either side, divides and products.

use hlayout::algebra::{ComposedLayout, Swizzle, Tiler};
use hlayout::{Error, Layout};
use proptest::prelude::*;

use crate::common;

/// CuTe's `Swizzle<B,M,S>`, from the protocol: `x ^ ((x & Y) >> S)` for
/// `S ≥ 0` (`<< -S` otherwise), `Y = ((1<<B)-1) << (M+max(S,0))`.
fn sw(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let y = ((1i64 << b) - 1) << (m + s.max(0));
    if s >= 0 {
        x ^ ((x & y) >> s)
    } else {
        x ^ ((x & y) << -s)
    }
}

/// `Sw(O + L(i))` for every `i < size(L)`, by the definitions.
fn reference(c: &ComposedLayout) -> Vec<i64> {
    let (b, m, s) = (c.swizzle().bits(), c.swizzle().base(), c.swizzle().shift());
    common::reference_offsets(c.layout())
        .into_iter()
        .map(|x| sw(b, m, s, c.offset() + x))
        .collect()
}

type OnComposed = fn(&ComposedLayout, &Layout) -> hlayout::Result<ComposedLayout>;
type OnLayout = fn(&Layout, &Layout) -> hlayout::Result<Layout>;

fn values(c: &ComposedLayout) -> Vec<i64> {
    (0..c.size())
        .map(|i| c.eval(i).expect("in domain"))
        .collect()
}

fn swizzle() -> impl Strategy<Value = (i64, i64, i64)> {
    (0i64..=3, 0i64..=4, 0i64..=3, any::<bool>())
        .prop_map(|(b, m, extra, neg)| (b, m, if neg { -(b + extra) } else { b + extra }))
}

fn composed() -> impl Strategy<Value = ComposedLayout> {
    (swizzle(), -40i64..=40, common::layout()).prop_map(|((b, m, s), o, l)| {
        ComposedLayout::new(Swizzle::new(b, m, s).expect("valid"), o, l).expect("small")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(256)))]

    /// Sw is the protocol's function, an involution, and keeps the sign.
    #[test]
    fn swizzle_is_the_protocol_function((b, m, s) in swizzle(), x in -5000i64..5000) {
        let w = Swizzle::new(b, m, s).expect("valid");
        prop_assert_eq!(w.apply(x), sw(b, m, s, x));
        prop_assert_eq!(w.apply(w.apply(x)), x);
        prop_assert_eq!(w.apply(x) < 0, x < 0);
        prop_assert_eq!(w.to_string().parse::<Swizzle>().expect("round trip"), w);
    }

    /// Evaluation and the offset stream agree with the definition at every index,
    /// and the text form round-trips.
    #[test]
    fn composed_layout_is_the_definition(c in composed()) {
        let want = reference(&c);
        prop_assert_eq!(&values(&c), &want, "{}", c);
        prop_assert_eq!(&c.offsets().collect::<Vec<_>>(), &want, "{}", c);
        let back: ComposedLayout = c.to_string().parse().expect("round trip");
        prop_assert_eq!(&back, &c);
        prop_assert_eq!(values(&c.coalesce()), want);
    }

    /// C ∘ B = Sw ∘ O ∘ (L ∘ B): Ok exactly when L ∘ B is, then R(i) = C(B(i)).
    #[test]
    fn compose_on_the_right(c in composed(), b in common::layout()) {
        match (c.compose(&b), c.layout().compose(&b)) {
            (Ok(r), Ok(_)) => {
                prop_assert_eq!(r.size(), b.size());
                for i in 0..b.size() {
                    let x = b.eval(i).expect("in domain");
                    prop_assert_eq!(r.eval(i).expect("in domain"), c.eval(x).expect("defined"), "{} o {} = {}", c, b, r);
                }
            }
            (Err(_), Err(_)) => {}
            (r, inner) => prop_assert!(false, "{} o {}: {:?} but L o B {:?}", c, b, r, inner),
        }
    }

    /// A ∘ C for A = x ↦ 2ᵗ·x (any shape that coalesces to one leaf of that
    /// stride): R(i) = A(C(i)) at every index; other slopes are refused.
    #[test]
    fn compose_on_the_left(c in composed(), t in 0u32..=3, n in 1i64..=4, slope in -3i64..=9) {
        let shift: Layout = format!("({n},64):({},{})", 64 << t, 1 << t).parse().expect("valid");
        let r = c.left_compose(&shift).expect("a shift commutes with the swizzle");
        for i in 0..c.size() {
            prop_assert_eq!(r.eval(i).expect("in domain"), c.eval(i).expect("in domain") << t);
        }
        let other: Layout = format!("64:{slope}").parse().expect("valid");
        match c.left_compose(&other) {
            Ok(r) => {
                prop_assert!(slope == 0 || (slope > 0 && slope.count_ones() == 1));
                for i in 0..c.size() {
                    prop_assert_eq!(r.eval(i).expect("in domain"), slope * c.eval(i).expect("in domain"));
                }
            }
            Err(e) => {
                prop_assert!(slope < 0 || (slope > 0 && slope.count_ones() != 1), "{}", e);
                prop_assert!(matches!(e, Error::Precondition { .. }), "{}", e);
            }
        }
    }

    /// Divides and products act on the inner layout (CuTe's rule): the result
    /// is Sw ∘ O ∘ op(L, B), checked at every index against the definition.
    #[test]
    fn divides_and_products_keep_the_swizzle(c in composed(), b in prop::collection::vec((1i64..=4, 0i64..=6), 1..=2)) {
        let (s, d): (Vec<i64>, Vec<i64>) = b.into_iter().unzip();
        let b = Layout::flat(&s, &d).expect("valid");
        let ops: [(&str, OnComposed, OnLayout); 4] = [
            ("logical_divide", ComposedLayout::logical_divide, Layout::logical_divide),
            ("logical_product", ComposedLayout::logical_product, Layout::logical_product),
            ("blocked_product", ComposedLayout::blocked_product, Layout::blocked_product),
            ("raked_product", ComposedLayout::raked_product, Layout::raked_product),
        ];
        for (name, on_composed, on_layout) in ops {
            match (on_composed(&c, &b), on_layout(c.layout(), &b)) {
                (Ok(r), Ok(inner)) => {
                    let (w, o) = (c.swizzle(), c.offset());
                    let want: Vec<i64> = common::reference_offsets(&inner)
                        .into_iter()
                        .map(|x| sw(w.bits(), w.base(), w.shift(), o + x))
                        .collect();
                    prop_assert_eq!(values(&r), want, "{}({}, {})", name, c, b);
                }
                (Err(_), Err(_)) => {}
                (r, inner) => prop_assert!(false, "{}: {:?} vs {:?}", name, r, inner),
            }
        }
        let zipped = c.zipped_divide(&Tiler::Layout(b.clone()));
        prop_assert_eq!(zipped.is_ok(), c.layout().zipped_divide(&Tiler::Layout(b)).is_ok());
    }
}

#[test]
fn swizzle_preconditions_are_named() {
    // Invariant: CuTe's |S| >= B and the sign-bit bound are checked, never a panic / Witness: Sw<3,0,2>, Sw<1,60,3>, Sw<-1,0,0>.
    for (b, m, s) in [(3, 0, 2), (1, 60, 3), (-1, 0, 0), (2, -1, 2)] {
        let err = Swizzle::new(b, m, s).expect_err("refused");
        assert!(matches!(err, Error::Precondition { .. }), "{err}");
    }
    assert!(Swizzle::new(1, 59, 3).is_ok());
    assert!(matches!(
        "Sw<1,0,1> o 3".parse::<ComposedLayout>(),
        Err(Error::Parse { .. })
    ));
    // A parse error inside the layout text is positioned in the whole input.
    match "Sw<1,0,1> o 0 o (2,2:(1,2)".parse::<ComposedLayout>() {
        Err(Error::Parse { pos, .. }) => assert!(pos >= 16, "{pos}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn cute_128b_swizzle_atom() {
    // Invariant: CuTe's 128-byte swizzle atom for 16-bit elements, Swizzle<3,3,3> o (8,64):(64,1) in CuTe's order, mirrored / Witness: in every column of 8-element chunks the 8 rows land on 8 distinct chunk slots (bank-conflict free).
    let c = ComposedLayout::from_cute("Sw<3,3,3> o 0 o (8,64):(64,1)").expect("valid");
    assert_eq!(c.to_string(), "Sw<3,3,3> o 0 o (64,8):(1,64)");
    // CuTe's index (r, k) is row-major index k·8 + r here.
    let at = |r: i64, k: i64| c.eval(k * 8 + r).expect("in domain");
    for k in (0..64).step_by(8) {
        let mut slots: Vec<i64> = (0..8).map(|r| (at(r, k) % 64) / 8).collect();
        slots.sort_unstable();
        assert_eq!(slots, (0..8).collect::<Vec<_>>(), "column {k}");
        assert!(
            (0..8).all(|r| at(r, k) / 64 == r),
            "row {k} stays in its row"
        );
    }
    assert_eq!(reference(&c), values(&c));
}

#[test]
fn integer_overflow_is_refused_not_wrapped() {
    // Invariant: O + L(i) is checked / Witness: O = i64::MAX with a layout reaching 1.
    let l: Layout = "2:1".parse().expect("valid");
    assert!(matches!(
        ComposedLayout::new(Swizzle::identity(), i64::MAX, l),
        Err(Error::Overflow { .. })
    ));
}
