//! Swizzles and composed layouts, checked at every index against the
//! definition `i ↦ Sw(O + L(i))` with `Sw` written from the batch protocol's
//! formula (not from the library's code): evaluation, offset streams, text
//! round trips, the swizzle's masks and merges, composition on either side and
//! of two composed layouts, the inverses, divides and products (with a
//! composed layout on either side), and the plain-view decision.
//!
//! Where the library answers with CuTe's construction (`A ∘ Sw = Sw' ∘ A`,
//! `Sw'` reading `A(Y)` and writing `A(Z)`), every `Ok` is checked at every
//! index, and every refusal against the same construction rebuilt here: when
//! it gives the right function everywhere, a refusal is a failure.

use hlayout::algebra::{ComposedLayout, Swizzle, Tiler};
use hlayout::tuple::is_coarsening;
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

/// CuTe's masks: Y (read) and Z (written) = Y moved by S.
fn masks(b: i64, m: i64, s: i64) -> (i64, i64) {
    let bits = (1i64 << b) - 1;
    (bits << (m + s.max(0)), bits << (m - s.min(0)))
}

/// CuTe's `make_swizzle<Y, Z>`: `(B, M, S)` with those masks and `|S| ≥ B`.
fn make_swizzle(y: i64, z: i64) -> Option<(i64, i64, i64)> {
    if y == 0 && z == 0 {
        return Some((0, 0, 0));
    }
    let b = i64::from(y.count_ones());
    if y <= 0 || z <= 0 || b != i64::from(z.count_ones()) {
        return None;
    }
    let (ty, tz) = (i64::from(y.trailing_zeros()), i64::from(z.trailing_zeros()));
    let (m, s) = (ty.min(tz), ty - tz);
    (s.abs() >= b && m + s.abs() + b <= 63 && masks(b, m, s) == (y, z)).then_some((b, m, s))
}

fn parts(w: Swizzle) -> (i64, i64, i64) {
    (w.bits(), w.base(), w.shift())
}

/// A layout on every integer, by floor digits (the first leaf keeps the rest).
fn ext_eval(l: &Layout, x: i64) -> i64 {
    let (s, d) = (l.shape_leaves(), l.stride_leaves());
    let (mut rest, mut acc) = (x, 0i64);
    for k in (1..s.len()).rev() {
        acc += rest.rem_euclid(s[k]) * d[k];
        rest = rest.div_euclid(s[k]);
    }
    acc + rest * d.first().copied().unwrap_or(0)
}

/// `Sw(O + L(i))` for every `i < size(L)`, by the definitions.
fn reference(c: &ComposedLayout) -> Vec<i64> {
    let (b, m, s) = parts(c.swizzle());
    common::reference_offsets(c.layout())
        .into_iter()
        .map(|x| sw(b, m, s, c.offset() + x))
        .collect()
}

/// `Sw(O + L(x))` at any integer x.
fn reference_at(c: &ComposedLayout, x: i64) -> i64 {
    let (b, m, s) = parts(c.swizzle());
    sw(b, m, s, c.offset() + ext_eval(c.layout(), x))
}

/// The values of `sw ∘ o ∘ inner` (a candidate built here).
fn candidate(sw3: (i64, i64, i64), o: i64, inner: &Layout) -> Vec<i64> {
    let (b, m, s) = sw3;
    common::reference_offsets(inner)
        .into_iter()
        .map(|x| sw(b, m, s, o + x))
        .collect()
}

/// CuTe's `A ∘ Sw = Sw' ∘ A`: the swizzle of A's images of Sw's masks.
fn through(a: &Layout, w: Swizzle) -> Option<(i64, i64, i64)> {
    if w.bits() == 0 {
        return Some((0, 0, 0));
    }
    let (y, z) = masks(w.bits(), w.base(), w.shift());
    make_swizzle(ext_eval(a, y), ext_eval(a, z))
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

/// A permutation of `[0, 2ⁿ)` as a layout: power-of-two extents with their
/// compact strides shuffled (a transpose of power-of-two tiles).
fn bit_layout() -> impl Strategy<Value = Layout> {
    prop::collection::vec(1u32..=2, 1..=4)
        .prop_flat_map(|logs| {
            let order: Vec<usize> = (0..logs.len()).collect();
            (Just(logs), Just(order).prop_shuffle())
        })
        .prop_map(|(logs, order)| {
            let extents: Vec<i64> = logs.iter().map(|&l| 1i64 << l).collect();
            let mut strides = vec![0i64; extents.len()];
            let mut place = 1i64;
            for &k in &order {
                strides[k] = place;
                place *= extents[k];
            }
            Layout::flat(&extents, &strides).expect("valid")
        })
}

fn composed_over(
    l: impl Strategy<Value = Layout>,
    offsets: std::ops::RangeInclusive<i64>,
) -> impl Strategy<Value = ComposedLayout> {
    (swizzle(), offsets, l).prop_map(|((b, m, s), o, l)| {
        ComposedLayout::new(Swizzle::new(b, m, s).expect("valid"), o, l).expect("small")
    })
}

/// Random composed layouts: any small layout and offset, or a permutation
/// of `[0, 2ⁿ)` with offset 0 (where CuTe's rule has something to hold for).
fn composed() -> impl Strategy<Value = ComposedLayout> {
    prop_oneof![
        composed_over(common::layout(), -40..=40),
        composed_over(bit_layout(), 0..=0)
    ]
}

/// Layouts to put after a composed one: any, a permutation of `[0, 2ⁿ)`, or
/// a shift `x ↦ 2ᵗ·x` written with two leaves.
fn left_operand() -> impl Strategy<Value = Layout> {
    let shift = (0u32..=3, 1i64..=4)
        .prop_map(|(t, n)| Layout::flat(&[n, 64], &[64 << t, 1 << t]).expect("valid"));
    // A rank-0 layout is defined at 0 only: rank0_layout_after_a_composed_one.
    let any = common::layout().prop_filter("rank 0", |a| !a.shape_leaves().is_empty());
    prop_oneof![any, bit_layout(), shift]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(256)))]

    /// Sw is the protocol's function, an involution, and keeps the sign; its
    /// masks are CuTe's, and `from_masks` and `then` are CuTe's make_swizzle
    /// and merge, exactly where those exist.
    #[test]
    fn swizzle_is_the_protocol_function((b, m, s) in swizzle(), (b2, m2, s2) in swizzle(), x in -5000i64..5000) {
        let w = Swizzle::new(b, m, s).expect("valid");
        prop_assert_eq!(w.apply(x), sw(b, m, s, x));
        prop_assert_eq!(w.apply(w.apply(x)), x);
        prop_assert_eq!(w.apply(x) < 0, x < 0);
        prop_assert_eq!(w.to_string().parse::<Swizzle>().expect("round trip"), w);
        prop_assert_eq!((w.mask(), w.write_mask()), masks(b, m, s));
        let back = Swizzle::from_masks(w.mask(), w.write_mask()).expect("a swizzle's own masks");
        prop_assert_eq!(back.apply(x), w.apply(x));
        let v = Swizzle::new(b2, m2, s2).expect("valid");
        let (y, z) = (masks(b, m, s), masks(b2, m2, s2));
        let merged = if b == 0 || b2 == 0 {
            Some(())
        } else if s == s2 && y.0 & z.1 == 0 {
            make_swizzle(y.0 ^ z.0, y.1 ^ z.1).map(|_| ())
        } else {
            None
        };
        match w.then(&v) {
            Some(t) => for x in -300..300 {
                prop_assert_eq!(t.apply(x), w.apply(v.apply(x)), "{} then {} = {}", w, v, t);
            },
            None => prop_assert!(merged.is_none(), "{} after {} is a swizzle", w, v),
        }
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
        let cute = ComposedLayout::from_cute(&c.to_cute()).expect("CuTe's text round trip");
        prop_assert_eq!(&cute, &c);
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
                    prop_assert_eq!(r.eval(i).expect("in domain"), reference_at(&c, x), "{} o {} = {}", c, b, r);
                }
            }
            (Err(_), Err(_)) => {}
            (r, inner) => prop_assert!(false, "{} o {}: {:?} but L o B {:?}", c, b, r, inner),
        }
    }

    /// A ∘ C: every Ok is A(C(i)) at every index with L's shape coarsening
    /// R's; a shift always composes; a refusal only where CuTe's construction
    /// (rebuilt here) fails somewhere.
    #[test]
    fn compose_on_the_left(c in composed(), a in left_operand()) {
        let want: Vec<i64> = reference(&c).into_iter().map(|x| ext_eval(&a, x)).collect();
        let k = ext_eval(&a, 1);
        let linear = !a.shape_leaves().is_empty() && (-300..300).all(|x| ext_eval(&a, x) == k * x);
        let shift = linear && k >= 0 && k.count_ones() <= 1;
        match c.left_compose(&a) {
            Ok(r) => {
                prop_assert_eq!(values(&r), want, "{} o ({}) = {}", a, c, r);
                prop_assert!(is_coarsening(&c.layout().shape().to_owned(), &r.layout().shape().to_owned()));
            }
            Err(e) => {
                prop_assert!(!shift, "a shift composes: {} o ({}): {}", a, c, e);
                if let Ok(inner) = a.compose(c.layout()) {
                    let o = ext_eval(&a, c.offset());
                    if let Some(w) = through(&a, c.swizzle()) {
                        prop_assert_ne!(&candidate(w, o, &inner), &want, "CuTe's rule works: {}", e);
                    }
                    prop_assert_ne!(candidate((0, 0, 0), o, &inner), want, "no swizzle works: {}", e);
                }
            }
        }
    }

    /// C₁ ∘ C₂: every Ok is C₁(C₂(i)) at every index; a refusal only where the
    /// merged construction (L₁ ∘ C₂ by CuTe's rule, the swizzles merged) fails.
    #[test]
    fn compose_two_composed(c1 in composed(), c2 in composed()) {
        let want: Vec<i64> = reference(&c2).into_iter().map(|x| reference_at(&c1, x)).collect();
        match c1.compose_composed(&c2) {
            Ok(r) => {
                prop_assert_eq!(values(&r), want, "({}) o ({}) = {}", c1, c2, r);
                prop_assert!(is_coarsening(&c2.layout().shape().to_owned(), &r.layout().shape().to_owned()));
            }
            Err(e) => {
                let Ok(inner) = c2.left_compose(c1.layout()) else { return Ok(()) };
                let (w1, w2) = (parts(c1.swizzle()), parts(inner.swizzle()));
                let (y1, z2) = (masks(w1.0, w1.1, w1.2).0, masks(w2.0, w2.1, w2.2).1);
                let merged = match (w1.0, w2.0) {
                    (0, _) => Some(w2),
                    (_, 0) => Some(w1),
                    _ if w1.2 == w2.2 && y1 & z2 == 0 => {
                        let (a, b) = (masks(w1.0, w1.1, w1.2), masks(w2.0, w2.1, w2.2));
                        make_swizzle(a.0 ^ b.0, a.1 ^ b.1)
                    }
                    _ => None,
                };
                if let Some(w) = merged {
                    let o = c1.offset() + inner.offset();
                    prop_assert_ne!(candidate(w, o, inner.layout()), want, "the merge works: {}", e);
                }
            }
        }
    }

    /// The inverses: every Ok meets its contract at every index (right:
    /// C(R(i)) = i below size(R); left: R(C(i)) = i₀); CuTe's construction,
    /// rebuilt here, is returned whole wherever it meets the contract.
    #[test]
    fn inverses(c in composed()) {
        let l = c.layout();
        let right_cute = {
            let inv = l.right_inverse();
            through(&inv, c.swizzle()).map(|w| candidate(w, -ext_eval(&inv, c.offset()), &inv))
        };
        match c.right_inverse() {
            Ok(r) => {
                for i in 0..r.size() {
                    prop_assert_eq!(reference_at(&c, r.eval(i).expect("defined")), i, "{} of {}", r, c);
                }
                if let Some(vals) = &right_cute {
                    if vals.iter().zip(0..).all(|(&x, i)| reference_at(&c, x) == i) {
                        prop_assert_eq!(r.size() as usize, vals.len(), "CuTe's whole right inverse works");
                    }
                }
            }
            Err(e) => if let Some(vals) = &right_cute {
                prop_assert_ne!(vals.first().map(|&x| reference_at(&c, x)), Some(0), "{}", e);
            },
        }
        let kernel_free = |i: i64| {
            let (s, d) = (l.shape_leaves(), l.stride_leaves());
            let digits = common::digits(i, s);
            let mut unit = 1i64;
            let mut out = 0i64;
            for k in (0..s.len()).rev() {
                if d[k] != 0 { out += digits[k] * unit; }
                unit *= s[k];
            }
            out
        };
        let want: Vec<i64> = (0..c.size()).map(kernel_free).collect();
        match c.left_inverse() {
            Ok(r) => {
                let got: Vec<i64> = reference(&c).into_iter().map(|x| r.eval(x).expect("defined")).collect();
                prop_assert_eq!(got, want, "{} of {}", r, c);
            }
            Err(e) => if let (Ok(inv), true) = (l.left_inverse(), c.size() <= 4096) {
                if let Some(w) = through(&inv, c.swizzle()) {
                    let r = ComposedLayout::new(
                        Swizzle::new(w.0, w.1, w.2).expect("valid"), -ext_eval(&inv, c.offset()), inv,
                    ).expect("small");
                    let got: Vec<i64> = reference(&c).into_iter().map(|x| reference_at(&r, x)).collect();
                    prop_assert_ne!(got, want, "CuTe's left inverse works: {}", e);
                }
            },
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
                    prop_assert_eq!(values(&r), candidate(parts(c.swizzle()), c.offset(), &inner), "{}({}, {})", name, c, b);
                }
                (Err(_), Err(_)) => {}
                (r, inner) => prop_assert!(false, "{}: {:?} vs {:?}", name, r, inner),
            }
        }
        let zipped = c.zipped_divide(&Tiler::Layout(b.clone()));
        prop_assert_eq!(zipped.is_ok(), c.layout().zipped_divide(&Tiler::Layout(b)).is_ok());
    }

    /// logical_product(A, C) with a swizzled tiler: every Ok is
    /// `P(j) + A(a)` at index `(j, a)` with `P = complement(A, size(A)·cosize(L)) ∘ C`
    /// and A as the fast mode; a refusal only where CuTe's construction fails.
    #[test]
    fn product_with_a_swizzled_tiler(a in prop_oneof![bit_layout(), common::layout()], t in composed()) {
        let Ok(cpl) = a.complement(a.size() * t.layout().cosize()) else { return Ok(()) };
        let block = common::reference_offsets(&a);
        let want: Vec<i64> = reference(&t)
            .into_iter()
            .flat_map(|x| { let p = ext_eval(&cpl, x); block.iter().map(move |&y| p + y) })
            .collect();
        match a.logical_product_composed(&t) {
            Ok(r) => {
                prop_assert_eq!(values(&r), want, "{} x ({}) = {}", a, t, r);
                prop_assert_eq!(r.layout().mode(1).expect("rank 2").to_string(), a.to_string());
            }
            Err(e) => {
                let placed = t.left_compose(&cpl);
                if let Ok(p) = placed {
                    let inner: Layout = format!("({},{}):({},{})", p.layout().shape(), a.shape(), p.layout().stride(), a.stride()).parse().expect("valid");
                    prop_assert_ne!(candidate(parts(p.swizzle()), p.offset(), &inner), want, "CuTe's product works: {}", e);
                }
            }
        }
    }

    /// logical_product(C, T), both composed: `Sw ∘ O ∘ logical_product(L, T)`
    /// at every index (block a of tile j at `Sw(O + L(a) + P(j))`, P the
    /// complement of L placed by T); a refusal only where the merge fails.
    #[test]
    fn product_of_two_composed(c in composed(), t in composed()) {
        let l = c.layout();
        let Ok(cpl) = l.complement(l.size() * t.layout().cosize()) else { return Ok(()) };
        let ((b, m, s), o) = (parts(c.swizzle()), c.offset());
        let block = common::reference_offsets(l);
        let want: Vec<i64> = reference(&t)
            .into_iter()
            .flat_map(|x| {
                let p = ext_eval(&cpl, x);
                block.iter().map(move |&y| sw(b, m, s, o + p + y))
            })
            .collect();
        match c.logical_product_composed(&t) {
            Ok(r) => prop_assert_eq!(values(&r), want, "({}) x ({}) = {}", c, t, r),
            Err(e) => if let Ok(inner) = l.logical_product_composed(&t) {
                if let Some(w) = c.swizzle().then(&inner.swizzle()) {
                    let o = c.offset() + inner.offset();
                    prop_assert_ne!(candidate(parts(w), o, inner.layout()), want, "the merge works: {}", e);
                }
            },
        }
    }

    /// flatten: the plain view through C(0) and each top-level mode's first
    /// step is the only candidate; the answer says whether it is C everywhere.
    #[test]
    fn flatten_is_exact(c in composed()) {
        let l = c.layout();
        let modes: Vec<i64> = l.modes().map(|m| m.size()).collect();
        let start = reference_at(&c, 0);
        let mut steps = vec![0i64; modes.len()];
        let mut unit = 1i64;
        for k in (0..modes.len()).rev() {
            if modes[k] > 1 { steps[k] = reference_at(&c, unit) - start; }
            unit *= modes[k];
        }
        let plain: Vec<i64> = (0..c.size())
            .map(|i| start + common::digits(i, &modes).iter().zip(&steps).map(|(x, s)| x * s).sum::<i64>())
            .collect();
        let want = reference(&c);
        match c.flatten().expect("small") {
            Ok(v) => {
                prop_assert_eq!(&plain, &want, "{} is no plain view", c);
                prop_assert_eq!((v.shape(), v.strides(), v.offset()), (&modes[..], &steps[..], start));
            }
            Err(why) => {
                let first = (0..c.size()).find(|&i| plain[i as usize] != want[i as usize]);
                prop_assert_eq!(first, Some(why.index), "{}: {}", c, why);
                prop_assert_eq!((why.value, why.plain), (want[why.index as usize], plain[why.index as usize]));
            }
        }
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

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out
}

#[test]
fn inverses_of_swizzled_tiles() {
    // Invariant: on a swizzle of a bit permutation of [0, 16) CuTe's inverses are returned whole when the swizzle moves single bits, and every answer meets its contract (a right inverse is cut where CuTe's rule fails: two bits whose order the permutation reverses) / Witness: every Sw<B,M,S> with M + |S| + B <= 4 over all 24 bit permutations.
    let (mut accepted, mut total) = (0, 0);
    for b in 1..=2i64 {
        for m in 0..=2i64 {
            for s in [-3i64, -2, -1, 1, 2, 3] {
                let Ok(w) = Swizzle::new(b, m, s) else {
                    continue;
                };
                if m + s.abs() + b > 4 {
                    continue;
                }
                for p in permutations(4) {
                    let strides: Vec<i64> = p.iter().map(|&k| 1i64 << k).collect();
                    let l = Layout::flat(&[2, 2, 2, 2], &strides).expect("valid");
                    let c = ComposedLayout::new(w, 0, l).expect("valid");
                    total += 1;
                    let (right, left) = (c.right_inverse(), c.left_inverse());
                    if b == 1 {
                        // One bit goes to one bit: CuTe's rule holds exactly.
                        assert!(right.is_ok() && left.is_ok(), "{c}: {right:?} {left:?}");
                        assert_eq!(
                            right.as_ref().map(ComposedLayout::size).ok(),
                            Some(16),
                            "{c}"
                        );
                    }
                    if let Ok(r) = right {
                        assert!(
                            (0..r.size()).all(|i| reference_at(&c, r.eval(i).unwrap()) == i),
                            "{c}: {r}"
                        );
                        accepted += i32::from(r.size() == 16);
                    }
                    if let Ok(r) = left {
                        assert!(
                            (0..16).all(|i| r.eval(c.eval(i).unwrap()).unwrap() == i),
                            "{c}: {r}"
                        );
                    }
                }
            }
        }
    }
    assert!(accepted * 2 > total, "{accepted} of {total}");
}

#[test]
fn rank0_layout_after_a_composed_one() {
    // Invariant: a rank-0 layout is defined at offset 0 only, so A ∘ C exists exactly when C is 0 everywhere / Witness: ():() after Sw<0,0,0> o 1 o 1:0 (offset 1) and after Sw<1,0,1> o 0 o 1:0.
    let a: Layout = "():()".parse().expect("valid");
    let at_one: ComposedLayout = "Sw<0,0,0> o 1 o 1:0".parse().expect("valid");
    assert!(at_one.left_compose(&a).is_err());
    let at_zero: ComposedLayout = "Sw<1,0,1> o 0 o 1:0".parse().expect("valid");
    let r = at_zero.left_compose(&a).expect("A(C(0)) = A(0) = 0");
    assert_eq!(values(&r), [0]);
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

#[test]
fn inverses_of_a_composed_layout_without_swizzle_or_offset_are_the_layouts() {
    // Invariant: `Sw<0,0,0> o 0 o L` is L, whose inverses are exact, so no check at every
    // index is needed (the `api` fuzz target: a 6^9-element L took seconds, checked
    // index by index). Witness: that layout, its inverses against the plain ones.
    let l: Layout = "(((2,3),(2,3)),(((2,3),(2,3)),(((2,3),(2,3)),(((2,3),(2,3)),(2,3))))):\
        (((5038848,1679616),(839808,279936)),(((139968,46656),(23328,7776)),(((3888,1296),(648,216)),\
        (((108,36),(18,6)),(3,1)))))"
        .parse()
        .unwrap();
    let c = ComposedLayout::new(Swizzle::identity(), 0, l.clone()).unwrap();
    let left = c.left_inverse().unwrap();
    assert_eq!(left.layout(), &l.left_inverse().unwrap());
    assert!(left.swizzle().is_identity() && left.offset() == 0);
    let right = c.right_inverse().unwrap();
    assert_eq!(right.layout(), &l.right_inverse());
    assert!(right.swizzle().is_identity() && right.offset() == 0);
    for i in [0, 1, 5, 77, 10_077_695] {
        assert_eq!(left.eval(c.eval(i).unwrap()).unwrap(), i);
        assert_eq!(c.eval(right.eval(i).unwrap()).unwrap(), i);
    }
}

#[test]
fn composing_with_a_composed_layout_without_swizzle_or_offset_is_composing_with_its_layout() {
    // Invariant: A ∘ (Sw<0,0,0> o 0 o L) = A ∘ L exactly, so neither `left_compose` nor a
    // product with such a tiler checks every index (the `api` fuzz target: a 6^9-element
    // tiler took seconds). Witness: small cases at every index, then the large tiler.
    let plain = |l: &str| ComposedLayout::new(Swizzle::identity(), 0, l.parse().unwrap()).unwrap();
    for (a, l) in [
        ("(4,6):(1,4)", "(2,3):(3,1)"),
        ("8:2", "(2,2):(1,2)"),
        ("(3,4):(-4,1)", "6:2"),
    ] {
        let a: Layout = a.parse().unwrap();
        let c = plain(l);
        let r = c.left_compose(&a).unwrap();
        for i in 0..c.size() {
            assert_eq!(
                r.eval(i).unwrap(),
                a.eval(c.eval(i).unwrap()).unwrap(),
                "{a} o {c} at {i}"
            );
        }
    }
    let big = plain(
        "(((2,2),(3,3)),(((2,2),(3,3)),(((2,2),(3,3)),(((2,2),(3,3)),(2,3))))):(((5038848,839808),\
         (1679616,279936)),(((139968,23328),(46656,7776)),(((3888,648),(1296,216)),(((108,18),(36,6)),(3,1)))))",
    );
    let a: Layout = "((2,2),(3,3)):((18,3),(6,1))".parse().unwrap();
    let p = a.logical_product_composed(&big).unwrap();
    assert_eq!(p.size(), a.size() * big.size());
    assert!(p.swizzle().is_identity());
    assert_eq!(p.layout(), &a.logical_product(big.layout()).unwrap());
}

#[test]
fn a_composed_layout_without_swizzle_flattens_without_a_check_at_every_index() {
    // Invariant: with no swizzle, C = O + L, so C is a plain view exactly when L
    // flattens, with L's strides and offset O (the `api` fuzz target: a 6^9-element C
    // was checked index by index). Witness: small cases at every index, then the large one.
    for (text, plain) in [
        ("Sw<0,0,0> o 5 o (2,(3,4)):(12,(4,1))", true),
        ("Sw<0,0,0> o 0 o (2,(2,2)):(2,(1,4))", false),
        ("Sw<0,0,0> o -3 o (4,1,3):(-3,7,1)", true),
    ] {
        let c: ComposedLayout = text.parse().unwrap();
        match c.flatten().unwrap() {
            Ok(v) => {
                assert!(plain, "{c}");
                let l = Layout::flat(v.shape(), v.strides()).unwrap();
                for i in 0..c.size() {
                    assert_eq!(
                        l.eval(i).unwrap() + v.offset(),
                        c.eval(i).unwrap(),
                        "{c} at {i}"
                    );
                }
            }
            Err(_) => assert!(!plain, "{c}"),
        }
    }
    let l: Layout = "((2,3),(2,3,(2,3),(2,3,(2,3)),(2,3,(2,3),(2,3,(2,3))))):((5038848,1679616),\
        (839808,279936,(139968,46656),(23328,7776,(3888,1296)),(648,216,(108,36),(18,6,(3,1)))))"
        .parse()
        .unwrap();
    let c = ComposedLayout::new(Swizzle::identity(), 7, l).unwrap();
    let v = c.flatten().unwrap().unwrap();
    assert_eq!(
        (v.shape(), v.strides(), v.offset()),
        (&[6, 1679616][..], &[1679616, 1][..], 7)
    );
}
