//! Integer machinery shared by every layer above: floor and ceiling
//! division ([`floor`]), division by precomputed reciprocals for hot loops
//! ([`reciprocal`]), and [`Ints`], the inline vector of integers every layer
//! stores leaves, strides and coefficients in.
//!
//! Nothing here knows about tuples, layouts or views; everything else may use
//! it. Checked arithmetic that turns an overflow into a typed error lives with
//! the error type (`error::mul`, `error::add`).

pub(crate) mod floor;
pub(crate) mod reciprocal;

use smallvec::SmallVec;

pub(crate) use reciprocal::Divisor;

/// Coordinates, strides, extents, residues: inline up to rank 8, so the common
/// case allocates nothing. Stored in 64 bits (every such value is bounded by
/// `merge::MAX_SPAN` in the merge decision); products and sums are taken in `i128`.
pub(crate) type Ints = SmallVec<[i64; 8]>;
