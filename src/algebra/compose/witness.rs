//! The witness stage: bounds on the residues of B's leaves at each boundary of
//! A (no carry possible below the boundary), and, where a carry is possible,
//! the one coordinate that maximises every residue: evaluating A there either
//! refutes every R or leaves the question to the value stage.

use num_integer::Integer;
use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::Layout;

use super::radix::eval_pairs;
use super::{flat_suffix, refusal, ComposePath, Images, Part};

/// Upper bound of `Σₖ max_t (t·βₖ mod p)`; below `p` means no carry at `p`.
pub(super) fn residue_bound_sum(parts: &[Part], p: i64) -> i64 {
    parts.iter().fold(0i64, |acc, q| {
        acc.saturating_add(residue_bound(q.extent, q.stride, q.structural, p))
    })
}

/// Upper bound of `max_{t<b} (t·β mod p)`, exact for structural leaves.
fn residue_bound(b: i64, beta: i64, structural: bool, p: i64) -> i64 {
    if structural {
        // The leaf's values are multiples of β; no boundary lies in (Pⱼ, β],
        // and past (b−1)·β they cover every multiple of β below p, which
        // β divides: exact maxima without division.
        if p <= beta {
            0
        } else if p > (b - 1) * beta {
            (b - 1) * beta
        } else {
            p - beta
        }
    } else {
        let m = beta.rem_euclid(p);
        if m == 0 {
            0
        } else if (b - 1).checked_mul(m).is_some_and(|v| v < p) {
            (b - 1) * m
        } else {
            p - m.gcd(&p)
        }
    }
}

/// The `t < b` maximising `t·β mod p`, when it is cheap to find exactly.
fn argmax_residue(beta: i64, b: i64, p: i64) -> Option<i64> {
    let m = beta.rem_euclid(p);
    if m == 0 {
        return Some(0);
    }
    if (b - 1).checked_mul(m).is_some_and(|v| v < p) {
        return Some(b - 1);
    }
    let g = m.gcd(&p);
    let n = p / g;
    if b < n {
        return None;
    }
    // t·(m/g) ≡ n−1 (mod n): t = (n−1)·(m/g)⁻¹ mod n.
    let inv = (m / g).extended_gcd(&n).x.rem_euclid(n);
    Some(((i128::from(n - 1) * i128::from(inv)) % i128::from(n)) as i64)
}

/// Evaluates the coordinate that maximises every residue at boundary `p`;
/// `Some(error)` when the values there contradict every R.
pub(super) fn witness(
    a: &Layout,
    b: &Layout,
    parts: &[Part],
    images: &Images,
    p: i64,
    path: &mut ComposePath,
) -> Result<Option<Error>> {
    let mut ts: SmallVec<[i64; 8]> = SmallVec::new();
    for q in parts {
        match argmax_residue(q.stride, q.extent, p) {
            Some(t) => ts.push(t),
            None => return Ok(None),
        }
    }
    if *path == ComposePath::Structural {
        *path = ComposePath::Witness;
    }
    Ok(mismatch(a, b, parts, images, &ts)?.map(|index| carry_error(a, b, parts, &ts, p, index)))
}

/// `Some(index)` when `A(B(c)) ≠ Σ gₖ(cₖ)` at the coordinate `ts` (one entry per part).
pub(super) fn mismatch(
    a: &Layout,
    b: &Layout,
    parts: &[Part],
    images: &Images,
    ts: &[i64],
) -> Result<Option<i64>> {
    let (mut x, mut sum, mut index) = (0i64, Some(0i64), 0i64);
    let suffix = flat_suffix(b.shape_leaves());
    for (q, &t) in parts.iter().zip(ts) {
        x += t * q.stride; // within B's validated span
        sum = sum.and_then(|s| s.checked_add(eval_pairs(&images[q.image.clone()], t)?));
        index += t * suffix[q.leaf];
    }
    Ok((Some(a.eval(x)?) != sum).then_some(index))
}

/// The leaf whose residue at boundary `p` (added fastest leaf first) makes the
/// coordinate `ts` carry there.
pub(super) fn carry_error(
    a: &Layout,
    b: &Layout,
    parts: &[Part],
    ts: &[i64],
    p: i64,
    index: i64,
) -> Error {
    let mut acc = 0i64;
    let mut culprit = parts.last().map_or(0, |q| q.leaf);
    for (q, &t) in parts.iter().zip(ts).rev() {
        acc = acc.saturating_add((t * q.stride).rem_euclid(p));
        if acc >= p {
            culprit = q.leaf;
            break;
        }
    }
    let rule = "the leaves of B carry across a mode boundary of A";
    refusal(a, b, rule, culprit, Some(p), index)
}

pub(super) fn carries_at(parts: &[Part], ts: &[i64], p: i64) -> bool {
    let sum = parts.iter().zip(ts).fold(0i64, |acc, (q, &t)| {
        acc.saturating_add((t * q.stride).rem_euclid(p))
    });
    sum >= p
}
