//! Drawing benchmarks: thread/value pictures of 128x128 tiles (16,384 cells,
//! each labelled `T<t>V<v>`), built and rendered as SVG and TikZ, and the
//! offset grid of a 64x64 layout. Three accesses: by rows (thread t reads
//! row t, so a colour run is a whole row), by columns (a run is a whole
//! column) and interleaved (`((64,2),(2,64)):((256,1),(128,2))`: threads
//! alternate along each row and repeat for two rows only, the most runs).
//! Run: `cargo bench --bench draw`.

use divan::{black_box, AllocProfiler, Bencher};
use hlayout::draw::{self, Banks, TvPicture};
use hlayout::Layout;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

const TILE: &str = "(128,128):(128,1)";
const ACCESSES: [&str; 3] = [
    "(128,128):(128,1)",
    "(128,128):(1,128)",
    "((64,2),(2,64)):((256,1),(128,2))",
];

fn picture(access: &str, banks: bool) -> TvPicture {
    let l: Layout = TILE.parse().expect("tile");
    let a: Layout = access.parse().expect("access");
    let banks = banks.then_some(Banks {
        element_bytes: 2,
        warp: 0,
    });
    TvPicture::of_layout(&l, &a, banks).expect("the access reads the tile")
}

/// Inverting the access into the picture model, with the bank panel.
#[divan::bench(args = ACCESSES)]
fn tv_model_128x128(b: Bencher, access: &str) {
    let l: Layout = TILE.parse().expect("tile");
    let a: Layout = access.parse().expect("access");
    let banks = Some(Banks {
        element_bytes: 2,
        warp: 0,
    });
    b.bench(|| TvPicture::of_layout(black_box(&l), black_box(&a), banks));
}

/// The SVG text of the picture (with banks).
#[divan::bench(args = ACCESSES)]
fn tv_svg_128x128(b: Bencher, access: &str) {
    let p = picture(access, true);
    b.bench(|| draw::tv_svg(black_box(&p)));
}

/// The TikZ text of the picture (with banks).
#[divan::bench(args = ACCESSES)]
fn tv_latex_128x128(b: Bencher, access: &str) {
    let p = picture(access, true);
    b.bench(|| draw::tv_latex(black_box(&p)));
}

/// The offset grid of a 64x64 layout as SVG (4,096 cells, the grid's cap).
#[divan::bench]
fn layout_svg_64x64(b: Bencher) {
    let l: Layout = "(64,64):(1,64)".parse().expect("layout");
    b.bench(|| draw::layout_svg(black_box(&l)));
}
