//! Chains with borrows: the carry-free closed form (`carry_free.rs`) with
//! one borrow allowed per place value, when the borrows cancel
//! (`docs/algebra.md` §7, closed form 4).
//!
//! Write each stride against a place value E with a *signed* residue,
//! `d_j = E·q̃_j + ρ_j`, where `ρ_j = d_j mod E` or `d_j mod E − E` (a
//! choice per leaf, the *pattern* P of leaves taking the negative one).
//! When the sum `S(c) = Σ_j c_j·ρ_j` stays in `[−E, E)` over L's box, then
//!
//! ```text
//! ⌊x/E⌋ = Σ_j c_j·q̃_j − [S(c) < 0]        for x = Σ_j c_j·d_j,
//! ```
//!
//! a linear function of the coordinate less one *borrow* indicator. The
//! indicator depends only on the direction of the vector ρ: place values
//! whose ρ are positive multiples of one primitive vector borrow at the
//! same coordinates. So a layout `R(x) = Σ_k u_k·⌊x/E_k⌋` on a chain of
//! such place values is a left inverse when, for every leaf,
//! `Σ_k u_k·q̃_j(E_k) = ι_j`, and for every direction, the `u_k` of its
//! place values sum to 0 (the borrows cancel). Sufficient, not necessary:
//! this stage answers or steps aside, it never refuses.
//!
//! Example: `(1011,189):(410,409)`, `x = 410·(a + b) − b`. Against 205 and
//! 410 the strides have `ρ = (0, −1)` (`409 = 2·205 − 1 = 410 − 1`) and `b`
//! borrows from both at once, so on `1 | 205 | 410`, with
//! `u = (188, −76891, 76891)`, `R(x) = 188·x − 76891·⌊x/205⌋ +
//! 76891·⌊x/410⌋` inverts L. The search needed 2^22 units (30 ms).
//!
//! The place values are listed like the carry-free levels, per block of
//! constant quotients `⌊d_j/E⌋`, where each pattern's two conditions
//! (`Σ_{j∉P} (s_j−1)·ρ_j < E` and `Σ_{j∈P} (s_j−1)·ρ_j ≥ −E`) are one lower
//! and one upper bound on E; each place value keeps the balanced pattern
//! (the residues nearest 0) when it qualifies, else one with the fewest
//! borrowing leaves. Only place values up to `max d_j` are listed (above it
//! every quotient is 0; those chains are left to the search, to keep the
//! list short). Rank at most [`MAX_RANK`]; the carry-free stage's bounds on
//! quotient blocks and place values apply, and this stage tries at most
//! [`MAX_CHAINS`] chains ([`MAX_VISITS`] prefixes).

use smallvec::SmallVec;

use super::carry_free::{covers_of, pruned, MAX_BLOCKS, MAX_LEVELS};
use super::lattice::Solutions;

/// Most leaves this stage takes (2^rank patterns per block of quotients).
const MAX_RANK: usize = 4;

/// Most maximal chains tried. Of the 73 inverses of the random families
/// (`prof_inverse family`, seeds 21–23) that the search found after more
/// than 20 µs, 4 chains answer 8 within 20 µs and 34 within 200 µs (2 and
/// 31 without this stage); 16 chains answer 9 and 35, but cost
/// `(8,8):(100,3)`, which the first pass finds, 80k instructions instead of
/// 44k.
const MAX_CHAINS: usize = 4;

/// Most chain prefixes visited.
const MAX_VISITS: usize = 8 * MAX_CHAINS;

/// A place value and its pattern (bit j: leaf j takes the negative residue).
type Level = (i64, u8);

/// A chain with borrows and its strides `r` (digit form, head last) with
/// `R(L(c)) = index(c)` at every coordinate, for leaves `(extent, stride,
/// index stride)` with every stride positive; `None` when none is found
/// within the bounds. Cost: O(2^rank·rank) per block of quotients listed,
/// then one small integer system per chain tried.
pub(super) fn with_borrows(leaves: &[(i64, i64, i64)]) -> Option<(Vec<i64>, Vec<i128>)> {
    if leaves.len() > MAX_RANK || leaves.iter().any(|&(s, d, _)| d <= 0 || s < 2) {
        return None;
    }
    // Each leaf splits the place values up to max d into at most 2·√d_j
    // blocks of constant quotient: past MAX_BLOCKS, give up at once.
    let blocks: u64 = leaves.iter().map(|l| 2 * l.1.unsigned_abs().isqrt()).sum();
    if blocks > MAX_BLOCKS as u64 {
        return None;
    }
    let mut nodes: Vec<Level> = vec![(1, 0)];
    nodes.extend(levels(leaves)?);
    let values: Vec<i64> = nodes.iter().map(|l| l.0).collect();
    let mut count = (0usize, 0usize); // chains tried, prefixes visited
    let found = first(leaves, &nodes, &values, &mut vec![0], &mut count)?;
    // Each level qualifies on its own, so a sub-chain is again a chain with
    // borrows.
    let (chain, u) = pruned(found.0, found.1, |c| solve(leaves, c));
    let place: Vec<i64> = chain.iter().map(|l| l.0).collect();
    let strides = digit_strides(&place, &u)?;
    Some((place, strides))
}

/// The first maximal chain extending `chain` (indices into `nodes`) whose
/// system solves: the chain and its coefficients `u`.
fn first(
    leaves: &[(i64, i64, i64)],
    nodes: &[Level],
    values: &[i64],
    chain: &mut Vec<usize>,
    count: &mut (usize, usize),
) -> Option<(Vec<Level>, Vec<i128>)> {
    count.1 += 1;
    if count.1 > MAX_VISITS || count.0 >= MAX_CHAINS {
        return None;
    }
    let covers = covers_of(values[*chain.last()?], values);
    if covers.is_empty() {
        count.0 += 1;
        let levels: Vec<Level> = chain.iter().map(|&k| nodes[k]).collect();
        let u = solve(leaves, &levels)?;
        return Some((levels, u));
    }
    for next in covers {
        chain.push(next);
        if let Some(found) = first(leaves, nodes, values, chain, count) {
            return Some(found);
        }
        chain.pop();
    }
    None
}

/// The coefficients `u` of `Σ_k u_k·⌊x/E_k⌋` with `Σ_k u_k·q̃_j(E_k) = ι_j`
/// for every leaf and `Σ u_k = 0` over the place values of each borrow
/// direction, if any. O(levels²·(rank + directions)).
fn solve(leaves: &[(i64, i64, i64)], chain: &[Level]) -> Option<Vec<i128>> {
    let mut sols = Solutions::unconstrained(chain.len());
    let mut row: SmallVec<[i64; 16]> = SmallVec::new();
    for (j, &(_, d, index)) in leaves.iter().enumerate() {
        row.clear();
        row.extend(chain.iter().map(|&(e, p)| d / e + i64::from(p >> j & 1)));
        if !sols.constrain(&row, index).ok()? {
            return None;
        }
    }
    let directions: SmallVec<[Option<SmallVec<[i64; MAX_RANK]>>; 16]> =
        chain.iter().map(|&l| direction(leaves, l)).collect();
    for (k, dir) in directions.iter().enumerate() {
        let Some(dir) = dir else { continue };
        if directions[..k].contains(&Some(dir.clone())) {
            continue; // its group's row is in already
        }
        row.clear();
        row.extend(
            directions
                .iter()
                .map(|o| i64::from(o.as_ref() == Some(dir))),
        );
        if !sols.constrain(&row, 0).ok()? {
            return None;
        }
    }
    Some(sols.particular)
}

/// The primitive direction of a borrowing level's signed residues `ρ`
/// (`None` when no leaf borrows: the level is carry free).
fn direction(leaves: &[(i64, i64, i64)], (e, p): Level) -> Option<SmallVec<[i64; MAX_RANK]>> {
    if p == 0 {
        return None;
    }
    let rho: SmallVec<[i64; MAX_RANK]> = leaves
        .iter()
        .enumerate()
        .map(|(j, &(_, d, _))| d % e - if p >> j & 1 == 1 { e } else { 0 })
        .collect();
    let g = rho
        .iter()
        .fold(0u64, |g, &r| num_integer::gcd(g, r.unsigned_abs()));
    Some(rho.iter().map(|&r| r / g as i64).collect()) // g ≥ 1: some ρ_j < 0
}

/// The strides of the digit form, `r_0 = u_0` and `r_k = u_k + e_{k−1}·r_{k−1}`
/// (so that `Σ_k r_k·δ_k = Σ_k u_k·⌊x/E_k⌋`); `None` when one leaves `i128`.
fn digit_strides(place: &[i64], u: &[i128]) -> Option<Vec<i128>> {
    let mut r: Vec<i128> = Vec::with_capacity(u.len());
    for (k, &uk) in u.iter().enumerate() {
        let carried = match k {
            0 => 0,
            _ => i128::from(place[k] / place[k - 1]).checked_mul(r[k - 1])?,
        };
        r.push(uk.checked_add(carried)?);
    }
    Some(r)
}

/// The place values `2 ≤ E ≤ max d_j` with some qualifying pattern,
/// increasing, each with the balanced pattern (leaf j borrows iff
/// `2·(d_j mod E) > E`) when it qualifies, else one of fewest borrowing
/// leaves; `None` past the bounds. (Balanced first answers, with 16
/// chains, 16 of the 73 inverses counted at [`MAX_CHAINS`]; fewest borrows
/// first, 15.)
fn levels(leaves: &[(i64, i64, i64)]) -> Option<Vec<Level>> {
    let top = leaves.iter().map(|l| l.1.unsigned_abs()).max()?;
    let rank = leaves.len();
    let mut out = Vec::new();
    let mut e = 2u64;
    for _ in 0..MAX_BLOCKS {
        if e > top {
            return Some(out);
        }
        let mut hi = top;
        let mut q: SmallVec<[u64; MAX_RANK]> = SmallVec::new();
        for &(_, d, _) in leaves {
            let d = d.unsigned_abs();
            q.push(d / e);
            if let Some(last) = d.checked_div(d / e) {
                hi = hi.min(last); // the last E with the same quotient
            }
        }
        // Per pattern, the place values of this block where it qualifies.
        let mut spans: SmallVec<[(u64, u64, u8); 16]> = SmallVec::new();
        for p in 0..(1u8 << rank) {
            let (lo, up) = bounds(leaves, &q, p);
            let (lo, up) = (lo.max(u128::from(e)), up.min(u128::from(hi)));
            if lo <= up {
                spans.push((lo as u64, up as u64, p)); // within [e, hi]
            }
        }
        // Where the balanced pattern (leaf j borrows iff 2·(d_j mod E) > E)
        // changes: after E = ⌊(2·d_j − 1)/(2·q_j + 1)⌋.
        let flips: SmallVec<[u64; MAX_RANK]> = leaves
            .iter()
            .zip(&q)
            .map(|(&(_, d, _), &qj)| (2 * d.unsigned_abs() - 1) / (2 * qj + 1) + 1)
            .collect();
        // Within the block `d mod v = d − v·q`: no division.
        let balanced = |v: u64| -> u8 {
            leaves
                .iter()
                .zip(&q)
                .enumerate()
                .fold(0u8, |p, (j, (&(_, d, _), &qj))| {
                    p | (u8::from(2 * (d.unsigned_abs() - v * qj) > v) << j)
                })
        };
        let mut v = e;
        while v <= hi {
            // The balanced pattern if it qualifies at v, else the fewest
            // borrowing leaves among the patterns covering v.
            let bal = balanced(v);
            let best = spans
                .iter()
                .filter(|&&(lo, up, _)| lo <= v && v <= up)
                .min_by_key(|&&(_, _, p)| (p != bal, p.count_ones(), p));
            let Some(&(_, up, p)) = best else {
                // Jump to the next span that starts after v.
                v = spans
                    .iter()
                    .map(|s| s.0)
                    .filter(|&lo| lo > v)
                    .min()
                    .unwrap_or(hi + 1);
                continue;
            };
            // Up to where another span starts or this one ends.
            let starts = spans.iter().map(|s| s.0).chain(flips.iter().copied());
            let end = starts.filter(|&lo| lo > v).fold(up, |m, lo| m.min(lo - 1));
            for w in v..=end {
                if out.len() == MAX_LEVELS {
                    return None;
                }
                out.push((i64::try_from(w).ok()?, p));
            }
            v = end + 1;
        }
        e = hi + 1;
    }
    None
}

/// The place values E (within a block of constant quotients `q`) where the
/// pattern p qualifies, as an inclusive range `[lo, up]` (empty when
/// `lo > up`): `Σ_{j∉p} (s_j−1)·(d_j − E·q_j) < E` gives
/// `E·(1 + Σ_{j∉p} (s_j−1)·q_j) > Σ_{j∉p} (s_j−1)·d_j`, and
/// `Σ_{j∈p} (s_j−1)·(d_j − E·(q_j+1)) ≥ −E` gives
/// `E·(Σ_{j∈p} (s_j−1)·(q_j+1) − 1) ≤ Σ_{j∈p} (s_j−1)·d_j`. Each sum is below
/// `2^126` (extents and strides below 2^63, at most 4 leaves).
fn bounds(leaves: &[(i64, i64, i64)], q: &[u64], p: u8) -> (u128, u128) {
    let (mut a, mut b, mut c, mut d) = (0u128, 1u128, 0u128, 0u128);
    for (j, (&(s, dj, _), &qj)) in leaves.iter().zip(q).enumerate() {
        let (w, dj) = (
            u128::from(s.unsigned_abs() - 1),
            u128::from(dj.unsigned_abs()),
        );
        if p >> j & 1 == 0 {
            a += w * dj;
            b += w * u128::from(qj);
        } else {
            c += w * (u128::from(qj) + 1);
            d += w * dj;
        }
    }
    let lo = a / b + 1;
    let up = match c {
        0 | 1 => u128::MAX,
        _ => d / (c - 1),
    };
    (lo, up)
}

#[cfg(test)]
mod tests {
    use super::super::carry_free::{check_families, level_cases};
    use super::*;

    /// Whether pattern p qualifies at E, by the definition.
    fn qualifies(leaves: &[(i64, i64, i64)], e: i64, p: u8) -> bool {
        let (mut lo, mut hi) = (0i64, 0i64);
        for (j, &(s, d, _)) in leaves.iter().enumerate() {
            let rho = d % e - if p >> j & 1 == 1 { e } else { 0 };
            if rho < 0 {
                lo += (s - 1) * rho;
            } else {
                hi += (s - 1) * rho;
            }
        }
        lo >= -e && hi < e
    }

    #[test]
    fn levels_are_exactly_the_qualifying_ones() {
        // Invariant: levels() lists exactly the E in 2..=max d with a qualifying pattern, each with the balanced pattern (leaf j borrows iff 2·(d_j mod E) > E) when it qualifies, else a qualifying one of fewest borrowing leaves / Witness: brute force over every rank-2 layout with extents 2..=5 and strides 1..=40, and a family of rank 3.
        let cases = level_cases(5);
        let mut borrowing = 0;
        for leaves in cases {
            let top = leaves.iter().map(|l| l.1).max().expect("leaves");
            let patterns = 1u8 << leaves.len();
            let want: Vec<Level> = (2..=top)
                .filter_map(|e| {
                    let balanced = (0..leaves.len())
                        .fold(0u8, |p, j| p | (u8::from(2 * (leaves[j].1 % e) > e) << j));
                    (0..patterns)
                        .filter(|&p| qualifies(&leaves, e, p))
                        .min_by_key(|&p| (p != balanced, p.count_ones(), p))
                        .map(|p| (e, p))
                })
                .collect();
            borrowing += want.iter().filter(|l| l.1 != 0).count();
            assert_eq!(levels(&leaves), Some(want), "{leaves:?}");
        }
        assert!(borrowing > 1000, "{borrowing}");
    }

    #[test]
    fn found_chains_invert_at_every_coordinate() {
        // Invariant: a chain with borrows satisfies R(L(c)) = index(c) at every coordinate of L / Witness: check_families (every rank-2 layout with extents 2..=6 and strides 1..=30, 20,000 rank-3 layouts with extents 2..=4; more than a thousand found of each rank), and (1011,189):(410,409) on 1 | 205 | 410.
        let (found, found3) = check_families(with_borrows, &[[1011, 189, 410, 409]]);
        assert!(found > 1000 && found3 > 1000, "{found} {found3}");
        let (chain, _) = with_borrows(&[(1011, 410, 189), (189, 409, 1)]).expect("borrows cancel");
        assert_eq!(chain, [1, 205, 410]);
    }
}
