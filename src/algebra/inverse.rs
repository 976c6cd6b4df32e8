//! `right_inverse`, `left_inverse`, `nullspace`.
//!
//! CuTe's definitions, mirrored into row-major order.
//!
//! - `right_inverse(L)`: the largest `R` built from L's leaves sorted by stride
//!   whose strides chain contiguously from 1 (`d = 1, s₀·d₀, …`); each such leaf
//!   contributes `s : (its row-major index stride in L)`. Then `L(R(i)) = i` for
//!   every `i < size(R)`. Zero and negative strides stop the chain.
//! - `left_inverse(L)`: `right_inverse((complement(L), L))`, defined when L is
//!   injective and its leaves tile a mixed radix (each stride a multiple of the
//!   span below it); then `(complement, L)` is a bijection onto an interval and
//!   `R(L(i)) = i` for every `i < size(L)`.
//! - `nullspace(L)`: the injective layout over L's zero-stride leaves, so that
//!   `L(N(i)) = 0` for every `i`.
//!
//! Each is O(n log n) in the leaves and allocates nothing for ≤ 8 leaves.

use smallvec::SmallVec;

use crate::algebra::complement::{complement_layout, flat_layout, push_coalesced};
use crate::error::{Error, Result};
use crate::layout::{Layout, Leaves};

impl Layout {
    /// The right inverse: `L(R(i)) = i` for every `i < size(R)`, R as large as
    /// the contiguous chain of L's strides allows (`1:0` when L has no stride 1).
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(6,4,2):(8,1,4)".parse().unwrap();
    /// let r = l.right_inverse();
    /// assert_eq!(r.to_string(), "(6,2,4):(8,1,2)");
    /// assert!((0..r.size()).all(|i| l.eval(r.eval(i).unwrap()).unwrap() == i));
    /// ```
    pub fn right_inverse(&self) -> Layout {
        let (shape, stride) = right_inverse_leaves(self.shape_leaves(), self.stride_leaves());
        flat_layout(shape, stride)
    }

    /// The left inverse: `R(L(i)) = i` for every `i < size(L)`.
    ///
    /// # Errors
    /// [`Error::Precondition`] when L is not injective (a zero stride on a leaf
    /// of extent > 1, or overlapping leaves), or when its leaves do not tile a
    /// mixed radix (a stride not a multiple of the span below it; a layout left
    /// inverse may still exist then, but this operation does not build it).
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(2,4):(16,1)".parse().unwrap();
    /// let r = l.left_inverse().unwrap();
    /// assert!((0..l.size()).all(|i| r.eval(l.eval(i).unwrap()).unwrap() == i));
    /// assert!("(2,2):(0,1)".parse::<Layout>().unwrap().left_inverse().is_err());
    /// ```
    pub fn left_inverse(&self) -> Result<Layout> {
        let (s, d) = (self.shape_leaves(), self.stride_leaves());
        if let Some(k) = (0..s.len()).find(|&k| s[k] > 1 && d[k] == 0) {
            return Err(Error::Precondition {
                op: "left_inverse",
                layout: self.to_string(),
                rule: format!("not injective: leaf {k} has extent {} and stride 0", s[k]),
            });
        }
        let c = complement_layout(self, 1, true).map_err(|e| match e {
            Error::Precondition { rule, .. } => Error::Precondition {
                op: "left_inverse",
                layout: self.to_string(),
                rule: format!("not injective or not a mixed radix: {rule}"),
            },
            other => other,
        })?;
        let mut shape = Leaves::from_slice(c.shape_leaves());
        let mut stride = Leaves::from_slice(c.stride_leaves());
        shape.extend_from_slice(s);
        stride.extend_from_slice(d);
        let (rs, rd) = right_inverse_leaves(&shape, &stride);
        Ok(flat_layout(rs, rd))
    }

    /// The nullspace: an injective layout `N` over L's zero-stride leaves with
    /// `L(N(i)) = 0` for every `i < size(N)` (`1:0` when there are none).
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(3,4,2):(0,1,0)".parse().unwrap();
    /// let n = l.nullspace();
    /// assert_eq!(n.to_string(), "(3,2):(8,1)");
    /// assert!((0..n.size()).all(|i| l.eval(n.eval(i).unwrap()).unwrap() == 0));
    /// ```
    pub fn nullspace(&self) -> Layout {
        let (s, d) = (self.shape_leaves(), self.stride_leaves());
        let index = index_strides(s);
        let (mut shape, mut stride) = (Leaves::new(), Leaves::new());
        for k in (0..s.len()).filter(|&k| s[k] > 1 && d[k] == 0) {
            shape.push(s[k]);
            stride.push(index[k]);
        }
        if shape.is_empty() {
            return flat_layout(SmallVec::from_slice(&[1]), SmallVec::from_slice(&[0]));
        }
        flat_layout(shape, stride)
    }
}

/// Row-major index strides (suffix products) of flat extents.
fn index_strides(shape: &[i64]) -> Leaves {
    let mut out: Leaves = SmallVec::from_elem(1, shape.len());
    for k in (0..shape.len().saturating_sub(1)).rev() {
        out[k] = out[k + 1] * shape[k + 1]; // ≤ size
    }
    out
}

/// Right-inverse leaves (row-major, coalesced) of flat leaves. Extent-1
/// leaves are dropped first (they never take part in the chain).
fn right_inverse_leaves(shape: &[i64], stride: &[i64]) -> (Leaves, Leaves) {
    let mut sorted: SmallVec<[(i64, i64, i64); 8]> = SmallVec::new();
    let mut index = 1i64;
    for (&s, &d) in shape.iter().zip(stride).rev() {
        if s > 1 {
            sorted.push((d, s, index));
        }
        index *= s; // ≤ size
    }
    sorted.sort_unstable();
    let mut taken: SmallVec<[(i64, i64); 9]> = SmallVec::new();
    let mut next = 1i64;
    for &(d, s, i) in &sorted {
        if d != next {
            break;
        }
        push_coalesced(&mut taken, s, i);
        next = s.saturating_mul(d);
    }
    if taken.is_empty() {
        return (SmallVec::from_slice(&[1]), SmallVec::from_slice(&[0]));
    }
    (
        taken.iter().rev().map(|t| t.0).collect(),
        taken.iter().rev().map(|t| t.1).collect(),
    )
}
