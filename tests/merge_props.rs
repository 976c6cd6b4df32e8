//! `merge` against a brute-force oracle: the composed map evaluated at every
//! element, and the only possible candidate (the valid set's bounding box with
//! unit-step strides) verified at every element.
#![allow(clippy::unwrap_used)] // a failing test may panic

use crate::common;

use common::{brute_merge, composed, eval_all};
use hlayout::{merge, merge_explained, FlatView, MaskRule, Rule};
use proptest::prelude::*;

/// Checks one pair; returns the decision for statistics.
fn check(first: &FlatView, second: &FlatView) -> hlayout::Decision {
    let truth = composed(first, second);
    let oracle = brute_merge(second.shape(), &truth);
    let d = merge_explained(first, second).unwrap();
    assert_eq!(
        d.merged.is_some(),
        oracle.is_some(),
        "first {first:?} second {second:?}: {d:?} vs oracle {oracle:?}"
    );
    if let Some(v) = &d.merged {
        assert_eq!(
            eval_all(v),
            truth,
            "first {first:?} second {second:?}: {v:?}"
        );
    }
    d
}

fn view_strategy(
    max_rank: usize,
    max_ext: i64,
    offsets: std::ops::Range<i64>,
) -> impl Strategy<Value = FlatView> {
    prop::collection::vec(
        (
            0..=max_ext,
            -3i64..12,
            any::<bool>(),
            0.0f64..1.0,
            0.0f64..1.0,
        ),
        0..=max_rank,
    )
    .prop_flat_map(move |dims| (Just(dims), offsets.clone(), any::<bool>()))
    .prop_map(|(dims, offset, masked)| {
        let shape: Vec<i64> = dims.iter().map(|d| d.0).collect();
        let strides = dims.iter().map(|d| d.1).collect();
        let mask = masked.then(|| {
            dims.iter()
                .map(|&(s, _, cut, a, b)| {
                    if !cut {
                        return (0, s);
                    }
                    let (x, y) = ((a * (s + 1) as f64) as i64, (b * (s + 1) as f64) as i64);
                    (x.min(y).min(s), x.max(y).min(s))
                })
                .collect()
        });
        FlatView::new(shape, strides, offset, mask).unwrap()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    // Invariant: merge exists iff the oracle's candidate works, and a merged view
    // equals the composed map everywhere (offsets and validity).
    #[test]
    fn merge_matches_oracle(
        first in view_strategy(4, 6, -10..20),
        second in view_strategy(4, 6, -10..60),
    ) {
        check(&first, &second);
    }

    // Invariant: as above, with second kept inside first's index range where it
    // fits (every element lands on an element of first), where most merges happen.
    #[test]
    fn merge_matches_oracle_in_range(
        first in view_strategy(4, 6, -10..20),
        second in view_strategy(4, 6, 0..1),
        shift in 0.0f64..1.0,
    ) {
        let size: i64 = first.shape().iter().product();
        let (lo, hi) = second.shape().iter().zip(second.strides()).fold((0, 0), |(lo, hi), (&t, &c)| {
            let span = c * (t - 1).max(0);
            (lo + span.min(0), hi + span.max(0))
        });
        let room = (size - (hi - lo)).max(1); // too wide: some elements fall outside
        let offset = -lo + (shift * room as f64) as i64;
        let second = FlatView::new(second.shape().to_vec(), second.strides().to_vec(), offset, second.mask().map(<[_]>::to_vec)).unwrap();
        check(&first, &second);
    }
}

// Witness (issue 5): offsets break the plain same-sign rule; (5,4):(9,1) read by
// (3):(3) at offset 3 merges with stride 8.
#[test]
fn offset_example_merges() {
    let v1 = FlatView::new(vec![5, 4], vec![9, 1], 0, None).unwrap();
    let v2 = FlatView::new(vec![3], vec![3], 3, None).unwrap();
    let d = check(&v1, &v2);
    assert_eq!(d.merged.unwrap().strides(), &[8]);
}

// Witness (the Lean formalisation's overflow example, corrected): v1 = (10,3,3):(σ1,σ2,σ3), v2 = (s):(4). s <= 3 always
// merges; s ∈ {4,5} needs σ1 = 2σ2 + 3σ3; s >= 6 also needs σ1 = 3σ2.
#[test]
fn overflow_example_thresholds() {
    let merges = |s: i64, sigma: [i64; 3]| {
        let v1 = FlatView::new(vec![10, 3, 3], sigma.to_vec(), 0, None).unwrap();
        let v2 = FlatView::new(vec![s], vec![4], 0, None).unwrap();
        check(&v1, &v2).merged.is_some()
    };
    for s in 1..=3 {
        assert!(merges(s, [7, 2, 5]));
    }
    for s in 4..=5 {
        assert!(merges(s, [2 * 2 + 3 * 5, 2, 5]));
        assert!(!merges(s, [2 * 2 + 3 * 5 + 1, 2, 5]));
    }
    for s in 6..=20 {
        assert!(!merges(s, [2 * 2 + 3 * 5, 2, 5])); // σ1 != 3σ2
        assert!(merges(s, [3 * 3, 3, 1])); // σ1 = 3σ2 = 2σ2 + 3σ3: contiguous
    }
}

// Witness: the Lean formalisation's (Tensorlayouts) lemma `View.compose_is_increasing` is false: (2,3):(0,1) read by
// (4):(1) gives [0,1,2,0]; and that composition does not merge.
#[test]
fn lean_lemma_counterexample() {
    let v1 = FlatView::new(vec![2, 3], vec![0, 1], 0, None).unwrap();
    let v2 = FlatView::new(vec![4], vec![1], 0, None).unwrap();
    assert_eq!(composed(&v1, &v2), [Some(0), Some(1), Some(2), Some(0)]);
    assert_eq!(merge(&v1, &v2).unwrap(), None);
}

// Witness: an index outside first's shape addresses nothing, so it is masked.
#[test]
fn out_of_range_is_invalid() {
    let v1 = FlatView::contiguous(vec![4]).unwrap();
    let v2 = FlatView::new(vec![4], vec![1], 2, None).unwrap();
    let v = check(&v1, &v2).merged.unwrap();
    assert_eq!(eval_all(&v), [Some(2), Some(3), None, None]);
}

// Witness: zero-size and fully masked operands merge into a view with no valid element.
#[test]
fn degenerate_operands() {
    let v1 = FlatView::contiguous(vec![3, 0]).unwrap();
    let v2 = FlatView::new(vec![2, 2], vec![1, 1], 0, None).unwrap();
    let d = check(&v1, &v2);
    assert_eq!(
        (d.rule, eval_all(&d.merged.unwrap())),
        (Rule::NoValidElement, vec![None; 4])
    );
    let empty = FlatView::new(vec![0, 5], vec![1, 1], 0, None).unwrap();
    assert!(check(&v2, &empty).merged.is_some());
}

// Witness: spans beyond MAX_SPAN are refused rather than risking overflow.
#[test]
fn huge_operands_are_refused() {
    let v1 = FlatView::new(vec![3], vec![hlayout::merge::MAX_SPAN], 0, None).unwrap();
    let v2 = FlatView::contiguous(vec![2]).unwrap();
    assert!(matches!(
        merge(&v1, &v2),
        Err(hlayout::Error::Overflow { .. })
    ));
}

/// xorshift64*: a small deterministic generator for the long run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: i64) -> i64 {
        (self.next() % n as u64) as i64
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below(hi - lo + 1)
    }
}

/// A random view: rank <= `rank`, extents in `ext` (0 rarely), strides −3..=12
/// (or relations that make neighbours nearly coalesce), masks sometimes.
fn random_view(rng: &mut Rng, rank: i64, ext: (i64, i64), offset: (i64, i64)) -> FlatView {
    let n = rng.range(0, rank) as usize;
    let shape: Vec<i64> = (0..n)
        .map(|_| {
            if rng.below(50) == 0 {
                0
            } else {
                rng.range(ext.0, ext.1)
            }
        })
        .collect();
    let mut strides: Vec<i64> = (0..n).map(|_| rng.range(-3, 12)).collect();
    if rng.below(3) == 0 {
        // Near-contiguous: σ_l = s_{l+1}σ_{l+1} (+ a small defect sometimes).
        for l in (0..n.saturating_sub(1)).rev() {
            let defect = if rng.below(3) == 0 {
                rng.range(-2, 2)
            } else {
                0
            };
            strides[l] = shape[l + 1] * strides[l + 1] + defect;
        }
    }
    let mask = (rng.below(3) == 0).then(|| {
        shape
            .iter()
            .map(|&s| {
                if s == 0 || rng.below(2) == 0 {
                    return (0, s);
                }
                let (a, b) = (rng.range(0, s - 1), rng.range(0, s - 1));
                let empty = rng.below(20) == 0;
                (a.min(b), a.max(b) + i64::from(!empty))
            })
            .collect()
    });
    FlatView::new(shape, strides, rng.range(offset.0, offset.1), mask).unwrap()
}

/// `v` moved to `offset`.
fn at_offset(v: &FlatView, offset: i64) -> FlatView {
    FlatView::new(
        v.shape().to_vec(),
        v.strides().to_vec(),
        offset,
        v.mask().map(<[_]>::to_vec),
    )
    .unwrap()
}

/// Over a million random pairs against the oracle, with the rule statistics.
/// Run with `cargo test --release --test merge_props -- --ignored --nocapture`.
#[test]
#[ignore = "long: over 10^6 random cases (run in --release)"]
fn million_random_pairs() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut rules = std::collections::BTreeMap::<String, u64>::new();
    let (mut merged, mut enumerated, mut total, mut some_valid) = (0u64, 0u64, 0u64, 0u64);
    let start = std::time::Instant::now();
    while total < 1_200_000 {
        // A quarter of the pairs read with long low-rank seconds (extents up to 40).
        let (rank, ext) = if total % 4 == 3 {
            (2, (1, 40))
        } else {
            (4, (1, 6))
        };
        let first = random_view(&mut rng, 4, (1, 6), (-4, 8));
        let second = random_view(&mut rng, rank, ext, (0, 0));
        let size: i64 = first.shape().iter().product();
        // Half the seconds start where they fit inside first's index range.
        let (lo, hi) =
            second
                .shape()
                .iter()
                .zip(second.strides())
                .fold((0, 0), |(lo, hi), (&t, &c)| {
                    let span = c * (t - 1).max(0);
                    (lo + span.min(0), hi + span.max(0))
                });
        let offset = if rng.below(2) == 0 && size > hi - lo {
            -lo + rng.below(size - (hi - lo))
        } else {
            rng.range(-3, size.max(1) + 3)
        };
        let d = check(&first, &at_offset(&second, offset));
        total += 1;
        some_valid += u64::from(d.rule != Rule::NoValidElement);
        merged += u64::from(d.merged.is_some() && d.rule != Rule::NoValidElement);
        enumerated += u64::from(d.enumerated());
        *rules
            .entry(format!("{:?}/{:?}", d.mask_rule, d.rule))
            .or_default() += 1;
    }
    println!(
        "{total} random pairs, 0 disagreements with the oracle; {some_valid} with a valid element, \
         {merged} of those merged; {enumerated} ({:.3}%) needed enumeration; {:.1?}",
        100.0 * enumerated as f64 / total as f64,
        start.elapsed()
    );
    for (rule, n) in &rules {
        println!("  {rule:<28} {n:>8}");
    }
    assert!(rules
        .keys()
        .any(|r| r.contains(&format!("{:?}", MaskRule::Stripes))));
}
