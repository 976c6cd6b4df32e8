//! Lemma 7 (`docs/algebra.md` §7.1): two points in one block of a node's top
//! `E` (equal `⌊x/E⌋`) share every digit from `E` up, whatever the chain
//! above, so their index difference constrains the strides below `E` alone.
//! A contradiction there refutes the node and every chain through it.

use smallvec::SmallVec;

use super::lattice::Solutions;
use super::{digits_of, Search, MAX_LOOKAHEAD};
use crate::error::Result;

/// Lemma 7's equations at a node: the strides below its top, constrained by
/// the pairs of points in one block of the top.
pub(super) struct Blocks {
    pub(super) sols: Solutions,
    /// The first point of the current block: its block and index; its
    /// digits are in `anchor_digits` (kept apart, so that a new anchor
    /// copies only the digits, not a whole inline vector).
    anchor: Option<(i64, i64)>,
    anchor_digits: SmallVec<[i64; 64]>,
    diff: SmallVec<[i64; 64]>,
}

impl Blocks {
    pub(super) fn new(sols: Solutions) -> Blocks {
        Blocks {
            sols,
            anchor: None,
            anchor_digits: SmallVec::new(),
            diff: SmallVec::new(),
        }
    }
}

impl Search {
    /// Adds Lemma 7's equation of the point `(x, i)`, whose digits for
    /// `chain` (head at the top) are in `self.digits`: two points in one
    /// block of the top `E` (equal `⌊x/E⌋`) share every digit from `E` up,
    /// whatever the chain above, so their index difference constrains the
    /// strides below `E` alone. False when no strides are left.
    pub(super) fn block_equation(
        &mut self,
        chain: &[i64],
        b: &mut Blocks,
        x: i64,
        i: i64,
    ) -> Result<bool> {
        let k = chain.len() - 1;
        let q = self.digits[k];
        match b.anchor {
            Some((q0, i0)) if q0 == q => {
                self.spend(k as i64)?;
                b.diff.clear();
                let lower = self.digits[..k].iter().zip(&b.anchor_digits[..k]);
                b.diff.extend(lower.map(|(&a, &c)| a - c));
                let target = i - i0;
                if !b.sols.constrain(&b.diff, target)? {
                    let high = b.sols.high;
                    self.used_both(x, i, high);
                    return Ok(false);
                }
                b.sols.note(x, i);
            }
            _ => {
                b.anchor = Some((q, i));
                b.anchor_digits.clear();
                b.anchor_digits.extend_from_slice(&self.digits);
            }
        }
        Ok(true)
    }

    /// Lemma 7's equations of the points from `pos` below `bound` (at most
    /// [`MAX_LOOKAHEAD`] of them). False when no strides are left.
    pub(super) fn blocks_beyond(
        &mut self,
        chain: &[i64],
        b: &mut Blocks,
        pos: usize,
        bound: i64,
    ) -> Result<bool> {
        for n in 0..MAX_LOOKAHEAD {
            let Some((x, i)) = self.points.get(pos + n, &mut self.budget)? else {
                break;
            };
            if x >= bound {
                break;
            }
            digits_of(x, chain, &mut self.digits);
            if !self.block_equation(chain, b, x, i)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::super::digits_of;
    use smallvec::SmallVec;

    #[test]
    fn points_in_one_block_differ_by_the_lower_digits_alone() {
        // Invariant: Lemma 7, R(x) − R(x') = Σ_{j<k} r_j·(δ_j(x) − δ_j(x')) when ⌊x/E_k⌋ = ⌊x'/E_k⌋, for every chain and strides, negative x too / Witness: brute force over chains of steps 2..=5, strides −7..=7, x in −200..200.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut draw = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as i64
        };
        let (mut dx, mut dy) = (SmallVec::new(), SmallVec::new());
        for _ in 0..400 {
            let mut chain = vec![1i64];
            for _ in 0..1 + draw(4) {
                chain.push(chain[chain.len() - 1] * (2 + draw(4)));
            }
            let strides: Vec<i64> = chain.iter().map(|_| draw(15) - 7).collect();
            let eval =
                |d: &SmallVec<[i64; 64]>| d.iter().zip(&strides).map(|(a, b)| a * b).sum::<i64>();
            let k = 1 + draw(chain.len() as u64 - 1) as usize; // E_k, k ≥ 1
            let top = chain[k];
            for _ in 0..20 {
                let x = draw(400) - 200;
                let y = x.div_euclid(top) * top + draw(top as u64); // same block
                digits_of(x, &chain, &mut dx);
                digits_of(y, &chain, &mut dy);
                let lower: i64 = (0..k).map(|j| strides[j] * (dx[j] - dy[j])).sum();
                assert_eq!(
                    eval(&dx) - eval(&dy),
                    lower,
                    "{chain:?} {strides:?} k={k} x={x} y={y}"
                );
            }
        }
    }
}
