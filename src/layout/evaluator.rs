//! [`Evaluator`]: a layout compiled for repeated evaluation at integer indices.
//!
//! `Layout::eval` divides once per leaf; integer division is the slowest
//! arithmetic a CPU does (tens of cycles for 64 bits). An `Evaluator` replaces
//! each division by a precomputed multiply-high (Lemire, Kaser and Kurz, "Faster
//! Remainder by Direct Computation", 2019): for a divisor `d < 2^32` and
//! `M = ⌈2^64 / d⌉`, every numerator `n < 2^32` has `⌊n/d⌋ = ⌊M·n / 2^64⌋`. The
//! fast path applies when the layout's size fits in 32 bits; other indices fall
//! back to [`Layout::eval`]. Extent-1 leaves are dropped at construction.
//! Building costs one 64-bit division per leaf; evaluation costs one 128-bit
//! multiply per leaf.
//!
//! ```
//! let l: hlayout::Layout = "((16,2),(8,4)):((2,32),(1,64))".parse().unwrap();
//! let e = l.evaluator();
//! assert!((0..1024).all(|i| e.eval(i).unwrap() == l.eval(i).unwrap()));
//! ```

use smallvec::SmallVec;

use super::Layout;
use crate::error::Result;
use crate::num::Divisor;

/// Most leaves (after the slowest) the fast path handles.
const MAX_INNER: usize = 7;

/// A layout prepared for fast evaluation by multiply-high reciprocals (see [`Layout::evaluator`]).
///
/// ```
/// let l: hlayout::Layout = "(3,5):(1,3)".parse().unwrap();
/// let e = l.evaluator();
/// assert_eq!(e.eval(7).unwrap(), l.eval(7).unwrap());
/// assert_eq!(e.eval(100).unwrap(), l.eval(100).unwrap()); // past the domain: falls back
/// ```
#[derive(Clone, Debug)]
pub struct Evaluator {
    layout: Layout,
    /// Fastest-first leaves after the slowest one, as (divisor, stride); a
    /// fixed array (no inline/heap branch on the hot path), `len` of them used.
    inner: [(Divisor, i64); MAX_INNER],
    len: usize,
    /// Stride of the slowest leaf kept (it takes the whole quotient).
    head: i64,
    /// Indices below this take the fast path.
    fast_below: i64,
}

impl Layout {
    /// Compiles this layout for repeated evaluation; see [`Evaluator`].
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.evaluator().eval(5).unwrap(), 6);
    /// ```
    pub fn evaluator(&self) -> Evaluator {
        let kept: SmallVec<[(i64, i64); 8]> = self
            .shape_leaves()
            .iter()
            .zip(self.stride_leaves())
            .filter(|(&s, _)| s != 1)
            .map(|(&s, &d)| (s, d))
            .collect();
        let small = self.size() <= 1 << 32 && kept.len() <= MAX_INNER + 1;
        let mut inner = [(Divisor::UNUSED, 0i64); MAX_INNER];
        let (head, len) = match kept.split_first() {
            Some((&(_, d0), rest)) if small => {
                for (slot, &(s, d)) in inner.iter_mut().zip(rest.iter().rev()) {
                    *slot = (Divisor::new(s.unsigned_abs()), d);
                }
                (d0, rest.len())
            }
            _ => (0, 0),
        };
        let fast_below = if small && !kept.is_empty() {
            self.size()
        } else {
            0
        };
        Evaluator {
            layout: self.clone(),
            inner,
            len,
            head,
            fast_below,
        }
    }
}

impl Evaluator {
    /// `L(i)`, as [`Layout::eval`].
    ///
    /// # Errors
    /// As [`Layout::eval`].
    ///
    /// ```
    /// let l: hlayout::Layout = "(4,4):(1,4)".parse().unwrap();
    /// assert_eq!(l.evaluator().eval(6).unwrap(), 9);
    /// ```
    #[inline]
    pub fn eval(&self, i: i64) -> Result<i64> {
        if !(0..self.fast_below).contains(&i) {
            return self.layout.eval(i);
        }
        let n = i.unsigned_abs();
        // A fixed trip count per arm lets the compiler unroll the digit loop.
        Ok(match self.len {
            0 => self.digits::<0>(n),
            1 => self.digits::<1>(n),
            2 => self.digits::<2>(n),
            3 => self.digits::<3>(n),
            4 => self.digits::<4>(n),
            5 => self.digits::<5>(n),
            6 => self.digits::<6>(n),
            _ => self.digits::<MAX_INNER>(n),
        })
    }

    /// `Σ digit·stride` over the first `N` inner leaves, the head taking the rest.
    #[inline(always)]
    fn digits<const N: usize>(&self, mut rest: u64) -> i64 {
        let mut acc = 0i64;
        for &(div, d) in &self.inner[..N] {
            let (q, r) = div.div_rem(rest);
            acc += r as i64 * d;
            rest = q;
        }
        acc + rest as i64 * self.head
    }

    /// The layout this evaluator computes.
    ///
    /// ```
    /// let l: hlayout::Layout = "8:2".parse().unwrap();
    /// assert_eq!(l.evaluator().layout(), &l);
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}
