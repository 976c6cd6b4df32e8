//! The value stage: a leaf of B that fails divisibility is rebuilt from A's
//! values (the coalesced form of a layout function is unique, so the greedy
//! rebuild is forced), and a carry the witness could not refute is settled by
//! checking every coordinate. Every evaluation is charged to a [`Budget`].

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::Layout;

use super::radix::{eval_pairs, Pairs, Radix};
use super::witness::{carries_at, carry_error, mismatch};
use super::{refusal, unit_index, ComposePath, Images, Part};

/// Appends the image of B's leaf `k` when divisibility failed: `2:A(β)` for
/// two points, else the layout rebuilt from its values, or the refutation.
pub(super) fn leaf_by_values(
    a: &Layout,
    b: &Layout,
    k: usize,
    images: &mut Images,
    budget: &mut Budget,
    path: &mut ComposePath,
) -> Result<()> {
    let (e, st) = (b.shape_leaves()[k], b.stride_leaves()[k]);
    if e == 2 {
        images.push((2, a.eval(st)?));
        return Ok(());
    }
    match leaf_from_values(a, e, st, budget)? {
        Ok(image) => {
            *path = ComposePath::Values;
            images.extend_from_slice(&image);
            Ok(())
        }
        Err((t, early)) => {
            *path = if early {
                ComposePath::Witness
            } else {
                ComposePath::Values
            };
            let rule = "A composed with this leaf alone is not a layout function";
            Err(refusal(
                a,
                b,
                rule,
                k,
                None,
                unit_index(b.shape_leaves(), k, t),
            ))
        }
    }
}

/// Rebuilds `g(t) = A(t·β)`, `t < b`, as a coalesced layout from its values, or
/// returns the first `t` where no layout fits, and whether that was found before
/// the final sweep (refuted by the first `m + 1` values alone). Greedy is exact:
/// in a coalesced layout the fastest extent is the first `m` with
/// `g(m) ≠ m·g(1)`, so it must divide the extent. ≤ 2b evaluations, each
/// charged to `budget` (b when the whole leaf is one extent: the greedy
/// scan has then compared every value).
fn leaf_from_values(
    a: &Layout,
    b: i64,
    beta: i64,
    budget: &mut Budget,
) -> Result<std::result::Result<Pairs, (i64, bool)>> {
    // Charged per evaluation, so an early refutation never waits on the budget.
    let mut g = |t: i64| {
        spend(budget, 1)?;
        a.eval(t * beta) // t·β ≤ B's validated span
    };
    let mut out = Pairs::new();
    let (mut unit, mut remaining) = (1i64, b);
    // One leaf found at unit 1 has compared every t < b with t·g(1) (and
    // g(0) = A(0) = 0): the sweep below would only repeat it.
    let mut swept = false;
    while remaining > 1 {
        let delta = g(unit)?;
        let mut m = 2;
        while m < remaining && Some(g(m * unit)?) == m.checked_mul(delta) {
            m += 1;
        }
        if m == remaining {
            out.push((remaining, delta));
            swept = unit == 1;
            break;
        }
        if remaining % m != 0 {
            return Ok(Err((m * unit, unit == 1)));
        }
        out.push((m, delta));
        unit *= m;
        remaining /= m;
    }
    if !swept {
        for t in 0..b {
            if Some(g(t)?) != eval_pairs(&out, t) {
                return Ok(Err((t, false)));
            }
        }
    }
    Ok(Ok(out))
}

/// Checks `A(B(c)) = Σ gₖ(cₖ)` at every coordinate of B's nontrivial leaves.
pub(super) fn check_everywhere(
    a: &Layout,
    b: &Layout,
    parts: &[Part],
    images: &Images,
    radix: &Radix,
    budget: &mut Budget,
) -> Result<()> {
    let points = parts
        .iter()
        .try_fold(1i64, |acc, q| acc.checked_mul(q.extent))
        .unwrap_or(i64::MAX);
    spend(budget, points)?;
    let mut ts: SmallVec<[i64; 8]> = SmallVec::from_elem(0, parts.len());
    loop {
        if let Some(index) = mismatch(a, b, parts, images, &ts)? {
            let p = radix
                .boundaries()
                .find(|&p| carries_at(parts, &ts, p))
                .unwrap_or(1);
            return Err(carry_error(a, b, parts, &ts, p, index));
        }
        // Odometer over the parts, last (fastest) first.
        let mut k = parts.len();
        loop {
            if k == 0 {
                return Ok(());
            }
            k -= 1;
            ts[k] += 1;
            if ts[k] < parts[k].extent {
                break;
            }
            ts[k] = 0;
        }
    }
}

/// Evaluations of A the value-based stages may still spend.
pub(super) struct Budget {
    limit: i64,
    spent: i64,
}

impl Budget {
    pub(super) fn new(limit: i64) -> Budget {
        Budget { limit, spent: 0 }
    }

    /// Evaluations charged so far.
    pub(super) fn spent(&self) -> i64 {
        self.spent
    }
}

/// Charges `n` evaluations to the fallback budget; past it, the error reports
/// the total the computation would need so far against the whole budget.
fn spend(budget: &mut Budget, n: i64) -> Result<()> {
    let total = budget.spent.saturating_add(n);
    if total > budget.limit {
        return Err(Error::BudgetExceeded {
            what: "compose's value-based fallback",
            needed: total,
            budget: budget.limit,
        });
    }
    budget.spent = total;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compose_within_reports_and_bounds_its_evaluations() {
        // Invariant: compose_within answers as compose given enough evaluations, reports what its value stages spent, and answers BudgetExceeded below that (the left inverse's symbolic check charges it) / Witness: (2,2):(-3,-3) ∘ 4:3 = (2,2):(-9,-6), decided by values.
        use super::super::{compose_within, COMPOSE_FALLBACK_BUDGET};
        use crate::layout::Layout;
        let a: Layout = "(2,2):(-3,-3)".parse().expect("valid");
        let b: Layout = "4:3".parse().expect("valid");
        let (r, spent) = compose_within(&a, &b, COMPOSE_FALLBACK_BUDGET);
        assert_eq!(r.expect("composes"), a.compose(&b).expect("composes"));
        assert!(spent > 0, "{spent}");
        assert_eq!(compose_within(&a, &b, spent).1, spent);
        assert!(matches!(
            compose_within(&a, &b, spent - 1).0,
            Err(Error::BudgetExceeded { .. })
        ));
    }

    #[test]
    fn budget_refuses_past_its_limit() {
        // Invariant: the value stages never exceed COMPOSE_FALLBACK_BUDGET / Witness: a charge of budget + 1.
        let mut budget = Budget::new(5);
        assert!(spend(&mut budget, 5).is_ok());
        assert!(matches!(
            spend(&mut budget, 1),
            Err(Error::BudgetExceeded {
                needed: 6,
                budget: 5,
                ..
            })
        ));
    }

    #[test]
    fn greedy_rebuild_is_forced() {
        // Invariant: a layout function's coalesced form is found from its values / Witness: A(t·1) on (3,4):(1,3).
        let a: Layout = "(3,4):(1,3)".parse().expect("valid");
        let mut budget = Budget::new(100);
        let image = leaf_from_values(&a, 12, 1, &mut budget).expect("evaluates");
        assert_eq!(image, Ok(smallvec::smallvec![(4, 3), (3, 1)]));
        let bad: Layout = "(10,10):(1,10)".parse().expect("valid");
        assert_eq!(
            leaf_from_values(&bad, 25, 1, &mut budget).expect("evaluates"),
            Err((10, true))
        );
    }
}
