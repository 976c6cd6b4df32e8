//! Folding a *box view* back into the view below it.
//!
//! A shrink or pad of a dimension with several leaves has no leaf-wise form
//! for every binding, so it pushes the contiguous view of the current shape
//! and edits that (module `ops`). As long as only pads and shrinks edit it,
//! the pushed view is a *box* over the view below: one leaf per dimension,
//! the row-major strides of the lower view's shape, and coordinate `x_d`
//! reading the lower view's coordinate `x_d + shift_d` of the same
//! dimension, with validity constraints of one dimension each. The stack
//! keeps the shifts ([`SymViewStack`]'s `boxes`) while that holds.
//!
//! **Per-dimension identity.** Every valid coordinate of a box dimension
//! reads an in-range coordinate of the lower one: a shrink keeps its range
//! inside the old extent (its precondition), and a pad adds the constraint
//! that the pre-pad coordinate is in range. Constraints touch one dimension
//! each, so this holds dimension by dimension. Hence a box dimension with
//! no constraint and the lower dimension's extent maps `[0, e)` into
//! `[0, e)` by a shift: the shift is 0 at every binding, and the dimension
//! is the identity.
//!
//! **The fold.** When every box dimension that is not the identity is a
//! one-leaf dimension of the view below, the two views are one: shift that
//! leaf by `shift_d` and give it the box's extent (as a shrink does:
//! offset `+ shift_d·stride`, the lower constraints' bounds moved), and
//! append the box's constraints on that leaf. A valid coordinate reads the
//! same element, and validity is the conjunction of both views' in either
//! form. This is what folds a pad of a merged dimension that a later shrink
//! undoes (`pad` then `shrink` around a convolution window, or the
//! `(M+1,3,K)` chain of the tests), which the concrete stack merges at
//! every binding.
//!
//! The fold is optional: when a polynomial of it leaves the limits, the
//! stack keeps both views, which are right as they are. O(rank ·
//! (constraints · leaves + t²)).

use smallvec::SmallVec;

use super::super::poly::Poly;
use super::super::prove::Truth;
use super::super::symbols::Symbols;
use super::{equal, Polys, SymConstraint, SymView, SymViewStack};
use crate::error::Result;

impl SymViewStack {
    /// Starts tracking a freshly pushed contiguous top view as a box with
    /// every shift 0.
    pub(super) fn start_box(&mut self) {
        let shifts = SmallVec::from_elem(Poly::zero(), self.top().rank());
        self.set_box(self.views.len() - 1, Some(shifts));
    }

    /// Records that box dimension `d` now reads from `begin` on (a shrink's
    /// begin, a pad's `-before`); a shift past the limits ends the tracking.
    pub(super) fn shift_box(&mut self, d: usize, begin: &Poly) {
        let top = self.views.len() - 1;
        let Some(at) = self.boxes.iter().position(|(k, _)| *k == top) else {
            return;
        };
        let shifts = &mut self.boxes[at].1;
        match shifts[d].add(begin) {
            Ok(s) => shifts[d] = s,
            Err(_) => {
                self.boxes.remove(at);
            }
        }
    }

    /// Folds the top view into the one below when it is a box whose
    /// non-identity dimensions all have one leaf below (module docs).
    pub(super) fn fold_box(&mut self, syms: &Symbols) {
        let n = self.views.len();
        let Some(shifts) = self.box_shifts(n - 1) else {
            return;
        };
        let Ok(Some(v)) = folded(&self.views[n - 2], &self.views[n - 1], shifts, syms) else {
            return;
        };
        // A box below stays one, its shifts moved by the folded box's (0 at
        // every binding on the dimensions left alone).
        let lower = self.box_shifts(n - 2).and_then(|own| {
            own.iter()
                .zip(shifts)
                .map(|(a, b)| a.add(b))
                .collect::<Result<Polys>>()
                .ok()
        });
        self.pop_view();
        *self.top_mut() = v;
        self.set_box(n - 2, lower);
    }
}

/// The view `below` with the box `top` (shifts `shifts`) folded in, or
/// `None` when a non-identity box dimension has several leaves below.
fn folded(
    below: &SymView,
    top: &SymView,
    shifts: &[Poly],
    syms: &Symbols,
) -> Result<Option<SymView>> {
    let mut changed: SmallVec<[bool; 8]> = SmallVec::with_capacity(top.rank());
    for d in 0..top.rank() {
        let touched = top.cons.iter().any(|c| c.coeffs[d] != 0);
        let same = !touched && equal(syms, &top.ext[d], &below.dim_extent(d)?)? == Truth::Proved;
        if !same && below.dim_len[d] != 1 {
            return Ok(None);
        }
        changed.push(!same);
    }
    let mut v = below.clone();
    let leaf: SmallVec<[usize; 8]> = (0..v.rank()).map(|d| v.dim_leaves(d).start).collect();
    for d in (0..top.rank()).filter(|&d| changed[d]) {
        v.shift_leaf(leaf[d], &shifts[d], top.ext[d].clone())?;
    }
    for c in &top.cons {
        let mut coeffs: SmallVec<[i64; 8]> = SmallVec::from_elem(0, v.ext.len());
        for (d, &a) in c.coeffs.iter().enumerate() {
            if a != 0 {
                coeffs[leaf[d]] = a;
            }
        }
        v.cons.push(SymConstraint {
            coeffs,
            lo: c.lo.clone(),
            hi: c.hi.clone(),
        });
    }
    v.drop_true_constraints(syms)?;
    Ok(Some(v))
}
