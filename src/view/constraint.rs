//! Validity constraints: `lo <= Σ a_k·x_k < hi` over a view's leaf coordinates.
//!
//! tinygrad's per-dimension mask is the special case of one unit coefficient.
//! The general form is what keeps padded windows in one view: the window element
//! `(y, ky)` of a 3×3 convolution with padding 1 is valid iff `1 <= y + ky < H + 1`.
//!
//! Constraints are kept *canonical*: coefficients of extent-1
//! leaves are zero, the coefficient vector is divided by its gcd and its first
//! non-zero entry is positive, bounds are tightened to what the box of leaf
//! ranges can reach, constraints the box always satisfies are dropped, and
//! constraints with equal coefficients are intersected. A view with no valid
//! element keeps exactly one constraint, the *empty* one (all zero, `[0, 0)`).
//! Cost: O(constraints² · leaves).

use num_integer::Integer;
use smallvec::SmallVec;

use crate::error::{self, Result};

/// `lo <= Σ coeffs[k]·x_k < hi` over a view's leaf coordinates (row-major leaf order).
///
/// ```
/// let s = hlayout::ViewStack::new(&[4, 4]).unwrap().pad(&[(0, 0), (2, 0)]).unwrap();
/// let c = &s.views()[0].constraints()[0];
/// assert_eq!(c.to_string(), "2<=x1<6");
/// assert_eq!((c.coeffs(), c.lo(), c.hi()), (&[0, 1][..], 2, 6));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    pub(crate) coeffs: SmallVec<[i64; 8]>,
    pub(crate) lo: i64,
    pub(crate) hi: i64,
}

impl Constraint {
    /// Coefficient of each leaf coordinate.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[3]).unwrap().pad(&[(1, 1)]).unwrap();
    /// assert_eq!(s.views()[0].constraints()[0].coeffs(), &[1]);
    /// ```
    pub fn coeffs(&self) -> &[i64] {
        &self.coeffs
    }

    /// Inclusive lower bound.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[3]).unwrap().pad(&[(1, 1)]).unwrap();
    /// assert_eq!(s.views()[0].constraints()[0].lo(), 1);
    /// ```
    pub fn lo(&self) -> i64 {
        self.lo
    }

    /// Exclusive upper bound.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[3]).unwrap().pad(&[(1, 1)]).unwrap();
    /// assert_eq!(s.views()[0].constraints()[0].hi(), 4);
    /// ```
    pub fn hi(&self) -> i64 {
        self.hi
    }

    /// The constraint no element satisfies.
    pub(crate) fn empty(n: usize) -> Constraint {
        Constraint {
            coeffs: SmallVec::from_elem(0, n),
            lo: 0,
            hi: 0,
        }
    }

    pub(crate) fn is_empty_marker(&self) -> bool {
        self.lo >= self.hi && self.coeffs.iter().all(|&a| a == 0)
    }

    /// The reachable range `[min, max]` of the form over the box `0 <= x_k < extents[k]`.
    fn reach(&self, extents: &[i64]) -> Result<(i64, i64)> {
        let (mut lo, mut hi) = (0i64, 0i64);
        for (&a, &s) in self.coeffs.iter().zip(extents) {
            let t = error::mul(a, s - 1, "constraint range")?;
            if t < 0 {
                lo = error::add(lo, t, "constraint range")?;
            } else {
                hi = error::add(hi, t, "constraint range")?;
            }
        }
        Ok((lo, hi))
    }
}

/// The outcome of canonicalising one constraint against the leaf box.
enum Fate {
    AlwaysTrue,
    NeverTrue,
    Keep(Constraint),
}

fn canonical_one(mut c: Constraint, extents: &[i64]) -> Result<Fate> {
    for (a, &s) in c.coeffs.iter_mut().zip(extents) {
        if s == 1 {
            *a = 0;
        }
    }
    let (min, max) = c.reach(extents)?;
    if c.lo <= min && max < c.hi {
        return Ok(Fate::AlwaysTrue);
    }
    if max < c.lo || min >= c.hi || c.lo >= c.hi {
        return Ok(Fate::NeverTrue);
    }
    c.lo = c.lo.max(min);
    c.hi = c.hi.min(max + 1);
    // Normalise: gcd 1, first non-zero coefficient positive.
    let g = c.coeffs.iter().fold(0i64, |g, &a| g.gcd(&a));
    if g > 1 {
        c.coeffs.iter_mut().for_each(|a| *a /= g);
        c.lo = Integer::div_ceil(&c.lo, &g);
        c.hi = Integer::div_ceil(&c.hi, &g);
        if c.lo >= c.hi {
            // No multiple of g in the range: e.g. 1 <= 2·x < 2.
            return Ok(Fate::NeverTrue);
        }
    }
    if c.coeffs.iter().find(|&&a| a != 0).is_some_and(|&a| a < 0) {
        c.coeffs.iter_mut().for_each(|a| *a = -*a);
        (c.lo, c.hi) = (1 - c.hi, 1 - c.lo);
    }
    if let Some(single) = decouple(&c, extents)? {
        return canonical_one(single, extents);
    }
    Ok(Fate::Keep(c))
}

/// `lo <= a·y + r < hi` with the rest `r` confined to `[m, m + a)` and `lo - m`,
/// `hi - m` multiples of `a` is exactly `(lo - m)/a <= y < (hi - m)/a`: the rest
/// can never carry `a·y` across a bound. This turns a pad bound split across
/// leaves back into a box on the slow leaf.
fn decouple(c: &Constraint, extents: &[i64]) -> Result<Option<Constraint>> {
    let nonzero = c.coeffs.iter().filter(|&&a| a != 0).count();
    if nonzero < 2 {
        return Ok(None);
    }
    let Some((k, &a)) = c.coeffs.iter().enumerate().max_by_key(|(_, a)| a.abs()) else {
        return Ok(None);
    };
    let mut rest = c.clone();
    rest.coeffs[k] = 0;
    let (m, top) = rest.reach(extents)?;
    let a_abs = a.abs();
    if top - m >= a_abs || (c.lo - m) % a_abs != 0 || (c.hi - m) % a_abs != 0 {
        return Ok(None);
    }
    let mut single = Constraint::empty(extents.len());
    single.coeffs[k] = a.signum();
    (single.lo, single.hi) = ((c.lo - m) / a_abs, (c.hi - m) / a_abs);
    if a < 0 {
        // -y in [(lo-m)/|a|, (hi-m)/|a|)  <=>  y in (-(hi-m)/|a|, -(lo-m)/|a|].
        single.coeffs[k] = 1;
        (single.lo, single.hi) = (1 - single.hi, 1 - single.lo);
    }
    Ok(Some(single))
}

/// Canonical form of a conjunction over leaves with the given extents.
pub(crate) fn canonicalize(
    constraints: impl IntoIterator<Item = Constraint>,
    extents: &[i64],
) -> Result<SmallVec<[Constraint; 2]>> {
    let mut out: SmallVec<[Constraint; 2]> = SmallVec::new();
    for c in constraints {
        match canonical_one(c, extents)? {
            Fate::AlwaysTrue => {}
            Fate::NeverTrue => return Ok(smallvec::smallvec![Constraint::empty(extents.len())]),
            Fate::Keep(c) => match out.iter_mut().find(|o| o.coeffs == c.coeffs) {
                Some(o) => {
                    o.lo = o.lo.max(c.lo);
                    o.hi = o.hi.min(c.hi);
                    if o.lo >= o.hi {
                        return Ok(smallvec::smallvec![Constraint::empty(extents.len())]);
                    }
                }
                None => out.push(c),
            },
        }
    }
    out.sort_by(|a, b| (&a.coeffs, a.lo, a.hi).cmp(&(&b.coeffs, b.lo, b.hi)));
    Ok(out)
}

impl std::fmt::Display for Constraint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_empty_marker() {
            return f.write_str("never");
        }
        write!(f, "{}<=", self.lo)?;
        let mut first = true;
        for (k, &a) in self.coeffs.iter().enumerate().filter(|(_, a)| **a != 0) {
            let sign = if a < 0 {
                "-"
            } else if first {
                ""
            } else {
                "+"
            };
            match a.abs() {
                1 => write!(f, "{sign}x{k}")?,
                m => write!(f, "{sign}{m}*x{k}")?,
            }
            first = false;
        }
        write!(f, "<{}", self.hi)
    }
}
