//! Keeping a [`View`] canonical: bounded spans (so evaluation cannot
//! overflow), constraints in canonical form ([`super::constraint`]), and the
//! full pass `tidy` (leaves coalesced within each dimension, windows written
//! leaf-wise where exact). Every op ends here.

use std::ops::Range;

use smallvec::SmallVec;

use super::{constraint, Builder, View};
use crate::error::{self, Result};

impl View {
    /// Drops extent-1 leaves, coalesces leaves within each dimension where the
    /// strides and every constraint coefficient allow, expresses windows
    /// leaf-wise where exact, and canonicalises.
    ///
    /// Repeats until nothing merges: canonicalising can zero or rescale a
    /// coefficient and so make leaves mergeable (each round drops a leaf).
    pub(crate) fn tidy(&mut self) -> Result<()> {
        loop {
            if self.dim_ranges().any(|r| self.compressible(r)) {
                *self = self.coalesce_dims();
            }
            let had_windows = !self.windows.is_empty();
            for d in 0..self.rank() {
                if self.window(d).is_some() {
                    self.unwindow(d)?;
                }
            }
            // Leaves were coalesced under these constraints; if normalising
            // drops one, leaves it kept apart may merge now.
            let had_constraints = self.cons() > 0;
            self.normalize()?;
            // Unwindowing edits leaves and canonicalising edits (or drops)
            // coefficients: only they can make leaves mergeable anew.
            let settled = !had_constraints && !had_windows;
            if settled || !self.dim_ranges().any(|r| self.compressible(r)) {
                return Ok(());
            }
        }
    }

    /// Debug builds: the view is a fixed point of [`tidy`](Self::tidy), i.e.
    /// every op leaves it in canonical form (ops that skip parts of `tidy`
    /// rely on this check in the test suite).
    #[cfg(debug_assertions)]
    pub(crate) fn debug_assert_tidy(&self) {
        let mut again = self.clone();
        if again.tidy().is_ok() {
            debug_assert_eq!(&again, self, "an op left a view that tidy still changes");
        }
    }

    /// Whether the leaves in `r` hold an extent-1 leaf or a mergeable pair.
    fn compressible(&self, r: Range<usize>) -> bool {
        r.len() > 1
            && (r.clone().any(|k| self.ext[k] == 1)
                || r.clone().skip(1).any(|k| self.mergeable(k - 1, k)))
    }

    /// Every dimension's leaves coalesced (constraint-aware), extent-1 ones dropped.
    fn coalesce_dims(&self) -> View {
        let mut b = Builder::new(self.bounds.clone(), self.offset);
        for (d, r) in self.dim_ranges().enumerate() {
            let mut cur: Option<(i64, usize)> = None; // (extent, leaf giving stride and coefficients)
            for k in r.filter(|&k| self.ext[k] != 1) {
                cur = match cur {
                    Some((e, j)) if self.mergeable(j, k) => Some((e * self.ext[k], k)),
                    Some((e, j)) => {
                        b.leaf(e, self.stride[j], self.leaf_coeffs(j).iter().copied());
                        Some((self.ext[k], k))
                    }
                    None => Some((self.ext[k], k)),
                };
            }
            if let Some((e, j)) = cur {
                b.leaf(e, self.stride[j], self.leaf_coeffs(j).iter().copied());
            }
            b.end_dim(self.window(d));
        }
        b.finish()
    }

    /// Leaves `slow` and `fast` merge iff the stride and every coefficient scale
    /// by `fast`'s extent.
    pub(crate) fn mergeable(&self, slow: usize, fast: usize) -> bool {
        let s = self.ext[fast];
        self.stride[fast].checked_mul(s) == Some(self.stride[slow])
            && self
                .leaf_coeffs(slow)
                .iter()
                .zip(self.leaf_coeffs(fast))
                .all(|(&a, &b)| b.checked_mul(s) == Some(a))
    }

    /// Re-establishes the invariants after an op: canonical constraints, and the
    /// offset plus the span of leaf offsets fits `i64` (so evaluation cannot overflow).
    pub(crate) fn normalize(&mut self) -> Result<()> {
        if !self.bounds.is_empty() {
            self.canonicalize_constraints()?;
        }
        self.check_span()
    }

    /// Checks that the offset plus the span of leaf offsets fits `i64`, so
    /// that evaluation cannot overflow, and that the number of elements and
    /// the product of the leaf extents do too (pads and expands grow them).
    /// O(leaves + windows).
    pub(crate) fn check_span(&self) -> Result<()> {
        let leaves = self.ext.iter().try_fold(1i64, |a, &e| a.checked_mul(e));
        let mut size = leaves;
        for &(d, w) in &self.windows {
            // Swap the windowed dimension's radix for its extent.
            size = size
                .zip(self.radix_checked(d))
                .and_then(|(n, r)| (n / r).checked_mul(w.extent));
        }
        if leaves.is_none() || size.is_none() {
            return Err(error::overflow("view size"));
        }
        for &(d, w) in &self.windows {
            // |start| + extent + radix fits i64, so window arithmetic
            // (start + extent, radix - start - extent) cannot overflow.
            let r = self
                .radix_checked(d)
                .ok_or_else(|| error::overflow("view size"))?;
            let start = w
                .start
                .checked_abs()
                .ok_or_else(|| error::overflow("window start"))?;
            error::add(
                error::add(start, w.extent, "window span")?,
                r,
                "window span",
            )?;
        }
        let mut span = self
            .offset
            .checked_abs()
            .ok_or_else(|| error::overflow("view offset"))?;
        for (&e, &s) in self.ext.iter().zip(&self.stride) {
            let s = s
                .checked_abs()
                .ok_or_else(|| error::overflow("view stride"))?;
            span = error::add(span, error::mul(s, e - 1, "view span")?, "view span")?;
        }
        Ok(())
    }

    /// Restores the canonical form of one constraint after leaves were
    /// reflected (`x → (n-1) - x`): a reflection maps the leaf box onto
    /// itself, so the row's reach, tightness and gcd are unchanged and only its
    /// sign (first non-zero coefficient positive) needs fixing. Several rows
    /// need [`View::canonicalize_constraints`]: how they reduce each other is
    /// not invariant under a reflection. O(c² · leaves) for c constraints.
    pub(crate) fn resign_constraints(&mut self) {
        let (n, c) = (self.ext.len(), self.cons());
        for j in 0..c {
            let first = (0..n).map(|k| self.coeffs[k * c + j]).find(|&a| a != 0);
            if first.is_some_and(|a| a < 0) {
                (0..n).for_each(|k| self.coeffs[k * c + j] = -self.coeffs[k * c + j]);
                let (lo, hi) = self.bounds[j];
                self.bounds[j] = (1 - hi, 1 - lo);
            }
        }
        if c > 1 {
            let mut rows: SmallVec<[i64; 16]> = SmallVec::from_elem(0, n * c);
            transpose(&self.coeffs, &mut rows, n, c);
            let mut bounds = self.bounds.clone();
            constraint::sort_rows(&mut rows, &mut bounds, n);
            self.set_constraint_rows(&rows, bounds);
        }
    }

    /// Brings the constraints to canonical form (see [`constraint`]).
    /// O(c² · leaves) for c constraints.
    pub(crate) fn canonicalize_constraints(&mut self) -> Result<()> {
        let (n, c) = (self.ext.len(), self.cons());
        let mut rows: SmallVec<[i64; 16]> = SmallVec::from_elem(0, n * c);
        transpose(&self.coeffs, &mut rows, n, c);
        let mut bounds = self.bounds.clone();
        match constraint::canonicalize_rows(&mut rows, &mut bounds, &self.ext)? {
            None => self.make_empty(),
            Some(kept) => {
                bounds.truncate(kept);
                self.set_constraint_rows(&rows, bounds);
            }
        }
        Ok(())
    }

    /// Stores `bounds.len()` constraints given row after row (the first
    /// `bounds.len()` rows of `rows`).
    fn set_constraint_rows(&mut self, rows: &[i64], bounds: SmallVec<[(i64, i64); 2]>) {
        let (n, c) = (self.ext.len(), bounds.len());
        self.coeffs.resize(n * c, 0);
        transpose(&rows[..n * c], &mut self.coeffs, c, n);
        self.bounds = bounds;
    }
}

/// Writes the transpose of the `rows × cols` matrix `src` (row after row)
/// into `dst` (`cols × rows`). O(rows · cols).
fn transpose(src: &[i64], dst: &mut [i64], rows: usize, cols: usize) {
    for (r, line) in src.chunks_exact(cols.max(1)).enumerate().take(rows) {
        for (c, &x) in line.iter().enumerate() {
            dst[c * rows + r] = x;
        }
    }
}
