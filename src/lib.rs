#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(clippy::unwrap_used)]

pub mod algebra;
pub mod coord;
mod cute;
mod error;
mod evaluator;
pub mod flat_view;
pub mod flatten;
pub mod int_tuple;
pub mod layout;
pub mod merge;
pub mod notation;
pub mod offsets;
pub mod view;

pub use error::{Error, Result};
pub use evaluator::Evaluator;
pub use flat_view::FlatView;
pub use flatten::{FlattenReport, ModeObstruction};
pub use int_tuple::{IntTuple, Profile, TupleRef, MAX_DEPTH};
pub use layout::Layout;
pub use merge::{merge, merge_explained, Decision, MaskRule, Rule};
pub use offsets::Offsets;
pub use view::{Constraint, View, ViewStack, Window};
