//! The library's test suite, one binary (it links once): property tests that
//! check every result as a function at every index, named edge cases, and the
//! allocation-free hot paths. The reference data replays that go through the
//! batch protocol live in `cli/tests/`.

mod common;

mod algebra_props;
mod api_fuzz;
mod codegen;
mod cute_core;
mod draw;
mod draw_tv;
mod edge_cases;
mod expr_limit;
mod layout_props;
mod loop_nest;
mod merge_props;
mod movement;
mod no_alloc;
mod predicated;
mod smem_props;
mod stream_props;
mod swizzle_props;
mod sym_bind;
mod sym_chain_kernel;
mod sym_kernel;
mod sym_versions;
mod symbolic;
mod symbolic_flat;
mod symbolic_negative;
mod symbolic_tiles;
mod symbolic_views;
mod view_cases;
mod view_props;
mod views_agree;
mod zero_extents;
