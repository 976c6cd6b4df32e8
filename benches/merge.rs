//! Merge decision benchmarks. Run: `cargo bench --bench merge`.
//!
//! Before divan's table the binary prints, measured here with `Instant`:
//! - the median (and p90, max) decision time over the 262 pairs of
//!   `tests/data/merge_pairs.json`, each pair timed over many repetitions;
//! - the same over `merge_random.json`, and the share of its cases decided
//!   without enumeration ([`Decision::enumerated`]).
//!
//! divan then times the whole pair set and two families whose second view grows
//! from 2^4 to 2^20 elements, each decided by `merge` and checked by brute force
//! (evaluate every element against the unit-step candidate, as the test oracle
//! does): the decision stays flat, brute force grows linearly.

#![allow(clippy::unwrap_used)] // benchmark set-up panics on bad data

use std::time::{Duration, Instant};

#[path = "../tests/common/mod.rs"]
mod common;

use common::view;
use divan::{black_box, Bencher};
use hlayout::{merge, merge_explained, FlatView};
use serde_json::Value;

fn main() {
    for file in ["merge_pairs", "merge_random"] {
        report(file);
    }
    divan::main();
}

/// The pairs of a reference file.
fn pairs(file: &str) -> Vec<(FlatView, FlatView)> {
    let path = format!("tests/data/{file}.json");
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    cases
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (view(&c["request"]["first"]), view(&c["request"]["second"])))
        .collect()
}

/// Median, p90 and max per-pair decision time, and the enumeration share.
fn report(file: &str) {
    let pairs = pairs(file);
    let mut times: Vec<Duration> = pairs
        .iter()
        .map(|(a, b)| {
            let reps = 2000u32;
            let start = Instant::now();
            for _ in 0..reps {
                black_box(merge(black_box(a), black_box(b)).unwrap());
            }
            start.elapsed() / reps
        })
        .collect();
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    let enumerated = pairs
        .iter()
        .filter(|(a, b)| merge_explained(a, b).unwrap().enumerated())
        .count();
    println!(
        "{file}: {} pairs, decision time median {:?}, p90 {:?}, max {:?}; decided without enumeration: {}/{} ({:.2}%)",
        pairs.len(),
        at(0.5),
        at(0.9),
        at(1.0),
        pairs.len() - enumerated,
        pairs.len(),
        100.0 * (pairs.len() - enumerated) as f64 / pairs.len() as f64
    );
}

/// All 262 reference pairs, decided once each.
#[divan::bench(counter = divan::counter::ItemsCount::new(262usize))]
fn merge_pairs_all(b: Bencher) {
    let pairs = pairs("merge_pairs");
    b.bench(|| {
        for (x, y) in &pairs {
            black_box(merge(black_box(x), black_box(y)).unwrap());
        }
    });
}

const SIZES: [u32; 5] = [4, 8, 12, 16, 20];

/// Mergeable, 2^n elements: Nielius's accidental merge scaled up. v1 =
/// (F,9,4):(140,11,13), v2 = (2^n):(9); both crossed boundaries carry as ⌊m/4⌋
/// and their defects ±41 cancel (stride 35).
fn mergeable(n: u32) -> (FlatView, FlatView) {
    let t = 1i64 << n;
    let v1 = FlatView::new(vec![t / 4 + 1, 9, 4], vec![140, 11, 13], 0, None).unwrap();
    (v1, FlatView::new(vec![t], vec![9], 0, None).unwrap())
}

/// Not mergeable, 2^n elements, the only carry at the very last element: v1 =
/// (2,2^n):(2^n+1,1), v2 = (2^n):(1) at offset 1.
fn non_mergeable(n: u32) -> (FlatView, FlatView) {
    let t = 1i64 << n;
    let v1 = FlatView::new(vec![2, t], vec![t + 1, 1], 0, None).unwrap();
    (v1, FlatView::new(vec![t], vec![1], 1, None).unwrap())
}

/// The test suite's oracle, streamed: the unit-step candidate checked at every
/// element (second is one-dimensional and unmasked here).
fn brute_force(first: &FlatView, second: &FlatView) -> bool {
    let size: i64 = first.shape().iter().product();
    let read = |m: i64| -> Option<i64> {
        let x = second.offset() + m * second.strides()[0];
        if !(0..size).contains(&x) {
            return None;
        }
        let mut digits = vec![0; first.shape().len()];
        let mut rest = x;
        for (d, &s) in digits.iter_mut().zip(first.shape()).rev() {
            *d = rest % s;
            rest /= s;
        }
        first.eval(&digits).unwrap()
    };
    let (Some(base), Some(next)) = (read(0), read(1)) else {
        return false;
    };
    (0..second.shape()[0]).all(|m| read(m) == Some(base + m * (next - base)))
}

#[divan::bench(args = SIZES)]
fn mergeable_decide(b: Bencher, n: u32) {
    let (v1, v2) = mergeable(n);
    assert!(merge(&v1, &v2).unwrap().is_some());
    b.bench(|| merge(black_box(&v1), black_box(&v2)).unwrap());
}

#[divan::bench(args = SIZES, sample_count = 20)]
fn mergeable_brute_force(b: Bencher, n: u32) {
    let (v1, v2) = mergeable(n);
    assert!(brute_force(&v1, &v2));
    b.bench(|| brute_force(black_box(&v1), black_box(&v2)));
}

#[divan::bench(args = SIZES)]
fn non_mergeable_decide(b: Bencher, n: u32) {
    let (v1, v2) = non_mergeable(n);
    assert!(merge(&v1, &v2).unwrap().is_none());
    b.bench(|| merge(black_box(&v1), black_box(&v2)).unwrap());
}

#[divan::bench(args = SIZES, sample_count = 20)]
fn non_mergeable_brute_force(b: Bencher, n: u32) {
    let (v1, v2) = non_mergeable(n);
    assert!(!brute_force(&v1, &v2));
    b.bench(|| brute_force(black_box(&v1), black_box(&v2)));
}
