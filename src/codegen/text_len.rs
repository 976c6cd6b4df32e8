//! The length of a kernel's text, measured before it is written.
//!
//! A [`Kernel`] is a DAG: a sub-expression used twice is stored once but
//! rendered twice, so the text of a chain that keeps transposing and cutting
//! doubles with each op while the kernel grows by a few nodes. Measuring the
//! text runs the renderer over a counting sink that remembers each node's
//! length, so it costs O(nodes) whatever the text's length, and the sum
//! saturates at `u64::MAX` instead of wrapping. [`Kernel::render_within`]
//! measures first and refuses text longer than
//! [`Limits::max_expr_bytes`](crate::Limits::max_expr_bytes).

use super::ir::{Kernel, NodeId};
use super::render::{Lang, Renderer, Sink};
use crate::error::Result;
use crate::limits::Limits;

/// A [`Sink`] that counts bytes, each node's length memoised.
struct Counter {
    /// The length of each node's text once measured.
    memo: Vec<Option<u64>>,
    /// Bytes counted so far in the node being measured.
    total: u64,
}

impl Sink for Counter {
    fn text(&mut self, s: &str) {
        self.total = self.total.saturating_add(s.len() as u64);
    }

    fn int(&mut self, c: i64) {
        self.total = self.total.saturating_add(decimal_len(c));
    }

    fn node(&mut self, r: &Renderer<'_>, id: NodeId) {
        let len = match self.memo[id as usize] {
            Some(len) => len,
            None => {
                let outer = std::mem::replace(&mut self.total, 0);
                r.write(id, self);
                let len = std::mem::replace(&mut self.total, outer);
                self.memo[id as usize] = Some(len);
                len
            }
        };
        self.total = self.total.saturating_add(len);
    }
}

/// Bytes of `c` in decimal, its sign included.
fn decimal_len(c: i64) -> u64 {
    let digits = c
        .unsigned_abs()
        .checked_ilog10()
        .map_or(1, |d| u64::from(d) + 1);
    digits + u64::from(c < 0)
}

impl Kernel {
    /// The lengths in bytes of `(index, valid)` as [`Kernel::render`] writes
    /// them in `lang`, each saturating at `u64::MAX`. O(nodes): each node's
    /// length is measured once however often the text repeats it.
    ///
    /// ```
    /// use hlayout::codegen::{self, Input, Lang};
    /// let s = hlayout::ViewStack::new(&[4, 6])?.permute(&[1, 0])?.pad(&[(1, 0), (0, 0)])?;
    /// let k = codegen::stack(&s, Input::Coords)?;
    /// let (index, valid) = k.render(Lang::Python);
    /// assert_eq!(k.text_len(Lang::Python), (index.len() as u64, valid.len() as u64));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn text_len(&self, lang: Lang) -> (u64, u64) {
        let r = Renderer { k: self, lang };
        let mut c = Counter {
            memo: vec![None; self.nodes().len()],
            total: 0,
        };
        c.node(&r, self.index());
        let index = std::mem::take(&mut c.total);
        c.node(&r, self.valid());
        (index, c.total)
    }

    /// [`Kernel::render`], or a refusal when the index and validity text
    /// together would be longer than `limits.max_expr_bytes`, decided in
    /// O(nodes) before any text is written ([`Kernel::text_len`]).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`](crate::Error::LimitExceeded) naming
    /// `max_expr_bytes`, with the text's length (`u64::MAX` when it is too
    /// long to count).
    ///
    /// ```
    /// use hlayout::codegen::{self, Input, Lang};
    /// use hlayout::{Error, Limits};
    /// let k = codegen::layout(&"(4,6):(1,4)".parse()?, Input::Linear)?;
    /// let (index, valid) = k.render_within(Lang::C, &Limits::default())?;
    /// assert_eq!((index.as_str(), valid.as_str()), ("i * 4 - i / 6 * 23", "1"));
    /// let tight = Limits { max_expr_bytes: 18, ..Limits::default() };
    /// let err = k.render_within(Lang::C, &tight).unwrap_err();
    /// assert!(matches!(err, Error::LimitExceeded { limit: "max_expr_bytes", value: 19, max: 18 }));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn render_within(&self, lang: Lang, limits: &Limits) -> Result<(String, String)> {
        let (index, valid) = self.text_len(lang);
        limits.check_expr_bytes(index.saturating_add(valid))?;
        Ok(self.render(lang))
    }
}

#[cfg(test)]
mod tests {
    use super::decimal_len;

    #[test]
    fn decimal_len_is_the_formatted_length() {
        for c in [
            0,
            1,
            9,
            10,
            99,
            100,
            -1,
            -9,
            -10,
            i64::MAX,
            i64::MIN + 1,
            i64::MIN,
        ] {
            assert_eq!(decimal_len(c), c.to_string().len() as u64, "{c}");
        }
        for p in 0..19 {
            let c = 10i64.pow(p);
            for d in [c - 1, c, c + 1, -c + 1, -c, -c - 1] {
                assert_eq!(decimal_len(d), d.to_string().len() as u64, "{d}");
            }
        }
    }
}
