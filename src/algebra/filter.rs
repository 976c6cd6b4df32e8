//! `filter`: drop the modes that do not move the offset.
//!
//! CuTe's `filter` mirrored: leaves with stride 0 are set to extent 1, then the
//! layout is coalesced. The result enumerates each distinct offset of an
//! injective-on-the-rest layout exactly once. O(leaves).

use smallvec::SmallVec;

use crate::layout::Layout;
use crate::tuple::Profile;

impl Layout {
    /// Drops stride-0 and extent-1 leaves, then coalesces.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(3,(4,1),2):(0,(2,7),1)".parse().unwrap();
    /// assert_eq!(l.filter().to_string(), "8:1");
    /// ```
    pub fn filter(&self) -> Layout {
        let shape: SmallVec<[i64; 8]> = self
            .shape_leaves()
            .iter()
            .zip(self.stride_leaves())
            .map(|(&s, &d)| if d == 0 { 1 } else { s })
            .collect();
        let zeroed = Layout::from_trusted(
            Profile::flat(shape.len()),
            shape,
            SmallVec::from_slice(self.stride_leaves()),
        );
        zeroed.coalesce()
    }
}
