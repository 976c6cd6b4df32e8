//! Profiling harness for the algebra workloads of `benches/algebra.rs`, for
//! instruction counts under callgrind or on-CPU time on a busy machine:
//!
//! ```text
//! cargo build --release --example prof_algebra
//! valgrind --tool=callgrind target/release/examples/prof_algebra w2 N
//! ```
//!
//! Prints on-CPU nanoseconds per call (from `/proc/thread-self/schedstat`).

use std::hint::black_box;

use hlayout::Layout;
use serde_json::Value;

fn on_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn row(v: &Value) -> Option<Layout> {
    v["row"].as_str()?.parse().ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "w2".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench_workloads.json"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let Ok(all) = serde_json::from_str::<Value>(&text) else {
        return;
    };
    let cases = all[which.to_uppercase()]["cases"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut calls = 0usize;
    let start = on_cpu_ns();
    match which.as_str() {
        "w2" => {
            let pairs: Vec<(Layout, Layout)> = cases
                .iter()
                .filter_map(|c| Some((row(&c["A"])?, row(&c["B"])?)))
                .collect();
            for _ in 0..n {
                for (a, b) in &pairs {
                    let _ = black_box(black_box(a).compose(black_box(b)));
                    calls += 1;
                }
            }
        }
        "w4" => {
            let ls: Vec<(Layout, i64)> = cases
                .iter()
                .filter_map(|c| Some((row(&c["L"])?, c["cotarget"].as_i64()?)))
                .collect();
            for _ in 0..n {
                for (l, m) in &ls {
                    let _ = black_box(black_box(l).complement(*m));
                    calls += 1;
                }
            }
        }
        _ => {
            let ls: Vec<Layout> = cases.iter().filter_map(|c| row(&c["L"])).collect();
            for _ in 0..n {
                for l in &ls {
                    black_box(black_box(l).right_inverse());
                    calls += 1;
                }
            }
        }
    }
    if let (Some(a), Some(b)) = (start, on_cpu_ns()) {
        println!(
            "{which}: {:.1} ns on CPU per call",
            (b - a) as f64 / calls.max(1) as f64
        );
    }
}
