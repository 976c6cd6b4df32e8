//! Refutations: the negative offsets of a whole chain, and the witness a
//! refusal names (`docs/algebra.md` §7.1, *Witness*).

use super::lattice::Solutions;
use super::verify::Verdict;
use super::{digits_of, Search, FIRST_CHECK};
use crate::error::Result;

impl Search {
    /// Every non-negative point fits `t` (the chain whole, its head at the
    /// top): adds the negative points, which read every digit.
    pub(super) fn negatives(
        &mut self,
        chain: &[i64],
        mut t: Solutions,
        pos: usize,
    ) -> Result<Option<Vec<i128>>> {
        let mut next_check = FIRST_CHECK;
        for j in 0.. {
            let Some((x, i)) = self.points.get_negative(j, &mut self.budget)? else {
                return Ok(Some(t.particular));
            };
            self.spend(chain.len() as i64)?;
            digits_of(x, chain, &mut self.digits);
            if !t.constrain(&self.digits, i)? {
                let high = t.high;
                self.used_both(x, i, high);
                self.negative_failure(pos, Some(x));
                return Ok(None);
            }
            if j + 1 >= next_check && t.is_determined() {
                next_check = next_check.saturating_mul(2);
                match self.check(chain, &t.particular)? {
                    Verdict::Holds => return Ok(Some(t.particular)),
                    Verdict::Fails(z, zi) => {
                        let high = t.high;
                        self.used_both(z, zi, high);
                        self.negative_failure(pos, Some(z.min(x)));
                        return Ok(None);
                    }
                    Verdict::Unsettled => {}
                }
            }
        }
        Ok(None)
    }

    /// Records a refutation that used the non-negative points before `pos`
    /// and the negative points down to `low` (every one read, for `None`).
    pub(super) fn negative_failure(&mut self, pos: usize, low: Option<i64>) {
        if let Some((x, i)) = self.points.last_read(pos) {
            self.used(x, i);
        }
        self.lowest = self.lowest.min(low.unwrap_or(self.points.min));
    }

    /// Records a refutation by the point `(x, i)` of equations from points up to `high`.
    pub(super) fn used_both(&mut self, x: i64, i: i64, high: Option<(i64, i64)>) {
        self.used(x, i);
        if let Some((y, yi)) = high {
            self.used(y, yi);
        }
    }

    /// Records a non-negative point a refutation used.
    pub(super) fn used(&mut self, x: i64, i: i64) {
        if x >= 0 && self.deepest.is_none_or(|(y, _)| x > y) {
            self.deepest = Some((x, i));
        }
    }

    /// The refusal: every chain failed on the offsets from `lowest` to
    /// `deepest`, so those offsets alone admit no layout R.
    pub(super) fn witness(&self) -> String {
        let Some((x, i)) = self.deepest else {
            return "no layout left inverse exists: no divisor chain of place values with \
                    integer strides maps L's offsets to their indices"
                .to_string();
        };
        let head = "no layout left inverse exists: no divisor chain of place values with \
                    integer strides maps";
        match (self.lowest, self.points.rank_of(x)) {
            (0, Some(n)) => format!(
                "{head} the {n} smallest offsets to their indices \
                 (every candidate fails by offset {x} = L({i}))"
            ),
            (0, None) => format!(
                "{head} the offsets up to {x} to their indices \
                 (every candidate fails by offset {x} = L({i}))"
            ),
            (low, _) => format!("{head} the offsets from {low} to {x} = L({i}) to their indices"),
        }
    }
}
