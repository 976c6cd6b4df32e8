//! Shared memory (`hlayout::smem`): the exact bank-conflict count, the
//! swizzle search over the protocol's 111 swizzles, the swizzle between two
//! layouts and F2 bases. Run: `cargo bench --bench smem`.
//!
//! Every workload is checked once before it is timed: the search's answer is
//! recounted by `bank_conflicts` on the composed layout it returns. The
//! headline is a 128×64 fp32 tile read by columns (each value `v`: the warp
//! reads column `v`, 32-way conflicts without a swizzle); `search_cols` runs
//! the same access on square-ish tiles from 32×32 to 256×256 (the cost is
//! linear in the points of the access); `search_flat` is an access already
//! conflict-free (the identity meets the lower bound and the search stops),
//! `search_hopeless` one no swizzle in range can help (the lower bound
//! stops every candidate after one request).

use divan::{black_box, Bencher};
use hlayout::smem::{
    bank_conflicts, swizzle_between, swizzle_search, to_linear, Access, SmemLayout,
};
use hlayout::Layout;

fn main() {
    divan::main();
}

/// The tile, its access, and the element size, checked once.
fn checked(tile: &str, access: &str, b: i64) -> (Layout, Access) {
    let l: Layout = tile.parse().unwrap();
    let a = Access::new(access.parse().unwrap()).unwrap();
    let best = swizzle_search(&l, &a, b).unwrap();
    let again = bank_conflicts(&SmemLayout::Swizzled(best.layout.clone()), &a, b).unwrap();
    assert_eq!(
        (again.wavefronts, again.ideal),
        (best.wavefronts, best.ideal)
    );
    (l, a)
}

#[divan::bench]
fn bank_conflicts_128x64(bencher: Bencher) {
    let (l, a) = checked("(128,64):(64,1)", "(128,64):(64,1)", 4);
    let l = SmemLayout::Plain(l);
    bencher.bench(|| bank_conflicts(black_box(&l), black_box(&a), 4).unwrap());
}

#[divan::bench(args = [1, 2, 4])]
fn search_128x64(bencher: Bencher, b: i64) {
    let (l, a) = checked("(128,64):(64,1)", "(128,64):(64,1)", b);
    bencher.bench(|| swizzle_search(black_box(&l), black_box(&a), b).unwrap());
}

#[divan::bench(args = [32, 64, 128, 256])]
fn search_cols(bencher: Bencher, n: i64) {
    let text = format!("({n},{n}):({n},1)");
    let (l, a) = checked(&text, &text, 4);
    bencher.bench(|| swizzle_search(black_box(&l), black_box(&a), 4).unwrap());
}

#[divan::bench]
fn search_flat(bencher: Bencher) {
    let (l, a) = checked("(128,64):(64,1)", "(128,64):(1,128)", 4);
    bencher.bench(|| swizzle_search(black_box(&l), black_box(&a), 4).unwrap());
}

#[divan::bench]
fn search_hopeless(bencher: Bencher) {
    let (l, a) = checked("(128,64):(65536,1)", "(128,64):(64,1)", 4);
    bencher.bench(|| swizzle_search(black_box(&l), black_box(&a), 4).unwrap());
}

#[divan::bench]
fn between_128x64(bencher: Bencher) {
    let l: SmemLayout = "(128,64):(64,1)".parse().unwrap();
    let t: SmemLayout = "Sw<3,4,3> o 0 o (128,64):(64,1)".parse().unwrap();
    assert_eq!(
        swizzle_between(&l, &t).unwrap().unwrap().to_string(),
        "Sw<3,4,3>"
    );
    bencher.bench(|| swizzle_between(black_box(&l), black_box(&t)).unwrap());
}

#[divan::bench]
fn linear_bases_128x64(bencher: Bencher) {
    let l: SmemLayout = "Sw<3,4,3> o 0 o (128,64):(64,1)".parse().unwrap();
    assert_eq!(to_linear(&l).unwrap().unwrap().len(), 13);
    bencher.bench(|| to_linear(black_box(&l)).unwrap());
}
