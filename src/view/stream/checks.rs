//! Validity per block of a blocked fill.
//!
//! A constraint blind to the outer leaves ("fixed") fails at the same
//! positions in every block: those are found once ([`FixedHoles`]). The others
//! ("varying") are tested per block against their range over the block, and
//! element by element, with branch-free lane masks ([`RangeTest`]), only where
//! that range crosses a bound.

use smallvec::SmallVec;

use super::blocked::{tabulate, BLOCK, BLOCK_CONSTRAINTS};
use super::odometer::Ints;

/// Most fixed holes per block patched one by one rather than by a mask pass.
const MAX_HOLES: usize = 32;

/// Where the constraints blind to the outer leaves fail inside every block.
enum FixedHoles {
    /// Nowhere.
    None,
    /// At these few positions.
    Few(SmallVec<[u16; MAX_HOLES]>),
    /// Wherever this row of the tables is 0 (a lane mask: -1 valid, 0 not).
    Mask(usize),
}

/// The validity of a blocked fill's blocks (see the module documentation).
pub(super) struct BlockChecks<'a> {
    bounds: &'a [(i64, i64)],
    /// Per constraint, its value at each position relative to the block's start
    /// (rows of fixed constraints are consumed to build the fixed mask).
    rel: &'a [[i64; BLOCK]; BLOCK_CONSTRAINTS],
    varying: SmallVec<[usize; BLOCK_CONSTRAINTS]>,
    /// Per constraint, the least and greatest relative value over the block.
    reach: SmallVec<[(i64, i64); BLOCK_CONSTRAINTS]>,
    fixed: FixedHoles,
}

impl<'a> BlockChecks<'a> {
    /// Tabulates each constraint over the block (leaves `k0..`, `size`
    /// positions) into `rel`, and folds the fixed ones into [`FixedHoles`];
    /// `values` are the constraints' values at the stream's start.
    /// O(size·constraints).
    pub(super) fn new(
        leaves: &'a Ints,
        values: &[i64],
        (k0, size): (usize, usize),
        rel: &'a mut [[i64; BLOCK]; BLOCK_CONSTRAINTS],
    ) -> BlockChecks<'a> {
        let inner = &leaves.extents[k0..];
        let cons = leaves.bounds.len();
        for (c, row) in rel.iter_mut().enumerate().take(cons) {
            tabulate(&mut row[..size], inner, |k| leaves.coeffs[k0 + k][c], 0);
        }
        let varying: SmallVec<[usize; BLOCK_CONSTRAINTS]> = (0..cons)
            .filter(|&c| leaves.coeffs[..k0].iter().any(|a| a[c] != 0))
            .collect();
        let reach = (0..cons).map(|c| block_reach(leaves, k0, c)).collect();
        let fixed = fixed_holes(leaves, values, (k0, size), &varying, &mut rel[..]);
        let rel: &'a [[i64; BLOCK]; BLOCK_CONSTRAINTS] = rel;
        BlockChecks {
            bounds: &leaves.bounds,
            rel,
            varying,
            reach,
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
            for (o, &r) in out.iter_mut().zip(&self.rel[c][..n]) {
                *o = select(test.mask(r), *o, invalid);
            }
        }
        match &self.fixed {
            FixedHoles::None => {}
            FixedHoles::Few(holes) => {
                for &j in holes.iter().filter(|&&j| usize::from(j) < n) {
                    out[usize::from(j)] = invalid;
                }
            }
            FixedHoles::Mask(row) => {
                for (o, &m) in out.iter_mut().zip(&self.rel[*row][..n]) {
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
fn block_reach(leaves: &Ints, k0: usize, c: usize) -> (i64, i64) {
    leaves.extents[k0..]
        .iter()
        .zip(&leaves.coeffs[k0..])
        .fold((0, 0), |(min, max), (&e, a)| {
            let span = a[c] * (e - 1);
            (min + span.min(0), max + span.max(0))
        })
}

/// Turns the rows of `rel` of the fixed constraints (all but `varying`) into
/// one validity mask, in the first fixed row, and lists its holes when there
/// are at most [`MAX_HOLES`]. A fixed constraint's value at a block's start is
/// its value at the stream's start, `values`. O(size·constraints).
fn fixed_holes(
    leaves: &Ints,
    values: &[i64],
    (k0, size): (usize, usize),
    varying: &[usize],
    rel: &mut [[i64; BLOCK]],
) -> FixedHoles {
    let mut fixed = (0..leaves.bounds.len()).filter(|c| !varying.contains(c));
    let Some(first) = fixed.next() else {
        return FixedHoles::None;
    };
    for c in std::iter::once(first).chain(fixed) {
        let test = RangeTest::new(leaves.bounds[c], values[c], block_reach(leaves, k0, c));
        if c == first {
            // The first fixed row becomes the mask.
            rel[c][..size].iter_mut().for_each(|r| *r = test.mask(*r));
        } else {
            let (head, tail) = rel.split_at_mut(c);
            for (m, &r) in head[first][..size].iter_mut().zip(&tail[0][..size]) {
                *m &= test.mask(r);
            }
        }
    }
    let mask = &rel[first][..size];
    let mut holes = SmallVec::new();
    for (j, _) in (0u16..).zip(mask).filter(|&(_, &m)| m == 0) {
        if holes.len() == MAX_HOLES {
            return FixedHoles::Mask(first);
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
