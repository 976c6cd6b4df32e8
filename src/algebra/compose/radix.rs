//! A as a function on every integer, in mixed radix: its coalesced finite leaves
//! (fastest first), the unbounded head, and the place values where each leaf
//! carries into the next. Every stage of composition reads A through this form.

use smallvec::SmallVec;

use crate::layout::Layout;

/// Leaves as `(extent, stride)` pairs, fastest first.
pub(crate) type Pairs = SmallVec<[(i64, i64); 8]>;

/// A as a function on every integer: coalesced finite leaves (fastest first, extents
/// ≥ 2) below an unbounded head, and their place values `P₀ = 1, Pⱼ₊₁ = Pⱼ·aⱼ`.
pub(super) struct Radix {
    pub(super) leaves: Pairs,
    pub(super) head: i64,
    pub(super) place: SmallVec<[i64; 9]>,
}

impl Radix {
    /// `None` for a layout without leaves (defined at 0 only). O(leaves).
    pub(super) fn new(a: &Layout) -> Option<Radix> {
        let (s, d) = (a.shape_leaves(), a.stride_leaves());
        if s.is_empty() {
            return None;
        }
        let mut leaves: Pairs = SmallVec::from_elem((0, 0), s.len());
        let (n, head) = normalize_into(s, d, &mut leaves);
        leaves.truncate(n);
        let mut place: SmallVec<[i64; 9]> = SmallVec::from_elem(1, n + 1);
        place_values(&leaves, &mut place);
        Some(Radix {
            leaves,
            head,
            place,
        })
    }

    /// The boundaries `Pⱼ₊₁` (place value where leaf j carries into the next), ascending.
    pub(super) fn boundaries(&self) -> impl Iterator<Item = i64> + '_ {
        self.place[1..].iter().copied()
    }

    pub(super) fn view(&self) -> RadixView<'_> {
        RadixView {
            leaves: &self.leaves,
            place: &self.place,
            head: self.head,
        }
    }
}

/// A (flat leaves `s:d`, nonempty) on ℤ: its coalesced finite leaves, fastest
/// first, written to `out` (room for `s.len()`), and the head's stride.
/// Extent-1 leaves drop out except the first, whose stride matters past the
/// domain; a leaf merges into the next faster one when its stride continues it.
/// O(leaves); merged extents are at most `size(A)`.
#[inline(always)]
pub(super) fn normalize_into(s: &[i64], d: &[i64], out: &mut [(i64, i64)]) -> (usize, i64) {
    let mut finite = s[1..].iter().zip(&d[1..]).rev().filter(|(&e, _)| e != 1);
    let Some((&e, &st)) = finite.next() else {
        return (0, d[0]);
    };
    // The run being merged into, fastest leaf first.
    let (mut n, mut cur) = (0usize, (e, st));
    for (&e, &st) in finite {
        if cur.0.checked_mul(cur.1) == Some(st) {
            cur.0 *= e;
        } else {
            out[n] = cur;
            n += 1;
            cur = (e, st);
        }
    }
    if cur.0.checked_mul(cur.1) == Some(d[0]) {
        return (n, cur.1); // the head continues the run: it takes its stride
    }
    out[n] = cur;
    (n + 1, d[0])
}

/// Place values `P₀ = 1, Pⱼ₊₁ = Pⱼ·aⱼ` into `place` (room for `leaves + 1`;
/// entries past `P_L` untouched).
#[inline]
pub(super) fn place_values(leaves: &[(i64, i64)], place: &mut [i64]) {
    place[0] = 1;
    for (j, &(e, _)) in leaves.iter().enumerate() {
        place[j + 1] = place[j] * e; // ≤ size(A)
    }
}

/// A borrowed [`Radix`] (also built on the stack by the structural fast path).
#[derive(Clone, Copy)]
pub(super) struct RadixView<'a> {
    pub(super) leaves: &'a [(i64, i64)],
    /// `P₀ ..= P_L`, possibly followed by `i64::MAX` (the fast path pads its
    /// fixed array so that searches need no early exit).
    pub(super) place: &'a [i64],
    pub(super) head: i64,
}

/// `Σ` digit·stride of `t` over fastest-first leaves; `None` on overflow.
pub(super) fn eval_pairs(p: &[(i64, i64)], t: i64) -> Option<i64> {
    let (mut rest, mut acc) = (t, 0i64);
    for (k, &(e, d)) in p.iter().enumerate() {
        let digit = if k + 1 == p.len() { rest } else { rest % e };
        acc = acc.checked_add(digit.checked_mul(d)?)?;
        rest /= e;
    }
    Some(acc)
}
