//! Whether a composed layout is one plain strided view (tinygrad's
//! [`FlatView`]), decided exactly: the only candidate is the view through
//! `C(0)` whose stride for each top-level mode of L is C's first step along
//! it, and it is checked at every index.

use std::fmt;

use crate::error::{self, Result};
use crate::layout::{FlatView, Layout};

use super::left::first_difference;
use super::ComposedLayout;

/// Why a composed layout is no plain view: the first index where it leaves
/// the plain view through `C(0)` and each top-level mode's first step.
///
/// ```
/// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,1> o 0 o 4:1".parse().unwrap();
/// let why = c.flatten().unwrap().unwrap_err();
/// assert_eq!((why.index, why.value, why.plain), (2, 3, 2));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotPlain {
    /// The first index where the two differ.
    pub index: i64,
    /// The composed layout's offset there.
    pub value: i64,
    /// The plain view's offset there.
    pub plain: i64,
}

impl fmt::Display for NotPlain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the swizzle makes index {} go to {}, where the plain view through C(0) and \
             each mode's first step goes to {}",
            self.index, self.value, self.plain
        )
    }
}

impl ComposedLayout {
    /// The plain view equal to C at every index, with one stride per
    /// top-level mode of L and offset `C(0)`, or the first index where no
    /// plain view can follow C. Exact (every index is checked, unless C has
    /// no swizzle and L's modes are each one stride: O(leaves) then).
    ///
    /// # Errors
    /// [`crate::Error::BudgetExceeded`] past
    /// [`COMPOSED_CHECK_BUDGET`](crate::algebra::COMPOSED_CHECK_BUDGET)
    /// indices; [`crate::Error::Overflow`] when the candidate's span leaves `i64`.
    ///
    /// ```
    /// // The swizzle reads bit 4 of the offsets, which this tile never sets:
    /// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,4> o 0 o (2,4):(8,1)".parse().unwrap();
    /// let v = c.flatten().unwrap().unwrap();
    /// assert_eq!((v.shape(), v.strides(), v.offset()), (&[2, 4][..], &[8, 1][..], 0));
    /// ```
    pub fn flatten(&self) -> Result<std::result::Result<FlatView, NotPlain>> {
        let what = "strides of a plain view";
        let shape: Vec<i64> = self.layout.modes().map(|m| m.size()).collect();
        let start = self.eval(0)?;
        let mut strides = vec![0i64; shape.len()];
        let mut unit = 1i64;
        for k in (0..shape.len()).rev() {
            if shape[k] > 1 {
                strides[k] = self
                    .eval(unit)?
                    .checked_sub(start)
                    .ok_or(error::overflow(what))?;
            }
            unit *= shape[k]; // at most size(L)
        }
        let plain = Layout::flat(&shape, &strides)?;
        if self.swizzle.is_identity() && self.layout.flatten().is_ok() {
            // C = O + L with each top-level mode of L one stride: the candidate
            // is C at every index, nothing to check.
            return Ok(Ok(FlatView::new(shape, strides, start, None)?));
        }
        let want = plain.offsets().map(|x| error::add(x, start, what));
        match first_difference(self.size(), "checking a plain view", self.values(), want)? {
            None => Ok(Ok(FlatView::new(shape, strides, start, None)?)),
            Some((index, value, plain)) => Ok(Err(NotPlain {
                index,
                value,
                plain,
            })),
        }
    }
}
