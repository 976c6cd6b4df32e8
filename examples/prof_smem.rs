//! A fixed shared-memory workload for `valgrind --tool=callgrind`: the
//! swizzle search on a 128×64 fp32 tile read by columns, 20 times.
//! `cargo build --release --example prof_smem && valgrind --tool=callgrind
//! target/release/examples/prof_smem`.

use hlayout::smem::{swizzle_search, Access};
use hlayout::Layout;

fn main() {
    let l: Layout = "(128,64):(64,1)".parse().expect("layout");
    let a = Access::new("(128,64):(64,1)".parse().expect("access")).expect("access");
    let mut total = 0;
    for _ in 0..20 {
        total += swizzle_search(&l, &a, 4).expect("search").wavefronts;
    }
    println!("{total}");
}
