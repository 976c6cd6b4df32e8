//! The second view reduced to what decides a merge, and the way back.
//!
//! A dimension of the second view whose mask leaves one index, or whose stride
//! is 0, moves no element of the first view: it is *fixed* (its mask interval and
//! a stride of 0 carry over to the result). The others are *kept*: restricted to
//! their mask interval and flipped to a positive stride, they form a [`Grid`],
//! `x(i) = offset + Σ stride_q·i_q` over `0 <= i_q < ext_q` with `stride_q > 0`
//! and `ext_q >= 2`, and no mask. [`Reduced::view`] maps a valid [`Region`] of the
//! grid and the merged strides back to a view over the second view's shape.

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::FlatView;
use crate::num::Ints;

/// `x(i) = offset + Σ stride_q·i_q` for `0 <= i < ext`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    pub(crate) offset: i128,
    pub(crate) ext: Ints,
    pub(crate) stride: Ints,
}

/// A box `lo <= i < hi` of grid coordinates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Region {
    pub(crate) lo: Ints,
    pub(crate) hi: Ints,
}

impl Grid {
    /// Number of coordinates.
    pub(crate) fn rank(&self) -> usize {
        self.ext.len()
    }

    /// `x(i)`.
    pub(crate) fn at(&self, i: &[i64]) -> i128 {
        self.offset + dot(&self.stride, i)
    }

    /// `max x − min x = Σ stride_q·(ext_q − 1)`.
    pub(crate) fn reach(&self) -> i128 {
        self.stride
            .iter()
            .zip(&self.ext)
            .map(|(&c, &e)| i128::from(c) * i128::from(e - 1))
            .sum()
    }

    /// The whole grid as a region.
    pub(crate) fn full(&self) -> Region {
        Region {
            lo: Ints::from_elem(0, self.rank()),
            hi: self.ext.clone(),
        }
    }

    /// The sub-grid on `r`, without the coordinates `r` fixes, and for each of
    /// its coordinates the one of `self` it came from.
    pub(crate) fn restrict(&self, r: &Region) -> (Grid, SmallVec<[usize; 8]>) {
        let kept: SmallVec<[usize; 8]> = (0..self.rank())
            .filter(|&q| r.hi[q] - r.lo[q] >= 2)
            .collect();
        let sub = Grid {
            offset: self.at(&r.lo),
            ext: kept.iter().map(|&q| r.hi[q] - r.lo[q]).collect(),
            stride: kept.iter().map(|&q| self.stride[q]).collect(),
        };
        (sub, kept)
    }
}

impl Region {
    /// Number of coordinates.
    pub(crate) fn rank(&self) -> usize {
        self.lo.len()
    }

    /// Whether the region has no point.
    pub(crate) fn is_empty(&self) -> bool {
        self.lo.iter().zip(&self.hi).any(|(l, h)| l >= h)
    }

    /// Number of points, saturating at `i128::MAX`.
    pub(crate) fn volume(&self) -> i128 {
        self.lo
            .iter()
            .zip(&self.hi)
            .map(|(l, h)| i128::from((h - l).max(0)))
            .fold(1, i128::saturating_mul)
    }

    /// Calls `f` on every point, row-major; stops early when `f` returns false.
    pub(crate) fn for_each(&self, mut f: impl FnMut(&[i64]) -> bool) {
        if self.is_empty() {
            return;
        }
        let mut i = self.lo.clone();
        loop {
            if !f(&i) {
                return;
            }
            let mut q = self.rank();
            loop {
                if q == 0 {
                    return;
                }
                q -= 1;
                i[q] += 1;
                if i[q] < self.hi[q] {
                    break;
                }
                i[q] = self.lo[q];
            }
        }
    }
}

/// `⟨a, b⟩` in `i128`.
pub(crate) fn dot(a: &[i64], b: &[i64]) -> i128 {
    a.iter()
        .zip(b)
        .map(|(&a, &b)| i128::from(a) * i128::from(b))
        .sum()
}

/// How one dimension of the second view relates to the grid.
#[derive(Clone, Copy, Debug)]
enum Dim {
    /// `u = base + i_q` (or `base − i_q` when flipped).
    Kept { q: usize, base: i64, flip: bool },
    /// Moves nothing; valid on `[begin, end)`.
    Fixed { begin: i64, end: i64 },
}

/// The second view as a grid plus the map back to its own coordinates.
#[derive(Clone, Debug)]
pub(crate) struct Reduced {
    pub(crate) grid: Grid,
    dims: SmallVec<[Dim; 8]>,
}

impl Reduced {
    /// The reduction of `second`, or `None` when its mask excludes every index.
    /// The caller has checked that `second` has elements.
    pub(crate) fn new(second: &FlatView) -> Option<Reduced> {
        let mut grid = Grid {
            offset: i128::from(second.offset()),
            ext: Ints::new(),
            stride: Ints::new(),
        };
        let mut dims = SmallVec::new();
        for (d, (&s, &c)) in second.shape().iter().zip(second.strides()).enumerate() {
            let (b, e) = second.mask().map_or((0, s), |m| m[d]);
            if b >= e {
                return None;
            }
            if e - b < 2 || c == 0 {
                grid.offset += i128::from(c) * i128::from(b);
                dims.push(Dim::Fixed { begin: b, end: e });
                continue;
            }
            let (base, flip) = if c > 0 { (b, false) } else { (e - 1, true) };
            grid.offset += i128::from(c) * i128::from(base);
            dims.push(Dim::Kept {
                q: grid.rank(),
                base,
                flip,
            });
            grid.ext.push(e - b);
            grid.stride.push(c.abs());
        }
        Some(Reduced { grid, dims })
    }

    /// The view over `shape` that is valid exactly on `valid` (grid coordinates;
    /// `None` for the whole grid), has stride `tau[q]` along grid coordinate `q`,
    /// and the value `base_value` at the region's lowest corner.
    ///
    /// # Errors
    /// [`Error::Overflow`] when the offset leaves `i64`.
    pub(crate) fn view(
        &self,
        shape: &[i64],
        valid: Option<&Region>,
        tau: &[i64],
        base_value: i128,
    ) -> Result<FlatView> {
        let mut strides = Vec::with_capacity(shape.len());
        let mut mask: SmallVec<[(i64, i64); 8]> = SmallVec::new();
        let mut offset = base_value;
        for d in &self.dims {
            let (stride, begin, end, at_base) = match *d {
                Dim::Fixed { begin, end } => (0, begin, end, begin),
                Dim::Kept { q, base, flip } => {
                    let (lo, hi) = valid.map_or((0, self.grid.ext[q]), |r| (r.lo[q], r.hi[q]));
                    if flip {
                        (-tau[q], base - hi + 1, base - lo + 1, base - lo)
                    } else {
                        (tau[q], base + lo, base + hi, base + lo)
                    }
                }
            };
            offset -= i128::from(stride) * i128::from(at_base);
            strides.push(stride);
            mask.push((begin, end));
        }
        let full = mask.iter().zip(shape).all(|(&(b, e), &s)| b == 0 && e == s);
        Ok(FlatView::from_trusted(
            shape.to_vec(),
            strides,
            to_i64(offset)?,
            (!full).then(|| mask.to_vec()),
        ))
    }
}

/// The view over `shape` with no valid element; `None` for rank 0, where a mask
/// has no interval to empty and so cannot exclude the one element.
pub(crate) fn nothing_valid(shape: &[i64]) -> Option<FlatView> {
    (!shape.is_empty()).then(|| {
        FlatView::from_trusted(
            shape.to_vec(),
            vec![0; shape.len()],
            0,
            Some(vec![(0, 0); shape.len()]),
        )
    })
}

fn to_i64(v: i128) -> Result<i64> {
    i64::try_from(v).map_err(|_| Error::Overflow {
        what: "merged view",
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing test may panic
mod tests {
    use super::*;

    // Invariant: the grid reproduces second's index at every valid element.
    #[test]
    fn grid_covers_masked_flipped_second() {
        let second = FlatView::new(
            vec![3, 4, 2, 5],
            vec![-7, 2, 0, 3],
            40,
            Some(vec![(1, 3), (0, 4), (0, 2), (2, 3)]),
        )
        .unwrap();
        let red = Reduced::new(&second).unwrap();
        assert_eq!(red.grid.ext.as_slice(), [2, 4]);
        assert_eq!(red.grid.stride.as_slice(), [7, 2]);
        let mut seen = Vec::new();
        red.grid.full().for_each(|i| {
            seen.push(red.grid.at(i));
            true
        });
        let mut want = Vec::new();
        for a in 1..3 {
            for b in 0..4 {
                want.push(40 - 7 * a + 2 * b + 3 * 2);
            }
        }
        seen.sort_unstable();
        want.sort_unstable();
        assert_eq!(seen, want);
    }

    // Witness: a region visits its points row-major and can stop early.
    #[test]
    fn region_iterates_row_major() {
        let r = Region {
            lo: Ints::from_slice(&[1, 0]),
            hi: Ints::from_slice(&[3, 2]),
        };
        let mut pts = Vec::new();
        r.for_each(|i| {
            pts.push(i.to_vec());
            pts.len() < 3
        });
        assert_eq!(pts, [vec![1, 0], vec![1, 1], vec![2, 0]]);
        assert_eq!(r.volume(), 4);
    }
}
