#![doc = include_str!("../README.md")]

pub mod algebra;
pub mod batch;
pub mod coord;
mod error;
pub mod flat_view;
pub mod flatten;
pub mod int_tuple;
pub mod layout;
pub mod merge;
pub mod notation;
pub mod offsets;
pub mod show;

pub use error::{Error, Result};
pub use flat_view::FlatView;
pub use flatten::{FlattenReport, ModeObstruction};
pub use int_tuple::{IntTuple, Profile, TupleRef, MAX_DEPTH};
pub use layout::Layout;
pub use merge::{merge, merge_explained, Decision, MaskRule, Rule};
pub use offsets::Offsets;
