//! The stack-only fast path of composition: the structural stage (see
//! [`super::structural`]) on fixed arrays for A and B of at most [`FAST`]
//! leaves and R of at most [`FAST`] leaves, with no heap allocation and no
//! wide arithmetic. Anything else (a negative stride, a leaf failing
//! divisibility, a possible carry, a larger R) hands over to the general
//! procedure, which applies the same tests first and so answers the same.
//!
//! One walk over B's leaves writes R's leaves and, as if B were flat, R's
//! brackets: an image of one leaf is a leaf, a longer one a nested tuple.
//! For an integer or flat B those brackets are R's; a nested B keeps its own
//! brackets when every image is one leaf, else they are spliced ([`splice`]).
//! The state is plain local arrays and counters (the compiler keeps them in
//! registers and in place, where it copied a struct holding them).
//!
//! **Bounds, proved once.** Every extent and stride of A and B fits a
//! validated layout, so `(b−1)·β` and its sum over B's leaves are bounded by
//! B's span, products of A's extents by `size(A)`, and each image stride by
//! A's span except the head's, which is checked (see
//! [`leaf_structural`](super::structural::leaf_structural)). R's span needs
//! no sum of its own when `span(B) < size(A)`: then every `B(i)` lies in A's
//! domain, R's offsets are some of A's, and R's span (max − min, which a
//! layout attains at extreme digits) is at most A's, which fits. Otherwise it
//! is summed with checks ([`span_fits`]). R has at most 8 leaves and at most
//! 4 nested images (each has ≥ 2 leaves), so its brackets number at most
//! `2 + 8 + 2·4 = 18`.

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::tuple::{Profile, Tok};

use super::radix::{normalize_into, place_values, RadixView};
use super::structural::{head_stride, leaf_digit, leaf_spread, Image};

/// Most leaves of A, of B and of R the fast path takes.
pub(super) const FAST: usize = 8;

/// R's bracket buffer (a profile's inline capacity).
const FAST_TOKS: usize = 24;

/// `A ∘ B` when the structural stage proves it on the stack: `Some(Ok(R))`,
/// `Some(Err(_))` when R's strides leave `i64`, `None` to hand over to the
/// general procedure. O(leaves(A) · leaves(B)), at most three divisions per
/// leaf of B, no allocation.
#[inline(always)]
pub(super) fn compose_fast(a: &Layout, b: &Layout) -> Option<Result<Layout>> {
    let (sa, da) = (a.shape_leaves(), a.stride_leaves());
    let (sb, db) = (b.shape_leaves(), b.stride_leaves());
    if sa.is_empty() || sa.len() > FAST || sb.len() > FAST {
        return None;
    }
    let mut leaves = [(0i64, 0i64); FAST];
    let (n, head) = normalize_into(sa, da, &mut leaves);
    // Padded past P_L with a place value no offset reaches, so that every
    // search stops by L + 1.
    let mut place = [i64::MAX; FAST + 2];
    place_values(&leaves[..n], &mut place);
    // R: leaves slowest first, and brackets as if B were flat (the next one
    // goes to `nl + 2·nested + outer`; the buffer starts as all leaves).
    let (mut shape, mut stride) = ([0i64; FAST], [0i64; FAST]);
    let mut toks = [Tok::Leaf; FAST_TOKS];
    let outer = usize::from(b.profile().toks() != [Tok::Leaf]);
    if outer == 1 {
        toks[0] = Tok::Open;
    }
    let (mut nl, mut nested) = (0usize, 0usize);
    // The carry test's sums ([`carry_free`]) and B's span.
    let (mut below, mut straddle) = ([0i64; FAST + 1], [0i64; FAST + 1]);
    let mut reach = 0i64;
    for (&e, &st) in sb.iter().zip(db) {
        // The leaf written last: the image's fastest.
        let leaf = if e == 1 || st == 0 {
            (e, 0)
        } else if st < 0 {
            return None;
        } else {
            let last = (e - 1) * st; // within B's validated span
            reach += last;
            // As `leaf_structural`, with the one-leaf images written in place.
            let (j, rr) = leaf_digit(&place, st)?;
            if j >= n {
                match head_stride(head, rr) {
                    Ok(d) => (e, d), // in the head: below no boundary
                    Err(err) => return Some(Err(err)),
                }
            } else if last < place[j + 1] {
                below[j] += last;
                (e, leaves[j].1 * rr)
            } else {
                let r = RadixView {
                    leaves: &leaves[..n],
                    place: &place,
                    head,
                };
                let image = leaf_spread(r, e, st, j, rr)?;
                let j_top = image.whole.1;
                below[j_top] += last;
                for i in j + 1..=j_top {
                    straddle[i] += place[i] - st; // < last: Pᵢ ≤ last
                }
                let (at, c) = (nl + 2 * nested + outer, image.len());
                (toks[at], toks[at + c + 1]) = (Tok::Open, Tok::Close); // < 18 (module docs)
                nl = write_spread(&mut shape, &mut stride, nl, image, r.leaves)?;
                nested += 1;
                image.first
            }
        };
        (*shape.get_mut(nl)?, stride[nl]) = leaf;
        nl += 1;
    }
    // The outer `)` now, far from the copy of the brackets below (a byte
    // store just before a wide load of it would stall store forwarding); a
    // nested B's splice never reads it.
    let nt = nl + 2 * nested + 2 * outer;
    if outer == 1 {
        toks[nt - 1] = Tok::Close;
    }
    if !carry_free(&place[..=n], &below, &straddle) {
        return None;
    }
    if reach >= a.size() && !span_fits(&shape[..nl], &stride[..nl]) {
        return Some(Err(Error::Overflow {
            what: "span of a composition",
        }));
    }
    // R's profile, written out here: a helper taking the brackets (by value
    // or by reference) measured 5–8 % slower.
    let btoks = b.profile().toks();
    let profile = if outer == 0 || btoks.len() == sb.len() + 2 {
        // An integer or flat B: the brackets written are R's.
        Profile::from_vec(SmallVec::from_buf_and_len(toks, nt))
    } else if nested > 0 {
        splice(btoks, &toks[1..])?
    } else {
        b.profile().clone()
    };
    Some(Ok(Layout::from_trusted_sized(
        profile,
        SmallVec::from_buf_and_len(shape, nl),
        SmallVec::from_buf_and_len(stride, nl),
        b.size(),
    )))
}

/// Writes an image spread over several leaves of A ([`leaf_spread`]) to R's
/// leaves from `nl`, slowest first, but for its fastest (`first`, written by
/// the caller): its `last`, then A's whole leaves `leaves` in its range. The
/// new leaf count, or `None` when R would pass [`FAST`] leaves. Out of
/// line: most images are one leaf.
#[inline(never)]
fn write_spread(
    shape: &mut [i64; FAST],
    stride: &mut [i64; FAST],
    nl: usize,
    image: Image,
    leaves: &[(i64, i64)],
) -> Option<usize> {
    let (c, top) = (image.len(), image.last?);
    let whole = &leaves[image.whole.0..image.whole.1];
    let (sh, sd) = (shape.get_mut(nl..nl + c - 1)?, &mut stride[nl..nl + c - 1]);
    (sh[0], sd[0]) = top;
    for ((s, d), &(we, wd)) in sh[1..].iter_mut().zip(&mut sd[1..]).zip(whole.iter().rev()) {
        (*s, *d) = (we, wd);
    }
    Some(nl + c - 1)
}

/// The structural carry test, digit by digit: whether no carry crosses a
/// boundary of A. For images built by divisibility (`β > 0`,
/// `Pⱼ ≤ β < Pⱼ₊₁`, values `t·β ≤ (b−1)·β = hi`), the largest residue at a
/// boundary `Pᵢ` is exact without division: 0 when `i ≤ j` (`Pᵢ ≤ β`); `hi`
/// once the image lies below `Pᵢ`, i.e. `i > j'` for an image ending in leaf
/// j' (`j' = j` for one leaf: `hi < Pⱼ₊₁`); and `Pᵢ − β` for `j < i ≤ j'`,
/// where β divides `Pᵢ` and the values reach every multiple of β below `Pᵢ`.
/// No carry can cross `Pᵢ` iff these maxima sum below `Pᵢ`:
/// `Σ_{j' < i} hi + Σ_{j < i ≤ j'} (Pᵢ − β) < Pᵢ` for every `i ≤ L` (none
/// lies above the head, whose images count nowhere). `below[j']` holds the
/// `hi` of the images ending in leaf j', `straddle[i]` the `Σ (Pᵢ − β)` of
/// the images spreading across `Pᵢ`; `place` is `P₀ ..= P_L`. Each sum is at
/// most `Σ hi`, B's span. O(leaves(A)), no division.
#[inline(always)]
fn carry_free(place: &[i64], below: &[i64; FAST + 1], straddle: &[i64; FAST + 1]) -> bool {
    let mut acc = 0i64;
    for (i, &p) in place.iter().enumerate().skip(1) {
        acc += below[i - 1];
        if acc + straddle[i] >= p {
            return false;
        }
    }
    true
}

/// Whether the span `Σ |d|·(e−1)` of the leaves `shape:stride` (and so
/// their cosize) fits `i64`.
#[cold]
fn span_fits(shape: &[i64], stride: &[i64]) -> bool {
    let mut leaves = shape.iter().zip(stride);
    let span = leaves.try_fold(0i64, |acc, (&e, &d)| {
        acc.checked_add(d.checked_abs()?.checked_mul(e - 1)?)
    });
    span.is_some_and(|s| s < i64::MAX)
}

/// A nested B's brackets `toks` with each leaf replaced by its group in
/// `flat` (R's brackets written as if B were flat, without the outer `(`:
/// a leaf, or `(` leaves `)`); `None` past [`FAST_TOKS`] brackets. Depth
/// grows by at most one, and 24 brackets nest at most 12 deep (below
/// [`crate::tuple::MAX_DEPTH`]).
#[cold]
fn splice(toks: &[Tok], flat: &[Tok]) -> Option<Profile> {
    let mut out = [Tok::Leaf; FAST_TOKS];
    let (mut nt, mut at) = (0usize, 0usize);
    for &tok in toks {
        let group = if tok == Tok::Leaf {
            let len = if flat[at] == Tok::Open {
                1 + flat[at..].iter().position(|&t| t == Tok::Close)?
            } else {
                1
            };
            at += len;
            &flat[at - len..at]
        } else {
            std::slice::from_ref(&tok)
        };
        out.get_mut(nt..nt + group.len())?.copy_from_slice(group);
        nt += group.len();
    }
    Some(Profile::from_vec(SmallVec::from_buf_and_len(out, nt)))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::algebra::ComposePath;

    /// The general procedure alone (the fast path is its shortcut).
    fn general(a: &Layout, b: &Layout) -> Result<Layout> {
        super::super::compose_impl(a, b, &mut ComposePath::Structural)
    }

    /// Invariant: whenever the fast path answers, the general procedure gives
    /// the same answer, representation and error alike.
    fn agrees(a: &Layout, b: &Layout) -> bool {
        let Some(fast) = compose_fast(a, b) else {
            return false;
        };
        assert_eq!(fast, general(a, b), "{a} o {b}");
        true
    }

    /// A layout of `shape` whose strides are products of A-like place values
    /// (`unit`, a permuted running product) with small factors, nested per `nest`.
    fn layout(shape: &[i64], factor: &[i64], order: &[usize], nest: u8) -> Layout {
        let mut stride = vec![0i64; shape.len()];
        let mut acc = 1i64;
        for &k in order.iter().filter(|&&k| k < shape.len()) {
            stride[k] = acc * factor[k];
            acc *= shape[k];
        }
        let text = |v: &[i64]| -> String {
            let items: Vec<String> = v.iter().map(i64::to_string).collect();
            match (nest, items.len()) {
                (0, _) | (_, 0..=2) => format!("({})", items.join(",")),
                (1, _) => format!("(({}),{})", items[..2].join(","), items[2..].join(",")),
                _ => format!("({},({}))", items[0], items[1..].join(",")),
            }
        };
        let shape_t = text(shape).parse().expect("tuple");
        let stride_t = text(&stride).parse().expect("tuple");
        Layout::new(shape_t, stride_t).expect("small layouts are valid")
    }

    fn operand() -> impl Strategy<Value = Layout> {
        (1usize..=8)
            .prop_flat_map(|n| {
                (
                    prop::collection::vec(1i64..=6, n),
                    prop::collection::vec(prop_oneof![Just(1i64), Just(0), 2i64..=4], n),
                    Just((0..n).collect::<Vec<_>>()).prop_shuffle(),
                    0u8..3,
                )
            })
            .prop_map(|(shape, factor, order, nest)| layout(&shape, &factor, &order, nest))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(
            std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
        ))]

        /// Invariant: the fast path and the general procedure agree / Witness:
        /// random permuted-compact A and B of up to 8 leaves, flat and nested.
        #[test]
        fn fast_path_agrees_with_general(a in operand(), b in operand()) {
            agrees(&a, &b);
        }
    }

    #[test]
    fn fast_path_overflows_as_general() {
        // Invariant: R's strides and span are checked where they can leave
        // i64 / Witness: a head stride times 4, and two head images whose
        // strides fit but whose span does not.
        for (a, b) in [
            ("(2,4):(3074457345618258602,1)", "5:16"),
            ("(2,2):(4611686018427387904,1)", "(3,2):(2,2)"),
        ] {
            let (a, b): (Layout, Layout) = (a.parse().expect("A"), b.parse().expect("B"));
            assert!(agrees(&a, &b));
            assert!(matches!(
                compose_fast(&a, &b),
                Some(Err(Error::Overflow { .. }))
            ));
        }
    }

    #[test]
    fn fast_path_takes_the_w2_workload() {
        // Invariant: every W2 pair takes the fast path and agrees / Witness: the 200 pairs.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/bench_workloads.json"
        );
        let text = std::fs::read_to_string(path).expect("reference data");
        let all: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        let row = |v: &serde_json::Value| -> Layout {
            v["row"].as_str().expect("row").parse().expect("layout")
        };
        let cases = all["W2"]["cases"].as_array().expect("cases");
        assert_eq!(cases.len(), 200);
        for c in cases {
            assert!(agrees(&row(&c["A"]), &row(&c["B"])));
        }
    }
}
