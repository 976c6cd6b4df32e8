//! Windowed views with more than two constraints (the row-wise fill beyond
//! the blocked fill's two tables) fill exactly what `View::eval` gives, whole
//! and for every prefix length.
#![allow(clippy::unwrap_used)]

use proptest::prelude::*;

use crate::view::{unravel, View, ViewStack};

/// Every element of `v` through `View::eval`, `invalid` where invalid.
fn reference(v: &View, invalid: i64) -> Vec<i64> {
    let shape = v.shape();
    (0..v.size())
        .map(|i| v.eval(&unravel(i, &shape)).unwrap().unwrap_or(invalid))
        .collect()
}

/// A flattened `a`×`b` transpose sliced to `[start, end)` (a windowed
/// dimension, unless the slice is aligned), broadcast over `(c1, c2, c3)`, each broadcast dimension padded
/// by `pads` (one unit constraint each), optionally flipped and permuted.
fn many_constraints(
    (a, b): (i64, i64),
    (start, len): (i64, i64),
    copies: [i64; 3],
    pads: [(i64, i64); 3],
    (flip, permute): (bool, bool),
) -> ViewStack {
    let n = a * b;
    let start = start % n;
    let end = start + 1 + len % (n - start);
    let mut t = ViewStack::new(&[a, b])
        .and_then(|t| t.permute(&[1, 0]))
        .and_then(|t| t.reshape(&[n]))
        .and_then(|t| t.shrink(&[(start, end)]))
        .and_then(|t| t.reshape(&[1, 1, 1, end - start]))
        .and_then(|t| t.expand(&[copies[0], copies[1], copies[2], end - start]))
        .and_then(|t| t.pad(&[pads[0], pads[1], pads[2], (0, 0)]))
        .unwrap();
    if flip {
        t = t.flip(&[true, false, true, true]).unwrap();
    }
    if permute {
        t = t.permute(&[3, 0, 2, 1]).unwrap();
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::view::witness::tests::cases(300)))]

    #[test]
    fn windowed_fills_with_many_constraints_match_eval(
        ab in (2i64..=9, 2i64..=9),
        cut in (0i64..100, 0i64..100),
        copies in prop::array::uniform3(1i64..=4),
        pads in prop::array::uniform3((0i64..=2, 0i64..=2)),
        shape_ops in (any::<bool>(), any::<bool>()),
        prefix in 0usize..2000,
    ) {
        let t = many_constraints(ab, cut, copies, pads, shape_ops);
        let v = &t.views()[0];
        for invalid in [-1, i64::MIN] {
            let want = reference(v, invalid);
            let mut buf = vec![0x5EED; want.len() + 3];
            prop_assert_eq!(v.fill_offsets(&mut buf, invalid), want.len());
            prop_assert_eq!(&buf[..want.len()], &want[..], "{}", v);
            prop_assert!(buf[want.len()..].iter().all(|&x| x == 0x5EED));
            let n = prefix % (want.len() + 1);
            let mut part = vec![0x5EED; n];
            prop_assert_eq!(v.fill_offsets(&mut part, invalid), n);
            prop_assert_eq!(&part[..], &want[..n], "{}", v);
        }
    }
}

/// The generator above does reach more than two constraints on a windowed view.
#[test]
fn windowed_view_with_three_constraints_fills_exactly() {
    let t = many_constraints(
        (4, 5),
        (3, 11),
        [2, 3, 2],
        [(1, 0), (0, 1), (1, 1)],
        (true, false),
    );
    let v = &t.views()[0];
    assert!(v.has_windows() && v.cons() >= 3, "{v}");
    let want = reference(v, -1);
    let mut buf = vec![0; want.len()];
    assert_eq!(v.fill_offsets(&mut buf, -1), want.len());
    assert_eq!(buf, want, "{v}");
}

/// tinygrad's `_pool` windows (`k`×`k` with `k` at most the padded sides,
/// stride one) of an `h`×`w` image padded by `pad` on every side, the image
/// flipped first when `flip`.
fn conv_windows(h: i64, w: i64, k: i64, pad: i64, flip: bool) -> ViewStack {
    let (ph, pw) = (h + 2 * pad, w + 2 * pad);
    let k = k.min(ph).min(pw);
    let (oh, ow) = (ph - k + 1, pw - k + 1);
    let (eh, ew) = ((k * (ph + 1) + ph - 1) / ph, (k * (pw + 1) + pw - 1) / pw);
    ViewStack::new(&[h, w])
        .and_then(|t| t.flip(&[flip, false]))
        .and_then(|t| t.pad(&[(pad, pad), (pad, pad)]))
        .and_then(|t| t.reshape(&[1, ph, 1, pw]))
        .and_then(|t| t.expand(&[eh, ph, ew, pw]))
        .and_then(|t| t.reshape(&[eh * ph, ew * pw]))
        .and_then(|t| t.shrink(&[(0, k * (ph + 1)), (0, k * (pw + 1))]))
        .and_then(|t| t.reshape(&[k, ph + 1, k, pw + 1]))
        .and_then(|t| t.shrink(&[(0, k), (0, oh), (0, k), (0, ow)]))
        .and_then(|t| t.permute(&[1, 3, 0, 2]))
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::view::witness::tests::cases(64)))]

    /// Wide windows, whose blocks of `k·k` positions split the next leaf out
    /// (and whose top, bottom, left and right blocks straddle the padding
    /// bounds in a prefix or a suffix), fill exactly what `eval` gives.
    #[test]
    fn wide_window_fills_match_eval(
        h in 1i64..=4,
        w in 100i64..=160,
        k in 2i64..=4,
        pad in 0i64..=2,
        flip in any::<bool>(),
    ) {
        let t = conv_windows(h, w, k, pad, flip);
        let v = &t.views()[0];
        let want = reference(v, -1);
        let mut buf = vec![0; want.len()];
        prop_assert_eq!(v.fill_offsets(&mut buf, -1), want.len());
        prop_assert_eq!(buf, want, "{}", v);
    }
}
