//! Kernel expressions of a symbolic layout: `SymLayout.expr(lang, input)`,
//! the text of [`hlayout::codegen::sym_layout`], whose variables are the
//! inputs (`i`, or `i0, i1, …`) followed by the layout's symbols. The binding
//! only parses the option strings; a refusal for want of a fact raises
//! `NeedsFactsError` naming it.

use hlayout::codegen;
use hlayout::symbolic::{SymLayout, Symbols};
use pyo3::prelude::*;

use crate::errors::IntoPy;
use crate::kernel;

/// `(index, valid)` of the kernel reading through `l` at `input`, as text in
/// `lang`, over the inputs and the symbols of `syms`.
///
/// Cost: that of [`codegen::sym_layout`], then linear in the text.
pub(crate) fn expr(
    l: &SymLayout,
    syms: &Symbols,
    lang: &str,
    input: &str,
) -> PyResult<(String, String)> {
    let lang = kernel::lang(lang)?;
    let k = codegen::sym_layout(l, syms, kernel::input(input)?).py()?;
    Ok(k.kernel().render(lang))
}
