//! The `hlayout` command's machinery, kept out of the library crate so that
//! `hlayout` itself has no JSON or argument-parsing dependency.
//!
//! - [`batch`]: the JSON Lines protocol (`docs/batch-protocol.md`) behind `hlayout batch`.
//! - [`show`]: the human report behind `hlayout show`.
//! - [`expr`]: kernel expressions, for `hlayout expr` and the protocol's `expr`.
//!
//! `src/main.rs` only parses arguments and calls into these modules.

#![forbid(unsafe_code)]

pub mod batch;
pub mod expr;
pub mod show;
