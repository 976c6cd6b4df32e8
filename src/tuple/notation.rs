//! The text form of nested tuples, and the parser the layout notation builds on.
//!
//! Grammar (spaces allowed between tokens):
//!
//! ```text
//! layout := tuple ':' tuple        -- shape and stride, congruent
//! tuple  := int | '(' [tuple (',' tuple)*] ')'
//! int    := ['-'] digit+           -- must fit in i64
//! ```
//!
//! Printing is the inverse: `parse(print(x)) == x` for every tuple and layout.
//! Errors carry the byte position and what was expected there.
//!
//! ```
//! use hlayout::IntTuple;
//! let t: IntTuple = "(2, (3,-4))".parse().unwrap();
//! assert_eq!(t.to_string(), "(2,(3,-4))");
//! let err = "(2,(3,4)".parse::<IntTuple>().unwrap_err();
//! assert_eq!(err.to_string(), "parse error at byte 8: expected ',' or ')', found end of input");
//! ```

use super::int_tuple::{Builder, IntTuple};
use super::profile::check_depth;
use crate::error::{Error, Result};

/// Parses a nested integer tuple such as `(2,(3,4))` or `7`.
pub(crate) fn parse_tuple(text: &str) -> Result<IntTuple> {
    let mut p = Parser::new(text);
    let t = p.tuple()?;
    p.end()?;
    Ok(t)
}

/// A cursor over notation text; the layout notation reuses it for `SHAPE:STRIDE`.
pub(crate) struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    /// A parser at the start of `text`.
    pub(crate) fn new(text: &'a str) -> Parser<'a> {
        Parser { text, pos: 0 }
    }

    fn peek(&mut self) -> Option<char> {
        let rest = &self.text[self.pos..];
        let trimmed = rest.trim_start();
        self.pos += rest.len() - trimmed.len();
        trimmed.chars().next()
    }

    fn fail<T>(&mut self, expected: &'static str) -> Result<T> {
        let found = self.peek();
        Err(Error::Parse {
            pos: self.pos,
            expected,
            found,
        })
    }

    pub(crate) fn expect(&mut self, c: char, expected: &'static str) -> Result<()> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            self.fail(expected)
        }
    }

    pub(crate) fn end(&mut self) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => self.fail("end of input"),
        }
    }

    /// One tuple, iteratively (no recursion, so no input can exhaust the stack).
    pub(crate) fn tuple(&mut self) -> Result<IntTuple> {
        let mut b = Builder::default();
        let mut depth = 0usize;
        loop {
            // Expecting an item (or ')' right after '(').
            match self.peek() {
                Some('(') => {
                    self.pos += 1;
                    depth += 1;
                    check_depth(depth)?;
                    b.open();
                    if self.peek() == Some(')') {
                        self.pos += 1;
                        depth -= 1;
                        b.close();
                    } else {
                        continue;
                    }
                }
                Some(c) if c == '-' || c.is_ascii_digit() => b.leaf(self.int()?),
                _ => return self.fail("an integer or '('"),
            }
            // After an item: close as many tuples as asked, then ',' or the end.
            loop {
                if depth == 0 {
                    return Ok(b.finish());
                }
                match self.peek() {
                    Some(')') => {
                        self.pos += 1;
                        depth -= 1;
                        b.close();
                    }
                    Some(',') => {
                        self.pos += 1;
                        break;
                    }
                    _ => return self.fail("',' or ')'"),
                }
            }
        }
    }

    fn int(&mut self) -> Result<i64> {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut end = start;
        if bytes.get(end) == Some(&b'-') {
            end += 1;
        }
        let digits_start = end;
        while bytes.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        if end == digits_start {
            self.pos = end;
            return self.fail("a digit");
        }
        match self.text[start..end].parse::<i64>() {
            Ok(v) => {
                self.pos = end;
                Ok(v)
            }
            Err(_) => Err(Error::Parse {
                pos: start,
                expected: "an integer that fits in i64",
                found: self.text[start..].chars().next(),
            }),
        }
    }
}
