//! A swizzled shared-memory tile: why CuTe XORs offset bits, and the kernel
//! that computes the swizzled offset without bit operators.
//!
//! An 8×64 tile of 2-byte elements (`f16`) has 128-byte rows, exactly one row
//! of the 32 four-byte banks of shared memory. When 8 threads each load 16
//! bytes (8 elements) from the same column of 8 different rows — the access
//! pattern of `ldmatrix` — the row-major layout `(8,64):(64,1)` sends all 8
//! loads to the same 4 banks: an 8-way conflict. CuTe's `Swizzle<3,3,3>`
//! XORs the row's low 3 bits (offset bits 6–8) into the 16-byte chunk index
//! (bits 3–5), so the 8 loads land in 8 different chunks, all 32 banks.
//!
//! ```text
//! cargo run --example swizzled_smem
//! ```
//!
//! The example checks that the swizzled layout is a bijection onto the
//! tile's 512 elements, counts the banks each column load touches with and
//! without the swizzle, and checks the generated kernel at every index.

use hlayout::algebra::ComposedLayout;
use hlayout::codegen::{self, Input, Lang};
use hlayout::{Layout, Result};

/// Bytes per element (`f16`).
const ELEM: i64 = 2;
/// Elements per 16-byte load.
const VEC: i64 = 16 / ELEM;

/// The distinct 4-byte banks (of 32) touched when thread `r` (0..8) loads the
/// 16 bytes at element `(r, VEC * chunk)` of the tile.
fn banks(offset_of: impl Fn(i64) -> i64, chunk: i64) -> usize {
    let mut hit = [false; 32];
    for r in 0..8 {
        let start = offset_of(r * 64 + VEC * chunk) * ELEM;
        for byte in (start..start + 16).step_by(4) {
            hit[usize::try_from(byte / 4 % 32).expect("non-negative")] = true;
        }
    }
    hit.iter().filter(|&&b| b).count()
}

fn main() -> Result<()> {
    let plain: Layout = "(8,64):(64,1)".parse()?;
    let tile: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    println!("plain     {plain}");
    println!("swizzled  {tile}   (CuTe: {})", tile.to_cute());

    // A bijection onto 0..512: every element of the tile gets its own slot.
    let mut seen = vec![false; 512];
    for i in 0..512 {
        let o = usize::try_from(tile.eval(i)?).expect("offsets are in 0..512");
        assert!(!seen[o], "offset {o} twice");
        seen[o] = true;
    }

    // Which 16-byte chunk of its row each (row, chunk) lands in: chunk ^ row.
    println!("16-byte chunk holding (row, chunk), swizzled:");
    for r in 0..8 {
        let row: Vec<String> = (0..8)
            .map(|c| Ok((tile.eval(r * 64 + VEC * c)? % 64 / VEC).to_string()))
            .collect::<Result<_>>()?;
        println!("  row {r}: {}", row.join(" "));
        for (c, got) in row.iter().enumerate() {
            assert_eq!(got, &(c as i64 ^ r).to_string());
        }
    }

    // The bank count of each column load (8 threads x 16 bytes = 128 bytes).
    for chunk in 0..8 {
        let before = banks(|i| plain.eval(i).expect("in range"), chunk);
        let after = banks(|i| tile.eval(i).expect("in range"), chunk);
        assert_eq!((before, after), (4, 32), "chunk {chunk}");
    }
    println!("a column load touches 4 banks row-major (8-way conflict), 32 banks swizzled (none)");

    // The kernel: the swizzle written with divisions by powers of two only.
    let k = codegen::composed(&tile, Input::Linear)?;
    let (index, _) = k.render(Lang::C);
    println!("kernel index over i (the row-major rank): {index}");
    println!("divisions and modulos: {}", k.div_mod_count());
    for i in 0..512 {
        assert_eq!(k.eval(&[i])?, (tile.eval(i)?, true), "kernel at {i}");
    }
    println!("kernel checked at all 512 indices");
    Ok(())
}
