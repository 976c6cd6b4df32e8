//! `make_ordered_layout`: the compact layout whose strides follow an order.
//!
//! CuTe's `make_ordered_layout(shape, order)`, mirrored: leaves are ranked by
//! their `order` value, the smallest getting stride 1, each next one the product
//! of the extents before it. Ties go to the later leaf first, so equal orders
//! give the row-major layout (as CuTe's ties give column-major). O(n log n).

use smallvec::SmallVec;

use crate::error::{self, Error, Result};
use crate::layout::Layout;
use crate::num::Ints;
use crate::tuple::IntTuple;

impl Layout {
    /// The compact layout of `shape` whose leaves are strided in `order`.
    ///
    /// # Errors
    /// [`Error::NotCongruent`] when `order` and `shape` differ in nesting; those of [`Layout::new`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l = Layout::make_ordered_layout(&"(2,3,4)".parse().unwrap(), &"(0,2,1)".parse().unwrap()).unwrap();
    /// assert_eq!(l.to_string(), "(2,3,4):(1,8,2)");
    /// let r = Layout::make_ordered_layout(&"(2,3)".parse().unwrap(), &"(0,0)".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "(2,3):(3,1)");
    /// ```
    pub fn make_ordered_layout(shape: &IntTuple, order: &IntTuple) -> Result<Layout> {
        if !shape.congruent(order) {
            return Err(Error::NotCongruent {
                what: "shape and order",
                left: shape.to_string(),
                right: order.to_string(),
            });
        }
        let (s, o) = (shape.leaves(), order.leaves());
        let mut rank: SmallVec<[usize; 8]> = (0..s.len()).collect();
        rank.sort_by_key(|&k| (o[k], std::cmp::Reverse(k)));
        let mut stride: Ints = SmallVec::from_elem(0, s.len());
        let mut acc = 1i64;
        for &k in &rank {
            stride[k] = acc;
            acc = error::mul(acc, s[k], "ordered stride")?;
        }
        Layout::new(
            shape.clone(),
            IntTuple::from_parts(shape.profile().clone(), stride),
        )
    }
}
