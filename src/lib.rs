#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![warn(clippy::unwrap_used)]

mod error;
pub mod limits;
mod num;

pub mod tuple;

pub mod layout;

pub mod algebra;

pub mod merge;

pub mod view;

pub mod codegen;

pub mod draw;

pub mod symbolic;

pub use error::{Error, Result};
pub use layout::{Evaluator, FlatView, FlattenReport, Layout, ModeObstruction, Offsets};
pub use limits::Limits;
pub use merge::{merge, merge_explained, Decision, MaskRule, Rule};
pub use tuple::{IntTuple, Profile, TupleRef, MAX_DEPTH};
pub use view::{Constraint, Movement, MovementKind, View, ViewStack, Window};
