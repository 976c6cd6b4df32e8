//! Validity per block of a blocked fill.
//!
//! A constraint blind to the outer leaves ("fixed") fails at the same
//! positions in every block, as does a window of an inner dimension: those
//! are found once ([`FixedHoles`]). The other constraints
//! ("varying") are tested per block against their range over the block, and
//! element by element, with branch-free lane masks ([`RangeTest`]), only where
//! that range crosses a bound.

use std::ops::Range;

use smallvec::SmallVec;

use super::blocked::{tabulate, BLOCK, BLOCK_CONSTRAINTS};
use super::odometer::Leaves;
use crate::num::floor::{ceil_div, div_floor};

/// Rows of per-position tables of a block of `size` positions, row after
/// row: one per constraint (its value relative to the block's start), then
/// [`MASK_ROW`].
pub(super) struct Rows<'a> {
    data: &'a mut [i64],
    size: usize,
}

impl Rows<'_> {
    /// Row `r` (a constraint, or [`MASK_ROW`]).
    pub(super) fn row(&self, r: usize) -> &[i64] {
        &self.data[r * self.size..(r + 1) * self.size]
    }

    /// Row `r`, to write.
    pub(super) fn row_mut(&mut self, r: usize) -> &mut [i64] {
        &mut self.data[r * self.size..(r + 1) * self.size]
    }

    /// The constraint rows (row `c` at `c·size`) and the mask row.
    fn split_mask(&mut self) -> (&[i64], &mut [i64]) {
        let (head, tail) = self.data.split_at_mut(MASK_ROW * self.size);
        (head, &mut tail[..self.size])
    }
}

/// Runs `f` on zeroed [`Rows`] for a block of `size ≤ BLOCK` positions, on
/// the stack. Small blocks get small tables: zeroing the full
/// `3 × BLOCK` entries would cost a tiny view's fill ~25k instructions.
/// O(size) to zero.
pub(super) fn with_rows<R>(size: usize, f: impl FnOnce(Rows<'_>) -> R) -> R {
    const ROWS: usize = BLOCK_CONSTRAINTS + 1;
    const SMALL: usize = 32;
    const MEDIUM: usize = 256;
    let n = size * ROWS;
    if size <= SMALL {
        let mut data = [0i64; SMALL * ROWS];
        f(Rows {
            data: &mut data[..n],
            size,
        })
    } else if size <= MEDIUM {
        let mut data = [0i64; MEDIUM * ROWS];
        f(Rows {
            data: &mut data[..n],
            size,
        })
    } else {
        let mut data = [0i64; BLOCK * ROWS];
        f(Rows {
            data: &mut data[..n],
            size,
        })
    }
}

/// The row of [`Rows`] holding the lane mask of the positions every block
/// shares (-1 valid, 0 not).
pub(super) const MASK_ROW: usize = BLOCK_CONSTRAINTS;

/// Most fixed holes per block patched one by one rather than by a mask pass.
const MAX_HOLES: usize = 32;

/// Where the constraints blind to the outer leaves fail inside every block.
enum FixedHoles {
    /// Nowhere.
    None,
    /// At these few positions.
    Few(SmallVec<[u16; MAX_HOLES]>),
    /// Wherever [`MASK_ROW`] is 0.
    Mask,
}

/// The validity of a blocked fill's blocks (see the module documentation).
pub(super) struct BlockChecks<'a> {
    bounds: &'a [(i64, i64)],
    /// Per constraint, its value at each position relative to the block's start
    /// (rows of fixed constraints are consumed to build the fixed mask).
    rel: Rows<'a>,
    varying: SmallVec<[usize; BLOCK_CONSTRAINTS]>,
    /// Per constraint, the least and greatest relative value over the block.
    reach: SmallVec<[(i64, i64); BLOCK_CONSTRAINTS]>,
    slowest: SmallVec<[Option<Slowest>; BLOCK_CONSTRAINTS]>,
    fixed: FixedHoles,
}

impl<'a> BlockChecks<'a> {
    /// The checks of a blocked fill over leaves: tabulates each constraint
    /// over the block (leaves `k0..`, `size` positions) into `rel`, and
    /// folds the fixed ones into [`FixedHoles`] (`values`: the constraints'
    /// values at the stream's start). O(size·constraints).
    pub(super) fn of_leaves(
        leaves: &'a Leaves,
        values: &[i64],
        (k0, size): (usize, usize),
        mut rel: Rows<'a>,
    ) -> BlockChecks<'a> {
        let inner = &leaves.extents[k0..];
        let cons = leaves.bounds.len();
        for c in 0..cons {
            tabulate(rel.row_mut(c), inner, |k| leaves.coeffs[k0 + k][c], 0);
        }
        let varying = (0..cons)
            .filter(|&c| leaves.coeffs[..k0].iter().any(|a| a[c] != 0))
            .collect();
        let reach = (0..cons).map(|c| block_reach(leaves, k0, c)).collect();
        let e = leaves.extents[k0];
        let slowest = (0..cons)
            .map(|c| {
                Some(Slowest {
                    a: leaves.coeffs[k0][c],
                    e,
                    inner: size / usize::try_from(e).ok()?,
                    rest: block_reach(leaves, k0 + 1, c),
                })
            })
            .collect();
        let tables = Tables {
            size,
            varying,
            reach,
            shared_mask: false,
            slowest,
        };
        BlockChecks::new(&leaves.bounds, values, tables, rel)
    }

    /// The checks given the block's tables (see [`Tables`]): the fixed
    /// constraints (all but the varying ones), with `values` their values,
    /// are folded with the shared mask into [`FixedHoles`]. O(size·constraints).
    pub(super) fn new(
        bounds: &'a [(i64, i64)],
        values: &[i64],
        tables: Tables,
        mut rel: Rows<'a>,
    ) -> BlockChecks<'a> {
        debug_assert_eq!(rel.size, tables.size);
        let fixed = fixed_holes(bounds, values, &tables, &mut rel);
        BlockChecks {
            bounds,
            rel,
            varying: tables.varying,
            reach: tables.reach,
            slowest: tables.slowest,
            fixed,
        }
    }

    /// Writes one block other than the first (or its first `out.len()`
    /// positions): `template` shifted by `shift`, where valid given the
    /// block's constraint values `vals`. O(out.len()·(1 + checks needed)).
    pub(super) fn write(
        &self,
        out: &mut [i64],
        template: &[i64],
        (shift, vals): (i64, &[i64]),
        invalid: i64,
    ) {
        if self.misses_all(vals) {
            out.fill(invalid);
            return;
        }
        for (o, &t) in out.iter_mut().zip(template) {
            *o = t + shift;
        }
        self.mask(out, vals, invalid);
    }

    /// Applies validity to the first block, already holding its offsets. O(size·checks).
    pub(super) fn apply(&self, block: &mut [i64], vals: &[i64], invalid: i64) {
        if self.misses_all(vals) {
            block.fill(invalid);
        } else {
            self.mask(block, vals, invalid);
        }
    }

    /// Whether some varying constraint fails at every position of the block. O(constraints).
    fn misses_all(&self, vals: &[i64]) -> bool {
        self.varying.iter().any(|&c| {
            let ((lo, hi), v, (min, max)) = (self.bounds[c], vals[c], self.reach[c]);
            v + max < lo || v + min >= hi
        })
    }

    /// Overwrites with `invalid` every position of `out` (a block's prefix of
    /// offsets) where a constraint fails. Branch-free select passes, one per
    /// varying constraint whose range crosses a bound, then the fixed holes.
    fn mask(&self, out: &mut [i64], vals: &[i64], invalid: i64) {
        let n = out.len();
        for &c in &self.varying {
            let ((lo, hi), v, (min, max)) = (self.bounds[c], vals[c], self.reach[c]);
            if lo <= v + min && v + max < hi {
                continue; // this block cannot break it
            }
            let test = RangeTest::new((lo, hi), v, (min, max));
            let whole = [0..n, 0..0];
            let parts = match self.slowest.get(c).copied().flatten() {
                Some(s) if s.a != 0 => s.suspects((lo, hi), v, n),
                _ => whole,
            };
            let row = self.rel.row(c);
            for part in parts {
                for (o, &r) in out[part.clone()].iter_mut().zip(&row[part]) {
                    *o = select(test.mask(r), *o, invalid);
                }
            }
        }
        match &self.fixed {
            FixedHoles::None => {}
            FixedHoles::Few(holes) => {
                for &j in holes.iter().filter(|&&j| usize::from(j) < n) {
                    out[usize::from(j)] = invalid;
                }
            }
            FixedHoles::Mask => {
                for (o, &m) in out.iter_mut().zip(&self.rel.row(MASK_ROW)[..n]) {
                    *o = select(m, *o, invalid);
                }
            }
        }
    }
}

/// `a` where the lane mask `m` is -1, `b` where it is 0: bitwise, so exact
/// for any values, and vectorisable.
#[inline]
fn select(m: i64, a: i64, b: i64) -> i64 {
    (a & m) | (b & !m)
}

/// The least and greatest value of constraint `c`'s terms over leaves `k0..`:
/// each leaf contributes `min(0, a·(e-1))` and `max(0, a·(e-1))`. Every partial
/// sum lies within the constraint's reach, which canonical constraints keep
/// inside `i64`. O(leaves).
fn block_reach(leaves: &Leaves, k0: usize, c: usize) -> (i64, i64) {
    leaves.extents[k0..]
        .iter()
        .zip(&leaves.coeffs[k0..])
        .fold((0, 0), |(min, max), (&e, a)| {
            let span = a[c] * (e - 1);
            (min + span.min(0), max + span.max(0))
        })
}

/// What [`Rows`] hold for a block of `size` positions: each constraint's
/// values, the constraints that vary between blocks, each constraint's least
/// and greatest value over the block, and whether [`MASK_ROW`] holds a mask
/// shared by every block (else it is free).
pub(super) struct Tables {
    pub(super) size: usize,
    pub(super) varying: SmallVec<[usize; BLOCK_CONSTRAINTS]>,
    pub(super) reach: SmallVec<[(i64, i64); BLOCK_CONSTRAINTS]>,
    pub(super) shared_mask: bool,
    /// Per constraint, its split by the block's slowest leaf, when known.
    pub(super) slowest: SmallVec<[Option<Slowest>; BLOCK_CONSTRAINTS]>,
}

/// A constraint's value over a block as `a·x + r`: `x ∈ [0, e)` the block's
/// slowest leaf, each of its values covering `inner` consecutive positions,
/// and the rest `r` within `rest`. Where the value can leave its bounds is
/// then a prefix and a suffix of the block ([`Slowest::suspects`]).
#[derive(Clone, Copy)]
pub(super) struct Slowest {
    pub(super) a: i64,
    pub(super) e: i64,
    pub(super) inner: usize,
    pub(super) rest: (i64, i64),
}

impl Slowest {
    /// The positions of a block (of `n`) where `lo <= v + a·x + r < hi` may
    /// fail: those with `x` below the first value whose whole range clears
    /// `lo`, and from the first value whose range can reach `hi` (mirrored
    /// for `a < 0`); every other position passes. O(1).
    fn suspects(&self, (lo, hi): (i64, i64), v: i64, n: usize) -> [Range<usize>; 2] {
        let (a, e, v) = (i128::from(self.a), i128::from(self.e), i128::from(v));
        let (min, max) = (i128::from(self.rest.0), i128::from(self.rest.1));
        let (lo, hi) = (i128::from(lo), i128::from(hi));
        let at = |x: i128| (x.clamp(0, e) as usize * self.inner).min(n);
        if a > 0 {
            // Low side: a·x + min + v < lo for x < ⌈(lo − v − min)/a⌉.
            let low = ceil_div(lo - v - min, a);
            // High side: a·x + max + v >= hi from x = ⌈(hi − v − max)/a⌉.
            let high = ceil_div(hi - v - max, a);
            [0..at(low), at(high)..n]
        } else {
            let b = -a;
            // Low side: v + min − b·x < lo from x = ⌊(v + min − lo)/b⌋ + 1.
            let low = div_floor(v + min - lo, b) + 1;
            // High side: v + max − b·x >= hi up to x = ⌊(v + max − hi)/b⌋.
            let high = div_floor(v + max - hi, b) + 1;
            [at(low)..n, 0..at(high)]
        }
    }
}

/// Folds the fixed constraints (all but the varying ones; `values` their
/// values at every block's start) into [`MASK_ROW`], with the shared mask if
/// any, and lists its holes when there are at most [`MAX_HOLES`].
/// O(size·constraints).
fn fixed_holes(
    bounds: &[(i64, i64)],
    values: &[i64],
    tables: &Tables,
    rel: &mut Rows<'_>,
) -> FixedHoles {
    let size = tables.size;
    let mut fixed = (0..bounds.len())
        .filter(|c| !tables.varying.contains(c))
        .peekable();
    if fixed.peek().is_none() && !tables.shared_mask {
        return FixedHoles::None;
    }
    let (head, mask) = rel.split_mask();
    if !tables.shared_mask {
        mask.fill(-1);
    }
    for c in fixed {
        let test = RangeTest::new(bounds[c], values[c], tables.reach[c]);
        for (m, &r) in mask.iter_mut().zip(&head[c * size..(c + 1) * size]) {
            *m &= test.mask(r);
        }
    }
    let mut holes = SmallVec::new();
    for (j, _) in (0u16..).zip(&*mask).filter(|&(_, &m)| m == 0) {
        if holes.len() == MAX_HOLES {
            return FixedHoles::Mask;
        }
        holes.push(j);
    }
    match holes.is_empty() {
        true => FixedHoles::None,
        false => FixedHoles::Few(holes),
    }
}

/// The test `lo <= v + r < hi` of a constraint with value `v` at a block's
/// start, over the block's relative values `r`.
#[derive(Clone, Copy)]
enum RangeTest {
    /// `a <= r <= b`, read off the sign of `(r - a) | (b - r)`: one subtraction
    /// per bound, no comparison (64-bit comparisons are slow in SIMD).
    Shifted { a: i64, b: i64 },
    /// The two comparisons, when a shifted form could overflow.
    Direct { lo: i64, hi: i64, v: i64 },
}

impl RangeTest {
    /// The test for bounds `[lo, hi)` (`lo < hi`, as canonical constraints
    /// have) and value `v`, relative values within `reach`. The shifted form
    /// is used only when `r - a` and `b - r` fit `i64` at both ends of `reach`,
    /// hence everywhere in it (they are monotone in `r`). O(1).
    fn new((lo, hi): (i64, i64), v: i64, (min, max): (i64, i64)) -> RangeTest {
        let shifted = || {
            let (a, b) = (lo.checked_sub(v)?, hi.checked_sub(1)?.checked_sub(v)?);
            min.checked_sub(a)?;
            max.checked_sub(a)?;
            b.checked_sub(min)?;
            b.checked_sub(max)?;
            Some(RangeTest::Shifted { a, b })
        };
        shifted().unwrap_or(RangeTest::Direct { lo, hi, v })
    }

    /// -1 where the test holds at relative value `r` (within the reach given
    /// to [`RangeTest::new`]), 0 elsewhere. O(1).
    #[inline]
    fn mask(self, r: i64) -> i64 {
        match self {
            RangeTest::Shifted { a, b } => !((r - a) | (b - r)) >> 63,
            RangeTest::Direct { lo, hi, v } => -i64::from((lo <= v + r) & (v + r < hi)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RangeTest;

    /// Both forms of the range test agree with the two comparisons at and near
    /// the ends of `i64`, where the shifted form must give way to the direct one.
    #[test]
    fn range_test_matches_comparisons_at_extremes() {
        let edges = [
            i64::MIN,
            i64::MIN + 1,
            -7,
            -1,
            0,
            1,
            7,
            i64::MAX - 1,
            i64::MAX,
        ];
        let mut shifted = 0;
        for code in 0..edges.len().pow(5) {
            let pick = |k: u32| edges[code / edges.len().pow(k) % edges.len()];
            let (lo, hi, v, min, max) = (pick(0), pick(1), pick(2), pick(3), pick(4));
            let fits = v.checked_add(min).is_some() && v.checked_add(max).is_some();
            if lo >= hi || min > max || !fits {
                continue;
            }
            let test = RangeTest::new((lo, hi), v, (min, max));
            shifted += usize::from(matches!(test, RangeTest::Shifted { .. }));
            let probes = [
                min,
                max,
                min / 2 + max / 2,
                lo.saturating_sub(v),
                hi.saturating_sub(v),
            ];
            for r in probes
                .into_iter()
                .flat_map(|r| [r.saturating_sub(1), r, r.saturating_add(1)])
            {
                if (min..=max).contains(&r) {
                    let want = -i64::from(lo <= v + r && v + r < hi);
                    assert_eq!(
                        test.mask(r),
                        want,
                        "lo {lo} hi {hi} v {v} r {r} reach {min}..={max}"
                    );
                }
            }
        }
        assert!(shifted > 100, "the shifted form ran only {shifted} times");
    }
}
