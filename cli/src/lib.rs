//! The `hlayout` command's machinery, kept out of the library crate so that
//! `hlayout` itself has no JSON or argument-parsing dependency.
//!
//! - [`batch`]: the JSON Lines protocol (`docs/batch-protocol.md`) behind `hlayout batch`.
//! - [`composed`]: batch requests on composed layouts (`Sw<B,M,S> o O o L`).
//! - [`fields`]: strict reading of a request's fields (unknown fields, wrong
//!   types and numbers beyond i64 are errors naming the field).
//! - [`show`]: the human report behind `hlayout show`.
//! - [`smem`]: the shared-memory ops of the protocol (bank conflicts, the
//!   swizzle search, F2 linear layouts).
//! - [`draw`]: the pictures behind `hlayout draw` (SVG or TikZ).
//! - [`expr`]: kernel expressions, for `hlayout expr` and the protocol's `expr`.
//! - [`symbolic`]: symbolic extents (polynomial leaves, `assume`, `bind`) in
//!   batch requests and on the command line.
//! - [`sym_chain`]: the protocol's `chain` over symbols.
//!
//! `src/main.rs` only parses arguments and calls into these modules.

#![forbid(unsafe_code)]

pub mod batch;
pub mod composed;
pub mod draw;
pub mod expr;
pub mod fields;
pub mod show;
pub mod show_tiles;
pub mod smem;
pub mod sym_chain;
pub mod sym_expr;
mod sym_flat;
mod sym_tiles;
pub mod symbolic;
