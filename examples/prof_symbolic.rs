//! Fixed workloads for `valgrind --tool=callgrind`: 10,000 calls of one of
//! the symbolic cases of `benches/symbolic.rs` (same layouts, same
//! assumptions), chosen by the first argument: `kv` (the default, the
//! KV-cache compose), `gemm` (the GEMM-tile compose), `coalesce`,
//! `complement`, `divide` (logical divide), `neg` (a compose whose B has a
//! negative stride).
//!
//! ```sh
//! cargo build --release --example prof_symbolic
//! valgrind --tool=callgrind target/release/examples/prof_symbolic gemm
//! ```

use hlayout::symbolic::{Assume, Poly, SymLayout, Symbols};

fn symbols(assume: &[(&str, i64)]) -> Symbols {
    let mut s = Symbols::new();
    for &(n, max) in assume {
        let a = Assume {
            max,
            ..Assume::default()
        };
        s.assume(n, a).expect("assume");
    }
    s
}

fn compose(assume: &[(&str, i64)], a: &str, b: &str) -> usize {
    let mut s = symbols(assume);
    let a = SymLayout::parse(a, &mut s).expect("A");
    let b = SymLayout::parse(b, &mut s).expect("B");
    let mut leaves = 0;
    for _ in 0..10_000 {
        let r = std::hint::black_box(&a).compose(&b, &s).expect("compose");
        leaves += r.shape_leaves().len();
    }
    leaves
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "kv".into());
    let tile = [("T", 1 << 20)];
    let leaves = match which.as_str() {
        "gemm" => compose(
            &[("M", 1 << 20), ("K", 1 << 20)],
            "(M,K):(K,1)",
            "(128,32):(K,1)",
        ),
        "neg" => compose(
            &[("M", 1 << 20), ("K", 1 << 20)],
            "(M,K):(K,1)",
            "(128,32):(K,1)",
        ),
        "coalesce" => {
            let mut s = Symbols::new();
            let l = SymLayout::parse("(N,(4,8)):(32,(8,1))", &mut s).expect("layout");
            (0..10_000)
                .map(|_| std::hint::black_box(&l).coalesce(&s).expect("coalesce"))
                .map(|r| r.shape_leaves().len())
                .sum()
        }
        "complement" => {
            let mut s = symbols(&tile);
            let b = SymLayout::parse("64:32", &mut s).expect("B");
            let m = Poly::symbol(s.id("T").expect("T")).scale(2048).expect("M");
            (0..10_000)
                .map(|_| std::hint::black_box(&b).complement(&m, &s).expect("complement"))
                .map(|r| r.shape_leaves().len())
                .sum()
        }
        "divide" => {
            let mut s = symbols(&tile);
            let a = SymLayout::parse("(64*T,32):(32,1)", &mut s).expect("A");
            let b = SymLayout::parse("64:32", &mut s).expect("B");
            (0..10_000)
                .map(|_| std::hint::black_box(&a).logical_divide(&b, &s).expect("divide"))
                .map(|r| r.shape_leaves().len())
                .sum()
        }
        _ => compose(
            &[("B", 64), ("L", 1 << 16), ("sp", 1 << 16)],
            "(B,L,8,16):(128*L,128,16,1)",
            "(B,sp,16):(128*L,128,1)",
        ),
    };
    println!("{leaves}");
}
