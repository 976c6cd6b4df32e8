//! [`Symbols`]: the table of named symbols a request uses, with each
//! symbol's [`Assume`]ptions, and the text of polynomials over them.
//!
//! A symbol is `[A-Za-z_][A-Za-z0-9_]*`, at most [`MAX_NAME_BYTES`] bytes,
//! and not a keyword of C, C++, Rust or Python (kernel expressions are
//! rendered in those languages, with the symbols as variables). Its id is
//! its position in the table (a byte, see [`Mono`](super::Mono)).
//!
//! Polynomial text (the batch protocol's "Symbolic extents"): terms joined
//! by `+` or `-`, a term an optional integer coefficient and symbols joined
//! by `*`: `N`, `32*N`, `2*N+1`, `4*i*i`, `-4*j`. Printing gives the same
//! form, highest term first, and `parse(print(p)) == p`.

use std::fmt;

use super::mono::{Mono, MAX_DEGREE, MAX_SYMBOL_IDS};
use super::poly::Poly;
use crate::error::{Error, Result};
use crate::limits::Limits;

/// Longest symbol name accepted, in bytes.
pub const MAX_NAME_BYTES: usize = 64;

/// The protocol's default upper bound of a symbol: `2147483647`.
pub const DEFAULT_SYMBOL_MAX: i64 = 2147483647;

/// What a symbol may be: `min ≤ value ≤ max` and `value % divisible_by == 0`.
///
/// The defaults are the protocol's: `min` 1, `max` 2147483647, `divisible_by` 1.
///
/// ```
/// use hlayout::symbolic::Assume;
/// let a = Assume { divisible_by: 4, ..Assume::default() };
/// assert_eq!((a.lowest().unwrap(), a.highest().unwrap()), (4, 2147483644));
/// assert!(a.allows(8) && !a.allows(6) && !a.allows(0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Assume {
    /// Lower bound (inclusive).
    pub min: i64,
    /// Upper bound (inclusive).
    pub max: i64,
    /// Every allowed value is a multiple of this (≥ 1).
    pub divisible_by: i64,
}

impl Default for Assume {
    fn default() -> Assume {
        Assume {
            min: 1,
            max: DEFAULT_SYMBOL_MAX,
            divisible_by: 1,
        }
    }
}

impl Assume {
    /// The least allowed value (`None` when none is allowed).
    ///
    /// ```
    /// let a = hlayout::symbolic::Assume { min: 5, max: 7, divisible_by: 8 };
    /// assert_eq!(a.lowest(), None);
    /// ```
    pub fn lowest(&self) -> Option<i64> {
        let d = self.divisible_by;
        if d < 1 {
            return None;
        }
        let v = num_integer::Integer::div_ceil(&self.min, &d).checked_mul(d)?;
        (v <= self.max).then_some(v)
    }

    /// The greatest allowed value (`None` when none is allowed).
    ///
    /// ```
    /// let a = hlayout::symbolic::Assume { min: 1, max: 10, divisible_by: 4 };
    /// assert_eq!(a.highest(), Some(8));
    /// ```
    pub fn highest(&self) -> Option<i64> {
        let d = self.divisible_by;
        if d < 1 {
            return None;
        }
        let v = num_integer::Integer::div_floor(&self.max, &d).checked_mul(d)?;
        (v >= self.min).then_some(v)
    }

    /// `true` when `v` satisfies every assumption.
    ///
    /// ```
    /// assert!(hlayout::symbolic::Assume::default().allows(1));
    /// ```
    pub fn allows(&self, v: i64) -> bool {
        self.min <= v && v <= self.max && self.divisible_by >= 1 && v % self.divisible_by == 0
    }
}

/// Keywords of C, C++, Rust and Python: no symbol may be named so.
const KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "as",
    "asm",
    "assert",
    "async",
    "auto",
    "await",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "constexpr",
    "continue",
    "crate",
    "def",
    "default",
    "del",
    "delete",
    "do",
    "double",
    "dyn",
    "elif",
    "else",
    "enum",
    "except",
    "explicit",
    "extern",
    "false",
    "False",
    "finally",
    "float",
    "fn",
    "for",
    "friend",
    "from",
    "global",
    "goto",
    "if",
    "impl",
    "import",
    "in",
    "inline",
    "int",
    "is",
    "lambda",
    "let",
    "long",
    "loop",
    "match",
    "mod",
    "move",
    "mut",
    "namespace",
    "new",
    "None",
    "nonlocal",
    "not",
    "nullptr",
    "operator",
    "or",
    "pass",
    "private",
    "protected",
    "pub",
    "raise",
    "ref",
    "register",
    "restrict",
    "return",
    "self",
    "Self",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "super",
    "switch",
    "template",
    "this",
    "throw",
    "trait",
    "true",
    "True",
    "try",
    "type",
    "typedef",
    "typename",
    "union",
    "unsafe",
    "unsigned",
    "use",
    "using",
    "virtual",
    "void",
    "volatile",
    "where",
    "while",
    "with",
    "yield",
    "_Bool",
    "_Complex",
    "_Imaginary",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Generic",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
];

/// `Ok` when `name` may be a symbol (see the module docs).
///
/// # Errors
/// [`Error::Parse`] naming what is wrong.
///
/// ```
/// use hlayout::symbolic::check_name;
/// assert!(check_name("start_pos").is_ok());
/// assert!(check_name("int").is_err());
/// assert!(check_name("2N").is_err());
/// ```
pub fn check_name(name: &str) -> Result<()> {
    let bad = |pos: usize, expected: &'static str| Error::Parse {
        pos,
        expected,
        found: name[pos..].chars().next(),
    };
    let mut chars = name.char_indices();
    match chars.next() {
        Some((_, c)) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return Err(bad(0, "a symbol: a letter or '_'")),
    }
    if let Some((i, _)) = chars.find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_')) {
        return Err(bad(i, "a symbol character: a letter, a digit or '_'"));
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(bad(MAX_NAME_BYTES, "a symbol of at most 64 bytes"));
    }
    if KEYWORDS.contains(&name) {
        return Err(Error::Parse {
            pos: 0,
            expected: "a symbol that is not a keyword of C, C++, Rust or Python",
            found: name.chars().next(),
        });
    }
    Ok(())
}

/// The symbols of one request: names, assumptions and the limits that
/// bound polynomials (`max_symbols`, `max_degree`, `max_terms` of [`Limits`]).
///
/// ```
/// use hlayout::symbolic::{Assume, Symbols};
/// let mut s = Symbols::new();
/// s.assume("N", Assume { divisible_by: 4, ..Assume::default() }).unwrap();
/// let p = s.parse("2*N+1").unwrap();
/// assert_eq!(s.show(&p).to_string(), "2*N+1");
/// assert_eq!(s.assumption(s.id("N").unwrap()).divisible_by, 4);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    names: Vec<String>,
    assume: Vec<Assume>,
    /// `(lowest, highest)` of each symbol, kept with `assume`.
    ranges: Vec<(i64, i64)>,
    /// Some symbol has a single allowed value.
    any_fixed: bool,
    limits: Limits,
}

impl Symbols {
    /// An empty table with the default [`Limits`].
    ///
    /// ```
    /// assert!(hlayout::symbolic::Symbols::new().is_empty());
    /// ```
    pub fn new() -> Symbols {
        Symbols::default()
    }

    /// An empty table with the given limits.
    ///
    /// ```
    /// let l = hlayout::Limits { max_symbols: 1, ..Default::default() };
    /// let mut s = hlayout::symbolic::Symbols::with_limits(l);
    /// assert!(s.parse("N*M").is_err());
    /// ```
    pub fn with_limits(limits: Limits) -> Symbols {
        Symbols {
            limits,
            ..Symbols::default()
        }
    }

    /// The number of symbols.
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Symbols::new().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// `true` when no symbol is known.
    ///
    /// ```
    /// assert!(hlayout::symbolic::Symbols::new().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The limits polynomials are checked against.
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Symbols::new().limits().max_degree, 8);
    /// ```
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The id of `name`, if known.
    ///
    /// ```
    /// assert_eq!(hlayout::symbolic::Symbols::new().id("N"), None);
    /// ```
    pub fn id(&self, name: &str) -> Option<u8> {
        self.names.iter().position(|n| n == name).map(|i| i as u8)
    }

    /// The name of symbol `id`.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let id = s.intern("B").unwrap();
    /// assert_eq!(s.name(id), "B");
    /// ```
    pub fn name(&self, id: u8) -> &str {
        &self.names[id as usize]
    }

    /// The assumptions of symbol `id`.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let id = s.intern("B").unwrap();
    /// assert_eq!(s.assumption(id), hlayout::symbolic::Assume::default());
    /// ```
    pub fn assumption(&self, id: u8) -> Assume {
        self.assume[id as usize]
    }

    /// The id of `name`, adding it with the default assumptions if new.
    ///
    /// # Errors
    /// [`Error::Parse`] for a bad name; [`Error::LimitExceeded`]
    /// (`max_symbols`) past the limit.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// assert_eq!(s.intern("N").unwrap(), s.intern("N").unwrap());
    /// ```
    pub fn intern(&mut self, name: &str) -> Result<u8> {
        if let Some(id) = self.id(name) {
            return Ok(id);
        }
        check_name(name)?;
        let max = self.limits.max_symbols.min(MAX_SYMBOL_IDS);
        if self.names.len() >= max {
            return Err(Error::LimitExceeded {
                limit: "max_symbols",
                value: self.names.len() as u64 + 1,
                max: max as u64,
            });
        }
        self.names.push(name.to_string());
        self.assume.push(Assume::default());
        self.ranges.push((1, DEFAULT_SYMBOL_MAX));
        Ok((self.names.len() - 1) as u8)
    }

    /// Sets the assumptions of `name` (adding it if new); its id.
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] when `divisible_by < 1` or no value satisfies
    /// the assumptions; those of [`Symbols::intern`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, Symbols};
    /// let mut s = Symbols::new();
    /// assert!(s.assume("N", Assume { min: 3, max: 7, divisible_by: 4 }).is_ok());
    /// assert!(s.assume("M", Assume { min: 5, max: 7, divisible_by: 8 }).is_err());
    /// ```
    pub fn assume(&mut self, name: &str, a: Assume) -> Result<u8> {
        if a.lowest().is_none() {
            return Err(Error::OutOfDomain {
                what: format!(
                    "no value of {name} satisfies min {} <= {name} <= max {}, {name} % {} == 0",
                    a.min, a.max, a.divisible_by
                ),
            });
        }
        let id = self.intern(name)?;
        self.assume[id as usize] = a;
        // `lowest` is some (checked above), so `highest` is too.
        self.ranges[id as usize] = (a.lowest().unwrap_or(a.min), a.highest().unwrap_or(a.max));
        self.any_fixed = self.ranges.iter().any(|(l, h)| l == h);
        Ok(id)
    }

    /// The least and greatest allowed value of symbol `id`.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let id = s.intern("N").unwrap();
    /// assert_eq!(s.range(id), (1, 2147483647));
    /// ```
    #[inline]
    pub fn range(&self, id: u8) -> (i64, i64) {
        self.ranges[id as usize]
    }

    /// `true` when some symbol has a single allowed value.
    #[inline]
    pub(crate) fn ranges_have_fixed(&self) -> bool {
        self.any_fixed
    }

    /// Checks a polynomial against `max_terms` and `max_degree`.
    ///
    /// # Errors
    /// [`Error::LimitExceeded`].
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let p = s.parse("N*N*N").unwrap();
    /// assert!(s.check(&p).is_ok());
    /// ```
    pub fn check(&self, p: &Poly) -> Result<()> {
        let l = &self.limits;
        let limit = |limit, value: usize, max: usize| {
            if value > max {
                Err(Error::LimitExceeded {
                    limit,
                    value: value as u64,
                    max: max as u64,
                })
            } else {
                Ok(())
            }
        };
        limit("max_terms", p.terms().len(), l.max_terms)?;
        limit("max_degree", p.degree(), l.max_degree.min(MAX_DEGREE))
    }

    /// Parses polynomial text (module docs), adding new symbols with the
    /// default assumptions.
    ///
    /// # Errors
    /// [`Error::Parse`] with the byte position; [`Error::Overflow`] for a
    /// coefficient past `i64`; [`Error::LimitExceeded`].
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let p = s.parse("4*i*i-4*j+sp+1").unwrap();
    /// assert_eq!(s.show(&p).to_string(), "4*i*i-4*j+sp+1");
    /// assert!(s.parse("N+").is_err());
    /// assert!(s.parse("99999999999999999999*N").is_err());
    /// ```
    pub fn parse(&mut self, text: &str) -> Result<Poly> {
        let bytes = text.as_bytes();
        let mut pos = 0;
        let mut terms: Vec<(Mono, i64)> = Vec::new();
        let fail = |pos: usize, expected| Error::Parse {
            pos,
            expected,
            found: text[pos..].chars().next(),
        };
        loop {
            let mut sign = 1i64;
            match bytes.get(pos) {
                Some(b'-') => (sign, pos) = (-1, pos + 1),
                Some(b'+') if !terms.is_empty() => pos += 1,
                _ if !terms.is_empty() => return Err(fail(pos, "'+', '-' or the end")),
                _ => {}
            }
            let (mut coef, mut mono) = (sign, Mono::ONE);
            loop {
                let start = pos;
                match bytes.get(pos) {
                    Some(b) if b.is_ascii_digit() => {
                        while bytes.get(pos).is_some_and(u8::is_ascii_digit) {
                            pos += 1;
                        }
                        let v: i64 = text[start..pos].parse().map_err(|_| Error::Overflow {
                            what: "polynomial coefficient",
                        })?;
                        coef = coef.checked_mul(v).ok_or(Error::Overflow {
                            what: "polynomial coefficient",
                        })?;
                    }
                    Some(b) if b.is_ascii_alphabetic() || *b == b'_' => {
                        while bytes
                            .get(pos)
                            .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                        {
                            pos += 1;
                        }
                        let id = self.intern(&text[start..pos]).map_err(|e| match e {
                            Error::Parse {
                                pos: p,
                                expected,
                                found,
                            } => Error::Parse {
                                pos: start + p,
                                expected,
                                found,
                            },
                            e => e,
                        })?;
                        mono = mono.product(Mono::symbol(id)).ok_or(Error::LimitExceeded {
                            limit: "max_degree",
                            value: mono.degree() as u64 + 1,
                            max: MAX_DEGREE as u64,
                        })?;
                    }
                    _ => return Err(fail(pos, "an integer or a symbol")),
                }
                if bytes.get(pos) == Some(&b'*') {
                    pos += 1;
                } else {
                    break;
                }
            }
            terms.push((mono, coef));
            if terms.len() > self.limits.max_terms.saturating_mul(2) {
                return Err(Error::LimitExceeded {
                    limit: "max_terms",
                    value: terms.len() as u64,
                    max: self.limits.max_terms as u64,
                });
            }
            if pos == bytes.len() {
                break;
            }
        }
        let p = Poly::from_terms(terms)?;
        self.check(&p)?;
        Ok(p)
    }

    /// A `Display` of `p` in the protocol's text.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// let p = s.parse("-N+3*M*N-2").unwrap();
    /// assert_eq!(s.show(&p).to_string(), "3*N*M-N-2");
    /// ```
    pub fn show<'a>(&'a self, p: &'a Poly) -> Show<'a> {
        Show { syms: self, p }
    }

    /// The value of every symbol from `(name, value)` pairs, checked against
    /// the assumptions; a symbol not listed is an error.
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] naming the symbol and the broken assumption.
    ///
    /// ```
    /// let mut s = hlayout::symbolic::Symbols::new();
    /// s.intern("N").unwrap();
    /// assert_eq!(s.binding(&[("N", 3)]).unwrap(), [3]);
    /// assert!(s.binding(&[("N", 0)]).is_err());
    /// assert!(s.binding(&[]).is_err());
    /// ```
    pub fn binding(&self, pairs: &[(&str, i64)]) -> Result<Vec<i64>> {
        let mut values = vec![None; self.names.len()];
        for &(name, v) in pairs {
            let id = self.id(name).ok_or_else(|| Error::OutOfDomain {
                what: format!("bind names {name}, which the request does not use"),
            })?;
            let a = self.assume[id as usize];
            if !a.allows(v) {
                return Err(Error::OutOfDomain {
                    what: format!(
                        "{name} = {v} breaks its assumptions ({} <= {name} <= {}, {name} % {} == 0)",
                        a.min, a.max, a.divisible_by
                    ),
                });
            }
            values[id as usize] = Some(v);
        }
        values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.ok_or_else(|| Error::OutOfDomain {
                    what: format!("bind has no value for {}", self.names[i]),
                })
            })
            .collect()
    }
}

/// A polynomial with its symbol names, printed in the protocol's text.
#[derive(Clone, Copy, Debug)]
pub struct Show<'a> {
    syms: &'a Symbols,
    p: &'a Poly,
}

impl fmt::Display for Show<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.p.is_zero() {
            return f.write_str("0");
        }
        for (k, &(m, c)) in self.p.terms().iter().enumerate() {
            if c < 0 {
                f.write_str("-")?;
            } else if k > 0 {
                f.write_str("+")?;
            }
            let a = c.unsigned_abs();
            let mut first = true;
            if a != 1 || m == Mono::ONE {
                write!(f, "{a}")?;
                first = false;
            }
            for s in m.factors() {
                if !first {
                    f.write_str("*")?;
                }
                f.write_str(self.syms.name(s))?;
                first = false;
            }
        }
        Ok(())
    }
}
