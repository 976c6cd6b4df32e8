//! `Swizzle<B,M,S>`: CuTe's bit-mixing function on offsets.
//!
//! CuTe kernels lay out every shared-memory tile as a swizzle of a layout's
//! offsets, so that the rows a warp reads fall into different banks. The
//! swizzle takes the `B` bits of an offset that start at bit `M + max(S, 0)`
//! and XORs them into the bits `S` places lower (higher for `S < 0`):
//!
//! ```text
//! Sw(x) = x ^ ((x & Y) >> S)   (S ≥ 0),   x ^ ((x & Y) << −S)   (S < 0),
//! Y = ((1 << B) − 1) << (M + max(S, 0)).
//! ```
//!
//! With `|S| ≥ B` (CuTe's precondition) the bits read and the bits written do
//! not overlap, so `Sw` is an involution, a bijection of the integers that
//! keeps every offset's sign and its bits outside the written ones. Offsets
//! are `i64` in two's complement; `M + |S| + B ≤ 63` keeps every bit touched
//! below the sign bit. Swizzles act on offsets, which mirroring leaves alone:
//! CuTe's `Swizzle<B,M,S>` is hlayout's, unchanged.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// CuTe's `Swizzle<B,M,S>` on offsets: `B` bits, base `M`, shift `S`.
///
/// ```
/// use hlayout::algebra::Swizzle;
/// let sw = Swizzle::new(3, 4, 3).unwrap(); // the 128-byte swizzle of 16-byte units
/// assert_eq!(sw.apply(0b1000_0000), 0b1001_0000); // bit 7 lands on bit 4
/// assert_eq!(sw.apply(sw.apply(1234)), 1234);
/// assert_eq!(sw.to_string(), "Sw<3,4,3>");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Swizzle {
    bits: u32,
    base: u32,
    shift: i32,
}

impl Swizzle {
    /// The swizzle `Sw<B,M,S>`.
    ///
    /// # Errors
    /// [`Error::Precondition`] unless `B ≥ 0`, `M ≥ 0`, `|S| ≥ B` (CuTe's
    /// condition: the bits read and written are disjoint) and
    /// `M + |S| + B ≤ 63` (every bit touched lies below the sign bit).
    ///
    /// ```
    /// use hlayout::algebra::Swizzle;
    /// assert!(Swizzle::new(2, 0, 3).is_ok());
    /// assert!(Swizzle::new(3, 0, 2).is_err()); // |S| < B
    /// ```
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle> {
        let refuse = |rule: String| Error::Precondition {
            op: "swizzle",
            layout: format!("Sw<{bits},{base},{shift}>"),
            rule,
        };
        if bits < 0 || base < 0 {
            return Err(refuse(format!(
                "bits B = {bits} and base M = {base} must be >= 0"
            )));
        }
        if shift.unsigned_abs() < bits.unsigned_abs() {
            return Err(refuse(format!(
                "|S| = {} must be >= B = {bits} (the bits read and written must not overlap)",
                shift.unsigned_abs()
            )));
        }
        let top = i128::from(base) + i128::from(shift).abs() + i128::from(bits);
        if top > 63 {
            return Err(refuse(format!(
                "M + |S| + B = {top} must be <= 63 (every bit touched below the sign bit)"
            )));
        }
        // All three fit after the checks: each is at most 63 in absolute value.
        Ok(Swizzle {
            bits: bits as u32,
            base: base as u32,
            shift: shift as i32,
        })
    }

    /// The identity swizzle `Sw<0,0,0>`.
    ///
    /// ```
    /// assert_eq!(hlayout::algebra::Swizzle::identity().apply(-7), -7);
    /// ```
    pub fn identity() -> Swizzle {
        Swizzle {
            bits: 0,
            base: 0,
            shift: 0,
        }
    }

    /// `B`, the number of bits mixed.
    ///
    /// ```
    /// assert_eq!(hlayout::algebra::Swizzle::new(3, 4, 3).unwrap().bits(), 3);
    /// ```
    pub fn bits(&self) -> i64 {
        i64::from(self.bits)
    }

    /// `M`, the lowest bit written (for `S ≥ 0`).
    ///
    /// ```
    /// assert_eq!(hlayout::algebra::Swizzle::new(3, 4, 3).unwrap().base(), 4);
    /// ```
    pub fn base(&self) -> i64 {
        i64::from(self.base)
    }

    /// `S`, how far the bits read lie above the bits written.
    ///
    /// ```
    /// assert_eq!(hlayout::algebra::Swizzle::new(3, 4, -3).unwrap().shift(), -3);
    /// ```
    pub fn shift(&self) -> i64 {
        i64::from(self.shift)
    }

    /// The mask `Y` of the bits read.
    ///
    /// ```
    /// assert_eq!(hlayout::algebra::Swizzle::new(3, 4, 3).unwrap().mask(), 0b11_1000_0000);
    /// ```
    pub fn mask(&self) -> i64 {
        ((1i64 << self.bits) - 1) << (self.base + self.shift.max(0) as u32)
    }

    /// The mask `Z` of the bits written: `Y` moved `S` places down (up for
    /// `S < 0`).
    ///
    /// ```
    /// use hlayout::algebra::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3).unwrap().write_mask(), 0b111_0000);
    /// assert_eq!(Swizzle::new(1, 0, -2).unwrap().write_mask(), 0b100);
    /// ```
    pub fn write_mask(&self) -> i64 {
        ((1i64 << self.bits) - 1) << (self.base + (-self.shift).max(0) as u32)
    }

    /// The swizzle that reads the bits `read` and writes the bits `write`
    /// (CuTe's `make_swizzle<Y, Z>`), when there is one: both masks `B`
    /// consecutive bits (or both 0, the identity), `|S| ≥ B` apart.
    ///
    /// ```
    /// use hlayout::algebra::Swizzle;
    /// assert_eq!(Swizzle::from_masks(0b1000, 0b0100).unwrap().to_string(), "Sw<1,2,1>");
    /// assert_eq!(Swizzle::from_masks(0b0000_0110, 0b1100_0000).unwrap().to_string(), "Sw<2,1,-5>");
    /// assert!(Swizzle::from_masks(0b1010, 0b0101).is_none()); // not consecutive
    /// assert!(Swizzle::from_masks(0b1100, 0b0110).is_none()); // overlapping
    /// ```
    pub fn from_masks(read: i64, write: i64) -> Option<Swizzle> {
        if read == 0 && write == 0 {
            return Some(Swizzle::identity());
        }
        if read <= 0 || write <= 0 || read.count_ones() != write.count_ones() {
            return None;
        }
        let (ty, tz) = (read.trailing_zeros(), write.trailing_zeros());
        let shift = i64::from(ty) - i64::from(tz);
        let sw = Swizzle::new(i64::from(read.count_ones()), i64::from(ty.min(tz)), shift).ok()?;
        (sw.mask() == read && sw.write_mask() == write).then_some(sw)
    }

    /// `self ∘ inner` (`x ↦ self(inner(x))`) as one swizzle, when it is one
    /// (CuTe's composition of swizzles): either is the identity, or both have
    /// the same shift S and `self` reads none of the bits `inner` writes; then
    /// the two XORs add up to `x ^ ((x & (Y₁ ^ Y₂)) >> S)`, a swizzle when
    /// `Y₁ ^ Y₂` is consecutive bits (the identity when it is 0).
    ///
    /// ```
    /// use hlayout::algebra::Swizzle;
    /// let sw = Swizzle::new(2, 0, 3).unwrap();
    /// assert!(sw.then(&sw).unwrap().is_identity()); // an involution
    /// let lo = Swizzle::new(1, 0, 3).unwrap();
    /// let hi = Swizzle::new(1, 1, 3).unwrap();
    /// assert_eq!(lo.then(&hi).unwrap(), sw);
    /// assert!(Swizzle::new(1, 0, 1).unwrap().then(&Swizzle::new(1, 1, 1).unwrap()).is_none());
    /// ```
    pub fn then(&self, inner: &Swizzle) -> Option<Swizzle> {
        if inner.is_identity() {
            return Some(*self);
        }
        if self.is_identity() {
            return Some(*inner);
        }
        if self.shift != inner.shift || self.mask() & inner.write_mask() != 0 {
            return None;
        }
        Swizzle::from_masks(
            self.mask() ^ inner.mask(),
            self.write_mask() ^ inner.write_mask(),
        )
    }

    /// Whether `Sw(x) = x` for every x (`B = 0`).
    ///
    /// ```
    /// assert!(hlayout::algebra::Swizzle::new(0, 5, 2).unwrap().is_identity());
    /// ```
    pub fn is_identity(&self) -> bool {
        self.bits == 0
    }

    /// `Sw(x)`. O(1), never overflows (the sign bit is never touched).
    ///
    /// ```
    /// use hlayout::algebra::Swizzle;
    /// let sw = Swizzle::new(1, 0, -2).unwrap(); // bit 0 into bit 2
    /// assert_eq!([0, 1, 2, 3, 4, 5].map(|x| sw.apply(x)), [0, 5, 2, 7, 4, 1]);
    /// ```
    #[inline]
    pub fn apply(&self, x: i64) -> i64 {
        let read = x & self.mask();
        if self.shift >= 0 {
            x ^ (read >> self.shift)
        } else {
            x ^ (read << -self.shift)
        }
    }

    /// The swizzle of `2ᵗ·x` that equals `2ᵗ·Sw(x)`: `Sw<B, M+t, S>`.
    /// Shifting an offset left by t bits commutes with the XOR of its bits.
    ///
    /// # Errors
    /// [`Error::Precondition`] when `M + t + |S| + B > 63`.
    ///
    /// ```
    /// use hlayout::algebra::Swizzle;
    /// let sw = Swizzle::new(2, 1, 3).unwrap();
    /// let wide = sw.scaled(2).unwrap();
    /// assert!((0..256).all(|x| wide.apply(4 * x) == 4 * sw.apply(x)));
    /// ```
    pub fn scaled(&self, t: u32) -> Result<Swizzle> {
        Swizzle::new(self.bits(), self.base() + i64::from(t), self.shift())
    }
}

impl fmt::Display for Swizzle {
    /// `Sw<B,M,S>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

impl FromStr for Swizzle {
    type Err = Error;

    /// Parses `Sw<B,M,S>` (spaces allowed around the numbers).
    fn from_str(text: &str) -> Result<Swizzle> {
        let (sw, rest) = parse_swizzle(text, 0)?;
        match rest.trim_start().chars().next() {
            None => Ok(sw),
            Some(c) => Err(Error::Parse {
                pos: text.len() - rest.trim_start().len(),
                expected: "end of swizzle text",
                found: Some(c),
            }),
        }
    }
}

/// Parses `Sw<B,M,S>` at the start of `text` (after spaces); `at` is the byte
/// position of `text` in the whole input, for errors. Returns the rest.
pub(crate) fn parse_swizzle(text: &str, at: usize) -> Result<(Swizzle, &str)> {
    let start = text.len() - text.trim_start().len();
    let mut rest = &text[start..];
    let err = |rest: &str, expected: &'static str| Error::Parse {
        pos: at + text.len() - rest.len(),
        expected,
        found: rest.chars().next(),
    };
    rest = rest.strip_prefix("Sw<").ok_or_else(|| err(rest, "'Sw<'"))?;
    let mut nums = [0i64; 3];
    for (k, n) in nums.iter_mut().enumerate() {
        let (v, r) = parse_int(rest).ok_or_else(|| err(rest, "an integer"))?;
        *n = v;
        rest = r.trim_start();
        let sep = if k == 2 { '>' } else { ',' };
        rest = rest
            .strip_prefix(sep)
            .ok_or_else(|| err(rest, if k == 2 { "'>'" } else { "','" }))?;
    }
    Ok((Swizzle::new(nums[0], nums[1], nums[2])?, rest))
}

/// An optionally signed decimal integer at the start of `text` (after
/// spaces), and the rest; `None` when there is none or it leaves `i64`.
pub(crate) fn parse_int(text: &str) -> Option<(i64, &str)> {
    let t = text.trim_start();
    let digits = t
        .char_indices()
        .find(|&(k, c)| !(c.is_ascii_digit() || (k == 0 && c == '-')))
        .map_or(t.len(), |(k, _)| k);
    let v = t[..digits].parse().ok()?;
    Some((v, &t[digits..]))
}
