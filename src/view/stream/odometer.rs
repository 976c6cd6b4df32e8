//! The odometer of an offset stream: row-major digits over a view's leaves,
//! with the offset and each constraint's value kept as running sums.
//!
//! [`Leaves`] is the fixed part (extents, strides, constraint coefficients and
//! bounds, extent-1 leaves dropped); [`Odometer`] the moving part. Stepping a
//! leaf adds its stride and coefficients; a wrap subtracts them times the
//! extent less one, before the carry, so every intermediate value is a partial
//! sum of the view's and fits `i64`. The element stream steps every leaf, the
//! blocked fill only the leaves outside its block.

use smallvec::SmallVec;

use crate::view::View;

/// The leaves a stream walks (extent-1 leaves dropped), their constraints'
/// coefficients and bounds.
#[derive(Clone, Debug)]
pub(super) struct Ints {
    pub(super) extents: SmallVec<[i64; 8]>,
    pub(super) strides: SmallVec<[i64; 8]>,
    /// Per leaf, its coefficient in each constraint.
    pub(super) coeffs: SmallVec<[SmallVec<[i64; 2]>; 8]>,
    pub(super) bounds: SmallVec<[(i64, i64); 2]>,
}

impl Ints {
    /// The leaves of `view` other than its extent-1 ones. O(leaves · constraints).
    pub(super) fn of(view: &View) -> Ints {
        let kept = || (0..view.ext.len()).filter(|&k| view.ext[k] != 1);
        Ints {
            extents: kept().map(|k| view.ext[k]).collect(),
            strides: kept().map(|k| view.stride[k]).collect(),
            coeffs: kept()
                .map(|k| SmallVec::from_slice(view.leaf_coeffs(k)))
                .collect(),
            bounds: view.bounds.clone(),
        }
    }

    /// Whether constraint values `values` satisfy every bound. O(constraints).
    pub(super) fn valid(&self, values: &[i64]) -> bool {
        values
            .iter()
            .zip(&self.bounds)
            .all(|(v, &(lo, hi))| lo <= *v && *v < hi)
    }
}

/// Digits over a prefix of [`Leaves`] with the running offset and constraint values.
#[derive(Clone, Debug)]
pub(super) struct Odometer {
    pub(super) digit: SmallVec<[i64; 8]>,
    pub(super) offset: i64,
    pub(super) values: SmallVec<[i64; 2]>,
}

impl Odometer {
    /// At digit zero of `leaves` leaves, with these offset and constraint values.
    pub(super) fn new(leaves: usize, offset: i64, values: &[i64]) -> Odometer {
        Odometer {
            digit: SmallVec::from_elem(0, leaves),
            offset,
            values: SmallVec::from_slice(values),
        }
    }

    /// Moves to the next row-major position of the digits; from the last one,
    /// back to the first. Amortised O(constraints).
    #[inline]
    pub(super) fn step(&mut self, leaves: &Ints) {
        for k in (0..self.digit.len()).rev() {
            if self.digit[k] + 1 < leaves.extents[k] {
                self.digit[k] += 1;
                self.offset += leaves.strides[k];
                for (v, a) in self.values.iter_mut().zip(&leaves.coeffs[k]) {
                    *v += a;
                }
                return;
            }
            let back = leaves.extents[k] - 1;
            self.digit[k] = 0;
            self.offset -= leaves.strides[k] * back;
            for (v, a) in self.values.iter_mut().zip(&leaves.coeffs[k]) {
                *v -= a * back;
            }
        }
    }

    /// From the start of an innermost run (leaf `last`), moves to its last
    /// element. O(constraints).
    pub(super) fn skip_to_run_end(&mut self, leaves: &Ints, last: usize) {
        let n = leaves.extents[last];
        self.digit[last] = n - 1;
        self.offset += leaves.strides[last] * (n - 1);
        for (v, a) in self.values.iter_mut().zip(&leaves.coeffs[last]) {
            *v += a * (n - 1);
        }
    }
}
