//! The layout algebra, one file per operation.
//!
//! Every operation is CuTe's, mirrored into row-major order: for each `op`,
//! `op(A, B) = rev(op_cute(rev A, rev B))` where `rev` reverses every tuple
//! recursively. The algorithms are written natively in row-major form.
//!
//! - [`coalesce`](crate::Layout::coalesce): fewest modes, same function;
//!   [`coalesce_by`](crate::Layout::coalesce_by) keeps a profile.
//! - [`filter`](crate::Layout::filter): drop stride-0 and extent-1 modes.
//! - [`compose`](crate::Layout::compose) (exact), [`compose_by`](crate::Layout::compose_by),
//!   [`reshape`](crate::Layout::reshape).
//! - [`complement`](crate::Layout::complement).
//! - [`right_inverse`](crate::Layout::right_inverse), [`left_inverse`](crate::Layout::left_inverse),
//!   [`nullspace`](crate::Layout::nullspace).
//! - divides: [`logical_divide`](crate::Layout::logical_divide), `zipped_`, `tiled_`, `flat_divide`.
//! - products: [`logical_product`](crate::Layout::logical_product), `zipped_`, `tiled_`,
//!   `blocked_`, `raked_product`.
//! - [`max_common_layout`](crate::Layout::max_common_layout), `max_common_vector`.
//! - [`make_ordered_layout`](crate::Layout::make_ordered_layout).
//! - [`Swizzle`] (CuTe's `Swizzle<B,M,S>` on offsets) and [`ComposedLayout`]
//!   (`Sw ∘ O ∘ L`, CuTe's swizzled layouts) with their operations.
//!
//! The mathematics (definitions, the composition criterion and its proof) is in
//! `docs/algebra.md`.

pub(crate) mod coalesce;
mod common;
mod complement;
mod compose;
mod composed;
mod divide;
mod filter;
mod inverse;
mod inverse_search;
mod ordered;
mod predicated;
mod product;
mod right_search;
mod swizzle;

pub(crate) use coalesce::coalesce_leaves;
pub(crate) use compose::compose_within;

pub use compose::{ComposePath, COMPOSE_FALLBACK_BUDGET};
pub use composed::{ComposedLayout, ComposedOffsets, NotPlain, COMPOSED_CHECK_BUDGET};
pub use inverse_search::LEFT_INVERSE_SEARCH_BUDGET;
pub use predicated::DivideForm;
pub use right_search::RIGHT_INVERSE_SEARCH_BUDGET;
pub use swizzle::Swizzle;

use crate::layout::Layout;

/// What a divide or product applies: one layout to the whole layout, or one
/// layout per mode (aligned with the trailing modes, as NumPy broadcasting).
///
/// ```
/// use hlayout::{algebra::Tiler, Layout};
/// let a: Layout = "(4,6):(6,1)".parse().unwrap();
/// let whole = a.zipped_divide(&Tiler::Layout("3:1".parse().unwrap())).unwrap();
/// assert_eq!(whole.to_string(), "(8,3):(3,1)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tiler {
    /// One layout for the whole (its 1-D index space).
    Layout(Layout),
    /// One layout per trailing mode.
    Modes(Vec<Layout>),
}
