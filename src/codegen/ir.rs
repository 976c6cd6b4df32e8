//! The kernel expression IR: a DAG of [`Node`]s in one arena ([`Kernel`]),
//! shared sub-expressions stored once (hash-consed), with the interval of
//! every integer node over the variables' ranges, and an interpreter.
//!
//! Semantics are those of the integers: `Div` and `Mod` are floor division
//! and modulo by a positive constant. [`Kernel::check`] proves, by interval
//! arithmetic, that every node fits `i64` and every `Div`/`Mod` operand is
//! non-negative, so the C, Rust and Python renderings (truncating or floor
//! division alike) compute exactly these values, without overflow, at every
//! point of the variables' box.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::error::{Error, Result};

/// A node's index in its [`Kernel`].
pub type NodeId = u32;

/// One operation of the IR. Integer nodes: `Const` to `Select`; boolean
/// nodes: `Bool` and the comparisons to `Not`.
///
/// ```
/// use hlayout::codegen::{Input, Node};
/// let l: hlayout::Layout = "(4,6):(1,4)".parse()?;
/// let k = hlayout::codegen::layout(&l, Input::Linear)?;
/// assert!(k.nodes().iter().any(|n| matches!(n, Node::Div(_, 6))));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// An integer literal.
    Const(i64),
    /// Input variable `k` (see [`Kernel::vars`]).
    Var(usize),
    /// `a + b`.
    Add(NodeId, NodeId),
    /// `a - b`.
    Sub(NodeId, NodeId),
    /// `a * b`.
    Mul(NodeId, NodeId),
    /// `⌊a / c⌋`, `c > 0`.
    Div(NodeId, i64),
    /// `a mod c` (in `[0, c)`), `c > 0`.
    Mod(NodeId, i64),
    /// `⌊a / d⌋` by the value of integer node `d`, positive wherever it is
    /// evaluated (a divisor over symbols; `codegen::sym_layout`).
    DivBy(NodeId, NodeId),
    /// `a mod d` (in `[0, d)`) by the value of integer node `d` (positive).
    ModBy(NodeId, NodeId),
    /// `c ? a : b` (integer).
    Select(NodeId, NodeId, NodeId),
    /// A boolean literal.
    Bool(bool),
    /// `a < b`.
    Lt(NodeId, NodeId),
    /// `a <= b`.
    Le(NodeId, NodeId),
    /// `a > b`.
    Gt(NodeId, NodeId),
    /// `a >= b`.
    Ge(NodeId, NodeId),
    /// `a == b`.
    Eq(NodeId, NodeId),
    /// `a != b`.
    Ne(NodeId, NodeId),
    /// `a && b`.
    And(NodeId, NodeId),
    /// `a || b`.
    Or(NodeId, NodeId),
    /// `!a`.
    Not(NodeId),
}

impl Node {
    /// Whether the node is boolean.
    pub fn is_bool(&self) -> bool {
        !matches!(
            self,
            Node::Const(_)
                | Node::Var(_)
                | Node::Add(..)
                | Node::Sub(..)
                | Node::Mul(..)
                | Node::Div(..)
                | Node::Mod(..)
                | Node::DivBy(..)
                | Node::ModBy(..)
                | Node::Select(..)
        )
    }

    /// The nodes this one reads, in operand order (a `Div`'s or `Mod`'s
    /// constant divisor is not a node). O(1).
    ///
    /// ```
    /// use hlayout::codegen::Node;
    /// assert_eq!(Node::Select(0, 1, 2).children().collect::<Vec<_>>(), [0, 1, 2]);
    /// assert_eq!(Node::Div(3, 4).children().collect::<Vec<_>>(), [3]);
    /// assert_eq!(Node::Const(7).children().count(), 0);
    /// ```
    pub fn children(self) -> impl Iterator<Item = NodeId> {
        children(self)
    }

    /// The same node reading `f(c)` in place of each child `c`: how a node
    /// is copied from one kernel's node list into another's. O(1).
    ///
    /// ```
    /// use hlayout::codegen::Node;
    /// assert_eq!(Node::Sub(0, 2).map_children(|c| c + 10), Node::Sub(10, 12));
    /// assert_eq!(Node::Mod(1, 4).map_children(|c| c * 3), Node::Mod(3, 4));
    /// assert_eq!(Node::Var(1).map_children(|c| c + 10), Node::Var(1));
    /// ```
    pub fn map_children(self, f: impl Fn(NodeId) -> NodeId) -> Node {
        match self {
            Node::Const(_) | Node::Var(_) | Node::Bool(_) => self,
            Node::Add(a, b) => Node::Add(f(a), f(b)),
            Node::Sub(a, b) => Node::Sub(f(a), f(b)),
            Node::Mul(a, b) => Node::Mul(f(a), f(b)),
            Node::Div(a, c) => Node::Div(f(a), c),
            Node::Mod(a, c) => Node::Mod(f(a), c),
            Node::DivBy(a, d) => Node::DivBy(f(a), f(d)),
            Node::ModBy(a, d) => Node::ModBy(f(a), f(d)),
            Node::Select(c, a, b) => Node::Select(f(c), f(a), f(b)),
            Node::Lt(a, b) => Node::Lt(f(a), f(b)),
            Node::Le(a, b) => Node::Le(f(a), f(b)),
            Node::Gt(a, b) => Node::Gt(f(a), f(b)),
            Node::Ge(a, b) => Node::Ge(f(a), f(b)),
            Node::Eq(a, b) => Node::Eq(f(a), f(b)),
            Node::Ne(a, b) => Node::Ne(f(a), f(b)),
            Node::And(a, b) => Node::And(f(a), f(b)),
            Node::Or(a, b) => Node::Or(f(a), f(b)),
            Node::Not(a) => Node::Not(f(a)),
        }
    }
}

/// An input variable: its name and its range `[0, extent)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    /// The name rendered (`i0`, `i1`, … or `i`).
    pub name: String,
    /// The variable ranges over `[0, extent)`.
    pub extent: i64,
}

/// A kernel's index and validity expressions over its variables.
///
/// ```
/// use hlayout::codegen::{self, Input};
/// let s = hlayout::ViewStack::new(&[4])?.pad(&[(1, 0)])?;
/// let k = codegen::stack(&s, Input::Coords)?;
/// assert_eq!(k.c(), ("i0 - 1".to_string(), "i0 >= 1".to_string()));
/// assert_eq!(k.eval(&[0])?, (-1, false));
/// assert_eq!(k.eval(&[3])?, (2, true));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Kernel {
    nodes: Vec<Node>,
    ranges: Vec<(i128, i128)>,
    interned: HashMap<Node, NodeId, BuildHasherDefault<Fx>>,
    vars: Vec<Var>,
    index: NodeId,
    valid: NodeId,
}

/// Largest magnitude a node may take (so that negation also fits `i64`).
const LIMIT: i128 = i64::MAX as i128;

impl Kernel {
    /// An empty kernel over `vars` (index 0, always valid).
    ///
    /// ```
    /// use hlayout::codegen::{Kernel, Node, Var};
    /// let mut k = Kernel::new(vec![Var { name: "x".into(), extent: 10 }]);
    /// let x = k.push(Node::Var(0));
    /// let d = k.push(Node::Div(x, 3));
    /// k.set_index(d);
    /// assert_eq!(k.c().0, "x / 3");
    /// assert_eq!(k.eval(&[7])?, (2, true));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn new(vars: Vec<Var>) -> Kernel {
        let mut k = Kernel {
            nodes: Vec::with_capacity(64),
            ranges: Vec::with_capacity(64),
            interned: HashMap::with_capacity_and_hasher(64, Default::default()),
            vars,
            index: 0,
            valid: 0,
        };
        k.index = k.push(Node::Const(0));
        k.valid = k.push(Node::Bool(true));
        k
    }

    /// Adds `node` (children must already exist) and returns its id; an equal
    /// node is stored once. Its interval is computed from its children's.
    ///
    /// # Panics
    /// When a child id is not an existing node.
    ///
    /// See [`Kernel::new`] for an example.
    pub fn push(&mut self, node: Node) -> NodeId {
        self.push_hint(node, None)
    }

    /// [`Kernel::push`], narrowing the node's interval by a known-sound `hint`.
    pub(crate) fn push_hint(&mut self, node: Node, hint: Option<(i128, i128)>) -> NodeId {
        if let Some(&id) = self.interned.get(&node) {
            if let Some((lo, hi)) = hint {
                let r = &mut self.ranges[id as usize];
                *r = (r.0.max(lo), r.1.min(hi));
            }
            return id;
        }
        let mut r = self.interval(node);
        if let Some((lo, hi)) = hint {
            r = (r.0.max(lo), r.1.min(hi));
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node);
        self.ranges.push(r);
        self.interned.insert(node, id);
        id
    }

    /// Adds `node` with the interval `range`, sound where the node is read;
    /// an equal node already present takes the hull of both intervals (a
    /// node shared by several versions of a kernel, each sound where its
    /// version is taken).
    pub(crate) fn push_with_range(&mut self, node: Node, range: (i128, i128)) -> NodeId {
        if let Some(&id) = self.interned.get(&node) {
            let r = &mut self.ranges[id as usize];
            *r = (r.0.min(range.0), r.1.max(range.1));
            return id;
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node);
        self.ranges.push(range);
        self.interned.insert(node, id);
        id
    }

    /// The interval of `node` from its children's (booleans: `[0, 1]`).
    fn interval(&self, node: Node) -> (i128, i128) {
        let r = |id: NodeId| self.ranges[id as usize];
        match node {
            Node::Const(c) => (i128::from(c), i128::from(c)),
            Node::Var(k) => (0, i128::from(self.vars[k].extent - 1)),
            // Saturating: a bound past ±2^127 is refused by `check` anyway.
            Node::Add(a, b) => (r(a).0.saturating_add(r(b).0), r(a).1.saturating_add(r(b).1)),
            Node::Sub(a, b) => (r(a).0.saturating_sub(r(b).1), r(a).1.saturating_sub(r(b).0)),
            Node::Mul(a, b) => {
                let (x, y) = (r(a), r(b));
                let m = |p: i128, q: i128| p.saturating_mul(q);
                let c = [m(x.0, y.0), m(x.0, y.1), m(x.1, y.0), m(x.1, y.1)];
                (
                    c.iter().copied().min().unwrap_or(0),
                    c.iter().copied().max().unwrap_or(0),
                )
            }
            Node::Div(a, c) => {
                let c = i128::from(c.max(1));
                (r(a).0.div_euclid(c), r(a).1.div_euclid(c))
            }
            Node::Mod(a, c) => {
                let c = i128::from(c.max(1));
                let (lo, hi) = r(a);
                if lo.div_euclid(c) == hi.div_euclid(c) {
                    (lo.rem_euclid(c), hi.rem_euclid(c))
                } else {
                    (0, c - 1)
                }
            }
            // The divisor is at least 1: the quotient lies between 0 and `a`.
            Node::DivBy(a, _) => (r(a).0.min(0), r(a).1.max(0)),
            Node::ModBy(_, d) => (0, (r(d).1 - 1).max(0)),
            Node::Select(c, a, b) => {
                let (x, y) = (self.range_under(c, a), r(b));
                if x.0 > x.1 {
                    y // `a` is never chosen
                } else {
                    (x.0.min(y.0), x.1.max(y.1))
                }
            }
            _ => (0, 1),
        }
    }

    /// The interval of `a` wherever the boolean node `c` holds: `a`'s own,
    /// narrowed by every conjunct of `c` that compares `a` itself with a
    /// constant (rule S1 of `docs/codegen.md`). Empty (`lo > hi`) when no
    /// value of `a` satisfies them. O(nodes of `c`'s conjunction).
    fn range_under(&self, c: NodeId, a: NodeId) -> (i128, i128) {
        let (mut lo, mut hi) = self.ranges[a as usize];
        let mut todo: smallvec::SmallVec<[NodeId; 8]> = smallvec::smallvec![c];
        while let Some(id) = todo.pop() {
            let node = self.nodes[id as usize];
            if let Node::And(x, y) = node {
                todo.extend([x, y]);
                continue;
            }
            let (Node::Lt(x, k)
            | Node::Le(x, k)
            | Node::Gt(x, k)
            | Node::Ge(x, k)
            | Node::Eq(x, k)) = node
            else {
                continue;
            };
            let Node::Const(k) = self.nodes[k as usize] else {
                continue;
            };
            if x != a {
                continue;
            }
            let k = i128::from(k);
            match node {
                Node::Lt(..) => hi = hi.min(k - 1),
                Node::Le(..) => hi = hi.min(k),
                Node::Gt(..) => lo = lo.max(k + 1),
                Node::Ge(..) => lo = lo.max(k),
                _ => (lo, hi) = (lo.max(k), hi.min(k)),
            }
        }
        (lo, hi)
    }

    /// The same kernel over `vars` (the same number or more variables).
    pub(crate) fn with_vars(mut self, vars: Vec<Var>) -> Kernel {
        self.vars = vars;
        self
    }

    /// Sets the index expression (an integer node).
    pub fn set_index(&mut self, id: NodeId) {
        self.index = id;
    }

    /// Sets the validity expression (a boolean node).
    pub fn set_valid(&mut self, id: NodeId) {
        self.valid = id;
    }

    /// The index expression's root.
    pub fn index(&self) -> NodeId {
        self.index
    }

    /// The validity expression's root.
    pub fn valid(&self) -> NodeId {
        self.valid
    }

    /// Every node, children before parents.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The input variables.
    pub fn vars(&self) -> &[Var] {
        &self.vars
    }

    /// Node `id`'s interval over the variables' box (booleans: `[0, 1]`).
    pub fn range(&self, id: NodeId) -> (i128, i128) {
        self.ranges[id as usize]
    }

    /// The nodes reachable from the index and validity roots, ascending.
    pub(crate) fn reachable(&self) -> Vec<bool> {
        let mut seen = vec![false; self.nodes.len()];
        seen[self.index as usize] = true;
        seen[self.valid as usize] = true;
        for id in (0..self.nodes.len()).rev() {
            if !seen[id] {
                continue;
            }
            for c in children(self.nodes[id]) {
                seen[c as usize] = true;
            }
        }
        seen
    }

    /// Number of distinct divisions and modulos the two expressions use (a
    /// sub-expression used twice counts once, as a compiler computes it once).
    ///
    /// ```
    /// let l: hlayout::Layout = "(4,6):(1,4)".parse()?;
    /// let k = hlayout::codegen::layout(&l, hlayout::codegen::Input::Linear)?;
    /// assert_eq!(k.div_mod_count(), 1); // i * 4 - (i / 6) * 23
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn div_mod_count(&self) -> usize {
        let seen = self.reachable();
        self.nodes
            .iter()
            .zip(&seen)
            .filter(|(n, &s)| {
                s && matches!(
                    n,
                    Node::Div(..) | Node::Mod(..) | Node::DivBy(..) | Node::ModBy(..)
                )
            })
            .count()
    }

    /// Proves the kernel safe to render: every reachable integer node's
    /// interval lies within `±(2^63 - 1)`, every `Div`/`Mod` has a positive
    /// divisor and a non-negative operand. O(nodes).
    ///
    /// # Errors
    /// [`Error::Overflow`] or [`Error::OutOfDomain`] naming the failed rule.
    ///
    /// ```
    /// use hlayout::codegen::{Kernel, Node, Var};
    /// let mut k = Kernel::new(vec![Var { name: "x".into(), extent: 10 }]);
    /// let x = k.push(Node::Var(0));
    /// let m = k.push(Node::Const(-5));
    /// let s = k.push(Node::Add(x, m));
    /// let d = k.push(Node::Div(s, 2));
    /// k.set_index(d);
    /// assert!(k.check().is_err()); // x - 5 is negative at x < 5
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn check(&self) -> Result<()> {
        let seen = self.reachable();
        for (id, node) in self.nodes.iter().enumerate() {
            if !seen[id] {
                continue;
            }
            let (lo, hi) = self.ranges[id];
            if lo < -LIMIT || hi > LIMIT {
                return Err(Error::Overflow {
                    what: "kernel expression (interval over the variables' ranges leaves i64)",
                });
            }
            if let Node::DivBy(a, d) | Node::ModBy(a, d) = *node {
                let (min, dmin) = (self.ranges[a as usize].0, self.ranges[d as usize].0);
                if dmin <= 0 || min < 0 {
                    return Err(Error::OutOfDomain {
                        what: format!(
                            "division by a divisor reaching {dmin} of an operand reaching {min} (needs a positive divisor and a non-negative operand)"
                        ),
                    });
                }
            }
            if let Node::Div(a, c) | Node::Mod(a, c) = *node {
                let min = self.ranges[a as usize].0;
                if c <= 0 || min < 0 {
                    return Err(Error::OutOfDomain {
                        what: format!(
                            "division by {c} of an operand reaching {min} (needs a positive divisor and a non-negative operand)"
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// The interpreter: `(index, valid)` at the variables' values `at`.
    /// O(nodes).
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] for a value outside a variable's range, a
    /// division by a non-positive constant or of a negative operand;
    /// [`Error::Overflow`] when a node leaves `i64`.
    ///
    /// See [`Kernel`] for an example.
    pub fn eval(&self, at: &[i64]) -> Result<(i64, bool)> {
        self.eval_with(at, false)
    }

    /// [`Kernel::eval`], except that a `?:` reads only the branch it
    /// takes, as C and Python do: a node that fails (a division of a
    /// negative operand, an overflow) is an error only when the roots read
    /// it. For a versioned kernel (`codegen::sym_chain_versions`), whose
    /// versions are exact and safe only where their guards hold. O(nodes).
    ///
    /// # Errors
    /// As [`Kernel::eval`], for the nodes the roots read.
    ///
    /// ```
    /// use hlayout::codegen::{Kernel, Node, Var};
    /// let mut k = Kernel::new(vec![Var { name: "x".into(), extent: 10 }]);
    /// let x = k.push(Node::Var(0));
    /// let five = k.push(Node::Const(5));
    /// let d = k.push(Node::Sub(x, five));
    /// let q = k.push(Node::Div(d, 2));
    /// let c = k.push(Node::Ge(x, five));
    /// let s = k.push(Node::Select(c, q, x));
    /// k.set_index(s);
    /// assert!(k.eval(&[0]).is_err()); // x - 5 < 0 in the arm not taken
    /// assert_eq!(k.eval_taken(&[0])?, (0, true));
    /// assert_eq!(k.eval_taken(&[9])?, (2, true));
    ///
    /// // When the arm taken fails too, the error is its own failure.
    /// let seven = k.push(Node::Const(7));
    /// let e = k.push(Node::Sub(x, seven));
    /// let r = k.push(Node::Div(e, 3));
    /// let t = k.push(Node::Select(c, q, r));
    /// k.set_index(t);
    /// let err = k.eval_taken(&[0]).unwrap_err().to_string();
    /// assert!(err.contains("division of -7 by 3"), "{err}");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn eval_taken(&self, at: &[i64]) -> Result<(i64, bool)> {
        self.eval_with(at, true)
    }

    /// The interpreter: every reachable node (`taken_only == false`), or
    /// only what the roots read through the selects taken.
    fn eval_with(&self, at: &[i64], taken_only: bool) -> Result<(i64, bool)> {
        if at.len() != self.vars.len()
            || at
                .iter()
                .zip(&self.vars)
                .any(|(&x, v)| !(0..v.extent).contains(&x))
        {
            return Err(Error::OutOfDomain {
                what: format!("point {at:?} outside the kernel's variable ranges"),
            });
        }
        // With `taken_only`, a node whose evaluation fails holds the id of
        // the node where the failure began (itself, or a child's origin);
        // the failure is reported only if it reaches a root (a `Select`
        // reads only the branch taken), and it is that origin's error.
        // Otherwise the first failure is the error.
        let mut val: Vec<std::result::Result<i64, NodeId>> = Vec::with_capacity(self.nodes.len());
        let mut failures: Vec<(NodeId, Error)> = Vec::new();
        let seen = self.reachable();
        for (id, (node, &used)) in self.nodes.iter().zip(&seen).enumerate() {
            if !used {
                val.push(Ok(0));
                continue;
            }
            val.push(match eval_node(*node, &val, at) {
                Ok(v) => Ok(v),
                Err(Fail::Child(origin)) => Err(origin),
                Err(Fail::Own(e)) if !taken_only => return Err(e),
                Err(Fail::Own(e)) => {
                    // Node ids are u32 (`Kernel::push`), so `id` fits.
                    let id = id as NodeId;
                    failures.push((id, e));
                    Err(id)
                }
            });
        }
        match (val[self.index as usize], val[self.valid as usize]) {
            (Ok(i), Ok(ok)) => Ok((i, ok != 0)),
            (Err(origin), _) | (_, Err(origin)) => {
                Err(failures.into_iter().find(|(id, _)| *id == origin).map_or(
                    Error::Overflow {
                        what: "kernel expression evaluation",
                    },
                    |(_, e)| e,
                ))
            }
        }
    }
}

/// Why a node has no value: a child it reads has none (the id of the node
/// where that failure began), or its own evaluation failed.
enum Fail {
    Child(NodeId),
    Own(Error),
}

/// One node's value from its children's (`Err`: a child read has none, or
/// the node itself fails).
fn eval_node(
    node: Node,
    val: &[std::result::Result<i64, NodeId>],
    at: &[i64],
) -> std::result::Result<i64, Fail> {
    let ovf = || {
        Fail::Own(Error::Overflow {
            what: "kernel expression evaluation",
        })
    };
    let v = |id: NodeId| val[id as usize].map_err(Fail::Child);
    Ok(match node {
        Node::Const(c) => c,
        Node::Var(k) => at[k],
        Node::Add(a, b) => v(a)?.checked_add(v(b)?).ok_or_else(ovf)?,
        Node::Sub(a, b) => v(a)?.checked_sub(v(b)?).ok_or_else(ovf)?,
        Node::Mul(a, b) => v(a)?.checked_mul(v(b)?).ok_or_else(ovf)?,
        Node::Div(a, c) | Node::Mod(a, c) => {
            if c <= 0 || v(a)? < 0 {
                return Err(Fail::Own(Error::OutOfDomain {
                    what: format!("division of {} by {c}", v(a)?),
                }));
            }
            if matches!(node, Node::Div(..)) {
                v(a)? / c
            } else {
                v(a)? % c
            }
        }
        Node::DivBy(a, d) | Node::ModBy(a, d) => {
            if v(d)? <= 0 || v(a)? < 0 {
                return Err(Fail::Own(Error::OutOfDomain {
                    what: format!("division of {} by {}", v(a)?, v(d)?),
                }));
            }
            if matches!(node, Node::DivBy(..)) {
                v(a)? / v(d)?
            } else {
                v(a)? % v(d)?
            }
        }
        Node::Select(c, a, b) => {
            if v(c)? != 0 {
                v(a)?
            } else {
                v(b)?
            }
        }
        Node::Bool(b) => i64::from(b),
        Node::Lt(a, b) => i64::from(v(a)? < v(b)?),
        Node::Le(a, b) => i64::from(v(a)? <= v(b)?),
        Node::Gt(a, b) => i64::from(v(a)? > v(b)?),
        Node::Ge(a, b) => i64::from(v(a)? >= v(b)?),
        Node::Eq(a, b) => i64::from(v(a)? == v(b)?),
        Node::Ne(a, b) => i64::from(v(a)? != v(b)?),
        Node::And(a, b) => i64::from(v(a)? != 0 && v(b)? != 0),
        Node::Or(a, b) => i64::from(v(a)? != 0 || v(b)? != 0),
        Node::Not(a) => i64::from(v(a)? == 0),
    })
}

/// A multiplicative hash for the node table (nodes are a few words of small
/// integers; SipHash's DoS resistance buys nothing here).
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(u64::from(b)));
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_i64(&mut self, x: i64) {
        self.write_u64(x as u64);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    fn write_isize(&mut self, x: isize) {
        self.write_u64(x as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The children of `node`.
pub(crate) fn children(node: Node) -> impl Iterator<Item = NodeId> {
    let (a, b, c) = match node {
        Node::Const(_) | Node::Var(_) | Node::Bool(_) => (None, None, None),
        Node::Div(a, _) | Node::Mod(a, _) | Node::Not(a) => (Some(a), None, None),
        Node::Select(c, a, b) => (Some(c), Some(a), Some(b)),
        Node::Add(a, b)
        | Node::Sub(a, b)
        | Node::Mul(a, b)
        | Node::DivBy(a, b)
        | Node::ModBy(a, b)
        | Node::Lt(a, b)
        | Node::Le(a, b)
        | Node::Gt(a, b)
        | Node::Ge(a, b)
        | Node::Eq(a, b)
        | Node::Ne(a, b)
        | Node::And(a, b)
        | Node::Or(a, b) => (Some(a), Some(b), None),
    };
    a.into_iter().chain(b).chain(c)
}
