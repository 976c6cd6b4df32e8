//! Linear forms `Σ a_k·atom_k + b` over atoms (see `linear.rs`), with `i64`
//! coefficients built by checked arithmetic: an overflow is a typed error,
//! never a wrapped value.
//!
//! Cost: every operation is linear in the number of terms (a merge of two
//! sorted term lists).

use num_integer::Integer;
use smallvec::SmallVec;

use crate::error::{overflow, Result};

/// An atom's index in its builder.
pub(crate) type AtomId = u32;

/// `Σ coeff·atom + konst`, terms sorted by atom, no zero coefficient.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Lin {
    pub(crate) terms: SmallVec<[(AtomId, i64); 6]>,
    pub(crate) konst: i64,
}

impl Lin {
    /// The constant `k`.
    pub(crate) fn constant(k: i64) -> Lin {
        Lin {
            terms: SmallVec::new(),
            konst: k,
        }
    }

    /// `1·atom`.
    pub(crate) fn atom(a: AtomId) -> Lin {
        let mut terms = SmallVec::new();
        terms.push((a, 1));
        Lin { terms, konst: 0 }
    }

    /// `self + k·other`.
    pub(crate) fn add_scaled(&self, other: &Lin, k: i64) -> Result<Lin> {
        let mut out = Lin {
            terms: SmallVec::new(),
            konst: checked(i128::from(self.konst) + i128::from(other.konst) * i128::from(k))?,
        };
        let (mut i, mut j) = (0, 0);
        let (a, b) = (&self.terms, &other.terms);
        while i < a.len() || j < b.len() {
            let (id, c) = if j == b.len() || (i < a.len() && a[i].0 < b[j].0) {
                i += 1;
                (a[i - 1].0, i128::from(a[i - 1].1))
            } else if i == a.len() || b[j].0 < a[i].0 {
                j += 1;
                (b[j - 1].0, i128::from(b[j - 1].1) * i128::from(k))
            } else {
                i += 1;
                j += 1;
                (
                    a[i - 1].0,
                    i128::from(a[i - 1].1) + i128::from(b[j - 1].1) * i128::from(k),
                )
            };
            if c != 0 {
                out.terms.push((id, checked(c)?));
            }
        }
        Ok(out)
    }

    /// `self + k`.
    pub(crate) fn plus(&self, k: i64) -> Result<Lin> {
        let mut out = self.clone();
        out.konst = checked(i128::from(self.konst) + i128::from(k))?;
        Ok(out)
    }

    /// `k·self`.
    pub(crate) fn scaled(&self, k: i64) -> Result<Lin> {
        Lin::default().add_scaled(self, k)
    }

    /// The gcd of the coefficients (0 without terms; 1 when it is `2^63`,
    /// which `i64` cannot hold: 1 divides them all too).
    pub(crate) fn coeff_gcd(&self) -> i64 {
        let g = self
            .terms
            .iter()
            .fold(0u64, |g, &(_, a)| g.gcd(&a.unsigned_abs()));
        i64::try_from(g).unwrap_or(1)
    }
}

/// `v` as `i64`, or an overflow error.
pub(crate) fn checked(v: i128) -> Result<i64> {
    i64::try_from(v).map_err(|_| overflow("kernel expression"))
}
