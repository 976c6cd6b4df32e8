//! `hlayout.Kernel`: the crate's kernel expressions ([`hlayout::codegen`]),
//! the index and validity a kernel computes to read through a layout, a view
//! or a stack, rendered as C, Rust or Python text. The binding only parses
//! the option strings and converts the answers.

use hlayout::codegen::{Input, Kernel, Lang};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::errors::IntoPy;

/// `lang` as the crate's language: one of [`Lang::NAMES`] (`"c"`, also
/// `"cuda"`: the C text is valid CUDA; `"rust"`; `"python"`), the names every
/// interface accepts.
pub(crate) fn lang(name: &str) -> PyResult<Lang> {
    name.parse()
        .map_err(|e| PyValueError::new_err(format!("argument 'lang': {e}")))
}

/// `(index, valid)` of `k` as text in `lang`, or `LimitExceededError` when
/// the text would be longer than the default `max_expr_bytes` (measured in
/// O(nodes) before it is written; `Kernel::render_within`).
pub(crate) fn text(k: &Kernel, lang: Lang) -> PyResult<(String, String)> {
    k.render_within(lang, &hlayout::Limits::default()).py()
}

/// `input` as the crate's kernel input: one of [`Input::NAMES`], `"linear"`
/// (one variable `i`, the row-major rank) or `"coords"` (one variable per
/// dimension, `i0, i1, …`).
pub(crate) fn input(name: &str) -> PyResult<Input> {
    name.parse()
        .map_err(|e| PyValueError::new_err(format!("argument 'input': {e}")))
}

/// The kernel of a source: `codegen` applied to it at `input`, wrapped with
/// the recipe that rebuilds it (`{source_repr}.kernel('{input}')`).
pub(crate) fn build(
    source_repr: String,
    input_name: &str,
    codegen: impl FnOnce(Input) -> hlayout::Result<Kernel>,
) -> PyResult<PyKernel> {
    let inner = codegen(input(input_name)?).py()?;
    Ok(PyKernel {
        inner,
        recipe: format!("{source_repr}.kernel('{input_name}')"),
        sym: None,
    })
}

/// The index and validity expressions of a kernel reading through a layout, a
/// view or a stack, with as few divisions and modulos as exact simplification
/// allows (the crate's code generator). Proved free of overflow and of
/// negative division operands over the variables' ranges, so the C, Rust and
/// Python texts compute the same values. The index is meaningful where the
/// validity is true.
///
/// `Layout.kernel()`, `View.kernel()` and `ViewStack.kernel()` build one;
/// `render(lang)` gives `(index, valid)` as text, calling it evaluates it.
///
/// >>> k = Layout("(4,6):(1,4)").kernel()
/// >>> k.render("python"), k.div_mod_count, k.vars
/// (('i * 4 - i // 6 * 23', 'True'), 1, [('i', 24)])
/// >>> k(7), Layout("(4,6):(1,4)")(7)
/// ((5, True), 5)
/// >>> k
/// Layout('(4,6):(1,4)').kernel('linear')
#[pyclass(name = "Kernel", module = "hlayout", frozen)]
pub(crate) struct PyKernel {
    inner: Kernel,
    recipe: String,
    /// A symbolic layout's kernel: its inputs' extents are polynomials, so
    /// calling it checks the point and the binding there.
    sym: Option<crate::sym_kernel::SymEval>,
}

impl PyKernel {
    /// The kernel of a symbolic source (`SymLayout.kernel`), `recipe` its
    /// `repr`.
    pub(crate) fn symbolic(sym: crate::sym_kernel::SymEval, recipe: String) -> PyKernel {
        PyKernel {
            inner: sym.kernel().clone(),
            recipe,
            sym: Some(sym),
        }
    }
}

#[pymethods]
impl PyKernel {
    /// `(index, valid)` as text in `lang` (`"c"`, `"cuda"`, `"rust"` or
    /// `"python"`), over the variables named in `vars`. Raises
    /// `LimitExceededError` (limit `max_expr_bytes`) for text longer than
    /// 1 MiB, which a long chain's shared sub-expressions can reach.
    ///
    /// >>> ViewStack([4]).pad([(1, 0)]).kernel().render("c")
    /// ('i0 - 1', 'i0 >= 1')
    #[pyo3(signature = (lang="c"))]
    fn render(&self, lang: &str) -> PyResult<(String, String)> {
        text(&self.inner, self::lang(lang)?)
    }

    /// The index expression as text in `lang`.
    #[pyo3(signature = (lang="c"))]
    fn index(&self, lang: &str) -> PyResult<String> {
        Ok(text(&self.inner, self::lang(lang)?)?.0)
    }

    /// The validity expression as text in `lang`.
    #[pyo3(signature = (lang="c"))]
    fn valid(&self, lang: &str) -> PyResult<String> {
        Ok(text(&self.inner, self::lang(lang)?)?.1)
    }

    /// The input variables as `(name, extent)`: each ranges over `[0, extent)`.
    /// A `SymLayout`'s kernel lists its inputs, then its symbols (extent
    /// `max + 1`); its inputs' extents depend on the symbols, so they read
    /// `2**63 - 1` here.
    #[getter]
    fn vars(&self) -> Vec<(String, i64)> {
        self.inner
            .vars()
            .iter()
            .map(|v| (v.name.clone(), v.extent))
            .collect()
    }

    /// Number of distinct divisions and modulos in the two expressions (a
    /// sub-expression used twice counts once).
    #[getter]
    fn div_mod_count(&self) -> usize {
        self.inner.div_mod_count()
    }

    /// The expression DAG, children before parents: one tuple per node,
    /// `("const", c)`, `("var", k)` (variable `k` of `vars`), `("add", a, b)`,
    /// `("sub", a, b)`, `("mul", a, b)`, `("div", a, c)` and `("mod", a, c)`
    /// (floor division and modulo by a positive constant `c`),
    /// `("divby", a, d)` and `("modby", a, d)` (by the value of node `d`,
    /// positive: symbolic kernels),
    /// `("select", cond, a, b)`, `("bool", v)`, the comparisons `"lt"`,
    /// `"le"`, `"gt"`, `"ge"`, `"eq"`, `"ne"`, and `"and"`, `"or"`, `"not"`;
    /// `a`, `b`, `cond` are positions in this list. `roots` gives the index's
    /// and the validity's. Code generators build their own IR from it.
    ///
    /// >>> k = ViewStack([4]).pad([(1, 0)]).kernel()
    /// >>> k.nodes[k.roots[0]], k.nodes[k.roots[1]][0]
    /// (('sub', 2, 3), 'ge')
    #[getter]
    fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.inner
            .nodes()
            .iter()
            .map(|n| node_tuple(py, n))
            .collect()
    }

    /// `(index, valid)`: the positions in `nodes` of the two roots.
    #[getter]
    fn roots(&self) -> (u32, u32) {
        (self.inner.index(), self.inner.valid())
    }

    /// The crate's interpreter: `(index, valid)` at the variables' values
    /// (for a `SymLayout`'s kernel, the inputs then the symbols' values).
    /// Raises `OutOfDomainError` for a value outside a variable's range (or
    /// a symbol's assumptions, or an input's extent at those values).
    #[pyo3(signature = (*at))]
    fn __call__(&self, at: &Bound<'_, PyTuple>) -> PyResult<(i64, bool)> {
        let at: Vec<i64> = at.extract()?;
        match &self.sym {
            Some(s) => s.eval(&at).py(),
            None => self.inner.eval(&at).py(),
        }
    }

    /// `index: …` and `valid: …` in C, one per line (as `hlayout expr` prints).
    fn __str__(&self) -> PyResult<String> {
        let (index, valid) = text(&self.inner, Lang::C)?;
        Ok(format!("index: {index}\nvalid: {valid}"))
    }

    /// The expression that rebuilds the kernel from its source.
    fn __repr__(&self) -> String {
        self.recipe.clone()
    }

    /// An SVG picture of the index over the variables (the first one the
    /// rows), grey where the validity is false (for Jupyter); `None` for a
    /// `SymLayout`'s kernel, whose inputs' extents are not numbers.
    fn _repr_svg_(&self) -> Option<String> {
        match self.sym {
            Some(_) => None,
            None => Some(crate::draw::kernel_svg(&self.inner, self.recipe.clone())),
        }
    }

    /// Kernels are equal when their variables and their texts are; a text
    /// longer than `max_expr_bytes` raises `LimitExceededError`.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(other) = other.downcast::<PyKernel>() else {
            return Ok(false);
        };
        let (a, b) = (&self.inner, &other.get().inner);
        if a.vars() != b.vars() {
            return Ok(false);
        }
        for lang in [Lang::Python, Lang::C] {
            if a.text_len(lang) != b.text_len(lang) || text(a, lang)? != text(b, lang)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// One node as `Kernel.nodes` gives it: `("add", a, b)`, `("const", c)`, …
pub(crate) fn node_tuple<'py>(
    py: Python<'py>,
    n: &hlayout::codegen::Node,
) -> PyResult<Bound<'py, PyTuple>> {
    use hlayout::codegen::Node as N;
    let name = |s: &str| s.into_pyobject(py).map(|x| x.into_any());
    let int = |v: i64| v.into_pyobject(py).map(|x| x.into_any());
    let id = |v: u32| v.into_pyobject(py).map(|x| x.into_any());
    let items = match *n {
        N::Const(c) => vec![name("const")?, int(c)?],
        N::Var(k) => vec![name("var")?, int(k as i64)?],
        N::Bool(b) => vec![name("bool")?, b.into_pyobject(py)?.to_owned().into_any()],
        N::Div(a, c) => vec![name("div")?, id(a)?, int(c)?],
        N::Mod(a, c) => vec![name("mod")?, id(a)?, int(c)?],
        N::DivBy(a, d) => vec![name("divby")?, id(a)?, id(d)?],
        N::ModBy(a, d) => vec![name("modby")?, id(a)?, id(d)?],
        N::Not(a) => vec![name("not")?, id(a)?],
        N::Select(c, a, b) => vec![name("select")?, id(c)?, id(a)?, id(b)?],
        N::Add(a, b) => vec![name("add")?, id(a)?, id(b)?],
        N::Sub(a, b) => vec![name("sub")?, id(a)?, id(b)?],
        N::Mul(a, b) => vec![name("mul")?, id(a)?, id(b)?],
        N::Lt(a, b) => vec![name("lt")?, id(a)?, id(b)?],
        N::Le(a, b) => vec![name("le")?, id(a)?, id(b)?],
        N::Gt(a, b) => vec![name("gt")?, id(a)?, id(b)?],
        N::Ge(a, b) => vec![name("ge")?, id(a)?, id(b)?],
        N::Eq(a, b) => vec![name("eq")?, id(a)?, id(b)?],
        N::Ne(a, b) => vec![name("ne")?, id(a)?, id(b)?],
        N::And(a, b) => vec![name("and")?, id(a)?, id(b)?],
        N::Or(a, b) => vec![name("or")?, id(a)?, id(b)?],
    };
    PyTuple::new(py, items)
}
