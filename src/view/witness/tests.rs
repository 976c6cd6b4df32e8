//! The witness argument, checked by brute force: single views are sums of
//! per-dimension terms on their valid elements; a witness found holds (by
//! the public evaluation of each view) and its pair is refused; a witness
//! that follows an op still holds; and the two-view stacks of the
//! benchmarks are refuted by one (so their ops skip the decision).
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;

use super::*;
use crate::view::pair::merge_pair;
use crate::view::pair::tests::{composition, every_element, random_op, random_view, windowed_view};
use crate::view::View;
use crate::view::{unravel, ViewStack};

/// The mixed difference of four elements of `values` (row-major over
/// `shape`), `None` unless all four are valid.
fn mixed(values: &[Option<i64>], shape: &[i64], corners: &[Ints; 4]) -> Option<i128> {
    let at = |q: &Ints| {
        let i = q.iter().zip(shape).fold(0i64, |a, (&c, &n)| a * n + c);
        values[i as usize].map(i128::from)
    };
    Some(at(&corners[3])? - at(&corners[1])? - at(&corners[2])? + at(&corners[0])?)
}

/// Every rectangle `(a, b), (a', b), (a, b'), (a', b')` over two dimensions
/// of `shape`, the other coordinates fixed, as witness corners.
fn rectangles(shape: &[i64]) -> Vec<[Ints; 4]> {
    let size: i64 = shape.iter().product();
    let mut out = Vec::new();
    for i in 0..size {
        let p: Ints = unravel(i, shape).into_iter().collect();
        for j in 0..shape.len() {
            for k in j + 1..shape.len() {
                for a in p[j] + 1..shape[j] {
                    for b in p[k] + 1..shape[k] {
                        let mut c = [p.clone(), p.clone(), p.clone(), p.clone()];
                        c[1][j] = a;
                        c[2][k] = b;
                        (c[3][j], c[3][k]) = (a, b);
                        out.push(c);
                    }
                }
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(1000)))]

    /// The lemma: a single view (random ops, windows, constraints) has mixed
    /// difference 0 on every rectangle of valid elements.
    #[test]
    fn single_views_are_sums_of_dimension_terms(
        shape in prop::collection::vec(1i64..=4, 1..=3),
        ops in 0usize..6,
        nested in any::<bool>(),
        words in prop::collection::vec(any::<u32>(), 96),
    ) {
        let mut words = words.into_iter();
        let v = if nested {
            windowed_view(&shape, ops, &mut words)
        } else {
            random_view(&shape, ops, &mut words)
        };
        let (values, shape) = (every_element(&v), v.shape());
        for corners in rectangles(&shape) {
            prop_assert!(mixed(&values, &shape, &corners).is_none_or(|m| m == 0), "{} at {:?}", v, corners);
        }
    }

    /// A witness found holds by the public evaluation of both views, and
    /// its pair is refused by the merge. The lower view is a transpose (or a
    /// windowed one) after random ops; the upper view splits its shape by a
    /// random reshape (so that many pairs carry), then random ops.
    #[test]
    fn witnesses_hold_and_refute(
        shape in prop::collection::vec(2i64..=5, 2..=3),
        lower_ops in 0usize..4,
        upper_ops in 0usize..4,
        nested in any::<bool>(),
        words in prop::collection::vec(any::<u32>(), 160),
    ) {
        let mut words = words.into_iter();
        let lower = if nested {
            windowed_view(&shape, lower_ops, &mut words)
        } else {
            transposed_view(&shape, lower_ops, &mut words)
        };
        let mut t = ViewStack::new(&lower.shape()).unwrap();
        let split = random_split(t.size(), &mut words);
        t = t.reshape(&split).unwrap();
        for _ in 0..upper_ops {
            t = random_op(t, &mut words);
        }
        prop_assume!(t.views().len() == 1);
        let upper = &t.views()[0];
        let Some(w) = Witness::find(&lower, upper) else { return Ok(()) };
        let values = composition(&lower, upper);
        let m = mixed(&values, &upper.shape(), &w.corners());
        prop_assert!(m.is_some_and(|m| m != 0), "{:?} over {} and {}", w, upper, lower);
        prop_assert!(w.holds(&lower, upper));
        prop_assert!(merge_pair(&lower, upper).unwrap().is_none());
    }

    /// After every op of a random chain on a two-view stack, the witness the
    /// top link holds (one followed through the op, or found afresh) holds
    /// by the public evaluation of its two views.
    #[test]
    fn witnesses_follow_ops(
        (a, b) in (2i64..=6, 2i64..=6),
        ops in 1usize..10,
        words in prop::collection::vec(any::<u32>(), 160),
    ) {
        let mut words = words.into_iter();
        let mut t = ViewStack::new(&[a, b + 1])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[a, b + 1]))
            .unwrap();
        for _ in 0..ops {
            t = random_op(t, &mut words);
            if let Some((corners, lower, upper)) = t.top_witness() {
                let values = composition(lower, upper);
                let m = mixed(&values, &upper.shape(), &corners);
                prop_assert!(m.is_some_and(|m| m != 0), "{:?} in {}", corners, t);
            }
        }
    }
}

/// The reversed transpose of `shape`, then `ops` random ops: its bottom view.
fn transposed_view(shape: &[i64], ops: usize, words: &mut impl Iterator<Item = u32>) -> View {
    let perm: Vec<usize> = (0..shape.len()).rev().collect();
    let mut t = ViewStack::new(shape)
        .and_then(|t| t.permute(&perm))
        .unwrap();
    for _ in 0..ops {
        t = random_op(t, words);
    }
    t.views()[0].clone()
}

/// A random shape of `size` elements, rank 2 to 4.
fn random_split(size: i64, words: &mut impl Iterator<Item = u32>) -> Vec<i64> {
    let mut below = |n: i64| i64::from(words.next().unwrap_or(0)) % n.max(1);
    let rank = 2 + below(3) as usize;
    let mut out = vec![1i64; rank];
    let (mut n, mut d) = (size, 2);
    while n > 1 {
        while n % d == 0 {
            out[below(rank as i64) as usize] *= d;
            n /= d;
        }
        d += 1;
    }
    out
}

/// `n` cases, or `PROPTEST_CASES` when set (for long local runs).
pub(in crate::view) fn cases(n: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
}

/// The two-view stacks of `benches/views.rs` (`two_view_op`) are refuted by
/// a witness that each bench op keeps, so the op decides nothing.
#[test]
fn bench_stacks_keep_their_witness() {
    let stacks = [
        ViewStack::new(&[7, 4])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[7, 4])),
        ViewStack::new(&[192, 256])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[192, 256])),
        ViewStack::new(&[256, 256])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[65536]))
            .and_then(|t| t.shrink(&[(3, 65003)]))
            .and_then(|t| t.reshape(&[250, 260])),
    ];
    for t in stacks {
        let t = t.unwrap();
        assert!(t.top_witness().is_some(), "{t}");
        let (r, c) = (t.shape()[0], t.shape()[1]);
        let ops = [
            t.clone().permute(&[1, 0]),
            t.clone().flip(&[true, false]),
            t.clone().shrink(&[(0, r - 1), (0, c)]),
            t.clone().pad(&[(0, 1), (0, 0)]),
        ];
        for s in ops {
            let s = s.unwrap();
            assert_eq!(s.views().len(), 2, "{s}");
            assert!(s.top_witness().is_some(), "{s}");
        }
    }
}

/// A reshape keeps a witness whose elements are again `p, p+u, p+v,
/// p+u+v` with `u`, `v` on disjoint dimensions, and drops it otherwise.
#[test]
fn reshape_keeps_or_drops_a_witness() {
    let w = |p: [i64; 2], d: [i64; 2]| Witness {
        p: SmallVec::from_slice(&p),
        w: SmallVec::from_slice(&d),
        u_dims: 0b01,
    };
    let corners = |w: &Witness| w.corners().map(|c| c.to_vec());
    // (2,4) -> (2,2,2): indices 0, 4, 1, 5 stay a rectangle.
    let mut kept = w([0, 0], [1, 1]);
    assert!(kept.reshape(&[2, 4], &[2, 2, 2]));
    assert_eq!(
        corners(&kept),
        [vec![0, 0, 0], vec![1, 0, 0], vec![0, 0, 1], vec![1, 0, 1]]
    );
    // (2,4) -> (8): 0, 4, 1, 5 lie on one dimension.
    assert!(!w([0, 0], [1, 1]).reshape(&[2, 4], &[8]));
    // (2,4) -> (4,2): 1, 5, 2, 6 are (0,1), (2,1), (1,0), (3,0).
    assert!(!w([0, 1], [1, 1]).reshape(&[2, 4], &[4, 2]));
}
