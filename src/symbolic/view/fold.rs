//! Folding a *box view* back into the view below it.
//!
//! A shrink or pad of a dimension with several leaves has no leaf-wise form
//! for every binding, so it pushes the contiguous view of the current shape
//! and edits that (module `ops`). As long as only pads, shrinks and flips
//! edit it, the pushed view is a *box* over the view below: one leaf per
//! dimension, the row-major strides of the lower view's shape (negated
//! where flipped), and coordinate `x_d` reading the lower view's coordinate
//! `shift_d + x_d` of the same dimension (`shift_d − x_d` where flipped),
//! with validity constraints of one dimension each. The stack keeps that
//! map ([`BoxMap`], in [`SymViewStack`]'s `boxes`) while this holds: a
//! shrink from `b` adds `±b` to the shift, a pad by `b` before subtracts
//! it, a flip of extent `e` adds `±(e−1)` and turns the sign.
//!
//! **Per-dimension identity.** Every valid coordinate of a box dimension
//! reads an in-range coordinate of the lower one: a shrink keeps its range
//! inside the old extent (its precondition), and a pad adds the constraint
//! that the pre-pad coordinate is in range. Constraints touch one dimension
//! each, so this holds dimension by dimension (a flip reverses a range
//! that is in range). Hence a box dimension, not flipped, with no
//! constraint and the lower dimension's extent maps `[0, e)` into `[0, e)`
//! by a shift: the shift is 0 at every binding, and the dimension is the
//! identity.
//!
//! **The fold.** When every box dimension that is not the identity is a
//! one-leaf dimension of the view below, the two views are one: shift that
//! leaf by `shift_d` and give it the box's extent (as a shrink does:
//! offset `+ shift_d·stride`, the lower constraints' bounds moved; a
//! flipped dimension flips the leaf first, `u = e−1−y`, and shifts it by
//! `e−1−shift_d`), and append the box's constraints on that leaf. A valid coordinate reads the
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

/// How a box reads the view below: dimension `d`'s coordinate `x` reads
/// the lower coordinate `shift[d] + x`, or `shift[d] − x` where `flip[d]`.
#[derive(Clone, Debug)]
pub(crate) struct BoxMap {
    pub(crate) shift: Polys,
    pub(crate) flip: SmallVec<[bool; 8]>,
}

impl BoxMap {
    /// Every dimension read as it is.
    fn identity(rank: usize) -> BoxMap {
        BoxMap {
            shift: SmallVec::from_elem(Poly::zero(), rank),
            flip: SmallVec::from_elem(false, rank),
        }
    }

    /// `self` read through `top` (a box over the box `self`): the lower
    /// coordinate `shift + s·(shift' + s'·x)`.
    fn then(&self, top: &BoxMap) -> Result<BoxMap> {
        let mut out = self.clone();
        for d in 0..out.shift.len() {
            let inner = if self.flip[d] {
                top.shift[d].neg()?
            } else {
                top.shift[d].clone()
            };
            out.shift[d] = out.shift[d].add(&inner)?;
            out.flip[d] ^= top.flip[d];
        }
        Ok(out)
    }
}

impl SymViewStack {
    /// Starts tracking a freshly pushed contiguous top view as a box that
    /// reads every dimension as it is.
    pub(super) fn start_box(&mut self) {
        let map = BoxMap::identity(self.top().rank());
        self.set_box(self.views.len() - 1, Some(map));
    }

    /// Edits the top box's map with `edit`; a polynomial past the limits
    /// ends the tracking.
    fn edit_box(&mut self, edit: impl FnOnce(&mut BoxMap) -> Result<()>) {
        let top = self.views.len() - 1;
        let Some(at) = self.boxes.iter().position(|(k, _)| *k == top) else {
            return;
        };
        if edit(&mut self.boxes[at].1).is_err() {
            self.boxes.remove(at);
        }
    }

    /// Records that box dimension `d` now reads from `begin` on (a shrink's
    /// begin, a pad's `-before`).
    pub(super) fn shift_box(&mut self, d: usize, begin: &Poly) {
        self.edit_box(|m| {
            let step = if m.flip[d] {
                begin.neg()?
            } else {
                begin.clone()
            };
            m.shift[d] = m.shift[d].add(&step)?;
            Ok(())
        });
    }

    /// Records a flip of box dimension `d` of extent `e`: `x ↦ e−1−x`.
    pub(super) fn flip_box(&mut self, d: usize, e: &Poly) {
        self.edit_box(|m| {
            let last = e.sub(&Poly::constant(1))?;
            let step = if m.flip[d] { last.neg()? } else { last };
            m.shift[d] = m.shift[d].add(&step)?;
            m.flip[d] = !m.flip[d];
            Ok(())
        });
    }

    /// Folds the top view into the one below when it is a box whose
    /// non-identity dimensions all have one leaf below (module docs).
    pub(super) fn fold_box(&mut self, syms: &Symbols) {
        let n = self.views.len();
        let Some(map) = self.box_map(n - 1) else {
            return;
        };
        let Ok(Some(v)) = folded(&self.views[n - 2], &self.views[n - 1], map, syms) else {
            return;
        };
        // A box below stays one, read through the folded box.
        let lower = self.box_map(n - 2).and_then(|own| own.then(map).ok());
        self.pop_view();
        *self.top_mut() = v;
        self.set_box(n - 2, lower);
    }
}

/// The view `below` with the box `top` (read through `map`) folded in, or
/// `None` when a non-identity box dimension has several leaves below.
fn folded(below: &SymView, top: &SymView, map: &BoxMap, syms: &Symbols) -> Result<Option<SymView>> {
    let mut changed: SmallVec<[bool; 8]> = SmallVec::with_capacity(top.rank());
    for d in 0..top.rank() {
        let touched = top.cons.iter().any(|c| c.coeffs[d] != 0);
        let same = !touched
            && !map.flip[d]
            && equal(syms, &top.ext[d], &below.dim_extent(d)?)? == Truth::Proved;
        if !same && below.dim_len[d] != 1 {
            return Ok(None);
        }
        changed.push(!same);
    }
    let mut v = below.clone();
    let leaf: SmallVec<[usize; 8]> = (0..v.rank()).map(|d| v.dim_leaves(d).start).collect();
    for d in (0..top.rank()).filter(|&d| changed[d]) {
        let k = leaf[d];
        if map.flip[d] {
            // y = shift − x: flip the leaf (u = e−1−y), then u = x + e−1−shift.
            let begin = v.ext[k].sub(&Poly::constant(1))?.sub(&map.shift[d])?;
            v.flip_leaf(k)?;
            v.shift_leaf(k, &begin, top.ext[d].clone())?;
        } else {
            v.shift_leaf(k, &map.shift[d], top.ext[d].clone())?;
        }
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
