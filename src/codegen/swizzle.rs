//! Kernel expressions for composed layouts, `i ↦ Sw(O + L(i))`, with only
//! the protocol's operators (no bit operators).
//!
//! With `x = O + L(i)` and `Sw = Sw<B,M,S>`, the swizzle writes the `B` bits
//! starting at `w = M + max(−S, 0)` and reads the `B` bits starting at
//! `r = M + max(S, 0)` (`|S| ≥ B`: the two fields are disjoint). Bit `j` of
//! an `i64` in two's complement is `⌊x / 2^j⌋ mod 2` with floor division, for
//! negative `x` too, so with `a_k`, `c_k` the bits `w + k` and `r + k`:
//!
//! ```text
//! Sw(x) = x + Σ_k 2^(w+k)·((a_k XOR c_k) − a_k) = x + Σ_k 2^(w+k)·c_k·(1 − 2·a_k),
//! ```
//!
//! since `a XOR c − a = c − 2ac` on bits. The bits go through the simplifier
//! together with `x`, so their extractions share quotients with the layout's
//! own digits and with each other (rule E1 writes a bit whose next quotient
//! is computed anyway as a difference, with no modulo); each term is a
//! product of two bits, a sign in `{−1, 0, 1}`, by a power of two at most
//! `2^62`, folded when a bit is constant. Every division is built by the
//! simplifier, whose rule D3 shifts a dividend that can be negative by a
//! multiple of the divisor, so no `/` or `%` ever sees a negative operand.
//! Every partial sum `x + Σ_{k<K} …` is `x` with some of the written bits
//! flipped, so it lies in the same block of `2^(w+B)` values as `x` (rule
//! W1): that bound, not the interval sum, is the sums' interval, so no sum
//! is refused for an overflow it cannot have.
//!
//! Cost: O(leaves + B) simplifier calls; the expression has at most
//! `2B + 2` divisions and modulos beyond the layout's own (`B` per field
//! and one modulo for each field's top bit).

use super::emit::emit_forms;
use super::ir::{Kernel, Node, NodeId};
use super::linear::{Builder, Lin};
use super::{inputs, lower_top, Input};
use crate::algebra::ComposedLayout;
use crate::error::Result;
use crate::view::View;

/// The kernel of `c` at `input` (see [`super::composed`]).
pub(crate) fn kernel(c: &ComposedLayout, input: Input) -> Result<Kernel> {
    // `ComposedLayout::new` checked that O + L(i) fits i64.
    let v = View::of_layout(c.layout(), c.offset());
    let mut b = Builder::recording();
    let mut conds = Vec::new();
    let (vars, lins) = inputs(&mut b, &v.shape(), input)?;
    let x = lower_top(&mut b, &v, &lins, input, &mut conds)?;
    let sw = c.swizzle();
    let (m, s) = (sw.base(), sw.shift());
    let (w, r) = (m + (-s).max(0), m + s.max(0));
    // forms: [x, a_0, c_0, a_1, c_1, …]
    let mut forms = vec![x.clone()];
    for k in 0..sw.bits() {
        forms.push(bit(&mut b, &x, w + k)?);
        forms.push(bit(&mut b, &x, r + k)?);
    }
    let mut kern = Kernel::new(vars);
    let ids = emit_forms(&mut b, &forms, &conds, &mut kern)?;
    let mut index = ids[0];
    let block = block(kern.range(index), w + sw.bits());
    for (k, pair) in ids[1..].chunks(2).enumerate() {
        let sum = add_term(&mut kern, index, pair[0], pair[1], 1 << (w + k as i64));
        // The sum's value is x with some written bits flipped (rule W1).
        index = kern.push_hint(kern.nodes()[sum as usize], Some(block));
    }
    kern.set_index(index);
    kern.check()?;
    Ok(kern)
}

/// The values that agree with some value of `[lo, hi]` on every bit from `t`
/// up: `[2^t·⌊lo/2^t⌋, 2^t·(⌊hi/2^t⌋ + 1) − 1]` (`t ≤ 63`).
fn block((lo, hi): (i128, i128), t: i64) -> (i128, i128) {
    let p = 1i128 << t;
    (lo.div_euclid(p) * p, (hi.div_euclid(p) + 1) * p - 1)
}

/// Bit `j` of `x`: `⌊x / 2^j⌋ mod 2`.
fn bit(b: &mut Builder, x: &Lin, j: i64) -> Result<Lin> {
    let q = b.div(x, 1 << j)?;
    b.modulo(&q, 2)
}

/// `index + c·(1 − 2a)·f` for bits `a` and `c` (nodes of value 0 or 1),
/// folded where a bit is a constant.
fn add_term(k: &mut Kernel, index: NodeId, a: NodeId, c: NodeId, f: i64) -> NodeId {
    let konst = |k: &Kernel, id: NodeId| match k.nodes()[id as usize] {
        Node::Const(v) => Some(v),
        _ => None,
    };
    let scale = |k: &mut Kernel, t: NodeId| {
        if f == 1 {
            return t;
        }
        let f = k.push(Node::Const(f));
        k.push(Node::Mul(t, f))
    };
    match (konst(k, a), konst(k, c)) {
        (_, Some(0)) => index,
        (Some(a), _) => {
            let t = scale(k, c);
            k.push(if a == 0 {
                Node::Add(index, t)
            } else {
                Node::Sub(index, t)
            })
        }
        (None, cv) => {
            let (one, two) = (k.push(Node::Const(1)), k.push(Node::Const(2)));
            let a2 = k.push(Node::Mul(a, two));
            let mut t = k.push(Node::Sub(one, a2));
            if cv.is_none() {
                t = k.push(Node::Mul(c, t));
            }
            let t = scale(k, t);
            k.push(Node::Add(index, t))
        }
    }
}
