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
//! [`decide`] takes the cheaper, each within the caller's budget (past it the
//! answer is "undecided", never a guess). Both are exact.

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
    /// Undecided: the cheaper method needs this much work (residue cells or
    /// grid points), past the budget, and the other one is no cheaper.
    TooLarge(Method, i128),
}

/// Whether the surviving bent groups leave the map affine on `grid`, and how
/// that was found. Both methods are bounded by `budget` work units: a walk
/// visits at most `budget` points, the residue sets touch at most `budget`
/// cells (`(r² + r·a)·Q*`, one unit each, as a walked point). The cheaper
/// method runs if it fits; otherwise the other one if it fits; otherwise
/// [`Outcome::TooLarge`] (never a guess).
pub(crate) fn decide(groups: &[Group], grid: &Grid, budget: i64) -> Outcome {
    let modulus = groups
        .iter()
        .flat_map(|g| g.members.iter().map(|m| m.modulus))
        .max()
        .unwrap_or(1);
    let budget = i128::from(budget);
    let residue_cost = residue_cells(groups, grid.rank(), modulus);
    let points = grid.full().volume();
    let walk_cost = points.saturating_mul(groups.len() as i128);
    let residues_fit = residue_cost <= budget;
    let walk_fits = points <= budget;
    let residues_first = modulus <= MAX_RESIDUE_MODULUS && residue_cost < walk_cost;
    if residues_first && residues_fit {
        Outcome::Decided(by_residues(groups, grid, modulus), Method::Residues)
    } else if walk_fits {
        Outcome::Decided(by_walk(groups, grid), Method::Walk)
    } else if residues_first {
        Outcome::TooLarge(Method::Residues, residue_cost)
    } else {
        Outcome::TooLarge(Method::Walk, points)
    }
}

/// Cells the residue sets touch: `(r² + r·a)·Q*` (`a` members), saturating.
fn residue_cells(groups: &[Group], rank: usize, modulus: i128) -> i128 {
    let members: usize = groups.iter().map(|g| g.members.len()).sum();
    let r = rank as i128;
    (r * r + r * members as i128).saturating_mul(modulus)
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
    use super::super::crossing::Wrap;
    use super::super::identity::Boundary;
    use super::*;
    use crate::num::Ints;

    /// One bent group per `(modulus, defect)`, each with the grid's own wrap.
    fn groups(grid: &Grid, members: &[(i128, i128)]) -> Vec<Group> {
        members
            .iter()
            .map(|&(modulus, defect)| Group {
                wrap: Wrap::new(modulus, grid.offset, &grid.stride),
                weight: defect,
                members: vec![Boundary { modulus, defect }],
            })
            .collect()
    }

    fn grid(offset: i128, ext: &[i64], stride: &[i64]) -> Grid {
        Grid {
            offset,
            ext: Ints::from_slice(ext),
            stride: Ints::from_slice(stride),
        }
    }

    // Invariant: under any budget, `decide` either agrees with the walk over
    // every grid point or answers TooLarge, and TooLarge only when neither
    // method fits; budget exhaustion is reached on the residue path.
    #[test]
    fn budget_keeps_the_answer_exact() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: i64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as i64
        };
        let (mut residues, mut too_large_residues) = (0, 0);
        for _ in 0..3000 {
            let rank = 1 + next(3) as usize;
            let ext: Vec<i64> = (0..rank).map(|_| 2 + next(40)).collect();
            let stride: Vec<i64> = (0..rank).map(|_| 1 + next(30)).collect();
            let g = grid(i128::from(next(50)), &ext, &stride);
            let q = i128::from(2 + next(12));
            // Nested moduli (q | q·k), opposite defects: not affine in general.
            let k = i128::from(1 + next(4));
            let members = [
                (q, i128::from(1 + next(5))),
                (q * k, -i128::from(1 + next(5))),
            ];
            let gs = groups(&g, &members);
            let truth = by_walk(&gs, &g);
            let cells = residue_cells(&gs, rank, q * k);
            let points = g.full().volume();
            for budget in [0, 8, 64, 500, 4096, i64::MAX] {
                match decide(&gs, &g, budget) {
                    Outcome::Decided(affine, method) => {
                        assert_eq!(affine, truth, "{ext:?} {stride:?} {members:?}");
                        residues += usize::from(method == Method::Residues);
                        let cost = if method == Method::Residues {
                            cells
                        } else {
                            points
                        };
                        assert!(cost <= i128::from(budget));
                    }
                    Outcome::TooLarge(method, needed) => {
                        assert!(cells > i128::from(budget) || q * k > MAX_RESIDUE_MODULUS);
                        assert!(points > i128::from(budget));
                        too_large_residues += usize::from(method == Method::Residues);
                        assert!(needed > i128::from(budget));
                    }
                }
            }
        }
        assert!(
            residues > 100 && too_large_residues > 100,
            "{residues} {too_large_residues}"
        );
    }

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
