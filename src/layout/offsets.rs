//! Offset streams: every offset of a strided map in row-major order, with no
//! division or remainder per element.
//!
//! [`Offsets`] is an odometer over the leaves: the last digit advances by its
//! stride; when it wraps, the carry moves one digit left. Amortised O(1) per
//! element. [`Offsets::fill`] writes a whole buffer with the innermost run as a
//! tight loop, which is what kernel generators and benchmarks want.
//!
//! ```
//! use hlayout::Layout;
//! let l: Layout = "(2,3):(1,2)".parse().unwrap();
//! assert_eq!(l.offsets().collect::<Vec<_>>(), [0, 2, 4, 1, 3, 5]);
//! let mut buf = [0i64; 6];
//! l.offsets().fill(&mut buf);
//! assert_eq!(buf, [0, 2, 4, 1, 3, 5]);
//! ```

use smallvec::SmallVec;

/// Iterator over `base + Σ digit_k · stride_k` in row-major order of the digits.
///
/// Built by [`Layout::offsets`](crate::Layout::offsets), which coalesces first so
/// the innermost run is as long as possible.
///
/// ```
/// let l: hlayout::Layout = "(2,2):(10,1)".parse().unwrap();
/// assert_eq!(l.offsets().len(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct Offsets {
    shape: SmallVec<[i64; 8]>,
    stride: SmallVec<[i64; 8]>,
    digit: SmallVec<[i64; 8]>,
    current: i64,
    remaining: i64,
}

impl Offsets {
    /// An odometer over `shape` (extents >= 1) with `stride`, starting at `base`.
    ///
    /// Extent-1 leaves are skipped. The caller guarantees that every offset fits `i64`.
    pub(crate) fn new(shape: &[i64], stride: &[i64], base: i64) -> Offsets {
        let keep = |(&s, _): &(&i64, &i64)| s != 1;
        let pairs = || shape.iter().zip(stride).filter(keep);
        let remaining = shape.iter().product();
        Offsets {
            shape: pairs().map(|(&s, _)| s).collect(),
            stride: pairs().map(|(_, &d)| d).collect(),
            digit: pairs().map(|_| 0).collect(),
            current: base,
            remaining,
        }
    }

    fn at_start(&self) -> bool {
        self.digit.iter().all(|&d| d == 0)
    }

    /// Writes the whole stream without an odometer: the fastest leaf's run is an
    /// arithmetic sequence, and each slower leaf `k` repeats the prefix built so
    /// far `s_k` times, shifted by `c·d_k`. Every element costs one vectorisable
    /// add-copy. O(size).
    fn fill_by_doubling(&self, out: &mut [i64]) {
        out[0] = self.current;
        let mut filled = 1usize;
        for (&s, &d) in self.shape.iter().zip(&self.stride).rev() {
            let extent = usize::try_from(s).unwrap_or(0);
            for c in 1..extent {
                let (src, dst) = out.split_at_mut(filled * c);
                let shift = c as i64 * d;
                for (o, &v) in dst[..filled].iter_mut().zip(&src[..filled]) {
                    *o = v + shift;
                }
            }
            filled *= extent;
        }
    }

    /// Moves the odometer one step (only called while elements remain).
    #[inline]
    fn advance(&mut self) {
        // Every intermediate offset stays inside the layout's span: a digit at
        // its last value wraps to 0 (moving back (s-1)·d) before the carry.
        for k in (0..self.shape.len()).rev() {
            if self.digit[k] + 1 < self.shape[k] {
                self.digit[k] += 1;
                self.current += self.stride[k];
                return;
            }
            self.current -= self.stride[k] * (self.shape[k] - 1);
            self.digit[k] = 0;
        }
    }

    /// Writes the next `out.len()` offsets into `out` (fewer if the stream ends)
    /// and returns how many were written. The innermost leaf runs as a plain loop.
    ///
    /// ```
    /// let l: hlayout::Layout = "(3,2):(1,3)".parse().unwrap();
    /// let mut buf = [0i64; 4];
    /// let mut it = l.offsets();
    /// assert_eq!(it.fill(&mut buf), 4);
    /// assert_eq!(buf, [0, 3, 1, 4]);
    /// ```
    pub fn fill(&mut self, out: &mut [i64]) -> usize {
        let want = out
            .len()
            .min(usize::try_from(self.remaining).unwrap_or(usize::MAX));
        if want > 0 && want == usize::try_from(self.remaining).unwrap_or(0) && self.at_start() {
            self.fill_by_doubling(&mut out[..want]);
            self.remaining = 0;
            return want;
        }
        let Some(last) = self.shape.len().checked_sub(1) else {
            // Rank 0 after dropping extent-1 leaves: a single element.
            if want > 0 {
                out[0] = self.current;
                self.remaining = 0;
                return 1;
            }
            return 0;
        };
        let (s, d) = (self.shape[last], self.stride[last]);
        let mut written = 0usize;
        while written < want {
            // Finish the current innermost run in one tight loop.
            let run = usize::try_from(s - self.digit[last])
                .unwrap_or(0)
                .min(want - written);
            let start = self.current;
            for (j, o) in (0i64..).zip(&mut out[written..written + run]) {
                *o = start + j * d;
            }
            written += run;
            self.remaining -= run as i64;
            // Step to the last element of the run, then advance once past it.
            self.digit[last] += run as i64 - 1;
            self.current = start + (run as i64 - 1) * d;
            if self.remaining > 0 {
                self.advance();
            }
        }
        written
    }
}

impl Iterator for Offsets {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        if self.remaining <= 0 {
            return None;
        }
        let out = self.current;
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

impl ExactSizeIterator for Offsets {}
