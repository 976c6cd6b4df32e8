//! Offset streams of a view: every element in row-major order, incrementally.
//!
//! An odometer over the leaves keeps the offset and each constraint's value as
//! running sums: stepping a leaf adds its stride and coefficients, a carry
//! subtracts them times the extent. No division or remainder per element;
//! amortised O(1 + constraints) per element. A view without constraints uses the
//! layout stream ([`crate::Offsets`]), whose innermost run is a plain loop.
//! [`View::fill_offsets`] writes a constrained view block by block: the first
//! block, tabulated by doubling into the output, is the template of the others,
//! and validity is applied per block (fixed holes patched, whole blocks inside
//! or outside a constraint decided at once); long innermost runs are written
//! run by run. A view with a windowed dimension is evaluated element by element
//! (division per leaf, no heap).

use smallvec::SmallVec;

use super::{unravel, View, ViewStack};
use crate::layout::Offsets;

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
            slow: self
                .has_windows()
                .then(|| (Evaluated::Windowed(Box::new(self.clone())), 0)),
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
    /// [`View::size`] entries; returns how many were written (fewer when `out`
    /// is shorter: its length). O(n) for `n` written, with no heap for ≤ 8
    /// leaves and ≤ 2 constraints; a view with a windowed dimension is
    /// evaluated element by element (`View::eval_index`), O(n·leaves), no
    /// heap for ≤ 8 leaves.
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

    /// Blocked fill for short innermost runs. The trailing leaves whose product
    /// is at most [`BLOCK`] form a block. The first block's offsets are
    /// tabulated by doubling straight into `out` (no table of its own); every
    /// other block is that template plus its outer leaves' shift, one
    /// vectorisable add-copy. Validity is then applied per block by
    /// [`BlockChecks`]. `None` (use the run-wise fill) when the innermost leaf
    /// alone exceeds the block, there are more than [`BLOCK_CONSTRAINTS`]
    /// constraints or more than [`MAX_OUTER`] outer leaves, or `out` holds less
    /// than one block.
    ///
    /// O(n + BLOCK·constraints) time for `n` elements, O(BLOCK·constraints)
    /// stack, no heap.
    fn fill_blocked(&self, out: &mut [i64], invalid: i64) -> Option<usize> {
        let it = self.offsets();
        let (k0, size) = block_split(&it.extents)?;
        let want = out.len().min(usize::try_from(it.remaining).ok()?);
        if k0 > MAX_OUTER || it.bounds.len() > BLOCK_CONSTRAINTS || want < size {
            return None;
        }
        let (template, rest) = out[..want].split_at_mut(size);
        tabulate(
            template,
            &it.extents[k0..],
            |k| it.strides[k0 + k],
            it.offset,
        );
        let mut rel = [[0i64; BLOCK]; BLOCK_CONSTRAINTS];
        let checks = BlockChecks::new(&it, k0, size, &mut rel);
        let mut outer = OuterOdometer::new(&it, k0);
        for chunk in rest.chunks_mut(size) {
            outer.step(&it);
            checks.write(chunk, template, (outer.shift, &outer.values), invalid);
        }
        checks.apply(template, &it.values, invalid);
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

/// The first leaf of the trailing block and the block's size: the longest
/// run of trailing leaves whose product is at most [`BLOCK`]. `None` when the
/// innermost leaf alone exceeds it (or there are no leaves). O(leaves).
fn block_split(extents: &[i64]) -> Option<(usize, usize)> {
    let mut k0 = extents.len();
    let mut size = 1usize;
    while k0 > 0 {
        let next = size.checked_mul(usize::try_from(extents[k0 - 1]).ok()?)?;
        if next > BLOCK {
            break;
        }
        (k0, size) = (k0 - 1, next);
    }
    (k0 < extents.len()).then_some((k0, size))
}

/// Fills `table` with `start + Σ_k x_k·weight(k)` over the row-major positions
/// `x` of leaves with these `extents` (`table` holds their product), by
/// doubling: fastest leaf first, each leaf repeats the prefix built so far
/// shifted by its weight, copying 1, 2, 4, … prefix-sized runs at a time.
///
/// Every value written is a partial sum of the terms of a full sum that fits
/// `i64` (the callers' views guarantee it), so nothing overflows.
/// O(len + Σ log extents) element operations, all in vectorisable add-copies.
fn tabulate(table: &mut [i64], extents: &[i64], weight: impl Fn(usize) -> i64, start: i64) {
    table[0] = start;
    let mut filled = 1usize;
    for (k, &e) in extents.iter().enumerate().rev() {
        let (e, w) = (usize::try_from(e).unwrap_or(1), weight(k));
        let mut copies = 1usize;
        while copies < e {
            let n = copies.min(e - copies) * filled;
            let (done, next) = table.split_at_mut(copies * filled);
            let shift = copies as i64 * w;
            for (t, &s) in next[..n].iter_mut().zip(&done[..n]) {
                *t = s + shift;
            }
            copies += copies.min(e - copies);
        }
        filled *= e;
    }
}

/// The outer leaves `..k0` of a blocked fill: an odometer carrying the block's
/// offset shift (relative to the first block) and constraint values.
struct OuterOdometer {
    digit: [i64; MAX_OUTER],
    shift: i64,
    values: SmallVec<[i64; 2]>,
    k0: usize,
}

impl OuterOdometer {
    /// At the first block. O(constraints).
    fn new(it: &ViewOffsets, k0: usize) -> OuterOdometer {
        OuterOdometer {
            digit: [0; MAX_OUTER],
            shift: 0,
            values: it.values.clone(),
            k0,
        }
    }

    /// Moves to the next block; amortised O(constraints). Each digit wraps
    /// (moving back `(e-1)·stride`) before carrying, so every intermediate
    /// shift and value is a partial sum of the view's, which fits `i64`.
    #[inline]
    fn step(&mut self, it: &ViewOffsets) {
        for k in (0..self.k0).rev() {
            if self.digit[k] + 1 < it.extents[k] {
                self.digit[k] += 1;
                self.shift += it.strides[k];
                for (v, a) in self.values.iter_mut().zip(&it.coeffs[k]) {
                    *v += a;
                }
                return;
            }
            let back = it.extents[k] - 1;
            self.digit[k] = 0;
            self.shift -= it.strides[k] * back;
            for (v, a) in self.values.iter_mut().zip(&it.coeffs[k]) {
                *v -= a * back;
            }
        }
    }
}

/// Where the constraints blind to the outer leaves fail inside every block.
enum FixedHoles {
    /// Nowhere.
    None,
    /// At these few positions.
    Few(SmallVec<[u16; MAX_HOLES]>),
    /// Wherever this row of the tables is 0 (a lane mask: -1 valid, 0 not).
    Mask(usize),
}

/// The validity of a blocked fill's blocks. A constraint blind to the outer
/// leaves ("fixed") fails at the same positions in every block; the others
/// ("varying") are tested per block against their range over the block, and
/// element by element only where that range crosses a bound.
struct BlockChecks<'a> {
    bounds: &'a [(i64, i64)],
    /// Per constraint, its value at each position relative to the block's start
    /// (rows of fixed constraints are consumed to build the fixed mask).
    rel: &'a [[i64; BLOCK]; BLOCK_CONSTRAINTS],
    varying: SmallVec<[usize; BLOCK_CONSTRAINTS]>,
    /// Per constraint, the least and greatest relative value over the block.
    reach: SmallVec<[(i64, i64); BLOCK_CONSTRAINTS]>,
    fixed: FixedHoles,
}

impl<'a> BlockChecks<'a> {
    /// Tabulates each constraint over the block (leaves `k0..`, `size`
    /// positions) into `rel`, and folds the fixed ones into [`FixedHoles`].
    /// O(size·constraints).
    fn new(
        it: &'a ViewOffsets,
        k0: usize,
        size: usize,
        rel: &'a mut [[i64; BLOCK]; BLOCK_CONSTRAINTS],
    ) -> BlockChecks<'a> {
        let inner = &it.extents[k0..];
        let cons = it.bounds.len();
        for (c, row) in rel.iter_mut().enumerate().take(cons) {
            tabulate(&mut row[..size], inner, |k| it.coeffs[k0 + k][c], 0);
        }
        let varying: SmallVec<[usize; BLOCK_CONSTRAINTS]> = (0..cons)
            .filter(|&c| it.coeffs[..k0].iter().any(|a| a[c] != 0))
            .collect();
        let reach = (0..cons).map(|c| block_reach(it, k0, c)).collect();
        let fixed = fixed_holes(it, (k0, size), &varying, &mut rel[..]);
        let rel: &'a [[i64; BLOCK]; BLOCK_CONSTRAINTS] = rel;
        BlockChecks {
            bounds: &it.bounds,
            rel,
            varying,
            reach,
            fixed,
        }
    }

    /// Writes one block other than the first (or its first `out.len()`
    /// positions): `template` shifted by `shift`, where valid given the
    /// block's constraint values `vals`. O(out.len()·(1 + checks needed)).
    fn write(&self, out: &mut [i64], template: &[i64], (shift, vals): (i64, &[i64]), invalid: i64) {
        if self.misses_all(vals) {
            out.fill(invalid);
            return;
        }
        for (o, &t) in out.iter_mut().zip(template) {
            *o = t + shift;
        }
        self.mask(out, vals, invalid);
    }

    /// Applies validity to the first block, already holding its offsets. O(size·checks).
    fn apply(&self, block: &mut [i64], vals: &[i64], invalid: i64) {
        if self.misses_all(vals) {
            block.fill(invalid);
        } else {
            self.mask(block, vals, invalid);
        }
    }

    /// Whether some varying constraint fails at every position of the block. O(constraints).
    fn misses_all(&self, vals: &[i64]) -> bool {
        self.varying.iter().any(|&c| {
            let ((lo, hi), v, (min, max)) = (self.bounds[c], vals[c], self.reach[c]);
            v + max < lo || v + min >= hi
        })
    }

    /// Overwrites with `invalid` every position of `out` (a block's prefix of
    /// offsets) where a constraint fails. Branch-free select passes, one per
    /// varying constraint whose range crosses a bound, then the fixed holes.
    fn mask(&self, out: &mut [i64], vals: &[i64], invalid: i64) {
        let n = out.len();
        for &c in &self.varying {
            let ((lo, hi), v, (min, max)) = (self.bounds[c], vals[c], self.reach[c]);
            if lo <= v + min && v + max < hi {
                continue; // this block cannot break it
            }
            let test = RangeTest::new((lo, hi), v, (min, max));
            for (o, &r) in out.iter_mut().zip(&self.rel[c][..n]) {
                *o = select(test.mask(r), *o, invalid);
            }
        }
        match &self.fixed {
            FixedHoles::None => {}
            FixedHoles::Few(holes) => {
                for &j in holes.iter().filter(|&&j| usize::from(j) < n) {
                    out[usize::from(j)] = invalid;
                }
            }
            FixedHoles::Mask(row) => {
                for (o, &m) in out.iter_mut().zip(&self.rel[*row][..n]) {
                    *o = select(m, *o, invalid);
                }
            }
        }
    }
}

/// `a` where the lane mask `m` is -1, `b` where it is 0: bitwise, so exact
/// for any values, and vectorisable.
#[inline]
fn select(m: i64, a: i64, b: i64) -> i64 {
    (a & m) | (b & !m)
}

/// The least and greatest value of constraint `c`'s terms over leaves `k0..`:
/// each leaf contributes `min(0, a·(e-1))` and `max(0, a·(e-1))`. Every partial
/// sum lies within the constraint's reach, which canonical constraints keep
/// inside `i64`. O(leaves).
fn block_reach(it: &ViewOffsets, k0: usize, c: usize) -> (i64, i64) {
    it.extents[k0..]
        .iter()
        .zip(&it.coeffs[k0..])
        .fold((0, 0), |(min, max), (&e, a)| {
            let span = a[c] * (e - 1);
            (min + span.min(0), max + span.max(0))
        })
}

/// Turns the rows of `rel` of the fixed constraints (all but `varying`) into
/// one validity mask, in the first fixed row, and lists its holes when there
/// are at most [`MAX_HOLES`]. A fixed constraint's value at a block's start is
/// its value at the stream's start. O(size·constraints).
fn fixed_holes(
    it: &ViewOffsets,
    (k0, size): (usize, usize),
    varying: &[usize],
    rel: &mut [[i64; BLOCK]],
) -> FixedHoles {
    let mut fixed = (0..it.bounds.len()).filter(|c| !varying.contains(c));
    let Some(first) = fixed.next() else {
        return FixedHoles::None;
    };
    for c in std::iter::once(first).chain(fixed) {
        let test = RangeTest::new(it.bounds[c], it.values[c], block_reach(it, k0, c));
        if c == first {
            // The first fixed row becomes the mask.
            rel[c][..size].iter_mut().for_each(|r| *r = test.mask(*r));
        } else {
            let (head, tail) = rel.split_at_mut(c);
            for (m, &r) in head[first][..size].iter_mut().zip(&tail[0][..size]) {
                *m &= test.mask(r);
            }
        }
    }
    let mask = &rel[first][..size];
    let mut holes = SmallVec::new();
    for (j, _) in (0u16..).zip(mask).filter(|&(_, &m)| m == 0) {
        if holes.len() == MAX_HOLES {
            return FixedHoles::Mask(first);
        }
        holes.push(j);
    }
    match holes.is_empty() {
        true => FixedHoles::None,
        false => FixedHoles::Few(holes),
    }
}

/// The test `lo <= v + r < hi` of a constraint with value `v` at a block's
/// start, over the block's relative values `r`.
#[derive(Clone, Copy)]
enum RangeTest {
    /// `a <= r <= b`, read off the sign of `(r - a) | (b - r)`: one subtraction
    /// per bound, no comparison (64-bit comparisons are slow in SIMD).
    Shifted { a: i64, b: i64 },
    /// The two comparisons, when a shifted form could overflow.
    Direct { lo: i64, hi: i64, v: i64 },
}

impl RangeTest {
    /// The test for bounds `[lo, hi)` (`lo < hi`, as canonical constraints
    /// have) and value `v`, relative values within `reach`. The shifted form
    /// is used only when `r - a` and `b - r` fit `i64` at both ends of `reach`,
    /// hence everywhere in it (they are monotone in `r`). O(1).
    fn new((lo, hi): (i64, i64), v: i64, (min, max): (i64, i64)) -> RangeTest {
        let shifted = || {
            let (a, b) = (lo.checked_sub(v)?, hi.checked_sub(1)?.checked_sub(v)?);
            min.checked_sub(a)?;
            max.checked_sub(a)?;
            b.checked_sub(min)?;
            b.checked_sub(max)?;
            Some(RangeTest::Shifted { a, b })
        };
        shifted().unwrap_or(RangeTest::Direct { lo, hi, v })
    }

    /// -1 where the test holds at relative value `r` (within the reach given
    /// to [`RangeTest::new`]), 0 elsewhere. O(1).
    #[inline]
    fn mask(self, r: i64) -> i64 {
        match self {
            RangeTest::Shifted { a, b } => !((r - a) | (b - r)) >> 63,
            RangeTest::Direct { lo, hi, v } => -i64::from((lo <= v + r) & (v + r < hi)),
        }
    }
}

/// Elements per tabulated block in [`View::fill_offsets`].
const BLOCK: usize = 1024;

/// Most constraints the blocked fill tabulates.
const BLOCK_CONSTRAINTS: usize = 2;

/// Most outer leaves (outside the block) the blocked fill steps through.
const MAX_OUTER: usize = 64;

/// Most fixed holes per block patched one by one rather than by a mask pass.
const MAX_HOLES: usize = 32;

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

impl ViewOffsets {
    /// The elements of a stack of two or more views, each evaluated through
    /// every view. O(size · views · leaves) in all.
    pub(crate) fn of_stack(stack: &ViewStack) -> ViewOffsets {
        let mut it = stack.views()[0].offsets();
        it.remaining = stack.shape().iter().product();
        it.slow = Some((Evaluated::Stacked(stack.clone()), 0));
        it
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

#[cfg(test)]
mod tests {
    use super::RangeTest;

    /// Both forms of the range test agree with the two comparisons at and near
    /// the ends of `i64`, where the shifted form must give way to the direct one.
    #[test]
    fn range_test_matches_comparisons_at_extremes() {
        let edges = [
            i64::MIN,
            i64::MIN + 1,
            -7,
            -1,
            0,
            1,
            7,
            i64::MAX - 1,
            i64::MAX,
        ];
        let mut shifted = 0;
        for code in 0..edges.len().pow(5) {
            let pick = |k: u32| edges[code / edges.len().pow(k) % edges.len()];
            let (lo, hi, v, min, max) = (pick(0), pick(1), pick(2), pick(3), pick(4));
            let fits = v.checked_add(min).is_some() && v.checked_add(max).is_some();
            if lo >= hi || min > max || !fits {
                continue;
            }
            let test = RangeTest::new((lo, hi), v, (min, max));
            shifted += usize::from(matches!(test, RangeTest::Shifted { .. }));
            let probes = [
                min,
                max,
                min / 2 + max / 2,
                lo.saturating_sub(v),
                hi.saturating_sub(v),
            ];
            for r in probes
                .into_iter()
                .flat_map(|r| [r.saturating_sub(1), r, r.saturating_add(1)])
            {
                if (min..=max).contains(&r) {
                    let want = -i64::from(lo <= v + r && v + r < hi);
                    assert_eq!(
                        test.mask(r),
                        want,
                        "lo {lo} hi {hi} v {v} r {r} reach {min}..={max}"
                    );
                }
            }
        }
        assert!(shifted > 100, "the shifted form ran only {shifted} times");
    }
}
