//! The *split* kernel of a view stack: each view's own kernel, the one below
//! reading the index of the one above, spliced into one expression.
//!
//! The fused lowering ([`super::stack`]'s first way) rewrites every view's
//! digits over the linear form of the view above, which usually removes
//! divisions but is a greedy rewrite: on some stacks it needs more than the
//! views' own kernels together. The split kernel is the fallback whose cost
//! is known in advance: its divisions and modulos are exactly those of the
//! views' kernels ([`super::view`], the top view at the kernel's input,
//! every other at its linear index), minus any the node table shares. So
//! keeping the cheaper of the two makes a stack never cost more than its
//! views rendered one after another.
//!
//! A view below is only lowered for `0 <= i < n` (`n` its size); the index
//! of the view above lies there wherever that view is valid (movement ops
//! never reach outside the tensor they act on), but not necessarily where
//! it is invalid. The view below therefore reads the *clamp*
//! `(x >= 0 && x < n) ? x : 0` (only the comparisons the interval of `x`
//! does not already prove), which equals `x` wherever it matters, lies in
//! `[0, n)` everywhere, and costs no division; the interval rule for a
//! select under comparisons ([`Kernel::check`]) proves the latter, so every
//! node spliced in keeps the interval it had in its own kernel.
//!
//! Cost: O(nodes of the views' kernels).

use super::ir::{children, Kernel, Node, NodeId};
use super::Input;
use crate::error::Result;
use crate::view::View;

/// The split kernel of the stack `below`, `top` (bottom view first) at
/// `input`.
///
/// # Errors
/// As [`super::view`] for any of the views.
pub(crate) fn split(top: &View, below: &[View], input: Input) -> Result<Kernel> {
    let mut k = super::view(top, input)?;
    let (mut index, mut valid) = (k.index(), k.valid());
    for v in below.iter().rev() {
        let lower = super::view(v, Input::Linear)?;
        let arg = clamp(&mut k, index, v.size());
        let (i, ok) = splice(&mut k, &lower, arg);
        index = i;
        valid = and(&mut k, valid, ok);
    }
    if k.nodes()[valid as usize] == Node::Bool(false) {
        index = k.push(Node::Const(0)); // never read (rule V2)
    }
    k.set_index(index);
    k.set_valid(valid);
    k.check()?;
    Ok(k)
}

/// `x` clamped into `[0, n)`: `x` itself where its interval proves it,
/// else `(x >= 0 && x < n) ? x : 0` with only the comparisons needed.
fn clamp(k: &mut Kernel, x: NodeId, n: i64) -> NodeId {
    let (lo, hi) = k.range(x);
    let mut cond: Option<NodeId> = None;
    if lo < 0 {
        let zero = k.push(Node::Const(0));
        cond = Some(k.push(Node::Ge(x, zero)));
    }
    if hi >= i128::from(n) {
        let top = k.push(Node::Const(n));
        let lt = k.push(Node::Lt(x, top));
        cond = Some(match cond {
            None => lt,
            Some(c) => k.push(Node::And(c, lt)),
        });
    }
    match cond {
        None => x,
        Some(c) => {
            let zero = k.push(Node::Const(0));
            k.push(Node::Select(c, x, zero))
        }
    }
}

/// Copies the nodes of `other` (one variable) reachable from its roots into
/// `k`, its variable replaced by `arg`; returns the copies of its index and
/// validity. Each copy keeps `other`'s interval for it as a hint, sound
/// because `arg`'s interval lies within the variable's range.
fn splice(k: &mut Kernel, other: &Kernel, arg: NodeId) -> (NodeId, NodeId) {
    let seen = other.reachable();
    let mut map: Vec<NodeId> = vec![0; other.nodes().len()];
    for (id, &node) in other.nodes().iter().enumerate() {
        if !seen[id] {
            continue;
        }
        if let Node::Var(_) = node {
            map[id] = arg;
            continue;
        }
        let copy = node.map_children(|c| map[c as usize]);
        debug_assert!(children(node).all(|c| seen[c as usize]));
        map[id] = k.push_hint(copy, Some(other.range(id as NodeId)));
    }
    (map[other.index() as usize], map[other.valid() as usize])
}

/// `a && b`, a literal `true` dropped.
fn and(k: &mut Kernel, a: NodeId, b: NodeId) -> NodeId {
    match (k.nodes()[a as usize], k.nodes()[b as usize]) {
        (Node::Bool(true), _) | (_, Node::Bool(false)) => b,
        (_, Node::Bool(true)) | (Node::Bool(false), _) => a,
        _ => k.push(Node::And(a, b)),
    }
}
