//! The blocked fill of a view with windowed dimensions.
//!
//! A windowed dimension's index `t` reads its leaves' row-major position
//! `x = t + start`, so its offset and constraint terms are not linear in `t`,
//! but they depend on `t` alone ([`dim_terms`]). The trailing dimensions
//! whose extents multiply to at most [`BLOCK`] form a block. Its template
//! (per position: the offset, each constraint's value and the validity of
//! the windows) is built dimension by dimension, each repeating the prefix
//! built so far once per index with that index's terms; every block is the
//! template shifted by its outer dimensions' terms, evaluated once per block,
//! with validity applied per block by [`BlockChecks`].
//!
//! When the innermost dimension alone exceeds a block, the view is written
//! row by row ([`fill_rows`]): its window's valid indices are one interval,
//! read by an odometer over the dimension's leaves whose innermost leaf runs
//! as a plain loop, each run clipped to where the constraints hold.

use super::blocked::{BLOCK, BLOCK_CONSTRAINTS};
use super::checks::{with_rows, BlockChecks, Rows, Tables, MASK_ROW};
use super::odometer::{Leaves, Odometer};
use super::runs::run_interval;
use smallvec::SmallVec;

use crate::view::View;

/// Most constraints the row-wise fill handles (the blocked fill: at most
/// [`BLOCK_CONSTRAINTS`]); a view with more is evaluated element by element.
const ROW_CONSTRAINTS: usize = 8;

/// One dimension's offset and constraint terms (the first `cons` entries).
type Terms = (i64, [i64; ROW_CONSTRAINTS]);

/// Blocked fill of `view` (with at most [`BLOCK_CONSTRAINTS`] constraints)
/// into `out`; returns how many were written. `None` (evaluate element by
/// element) when the innermost dimension alone exceeds the block, there are
/// more constraints, or `out` holds less than one block.
///
/// O(n·(1 + constraints) + blocks·leaves) time for `n` elements (one
/// division per outer leaf and block), O(BLOCK·constraints) stack, no heap.
pub(super) fn fill_windowed(view: &View, out: &mut [i64], invalid: i64) -> Option<usize> {
    let extents = view.extents();
    let (k0, size) = dim_block(&extents)?;
    let want = out.len().min(usize::try_from(view.size()).ok()?);
    let cons = view.cons();
    if cons > BLOCK_CONSTRAINTS || want < size {
        return None;
    }
    let (template, rest) = out[..want].split_at_mut(size);
    let outer_leaves = match k0 {
        0 => 0,
        _ => view.dim_range(k0 - 1).end,
    };
    with_rows(size, |mut rel| {
        template_by_dims(view, (k0, &extents), template, &mut rel);
        let tables = Tables {
            size,
            varying: (0..cons)
                .filter(|&c| (0..outer_leaves).any(|k| view.leaf_coeffs(k)[c] != 0))
                .collect(),
            reach: (0..cons).map(|c| reach(rel.row(c))).collect(),
            shared_mask: true,
            slowest: SmallVec::new(),
        };
        let zeros = [0i64; BLOCK_CONSTRAINTS];
        let checks = BlockChecks::new(&view.bounds, &zeros[..cons], tables, rel);
        for (b, chunk) in (1i64..).zip(rest.chunks_mut(size)) {
            match outer_terms(view, (k0, &extents), b) {
                Some((shift, vals)) => {
                    checks.write(chunk, template, (shift, &vals[..cons]), invalid);
                }
                None => chunk.fill(invalid),
            }
        }
        match outer_terms(view, (k0, &extents), 0) {
            Some((shift, vals)) => {
                template.iter_mut().for_each(|o| *o += shift);
                checks.apply(template, &vals[..cons], invalid);
            }
            None => template.fill(invalid),
        }
    });
    Some(want)
}

/// Row-wise fill of `view` (at most [`ROW_CONSTRAINTS`] constraints) into
/// `out`, a row being the innermost dimension; returns how many were written.
/// `None` for rank 0 or more constraints.
///
/// O(n + runs·constraints + rows·leaves) time for `n` elements (a division
/// per leaf and row), no heap for ≤ 8 leaves.
pub(super) fn fill_rows(view: &View, out: &mut [i64], invalid: i64) -> Option<usize> {
    let extents = view.extents();
    let last = extents.len().checked_sub(1)?;
    let want = out.len().min(usize::try_from(view.size()).ok()?);
    if view.cons() > ROW_CONSTRAINTS {
        return None;
    }
    let e = extents[last];
    let (t_lo, t_hi, start) = match view.window(last) {
        Some(w) => (w.lo() - w.start(), w.hi() - w.start(), w.start()),
        None => (0, e, 0),
    };
    let (t_lo, t_hi) = (t_lo.clamp(0, e), t_hi.clamp(0, e));
    let row_leaves = Leaves::of_range(view, view.dim_range(last));
    let row_len = usize::try_from(e).ok()?;
    let cons = view.cons();
    // Constraints blind to the row's leaves hold or fail for a whole row.
    let blind: SmallVec<[usize; ROW_CONSTRAINTS]> = (0..cons)
        .filter(|&c| view.dim_range(last).all(|k| view.leaf_coeffs(k)[c] == 0))
        .collect();
    // When every constraint is, every valid row is the first one, shifted.
    let mut first: Option<(usize, i64)> = None;
    let mut at = 0usize;
    for r in 0i64.. {
        if at >= want {
            break;
        }
        let end = (at + row_len).min(want);
        let (done, rest) = out.split_at_mut(at);
        let row = &mut rest[..end - at];
        at = end;
        let Some((shift, vals)) = outer_terms(view, (last, &extents), r) else {
            row.fill(invalid);
            continue;
        };
        let fails = |&c: &usize| !(view.bounds[c].0..view.bounds[c].1).contains(&vals[c]);
        if blind.iter().any(fails) {
            row.fill(invalid);
            continue;
        }
        let whole = row.len() == row_len && blind.len() == cons;
        if let Some((p, delta)) = first
            .filter(|_| whole)
            .and_then(|(p, s0)| Some((p, shift.checked_sub(s0)?)))
        {
            // The window's valid range shifts; the rest is `invalid` again.
            let (a, b) = (t_lo as usize, (t_hi as usize).max(t_lo as usize));
            row[..a].fill(invalid);
            row[b..].fill(invalid);
            for (o, &x) in row[a..b].iter_mut().zip(&done[p + a..p + b]) {
                *o = x + delta;
            }
            continue;
        }
        let n = row.len() as i64;
        let (a, b) = (t_lo.min(n), t_hi.min(n).max(t_lo.min(n)));
        row[..a as usize].fill(invalid);
        row[b as usize..].fill(invalid);
        if a < b {
            let odo = Odometer::at(&row_leaves, a + start, shift, &vals[..cons]);
            write_runs(
                &row_leaves,
                odo,
                &view.bounds,
                &mut row[a as usize..b as usize],
                invalid,
            );
        }
        if whole {
            first = Some((end - row_len, shift));
        }
    }
    Some(want)
}

/// Writes `out` from the odometer's position on, one run of the innermost
/// leaf at a time: each constraint holds on an interval of the run
/// ([`run_interval`]), written as offsets, the rest as `invalid`; a whole
/// valid run copies the previous one, shifted.
/// O(len + runs·constraints).
fn write_runs(
    leaves: &Leaves,
    mut odo: Odometer,
    bounds: &[(i64, i64)],
    out: &mut [i64],
    invalid: i64,
) {
    let Some(inner) = leaves.extents.len().checked_sub(1) else {
        // Every leaf has extent 1: a single element.
        let valid = leaves.valid(&odo.values);
        out.fill(if valid { odo.offset } else { invalid });
        return;
    };
    let (e, d) = (leaves.extents[inner], leaves.strides[inner]);
    let mut at = 0usize;
    // The start and first offset of the last whole, valid run.
    let mut last_whole: Option<(usize, i64)> = None;
    while at < out.len() {
        let run = (e - odo.digit[inner]).min((out.len() - at) as i64);
        let (mut lo_j, mut hi_j) = (0i64, run);
        let cons = odo.values.iter().zip(bounds).zip(&leaves.coeffs[inner]);
        for ((&v, &(lo, hi)), &a) in cons {
            let (l, h) = run_interval(v, a, lo, hi);
            (lo_j, hi_j) = (lo_j.max(l), hi_j.min(h));
        }
        let (lo_j, hi_j) = (lo_j.clamp(0, run) as usize, hi_j.clamp(0, run) as usize);
        let hi_j = hi_j.max(lo_j);
        let whole = run == e && lo_j == 0 && hi_j == run as usize;
        let (done, rest) = out.split_at_mut(at);
        let chunk = &mut rest[..run as usize];
        // A whole valid run repeats the previous one, shifted (a vectorisable
        // add-copy); the shift is a difference of two offsets, hence in range.
        match last_whole
            .filter(|_| whole)
            .and_then(|(p, o)| Some((p, odo.offset.checked_sub(o)?)))
        {
            Some((p, shift)) => {
                for (o, &x) in chunk.iter_mut().zip(&done[p..p + run as usize]) {
                    *o = x + shift;
                }
            }
            None => {
                chunk[..lo_j].fill(invalid);
                for (j, o) in (lo_j as i64..).zip(&mut chunk[lo_j..hi_j]) {
                    *o = odo.offset + j * d;
                }
                chunk[hi_j..].fill(invalid);
            }
        }
        if whole {
            last_whole = Some((at, odo.offset));
        }
        at += run as usize;
        if at < out.len() {
            // To the run's last element, then one step (a carry).
            odo.digit[inner] += run - 1;
            odo.offset += d * (run - 1);
            for (v, a) in odo.values.iter_mut().zip(&leaves.coeffs[inner]) {
                *v += a * (run - 1);
            }
            odo.step(leaves);
        }
    }
}

/// The first dimension of the trailing block and the block's size: the
/// longest run of trailing dimensions whose extents multiply to at most
/// [`BLOCK`]. `None` when the innermost dimension alone exceeds it (or the
/// view has rank 0). O(rank).
fn dim_block(extents: &[i64]) -> Option<(usize, usize)> {
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

/// Dimension `d`'s terms at index `t`, `None` where its window makes every
/// element invalid. O(leaves of `d` · (1 + constraints)), a division per leaf.
fn dim_terms(view: &View, d: usize, t: i64) -> Option<Terms> {
    let mut x = t;
    if let Some(w) = view.window(d) {
        x += w.start;
        if !(w.lo()..w.hi()).contains(&x) {
            return None;
        }
    }
    let (mut offset, mut vals) = (0i64, [0i64; ROW_CONSTRAINTS]);
    for k in view.dim_range(d).rev() {
        let digit = x % view.ext[k];
        x /= view.ext[k];
        offset += digit * view.stride[k];
        for (v, &a) in vals.iter_mut().zip(view.leaf_coeffs(k)) {
            *v += digit * a;
        }
    }
    Some((offset, vals))
}

/// Block `b`'s shift (with the view's offset) and constraint values: the
/// terms of the outer dimensions `..k0` at the `b`-th row-major position.
/// `None` where an outer window makes the whole block invalid. O(outer leaves).
fn outer_terms(view: &View, (k0, extents): (usize, &[i64]), b: i64) -> Option<Terms> {
    let (mut shift, mut vals) = (view.offset, [0i64; ROW_CONSTRAINTS]);
    let mut rest = b;
    for d in (0..k0).rev() {
        let (offset, terms) = dim_terms(view, d, rest % extents[d])?;
        rest /= extents[d];
        shift += offset;
        for (v, a) in vals.iter_mut().zip(terms) {
            *v += a;
        }
    }
    Some((shift, vals))
}

/// Builds the block of dimensions `k0..` into `template` (offsets without the
/// view's offset), `rel` (each constraint's value) and its [`MASK_ROW`] (the
/// windows' validity), fastest dimension first: index `t` of a dimension
/// repeats the prefix built so far plus its terms (indices in descending
/// order, so the prefix itself is updated last). Every value is a partial
/// sum of a valid element's terms, so nothing overflows.
/// O(size·(1 + constraints) + Σ extents · leaves).
fn template_by_dims(
    view: &View,
    (k0, extents): (usize, &[i64]),
    template: &mut [i64],
    rel: &mut Rows<'_>,
) {
    let cons = view.cons();
    template[0] = 0;
    rel.row_mut(MASK_ROW)[0] = -1;
    for c in 0..cons {
        rel.row_mut(c)[0] = 0;
    }
    let mut filled = 1usize;
    for d in (k0..extents.len()).rev() {
        let e = usize::try_from(extents[d]).unwrap_or(1);
        for t in (0..e).rev() {
            let terms = dim_terms(view, d, t as i64);
            let (offset, vals) = terms.unwrap_or((0, [0; ROW_CONSTRAINTS]));
            let at = t * filled;
            copy_shifted(template, (at, filled), offset);
            for (c, v) in vals.into_iter().enumerate().take(cons) {
                copy_shifted(rel.row_mut(c), (at, filled), v);
            }
            let ok = -i64::from(terms.is_some());
            let mask = rel.row_mut(MASK_ROW);
            for j in 0..filled {
                mask[at + j] = mask[j] & ok;
            }
        }
        filled *= e;
    }
}

/// `row[at + j] = row[j] + shift` for `j < n` (`at` is 0 or at least `n`).
#[inline]
fn copy_shifted(row: &mut [i64], (at, n): (usize, usize), shift: i64) {
    if at == 0 {
        row[..n].iter_mut().for_each(|x| *x += shift);
    } else {
        let (done, next) = row.split_at_mut(at);
        for (t, &s) in next[..n].iter_mut().zip(&done[..n]) {
            *t = s + shift;
        }
    }
}

/// The least and greatest entry of a non-empty row. O(len).
fn reach(row: &[i64]) -> (i64, i64) {
    row.iter()
        .fold((i64::MAX, i64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)))
}
