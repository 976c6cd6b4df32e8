//! L's image points `(L(c), index(c))` in order of offset, produced lazily.
//!
//! The search reads the non-negative offsets from 0 upwards and stops at the
//! first point no candidate survives, usually within a few hundred points, so
//! it never materialises or sorts all `size(L)` offsets. Points come in
//! *chunks*: every point with offset in `[lo, hi)`, found by a depth-first
//! walk over the coordinates (largest `|stride|` first) that enters a subtree
//! only when the range of its remaining sums meets `[lo, hi)`, then sorted.
//! The chunk width adapts so that a chunk holds tens to a thousand points.
//! Negative offsets (read only when a chain is whole) come the same way,
//! downwards from −1. Two equal offsets in a chunk are a collision: L is not
//! injective, and the search stops with both indices.

use super::Budget;
use crate::error::Result;

/// Most points one chunk may hold before it is redone narrower.
const CHUNK_CAP: usize = 4096;

/// Two indices with one offset: `(offset, index, index)`.
pub(super) type Collision = (i64, i64, i64);

/// The lazily sorted image of L.
pub(super) struct Points {
    /// `(extent, stride, index stride)`, largest `|stride|` first.
    leaves: Vec<(i64, i64, i64)>,
    /// `rest[k]`: the least and the largest sum of the leaves from `k` on.
    rest: Vec<(i128, i128)>,
    /// The smallest and the largest offset.
    pub(super) min: i64,
    pub(super) max: i64,
    /// The non-negative points read so far, sorted; every one below `upto`.
    nonneg: Vec<(i64, i64)>,
    upto: i128,
    width: i128,
    /// The negative points read so far (each chunk sorted, chunks downwards);
    /// every one at or above `down_to`.
    neg: Vec<(i64, i64)>,
    down_to: i128,
    neg_width: i128,
    /// The first collision met, if any.
    pub(super) collision: Option<Collision>,
    scratch: Vec<(i64, i64)>,
}

impl Points {
    /// The image of the leaves `(extent ≥ 2, stride ≠ 0, index stride)`.
    pub(super) fn new(leaves: &[(i64, i64, i64)]) -> Points {
        let mut sorted = leaves.to_vec();
        sorted.sort_unstable_by_key(|l| std::cmp::Reverse(l.1.unsigned_abs()));
        let mut rest = vec![(0i128, 0i128); sorted.len() + 1];
        for k in (0..sorted.len()).rev() {
            let (s, d, _) = sorted[k];
            let span = i128::from(s - 1) * i128::from(d);
            let (lo, hi) = rest[k + 1];
            rest[k] = (lo + span.min(0), hi + span.max(0));
        }
        // Layouts are validated: every offset fits i64.
        let (min, max) = (rest[0].0 as i64, rest[0].1 as i64);
        let size: i128 = sorted.iter().map(|l| i128::from(l.0)).product();
        // Aim at ~128 points per chunk if they were spread evenly.
        let spread = rest[0].1 - rest[0].0 + 1;
        let width = (spread * 128 / size.max(1)).max(1);
        Points {
            leaves: sorted,
            rest,
            min,
            max,
            nonneg: Vec::new(),
            upto: 0,
            width,
            neg: Vec::new(),
            down_to: 0,
            neg_width: width,
            collision: None,
            scratch: Vec::new(),
        }
    }

    /// The `pos`-th smallest non-negative point, `None` past the last one (or
    /// after a collision, recorded in `collision`).
    pub(super) fn get(&mut self, pos: usize, budget: &mut Budget) -> Result<Option<(i64, i64)>> {
        while pos >= self.nonneg.len() && self.upto <= i128::from(self.max) {
            if self.collision.is_some() {
                return Ok(None);
            }
            let lo = self.upto;
            let hi = (lo + self.width).min(i128::from(self.max) + 1);
            if !self.chunk(lo, hi, budget)? {
                self.width = (self.width / 8).max(1);
                continue;
            }
            self.nonneg.extend_from_slice(&self.scratch);
            self.upto = hi;
            self.width = adapt(self.width, self.scratch.len());
        }
        if self.collision.is_some() {
            return Ok(None);
        }
        Ok(self.nonneg.get(pos).copied())
    }

    /// The `pos`-th negative point in the order read (downwards by chunks),
    /// `None` past the last one (or after a collision).
    pub(super) fn get_negative(
        &mut self,
        pos: usize,
        budget: &mut Budget,
    ) -> Result<Option<(i64, i64)>> {
        while pos >= self.neg.len() && self.down_to > i128::from(self.min) {
            if self.collision.is_some() {
                return Ok(None);
            }
            let hi = self.down_to;
            let lo = (hi - self.neg_width).max(i128::from(self.min));
            if !self.chunk(lo, hi, budget)? {
                self.neg_width = (self.neg_width / 8).max(1);
                continue;
            }
            self.neg.extend_from_slice(&self.scratch);
            self.down_to = lo;
            self.neg_width = adapt(self.neg_width, self.scratch.len());
        }
        if self.collision.is_some() {
            return Ok(None);
        }
        Ok(self.neg.get(pos).copied())
    }

    /// How many non-negative points are at most `x`, when `x` was read.
    pub(super) fn rank_of(&self, x: i64) -> Option<usize> {
        (i128::from(x) < self.upto).then(|| self.nonneg.partition_point(|p| p.0 <= x))
    }

    /// The non-negative point read last.
    pub(super) fn last_read(&self, pos: usize) -> Option<(i64, i64)> {
        pos.checked_sub(1).and_then(|p| self.nonneg.get(p).copied())
    }

    /// Fills `scratch` with the points in `[lo, hi)`, sorted; false when
    /// there are more than [`CHUNK_CAP`]. A repeated offset is recorded.
    fn chunk(&mut self, lo: i128, hi: i128, budget: &mut Budget) -> Result<bool> {
        let mut out = std::mem::take(&mut self.scratch);
        out.clear();
        let mut work = 0i64;
        let fits = self.walk(0, 0, 0, (lo, hi), &mut out, &mut work);
        budget.spend(work)?;
        if fits {
            out.sort_unstable();
            if let Some(w) = out.windows(2).find(|w| w[0].0 == w[1].0) {
                self.collision = Some((w[0].0, w[0].1.min(w[1].1), w[0].1.max(w[1].1)));
            }
        }
        self.scratch = out;
        Ok(fits)
    }

    /// The depth-first walk: leaf `k` on, partial offset `p`, partial index `q`.
    fn walk(
        &self,
        k: usize,
        p: i128,
        q: i64,
        (lo, hi): (i128, i128),
        out: &mut Vec<(i64, i64)>,
        work: &mut i64,
    ) -> bool {
        *work += 1;
        let Some(&(s, d, idx)) = self.leaves.get(k) else {
            out.push((p as i64, q)); // within [min, max]
            return out.len() <= CHUNK_CAP;
        };
        let (rlo, rhi) = self.rest[k + 1];
        let d128 = i128::from(d);
        // c with p + c·d + [rlo, rhi] meeting [lo, hi − 1].
        let (first, last) = if d > 0 {
            (ceil(lo - rhi - p, d128), floor(hi - 1 - rlo - p, d128))
        } else {
            (ceil(p + rlo - (hi - 1), -d128), floor(p + rhi - lo, -d128))
        };
        let (first, last) = (first.max(0), last.min(i128::from(s) - 1));
        let mut c = first;
        while c <= last {
            // c < s fits i64, and the partial index stays below size(L).
            let ci = c as i64;
            if !self.walk(k + 1, p + c * d128, q + ci * idx, (lo, hi), out, work) {
                return false;
            }
            c += 1;
        }
        true
    }
}

/// The next chunk width: doubled when a chunk held few points, halved when many.
fn adapt(width: i128, got: usize) -> i128 {
    if got < 64 {
        (width * 2).min(1 << 62)
    } else if got > 1024 {
        (width / 2).max(1)
    } else {
        width
    }
}

fn floor(a: i128, b: i128) -> i128 {
    a.div_euclid(b)
}

fn ceil(a: i128, b: i128) -> i128 {
    -((-a).div_euclid(b))
}
