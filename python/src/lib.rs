//! Python bindings of hlayout (module `hlayout._hlayout`, re-exported by the
//! `hlayout` package): layouts, flat views, hierarchical views, movement-op
//! stacks, the exact pair merge, layouts over symbols and the typed errors.
//! Every algorithm is the crate's; this crate only converts arguments and
//! answers.

mod assume;
mod chain_kernels;
mod composed;
mod convert;
mod draw;
mod errors;
mod kernel;
mod layout;
mod loops;
mod smem;
mod sym_flat;
mod sym_kernel;
mod symbolic;
mod symtiles;
mod symview;
mod tuple;
mod view;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _hlayout(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<layout::PyLayout>()?;
    m.add_class::<layout::PyFlatView>()?;
    m.add_class::<view::PyView>()?;
    m.add_class::<view::PyViewStack>()?;
    m.add_class::<kernel::PyKernel>()?;
    m.add_class::<loops::PyLoopNest>()?;
    m.add_class::<composed::PySwizzle>()?;
    m.add_class::<composed::PyComposedLayout>()?;
    m.add_class::<symbolic::PySymLayout>()?;
    m.add_class::<sym_flat::PySymFlatView>()?;
    m.add_class::<symtiles::PySymPredicated>()?;
    m.add_class::<symview::PySymViewStack>()?;
    m.add_class::<draw::PyTvPicture>()?;
    m.add_function(wrap_pyfunction!(view::merge, m)?)?;
    m.add_function(wrap_pyfunction!(chain_kernels::chain_kernels, m)?)?;
    m.add_function(wrap_pyfunction!(view::reshape_flat, m)?)?;
    m.add_function(wrap_pyfunction!(loops::loop_nest, m)?)?;
    m.add_function(wrap_pyfunction!(tuple::tuple_size, m)?)?;
    m.add_function(wrap_pyfunction!(tuple::prefix_product, m)?)?;
    m.add_function(wrap_pyfunction!(tuple::suffix_product, m)?)?;
    m.add_function(wrap_pyfunction!(tuple::shape_div, m)?)?;
    m.add_function(wrap_pyfunction!(tuple::idx2crd, m)?)?;
    m.add_function(wrap_pyfunction!(tuple::crd2idx, m)?)?;
    m.add_function(wrap_pyfunction!(tuple::crd2crd, m)?)?;
    m.add_function(wrap_pyfunction!(tuple::common_refinement, m)?)?;
    errors::register(m)?;
    smem::register(m)?;
    Ok(())
}
