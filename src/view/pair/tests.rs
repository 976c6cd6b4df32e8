//! Two exact answers to one question must agree: the evaluated flat fit
//! and the closed-form merge decision on plain views; and on random pairs
//! of views (constraints, windows, flips, broadcasts, pooling windows),
//! every merge equals the composition at every element. (Whether a merge is
//! found wherever one exists is checked on the recorded chains, against
//! exact oracles, in `cli/tests/view_chains.rs`.)
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;

use super::*;
use crate::view::index::IndexEvaluator;
use crate::view::{unravel, ViewStack};

fn flat(max_rank: usize) -> impl Strategy<Value = FlatView> {
    prop::collection::vec(
        (1i64..=4, -3i64..=8, any::<bool>(), 0i64..4, 0i64..4),
        1..=max_rank,
    )
    .prop_flat_map(|dims| (Just(dims), -4i64..12, any::<bool>()))
    .prop_map(|(dims, offset, masked)| {
        let shape: Vec<i64> = dims.iter().map(|d| d.0).collect();
        let strides = dims.iter().map(|d| d.1).collect();
        let mask = masked.then(|| {
            dims.iter()
                .map(|&(s, _, cut, a, b)| {
                    if cut {
                        (a.min(s), (a + b).min(s))
                    } else {
                        (0, s)
                    }
                })
                .collect()
        });
        FlatView::new(shape, strides, offset, mask).unwrap()
    })
}

/// `lower ∘ upper` at every element of the upper view, row-major, by the
/// public evaluation of each view.
pub(in crate::view) fn composition(lower: &View, upper: &View) -> Vec<Option<i64>> {
    let (below, shape) = (lower.shape(), upper.shape());
    (0..upper.size())
        .map(|i| match upper.eval(&unravel(i, &shape)).unwrap() {
            Some(idx) if (0..lower.size()).contains(&idx) => {
                lower.eval(&unravel(idx, &below)).unwrap()
            }
            _ => None,
        })
        .collect()
}

pub(in crate::view) fn every_element(v: &View) -> Vec<Option<i64>> {
    let shape = v.shape();
    (0..v.size())
        .map(|i| v.eval(&unravel(i, &shape)).unwrap())
        .collect()
}

/// One movement op with arguments valid for `shape`, drawn from `words`.
pub(in crate::view) fn random_op(t: ViewStack, words: &mut impl Iterator<Item = u32>) -> ViewStack {
    let mut below = |n: i64| i64::from(words.next().unwrap_or(0)) % n.max(1);
    let shape = t.shape();
    let size: i64 = shape.iter().product();
    let applied = match below(7) {
        0 => {
            let rank = 1 + below(4) as usize;
            let mut out = vec![1i64; rank];
            let (mut n, mut d) = (size, 2);
            while n > 1 {
                while n % d == 0 {
                    out[below(rank as i64) as usize] *= d;
                    n /= d;
                }
                d += 1;
            }
            t.reshape(&out)
        }
        1 => {
            let mut p: Vec<usize> = (0..shape.len()).collect();
            for k in (1..p.len()).rev() {
                p.swap(k, below(k as i64 + 1) as usize);
            }
            t.permute(&p)
        }
        2 => {
            let to: Vec<i64> = shape
                .iter()
                .map(|&s| if s == 1 { 1 + below(3) } else { s })
                .collect();
            t.expand(&to)
        }
        3 if size <= 200 => {
            let arg: Vec<_> = shape.iter().map(|_| (below(3), below(3))).collect();
            t.pad(&arg)
        }
        4 => {
            let arg: Vec<_> = shape
                .iter()
                .map(|&s| {
                    let b = below(s);
                    (b, b + 1 + below(s - b))
                })
                .collect();
            t.shrink(&arg)
        }
        5 => {
            let flags: Vec<bool> = shape.iter().map(|_| below(2) == 1).collect();
            t.flip(&flags)
        }
        _ => {
            let steps: Vec<i64> = shape
                .iter()
                .map(|_| [1, 2, 3, -1, -2][below(5) as usize])
                .collect();
            t.stride(&steps)
        }
    };
    applied.unwrap()
}

/// A random view: a chain of `ops` random ops from `shape`, its bottom view.
pub(in crate::view) fn random_view(
    shape: &[i64],
    ops: usize,
    words: &mut impl Iterator<Item = u32>,
) -> View {
    let mut t = ViewStack::new(shape).unwrap();
    for _ in 0..ops {
        t = random_op(t, words);
    }
    t.views()[0].clone()
}

/// A view with windows, most of the time: the flattened transpose of
/// `shape` (a nested dimension), shrunk and padded at bounds that cut its
/// leaves, then `ops` random ops.
pub(in crate::view) fn windowed_view(
    shape: &[i64],
    ops: usize,
    words: &mut impl Iterator<Item = u32>,
) -> View {
    let mut below = |n: i64| i64::from(words.next().unwrap_or(0)) % n.max(1);
    let (a, b) = (shape[0] + 1, shape.get(1).map_or(3, |&x| x + 1));
    let n = a * b;
    let start = below(n);
    let end = start + 1 + below(n - start);
    let (before, after) = (below(3), below(3));
    let mut t = ViewStack::new(&[a, b])
        .and_then(|t| t.permute(&[1, 0]))
        .and_then(|t| t.reshape(&[n]))
        .and_then(|t| t.shrink(&[(start, end)]))
        .and_then(|t| t.pad(&[(before, after)]))
        .unwrap();
    for _ in 0..ops {
        t = random_op(t, words);
    }
    t.views()[0].clone()
}

/// tinygrad's `_pool` before its last reshape-and-shrink: an `n×n` image
/// (maybe flipped) padded by `pad`, repeated `k+1` times and flattened,
/// shrunk to `k·(n+2·pad+dilation)`; and the upper view that splits it.
fn pool_pair(n: i64, pad: i64, k: i64, extra: i64, flip: bool, cut: bool) -> (View, View) {
    let p = n + 2 * pad;
    let extra = extra.min(p / k); // k·(p + extra) <= (k + 1)·p
    let m = k * (p + extra);
    let lower = ViewStack::new(&[n, n])
        .and_then(|t| t.flip(&[flip, false]))
        .and_then(|t| t.pad(&[(pad, pad), (pad, pad)]))
        .and_then(|t| t.reshape(&[1, p, 1, p]))
        .and_then(|t| t.expand(&[k + 1, p, k + 1, p]))
        .and_then(|t| t.reshape(&[(k + 1) * p, (k + 1) * p]))
        .and_then(|t| t.shrink(&[(0, m), (0, m)]))
        .unwrap();
    let mut upper = ViewStack::new(&[m, m])
        .and_then(|t| t.reshape(&[k, p + extra, k, p + extra]))
        .unwrap();
    if cut {
        let w = (p - k + 1).max(1).min(p + extra);
        upper = upper.shrink(&[(0, k), (0, w), (0, k), (0, w)]).unwrap();
    }
    (lower.views()[0].clone(), upper.views()[0].clone())
}

/// The merge of `lower` and `upper`, checked against the composition at every element.
fn check_merge(lower: &View, upper: &View) -> std::result::Result<(), TestCaseError> {
    let merged = merge_pair(lower, upper).unwrap();
    if let Some(m) = &merged {
        prop_assert_eq!(m.shape(), upper.shape());
        prop_assert_eq!(
            every_element(m),
            composition(lower, upper),
            "{} over {} gave {}",
            upper,
            lower,
            m
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn evaluated_fit_agrees_with_merge_decision(first in flat(3), second in flat(3)) {
        let (lower, upper) = (View::from_flat(&first).unwrap(), View::from_flat(&second).unwrap());
        let fit = fit_flat(&mut Composed::new(&lower, &upper));
        let decided = crate::merge::merge(&first, &second).unwrap();
        prop_assert_eq!(fit.is_some(), decided.is_some(), "first {:?} second {:?}", first, second);
        if let (Some(a), Some(b)) = (fit, decided) {
            let all = |v: &FlatView| -> Vec<Option<i64>> {
                (0..v.size()).map(|i| v.eval(&unravel(i, v.shape())).unwrap()).collect()
            };
            prop_assert_eq!(all(&a), all(&b));
        }
    }

    /// The division-free evaluator, `eval_index` and `eval` agree at every
    /// element of random views (windows, constraints, broadcasts).
    #[test]
    fn index_evaluator_matches_eval_index(
        shape in prop::collection::vec(1i64..=6, 1..=3),
        ops in 0usize..6,
        nested in any::<bool>(),
        words in prop::collection::vec(any::<u32>(), 64),
    ) {
        let mut words = words.into_iter();
        let v = if nested {
            windowed_view(&shape, ops, &mut words)
        } else {
            random_view(&shape, ops, &mut words)
        };
        // Small views: only more than four constraints refuse the evaluator.
        let fast = IndexEvaluator::new(&v);
        prop_assert_eq!(fast.is_some(), v.cons() <= 4);
        let mut digits = vec![0i64; v.ext.len()];
        let each = every_element(&v);
        for (i, want) in (0..v.size()).zip(each) {
            prop_assert_eq!(v.eval_index(i, &mut digits), want, "{} at {}", v, i);
            if let Some(fast) = &fast {
                prop_assert_eq!(fast.eval(i), want, "{} at {}", v, i);
            }
        }
    }

    /// Random pairs: the lower view from a random chain (half of them
    /// starting from a windowed nested dimension), the upper view from a
    /// random chain over the lower view's shape.
    #[test]
    fn merge_pair_equals_composition_on_random_pairs(
        shape in prop::collection::vec(1i64..=5, 1..=3),
        lower_ops in 0usize..5,
        upper_ops in 1usize..5,
        nested in any::<bool>(),
        words in prop::collection::vec(any::<u32>(), 96),
    ) {
        let mut words = words.into_iter();
        let lower = if nested {
            windowed_view(&shape, lower_ops, &mut words)
        } else {
            random_view(&shape, lower_ops, &mut words)
        };
        let upper = random_view(&lower.shape(), upper_ops, &mut words);
        check_merge(&lower, &upper)?;
    }

    /// Pooling windows (tinygrad's `_pool`), padded, dilated, flipped, cut or not.
    #[test]
    fn merge_pair_equals_composition_on_pool_windows(
        n in 1i64..=7, pad in 0i64..=2, k in 1i64..=3, extra in 0i64..=2,
        flip in any::<bool>(), cut in any::<bool>(),
    ) {
        let (lower, upper) = pool_pair(n, pad, k, extra, flip, cut);
        check_merge(&lower, &upper)?;
    }
}

/// A permute (`expand` false) or an expand of extent-1 dimensions, with
/// arguments drawn from `words`, applied to `v` in place; `false` when `v`
/// cannot express it.
fn relabel(v: &mut View, expand: bool, words: &mut impl Iterator<Item = u32>) -> bool {
    let mut below = |n: i64| i64::from(words.next().unwrap_or(0)) % n.max(1);
    let shape = v.shape();
    let done = if expand {
        let to: Vec<i64> = shape
            .iter()
            .map(|&s| if s == 1 { 1 + below(3) } else { s })
            .collect();
        v.expand(&to)
    } else {
        let mut p: Vec<usize> = (0..shape.len()).collect();
        for k in (1..p.len()).rev() {
            p.swap(k, below(k as i64 + 1) as usize);
        }
        v.permute(&p)
    };
    done.unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, max_global_rejects: 1 << 20, ..ProptestConfig::default() })]

    /// What lets a stack remember a refused pair across ops
    /// (`Logged::keeps_refusal`): a pair the merge refuses stays refused
    /// after a permute or an expand of the upper view. (Flips and pads do
    /// not qualify: the merge finds some affine views only in one of the
    /// two orientations, and a pad can make a windowed pair empty.)
    #[test]
    fn refusal_survives_permute_and_expand(
        shape in prop::collection::vec(1i64..=5, 1..=3),
        lower_ops in 0usize..5,
        upper_ops in 1usize..5,
        nested in any::<bool>(),
        expand in any::<bool>(),
        words in prop::collection::vec(any::<u32>(), 128),
    ) {
        let mut words = words.into_iter();
        let lower = if nested {
            windowed_view(&shape, lower_ops, &mut words)
        } else {
            random_view(&shape, lower_ops, &mut words)
        };
        let upper = random_view(&lower.shape(), upper_ops, &mut words);
        prop_assume!(merge_pair(&lower, &upper).unwrap().is_none());
        let mut moved = upper.clone();
        prop_assume!(relabel(&mut moved, expand, &mut words));
        let merged = merge_pair(&lower, &moved).unwrap();
        prop_assert!(merged.is_none(), "{} over {} gave {}", moved, lower, merged.unwrap());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::view::witness::tests::cases(1000)))]

    /// A stack's remembered refusals change nothing: after every op of a
    /// random chain, deciding every pair afresh gives the same stack. Most
    /// chains start from two views (a transpose read back in the original
    /// shape, as tinygrad's `test_permute_then_reshape`).
    #[test]
    fn remembered_refusals_match_fresh_decisions(
        (a, b) in (2i64..=6, 2i64..=6),
        two in prop::bool::weighted(0.8),
        ops in 1usize..10,
        words in prop::collection::vec(any::<u32>(), 160),
    ) {
        let mut words = words.into_iter();
        let mut t = ViewStack::new(&[a, b + 1]).unwrap();
        if two {
            t = t.permute(&[1, 0]).and_then(|t| t.reshape(&[a, b + 1])).unwrap();
        }
        for _ in 0..ops {
            t = random_op(t, &mut words);
            prop_assert_eq!(&t.decided_afresh().unwrap(), &t);
        }
    }
}
