//! The batch protocol's JSON text of a movement op, `["name",argument]`,
//! parsed once for every kind of number: [`Movement`](crate::Movement)
//! reads its sizes and amounts as `i64`, `SymMovement` (`crate::symbolic`)
//! as polynomials (an integer, or polynomial text in a string). The number
//! reader is the only difference, so it is a parameter.
//!
//! Cost: O(length of the text) plus the number reader's work.

use crate::error::{Error, Result};
use crate::view::MovementKind;

/// A movement op's argument, its numbers of type `N`.
pub(crate) enum Parsed<N> {
    Reshape(Vec<N>),
    Permute(Vec<usize>),
    Expand(Vec<N>),
    Pad(Vec<(N, N)>),
    Shrink(Vec<(N, N)>),
    Flip(Vec<bool>),
}

/// `$ty`'s op (a movement enum with the variants of [`Parsed`]) from a
/// [`Parsed`] value.
macro_rules! movement_from {
    ($ty:ident, $parsed:expr) => {
        match $parsed {
            Parsed::Reshape(v) => $ty::Reshape(v),
            Parsed::Permute(v) => $ty::Permute(v),
            Parsed::Expand(v) => $ty::Expand(v),
            Parsed::Pad(v) => $ty::Pad(v),
            Parsed::Shrink(v) => $ty::Shrink(v),
            Parsed::Flip(v) => $ty::Flip(v),
        }
    };
}
pub(crate) use movement_from;

/// Parses `["name",argument]` (spaces allowed between tokens), each size
/// or amount read by `num`; `expected` names a number where none is.
///
/// # Errors
/// [`Error::Parse`] with the byte position; [`Error::UnknownName`] for a
/// name that is not a movement op; `num`'s.
pub(crate) fn parse<N>(
    text: &str,
    expected: &'static str,
    mut num: impl FnMut(&mut Cursor) -> Result<N>,
) -> Result<Parsed<N>> {
    let mut p = Cursor { text, pos: 0 };
    p.eat('[', "'['")?;
    let name = p.string()?;
    let kind: MovementKind = name.parse()?;
    p.eat(',', "','")?;
    let mut pair = |c: &mut Cursor| -> Result<(N, N)> {
        c.eat('[', "'['")?;
        let a = num(c)?;
        c.eat(',', "','")?;
        let b = num(c)?;
        c.eat(']', "']'")?;
        Ok((a, b))
    };
    let op = match kind {
        MovementKind::Reshape => Parsed::Reshape(p.list(&mut num)?),
        MovementKind::Permute => Parsed::Permute(p.list(|c| c.axis(expected))?),
        MovementKind::Expand => Parsed::Expand(p.list(&mut num)?),
        MovementKind::Pad => Parsed::Pad(p.list(&mut pair)?),
        MovementKind::Shrink => Parsed::Shrink(p.list(&mut pair)?),
        MovementKind::Flip => Parsed::Flip(p.list(Cursor::flag)?),
    };
    p.eat(']', "']'")?;
    p.skip_space();
    match p.peek() {
        None => Ok(op),
        Some(c) => Err(p.error("end of input", Some(c))),
    }
}

/// A position in movement-op text.
pub(crate) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl Cursor<'_> {
    /// The byte position.
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    pub(crate) fn error(&self, expected: &'static str, found: Option<char>) -> Error {
        Error::Parse {
            pos: self.pos,
            expected,
            found,
        }
    }

    pub(crate) fn skip_space(&mut self) {
        while let Some(c) = self.peek().filter(|c| c.is_ascii_whitespace()) {
            self.pos += c.len_utf8();
        }
    }

    /// Skips spaces, then consumes `c`.
    fn eat(&mut self, c: char, expected: &'static str) -> Result<()> {
        self.skip_space();
        match self.peek() {
            Some(d) if d == c => {
                self.pos += 1;
                Ok(())
            }
            other => Err(self.error(expected, other)),
        }
    }

    /// A double-quoted string (no escapes).
    pub(crate) fn string(&mut self) -> Result<&str> {
        self.eat('"', "'\"'")?;
        let rest = &self.text[self.pos..];
        let len = rest.find('"').ok_or(Error::Parse {
            pos: self.text.len(),
            expected: "'\"'",
            found: None,
        })?;
        self.pos += len + 1;
        Ok(&rest[..len])
    }

    /// `[item, …]`, possibly empty.
    fn list<T>(&mut self, mut item: impl FnMut(&mut Self) -> Result<T>) -> Result<Vec<T>> {
        self.eat('[', "'['")?;
        let mut out = Vec::new();
        self.skip_space();
        if self.peek() == Some(']') {
            self.pos += 1;
            return Ok(out);
        }
        loop {
            out.push(item(self)?);
            self.skip_space();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(']') => {
                    self.pos += 1;
                    return Ok(out);
                }
                other => return Err(self.error("',' or ']'", other)),
            }
        }
    }

    /// The text of an optionally signed run of digits, and where it starts;
    /// `expected` names what was wanted when there is none.
    fn number(&mut self, expected: &'static str) -> Result<(&str, usize)> {
        self.skip_space();
        let start = self.pos;
        let rest = &self.text[start..];
        let sign = usize::from(rest.starts_with('-'));
        let digits = rest[sign..].bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            self.pos += sign;
            return Err(self.error(expected, self.peek()));
        }
        self.pos += sign + digits;
        Ok((&rest[..sign + digits], start))
    }

    /// An integer within `i64`; `expected` names it when there is none.
    pub(crate) fn int(&mut self, expected: &'static str) -> Result<i64> {
        let (text, start) = self.number(expected)?;
        text.parse().map_err(|_| Error::Parse {
            pos: start,
            expected: "an integer within i64",
            found: text.chars().next(),
        })
    }

    fn axis(&mut self, expected: &'static str) -> Result<usize> {
        let (text, start) = self.number(expected)?;
        text.parse().map_err(|_| Error::Parse {
            pos: start,
            expected: "an axis (a non-negative integer)",
            found: text.chars().next(),
        })
    }

    fn flag(&mut self) -> Result<bool> {
        self.skip_space();
        for (word, v) in [("true", true), ("false", false)] {
            if self.text[self.pos..].starts_with(word) {
                self.pos += word.len();
                return Ok(v);
            }
        }
        Err(self.error("true or false", self.peek()))
    }
}
