//! Division by a multiply-high with a precomputed reciprocal (Lemire, Kaser and
//! Kurz, "Faster Remainder by Direct Computation", 2019): for a divisor
//! `d < 2^32` and `M = ⌈2^64 / d⌉`, every numerator `n < 2^32` has
//! `⌊n/d⌋ = ⌊M·n / 2^64⌋`. The layout evaluator and the view's index
//! evaluator replace each per-element division by one of these.

/// A divisor with its Lemire multiplier, exact for 32-bit numerators.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Divisor {
    d: u64,
    magic: u64,
}

impl Divisor {
    /// A placeholder for unused slots of fixed arrays; never divided by.
    pub(crate) const UNUSED: Divisor = Divisor { d: 1, magic: 0 };

    /// `d` in `2..2^32`.
    pub(crate) fn new(d: u64) -> Divisor {
        debug_assert!((2..1 << 32).contains(&d));
        Divisor {
            d,
            magic: u64::MAX / d + 1,
        }
    }

    /// The divisor `d`.
    #[inline]
    pub(crate) fn divisor(self) -> u64 {
        self.d
    }

    /// `(n / d, n % d)` for `n < 2^32`.
    #[inline]
    pub(crate) fn div_rem(self, n: u64) -> (u64, u64) {
        let q = self.quotient(n);
        (q, n - q * self.d)
    }

    /// `n / d` for `n < 2^32`: one multiply-high (0 for [`Divisor::UNUSED`]).
    #[inline]
    pub(crate) fn quotient(self, n: u64) -> u64 {
        ((u128::from(self.magic) * u128::from(n)) >> 64) as u64
    }
}
