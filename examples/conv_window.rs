//! A padded convolution window, from movement ops to a C kernel.
//!
//! tinygrad builds the 3×3 windows of a convolution with padding 1 out of
//! movement ops alone (`Tensor._pool`: pad, reshape, expand, reshape, shrink,
//! reshape, shrink, permute). tinygrad's own view merge keeps a stack of views
//! for this chain; hlayout keeps **one** view, whose validity is the exact
//! affine condition `1 <= y + ky < H + 1` (no per-dimension mask can say it),
//! and lowers it to index and validity expressions without a single division.
//!
//! ```text
//! cargo run --example conv_window
//! ```
//!
//! Every element of the window tensor is checked against the definition
//! (element `(y, x, ky, kx)` reads pixel `(y + ky - 1, x + kx - 1)` of the
//! `H`×`W` image, row-major, and is padding when that pixel is outside), both
//! through the view and through the generated kernel.

use hlayout::codegen::{self, Input, Lang};
use hlayout::{Result, ViewStack};

/// Image height and width.
const H: i64 = 6;
const W: i64 = 6;

/// tinygrad's `_pool` chain for 3×3 windows of an `H`×`W` image padded by 1:
/// the result has shape `(H, W, 3, 3)`.
fn conv_window() -> Result<ViewStack> {
    let (ph, pw) = (H + 2, W + 2);
    ViewStack::new(&[H, W])?
        .pad(&[(1, 1), (1, 1)])?
        .reshape(&[1, ph, 1, pw])?
        .expand(&[4, ph, 4, pw])?
        .reshape(&[4 * ph, 4 * pw])?
        .shrink(&[(0, 3 * (ph + 1)), (0, 3 * (pw + 1))])?
        .reshape(&[3, ph + 1, 3, pw + 1])?
        .shrink(&[(0, 3), (0, H), (0, 3), (0, W)])?
        .permute(&[1, 3, 0, 2])
}

/// The definition: the buffer offset element `(y, x, ky, kx)` reads, or
/// `None` on padding.
fn expected(y: i64, x: i64, ky: i64, kx: i64) -> Option<i64> {
    let (r, c) = (y + ky - 1, x + kx - 1);
    ((0..H).contains(&r) && (0..W).contains(&c)).then_some(r * W + c)
}

fn main() -> Result<()> {
    let s = conv_window()?;
    println!("shape  {:?}", s.shape());
    println!("views  {}", s.views().len());
    println!("view   {s}");
    assert_eq!(s.shape(), [H, W, 3, 3]);
    assert_eq!(s.views().len(), 1, "one view, not a stack");

    let k = codegen::stack(&s, Input::Coords)?;
    let (index, valid) = k.render(Lang::C);
    println!("kernel variables: i0 = y, i1 = x, i2 = ky, i3 = kx");
    println!("  index: {index}");
    println!("  valid: {valid}");
    println!("  divisions and modulos: {}", k.div_mod_count());
    assert_eq!(k.div_mod_count(), 0, "a padded window needs no division");

    // Every element, through the view and through the kernel.
    let (mut valid_count, mut pad_count) = (0, 0);
    for y in 0..H {
        for x in 0..W {
            for ky in 0..3 {
                for kx in 0..3 {
                    let want = expected(y, x, ky, kx);
                    assert_eq!(
                        s.eval(&[y, x, ky, kx])?,
                        want,
                        "view at {:?}",
                        (y, x, ky, kx)
                    );
                    let (at, ok) = k.eval(&[y, x, ky, kx])?;
                    assert_eq!(
                        ok,
                        want.is_some(),
                        "kernel validity at {:?}",
                        (y, x, ky, kx)
                    );
                    if let Some(off) = want {
                        assert_eq!(at, off, "kernel index at {:?}", (y, x, ky, kx));
                        valid_count += 1;
                    } else {
                        pad_count += 1;
                    }
                }
            }
        }
    }
    println!(
        "checked {} elements: {valid_count} read the image, {pad_count} are padding",
        H * W * 9
    );
    // Per axis, 3·n - 2 of the 3·n (position, tap) pairs fall inside.
    assert_eq!(valid_count, (3 * H - 2) * (3 * W - 2));

    // The C text, as a kernel would use it.
    println!();
    println!("float conv_in(const float *img, int i0, int i1, int i2, int i3) {{");
    println!("  return ({valid}) ? img[{index}] : 0.0f;");
    println!("}}");
    Ok(())
}
