//! Decoding fuzz bytes into small numbers, shared by the targets.
#![allow(dead_code)]

/// A cursor over the fuzz input; reads past the end give 0.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// A value in `0..n` (`n >= 1`).
    pub fn below(&mut self, n: u64) -> u64 {
        u64::from(self.byte()) % n.max(1)
    }

    /// Mostly small values, sometimes an extreme of i64 or a large one.
    pub fn int(&mut self) -> i64 {
        match self.byte() {
            0..=199 => i64::from(self.byte() % 8),
            200..=219 => -i64::from(self.byte() % 8),
            220..=229 => i64::MAX - i64::from(self.byte() % 4),
            230..=239 => i64::MIN + i64::from(self.byte() % 4),
            _ => {
                let mut b = [0u8; 8];
                b.iter_mut().for_each(|x| *x = self.byte());
                i64::from_le_bytes(b)
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
