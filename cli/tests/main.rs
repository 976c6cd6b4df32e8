//! The command line crate's test suite, one binary: the `hlayout` program over
//! real pipes, and every reference data file (`tests/data/`) replayed through
//! the batch protocol and the library, each answer checked as a function.

#[path = "../../tests/common/mod.rs"]
mod common;

mod algebra_cases;
mod cli;
mod composed;
mod draw;
mod expr_cases;
mod expr_limit;
mod foundation_cases;
mod hostile;
mod merge_cases;
mod protocol;
mod smem;
mod sym_chain;
mod sym_flat;
mod sym_tiles;
mod sym_versions;
mod symbolic;
mod view_chains;
mod vocabulary;
