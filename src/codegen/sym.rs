//! Kernel expressions over symbols: the index of a [`SymLayout`] as one text
//! for every allowed binding, the symbols being variables of the text after
//! the coordinates (`docs/batch-protocol.md`, "Symbolic extents").
//!
//! The lowering is the concrete one (`lower`, `emit`) with polynomial
//! extents and strides: the leaves of each mode, coalesced as far as the
//! assumptions prove ([`SymLayout::coalesce`]), are the mixed-radix digits of
//! the mode's coordinate `x`: `⌊x/P_k⌋ mod e_k`, with `P_k` the product of the
//! extents after leaf `k`. The first digit takes no modulo, and a modulo whose
//! quotient the kernel computes anyway is written `q - e·⌊q/e⌋` (rule E1 of
//! `docs/codegen.md`), so `m` leaves cost `m - 1` divisions.
//!
//! Every node carries an interval whose ends are *polynomials* in the
//! symbols, sound at every allowed binding (a polynomial node's interval is
//! itself, exactly); a division's bound is divided exactly where the
//! polynomials allow (`⌊(N·M−1)/M⌋ = N−1`). A division or modulo is dropped
//! when the prover shows its operand below the divisor (`(i/x)%3` is `i/x`
//! when `i < 3·x`). Each end is proved within `±(2^63 − 1)` by the prover,
//! each divisor `≥ 1`, each dividend `≥ 0`; a fact not proved is a need
//! ([`Error::NeedsFacts`]), so nothing overflows at any allowed binding.
//!
//! Cost: O(leaves) nodes, each with O(1) prover calls on polynomials of
//! O(leaves) terms.

use super::ir::{Kernel, Node, NodeId, Var};
use super::Input;
use crate::error::{Error, Result};
use crate::symbolic::{Fact, Mono, Poly, SymLayout, Symbols, Truth};

/// A kernel whose text uses the symbols as variables: the input variables
/// first (`i`, or `i0, i1, …`), then one per symbol of the layout, in the
/// order of their ids.
///
/// ```
/// use hlayout::codegen::{sym_layout, Input};
/// use hlayout::symbolic::{SymLayout, Symbols};
/// let mut s = Symbols::new();
/// let l = SymLayout::parse("(4,N):(1,4)", &mut s)?;
/// let k = sym_layout(&l, &s, Input::Linear)?;
/// assert_eq!(k.kernel().c().0, "i * 4 - i / N * (4 * N - 1)");
/// assert_eq!(k.kernel().div_mod_count(), 1);
/// let at = s.binding(&[("N", 3)])?;
/// for i in 0..12 {
///     assert_eq!(k.eval(&s, &[i], &at)?, (l.bind(&s, &at)?.eval(i)?, true));
/// }
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct SymKernel {
    pub(super) kernel: Kernel,
    pub(super) extents: Vec<Poly>,
    pub(super) symbols: Vec<u8>,
    /// Evaluate only the branch each `?:` takes ([`Kernel::eval_taken`]):
    /// a versioned kernel, whose versions hold only where their guards do.
    pub(super) taken_only: bool,
}

impl SymKernel {
    /// The kernel: render it ([`Kernel::render`]), count its divisions
    /// ([`Kernel::div_mod_count`]). Its variables are the inputs, then the
    /// symbols; the inputs' `extent` is a placeholder (the real extents are
    /// [`SymKernel::extents`]).
    ///
    /// See [`SymKernel`] for an example.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }

    /// The extent of each input variable, a polynomial.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let l = hlayout::symbolic::SymLayout::parse("(N,4):(1,N)", &mut s)?;
    /// let k = hlayout::codegen::sym_layout(&l, &s, hlayout::codegen::Input::Coords)?;
    /// assert_eq!(k.extents().iter().map(|p| s.show(p).to_string()).collect::<Vec<_>>(), ["N", "4"]);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn extents(&self) -> &[Poly] {
        &self.extents
    }

    /// The symbol ids of the variables after the inputs, in order.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let l = hlayout::symbolic::SymLayout::parse("(M,N):(N,1)", &mut s)?;
    /// let k = hlayout::codegen::sym_layout(&l, &s, hlayout::codegen::Input::Linear)?;
    /// assert_eq!(k.symbols(), [0, 1]);
    /// assert_eq!(k.kernel().c().0, "i");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn symbols(&self) -> &[u8] {
        &self.symbols
    }

    /// `(index, valid)` at the inputs `at` and the binding `values`
    /// (`values[id]` for each symbol id of `syms`, see
    /// [`Symbols::binding`]). O(nodes).
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] when a value breaks its assumptions or an
    /// input lies outside its extent at the binding; those of
    /// [`Kernel::eval`].
    ///
    /// See [`SymKernel`] for an example.
    pub fn eval(&self, syms: &Symbols, at: &[i64], values: &[i64]) -> Result<(i64, bool)> {
        check_binding(syms, values)?;
        let inside = at.len() == self.extents.len()
            && at
                .iter()
                .zip(&self.extents)
                .all(|(&x, e)| e.eval(values).is_some_and(|n| x >= 0 && i128::from(x) < n));
        if !inside {
            return Err(Error::OutOfDomain {
                what: format!("point {at:?} outside the kernel's inputs at {values:?}"),
            });
        }
        let mut all = at.to_vec();
        all.extend(self.symbols.iter().map(|&id| values[id as usize]));
        if self.taken_only {
            self.kernel.eval_taken(&all)
        } else {
            self.kernel.eval(&all)
        }
    }
}

/// `Ok` when `values` binds every symbol of `syms` within its assumptions.
pub(crate) fn check_binding(syms: &Symbols, values: &[i64]) -> Result<()> {
    if values.len() != syms.len()
        || (0..syms.len()).any(|id| !syms.assumption(id as u8).allows(values[id]))
    {
        return Err(Error::OutOfDomain {
            what: format!("binding {values:?} outside the assumptions"),
        });
    }
    Ok(())
}

/// The kernel of a symbolic layout from its row-major rank `i`
/// ([`Input::Linear`]) or its top-level coordinates ([`Input::Coords`]);
/// always valid. An all-constant layout (or one whose symbols are fixed)
/// gets the concrete kernel ([`super::layout`]). See the module docs for the
/// rules and the cost.
///
/// # Errors
/// [`Error::NeedsFacts`] naming the facts that would prove every node
/// within `i64` (e.g. `4*N*N <= 9223372036854775807`), every symbol `>= 0`;
/// [`Error::OutOfDomain`] when a symbol is named like an input variable;
/// [`Error::Overflow`] from polynomial arithmetic.
///
/// See [`SymKernel`] for an example.
pub fn sym_layout(l: &SymLayout, syms: &Symbols, input: Input) -> Result<SymKernel> {
    let symbols = used_symbols(l.shape_leaves().iter().chain(l.stride_leaves()));
    let modes = match input {
        Input::Linear => vec![l.clone()],
        Input::Coords => l.modes(),
    };
    let extents = modes
        .iter()
        .map(SymLayout::size)
        .collect::<Result<Vec<_>>>()?;
    let fixed = l.fixed(syms);
    if let Some(concrete) = fixed.to_layout() {
        let kernel = with_symbols(super::layout(&concrete, input)?, syms, &symbols);
        return Ok(SymKernel {
            kernel,
            extents,
            symbols,
            taken_only: false,
        });
    }
    let mut b = start(syms, &symbols, input, modes.len())?;
    let mut terms: Vec<(NodeId, Poly)> = Vec::new();
    for (k, (mode, extent)) in modes.iter().zip(&extents).enumerate() {
        let x = b.push(Node::Var(k), Poly::zero(), extent.sub(&Poly::constant(1))?)?;
        let flat = mode.coalesce(syms)?;
        digits(
            &mut b,
            x,
            flat.shape_leaves(),
            flat.stride_leaves(),
            &mut terms,
        )?;
    }
    let index = b.sum(&terms)?;
    b.k.set_index(index);
    b.finish()?;
    Ok(SymKernel {
        kernel: b.k,
        extents,
        symbols,
        taken_only: false,
    })
}

/// The ids of the symbols `polys` use, ascending.
pub(super) fn used_symbols<'p>(polys: impl Iterator<Item = &'p Poly>) -> Vec<u8> {
    let mut symbols: Vec<u8> = polys.flat_map(|p| p.symbols()).collect();
    symbols.sort_unstable();
    symbols.dedup();
    symbols
}

/// A concrete kernel with the variables of `symbols` appended (unused by
/// its nodes, so every symbolic kernel has the same variables).
pub(super) fn with_symbols(kernel: Kernel, syms: &Symbols, symbols: &[u8]) -> Kernel {
    let mut vars = kernel.vars().to_vec();
    vars.extend(symbols.iter().map(|&id| sym_var(syms, id)));
    kernel.with_vars(vars)
}

/// The builder of a kernel over the input variables (`n_inputs` of them for
/// coordinates) then `symbols`, each symbol required `>= 0`.
///
/// # Errors
/// [`Error::OutOfDomain`] when a symbol is named like an input variable.
pub(super) fn start<'a>(
    syms: &'a Symbols,
    symbols: &[u8],
    input: Input,
    n_inputs: usize,
) -> Result<Build<'a>> {
    let mut vars = input_vars(input, n_inputs);
    for &id in symbols {
        let name = syms.name(id);
        if vars.iter().any(|v| v.name == name) {
            return Err(Error::OutOfDomain {
                what: format!("symbol '{name}' has the name of a kernel input variable"),
            });
        }
    }
    let n_inputs = vars.len();
    vars.extend(symbols.iter().map(|&id| sym_var(syms, id)));
    let mut b = Build::new(Kernel::new(vars), syms, symbols, n_inputs);
    for &id in symbols {
        b.require(Fact::ge(&Poly::symbol(id), &Poly::zero())?);
    }
    Ok(b)
}

/// The input variables (placeholder extents; see [`SymKernel::kernel`]).
fn input_vars(input: Input, modes: usize) -> Vec<Var> {
    let var = |name: String| Var {
        name,
        extent: i64::MAX,
    };
    match input {
        Input::Linear => vec![var("i".into())],
        Input::Coords => (0..modes).map(|k| var(format!("i{k}"))).collect(),
    }
}

/// The variable of symbol `id`: values in `[0, max]` (symbols are proved
/// non-negative before they are used).
fn sym_var(syms: &Symbols, id: u8) -> Var {
    Var {
        name: syms.name(id).to_string(),
        extent: syms.range(id).1.saturating_add(1),
    }
}

/// Appends to `terms` the digits of `x` over the leaves `e:s` (slowest
/// first), each with its stride, quotients computed anyway reused (rule E1).
fn digits(
    b: &mut Build,
    x: NodeId,
    e: &[Poly],
    s: &[Poly],
    terms: &mut Vec<(NodeId, Poly)>,
) -> Result<()> {
    let used: Vec<bool> = s.iter().map(|p| !p.is_zero()).collect();
    for (form, stride) in digit_forms(b, x, e, &used)?.iter().zip(s) {
        for (id, c) in form {
            terms.push((*id, c.mul(stride)?));
        }
    }
    Ok(())
}

/// A digit as a sum of nodes times polynomials.
pub(super) type Form = Vec<(NodeId, Poly)>;

/// The digits `⌊x/P_k⌋ mod e_k` of `x` over the extents `e` (slowest first;
/// `P_k` the product of the extents after `k`), each as a [`Form`], for the
/// leaves marked `used` (the others empty): the first without a modulo, a
/// modulo whose quotient `⌊x/P_{k-1}⌋` is computed anyway (the leaf before
/// is used) written `⌊x/P_k⌋ - e_k·⌊x/P_{k-1}⌋` (rule E1). Right wherever
/// `0 <= x < Π e`.
pub(super) fn digit_forms(
    b: &mut Build,
    x: NodeId,
    e: &[Poly],
    used: &[bool],
) -> Result<Vec<Form>> {
    let r = e.len();
    let mut inner = vec![Poly::constant(1); r];
    for k in (0..r.saturating_sub(1)).rev() {
        inner[k] = inner[k + 1].mul(&e[k + 1])?;
    }
    let mut q: Vec<Option<NodeId>> = vec![None; r];
    let mut out = vec![Form::new(); r];
    for k in 0..r {
        if !used[k] {
            continue;
        }
        let qk = b.div(x, &inner[k])?;
        q[k] = Some(qk);
        out[k] = match (k, k.checked_sub(1).and_then(|j| q[j])) {
            (0, _) => vec![(qk, Poly::constant(1))],
            // q mod e = q - e·⌊q/e⌋, and ⌊q/e⌋ is the outer quotient.
            (_, Some(outer)) => vec![(qk, Poly::constant(1)), (outer, e[k].neg()?)],
            (_, None) => vec![(b.modulo(qk, &e[k])?, Poly::constant(1))],
        };
    }
    Ok(out)
}

/// The kernel under construction, each node's polynomial interval, and the
/// facts not proved so far.
pub(super) struct Build<'a> {
    pub(super) k: Kernel,
    syms: &'a Symbols,
    bounds: Vec<(Poly, Poly)>,
    needs: Vec<Fact>,
    sym_vars: Vec<(u8, usize)>,
}

impl<'a> Build<'a> {
    fn new(k: Kernel, syms: &'a Symbols, symbols: &[u8], n_inputs: usize) -> Build<'a> {
        let one = Poly::constant(1);
        Build {
            k,
            syms,
            // `Kernel::new` pushed `0` and `true`.
            bounds: vec![(Poly::zero(), Poly::zero()), (Poly::zero(), one)],
            needs: Vec::new(),
            sym_vars: symbols
                .iter()
                .enumerate()
                .map(|(j, &id)| (id, n_inputs + j))
                .collect(),
        }
    }

    pub(super) fn proved(&self, f: &Fact) -> bool {
        self.syms.prove(f) == Truth::Proved
    }

    /// Records `f` as a need unless it is proved.
    pub(super) fn require(&mut self, f: Fact) {
        if !self.proved(&f) && !self.needs.contains(&f) {
            self.needs.push(f);
        }
    }

    /// Adds `node` with the interval `[lo, hi]`, proved within `i64`.
    pub(super) fn push(&mut self, node: Node, lo: Poly, hi: Poly) -> Result<NodeId> {
        let id = self.k.push(node);
        if id as usize == self.bounds.len() {
            self.require(Fact::at_most(&hi, i64::MAX));
            self.require(Fact::at_most(&lo.neg()?, i64::MAX));
            self.bounds.push((lo, hi));
        }
        Ok(id)
    }

    pub(super) fn bound(&self, id: NodeId) -> (Poly, Poly) {
        self.bounds[id as usize].clone()
    }

    /// Replaces the interval of `id` by `[lo, hi]`, which the caller knows
    /// holds for its value at every input point (proved within `i64` as
    /// any interval is).
    pub(super) fn narrow(&mut self, id: NodeId, lo: Poly, hi: Poly) -> Result<()> {
        self.require(Fact::at_most(&hi, i64::MAX));
        self.require(Fact::at_most(&lo.neg()?, i64::MAX));
        self.bounds[id as usize] = (lo, hi);
        Ok(())
    }

    /// The node of polynomial `p` (exact interval at every step).
    pub(super) fn poly(&mut self, p: &Poly) -> Result<NodeId> {
        let mut acc: Option<(NodeId, Poly)> = None;
        for &(m, c) in p.terms() {
            let first = acc.is_none();
            let coef = if first {
                c
            } else {
                c.checked_abs().unwrap_or(c)
            };
            let t = self.mono(m, coef)?;
            acc = Some(match acc {
                None => (t, Poly::term(m, c)),
                Some((a, pa)) => {
                    let sum = pa.add(&Poly::term(m, c))?;
                    let node = if c < 0 && coef > 0 {
                        Node::Sub(a, t)
                    } else {
                        Node::Add(a, t)
                    };
                    (self.push(node, sum.clone(), sum.clone())?, sum)
                }
            });
        }
        match acc {
            Some((id, _)) => Ok(id),
            None => self.push(Node::Const(0), Poly::zero(), Poly::zero()),
        }
    }

    /// The node of `c·m`.
    fn mono(&mut self, m: Mono, c: i64) -> Result<NodeId> {
        let mut acc: Option<(NodeId, Mono)> = None;
        for f in m.factors() {
            let var = self
                .sym_vars
                .iter()
                .find(|(id, _)| *id == f)
                .map(|&(_, v)| v)
                .ok_or_else(|| crate::error::overflow("a symbol outside the kernel's"))?;
            let sym = Poly::symbol(f);
            let v = self.push(Node::Var(var), sym.clone(), sym)?;
            acc = Some(match acc {
                None => (v, Mono::symbol(f)),
                Some((a, ma)) => {
                    let mm = ma
                        .product(Mono::symbol(f))
                        .ok_or_else(|| crate::error::overflow("a monomial"))?;
                    let p = Poly::term(mm, 1);
                    (self.push(Node::Mul(a, v), p.clone(), p)?, mm)
                }
            });
        }
        let cp = Poly::constant(c);
        match acc {
            None => self.push(Node::Const(c), cp.clone(), cp),
            Some((a, _)) if c == 1 => Ok(a),
            Some((a, ma)) => {
                let k = self.push(Node::Const(c), cp.clone(), cp)?;
                let p = Poly::term(ma, c);
                self.push(Node::Mul(k, a), p.clone(), p)
            }
        }
    }

    /// `q · p` for a node `q ≥ 0`; its interval by the sign of `p` (or of
    /// each of `p`'s terms, every monomial being `≥ 0`).
    pub(super) fn scale(&mut self, q: NodeId, p: &Poly) -> Result<NodeId> {
        if p.as_const() == Some(1) {
            return Ok(q);
        }
        let (lq, hq) = self.bound(q);
        let (lo, hi) = if self.proved(&Fact::ge(p, &Poly::zero())?) {
            (lq.mul(p)?, hq.mul(p)?)
        } else if self.proved(&Fact::le(p, &Poly::zero())?) {
            (hq.mul(p)?, lq.mul(p)?)
        } else {
            let pos: Vec<_> = p.terms().iter().filter(|t| t.1 > 0).copied().collect();
            let neg: Vec<_> = p.terms().iter().filter(|t| t.1 < 0).copied().collect();
            let (pos, neg) = (Poly::from_terms(pos)?, Poly::from_terms(neg)?);
            (
                lq.mul(&pos)?.add(&hq.mul(&neg)?)?,
                hq.mul(&pos)?.add(&lq.mul(&neg)?)?,
            )
        };
        let pn = self.poly(p)?;
        self.push(Node::Mul(q, pn), lo, hi)
    }

    /// `Σ node·coef`, a term whose leading coefficient is negative subtracted.
    pub(super) fn sum(&mut self, terms: &[(NodeId, Poly)]) -> Result<NodeId> {
        let mut merged: Vec<(NodeId, Poly)> = Vec::new();
        for (id, c) in terms {
            match merged.iter_mut().find(|(m, _)| m == id) {
                Some((_, acc)) => *acc = acc.add(c)?,
                None => merged.push((*id, c.clone())),
            }
        }
        merged.retain(|(_, c)| !c.is_zero());
        // Terms with a positive leading coefficient first (`i1 - i0 * 4`,
        // not `i0 * -4 + i1`), each group the input first.
        merged.sort_by_key(|t| (t.1.terms().first().is_some_and(|x| x.1 < 0), t.0));
        let mut acc: Option<NodeId> = None;
        for (id, c) in merged {
            let negative = acc.is_some() && c.terms().first().is_some_and(|t| t.1 < 0);
            let t = if negative {
                self.scale(id, &c.neg()?)?
            } else {
                self.scale(id, &c)?
            };
            acc = Some(match acc {
                None => t,
                Some(a) => {
                    let ((la, ha), (lt, ht)) = (self.bound(a), self.bound(t));
                    if negative {
                        self.push(Node::Sub(a, t), la.sub(&ht)?, ha.sub(&lt)?)?
                    } else {
                        self.push(Node::Add(a, t), la.add(&lt)?, ha.add(&ht)?)?
                    }
                }
            });
        }
        match acc {
            Some(a) => Ok(a),
            None => self.push(Node::Const(0), Poly::zero(), Poly::zero()),
        }
    }

    /// `⌊a / d⌋` for `a ≥ 0`, `d ≥ 1`; `a` itself for `d = 1`, `0` when
    /// `a < d` is proved.
    pub(super) fn div(&mut self, a: NodeId, d: &Poly) -> Result<NodeId> {
        if d.as_const() == Some(1) {
            return Ok(a);
        }
        let (la, ha) = self.bound(a);
        self.require(Fact::ge(&la, &Poly::zero())?);
        if self.proved(&Fact::lt(&ha, d)?) {
            return self.push(Node::Const(0), Poly::zero(), Poly::zero());
        }
        self.require(Fact::ge(d, &Poly::constant(1))?);
        let hi = match ha.add(&Poly::constant(1))?.div_exact(d) {
            Some(q) => q.sub(&Poly::constant(1))?,
            None => ha.div_exact(d).unwrap_or(ha),
        };
        let node = match d.as_const() {
            Some(c) => Node::Div(a, c),
            None => Node::DivBy(a, self.poly(d)?),
        };
        self.push(node, Poly::zero(), hi)
    }

    /// `a mod d` for `a ≥ 0`, `d ≥ 1`; `a` itself when `a < d` is proved.
    pub(super) fn modulo(&mut self, a: NodeId, d: &Poly) -> Result<NodeId> {
        let (la, ha) = self.bound(a);
        self.require(Fact::ge(&la, &Poly::zero())?);
        if self.proved(&Fact::lt(&ha, d)?) {
            return Ok(a);
        }
        self.require(Fact::ge(d, &Poly::constant(1))?);
        let node = match d.as_const() {
            Some(c) => Node::Mod(a, c),
            None => Node::ModBy(a, self.poly(d)?),
        };
        self.push(node, Poly::zero(), d.sub(&Poly::constant(1))?)
    }

    /// `Ok` when every fact was proved, else the refusal naming them.
    pub(super) fn finish(&self) -> Result<()> {
        if self.needs.is_empty() {
            return Ok(());
        }
        Err(Error::NeedsFacts {
            op: "expr",
            why: "a kernel expression within i64, dividends >= 0 and divisors >= 1, \
                  is not proved for every allowed value"
                .into(),
            needs: self.needs.iter().map(|f| f.show(self.syms)).collect(),
        })
    }
}
