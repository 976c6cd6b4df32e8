//! The public API as a whole: bytes decoded into calls of public functions
//! and methods (tuples, layouts, the algebra, composed layouts and swizzles,
//! view stacks and their movement ops, views, merge, codegen, draw) with
//! arbitrary arguments, on values built by earlier calls. Asserts no panic,
//! and the contracts that are cheap to check at sampled points (see
//! `tests/common/api_calls.rs`, which `cargo test` also replays).
#![no_main]

#[path = "../../tests/common/api_calls.rs"]
mod api_calls;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| api_calls::run(data));
