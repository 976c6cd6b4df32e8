//! Kernel expressions of a symbolic view stack ([`SymViewStack`], the
//! answer of a movement-op chain over symbols): the index and the validity
//! as one text for every allowed binding, the symbols being variables of the
//! text after the coordinates (`docs/batch-protocol.md`, "Symbolic extents";
//! `docs/symbolic.md` §13).
//!
//! **One view.** Each dimension's coordinate `x` (or, from the linear input
//! `i`, the row-major rank over all leaves: a symbolic view has no windows)
//! is split into the mixed-radix digits of its leaves, as for a symbolic
//! layout ([`super::sym_layout`]): adjacent leaves that act as one (the outer
//! stride and every outer constraint coefficient the inner one's times the
//! inner extent) are merged first, extent-1 leaves dropped, and a modulo
//! whose quotient the kernel computes anyway is written `q - e·⌊q/e⌋`. The
//! index is `offset + Σ stride·digit`. Each constraint `lo <= Σ a·digit < hi`
//! keeps only the bounds the prover does not show always hold over the
//! digits' box (`min = Σ_{a<0} a·(e−1)`, `max = Σ_{a>0} a·(e−1)`, exact
//! there); a constraint on the first digit alone, `lo <= ⌊x/P⌋ < hi`, compares
//! `x` itself with `P·lo` and `P·hi` (no division; rule C3 of
//! `docs/codegen.md`); when such a constraint pins the digit (`hi = lo + 1`,
//! or `hi <= 1`: the digit is `lo`, or 0, wherever the view is valid), the
//! digit is that constant in the index and the other constraints, and the
//! next digit, `⌊x/P_1⌋ − c·e_1`, takes no modulo (the index is only read
//! where the validity holds; rule V1). A constraint the prover shows
//! never holds makes the validity `false` and the index `0` (rule V2).
//!
//! **Several views.** As the concrete *split* kernel (`splice.rs`): the top
//! view is lowered at the kernel's input, each view below at the index of
//! the view above, clamped into `[0, size)` with only the comparisons the
//! prover does not discharge (`(x >= 0 && x < n) ? x : 0`), which equals the
//! index wherever the view above is valid (movement ops stay inside the
//! tensor they act on); the validity is the conjunction of all views'.
//! A *box* (a view pushed for a pad or shrink, reading the view below
//! dimension by dimension with a shift: module `fold` of the symbolic
//! views) is lowered per dimension instead: its constraints compared on its
//! coordinates, the view below at `x_d + shift_d`, no division through the
//! box's index. Where a pad makes that coordinate negative, the digits are
//! read from it lifted by `c·P` (`c` the negated least value, `P` the first
//! digit's divisor), the first digit taken `c` less: a non-negative dividend
//! without a select, as the concrete kernel reads a window.
//!
//! A view's index node takes the view's offset range over the box of its
//! leaf coordinates as its interval (unless a pinned digit made it differ
//! where the view is invalid), so a contiguous view below needs no clamp.
//! Every node's interval has polynomial ends, proved within `±(2^63 − 1)`,
//! every divisor `>= 1` and dividend `>= 0`, at every allowed binding, or
//! the kernel is refused naming the facts ([`Error::NeedsFacts`]). A stack
//! whose symbols all have one allowed value gets the concrete kernel
//! ([`super::stack`]).
//!
//! Cost: O(views · leaves · (1 + constraints)) nodes, each with O(1) prover
//! calls on polynomials of O(leaves) terms.

use std::ops::Range;

use smallvec::SmallVec;

use super::ir::{Node, NodeId};
use super::sym::{digit_forms, start, used_symbols, with_symbols, Build, Form, SymKernel};
use super::{Input, MAX_STACK_VIEWS};
use crate::error::{Error, Result};
use crate::symbolic::{BoxMap, Fact, Poly, SymView, SymViewStack, Symbols, Truth};

/// The kernel of a symbolic view stack over its final coordinates
/// ([`Input::Coords`]) or its row-major rank ([`Input::Linear`]); see the
/// module documentation for the rules and the cost.
///
/// # Errors
/// [`Error::NeedsFacts`] naming the facts that would prove every node
/// within `i64` (with the default maxima, products of symbols need bounds);
/// [`Error::OutOfDomain`] when a symbol is named like an input variable;
/// [`Error::LimitExceeded`] past [`MAX_STACK_VIEWS`] views;
/// [`Error::Overflow`] from polynomial arithmetic.
///
/// ```
/// use hlayout::codegen::{sym_stack, Input, Lang};
/// use hlayout::symbolic::{Assume, SymMovement, SymViewStack, Symbols};
/// let mut s = Symbols::new();
/// s.assume("N", Assume { max: 64, ..Assume::default() })?;
/// let pad = SymMovement::parse(r#"["pad",[["j",0],[0,0]]]"#, &mut s)?;
/// s.assume("j", Assume { min: 0, max: 8, ..Assume::default() })?;
/// let t = SymViewStack::new(&[s.parse("N")?, 4.into()], &s)?.apply(&pad, &s)?;
/// let k = sym_stack(&t, &s, Input::Coords)?;
/// assert_eq!(k.kernel().render(Lang::C), ("i0 * 4 + i1 - 4 * j".into(), "i0 >= j".into()));
/// let at = s.binding(&[("N", 3), ("j", 2)])?;
/// assert_eq!(k.eval(&s, &[1, 3], &at)?.1, false);
/// assert_eq!(k.eval(&s, &[4, 3], &at)?, (11, true));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn sym_stack(stack: &SymViewStack, syms: &Symbols, input: Input) -> Result<SymKernel> {
    let views = stack.views();
    if views.len() > MAX_STACK_VIEWS {
        return Err(Error::LimitExceeded {
            limit: "codegen::MAX_STACK_VIEWS",
            value: views.len() as u64,
            max: MAX_STACK_VIEWS as u64,
        });
    }
    let symbols = used_symbols(views.iter().flat_map(polys));
    let top = &views[views.len() - 1];
    let extents = match input {
        Input::Coords => top.shape()?.into_vec(),
        Input::Linear => vec![top.size()?],
    };
    if symbols
        .iter()
        .all(|&id| syms.range(id).0 == syms.range(id).1)
    {
        let values: Vec<i64> = (0..syms.len()).map(|id| syms.range(id as u8).0).collect();
        let concrete = super::stack(&stack.bind(syms, &values)?, input)?;
        return Ok(SymKernel {
            kernel: with_symbols(concrete, syms, &symbols),
            extents,
            symbols,
            taken_only: false,
        });
    }
    let mut b = start(syms, &symbols, input, extents.len())?;
    let needed = views
        .iter()
        .map(|v| needed_bounds(v, syms))
        .collect::<Result<Option<Vec<_>>>>()?;
    let (index, valid) = match needed {
        Some(needed) => lower_stack(&mut b, stack, &needed, &extents, input)?,
        None => {
            // Rule V2: never valid, so never read.
            let zero = b.push(Node::Const(0), Poly::zero(), Poly::zero())?;
            let no = b.push(Node::Bool(false), Poly::zero(), Poly::constant(1))?;
            (zero, no)
        }
    };
    b.k.set_index(index);
    b.k.set_valid(valid);
    b.finish()?;
    Ok(SymKernel {
        kernel: b.k,
        extents,
        symbols,
        taken_only: false,
    })
}

/// Every polynomial of a view.
fn polys(v: &SymView) -> impl Iterator<Item = &Poly> {
    let bounds = v.constraints().iter().flat_map(|c| [c.lo(), c.hi()]);
    v.leaf_extents()
        .iter()
        .chain(v.leaf_strides())
        .chain(std::iter::once(v.offset()))
        .chain(bounds)
}

/// Where the lowering of a view starts: its dimensions' coordinates, or
/// one row-major index over all its leaves.
enum At {
    Dims(Vec<DimAt>),
    Flat(NodeId),
}

/// The coordinate of one dimension of a view being lowered: its digits are
/// read from `x + add + lift·P` (`P` the divisor of its first digit, the
/// product of the inner leaves' extents), and the first digit is then
/// `lift` too large. `in_box` when `x + add` is proved in `[0, extent)`;
/// otherwise it is there wherever the view above is valid, and the view's
/// index gets no interval from its box.
struct DimAt {
    x: NodeId,
    add: Poly,
    lift: Poly,
    in_box: bool,
}

impl DimAt {
    /// A coordinate node in range.
    fn node(x: NodeId) -> DimAt {
        DimAt {
            x,
            add: Poly::zero(),
            lift: Poly::zero(),
            in_box: true,
        }
    }
}

/// The top view at the kernel's inputs, each view below at the clamped
/// index of the view above, or dimension by dimension below a box: the
/// index and the validity.
fn lower_stack(
    b: &mut Build,
    stack: &SymViewStack,
    needed: &[Vec<Need>],
    extents: &[Poly],
    input: Input,
) -> Result<(NodeId, NodeId)> {
    let views = stack.views();
    let mut xs = Vec::with_capacity(extents.len());
    for (k, e) in extents.iter().enumerate() {
        xs.push(b.push(Node::Var(k), Poly::zero(), e.sub(&Poly::constant(1))?)?);
    }
    let mut at = match input {
        Input::Coords => At::Dims(xs.into_iter().map(DimAt::node).collect()),
        Input::Linear => At::Flat(xs[0]),
    };
    let mut cmps = Vec::new();
    let mut i = views.len() - 1;
    let index = loop {
        let v = &views[i];
        if let (true, Some(map)) = (i > 0, stack.box_map(i)) {
            let xs = match at {
                At::Dims(dims) => dims
                    .into_iter()
                    .enumerate()
                    .map(|(d, at)| materialized(b, at, &v.dim_extent(d)?))
                    .collect::<Result<Vec<_>>>()?,
                At::Flat(x) => dims_of(b, v, x)?,
            };
            let below = &views[i - 1];
            at = At::Dims(lower_box(b, v, below, map, &xs, &needed[i], &mut cmps)?);
            i -= 1;
            continue;
        }
        let dims: Vec<(Range<usize>, DimAt)> = match at {
            At::Dims(dims) => (0..v.rank()).map(|d| v.dim_leaves(d)).zip(dims).collect(),
            At::Flat(x) => vec![(0..v.leaf_extents().len(), DimAt::node(x))],
        };
        let (index, c) = lower_view(b, v, &dims, &needed[i])?;
        cmps.extend(c);
        if i == 0 {
            break index;
        }
        i -= 1;
        at = At::Flat(clamp(b, index, &views[i].size()?)?);
    };
    let mut valid: Option<NodeId> = None;
    for c in cmps {
        valid = Some(match valid {
            None => c,
            Some(a) => b.push(Node::And(a, c), Poly::zero(), Poly::constant(1))?,
        });
    }
    let valid = match valid {
        Some(v) => v,
        None => b.push(Node::Bool(true), Poly::zero(), Poly::constant(1))?,
    };
    Ok((index, valid))
}

/// The node of a coordinate `x + add` clamped into `[0, n)` (a lift only
/// serves the digits of a view, so it is left out here).
fn materialized(b: &mut Build, at: DimAt, n: &Poly) -> Result<NodeId> {
    let z = plus(b, at.x, &at.add)?;
    clamp(b, z, n)
}

/// The coordinates of `v`'s dimensions (one leaf each) at its row-major
/// index `x`: its mixed-radix digits.
fn dims_of(b: &mut Build, v: &SymView, x: NodeId) -> Result<Vec<NodeId>> {
    let used = vec![true; v.rank()];
    digit_forms(b, x, v.leaf_extents(), &used)?
        .iter()
        .map(|form| b.sum(form))
        .collect()
}

/// Box `t` over view `below` (module `fold` of the symbolic views) at the
/// coordinates `xs` of its dimensions: appends the comparisons of `t`'s
/// constraints that `need` marks, and returns the coordinates of `below`'s
/// dimensions, `shift_d + x_d` (`shift_d − x_d` where the box flips `d`).
/// No division: the view below splits each dimension into its own leaves.
/// Where the coordinate may be negative (a pad before), the digits are read
/// from it lifted by `c·P` with `c` the least value's negation, so the
/// dividend is `>= 0` and needs no select (the concrete kernel's window
/// start). It is clamped (`?:`) instead where its least value's sign is
/// unknown, or where its greatest value is below `P` (clamped, its interval
/// then shows the first digit 0 and may spare inner divisions; lifted, it
/// would not). Its value matters only where `t` is valid, and there it is
/// in range.
fn lower_box(
    b: &mut Build,
    t: &SymView,
    below: &SymView,
    map: &BoxMap,
    xs: &[NodeId],
    need: &[Need],
    cmps: &mut Vec<NodeId>,
) -> Result<Vec<DimAt>> {
    let need = strongest(b, t, need)?;
    for (c, &(need_lo, need_hi)) in t.constraints().iter().zip(&need) {
        if !(need_lo || need_hi) {
            continue;
        }
        let terms: Vec<(NodeId, Poly)> = c
            .coeffs()
            .iter()
            .zip(xs)
            .filter(|(&a, _)| a != 0)
            .map(|(&a, &x)| (x, Poly::constant(a)))
            .collect();
        let s = b.sum(&terms)?;
        compare(b, s, (c.lo(), need_lo), (c.hi(), need_hi), cmps)?;
    }
    let zero_poly = Poly::zero();
    let mut out = Vec::with_capacity(xs.len());
    for (d, (&x, shift)) in xs.iter().zip(&map.shift).enumerate() {
        let (x, shift) = if map.flip[d] {
            // shift − x, as one node.
            let (lx, hx) = b.bound(x);
            let s = b.poly(shift)?;
            let node = b.push(Node::Sub(s, x), shift.sub(&hx)?, shift.sub(&lx)?)?;
            (node, &zero_poly)
        } else {
            (x, shift)
        };
        let (lo, hi) = b.bound(x);
        let (lo, hi) = (lo.add(shift)?, hi.add(shift)?);
        let last = below.dim_extent(d)?.sub(&Poly::constant(1))?;
        let zero = Poly::zero();
        let at = if b.proved(&Fact::ge(&lo, &zero)?) {
            DimAt {
                x,
                add: shift.clone(),
                lift: zero,
                in_box: b.proved(&Fact::le(&hi, &last)?),
            }
        } else if b.proved(&Fact::le(&lo, &zero)?)
            && !b.proved(&Fact::lt(&hi, &first_divisor(below, d)?)?)
        {
            DimAt {
                x,
                add: shift.clone(),
                lift: lo.neg()?,
                in_box: false,
            }
        } else {
            let z = plus(b, x, shift)?;
            DimAt::node(clamp(b, z, &last.add(&Poly::constant(1))?)?)
        };
        out.push(at);
    }
    Ok(out)
}

/// The divisor of the first digit of `v`'s dimension `d` as [`lower_view`]
/// splits it: the product of its merged leaves' extents but the first.
fn first_divisor(v: &SymView, d: usize) -> Result<Poly> {
    let leaves = merged_leaves(v, v.dim_leaves(d));
    leaves
        .iter()
        .skip(1)
        .try_fold(Poly::constant(1), |p, l| p.mul(&l.extent))
}

/// `x` clamped into `[0, n)`: `x` itself where the prover shows it there,
/// else `(x >= 0 && x < n) ? x : 0` with only the comparisons needed.
fn clamp(b: &mut Build, x: NodeId, n: &Poly) -> Result<NodeId> {
    let (lo, hi) = b.bound(x);
    let last = n.sub(&Poly::constant(1))?;
    let mut cond: Option<NodeId> = None;
    let bool_of = |b: &mut Build, node| b.push(node, Poly::zero(), Poly::constant(1));
    // The clamped value's greatest: `x`'s where it is proved below `n`.
    let mut top_value = hi.clone();
    if !b.proved(&Fact::ge(&lo, &Poly::zero())?) {
        let zero = b.push(Node::Const(0), Poly::zero(), Poly::zero())?;
        cond = Some(bool_of(b, Node::Ge(x, zero))?);
    }
    if !b.proved(&Fact::le(&hi, &last)?) {
        top_value = last;
        let top = b.poly(n)?;
        let lt = bool_of(b, Node::Lt(x, top))?;
        cond = Some(match cond {
            None => lt,
            Some(c) => bool_of(b, Node::And(c, lt))?,
        });
    }
    match cond {
        None => Ok(x),
        Some(c) => {
            let zero = b.push(Node::Const(0), Poly::zero(), Poly::zero())?;
            b.push(Node::Select(c, x, zero), Poly::zero(), top_value)
        }
    }
}

/// Which bounds of a constraint the kernel must test: `(lo, hi)`.
type Need = (bool, bool);

/// For each constraint of `v`, the bounds not proved to hold over the box
/// of its leaf coordinates; `None` when one is proved never to hold, or two
/// on the same sum (the same coefficients) are proved disjoint (`hi <=
/// lo'`: `j+1 <= x0` and `x0 < j+1`). O(constraints²) prover calls.
fn needed_bounds(v: &SymView, syms: &Symbols) -> Result<Option<Vec<Need>>> {
    let proved = |f: Fact| syms.prove(&f) == Truth::Proved;
    let mut out = Vec::with_capacity(v.constraints().len());
    for c in v.constraints() {
        let (mut min, mut max) = (Poly::zero(), Poly::zero());
        for (&a, e) in c.coeffs().iter().zip(v.leaf_extents()) {
            let reach = e.sub(&Poly::constant(1))?.mul(&Poly::constant(a))?;
            match a {
                a if a < 0 => min = min.add(&reach)?,
                a if a > 0 => max = max.add(&reach)?,
                _ => {}
            }
        }
        let (lo, hi) = (c.lo(), c.hi());
        if proved(Fact::lt(&max, lo)?) || proved(Fact::ge(&min, hi)?) || proved(Fact::le(hi, lo)?) {
            return Ok(None);
        }
        out.push((!proved(Fact::ge(&min, lo)?), !proved(Fact::lt(&max, hi)?)));
    }
    let cons = v.constraints();
    for (k, a) in cons.iter().enumerate() {
        for b in cons[k + 1..].iter().filter(|b| b.coeffs() == a.coeffs()) {
            if proved(Fact::le(a.hi(), b.lo())?) || proved(Fact::le(b.hi(), a.lo())?) {
                return Ok(None);
            }
        }
    }
    Ok(Some(out))
}

/// `need` with every bound dropped that a kept bound of a constraint on
/// the same sum (the same coefficients) is proved at least as strong as:
/// the conjunction is unchanged (the intersection of rule C3 in
/// `docs/codegen.md`). O(constraints²) prover calls.
fn strongest(b: &Build, v: &SymView, need: &[Need]) -> Result<Vec<Need>> {
    let cons = v.constraints();
    let lo = keep_strongest(b, v, need.iter().map(|n| n.0), |k, j| {
        Fact::ge(cons[k].lo(), cons[j].lo())
    })?;
    let hi = keep_strongest(b, v, need.iter().map(|n| n.1), |k, j| {
        Fact::le(cons[k].hi(), cons[j].hi())
    })?;
    Ok(lo.into_iter().zip(hi).collect())
}

/// Of the bounds marked `needed` (one per constraint of `v`), those kept,
/// greedily in order: a bound that a kept one implies (`implies(k, j)`:
/// bound `k` is at least as strong as bound `j`, on the same sum) is
/// dropped; a bound kept drops the kept ones it implies. Every dropped
/// bound is implied by a kept one (each link points to a bound kept at the
/// time, the last link to one kept at the end).
fn keep_strongest(
    b: &Build,
    v: &SymView,
    needed: impl Iterator<Item = bool>,
    implies: impl Fn(usize, usize) -> Result<Fact>,
) -> Result<Vec<bool>> {
    let cons = v.constraints();
    let mut keep: Vec<bool> = needed.collect();
    let mut kept: Vec<usize> = Vec::new();
    for j in 0..keep.len() {
        if !keep[j] {
            continue;
        }
        let rivals: Vec<usize> = kept
            .iter()
            .copied()
            .filter(|&k| cons[k].coeffs() == cons[j].coeffs())
            .collect();
        let mut implied = false;
        for &k in &rivals {
            implied |= b.proved(&implies(k, j)?);
        }
        if implied {
            keep[j] = false;
            continue;
        }
        for &k in &rivals {
            if b.proved(&implies(j, k)?) {
                keep[k] = false;
            }
        }
        kept.retain(|&k| keep[k]);
        kept.push(j);
    }
    Ok(keep)
}

/// One merged leaf: extent, stride, constraint coefficients.
struct Leaf {
    extent: Poly,
    stride: Poly,
    coeffs: SmallVec<[i64; 4]>,
}

/// The leaves `leaves` of `v`, extent-1 leaves dropped, adjacent leaves
/// merged where the outer stride and every outer coefficient are the inner
/// ones times the inner extent (polynomial identities).
fn merged_leaves(v: &SymView, leaves: Range<usize>) -> Vec<Leaf> {
    let one = Poly::constant(1);
    let mut out: Vec<Leaf> = Vec::with_capacity(leaves.len());
    for k in leaves {
        let extent = &v.leaf_extents()[k];
        if *extent == one {
            continue;
        }
        let leaf = Leaf {
            extent: extent.clone(),
            stride: v.leaf_strides()[k].clone(),
            coeffs: v.constraints().iter().map(|c| c.coeffs()[k]).collect(),
        };
        if let Some(last) = out.last_mut() {
            let stride = leaf.stride.mul(extent).is_ok_and(|s| s == last.stride);
            let coeffs = last.coeffs.iter().zip(&leaf.coeffs).all(|(&o, &i)| {
                (o == 0 && i == 0) || extent.as_const().and_then(|e| i.checked_mul(e)) == Some(o)
            });
            if stride && coeffs {
                if let Ok(e) = last.extent.mul(extent) {
                    *last = Leaf { extent: e, ..leaf };
                    continue;
                }
            }
        }
        out.push(leaf);
    }
    out
}

/// Lowers `v` over `dims` (leaf ranges covering every leaf, in order, each
/// with its coordinate): its index, and the comparisons of the bounds
/// `need` marks.
fn lower_view(
    b: &mut Build,
    v: &SymView,
    dims: &[(Range<usize>, DimAt)],
    need: &[Need],
) -> Result<(NodeId, Vec<NodeId>)> {
    let cons = v.constraints();
    let need = &strongest(b, v, need)?;
    let mut index: Form = Vec::new();
    let mut sums: Vec<Form> = vec![Vec::new(); cons.len()];
    // The constant parts of the index and of each constraint's sum.
    let mut index_k = v.offset().clone();
    let mut sums_k = vec![Poly::zero(); cons.len()];
    // A constraint on the first digit of a dimension alone: (x, divisor,
    // lift).
    let mut single: Vec<Option<(NodeId, Poly, Poly)>> = vec![None; cons.len()];
    let mut in_box = true;
    for (range, at) in dims {
        let leaves = merged_leaves(v, range.clone());
        if leaves.is_empty() {
            continue;
        }
        let used: Vec<bool> = leaves
            .iter()
            .map(|l| {
                !l.stride.is_zero()
                    || l.coeffs
                        .iter()
                        .zip(need)
                        .any(|(&a, n)| a != 0 && (n.0 || n.1))
            })
            .collect();
        let extents: Vec<Poly> = leaves.iter().map(|l| l.extent.clone()).collect();
        let inner = extents[1..]
            .iter()
            .try_fold(Poly::constant(1), |p, e| p.mul(e))?;
        let x = plus(b, at.x, &at.add.add(&at.lift.mul(&inner)?)?)?;
        in_box &= at.in_box;
        let mut konst = vec![Poly::zero(); leaves.len()];
        let forms = match pinned(b, v, range, &leaves)? {
            Some(c) => {
                in_box = false;
                // The first digit is `c` wherever the view is valid, so
                // `c·P_1·e_1 <= x < (c+1)·P_1·e_1` there and the next digit
                // is `⌊x/P_1⌋ - c·e_1`, with no modulo (and `lift·e_1`
                // less on a lifted coordinate).
                let mut forms = vec![Form::new()];
                forms.extend(digit_forms(b, x, &extents[1..], &used[1..])?);
                if let Some(e1) = extents.get(1) {
                    konst[1] = c.add(&at.lift)?.mul(e1)?.neg()?;
                }
                konst[0] = c;
                forms
            }
            None => {
                konst[0] = at.lift.neg()?;
                digit_forms(b, x, &extents, &used)?
            }
        };
        for (k, (leaf, form)) in leaves.iter().zip(&forms).enumerate() {
            scaled(&mut index, form, &leaf.stride)?;
            index_k = index_k.add(&konst[k].mul(&leaf.stride)?)?;
            for (j, &a) in leaf.coeffs.iter().enumerate() {
                if a == 0 {
                    continue;
                }
                scaled(&mut sums[j], form, &Poly::constant(a))?;
                sums_k[j] = sums_k[j].add(&konst[k].mul(&Poly::constant(a))?)?;
                if k == 0 && a == 1 && only(v, j, range, &leaves) {
                    single[j] = Some((x, inner.clone(), at.lift.clone()));
                }
            }
        }
    }
    let terms = b.sum(&index)?;
    let index = plus(b, terms, &index_k)?;
    if in_box {
        // The index is the view's at a point of its box: its range.
        if let Some((lo, hi)) = box_range(b, v)? {
            b.narrow(index, lo, hi)?;
        }
    }
    let mut cmps = Vec::new();
    for (j, c) in cons.iter().enumerate() {
        let (need_lo, need_hi) = need[j];
        if !(need_lo || need_hi) {
            continue;
        }
        let (s, lo, hi) = match &single[j] {
            // lo <= ⌊x/P⌋ - lift < hi  ⇔  P·(lo+lift) <= x < P·(hi+lift).
            Some((x, p, lift)) => (*x, c.lo().add(lift)?.mul(p)?, c.hi().add(lift)?.mul(p)?),
            // lo <= S + K < hi  ⇔  lo - K <= S < hi - K.
            None => (
                b.sum(&sums[j])?,
                c.lo().sub(&sums_k[j])?,
                c.hi().sub(&sums_k[j])?,
            ),
        };
        compare(b, s, (&lo, need_lo), (&hi, need_hi), &mut cmps)?;
    }
    Ok((index, cmps))
}

/// The value of the first digit `d` of `leaves` wherever `v` is valid, when
/// a constraint `lo <= d < hi` on `d` alone pins it: `lo` when `hi - lo = 1`
/// or `e - lo = 1` (`e` the digit's extent; polynomial identities), `0`
/// when `hi <= 1` is proved.
fn pinned(b: &Build, v: &SymView, range: &Range<usize>, leaves: &[Leaf]) -> Result<Option<Poly>> {
    let Some(first) = leaves.first() else {
        return Ok(None);
    };
    for (j, c) in v.constraints().iter().enumerate() {
        if first.coeffs[j] != 1 || !only(v, j, range, leaves) {
            continue;
        }
        let one = Poly::constant(1);
        if c.hi().sub(c.lo())? == one || first.extent.sub(c.lo())? == one {
            return Ok(Some(c.lo().clone()));
        }
        if b.proved(&Fact::le(c.hi(), &Poly::constant(1))?) {
            return Ok(Some(Poly::zero()));
        }
    }
    Ok(None)
}

/// The least and greatest offset of `v` over the box of its leaf
/// coordinates, `offset + Σ_{s<0} s·(e−1)` and `offset + Σ_{s>0} s·(e−1)`,
/// when every stride's sign is proved.
fn box_range(b: &Build, v: &SymView) -> Result<Option<(Poly, Poly)>> {
    let (mut lo, mut hi) = (v.offset().clone(), v.offset().clone());
    for (e, s) in v.leaf_extents().iter().zip(v.leaf_strides()) {
        let reach = e.sub(&Poly::constant(1))?.mul(s)?;
        if b.proved(&Fact::ge(s, &Poly::zero())?) {
            hi = hi.add(&reach)?;
        } else if b.proved(&Fact::le(s, &Poly::zero())?) {
            lo = lo.add(&reach)?;
        } else {
            return Ok(None);
        }
    }
    Ok(Some((lo, hi)))
}

/// `true` when constraint `j`'s only non-zero coefficient over the whole
/// view is on the first of `leaves` (the merged leaves of `range`).
fn only(v: &SymView, j: usize, range: &Range<usize>, leaves: &[Leaf]) -> bool {
    let coeffs = v.constraints()[j].coeffs();
    let outside = coeffs
        .iter()
        .enumerate()
        .any(|(k, &a)| a != 0 && !range.contains(&k));
    !outside && leaves[1..].iter().all(|l| l.coeffs[j] == 0)
}

/// Appends `form · p` to `acc`.
fn scaled(acc: &mut Form, form: &Form, p: &Poly) -> Result<()> {
    if p.is_zero() {
        return Ok(());
    }
    for (id, c) in form {
        acc.push((*id, c.mul(p)?));
    }
    Ok(())
}

/// `a + p`, subtracted when `p`'s leading coefficient is negative.
fn plus(b: &mut Build, a: NodeId, p: &Poly) -> Result<NodeId> {
    if p.is_zero() {
        return Ok(a);
    }
    if b.k.nodes()[a as usize] == Node::Const(0) {
        return b.poly(p);
    }
    let (lo, hi) = b.bound(a);
    let (lo, hi) = (lo.add(p)?, hi.add(p)?);
    if p.terms().first().is_some_and(|t| t.1 < 0) {
        let q = b.poly(&p.neg()?)?;
        b.push(Node::Sub(a, q), lo, hi)
    } else {
        let q = b.poly(p)?;
        b.push(Node::Add(a, q), lo, hi)
    }
}

/// Appends the comparisons `lo <= s` and `s < hi` that are marked needed
/// (one `s == lo` when `hi = lo + 1`).
fn compare(
    b: &mut Build,
    s: NodeId,
    (lo, need_lo): (&Poly, bool),
    (hi, need_hi): (&Poly, bool),
    out: &mut Vec<NodeId>,
) -> Result<()> {
    let one = Poly::constant(1);
    let cmp = |b: &mut Build, node| b.push(node, Poly::zero(), one.clone());
    if need_lo && need_hi && hi.sub(lo)? == one {
        let l = b.poly(lo)?;
        out.push(cmp(b, Node::Eq(s, l))?);
        return Ok(());
    }
    if need_lo {
        let l = b.poly(lo)?;
        out.push(cmp(b, Node::Ge(s, l))?);
    }
    if need_hi {
        let h = b.poly(hi)?;
        out.push(cmp(b, Node::Lt(s, h))?);
    }
    Ok(())
}
