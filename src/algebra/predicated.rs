//! Predicated divides: a tile that does not divide the extent.
//!
//! `logical_divide(A, B) = A ∘ D` with `D = (complement(B, size(A)), B)`.
//! When `B` does not divide `A` (10 elements, tiles of 4), the complement's
//! last leaf is rounded up (`⌈10/4⌉ = 3` tiles), so `D` reaches indices past
//! `size(A)` and the divide reads `A` past its end (A is a function on every
//! integer). The predicated divide answers the same layout as a [`View`]
//! whose validity constraint says which elements are A's: element `x` (leaf
//! coordinates) is valid iff `0 <= D(x) < size(A)`, one linear constraint
//! `0 <= Σ cₖ·xₖ < size(A)` per divided mode, the coefficients `cₖ` being D's
//! strides spread over the result's leaves (composition refines D's leaves,
//! each a run of the result's leaves read row-major). Every valid element is
//! the unpredicated divide's element, every other is invalid: for 10 by 4
//! the tile `t` of tile row `r` is valid iff `4·r + t < 10`.
//!
//! The forms are those of the unpredicated divides ([`DivideForm`]); with a
//! [`Tiler::Modes`] each divided mode brings its own constraint (kept leading
//! modes bring none). Cost: that of the unpredicated divide, plus O(leaves ×
//! modes) for the constraints.

use crate::algebra::divide::pair;
use crate::algebra::Tiler;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::view::{Builder, View};

/// How a predicated divide gathers its pieces, as the unpredicated divides:
/// [`Layout::logical_divide`] (by mode: [`Layout::logical_divide_by`]),
/// [`Layout::zipped_divide`], [`Layout::tiled_divide`],
/// [`Layout::flat_divide`].
///
/// ```
/// use hlayout::algebra::{DivideForm, Tiler};
/// let a: hlayout::Layout = "(10,6):(6,1)".parse().unwrap();
/// let t = Tiler::Modes(vec!["4:1".parse().unwrap(), "4:1".parse().unwrap()]);
/// let v = a.predicated_divide(&t, DivideForm::Tiled).unwrap();
/// assert_eq!(v.shape(), vec![3, 2, 16]); // 3 × 2 tiles of 4 × 4
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DivideForm {
    /// `(Rest, Tile)`; by mode `(kept…, (Restᵢ, Tileᵢ)…)`.
    Logical,
    /// `((kept…, Rests…), (Tiles…))`.
    Zipped,
    /// `(kept…, Rests…, (Tiles…))`.
    Tiled,
    /// `(kept…, Rests…, Tiles…)`.
    Flat,
}

/// One divided mode: its size and the constraint's coefficient of each of
/// its rest and tile leaves.
struct Piece {
    size: i64,
    rest: Vec<i64>,
    tile: Vec<i64>,
}

impl Layout {
    /// The divide of `self` by `tiler` as a [`View`] over the rounded-up tile
    /// count, valid exactly where the tile reads an element of `self` (module
    /// docs). When every tile divides its mode the view has no constraint and
    /// is the unpredicated divide.
    ///
    /// # Errors
    /// Those of the unpredicated divide ([`Layout::logical_divide`] and its
    /// forms); [`Error::Overflow`] when a constraint coefficient leaves `i64`.
    ///
    /// ```
    /// use hlayout::algebra::{DivideForm, Tiler};
    /// let a: hlayout::Layout = "10:1".parse().unwrap();
    /// let t = Tiler::Layout("4:1".parse().unwrap());
    /// let v = a.predicated_divide(&t, DivideForm::Logical).unwrap();
    /// assert_eq!(v.to_string(), "(3,4):(4,1) if 0<=4*x0+x1<10");
    /// assert_eq!(v.eval(&[2, 1]).unwrap(), Some(9));
    /// assert_eq!(v.eval(&[2, 2]).unwrap(), None); // 4·2 + 2 = 10: past the end
    /// ```
    pub fn predicated_divide(&self, tiler: &Tiler, form: DivideForm) -> Result<View> {
        let r = unpredicated(self, tiler, form)?;
        let (kept, pieces) = pieces(self, tiler)?;
        let interleave = form == DivideForm::Logical && matches!(tiler, Tiler::Modes(_));
        // Each leaf's coefficient in each constraint, in the result's leaf order.
        let n = pieces.len();
        let mut rows: Vec<Vec<i64>> = vec![vec![0; n]; kept];
        let one = |i: usize, c: i64| (0..n).map(|j| if j == i { c } else { 0 }).collect();
        if interleave {
            for (i, p) in pieces.iter().enumerate() {
                rows.extend(p.rest.iter().chain(&p.tile).map(|&c| one(i, c)));
            }
        } else {
            for (i, p) in pieces.iter().enumerate() {
                rows.extend(p.rest.iter().map(|&c| one(i, c)));
            }
            for (i, p) in pieces.iter().enumerate() {
                rows.extend(p.tile.iter().map(|&c| one(i, c)));
            }
        }
        if rows.len() != r.shape_leaves().len() {
            return Err(Error::Precondition {
                op: "predicated_divide",
                layout: r.to_string(),
                rule: format!(
                    "the divide has {} leaves where its pieces have {}",
                    r.shape_leaves().len(),
                    rows.len()
                ),
            });
        }
        let bounds = pieces.iter().map(|p| (0, p.size)).collect();
        let mut b = Builder::new(bounds, 0);
        let mut k = 0;
        for m in r.modes() {
            for (&e, &s) in m.shape_leaves().iter().zip(m.stride_leaves()) {
                b.leaf(e, s, rows[k].iter().copied());
                k += 1;
            }
            b.end_dim(None);
        }
        let mut v = b.finish();
        v.normalize()?;
        Ok(v)
    }
}

/// The unpredicated divide of that form.
fn unpredicated(a: &Layout, tiler: &Tiler, form: DivideForm) -> Result<Layout> {
    match (form, tiler) {
        (DivideForm::Logical, Tiler::Layout(b)) => a.logical_divide(b),
        (DivideForm::Logical, Tiler::Modes(ts)) => a.logical_divide_by(ts),
        (DivideForm::Zipped, t) => a.zipped_divide(t),
        (DivideForm::Tiled, t) => a.tiled_divide(t),
        (DivideForm::Flat, t) => a.flat_divide(t),
    }
}

/// The number of kept leaves and the divided pieces.
fn pieces(a: &Layout, tiler: &Tiler) -> Result<(usize, Vec<Piece>)> {
    match tiler {
        Tiler::Layout(b) => Ok((0, vec![piece(a, b)?])),
        Tiler::Modes(ts) => {
            let modes: Vec<Layout> = a.modes().collect();
            let skip = modes.len().saturating_sub(ts.len());
            let kept = modes[..skip].iter().map(|m| m.shape_leaves().len()).sum();
            let ps = modes[skip..]
                .iter()
                .zip(ts)
                .map(|(m, t)| piece(m, t))
                .collect::<Result<_>>()?;
            Ok((kept, ps))
        }
    }
}

/// One mode divided by one tile: `R = A ∘ (C, B)`, and the coefficients of
/// `(C, B)`'s index over R's rest and tile leaves.
fn piece(a: &Layout, b: &Layout) -> Result<Piece> {
    let c = b.complement(a.size())?;
    let r = a.compose(&pair(&c, b)?)?;
    let mut halves = r.modes();
    let (Some(rest), Some(tile)) = (halves.next(), halves.next()) else {
        return Err(Error::Precondition {
            op: "predicated_divide",
            layout: r.to_string(),
            rule: "a divide has two modes".into(),
        });
    };
    Ok(Piece {
        size: a.size(),
        rest: refine(&rest, &c)?,
        tile: refine(&tile, b)?,
    })
}

/// The coefficient of each leaf of `r` in `d`'s index, where `r`'s leaves
/// refine `d`'s (each leaf of `d` a run of `r`'s leaves whose extents
/// multiply to it, as composition builds): within a run, `d`'s stride times
/// the run's row-major place value. Extent-1 leaves get whatever (their
/// coordinate is 0). O(leaves).
fn refine(r: &Layout, d: &Layout) -> Result<Vec<i64>> {
    let re = r.shape_leaves();
    let mut out = vec![0i64; re.len()];
    let mut k = 0;
    let broken = |why: String| Error::Precondition {
        op: "predicated_divide",
        layout: r.to_string(),
        rule: format!("its leaves do not refine those of {d}: {why}"),
    };
    for (&b, &beta) in d.shape_leaves().iter().zip(d.stride_leaves()) {
        let start = k;
        let mut prod = 1i64;
        while prod < b {
            let &e = re
                .get(k)
                .ok_or_else(|| broken(format!("no leaf left for extent {b}")))?;
            prod = prod
                .checked_mul(e)
                .ok_or_else(|| broken("a run's extent leaves i64".into()))?;
            k += 1;
        }
        if prod != b {
            return Err(broken(format!("a run of extent {prod} for the leaf {b}")));
        }
        let mut place = beta;
        for j in (start..k).rev() {
            out[j] = place;
            if j > start {
                place = place
                    .checked_mul(re[j])
                    .ok_or_else(|| crate::error::overflow("a constraint coefficient"))?;
            }
        }
    }
    if re[k..].iter().any(|&e| e != 1) {
        return Err(broken(format!("{} leaves left over", re.len() - k)));
    }
    Ok(out)
}
