//! Callgrind harness: `prof_algebra w2|w4 N` runs workload W2 (compose) or W4
//! (complement) N times over its cases, for instruction counts per call.

use hlayout::Layout;
use serde_json::Value;

fn row(v: &Value) -> Layout {
    v["row"].as_str().expect("row").parse().expect("layout")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("w2", String::as_str).to_owned();
    let reps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let path = format!(
        "{}/../shared/cases/bench_workloads.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let all: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    let mut sink = 0usize;
    if which == "w2" {
        let pairs: Vec<(Layout, Layout)> = all["W2"]["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .map(|c| (row(&c["A"]), row(&c["B"])))
            .collect();
        for _ in 0..reps {
            for (a, b) in &pairs {
                sink += std::hint::black_box(a)
                    .compose(std::hint::black_box(b))
                    .map_or(0, |r| r.size() as usize);
            }
        }
    } else {
        let cases: Vec<(Layout, i64)> = all["W4"]["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .map(|c| (row(&c["L"]), c["cotarget"].as_i64().expect("cotarget")))
            .collect();
        for _ in 0..reps {
            for (l, n) in &cases {
                sink += std::hint::black_box(l)
                    .complement(std::hint::black_box(*n))
                    .map_or(0, |r| r.size() as usize);
            }
        }
    }
    println!("{sink}");
}
