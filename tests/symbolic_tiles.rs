//! The remaining algebra over symbols (`right_inverse`, `left_inverse`, the
//! blocked and raked products, the zipped/tiled/flat forms with one tiler
//! layout) against the concrete algebra at every allowed binding, as
//! `tests/symbolic.rs` checks compose and complement: random concrete
//! layouts with one leaf abstracted to `N` (its assumptions a range of
//! multiples around the concrete value), and named cases with several
//! bindings per symbol, the extremes included.

use hlayout::symbolic::{Assume, SymLayout, Symbols};
use hlayout::{Error, Layout};
use proptest::prelude::*;

use crate::symbolic::{
    abstracted, allowed, flat, n_for, same_at, spotted_pair, syms, text, values,
};

/// Checks an inverse over N at every allowed binding: equal as a function
/// to the concrete one, and `L(R(i)) = i` (right) or `R(L(i)) = i` (left)
/// there. Returns whether the symbolic one answered.
fn check_inverse(t: &str, s: &mut Symbols, left: bool) -> Option<bool> {
    let l = SymLayout::parse(t, s).ok()?;
    let got = if left {
        l.left_inverse(s)
    } else {
        l.right_inverse(s)
    };
    let r = match got {
        Ok(r) => r,
        Err(Error::NeedsFacts { .. }) => return Some(false),
        Err(e) => panic!("inverse of {t}: {e} is not a refusal naming facts"),
    };
    for n in allowed(s) {
        let (lb, rb) = (l.bind(s, &[n]).unwrap(), r.bind(s, &[n]).unwrap());
        let want = if left {
            lb.left_inverse()
                .unwrap_or_else(|e| panic!("{t} at N={n}: {e}"))
        } else {
            lb.right_inverse()
        };
        let shown = r.show(s).to_string();
        assert_eq!(
            values(&rb),
            values(&want),
            "{t} -> {shown} at N={n}: {want}"
        );
        if left {
            let zero = |i: i64| kernel_free(&lb, i);
            for i in 0..lb.size() {
                let x = lb.eval(i).unwrap();
                assert_eq!(
                    rb.eval(x).unwrap(),
                    zero(i),
                    "{t} -> {shown} at N={n}, i={i}"
                );
            }
        } else {
            for i in 0..rb.size() {
                assert_eq!(
                    lb.eval(rb.eval(i).unwrap()).unwrap(),
                    i,
                    "{t} -> {shown} at N={n}"
                );
            }
        }
    }
    Some(true)
}

/// `i` with its coordinates on stride-0 leaves set to 0 (the left inverse's
/// contract on a kernel).
fn kernel_free(l: &Layout, i: i64) -> i64 {
    let (sh, st) = (l.shape_leaves(), l.stride_leaves());
    let (mut rest, mut place, mut out) = (i, 1i64, 0i64);
    for k in (0..sh.len()).rev() {
        let c = rest % sh[k];
        rest /= sh[k];
        if st[k] != 0 {
            out += c * place;
        }
        place *= sh[k];
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]
    #[test]
    fn inverses_over_a_symbol_agree_with_the_concrete_algebra(
        (sh, st, k, is_stride, below, above, dp) in abstracted(), left in any::<bool>(),
    ) {
        let k = k % sh.len();
        let v = if is_stride { st[k] } else { sh[k] };
        let Some(mut s) = n_for(v, below, above, dp) else { return Ok(()) };
        check_inverse(&text(&sh, &st, Some((k, is_stride))), &mut s, left);
    }

    #[test]
    fn inverses_with_negative_strides_over_a_symbol_agree_with_the_concrete_algebra(
        leaves in prop::collection::vec((1i64..=6, -6i64..=12), 1..=3), k in 0usize..3,
        is_stride in any::<bool>(), below in 0i64..3, above in 0i64..3, dp in 0usize..4, left in any::<bool>(),
    ) {
        let (sh, st): (Vec<i64>, Vec<i64>) = leaves.into_iter().unzip();
        let k = k % sh.len();
        let v = if is_stride { st[k] } else { sh[k] };
        let Some(mut s) = n_for(v, below, above, dp) else { return Ok(()) };
        let t = text(&sh, &st, Some((k, is_stride)));
        check_inverse(&t, &mut s, left);
    }

    #[test]
    fn products_and_single_tiler_divides_over_a_symbol_agree_with_the_concrete_algebra(
        (sh, st, k, is_stride, below, above, dp) in abstracted(), (tb_s, tb_d) in flat(2),
        in_a in any::<bool>(), how in 0usize..7,
    ) {
        let (v, ta, tb) = spotted_pair((&sh, &st), (&tb_s, &tb_d), k, is_stride, in_a);
        let Some(mut s) = n_for(v, below, above, dp) else { return Ok(()) };
        op_agrees(how, &ta, &tb, &mut s);
    }
}

const OPS: [&str; 7] = [
    "blocked_product",
    "raked_product",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "zipped_product",
    "tiled_product",
];

/// Operation `how` of [`OPS`] over N against the concrete one.
fn op_agrees(how: usize, ta: &str, tb: &str, s: &mut Symbols) -> Option<bool> {
    use hlayout::algebra::Tiler;
    let sym = |l: &[SymLayout], s: &Symbols| match how {
        0 => l[0].blocked_product(&l[1], s),
        1 => l[0].raked_product(&l[1], s),
        2 => l[0].zipped_divide(&l[1], s),
        3 => l[0].tiled_divide(&l[1], s),
        4 => l[0].flat_divide(&l[1], s),
        5 => l[0].zipped_product(&l[1], s),
        _ => l[0].tiled_product(&l[1], s),
    };
    let conc = |l: &[Layout], _: i64| {
        let t = Tiler::Layout(l[1].clone());
        match how {
            0 => l[0].blocked_product(&l[1]),
            1 => l[0].raked_product(&l[1]),
            2 => l[0].zipped_divide(&t),
            3 => l[0].tiled_divide(&t),
            4 => l[0].flat_divide(&t),
            5 => l[0].zipped_product(&t),
            _ => l[0].tiled_product(&t),
        }
    };
    check_values(OPS[how], &[ta, tb], s, sym, conc, !matches!(how, 3 | 4 | 6))
}

/// `check_unary` of `tests/symbolic.rs`, the top-level rank compared only
/// when `rank`: the tiled and flat forms have one mode per leaf of the rest
/// (or placement), and where the concrete complement coalesces further at
/// one binding (an extent that is 1 there) it has fewer; the function is
/// the same.
fn check_values(
    what: &str,
    texts: &[&str],
    s: &mut Symbols,
    sym: impl Fn(&[SymLayout], &Symbols) -> hlayout::Result<SymLayout>,
    conc: impl Fn(&[Layout], i64) -> hlayout::Result<Layout>,
    rank: bool,
) -> Option<bool> {
    let ls: Vec<SymLayout> = texts
        .iter()
        .map(|t| SymLayout::parse(t, s))
        .collect::<hlayout::Result<_>>()
        .ok()?;
    let r = match sym(&ls, s) {
        Ok(r) => r,
        Err(Error::NeedsFacts { .. }) => return Some(false),
        Err(e) => panic!("{what} {texts:?}: {e} is not a refusal naming facts"),
    };
    for n in allowed(s) {
        let bound: Vec<Layout> = ls.iter().map(|l| l.bind(s, &[n]).unwrap()).collect();
        let shown = r.show(s).to_string();
        let want = conc(&bound, n)
            .unwrap_or_else(|e| panic!("{what} {texts:?} = {shown} over N, refused at N={n}: {e}"));
        let got = r.bind(s, &[n]).unwrap();
        assert_eq!(
            values(&got),
            values(&want),
            "{what} {texts:?} = {shown} at N={n} vs {want}"
        );
        if rank {
            assert_eq!(
                got.shape().rank(),
                want.shape().rank(),
                "{what} {texts:?} at N={n}"
            );
        }
    }
    Some(true)
}

#[test]
fn census_of_the_new_operations() {
    // The properties above pass vacuously if nothing answers: count answers
    // over a fixed seed, each checked at every binding.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut answered = [0usize; 9];
    let strategy = (abstracted(), flat(2), any::<bool>());
    for _ in 0..2500 {
        let ((sh, st, k, is_stride, below, above, dp), (tb_s, tb_d), in_a) =
            strategy.new_tree(&mut runner).unwrap().current();
        let (v, ta, tb) = spotted_pair((&sh, &st), (&tb_s, &tb_d), k, is_stride, in_a);
        for (how, n) in answered.iter_mut().enumerate() {
            let Some(mut s) = n_for(v, below, above, dp) else {
                continue;
            };
            let ok = match how {
                7 | 8 if !in_a => None,
                7 => check_inverse(&ta, &mut s, false),
                8 => check_inverse(&ta, &mut s, true),
                _ => op_agrees(how, &ta, &tb, &mut s),
            };
            *n += usize::from(ok == Some(true));
        }
    }
    eprintln!("answered (7 ops, right and left inverse): {answered:?}");
    assert!(answered.iter().all(|&a| a > 100), "{answered:?}");
}

use proptest::strategy::ValueTree;

#[test]
fn named_inverses_at_several_bindings() {
    let picks = [2, 3, 4, 7, 8, 64];
    // A transpose over N: its right inverse reads the columns back.
    let mut s = syms(&[("N", 2, 64, 1)]);
    let t = SymLayout::parse("(N,4):(1,N)", &mut s).unwrap();
    let r = t.right_inverse(&s).unwrap();
    assert_eq!(r.show(&s).to_string(), "(4,N):(1,4)");
    same_at(&r, |b| t.bind(&s, b).unwrap().right_inverse(), &s, &picks);
    // Every other column of an N-wide row: a left inverse for every N.
    let l = SymLayout::parse("(N,4):(1,2*N)", &mut s).unwrap();
    let li = l.left_inverse(&s).unwrap();
    same_at(
        &li,
        |b| l.bind(&s, b).unwrap().left_inverse().unwrap(),
        &s,
        &picks,
    );
    // Two symbols, the extremes included.
    let mut s = syms(&[("M", 2, 16, 1), ("K", 2, 32, 2)]);
    let a = SymLayout::parse("(M,(4,K)):(4*K,(1,4))", &mut s).unwrap();
    let r = a.right_inverse(&s).unwrap();
    same_at(
        &r,
        |b| a.bind(&s, b).unwrap().right_inverse(),
        &s,
        &[1, 2, 3, 8, 16],
    );
    let li = a.left_inverse(&s).unwrap();
    same_at(
        &li,
        |b| a.bind(&s, b).unwrap().left_inverse().unwrap(),
        &s,
        &[1, 2, 3, 8, 16],
    );
}

#[test]
fn inverse_refusals_name_the_fact() {
    // Whether the chain goes on past 4:1 depends on K (K = 4 continues it).
    let mut s = Symbols::new();
    let u = SymLayout::parse("(2,4):(K,1)", &mut s).unwrap();
    match u.right_inverse(&s) {
        Err(Error::NeedsFacts { needs, .. }) => assert_eq!(needs, ["K >= 5"]),
        other => panic!("{other:?}"),
    }
    s.assume(
        "K",
        Assume {
            min: 5,
            max: 1 << 20,
            ..Assume::default()
        },
    )
    .unwrap();
    assert_eq!(u.right_inverse(&s).unwrap().show(&s).to_string(), "4:1");
    // Holes between the leaves (N not a multiple of 4 at every binding): refused.
    let mut s = syms(&[("N", 4, 64, 1)]);
    let h = SymLayout::parse("(2,4):(N,1)", &mut s).unwrap();
    assert!(matches!(h.left_inverse(&s), Err(Error::NeedsFacts { .. })));
    let mut s = syms(&[("N", 4, 64, 4)]);
    let h = SymLayout::parse("(2,4):(N,1)", &mut s).unwrap();
    let r = h.left_inverse(&s);
    assert!(
        matches!(r, Err(Error::NeedsFacts { ref needs, .. }) if needs.is_empty()),
        "{r:?}"
    );
    // At Nt = 1 two leaves have stride 4: the chain's order is not proved.
    let mut s = syms(&[("Nt", 1, 16, 1)]);
    let h = SymLayout::parse("(2,4):(4*Nt,1)", &mut s).unwrap();
    match h.left_inverse(&s) {
        Err(Error::NeedsFacts { needs, .. }) => assert_eq!(needs, ["Nt >= 2"]),
        other => panic!("{other:?}"),
    }
    let mut s = syms(&[("Nt", 2, 16, 1)]);
    let h = SymLayout::parse("(2,4):(4*Nt,1)", &mut s).unwrap();
    let r = h.left_inverse(&s).unwrap();
    same_at(
        &r,
        |b| h.bind(&s, b).unwrap().left_inverse().unwrap(),
        &s,
        &[1, 2, 5, 16],
    );
}

#[test]
fn named_products_and_divides_at_several_bindings() {
    let mut s = syms(&[("N", 2, 32, 1), ("T", 1, 16, 1)]);
    let picks = [1, 2, 3, 5, 16, 32];
    let a = SymLayout::parse("(2,N):(N,1)", &mut s).unwrap();
    let b = SymLayout::parse("(3,T):(T,1)", &mut s).unwrap();
    for (name, r, want) in [
        (
            "blocked",
            a.blocked_product(&b, &s),
            Layout::blocked_product as fn(&Layout, &Layout) -> hlayout::Result<Layout>,
        ),
        ("raked", a.raked_product(&b, &s), Layout::raked_product),
    ] {
        let r = r.unwrap_or_else(|e| panic!("{name}: {e}"));
        same_at(
            &r,
            |v| want(&a.bind(&s, v).unwrap(), &b.bind(&s, v).unwrap()).unwrap(),
            &s,
            &picks,
        );
    }
    let row = SymLayout::parse("(64*T,8):(8,1)", &mut s).unwrap();
    let tile = SymLayout::parse("(4,64):(1,8)", &mut s).unwrap();
    use hlayout::algebra::Tiler;
    let tiled = row.tiled_divide(&tile, &s).unwrap();
    assert_eq!(tiled.show(&s).to_string(), "(T,2,(4,64)):(512,4,(1,8))");
    same_at(
        &tiled,
        |v| {
            row.bind(&s, v)
                .unwrap()
                .tiled_divide(&Tiler::Layout(tile.bind(&s, v).unwrap()))
                .unwrap()
        },
        &s,
        &picks,
    );
    // The tile count 512*T/1024 is no polynomial (T may be odd): refused.
    let mut odd = syms(&[("T", 1, 16, 1)]);
    let row = SymLayout::parse("(64*T,8):(8,1)", &mut odd).unwrap();
    let tile = SymLayout::parse("(4,64):(1,8)", &mut odd).unwrap();
    assert!(matches!(
        row.flat_divide(&SymLayout::parse("(8,128):(1,8)", &mut odd).unwrap(), &odd),
        Err(Error::NeedsFacts { .. })
    ));
    assert!(row.flat_divide(&tile, &odd).is_ok());
}

// ---------------------------------------------------------------------------
// Predicated divides over symbols.

/// Checks a symbolic predicated divide against the concrete one at every
/// allowed binding of K (id 0): the same shape, and at every element the
/// same offset or the same invalidity.
fn check_predicated(
    got: &hlayout::symbolic::SymPredicated,
    s: &Symbols,
    want: impl Fn(i64) -> hlayout::View,
) {
    let a = s.assumption(0);
    for k in (a.min..=a.max).filter(|v| a.allows(*v)) {
        let (g, w) = (got.bind(s, &[k]).unwrap(), want(k));
        let shown = got.show(s).to_string();
        assert_eq!(g.shape(), w.shape(), "{shown} at K={k}: {g} vs {w}");
        let shape = w.shape();
        for i in 0..w.size() {
            let c = crate::common::digits(i, &shape);
            assert_eq!(
                g.eval(&c).unwrap(),
                w.eval(&c).unwrap(),
                "{shown} at K={k}, {c:?}: {g} vs {w}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn predicated_divides_over_a_symbol_agree_with_the_concrete_ones(
        t in 1i64..=6, r in 0i64..6, q in 1i64..=4, below in 0i64..3, above in 0i64..3,
        stride in 1i64..=3, n2 in 1i64..=6, t2 in 1i64..=4, two_d in any::<bool>(), form in 0usize..4,
    ) {
        use hlayout::algebra::{DivideForm, Tiler};
        let r = r % t;
        let mut s = Symbols::new();
        let min = if r > 0 { (q - below).max(0) } else { (q - below).max(1) };
        s.assume("K", Assume { min, max: q + above, divisible_by: 1 }).unwrap();
        let ext = if r > 0 { format!("{t}*K+{r}") } else { format!("{t}*K") };
        let tile = SymLayout::parse(&format!("{t}:1"), &mut s).unwrap();
        let ct: Layout = format!("{t}:1").parse().unwrap();
        if !two_d {
            let forms = [DivideForm::Logical, DivideForm::Zipped, DivideForm::Tiled, DivideForm::Flat];
            let a = SymLayout::parse(&format!("{ext}:{stride}"), &mut s).unwrap();
            // A two-leaf tile spanning t: strided when t is even.
            let tt = if t % 2 == 0 { format!("(2,{}):(1,2)", t / 2) } else { format!("(1,{t}):({t},1)") };
            let tile = SymLayout::parse(&tt, &mut s).unwrap();
            let ct: Layout = tt.parse().unwrap();
            let p = a.predicated_divide(&tile, forms[form], &s).unwrap();
            check_predicated(&p, &s, |k| {
                a.bind(&s, &[k]).unwrap().predicated_divide(&Tiler::Layout(ct.clone()), forms[form]).unwrap()
            });
        } else {
            let forms = [DivideForm::Logical, DivideForm::Zipped, DivideForm::Tiled, DivideForm::Flat];
            let a = SymLayout::parse(&format!("({ext},{n2}):({},{stride})", n2 * stride), &mut s).unwrap();
            let t2s = SymLayout::parse(&format!("{t2}:1"), &mut s).unwrap();
            let p = a.predicated_divide_by(&[tile, t2s], forms[form], &s).unwrap();
            let tiler = Tiler::Modes(vec![ct.clone(), format!("{t2}:1").parse().unwrap()]);
            check_predicated(&p, &s, |k| a.bind(&s, &[k]).unwrap().predicated_divide(&tiler, forms[form]).unwrap());
        }
    }
}

#[test]
fn predicated_tiles_of_a_symbolic_extent() {
    use hlayout::algebra::{DivideForm, Tiler};
    // 64*K+10 by 64: K+1 tiles, the last valid up to 10; K = 0 and the top included.
    let mut s = syms(&[("K", 0, 100, 1)]);
    let a = SymLayout::parse("64*K+10:1", &mut s).unwrap();
    let tile = SymLayout::parse("64:1", &mut s).unwrap();
    let p = a.predicated_divide(&tile, DivideForm::Logical, &s).unwrap();
    assert_eq!(
        p.show(&s).to_string(),
        "(K+1,64):(64,1) if 0<=64*x0+x1<64*K+10"
    );
    let ct: Layout = "64:1".parse().unwrap();
    check_predicated(&p, &s, |k| {
        a.bind(&s, &[k])
            .unwrap()
            .predicated_divide(&Tiler::Layout(ct.clone()), DivideForm::Logical)
            .unwrap()
    });
    // A multiple of the tile: no constraint, the plain divide.
    let m = SymLayout::parse("64*K+64:1", &mut s).unwrap();
    let p = m.predicated_divide(&tile, DivideForm::Logical, &s).unwrap();
    assert!(p.constraints().is_empty(), "{}", p.show(&s));
    assert_eq!(p.layout(), &m.logical_divide(&tile, &s).unwrap());
    // N by 64: the tile count ⌈N/64⌉ is no polynomial, with or without N % 64 == 0.
    for d in [1, 64] {
        let mut s = syms(&[("N", 1, 1 << 20, d)]);
        let n = SymLayout::parse("N:1", &mut s).unwrap();
        let tile = SymLayout::parse("64:1", &mut s).unwrap();
        match n.predicated_divide(&tile, DivideForm::Logical, &s) {
            Err(Error::NeedsFacts { needs, why, .. }) => {
                assert!(needs.is_empty() && why.contains("tile count"), "{why}")
            }
            other => panic!("{other:?}"),
        }
    }
    // A symbolic tile count: ⌈(4*M*K+1)/(4*M)⌉ is no polynomial either.
    let mut s = syms(&[("M", 1, 8, 1), ("K", 1, 8, 1)]);
    let a = SymLayout::parse("4*M*K+1:1", &mut s).unwrap();
    assert!(a
        .predicated_divide(
            &SymLayout::parse("4*M:1", &mut s).unwrap(),
            DivideForm::Logical,
            &s
        )
        .is_err());
}
