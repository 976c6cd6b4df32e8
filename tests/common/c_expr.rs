//! A checker of the batch protocol's kernel expressions in C
//! (`docs/batch-protocol.md`, "Kernel expressions"), written from the
//! protocol's rules and C's grammar, not from the library's renderer.
//!
//! [`parse`] accepts only the listed tokens (integer literals that fit
//! `i64`, the named variables, parentheses, unary `-` and `!`, binary
//! `+ - * / %`, comparisons, `&& ||` and `?:`), with C's precedence and
//! associativity, and only a positive literal as the right operand of `/`
//! and `%`. [`Expr::eval`] evaluates *every* sub-expression (no
//! short-circuit, both arms of `?:`), refusing a negative left operand of
//! `/` or `%` and any overflow, so a value means the rules hold at that
//! point whatever C's evaluation order. [`redundant_parens`] finds a pair of
//! parentheses whose removal leaves the same tree.

/// A parsed expression (parentheses leave no node).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Lit(i64),
    Var(usize),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Bin(&'static str, Box<Expr>, Box<Expr>),
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Lit(String),
    Ident(String),
    Op(&'static str),
}

/// Every operator token, longest first.
const OPS: [&str; 19] = [
    "<=", ">=", "==", "!=", "&&", "||", "(", ")", "+", "-", "*", "/", "%", "<", ">", "!", "?", ":",
    " ",
];

fn lex(text: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            let j = i + b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            out.push(Tok::Lit(text[i..j].to_string()));
            i = j;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let n = b[i..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            out.push(Tok::Ident(text[i..i + n].to_string()));
            i += n;
        } else if text[i..].starts_with("--") || text[i..].starts_with("++") {
            return Err(format!("C reads an increment or decrement at {i}: {text}"));
        } else {
            let op = OPS
                .iter()
                .find(|op| text[i..].starts_with(**op))
                .ok_or_else(|| format!("token not allowed at {i}: {:?}", &text[i..]))?;
            if *op != " " {
                out.push(Tok::Op(op));
            }
            i += op.len();
        }
    }
    Ok(out)
}

struct Parser<'a> {
    toks: Vec<Tok>,
    at: usize,
    vars: &'a [&'a str],
}

/// Binary operators by C precedence level, loosest first.
const LEVELS: [&[&str]; 6] = [
    &["||"],
    &["&&"],
    &["==", "!="],
    &["<", "<=", ">", ">="],
    &["+", "-"],
    &["*", "/", "%"],
];

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Op(o)) if *o == op) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn cond(&mut self) -> Result<Expr, String> {
        let c = self.level(0)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let a = self.cond()?;
        if !self.eat(":") {
            return Err("expected ':'".into());
        }
        let b = self.cond()?;
        Ok(Expr::Select(Box::new(c), Box::new(a), Box::new(b)))
    }

    fn level(&mut self, n: usize) -> Result<Expr, String> {
        if n == LEVELS.len() {
            return self.unary();
        }
        let mut acc = self.level(n + 1)?;
        'more: loop {
            for op in LEVELS[n] {
                if self.eat(op) {
                    let rhs = self.level(n + 1)?;
                    if (*op == "/" || *op == "%") && !matches!(rhs, Expr::Lit(d) if d > 0) {
                        return Err(format!(
                            "'{op}' needs a positive literal divisor, got {rhs:?}"
                        ));
                    }
                    acc = Expr::Bin(op, Box::new(acc), Box::new(rhs));
                    continue 'more;
                }
            }
            return Ok(acc);
        }
    }

    fn unary(&mut self) -> Result<Expr, String> {
        if self.eat("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        if self.eat("!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat("(") {
            let e = self.cond()?;
            return if self.eat(")") {
                Ok(e)
            } else {
                Err("expected ')'".into())
            };
        }
        let t = self.peek().cloned().ok_or("unexpected end")?;
        self.at += 1;
        match t {
            Tok::Lit(s) => s
                .parse()
                .map(Expr::Lit)
                .map_err(|_| format!("literal {s} does not fit i64")),
            Tok::Ident(s) => self
                .vars
                .iter()
                .position(|v| *v == s)
                .map(Expr::Var)
                .ok_or_else(|| format!("unknown name {s}")),
            Tok::Op(op) => Err(format!("unexpected '{op}'")),
        }
    }
}

/// Parses `text` over the variables `vars` (protocol tokens only).
pub fn parse(text: &str, vars: &[&str]) -> Result<Expr, String> {
    let mut p = Parser {
        toks: lex(text)?,
        at: 0,
        vars,
    };
    let e = p.cond()?;
    if p.at != p.toks.len() {
        return Err(format!("trailing tokens in {text}"));
    }
    Ok(e)
}

impl Expr {
    /// The value at `at` (booleans 0/1), every sub-expression evaluated.
    pub fn eval(&self, at: &[i64]) -> Result<i64, String> {
        let ovf = || format!("overflow in {self:?} at {at:?}");
        Ok(match self {
            Expr::Lit(v) => *v,
            Expr::Var(k) => at[*k],
            Expr::Neg(a) => a.eval(at)?.checked_neg().ok_or_else(ovf)?,
            Expr::Not(a) => i64::from(a.eval(at)? == 0),
            Expr::Select(c, a, b) => {
                let (c, a, b) = (c.eval(at)?, a.eval(at)?, b.eval(at)?);
                if c != 0 {
                    a
                } else {
                    b
                }
            }
            Expr::Bin(op, a, b) => {
                let (x, y) = (a.eval(at)?, b.eval(at)?);
                match *op {
                    "+" => x.checked_add(y).ok_or_else(ovf)?,
                    "-" => x.checked_sub(y).ok_or_else(ovf)?,
                    "*" => x.checked_mul(y).ok_or_else(ovf)?,
                    "/" | "%" if x < 0 => {
                        return Err(format!("negative dividend {x} in {self:?} at {at:?}"))
                    }
                    "/" => x / y,
                    "%" => x % y,
                    "<" => i64::from(x < y),
                    "<=" => i64::from(x <= y),
                    ">" => i64::from(x > y),
                    ">=" => i64::from(x >= y),
                    "==" => i64::from(x == y),
                    "!=" => i64::from(x != y),
                    "&&" => i64::from(x != 0 && y != 0),
                    _ => i64::from(x != 0 || y != 0),
                }
            }
        })
    }

    /// The number of `/` and `%` in the tree (text occurrences).
    pub fn div_mods(&self) -> usize {
        match self {
            Expr::Lit(_) | Expr::Var(_) => 0,
            Expr::Neg(a) | Expr::Not(a) => a.div_mods(),
            Expr::Select(c, a, b) => c.div_mods() + a.div_mods() + b.div_mods(),
            Expr::Bin(op, a, b) => {
                usize::from(*op == "/" || *op == "%") + a.div_mods() + b.div_mods()
            }
        }
    }
}

/// The first pair of parentheses in `text` that can be removed without
/// changing the parse, as the text without them.
pub fn redundant_parens(text: &str, vars: &[&str]) -> Option<String> {
    let tree = parse(text, vars).ok()?;
    let b = text.as_bytes();
    for open in (0..b.len()).filter(|&i| b[i] == b'(') {
        let mut depth = 0;
        let close = (open..b.len()).find(|&j| {
            depth += i32::from(b[j] == b'(') - i32::from(b[j] == b')');
            depth == 0
        })?;
        let without = format!(
            "{}{}{}",
            &text[..open],
            &text[open + 1..close],
            &text[close + 1..]
        );
        if parse(&without, vars).ok().as_ref() == Some(&tree) {
            return Some(without);
        }
    }
    None
}
