//! `hlayout.SymViewStack`: tinygrad's movement ops over symbolic shapes and
//! arguments, kept in one hierarchical view where the assumptions allow (the
//! crate's [`hlayout::symbolic::SymViewStack`]); `bind(N=3)` gives the
//! concrete `ViewStack`.
//!
//! The class mirrors `ViewStack`: the same method names and arguments, each
//! number an int or polynomial text, and `apply` taking the batch protocol's
//! op text with symbolic numbers as strings. It owns its symbol table, as
//! `SymLayout` does; a symbol an op names first joins it with the default
//! assumptions. `repr` replays the ops (`SymViewStack([...], assume=…)`
//! then one call per op); `str` is the stack's show text. An op that does not
//! hold for every allowed binding raises `NeedsFactsError` naming the facts;
//! one refuted at every binding raises the concrete op's error.

use hlayout::symbolic::{Poly, SymMovement, SymViewStack, Symbols};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use crate::convert::{arg_error, Axes, Flags};
use crate::errors::IntoPy;
use crate::sym_flat::{number, numbers};
use crate::symbolic::poly_to_py;
use crate::view::PyViewStack;

/// A stack of views over symbols: every op exact for every value the
/// assumptions allow.
///
/// `SymViewStack(shape, assume=None)`: the contiguous tensor of `shape`
/// (ints or polynomial text); `assume` as for `SymLayout` (a dict of
/// bounds, or a list of tinygrad `Variable`s).
///
/// >>> s = SymViewStack(["N", 4], assume={"N": {"max": 64}}).pad([(1, 0), (0, 0)])
/// >>> s.shape
/// ('N+1', 4)
/// >>> print(s)
/// (N+1,4):(4,1)-4 if 1<=x0<N+1
/// >>> s.bind(N=2)
/// SymViewStack(['N', 4], assume={'N': {'min': 1, 'max': 64, 'divisible_by': 1}}).pad([(1, 0), (0, 0)]).bind(N=2)
/// >>> s.bind(N=2)(0, 1), s.bind(N=2)(1, 1)
/// (None, 1)
#[pyclass(name = "SymViewStack", module = "hlayout", frozen)]
#[derive(Clone)]
pub(crate) struct PySymViewStack {
    syms: Symbols,
    inner: SymViewStack,
    /// The constructor's shape and the ops applied since, for `repr`.
    shape0: Vec<Poly>,
    ops: Vec<SymMovement>,
}

/// What a pair list accepts.
const PAIRS: &str = "a sequence of (int or str, int or str) pairs";

/// A sequence of `(a, b)` pairs of numbers (pad's and shrink's argument).
fn pairs(obj: &Bound<'_, PyAny>, name: &str, syms: &mut Symbols) -> PyResult<Vec<(Poly, Poly)>> {
    if obj.is_instance_of::<PyString>() {
        return Err(arg_error(name, PAIRS, obj));
    }
    let items = obj.try_iter().map_err(|_| arg_error(name, PAIRS, obj))?;
    items
        .map(|p| {
            let p = p?;
            if p.is_instance_of::<PyString>() {
                return Err(arg_error(name, PAIRS, &p));
            }
            let both: Vec<Bound<'_, PyAny>> = p
                .try_iter()
                .map_err(|_| arg_error(name, PAIRS, &p))?
                .collect::<PyResult<_>>()?;
            match both.as_slice() {
                [a, b] => Ok((number(a, name, syms)?, number(b, name, syms)?)),
                _ => Err(arg_error(name, PAIRS, &p)),
            }
        })
        .collect()
}

impl PySymViewStack {
    /// The single-text kernel of the stack (`codegen::sym_stack`), or the
    /// versioned kernel of the constructor's shape and the ops
    /// (`codegen::sym_chain_versions`).
    fn build_kernel(
        &self,
        input: hlayout::codegen::Input,
        versions: bool,
    ) -> hlayout::Result<hlayout::codegen::SymKernel> {
        if versions {
            hlayout::codegen::sym_chain_versions(&self.shape0, &self.ops, &self.syms, input)
                .map(|kv| kv.kernel().clone())
        } else {
            hlayout::codegen::sym_stack(&self.inner, &self.syms, input)
        }
    }

    /// The stack after `op` (read in `syms`, this stack's table plus the
    /// symbols the op named first), on a copy.
    fn then(&self, syms: Symbols, op: SymMovement) -> PyResult<PySymViewStack> {
        let inner = self.inner.clone().apply(&op, &syms).py()?;
        let mut ops = self.ops.clone();
        ops.push(op);
        Ok(PySymViewStack {
            syms,
            inner,
            shape0: self.shape0.clone(),
            ops,
        })
    }

    /// The stack after the op `make` builds from argument `name`, read by `read` in a
    /// copy of this stack's table (new symbols join it).
    fn op_of<T>(
        &self,
        arg: &Bound<'_, PyAny>,
        name: &str,
        read: fn(&Bound<'_, PyAny>, &str, &mut Symbols) -> PyResult<T>,
        make: fn(T) -> SymMovement,
    ) -> PyResult<PySymViewStack> {
        let mut syms = self.syms.clone();
        let a = read(arg, name, &mut syms)?;
        self.then(syms, make(a))
    }

    /// A number as a Python literal: an int, or quoted polynomial text.
    fn lit(&self, p: &Poly) -> String {
        match p.as_const() {
            Some(c) => c.to_string(),
            None => format!("'{}'", self.syms.show(p)),
        }
    }

    /// `[a, b, …]` of numbers.
    fn list(&self, ps: &[Poly]) -> String {
        let items: Vec<String> = ps.iter().map(|p| self.lit(p)).collect();
        format!("[{}]", items.join(", "))
    }

    /// `.name(arg)`: the Python call that applies `op`.
    fn call(&self, op: &SymMovement) -> String {
        let words = |items: Vec<String>| format!("[{}]", items.join(", "));
        let arg = match op {
            SymMovement::Reshape(s) | SymMovement::Expand(s) => self.list(s),
            SymMovement::Permute(p) => words(p.iter().map(usize::to_string).collect()),
            SymMovement::Pad(a) | SymMovement::Shrink(a) => words(
                a.iter()
                    .map(|(x, y)| format!("({}, {})", self.lit(x), self.lit(y)))
                    .collect(),
            ),
            SymMovement::Flip(f) => words(
                f.iter()
                    .map(|&b| (if b { "True" } else { "False" }).to_string())
                    .collect(),
            ),
        };
        format!(".{}({arg})", op.kind())
    }

    /// The ids of the symbols the views use (extents, strides, offsets,
    /// constraint bounds).
    fn used(&self) -> Vec<u8> {
        let mut ids: Vec<u8> = Vec::new();
        for v in self.inner.views() {
            let bounds = v.constraints().iter().flat_map(|c| [c.lo(), c.hi()]);
            let polys = v.leaf_extents().iter().chain(v.leaf_strides());
            for p in polys.chain([v.offset()]).chain(bounds) {
                ids.extend(p.symbols());
            }
        }
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

#[pymethods]
impl PySymViewStack {
    /// The contiguous tensor of `shape`; `NeedsFactsError` unless every
    /// extent is proved `>= 1` and the size within `i64`.
    #[new]
    #[pyo3(signature = (shape, assume=None))]
    fn new(shape: &Bound<'_, PyAny>, assume: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let mut syms = crate::assume::table(assume)?;
        let shape0 = numbers(shape, "shape", &mut syms)?;
        let inner = SymViewStack::new(&shape0, &syms).py()?;
        Ok(PySymViewStack {
            syms,
            inner,
            shape0,
            ops: Vec::new(),
        })
    }

    /// Reshape to `shape` (ints or polynomial text; the same number of
    /// elements at every binding).
    ///
    /// >>> SymViewStack(["2*N"]).reshape([2, "N"]).permute([1, 0]).shape
    /// ('N', 2)
    fn reshape(&self, shape: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.op_of(shape, "shape", numbers, SymMovement::Reshape)
    }

    /// Reorder the dimensions: new dimension `k` is old dimension `order[k]`.
    ///
    /// >>> print(SymViewStack(["N", 4]).permute([1, 0]))
    /// (4,N):(1,4)
    fn permute(&self, order: Axes) -> PyResult<Self> {
        self.then(self.syms.clone(), SymMovement::Permute(order.0))
    }

    /// Broadcast extent-1 dimensions to `shape`.
    ///
    /// >>> print(SymViewStack([1, 4]).expand(["B", 4]))
    /// (B,4):(0,1)
    fn expand(&self, shape: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.op_of(shape, "shape", numbers, SymMovement::Expand)
    }

    /// Pad each dimension by `(before, after)` invalid elements.
    ///
    /// >>> SymViewStack(["N"]).pad([(1, "P")]).shape
    /// ('N+P+1',)
    fn pad(&self, arg: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.op_of(arg, "arg", pairs, SymMovement::Pad)
    }

    /// Keep `[begin, end)` of each dimension.
    ///
    /// >>> SymViewStack([8, "N"], assume={"N": {"min": 2}}).shrink([(0, 8), (1, "N")]).shape
    /// (8, 'N-1')
    fn shrink(&self, arg: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.op_of(arg, "arg", pairs, SymMovement::Shrink)
    }

    /// Reverse the dimensions whose flag is true.
    ///
    /// >>> print(SymViewStack(["N"]).flip([True]))
    /// N:-1+N-1
    fn flip(&self, flags: Flags) -> PyResult<Self> {
        self.then(self.syms.clone(), SymMovement::Flip(flags.0))
    }

    /// Applies one movement op given as the batch protocol writes it,
    /// `["name", argument]` as JSON text, symbolic numbers as strings
    /// (`'["shrink", [[0, "sp+1"]]]'`): the same vocabulary as
    /// `ViewStack.apply`.
    ///
    /// >>> SymViewStack([64], assume={"sp": {"max": 63}}).apply('["shrink", [[0, "sp+1"]]]')
    /// SymViewStack([64], assume={'sp': {'min': 1, 'max': 63, 'divisible_by': 1}}).shrink([(0, 'sp+1')])
    fn apply(&self, op: &str) -> PyResult<Self> {
        let mut syms = self.syms.clone();
        let op = SymMovement::parse(op, &mut syms).py()?;
        self.then(syms, op)
    }

    /// The kernel expressions of the whole stack (the crate's code generator
    /// over symbols): over the coordinates `i0, i1, …` (`input="coords"`, the
    /// default) or the row-major rank `i` (`input="linear"`), then the
    /// symbols as variables; exact at every allowed binding. Call it with
    /// the inputs' values, then the symbols'. Raises `NeedsFactsError` when
    /// an assumption is missing.
    ///
    /// >>> s = SymViewStack(["N", 4], assume={"N": {"max": 64}, "j": {"min": 0, "max": 8}})
    /// >>> k = s.pad([("j", 0), (0, 0)]).kernel()
    /// >>> k.render("c")
    /// ('i0 * 4 + i1 - 4 * j', 'i0 >= j')
    /// >>> k(4, 3, 3, 2), k(1, 3, 3, 2)
    /// ((11, True), (-1, False))
    ///
    /// With `versions=True`, the versioned kernel (`G ? special : … :
    /// generic`, each version rebuilt from the constructor's shape and the
    /// ops with the guard's values substituted).
    ///
    /// >>> SymViewStack(["N", 3], assume={"N": {"max": 8}}).permute([1, 0]).kernel("linear", versions=True).render("c")[0]
    /// 'N == 1 ? i : i * 3 - i / N * (3 * N - 1)'
    #[pyo3(signature = (input="coords", versions=false))]
    fn kernel(&self, input: &str, versions: bool) -> PyResult<crate::kernel::PyKernel> {
        crate::sym_kernel::kernel(&self.syms, self.__repr__(), input, versions, |i| {
            self.build_kernel(i, versions)
        })
    }

    /// `(index, valid)` of `kernel(input)` as text in `lang` (`"c"`,
    /// `"cuda"`, `"rust"` or `"python"`).
    ///
    /// >>> SymViewStack(["N", 4], assume={"N": {"max": 64}}).permute([1, 0]).expr("python")
    /// ('i0 + i1 * 4', 'True')
    #[pyo3(signature = (lang="c", input="coords", versions=false))]
    fn expr(&self, lang: &str, input: &str, versions: bool) -> PyResult<(String, String)> {
        crate::sym_kernel::expr(lang, input, |i| self.build_kernel(i, versions))
    }

    /// Each view's show text, bottom (reading the buffer) first.
    ///
    /// >>> SymViewStack(["N", 4]).permute([1, 0]).reshape(["4*N"]).views
    /// ['((4,N)):((1,4))']
    /// >>> SymViewStack(["N", 4]).permute([1, 0]).reshape(["2*N", 2]).views
    /// ['(4,N):(1,4)', '(2*N,2):(2,1)']
    #[getter]
    fn views(&self) -> Vec<String> {
        self.inner
            .views()
            .iter()
            .map(|v| v.show(&self.syms).to_string())
            .collect()
    }

    /// The tensor shape: ints, or polynomial text.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let items = self
            .inner
            .shape()
            .py()?
            .iter()
            .map(|p| poly_to_py(py, &self.syms, p))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, items)
    }

    /// The symbols' names, in order of first appearance (those an op named
    /// first after the constructor's).
    #[getter]
    fn symbols(&self) -> Vec<String> {
        crate::assume::names(&self.syms)
    }

    /// Whether the stack is the contiguous view of its shape at every binding.
    #[getter]
    fn is_contiguous(&self) -> bool {
        matches!(self.inner.views(), [v] if v.is_contiguous())
    }

    /// Each symbol's assumptions: `{name: {'min', 'max', 'divisible_by'}}`.
    #[getter]
    fn assumptions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::assume::assumptions(py, &self.syms)
    }

    /// Number of views.
    fn __len__(&self) -> usize {
        self.inner.views().len()
    }

    /// The concrete `ViewStack` at the given values (`N=3`), each within its
    /// assumptions; every symbol the views use needs a value (one only
    /// `assume` names takes its least value).
    ///
    /// >>> SymViewStack(["N", 4]).permute([1, 0]).bind(N=3).shape
    /// (4, 3)
    #[pyo3(signature = (**values))]
    fn bind(&self, values: Option<&Bound<'_, PyDict>>) -> PyResult<PyViewStack> {
        let mut pairs = crate::assume::bind_pairs(values)?;
        let given = pairs.clone();
        let used = self.used();
        for id in 0..self.syms.len() as u8 {
            let name = self.syms.name(id);
            if !used.contains(&id) && !pairs.iter().any(|(n, _)| n == name) {
                pairs.push((name.to_string(), self.syms.range(id).0));
            }
        }
        let ids = crate::assume::binding(&self.syms, &pairs)?;
        let inner = self.inner.bind(&self.syms, &ids).py()?;
        let args: Vec<String> = given.iter().map(|(n, v)| format!("{n}={v}")).collect();
        let text = format!("{}.bind({})", self.__repr__(), args.join(", "));
        Ok(PyViewStack::with_recipe(inner, text))
    }

    /// The views' show text, bottom first, separated by ` | `.
    fn __str__(&self) -> String {
        self.inner.show(&self.syms).to_string()
    }

    /// The Python expression that rebuilds the stack: the constructor (with
    /// every symbol's assumptions) and the ops.
    fn __repr__(&self) -> String {
        let calls: String = self.ops.iter().map(|op| self.call(op)).collect();
        format!(
            "SymViewStack({}, assume={}){calls}",
            self.list(&self.shape0),
            crate::assume::repr(&self.syms)
        )
    }

    /// Equal views and equal assumptions.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.downcast::<PySymViewStack>().is_ok_and(|o| {
            let o = o.get();
            self.__str__() == o.__str__()
                && crate::assume::repr(&self.syms) == crate::assume::repr(&o.syms)
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.__str__().hash(&mut h);
        crate::assume::repr(&self.syms).hash(&mut h);
        h.finish()
    }
}
