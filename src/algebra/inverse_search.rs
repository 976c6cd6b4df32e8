//! The exact left-inverse search behind [`Layout::left_inverse`], for
//! injective layouts outside its two closed-form families.
//!
//! A layout R, read fastest leaf first, is a divisor chain of place values
//! `1 = E₀ | E₁ | … | E_m` and one stride per digit:
//!
//! ```text
//! R(x) = Σ_{k<m} r_k·(⌊x/E_k⌋ mod E_{k+1}/E_k) + r_m·⌊x/E_m⌋.
//! ```
//!
//! Given L's image points `x = L(i)` (largest `M`), the search looks for a
//! chain and integer strides with `R(x) = i` at every point. Three facts keep
//! it exact and small (proofs in `docs/algebra.md`, section 7):
//!
//! - **Refinement.** Splitting a step `E_k → E_{k+1}` at an intermediate
//!   divisor keeps the function (leaf `e:r` becomes `e/p : p·r` over `p : r`),
//!   and place values above `M` change no digit of a point. So only chains of
//!   *prime* steps that stop at the first `E_m` with `2·E_m > M` are tried.
//!   With negative offsets (the digits are floor digits) chains stop at the
//!   first `E_m ≥ S = max(M + 1, −min)`: every last step reaching S gives the
//!   same functions on the points.
//! - **Prefixes.** A point `0 ≤ x < E_k` reads only `r₀ … r_{k−1}`, so a chain
//!   prefix is refuted as soon as the points below its top admit no strides;
//!   negative points read every digit and are added when the chain is whole.
//! - **Lattice.** The integer strides that satisfy the equations so far form
//!   a coset `p + K·ℤᵈ`; each equation is one extended-gcd elimination.
//!
//! Cost: one node per prime chain prefix that survives (at most the number of
//! ordered prime factorizations of numbers up to `M`); each point costs
//! `O(n²)` with `n ≤ 63` unknowns. Exponential in the worst case, so every
//! node, prime candidate and equation is charged to
//! [`LEFT_INVERSE_SEARCH_BUDGET`]; past it the answer is
//! [`Error::BudgetExceeded`] (undecided), never a guess.

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::num::Ints;
use crate::tuple::Profile;

use super::complement::push_coalesced;

/// Most work units (image points, chain nodes, trial divisions, equations
/// weighted by their unknowns) the exact search of [`Layout::left_inverse`]
/// spends; a few milliseconds in a release build. Beyond it the answer is
/// [`Error::BudgetExceeded`] (undecided).
///
/// ```
/// use hlayout::algebra::LEFT_INVERSE_SEARCH_BUDGET;
/// assert_eq!(LEFT_INVERSE_SEARCH_BUDGET, 1 << 18);
/// ```
pub const LEFT_INVERSE_SEARCH_BUDGET: i64 = 1 << 18;

/// The search's outcome.
pub(crate) enum Found {
    /// A layout R with `R(L(i)) = i₀` for every `i < size(L)`.
    Inverse(Layout),
    /// None exists; the rule names the witness.
    Refuted(String),
}

/// Decides whether some layout R has `R(L(i)) = i₀` for every `i < size(L)`,
/// for L given by its flat leaves `s:d` and row-major index strides `index`,
/// where `i₀` is i with the coordinates of stride-0 leaves set to 0 (only the
/// other leaves are read); a collision of two offsets is reported as a
/// refutation naming both indices.
///
/// # Errors
/// [`Error::BudgetExceeded`] past [`LEFT_INVERSE_SEARCH_BUDGET`];
/// [`Error::Overflow`] when a stride of R or an intermediate leaves range.
pub(crate) fn search_left_inverse(s: &[i64], d: &[i64], index: &[i64]) -> Result<Found> {
    let mut search = Search {
        points: Vec::new(),
        max: 0,
        neg: 0,
        reach: 0,
        budget: LEFT_INVERSE_SEARCH_BUDGET,
        deepest: 0,
    };
    let read = || (0..s.len()).filter(|&k| s[k] > 1 && d[k] != 0);
    let extents: Ints = read().map(|k| s[k]).collect();
    let offsets: Ints = read().map(|k| d[k]).collect();
    let indices: Ints = read().map(|k| index[k]).collect();
    let (l, e) = if extents.is_empty() {
        (Layout::flat(&[1], &[0])?, Layout::flat(&[1], &[0])?)
    } else {
        (
            Layout::flat(&extents, &offsets)?,
            Layout::flat(&extents, &indices)?,
        )
    };
    search.spend(l.size())?;
    search.points = l.offsets().zip(e.offsets()).collect();
    search.points.sort_unstable();
    if let Some(w) = search.points.windows(2).find(|w| w[0].0 == w[1].0) {
        let ((x, i), (_, j)) = (w[0], w[1]);
        return Ok(Found::Refuted(format!(
            "not injective: L({i}) = L({j}) = {x}"
        )));
    }
    search.max = search.points.last().map_or(0, |p| p.0);
    search.neg = search.points.partition_point(|p| p.0 < 0);
    let min = search.points.first().map_or(0, |p| p.0);
    search.reach = search.max.saturating_add(1).max(min.saturating_neg());
    let mut chain = vec![1i64];
    let start = search.neg;
    match search.descend(&mut chain, &Solutions::default(), start)? {
        Some(strides) => build(&chain, &strides, search.max, search.neg > 0).map(Found::Inverse),
        None => {
            let (x, i) = search.points[search.deepest];
            Ok(Found::Refuted(format!(
                "no layout left inverse exists: no divisor chain of place values with \
                 integer strides maps the {} smallest offsets to their indices \
                 (every candidate fails by offset {x} = L({i}))",
                search.deepest + 1
            )))
        }
    }
}

/// The depth-first search over prime chains.
struct Search {
    /// `(offset, index)` for every index of L, sorted by offset.
    points: Vec<(i64, i64)>,
    /// The largest offset `M`.
    max: i64,
    /// How many offsets are negative (they come first in `points`).
    neg: usize,
    /// With negative offsets, where chains stop: `S = max(M + 1, −min)`.
    reach: i64,
    /// Work units left.
    budget: i64,
    /// The furthest point (position in `points`) at which a candidate failed.
    deepest: usize,
}

impl Search {
    /// Charges `n` work units.
    fn spend(&mut self, n: i64) -> Result<()> {
        if n > self.budget {
            let spent = LEFT_INVERSE_SEARCH_BUDGET - self.budget;
            return Err(Error::BudgetExceeded {
                what: "left_inverse's exact search",
                needed: spent.saturating_add(n), // a lower bound: the search stops here
                budget: LEFT_INVERSE_SEARCH_BUDGET,
            });
        }
        self.budget -= n;
        Ok(())
    }

    /// Strides for a chain extending `chain` (its points below the top already
    /// satisfied by `sols`, the rest from `start`), or `None` when no extension
    /// works. On success `chain` holds the chain found.
    fn descend(
        &mut self,
        chain: &mut Vec<i64>,
        sols: &Solutions,
        start: usize,
    ) -> Result<Option<Vec<i128>>> {
        self.spend(1)?;
        let top = *chain.last().unwrap_or(&1);
        let done = if self.neg == 0 {
            top > self.max / 2
        } else {
            top >= self.reach
        };
        if done {
            let end = self.points.len();
            let Some(mut sols) = self.extend(chain, sols, start, end)? else {
                return Ok(None);
            };
            // Negative offsets read every digit: checked once the chain is whole.
            let whole = self.constrain(chain, &mut sols, 0, self.neg)?;
            return Ok(whole.then_some(sols.particular));
        }
        // Without negative offsets a step past M is the head itself; with
        // them, the first step reaching S is the last one worth trying.
        let limit = if self.neg == 0 {
            self.max / top
        } else {
            self.reach / top + i64::from(self.reach % top != 0)
        };
        for p in 2..=limit {
            if !self.is_prime(p)? {
                continue;
            }
            let Some(next) = top.checked_mul(p) else {
                break;
            };
            let end = start + self.points[start..].partition_point(|&(x, _)| x < next);
            let Some(sols) = self.extend(chain, sols, start, end)? else {
                continue;
            };
            chain.push(next);
            if let Some(found) = self.descend(chain, &sols, end)? {
                return Ok(Some(found));
            }
            chain.pop();
            if self.neg > 0 && next >= self.reach {
                break;
            }
        }
        Ok(None)
    }

    /// Whether `p ≥ 2` is prime, by trial division, each division charged.
    fn is_prime(&mut self, p: i64) -> Result<bool> {
        let mut q = 2i64;
        while q.checked_mul(q).is_some_and(|s| s <= p) {
            self.spend(1)?;
            if p % q == 0 {
                return Ok(false);
            }
            q += 1;
        }
        self.spend(1)?;
        Ok(true)
    }

    /// `sols` with one more unknown (the stride of the digit at `chain`'s top)
    /// constrained by the points `start..end`; `None` when none remains.
    fn extend(
        &mut self,
        chain: &[i64],
        sols: &Solutions,
        start: usize,
        end: usize,
    ) -> Result<Option<Solutions>> {
        let mut sols = sols.clone();
        sols.add_unknown();
        Ok(self
            .constrain(chain, &mut sols, start, end)?
            .then_some(sols))
    }

    /// Constrains `sols` by the points `start..end`; false when none remains.
    fn constrain(
        &mut self,
        chain: &[i64],
        sols: &mut Solutions,
        start: usize,
        end: usize,
    ) -> Result<bool> {
        let mut digits: SmallVec<[i64; 64]> = SmallVec::new();
        for pos in start..end {
            self.spend(chain.len() as i64)?;
            let (x, i) = self.points[pos];
            digits_of(x, chain, &mut digits);
            if !sols.constrain(&digits, i)? {
                self.deepest = self.deepest.max(pos);
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// The digits of `x` for place values `chain` (the last one unbounded), by
/// floor division, so negative offsets get the integer extension's digits.
fn digits_of(x: i64, chain: &[i64], out: &mut SmallVec<[i64; 64]>) {
    out.clear();
    for w in chain.windows(2) {
        out.push(x.div_euclid(w[0]).rem_euclid(w[1] / w[0]));
    }
    out.push(x.div_euclid(chain[chain.len() - 1]));
}

/// The integer solutions `particular + kernel·ℤᵈ` of the equations so far.
#[derive(Clone, Default)]
struct Solutions {
    particular: Vec<i128>,
    kernel: Vec<Vec<i128>>,
}

impl Solutions {
    /// A new unknown, unconstrained.
    fn add_unknown(&mut self) {
        self.particular.push(0);
        for v in &mut self.kernel {
            v.push(0);
        }
        let mut unit = vec![0; self.particular.len()];
        unit[self.particular.len() - 1] = 1;
        self.kernel.push(unit);
    }

    /// Keeps the solutions with `Σ coeffs[k]·r_k = target`; false when none is left.
    fn constrain(&mut self, coeffs: &[i64], target: i64) -> Result<bool> {
        let residual = checked(i128::from(target).checked_sub(dot(coeffs, &self.particular)?))?;
        let mut c: Vec<i128> = Vec::with_capacity(self.kernel.len());
        for v in &self.kernel {
            c.push(dot(coeffs, v)?);
        }
        let mut pivot: Option<usize> = None;
        for j in 0..c.len() {
            if c[j] == 0 {
                continue;
            }
            let Some(p) = pivot else {
                pivot = Some(j);
                continue;
            };
            // Unimodular column step: column p gets gcd(c_p, c_j), column j gets 0.
            let (g, x, y) = ext_gcd(c[p], c[j])?;
            let (a, b) = (c[j] / g, c[p] / g);
            let (vp, vj) = (&self.kernel[p], &self.kernel[j]);
            let mut np = Vec::with_capacity(vp.len());
            let mut nj = Vec::with_capacity(vp.len());
            for (&u, &w) in vp.iter().zip(vj) {
                np.push(checked(mul(x, u)?.checked_add(mul(y, w)?))?);
                nj.push(checked(mul(a, u)?.checked_sub(mul(b, w)?))?);
            }
            (self.kernel[p], self.kernel[j], c[p], c[j]) = (np, nj, g, 0);
        }
        let Some(p) = pivot else {
            return Ok(residual == 0);
        };
        if checked(residual.checked_rem(c[p]))? != 0 {
            return Ok(false);
        }
        let q = residual / c[p];
        let v = self.kernel.swap_remove(p);
        for (r, w) in self.particular.iter_mut().zip(v) {
            *r = checked(r.checked_add(mul(q, w)?))?;
        }
        Ok(true)
    }
}

/// `Σ a_k·v_k`, checked.
fn dot(a: &[i64], v: &[i128]) -> Result<i128> {
    a.iter().zip(v).try_fold(0i128, |acc, (&x, &y)| {
        checked(acc.checked_add(mul(i128::from(x), y)?))
    })
}

fn mul(a: i128, b: i128) -> Result<i128> {
    checked(a.checked_mul(b))
}

fn checked(v: Option<i128>) -> Result<i128> {
    v.ok_or(Error::Overflow {
        what: "left_inverse's exact search",
    })
}

/// `(g, x, y)` with `g = x·a + y·b = ±gcd(a, b) ≠ 0`, for `b ≠ 0`.
fn ext_gcd(a: i128, b: i128) -> Result<(i128, i128, i128)> {
    let (mut r0, mut r1, mut x0, mut x1, mut y0, mut y1) = (a, b, 1i128, 0i128, 0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, checked(r0.checked_sub(mul(q, r1)?))?);
        (x0, x1) = (x1, checked(x0.checked_sub(mul(q, x1)?))?);
        (y0, y1) = (y1, checked(y0.checked_sub(mul(q, y1)?))?);
    }
    Ok((r0, x0, y0))
}

/// R from its place values and strides: leaves `E_{k+1}/E_k : r_k` and a head
/// `⌊M/E_m⌋ + 1 : r_m` (so R's domain covers every point), coalesced. With
/// negative offsets the head keeps extent ≥ 2: its stride is read below 0.
fn build(chain: &[i64], strides: &[i128], max: i64, negative: bool) -> Result<Layout> {
    let stride = |k: usize| {
        i64::try_from(strides[k]).map_err(|_| Error::Overflow {
            what: "stride of left inverse",
        })
    };
    let mut leaves: SmallVec<[(i64, i64); 9]> = SmallVec::new();
    for (k, w) in chain.windows(2).enumerate() {
        push_coalesced(&mut leaves, w[1] / w[0], stride(k)?);
    }
    let m = chain.len() - 1;
    let head = max / chain[m] + 1;
    push_coalesced(
        &mut leaves,
        if negative { head.max(2) } else { head },
        stride(m)?,
    );
    if leaves.is_empty() {
        leaves.push((1, 0));
    }
    let shape: Ints = leaves.iter().rev().map(|t| t.0).collect();
    let stride: Ints = leaves.iter().rev().map(|t| t.1).collect();
    let profile = match shape.len() {
        1 => Profile::leaf(),
        n => Profile::flat(n),
    };
    Layout::from_leaves(profile, shape, stride)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lattice_tracks_integer_solutions() {
        // Invariant: constrain keeps exactly the integer solutions / Witness: 2a + 4b = 6 then a = 1 forces b = 1; 2a = 3 has none.
        let mut s = Solutions::default();
        s.add_unknown();
        s.add_unknown();
        assert!(s.constrain(&[2, 4], 6).expect("small"));
        assert!(s.constrain(&[1, 0], 1).expect("small"));
        assert_eq!(s.particular, [1, 1]);
        let mut t = Solutions::default();
        t.add_unknown();
        assert!(!t.constrain(&[2], 3).expect("small"));
    }

    #[test]
    fn budget_is_charged() {
        // Invariant: the search never spends past its budget / Witness: a charge of budget + 1.
        let mut s = Search {
            points: Vec::new(),
            max: 0,
            neg: 0,
            reach: 0,
            budget: 3,
            deepest: 0,
        };
        assert!(s.spend(3).is_ok());
        assert!(matches!(s.spend(1), Err(Error::BudgetExceeded { .. })));
    }
}
