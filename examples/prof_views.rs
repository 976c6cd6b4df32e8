//! Profiling harness for the view ops, for instruction counts under callgrind
//! or on-CPU time on a busy machine:
//!
//! ```text
//! cargo build --release --example prof_views
//! valgrind --tool=callgrind target/release/examples/prof_views WORKLOAD N
//! target/release/examples/prof_views chain N   # also prints on-CPU ns per iteration
//! ```
//!
//! WORKLOAD is `reshape`, `clone`, `chain`, `conv`, or `two_OP`, `two256_OP`,
//! `windowed_OP` with OP one of `permute`, `flip`, `shrink`, `pad`: one op on
//! a clone of a two-view stack, the workloads of `benches/views.rs`
//! `two_view_op` (the clone costs ~170 instructions; `clone_two` measures it).
//!
//! The on-CPU time comes from `/proc/thread-self/schedstat` (Linux), so time
//! spent descheduled by other processes does not count.

use std::hint::black_box;

use hlayout::ViewStack;

#[path = "../tests/common/pool.rs"]
mod pool;
use pool::conv_window;

/// Nanoseconds this thread has spent on a CPU, when the kernel reports it.
fn on_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "chain".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let t = ViewStack::new(&[64, 64]).and_then(|t| t.permute(&[1, 0]));
    let Ok(t) = t else { return };
    // The two-view stacks of benches/views.rs, pairs the merge refuses.
    let two = match which.split('_').next() {
        Some("two256") => ViewStack::new(&[192, 256])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[192, 256])),
        Some("windowed") => ViewStack::new(&[256, 256])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[65536]))
            .and_then(|t| t.shrink(&[(3, 65003)]))
            .and_then(|t| t.reshape(&[250, 260])),
        _ => ViewStack::new(&[7, 4])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[7, 4])),
    };
    let Ok(two) = two else { return };
    let (r, c) = (two.shape()[0], two.shape()[1]);
    let mut views = 0;
    let start = on_cpu_ns();
    for _ in 0..n {
        let r = match which.as_str() {
            "reshape" => black_box(&t).clone().reshape(black_box(&[4096])),
            "clone" => Ok(black_box(&t).clone()),
            "conv" => conv_window(black_box(64)),
            "clone_two" => Ok(black_box(&two).clone()),
            w if w.ends_with("_permute") => black_box(&two).clone().permute(black_box(&[1, 0])),
            w if w.ends_with("_flip") => black_box(&two).clone().flip(black_box(&[true, false])),
            w if w.ends_with("_shrink") => black_box(&two)
                .clone()
                .shrink(black_box(&[(0, r - 1), (0, c)])),
            w if w.ends_with("_pad") => black_box(&two).clone().pad(black_box(&[(0, 1), (0, 0)])),
            _ => ViewStack::new(black_box(&[2, 64, 512]))
                .and_then(|t| t.reshape(&[2, 64, 8, 64]))
                .and_then(|t| t.permute(&[0, 2, 1, 3]))
                .and_then(|t| t.reshape(&[16, 64, 64]))
                .and_then(|t| t.shrink(&[(0, 16), (0, 32), (0, 64)]))
                .and_then(|t| t.pad(&[(0, 0), (0, 0), (1, 1)]))
                .and_then(|t| t.flip(&[false, true, false])),
        };
        views += r.map_or(0, |s| s.views().len());
    }
    if let (Some(a), Some(b)) = (start, on_cpu_ns()) {
        println!(
            "{which}: {:.1} ns on CPU per iteration",
            (b - a) as f64 / n as f64
        );
    }
    println!("{views}");
}
