//! The exact fallback for values: bounded residue enumeration, or a walk of the grid.
//!
//! Only the bent groups that survived cancellation matter: the rest of the
//! composed map is affine. Their members' sum `f(x) = Σ D_a·⌊x/Q_a⌋` is affine
//! along the grid iff every unit step has one difference: for each coordinate
//! `q`, `f(x + c_q) − f(x)` is the same at every grid point with `i_q < ext_q − 1`.
//! That difference depends on `x mod Q*` only (`Q*` the largest member modulus,
//! which every `Q_a` divides), so it is enough to check it on the set `R_q` of
//! residues the grid reaches. `R_q` is a sumset built one coordinate at a time,
//! each a sliding window along the cycles of `+c mod Q*`: O(Q*) per coordinate.
//!
//! Cost: O(r²·Q* + r·Q*·a) for residues (`a` members), O(numel·g) for the walk;
//! [`decide`] takes the cheaper. Both are exact.

use num_integer::Integer;

use super::crossing::{defect_sum, Group};
use super::grid::Grid;
use crate::num::floor::{div_floor, mod_floor};

/// Largest `Q*` for which residue sets are allocated.
const MAX_RESIDUE_MODULUS: i128 = 1 << 26;

/// How the fallback decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    /// Residue sets modulo the largest surviving modulus.
    Residues,
    /// Every grid point.
    Walk,
}

/// What the fallback found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Whether the map is affine, and how that was found.
    Decided(bool, Method),
    /// Only a walk of this many points (past [`super::MAX_WALKED_POINTS`]) could tell.
    TooLarge(i128),
}

/// Whether the surviving bent groups leave the map affine on `grid`, and how
/// that was found; a walk visits at most `budget` points.
pub(crate) fn decide(groups: &[Group], grid: &Grid, budget: i64) -> Outcome {
    let modulus = groups
        .iter()
        .flat_map(|g| g.members.iter().map(|m| m.modulus))
        .max()
        .unwrap_or(1);
    let members: usize = groups.iter().map(|g| g.members.len()).sum();
    let r = grid.rank() as f64;
    let residue_cost = (r * r + r * members as f64) * modulus as f64;
    let walk_cost = grid.numel() * groups.len() as f64;
    if modulus <= MAX_RESIDUE_MODULUS && residue_cost < walk_cost {
        Outcome::Decided(by_residues(groups, grid, modulus), Method::Residues)
    } else if grid.numel() > budget as f64 {
        Outcome::TooLarge(grid.full().volume())
    } else {
        Outcome::Decided(by_walk(groups, grid), Method::Walk)
    }
}

/// `G ≡ 0` on every grid point.
fn by_walk(groups: &[Group], grid: &Grid) -> bool {
    let mut zero = true;
    grid.full().for_each(|i| {
        zero = defect_sum(groups, i) == 0;
        zero
    });
    zero
}

fn by_residues(groups: &[Group], grid: &Grid, modulus: i128) -> bool {
    let f = |y: i128| -> i128 {
        groups
            .iter()
            .flat_map(|g| &g.members)
            .map(|m| m.defect * div_floor(y, m.modulus))
            .sum()
    };
    let q = usize::try_from(modulus).unwrap_or(usize::MAX);
    let start = mod_floor(grid.offset, modulus);
    (0..grid.rank()).all(|step| {
        let c = i128::from(grid.stride[step]);
        let want = f(start + c) - f(start);
        let mut set = vec![false; q];
        set[start as usize] = true;
        for (k, (&e, &s)) in grid.ext.iter().zip(&grid.stride).enumerate() {
            let count = if k == step { e - 1 } else { e };
            set = sumset(&set, mod_floor(s.into(), modulus) as usize, count);
        }
        set.iter()
            .enumerate()
            .filter(|(_, &hit)| hit)
            .all(|(y, _)| f(y as i128 + c) - f(y as i128) == want)
    })
}

/// `{y + m·step mod Q : y ∈ set, 0 <= m < count}` with `Q = set.len()`.
fn sumset(set: &[bool], step: usize, count: i64) -> Vec<bool> {
    let q = set.len();
    if step == 0 || count <= 1 {
        return set.to_vec();
    }
    let g = step.gcd(&q);
    let len = q / g;
    let count = usize::try_from(count).map_or(len, |c| c.min(len));
    let mut out = vec![false; q];
    for s in 0..g {
        // The cycle s, s+step, s+2·step, …; out at cycle position p is set when old
        // is set at one of the positions p, p−1, …, p−count+1 (cyclically).
        let pos = |p: usize| (s + (p % len) * step) % q;
        let mut last_hit: Option<usize> = None;
        for p in 0..len + count - 1 {
            if set[pos(p + len - (count - 1))] {
                last_hit = Some(p);
            }
            if p + 1 >= count && last_hit.is_some_and(|h| h + count > p) {
                out[pos(p + len - (count - 1))] = true;
            }
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing test may panic
mod tests {
    use super::*;

    // Invariant: the sliding-window sumset equals the direct definition.
    #[test]
    fn sumset_matches_definition() {
        for q in 1..=12usize {
            for step in 0..q {
                for count in 1..=14i64 {
                    let mut set = vec![false; q];
                    for y in (0..q).step_by(5) {
                        set[y] = true;
                    }
                    let mut want = vec![false; q];
                    for (y, _) in set.iter().enumerate().filter(|(_, &b)| b) {
                        for m in 0..count as usize {
                            want[(y + m * step) % q] = true;
                        }
                    }
                    assert_eq!(
                        sumset(&set, step, count),
                        want,
                        "q={q} step={step} count={count}"
                    );
                }
            }
        }
    }
}
