//! Algebra benchmarks on the shared workloads (`tests/data/bench_workloads.json`,
//! the `row` texts): W2 = 200 valid rank-4 compositions, W4 = 100 complements
//! with a cotarget, W5 = 100 right inverses. Each benchmark runs one whole pass
//! (the item rate gives the per-call time). Targets from issue 3: W2 ≤ 58 ns
//! per composition, W4 and W5 < 100 ns, no heap allocation for rank ≤ 8 (the
//! allocation profiler prints `alloc` rows only when a pass allocates).
//! `baseline_clone_b` clones B, a floor for building any result layout.

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
