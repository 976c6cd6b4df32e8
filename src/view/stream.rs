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
        let leaves = self.leaves().filter(|l| l.extent != 1);
        let start: SmallVec<[i64; 2]> = SmallVec::from_elem(0, self.bounds.len());
        ViewOffsets {
            slow: self.has_windows().then(|| (self.clone(), 0)),
            extents: leaves.clone().map(|l| l.extent).collect(),
            strides: leaves.clone().map(|l| l.stride).collect(),
            coeffs: leaves.map(|l| l.coeffs.clone()).collect(),
            bounds: self.bounds.clone(),
            digit: self.leaves().filter(|l| l.extent != 1).map(|_| 0).collect(),
            offset: self.offset,
            values: start,
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
            let shape: SmallVec<[i64; 8]> = self.leaves().map(|l| l.extent).collect();
            let stride: SmallVec<[i64; 8]> = self.leaves().map(|l| l.stride).collect();
            return Offsets::new(&shape, &stride, self.offset).fill(out);
        }
        let mut n = 0;
        for (o, v) in out.iter_mut().zip(self.offsets()) {
            *o = v.unwrap_or(invalid);
            n += 1;
        }
        n
    }
}

impl ViewOffsets {
    fn valid(&self) -> bool {
        self.values
            .iter()
            .zip(&self.bounds)
            .all(|(v, &(lo, hi))| lo <= *v && *v < hi)
    }

    fn advance(&mut self) {
        for k in (0..self.extents.len()).rev() {
            self.digit[k] += 1;
            self.offset += self.strides[k];
            for (v, a) in self.values.iter_mut().zip(&self.coeffs[k]) {
                *v += a;
            }
            if self.digit[k] < self.extents[k] {
                return;
            }
            let n = self.extents[k];
            self.offset -= self.strides[k] * n;
            for (v, a) in self.values.iter_mut().zip(&self.coeffs[k]) {
                *v -= a * n;
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
