//! Carry-free chains: a left inverse read off L's strides, before any search
//! (`docs/algebra.md` §7, closed form 3).
//!
//! Take L's leaves `s_j : d_j` (all strides positive) and a divisor chain
//! `1 = E₀ | E₁ | … | E_m`. When no level ever receives a carry while the
//! leaves' offsets are added, that is, at every level `E = E_k`
//!
//! ```text
//! Σ_j (s_j − 1)·(d_j mod E) < E,
//! ```
//!
//! then for every coordinate c of L, `x = Σ_j c_j·d_j` has `x mod E =
//! Σ_j c_j·(d_j mod E)` and `⌊x/E⌋ = Σ_j c_j·⌊d_j/E⌋` at each level, so each
//! digit of x is the same combination of the digits of the strides:
//! `δ_k(x) = Σ_j c_j·δ_k(d_j)`. A layout `R = Σ_k r_k·δ_k` on that chain
//! is then a left inverse exactly when `Σ_k r_k·δ_k(d_j) = ι_j` for every
//! leaf (ι_j its index stride): one integer system with a row per leaf.
//!
//! **The levels.** With `M = Σ_j (s_j − 1)·d_j` (L's largest offset), the
//! sum above is `M − E·Σ_j (s_j − 1)·⌊d_j/E⌋`, so E qualifies iff
//! `E·(1 + Σ_j (s_j − 1)·⌊d_j/E⌋) > M`. Where every quotient `⌊d_j/E⌋` is
//! constant (at most `2·Σ_j √d_j` blocks of E), that is one bound, so the
//! qualifying levels up to M are a union of intervals, listed in
//! O(rank·Σ_j √d_j). Above `max d_j` every quotient is 0 and nothing up to M
//! qualifies; above M nothing changes a point's digits.
//!
//! **The chains.** Refining a chain by a qualifying level keeps every
//! equation solvable (the old digit is a combination of the two new ones), so
//! only the maximal chains of qualifying levels are tried, each by one
//! elimination per leaf ([`Solutions`]).
//!
//! **Halving a leaf.** When L's own leaves have no such chain, each leaf
//! `s:d` (s ≥ 3) in turn is written `(⌈s/2⌉, 2):(2d, d)` and the search
//! repeated: the split box contains L's, and an odd stride whose multiples
//! carry into a place value 2 may not carry once its parity is a leaf.
//!
//! This finds more than half of the inverses the search finds on random
//! rank-2 and rank-3 layouts, in microseconds; it refuses nothing. Past its bounds
//! (more than [`MAX_BLOCKS`] quotient blocks, [`MAX_LEVELS`] levels,
//! [`MAX_CHAINS`] chains or [`MAX_VISITS`] chain prefixes) it gives up and
//! the search decides.

use smallvec::SmallVec;

use super::digits_of;
use super::lattice::Solutions;

/// Most blocks of constant quotients walked per attempt: enough for every
/// stride up to 2^14 in rank 2 (at most `2·√d` blocks per leaf). Each block
/// costs two divisions per leaf, so larger strides give up after about 0.1M
/// instructions per attempt (one attempt, plus one per leaf halved).
pub(super) const MAX_BLOCKS: usize = 1 << 9;

/// Most qualifying levels kept (runs of consecutive levels are common:
/// 64 found 13 fewer of 222 inverses in the random families).
pub(super) const MAX_LEVELS: usize = 512;

/// Most maximal chains tried, over all attempts: 64 found 3 more of the
/// random families' 222 inverses, but tripled what `(8,8):(100,3)` (found
/// by the search) pays for the attempts.
const MAX_CHAINS: usize = 16;

/// Most chain prefixes visited, over all attempts.
const MAX_VISITS: usize = 128;

/// A chain of qualifying levels and integer strides with `R(L(c)) = index(c)`
/// at every coordinate, for leaves `(extent, stride, index stride)` with
/// every stride positive and extent at least 2; `None` when no such chain is
/// found within the bounds (or a stride is not positive). Cost: listing the
/// levels, their covers at each chain prefix visited (see [`covers_of`]),
/// then O(rank·levels²) per chain tried.
pub(super) fn carry_free(leaves: &[(i64, i64, i64)]) -> Option<(Vec<i64>, Vec<i128>)> {
    if leaves.iter().any(|&(s, d, _)| d <= 0 || s < 2) {
        return None;
    }
    // One count for every attempt: the bounds are the whole stage's.
    let mut count = Count::default();
    if let Some(found) = on_leaves(leaves, &mut count) {
        return Some(found);
    }
    (0..leaves.len()).find_map(|j| on_leaves(&halved(leaves, j)?, &mut count))
}

/// Leaf j `s:d` (index stride ι) split in two, `⌈s/2⌉ : 2d` (index stride
/// 2ι) and `2 : d` (ι): the coordinate `c = 2β + ε`. The split box holds
/// L's (one more coordinate when s is odd), with the same offset and index
/// at each of L's coordinates, so an R carry-free on it inverts L too; the
/// parity of c becomes a leaf of its own, which a chain step of 2 can read
/// (`(67,613):(2,249)`, where `249·b` is odd for odd b). `None` for s ≤ 2 or
/// when `2d` or `2ι` leaves `i64`.
fn halved(leaves: &[(i64, i64, i64)], j: usize) -> Option<SmallVec<[(i64, i64, i64); 9]>> {
    let (s, d, index) = leaves[j];
    if s <= 2 {
        return None;
    }
    let mut out: SmallVec<[(i64, i64, i64); 9]> = SmallVec::from_slice(leaves);
    out[j] = ((s + 1) / 2, d.checked_mul(2)?, index.checked_mul(2)?);
    out.push((2, d, index));
    Some(out)
}

/// The carry-free search on these leaves as they are.
fn on_leaves(leaves: &[(i64, i64, i64)], count: &mut Count) -> Option<(Vec<i64>, Vec<i128>)> {
    let mut nodes = vec![1i64];
    nodes.extend(levels(leaves)?);
    let walk = Walk {
        leaves,
        nodes: &nodes,
    };
    walk.first(&mut vec![0usize], count)
}

/// The levels that follow `top` directly in some chain: its multiples with
/// no other multiple of `top` dividing them (indices into `nodes`, which
/// increase). With `k = f/top`, f is such a cover iff no listed multiple
/// `top·a` has `a | k`, `1 < a < k`. On a dense list (more than
/// `2·√k_max` multiples) whose quotients stay below [`SIEVE_MAX`], a sieve
/// over them marks the multiples of each cover in turn (the covers are
/// visited in increasing order, and a marked quotient is no cover):
/// O(multiples + Σ k_max/a over the covers a). Otherwise each f is compared
/// with the multiples up to f/2: O(multiples²) at worst.
pub(super) fn covers_of(top: i64, nodes: &[i64]) -> SmallVec<[usize; 16]> {
    // The multiples start at 2·top (`nodes` increase): no division below.
    let from = nodes.partition_point(|&f| f / 2 < top);
    let multiples: SmallVec<[(usize, i64); 16]> = nodes[from..]
        .iter()
        .enumerate()
        .filter(|&(_, &f)| f % top == 0)
        .map(|(k, &f)| (from + k, f))
        .collect();
    let Some(&(_, last)) = multiples.last() else {
        return SmallVec::new();
    };
    // The sieve costs about k_max·ln ln k_max, the pairwise test up to
    // multiples²/2: sieve dense lists only.
    let (k_max, m) = (last / top, multiples.len() as i64);
    if k_max <= SIEVE_MAX && m * m > 4 * k_max {
        return sieved(top, &multiples, k_max);
    }
    let divided = |f: i64| {
        multiples
            .iter()
            .take_while(|&&(_, h)| h <= f / 2)
            .any(|&(_, h)| f % h == 0)
    };
    multiples
        .iter()
        .filter(|&&(_, f)| !divided(f))
        .map(|&(k, _)| k)
        .collect()
}

/// Largest quotient `f/top` [`covers_of`] sieves (a bitmap of 512 bytes).
const SIEVE_MAX: i64 = 1 << 12;

/// [`covers_of`] by a sieve over the quotients `2..=k_max`.
fn sieved(top: i64, multiples: &[(usize, i64)], k_max: i64) -> SmallVec<[usize; 16]> {
    let mut marked = [0u64; (SIEVE_MAX as usize) / 64 + 1];
    let is_marked = |m: &[u64], k: usize| m[k / 64] >> (k % 64) & 1 == 1;
    let mut out = SmallVec::new();
    for &(index, f) in multiples {
        let a = (f / top) as usize; // 2 ≤ a ≤ k_max ≤ SIEVE_MAX
        if is_marked(&marked, a) {
            continue;
        }
        out.push(index);
        for k in (2 * a..=k_max as usize).step_by(a) {
            marked[k / 64] |= 1 << (k % 64);
        }
    }
    out
}

/// The maximal chains of qualifying levels, walked depth first.
struct Walk<'a> {
    leaves: &'a [(i64, i64, i64)],
    /// 1, then the qualifying levels, increasing.
    nodes: &'a [i64],
}

/// Chains tried and prefixes visited so far.
#[derive(Default)]
struct Count {
    chains: usize,
    visits: usize,
}

impl Walk<'_> {
    /// The first maximal chain extending `chain` (indices into `nodes`)
    /// whose system has an integer solution, pruned; `None` when none is
    /// found within the bounds.
    fn first(&self, chain: &mut Vec<usize>, count: &mut Count) -> Option<(Vec<i64>, Vec<i128>)> {
        count.visits += 1;
        if count.visits > MAX_VISITS || count.chains >= MAX_CHAINS {
            return None;
        }
        let covers = covers_of(self.nodes[*chain.last()?], self.nodes);
        if covers.is_empty() {
            count.chains += 1;
            let values: Vec<i64> = chain.iter().map(|&k| self.nodes[k]).collect();
            let strides = solve(self.leaves, &values)?;
            return Some(pruned(values, strides, |c| solve(self.leaves, c)));
        }
        for next in covers {
            chain.push(next);
            if let Some(found) = self.first(chain, count) {
                return Some(found);
            }
            chain.pop();
        }
        None
    }
}

/// The levels `2 ≤ E ≤ M` without carries, increasing; `None` past the
/// bounds. Two `u64` divisions per leaf and block, one wide one per block.
fn levels(leaves: &[(i64, i64, i64)]) -> Option<Vec<i64>> {
    let mut max = 0u128; // M = Σ (s − 1)·d, checked (each term < 2^126)
    for &(s, d, _) in leaves {
        max = max.checked_add(u128::from(s.unsigned_abs() - 1) * u128::from(d.unsigned_abs()))?;
    }
    let widest = leaves.iter().map(|l| l.1.unsigned_abs()).max()?;
    let top = u64::try_from(max).map_or(widest, |m| m.min(widest));
    let mut out = Vec::new();
    let mut e = 2u64;
    for _ in 0..MAX_BLOCKS {
        if e > top {
            return Some(out);
        }
        // The block [e, hi] keeps every quotient ⌊d/E⌋ of ⌊d/e⌋.
        let (mut hi, mut weight) = (top, 1u128);
        for &(s, d, _) in leaves {
            let d = d.unsigned_abs();
            let q = d / e;
            if let Some(last) = d.checked_div(q) {
                hi = hi.min(last); // the last E with ⌊d/E⌋ = q
            }
            weight += u128::from(s.unsigned_abs() - 1) * u128::from(q); // ≤ M/2 + 1
        }
        // E·weight > M within the block: E from ⌊M/weight⌋ + 1 on.
        let from = u64::try_from(max / weight + 1).unwrap_or(u64::MAX);
        for v in e.max(from)..=hi {
            if out.len() == MAX_LEVELS {
                return None;
            }
            out.push(i64::try_from(v).ok()?);
        }
        e = hi + 1;
    }
    None
}

/// The chain with every level but the first dropped, from the top down,
/// whose removal leaves `solve` solvable (a sub-chain of a carry-free chain,
/// or of a chain with borrows, is again one): the answer prints with fewer
/// leaves. O(levels) systems.
pub(super) fn pruned<T: Copy>(
    mut chain: Vec<T>,
    mut strides: Vec<i128>,
    solve: impl Fn(&[T]) -> Option<Vec<i128>>,
) -> (Vec<T>, Vec<i128>) {
    for k in (1..chain.len()).rev() {
        let level = chain.remove(k);
        match solve(&chain) {
            Some(fewer) => strides = fewer,
            None => chain.insert(k, level),
        }
    }
    (chain, strides)
}

/// Strides r with `Σ_k r_k·δ_k(d_j) = ι_j` for every leaf, if any.
fn solve(leaves: &[(i64, i64, i64)], chain: &[i64]) -> Option<Vec<i128>> {
    let mut sols = Solutions::unconstrained(chain.len());
    let mut digits = SmallVec::new();
    for &(_, d, index) in leaves {
        digits_of(d, chain, &mut digits);
        if !sols.constrain(&digits, index).ok()? {
            return None;
        }
    }
    Some(sols.particular)
}

/// Test support for the level listings: every rank-2 layout with extents
/// `2..=max_extent` and strides 1..=40, and a family of rank 3, as leaves.
#[cfg(test)]
pub(super) fn level_cases(max_extent: i64) -> Vec<Vec<(i64, i64, i64)>> {
    let mut cases: Vec<Vec<(i64, i64, i64)>> = Vec::new();
    for s0 in 2..=max_extent {
        for s1 in 2..=max_extent {
            for d0 in 1..=40 {
                for d1 in 1..=40 {
                    cases.push(vec![(s0, d0, s1), (s1, d1, 1)]);
                }
            }
        }
    }
    for d in 1..=30 {
        cases.push(vec![(3, 7 * d, 12), (2, 5 * d + 1, 6), (6, d, 1)]);
    }
    cases
}

/// A chain of place values and its digit strides, as the chain stages return them.
#[cfg(test)]
pub(super) type ChainStrides = (Vec<i64>, Vec<i128>);

/// A chain stage: leaves `(extent, stride, index stride)` to a chain, if any.
#[cfg(test)]
pub(super) type ChainStage = fn(&[(i64, i64, i64)]) -> Option<ChainStrides>;

/// Test support for the chain stages (this one and `borrow.rs`): runs
/// `stage` on every rank-2 layout with extents 2..=6 and strides 1..=30,
/// on `extra` rank-2 layouts `[s0, s1, d0, d1]` and on 20,000 rank-3 layouts
/// with extents 2..=4 (row-major index strides), checks every chain it
/// returns at every coordinate (`R(L(c)) = index(c)`), and returns how many
/// it answered in rank 2 and in rank 3.
#[cfg(test)]
pub(super) fn check_families(stage: ChainStage, extra: &[[i64; 4]]) -> (usize, usize) {
    let eval = |chain: &[i64], strides: &[i128], x: i64| -> i128 {
        let mut digits = SmallVec::new();
        digits_of(x, chain, &mut digits);
        digits
            .iter()
            .zip(strides)
            .map(|(&g, &r)| i128::from(g) * r)
            .sum()
    };
    let mut cases: Vec<[i64; 4]> = Vec::new();
    for s0 in 2..=6 {
        for s1 in 2..=6 {
            for d0 in 1..=30 {
                for d1 in 1..=30 {
                    cases.push([s0, s1, d0, d1]);
                }
            }
        }
    }
    cases.extend_from_slice(extra);
    let mut found = (0, 0);
    for [s0, s1, d0, d1] in cases {
        let leaves = [(s0, d0, s1), (s1, d1, 1)];
        let Some((chain, strides)) = stage(&leaves) else {
            continue;
        };
        found.0 += 1;
        for (a, b) in (0..s0).flat_map(|a| (0..s1).map(move |b| (a, b))) {
            let x = a * d0 + b * d1;
            assert_eq!(
                eval(&chain, &strides, x),
                i128::from(a * s1 + b),
                "({s0},{s1}):({d0},{d1}) chain {chain:?} strides {strides:?} at ({a},{b})"
            );
        }
    }
    for n in 0..20_000i64 {
        let s = [2 + n % 3, 2 + n / 3 % 3, 2 + n / 9 % 3];
        let d = [1 + n * 7 % 24, 1 + n * 11 % 23, 1 + n * 5 % 19];
        let leaves = [
            (s[0], d[0], s[1] * s[2]),
            (s[1], d[1], s[2]),
            (s[2], d[2], 1),
        ];
        let Some((chain, strides)) = stage(&leaves) else {
            continue;
        };
        found.1 += 1;
        for c in 0..s[0] * s[1] * s[2] {
            let (a, b, e) = (c / (s[1] * s[2]), c / s[2] % s[1], c % s[2]);
            let x = a * d[0] + b * d[1] + e * d[2];
            assert_eq!(
                eval(&chain, &strides, x),
                i128::from(c),
                "{leaves:?} {chain:?}"
            );
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_are_the_multiples_with_nothing_between() {
        // Invariant: covers_of(top, nodes) lists exactly the f in nodes with top | f, f > top, and no h in nodes with top | h, h | f, top < h < f / Witness: brute force for every top in nodes, over 300 pseudo-random increasing lists in 2..=400 (and 1 first), dense and sparse, and the same draws with the values past 1 times 11 (quotients up to 4,400: past SIEVE_MAX, the pairwise path).
        let mut seed = 7u64;
        for n in 0..600 {
            let mut nodes = vec![1i64];
            for v in 2..=400i64 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if (seed >> 33) % 10 < 1 + n / 2 % 9 {
                    nodes.push(if n % 2 == 0 { v } else { 11 * v });
                }
            }
            for &top in &nodes {
                let want: Vec<usize> = (0..nodes.len())
                    .filter(|&k| {
                        let f = nodes[k];
                        f > top
                            && f % top == 0
                            && !nodes
                                .iter()
                                .any(|&h| h > top && h < f && h % top == 0 && f % h == 0)
                    })
                    .collect();
                assert_eq!(covers_of(top, &nodes).to_vec(), want, "{top} {nodes:?}");
            }
        }
    }

    #[test]
    fn levels_are_exactly_the_carry_free_ones() {
        // Invariant: levels() lists exactly the E in 2..=M with Σ (s−1)·(d mod E) < E / Witness: brute force over every rank-2 layout with extents 2..=6 and strides 1..=40, and some of rank 3.
        let cases = level_cases(6);
        for leaves in cases {
            let max: i64 = leaves.iter().map(|&(s, d, _)| (s - 1) * d).sum();
            let want: Vec<i64> = (2..=max)
                .filter(|&e| {
                    leaves
                        .iter()
                        .map(|&(s, d, _)| (s - 1) * (d % e))
                        .sum::<i64>()
                        < e
                })
                .collect();
            assert_eq!(levels(&leaves), Some(want), "{leaves:?}");
        }
    }

    #[test]
    fn found_chains_invert_at_every_coordinate() {
        // Invariant: a chain the carry-free pass returns (on L's leaves, or with one leaf halved) satisfies R(L(c)) = index(c) at every coordinate of L / Witness: check_families (every rank-2 layout with extents 2..=6 and strides 1..=30, 20,000 rank-3 layouts with extents 2..=4; more than a thousand found of each rank), the sheared (796,130):(594,596) whose inverse is 130·⌊x/594⌋ − 129·(⌊x/2⌋ mod 297), and (67,613):(2,249), found only with 613 halved.
        let extra = [[796, 130, 594, 596], [67, 613, 2, 249]];
        let (found, found3) = check_families(carry_free, &extra);
        assert!(found > 1000 && found3 > 1000, "{found} {found3}");
        assert!(carry_free(&[(796, 594, 130), (130, 596, 1)]).is_some());
        let odd = [(67, 2, 613), (613, 249, 1)];
        assert!(on_leaves(&odd, &mut Count::default()).is_none() && carry_free(&odd).is_some());
    }
}
