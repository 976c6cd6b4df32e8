//! `SymKernel::bind`: a symbolic kernel specialised at a binding equals the
//! concrete layout at every point and has never more `/` and `%` than the
//! concrete kernel of the same layout at that binding (no exception), for
//! chosen layouts that coalesce by coincidence and for random layouts over
//! two symbols at their least, middle and greatest values.

use crate::common::symbolic::{product, syms};
use hlayout::codegen::{self, Input, Kernel};
use hlayout::symbolic::{SymLayout, Symbols};
use hlayout::Layout;
use proptest::prelude::*;

/// Each symbol at its least, middle and greatest allowed value, all
/// combinations.
fn bindings(s: &Symbols) -> Vec<Vec<i64>> {
    product((0..s.len() as u8).map(|id| {
        let (lo, hi) = s.range(id);
        let d = s.assumption(id).divisible_by;
        let mut vs = vec![lo, lo + (hi - lo) / d / 2 * d, hi];
        vs.dedup();
        vs
    }))
}

/// Every input point of `k` (a product of its variables' extents).
fn points(k: &Kernel) -> Vec<Vec<i64>> {
    product(k.vars().iter().map(|v| 0..v.extent))
}

/// The concrete layout's offset at input point `p`.
fn offset(l: &Layout, p: &[i64], input: Input) -> i64 {
    match input {
        Input::Linear => l.eval(p[0]).unwrap(),
        Input::Coords => {
            // Row-major rank from the top-level coordinates.
            let ext: Vec<i64> = (0..l.rank()).map(|m| l.mode(m).unwrap().size()).collect();
            let rank = p.iter().zip(&ext).fold(0, |acc, (&x, &n)| acc * n + x);
            l.eval(rank).unwrap()
        }
    }
}

/// Checks `l`'s kernel bound at every binding of `s` (min, mid, max) against
/// the concrete layout and kernel; the number of bindings checked.
fn check(l: &SymLayout, s: &Symbols) -> usize {
    let mut checked = 0;
    for input in [Input::Linear, Input::Coords] {
        let Ok(k) = codegen::sym_layout(l, s, input) else {
            continue;
        };
        for at in bindings(s) {
            let concrete = l.bind(s, &at).unwrap();
            let Ok(ck) = codegen::layout(&concrete, input) else {
                continue;
            };
            let bk = k.bind(s, &at).unwrap();
            for p in points(&bk) {
                assert_eq!(
                    bk.eval(&p).unwrap(),
                    (offset(&concrete, &p, input), true),
                    "{} at {at:?}, point {p:?}: {}",
                    l.show(s),
                    bk.c().0
                );
            }
            assert!(
                bk.div_mod_count() <= ck.div_mod_count(),
                "{} at {at:?} ({input:?}): bound {} has more / and % than concrete {}",
                l.show(s),
                bk.c().0,
                ck.c().0
            );
            checked += 1;
        }
    }
    checked
}

/// `(layout, [(symbol, min, max, divisible_by)])`.
type Case = (&'static str, &'static [(&'static str, i64, i64, i64)]);

#[test]
fn coincidental_coalescing_is_specialised_away() {
    // Each layout coalesces concretely at some binding where the symbolic
    // text cannot: at N = 1, at M = N, at a stride that equals a product.
    let cases: &[Case] = &[
        ("(4,N):(1,4)", &[("N", 1, 9, 1)]),
        ("(N,4):(1,N)", &[("N", 1, 7, 1)]),
        ("(2,N):(M,1)", &[("N", 1, 4, 1), ("M", 1, 4, 1)]),
        (
            "(2,N,3):(A,B,1)",
            &[("N", 1, 3, 1), ("A", 0, 9, 1), ("B", 0, 4, 1)],
        ),
        ("(N,N):(1,N)", &[("N", 1, 6, 1)]),
        ("(2,N,M):(N*M,1,N)", &[("N", 1, 4, 1), ("M", 1, 4, 1)]),
        (
            "((2,N),(3,M)):((1,6*M),(2,6))",
            &[("N", 1, 3, 1), ("M", 1, 3, 1)],
        ),
        ("(4,N,2):(2*N,0,1)", &[("N", 1, 6, 1)]),
        ("(8,N):(1,8)", &[("N", 4, 16, 4)]),
        ("(3,N):(N+1,1)", &[("N", 1, 6, 1)]),
        ("(N,2):(-2,1)", &[("N", 1, 6, 1)]),
    ];
    for (text, assume) in cases {
        let mut s = syms(assume);
        let l = SymLayout::parse(text, &mut s).unwrap();
        assert!(check(&l, &s) > 0, "{text}: nothing checked");
    }
    // The first case by hand: at N = 1 no division is left.
    let mut s = syms(&[("N", 1, 9, 1)]);
    let l = SymLayout::parse("(4,N):(1,4)", &mut s).unwrap();
    let k = codegen::sym_layout(&l, &s, Input::Linear).unwrap();
    let bound = k.bind(&s, &s.binding(&[("N", 1)]).unwrap()).unwrap();
    assert_eq!((bound.c().0.as_str(), bound.div_mod_count()), ("i", 0));
}

#[test]
fn a_binding_outside_the_assumptions_is_refused() {
    let mut s = syms(&[("N", 2, 9, 1)]);
    let l = SymLayout::parse("(4,N):(1,4)", &mut s).unwrap();
    let k = codegen::sym_layout(&l, &s, Input::Linear).unwrap();
    assert!(k.bind(&s, &[1]).is_err());
    assert!(k.bind(&s, &[]).is_err());
}

#[test]
fn a_chain_kernel_with_a_condition_is_refused() {
    use hlayout::symbolic::{SymMovement, SymViewStack};
    let mut s = syms(&[("N", 1, 8, 1), ("j", 0, 3, 1)]);
    let pad = SymMovement::parse(r#"["pad",[["j",0],[0,0]]]"#, &mut s).unwrap();
    let t = SymViewStack::new(&[s.parse("N").unwrap(), 4.into()], &s)
        .unwrap()
        .apply(&pad, &s)
        .unwrap();
    let k = codegen::sym_stack(&t, &s, Input::Coords).unwrap();
    let at = s.binding(&[("N", 3), ("j", 2)]).unwrap();
    assert!(matches!(
        k.bind(&s, &at),
        Err(hlayout::Error::OutOfDomain { .. })
    ));
}

/// An extent: a constant 1..=4, `N`, `M`, `2*N`, `N+1`.
fn extent() -> impl Strategy<Value = String> {
    prop_oneof![
        (1i64..=4).prop_map(|c| c.to_string()),
        Just("N".to_string()),
        Just("M".to_string()),
        Just("2*N".to_string()),
        Just("N+1".to_string()),
    ]
}

/// A stride: a constant -3..=8, a symbol, or a product.
fn stride() -> impl Strategy<Value = String> {
    prop_oneof![
        (-3i64..=8).prop_map(|c| c.to_string()),
        Just("N".to_string()),
        Just("M".to_string()),
        Just("2*N".to_string()),
        Just("N*M".to_string()),
        Just("M+1".to_string()),
    ]
}

/// A layout over `N` and `M`, one level of nesting.
pub(crate) fn layout_text() -> impl Strategy<Value = String> {
    let mode = prop::collection::vec((extent(), stride()), 1..=3);
    prop::collection::vec(mode, 1..=2).prop_map(|modes| {
        let part = |pick: &dyn Fn(&(String, String)) -> String| {
            let ms: Vec<String> = modes
                .iter()
                .map(|m| format!("({})", m.iter().map(pick).collect::<Vec<_>>().join(",")))
                .collect();
            format!("({})", ms.join(","))
        };
        format!("{}:{}", part(&|l| l.0.clone()), part(&|l| l.1.clone()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(300)))]

    /// Random layouts at their least, middle and greatest bindings.
    #[test]
    fn bound_kernels_never_cost_more_than_concrete(
        text in layout_text(),
        n in (1i64..=3, 0i64..=3),
        m in (1i64..=2, 0i64..=3),
    ) {
        let s = syms(&[("N", n.0, n.0 + n.1, 1), ("M", m.0, m.0 + m.1, 1)]);
        let mut s = s;
        if let Ok(l) = SymLayout::parse(&text, &mut s) {
            check(&l, &s);
        }
    }
}
