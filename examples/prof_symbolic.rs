//! Fixed workloads for `valgrind --tool=callgrind`: 10,000 calls of one of
//! the symbolic cases of `benches/symbolic.rs` (same layouts, same
//! assumptions), chosen by the first argument: `kv` (the default, the
//! KV-cache compose), `gemm` (the GEMM-tile compose), `flip` (a compose
//! whose B has a negative stride), `coalesce`, `complement`, `divide`
//! (logical divide). A second argument `concrete` runs the concrete
//! operation on the bench's binding instead, for the instruction ratio.
//!
//! ```sh
//! cargo build --release --example prof_symbolic
//! valgrind --tool=callgrind target/release/examples/prof_symbolic gemm
//! valgrind --tool=callgrind target/release/examples/prof_symbolic gemm concrete
//! ```

use hlayout::symbolic::{Assume, Poly, SymLayout, Symbols};
use hlayout::Layout;
use std::hint::black_box;

const CALLS: usize = 10_000;

/// The symbols with their maxima, and layouts parsed over them.
fn parsed(assume: &[(&str, i64)], texts: &[&str]) -> (Symbols, Vec<SymLayout>) {
    let mut s = Symbols::new();
    for &(n, max) in assume {
        let a = Assume {
            max,
            ..Assume::default()
        };
        s.assume(n, a).expect("assume");
    }
    let ls = texts
        .iter()
        .map(|t| SymLayout::parse(t, &mut s).expect("layout"));
    let ls = ls.collect();
    (s, ls)
}

fn bound(s: &Symbols, ls: &[SymLayout], values: &[i64]) -> Vec<Layout> {
    ls.iter()
        .map(|l| l.bind(s, values).expect("bind"))
        .collect()
}

/// Runs `op` CALLS times and sums the leaves of its answers.
fn repeat<T>(op: impl Fn() -> T, leaves: impl Fn(&T) -> usize) -> usize {
    (0..CALLS).map(|_| leaves(&black_box(op()))).sum()
}

fn compose(assume: &[(&str, i64)], a: &str, b: &str, values: &[i64], concrete: bool) -> usize {
    let (s, l) = parsed(assume, &[a, b]);
    if concrete {
        let c = bound(&s, &l, values);
        let (a, b) = (black_box(&c[0]), black_box(&c[1]));
        return repeat(|| a.compose(b).expect("compose"), |r| r.rank());
    }
    let (a, b) = (black_box(&l[0]), black_box(&l[1]));
    repeat(
        || a.compose(b, &s).expect("compose"),
        |r| r.shape_leaves().len(),
    )
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "kv".into());
    let concrete = std::env::args().nth(2).is_some_and(|a| a == "concrete");
    let tile = [("T", 1 << 20)];
    let leaves = match which.as_str() {
        "gemm" => compose(
            &[("M", 1 << 20), ("K", 1 << 20)],
            "(M,K):(K,1)",
            "(128,32):(K,1)",
            &[1024, 512],
            concrete,
        ),
        "flip" => compose(
            &[("N", 1 << 20)],
            "(N,8):(1,N)",
            "(N,8):(-8,1)",
            &[1000],
            concrete,
        ),
        "coalesce" => {
            let (s, l) = parsed(&[], &["(N,(4,8)):(32,(8,1))"]);
            if concrete {
                let c = bound(&s, &l, &[1000]);
                return println!("{}", repeat(|| black_box(&c[0]).coalesce(), |r| r.rank()));
            }
            repeat(
                || black_box(&l[0]).coalesce(&s).expect("coalesce"),
                |r| r.shape_leaves().len(),
            )
        }
        "complement" => {
            let (s, l) = parsed(&tile, &["64:32"]);
            if concrete {
                let c = bound(&s, &l, &[100]);
                let run = || {
                    black_box(&c[0])
                        .complement(black_box(204800))
                        .expect("complement")
                };
                return println!("{}", repeat(run, |r| r.rank()));
            }
            let m = Poly::symbol(s.id("T").expect("T")).scale(2048).expect("M");
            let run = || black_box(&l[0]).complement(&m, &s).expect("complement");
            repeat(run, |r| r.shape_leaves().len())
        }
        "divide" => {
            let (s, l) = parsed(&tile, &["(64*T,32):(32,1)", "64:32"]);
            if concrete {
                let c = bound(&s, &l, &[100]);
                let run = || black_box(&c[0]).logical_divide(&c[1]).expect("divide");
                return println!("{}", repeat(run, |r| r.rank()));
            }
            let run = || black_box(&l[0]).logical_divide(&l[1], &s).expect("divide");
            repeat(run, |r| r.shape_leaves().len())
        }
        _ => compose(
            &[("B", 64), ("L", 1 << 16), ("sp", 1 << 16)],
            "(B,L,8,16):(128*L,128,16,1)",
            "(B,sp,16):(128*L,128,1)",
            &[4, 4096, 100],
            concrete,
        ),
    };
    println!("{leaves}");
}
