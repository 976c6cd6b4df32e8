//! `max_common_layout`, `max_common_vector`: the contiguous run two layouts share.
//!
//! CuTe's definition, mirrored: with `I = right_inverse(B)`, coalesce `A ∘ I`;
//! if its fastest (last) leaf has stride 1, that leaf `n:1` says the first `n`
//! offsets of B's inverse are also consecutive in A, and the result is
//! `I ∘ (n:1)`; otherwise `1:0`. Postcondition, for every `i < size(R)`:
//! `A(R(i)) = i` and `B(R(i)) = i`. When `A ∘ I` does not exist as one layout
//! the answer is `1:0` (the postcondition still holds; maximality is CuTe's
//! notion, taken over composable prefixes). Cost: one right inverse, two compositions.

use smallvec::smallvec;

use crate::layout::Layout;

impl Layout {
    /// The largest `R` (in CuTe's sense) with `A(R(i)) = B(R(i)) = i` for `i < size(R)`.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "(4,8):(8,1)".parse().unwrap();
    /// let b: Layout = "(4,8):(1,4)".parse().unwrap();
    /// let r = a.max_common_layout(&b);
    /// assert_eq!(r.to_string(), "1:0");
    /// let c: Layout = "(2,8):(8,1)".parse().unwrap();
    /// assert_eq!(a.max_common_layout(&c).size(), 16);
    /// ```
    pub fn max_common_layout(&self, b: &Layout) -> Layout {
        let unit = || crate::algebra::complement::flat_layout(smallvec![1], smallvec![0]);
        let inv = b.right_inverse();
        let Ok(common) = self.compose(&inv) else {
            return unit();
        };
        let common = common.coalesce();
        let (s, d) = (common.shape_leaves(), common.stride_leaves());
        match (s.last(), d.last()) {
            (Some(&n), Some(&1)) => Layout::flat(&[n], &[1])
                .and_then(|v| inv.compose(&v))
                .unwrap_or_else(|_| unit()),
            _ => unit(),
        }
    }

    /// `size(max_common_layout(A, B))`: how many elements are contiguous in both.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "(4,8):(8,1)".parse().unwrap();
    /// assert_eq!(a.max_common_vector(&"(2,8):(8,1)".parse().unwrap()), 16);
    /// ```
    pub fn max_common_vector(&self, b: &Layout) -> i64 {
        self.max_common_layout(b).size()
    }
}
