//! The first view as a mixed-radix number system, and the identity every rule rests on.
//!
//! With extents `s_0..s_{k-1}` (extent-1 dimensions dropped: their digit is always 0),
//! places `P_l = s_{l+1}⋯s_{k-1}` and defects `D_l = σ_l − s_{l+1}·σ_{l+1}`, the
//! first view read at flat index `x` is
//!
//! ```text
//! offset + Σ_l σ_l·digit_l(x)  =  offset + σ_{k-1}·x + Σ_{l<k-1} D_l·⌊x/P_l⌋
//! ```
//!
//! where `digit_0(x) = ⌊x/P_0⌋` keeps the whole quotient and `digit_l(x) =
//! ⌊x/P_l⌋ mod s_l` otherwise. A boundary with `D_l = 0` is one where dimensions
//! `l, l+1` coalesce; the others are *active* ([`Digits::boundaries`]).
//!
//! Validity is a box in digit space. Every digit constraint reads as
//! `lo <= x mod Q < hi` for one modulus ([`Digits::constraints`]); the outermost
//! digit's constraint is always present and has no modulus, which is where
//! "`x` outside `[0, N)` is invalid" lives.

use smallvec::SmallVec;

use crate::layout::FlatView;
use crate::num::floor::{div_floor, mod_floor};

/// A boundary between digits `l` and `l+1` whose defect is not zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Boundary {
    /// `P_l`.
    pub(crate) modulus: i128,
    /// `D_l = σ_l − s_{l+1}·σ_{l+1}`.
    pub(crate) defect: i128,
}

/// One digit's mask as a condition on `x`: `lo <= x mod modulus < hi`
/// (`x` itself when `modulus` is `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DigitMask {
    pub(crate) modulus: Option<i128>,
    pub(crate) lo: i128,
    pub(crate) hi: i128,
}

/// One dimension of the first view (extent >= 2), stored in 64 bits: every
/// field is bounded by [`MAX_SPAN`](super::MAX_SPAN).
#[derive(Clone, Copy, Debug)]
struct Digit {
    ext: i64,
    stride: i64,
    /// Valid digits `[lo, hi)` (the whole extent when unmasked).
    lo: i64,
    hi: i64,
    /// `P_l`.
    place: i64,
}

/// The first view of a merge, as digits.
#[derive(Clone, Debug)]
pub(crate) struct Digits {
    digits: SmallVec<[Digit; 8]>,
    offset: i128,
}

impl Digits {
    /// The radix of `v`, or `None` when no index of `v` is valid (an extent of 0
    /// or an empty mask interval). Callers have bounded `v`'s size by
    /// [`MAX_SPAN`](super::MAX_SPAN), so the products here fit.
    pub(crate) fn new(v: &FlatView) -> Option<Digits> {
        let mut digits: SmallVec<[Digit; 8]> = SmallVec::new();
        for (d, (&ext, &stride)) in v.shape().iter().zip(v.strides()).enumerate() {
            let (lo, hi) = v.mask().map_or((0, ext), |m| m[d]);
            if lo >= hi {
                return None; // also an extent of 0
            }
            if ext > 1 {
                digits.push(Digit {
                    ext,
                    stride,
                    lo,
                    hi,
                    place: 1,
                });
            }
        }
        if digits.is_empty() {
            // A single element: one digit of extent 1 keeps "x must be 0".
            digits.push(Digit {
                ext: 1,
                stride: 0,
                lo: 0,
                hi: 1,
                place: 1,
            });
        }
        let mut acc = 1;
        for d in digits.iter_mut().rev() {
            d.place = acc;
            acc *= d.ext;
        }
        Some(Digits {
            digits,
            offset: i128::from(v.offset()),
        })
    }

    /// `(digit_l(x), dimension l)` for every `l`; the outermost digit keeps the
    /// whole quotient.
    fn digits_of(&self, x: i128) -> impl Iterator<Item = (i128, &Digit)> + '_ {
        self.digits.iter().enumerate().map(move |(l, d)| {
            let q = div_floor(x, d.place.into());
            (
                if l == 0 {
                    q
                } else {
                    mod_floor(q, d.ext.into())
                },
                d,
            )
        })
    }

    /// The first view's offset at flat index `x` (meaningful where `x` is valid).
    pub(crate) fn value(&self, x: i128) -> i128 {
        self.digits_of(x)
            .fold(self.offset, |acc, (q, d)| acc + i128::from(d.stride) * q)
    }

    /// Whether flat index `x` addresses a valid element: `0 <= x < N` and every
    /// digit inside its mask.
    pub(crate) fn valid(&self, x: i128) -> bool {
        self.digits_of(x)
            .all(|(q, d)| i128::from(d.lo) <= q && q < i128::from(d.hi))
    }

    /// The active boundaries, outermost first.
    pub(crate) fn boundaries(&self) -> impl Iterator<Item = Boundary> + '_ {
        self.digits.windows(2).filter_map(|w| {
            let defect = i128::from(w[0].stride) - i128::from(w[1].ext) * i128::from(w[1].stride);
            (defect != 0).then_some(Boundary {
                modulus: w[0].place.into(),
                defect,
            })
        })
    }

    /// The active boundaries as seen from `x ∈ [lo, hi]`, finest first. On that
    /// interval `⌊x/Q⌋` and `⌊x/Q'⌋` (`Q'` a finer place, so `Q' | Q`) differ by a
    /// constant when `(lo, hi]` holds as many multiples of `Q'` as of `Q` (the
    /// multiples of `Q` are among those of `Q'`, so they are the same points): each
    /// boundary's defect moves to the finest place with its count, defects meeting
    /// at one place add up, and boundaries with no multiple in `(lo, hi]` drop out.
    /// The result equals [`boundaries`](Self::boundaries) up to a constant on
    /// `[lo, hi]`. O(k²).
    pub(crate) fn boundaries_on(&self, lo: i128, hi: i128) -> SmallVec<[Boundary; 8]> {
        // (place, multiples of it in (lo, hi]), finest first.
        let counts: SmallVec<[(i128, i128); 8]> = self
            .digits
            .iter()
            .rev()
            .map(|d| {
                let p = i128::from(d.place);
                (p, div_floor(hi, p) - div_floor(lo, p))
            })
            .collect();
        let mut out: SmallVec<[Boundary; 8]> = SmallVec::new();
        for b in self.boundaries() {
            let n = div_floor(hi, b.modulus) - div_floor(lo, b.modulus);
            if n == 0 {
                continue;
            }
            let modulus = counts
                .iter()
                .find(|&&(_, c)| c == n)
                .map_or(b.modulus, |&(p, _)| p);
            match out.iter_mut().find(|o| o.modulus == modulus) {
                Some(o) => o.defect += b.defect,
                None => out.push(Boundary {
                    modulus,
                    defect: b.defect,
                }),
            }
        }
        out.retain(|b| b.defect != 0);
        out
    }

    /// The digit masks as conditions on `x`: the outermost always (it bounds `x`
    /// to `[0, N)`), the others where the mask is not the whole extent.
    pub(crate) fn constraints(&self) -> impl Iterator<Item = DigitMask> + '_ {
        self.digits
            .iter()
            .enumerate()
            .filter(|&(l, d)| l == 0 || (d.lo, d.hi) != (0, d.ext))
            .map(|(l, d)| DigitMask {
                modulus: (l > 0).then(|| self.digits[l - 1].place.into()),
                lo: i128::from(d.lo) * i128::from(d.place),
                hi: i128::from(d.hi) * i128::from(d.place),
            })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing test may panic
mod tests {
    use super::*;

    fn radix(shape: &[i64], strides: &[i64], mask: Option<Vec<(i64, i64)>>) -> Digits {
        let v = FlatView::new(shape.to_vec(), strides.to_vec(), 7, mask).unwrap();
        Digits::new(&v).unwrap()
    }

    // Invariant: the identity σ_last·x + Σ D_l·⌊x/P_l⌋ equals the digit sum on [0, N).
    #[test]
    fn identity_matches_digits() {
        let r = radix(&[3, 1, 4, 5], &[7, 100, -2, 3], None);
        let last = 3;
        for x in 0i128..60 {
            let by_identity = 7
                + last * x
                + r.boundaries()
                    .map(|b| b.defect * x.div_euclid(b.modulus))
                    .sum::<i128>();
            assert_eq!(r.value(x), by_identity, "x = {x}");
        }
    }

    // Invariant: on [lo, hi] the folded boundaries give the identity up to a constant.
    #[test]
    fn folded_boundaries_agree_on_interval() {
        let r = radix(&[2, 3, 3, 2, 5], &[30, 10, 0, 5, 1], None);
        let f = |bs: &[Boundary], x: i128| {
            x + bs
                .iter()
                .map(|b| b.defect * x.div_euclid(b.modulus))
                .sum::<i128>()
        };
        let all: Vec<Boundary> = r.boundaries().collect();
        for (lo, hi) in [(144, 153), (0, 179), (29, 31), (55, 95), (150, 150)] {
            let folded = r.boundaries_on(lo, hi);
            let diff = f(&all, lo) - f(&folded, lo);
            for x in lo..=hi {
                assert_eq!(f(&all, x) - f(&folded, x), diff, "[{lo}, {hi}] at {x}");
            }
        }
        // merge_pair/024: the carries at 30 and 10 happen together on [144, 153] and cancel.
        assert!(r.boundaries_on(144, 153).is_empty());
    }

    // Invariant: x is valid iff 0 <= x < N and the digits are inside the mask,
    // which is what the constraints say too.
    #[test]
    fn constraints_match_validity() {
        let r = radix(&[4, 3, 5], &[1, 1, 1], Some(vec![(1, 4), (0, 2), (2, 5)]));
        for x in -20i128..80 {
            let by_constraints = r.constraints().all(|c| {
                let y = c.modulus.map_or(x, |q| x.rem_euclid(q));
                c.lo <= y && y < c.hi
            });
            assert_eq!(r.valid(x), by_constraints, "x = {x}");
        }
    }

    // Witness: a view with an empty mask interval or a zero extent has no valid index.
    #[test]
    fn nothing_valid() {
        let empty = FlatView::new(vec![2, 3], vec![3, 1], 0, Some(vec![(0, 2), (1, 1)])).unwrap();
        assert!(Digits::new(&empty).is_none());
        assert!(Digits::new(&FlatView::new(vec![2, 0], vec![3, 1], 0, None).unwrap()).is_none());
    }

    // Witness: a view of extent-1 dimensions has one valid index, 0.
    #[test]
    fn single_element() {
        let r = radix(&[1, 1], &[5, 9], None);
        assert!(r.valid(0) && !r.valid(1) && !r.valid(-1));
        assert_eq!(r.value(0), 7);
    }
}
