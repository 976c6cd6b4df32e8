//! Profiling harness for kernel codegen, for instruction counts under
//! callgrind or on-CPU time on a busy machine:
//!
//! ```text
//! cargo build --release --example prof_codegen
//! valgrind --tool=callgrind target/release/examples/prof_codegen chains|stacks|conv N
//! target/release/examples/prof_codegen chains N   # also prints on-CPU ns per chain
//! ```
//!
//! `chains`: N rounds of the 165 chains of `tests/data/tinygrad_chains.json`,
//! ops → C text; `stacks`: the same, the stacks built once (codegen alone);
//! `conv`: N padded 3×3 conv windows of a 64×64 image, ops → C text. The
//! on-CPU time comes from `/proc/thread-self/schedstat` (Linux), so time
//! spent descheduled by other processes does not count.

use std::hint::black_box;

use hlayout::codegen::{self, Input};
use hlayout::ViewStack;

#[path = "../tests/common/pool.rs"]
mod pool;

#[path = "../tests/common/chains.rs"]
mod chains;

/// Nanoseconds this thread has spent on a CPU, when the kernel reports it.
fn on_cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn c_text(t: &ViewStack) -> usize {
    codegen::stack(t, Input::Coords).map_or(0, |k| k.c().0.len())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "chains".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let all = chains::chains();
    let stacks: Vec<ViewStack> = all
        .iter()
        .filter_map(|(s, ops)| chains::apply(s, ops).ok())
        .collect();
    let (mut bytes, mut items) = (0, 0);
    let start = on_cpu_ns();
    for _ in 0..n {
        match which.as_str() {
            "stacks" => {
                for t in &stacks {
                    bytes += c_text(black_box(t));
                    items += 1;
                }
            }
            "conv" => {
                if let Ok(t) = pool::conv_window(black_box(64)) {
                    bytes += c_text(&t);
                }
                items += 1;
            }
            _ => {
                for (s, ops) in &all {
                    if let Ok(t) = chains::apply(black_box(s), ops) {
                        bytes += c_text(&t);
                    }
                    items += 1;
                }
            }
        }
    }
    if let (Some(a), Some(b)) = (start, on_cpu_ns()) {
        let per = (b - a) as f64 / items.max(1) as f64;
        println!("{which}: {items} items, {per:.0} ns on CPU each ({bytes} bytes of C)");
    }
}
