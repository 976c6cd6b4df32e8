//! `View::fill_offsets` against `View::eval` at every element, on views with
//! several affine constraints: padded pooling windows (tinygrad's `_pool`
//! chain) followed by random flips (negative coefficients), permutations,
//! shrinks, pads, strides, merges of dimensions (windows) and broadcasts, filled
//! into buffers of random length with extreme `invalid` markers. Views larger
//! than one block exercise the blocked fill's template, boundary blocks,
//! all-invalid blocks and fixed holes; the rest the other paths.

use crate::common;

use hlayout::{FlatView, View, ViewStack};
use proptest::prelude::*;
use serde_json::Value;

/// Draws from a pool of random words.
struct Draw<'a>(std::slice::Iter<'a, u32>);

impl Draw<'_> {
    fn below(&mut self, n: u32) -> u32 {
        self.0.next().copied().unwrap_or(0) % n.max(1)
    }

    fn signed(&mut self, lo: i64, hi: i64) -> i64 {
        lo + i64::from(self.below((hi - lo + 1) as u32))
    }
}

/// The `kh`×`kw` windows (stride 1) of an `h`×`w` image padded by
/// `(top, bottom, left, right)`, through tinygrad's `_pool` movement ops:
/// shape `(oh, ow, kh, kw)`, valid where the window reads the image.
fn pooled(h: i64, w: i64, (kh, kw): (i64, i64), pad: [i64; 4]) -> ViewStack {
    let (ph, pw) = (h + pad[0] + pad[1], w + pad[2] + pad[3]);
    let (kh, kw) = (kh.min(ph), kw.min(pw));
    let (oh, ow) = (ph - kh + 1, pw - kw + 1);
    let (eh, ew) = ((kh * (ph + 1) + ph - 1) / ph, (kw * (pw + 1) + pw - 1) / pw);
    ViewStack::new(&[h, w])
        .and_then(|t| t.pad(&[(pad[0], pad[1]), (pad[2], pad[3])]))
        .and_then(|t| t.reshape(&[1, ph, 1, pw]))
        .and_then(|t| t.expand(&[eh, ph, ew, pw]))
        .and_then(|t| t.reshape(&[eh * ph, ew * pw]))
        .and_then(|t| t.shrink(&[(0, kh * (ph + 1)), (0, kw * (pw + 1))]))
        .and_then(|t| t.reshape(&[kh, ph + 1, kw, pw + 1]))
        .and_then(|t| t.shrink(&[(0, kh), (0, oh), (0, kw), (0, ow)]))
        .and_then(|t| t.permute(&[1, 3, 0, 2]))
        .unwrap()
}

/// One random op valid for `t`'s shape (an identity flip when none applies).
fn random_op(t: ViewStack, r: &mut Draw) -> ViewStack {
    let shape = t.shape();
    let rank = shape.len();
    let size: i64 = shape.iter().product();
    let next = match r.below(7) {
        0 => t.flip(&shape.iter().map(|_| r.below(2) == 1).collect::<Vec<_>>()),
        1 => {
            let mut p: Vec<usize> = (0..rank).collect();
            for k in (1..rank).rev() {
                p.swap(k, r.below(k as u32 + 1) as usize);
            }
            t.permute(&p)
        }
        2 => t.shrink(
            &shape
                .iter()
                .map(|&s| {
                    let b = i64::from(r.below(s.min(4) as u32));
                    (b, s - i64::from(r.below((s - b).min(4) as u32)))
                })
                .collect::<Vec<_>>(),
        ),
        3 if size <= 20_000 => t.pad(
            &shape
                .iter()
                .map(|_| (r.signed(0, 2), r.signed(0, 2)))
                .collect::<Vec<_>>(),
        ),
        4 => t.stride(
            &shape
                .iter()
                .map(|_| [1, 1, 2, -1, -2, 3][r.below(6) as usize])
                .collect::<Vec<_>>(),
        ),
        // Merge two adjacent dimensions: later shrinks and pads of the merged
        // dimension cut its leaves (windows, or constraints over both).
        5 if rank >= 2 => {
            let d = r.below(rank as u32 - 1) as usize;
            let mut merged = shape.clone();
            merged[d] *= merged.remove(d + 1);
            t.reshape(&merged)
        }
        6 if size <= 10_000 => {
            let mut one = vec![1];
            one.extend(&shape);
            let mut wide = one.clone();
            wide[0] = r.signed(1, 3);
            t.reshape(&one).and_then(|u| u.expand(&wide))
        }
        _ => t.flip(&vec![false; rank]),
    };
    next.unwrap()
}

/// Every element of `v` through `View::eval`, `invalid` where invalid.
fn reference(v: &View, invalid: i64) -> Vec<i64> {
    let shape = v.shape();
    let size: i64 = shape.iter().product();
    (0..size)
        .map(|i| {
            let c = common::digits(i, &shape);
            v.eval(&c).unwrap().unwrap_or(invalid)
        })
        .collect()
}

/// Fills a buffer of `len` entries (pre-set to a sentinel) and checks the
/// count, the prefix against `want`, and that nothing past it was touched.
fn check_fill(v: &View, want: &[i64], len: usize, invalid: i64) -> Result<(), TestCaseError> {
    const SENTINEL: i64 = 0x5EED;
    let mut buf = vec![SENTINEL; len];
    let n = v.fill_offsets(&mut buf, invalid);
    prop_assert_eq!(n, len.min(want.len()), "{}", v);
    prop_assert_eq!(&buf[..n], &want[..n], "{}", v);
    prop_assert!(buf[n..].iter().all(|&x| x == SENTINEL), "{}", v);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(160)))]

    /// Every view of a random windowed chain fills exactly what `eval` gives,
    /// for the whole view and for a random prefix.
    #[test]
    fn constrained_fills_match_eval(
        (h, w) in (1i64..=24, 1i64..=24),
        kernel in (1i64..=4, 1i64..=4),
        pad in prop::array::uniform4(0i64..=3),
        words in prop::collection::vec(any::<u32>(), 48),
    ) {
        let mut r = Draw(words.iter());
        let mut t = pooled(h, w, kernel, pad);
        for _ in 0..r.below(5) {
            t = random_op(t, &mut r);
        }
        let invalid = [-1, 0, i64::MIN, i64::MAX, 12345][r.below(5) as usize];
        for v in t.views() {
            let want = reference(v, invalid);
            let streamed: Vec<i64> = v.offsets().map(|o| o.unwrap_or(invalid)).collect();
            prop_assert_eq!(&streamed, &want, "{}", v);
            check_fill(v, &want, want.len(), invalid)?;
            check_fill(v, &want, r.below(want.len() as u32 + 4) as usize, invalid)?;
        }
    }
}

/// A view with windowed dimensions, most of the time: the flattened transpose
/// of `a`×`b`, shrunk to `[start, end)` and padded (bounds that cut its
/// leaves), broadcast into `copies` rows, then `ops` random ops.
fn windowed(a: i64, b: i64, cut: (i64, i64, i64, i64), copies: i64, r: &mut Draw) -> ViewStack {
    let n = a * b;
    let start = cut.0 % n;
    let end = start + 1 + cut.1 % (n - start);
    let mut t = ViewStack::new(&[a, b])
        .and_then(|t| t.permute(&[1, 0]))
        .and_then(|t| t.reshape(&[n]))
        .and_then(|t| t.shrink(&[(start, end)]))
        .and_then(|t| t.pad(&[(cut.2, cut.3)]))
        .unwrap();
    let len = t.shape()[0];
    t = t
        .reshape(&[1, len])
        .and_then(|t| t.expand(&[copies, len]))
        .unwrap();
    if r.below(2) == 1 {
        t = t.permute(&[1, 0]).unwrap(); // the windowed dimension outside
    }
    for _ in 0..r.below(4) {
        t = random_op(t, r);
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(160)))]

    /// Views with windowed dimensions (inner and outer, shrunk, padded,
    /// flipped, broadcast, some larger than a block) fill exactly what `eval`
    /// gives, whole and for a random prefix.
    #[test]
    fn windowed_fills_match_eval(
        (a, b) in (2i64..=40, 2i64..=40),
        cut in (0i64..2000, 0i64..2000, 0i64..=3, 0i64..=3),
        copies in 1i64..=40,
        words in prop::collection::vec(any::<u32>(), 48),
    ) {
        let mut r = Draw(words.iter());
        let t = windowed(a, b, cut, copies, &mut r);
        let invalid = [-1, i64::MIN, i64::MAX][r.below(3) as usize];
        for v in t.views() {
            let want = reference(v, invalid);
            check_fill(v, &want, want.len(), invalid)?;
            check_fill(v, &want, r.below(want.len() as u32 + 4) as usize, invalid)?;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(128)))]

    /// Masked flat views with strides and offsets near the ends of `i64` (the
    /// span still fits) fill exactly what `eval` gives: every intermediate
    /// value of the blocked and run-wise fills stays in range.
    #[test]
    fn extreme_masked_fills_match_eval(
        shape in prop::collection::vec(1i64..=40, 2..=3),
        picks in prop::collection::vec((any::<bool>(), 0i64..=40, 0i64..=40, 0u32..3), 3),
        offset_sign in prop::sample::select(vec![-1i64, 1]),
    ) {
        let rank = shape.len();
        let room = i64::MAX / 2 / (40 * rank as i64);
        let strides: Vec<i64> = picks[..rank]
            .iter()
            .map(|&(neg, _, _, scale)| {
                let s = room >> (20 * scale);
                if neg { -s } else { s }
            })
            .collect();
        let mask: Vec<(i64, i64)> = picks[..rank]
            .iter()
            .zip(&shape)
            .map(|(&(_, a, b, _), &e)| {
                let (a, b) = (a.min(e), b.min(e));
                (a.min(b), a.max(b).max(a.min(b) + 1).min(e))
            })
            .collect();
        let flat = FlatView::new(shape, strides, offset_sign * (i64::MAX / 2), Some(mask)).unwrap();
        let v = View::from_flat(&flat).unwrap();
        for invalid in [i64::MIN, i64::MAX] {
            let want = reference(&v, invalid);
            check_fill(&v, &want, want.len(), invalid)?;
        }
    }
}

/// The benchmark's padded 3×3 conv window on 64×64 (one view, two constraints,
/// 64 blocks of 576 with two boundary blocks): exact at every element.
#[test]
fn padded_conv_window_fill_matches_eval() {
    let t = pooled(64, 64, (3, 3), [1, 1, 1, 1]);
    let [v] = t.views() else {
        panic!("one view expected: {t}")
    };
    let want = reference(v, -1);
    assert_eq!(want.len(), 64 * 64 * 9);
    check_fill(v, &want, want.len(), -1).unwrap();
    check_fill(v, &want, 576 * 3 + 100, -1).unwrap();
    check_fill(v, &want, 575, -1).unwrap();
}

/// A window padded by more than a block: whole blocks fail a varying
/// constraint and are written as `invalid` without tabulated checks.
#[test]
fn blocks_outside_a_constraint_fill_as_invalid() {
    let t = pooled(40, 30, (2, 2), [3, 3, 0, 0])
        .pad(&[(3, 2), (0, 0), (0, 0), (0, 0)])
        .unwrap();
    for v in t.views() {
        let want = reference(v, i64::MIN);
        check_fill(v, &want, want.len(), i64::MIN).unwrap();
    }
}

/// The window flipped along every dimension (negative coefficients), strided
/// along the inner two and broadcast over a batch of 3 (two outer leaves: the
/// block odometer carries constraint values across batch boundaries).
#[test]
fn flipped_strided_batched_window_fill_matches_eval() {
    let t = pooled(33, 35, (4, 3), [2, 1, 3, 2])
        .flip(&[true, true, true, true])
        .and_then(|t| t.stride(&[1, 2, 1, -2]))
        .and_then(|t| t.reshape(&[1, 33, 19, 4, 2]))
        .and_then(|t| t.expand(&[3, 33, 19, 4, 2]))
        .unwrap();
    let [v] = t.views() else {
        panic!("one view expected: {t}")
    };
    assert!(v.to_string().contains("-x4"), "{v}");
    let want = reference(v, 7);
    check_fill(v, &want, want.len(), 7).unwrap();
}

/// Padding much wider than the image: most positions of every block fail the
/// constraint blind to the outer leaves (a mask pass rather than patched holes).
#[test]
fn mostly_padding_window_fill_matches_eval() {
    let t = pooled(30, 4, (3, 3), [1, 1, 6, 6]);
    let [v] = t.views() else {
        panic!("one view expected: {t}")
    };
    let want = reference(v, -1);
    assert!(want.iter().filter(|&&o| o == -1).count() * 2 > want.len());
    check_fill(v, &want, want.len(), -1).unwrap();
    check_fill(v, &want, 500, -1).unwrap();
}

/// Every single-view chain recorded from tinygrad fills its ground-truth offsets.
#[test]
fn tinygrad_chains_fill_their_recorded_offsets() {
    let text = common::read_data("tinygrad_chains.json");
    let records: Vec<Value> = serde_json::from_str(&text).expect("chains are a JSON array");
    let mut single = 0;
    for r in &records {
        let t = replay(&r["request"]);
        let want: Vec<i64> = r["expect"]["offsets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_i64().unwrap())
            .collect();
        if let [v] = t.views() {
            let mut buf = vec![0; want.len()];
            assert_eq!(v.fill_offsets(&mut buf, -1), want.len(), "{}", r["id"]);
            assert_eq!(buf, want, "{}: {v}", r["id"]);
            single += 1;
        }
    }
    assert!(single >= 100, "only {single} chains end in one view");
}

/// Applies a recorded chain request's ops.
pub(crate) fn replay(request: &Value) -> ViewStack {
    let ints = |v: &Value| -> Vec<i64> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect()
    };
    let pairs = |v: &Value| -> Vec<(i64, i64)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap()))
            .collect()
    };
    let mut t = ViewStack::new(&ints(&request["shape"])).unwrap();
    for op in request["ops"].as_array().unwrap() {
        let arg = &op[1];
        t = match op[0].as_str().unwrap() {
            "reshape" => t.reshape(&ints(arg)),
            "permute" => t.permute(
                &ints(arg)
                    .iter()
                    .map(|&p| usize::try_from(p).unwrap())
                    .collect::<Vec<_>>(),
            ),
            "expand" => t.expand(&ints(arg)),
            "pad" => t.pad(&pairs(arg)),
            "shrink" => t.shrink(&pairs(arg)),
            "flip" => t.flip(
                &arg.as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b.as_bool().unwrap())
                    .collect::<Vec<_>>(),
            ),
            other => panic!("unknown op {other}"),
        }
        .unwrap();
    }
    t
}
