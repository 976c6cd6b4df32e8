//! Kernel expressions over symbols: `SymLayout.kernel(input)` /
//! `SymLayout.expr(lang, input)` and `SymViewStack.kernel` / `.expr`, the
//! same names, arguments and answers as `Layout`'s and `ViewStack`'s, built
//! by [`hlayout::codegen::sym_layout`] and [`hlayout::codegen::sym_stack`].
//! The kernel's variables are the inputs
//! (`i`, or `i0, i1, …`) followed by the layout's symbols; calling it takes
//! their values in that order. The binding only parses the option strings; a
//! refusal for want of a fact raises `NeedsFactsError` naming it.

use hlayout::codegen::{Input, Kernel, SymKernel};
use hlayout::symbolic::Symbols;
use pyo3::prelude::*;

use crate::errors::IntoPy;
use crate::kernel::{self, PyKernel};

/// A symbolic kernel with the table it was built in, so that a call can
/// check the symbols' values against their assumptions and the inputs
/// against their extents at those values.
pub(crate) struct SymEval {
    kernel: SymKernel,
    syms: Symbols,
}

impl SymEval {
    /// The kernel (inputs, then symbols, as variables).
    pub(crate) fn kernel(&self) -> &Kernel {
        self.kernel.kernel()
    }

    /// `(index, valid)` at `at`: the inputs' values, then one value per
    /// symbol of the kernel (in the order of its variables). A symbol of the
    /// table the kernel does not use takes its least allowed value. O(nodes).
    pub(crate) fn eval(&self, at: &[i64]) -> hlayout::Result<(i64, bool)> {
        let inputs = self.kernel.extents().len();
        let used = self.kernel.symbols();
        if at.len() != inputs + used.len() {
            return Err(hlayout::Error::OutOfDomain {
                what: format!(
                    "the kernel takes {} values (inputs, then symbols), got {}",
                    inputs + used.len(),
                    at.len()
                ),
            });
        }
        let values: Vec<i64> = (0..self.syms.len() as u8)
            .map(|id| match used.iter().position(|&u| u == id) {
                Some(k) => at[inputs + k],
                None => self.syms.range(id).0,
            })
            .collect();
        self.kernel.eval(&self.syms, &at[..inputs], &values)
    }
}

/// The kernel `build` makes at `input`, as a `Kernel` whose `repr` is
/// `{source_repr}.kernel('{input}')`.
///
/// Cost: that of `build` ([`hlayout::codegen::sym_layout`]: O(leaves) nodes, O(1)
/// prover calls each; [`hlayout::codegen::sym_stack`]: O(views · leaves ·
/// (1 + constraints)) nodes), plus a copy of the symbol table.
pub(crate) fn kernel(
    syms: &Symbols,
    source_repr: String,
    input: &str,
    versions: bool,
    build: impl FnOnce(Input) -> hlayout::Result<SymKernel>,
) -> PyResult<PyKernel> {
    let k = build(kernel::input(input)?).py()?;
    let sym = SymEval {
        kernel: k,
        syms: syms.clone(),
    };
    let flag = if versions { ", versions=True" } else { "" };
    Ok(PyKernel::symbolic(
        sym,
        format!("{source_repr}.kernel('{input}'{flag})"),
    ))
}

/// `(index, valid)` of the kernel `build` makes at `input`, as text in
/// `lang`, over the inputs and the symbols.
///
/// Cost: that of `build`, then linear in the text.
pub(crate) fn expr(
    lang: &str,
    input: &str,
    build: impl FnOnce(Input) -> hlayout::Result<SymKernel>,
) -> PyResult<(String, String)> {
    let lang = kernel::lang(lang)?;
    let k = build(kernel::input(input)?).py()?;
    kernel::text(k.kernel(), lang)
}
