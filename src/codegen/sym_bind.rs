//! [`SymKernel::bind`]: a kernel over symbols specialised at one binding,
//! for a code generator that knows the sizes at launch.
//!
//! The symbolic kernel's nodes are read once, in order (the arena is
//! topological), each into the concrete simplifier's linear form
//! ([`Builder`]): a symbol becomes its value, an input variable its atom
//! over the bound extent, a product one with a constant factor, and a
//! division or modulo (by a constant or, now, by a symbol's value) the
//! simplifier's own. The concrete emitter then re-simplifies the whole index
//! with the concrete bounds exactly as it does for a concrete layout: it
//! folds `x/1`, `x%1` and constant products, drops a `/` or `%` whose operand
//! lies below the divisor, and cancels the quotients whose coefficients sum
//! to zero, which is where the concrete layout coalesces by coincidence
//! (`(4,N):(1,4)` at `N = 1` is `4:1`, and its index `i*4 - i/N*(4*N-1)`
//! becomes `i`). See `docs/symbolic.md` §13 for why the count never exceeds
//! the concrete kernel's.
//!
//! Cost: O(nodes) simplifier calls, each O(atoms) (tens).

use super::ir::{Kernel, Node, NodeId, Var};
use super::linear::{Builder, Lin};
use super::sym::{check_binding, SymKernel};
use crate::error::{overflow, Error, Result};
use crate::symbolic::Symbols;

impl SymKernel {
    /// The concrete kernel at the binding `values` (`values[id]` for each
    /// symbol id of `syms`, see [`Symbols::binding`]): the inputs only (no
    /// symbol variables), their extents bound, the index re-simplified with
    /// the concrete bounds (module docs). For the kernels of symbolic
    /// layouts ([`super::sym_layout`]); a chain's kernel
    /// ([`super::sym_stack`]) binds when it has no validity condition and
    /// no selection, and is refused otherwise. O(nodes · atoms).
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] when a value breaks its assumptions, or for a
    /// node outside the symbolic lowering's (a product of two variables, a
    /// condition); [`Error::Overflow`] when a bound extent or a node leaves
    /// `i64` (the symbolic kernel proved its nodes within `i64` at every
    /// allowed binding, so only a kernel built under other assumptions
    /// fails here).
    ///
    /// ```
    /// use hlayout::codegen::{layout, sym_layout, Input};
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let l = SymLayout::parse("(4,N):(1,4)", &mut s)?;
    /// let k = sym_layout(&l, &s, Input::Linear)?;
    /// assert_eq!(k.kernel().div_mod_count(), 1);
    /// // At N = 1 the layout is 4:1: the bound kernel has no division left.
    /// let at = s.binding(&[("N", 1)])?;
    /// let bound = k.bind(&s, &at)?;
    /// assert_eq!(bound.c().0, "i");
    /// let concrete = layout(&l.bind(&s, &at)?, Input::Linear)?;
    /// assert!(bound.div_mod_count() <= concrete.div_mod_count());
    /// let at = s.binding(&[("N", 3)])?;
    /// let bound = k.bind(&s, &at)?;
    /// for i in 0..12 {
    ///     assert_eq!(bound.eval(&[i])?, (l.bind(&s, &at)?.eval(i)?, true));
    /// }
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn bind(&self, syms: &Symbols, values: &[i64]) -> Result<Kernel> {
        check_binding(syms, values)?;
        let k = self.kernel();
        let inputs = self.extents().len();
        let mut b = Builder::recording();
        let mut vars = Vec::with_capacity(inputs);
        for (j, e) in self.extents().iter().enumerate() {
            let extent = e
                .eval(values)
                .and_then(|v| i64::try_from(v).ok())
                .ok_or_else(|| overflow("a bound input extent"))?;
            vars.push(Var {
                name: k.vars()[j].name.clone(),
                extent,
            });
        }
        let mut forms: Vec<Option<Lin>> = Vec::with_capacity(k.nodes().len());
        let reach = k.reachable();
        for (id, node) in k.nodes().iter().enumerate() {
            let form = match reach[id] && !node.is_bool() {
                true => Some(self.form(*node, &forms, &vars, values, &mut b)?),
                false => None,
            };
            forms.push(form);
        }
        if k.nodes()[k.valid() as usize] != Node::Bool(true) {
            return Err(unsupported("a validity condition"));
        }
        let index = take(&forms, k.index())?;
        super::finish(b, vars, &index, &[])
    }

    /// The linear form of one integer node, its operands' forms known.
    fn form(
        &self,
        node: Node,
        forms: &[Option<Lin>],
        vars: &[Var],
        values: &[i64],
        b: &mut Builder,
    ) -> Result<Lin> {
        let get = |id: NodeId| take(forms, id);
        Ok(match node {
            Node::Const(c) => Lin::constant(c),
            Node::Var(v) => match vars.get(v) {
                Some(var) => b.var(v, var.extent),
                None => Lin::constant(self.symbol_value(v - vars.len(), values)?),
            },
            Node::Add(x, y) => get(x)?.add_scaled(&get(y)?, 1)?,
            Node::Sub(x, y) => get(x)?.add_scaled(&get(y)?, -1)?,
            Node::Mul(x, y) => {
                let (x, y) = (get(x)?, get(y)?);
                match (as_const(&x), as_const(&y)) {
                    (Some(c), _) => y.scaled(c)?,
                    (_, Some(c)) => x.scaled(c)?,
                    _ => return Err(unsupported("a product of two variables")),
                }
            }
            Node::Div(x, c) => b.div(&get(x)?, c)?,
            Node::Mod(x, c) => modulo(b, &get(x)?, c)?,
            Node::DivBy(x, d) => b.div(&get(x)?, divisor(&get(d)?)?)?,
            Node::ModBy(x, d) => modulo(b, &get(x)?, divisor(&get(d)?)?)?,
            _ => return Err(unsupported("a selection or a condition")),
        })
    }

    /// The value of the `j`-th symbol variable at `values`.
    fn symbol_value(&self, j: usize, values: &[i64]) -> Result<i64> {
        self.symbols()
            .get(j)
            .and_then(|&id| values.get(id as usize))
            .copied()
            .ok_or_else(|| overflow("a kernel variable outside the binding"))
    }
}

/// `x mod c` as `x − c·⌊x/c⌋` (rule E1 of `docs/codegen.md`): the quotient
/// is an atom that may cancel against another digit's (a stride-0 leaf made
/// the symbolic kernel write a `%` where the concrete layout, coalesced at
/// the binding, reads one quotient).
fn modulo(b: &mut Builder, x: &Lin, c: i64) -> Result<Lin> {
    let q = b.div(x, c)?;
    x.add_scaled(&q, c.checked_neg().ok_or_else(|| overflow("a divisor"))?)
}

/// The form of node `id`, built before it.
fn take(forms: &[Option<Lin>], id: NodeId) -> Result<Lin> {
    forms
        .get(id as usize)
        .and_then(Clone::clone)
        .ok_or_else(|| unsupported("a node read before it is built"))
}

/// The constant of a form without atoms.
fn as_const(l: &Lin) -> Option<i64> {
    l.terms.is_empty().then_some(l.konst)
}

/// A divisor that the binding made a constant `>= 1`.
fn divisor(l: &Lin) -> Result<i64> {
    match as_const(l) {
        Some(c) if c >= 1 => Ok(c),
        _ => Err(Error::OutOfDomain {
            what: "a divisor that is not a positive constant at the binding".into(),
        }),
    }
}

/// The refusal of a node outside the symbolic lowering's.
fn unsupported(what: &str) -> Error {
    Error::OutOfDomain {
        what: format!("binding a symbolic kernel with {what}"),
    }
}
