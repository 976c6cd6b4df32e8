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

struct Renderer<'a> {
    k: &'a Kernel,
    lang: Lang,
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
    fn wrap(&self, id: NodeId, need: u8, out: &mut String) {
        if self.prec(id) >= need {
            self.write(id, out);
        } else {
            out.push('(');
            self.write(id, out);
            out.push(')');
        }
    }

    /// `a op b`, the left operand binding at least `l`, the right `r`.
    fn bin(&self, a: NodeId, op: &str, b: NodeId, (l, r): (u8, u8), out: &mut String) {
        self.wrap(a, l, out);
        out.push(' ');
        out.push_str(op);
        out.push(' ');
        self.wrap(b, r, out);
    }

    /// Writes the text of `id`.
    fn write(&self, id: NodeId, out: &mut String) {
        use std::fmt::Write as _;
        let py = self.lang == Lang::Python;
        // Binary operators associate to the left; comparisons take
        // arithmetic operands only.
        let left = |p: u8| (p, p + 1);
        let cmp = (ADD, ADD);
        match self.k.nodes()[id as usize] {
            // Its magnitude is no literal of the type: C would read
            // `-9223372036854775808` as the negation of an unsigned or wider one.
            Node::Const(i64::MIN) => out.push_str("-9223372036854775807 - 1"),
            Node::Const(c) => {
                let _ = write!(out, "{c}");
            }
            Node::Var(k) => out.push_str(&self.k.vars()[k].name),
            Node::Bool(b) => out.push_str(match (self.lang, b) {
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
                out.push_str(op);
                let _ = write!(out, "{c}");
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
                out.push_str("not ");
                self.wrap(a, NOT_PY, out);
            }
            Node::Not(a) => {
                out.push('!');
                self.wrap(a, UNARY, out);
            }
            Node::Select(c, a, b) => match self.lang {
                Lang::C => {
                    self.wrap(c, TERNARY + 1, out);
                    out.push_str(" ? ");
                    self.wrap(a, TERNARY + 1, out);
                    out.push_str(" : ");
                    self.wrap(b, TERNARY, out);
                }
                Lang::Python => {
                    self.wrap(a, TERNARY + 1, out);
                    out.push_str(" if ");
                    self.wrap(c, TERNARY + 1, out);
                    out.push_str(" else ");
                    self.wrap(b, TERNARY, out);
                }
                Lang::Rust => {
                    out.push_str("if ");
                    self.wrap(c, 0, out);
                    out.push_str(" { ");
                    self.wrap(a, 0, out);
                    out.push_str(" } else { ");
                    self.wrap(b, 0, out);
                    out.push_str(" }");
                }
            },
        }
    }
}
