//! [`FlatView`]: tinygrad's plain view, the target of flattening and the input of merging.
//!
//! A flat view has one stride per dimension, an offset, and an optional
//! per-dimension box mask. Element `c` is at `offset + Σ c_d·strides_d` and is
//! valid iff `begin_d <= c_d < end_d` for every `d`.
//!
//! ```
//! use hlayout::FlatView;
//! let v = FlatView::new(vec![2, 3], vec![3, 1], 0, Some(vec![(0, 2), (1, 3)])).unwrap();
//! assert_eq!(v.eval(&[1, 2]).unwrap(), Some(5));
//! assert_eq!(v.eval(&[1, 0]).unwrap(), None); // masked out
//! ```

use crate::error::{Error, Result};

/// A tinygrad-form view: shape, strides, offset, per-dimension mask.
///
/// ```
/// let v = hlayout::FlatView::contiguous(vec![4, 5]).unwrap();
/// assert_eq!(v.strides(), &[5, 1]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FlatView {
    shape: Vec<i64>,
    strides: Vec<i64>,
    offset: i64,
    mask: Option<Vec<(i64, i64)>>,
}

impl FlatView {
    /// A view from its parts.
    ///
    /// # Errors
    /// [`Error::InvalidView`] when lengths differ, an extent is negative, or a mask
    /// interval is not within `0 <= begin`, `end <= extent`; [`Error::Overflow`]
    /// when the number of elements leaves `i64`.
    ///
    /// ```
    /// use hlayout::FlatView;
    /// assert!(FlatView::new(vec![2], vec![1, 1], 0, None).is_err());
    /// assert!(FlatView::new(vec![2], vec![1], 0, Some(vec![(0, 3)])).is_err());
    /// ```
    pub fn new(
        shape: Vec<i64>,
        strides: Vec<i64>,
        offset: i64,
        mask: Option<Vec<(i64, i64)>>,
    ) -> Result<FlatView> {
        let bad = |what: String| Err(Error::InvalidView { what });
        if shape.len() != strides.len() {
            return bad(format!(
                "shape has {} dims but strides {}",
                shape.len(),
                strides.len()
            ));
        }
        if let Some((d, s)) = shape.iter().enumerate().find(|(_, &s)| s < 0) {
            return bad(format!("extent {s} of dim {d} is negative"));
        }
        element_count(&shape)?;
        if let Some(m) = &mask {
            if m.len() != shape.len() {
                return bad(format!(
                    "mask has {} dims but shape {}",
                    m.len(),
                    shape.len()
                ));
            }
            for (d, (&(b, e), &s)) in m.iter().zip(&shape).enumerate() {
                if b < 0 || e > s || b > e {
                    return bad(format!("mask [{b},{e}) of dim {d} is not within [0,{s}]"));
                }
            }
        }
        Ok(FlatView {
            shape,
            strides,
            offset,
            mask,
        })
    }

    /// A view whose parts the crate derived from valid data.
    pub(crate) fn from_trusted(
        shape: Vec<i64>,
        strides: Vec<i64>,
        offset: i64,
        mask: Option<Vec<(i64, i64)>>,
    ) -> FlatView {
        debug_assert!(FlatView::new(shape.clone(), strides.clone(), offset, mask.clone()).is_ok());
        FlatView {
            shape,
            strides,
            offset,
            mask,
        }
    }

    /// The contiguous row-major view of `shape`.
    ///
    /// # Errors
    /// [`Error::InvalidView`] for a negative extent; [`Error::Overflow`] when the
    /// strides leave `i64`.
    ///
    /// ```
    /// let v = hlayout::FlatView::contiguous(vec![2, 3, 4]).unwrap();
    /// assert_eq!(v.strides(), &[12, 4, 1]);
    /// ```
    pub fn contiguous(shape: Vec<i64>) -> Result<FlatView> {
        let mut strides = vec![0; shape.len()];
        let mut acc = 1i64;
        for (st, &s) in strides.iter_mut().zip(&shape).rev() {
            *st = if s == 1 { 0 } else { acc };
            acc = crate::error::mul(acc, s.max(0), "contiguous strides")?;
        }
        FlatView::new(shape, strides, 0, None)
    }

    /// Extents.
    ///
    /// ```
    /// assert_eq!(hlayout::FlatView::contiguous(vec![3]).unwrap().shape(), &[3]);
    /// ```
    pub fn shape(&self) -> &[i64] {
        &self.shape
    }

    /// Strides.
    ///
    /// ```
    /// assert_eq!(hlayout::FlatView::contiguous(vec![3]).unwrap().strides(), &[1]);
    /// ```
    pub fn strides(&self) -> &[i64] {
        &self.strides
    }

    /// Offset of the element at coordinate zero.
    ///
    /// ```
    /// assert_eq!(hlayout::FlatView::contiguous(vec![3]).unwrap().offset(), 0);
    /// ```
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// Per-dimension `[begin, end)` validity boxes, if any.
    ///
    /// ```
    /// assert_eq!(hlayout::FlatView::contiguous(vec![3]).unwrap().mask(), None);
    /// ```
    pub fn mask(&self) -> Option<&[(i64, i64)]> {
        self.mask.as_deref()
    }

    /// Number of elements (it fits `i64`: [`FlatView::new`] checks it).
    ///
    /// ```
    /// assert_eq!(hlayout::FlatView::contiguous(vec![3, 4]).unwrap().size(), 12);
    /// ```
    pub fn size(&self) -> i64 {
        // `new` checked the count, so the fallback is never taken.
        element_count(&self.shape).unwrap_or(i64::MAX)
    }

    /// Offset of the element at `coord`, or `None` where the mask excludes it.
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] when `coord` has the wrong length or a component is
    /// out of range; [`Error::Overflow`] when the offset leaves `i64`.
    ///
    /// ```
    /// let v = hlayout::FlatView::contiguous(vec![2, 3]).unwrap();
    /// assert_eq!(v.eval(&[1, 1]).unwrap(), Some(4));
    /// assert!(v.eval(&[2, 0]).is_err());
    /// ```
    pub fn eval(&self, coord: &[i64]) -> Result<Option<i64>> {
        if coord.len() != self.shape.len() {
            return Err(Error::OutOfDomain {
                what: format!(
                    "coordinate of rank {} in a view of rank {}",
                    coord.len(),
                    self.shape.len()
                ),
            });
        }
        let mut acc = self.offset;
        for (d, (&c, (&s, &st))) in coord
            .iter()
            .zip(self.shape.iter().zip(&self.strides))
            .enumerate()
        {
            if !(0..s).contains(&c) {
                return Err(Error::OutOfDomain {
                    what: format!("coordinate {c} in dim {d} of extent {s}"),
                });
            }
            let term = crate::error::mul(c, st, "view offset")?;
            acc = crate::error::add(acc, term, "view offset")?;
        }
        let valid = self
            .mask
            .as_ref()
            .is_none_or(|m| m.iter().zip(coord).all(|(&(b, e), &c)| b <= c && c < e));
        Ok(valid.then_some(acc))
    }
}

/// The number of elements of `shape` (0 when an extent is 0, whatever the
/// others), or [`Error::Overflow`] when it leaves `i64`.
fn element_count(shape: &[i64]) -> Result<i64> {
    if shape.contains(&0) {
        return Ok(0);
    }
    shape
        .iter()
        .try_fold(1i64, |a, &s| crate::error::mul(a, s, "size of view"))
}
