//! The structural stage: CuTe's divisibility walk per leaf of B (mirrored) and
//! the carry bound across leaves, with no evaluation of A. Both the stack-only
//! fast path ([`super::fast`]) and the general procedure use these.

use crate::error::{self, Error, Result};

use super::radix::RadixView;
use super::Images;

/// The image `t ↦ A(t·β)` of one leaf of B found by divisibility, fastest
/// leaf first: `first`, then A's (normalised) leaves `whole` unchanged, then
/// `last` if any. Every leaf has extent ≥ 2.
#[derive(Clone, Copy, Debug)]
pub(super) struct Image {
    pub(super) first: (i64, i64),
    /// A range of A's leaves (`Range` is not `Copy`).
    pub(super) whole: (usize, usize),
    pub(super) last: Option<(i64, i64)>,
}

impl Image {
    /// The one-leaf image `b:d`.
    #[inline(always)]
    fn one(b: i64, d: i64) -> Image {
        Image {
            first: (b, d),
            whole: (0, 0),
            last: None,
        }
    }

    /// Number of leaves.
    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        1 + (self.whole.1 - self.whole.0) + usize::from(self.last.is_some())
    }

    /// Appends the leaves to `out`, fastest first.
    pub(super) fn write(&self, r: RadixView<'_>, out: &mut Images) {
        out.push(self.first);
        out.extend_from_slice(&r.leaves[self.whole.0..self.whole.1]);
        out.extend(self.last);
    }
}

/// `A ∘ (b:β)` for `β > 0` by divisibility: `Some(image)`, or `None` when a
/// test fails. With `Pⱼ ≤ β < Pⱼ₊₁`, `Pⱼ | β` is required ([`leaf_digit`]);
/// then either every value stays below the next boundary (`(b−1)·β < Pⱼ₊₁`,
/// or leaf j is the head: one leaf), or the image spreads over several leaves
/// of A ([`leaf_spread`]). This is CuTe's shape-division walk, mirrored and
/// relaxed where no carry can occur. The strides fit: `αⱼ·r` with
/// `r = β/Pⱼ < aⱼ` is at most A's span; only the head's `α_L·r` is checked.
/// O(leaves(A)) comparisons and at most three divisions.
#[inline(always)]
pub(super) fn leaf_structural(r: RadixView<'_>, b: i64, beta: i64) -> Result<Option<Image>> {
    let Some((j, rr)) = leaf_digit(r.place, beta) else {
        return Ok(None);
    };
    let Some(&(_, alpha_j)) = r.leaves.get(j) else {
        return Ok(Some(Image::one(b, head_stride(r.head, rr)?)));
    };
    if (b - 1) * beta < r.place[j + 1] {
        return Ok(Some(Image::one(b, alpha_j * rr))); // (b−1)·β is within B's validated span
    }
    Ok(leaf_spread(r, b, beta, j, rr))
}

/// `(j, β/Pⱼ)` for the leaf j of A that β starts in (`Pⱼ ≤ β < Pⱼ₊₁`;
/// `j = L` for the head), or `None` when `Pⱼ ∤ β`. `place` may carry padding
/// past `P_L` (see [`RadixView`]). O(L) comparisons, at most one division.
#[inline(always)]
pub(super) fn leaf_digit(place: &[i64], beta: i64) -> Option<(usize, i64)> {
    let j = place[1..].iter().take_while(|&&p| p <= beta).count();
    // Divisions are the cost here; skip them where the quotient is known.
    let rr = if j == 0 {
        beta
    } else if beta == place[j] {
        1
    } else {
        beta / place[j]
    };
    (rr * place[j] == beta).then_some((j, rr))
}

/// The head's stride `α_L·r` in an image, checked.
#[inline(always)]
pub(super) fn head_stride(head: i64, rr: i64) -> Result<i64> {
    error::mul(head, rr, "stride of a composition")
}

/// [`leaf_structural`] past one leaf (`Pⱼ ≤ β < Pⱼ₊₁ ≤ (b−1)·β`, `j < L`,
/// `r = β/Pⱼ`): `β | Pⱼ₊₁` is required, and `end = b·β`, lying in leaf `j'`
/// (`Pⱼ' < end ≤ Pⱼ'₊₁`), must be a multiple of `Pⱼ'` (the head has no upper
/// bound). CuTe also asks `end | Pⱼ'₊₁`, which no carry needs. Out of line:
/// most leaves take one leaf of A. At most two divisions.
#[inline(always)]
pub(super) fn leaf_spread(r: RadixView<'_>, b: i64, beta: i64, j: usize, rr: i64) -> Option<Image> {
    let (l, place) = (r.leaves.len(), r.place);
    let ((a_j, alpha_j), top) = (r.leaves[j], place[j + 1]);
    let avail = if rr == 1 { a_j } else { top / beta };
    let end = beta.checked_mul(b)?;
    if avail * beta != top {
        return None;
    }
    // A's leaves j+1..m lie wholly below `end`; leaf m (or the head) holds
    // its top digit, which stays below aₘ because end ≤ Pₘ₊₁: no carry.
    let m = j + 1 + place[j + 2..].iter().take_while(|&&p| p < end).count();
    let (q, d) = if m == l {
        (end / place[l], r.head)
    } else if end == place[m + 1] {
        r.leaves[m]
    } else {
        (end / place[m], r.leaves[m].1)
    };
    (q * place[m] == end).then_some(Image {
        first: (avail, alpha_j * rr),
        whole: (j + 1, m),
        last: Some((q, d)),
    })
}

/// `A ∘ (b:β)` for `β < 0`, by reflection, appended to `out` fastest first;
/// `false` (nothing appended) when the test below fails (the value stage
/// decides then). With `γ = −β`, `last = (b−1)·γ` and `x₀ = −last`: when `x₀`
/// is a multiple of the place value `Pₘ` of the first boundary above `last`
/// (or of the head's place value when none is), no digit of `x₀ + y`,
/// `0 ≤ y ≤ last`, carries, so `A(x₀ + y) = A(x₀) + A(y)`. Then
/// `A(t·β) = A(x₀) + h(b−1−t)` with `h(s) = A(s·γ)`, and when h is a layout
/// its digits complement (`h(b−1−t) = h(b−1) − h(t)`); `A(0) = 0` fixes the
/// constant, so `A(t·β) = −h(t)`: h's leaves with their strides negated.
/// O(leaves(A)), as [`leaf_structural`].
pub(super) fn leaf_reflected(
    r: RadixView<'_>,
    b: i64,
    beta: i64,
    out: &mut Images,
) -> Result<bool> {
    let Some(gamma) = beta.checked_neg() else {
        return Ok(false);
    };
    let last = (b - 1) * gamma; // B's validated span
    let l = r.leaves.len();
    let m = r.place[1..]
        .iter()
        .position(|&p| p > last)
        .map_or(l, |j| (j + 1).min(l)); // a padded place value is no boundary
    if last % r.place[m] != 0 {
        return Ok(false);
    }
    let Some(image) = leaf_structural(r, b, gamma)? else {
        return Ok(false);
    };
    let start = out.len();
    image.write(r, out);
    for leaf in &mut out[start..] {
        leaf.1 = leaf.1.checked_neg().ok_or(Error::Overflow {
            what: "stride of a composition",
        })?;
    }
    Ok(true)
}
