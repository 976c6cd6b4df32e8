//! Composition over symbols where B has negative strides (a flipped axis):
//! each answer is checked against the concrete composition (exact, with A
//! read on all of ℤ) at several bindings, the extremes included, and random
//! concrete cases with a negative stride in B, abstracted over a symbol,
//! are answered exactly or refused, never answered wrongly.

use crate::common::symbolic::syms;
use hlayout::symbolic::{SymLayout, Symbols};
use hlayout::{Error, Layout};

use proptest::prelude::*;
use proptest::strategy::ValueTree;

fn values(l: &Layout) -> Vec<i64> {
    (0..l.size())
        .map(|i| l.eval(i).expect("in domain"))
        .collect()
}

/// Every binding of the symbols to `picks` and to each symbol's extremes
/// that the assumptions allow.
fn bindings(s: &Symbols, picks: &[i64]) -> Vec<Vec<i64>> {
    let mut all = vec![vec![]];
    for id in 0..s.len() as u8 {
        let a = s.assumption(id);
        let extremes = [a.lowest().unwrap(), a.highest().unwrap()];
        let vals: Vec<i64> = picks
            .iter()
            .copied()
            .chain(extremes)
            .filter(|v| a.allows(*v))
            .collect();
        all = all
            .into_iter()
            .flat_map(|b| vals.iter().map(move |&v| [b.clone(), vec![v]].concat()))
            .collect();
    }
    all
}

/// `A ∘ B` over symbols equals the concrete composition at every binding
/// of `picks` (and the extremes); returns the symbolic answer's text.
fn composes_everywhere(s: &mut Symbols, a: &str, b: &str, picks: &[i64]) -> String {
    let (sa, sb) = (
        SymLayout::parse(a, s).unwrap(),
        SymLayout::parse(b, s).unwrap(),
    );
    let r = sa
        .compose(&sb, s)
        .unwrap_or_else(|e| panic!("{a} o {b}: {e}"));
    let all = bindings(s, picks);
    assert!(all.len() > 2, "{all:?}");
    for v in all {
        let (ca, cb) = (sa.bind(s, &v).unwrap(), sb.bind(s, &v).unwrap());
        let want = ca
            .compose(&cb)
            .unwrap_or_else(|e| panic!("{ca} o {cb}: {e}"));
        let got = r.bind(s, &v).unwrap();
        assert_eq!(
            values(&got),
            values(&want),
            "{a} o {b} at {v:?}: {got} vs {want}"
        );
    }
    r.show(s).to_string()
}

#[test]
fn a_flipped_axis_composes_at_every_binding() {
    // A row-major matrix is linear on ℤ: B's flips pass through.
    let mut s = syms(&[("M", 1, 64, 1), ("K", 1, 64, 1)]);
    let r = composes_everywhere(&mut s, "(M,K):(K,1)", "(M,K):(-K,-1)", &[2, 3, 7]);
    assert_eq!(r, "(M,K):(-K,-1)");
    // The transpose `(M,K):(1,M)` has the finite leaf K:M under its head
    // M:1; a step of -K lies in the head: t·(-K) reads row -t.
    let mut s = syms(&[("M", 1, 64, 1), ("K", 3, 64, 1)]);
    let r = composes_everywhere(&mut s, "(M,K):(1,M)", "(2,3):(-K,1)", &[4, 5, 9]);
    assert_eq!(r, "(2,3):(-1,M)");
    // A flipped row index of a transposed tile: (N,8):(1,N) ∘ (N,8):(-8,1).
    let mut s = syms(&[("N", 1, 100, 1)]);
    let r = composes_everywhere(&mut s, "(N,8):(1,N)", "(N,8):(-8,1)", &[2, 5, 33]);
    assert_eq!(r, "(N,8):(-1,N)");
    // A flip of a whole symbolic block: A's finite part 16*K divides -32*K.
    let mut s = syms(&[("K", 1, 32, 1), ("B", 1, 8, 1)]);
    let r = composes_everywhere(
        &mut s,
        "(B,K,16):(16*K,16,1)",
        "(B,2,16):(-32*K,16*K,1)",
        &[2, 3],
    );
    assert_eq!(r, "(B,2,16):(-32*K,16*K,1)");
    // The head's stride scales the flip: (H,K,4):(4,4*H,1) has head H:4.
    let mut s = syms(&[("H", 1, 16, 1), ("K", 1, 16, 1)]);
    let r = composes_everywhere(&mut s, "(H,K,4):(4,4*H,1)", "(H,4):(-4*K,1)", &[2, 5]);
    assert_eq!(r, "(H,4):(-4,1)");
}

#[test]
fn a_flip_that_does_not_lie_in_the_head_is_refused_by_rule() {
    // `2:-1` reads A at -1: the top digit of A's finite leaf (N-1 at N),
    // a layout at every N concretely but not by the structural rule; the
    // refusal names it and needs no fact (none would help).
    let mut s = syms(&[("N", 2, 64, 1)]);
    let a = SymLayout::parse("(4,N):(1,4)", &mut s).unwrap();
    let b = SymLayout::parse("2:-1", &mut s).unwrap();
    match a.compose(&b, &s) {
        Err(Error::NeedsFacts { needs, why, .. }) => {
            assert!(needs.is_empty(), "{needs:?}");
            assert!(why.contains("B's stride -1 is negative"), "{why}");
            assert!(why.contains("1 % N == 0 is false"), "{why}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    // A quotient that is no polynomial (-K/8 under K % 8 == 0) is refused too.
    let mut s = syms(&[("K", 8, 64, 8)]);
    let a = SymLayout::parse("(4,8):(1,4)", &mut s).unwrap();
    let b = SymLayout::parse("2:-K", &mut s).unwrap();
    let err = a.compose(&b, &s).unwrap_err();
    assert!(err.to_string().contains("K % 8 == 0 holds, but"), "{err}");
}

#[test]
fn divides_with_a_flipped_tiler_agree_with_the_concrete_algebra() {
    // logical_divide(A, B) = A ∘ (complement(B, size A), B): the flipped
    // tile 4:-1 of a row of 4*T, at several T.
    let mut s = syms(&[("T", 1, 50, 1)]);
    let a = SymLayout::parse("4*T:1", &mut s).unwrap();
    let b = SymLayout::parse("4:-1", &mut s).unwrap();
    let r = a.logical_divide(&b, &s).unwrap();
    for v in bindings(&s, &[2, 3, 17]) {
        let (ca, cb) = (a.bind(&s, &v).unwrap(), b.bind(&s, &v).unwrap());
        let want = ca.logical_divide(&cb).unwrap();
        let got = r.bind(&s, &v).unwrap();
        assert_eq!(values(&got), values(&want), "at {v:?}: {got} vs {want}");
    }
}

/// A flat concrete layout text with leaf `k`'s extent or stride written as
/// `N` (or `-N` for a negative stride).
fn text(shape: &[i64], stride: &[i64], spot: Option<(usize, bool)>) -> String {
    crate::common::symbolic::spot_text(shape, stride, spot, true)
}

/// Random concrete compositions with negative strides in B, one leaf of A
/// or B abstracted to `N` over a range of its value's multiples: every
/// symbolic answer equals the concrete one at every allowed N (where the
/// concrete one must exist). Returns (answered, refused).
fn negative_census(cases: usize) -> (usize, usize) {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let flat = |rank, lo| prop::collection::vec((1i64..=6, lo..=12i64), 1..=rank);
    let strat = (
        flat(3, 0),
        flat(2, -12),
        any::<bool>(),
        0usize..3,
        any::<bool>(),
        0i64..3,
    );
    let (mut answered, mut refused) = (0, 0);
    for _ in 0..cases {
        let (a, b, in_a, leaf, is_stride, above) = strat.new_tree(&mut runner).unwrap().current();
        let (sa, da): (Vec<i64>, Vec<i64>) = a.into_iter().unzip();
        let (sb, db): (Vec<i64>, Vec<i64>) = b.into_iter().unzip();
        if db.iter().all(|&d| d >= 0) {
            continue;
        }
        let (shape, stride) = if in_a { (&sa, &da) } else { (&sb, &db) };
        let k = leaf % shape.len();
        let v = if is_stride { stride[k] } else { shape[k] }.abs();
        if v < 1 || above == 0 {
            continue; // a fixed N is a constant: the concrete path
        }
        let mut s = syms(&[("N", v, v + above * v, v)]);
        let spot = Some((k, is_stride));
        let (ta, tb) = if in_a {
            (text(&sa, &da, spot), text(&sb, &db, None))
        } else {
            (text(&sa, &da, None), text(&sb, &db, spot))
        };
        let (Ok(a), Ok(b)) = (SymLayout::parse(&ta, &mut s), SymLayout::parse(&tb, &mut s)) else {
            continue;
        };
        match a.compose(&b, &s) {
            Ok(r) => {
                answered += 1;
                for n in (v..=v + above * v).step_by(v as usize) {
                    let (ca, cb) = (a.bind(&s, &[n]).unwrap(), b.bind(&s, &[n]).unwrap());
                    let want = ca.compose(&cb).unwrap_or_else(|e| {
                        panic!(
                            "{ta} o {tb} answered {} but N={n} has none: {e}",
                            r.show(&s)
                        )
                    });
                    let got = r.bind(&s, &[n]).unwrap();
                    assert_eq!(values(&got), values(&want), "{ta} o {tb} at N={n}");
                }
            }
            Err(Error::NeedsFacts { .. }) => refused += 1,
            Err(e) => panic!("{ta} o {tb}: {e}"),
        }
    }
    (answered, refused)
}

#[test]
fn random_flips_are_answered_exactly_or_refused() {
    let (answered, refused) = negative_census(3000);
    eprintln!("negative-stride census: {answered} answered, {refused} refused");
    assert!(answered > 200, "{answered} answered, {refused} refused");
}
