//! Versioned kernels over symbols (loop versioning, as compilers do it):
//! the text `GUARD ? SPECIAL : … : GENERIC`, where each guard is a
//! division-free condition on the symbols alone (`N == 1`, `j == 0 && N ==
//! 4`) and each special version is the kernel of the request (a symbolic
//! layout, or a movement-op chain over symbols) with the guard's values
//! substituted and the whole symbolic pipeline run again: leaves that merge
//! under the guard merge, extents 1 drop, views that merge there merge, and
//! a request whose symbols are all pinned gets the concrete kernel.
//!
//! One text valid at every binding cannot use a binding's coincidences
//! (`(N,3):(1,N)` needs two divisions at `N = 2` and none at `N = 1`); a GPU
//! kernel branches uniformly on such guards, so the cost at a binding is the
//! `/` and `%` of the version taken (`docs/symbolic.md` §13).
//!
//! **Which guards.** Single-symbol pins `s == v`, derived from the request's
//! structure: a polynomial of the request or of its generic answer (an
//! extent, a stride, an offset, a pad or shrink amount, a constraint's bounds
//! and widths, the difference `s_outer − e_inner·s_inner` of adjacent leaves,
//! extent-1 leaves skipped, the difference of two leaf extents) that is in
//! one symbol and equals 0 or 1 at `s = v` (an integer root, allowed by the
//! assumptions); substitutions `s == r` where `s` occurs only as `±s`; and
//! every symbol's least and greatest allowed value. Pairs of pins come
//! from a polynomial in two symbols ([`pair_candidates`]: divisors of its
//! constant, or a short range enumerated), from the request with one pin
//! substituted ([`pinned_pairs`]), then from every two single facts. A pin
//! is kept when its version has strictly fewer `/` and `%` than the generic
//! one; a pair of pins on two symbols when it has strictly fewer than every
//! kept version it shadows. Pairs come first, then
//! single pins, each group by ascending cost, so a binding takes the
//! cheapest matching version; the generic version is last. At most
//! [`Limits::max_kernel_versions`](crate::Limits::max_kernel_versions)
//! versions, and versions are dropped (the most specific first) until the
//! whole text fits `max_expr_bytes` in every language.
//!
//! Symbols with one allowed value are substituted in every version,
//! the generic one included.
//!
//! Each version's obligations (no overflow, divisors positive, dividends
//! non-negative) are proved at every binding its guard allows, since it is
//! built with the pinned symbol's assumption `min = max = v`.
//!
//! Cost: one run of the symbolic pipeline per candidate pin and per pair
//! tried (at most `4 · max_kernel_versions` pairs); the candidates are
//! O(polynomials of the answer).

use super::ir::{Kernel, Node, NodeId};
use super::sym::SymKernel;
use super::{sym_layout, sym_stack, Input, Lang};
use crate::error::{Error, Result};
use crate::symbolic::{Assume, Mono, Poly, SymLayout, SymMovement, SymViewStack, Symbols};

/// One fact of a guard: symbol `s` equals the polynomial (a constant, a
/// pin, or a polynomial in the other symbols, a substitution).
///
/// ```
/// let pin: hlayout::codegen::Pin = (0, 1.into()); // symbol 0 == 1
/// assert_eq!(pin.1.as_const(), Some(1));
/// ```
pub type Pin = (u8, Poly);

/// One version of a versioned kernel: the facts of its guard (empty for
/// the generic version) and its kernel.
#[derive(Clone, Debug)]
pub struct Version {
    guard: Vec<Pin>,
    kernel: SymKernel,
}

impl Version {
    /// The guard's facts `(symbol id, polynomial)`: the symbol equals the
    /// polynomial, all of them hold where the version is taken; empty for
    /// the generic version.
    ///
    /// See [`sym_chain_versions`] for an example.
    pub fn guard(&self) -> &[Pin] {
        &self.guard
    }

    /// The version's kernel, exact at every binding its guard allows.
    ///
    /// See [`sym_chain_versions`] for an example.
    pub fn kernel(&self) -> &SymKernel {
        &self.kernel
    }

    /// Whether the guard holds at the binding `values` (one per symbol id).
    ///
    /// See [`sym_chain_versions`] for an example.
    pub fn holds(&self, values: &[i64]) -> bool {
        self.guard
            .iter()
            .all(|(id, p)| values.get(*id as usize).map(|&v| i128::from(v)) == p.eval(values))
    }
}

/// A versioned kernel: its versions, most specific first and the generic
/// one last, and the whole guarded text as one kernel.
#[derive(Clone, Debug)]
pub struct SymVersions {
    versions: Vec<Version>,
    whole: SymKernel,
}

impl SymVersions {
    /// The versions, in the order the guards are tested; the last is the
    /// generic version (no guard).
    ///
    /// See [`sym_chain_versions`] for an example.
    pub fn versions(&self) -> &[Version] {
        &self.versions
    }

    /// The whole text `g1 ? k1 : g2 ? k2 : … : generic` (index), and the
    /// validity `g1 && v1 || !g1 && (…)`, as one kernel over the inputs
    /// then the generic version's symbols.
    ///
    /// See [`sym_chain_versions`] for an example.
    pub fn kernel(&self) -> &SymKernel {
        &self.whole
    }

    /// The version taken at the binding `values`: the first whose guard
    /// holds.
    ///
    /// See [`sym_chain_versions`] for an example.
    pub fn taken(&self, values: &[i64]) -> &Version {
        self.versions
            .iter()
            .find(|v| v.holds(values))
            .unwrap_or(&self.versions[self.versions.len() - 1])
    }

    /// `(index, valid)` of the version taken at `values`, at the inputs
    /// `at` (see [`SymKernel::eval`]). O(nodes of that version).
    ///
    /// # Errors
    /// Those of [`SymKernel::eval`].
    ///
    /// See [`sym_chain_versions`] for an example.
    pub fn eval(&self, syms: &Symbols, at: &[i64], values: &[i64]) -> Result<(i64, bool)> {
        self.taken(values).kernel.eval(syms, at, values)
    }
}

/// The versioned kernel of the chain `shape` then `ops` over `syms` (see
/// the module documentation for the guards and the cost). The generic
/// version is [`sym_stack`] of the chain's stack.
///
/// # Errors
/// Those of the chain's ops and of [`sym_stack`] for the generic version
/// (a special version that fails is left out).
///
/// ```
/// use hlayout::codegen::{sym_chain_versions, Input, Lang};
/// use hlayout::symbolic::{Assume, SymMovement, Symbols};
/// let mut s = Symbols::new();
/// s.assume("N", Assume { max: 8, ..Assume::default() })?;
/// let shape = [s.parse("N")?, 3.into()];
/// let ops = [SymMovement::parse(r#"["permute",[1,0]]"#, &mut s)?];
/// let k = sym_chain_versions(&shape, &ops, &s, Input::Linear)?;
/// assert_eq!(k.versions().len(), 2);
/// assert_eq!(k.versions()[0].guard(), [(0, 1.into())]); // N == 1: no division
/// assert_eq!(k.versions()[0].kernel().kernel().div_mod_count(), 0);
/// assert_eq!(k.taken(&[1]).kernel().kernel().c().0, "i");
/// assert_eq!(k.kernel().kernel().c().0, "N == 1 ? i : i * 3 - i / N * (3 * N - 1)");
/// assert_eq!(k.eval(&s, &[4], &[2])?, (2, true));
/// assert_eq!(k.kernel().eval(&s, &[4], &[2])?, (2, true));
/// assert!(k.taken(&[2]).guard().is_empty());
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn sym_chain_versions(
    shape: &[Poly],
    ops: &[SymMovement],
    syms: &Symbols,
    input: Input,
) -> Result<SymVersions> {
    versions(&Request::Chain(shape, ops), syms, input)
}

/// The versioned kernel of a symbolic layout; the generic version is
/// [`sym_layout`]. As [`sym_chain_versions`].
///
/// # Errors
/// Those of [`sym_layout`] for the generic version.
///
/// ```
/// use hlayout::codegen::{sym_layout_versions, Input};
/// use hlayout::symbolic::{SymLayout, Symbols};
/// let mut s = Symbols::new();
/// let l = SymLayout::parse("(4,N):(1,4)", &mut s)?;
/// let k = sym_layout_versions(&l, &s, Input::Linear)?;
/// assert_eq!(k.kernel().kernel().c().0, "N == 1 ? i : i * 4 - i / N * (4 * N - 1)");
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn sym_layout_versions(l: &SymLayout, syms: &Symbols, input: Input) -> Result<SymVersions> {
    versions(&Request::Layout(l), syms, input)
}

/// A symbolic request whose kernel can be rebuilt under pins.
enum Request<'a> {
    Chain(&'a [Poly], &'a [SymMovement]),
    Layout(&'a SymLayout),
}

/// A request with pins substituted.
enum Owned {
    Chain(Vec<Poly>, Vec<SymMovement>),
    Layout(SymLayout),
}

impl Request<'_> {
    /// The request with `pins` substituted.
    fn pinned(&self, pins: &[Pin]) -> Result<Owned> {
        let at = |p: &Poly| subst_all(p, pins);
        Ok(match self {
            Request::Chain(shape, ops) => Owned::Chain(
                shape.iter().map(at).collect::<Result<_>>()?,
                ops.iter()
                    .map(|op| subst_op(op, pins))
                    .collect::<Result<_>>()?,
            ),
            Request::Layout(l) => Owned::Layout(SymLayout::from_parts(
                l.profile().clone(),
                l.shape_leaves().iter().map(at).collect::<Result<_>>()?,
                l.stride_leaves().iter().map(at).collect::<Result<_>>()?,
            )),
        })
    }
}

impl Owned {
    /// The request's own polynomials (candidates for pins).
    fn polys(&self) -> Vec<Poly> {
        match self {
            Owned::Chain(shape, ops) => {
                let mut all = shape.clone();
                for op in ops {
                    op_polys(op, &mut all);
                }
                all
            }
            Owned::Layout(l) => {
                let (e, s) = (l.shape_leaves(), l.stride_leaves());
                let mut all: Vec<Poly> = e.iter().chain(s).cloned().collect();
                adjacent(e, s, &mut all);
                all
            }
        }
    }

    /// The kernel of the request (the whole symbolic pipeline) and, for a
    /// chain, its stack.
    fn build(&self, syms: &Symbols, input: Input) -> Result<(SymKernel, Option<SymViewStack>)> {
        match self {
            Owned::Chain(shape, ops) => {
                let stack = ops
                    .iter()
                    .try_fold(SymViewStack::new(shape, syms)?, |t, op| t.apply(op, syms))?;
                Ok((sym_stack(&stack, syms, input)?, Some(stack)))
            }
            Owned::Layout(l) => {
                l.validate(syms)?;
                Ok((sym_layout(l, syms, input)?, None))
            }
        }
    }
}

fn versions(req: &Request, syms: &Symbols, input: Input) -> Result<SymVersions> {
    // Symbols with one allowed value are substituted everywhere first, so
    // that the generic version coalesces what they allow.
    let fixed: Vec<Pin> = (0..syms.len() as u8)
        .filter(|&id| syms.range(id).0 == syms.range(id).1)
        .map(|id| (id, syms.range(id).0.into()))
        .collect();
    let generic_request = req.pinned(&fixed)?;
    let (generic, stack) = generic_request.build(syms, input)?;
    let cost = generic.kernel().div_mod_count();
    let vars = &generic.kernel().vars().to_vec();
    let max = syms.limits().max_kernel_versions.max(1);
    let mut polys = generic_request.polys();
    if let Some(t) = &stack {
        stack_polys(t, &mut polys);
    }
    let pins = candidates(&polys, generic.symbols(), syms);
    let mut singles: Vec<Version> = Vec::new();
    if cost > 0 && max > 1 {
        for pin in &pins {
            let pin = std::slice::from_ref(pin);
            if let Some(v) = special(req, syms, input, &fixed, pin, cost, vars) {
                singles.push(v);
            }
        }
    }
    singles.sort_by_key(|v| v.kernel.kernel().div_mod_count());
    let mut pairs: Vec<Version> = Vec::new();
    // The pairs that zero a polynomial in two symbols first, then every
    // pair of single candidates.
    let combos = pins
        .iter()
        .enumerate()
        .flat_map(|(k, a)| pins[k + 1..].iter().map(move |b| [a.clone(), b.clone()]));
    let mut tried: Vec<[Pin; 2]> = Vec::new();
    let derived = if cost > 0 && max > 2 && generic.symbols().len() > 1 {
        let mut d = pair_candidates(&polys, generic.symbols(), syms);
        d.extend(pinned_pairs(req, &fixed, &pins, generic.symbols(), syms));
        d
    } else {
        Vec::new()
    };
    let pairs_wanted = cost > 0 && max > 2;
    for guard in derived
        .into_iter()
        .chain(combos)
        .take_while(|_| pairs_wanted)
    {
        let [a, b] = &guard;
        let cycle = a.1.symbols().contains(&b.0) && b.1.symbols().contains(&a.0);
        if a.0 == b.0 || cycle || tried.contains(&guard) {
            continue;
        }
        if tried.len() >= 4 * max {
            break;
        }
        let shadow = singles
            .iter()
            .filter(|v| v.guard.iter().all(|p| guard.contains(p)))
            .map(|v| v.kernel.kernel().div_mod_count())
            .fold(cost, usize::min);
        if let Some(v) = special(req, syms, input, &fixed, &guard, shadow, vars) {
            pairs.push(v);
        }
        tried.push(guard);
    }
    pairs.sort_by_key(|v| v.kernel.kernel().div_mod_count());
    singles.truncate(max - 1);
    pairs.truncate(max - 1 - singles.len());
    let mut all = pairs;
    all.append(&mut singles);
    all.push(Version {
        guard: Vec::new(),
        kernel: generic,
    });
    loop {
        let whole = combine(&all, syms)?;
        if all.len() == 1 || fits(whole.kernel(), syms) {
            return Ok(SymVersions {
                versions: all,
                whole,
            });
        }
        all.remove(0);
    }
}

/// The version under `pins`, when it builds, costs fewer than `than` and
/// reads no variable outside `vars` (the generic version's: a pinned
/// request can keep a symbol that the generic pipeline simplified away).
fn special(
    req: &Request,
    syms: &Symbols,
    input: Input,
    fixed: &[Pin],
    pins: &[Pin],
    than: usize,
    vars: &[super::Var],
) -> Option<Version> {
    let mut pinned = syms.clone();
    // A substitution keeps the assumptions: the version is proved for a
    // superset of the bindings its guard allows.
    for (id, v) in pins.iter().filter_map(|(id, p)| Some((*id, p.as_const()?))) {
        let a = syms.assumption(id);
        let one = Assume {
            min: v,
            max: v,
            divisible_by: a.divisible_by,
        };
        pinned.assume(syms.name(id), one).ok()?;
    }
    for (id, r) in pins.iter().filter(|(_, p)| p.as_const().is_none()) {
        narrow(*id, r, syms, &mut pinned)?;
    }
    let all: Vec<Pin> = pins.iter().chain(fixed).cloned().collect();
    let (kernel, _) = req.pinned(&all).ok()?.build(&pinned, input).ok()?;
    let within = reads_only(kernel.kernel(), vars);
    (within && kernel.kernel().div_mod_count() < than).then(|| Version {
        guard: pins.to_vec(),
        kernel,
    })
}

/// How many values [`narrow`] tries from each end of a range.
const NARROW_SCAN: i64 = 64;

/// For a substitution `s := r` with `r` in one symbol `t`: `t`'s range in
/// `pinned` narrowed, from each end (at most [`NARROW_SCAN`] values each),
/// past the values where `r(t)` is not an allowed value of `s`. Every
/// binding where the guard `s == r` holds has `s`, hence `r(t)`, in `s`'s
/// range, so `t` lies in the narrowed range there and the version need be
/// proved only for it (`M := N*N - 1` with `M >= 1` needs `N >= 2`). `None`
/// when no value is left (the guard never holds) or the narrowed range is
/// refused. Other substitutions leave the assumptions as they are (a
/// superset of the guard's bindings, still sound). O(`NARROW_SCAN` · terms).
fn narrow(id: u8, r: &Poly, syms: &Symbols, pinned: &mut Symbols) -> Option<()> {
    let [t] = r.symbols()[..] else {
        return Some(());
    };
    let (s_lo, s_hi) = syms.range(id);
    let mut at = vec![0i64; usize::from(t) + 1];
    let mut allowed = |v: i64| {
        at[usize::from(t)] = v;
        r.eval(&at)
            .is_some_and(|x| (i128::from(s_lo)..=i128::from(s_hi)).contains(&x))
    };
    let (mut lo, mut hi) = pinned.range(t);
    let mut steps = 0;
    while lo <= hi && steps < NARROW_SCAN && !allowed(lo) {
        lo += 1;
        steps += 1;
    }
    steps = 0;
    while lo <= hi && steps < NARROW_SCAN && !allowed(hi) {
        hi -= 1;
        steps += 1;
    }
    if lo > hi {
        return None;
    }
    let a = pinned.assumption(t);
    let narrowed = Assume {
        min: lo,
        max: hi,
        divisible_by: a.divisible_by,
    };
    pinned.assume(syms.name(t), narrowed).ok().map(|_| ())
}

/// Whether the whole text fits `max_expr_bytes` in every language.
fn fits(k: &Kernel, syms: &Symbols) -> bool {
    [Lang::C, Lang::Rust, Lang::Python].iter().all(|&lang| {
        let (i, v) = k.text_len(lang);
        syms.limits().check_expr_bytes(i.saturating_add(v)).is_ok()
    })
}

/// Guard facts: a symbol's value where a polynomial in it alone is 0 or 1
/// (its integer roots), and each symbol's least and greatest
/// value, each allowed by the assumptions; and substitutions `s := r` where
/// a polynomial is 0 or 1 with `s` only in the term `±s` (`r` a polynomial
/// in the other symbols). Only symbols of `symbols`, not already fixed.
/// Sorted, once. O(polys · terms).
fn candidates(polys: &[Poly], symbols: &[u8], syms: &Symbols) -> Vec<Pin> {
    let mut pins: Vec<Pin> = Vec::new();
    let free = |id: u8| {
        let (lo, hi) = syms.range(id);
        symbols.contains(&id) && lo < hi
    };
    for &id in symbols {
        let (lo, hi) = syms.range(id);
        if lo < hi {
            pins.push((id, lo.into()));
            pins.push((id, hi.into()));
        }
    }
    for p in polys {
        for q in zero_forms(p) {
            if let [id] = q.symbols()[..] {
                pins.extend(
                    integer_roots(&q, id)
                        .into_iter()
                        .filter(|&v| syms.assumption(id).allows(v))
                        .map(|v| (id, v.into())),
                );
                continue;
            }
            pins.extend(substitutions(&q).into_iter().filter(|(id, r)| {
                free(*id) && r.symbols().iter().all(|&o| symbols.contains(&o)) && small(r, syms)
            }));
        }
    }
    pins.retain(|(id, _)| free(*id));
    pins.sort_unstable_by(|a, b| (a.0, a.1.terms()).cmp(&(b.0, b.1.terms())));
    pins.dedup();
    pins
}

/// The polynomials whose zeros are the facts a polynomial `p` of the
/// request suggests: `p` and `p − 1` (an extent 1, a width 0 or 1), and `p`
/// with its symbol factors divided out, when there are any.
fn zero_forms(p: &Poly) -> impl Iterator<Item = Poly> + '_ {
    let shifted = [0i64, 1]
        .into_iter()
        .filter_map(|target| p.sub(&target.into()).ok());
    let stripped = Some(without_symbol_factors(p)).filter(|q| q != p);
    shifted.chain(stripped)
}

/// Pairs of pins `t == v && s == w` where a polynomial of the request in
/// exactly the two symbols `s` and `t` is 0 or 1, found exactly when the
/// polynomial is linear in `s` with a constant remainder: `A(t)·s + c = 0`
/// needs `A(t) = d` for a divisor `d` of `c`, and then `s = −c/d` (`M·(N+1)
/// = 6` gives `N = 1, M = 3` and `N = 2, M = 2`, among others). Only
/// values the assumptions allow, only symbols of `symbols` not already
/// fixed; none when `|c|` is above `2^20`. Each pair sorted by symbol id;
/// sorted, once. O(polys · terms · √c).
fn pair_candidates(polys: &[Poly], symbols: &[u8], syms: &Symbols) -> Vec<[Pin; 2]> {
    let free = |id: u8, v: i64| {
        let (lo, hi) = syms.range(id);
        symbols.contains(&id) && lo < hi && syms.assumption(id).allows(v)
    };
    let mut out: Vec<[Pin; 2]> = Vec::new();
    for p in polys {
        for q in zero_forms(p) {
            let &[a, b] = &q.symbols()[..] else {
                continue;
            };
            for (s, t) in [(a, b), (b, a)] {
                let roots = linear_pair_roots(&q, s, t)
                    .into_iter()
                    .chain(enumerated_pair_roots(&q, s, t, syms));
                for (v, w) in roots {
                    if free(t, v) && free(s, w) {
                        let mut pair = [(t, v.into()), (s, w.into())];
                        pair.sort_unstable_by_key(|p| p.0);
                        out.push(pair);
                    }
                }
            }
        }
    }
    out.sort_unstable_by(|x, y| {
        let key = |p: &[Pin; 2]| {
            [
                (p[0].0, p[0].1.constant_term()),
                (p[1].0, p[1].1.constant_term()),
            ]
        };
        key(x).cmp(&key(y))
    });
    out.dedup();
    out
}

/// The integer solutions `(t, s)` of `q = A(t)·s + c = 0`, `q` in the two
/// symbols `s` and `t`, linear in `s`, `c` a nonzero constant with `|c| <=
/// 2^20` (none otherwise): for each divisor `d` of `c` (either sign), the
/// integer roots `v` of `A(t) − d`, with `s = −c/d`. O(terms · √c · roots).
fn linear_pair_roots(q: &Poly, s: u8, t: u8) -> Vec<(i64, i64)> {
    let one = Mono::symbol(s);
    let mut a_terms = Vec::new();
    let mut c = 0;
    for &(m, k) in q.terms() {
        match m.factors().filter(|&f| f == s).count() {
            0 if m.degree() == 0 => c = k,
            0 => return Vec::new(),
            1 => a_terms.push((m.quotient(one).unwrap_or(Mono::ONE), k)),
            _ => return Vec::new(),
        }
    }
    let Ok(a) = Poly::from_terms(a_terms) else {
        return Vec::new();
    };
    let bound = c.unsigned_abs();
    if c == 0 || bound > 1 << 20 || a.symbols() != [t] {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut d = 1u64;
    while d * d <= bound {
        if bound % d == 0 {
            for e in [d, bound / d] {
                for e in [e as i64, -(e as i64)] {
                    let roots = a.sub(&e.into()).map(|r| integer_roots(&r, t));
                    out.extend(roots.unwrap_or_default().into_iter().map(|v| (v, -c / e)));
                }
            }
        }
        d += 1;
    }
    out
}

/// Pairs `a && b` where `a` is a single pin on a constant and `b` a
/// candidate (a pin or a substitution, [`candidates`]) of the request with
/// `a` substituted: leaves that `a` makes extent 1 drop, so their
/// neighbours' coalescing differences appear (`(N,1:M,N):(2N,·,N)` at
/// `M == 1` coalesces at `N == 2`). Each pair sorted by symbol id.
/// O(pins · polynomials of the request).
fn pinned_pairs(
    req: &Request,
    fixed: &[Pin],
    pins: &[Pin],
    symbols: &[u8],
    syms: &Symbols,
) -> Vec<[Pin; 2]> {
    let mut out = Vec::new();
    for a in pins.iter().filter(|p| p.1.as_const().is_some()) {
        let all: Vec<Pin> = std::iter::once(a.clone())
            .chain(fixed.iter().cloned())
            .collect();
        let Ok(pinned) = req.pinned(&all) else {
            continue;
        };
        let rest: Vec<u8> = symbols.iter().copied().filter(|&id| id != a.0).collect();
        for b in candidates(&pinned.polys(), &rest, syms) {
            let mut pair = [a.clone(), b];
            pair.sort_unstable_by_key(|p| p.0);
            out.push(pair);
        }
    }
    out
}

/// How many values of a symbol [`enumerated_pair_roots`] reads at most.
const PAIR_SCAN: i64 = 64;

/// The integer solutions `(t, s)` of `q = 0`, `q` in the two symbols `s`
/// and `t`, when `t` has at most [`PAIR_SCAN`] allowed values: the integer
/// roots in `s` at each of them (`2·N = M·(M + 1)` gives `M = 2, N = 3`
/// and `M = 3, N = 6` for `M` in `1..=3`). O(`PAIR_SCAN` · terms · √c).
fn enumerated_pair_roots(q: &Poly, s: u8, t: u8, syms: &Symbols) -> Vec<(i64, i64)> {
    let (lo, hi) = syms.range(t);
    if hi.saturating_sub(lo) >= PAIR_SCAN {
        return Vec::new();
    }
    let mut out = Vec::new();
    for v in lo..=hi {
        if let Ok(r) = subst(q, t, &v.into()) {
            if r.symbols() == [s] {
                out.extend(integer_roots(&r, s).into_iter().map(|w| (v, w)));
            }
        }
    }
    out
}

/// `p` with every symbol that divides all its terms divided out
/// (`N·(2 − M)` → `2 − M`): its zeros with those symbols nonzero are the
/// cofactor's, which may then be a polynomial in one symbol, or have a
/// symbol alone in a term. O(symbols · degree · terms²).
fn without_symbol_factors(p: &Poly) -> Poly {
    let mut q = p.clone();
    if q.is_zero() {
        return q;
    }
    for t in p.symbols() {
        while let Some(r) = q.div_exact(&Poly::symbol(t)) {
            q = r;
        }
    }
    q
}

/// The integer roots of `q`, a polynomial in the one symbol `id`: 0 when
/// the constant term is 0, and the divisors `d` of the least nonzero
/// coefficient (rational root theorem, after dividing out the power of the
/// symbol) with `q(d) = 0`; none when that coefficient is above `2^20`.
/// O(√c · terms).
fn integer_roots(q: &Poly, id: u8) -> Vec<i64> {
    let mut roots = Vec::new();
    let Some(&(_, low)) = q.terms().last() else {
        return roots;
    };
    if q.constant_term() == 0 {
        roots.push(0);
    }
    if let Some((_, a, b)) = q.as_linear() {
        // `a·s + b`: one root, when `a` divides `b`.
        if b != 0 && b.checked_rem(a) == Some(0) {
            roots.extend(b.checked_div(a).and_then(i64::checked_neg));
        }
        return roots;
    }
    let c = low.unsigned_abs();
    if c > 1 << 20 {
        return roots;
    }
    let mut at = vec![0i64; id as usize + 1];
    let mut zero_at = |v: i64| {
        at[id as usize] = v;
        q.eval(&at) == Some(0)
    };
    // Cauchy's bound: every root has |v| <= 1 + max |coefficient| / |lead|.
    let lead = q.terms().first().map_or(1, |t| t.1.unsigned_abs());
    let top = q
        .terms()
        .iter()
        .map(|t| t.1.unsigned_abs())
        .max()
        .unwrap_or(0);
    let bound = 1 + top / lead;
    let mut d = 1u64;
    while d * d <= c {
        if c % d == 0 {
            for v in [d, c / d].into_iter().filter(|&v| v <= bound) {
                let v = v as i64;
                for v in [v, -v] {
                    if zero_at(v) {
                        roots.push(v);
                    }
                }
            }
        }
        d += 1;
    }
    roots.sort_unstable();
    roots.dedup();
    roots
}

/// Whether `|r| <= i64::MAX` at every binding within the symbols' ranges
/// (each term bounded by its coefficient times the symbols' maxima), so
/// the guard's right side never overflows.
fn small(r: &Poly, syms: &Symbols) -> bool {
    let mut total: i128 = 0;
    for &(m, c) in r.terms() {
        let mut t = i128::from(c).abs();
        for f in m.factors() {
            let (lo, hi) = syms.range(f);
            let big = i128::from(lo).abs().max(i128::from(hi).abs());
            match t.checked_mul(big) {
                Some(v) if v <= i128::from(i64::MAX) => t = v,
                _ => return false,
            }
        }
        total += t;
    }
    total <= i128::from(i64::MAX)
}

/// The substitutions `s := r` that make `q` zero, for each symbol `s` that
/// occurs in `q` only as the term `±s`.
fn substitutions(q: &Poly) -> Vec<Pin> {
    let mut out = Vec::new();
    // `2·N − 4·M − 4 = 0` is `N − 2·M − 2 = 0`.
    let c = q.content().abs();
    let primitive = if c > 1 {
        q.div_exact(&Poly::constant(c))
    } else {
        None
    };
    let q = primitive.as_ref().unwrap_or(q);
    for id in q.symbols() {
        let one = Mono::symbol(id);
        let mut coef = 0;
        let only_linear = q.terms().iter().all(|&(m, c)| {
            if m == one {
                coef = c;
                true
            } else {
                !m.factors().any(|f| f == id)
            }
        });
        if !only_linear || coef.abs() != 1 {
            continue;
        }
        // q = c·s + rest = 0  ⇒  s = −c·rest.
        let rest = q.sub(&Poly::term(one, coef)).and_then(|r| r.scale(-coef));
        if let Ok(r) = rest {
            if r.as_const().is_none() {
                out.push((id, r));
            }
        }
    }
    out
}

/// The polynomials of a stack's views: extents, strides, offsets,
/// constraint bounds and widths, adjacent leaves' coalescing differences,
/// and the difference of a symbolic leaf extent and a constant one
/// (O(leaves²) over the stack).
fn stack_polys(t: &SymViewStack, out: &mut Vec<Poly>) {
    // Two leaf extents equal at a binding (views that merge there): a
    // symbolic and a constant one, or two of different views in at most
    // two symbols together.
    let extents: Vec<(usize, &Poly)> = t
        .views()
        .iter()
        .enumerate()
        .flat_map(|(k, v)| v.leaf_extents().iter().map(move |e| (k, e)))
        .collect();
    for (k, &(va, a)) in extents.iter().enumerate() {
        for &(vb, b) in &extents[k + 1..] {
            let mut both = a.symbols();
            both.extend(b.symbols());
            both.sort_unstable();
            both.dedup();
            let (one, across) = (a.symbols().len() + b.symbols().len() == 1, va != vb);
            if a != b && (one || (across && both.len() <= 2)) {
                out.extend(a.sub(b).ok());
            }
        }
    }
    for v in t.views() {
        let (e, s) = (v.leaf_extents(), v.leaf_strides());
        out.extend(e.iter().chain(s).cloned());
        out.push(v.offset().clone());
        adjacent(e, s, out);
        for c in v.constraints() {
            out.push(c.lo().clone());
            out.push(c.hi().clone());
            out.extend(c.hi().sub(c.lo()).ok());
            // On one leaf `x` of extent `e`, `lo <= x < hi` allows
            // `min(hi, e) − max(lo, 0)` values: also `e − lo` (one value
            // pins the coordinate).
            if let [(k, 1)] = one_leaf(c.coeffs())[..] {
                out.extend(e.get(k).and_then(|e| e.sub(c.lo()).ok()));
            }
        }
        // Two constraints on one leaf allow `min(hi, hi') − max(lo, lo')`
        // values: also `hi − lo'` and `hi' − lo` (0 or 1: empty, pinned).
        let cs = v.constraints();
        for (k, a) in cs.iter().enumerate() {
            for b in &cs[k + 1..] {
                let (ka, kb) = (one_leaf(a.coeffs()), one_leaf(b.coeffs()));
                if matches!((&ka[..], &kb[..]), ([(x, 1)], [(y, 1)]) if x == y) {
                    out.extend(a.hi().sub(b.lo()).ok());
                    out.extend(b.hi().sub(a.lo()).ok());
                }
            }
        }
    }
}

/// The nonzero coefficients of a constraint, when there is exactly one:
/// `[(leaf, coefficient)]`; empty otherwise.
fn one_leaf(coeffs: &[i64]) -> Vec<(usize, i64)> {
    let nonzero: Vec<(usize, i64)> = coeffs
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, a)| a != 0)
        .collect();
    if nonzero.len() == 1 {
        nonzero
    } else {
        Vec::new()
    }
}

/// `s_j − e_k·s_k` for adjacent leaves `j < k` (0 where they coalesce),
/// leaves of the constant extent 1 skipped (they drop, and their
/// neighbours become adjacent). O(leaves).
fn adjacent(e: &[Poly], s: &[Poly], out: &mut Vec<Poly>) {
    let mut before: Option<usize> = None;
    for k in 0..e.len().min(s.len()) {
        if e[k].as_const() == Some(1) {
            continue;
        }
        if let Some(j) = before {
            out.extend(e[k].mul(&s[k]).ok().and_then(|p| s[j].sub(&p).ok()));
        }
        before = Some(k);
    }
}

/// The polynomials of an op's argument.
fn op_polys(op: &SymMovement, out: &mut Vec<Poly>) {
    match op {
        SymMovement::Reshape(v) | SymMovement::Expand(v) => out.extend(v.iter().cloned()),
        SymMovement::Pad(v) | SymMovement::Shrink(v) => {
            for (a, b) in v {
                out.push(a.clone());
                out.push(b.clone());
                out.extend(b.sub(a).ok());
            }
        }
        SymMovement::Permute(_) | SymMovement::Flip(_) => {}
    }
}

/// `p` with each pinned symbol replaced by its polynomial, the pins
/// applied in turn as often as there are pins (a substitution may bring in
/// a symbol another pin fixes). O(pins² · terms · degree).
///
/// # Errors
/// [`Error::Overflow`] when a coefficient leaves `i64` or a degree the
/// monomial.
fn subst_all(p: &Poly, pins: &[Pin]) -> Result<Poly> {
    let mut p = p.clone();
    for _ in 0..pins.len() {
        for (id, r) in pins {
            p = subst(&p, *id, r)?;
        }
    }
    Ok(p)
}

/// `p` with symbol `id` replaced by `r`.
fn subst(p: &Poly, id: u8, r: &Poly) -> Result<Poly> {
    if !p.symbols().contains(&id) {
        return Ok(p.clone());
    }
    let mut sum = Poly::zero();
    for &(m, c) in p.terms() {
        let mut term = Poly::constant(c);
        for f in m.factors() {
            term = term.mul(&if f == id { r.clone() } else { Poly::symbol(f) })?;
        }
        sum = sum.add(&term)?;
    }
    Ok(sum)
}

/// `op` with the pins substituted.
fn subst_op(op: &SymMovement, pins: &[Pin]) -> Result<SymMovement> {
    let all = |v: &[Poly]| v.iter().map(|p| subst_all(p, pins)).collect::<Result<_>>();
    let pairs = |v: &[(Poly, Poly)]| {
        v.iter()
            .map(|(a, b)| Ok((subst_all(a, pins)?, subst_all(b, pins)?)))
            .collect::<Result<_>>()
    };
    Ok(match op {
        SymMovement::Reshape(v) => SymMovement::Reshape(all(v)?),
        SymMovement::Expand(v) => SymMovement::Expand(all(v)?),
        SymMovement::Pad(v) => SymMovement::Pad(pairs(v)?),
        SymMovement::Shrink(v) => SymMovement::Shrink(pairs(v)?),
        SymMovement::Permute(p) => SymMovement::Permute(p.clone()),
        SymMovement::Flip(f) => SymMovement::Flip(f.clone()),
    })
}

/// The whole guarded kernel over the generic version's variables (the last
/// of `all`). O(nodes of all versions).
fn combine(all: &[Version], syms: &Symbols) -> Result<SymKernel> {
    let generic = &all[all.len() - 1].kernel;
    if all.len() == 1 {
        return Ok(generic.clone());
    }
    let vars = generic.kernel().vars().to_vec();
    let mut k = Kernel::new(vars.clone());
    let roots = all
        .iter()
        .map(|v| copy(&mut k, v.kernel.kernel(), &vars))
        .collect::<Result<Vec<_>>>()?;
    let (mut index, mut valid) = roots[roots.len() - 1];
    for (v, &(i, ok)) in all.iter().zip(&roots).rev().skip(1) {
        let g = guard(&mut k, &v.guard, syms, &vars)?;
        index = k.push(Node::Select(g, i, index));
        valid = either(&mut k, g, ok, valid);
    }
    k.set_index(index);
    k.set_valid(valid);
    Ok(SymKernel {
        kernel: k,
        extents: generic.extents().to_vec(),
        symbols: generic.symbols().to_vec(),
        taken_only: true,
    })
}

/// `g && a || !g && b`, folded where `a` or `b` is a literal.
fn either(k: &mut Kernel, g: NodeId, a: NodeId, b: NodeId) -> NodeId {
    if a == b {
        return a;
    }
    let yes = match k.nodes()[a as usize] {
        Node::Bool(true) => g,
        Node::Bool(false) => return and_not(k, g, b),
        _ => k.push(Node::And(g, a)),
    };
    let no = and_not(k, g, b);
    match k.nodes()[no as usize] {
        Node::Bool(false) => yes,
        _ => k.push(Node::Or(yes, no)),
    }
}

/// `!g && b`, folded where `b` is a literal.
fn and_not(k: &mut Kernel, g: NodeId, b: NodeId) -> NodeId {
    match k.nodes()[b as usize] {
        Node::Bool(false) => b,
        Node::Bool(true) => k.push(Node::Not(g)),
        _ => {
            let not = k.push(Node::Not(g));
            k.push(Node::And(not, b))
        }
    }
}

/// The guard `s1 == r1 && s2 == r2 …` over the variables `vars`.
fn guard(k: &mut Kernel, pins: &[Pin], syms: &Symbols, vars: &[super::Var]) -> Result<NodeId> {
    let mut g: Option<NodeId> = None;
    for (id, r) in pins {
        let var = var_index(vars, syms.name(*id))?;
        let x = k.push(Node::Var(var));
        let c = poly_node(k, r, syms, vars)?;
        let eq = k.push(Node::Eq(x, c));
        g = Some(match g {
            Some(a) => k.push(Node::And(a, eq)),
            None => eq,
        });
    }
    g.ok_or(Error::OutOfDomain {
        what: "a special version without a guard".into(),
    })
}

/// The polynomial `r` as a kernel expression over `vars`: a sum of
/// products, its interval from the symbols' ranges (a guard's right side,
/// proved within `i64` by the prover's bound at the symbols' maxima).
fn poly_node(k: &mut Kernel, r: &Poly, syms: &Symbols, vars: &[super::Var]) -> Result<NodeId> {
    let mut sum: Option<NodeId> = None;
    for &(m, c) in r.terms() {
        let mut t = k.push(Node::Const(c));
        for f in m.factors() {
            let x = k.push(Node::Var(var_index(vars, syms.name(f))?));
            t = if k.nodes()[t as usize] == Node::Const(1) {
                x
            } else {
                k.push(Node::Mul(t, x))
            };
        }
        sum = Some(match sum {
            Some(s) => k.push(Node::Add(s, t)),
            None => t,
        });
    }
    Ok(sum.unwrap_or_else(|| k.push(Node::Const(0))))
}

fn var_index(vars: &[super::Var], name: &str) -> Result<usize> {
    vars.iter()
        .position(|v| v.name == name)
        .ok_or_else(|| Error::OutOfDomain {
            what: format!("variable '{name}' of a version is not one of the kernel's"),
        })
}

/// Copies the nodes of `src` reachable from its roots into `dst` (variables
/// matched by name, intervals kept), returning the roots' new ids.
/// Whether every variable that `k`'s index or validity reads is named in
/// `vars`. O(nodes).
fn reads_only(k: &Kernel, vars: &[super::Var]) -> bool {
    let seen = k.reachable();
    k.nodes()
        .iter()
        .zip(&seen)
        .all(|(node, &seen)| match *node {
            Node::Var(v) if seen => vars.iter().any(|x| x.name == k.vars()[v].name),
            _ => true,
        })
}

fn copy(dst: &mut Kernel, src: &Kernel, vars: &[super::Var]) -> Result<(NodeId, NodeId)> {
    let seen = src.reachable();
    // A variable that no reachable node reads need not be one of `vars`.
    let map_vars: Vec<Result<usize>> = src
        .vars()
        .iter()
        .map(|v| var_index(vars, &v.name))
        .collect();
    let mut ids: Vec<NodeId> = vec![0; src.nodes().len()];
    for (id, node) in src.nodes().iter().enumerate() {
        if !seen[id] {
            continue;
        }
        let node = match *node {
            Node::Var(v) => Node::Var(map_vars[v].clone()?),
            n => n.map_children(|c| ids[c as usize]),
        };
        ids[id] = dst.push_with_range(node, src.range(id as NodeId));
    }
    Ok((ids[src.index() as usize], ids[src.valid() as usize]))
}
