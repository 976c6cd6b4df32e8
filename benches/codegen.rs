//! Kernel codegen benchmarks: from a movement-op chain to rendered C text
//! (apply the ops, lower, simplify, check, render).
//!
//! - Before divan's table, a per-chain table: for each of the 165 chains of
//!   `tests/data/tinygrad_chains.json`, the median over rounds of one ops →
//!   C text run, and the median (p90, max) over the chains, printed beside
//!   tinygrad 0.10.3's per-chain figures for the same chains, read from the
//!   records of `tests/data/tinygrad_chain_exprs.json` (`ms_cold`,
//!   `ms_warm`: its lowering to the final index expression).
//! - All 165 chains per iteration (ops → C, ops alone, stack → C), and the
//!   padded 3×3 conv window.
//! - Scaling with rank: a transposed-then-flattened view of rank 1..8
//!   (`(4,…,4)` reversed, reshaped to one dimension) and tinygrad's pool
//!   window over d = 1..4 spatial dimensions (final rank 2d), stack → C.
//!
//! Run: `cargo bench --bench codegen`. Wall-clock on a shared machine is
//! indicative; `examples/prof_codegen.rs` under callgrind gives repeatable
//! instruction counts.

use divan::{black_box, Bencher};
use hlayout::codegen::{self, Input};
use hlayout::{Movement, ViewStack};
use serde_json::Value;

#[path = "../tests/common/pool.rs"]
mod pool;

#[path = "../tests/common/chains.rs"]
mod chains;
use chains::{apply, chains};

fn main() {
    per_chain_table();
    divan::main();
}

/// The median of `v` (sorted in place), or 0 for none.
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// The `q`-quantile of sorted `v`.
fn quantile(v: &[f64], q: f64) -> f64 {
    v.get(((v.len() as f64 * q) as usize).min(v.len().saturating_sub(1)))
        .copied()
        .unwrap_or(0.0)
}

/// Ops → C text for one chain, once.
fn ops_to_c(shape: &[i64], ops: &[Movement]) -> (String, String) {
    let t = apply(black_box(shape), ops).expect("a valid chain");
    codegen::stack(&t, Input::Coords).expect("a kernel").c()
}

/// Seconds this thread has spent on a CPU (`/proc/thread-self/schedstat`,
/// so time descheduled by other processes does not count), or wall-clock
/// seconds where the kernel does not report it.
fn now() -> f64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    let on_cpu = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok());
    match on_cpu {
        Some(ns) => ns as f64 * 1e-9,
        None => START
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_secs_f64(),
    }
}

/// Prints, per chain, hlayout's ops → C time on CPU (median of 15 rounds,
/// each the mean of enough runs to last ~200 µs) and tinygrad's, as medians,
/// 90th percentiles and maxima over the 165 chains.
fn per_chain_table() {
    let all = chains();
    let mut ours: Vec<f64> = all
        .iter()
        .map(|(shape, ops)| {
            let start = now();
            black_box(ops_to_c(shape, ops));
            let once = (now() - start).max(1e-7);
            let runs = ((200e-6 / once) as usize).clamp(1, 10_000);
            let mut rounds: Vec<f64> = (0..15)
                .map(|_| {
                    let start = now();
                    for _ in 0..runs {
                        black_box(ops_to_c(shape, ops));
                    }
                    (now() - start) / runs as f64
                })
                .collect();
            median(&mut rounds) * 1e6
        })
        .collect();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tinygrad_chain_exprs.json"
    );
    let tg: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("tinygrad figures"))
        .expect("JSON");
    let field = |name: &str| -> Vec<f64> {
        let mut v: Vec<f64> = tg
            .as_object()
            .expect("an object")
            .iter()
            .filter(|(k, _)| *k != "_meta")
            .map(|(_, r)| r[name].as_f64().expect("a time in ms") * 1e3)
            .collect();
        v.sort_by(f64::total_cmp);
        v
    };
    let (cold, warm) = (field("ms_cold"), field("ms_warm"));
    let m = median(&mut ours);
    println!("ops -> C text per chain over {} chains (µs):", ours.len());
    println!("                      median      p90      max");
    let row = |name: &str, v: &[f64]| {
        println!(
            "{name:<20} {:>8.2} {:>8.2} {:>8.2}",
            quantile(v, 0.5),
            quantile(v, 0.9),
            v.last().copied().unwrap_or(0.0)
        );
    };
    row("hlayout", &ours);
    row("tinygrad 0.10.3 cold", &cold);
    row("tinygrad 0.10.3 warm", &warm);
    println!(
        "median ratio: {:.0}x (cold), {:.0}x (warm)\n",
        quantile(&cold, 0.5) / m,
        quantile(&warm, 0.5) / m
    );
}

/// Ops to C text for all 165 chains (coordinate input, as tinygrad's figure).
#[divan::bench(sample_size = 4)]
fn all_chains_ops_to_c(b: Bencher) {
    let all = chains();
    b.bench(|| {
        for (shape, ops) in &all {
            let t = apply(black_box(shape), ops).expect("a valid chain");
            let k = codegen::stack(&t, Input::Coords).expect("a kernel");
            black_box(k.c());
        }
    });
}

/// The ops alone, for all 165 chains (the part [`all_chains_ops_to_c`]
/// shares with building the views).
#[divan::bench(sample_size = 4)]
fn all_chains_ops_only(b: Bencher) {
    let all = chains();
    b.bench(|| {
        for (shape, ops) in &all {
            black_box(apply(black_box(shape), ops).expect("a valid chain"));
        }
    });
}

/// Stack to C text for all 165 chains (codegen alone).
#[divan::bench(sample_size = 4)]
fn all_chains_stack_to_c(b: Bencher) {
    let stacks: Vec<ViewStack> = chains()
        .iter()
        .map(|(s, ops)| apply(s, ops).expect("a valid chain"))
        .collect();
    b.bench(|| {
        for t in &stacks {
            let k = codegen::stack(black_box(t), Input::Coords).expect("a kernel");
            black_box(k.c());
        }
    });
}

/// The padded 3×3 conv window of a 64×64 image: ops to C text.
#[divan::bench]
fn conv_window_ops_to_c() -> (String, String) {
    let t = pool::conv_window(black_box(64)).expect("the window");
    codegen::stack(&t, Input::Coords).expect("a kernel").c()
}

const RANKS: [usize; 8] = [1, 2, 3, 4, 5, 6, 7, 8];

/// `(4,…,4)` of rank `r`, its dimensions reversed, flattened: one view whose
/// one dimension has `r` leaves (`r - 1` divisions at coordinates).
fn transpose_flatten(r: usize) -> ViewStack {
    let perm: Vec<usize> = (0..r).rev().collect();
    ViewStack::new(&vec![4; r])
        .and_then(|t| t.permute(&perm))
        .and_then(|t| t.reshape(&[4i64.pow(r as u32)]))
        .expect("a valid chain")
}

/// Stack → C text of the transposed-then-flattened view, rank 1..8.
#[divan::bench(args = RANKS)]
fn transpose_flatten_by_rank(b: Bencher, r: usize) {
    let t = transpose_flatten(r);
    b.bench(|| {
        codegen::stack(black_box(&t), Input::Coords)
            .expect("a kernel")
            .c()
    });
}

/// tinygrad's `_pool` chain for 3-wide windows (stride 1, padding 1) over
/// `d` spatial dimensions of extent 8: pad, reshape, expand, reshape,
/// shrink, reshape, shrink, permute; final shape `(8,)*d + (3,)*d`.
fn pool_window(d: usize) -> ViewStack {
    let (n, k) = (8i64, 3i64);
    let p = n + 2;
    let rep = |pair: &[i64]| -> Vec<i64> { (0..d).flat_map(|_| pair.to_vec()).collect() };
    let perm: Vec<usize> = (0..d)
        .map(|i| 2 * i + 1)
        .chain((0..d).map(|i| 2 * i))
        .collect();
    ViewStack::new(&vec![n; d])
        .and_then(|t| t.pad(&vec![(1, 1); d]))
        .and_then(|t| t.reshape(&rep(&[1, p])))
        .and_then(|t| t.expand(&rep(&[k + 1, p])))
        .and_then(|t| t.reshape(&vec![(k + 1) * p; d]))
        .and_then(|t| t.shrink(&vec![(0, k * (p + 1)); d]))
        .and_then(|t| t.reshape(&rep(&[k, p + 1])))
        .and_then(|t| {
            t.shrink(
                &(0..2 * d)
                    .map(|i| (0, if i % 2 == 0 { k } else { n }))
                    .collect::<Vec<_>>(),
            )
        })
        .and_then(|t| t.permute(&perm))
        .expect("a valid chain")
}

/// Stack → C text of the padded pool window, d = 1..4 (rank 2..8).
#[divan::bench(args = [1, 2, 3, 4])]
fn pool_window_by_dims(b: Bencher, d: usize) {
    let t = pool_window(d);
    b.bench(|| {
        codegen::stack(black_box(&t), Input::Coords)
            .expect("a kernel")
            .c()
    });
}
