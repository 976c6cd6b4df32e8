//! Nested integer tuples: the one recursive carrier ([`IntTuple`]), its text
//! form, and row-major coordinates over a shape ([`coord`]).
//!
//! A tuple stores its leaves in one inline vector and its nesting as a
//! bracket string ([`Profile`]); every recursive algorithm walks a borrowed
//! [`TupleRef`]. Coordinates are row-major: the last leaf varies fastest,
//! recursively inside nested modes, as NumPy and tinygrad order elements.
//!
//! ```
//! use hlayout::tuple::{crd2idx, idx2crd, IntTuple};
//! let shape: IntTuple = "(2,(3,4))".parse()?;
//! assert_eq!(crd2idx(&"(1,(2,3))".parse()?, &shape)?, 23);
//! assert_eq!(idx2crd(23, &shape)?.to_string(), "(1,(2,3))");
//! # Ok::<(), hlayout::Error>(())
//! ```

pub mod coord;
mod int_tuple;
pub(crate) mod notation;
mod profile;

pub use coord::{coarsenings, common_refinement, crd2crd, crd2idx, idx2crd, is_coarsening};
pub(crate) use int_tuple::Builder;
pub use int_tuple::{IntTuple, TupleRef};
pub(crate) use profile::{check_depth, mode_spans, write_nested, Tok};
pub use profile::{Profile, MAX_DEPTH};
