//! A fixed workload for `valgrind --tool=callgrind`: 10,000 symbolic
//! compositions of the KV-cache case of `benches/symbolic.rs`.
//!
//! `cargo build --release --example prof_symbolic && valgrind --tool=callgrind target/release/examples/prof_symbolic`

use hlayout::symbolic::{Assume, SymLayout, Symbols};

fn main() {
    let mut s = Symbols::new();
    for (n, max) in [("B", 64), ("L", 1 << 16), ("sp", 1 << 16)] {
        s.assume(
            n,
            Assume {
                max,
                ..Assume::default()
            },
        )
        .expect("assume");
    }
    let a = SymLayout::parse("(B,L,8,16):(128*L,128,16,1)", &mut s).expect("A");
    let b = SymLayout::parse("(B,sp,16):(128*L,128,1)", &mut s).expect("B");
    let mut leaves = 0;
    for _ in 0..10_000 {
        leaves += std::hint::black_box(&a)
            .compose(&b, &s)
            .expect("compose")
            .shape_leaves()
            .len();
    }
    println!("{leaves}");
}
