//! Movement ops on a single [`View`], computed exactly on its leaves.
//!
//! Each `try_*` returns `Ok(Some(view))` when the op's result is one view,
//! `Ok(None)` when it is not expressible on this view (the caller then grows
//! the stack), and `Err` when the arguments break tinygrad's preconditions.
//! Every op is O(leaves · constraints) apart from canonicalisation.

use smallvec::SmallVec;

use super::{Dim, Leaf, View, Window};
use crate::error::{self, Error, Result};

fn bad(op: &'static str, why: String) -> Error {
    Error::BadMovement { op, why }
}

impl View {
    fn check_rank(&self, op: &'static str, len: usize) -> Result<()> {
        if len == self.dims.len() {
            Ok(())
        } else {
            Err(bad(
                op,
                format!(
                    "argument has {len} entries but the view has rank {}",
                    self.dims.len()
                ),
            ))
        }
    }

    /// Reorders the dimensions; `perm` must be a permutation of `0..rank`.
    pub(crate) fn try_permute(&self, perm: &[usize]) -> Result<View> {
        self.check_rank("permute", perm.len())?;
        let mut seen = vec![false; perm.len()];
        for &p in perm {
            if p >= perm.len() || std::mem::replace(&mut seen[p], true) {
                return Err(bad(
                    "permute",
                    format!("{perm:?} is not a permutation of 0..{}", perm.len()),
                ));
            }
        }
        let dims = perm.iter().map(|&p| self.dims[p].clone()).collect();
        Ok(View {
            dims,
            ..self.clone()
        })
    }

    /// Broadcasts extent-1 dimensions to `shape` (stride 0, constraint coefficient 0).
    pub(crate) fn try_expand(&self, shape: &[i64]) -> Result<View> {
        self.check_rank("expand", shape.len())?;
        let mut out = self.clone();
        let old = self.shape();
        for (&n, &s) in shape.iter().zip(&old) {
            if n != s && (s != 1 || n < 1) {
                return Err(bad(
                    "expand",
                    format!("cannot expand extent {s} to {n} (only extent 1 expands, to >= 1)"),
                ));
            }
        }
        for (d, (&n, &s)) in shape.iter().zip(&old).enumerate() {
            if n != s {
                // The single element reads x = window start (0 without a window).
                match out.dims[d].window {
                    Some(w) if !(w.lo..w.hi).contains(&w.start) => out.make_empty(),
                    w => out.fix_dim(d, w.map_or(0, |w| w.start))?,
                }
                out.dims[d] = Dim::plain(smallvec::smallvec![Leaf {
                    extent: n,
                    stride: 0,
                    coeffs: SmallVec::from_elem(0, out.bounds.len()),
                }]);
            }
        }
        out.tidy()
    }

    /// Reverses the dimensions marked `true`: every leaf of such a dimension flips.
    ///
    /// tinygrad 0.10.3 zips the flags with the shape, so flags past the rank are
    /// ignored; fewer flags than the rank are an error.
    pub(crate) fn try_flip(&self, flags: &[bool]) -> Result<View> {
        if flags.len() < self.dims.len() {
            self.check_rank("flip", flags.len())?;
        }
        let mut out = self.clone();
        for (dim, _) in out.dims.iter_mut().zip(flags).filter(|(_, f)| **f) {
            let radix = dim.radix();
            if let Some(w) = &mut dim.window {
                // Reading x = t + o reversed is reading R-1-x = t' + (R - o - E).
                w.start = radix - w.start - w.extent;
                (w.lo, w.hi) = (radix - w.hi, radix - w.lo);
            }
            for l in dim.iter_mut() {
                // x = (n-1) - x': offset gains (n-1)·d, each constraint value a·(n-1).
                let top = l.extent - 1;
                out.offset = error::add(
                    out.offset,
                    error::mul(top, l.stride, "flip offset")?,
                    "flip offset",
                )?;
                l.stride = -l.stride;
                for (c, a) in l.coeffs.iter_mut().enumerate() {
                    shift_bound(&mut out.bounds[c], error::mul(*a, top, "flip bound")?)?;
                    *a = -*a;
                }
            }
        }
        out.tidy()
    }

    /// Keeps `[begin, end)` of each dimension.
    pub(crate) fn try_shrink(&self, arg: &[(i64, i64)]) -> Result<Option<View>> {
        self.check_rank("shrink", arg.len())?;
        let shape = self.shape();
        for (&(b, e), &s) in arg.iter().zip(&shape) {
            if !(0 <= b && b < e && e <= s) {
                return Err(bad(
                    "shrink",
                    format!("[{b},{e}) is not a non-empty range within [0,{s}]"),
                ));
            }
        }
        let mut out = self.clone();
        for (d, &(b, e)) in arg.iter().enumerate() {
            if (b, e) == (0, shape[d]) {
                continue;
            }
            let (dims, offset, bounds) = (&mut out.dims, &mut out.offset, &mut out.bounds);
            let dim = &mut dims[d];
            match &mut dim.window {
                Some(w) => {
                    w.start += b;
                    w.extent = e - b;
                }
                None => {
                    // shrink_leaves edits in place, so it works on copies.
                    let (mut leaves, mut off, mut bnd) =
                        (dim.leaves.clone(), *offset, bounds.clone());
                    if shrink_leaves(&mut leaves, b, e, &mut off, &mut bnd)? {
                        (dim.leaves, *offset, *bounds) = (leaves, off, bnd);
                    } else {
                        let mut w = Window::full(dim.radix());
                        w.start = b;
                        w.extent = e - b;
                        dim.window = Some(w);
                    }
                }
            }
        }
        out.tidy().map(Some)
    }

    /// Pads each dimension with `before` and `after` invalid elements.
    pub(crate) fn try_pad(&self, arg: &[(i64, i64)]) -> Result<Option<View>> {
        self.check_rank("pad", arg.len())?;
        if let Some(&(b, a)) = arg.iter().find(|(b, a)| *b < 0 || *a < 0) {
            return Err(bad("pad", format!("padding ({b},{a}) is negative")));
        }
        let mut out = self.clone();
        for (d, &(b, a)) in arg.iter().enumerate() {
            if (b, a) == (0, 0) {
                continue;
            }
            let dim = &mut out.dims[d];
            let inner: i64 = dim[1..].iter().map(|l| l.extent).product();
            if dim.window.is_some() || b % inner != 0 || a % inner != 0 {
                let w = dim.window.unwrap_or(Window::full(dim.radix()));
                // Only what the window read so far stays valid.
                let (lo, hi) = (w.lo.max(w.start), w.hi.min(w.start + w.extent));
                let extent = error::add(w.extent, error::add(b, a, "pad extent")?, "pad extent")?;
                dim.window = Some(Window {
                    extent,
                    start: w.start - b,
                    lo,
                    hi,
                });
                continue;
            }
            let (b, a) = (b / inner, a / inner);
            let n = out.dims[d][0].extent;
            // x = x' - b on the slowest leaf, valid iff b <= x' < b + n.
            shift_leaf(&mut out, d, -b)?;
            let lead = &mut out.dims[d][0];
            lead.extent = error::add(n, error::add(b, a, "pad extent")?, "pad extent")?;
            out.bounds.push((b, error::add(b, n, "pad bound")?));
            for (dd, dim) in out.dims.iter_mut().enumerate() {
                for (k, l) in dim.iter_mut().enumerate() {
                    l.coeffs.push(i64::from(dd == d && k == 0));
                }
            }
        }
        out.tidy().map(Some)
    }

    /// Takes every `step`-th element of each dimension (negative steps flip first).
    pub(crate) fn try_stride(&self, steps: &[i64]) -> Result<Option<View>> {
        self.check_rank("stride", steps.len())?;
        if steps.contains(&0) {
            return Err(bad("stride", format!("step 0 in {steps:?}")));
        }
        let flags: Vec<bool> = steps.iter().map(|&s| s < 0).collect();
        let mut out = self.try_flip(&flags)?;
        for (dim, &step) in out.dims.iter_mut().zip(steps) {
            let step = step.abs();
            if step == 1 {
                continue;
            }
            let inner: i64 = dim[1..].iter().map(|l| l.extent).product();
            if dim.window.is_some() || step % inner != 0 {
                return Ok(None);
            }
            // x = step·x' lands on the slowest leaf only: x_0 = (step/inner)·x'.
            let k = step / inner;
            for l in dim[1..].iter_mut() {
                l.extent = 1;
            }
            let lead = &mut dim[0];
            lead.extent = (lead.extent + k - 1) / k;
            lead.stride = error::mul(lead.stride, k, "stride")?;
            for a in lead.coeffs.iter_mut() {
                *a = error::mul(*a, k, "stride coefficient")?;
            }
        }
        out.tidy().map(Some)
    }

    /// Drops extent-1 leaves, coalesces leaves within each dimension where the
    /// strides and every constraint coefficient allow, and canonicalises.
    pub(crate) fn tidy(mut self) -> Result<View> {
        let n = self.bounds.len();
        for dim in &mut self.dims {
            if dim.len() == 1 {
                continue; // nothing to drop or merge
            }
            let kept = coalesce_dim(dim);
            dim.leaves = if kept.is_empty() {
                smallvec::smallvec![Leaf {
                    extent: 1,
                    stride: 0,
                    coeffs: SmallVec::from_elem(0, n),
                }]
            } else {
                kept
            };
        }
        for d in 0..self.dims.len() {
            if self.dims[d].window.is_some() {
                self.unwindow(d)?;
            }
        }
        self.normalize()
    }
}

/// Constraint-aware coalescing of one dimension's leaves (extent-1 leaves dropped).
pub(crate) fn coalesce_dim(dim: &[Leaf]) -> SmallVec<[Leaf; 2]> {
    let mut out: SmallVec<[Leaf; 2]> = SmallVec::new();
    for l in dim.iter().filter(|l| l.extent != 1) {
        match out.last_mut() {
            Some(prev) if mergeable(prev, l) => {
                prev.extent *= l.extent;
                prev.stride = l.stride;
                prev.coeffs.clone_from(&l.coeffs);
            }
            _ => out.push(l.clone()),
        }
    }
    out
}

impl View {
    /// Fixes every leaf of dimension `d` at the digits of `x` (or empties the
    /// view when `x` is outside the leaves' range).
    fn fix_dim(&mut self, d: usize, x: i64) -> Result<()> {
        let radix = self.dims[d].radix();
        if !(0..radix).contains(&x) {
            self.make_empty();
            return Ok(());
        }
        let mut rest = x;
        for k in (0..self.dims[d].len()).rev() {
            let l = &mut self.dims[d][k];
            let digit = rest % l.extent;
            rest /= l.extent;
            self.offset = error::add(
                self.offset,
                error::mul(digit, l.stride, "view offset")?,
                "view offset",
            )?;
            for (c, &a) in l.coeffs.iter().enumerate() {
                shift_bound(
                    &mut self.bounds[c],
                    error::mul(a, digit, "constraint bound")?,
                )?;
            }
            l.extent = 1;
        }
        self.dims[d].window = None;
        Ok(())
    }

    /// Turns every element invalid (the canonical empty constraint).
    fn make_empty(&mut self) {
        self.bounds = smallvec::smallvec![(0, 0)];
        for dim in &mut self.dims {
            for l in dim.iter_mut() {
                l.coeffs = smallvec::smallvec![0];
            }
        }
    }

    /// Replaces dimension `d`'s window by leaf-wise terms where that is exact:
    /// a window inside the range that a leaf-wise shrink can express, a window
    /// aligned to the slowest leaf's blocks, or one over a single leaf; a window
    /// that misses the range empties the view.
    fn unwindow(&mut self, d: usize) -> Result<()> {
        let Some(w) = self.dims[d].window else {
            return Ok(());
        };
        let radix = self.dims[d].radix();
        let (read_lo, read_hi) = (w.start, w.start + w.extent);
        if (read_lo, read_hi) == (0, radix) && (w.lo, w.hi) == (0, radix) {
            self.dims[d].window = None;
            return Ok(());
        }
        if read_hi <= w.lo || read_lo >= w.hi || w.lo >= w.hi {
            self.make_empty();
            self.dims[d] = Dim::plain(smallvec::smallvec![Leaf {
                extent: w.extent,
                stride: 0,
                coeffs: SmallVec::from_elem(0, 1)
            }]);
            return Ok(());
        }
        if w.lo <= read_lo && read_hi <= w.hi {
            // Everything read is valid: a plain shrink, if leaf-wise.
            let mut trial = self.clone();
            let (dims, offset, bounds) = (&mut trial.dims, &mut trial.offset, &mut trial.bounds);
            if shrink_leaves(&mut dims[d], read_lo, read_hi, offset, bounds)? {
                trial.dims[d].window = None;
                *self = trial;
                return Ok(());
            }
        }
        let inner: i64 = self.dims[d][1..].iter().map(|l| l.extent).product();
        let aligned = [w.start, w.extent, w.lo, w.hi]
            .iter()
            .all(|v| v % inner == 0);
        if aligned {
            // Slowest leaf reads x0 = t0 + start/inner, valid iff lo/inner <= x0 < hi/inner.
            let shift = w.start / inner;
            shift_leaf(self, d, shift)?;
            self.dims[d][0].extent = w.extent / inner;
            self.dims[d].window = None;
            self.bounds
                .push((w.lo / inner - shift, w.hi / inner - shift));
            for (dd, dim) in self.dims.iter_mut().enumerate() {
                for (k, l) in dim.iter_mut().enumerate() {
                    l.coeffs.push(i64::from(dd == d && k == 0));
                }
            }
        }
        Ok(())
    }
}

/// `slow` and `fast` merge iff stride and every coefficient scale by `fast.extent`.
pub(crate) fn mergeable(slow: &Leaf, fast: &Leaf) -> bool {
    let s = fast.extent;
    fast.stride.checked_mul(s) == Some(slow.stride)
        && slow
            .coeffs
            .iter()
            .zip(&fast.coeffs)
            .all(|(&a, &b)| b.checked_mul(s) == Some(a))
}

/// Substitutes `x = x' - by` on the slowest leaf of dimension `d`.
fn shift_leaf(v: &mut View, d: usize, by: i64) -> Result<()> {
    let lead = &v.dims[d][0];
    v.offset = error::add(
        v.offset,
        error::mul(by, lead.stride, "view offset")?,
        "view offset",
    )?;
    for (c, &a) in lead.coeffs.iter().enumerate() {
        shift_bound(&mut v.bounds[c], error::mul(a, by, "constraint bound")?)?;
    }
    Ok(())
}

/// A constraint value gains `delta`: bounds on the remaining terms move by `-delta`.
fn shift_bound(bound: &mut (i64, i64), delta: i64) -> Result<()> {
    bound.0 = bound
        .0
        .checked_sub(delta)
        .ok_or_else(|| error::overflow("constraint bound"))?;
    bound.1 = bound
        .1
        .checked_sub(delta)
        .ok_or_else(|| error::overflow("constraint bound"))?;
    Ok(())
}

/// Shrinks a dimension (leaves slowest first) to `[b, e)` of its row-major index.
///
/// Exact when the range is aligned to the slowest leaf's blocks, or lies inside
/// one block (then the slowest leaf is fixed and the rest recurses); otherwise
/// returns `false`. O(leaves).
fn shrink_leaves(
    leaves: &mut [Leaf],
    b: i64,
    e: i64,
    offset: &mut i64,
    bounds: &mut [(i64, i64)],
) -> Result<bool> {
    let inner: i64 = leaves[1..].iter().map(|l| l.extent).product();
    let (q, r) = (b / inner, e.div_euclid(inner));
    let fix = |l: &mut Leaf, by: i64, offset: &mut i64, bounds: &mut [(i64, i64)]| -> Result<()> {
        *offset = error::add(
            *offset,
            error::mul(by, l.stride, "view offset")?,
            "view offset",
        )?;
        for (c, &a) in l.coeffs.iter().enumerate() {
            shift_bound(&mut bounds[c], error::mul(a, by, "constraint bound")?)?;
        }
        Ok(())
    };
    if b % inner == 0 && e % inner == 0 {
        fix(&mut leaves[0], q, offset, bounds)?;
        leaves[0].extent = r - q;
        return Ok(true);
    }
    if q == (e - 1) / inner && leaves.len() > 1 {
        fix(&mut leaves[0], q, offset, bounds)?;
        leaves[0].extent = 1;
        return shrink_leaves(
            &mut leaves[1..],
            b - q * inner,
            e - q * inner,
            offset,
            bounds,
        );
    }
    Ok(false)
}
