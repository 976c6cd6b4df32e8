//! A fixed workload for `valgrind --tool=callgrind`: 10,000 merges of the
//! `test_variable_divmod` pair of `benches/symbolic.rs`, symbolic (no
//! argument) or concrete at `sp = 100` (argument `concrete`).
//!
//! `cargo build --release --example prof_sym_flat && valgrind --tool=callgrind target/release/examples/prof_sym_flat [concrete]`

use hlayout::symbolic::{merge, Assume, SymFlatView, Symbols};

fn main() {
    let mut s = Symbols::new();
    let a = Assume {
        max: 1 << 16,
        ..Assume::default()
    };
    s.assume("sp", a).expect("assume");
    let first = SymFlatView::parse(&["3", "sp+1"], &["64", "1"], "0", None, &mut s).expect("first");
    let second =
        SymFlatView::parse(&["3", "sp+1"], &["sp+1", "1"], "0", None, &mut s).expect("second");
    let concrete = std::env::args().nth(1).is_some_and(|a| a == "concrete");
    let (f, g) = (
        first.bind(&[100]).expect("bind"),
        second.bind(&[100]).expect("bind"),
    );
    let mut rank = 0;
    for _ in 0..10_000 {
        rank += if concrete {
            hlayout::merge(std::hint::black_box(&f), &g)
                .expect("merge")
                .map_or(0, |v| v.shape().len())
        } else {
            merge(std::hint::black_box(&first), &second, &s)
                .expect("merge")
                .map_or(0, |v| v.rank())
        };
    }
    println!("{rank}");
}
