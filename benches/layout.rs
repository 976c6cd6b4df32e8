//! Foundation benchmarks on the fixed workloads of `tests/data/bench_workloads.json`
//! (row-major texts): W1 = evaluate one nested layout at every index 0..1023,
//! W3 = coalesce 200 rank-4 layouts. Run: `cargo bench --bench layout`.

use divan::{black_box, AllocProfiler, Bencher};
use hlayout::Layout;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

fn workloads() -> serde_json::Value {
    let text = std::fs::read_to_string("tests/data/bench_workloads.json")
        .expect("benchmarks read tests/data/bench_workloads.json");
    serde_json::from_str(&text).expect("bench_workloads.json is JSON")
}

fn row(v: &serde_json::Value) -> Layout {
    v["row"]
        .as_str()
        .expect("row text")
        .parse()
        .expect("valid layout")
}

fn w1() -> Layout {
    row(&workloads()["W1"]["layout"])
}

/// W1: `Layout::eval` at every index (1024 evaluations per iteration).
#[divan::bench(counter = divan::counter::ItemsCount::new(1024usize))]
fn w1_eval(b: Bencher) {
    let l = w1();
    b.bench(|| {
        let mut sum = 0i64;
        for i in 0..1024 {
            sum += black_box(&l).eval(black_box(i)).unwrap_or(0);
        }
        sum
    });
}

/// W1 through the precomputed-divisor evaluator.
#[divan::bench(counter = divan::counter::ItemsCount::new(1024usize))]
fn w1_evaluator(b: Bencher) {
    let l = w1();
    let e = l.evaluator();
    b.bench(|| {
        let mut sum = 0i64;
        for i in 0..1024 {
            sum += black_box(&e).eval(black_box(i)).unwrap_or(0);
        }
        sum
    });
}

/// W1 as an offset stream (no division at all).
#[divan::bench(counter = divan::counter::ItemsCount::new(1024usize))]
fn w1_offsets_fill(b: Bencher) {
    let l = w1();
    let mut buf = vec![0i64; 1024];
    b.bench_local(|| {
        black_box(&l).offsets().fill(&mut buf);
        buf[1023]
    });
}

/// W3: coalesce of 200 rank-4 layouts (200 calls per iteration).
#[divan::bench(counter = divan::counter::ItemsCount::new(200usize))]
fn w3_coalesce(b: Bencher) {
    let cases: Vec<Layout> = workloads()["W3"]["cases"]
        .as_array()
        .expect("W3 cases")
        .iter()
        .map(|c| row(&c["L"]))
        .collect();
    assert_eq!(cases.len(), 200);
    b.bench(|| {
        let mut n = 0usize;
        for l in &cases {
            n += black_box(l).coalesce().shape_leaves().len();
        }
        n
    });
}
