//! [`Evaluator`]: a layout compiled for repeated evaluation at integer indices.
//!
//! `Layout::eval` divides once per leaf; integer division is the slowest
//! arithmetic a CPU does (tens of cycles for 64 bits). An `Evaluator` reads
//! the layout in carry form (`docs/algebra.md`, Lemma 1): with its leaves
//! fastest first `aⱼ:αⱼ` (extent-1 leaves dropped), place values
//! `Pⱼ₊₁ = a₀···aⱼ` and the slowest leaf's stride `α_L`,
//!
//! ```text
//! L(x) = α₀·x + Σⱼ Dⱼ·⌊x / Pⱼ₊₁⌋,      Dⱼ = αⱼ₊₁ − aⱼ·αⱼ,
//! ```
//!
//! and takes each `⌊x / Pⱼ₊₁⌋` from `x` itself by a precomputed multiply-high
//! (Lemire, Kaser and Kurz, "Faster Remainder by Direct Computation", 2019:
//! for a divisor `d < 2^32` and `M = ⌈2^64 / d⌉`, every `n < 2^32` has
//! `⌊n/d⌋ = ⌊M·n / 2^64⌋`). The quotients are independent of each other (no
//! chain of divisions), and a leaf that continues the next (`Dⱼ = 0`) costs
//! nothing. The fast path applies when the layout's size fits in 32 bits
//! (then every `Pⱼ₊₁` and index does); other indices fall back to
//! [`Layout::eval`]. Building costs one 64-bit division per leaf; evaluation
//! one multiply-high and one multiply per term. When every place value is a
//! power of two (tiles of GPU kernels usually are), the quotients are shifts
//! instead: one shift and one multiply per term, which leaves the one
//! multiplier port of most x86 cores half as busy.
//!
//! **Exact in wrapping arithmetic.** The terms are summed modulo 2^64: the
//! true value `L(x)` lies in `i64` (the layout's span fits) and reduction
//! modulo 2^64 is a ring homomorphism, so the wrapped sum is `L(x)` even when
//! a term or partial sum alone would overflow.
//!
//! ```
//! let l: hlayout::Layout = "((16,2),(8,4)):((2,32),(1,64))".parse().unwrap();
//! let e = l.evaluator();
//! assert!((0..1024).all(|i| e.eval(i).unwrap() == l.eval(i).unwrap()));
//! ```

use super::Layout;
use crate::error::Result;
use crate::num::Divisor;

/// Most carry terms the fast path handles (leaves after the slowest).
const MAX_TERMS: usize = 7;

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
    /// The carry terms `(Pⱼ₊₁, Dⱼ)` with `Dⱼ ≠ 0`, fastest first; a fixed
    /// array (no inline/heap branch on the hot path), `len` of them used.
    terms: [(Divisor, i64); MAX_TERMS],
    /// `log2 Pⱼ₊₁` of each term when [`Self::kind`] is a shift kind (0 in
    /// unused slots, whose difference is 0).
    shifts: [u64; MAX_TERMS],
    len: usize,
    /// Which unrolled sum [`Evaluator::eval`] runs.
    kind: Kind,
    /// The fastest kept leaf's stride `α₀`.
    linear: i64,
    /// Indices below this take the fast path.
    fast_below: i64,
}

/// The unrolled sums of the fast path: by the number of terms it reads (3 or
/// [`MAX_TERMS`]) and whether the quotients are shifts (every place value a
/// power of two) or multiply-highs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Kind {
    /// At most 3 terms.
    short: bool,
    /// Every place value a power of two.
    pow2: bool,
}

impl Layout {
    /// Compiles this layout for repeated evaluation; see [`Evaluator`].
    /// O(leaves), one division per leaf.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    /// assert_eq!(l.evaluator().eval(5).unwrap(), 6);
    /// ```
    pub fn evaluator(&self) -> Evaluator {
        let mut e = Evaluator {
            layout: self.clone(),
            terms: [(Divisor::UNUSED, 0); MAX_TERMS],
            shifts: [0; MAX_TERMS],
            len: 0,
            kind: Kind {
                short: false,
                pow2: false,
            },
            linear: 0,
            fast_below: 0,
        };
        if self.size() <= 1 << 32 {
            e.fast_below = e.carry_terms().map_or(0, |()| self.size());
        }
        e.kind = e.kind();
        e
    }
}

impl Evaluator {
    /// Fills the carry terms from the layout's leaves (size ≤ 2^32); `None`
    /// when there are more than [`MAX_TERMS`] or no leaf of extent ≥ 2. Every
    /// place value is then below `size / 2 < 2^32` (the slowest kept leaf
    /// has extent ≥ 2), as [`Divisor`] needs.
    fn carry_terms(&mut self) -> Option<()> {
        let (shape, stride) = (self.layout.shape_leaves(), self.layout.stride_leaves());
        let mut kept = shape.iter().zip(stride).rev().filter(|(&s, _)| s != 1);
        let (&a0, &d0) = kept.next()?;
        let (mut place, mut prev) = (a0, (a0, d0));
        self.linear = d0;
        for (&a, &d) in kept {
            // Dⱼ = αⱼ₊₁ − aⱼ·αⱼ, wrapping (see the module docs).
            let diff = d.wrapping_sub(prev.0.wrapping_mul(prev.1));
            if diff != 0 {
                *self.terms.get_mut(self.len)? = (Divisor::new(place.unsigned_abs()), diff);
                self.shifts[self.len] = u64::from(place.unsigned_abs().trailing_zeros());
                self.len += 1;
            }
            place *= a; // ≤ size
            prev = (a, d);
        }
        Some(())
    }

    /// The sum that [`Evaluator::eval`] runs for these terms.
    fn kind(&self) -> Kind {
        let pow2 = self.terms[..self.len]
            .iter()
            .zip(&self.shifts)
            .all(|((p, _), &k)| p.divisor() == 1 << k);
        Kind {
            short: self.len <= 3,
            pow2,
        }
    }

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
        let x = i.unsigned_abs();
        // A fixed trip count unrolls the sum; unused terms add 0 (their
        // multiplier and difference are 0). One predictable branch, where a
        // jump per exact count cost more.
        // Two flags, not a four-way `match` (which compiles to an indirect
        // jump through a table: three more instructions per call).
        Ok(match (self.kind.short, self.kind.pow2) {
            (true, true) => self.shifted::<3>(x),
            (true, false) => self.sum::<3>(x),
            (false, true) => self.shifted::<MAX_TERMS>(x),
            (false, false) => self.sum::<MAX_TERMS>(x),
        })
    }

    /// [`Self::sum`] when every place value is a power of two: `⌊x / 2^k⌋ = x >> k`.
    #[inline(always)]
    fn shifted<const N: usize>(&self, x: u64) -> i64 {
        let mut acc = self.linear.wrapping_mul(x as i64); // x < 2^32
        for (&(_, d), &k) in self.terms[..N].iter().zip(&self.shifts[..N]) {
            acc = acc.wrapping_add(d.wrapping_mul((x >> k) as i64));
        }
        acc
    }

    /// `α₀·x + Σ Dⱼ·⌊x / Pⱼ₊₁⌋` over the first `N` terms, wrapping.
    #[inline(always)]
    fn sum<const N: usize>(&self, x: u64) -> i64 {
        let mut acc = self.linear.wrapping_mul(x as i64); // x < 2^32
        for &(p, d) in &self.terms[..N] {
            acc = acc.wrapping_add(d.wrapping_mul(p.quotient(x) as i64));
        }
        acc
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A flat layout of `shape` whose strides come from `raw` scaled down so
    /// that the span fits (carry differences `Dⱼ` may still overflow `i64`).
    fn wide(shape: &[i64], raw: &[i64]) -> Layout {
        let total: i64 = shape.iter().map(|&e| e - 1).sum::<i64>().max(1);
        let stride: Vec<i64> = raw.iter().map(|&r| r / total).collect();
        Layout::flat(shape, &stride).expect("the span fits")
    }

    proptest! {
        /// Invariant: the evaluator equals `Layout::eval` in wrapping
        /// arithmetic / Witness: strides near ±2^63 / (span), where the
        /// differences Dⱼ leave i64, at the first and last indices of the domain.
        #[test]
        fn wrapping_carry_form_is_exact(
            shape in prop::collection::vec(1i64..=9, 1..=8),
            raw in prop::collection::vec(i64::MIN + 1..=i64::MAX, 8),
        ) {
            let l = wide(&shape, &raw[..shape.len()]);
            let e = l.evaluator();
            let n = l.size();
            for i in (0..n.min(300)).chain(n.saturating_sub(300)..n + 3) {
                prop_assert_eq!(e.eval(i).ok(), l.eval(i).ok(), "{} at {}", l, i);
            }
        }

        /// Invariant: the shift sums (every place value a power of two) equal
        /// `Layout::eval` / Witness: power-of-two extents (1 is skipped),
        /// strides of either sign, near the wrapping limit too.
        #[test]
        fn shift_sums_are_exact(
            log in prop::collection::vec(0u32..=5, 1..=8),
            raw in prop::collection::vec(i64::MIN + 1..=i64::MAX, 8),
            small in any::<bool>(),
        ) {
            let shape: Vec<i64> = log.iter().map(|&k| 1i64 << k).collect();
            let raw: Vec<i64> = raw.iter().map(|&r| if small { r % 97 } else { r }).collect();
            let l = wide(&shape, &raw[..shape.len()]);
            let e = l.evaluator();
            prop_assert!(l.size() < 2 || e.kind.pow2 || e.fast_below == 0);
            let n = l.size();
            for i in (0..n.min(300)).chain(n.saturating_sub(300)..n + 3) {
                prop_assert_eq!(e.eval(i).ok(), l.eval(i).ok(), "{} at {}", l, i);
            }
        }
    }

    #[test]
    fn size_two_to_the_32_takes_the_fast_path() {
        // Invariant: indices up to 2^32 − 1 are exact / Witness: (2^16, 2^16) with wide strides.
        let l = wide(&[1 << 16, 1 << 16], &[i64::MAX, -(1 << 62)]);
        let e = l.evaluator();
        assert_eq!(e.fast_below, 1 << 32);
        for i in [0, 1, (1 << 16) - 1, 1 << 16, (1 << 32) - 2, (1 << 32) - 1] {
            assert_eq!(e.eval(i).ok(), l.eval(i).ok(), "{l} at {i}");
        }
    }
}
