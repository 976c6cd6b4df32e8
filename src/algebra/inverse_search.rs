//! The exact left-inverse search behind [`Layout::left_inverse`], for
//! injective layouts outside its closed forms.
//!
//! A layout R, read fastest leaf first, is a divisor chain of place values
//! `1 = E₀ | E₁ | … | E_m` and one stride per digit:
//!
//! ```text
//! R(x) = Σ_{k<m} r_k·(⌊x/E_k⌋ mod E_{k+1}/E_k) + r_m·⌊x/E_m⌋.
//! ```
//!
//! Given L's image points `x = L(i)` (largest `M`), the search looks for a
//! chain and integer strides with `R(x) = i` at every point. The facts that
//! keep it exact and small (proofs in `docs/algebra.md`, section 7.1):
//!
//! - **Refinement.** Splitting a step keeps the function, and place values
//!   above `M` change no digit of a point: only chains of *prime* steps that
//!   stop at the first `E_m` with `2·E_m > M` are tried (with negative
//!   offsets, at the first `E_m ≥ S = max(M + 1, −min)`).
//! - **Prefixes.** A point `0 ≤ x < E_k` reads only `r₀ … r_{k−1}`, so a chain
//!   prefix is refuted as soon as the points below its top admit no strides;
//!   negative points read every digit and are added when the chain is whole.
//! - **One scan per node.** The points above a node's top `E` are read once,
//!   in order, with one new digit `⌊x/E⌋`: the child `E·p` needs exactly the
//!   points below `E·p` to fit, and once a point fails no larger prime can
//!   fit either, so the children are the primes below the first failure.
//! - **Blocks.** Two points in one block of a node's top (equal `⌊x/E⌋`)
//!   constrain the strides below the top alone, whatever the chain above
//!   (`blocks.rs`); in rank 2 such pairs are also found by their coordinate
//!   difference, far beyond the scan (`vectors.rs`), once a node has read
//!   2 points (again after 8, 32, …).
//! - **Lattice.** The integer strides that satisfy the equations so far form
//!   a coset `p + K·ℤᵈ`; each equation is one extended-gcd elimination.
//! - **Symbolic check.** When a node's strides are determined and its scan
//!   has run long, the chain that ends at the node is checked on every index
//!   at once (`R ∘ L` through the exact composition, compared with the
//!   index); a pass is the answer, a failure names a point that bounds the
//!   node's children.
//!
//! - **First pass.** Before the full search, the same walk runs on the
//!   chains whose place values all divide one of L's own numbers (`hints.rs`),
//!   longest step first, within `HINT_BUDGET` (2^16) work units of its own;
//!   it only returns layouts that satisfy every equation, and leaves every
//!   refusal to the full pass.
//!
//! Points are read lazily in increasing order ([`points`]), so the cost
//! depends on how far the search reads, not on `size(L)`. Exponential in the
//! worst case: every node, prime candidate, point read, equation and check is
//! charged to [`LEFT_INVERSE_SEARCH_BUDGET`]; past it the answer is
//! [`Error::BudgetExceeded`] (undecided), never a guess.

mod blocks;
mod borrow;
mod carry_free;
mod hints;
mod lattice;
mod points;
mod refute;
mod vectors;
mod verify;

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::Layout;

use blocks::Blocks;
use hints::Hints;
use lattice::Solutions;
use points::Points;
use vectors::Vectors;
use verify::{build, Target, Verdict};

/// Most work units (image points read, chain nodes, trial divisions,
/// equations weighted by their unknowns, symbolic checks) the exact search of
/// [`Layout::left_inverse`] spends; about 20 ms in a release build
/// (Intel Xeon model 167, the family census of `docs/algebra.md` §7.1).
/// Beyond it the answer is [`Error::BudgetExceeded`] (undecided). The first
/// pass over chains of L's own numbers runs before it on 2^16 units of its
/// own.
///
/// ```
/// use hlayout::algebra::LEFT_INVERSE_SEARCH_BUDGET;
/// assert_eq!(LEFT_INVERSE_SEARCH_BUDGET, 1 << 20);
/// ```
pub const LEFT_INVERSE_SEARCH_BUDGET: i64 = 1 << 20;

/// Work units charged for one symbolic check (a composition).
const CHECK_COST: i64 = 64;

/// Points a node reads before its first symbolic check (doubled after each).
const FIRST_CHECK: usize = 32;

/// Lemma 7 reads up to this multiple of the offset where a node's scan stopped
/// (2 → 8: rank-2 census undecided 64 → 28 of 300; a found inverse costs more).
const LOOKAHEAD_FACTOR: i64 = 8;

/// The same in rank 2, where the vector cut also reaches pairs far beyond
/// the scan: a shorter look ahead leaves more of the budget to the nodes
/// (4,600 random rank-2 layouts: 31 → 24 undecided; rank 3 keeps 8, where 4
/// costs 20% more wall time and decides nothing more).
const LOOKAHEAD_FACTOR_RANK_TWO: i64 = 4;

/// Points a node reads at most for Lemma 7.
const MAX_LOOKAHEAD: usize = 4096;

/// Points a node's scan reads before Lemma 7 by difference vectors
/// (`vectors.rs`, rank 2) runs; it runs again after 4 times as many (the
/// block equations read meanwhile pin more strides below the top). Most
/// nodes of a wide search read fewer than 16 points before their scan
/// fails, and the cut refutes most nodes it runs on: from 64 to 2, the
/// random rank-2 layouts left undecided at the default budget went from 73
/// to 36 of 4,600 (`docs/algebra.md` §7.1). At 0 it runs at every step.
const VECTORS_AFTER: usize = 2;

/// The search's outcome.
pub(crate) enum Found {
    /// A layout R with `R(L(i)) = i₀` for every `i < size(L)`.
    Inverse(Layout),
    /// None exists; the rule names the witness.
    Refuted(String),
}

/// Work units left, of a total.
pub(super) struct Budget {
    left: i64,
    total: i64,
}

impl Budget {
    /// A budget of `total` work units (none when `total ≤ 0`).
    pub(super) fn new(total: i64) -> Budget {
        let total = total.max(0);
        Budget { left: total, total }
    }

    /// Charges `n` work units.
    pub(super) fn spend(&mut self, n: i64) -> Result<()> {
        if n > self.left {
            let spent = self.total - self.left;
            return Err(Error::BudgetExceeded {
                what: "left_inverse's exact search",
                needed: spent.saturating_add(n), // a lower bound: the search stops here
                budget: self.total,
            });
        }
        self.left -= n;
        Ok(())
    }
}

/// Decides whether some layout R has `R(L(i)) = i₀` for every `i < size(L)`,
/// for L given by its flat leaves `s:d` and row-major index strides `index`,
/// where `i₀` is i with the coordinates of stride-0 leaves set to 0 (only the
/// other leaves are read); a collision of two offsets is reported as a
/// refutation naming both indices.
///
/// # Errors
/// [`Error::BudgetExceeded`] past `budget` work units (the first pass runs
/// on its own 2^16 on top); [`Error::Overflow`] when a stride of R or an
/// intermediate leaves range.
pub(crate) fn search_left_inverse(
    s: &[i64],
    d: &[i64],
    index: &[i64],
    budget: i64,
) -> Result<Found> {
    search_with(s, d, index, budget, VECTORS_AFTER)
}

/// [`search_left_inverse`] with the vector cut first run after
/// `vectors_after` points of a node's scan (tests run it at once).
fn search_with(
    s: &[i64],
    d: &[i64],
    index: &[i64],
    budget: i64,
    vectors_after: usize,
) -> Result<Found> {
    let leaves: Vec<(i64, i64, i64)> = (0..s.len())
        .filter(|&k| s[k] > 1 && d[k] != 0)
        .map(|k| (s[k], d[k], index[k]))
        .collect();
    if leaves.is_empty() {
        return build(&[1], &[0], 0, false).map(Found::Inverse);
    }
    if let Some((x, i, j)) = pair_collision(&leaves).or_else(|| triple_collision(&leaves)) {
        return Ok(Found::Refuted(not_injective(x, i, j)));
    }
    let points = Points::new(&leaves);
    let (min, max) = (points.min, points.max);
    // A carry-free R whose strides leave i64 is not the only candidate: the
    // search decides then.
    if let Some((chain, strides)) = carry_free::carry_free(&leaves) {
        if let Ok(r) = build(&chain, &strides, max, false) {
            return Ok(Found::Inverse(r));
        }
    }
    // Then one borrow per place value, cancelled (`borrow.rs`).
    if let Some((chain, strides)) = borrow::with_borrows(&leaves) {
        if let Ok(r) = build(&chain, &strides, max, false) {
            return Ok(Found::Inverse(r));
        }
    }
    let mut search = Search {
        target: Target::new(&leaves)?,
        points,
        budget: Budget::new(budget),
        max,
        negative: min < 0,
        reach: max.saturating_add(1).max(min.saturating_neg()),
        deepest: None,
        lowest: 0,
        primes: vec![2, 3],
        digits: SmallVec::new(),
        hints: Hints::new(&leaves),
        vectors: None,
        rank_two: match leaves[..] {
            [l0, l1] => Some([l0, l1]),
            _ => None,
        },
        vectors_after,
    };
    let mut chain = vec![1i64];
    if let Some(strides) = search.hinted_pass(&mut chain) {
        return build(&chain, &strides, max, min < 0).map(Found::Inverse);
    }
    let found = search.descend(&mut chain, &Solutions::default(), 0)?;
    if let Some((x, i, j)) = search.points.collision {
        return Ok(Found::Refuted(not_injective(x, i, j)));
    }
    match found {
        Some(strides) => build(&chain, &strides, max, min < 0).map(Found::Inverse),
        None => Ok(Found::Refuted(search.witness())),
    }
}

fn not_injective(x: i64, i: i64, j: i64) -> String {
    format!("not injective: L({i}) = L({j}) = {x}")
}

/// A collision of a rank-2 L, decided in O(1): `(u, v)·(d₀, d₁) = 0` has
/// the primitive solutions `±(d₁/g, −d₀/g)`, so two coordinates share an
/// offset iff `|d₁/g| < s₀` and `|d₀/g| < s₁`; the two coordinates are the
/// positive and the negative part of that vector.
fn pair_collision(leaves: &[(i64, i64, i64)]) -> Option<(i64, i64, i64)> {
    let &[(s0, d0, i0), (s1, d1, i1)] = leaves else {
        return None;
    };
    let g = i128::from(num_integer::gcd(d0.unsigned_abs(), d1.unsigned_abs()));
    let (u, v) = (i128::from(d1) / g, -(i128::from(d0) / g));
    if u.abs() >= i128::from(s0) || v.abs() >= i128::from(s1) {
        return None;
    }
    // |u| < s0 and |v| < s1: each part is a coordinate of L.
    let (a, b) = (u.max(0) as i64, v.max(0) as i64); // the positive part
    let (a2, b2) = ((-u).max(0) as i64, (-v).max(0) as i64); // the negative part
    let (i, j) = (a * i0 + b * i1, a2 * i0 + b2 * i1);
    Some((a * d0 + b * d1, i.min(j), i.max(j)))
}

/// A collision of a rank-3 L, decided in O(min extent): with `w` the
/// coordinate difference along the leaf of least extent, the other two
/// differences solve `u·d_a + v·d_b = −w·d_k`, empty unless
/// `g = gcd(d_a, d_b)` divides the right side, and otherwise the line
/// `(u₀, v₀) + t·(d_b/g, −d_a/g)`; a `t` with `|u| < s_a` and `|v| < s_b`
/// (and `(u, v, w) ≠ 0`) is a collision, whose positive and negative parts
/// are the two coordinates. `w ≥ 0` suffices (negate the vector). `None`
/// also when an intermediate leaves `i128` (the search then finds any
/// collision as it reads the points).
fn triple_collision(leaves: &[(i64, i64, i64)]) -> Option<(i64, i64, i64)> {
    let &[_, _, _] = leaves else {
        return None;
    };
    let k = (0..3).min_by_key(|&k| leaves[k].0)?;
    let (a, b) = match k {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    let [da, db, dk] = [a, b, k].map(|l| i128::from(leaves[l].1));
    let e = num_integer::Integer::extended_gcd(&da, &db);
    let (g, step) = (e.gcd, (db / e.gcd, -(da / e.gcd)));
    for w in 0..i128::from(leaves[k].0) {
        let rhs = (-w).checked_mul(dk)?;
        if rhs % g != 0 {
            continue;
        }
        let base = ((rhs / g).checked_mul(e.x)?, (rhs / g).checked_mul(e.y)?);
        let (lo_a, hi_a) = steps_within(base.0, step.0, i128::from(leaves[a].0) - 1)?;
        let (lo_b, hi_b) = steps_within(base.1, step.1, i128::from(leaves[b].0) - 1)?;
        let (lo, hi) = (lo_a.max(lo_b), hi_a.min(hi_b));
        // At w = 0 the base is the zero vector: take a t ≠ 0.
        let Some(t) = (lo..=hi).find(|&t| w != 0 || t != 0) else {
            continue;
        };
        let mut diff = [0i128; 3];
        diff[a] = t.checked_mul(step.0)?.checked_add(base.0)?;
        diff[b] = t.checked_mul(step.1)?.checked_add(base.1)?;
        diff[k] = w;
        return collision_of(leaves, diff);
    }
    None
}

/// The integers `t` with `|c + t·p| <= m` (`p ≠ 0`), as an inclusive range
/// (empty when `lo > hi`): `−m − c <= t·p <= m − c`, divided by `p` (the
/// bounds swap when `p < 0`). `None` on overflow.
fn steps_within(c: i128, p: i128, m: i128) -> Option<(i128, i128)> {
    let (below, above) = (m.checked_neg()?.checked_sub(c)?, m.checked_sub(c)?);
    let (low, high) = if p > 0 {
        (below, above)
    } else {
        (above, below)
    };
    let floor = |a: i128| num_integer::Integer::div_floor(&a, &p);
    Some((floor(low.checked_neg()?).checked_neg()?, floor(high)))
}

/// The two coordinates whose difference is `diff` (its positive and its
/// negative part) when both lie in L's box and have one offset: that
/// offset and their two indices, least first.
fn collision_of(leaves: &[(i64, i64, i64)], diff: [i128; 3]) -> Option<(i64, i64, i64)> {
    let (mut x, mut y, mut i, mut j) = (0i128, 0i128, 0i128, 0i128);
    for (&(s, d, idx), &u) in leaves.iter().zip(&diff) {
        if u.abs() >= i128::from(s) {
            return None;
        }
        let (pos, neg) = (u.max(0), (-u).max(0));
        let (d, idx) = (i128::from(d), i128::from(idx));
        x = x.checked_add(pos * d)?; // |pos|, |neg| < s: each product < 2^126
        y = y.checked_add(neg * d)?;
        i = i.checked_add(pos * idx)?;
        j = j.checked_add(neg * idx)?;
    }
    if x != y {
        return None;
    }
    let [x, i, j] = [x, i, j].map(i64::try_from);
    let (x, i, j) = (x.ok()?, i.ok()?, j.ok()?);
    Some((x, i.min(j), i.max(j)))
}

/// How a node's scan ended.
enum Scan {
    /// Lemma 7 leaves no strides below the top: the node and every child fail.
    Dead,
    /// Every point below the bound fits.
    Reached,
    /// Every non-negative point fits (no bound was reached).
    Exhausted,
    /// Some point below the bound fits no strides (the offset given).
    Failed(i64),
    /// The chain ending at the node, with these strides, is a left inverse.
    Verified(Vec<i128>),
}

/// A node's scan position and symbolic-check schedule.
struct Cursor {
    pos: usize,
    read: usize,
    next_check: usize,
    /// A non-negative point the node's determined strides fail at.
    known_fail: Option<i64>,
}

/// The depth-first search over prime chains.
struct Search {
    target: Target,
    points: Points,
    budget: Budget,
    /// The largest offset `M`.
    max: i64,
    /// Whether some offset is negative.
    negative: bool,
    /// With negative offsets, where chains stop: `S = max(M + 1, −min)`.
    reach: i64,
    /// The furthest non-negative point any refutation used.
    deepest: Option<(i64, i64)>,
    /// The lowest negative point any refutation used (0 if none).
    lowest: i64,
    /// The primes found so far, in order.
    primes: Vec<i64>,
    digits: SmallVec<[i64; 64]>,
    /// The first pass's place values (`hints.rs`): when not empty, only
    /// chains whose every place value divides one of them are tried.
    hints: Hints,
    /// Rank 2: the shortest difference vectors, for Lemma 7 far ahead
    /// (listed at the first cut, so searches that never need it skip it).
    vectors: Option<Vectors>,
    /// Rank 2: the two leaves `(extent, stride, index stride)`.
    rank_two: Option<[(i64, i64, i64); 2]>,
    /// Points a node's scan reads before the vector cut first runs.
    vectors_after: usize,
}

impl Search {
    fn spend(&mut self, n: i64) -> Result<()> {
        self.budget.spend(n)
    }

    /// Strides for a chain extending `chain` (its points below the top
    /// satisfied by `sols`, the points from `pos` on not yet read), or `None`
    /// when no extension works. On success `chain` holds the chain found.
    fn descend(
        &mut self,
        chain: &mut Vec<i64>,
        sols: &Solutions,
        pos: usize,
    ) -> Result<Option<Vec<i128>>> {
        self.spend(1)?;
        let top = *chain.last().unwrap_or(&1);
        let mut t = sols.clone();
        t.add_unknown();
        let mut cur = Cursor {
            pos,
            read: 0,
            next_check: FIRST_CHECK,
            known_fail: None,
        };
        // Without negative offsets a step past M is the head itself; with
        // them, the first step reaching S is the last one worth trying.
        let limit = if self.negative {
            self.reach / top + i64::from(self.reach % top != 0)
        } else {
            self.max / top
        };
        if limit < 2 {
            return self.finish(chain, t, cur);
        }
        // Lemma 7 needs a digit below the top.
        let mut blocks = (chain.len() > 1).then(|| Blocks::new(sols.clone()));
        let mut children: Vec<(i64, Solutions, usize)> = Vec::new();
        let mut negatives_tried = false;
        let mut vectors_at = self.vectors_after;
        let mut stop = top;
        let mut failed = false;
        let steps = self.hints.active().then(|| self.hints.steps(top));
        for n in 0.. {
            let Some(p) = self.candidate(steps.as_deref(), n)? else {
                break;
            };
            let Some(next) = top.checked_mul(p).filter(|_| p <= limit) else {
                break;
            };
            stop = next;
            match self.scan(chain, &mut t, &mut cur, Some(next), blocks.as_mut())? {
                Scan::Verified(strides) => return Ok(Some(strides)),
                Scan::Dead => return Ok(None),
                Scan::Failed(y) => {
                    stop = y;
                    failed = true;
                    break;
                }
                Scan::Exhausted if !self.negative => return Ok(Some(t.particular)),
                Scan::Exhausted if !negatives_tried => {
                    negatives_tried = true;
                    if let Some(strides) = self.negatives(chain, t.clone(), cur.pos)? {
                        return Ok(Some(strides));
                    }
                }
                _ => {}
            }
            // Not in the first pass: its chains are few, and listing the
            // vectors costs O(s₀) (found inverses skip it).
            if cur.read >= vectors_at && !self.hints.active() {
                vectors_at = vectors_at.saturating_mul(4);
                if let Some(b) = blocks.as_mut() {
                    if !self.vector_cut(chain, b)? {
                        return Ok(None);
                    }
                }
            }
            children.push((next, t.clone(), cur.pos));
            if self.negative && next >= self.reach {
                break;
            }
        }
        // Lemma 7 past the scan: a contradiction there kills every child
        // (the first pass, with few children, looks less far ahead).
        if let Some(b) = blocks.as_mut() {
            let factor = if self.hints.active() {
                2
            } else if self.rank_two.is_some() {
                LOOKAHEAD_FACTOR_RANK_TWO
            } else {
                LOOKAHEAD_FACTOR
            };
            let bound = stop.saturating_mul(factor);
            if !self.blocks_beyond(chain, b, cur.pos, bound)? {
                return Ok(None);
            }
        }
        if self.hints.active() {
            children.reverse(); // the longest step first: fewer nodes to a hint
        }
        for (next, state, at) in children {
            chain.push(next);
            if let Some(found) = self.descend(chain, &state, at)? {
                return Ok(Some(found));
            }
            chain.pop();
        }
        // The first pass skips place values, so the chain may also end here
        // (the full pass reaches that chain through its children, Lemma 4).
        if self.hints.active() && !failed {
            return self.finish(chain, t, cur);
        }
        Ok(None)
    }

    /// The n-th step tried at a node: the n-th prime in the full pass, the
    /// n-th of the first pass's `steps` toward L's numbers.
    fn candidate(&mut self, steps: Option<&[i64]>, n: usize) -> Result<Option<i64>> {
        match steps {
            Some(steps) => Ok(steps.get(n).copied()),
            None => self.prime(n).map(Some),
        }
    }

    /// The chain ends at its top: every remaining point, then the negative ones.
    fn finish(
        &mut self,
        chain: &[i64],
        mut t: Solutions,
        mut cur: Cursor,
    ) -> Result<Option<Vec<i128>>> {
        match self.scan(chain, &mut t, &mut cur, None, None)? {
            Scan::Verified(strides) => Ok(Some(strides)),
            Scan::Failed(_) | Scan::Reached | Scan::Dead => Ok(None),
            Scan::Exhausted if self.negative => self.negatives(chain, t, cur.pos),
            Scan::Exhausted => Ok(Some(t.particular)),
        }
    }

    /// Reads the non-negative points from `cur.pos` below `bound` (all of them
    /// for `None`) into `t` with the digits of `chain` and a head at its top.
    fn scan(
        &mut self,
        chain: &[i64],
        t: &mut Solutions,
        cur: &mut Cursor,
        bound: Option<i64>,
        mut blocks: Option<&mut Blocks>,
    ) -> Result<Scan> {
        if let Some(z) = cur.known_fail {
            if bound.is_none_or(|b| z < b) {
                return Ok(Scan::Failed(z));
            }
        }
        loop {
            let Some((x, i)) = self.points.get(cur.pos, &mut self.budget)? else {
                return Ok(Scan::Exhausted);
            };
            if bound.is_some_and(|b| x >= b) {
                return Ok(Scan::Reached);
            }
            self.spend(chain.len() as i64)?;
            digits_of(x, chain, &mut self.digits);
            if !t.constrain(&self.digits, i)? {
                let high = t.high;
                self.used_both(x, i, high);
                return Ok(Scan::Failed(x));
            }
            t.note(x, i);
            if let Some(b) = blocks.as_deref_mut() {
                if !self.block_equation(chain, b, x, i)? {
                    return Ok(Scan::Dead);
                }
            }
            cur.pos += 1;
            cur.read += 1;
            if cur.read >= cur.next_check && t.is_determined() {
                cur.next_check = cur.next_check.saturating_mul(2);
                match self.check(chain, &t.particular)? {
                    Verdict::Holds => return Ok(Scan::Verified(t.particular.clone())),
                    Verdict::Fails(z, zi) if z >= 0 => {
                        // z is above every point read, and the strides are
                        // forced: every child reaching past z fails there.
                        let high = t.high;
                        self.used_both(z, zi, high);
                        cur.known_fail = Some(z);
                        if bound.is_none_or(|b| z < b) {
                            return Ok(Scan::Failed(z));
                        }
                    }
                    Verdict::Fails(z, _) if bound.is_none() => {
                        // A negative point: refutes this whole chain (not its children).
                        let high = t.high;
                        if let Some((y, yi)) = high {
                            self.used(y, yi);
                        }
                        self.negative_failure(cur.pos, Some(z));
                        return Ok(Scan::Failed(z));
                    }
                    _ => {}
                }
            }
        }
    }

    /// The symbolic check of the chain ending at its top with these strides.
    fn check(&mut self, chain: &[i64], strides: &[i128]) -> Result<Verdict> {
        self.spend(CHECK_COST + chain.len() as i64)?;
        // The corners first: a failure there costs no composition.
        let mut fail: Option<(i64, i64)> = None;
        for n in 0..self.target.corners.len() {
            let (x, i) = self.target.corners[n];
            digits_of(x, chain, &mut self.digits);
            let mut value = 0i128;
            for (&dg, &r) in self.digits.iter().zip(strides) {
                value = value.saturating_add(i128::from(dg).saturating_mul(r));
            }
            if value != i128::from(i) {
                // The smallest non-negative failure bounds the children best.
                if fail.is_none_or(|(y, _)| y < 0) {
                    fail = Some((x, i));
                }
                if x >= 0 {
                    break;
                }
            }
        }
        if let Some((x, i)) = fail {
            return Ok(Verdict::Fails(x, i));
        }
        let Ok(r) = build(chain, strides, self.max, self.negative) else {
            return Ok(Verdict::Unsettled);
        };
        // The composition is charged what its value stages spend (up to
        // what is left), on top of CHECK_COST: a check that evaluates much
        // cannot run past the search's budget.
        let (verdict, spent) = self.target.verify(&r, self.budget.left);
        self.spend(spent)?;
        Ok(verdict)
    }

    /// The n-th prime, by trial division by the smaller primes, each charged.
    fn prime(&mut self, n: usize) -> Result<i64> {
        while self.primes.len() <= n {
            let mut c = self.primes[self.primes.len() - 1] + 2;
            'next: loop {
                for k in 1..self.primes.len() {
                    let q = self.primes[k];
                    self.spend(1)?;
                    if q * q > c {
                        break;
                    }
                    if c % q == 0 {
                        c += 2;
                        continue 'next;
                    }
                }
                break;
            }
            self.primes.push(c);
        }
        Ok(self.primes[n])
    }
}

/// The digits of `x` for place values `chain` (the last one unbounded), by
/// floor division, so negative offsets get the integer extension's digits.
/// One division per place value, top first: the head is `⌊x/E_m⌋`, the rest
/// `x mod E_m ≥ 0`, and each lower digit divides what the higher ones left
/// (the greedy mixed-radix digits, each below its extent).
fn digits_of(x: i64, chain: &[i64], out: &mut SmallVec<[i64; 64]>) {
    out.clear();
    let Some((&top, below)) = chain.split_last() else {
        return;
    };
    debug_assert_eq!(chain[0], 1, "a chain starts at E₀ = 1");
    // A chain has at most 64 place values (each step at least doubles); a
    // copy of zeros is one memcpy where `resize` pushes one at a time.
    const ZEROS: [i64; 64] = [0; 64];
    out.extend_from_slice(&ZEROS[..chain.len()]);
    out[below.len()] = x.div_euclid(top);
    let mut rest = x.rem_euclid(top).unsigned_abs(); // in [0, top)
    for (k, &e) in below.iter().enumerate().skip(1).rev() {
        let e = e.unsigned_abs();
        out[k] = (rest / e) as i64; // below top / e ≤ i64::MAX
        rest %= e;
    }
    if !below.is_empty() {
        out[0] = rest as i64; // E₀ = 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_match_the_definition() {
        // Invariant: digit k of x is ⌊x/E_k⌋ mod (E_{k+1}/E_k), the head ⌊x/E_m⌋ (floor division, negative x too) / Witness: every chain of steps 2..=5 up to depth 4, x in −400..400, and x near i64::MIN and MAX.
        let mut chains = vec![vec![1i64]];
        for depth in 0..4 {
            let grown: Vec<Vec<i64>> = chains
                .iter()
                .filter(|c| c.len() == depth + 1)
                .flat_map(|c| (2..=5).map(move |p| [&c[..], &[c[depth] * p]].concat()))
                .collect();
            chains.extend(grown);
        }
        let mut out = SmallVec::new();
        let extremes = [i64::MIN, i64::MIN + 1, i64::MAX - 1, i64::MAX];
        for chain in &chains {
            for x in (-400..400).chain(extremes) {
                digits_of(x, chain, &mut out);
                let m = chain.len() - 1;
                let mut want: Vec<i64> = (0..m)
                    .map(|k| x.div_euclid(chain[k]).rem_euclid(chain[k + 1] / chain[k]))
                    .collect();
                want.push(x.div_euclid(chain[m]));
                assert_eq!(out.as_slice(), want.as_slice(), "{chain:?} x={x}");
            }
        }
    }

    #[test]
    fn budget_is_charged() {
        // Invariant: the search never spends past its budget / Witness: a charge of budget + 1.
        let mut b = Budget::new(3);
        assert!(b.spend(3).is_ok());
        let err = b.spend(1).expect_err("past the budget");
        assert!(matches!(
            err,
            Error::BudgetExceeded {
                needed: 4,
                budget: 3,
                ..
            }
        ));
        // No budget at all: the first charge fails, nothing panics.
        assert!(Budget::new(-5).spend(1).is_err());
    }

    #[test]
    fn the_vector_cut_changes_no_decision() {
        // Invariant: the search with Lemma 7 by difference vectors at every node (from its first point) decides as the search with it late, and what it finds holds at every index / Witness: every rank-2 layout with extents 2..=6 and strides −6..=14 (the cut fires on small layouts only when run at once).
        let leaves: Vec<(i64, i64)> = (2..=6)
            .flat_map(|s| (-6..=14).filter(|&d| d != 0).map(move |d| (s, d)))
            .collect();
        let (mut found, mut refused) = (0, 0);
        for &(s0, d0) in &leaves {
            for &(s1, d1) in &leaves {
                let (s, d, index) = ([s0, s1], [d0, d1], [s1, 1]);
                let at_once = search_with(&s, &d, &index, 1 << 22, 0).expect("decided");
                let late = search_with(&s, &d, &index, 1 << 22, VECTORS_AFTER).expect("decided");
                match (at_once, late) {
                    (Found::Inverse(r), Found::Inverse(_)) => {
                        for (a, b) in (0..s0).flat_map(|a| (0..s1).map(move |b| (a, b))) {
                            let x = a * d0 + b * d1;
                            assert_eq!(r.eval(x).expect("defined"), a * s1 + b, "{s:?}:{d:?} {r}");
                        }
                        found += 1;
                    }
                    (Found::Refuted(_), Found::Refuted(_)) => refused += 1,
                    _ => panic!("{s:?}:{d:?}: the vector cut changed the decision"),
                }
            }
        }
        assert!(found > 100 && refused > 100, "{found} {refused}");
        let cuts = vectors::CUTS.with(|c| c.get());
        assert!(cuts > 100, "the cut fired {cuts} times");
    }

    #[test]
    fn rank_two_collisions_are_exact() {
        // Invariant: pair_collision names two coordinates with one offset iff one exists / Witness: (1024,1024):(100,3) collides at 300 = 3·100 = 100·3; (64,64):(100,3) is injective.
        let c = pair_collision(&[(1024, 100, 1024), (1024, 3, 1)]).expect("collides");
        assert_eq!(c, (300, 100, 3 * 1024));
        assert!(pair_collision(&[(64, 100, 64), (64, 3, 1)]).is_none());
        let n = pair_collision(&[(4, -2, 4), (4, 3, 1)]).expect("3·(-2) + 2·3 = 0");
        assert_eq!(n, (0, 0, 3 * 4 + 2));
    }

    /// Whether two coordinates of the rank-3 box share an offset, by
    /// listing every offset.
    fn collides(leaves: &[(i64, i64, i64)]) -> bool {
        let mut seen = std::collections::HashSet::new();
        let [(s0, d0, _), (s1, d1, _), (s2, d2, _)] = leaves[..] else {
            unreachable!()
        };
        for a in 0..s0 {
            for b in 0..s1 {
                for c in 0..s2 {
                    if !seen.insert(a * d0 + b * d1 + c * d2) {
                        return true;
                    }
                }
            }
        }
        false
    }

    #[test]
    fn rank_three_collisions_are_exact() {
        // Invariant: triple_collision names two coordinates of one offset iff two exist (brute force over every offset) / Witness: (4,3,2):(3,-2,5) has 2·3 + 3·(-2) = 0.
        let mut found = 0;
        for s in [[2, 3, 4], [4, 3, 2], [3, 5, 2], [5, 2, 3]] {
            for d0 in -6i64..=6 {
                for d1 in -6i64..=6 {
                    for d2 in [-5i64, -1, 1, 2, 4, 7] {
                        if d0 == 0 || d1 == 0 {
                            continue;
                        }
                        let index = [s[1] * s[2], s[2], 1];
                        let leaves: Vec<_> =
                            (0..3).map(|k| (s[k], [d0, d1, d2][k], index[k])).collect();
                        let got = triple_collision(&leaves);
                        assert_eq!(got.is_some(), collides(&leaves), "{leaves:?}: {got:?}");
                        if let Some((x, i, j)) = got {
                            found += 1;
                            assert!(i < j, "{leaves:?}");
                            for idx in [i, j] {
                                let c = [idx / index[0], idx / index[1] % s[1], idx % s[2]];
                                let off: i64 = (0..3).map(|k| c[k] * leaves[k].1).sum();
                                assert_eq!(off, x, "{leaves:?} at {idx}");
                            }
                        }
                    }
                }
            }
        }
        assert!(found > 1000, "{found}");
    }
}
