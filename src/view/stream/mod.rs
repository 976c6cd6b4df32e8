//! Offset streams of a view: every element in row-major order, incrementally.
//!
//! An odometer over the leaves ([`odometer`]) keeps the offset and each
//! constraint's value as running sums: stepping a leaf adds its stride and
//! coefficients, a carry subtracts them times the extent. No division or
//! remainder per element; amortised O(1 + constraints) per element. A view
//! without constraints uses the layout stream ([`crate::Offsets`]), whose
//! innermost run is a plain loop. [`View::fill_offsets`] writes a constrained
//! view block by block ([`blocked`], validity per block in [`checks`]) or,
//! when its innermost runs are long, run by run ([`runs`]). A view with a
//! windowed dimension is filled block by block over its dimensions
//! ([`windowed`]) when its innermost dimension fits a block, it has at most
//! two constraints and more than 64 elements, and otherwise row by row (up to eight constraints;
//! with more, element by element: a division per leaf, no heap).

mod blocked;
mod checks;
mod odometer;
mod runs;
#[cfg(test)]
mod tests;
mod windowed;

use smallvec::SmallVec;

use super::{unravel, View, ViewStack};
use crate::layout::Offsets;
use odometer::{Leaves, Odometer};

/// Views of at most this many elements fill run by run: the blocked fill's
/// tabulations and per-block checks cost more than they save.
const SMALL_FILL: i64 = 64;

/// What a [`ViewOffsets`] evaluates element by element instead of streaming.
#[derive(Clone, Debug)]
enum Evaluated {
    /// A view with a windowed dimension (a division per leaf).
    Windowed(Box<View>),
    /// A stack of two or more views (one row-major unravel per extra view, as
    /// tinygrad's kernels do).
    Stacked(ViewStack),
}

/// Iterator over the elements of a view or a view stack, in row-major order:
/// `Some(offset)`, or `None` where the element is invalid (padding).
///
/// ```
/// let s = hlayout::ViewStack::new(&[3]).unwrap().pad(&[(1, 0)]).unwrap();
/// let all: Vec<Option<i64>> = s.views()[0].offsets().collect();
/// assert_eq!(all, [None, Some(0), Some(1), Some(2)]);
/// ```
#[derive(Clone, Debug)]
pub struct ViewOffsets {
    /// Set for what is evaluated per element, with the next index.
    slow: Option<(Evaluated, i64)>,
    leaves: Leaves,
    odo: Odometer,
    remaining: i64,
}

impl View {
    /// Streams every element's offset in row-major order.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[2, 2]).unwrap().flip(&[true, false]).unwrap();
    /// let all: Vec<Option<i64>> = s.views()[0].offsets().collect();
    /// assert_eq!(all, [Some(2), Some(3), Some(0), Some(1)]);
    /// ```
    pub fn offsets(&self) -> ViewOffsets {
        let leaves = Leaves::of(self);
        let values: SmallVec<[i64; 2]> = SmallVec::from_elem(0, self.cons());
        ViewOffsets {
            slow: self
                .has_windows()
                .then(|| (Evaluated::Windowed(Box::new(self.clone())), 0)),
            odo: Odometer::new(leaves.extents.len(), self.offset, &values),
            leaves,
            remaining: self.size(),
        }
    }

    /// Writes every element's offset (or `invalid`) into `out`, which must hold
    /// [`View::size`] entries; returns how many were written (fewer when `out`
    /// is shorter: its length). O(n) for `n` written, with no heap for ≤ 8
    /// leaves and ≤ 2 constraints (more constraints: O(n + runs ·
    /// constraints)); a view with a windowed dimension and more than eight
    /// constraints is evaluated element by element (`View::eval_index`),
    /// O(n·leaves), no heap for ≤ 8 leaves.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[2, 3]).unwrap().permute(&[1, 0]).unwrap();
    /// let mut buf = [0i64; 6];
    /// assert_eq!(s.views()[0].fill_offsets(&mut buf, -1), 6);
    /// assert_eq!(buf, [0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn fill_offsets(&self, out: &mut [i64], invalid: i64) -> usize {
        if self.is_zero() {
            return 0; // no elements (and `Offsets` wants extents >= 1)
        }
        if self.bounds.is_empty() && !self.has_windows() {
            return Offsets::new(&self.ext, &self.stride, self.offset).fill(out);
        }
        if self.has_windows() {
            let blocked = match self.size() <= SMALL_FILL {
                true => None,
                false => windowed::fill_windowed(self, out, invalid),
            };
            if let Some(n) = blocked.or_else(|| windowed::fill_rows(self, out, invalid)) {
                return n;
            }
            let mut n = 0;
            for (o, v) in out.iter_mut().zip(self.offsets()) {
                *o = v.unwrap_or(invalid);
                n += 1;
            }
            return n;
        }
        let it = self.offsets();
        if self.size() <= SMALL_FILL {
            // A few runs: tabulating a block costs more than it saves.
            return runs::fill_constrained(it, out, invalid);
        }
        match blocked::fill_blocked(&it, out, invalid) {
            Some(n) => n,
            None => runs::fill_constrained(it, out, invalid),
        }
    }
}

impl ViewOffsets {
    /// The elements of a stack of two or more views, each evaluated through
    /// every view. O(size · views · leaves) in all.
    pub(crate) fn of_stack(stack: &ViewStack) -> ViewOffsets {
        let mut it = stack.views()[0].offsets();
        it.remaining = stack.shape().iter().product();
        it.slow = Some((Evaluated::Stacked(stack.clone()), 0));
        it
    }

    /// Moves past one whole innermost run (leaf `last`; the odometer sits at
    /// its start). O(constraints) amortised.
    fn skip_run(&mut self, last: usize) {
        self.remaining -= self.leaves.extents[last];
        if self.remaining > 0 {
            self.odo.skip_to_run_end(&self.leaves, last);
            self.odo.step(&self.leaves);
        }
    }
}

impl Iterator for ViewOffsets {
    type Item = Option<i64>;

    fn next(&mut self) -> Option<Option<i64>> {
        if self.remaining <= 0 {
            return None;
        }
        if let Some((what, i)) = &mut self.slow {
            let out = match what {
                Evaluated::Windowed(view) => {
                    let mut digits: SmallVec<[i64; 8]> = SmallVec::from_elem(0, view.ext.len());
                    view.eval_index(*i, &mut digits)
                }
                // In range by construction, so `eval` cannot fail.
                Evaluated::Stacked(stack) => {
                    stack.eval(&unravel(*i, &stack.shape())).ok().flatten()
                }
            };
            *i += 1;
            self.remaining -= 1;
            return Some(out);
        }
        let out = self
            .leaves
            .valid(&self.odo.values)
            .then_some(self.odo.offset);
        self.remaining -= 1;
        if self.remaining > 0 {
            self.odo.step(&self.leaves);
        }
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

impl ExactSizeIterator for ViewOffsets {}
