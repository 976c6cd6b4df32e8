//! `reshape` of a [`SymViewStack`]: regroup the top view's leaves into the
//! new dimensions when polynomial identities say how, else a new view.
//!
//! The precondition (tinygrad 0.10.3 checks it only for concrete shapes):
//! the new extents are `>= 1` and their product equals the old size for
//! every allowed binding — an identity of polynomials, or proved; refuted
//! sizes refuse with [`Error::BadMovement`] (so `(x,4) → (x,5)` is refused
//! for every `x`, which tinygrad accepts unchecked), unknown ones name the
//! fact `size == size`.
//!
//! Regrouping (O(leaves · constraints · t²)): the leaves of extent 1 are
//! dropped, adjacent leaves merge where `stride_outer = extent_inner ·
//! stride_inner` (and their constraint coefficients allow it), then the new
//! dimensions take leaves from the innermost: a leaf equal to the extent is
//! taken whole, a leaf that the extent divides (exact polynomial division)
//! is split, a leaf that divides the extent is taken and the rest of the
//! extent goes on to the next leaf. Each step is an identity of
//! polynomials, so the result is right at every binding; when a step does
//! not apply (`(N,M) → (M,N)`, a split that a symbolic extent would need
//! with a constraint on the leaf) the stack gets a contiguous view of the
//! new shape, which is right whenever the sizes are equal. A contiguous top
//! view of the lower view's size is only a relabelling: it is dropped and
//! the view below is reshaped instead.

use smallvec::SmallVec;

use super::super::need::Needs;
use super::super::poly::Poly;
use super::super::prove::{Fact, Truth};
use super::super::symbols::Symbols;
use super::{equal, require_extents, Polys, SymConstraint, SymView, SymViewStack};
use crate::error::{Error, Result};

/// One leaf while regrouping: extent, stride, coefficient per constraint.
type Leaf = (Poly, Poly, SmallVec<[i64; 2]>);

impl SymViewStack {
    /// tinygrad's `reshape` (module docs). O(leaves · constraints · t²).
    ///
    /// # Errors
    /// [`Error::BadMovement`] when the sizes differ for every allowed
    /// binding; [`Error::NeedsFacts`] naming `old size == new size` or an
    /// extent `>= 1` when not proved.
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymViewStack, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("M", Assume { max: 1 << 20, ..Assume::default() })?;
    /// let (n, m) = (s.parse("N").unwrap(), s.parse("M").unwrap());
    /// let t = SymViewStack::new(&[s.parse("4*N").unwrap(), m.clone()], &s)?;
    /// let t = t.reshape(&[4.into(), n.clone(), m.clone()], &s)?;
    /// assert_eq!(t.show(&s).to_string(), "(4,N,M):(M*N,M,1)");
    /// // The transpose of (N,M), flattened, then cut as (N,M): no single view.
    /// let u = SymViewStack::new(&[n.clone(), m.clone()], &s)?.permute(&[1, 0], &s)?;
    /// let u = u.reshape(&[s.parse("N*M")?], &s)?;
    /// assert_eq!(u.show(&s).to_string(), "((M,N)):((1,M))");
    /// let u = u.reshape(&[n.clone(), m.clone()], &s)?;
    /// assert_eq!(u.show(&s).to_string(), "((M,N)):((1,M)) | (N,M):(M,1)");
    /// let err = t.reshape(&[n.clone(), m.clone()], &s).unwrap_err();
    /// assert!(err.to_string().starts_with("reshape:"));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn reshape(mut self, shape: &[Poly], syms: &Symbols) -> Result<SymViewStack> {
        let old = self.top().shape()?;
        let mut needs = Needs::new(syms, "reshape");
        require_extents(&mut needs, shape)?;
        let size = product(shape)?;
        let before = product(&old)?;
        match equal(syms, &before, &size)? {
            Truth::Proved => {}
            Truth::Refuted => {
                return Err(Error::BadMovement {
                    op: "reshape",
                    why: format!(
                        "size {} differs from {} for every allowed value",
                        syms.show(&size),
                        syms.show(&before)
                    ),
                })
            }
            Truth::Unknown => needs.require(Fact::eq(&before, &size)?)?,
        }
        needs.finish("the reshape's precondition (same size, extents >= 1)")?;
        if old.as_slice() == shape {
            return Ok(self);
        }
        while self.views.len() > 1 && self.top().is_contiguous() {
            let below = self.views[self.views.len() - 2].size()?;
            if below != before {
                break;
            }
            self.pop_view();
        }
        match regroup(self.top(), shape)? {
            Some(v) => {
                self.untrack_top();
                *self.top_mut() = v;
            }
            None => {
                if self.top().is_contiguous() && self.top().size()? == size {
                    self.untrack_top();
                    *self.top_mut() = SymView::contiguous(shape)?;
                } else {
                    self.views.push(SymView::contiguous(shape)?);
                }
            }
        }
        Ok(self)
    }
}

fn product(shape: &[Poly]) -> Result<Poly> {
    shape
        .iter()
        .try_fold(Poly::constant(1), |acc, e| acc.mul(e))
}

/// The constraints while regrouping: each one's bounds, and whether it
/// holds one non-zero coefficient, 1, on a single leaf (a box `lo <= x <
/// hi` on one leaf, as a pad makes): such a constraint survives a merge of
/// its leaf with inner leaves (`lo·e <= X < hi·e`) and a split whose factor
/// divides its bounds.
struct Rows {
    bounds: SmallVec<[(Poly, Poly); 2]>,
    single: SmallVec<[bool; 2]>,
}

impl Rows {
    fn of(v: &SymView) -> Rows {
        Rows {
            bounds: v
                .cons
                .iter()
                .map(|c| (c.lo.clone(), c.hi.clone()))
                .collect(),
            single: v
                .cons
                .iter()
                .map(|c| {
                    let mut nz = c.coeffs.iter().filter(|&&a| a != 0);
                    nz.next() == Some(&1) && nz.next().is_none()
                })
                .collect(),
        }
    }
}

/// The leaves of `v` other than extent-1 ones, adjacent mergeable pairs
/// merged (`rows` follow the merges).
fn coalesced(v: &SymView, rows: &mut Rows) -> Result<SmallVec<[Leaf; 8]>> {
    let one = Poly::constant(1);
    let mut out: SmallVec<[Leaf; 8]> = SmallVec::new();
    for k in 0..v.ext.len() {
        if v.ext[k] == one {
            continue;
        }
        let coeffs: SmallVec<[i64; 2]> = v.cons.iter().map(|c| c.coeffs[k]).collect();
        if let Some(last) = out.last_mut() {
            if let Some(merged) = merge(last, &v.ext[k], &v.stride[k], &coeffs, rows)? {
                *last = merged;
                continue;
            }
        }
        out.push((v.ext[k].clone(), v.stride[k].clone(), coeffs));
    }
    Ok(out)
}

/// The leaf `outer` followed by `(e, s, a)` as one leaf `X = x_o·e + x`,
/// when `stride_outer = e·s` and every constraint allows it: `a_outer =
/// a·e` with `e` constant, or both 0 (the coefficient of `X` is `a`), or a
/// single box on the outer leaf (`lo <= x_o < hi` is `lo·e <= X < hi·e`).
fn merge(outer: &Leaf, e: &Poly, s: &Poly, a: &[i64], rows: &mut Rows) -> Result<Option<Leaf>> {
    if outer.1 != e.mul(s)? {
        return Ok(None);
    }
    let mut coeffs: SmallVec<[i64; 2]> = a.iter().copied().collect();
    let mut boxed: SmallVec<[usize; 2]> = SmallVec::new();
    for (j, (&ao, &ai)) in outer.2.iter().zip(a).enumerate() {
        let scaled = match e.as_const() {
            Some(c) => ai.checked_mul(c) == Some(ao),
            None => ao == 0 && ai == 0,
        };
        if scaled {
            continue;
        }
        if rows.single[j] && ao == 1 && ai == 0 {
            boxed.push(j);
            coeffs[j] = 1;
            continue;
        }
        return Ok(None);
    }
    for j in boxed {
        let (lo, hi) = &rows.bounds[j];
        rows.bounds[j] = (lo.mul(e)?, hi.mul(e)?);
    }
    Ok(Some((outer.0.mul(e)?, s.clone(), coeffs)))
}

/// The coefficients of the outer part `y_o` of a leaf with coefficients
/// `a` split as `x = y_o·n + y_i`, per constraint: 0 where `a` is 0; for a
/// single box whose bounds `n` divides, the box `lo/n <= y_o < hi/n` (then
/// `y_i` gets 0); else `a·n` for a constant `n`. `None` otherwise.
fn split_coeffs(
    a: &mut SmallVec<[i64; 2]>,
    n: &Poly,
    rows: &mut Rows,
) -> Result<Option<SmallVec<[i64; 2]>>> {
    let mut outer = a.clone();
    let mut divided: SmallVec<[(usize, Poly, Poly); 2]> = SmallVec::new();
    for j in 0..a.len() {
        if a[j] == 0 {
            continue;
        }
        let (lo, hi) = &rows.bounds[j];
        if rows.single[j] && a[j] == 1 {
            if let (Some(l), Some(h)) = (lo.div_exact(n), hi.div_exact(n)) {
                divided.push((j, l, h));
                continue;
            }
        }
        match n.as_const().and_then(|c| a[j].checked_mul(c)) {
            Some(x) => outer[j] = x,
            None => return Ok(None),
        }
    }
    for (j, l, h) in divided {
        rows.bounds[j] = (l, h);
        outer[j] = 1;
        a[j] = 0;
    }
    Ok(Some(outer))
}

/// The view of `v`'s function with dimensions `shape`, when its leaves
/// regroup (module docs); `None` otherwise.
fn regroup(v: &SymView, shape: &[Poly]) -> Result<Option<SymView>> {
    let mut rows = Rows::of(v);
    let mut leaves = coalesced(v, &mut rows)?;
    let ncons = v.cons.len();
    // Leaves of the new view, innermost first, with their dimension.
    let mut taken: SmallVec<[(usize, Leaf); 8]> = SmallVec::new();
    for d in (0..shape.len()).rev() {
        let mut n = shape[d].clone();
        if n == Poly::constant(1) {
            taken.push((d, (n, Poly::zero(), SmallVec::from_elem(0, ncons))));
            continue;
        }
        loop {
            let Some((e, s, mut a)) = leaves.pop() else {
                return Ok(None);
            };
            if e == n {
                taken.push((d, (e, s, a)));
                break;
            }
            if let Some(q) = e.div_exact(&n) {
                // Split: the inner n of this leaf, the outer q stays.
                let Some(outer_a) = split_coeffs(&mut a, &n, &mut rows)? else {
                    return Ok(None);
                };
                leaves.push((q, s.mul(&n)?, outer_a));
                taken.push((d, (n, s, a)));
                break;
            }
            match n.div_exact(&e) {
                Some(r) => {
                    taken.push((d, (e, s, a)));
                    n = r;
                }
                None => return Ok(None),
            }
        }
    }
    if !leaves.is_empty() {
        return Ok(None);
    }
    let mut out = SymView {
        ext: Polys::new(),
        stride: Polys::new(),
        dim_len: SmallVec::from_elem(0, shape.len()),
        cons: rows
            .bounds
            .into_iter()
            .map(|(lo, hi)| SymConstraint {
                coeffs: SmallVec::new(),
                lo,
                hi,
            })
            .collect(),
        offset: v.offset.clone(),
    };
    for (d, (e, s, a)) in taken.into_iter().rev() {
        out.dim_len[d] += 1;
        out.push_leaf(e, s, |j| a[j]);
    }
    if out.dim_len.contains(&0) {
        return Ok(None);
    }
    Ok(Some(out))
}
