//! Fixed workloads for `valgrind --tool=callgrind`: 10,000 kernel
//! expressions of one symbolic chain of `benches/symbolic.rs`
//! (`chain_expr_*`, the same chains and binding), chosen by the first
//! argument: `kv` (the default), `pad`, `views`. A second argument
//! `concrete` builds the concrete chain's kernel at the binding instead, for
//! the instruction ratio; `versioned` builds the versioned kernel
//! (`codegen::sym_chain_versions`) instead; `setup` builds (and checks) the
//! case only, whose count is subtracted.
//!
//! ```sh
//! cargo build --release --example prof_sym_chain
//! valgrind --tool=callgrind target/release/examples/prof_sym_chain kv
//! valgrind --tool=callgrind target/release/examples/prof_sym_chain kv concrete
//! ```

#[path = "../tests/common/sym_chain_cases.rs"]
mod sym_chain_cases;

use hlayout::codegen::{self, Input};
use std::hint::black_box;
use sym_chain_cases::sym_chain_case;

const CALLS: usize = 10_000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("kv", String::as_str);
    let mode = args.get(2).map_or("symbolic", String::as_str);
    let concrete = mode == "concrete";
    let calls = if mode == "setup" { 0 } else { CALLS };
    let c = sym_chain_case(which);
    let mut chars = 0;
    for _ in 0..calls {
        let (index, valid) = if concrete {
            codegen::stack(black_box(&c.concrete), Input::Coords)
                .expect("kernel")
                .c()
        } else if mode == "versioned" {
            codegen::sym_chain_versions(black_box(&c.shape), &c.ops, &c.syms, Input::Coords)
                .expect("kernel")
                .kernel()
                .kernel()
                .c()
        } else {
            codegen::sym_stack(black_box(&c.stack), &c.syms, Input::Coords)
                .expect("kernel")
                .kernel()
                .c()
        };
        chars += index.len() + valid.len();
    }
    println!("{which}: {chars} characters");
}
