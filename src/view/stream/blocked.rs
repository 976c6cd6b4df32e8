//! The blocked fill of a constrained view: short innermost runs written a
//! block at a time.
//!
//! The trailing leaves whose product is at most [`BLOCK`] form a block. The
//! first block's offsets are tabulated by doubling straight into the output
//! (no table of its own); every other block is that template plus its outer
//! leaves' shift, one vectorisable add-copy. Validity is then applied per
//! block by [`BlockChecks`].

use smallvec::SmallVec;

use super::checks::{with_rows, BlockChecks};
use super::odometer::{Leaves, Odometer};
use super::ViewOffsets;

/// Elements per tabulated block.
pub(super) const BLOCK: usize = 1024;

/// Most constraints the blocked fill tabulates.
pub(super) const BLOCK_CONSTRAINTS: usize = 2;

/// Blocks smaller than this split the next leaf out ([`split_leaf`]): per
/// block costs dominate them (the padded 3×3 window of a 256×256 image has
/// blocks of 9 otherwise).
const SPLIT_BELOW: usize = 64;

/// Most outer leaves (outside the block) the blocked fill steps through.
const MAX_OUTER: usize = 64;

/// Blocked fill of `it` (at its start) into `out`; returns how many were
/// written. `None` (use the run-wise fill) when the innermost leaf alone
/// exceeds the block, there are more than [`BLOCK_CONSTRAINTS`] constraints
/// or more than [`MAX_OUTER`] outer leaves, or `out` holds less than one
/// block.
///
/// O(n + BLOCK·constraints) time for `n` elements, O(BLOCK·constraints)
/// stack, no heap for ≤ 8 leaves.
pub(super) fn fill_blocked(it: &ViewOffsets, out: &mut [i64], invalid: i64) -> Option<usize> {
    let (k0, size) = block_split(&it.leaves.extents)?;
    let want = out.len().min(usize::try_from(it.remaining).ok()?);
    let start = (it.odo.offset, &it.odo.values[..]);
    match split_leaf(&it.leaves, k0, size) {
        Some(split) => fill_leaves(&split, start, &mut out[..want], invalid),
        None => fill_leaves(&it.leaves, start, &mut out[..want], invalid),
    }
}

/// The blocked fill of `leaves` from their first position (with the stream's
/// offset and constraint values there) into all of `out`.
fn fill_leaves(
    leaves: &Leaves,
    (offset, values): (i64, &[i64]),
    out: &mut [i64],
    invalid: i64,
) -> Option<usize> {
    let (k0, size) = block_split(&leaves.extents)?;
    let want = out.len();
    if k0 > MAX_OUTER || leaves.bounds.len() > BLOCK_CONSTRAINTS || want < size {
        return None;
    }
    let (template, rest) = out.split_at_mut(size);
    tabulate(
        template,
        &leaves.extents[k0..],
        |k| leaves.strides[k0 + k],
        offset,
    );
    with_rows(size, |rel| {
        let checks = BlockChecks::of_leaves(leaves, values, (k0, size), rel);
        // The outer leaves' odometer carries each block's shift relative to the first.
        let mut outer = Odometer::new(k0, 0, values);
        for chunk in rest.chunks_mut(size) {
            outer.step(leaves);
            checks.write(chunk, template, (outer.offset, &outer.values), invalid);
        }
        checks.apply(template, values, invalid);
    });
    Some(want)
}

/// When the block is small because the next leaf out (extent `e`) does not
/// fit beside it, `leaves` with that leaf split in two, `e/q` slow and `q`
/// fast, `q` the largest divisor of `e` that fits: the same positions in the
/// same order (`x = x_hi·q + x_lo`: stride and coefficients times `q` on the
/// slow part), with a block `q` times larger. `None` when the block already
/// holds [`SPLIT_BELOW`] positions (larger blocks straddle more constraint
/// bounds, so splitting stops paying) or no divisor fits.
/// O(leaves · constraints).
fn split_leaf(leaves: &Leaves, k0: usize, size: usize) -> Option<Leaves> {
    if size >= SPLIT_BELOW || k0 == 0 {
        return None;
    }
    let k = k0 - 1;
    let e = leaves.extents[k];
    let fits = i64::try_from(BLOCK / size).ok()?;
    let q = largest_divisor_at_most(e, fits).filter(|&q| q >= 2)?;
    let mut out = leaves.clone();
    let slow_coeffs: SmallVec<[i64; 2]> = leaves.coeffs[k].iter().map(|&a| a * q).collect();
    out.extents[k] = e / q;
    out.strides[k] = leaves.strides[k] * q;
    out.coeffs[k] = slow_coeffs;
    out.extents.insert(k + 1, q);
    out.strides.insert(k + 1, leaves.strides[k]);
    out.coeffs.insert(k + 1, leaves.coeffs[k].clone());
    Some(out)
}

/// The largest divisor of `e` that is at most `limit`, looked for among
/// `e/m` for the 64 cofactors `m` from `⌈e/limit⌉` up; `None` when none of
/// them divides. O(1) (64 divisions at most).
fn largest_divisor_at_most(e: i64, limit: i64) -> Option<i64> {
    let first = (e + limit - 1) / limit;
    (first..first.saturating_add(64))
        .take_while(|&m| m <= e)
        .find(|&m| e % m == 0)
        .map(|m| e / m)
}

/// The first leaf of the trailing block and the block's size: the longest
/// run of trailing leaves whose product is at most [`BLOCK`]. `None` when the
/// innermost leaf alone exceeds it (or there are no leaves). O(leaves).
fn block_split(extents: &[i64]) -> Option<(usize, usize)> {
    let mut k0 = extents.len();
    let mut size = 1usize;
    while k0 > 0 {
        let next = size.checked_mul(usize::try_from(extents[k0 - 1]).ok()?)?;
        if next > BLOCK {
            break;
        }
        (k0, size) = (k0 - 1, next);
    }
    (k0 < extents.len()).then_some((k0, size))
}

/// Fills `table` with `start + Σ_k x_k·weight(k)` over the row-major positions
/// `x` of leaves with these `extents` (`table` holds their product), by
/// doubling: fastest leaf first, each leaf repeats the prefix built so far
/// shifted by its weight, copying 1, 2, 4, … prefix-sized runs at a time.
///
/// Every value written is a partial sum of the terms of a full sum that fits
/// `i64` (the callers' views guarantee it), so nothing overflows.
/// O(len + Σ log extents) element operations, all in vectorisable add-copies.
pub(super) fn tabulate(
    table: &mut [i64],
    extents: &[i64],
    weight: impl Fn(usize) -> i64,
    start: i64,
) {
    table[0] = start;
    let mut filled = 1usize;
    for (k, &e) in extents.iter().enumerate().rev() {
        let (e, w) = (usize::try_from(e).unwrap_or(1), weight(k));
        let mut copies = 1usize;
        while copies < e {
            let n = copies.min(e - copies) * filled;
            let (done, next) = table.split_at_mut(copies * filled);
            let shift = copies as i64 * w;
            for (t, &s) in next[..n].iter_mut().zip(&done[..n]) {
                *t = s + shift;
            }
            copies += copies.min(e - copies);
        }
        filled *= e;
    }
}
