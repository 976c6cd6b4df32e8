//! Offset streams of a view: every element in row-major order, incrementally.
//!
//! An odometer over the leaves keeps the offset and each constraint's value as
//! running sums: stepping a leaf adds its stride and coefficients, a carry
//! subtracts them times the extent. No division or remainder per element;
//! amortised O(1 + constraints) per element. A view without constraints uses the
//! layout stream ([`crate::Offsets`]), whose innermost run is a plain loop. A
//! view with a windowed dimension is evaluated element by element.

use smallvec::SmallVec;

use super::View;
use crate::offsets::Offsets;

/// Iterator over a view's elements: `Some(offset)` or `None` where invalid.
///
/// ```
/// let s = hlayout::ViewStack::new(&[3]).unwrap().pad(&[(1, 0)]).unwrap();
/// let all: Vec<Option<i64>> = s.views()[0].offsets().collect();
/// assert_eq!(all, [None, Some(0), Some(1), Some(2)]);
/// ```
#[derive(Clone, Debug)]
pub struct ViewOffsets {
    /// Set for views with windowed dimensions: evaluated per element.
    slow: Option<(View, i64)>,
    extents: SmallVec<[i64; 8]>,
    strides: SmallVec<[i64; 8]>,
    /// Per leaf, its coefficient in each constraint.
    coeffs: SmallVec<[SmallVec<[i64; 2]>; 8]>,
    bounds: SmallVec<[(i64, i64); 2]>,
    digit: SmallVec<[i64; 8]>,
    offset: i64,
    values: SmallVec<[i64; 2]>,
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
        let kept = || (0..self.ext.len()).filter(|&k| self.ext[k] != 1);
        ViewOffsets {
            slow: self.has_windows().then(|| (self.clone(), 0)),
            extents: kept().map(|k| self.ext[k]).collect(),
            strides: kept().map(|k| self.stride[k]).collect(),
            coeffs: kept()
                .map(|k| SmallVec::from_slice(self.leaf_coeffs(k)))
                .collect(),
            bounds: self.bounds.clone(),
            digit: kept().map(|_| 0).collect(),
            offset: self.offset,
            values: SmallVec::from_elem(0, self.cons()),
            remaining: self.size(),
        }
    }

    /// Writes every element's offset (or `invalid`) into `out`, which must hold
    /// [`View::size`] entries; returns how many were written.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[2, 3]).unwrap().permute(&[1, 0]).unwrap();
    /// let mut buf = [0i64; 6];
    /// assert_eq!(s.views()[0].fill_offsets(&mut buf, -1), 6);
    /// assert_eq!(buf, [0, 3, 1, 4, 2, 5]);
    /// ```
    pub fn fill_offsets(&self, out: &mut [i64], invalid: i64) -> usize {
        if self.bounds.is_empty() && !self.has_windows() {
            return Offsets::new(&self.ext, &self.stride, self.offset).fill(out);
        }
        if self.has_windows() {
            let mut n = 0;
            for (o, v) in out.iter_mut().zip(self.offsets()) {
                *o = v.unwrap_or(invalid);
                n += 1;
            }
            return n;
        }
        match self.fill_blocked(out, invalid) {
            Some(n) => n,
            None => self.fill_constrained(out, invalid),
        }
    }

    /// Blocked fill for short innermost runs: the trailing leaves whose product
    /// is at most [`BLOCK`] form a block whose relative offsets and constraint
    /// values are tabulated once (on the stack, [`Block`]); each block is then
    /// written from the outer position's base with no division and no carry
    /// inside it. `None` when the innermost leaf alone exceeds the block (runs
    /// are long: use the run-wise fill) or there are more than
    /// [`BLOCK_CONSTRAINTS`] constraints.
    fn fill_blocked(&self, out: &mut [i64], invalid: i64) -> Option<usize> {
        let it = self.offsets();
        let leaves = it.extents.len();
        let mut k0 = leaves;
        let mut size = 1usize;
        while k0 > 0 && size * usize::try_from(it.extents[k0 - 1]).ok()? <= BLOCK {
            k0 -= 1;
            size *= usize::try_from(it.extents[k0]).ok()?;
        }
        if k0 == leaves || k0 > 64 || it.bounds.len() > BLOCK_CONSTRAINTS {
            return None;
        }
        let block = Block::new(&it, k0, size);
        let want = out.len().min(usize::try_from(it.remaining).ok()?);
        let mut outer = [0i64; 64];
        let (mut base, mut vals) = (it.offset, it.values.clone());
        let (mut written, mut scratch) = (0, [0i64; BLOCK]);
        while written < want {
            let n = size.min(want - written);
            let chunk = &mut out[written..written + n];
            block.write(chunk, &mut scratch, (base, &vals), &it.bounds, invalid);
            written += n;
            // Step the outer odometer, moving base and constraint values with it.
            for k in (0..k0).rev() {
                if outer[k] + 1 < it.extents[k] {
                    outer[k] += 1;
                    base += it.strides[k];
                    vals.iter_mut()
                        .zip(&it.coeffs[k])
                        .for_each(|(v, a)| *v += a);
                    break;
                }
                let back = it.extents[k] - 1;
                outer[k] = 0;
                base -= it.strides[k] * back;
                vals.iter_mut()
                    .zip(&it.coeffs[k])
                    .for_each(|(v, a)| *v -= a * back);
            }
        }
        Some(want)
    }

    /// Run-wise fill: an odometer over all leaves but the innermost; along the
    /// innermost run, each constraint `lo <= v + j·a < hi` holds on an interval
    /// of `j` computed once per run, so the run is written as three plain loops.
    fn fill_constrained(&self, out: &mut [i64], invalid: i64) -> usize {
        let mut it = self.offsets();
        let Some(last) = it.extents.len().checked_sub(1) else {
            return out
                .iter_mut()
                .zip(it)
                .map(|(o, v)| *o = v.unwrap_or(invalid))
                .count();
        };
        let want = out.len().min(usize::try_from(it.remaining).unwrap_or(0));
        let run = usize::try_from(it.extents[last]).unwrap_or(0);
        let (d, inner) = (it.strides[last], it.coeffs[last].clone());
        let mut written = 0;
        while written + run <= want {
            let (mut lo_j, mut hi_j) = (0i64, it.extents[last]);
            for ((&v, &(lo, hi)), &a) in it.values.iter().zip(&it.bounds).zip(&inner) {
                let (l, h) = run_interval(v, a, lo, hi);
                lo_j = lo_j.max(l);
                hi_j = hi_j.min(h);
            }
            let chunk = &mut out[written..written + run];
            let (lo_j, hi_j) = (
                lo_j.clamp(0, run as i64) as usize,
                hi_j.clamp(0, run as i64) as usize,
            );
            let hi_j = hi_j.max(lo_j);
            chunk[..lo_j].fill(invalid);
            for (j, o) in (lo_j as i64..).zip(&mut chunk[lo_j..hi_j]) {
                *o = it.offset + j * d;
            }
            chunk[hi_j..].fill(invalid);
            written += run;
            it.skip_run(last);
        }
        for o in &mut out[written..want] {
            *o = it.next().flatten().unwrap_or(invalid);
        }
        want
    }
}

/// The trailing leaves `k0..` of a stream, tabulated: each element's offset and
/// constraint values relative to the block's start, and the validity pattern
/// of the constraints blind to the outer leaves (the same for every block).
struct Block {
    size: usize,
    rel: [i64; BLOCK],
    rel_c: [[i64; BLOCK]; BLOCK_CONSTRAINTS],
    /// Validity as lane masks (-1 valid, 0 not), so every pass vectorises.
    fixed: [i64; BLOCK],
    /// The invalid positions of `fixed`, when few (else `None`).
    holes: Option<SmallVec<[u16; 32]>>,
    /// Which constraints depend on the outer leaves, and each one's range over the block.
    varies: SmallVec<[bool; 4]>,
    reach: SmallVec<[(i64, i64); 4]>,
}

impl Block {
    /// Tabulates leaves `k0..` of `it` (`size` elements, at most [`BLOCK`]).
    fn new(it: &ViewOffsets, k0: usize, size: usize) -> Block {
        let (leaves, cons) = (it.extents.len(), it.bounds.len());
        let (mut rel, mut rel_c) = ([0i64; BLOCK], [[0i64; BLOCK]; BLOCK_CONSTRAINTS]);
        // By doubling, fastest leaf first: each slower leaf repeats the prefix
        // tabulated so far, shifted by its stride (and coefficients).
        let mut filled = 1usize;
        for k in (k0..leaves).rev() {
            let extent = usize::try_from(it.extents[k]).unwrap_or(0);
            for copy in 1..extent {
                let at = copy * filled;
                let step = copy as i64;
                rel.copy_within(0..filled, at);
                rel[at..at + filled]
                    .iter_mut()
                    .for_each(|r| *r += step * it.strides[k]);
                for (c, row) in rel_c.iter_mut().enumerate().take(cons) {
                    row.copy_within(0..filled, at);
                    let a = step * it.coeffs[k][c];
                    row[at..at + filled].iter_mut().for_each(|r| *r += a);
                }
            }
            filled *= extent;
        }
        debug_assert_eq!(filled, size);
        let varies: SmallVec<[bool; 4]> = (0..cons)
            .map(|c| it.coeffs[..k0].iter().any(|a| a[c] != 0))
            .collect();
        let mut fixed = [-1i64; BLOCK];
        for c in (0..cons).filter(|&c| !varies[c]) {
            let (v, (lo, hi)) = (it.values[c], it.bounds[c]);
            for (m, &r) in fixed[..size].iter_mut().zip(&rel_c[c][..size]) {
                *m &= -i64::from((lo <= v + r) & (v + r < hi));
            }
        }
        let holes = (fixed[..size].iter().filter(|&&m| m == 0).count() <= 32).then(|| {
            (0..size)
                .filter(|&j| fixed[j] == 0)
                .map(|j| j as u16)
                .collect()
        });
        let reach = (0..cons)
            .map(|c| {
                let row = &rel_c[c][..size];
                (
                    row.iter().copied().min().unwrap_or(0),
                    row.iter().copied().max().unwrap_or(0),
                )
            })
            .collect();
        Block {
            size,
            rel,
            rel_c,
            fixed,
            holes,
            varies,
            reach,
        }
    }

    /// Writes one block (or its first `out.len()` elements) at offset `base`
    /// with constraint values `vals`; `ok` is scratch space for validity masks.
    fn write(
        &self,
        out: &mut [i64],
        ok: &mut [i64; BLOCK],
        (base, vals): (i64, &[i64]),
        bounds: &[(i64, i64)],
        invalid: i64,
    ) {
        let n = out.len();
        let mut own = false;
        for c in (0..bounds.len()).filter(|&c| self.varies[c]) {
            let ((lo, hi), v, (min, max)) = (bounds[c], vals[c], self.reach[c]);
            if lo <= v + min && v + max < hi {
                continue; // this block cannot break it
            }
            if !own {
                ok[..n].copy_from_slice(&self.fixed[..n]);
                own = true;
            }
            for (m, &r) in ok[..n].iter_mut().zip(&self.rel_c[c][..n]) {
                *m &= -i64::from((lo <= v + r) & (v + r < hi));
            }
        }
        match (&self.holes, own) {
            (Some(holes), false) => {
                // Few fixed holes: a plain add-copy, then patch them.
                for (o, &r) in out.iter_mut().zip(&self.rel[..n]) {
                    *o = base + r;
                }
                for &j in holes.iter().filter(|&&j| usize::from(j) < n) {
                    out[usize::from(j)] = invalid;
                }
            }
            _ => {
                let masks = if own { &ok[..n] } else { &self.fixed[..n] };
                // invalid + ((offset - invalid) & mask): exact in wrapping
                // arithmetic, since the result is one of two representable values.
                for ((o, &r), &m) in out.iter_mut().zip(&self.rel[..n]).zip(masks) {
                    *o = invalid.wrapping_add((base + r).wrapping_sub(invalid) & m);
                }
            }
        }
        debug_assert!(n <= self.size);
    }
}

/// Elements per tabulated block in [`View::fill_offsets`].
const BLOCK: usize = 1024;

/// Most constraints the blocked fill tabulates.
const BLOCK_CONSTRAINTS: usize = 2;

/// The `j` with `lo <= v + j·a < hi`, as a half-open interval (possibly empty or unbounded).
fn run_interval(v: i64, a: i64, lo: i64, hi: i64) -> (i64, i64) {
    use num_integer::Integer;
    match a {
        0 if lo <= v && v < hi => (i64::MIN, i64::MAX),
        0 => (0, 0),
        // Unit coefficients (pads, conv windows) need no division.
        1 => (lo - v, hi - v),
        -1 => (v - hi + 1, v - lo + 1),
        a if a > 0 => (
            Integer::div_ceil(&(lo - v), &a),
            Integer::div_ceil(&(hi - v), &a),
        ),
        a => {
            let b = -a;
            (
                Integer::div_floor(&(v - hi), &b) + 1,
                Integer::div_floor(&(v - lo), &b) + 1,
            )
        }
    }
}

impl ViewOffsets {
    /// Moves past one whole innermost run (the odometer sits at its start).
    fn skip_run(&mut self, last: usize) {
        let n = self.extents[last];
        self.remaining -= n;
        if self.remaining > 0 {
            self.digit[last] = n - 1;
            self.offset += self.strides[last] * (n - 1);
            for (v, a) in self.values.iter_mut().zip(&self.coeffs[last]) {
                *v += a * (n - 1);
            }
            self.advance();
        }
    }

    fn valid(&self) -> bool {
        self.values
            .iter()
            .zip(&self.bounds)
            .all(|(v, &(lo, hi))| lo <= *v && *v < hi)
    }

    fn advance(&mut self) {
        // Wrap before carrying, so every intermediate value stays in range.
        for k in (0..self.extents.len()).rev() {
            if self.digit[k] + 1 < self.extents[k] {
                self.digit[k] += 1;
                self.offset += self.strides[k];
                for (v, a) in self.values.iter_mut().zip(&self.coeffs[k]) {
                    *v += a;
                }
                return;
            }
            let back = self.extents[k] - 1;
            self.offset -= self.strides[k] * back;
            for (v, a) in self.values.iter_mut().zip(&self.coeffs[k]) {
                *v -= a * back;
            }
            self.digit[k] = 0;
        }
    }
}

impl Iterator for ViewOffsets {
    type Item = Option<i64>;

    fn next(&mut self) -> Option<Option<i64>> {
        if self.remaining <= 0 {
            return None;
        }
        if let Some((view, i)) = &mut self.slow {
            let shape = view.shape();
            let mut c = vec![0; shape.len()];
            let mut rest = *i;
            for (x, &s) in c.iter_mut().zip(&shape).rev() {
                *x = rest % s;
                rest /= s;
            }
            *i += 1;
            self.remaining -= 1;
            return Some(view.eval(&c).ok().flatten());
        }
        let out = self.valid().then_some(self.offset);
        self.remaining -= 1;
        if self.remaining > 0 {
            self.advance();
        }
        Some(out)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::try_from(self.remaining).unwrap_or(usize::MAX);
        (n, Some(n))
    }
}

impl ExactSizeIterator for ViewOffsets {}
