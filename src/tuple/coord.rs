//! Row-major coordinates and coordinate families.
//!
//! A shape `S` orders its elements row-major: the last leaf varies fastest,
//! recursively inside nested modes. The *coordinate family* `G(S)` is every shape
//! obtained from `S` by collapsing subtrees into their size; for `(2,(2,2))` it
//! is `{8, (2,4), (2,(2,2))}`. A coordinate of `S` may be written against any
//! member of `G(S)`: `7`, `(1,3)` and `(1,(1,1))` all name the last element of
//! `(2,(2,2))`. This module converts between them:
//!
//! - [`crd2idx`]: any coordinate of the family to its linear (row-major) index;
//! - [`idx2crd`]: a linear index to the natural coordinate (congruent with `S`);
//! - [`crd2crd`]: between any two shapes of equal size, through the index;
//! - [`is_coarsening`], [`coarsenings`]: membership in and enumeration of `G(S)`;
//! - [`common_refinement`]: the finest split two shapes of equal size agree on.
//!
//! ```
//! use hlayout::{tuple::coord, IntTuple};
//! let s: IntTuple = "(2,(2,2))".parse().unwrap();
//! assert_eq!(coord::crd2idx(&"(1,(1,0))".parse().unwrap(), &s).unwrap(), 6);
//! assert_eq!(coord::idx2crd(6, &s).unwrap().to_string(), "(1,(1,0))");
//! ```

use smallvec::SmallVec;

use super::int_tuple::{Builder, IntTuple, TupleRef};
use crate::error::{Error, Result};

/// The row-major linear index of `crd` in `shape`.
///
/// `crd` may be congruent with any member of `G(shape)`: an integer where the
/// shape has a subtree is that subtree's own linear index. Every component must
/// lie in range (`0 <= c < size` of its subtree). O(leaves).
///
/// # Errors
/// [`Error::NotCompatible`] when `crd`'s structure is not a coarsening of
/// `shape`'s; [`Error::OutOfDomain`] when a component is out of range.
///
/// ```
/// use hlayout::{tuple::crd2idx, IntTuple};
/// let s: IntTuple = "(2,(2,2))".parse().unwrap();
/// for (c, i) in [("(1,(1,0))", 6), ("(1,2)", 6), ("6", 6), ("(0,(0,1))", 1)] {
///     assert_eq!(crd2idx(&c.parse().unwrap(), &s).unwrap(), i);
/// }
/// ```
pub fn crd2idx(crd: &IntTuple, shape: &IntTuple) -> Result<i64> {
    index_of(crd.as_ref(), shape.as_ref()).map_err(|e| match e {
        Fail::Structure => not_compatible(crd, shape),
        Fail::Range(c, n) => Error::OutOfDomain {
            what: format!(
                "coordinate component {c} in a mode of size {n} (coordinate {crd}, shape {shape})"
            ),
        },
    })
}

enum Fail {
    Structure,
    Range(i64, i64),
}

fn index_of(crd: TupleRef<'_>, shape: TupleRef<'_>) -> std::result::Result<i64, Fail> {
    if let Some(c) = crd.as_int() {
        // Sizes of valid shapes fit i64 (checked at construction of the caller's data
        // or here); an out-of-range size is reported as a range failure.
        let n = shape.size().map_err(|_| Fail::Range(c, i64::MAX))?;
        return if (0..n).contains(&c) {
            Ok(c)
        } else {
            Err(Fail::Range(c, n))
        };
    }
    if shape.as_int().is_some() || crd.rank() != shape.rank() {
        return Err(Fail::Structure);
    }
    let mut idx = 0i64;
    for (c, s) in crd.modes().zip(shape.modes()) {
        let n = s.size().map_err(|_| Fail::Range(0, i64::MAX))?;
        let sub = index_of(c, s)?;
        // idx < size(prefix) and sub < n, so idx*n + sub < size(prefix)*n, which fits
        // whenever the shape's size does.
        idx = idx
            .checked_mul(n)
            .and_then(|v| v.checked_add(sub))
            .ok_or(Fail::Range(sub, n))?;
    }
    Ok(idx)
}

/// The natural coordinate (congruent with `shape`) of row-major index `idx`.
///
/// Digits are taken from the last leaf towards the first. O(leaves).
///
/// # Errors
/// [`Error::OutOfDomain`] unless `0 <= idx < size(shape)`; [`Error::Overflow`]
/// when the size of `shape` leaves `i64`.
///
/// ```
/// use hlayout::{tuple::idx2crd, IntTuple};
/// let s: IntTuple = "(2,(2,2))".parse().unwrap();
/// assert_eq!(idx2crd(5, &s).unwrap().to_string(), "(1,(0,1))");
/// assert_eq!(idx2crd(5, &"(2,4)".parse().unwrap()).unwrap().to_string(), "(1,1)");
/// ```
pub fn idx2crd(idx: i64, shape: &IntTuple) -> Result<IntTuple> {
    let n = shape.size()?;
    if !(0..n).contains(&idx) {
        return Err(Error::OutOfDomain {
            what: format!("index {idx} in shape {shape} of size {n}"),
        });
    }
    let mut digits: SmallVec<[i64; 8]> = SmallVec::from_slice(shape.leaves());
    let mut rest = idx;
    for d in digits.iter_mut().rev() {
        let s = *d;
        *d = rest % s;
        rest /= s;
    }
    Ok(IntTuple::from_parts(shape.profile().clone(), digits))
}

/// Converts `crd`, a coordinate of `from`, into the natural coordinate of `to`.
///
/// `from` and `to` need equal sizes; they are typically two members of one
/// coordinate family, e.g. `(2,(2,2))` and `(2,4)`. O(leaves).
///
/// # Errors
/// [`Error::SizeMismatch`] when the sizes differ, and the errors of [`crd2idx`].
///
/// ```
/// use hlayout::{tuple::crd2crd, IntTuple};
/// let fine: IntTuple = "(2,(2,2))".parse().unwrap();
/// let coarse: IntTuple = "(2,4)".parse().unwrap();
/// let c = crd2crd(&"(1,3)".parse().unwrap(), &coarse, &fine).unwrap();
/// assert_eq!(c.to_string(), "(1,(1,1))");
/// ```
pub fn crd2crd(crd: &IntTuple, from: &IntTuple, to: &IntTuple) -> Result<IntTuple> {
    let (a, b) = (from.size()?, to.size()?);
    if a != b {
        return Err(Error::SizeMismatch {
            what: "crd2crd between shapes",
            left: a,
            right: b,
        });
    }
    idx2crd(crd2idx(crd, from)?, to)
}

/// Whether `coarse` is a member of `G(fine)`: `fine` with some subtrees
/// collapsed into their size (CuTe's `compatible`). O(leaves).
///
/// ```
/// use hlayout::{tuple::is_coarsening, IntTuple};
/// let s: IntTuple = "(2,(2,2))".parse().unwrap();
/// for p in ["8", "(2,4)", "(2,(2,2))"] {
///     assert!(is_coarsening(&p.parse().unwrap(), &s));
/// }
/// assert!(!is_coarsening(&"(4,2)".parse().unwrap(), &s));
/// ```
pub fn is_coarsening(coarse: &IntTuple, fine: &IntTuple) -> bool {
    coarsens(coarse.as_ref(), fine.as_ref())
}

pub(crate) fn coarsens(coarse: TupleRef<'_>, fine: TupleRef<'_>) -> bool {
    match coarse.as_int() {
        Some(c) => fine.size().is_ok_and(|n| n == c),
        None => {
            fine.as_int().is_none()
                && coarse.rank() == fine.rank()
                && coarse
                    .modes()
                    .zip(fine.modes())
                    .all(|(c, f)| coarsens(c, f))
        }
    }
}

/// Every member of the coordinate family `G(shape)`, finest (`shape`) first.
///
/// Cost: O(|G| · leaves); |G| grows as the product of the modes' family sizes.
///
/// # Errors
/// [`Error::Overflow`] when a subtree's size leaves `i64`.
///
/// ```
/// use hlayout::{tuple::coarsenings, IntTuple};
/// let family = coarsenings(&"(2,(2,2))".parse().unwrap()).unwrap();
/// let texts: Vec<String> = family.iter().map(|t| t.to_string()).collect();
/// assert_eq!(texts, ["(2,(2,2))", "(2,4)", "8"]);
/// ```
pub fn coarsenings(shape: &IntTuple) -> Result<Vec<IntTuple>> {
    family(shape.as_ref())
}

fn family(shape: TupleRef<'_>) -> Result<Vec<IntTuple>> {
    let size = shape.size()?;
    if shape.as_int().is_some() {
        return Ok(vec![IntTuple::int(size)]);
    }
    // Cartesian product of the modes' families, finest choices first.
    let mut acc: Vec<Vec<IntTuple>> = vec![Vec::new()];
    for m in shape.modes() {
        let options = family(m)?;
        acc = acc
            .into_iter()
            .flat_map(|prefix| {
                options.iter().map(move |o| {
                    let mut p = prefix.clone();
                    p.push(o.clone());
                    p
                })
            })
            .collect();
    }
    let mut out: Vec<IntTuple> = acc
        .into_iter()
        .map(|children| {
            let mut b = Builder::default();
            b.open();
            children.iter().for_each(|c| b.push(c.as_ref()));
            b.close();
            b.finish()
        })
        .collect();
    out.push(IntTuple::int(size));
    Ok(out)
}

/// The common refinement of two shapes of equal size.
///
/// Returns `(ra, rb)`: the same leaves (the coarsest flat split both shapes
/// agree on, extent-1 leaves dropped), nested so that `a` is a coarsening of
/// `ra` and `b` of `rb`. A leaf of `a` that covers several refined leaves
/// becomes a tuple; an extent-1 leaf becomes `()`. O(leaves).
///
/// # Errors
/// [`Error::NonPositiveExtent`] for a leaf below 1 (naming its leaf in its
/// shape); [`Error::SizeMismatch`] when the sizes differ;
/// [`Error::NoCommonRefinement`] when two leaf extents being matched do not
/// divide each other.
///
/// ```
/// use hlayout::{tuple::common_refinement, IntTuple};
/// let a: IntTuple = "(2,12)".parse().unwrap();
/// let b: IntTuple = "(4,6)".parse().unwrap();
/// let (ra, rb) = common_refinement(&a, &b).unwrap();
/// assert_eq!((ra.to_string(), rb.to_string()), ("(2,(2,6))".into(), "((2,2),6)".into()));
/// assert!(common_refinement(&"(6,4)".parse().unwrap(), &"(4,6)".parse().unwrap()).is_err());
/// assert!(common_refinement(&"(1,0)".parse().unwrap(), &"0".parse().unwrap()).is_err());
/// ```
pub fn common_refinement(a: &IntTuple, b: &IntTuple) -> Result<(IntTuple, IntTuple)> {
    for (leaf, &extent) in a.leaves().iter().chain(b.leaves().iter()).enumerate() {
        if extent < 1 {
            let leaf = if leaf < a.leaves().len() {
                leaf
            } else {
                leaf - a.leaves().len()
            };
            return Err(Error::NonPositiveExtent { leaf, extent });
        }
    }
    let (na, nb) = (a.size()?, b.size()?);
    if na != nb {
        return Err(Error::SizeMismatch {
            what: "common refinement",
            left: na,
            right: nb,
        });
    }
    // Walk both leaf lists from the last (fastest) leaf; `parts_*[k]` counts the
    // refined leaves that leaf k covers.
    let (la, lb) = (a.leaves(), b.leaves());
    let mut refined: SmallVec<[i64; 8]> = SmallVec::new();
    let mut parts_a: SmallVec<[usize; 8]> = SmallVec::from_elem(0, la.len());
    let mut parts_b: SmallVec<[usize; 8]> = SmallVec::from_elem(0, lb.len());
    let (mut i, mut j) = (la.len(), lb.len());
    let (mut ra, mut rb) = (1i64, 1i64);
    loop {
        while ra == 1 && i > 0 {
            i -= 1;
            ra = la[i];
        }
        while rb == 1 && j > 0 {
            j -= 1;
            rb = lb[j];
        }
        if ra == 1 && rb == 1 {
            break;
        }
        let step = if ra % rb == 0 {
            rb
        } else if rb % ra == 0 {
            ra
        } else {
            return Err(Error::NoCommonRefinement {
                left: a.to_string(),
                right: b.to_string(),
                left_extent: ra,
                right_extent: rb,
            });
        };
        refined.push(step);
        parts_a[i] += 1;
        parts_b[j] += 1;
        ra /= step;
        rb /= step;
    }
    refined.reverse();
    Ok((
        nest_over(a, &parts_a, &refined),
        nest_over(b, &parts_b, &refined),
    ))
}

/// Replaces leaf k of `shape` by its `parts[k]` refined leaves (a tuple unless exactly one).
fn nest_over(shape: &IntTuple, parts: &[usize], refined: &[i64]) -> IntTuple {
    use crate::tuple::Tok;
    let mut b = Builder::default();
    let (mut k, mut next) = (0usize, 0usize);
    for t in shape.profile().toks() {
        match t {
            Tok::Open => b.open(),
            Tok::Close => b.close(),
            Tok::Leaf => {
                let covered = &refined[next..next + parts[k]];
                if let [one] = covered {
                    b.leaf(*one);
                } else {
                    b.open();
                    covered.iter().for_each(|&v| b.leaf(v));
                    b.close();
                }
                next += parts[k];
                k += 1;
            }
        }
    }
    b.finish()
}

fn not_compatible(crd: &IntTuple, shape: &IntTuple) -> Error {
    Error::NotCompatible {
        coord: crd.to_string(),
        shape: shape.to_string(),
    }
}
