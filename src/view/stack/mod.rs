//! [`ViewStack`]: the result of a movement-op chain, one view whenever possible.
//!
//! Ops apply to the top view. When the top view cannot express an op's result,
//! a contiguous view of the current shape is pushed and the op applies to it
//! (on a contiguous view every op succeeds). After each op the stack is
//! simplified: every adjacent pair that merges into one view is merged
//! ([`pair`](super::pair)), repeated until no pair merges, so the number of
//! views is minimal among stacks reachable by pairwise merging — not tinygrad's
//! tail-only greedy pass.
//!
//! A stack never decides the same refusal twice: each adjacent pair ([`link`])
//! remembers that its replay failed, and at which op, that the merge
//! refused it, and, when one is found, a witness (`view/witness`): four elements proving
//! that no single view equals the pair. An op on the upper view keeps the
//! replay's failure unless it supersedes the failing reshape, keeps the
//! merge's refusal when it is a permute or an expand (a refused pair stays
//! refused under them; the property test `refusal_survives_permute_and_expand`
//! checks it), and carries the witness along in O(rank) when the op keeps its
//! four elements (always for permute, flip, pad and expand); while a witness
//! lasts nothing is decided. Any change to the lower view forgets all three.

use std::fmt;

use smallvec::SmallVec;

mod link;

use link::{Link, Logged, Refusal};

use super::{unravel, View, ViewOffsets};
use crate::error::{Error, Result};
use crate::num::Ints;

/// A stack of views, bottom (reading the buffer) first.
///
/// Movement ops take the stack by value and edit its top view in place, so a
/// chain copies nothing; `clone()` first to keep the original (as a compiler
/// sharing one tracker between several uses would).
///
/// ```
/// use hlayout::ViewStack;
/// let s = ViewStack::new(&[4, 6])?.permute(&[1, 0])?.reshape(&[2, 3, 4])?;
/// assert_eq!(s.views().len(), 1);
/// assert_eq!(s.shape(), vec![2, 3, 4]);
/// assert_eq!(s.eval(&[1, 0, 2])?, Some(15));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ViewStack {
    /// Never empty. On the heap, so that moving a stack through a chain of
    /// ops moves a pointer, not a few hundred bytes of view.
    views: Vec<View>,
    /// `links[k - 1]`: what joins `views[k - 1]` and `views[k]` (none below
    /// the bottom view).
    links: Vec<Link>,
}

impl PartialEq for ViewStack {
    /// Stacks are equal when their views are (the replay logs do not count).
    fn eq(&self, other: &ViewStack) -> bool {
        self.views == other.views
    }
}

impl Eq for ViewStack {}

impl ViewStack {
    /// The contiguous tensor of `shape`.
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a negative extent; [`Error::Overflow`].
    ///
    /// ```
    /// assert!(hlayout::ViewStack::new(&[3, 4]).unwrap().is_contiguous());
    /// ```
    pub fn new(shape: &[i64]) -> Result<ViewStack> {
        Ok(ViewStack {
            views: vec![View::contiguous(shape)?],
            links: Vec::new(),
        })
    }

    /// A tensor read through `layout` (its top-level modes are the dimensions),
    /// in canonical form: within each mode, extent-1 leaves are dropped and
    /// leaves that merge are merged ([`View::from_layout`] keeps them).
    ///
    /// ```
    /// let l: hlayout::Layout = "(10,10):(1,10)".parse().unwrap();
    /// let s = hlayout::ViewStack::from_layout(&l).reshape(&[100]).unwrap();
    /// assert_eq!(s.to_string(), "((10,10)):((1,10))");
    /// let m: hlayout::Layout = "(2,(1,3,4)):(12,(5,4,1))".parse().unwrap();
    /// assert_eq!(hlayout::ViewStack::from_layout(&m).to_string(), "(2,12):(12,1)");
    /// ```
    pub fn from_layout(layout: &crate::layout::Layout) -> ViewStack {
        let mut view = View::of_layout(layout, 0);
        // Cannot fail: a valid layout's span fits i64 and there are no
        // constraints or windows; keep the verbatim view if it ever did.
        if view.tidy().is_err() {
            view = View::of_layout(layout, 0);
        }
        ViewStack {
            views: vec![view],
            links: Vec::new(),
        }
    }

    /// The stack of `views`, bottom (reading the buffer) first, each above
    /// the bottom one indexing row-major into the shape of the view below
    /// (its offsets should lie in `[0, size)` of that shape; an offset
    /// outside is an invalid element, as in [`ViewStack::eval`]). Adjacent
    /// views are merged where they merge exactly. O(views) plus the merges.
    ///
    /// # Errors
    /// [`Error::BadMovement`] for an empty list; [`Error::Overflow`] from a
    /// merge.
    ///
    /// ```
    /// use hlayout::{View, ViewStack};
    /// let lower = View::contiguous(&[4, 6])?;
    /// let upper = ViewStack::new(&[6, 4])?.permute(&[1, 0])?.views()[0].clone();
    /// let s = ViewStack::from_views(vec![lower, upper])?;
    /// assert_eq!(s.views().len(), 1);
    /// assert_eq!(s.eval(&[1, 2])?, Some(9));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn from_views(views: Vec<View>) -> Result<ViewStack> {
        if views.is_empty() {
            return Err(Error::BadMovement {
                op: "view stack",
                why: "a stack needs at least one view".into(),
            });
        }
        let links = (1..views.len())
            .map(|_| Link {
                log: Vec::new(),
                refused: Refusal::default(),
                opaque: true,
            })
            .collect();
        simplify(views, links)
    }

    /// The views, bottom first.
    ///
    /// ```
    /// assert_eq!(hlayout::ViewStack::new(&[3]).unwrap().views().len(), 1);
    /// ```
    pub fn views(&self) -> &[View] {
        &self.views
    }

    /// The tensor shape (the top view's).
    ///
    /// ```
    /// assert_eq!(hlayout::ViewStack::new(&[3, 4]).unwrap().shape(), vec![3, 4]);
    /// ```
    pub fn shape(&self) -> Vec<i64> {
        self.top().shape()
    }

    /// The number of elements (the top view's).
    ///
    /// ```
    /// assert_eq!(hlayout::ViewStack::new(&[3, 4]).unwrap().size(), 12);
    /// ```
    pub fn size(&self) -> i64 {
        self.top().size()
    }

    fn top(&self) -> &View {
        &self.views[self.views.len() - 1]
    }

    /// Whether the stack is one contiguous view.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[3, 4]).unwrap().flip(&[true, false]).unwrap();
    /// assert!(!s.is_contiguous());
    /// ```
    pub fn is_contiguous(&self) -> bool {
        self.views.len() == 1 && self.views[0].is_contiguous()
    }

    /// Applies `op` (recorded as `record()` when a log needs it) to the top
    /// view in place, pushing a contiguous view when it cannot express it.
    ///
    /// Relies on the ops' contract that `Ok(false)` leaves the view unchanged
    /// (checked in debug builds).
    fn edit(
        mut self,
        op: impl Fn(&mut View) -> Result<bool>,
        record: impl Fn() -> Logged,
    ) -> Result<ViewStack> {
        let top = self.views.len() - 1;
        #[cfg(debug_assertions)]
        let before = self.views[top].clone();
        // A witness on the top link follows a reshape or a stride from the
        // shape before the op (a flip keeps the shape).
        let mut shape = Ints::new();
        let mut movement = None;
        if top > 0 && self.links[top - 1].refused.witness.is_some() {
            let m = record();
            if matches!(m, Logged::Reshape(_) | Logged::Stride(_)) {
                shape = self.views[top].extents();
            }
            movement = Some(m);
        }
        if op(&mut self.views[top])? {
            #[cfg(debug_assertions)]
            self.views[top].debug_assert_tidy();
            if top == 0 {
                // The common case: one view stays one view, nothing to log.
                return Ok(self);
            }
            if self.views[top].is_zero() {
                // An empty tensor has one view (see `zero`).
                let zero = self.views.swap_remove(top);
                return Ok(ViewStack {
                    views: vec![zero],
                    links: Vec::new(),
                });
            }
            let witnessed = movement.is_some();
            let m = movement.unwrap_or_else(&record);
            if witnessed && matches!(m, Logged::Flip(_)) {
                shape = self.views[top].extents();
            }
            self.links[top - 1].record(m, &shape);
            #[cfg(debug_assertions)]
            if let Some(w) = &self.links[top - 1].refused.witness {
                debug_assert!(
                    w.holds(&self.views[top - 1], &self.views[top]),
                    "a witness that does not hold: {w:?}"
                );
            }
            return simplify(self.views, self.links);
        }
        #[cfg(debug_assertions)]
        debug_assert_eq!(
            self.views[top], before,
            "an op changed a view it could not express"
        );
        let mut fresh = View::contiguous(&self.views[top].shape())?;
        if !op(&mut fresh)? {
            return Err(Error::BadMovement {
                op: "view stack",
                why: "an op failed on a contiguous view (internal invariant)".into(),
            });
        }
        self.views.push(fresh);
        self.links.push(Link {
            log: vec![record()],
            refused: Refusal::default(),
            opaque: false,
        });
        simplify(self.views, self.links)
    }

    /// tinygrad's `reshape`: same number of elements.
    ///
    /// # Errors
    /// [`Error::BadMovement`] when the sizes differ or an extent is below 1.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[6]).unwrap().reshape(&[2, 3]).unwrap();
    /// assert_eq!(s.to_string(), "(2,3):(3,1)");
    /// ```
    pub fn reshape(self, shape: &[i64]) -> Result<ViewStack> {
        self.edit(
            |v| v.reshape(shape),
            || Logged::Reshape(SmallVec::from_slice(shape)),
        )
    }

    /// tinygrad's `permute`.
    ///
    /// # Errors
    /// [`Error::BadMovement`] unless `perm` is a permutation of `0..rank`.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[2, 3]).unwrap().permute(&[1, 0]).unwrap();
    /// assert_eq!(s.to_string(), "(3,2):(1,3)");
    /// ```
    pub fn permute(self, perm: &[usize]) -> Result<ViewStack> {
        self.edit(
            |v| v.permute(perm),
            || Logged::Permute(SmallVec::from_slice(perm)),
        )
    }

    /// tinygrad's `expand`: extent-1 dimensions broadcast with stride 0.
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a rank mismatch or a non-1 extent that changes.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[1, 3]).unwrap().expand(&[2, 3]).unwrap();
    /// assert_eq!(s.to_string(), "(2,3):(0,1)");
    /// ```
    pub fn expand(self, shape: &[i64]) -> Result<ViewStack> {
        self.edit(
            |v| v.expand(shape),
            || Logged::Expand(SmallVec::from_slice(shape)),
        )
    }

    /// tinygrad's `pad`: `(before, after)` invalid elements per dimension.
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a rank mismatch or negative padding.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[2]).unwrap().pad(&[(1, 1)]).unwrap();
    /// assert_eq!(s.to_string(), "4:1-1 if 1<=x0<3");
    /// ```
    pub fn pad(self, arg: &[(i64, i64)]) -> Result<ViewStack> {
        self.edit(|v| v.pad(arg), || Logged::Pad(SmallVec::from_slice(arg)))
    }

    /// tinygrad's `shrink`: keep `[begin, end)` per dimension (non-empty).
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a rank mismatch or a range outside the shape.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4, 4]).unwrap().shrink(&[(1, 3), (0, 4)]).unwrap();
    /// assert_eq!(s.to_string(), "(2,4):(4,1)+4");
    /// ```
    pub fn shrink(self, arg: &[(i64, i64)]) -> Result<ViewStack> {
        self.edit(
            |v| v.shrink(arg),
            || Logged::Shrink(SmallVec::from_slice(arg)),
        )
    }

    /// tinygrad's `flip`.
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a rank mismatch.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[3]).unwrap().flip(&[true]).unwrap();
    /// assert_eq!(s.to_string(), "3:-1+2");
    /// ```
    pub fn flip(self, flags: &[bool]) -> Result<ViewStack> {
        self.edit(
            |v| v.flip(flags),
            || Logged::Flip(SmallVec::from_slice(flags)),
        )
    }

    /// Step slicing per dimension, `x[::step]`; a negative step flips first.
    ///
    /// Not one of tinygrad 0.10.3's movement ops, so not a
    /// [`Movement`](crate::view::Movement) (the command line, the batch
    /// protocol and the Python package do not offer it): a Rust shortcut for
    /// what tinygrad spells with the others (a flip for the negative steps,
    /// then per dimension a pad to a multiple of the step, a reshape to
    /// `(n / step, step)`, a shrink to the first column and a reshape back),
    /// with the same result in one op.
    ///
    /// # Errors
    /// [`Error::BadMovement`] for a rank mismatch or a zero step.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[5]).unwrap().stride(&[2]).unwrap();
    /// assert_eq!(s.to_string(), "3:2");
    /// ```
    pub fn stride(self, steps: &[i64]) -> Result<ViewStack> {
        self.edit(
            |v| v.stride(steps),
            || Logged::Stride(SmallVec::from_slice(steps)),
        )
    }

    /// Buffer offset of the element at `coord`, or `None` where it is invalid.
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] for a coordinate outside the shape.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[2, 2]).unwrap().permute(&[1, 0]).unwrap();
    /// assert_eq!(s.eval(&[0, 1]).unwrap(), Some(2));
    /// ```
    pub fn eval(&self, coord: &[i64]) -> Result<Option<i64>> {
        let mut coord = coord.to_vec();
        for (k, v) in self.views.iter().enumerate().rev() {
            let Some(o) = v.eval(&coord)? else {
                return Ok(None);
            };
            if k == 0 {
                return Ok(Some(o));
            }
            let below = self.views[k - 1].shape();
            if !(0..below.iter().product()).contains(&o) {
                return Ok(None);
            }
            coord = unravel(o, &below);
        }
        Ok(None)
    }

    /// Every element's offset (`None` where invalid), in row-major order, as
    /// [`View::offsets`] streams them.
    ///
    /// A single view streams with no division; a stack evaluates each element
    /// through every view (one unravel per extra view, as tinygrad's kernels do).
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[2]).unwrap().pad(&[(0, 1)]).unwrap();
    /// assert_eq!(s.offsets().collect::<Vec<_>>(), [Some(0), Some(1), None]);
    /// ```
    pub fn offsets(&self) -> ViewOffsets {
        match &self.views[..] {
            [v] => v.offsets(),
            _ => ViewOffsets::of_stack(self),
        }
    }

    /// Writes every element's offset (or `invalid`) into `out` and returns how
    /// many were written, as [`View::fill_offsets`] does; a stack of several
    /// views is evaluated element by element.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[3]).unwrap().pad(&[(1, 0)]).unwrap();
    /// let mut buf = [0i64; 4];
    /// assert_eq!(s.fill_offsets(&mut buf, -1), 4);
    /// assert_eq!(buf, [-1, 0, 1, 2]);
    /// ```
    pub fn fill_offsets(&self, out: &mut [i64], invalid: i64) -> usize {
        if let [v] = &self.views[..] {
            return v.fill_offsets(out, invalid);
        }
        let mut n = 0;
        for (o, v) in out.iter_mut().zip(self.offsets()) {
            *o = v.unwrap_or(invalid);
            n += 1;
        }
        n
    }
}

/// Merges adjacent pairs until none merges ([`Link::merge`]: first by
/// replaying the upper view's ops on the lower one, consecutive reshapes
/// collapsed into the last, then by `merge_pair`: the closed-form decision,
/// the affine composition with its symbolic no-carry test, or an evaluated
/// and verified fit). A merge changes the views on both sides of its
/// neighbours' links, so they forget their refusals.
fn simplify(mut views: Vec<View>, mut links: Vec<Link>) -> Result<ViewStack> {
    let mut k = views.len();
    while k >= 2 {
        match links[k - 2].merge(&views[k - 2], &views[k - 1])? {
            Some(v) => {
                let upper = links.remove(k - 2);
                if k > 2 {
                    let below = &mut links[k - 3];
                    below.opaque |= upper.opaque;
                    below.log.extend(upper.log);
                    below.refused = Refusal::default();
                }
                if let Some(above) = links.get_mut(k - 2) {
                    above.refused = Refusal::default();
                }
                views.remove(k - 1);
                views[k - 2] = v;
                k = views.len();
            }
            None => k -= 1,
        }
    }
    Ok(ViewStack { views, links })
}

impl ViewStack {
    /// The four elements of the witness the top link holds, if any (see
    /// `Witness`), with the pair it refutes.
    #[cfg(test)]
    pub(crate) fn top_witness(&self) -> Option<([Ints; 4], &View, &View)> {
        let n = self.views.len();
        let w = self.links.last()?.refused.witness.as_ref()?;
        Some((w.corners(), &self.views[n - 2], &self.views[n - 1]))
    }

    /// The stack simplified again with every refusal forgotten: equal to
    /// `self` when the remembered refusals are sound.
    #[cfg(test)]
    pub(crate) fn decided_afresh(&self) -> Result<ViewStack> {
        let mut links = self.links.clone();
        links
            .iter_mut()
            .for_each(|l| l.refused = Refusal::default());
        simplify(self.views.clone(), links)
    }
}

impl fmt::Display for ViewStack {
    /// The views bottom first, separated by ` | `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in self.views.iter().enumerate() {
            if k > 0 {
                f.write_str(" | ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}
