//! Rendering a [`Kernel`] as C (also valid CUDA), Rust or Python text.
//!
//! Parentheses are minimal but safe: a child is wrapped exactly when its
//! operator binds less tightly than its position needs. Binary operators are
//! left-associative, so a right operand of equal precedence is wrapped
//! (`a - (b + c)`, `a / (b * c)`); the operands of comparisons are never
//! comparisons (Python chains `a < b < c`, Rust rejects it); a unary minus
//! never stands before another `-` (C would read `--`).
//!
//! Cost: O(text length); shared sub-expressions are written out each time.

use super::ir::{Kernel, Node, NodeId};

/// A target language.
///
/// ```
/// use hlayout::codegen::{self, Input, Lang};
/// let s = hlayout::ViewStack::new(&[4])?.pad(&[(1, 0)])?;
/// let k = codegen::stack(&s, Input::Coords)?;
/// assert_eq!(k.render(Lang::Python).1, "i0 >= 1");
/// assert_eq!(k.render(Lang::Rust).0, "i0 - 1");
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// C over `long long` (also CUDA); booleans are `0`/`1`.
    C,
    /// Rust over `i64`; booleans are `bool`.
    Rust,
    /// Python; `//` for floor division.
    Python,
}

/// Binding strength of each form (higher binds tighter).
const TERNARY: u8 = 20;
const OR: u8 = 30;
const AND: u8 = 40;
const NOT_PY: u8 = 45;
const EQ: u8 = 50;
const CMP: u8 = 60;
const ADD: u8 = 70;
const MUL: u8 = 80;
const UNARY: u8 = 90;
const ATOM: u8 = 100;

impl Kernel {
    /// `(index, valid)` as text in `lang`.
    ///
    /// See [`Lang`] for an example.
    pub fn render(&self, lang: Lang) -> (String, String) {
        let r = Renderer { k: self, lang };
        (r.text(self.index()).0, r.text(self.valid()).0)
    }

    /// `(index, valid)` as C text.
    ///
    /// See [`Kernel`] for an example.
    pub fn c(&self) -> (String, String) {
        self.render(Lang::C)
    }
}

struct Renderer<'a> {
    k: &'a Kernel,
    lang: Lang,
}

impl Renderer<'_> {
    /// The text of `id` with its binding strength.
    fn text(&self, id: NodeId) -> (String, u8) {
        let py = self.lang == Lang::Python;
        let node = self.k.nodes()[id as usize];
        let bin = |a: NodeId, op: &str, b: NodeId, p: u8| {
            let l = self.wrap(a, p);
            let r = self.wrap(b, p + 1);
            (format!("{l} {op} {r}"), p)
        };
        // Comparisons need arithmetic operands (never a comparison).
        let cmp = |a: NodeId, op: &str, b: NodeId, p: u8| {
            let l = self.wrap(a, ADD);
            let r = self.wrap(b, ADD);
            (format!("{l} {op} {r}"), p)
        };
        match node {
            Node::Const(c) if c < 0 => (c.to_string(), UNARY),
            Node::Const(c) => (c.to_string(), ATOM),
            Node::Var(k) => (self.k.vars()[k].name.clone(), ATOM),
            Node::Bool(b) => (
                match self.lang {
                    Lang::C => {
                        if b {
                            "1"
                        } else {
                            "0"
                        }
                    }
                    Lang::Rust => {
                        if b {
                            "true"
                        } else {
                            "false"
                        }
                    }
                    Lang::Python => {
                        if b {
                            "True"
                        } else {
                            "False"
                        }
                    }
                }
                .to_string(),
                ATOM,
            ),
            Node::Add(a, b) => bin(a, "+", b, ADD),
            Node::Sub(a, b) => bin(a, "-", b, ADD),
            Node::Mul(a, b) => bin(a, "*", b, MUL),
            Node::Div(a, c) => {
                let l = self.wrap(a, MUL);
                (format!("{l} {} {c}", if py { "//" } else { "/" }), MUL)
            }
            Node::Mod(a, c) => (format!("{} % {c}", self.wrap(a, MUL)), MUL),
            Node::Lt(a, b) => cmp(a, "<", b, CMP),
            Node::Le(a, b) => cmp(a, "<=", b, CMP),
            Node::Gt(a, b) => cmp(a, ">", b, CMP),
            Node::Ge(a, b) => cmp(a, ">=", b, CMP),
            Node::Eq(a, b) => cmp(a, "==", b, if py { CMP } else { EQ }),
            Node::Ne(a, b) => cmp(a, "!=", b, if py { CMP } else { EQ }),
            Node::And(a, b) => bin(a, if py { "and" } else { "&&" }, b, AND),
            Node::Or(a, b) => bin(a, if py { "or" } else { "||" }, b, OR),
            Node::Not(a) if py => (format!("not {}", self.wrap(a, NOT_PY)), NOT_PY),
            Node::Not(a) => (format!("!{}", self.wrap(a, UNARY)), UNARY),
            Node::Select(c, a, b) => match self.lang {
                Lang::C => (
                    format!(
                        "{} ? {} : {}",
                        self.wrap(c, TERNARY + 1),
                        self.wrap(a, TERNARY + 1),
                        self.wrap(b, TERNARY)
                    ),
                    TERNARY,
                ),
                Lang::Python => (
                    format!(
                        "{} if {} else {}",
                        self.wrap(a, TERNARY + 1),
                        self.wrap(c, TERNARY + 1),
                        self.wrap(b, TERNARY)
                    ),
                    TERNARY,
                ),
                Lang::Rust => (
                    format!(
                        "if {} {{ {} }} else {{ {} }}",
                        self.wrap(c, 0),
                        self.wrap(a, 0),
                        self.wrap(b, 0)
                    ),
                    TERNARY,
                ),
            },
        }
    }

    /// The text of `id`, parenthesised unless it binds at least `need`.
    fn wrap(&self, id: NodeId, need: u8) -> String {
        let (t, p) = self.text(id);
        if p >= need {
            t
        } else {
            format!("({t})")
        }
    }
}
