//! Algebra benchmarks on the fixed workloads (`tests/data/bench_workloads.json`,
//! the `row` texts): W2 = 200 valid rank-4 compositions, W4 = 100 complements
//! with a cotarget, W5 = 100 right inverses. Each benchmark runs one whole pass
//! (the item rate gives the per-call time); no pass may allocate for rank ≤ 8
//! (the allocation profiler prints `alloc` rows only when a pass allocates).
//! `baseline_clone_b` clones B, a floor for building any result layout.
//! `compose_rank_*` scale composition with the rank (1..=8): A compact with
//! permuted leaves, B a permutation of A's digits (`flat`: one leaf of R per
//! leaf of B), B merging pairs of adjacent digits (`merged`: nested images),
//! and both operands nested in pairs (`nested`). Issue 15's targets are for
//! a separate side-by-side harness against C++ CuTe (not part of this repository), not these figures.

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use hlayout::Layout;
use serde_json::Value;

#[global_allocator]
static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();

fn main() {
    divan::main();
}

fn workload(name: &str) -> Vec<Value> {
    let path = format!(
        "{}/tests/data/bench_workloads.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let all: Value = serde_json::from_str(&text).expect("JSON");
    all[name]["cases"].as_array().expect("cases").clone()
}

fn row(v: &Value) -> Layout {
    v["row"]
        .as_str()
        .expect("row text")
        .parse()
        .expect("valid layout")
}

#[divan::bench]
fn w2_compose(bencher: Bencher) {
    let pairs: Vec<(Layout, Layout)> = workload("W2")
        .iter()
        .map(|c| (row(&c["A"]), row(&c["B"])))
        .collect();
    assert!(
        pairs.iter().all(|(a, b)| a.compose(b).is_ok()),
        "W2 holds valid compositions"
    );
    bencher.counter(ItemsCount::new(pairs.len())).bench(|| {
        for (a, b) in &pairs {
            let _ = black_box(black_box(a).compose(black_box(b)));
        }
    });
}

#[divan::bench]
fn w4_complement(bencher: Bencher) {
    let cases: Vec<(Layout, i64)> = workload("W4")
        .iter()
        .map(|c| (row(&c["L"]), c["cotarget"].as_i64().expect("cotarget")))
        .collect();
    bencher.counter(ItemsCount::new(cases.len())).bench(|| {
        for (l, n) in &cases {
            let _ = black_box(black_box(l).complement(black_box(*n)));
        }
    });
}

#[divan::bench]
fn w5_right_inverse(bencher: Bencher) {
    let cases: Vec<Layout> = workload("W5").iter().map(|c| row(&c["L"])).collect();
    bencher.counter(ItemsCount::new(cases.len())).bench(|| {
        for l in &cases {
            black_box(black_box(l).right_inverse());
        }
    });
}

/// Reference: cloning B (three small vectors), a floor for building any result layout.
#[divan::bench]
fn baseline_clone_b(bencher: Bencher) {
    let pairs: Vec<(Layout, Layout)> = workload("W2")
        .iter()
        .map(|c| (row(&c["A"]), row(&c["B"])))
        .collect();
    bencher.counter(ItemsCount::new(pairs.len())).bench(|| {
        for (_, b) in &pairs {
            black_box(black_box(b).clone());
        }
    });
}

/// Extents cycling 2, 3, 4 over `n` leaves, and a permutation of the leaves
/// (odd ones, then even ones).
fn rank_case(n: usize) -> (Vec<i64>, Vec<usize>) {
    let shape: Vec<i64> = (0..n).map(|k| 2 + (k % 3) as i64).collect();
    let order: Vec<usize> = (1..n).step_by(2).chain((0..n).step_by(2)).collect();
    (shape, order)
}

/// A of rank n, compact with its strides assigned in the permuted order, and
/// its leaves as digits of the index: (extent, index stride), row-major.
fn permuted(n: usize) -> (Layout, Vec<(i64, i64)>) {
    let (shape, order) = rank_case(n);
    let mut stride = vec![0i64; n];
    let mut acc = 1i64;
    for &k in &order {
        stride[k] = acc;
        acc *= shape[k];
    }
    let mut index = vec![1i64; n];
    for k in (0..n.saturating_sub(1)).rev() {
        index[k] = index[k + 1] * shape[k + 1];
    }
    let digits = shape.iter().copied().zip(index).collect();
    (Layout::flat(&shape, &stride).expect("valid"), digits)
}

/// The digits of A in the permuted order, as B's leaves (a transposition).
fn transposed(n: usize, digits: &[(i64, i64)]) -> (Vec<i64>, Vec<i64>) {
    rank_case(n).1.iter().map(|&k| digits[k]).unzip()
}

/// Runs `a ∘ b`, checked once to exist; the result is consumed by reference
/// (as the peer harness does: returning it would time a 190-byte copy).
fn bench_pair(bencher: Bencher, a: Layout, b: Layout) {
    assert!(a.compose(&b).is_ok(), "{a} o {b} exists");
    bencher.bench(|| {
        let r = black_box(&a).compose(black_box(&b));
        black_box(&r);
    });
}

/// Rank n, flat: B a transposition of A's index digits (R: one leaf per
/// leaf of B).
#[divan::bench(args = [1, 2, 3, 4, 5, 6, 7, 8])]
fn compose_rank_flat(bencher: Bencher, n: usize) {
    let (a, digits) = permuted(n);
    let (s, d) = transposed(n, &digits);
    bench_pair(bencher, a, Layout::flat(&s, &d).expect("valid"));
}

/// Rank n of A, flat: B reads each pair of adjacent index digits of A as
/// one leaf (a reshape; R: a nested pair per leaf of B).
#[divan::bench(args = [1, 2, 3, 4, 5, 6, 7, 8])]
fn compose_rank_merged(bencher: Bencher, n: usize) {
    let (a, digits) = permuted(n);
    let (s, d): (Vec<i64>, Vec<i64>) = digits
        .chunks(2)
        .map(|c| (c.iter().map(|t| t.0).product::<i64>(), c[c.len() - 1].1))
        .unzip();
    bench_pair(bencher, a, Layout::flat(&s, &d).expect("valid"));
}

/// Rank n, nested: A's leaves grouped in pairs, B a transposition of its
/// index digits, also grouped in pairs.
#[divan::bench(args = [2, 4, 6, 8])]
fn compose_rank_nested(bencher: Bencher, n: usize) {
    let pairs = |v: &[i64]| -> String {
        let groups: Vec<String> = v
            .chunks(2)
            .map(|c| {
                let items: Vec<String> = c.iter().map(i64::to_string).collect();
                format!("({})", items.join(","))
            })
            .collect();
        format!("({})", groups.join(","))
    };
    let nest = |s: &[i64], d: &[i64]| -> Layout {
        format!("{}:{}", pairs(s), pairs(d)).parse().expect("valid")
    };
    let (a, digits) = permuted(n);
    let (s, d) = transposed(n, &digits);
    bench_pair(
        bencher,
        nest(a.shape_leaves(), a.stride_leaves()),
        nest(&s, &d),
    );
}
