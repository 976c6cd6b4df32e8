//! Movement ops on a single [`View`], computed exactly on its leaves.
//!
//! Each op edits the view in place and returns `Ok(true)` when its result is
//! this one view, `Ok(false)` when it is not expressible here (the view is then
//! left unchanged: ops decide before they edit, so the stack can push a view
//! without a copy), and `Err` when the arguments break tinygrad's
//! preconditions (the view is then left in an unspecified state).
//! Every op is O(leaves · constraints) apart from canonicalisation.

use std::ops::Range;

use smallvec::SmallVec;

use super::zero::checked_size;
use super::{Builder, View, Window};
use crate::error::{self, Error, Result};

pub(crate) fn bad(op: &'static str, why: String) -> Error {
    Error::BadMovement { op, why }
}

/// `Ok` when an op's argument has one entry per dimension (`len == rank`).
pub(crate) fn check_rank(op: &'static str, len: usize, rank: usize) -> Result<()> {
    if len == rank {
        Ok(())
    } else {
        Err(bad(
            op,
            format!("argument has {len} entries but the view has rank {rank}"),
        ))
    }
}

/// Whether `perm` is the identity; an error when it is no permutation of
/// `0..perm.len()`. O(rank), no allocation for rank <= 8.
pub(crate) fn is_identity_permutation(perm: &[usize]) -> Result<bool> {
    let mut seen: SmallVec<[bool; 8]> = SmallVec::from_elem(false, perm.len());
    for &p in perm {
        if p >= perm.len() || std::mem::replace(&mut seen[p], true) {
            return Err(bad(
                "permute",
                format!("{perm:?} is not a permutation of 0..{}", perm.len()),
            ));
        }
    }
    Ok(perm.iter().enumerate().all(|(d, &p)| d == p))
}

impl View {
    fn check_rank(&self, op: &'static str, len: usize) -> Result<()> {
        check_rank(op, len, self.rank())
    }

    /// Reorders the dimensions; `perm` must be a permutation of `0..rank`.
    pub(crate) fn permute(&mut self, perm: &[usize]) -> Result<bool> {
        self.check_rank("permute", perm.len())?;
        if is_identity_permutation(perm)? {
            return Ok(true);
        }
        if self.is_zero() {
            let shape: SmallVec<[i64; 8]> = perm.iter().map(|&p| self.ext[p]).collect();
            return self.become_zero(&shape);
        }
        // Each dimension's leaves move as one block, O(leaves · constraints).
        let c = self.cons();
        let mut blocks: SmallVec<[(usize, usize); 8]> = SmallVec::with_capacity(perm.len());
        let mut starts: SmallVec<[usize; 8]> = SmallVec::with_capacity(perm.len());
        let mut at = 0usize;
        for &n in &self.dim_len {
            starts.push(at);
            at += n as usize;
        }
        for &p in perm {
            blocks.push((starts[p], self.dim_len[p] as usize));
        }
        gather_blocks(&mut self.ext, &blocks, 1);
        gather_blocks(&mut self.stride, &blocks, 1);
        if c > 0 {
            gather_blocks(&mut self.coeffs, &blocks, c);
        }
        let old_len = self.dim_len.clone();
        for (d, &p) in perm.iter().enumerate() {
            self.dim_len[d] = old_len[p];
        }
        if !self.windows.is_empty() {
            let mut windows: SmallVec<[(usize, Window); 1]> = SmallVec::new();
            for (d, &p) in perm.iter().enumerate() {
                if let Some(w) = self.window(p) {
                    windows.push((d, w));
                }
            }
            self.windows = windows;
        }
        if self.cons() > 0 {
            // Reordered leaves change which coefficient comes first (its sign
            // is normalised) and the order of the rows.
            self.canonicalize_constraints()?;
        }
        Ok(true)
    }

    /// Broadcasts extent-1 dimensions to `shape` (stride 0, constraint coefficient 0).
    pub(crate) fn expand(&mut self, shape: &[i64]) -> Result<bool> {
        self.check_rank("expand", shape.len())?;
        let old = self.extents();
        for (&n, &s) in shape.iter().zip(&old) {
            if n != s && (s != 1 || n < 0) {
                return Err(bad(
                    "expand",
                    format!("cannot expand extent {s} to {n} (only extent 1 expands, to >= 0)"),
                ));
            }
        }
        checked_size(shape)?;
        if self.become_zero(shape)? {
            return Ok(true);
        }
        let fixed = self;
        for (d, (&n, &s)) in shape.iter().zip(&old).enumerate() {
            if n != s {
                // The single element reads x = window start (0 without a window).
                match fixed.window(d) {
                    Some(w) if !(w.lo..w.hi).contains(&w.start) => fixed.make_empty(),
                    w => fixed.fix_dim(d, w.map_or(0, |w| w.start))?,
                }
            }
        }
        let mut b = Builder::new(fixed.bounds.clone(), fixed.offset);
        for (d, r) in fixed.dim_ranges().enumerate() {
            if shape[d] != old[d] {
                b.leaf(shape[d], 0, std::iter::repeat_n(0, fixed.cons()));
                b.end_dim(None);
            } else {
                r.for_each(|k| b.copy_leaf(fixed, k));
                b.end_dim(fixed.window(d));
            }
        }
        *fixed = b.finish();
        fixed.tidy()?;
        Ok(true)
    }

    /// Reverses the dimensions marked `true`: every leaf of such a dimension flips.
    ///
    /// tinygrad 0.10.3 zips the flags with the shape, so flags past the rank are
    /// ignored; fewer flags than the rank are an error.
    pub(crate) fn flip(&mut self, flags: &[bool]) -> Result<bool> {
        if flags.len() < self.rank() {
            self.check_rank("flip", flags.len())?;
        }
        if self.is_zero() {
            return Ok(true);
        }
        let out = self;
        // Leaf ranges in one pass (`dim_range(d)` alone is O(d)): O(leaves).
        let mut start = 0usize;
        for (d, &flag) in flags.iter().enumerate().take(out.rank()) {
            let r = start..start + out.dim_len[d] as usize;
            start = r.end;
            if !flag {
                continue;
            }
            if let Some(mut w) = out.window(d) {
                // Reading x = t + o reversed is reading R-1-x = t' + (R - o - E);
                // check_span bounds |o| + E + R within i64, so no step overflows.
                let radix = out.radix(d);
                w.start = radix - w.start - w.extent;
                (w.lo, w.hi) = (radix - w.hi, radix - w.lo);
                out.set_window(d, Some(w));
            }
            for k in r {
                // x = (n-1) - x': offset gains (n-1)·d, each constraint value a·(n-1).
                out.substitute(k, out.ext[k] - 1)?;
                out.negate_leaf(k);
            }
        }
        // A flip maps the leaf box onto itself: extents, mergeable pairs and
        // window alignment are unchanged, so only the constraints need their
        // canonical form again (not a full tidy). One row needs only its sign;
        // several are not invariant under a reflection (the rows reduce each
        // other), so they are canonicalised anew.
        if out.cons() >= 2 {
            out.normalize()?;
        } else {
            out.resign_constraints();
            out.check_span()?;
        }
        Ok(true)
    }

    /// Keeps `[begin, end)` of each dimension.
    pub(crate) fn shrink(&mut self, arg: &[(i64, i64)]) -> Result<bool> {
        self.check_rank("shrink", arg.len())?;
        let shape = self.extents();
        for (&(b, e), &s) in arg.iter().zip(&shape) {
            if !(0 <= b && b <= e && e <= s) {
                return Err(bad(
                    "shrink",
                    format!(
                        "[{b},{e}) is not a range within [0,{s}] (0 <= begin <= end <= extent)"
                    ),
                ));
            }
        }
        let new: SmallVec<[i64; 8]> = arg.iter().map(|&(b, e)| e - b).collect();
        if self.become_zero(&new)? {
            return Ok(true);
        }
        let out = self;
        for (d, &(b, e)) in arg.iter().enumerate() {
            if (b, e) == (0, shape[d]) {
                continue;
            }
            match out.window(d) {
                Some(mut w) => {
                    w.start = error::add(w.start, b, "window start")?;
                    w.extent = e - b;
                    out.set_window(d, Some(w));
                }
                None => {
                    if !out.shrink_leaves(out.dim_range(d), b, e)? {
                        let mut w = Window::full(out.radix(d));
                        (w.start, w.extent) = (b, e - b);
                        out.set_window(d, Some(w));
                    }
                }
            }
        }
        out.tidy()?;
        Ok(true)
    }

    /// Pads each dimension with `before` and `after` invalid elements.
    pub(crate) fn pad(&mut self, arg: &[(i64, i64)]) -> Result<bool> {
        self.check_rank("pad", arg.len())?;
        if let Some(&(b, a)) = arg.iter().find(|(b, a)| *b < 0 || *a < 0) {
            return Err(bad("pad", format!("padding ({b},{a}) is negative")));
        }
        // The padded size must fit i64: checked first, in O(rank), so a pad
        // that overflows costs nothing more (and at most 63 dimensions with
        // non-zero padding can follow, each at least doubling the size).
        let mut new: SmallVec<[i64; 8]> = SmallVec::with_capacity(arg.len());
        for (&(b, a), &n) in arg.iter().zip(&self.extents()) {
            new.push(error::add(
                n,
                error::add(b, a, "pad extent")?,
                "pad extent",
            )?);
        }
        checked_size(&new)?;
        if self.become_zero(&new)? {
            return Ok(true);
        }
        let out = self;
        // Unit rows for leaf-wise pads, added in one pass after the loop
        // (their coefficients are 0 on every other leaf, so later
        // substitutions leave them unchanged): O(leaves · constraints).
        let mut rows: SmallVec<[(usize, i64, i64); 4]> = SmallVec::new();
        let mut start = 0usize;
        for (d, &(b, a)) in arg.iter().enumerate() {
            let r = start..start + out.dim_len[d] as usize;
            start = r.end;
            if (b, a) == (0, 0) {
                continue;
            }
            let inner: i64 = out.ext[r.start + 1..r.end].iter().product();
            let window = out.window(d);
            if window.is_some() || b % inner != 0 || a % inner != 0 {
                let w = window.unwrap_or(Window::full(out.radix(d)));
                // Only what the window read so far stays valid.
                let (lo, hi) = (w.lo.max(w.start), w.hi.min(w.start + w.extent));
                let extent = error::add(w.extent, error::add(b, a, "pad extent")?, "pad extent")?;
                out.set_window(
                    d,
                    Some(Window {
                        extent,
                        start: w
                            .start
                            .checked_sub(b)
                            .ok_or_else(|| error::overflow("window start"))?,
                        lo,
                        hi,
                    }),
                );
                continue;
            }
            let (b, a, lead) = (b / inner, a / inner, r.start);
            let n = out.ext[lead];
            // x = x' - b on the slowest leaf, valid iff b <= x' < b + n.
            out.substitute(lead, -b)?;
            out.ext[lead] = error::add(n, error::add(b, a, "pad extent")?, "pad extent")?;
            rows.push((lead, b, error::add(b, n, "pad bound")?));
        }
        out.add_constraints(&rows);
        if out.windows.is_empty() {
            // Leaf-wise pads only. Each added unit row on a grown slowest leaf
            // is canonical (neither always nor never true, gcd 1, nothing to
            // decouple), cannot make leaves merge (its faster neighbour has
            // coefficient 0), and the other rows stay canonical on the larger
            // box; only duplicates and the order need a pass, with two or more.
            if out.cons() > 1 {
                out.canonicalize_constraints()?;
            }
            return out.check_span().map(|()| true);
        }
        out.tidy()?;
        Ok(true)
    }

    /// Takes every `step`-th element of each dimension (negative steps flip first).
    pub(crate) fn stride(&mut self, steps: &[i64]) -> Result<bool> {
        self.check_rank("stride", steps.len())?;
        if steps.contains(&0) {
            return Err(bad("stride", format!("step 0 in {steps:?}")));
        }
        if self.is_zero() {
            // ceil(n / |step|) keeps every 0, and every other extent >= 1.
            let new: SmallVec<[i64; 8]> = (self.ext.iter().zip(steps))
                .map(|(&n, &s)| {
                    if n == 0 {
                        0
                    } else {
                        (n - 1) / s.saturating_abs() + 1
                    }
                })
                .collect();
            return self.become_zero(&new);
        }
        // Decide first (a flip changes neither extents nor windows), so that
        // `Ok(false)` leaves the view unchanged.
        let inner = |v: &View, d: usize| -> i64 {
            let r = v.dim_range(d);
            v.ext[r.start + 1..r.end].iter().product()
        };
        let expressible = steps.iter().enumerate().all(|(d, &step)| {
            let step = step.unsigned_abs();
            step == 1 || (self.window(d).is_none() && step % inner(self, d).unsigned_abs() == 0)
        });
        if !expressible {
            return Ok(false);
        }
        let flags: SmallVec<[bool; 8]> = steps.iter().map(|&s| s < 0).collect();
        self.flip(&flags)?;
        let out = self;
        for (d, &step) in steps.iter().enumerate() {
            let step = step
                .checked_abs()
                .ok_or_else(|| error::overflow("stride step"))?;
            if step == 1 {
                continue;
            }
            let r = out.dim_range(d);
            let inner = inner(out, d);
            // x = step·x' lands on the slowest leaf only: x_0 = (step/inner)·x'.
            let (k, lead) = (step / inner, r.start);
            out.ext[r.start + 1..r.end].iter_mut().for_each(|e| *e = 1);
            // ceil(n / k) without forming n + k - 1 (n >= 1).
            out.ext[lead] = (out.ext[lead] - 1) / k + 1;
            out.stride[lead] = error::mul(out.stride[lead], k, "stride")?;
            let c = out.cons();
            for a in &mut out.coeffs[lead * c..(lead + 1) * c] {
                *a = error::mul(*a, k, "stride coefficient")?;
            }
        }
        out.tidy()?;
        Ok(true)
    }

    /// Substitutes `x_k = x_k' + by`: the offset gains `by·d_k`, each constraint
    /// value `a·by` (so its bounds move by `-a·by`).
    pub(crate) fn substitute(&mut self, k: usize, by: i64) -> Result<()> {
        let moved = error::mul(by, self.stride[k], "view offset")?;
        self.offset = error::add(self.offset, moved, "view offset")?;
        let c = self.cons();
        for (bound, &a) in self.bounds.iter_mut().zip(&self.coeffs[k * c..(k + 1) * c]) {
            shift_bound(bound, error::mul(a, by, "constraint bound")?)?;
        }
        Ok(())
    }

    /// `x_k → -x_k`: negated stride and coefficients.
    fn negate_leaf(&mut self, k: usize) {
        self.stride[k] = -self.stride[k];
        let c = self.cons();
        self.coeffs[k * c..(k + 1) * c]
            .iter_mut()
            .for_each(|a| *a = -*a);
    }

    /// Appends the constraint `lo <= x_leaf < hi`.
    fn add_constraint(&mut self, leaf: usize, lo: i64, hi: i64) {
        self.add_constraints(&[(leaf, lo, hi)]);
    }

    /// Appends the constraints `lo <= x_leaf < hi`, one per `(leaf, lo, hi)`,
    /// in one widening pass: O(leaves · (constraints + rows.len())).
    fn add_constraints(&mut self, rows: &[(usize, i64, i64)]) {
        if rows.is_empty() {
            return;
        }
        let (n, c, m) = (self.ext.len(), self.cons(), rows.len());
        let w = c + m;
        // Widen each leaf's block of c coefficients to c + m, last leaf first.
        self.coeffs.resize(n * w, 0);
        let coeffs = &mut self.coeffs[..];
        for k in (0..n).rev() {
            for j in (0..c).rev() {
                coeffs[k * w + j] = coeffs[k * c + j];
            }
            coeffs[k * w + c..(k + 1) * w].fill(0);
        }
        for (j, &(leaf, lo, hi)) in rows.iter().enumerate() {
            coeffs[leaf * w + c + j] = 1;
            self.bounds.push((lo, hi));
        }
    }

    /// Fixes every leaf of dimension `d` at the digits of `x` (or empties the
    /// view when `x` is outside the leaves' range).
    fn fix_dim(&mut self, d: usize, x: i64) -> Result<()> {
        if !(0..self.radix(d)).contains(&x) {
            self.make_empty();
            return Ok(());
        }
        let mut rest = x;
        for k in self.dim_range(d).rev() {
            let digit = rest % self.ext[k];
            rest /= self.ext[k];
            self.substitute(k, digit)?;
            self.ext[k] = 1;
        }
        self.set_window(d, None);
        Ok(())
    }

    /// Turns every element invalid (the canonical empty constraint).
    pub(super) fn make_empty(&mut self) {
        self.bounds = smallvec::smallvec![(0, 0)];
        self.coeffs = SmallVec::from_elem(0, self.ext.len());
    }

    /// Replaces dimension `d`'s window by leaf-wise terms where that is exact:
    /// a window inside the range that a leaf-wise shrink can express, a window
    /// aligned to the slowest leaf's blocks, or one over a single leaf; a window
    /// that misses the range empties the view.
    pub(super) fn unwindow(&mut self, d: usize) -> Result<()> {
        let Some(w) = self.window(d) else {
            return Ok(());
        };
        let (radix, r) = (self.radix(d), self.dim_range(d));
        let (read_lo, read_hi) = (w.start, w.start + w.extent);
        if (read_lo, read_hi) == (0, radix) && (w.lo, w.hi) == (0, radix) {
            self.set_window(d, None);
            return Ok(());
        }
        if read_hi <= w.lo || read_lo >= w.hi || w.lo >= w.hi {
            // Nothing read is valid: an empty view whose dimension d is one stride-0 leaf.
            self.make_empty();
            let mut b = Builder::new(self.bounds.clone(), self.offset);
            for (dd, rr) in self.dim_ranges().enumerate() {
                if dd == d {
                    b.leaf(w.extent, 0, [0]);
                    b.end_dim(None);
                } else {
                    rr.for_each(|k| b.copy_leaf(self, k));
                    b.end_dim(self.window(dd));
                }
            }
            *self = b.finish();
            return Ok(());
        }
        if w.lo <= read_lo && read_hi <= w.hi {
            // Everything read is valid: a plain shrink, if leaf-wise.
            if self.shrink_leaves(r.clone(), read_lo, read_hi)? {
                self.set_window(d, None);
                return Ok(());
            }
        }
        let inner: i64 = self.ext[r.start + 1..r.end].iter().product();
        if [w.start, w.extent, w.lo, w.hi]
            .iter()
            .all(|v| v % inner == 0)
        {
            // Slowest leaf reads x0 = t0 + start/inner, valid iff lo/inner <= x0 < hi/inner.
            let (shift, lead) = (w.start / inner, r.start);
            self.substitute(lead, shift)?;
            self.ext[lead] = w.extent / inner;
            self.set_window(d, None);
            self.add_constraint(lead, w.lo / inner - shift, w.hi / inner - shift);
        }
        Ok(())
    }

    /// Shrinks the dimension made of leaves `r` (slowest first) to `[b, e)` of
    /// its row-major index, editing in place; `Ok(false)` (nothing edited)
    /// when that is not expressible leaf-wise.
    ///
    /// Exact when the range is aligned to the slowest leaf's blocks, or lies inside
    /// one block (then the slowest leaf is fixed and the rest recurses); otherwise
    /// returns `false`. O(leaves).
    fn shrink_leaves(&mut self, r: Range<usize>, b: i64, e: i64) -> Result<bool> {
        if !self.leafwise_shrinkable(r.clone(), b, e) {
            return Ok(false);
        }
        let (mut r, mut b, mut e) = (r, b, e);
        loop {
            let lead = r.start;
            let inner: i64 = self.ext[lead + 1..r.end].iter().product();
            let q = b / inner;
            self.substitute(lead, q)?;
            if b % inner == 0 && e % inner == 0 {
                self.ext[lead] = e / inner - q;
                return Ok(true);
            }
            self.ext[lead] = 1;
            (r, b, e) = (lead + 1..r.end, b - q * inner, e - q * inner);
        }
    }

    /// Whether [`shrink_leaves`](Self::shrink_leaves) can express `[b, e)`
    /// over leaves `r`, without editing. O(leaves).
    fn leafwise_shrinkable(&self, r: Range<usize>, b: i64, e: i64) -> bool {
        let lead = r.start;
        let inner: i64 = self.ext[lead + 1..r.end].iter().product();
        if b % inner == 0 && e % inner == 0 {
            return true;
        }
        let q = b / inner;
        q == (e - 1) / inner
            && r.len() > 1
            && self.leafwise_shrinkable(lead + 1..r.end, b - q * inner, e - q * inner)
    }
}

/// Rearranges `data` into the blocks `(start, len)` of `blocks`, in order,
/// each scaled by `unit` elements; the blocks partition `data`. O(len), no
/// allocation up to 16 elements.
fn gather_blocks(data: &mut [i64], blocks: &[(usize, usize)], unit: usize) {
    let mut inline = [0i64; 16];
    let heap;
    let old: &[i64] = if data.len() <= inline.len() {
        inline[..data.len()].copy_from_slice(data);
        &inline[..data.len()]
    } else {
        heap = data.to_vec();
        &heap
    };
    let mut at = 0;
    for &(start, len) in blocks {
        // Element by element: blocks are short, a memcpy call costs more.
        for &x in &old[start * unit..(start + len) * unit] {
            data[at] = x;
            at += 1;
        }
    }
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
