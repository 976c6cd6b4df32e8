//! The search's first pass: chains whose place values all divide one of L's
//! own numbers (a stride, a leaf's span, the lcm of two strides).
//!
//! Many found inverses take such chains (`(64,34):(100,3)` has
//! `1 | 3 | 300`, `300 = lcm(100, 3)`; `(1024,1024):(3076,3)` has
//! `1 | 3 | 9228`), while the full pass tries the primes in increasing order
//! and so explores whole subtrees of small primes first. Here a step need not
//! be prime (a coarser chain represents a subset of its refinement's
//! functions, so whatever it finds is a left inverse), the longest step is
//! visited first, and Lemma 7 looks ahead only twice as far as the scan.
//! The first pass orders the work and nothing else: it returns a layout only
//! when that layout satisfies every equation (or the symbolic check), it
//! gives up silently past [`HINT_BUDGET`], and every refusal comes from the
//! full pass.

use super::lattice::Solutions;
use super::{Budget, Search};

/// Work units of the first pass (the full pass then gets its own budget).
pub(super) const HINT_BUDGET: i64 = 1 << 16;

/// Largest number whose prime factors the first pass uses (trial division
/// up to its square root, 2^12).
const MAX_HINT: i64 = 1 << 24;

/// The first pass's numbers and their divisors.
pub(super) struct Hints {
    divisors: Vec<i64>,
    active: bool,
}

impl Hints {
    /// The numbers of the leaves `(extent, stride, index stride)`: `|d|`,
    /// `s·|d|` and `lcm(|d|, |d'|)`, each at most 2^24, with all their
    /// divisors. O(n·2^12 + divisors) for n numbers.
    pub(super) fn new(leaves: &[(i64, i64, i64)]) -> Hints {
        let mut values: Vec<i64> = Vec::new();
        for (k, &(s, d, _)) in leaves.iter().enumerate() {
            let d = d.unsigned_abs().min(i64::MAX as u64) as i64;
            values.push(d);
            values.extend(s.checked_mul(d));
            for &(_, e, _) in &leaves[k + 1..] {
                let e = e.unsigned_abs().min(i64::MAX as u64) as i64;
                values.extend((d / num_integer::gcd(d, e)).checked_mul(e));
            }
        }
        values.retain(|&v| (2..=MAX_HINT).contains(&v));
        values.sort_unstable();
        values.dedup();
        let mut divisors: Vec<i64> = values.iter().flat_map(|&v| divisors_of(v)).collect();
        divisors.sort_unstable();
        divisors.dedup();
        Hints {
            active: !values.is_empty(),
            divisors,
        }
    }

    /// Whether the first pass is running.
    pub(super) fn active(&self) -> bool {
        self.active
    }

    /// The steps `m ≥ 2` with `top·m` dividing some number, increasing (any
    /// such step, prime or not: a coarser chain is still a chain).
    /// O(divisors).
    pub(super) fn steps(&self, top: i64) -> Vec<i64> {
        self.divisors
            .iter()
            .filter(|&&e| e > top && e % top == 0)
            .map(|&e| e / top)
            .collect()
    }
}

/// Every divisor of `n ≥ 1`, from its factorisation by trial division. O(√n + divisors).
fn divisors_of(mut n: i64) -> Vec<i64> {
    let mut out = vec![1i64];
    let mut q = 2i64;
    while q * q <= n {
        let mut power = 1i64;
        let count = out.len();
        while n % q == 0 {
            n /= q;
            power *= q;
            let len = out.len();
            out.extend_from_within(..count);
            for d in &mut out[len..] {
                *d *= power;
            }
        }
        q += if q == 2 { 1 } else { 2 };
    }
    if n > 1 {
        let count = out.len();
        out.extend_from_within(..count);
        for d in &mut out[count..] {
            *d *= n;
        }
    }
    out
}

impl Search {
    /// Runs the first pass from the root: `Some(strides)` with `chain` the
    /// chain found, or `None` (chain reset to `[1]`, the pass's traces
    /// cleared) for the full pass to decide.
    pub(super) fn hinted_pass(&mut self, chain: &mut Vec<i64>) -> Option<Vec<i128>> {
        if !self.hints.active() {
            return None;
        }
        let full = std::mem::replace(&mut self.budget, Budget::new(HINT_BUDGET));
        let found = self.descend(chain, &Solutions::default(), 0);
        self.budget = full;
        self.hints.active = false;
        (self.deepest, self.lowest) = (None, 0);
        match found {
            Ok(Some(strides)) if self.points.collision.is_none() => Some(strides),
            _ => {
                chain.truncate(1);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_steps() {
        // Invariant: the numbers are |d|, s·|d| and the lcms, and the steps from a top are the quotients of their divisors by it / Witness: (64,34):(100,3) gives 3, 100, 102, 300, 6400; from 3 the steps are 2, 4, 5, 10, 17, 20, 25, 34, 50, 100.
        let h = Hints::new(&[(64, 100, 34), (34, 3, 1)]);
        assert_eq!(h.steps(3), [2, 4, 5, 10, 17, 20, 25, 34, 50, 100]);
        let mut d = divisors_of(9228);
        d.sort_unstable();
        assert_eq!(d, [1, 2, 3, 4, 6, 12, 769, 1538, 2307, 3076, 4614, 9228]);
        for n in 1..=400 {
            let mut got = divisors_of(n);
            got.sort_unstable();
            let want: Vec<i64> = (1..=n).filter(|k| n % k == 0).collect();
            assert_eq!(got, want, "{n}");
        }
    }
}
