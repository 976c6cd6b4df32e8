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
use crate::num::floor::{ceil_div, div_floor};

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
    pub(super) coeffs: SmallVec<[i64; 8]>,
    pub(super) lo: i64,
    pub(super) hi: i64,
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

    pub(crate) fn is_empty_marker(&self) -> bool {
        self.lo >= self.hi && self.coeffs.iter().all(|&a| a == 0)
    }
}

/// The reachable range `[min, max]` of `Σ row[k]·x_k` over the box
/// `0 <= x_k < extents[k]`, leaving out leaf `skip`. O(leaves).
fn reach(row: &[i64], extents: &[i64], skip: Option<usize>) -> Result<(i64, i64)> {
    let (mut lo, mut hi) = (0i64, 0i64);
    for (k, (&a, &s)) in row.iter().zip(extents).enumerate() {
        if Some(k) == skip {
            continue;
        }
        let t = error::mul(a, s - 1, "constraint range")?;
        if t < 0 {
            lo = error::add(lo, t, "constraint range")?;
        } else {
            hi = error::add(hi, t, "constraint range")?;
        }
    }
    Ok((lo, hi))
}

/// The outcome of canonicalising one constraint against the leaf box.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Fate {
    AlwaysTrue,
    NeverTrue,
    Keep,
}

/// Canonicalises `lo <= Σ row[k]·x_k < hi` in place (see the module
/// documentation for the canonical form). O(leaves).
pub(crate) fn canonical_row(
    row: &mut [i64],
    bounds: &mut (i64, i64),
    extents: &[i64],
) -> Result<Fate> {
    for (a, &s) in row.iter_mut().zip(extents) {
        if s == 1 {
            *a = 0;
        }
    }
    loop {
        let (min, max) = reach(row, extents, None)?;
        let (lo, hi) = *bounds;
        if lo <= min && max < hi {
            return Ok(Fate::AlwaysTrue);
        }
        if max < lo || min >= hi || lo >= hi {
            return Ok(Fate::NeverTrue);
        }
        *bounds = (lo.max(min), hi.min(max + 1));
        // Normalise: gcd 1, first non-zero coefficient positive.
        let g = row.iter().fold(0i64, |g, &a| g.gcd(&a));
        if g > 1 {
            row.iter_mut().for_each(|a| *a /= g);
            *bounds = (
                Integer::div_ceil(&bounds.0, &g),
                Integer::div_ceil(&bounds.1, &g),
            );
            if bounds.0 >= bounds.1 {
                // No multiple of g in the range: e.g. 1 <= 2·x < 2.
                return Ok(Fate::NeverTrue);
            }
        }
        if row.iter().find(|&&a| a != 0).is_some_and(|&a| a < 0) {
            row.iter_mut().for_each(|a| *a = -*a);
            *bounds = (1 - bounds.1, 1 - bounds.0);
        }
        if !decouple(row, bounds, extents)? {
            return Ok(Fate::Keep);
        }
    }
}

/// `lo <= a·y + r < hi`, `y` the leaf with the largest `|a|` and the rest `r`
/// confined to `[m, M]` with `M − m < |a|`: each value of `y` puts the sum in
/// the block `[a·y + m, a·y + M]`, blocks of different `y` are disjoint, and
/// when no block of a `y` in `[0, s)` straddles `lo` or `hi` the constraint
/// is exactly `y` in the range whose blocks lie inside `[lo, hi)`: the rest
/// can never carry `a·y` across a bound. This turns a pad bound split across
/// leaves back into a box on the slow leaf. The test is invariant under
/// reflecting any leaf (a reflection maps blocks to blocks and shifts the
/// bounds with them), so a flip keeps the canonical form. Rewrites the row to
/// that single-leaf constraint (not yet canonical; an empty range is `[0, 0)`)
/// and returns `true`, or returns `false` and leaves it. O(leaves).
fn decouple(row: &mut [i64], bounds: &mut (i64, i64), extents: &[i64]) -> Result<bool> {
    if row.iter().filter(|&&a| a != 0).count() < 2 {
        return Ok(false);
    }
    let Some((k, a)) = row
        .iter()
        .copied()
        .enumerate()
        .max_by_key(|(_, a)| a.unsigned_abs())
    else {
        return Ok(false);
    };
    let (m, top) = reach(row, extents, Some(k))?;
    let b = i128::from(a.unsigned_abs());
    let (m, top) = (i128::from(m), i128::from(top));
    if top - m >= b {
        return Ok(false);
    }
    // In z = sign(a)·y the blocks are [b·z + m, b·z + top], z in [z0, z1].
    let last = i128::from(extents[k] - 1);
    let (z0, z1) = if a > 0 { (0, last) } else { (-last, 0) };
    let (lo, hi) = (i128::from(bounds.0), i128::from(bounds.1));
    // Some block straddles t iff b·z + m < t <= b·z + top for a z in range.
    let straddles = |t: i128| {
        let (first, last) = (ceil_div(t - top, b), div_floor(t - m - 1, b));
        first.max(z0) <= last.min(z1)
    };
    if straddles(lo) || straddles(hi) {
        return Ok(false);
    }
    let first = ceil_div(lo - m, b).max(z0);
    let last = div_floor(hi - 1 - top, b).min(z1);
    let (y_lo, y_hi) = match (first <= last, a > 0) {
        (false, _) => (0, 0),
        (true, true) => (first, last + 1),
        (true, false) => (-last, 1 - first),
    };
    row.iter_mut().for_each(|x| *x = 0);
    row[k] = 1;
    // Within [0, s]: fits i64.
    *bounds = (y_lo as i64, y_hi as i64);
    Ok(true)
}

/// Canonicalises the conjunction of `bounds.len()` constraints whose
/// coefficients are stored row after row in `rows` (`n` = `extents.len()` per
/// row), in place: drops the ones always true, intersects equal rows, sorts by
/// (row, bounds). Returns how many remain (first in `rows` and `bounds`), or
/// `None` when no element satisfies them. O(c² · leaves) for c constraints.
pub(crate) fn canonicalize_rows(
    rows: &mut [i64],
    bounds: &mut [(i64, i64)],
    extents: &[i64],
) -> Result<Option<usize>> {
    let n = extents.len();
    let mut kept = 0usize;
    for j in 0..bounds.len() {
        let mut b = bounds[j];
        match canonical_row(&mut rows[j * n..(j + 1) * n], &mut b, extents)? {
            Fate::AlwaysTrue => continue,
            Fate::NeverTrue => return Ok(None),
            Fate::Keep => {}
        }
        let (done, row) = rows.split_at_mut(j * n);
        let row = &row[..n];
        if let Some(i) = (0..kept).find(|&i| &done[i * n..(i + 1) * n] == row) {
            let o = &mut bounds[i];
            *o = (o.0.max(b.0), o.1.min(b.1));
            if o.0 >= o.1 {
                return Ok(None);
            }
            continue;
        }
        if kept != j {
            rows.copy_within(j * n..(j + 1) * n, kept * n);
        }
        bounds[kept] = b;
        kept += 1;
    }
    sort_rows(&mut rows[..kept * n], &mut bounds[..kept], n);
    Ok(Some(kept))
}

/// Sorts constraint rows (with their bounds) by (row, bounds): insertion
/// sort, as there are rarely more than two. O(c² · leaves).
pub(crate) fn sort_rows(rows: &mut [i64], bounds: &mut [(i64, i64)], n: usize) {
    for j in 1..bounds.len() {
        let mut i = j;
        while i > 0 && {
            let (a, b) = (&rows[(i - 1) * n..i * n], &rows[i * n..(i + 1) * n]);
            (a, bounds[i - 1]) > (b, bounds[i])
        } {
            for k in 0..n {
                rows.swap((i - 1) * n + k, i * n + k);
            }
            bounds.swap(i - 1, i);
            i -= 1;
        }
    }
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
