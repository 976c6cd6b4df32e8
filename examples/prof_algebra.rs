//! Profiling harness for the algebra workloads of `benches/algebra.rs` and
//! `benches/layout.rs` (the peer harness's ops), for instruction counts under
//! callgrind or on-CPU time on a busy machine:
//!
//! ```text
//! cargo build --release --example prof_algebra
//! valgrind --tool=callgrind target/release/examples/prof_algebra w2nz N
//! ```
//!
//! Workloads: `w1` (an `Evaluator` built per pass of 1,024 indices, as the
//! peer's W1 op), `w2` (all 200 compositions), `w2nz` (the 146 whose B has no
//! 0 stride), `w3` (coalesce), `w4` (complement), `w5` (right inverse).
//! With `PROF_SORTED=1`, `w2`/`w2nz` run each pair 64 times in a row (its
//! branches then predictable: a probe for mispredictions).
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

/// Runs `pass` `n` times; returns the number of calls made.
fn repeat(n: usize, per_pass: usize, mut pass: impl FnMut()) -> usize {
    for _ in 0..n {
        pass();
    }
    n * per_pass
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
    let key = if which == "w2nz" {
        "W2".to_owned()
    } else {
        which.to_uppercase()
    };
    let cases = all[key.as_str()]["cases"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let start = on_cpu_ns();
    let calls = match which.as_str() {
        "w1" => {
            let Some(l) = row(&all["W1"]["layout"]) else {
                return;
            };
            repeat(n, 1024, || {
                let e = black_box(&l).evaluator();
                let mut acc = 0i64;
                for i in 0..1024 {
                    acc += e.eval(i).unwrap_or(0);
                }
                black_box(acc);
            })
        }
        "w2" | "w2nz" => {
            let nz = which == "w2nz";
            let pairs: Vec<(Layout, Layout)> = cases
                .iter()
                .filter(|c| !(nz && c["b_zero_stride"].as_bool().unwrap_or(false)))
                .filter_map(|c| Some((row(&c["A"])?, row(&c["B"])?)))
                .collect();
            if std::env::var_os("PROF_SORTED").is_some() {
                // Each pair 64 times in a row (its branches predictable).
                return report(
                    &which,
                    start,
                    repeat(n, pairs.len() * 64, || {
                        for (a, b) in black_box(&pairs) {
                            for _ in 0..64 {
                                let r = black_box(a).compose(black_box(b));
                                black_box(&r);
                            }
                        }
                    }),
                );
            }
            repeat(n, pairs.len(), || {
                for (a, b) in black_box(&pairs) {
                    let r = a.compose(b);
                    black_box(&r);
                }
            })
        }
        "w3" => {
            let ls: Vec<Layout> = cases.iter().filter_map(|c| row(&c["L"])).collect();
            repeat(n, ls.len(), || {
                for l in black_box(&ls) {
                    let r = l.coalesce();
                    black_box(&r);
                }
            })
        }
        "w4" => {
            let ls: Vec<(Layout, i64)> = cases
                .iter()
                .filter_map(|c| Some((row(&c["L"])?, c["cotarget"].as_i64()?)))
                .collect();
            repeat(n, ls.len(), || {
                for (l, m) in black_box(&ls) {
                    let r = l.complement(*m);
                    black_box(&r);
                }
            })
        }
        _ => {
            let ls: Vec<Layout> = cases.iter().filter_map(|c| row(&c["L"])).collect();
            repeat(n, ls.len(), || {
                for l in black_box(&ls) {
                    let r = l.right_inverse();
                    black_box(&r);
                }
            })
        }
    };
    report(&which, start, calls);
}

fn report(which: &str, start: Option<u64>, calls: usize) {
    if let (Some(a), Some(b)) = (start, on_cpu_ns()) {
        println!(
            "{which}: {:.1} ns on CPU per call",
            (b - a) as f64 / calls.max(1) as f64
        );
    }
}
