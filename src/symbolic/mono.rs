//! [`Mono`]: a monomial (a product of symbols, each to a power) packed in
//! one `u64`, so polynomial terms are `Copy` and compare in O(1).
//!
//! A monomial of degree `k ≤ 8` is the multiset of its `k` factors; each
//! factor is a symbol's id plus one, in one byte, and the factors are stored
//! in non-decreasing order from the most significant byte down, the unused
//! low bytes zero. The constant monomial `1` is `0`. Multiplication merges
//! two sorted byte lists (O(8)); division removes a sub-multiset.
//!
//! The order is graded (degree first, then the packed bits), which is
//! compatible with multiplication (`a < b` implies `a·c < b·c`): polynomial
//! long division by a leading term terminates.

use std::cmp::Ordering;

/// Most factors in one monomial (the bytes of a `u64`).
pub const MAX_DEGREE: usize = 8;

/// Most symbols in one table: ids are bytes and `0` marks an empty factor.
pub const MAX_SYMBOL_IDS: usize = 255;

/// A product of symbols (ids `< 255`), at most [`MAX_DEGREE`] factors.
///
/// ```
/// use hlayout::symbolic::Mono;
/// let n = Mono::symbol(0);
/// let m = Mono::symbol(1);
/// let nm = n.product(m).unwrap();
/// assert_eq!(nm.degree(), 2);
/// assert_eq!(nm.factors().collect::<Vec<_>>(), [0, 1]);
/// assert_eq!(nm.quotient(n), Some(m));
/// assert!(Mono::ONE < n && n < nm);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Mono(u64);

impl Mono {
    /// The constant monomial `1`.
    pub const ONE: Mono = Mono(0);

    /// The monomial of one symbol, by id (`id < 255`).
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Mono::symbol(3).degree(), 1);
    /// ```
    pub fn symbol(id: u8) -> Mono {
        debug_assert!((id as usize) < MAX_SYMBOL_IDS);
        Mono(((id as u64) + 1) << 56)
    }

    /// The number of factors. O(1).
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Mono::ONE.degree(), 0);
    /// ```
    pub fn degree(self) -> usize {
        if self.0 == 0 {
            0
        } else {
            8 - (self.0.trailing_zeros() / 8) as usize
        }
    }

    /// The factors' symbol ids, non-decreasing. O(degree).
    ///
    /// ```
    /// use hlayout::symbolic::Mono;
    /// let m = Mono::symbol(2).product(Mono::symbol(2)).unwrap();
    /// assert_eq!(m.factors().collect::<Vec<_>>(), [2, 2]);
    /// ```
    pub fn factors(self) -> impl Iterator<Item = u8> {
        (0..self.degree()).map(move |k| ((self.0 >> (56 - 8 * k)) & 0xff) as u8 - 1)
    }

    /// The first (smallest) factor's symbol id; meaningful when the
    /// degree is at least 1. O(1).
    ///
    /// ```
    /// use hlayout::symbolic::Mono;
    /// assert_eq!(Mono::symbol(3).product(Mono::symbol(1)).unwrap().first_factor(), 1);
    /// ```
    #[inline]
    pub fn first_factor(self) -> u8 {
        ((self.0 >> 56) as u8).wrapping_sub(1)
    }

    /// The product, or `None` past [`MAX_DEGREE`] factors. O(8).
    ///
    /// ```
    /// use hlayout::symbolic::Mono;
    /// let x = Mono::symbol(0);
    /// let mut p = Mono::ONE;
    /// for _ in 0..8 { p = p.product(x).unwrap(); }
    /// assert!(p.product(x).is_none());
    /// ```
    pub fn product(self, other: Mono) -> Option<Mono> {
        let (da, db) = (self.degree(), other.degree());
        if da + db > MAX_DEGREE {
            return None;
        }
        let (mut a, mut b) = (self.factors().peekable(), other.factors().peekable());
        let mut bits = 0u64;
        for k in 0..da + db {
            let next = match (a.peek(), b.peek()) {
                (Some(&x), Some(&y)) if x <= y => a.next(),
                (Some(_), Some(_)) => b.next(),
                (Some(_), None) => a.next(),
                _ => b.next(),
            };
            bits |= (next.unwrap_or(0) as u64 + 1) << (56 - 8 * k);
        }
        Some(Mono(bits))
    }

    /// `self / other` when `other`'s factors are a sub-multiset of `self`'s. O(8).
    ///
    /// ```
    /// use hlayout::symbolic::Mono;
    /// assert_eq!(Mono::symbol(0).quotient(Mono::symbol(1)), None);
    /// assert_eq!(Mono::symbol(0).quotient(Mono::ONE), Some(Mono::symbol(0)));
    /// ```
    pub fn quotient(self, other: Mono) -> Option<Mono> {
        let mut rest = other.factors().peekable();
        let mut bits = 0u64;
        let mut k = 0;
        for f in self.factors() {
            if rest.peek() == Some(&f) {
                rest.next();
            } else {
                bits |= (f as u64 + 1) << (56 - 8 * k);
                k += 1;
            }
        }
        rest.peek().is_none().then_some(Mono(bits))
    }
}

impl Ord for Mono {
    fn cmp(&self, other: &Mono) -> Ordering {
        self.degree()
            .cmp(&other.degree())
            .then(other.0.cmp(&self.0))
    }
}

impl PartialOrd for Mono {
    fn partial_cmp(&self, other: &Mono) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
