//! The layout algebra, one file per operation.
//!
//! Every operation is CuTe's, mirrored into row-major order: for each `op`,
//! `op(A, B) = rev(op_cute(rev A, rev B))` where `rev` reverses every tuple
//! recursively. The algorithms are written natively in row-major form.
//!
//! - [`coalesce`](crate::Layout::coalesce): fewest modes, same function;
//!   [`coalesce_by`](crate::Layout::coalesce_by) keeps a profile.
//! - [`filter`](crate::Layout::filter): drop stride-0 and extent-1 modes.

pub(crate) mod coalesce;
mod compose;
mod filter;

pub use compose::{ComposePath, COMPOSE_FALLBACK_BUDGET};
