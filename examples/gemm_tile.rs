//! Tiling a GEMM operand: divides cut a matrix into tiles, products spread a
//! tile over threads.
//!
//! The `M`×`K` operand `A` of a GEMM is stored row-major, `(M,K):(K,1)`. A
//! thread block works on one `BM`×`BK` tile at a time; `zipped_divide` by the
//! tile's shape gives the layout `((tiles), (tile))`: the first mode picks a
//! tile, the second an element inside it. Inside a tile, each thread owns a
//! 2×2 block of values; `blocked_product` of the value block by the thread
//! grid gives the tile's coordinate → (thread, value) numbering, and
//! `raked_product` the interleaved alternative.
//!
//! ```text
//! cargo run --example gemm_tile
//! ```
//!
//! Every result is checked at every index against its definition.

use hlayout::algebra::Tiler;
use hlayout::{IntTuple, Layout, Result};

const M: i64 = 128;
const K: i64 = 64;
const BM: i64 = 32;
const BK: i64 = 16;

/// Prints `l` as a grid: rows = mode 0, columns = mode 1, each cell `l(r, c)`.
fn print_grid(l: &Layout, rows: i64, cols: i64) -> Result<()> {
    for r in 0..rows {
        let mut line = String::new();
        for c in 0..cols {
            let v = l.eval_crd(&format!("({r},{c})").parse::<IntTuple>()?)?;
            line.push_str(&format!("{v:>3}"));
        }
        println!("   {line}");
    }
    Ok(())
}

fn main() -> Result<()> {
    // 1. The operand and its tiles.
    let a: Layout = format!("({M},{K}):({K},1)").parse()?;
    let tiler = Tiler::Modes(vec![format!("{BM}:1").parse()?, format!("{BK}:1").parse()?]);
    let tiled = a.zipped_divide(&tiler)?;
    println!("A                 {a}");
    println!("zipped_divide     {tiled}");
    assert_eq!(tiled.to_string(), "((4,4),(32,16)):((2048,16),(64,1))");

    // Definition: index i unravels row-major over (M/BM, K/BK, BM, BK) into
    // (tile row, tile column, row in tile, column in tile).
    let (tm, tk) = (M / BM, K / BK);
    for i in 0..M * K {
        let (c, r, k, m) = (i % BK, i / BK % BM, i / (BK * BM) % tk, i / (BK * BM * tk));
        assert_eq!(tiled.eval(i)?, (m * BM + r) * K + k * BK + c, "index {i}");
    }
    assert_eq!(tiled.mode(0)?.size(), tm * tk); // one index per tile

    // One tile is mode 1 shifted by where mode 0 puts its origin.
    let tile = tiled.mode(1)?;
    let origin = tiled.mode(0)?.eval(2 * tk + 3)?; // tile (2, 3)
    println!("tile (2,3)        {tile} + {origin}");
    assert_eq!(origin, (2 * BM) * K + 3 * BK);
    // A tile is a plain strided view, what a copy loop wants ...
    let plain = tile.flatten().expect("a tile is plain");
    assert_eq!(
        (plain.shape(), plain.strides()),
        (&[BM, BK][..], &[K, 1][..])
    );
    // ... while the tiled layout is not: each of its two modes is nested
    // (tile row and column; row and column in the tile) and needs a div/mod.
    let report = tiled.flatten().unwrap_err();
    println!("flatten           {report}");
    assert_eq!(report.modes().len(), 2);

    // 2. Threads in a tile: each owns a 2x2 block of values. A small picture
    // first (2x4 threads), then the real tile (16x8 threads).
    let block: Layout = "(2,2):(2,1)".parse()?;
    let small = block.blocked_product(&"(2,4):(4,1)".parse()?)?;
    println!("blocked_product   {small}   (value 4*thread + v; thread t owns 4t..4t+3)");
    print_grid(&small, 4, 8)?;
    let raked = block.raked_product(&"(2,4):(4,1)".parse()?)?;
    println!("raked_product     {raked}   (each thread's values spread over the tile)");
    print_grid(&raked, 4, 8)?;

    let (tr, tc) = (BM / 2, BK / 2);
    let owners = block.blocked_product(&format!("({tr},{tc}):({tc},1)").parse()?)?;
    let interleaved = block.raked_product(&format!("({tr},{tc}):({tc},1)").parse()?)?;
    for r in 0..BM {
        for c in 0..BK {
            let at: IntTuple = format!("({r},{c})").parse()?;
            // Blocked: thread (r/2, c/2) holds value (r%2, c%2).
            let want = ((r / 2) * tc + c / 2) * 4 + (r % 2) * 2 + c % 2;
            assert_eq!(owners.eval_crd(&at)?, want, "blocked at ({r},{c})");
            // Raked: thread (r%tr, c%tc) holds value (r/tr, c/tc).
            let want = ((r % tr) * tc + c % tc) * 4 + (r / tr) * 2 + c / tc;
            assert_eq!(interleaved.eval_crd(&at)?, want, "raked at ({r},{c})");
        }
    }
    println!(
        "checked {} tiled offsets and {} thread/value slots",
        M * K,
        2 * BM * BK
    );
    Ok(())
}
