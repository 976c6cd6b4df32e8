//! Rendering a [`Kernel`] as C (also valid CUDA), Rust or Python text.
//!
//! Parentheses are minimal but safe: a child is wrapped exactly when its
//! operator binds less tightly than its position needs. Binary operators are
//! left-associative, so a right operand of equal precedence is wrapped
//! (`a - (b + c)`, `a / (b * c)`); the operands of comparisons are never
//! comparisons (Python chains `a < b < c`, Rust rejects it); a unary minus
//! never stands before another `-` (C would read `--`).
//!
//! Cost: O(text length); shared sub-expressions are written out each time,
//! so the text can be exponentially longer than the kernel's DAG:
//! [`Kernel::text_len`] measures it in O(nodes) first, and
//! [`Kernel::render_within`] refuses text longer than
//! [`Limits::max_expr_bytes`](crate::Limits::max_expr_bytes).

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

impl Lang {
    /// Every name [`str::parse`] accepts, in the documented order: `"cuda"`
    /// names [`Lang::C`] (the C text is valid CUDA).
    ///
    /// ```
    /// use hlayout::codegen::Lang;
    /// assert_eq!(Lang::NAMES, ["c", "cuda", "rust", "python"]);
    /// assert_eq!("cuda".parse::<Lang>()?, Lang::C);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub const NAMES: [&'static str; 4] = ["c", "cuda", "rust", "python"];

    /// The language's name (`"c"` for [`Lang::C`]).
    ///
    /// ```
    /// assert_eq!(hlayout::codegen::Lang::Rust.name(), "rust");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::Rust => "rust",
            Lang::Python => "python",
        }
    }
}

impl std::str::FromStr for Lang {
    type Err = crate::Error;

    /// The language named `name`, one of [`Lang::NAMES`] (exact, lower case).
    ///
    /// # Errors
    /// [`Error::UnknownName`](crate::Error::UnknownName) listing the names.
    ///
    /// ```
    /// use hlayout::codegen::Lang;
    /// assert_eq!("python".parse::<Lang>()?, Lang::Python);
    /// let e = "fortran".parse::<Lang>().unwrap_err();
    /// assert_eq!(e.to_string(), "unknown language 'fortran' (known: c, cuda, rust, python)");
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    fn from_str(name: &str) -> crate::Result<Lang> {
        match name {
            "c" | "cuda" => Ok(Lang::C),
            "rust" => Ok(Lang::Rust),
            "python" => Ok(Lang::Python),
            _ => Err(crate::error::unknown_name("language", name, &Lang::NAMES)),
        }
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
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
        let (mut index, mut valid) = (String::with_capacity(64), String::with_capacity(64));
        r.write(self.index(), &mut index);
        r.write(self.valid(), &mut valid);
        (index, valid)
    }

    /// `(index, valid)` as C text.
    ///
    /// See [`Kernel`] for an example.
    pub fn c(&self) -> (String, String) {
        self.render(Lang::C)
    }
}

/// Where a [`Renderer`] writes: a `String`, or a counter of its length
/// (`text_len`). Both see exactly the same pieces, so a measured length is
/// the rendered length by construction.
pub(super) trait Sink {
    /// Appends literal text.
    fn text(&mut self, s: &str);
    /// Appends an integer literal, in decimal.
    fn int(&mut self, c: i64);
    /// Appends the text of node `id` (a `String` writes it; a counter may
    /// reuse the length it measured for `id` before).
    fn node(&mut self, r: &Renderer<'_>, id: NodeId);
}

impl Sink for String {
    fn text(&mut self, s: &str) {
        self.push_str(s);
    }

    fn int(&mut self, c: i64) {
        use std::fmt::Write as _;
        let _ = write!(self, "{c}");
    }

    fn node(&mut self, r: &Renderer<'_>, id: NodeId) {
        r.write(id, self);
    }
}

pub(super) struct Renderer<'a> {
    pub(super) k: &'a Kernel,
    pub(super) lang: Lang,
}

impl Renderer<'_> {
    /// The binding strength of `id`'s text.
    fn prec(&self, id: NodeId) -> u8 {
        let py = self.lang == Lang::Python;
        match self.k.nodes()[id as usize] {
            Node::Const(i64::MIN) => ADD,
            Node::Const(c) if c < 0 => UNARY,
            Node::Const(_) | Node::Var(_) | Node::Bool(_) => ATOM,
            Node::Add(..) | Node::Sub(..) => ADD,
            Node::Mul(..) | Node::Div(..) | Node::Mod(..) | Node::DivBy(..) | Node::ModBy(..) => {
                MUL
            }
            Node::Lt(..) | Node::Le(..) | Node::Gt(..) | Node::Ge(..) => CMP,
            Node::Eq(..) | Node::Ne(..) => {
                if py {
                    CMP
                } else {
                    EQ
                }
            }
            Node::And(..) => AND,
            Node::Or(..) => OR,
            Node::Not(_) if py => NOT_PY,
            Node::Not(_) => UNARY,
            Node::Select(..) => TERNARY,
        }
    }

    /// Writes the text of `id`, parenthesised unless it binds at least `need`.
    fn wrap<S: Sink>(&self, id: NodeId, need: u8, out: &mut S) {
        if self.prec(id) >= need {
            out.node(self, id);
        } else {
            out.text("(");
            out.node(self, id);
            out.text(")");
        }
    }

    /// `a op b`, the left operand binding at least `l`, the right `r`.
    fn bin<S: Sink>(&self, a: NodeId, op: &str, b: NodeId, (l, r): (u8, u8), out: &mut S) {
        self.wrap(a, l, out);
        out.text(" ");
        out.text(op);
        out.text(" ");
        self.wrap(b, r, out);
    }

    /// Writes the text of `id`.
    pub(super) fn write<S: Sink>(&self, id: NodeId, out: &mut S) {
        let py = self.lang == Lang::Python;
        // Binary operators associate to the left; comparisons take
        // arithmetic operands only.
        let left = |p: u8| (p, p + 1);
        let cmp = (ADD, ADD);
        match self.k.nodes()[id as usize] {
            // Its magnitude is no literal of the type: C would read
            // `-9223372036854775808` as the negation of an unsigned or wider one.
            Node::Const(i64::MIN) => out.text("-9223372036854775807 - 1"),
            Node::Const(c) => out.int(c),
            Node::Var(k) => out.text(&self.k.vars()[k].name),
            Node::Bool(b) => out.text(match (self.lang, b) {
                (Lang::C, true) => "1",
                (Lang::C, false) => "0",
                (Lang::Rust, true) => "true",
                (Lang::Rust, false) => "false",
                (Lang::Python, true) => "True",
                (Lang::Python, false) => "False",
            }),
            Node::Add(a, b) => self.bin(a, "+", b, left(ADD), out),
            Node::Sub(a, b) => self.bin(a, "-", b, left(ADD), out),
            Node::Mul(a, b) => self.bin(a, "*", b, left(MUL), out),
            Node::Div(a, c) | Node::Mod(a, c) => {
                self.wrap(a, MUL, out);
                let op = match (self.k.nodes()[id as usize], py) {
                    (Node::Div(..), true) => " // ",
                    (Node::Div(..), false) => " / ",
                    _ => " % ",
                };
                out.text(op);
                out.int(c);
            }
            Node::DivBy(a, d) => self.bin(a, if py { "//" } else { "/" }, d, left(MUL), out),
            Node::ModBy(a, d) => self.bin(a, "%", d, left(MUL), out),
            Node::Lt(a, b) => self.bin(a, "<", b, cmp, out),
            Node::Le(a, b) => self.bin(a, "<=", b, cmp, out),
            Node::Gt(a, b) => self.bin(a, ">", b, cmp, out),
            Node::Ge(a, b) => self.bin(a, ">=", b, cmp, out),
            Node::Eq(a, b) => self.bin(a, "==", b, cmp, out),
            Node::Ne(a, b) => self.bin(a, "!=", b, cmp, out),
            Node::And(a, b) => self.bin(a, if py { "and" } else { "&&" }, b, left(AND), out),
            Node::Or(a, b) => self.bin(a, if py { "or" } else { "||" }, b, left(OR), out),
            Node::Not(a) if py => {
                out.text("not ");
                self.wrap(a, NOT_PY, out);
            }
            Node::Not(a) => {
                out.text("!");
                self.wrap(a, UNARY, out);
            }
            Node::Select(c, a, b) => match self.lang {
                Lang::C => {
                    self.wrap(c, TERNARY + 1, out);
                    out.text(" ? ");
                    self.wrap(a, TERNARY + 1, out);
                    out.text(" : ");
                    self.wrap(b, TERNARY, out);
                }
                Lang::Python => {
                    self.wrap(a, TERNARY + 1, out);
                    out.text(" if ");
                    self.wrap(c, TERNARY + 1, out);
                    out.text(" else ");
                    self.wrap(b, TERNARY, out);
                }
                Lang::Rust => {
                    out.text("if ");
                    self.wrap(c, 0, out);
                    out.text(" { ");
                    self.wrap(a, 0, out);
                    out.text(" } else { ");
                    self.wrap(b, 0, out);
                    out.text(" }");
                }
            },
        }
    }
}
