//! Named edge cases of views and movement ops. Each opens with its invariant and witness.

use crate::common::pool;
use hlayout::{Error, FlatView, ViewStack};
use pool::conv_window;

fn t(shape: &[i64]) -> ViewStack {
    ViewStack::new(shape).unwrap()
}

#[test]
fn transpose_flatten_is_one_hierarchical_view() {
    // Invariant: reshape nests instead of stacking. Witness: tinygrad PR #3988's (10,10)^T -> (100,).
    let s = t(&[10, 10])
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[100])
        .unwrap();
    assert_eq!(s.to_string(), "((10,10)):((1,10))");
    assert_eq!(s.eval(&[1]).unwrap(), Some(10));
    assert_eq!(s.eval(&[10]).unwrap(), Some(1));
    let split = t(&[10, 10])
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[5, 2, 5, 2])
        .unwrap();
    assert_eq!(split.to_string(), "(5,2,5,2):(2,1,20,10)");
}

#[test]
fn flattened_transpose_split_other_way_needs_a_stack() {
    // Invariant: a reshape whose sizes cut the nested mode has no single view.
    // Witness: (10,10)^T -> (100,) -> (4,25): 25 and 10 do not divide each other.
    let s = t(&[10, 10])
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[100])
        .unwrap()
        .reshape(&[4, 25])
        .unwrap();
    assert_eq!(s.views().len(), 2);
    assert_eq!(s.eval(&[1, 3]).unwrap(), Some(82)); // index 28 -> (8,2) of the transpose -> 2*10+8
                                                    // The proof in docs/views.md §4: row differences depend on the column.
    let at = |r, c| s.eval(&[r, c]).unwrap().unwrap();
    assert_eq!((at(1, 0) - at(0, 0), at(1, 5) - at(0, 5)), (52, -47));
}

#[test]
fn flattened_transpose_sliced_at_unaligned_bounds_stays_one_view() {
    // Invariant: a window expresses a shrink that cuts a nested mode. Witness: [3,57).
    let s = t(&[10, 10])
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[100])
        .unwrap()
        .shrink(&[(3, 57)])
        .unwrap();
    assert_eq!(s.views().len(), 1);
    assert_eq!(s.eval(&[0]).unwrap(), Some(30));
    assert_eq!(s.eval(&[53]).unwrap(), Some(65));
    assert!(s.views()[0].flatten().is_err());
}

#[test]
fn padded_window_constraint_is_affine() {
    // Invariant: constraints are affine forms of leaf coordinates. Witness: pad then
    // split puts the pad bound on the slow leaf only.
    let s = t(&[4]).pad(&[(2, 2)]).unwrap().reshape(&[4, 2]).unwrap();
    let c = s.views()[0].constraints();
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].to_string(), "1<=x0<3");
    assert_eq!(
        s.offsets().collect::<Vec<_>>()[2..6],
        [Some(0), Some(1), Some(2), Some(3)]
    );
}

#[test]
fn expand_zeroes_the_coefficient() {
    // Invariant: an expanded extent-1 leaf has stride 0 and coefficient 0. Witness: (1,3) -> (4,3).
    let s = t(&[1, 3])
        .pad(&[(0, 0), (1, 0)])
        .unwrap()
        .expand(&[4, 4])
        .unwrap();
    assert_eq!(s.to_string(), "(4,4):(0,1)-1 if 1<=x1<4");
}

#[test]
fn flip_of_a_nested_mode_flips_every_leaf() {
    // Invariant: reversing a row-major index reverses every digit. Witness: (2,3)^T flattened, flipped.
    let s = t(&[2, 3])
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[6])
        .unwrap()
        .flip(&[true])
        .unwrap();
    assert_eq!(s.to_string(), "((3,2)):((-1,-3))+5");
    let all: Vec<i64> = s.offsets().flatten().collect();
    assert_eq!(all, [5, 2, 4, 1, 3, 0]);
}

#[test]
fn empty_views_are_canonical() {
    // Invariant: a view with no valid element keeps one 'never' constraint. Witness: shrink into padding.
    let s = t(&[4]).pad(&[(0, 3)]).unwrap().shrink(&[(5, 7)]).unwrap();
    assert!(s.views()[0].is_empty());
    assert_eq!(s.offsets().collect::<Vec<_>>(), [None, None]);
}

#[test]
fn bad_arguments_are_typed_errors() {
    // Invariant: preconditions fail with BadMovement, never a panic. Witness: each call below.
    let s = t(&[4, 6]);
    let bad = |r: Result<ViewStack, Error>| matches!(r, Err(Error::BadMovement { .. }));
    assert!(bad(s.clone().reshape(&[5, 5])));
    assert!(bad(s.clone().reshape(&[0, 24])));
    assert!(bad(s.clone().permute(&[0, 0])));
    assert!(bad(s.clone().permute(&[0])));
    assert!(bad(s.clone().expand(&[4, 7])));
    assert!(bad(s.clone().pad(&[(0, -1), (0, 0)])));
    assert!(bad(s.clone().shrink(&[(0, 5), (0, 6)])));
    assert!(bad(s.clone().shrink(&[(3, 2), (0, 6)])));
    assert!(bad(s.clone().flip(&[true])));
    assert!(bad(s.clone().stride(&[0, 1])));
    assert!(bad(ViewStack::new(&[3, -1])));
    assert!(matches!(s.eval(&[4, 0]), Err(Error::OutOfDomain { .. })));
}

#[test]
fn flatten_gives_tinygrad_masks() {
    // Invariant: a box constraint on a dimension's slowest leaf is a mask. Witness: padded rows.
    let s = t(&[3, 4])
        .pad(&[(1, 1), (0, 0)])
        .unwrap()
        .reshape(&[20])
        .unwrap();
    let v = s.views()[0].flatten().unwrap();
    assert_eq!(
        (v.shape(), v.strides(), v.offset()),
        (&[20][..], &[1][..], -4)
    );
    assert_eq!(v.mask(), Some(&[(4, 16)][..]));
    let p = t(&[3, 4])
        .pad(&[(0, 0), (1, 1)])
        .unwrap()
        .reshape(&[18])
        .unwrap();
    let report = p.views()[0].flatten().unwrap_err();
    assert!(
        report.to_string().contains("is not a per-dimension box")
            || report.to_string().contains("is not one stride")
    );
}

#[test]
fn conv_window_with_padding_reads_y_plus_ky() {
    // Invariant: padded windows keep their validity exact. Witness: 1-D 3-tap conv, pad 1, via tinygrad's _pool ops.
    let s = t(&[6])
        .pad(&[(1, 1)])
        .unwrap()
        .reshape(&[1, 8])
        .unwrap()
        .expand(&[4, 8])
        .unwrap()
        .reshape(&[32])
        .unwrap()
        .shrink(&[(0, 27)])
        .unwrap()
        .reshape(&[3, 9])
        .unwrap()
        .shrink(&[(0, 3), (0, 6)])
        .unwrap()
        .permute(&[1, 0])
        .unwrap();
    let want: Vec<Option<i64>> = (0..6)
        .flat_map(|y| (0..3).map(move |k| y + k - 1))
        .map(|r| (0..6).contains(&r).then_some(r))
        .collect();
    assert_eq!(s.offsets().collect::<Vec<_>>(), want);
    assert_eq!(s.views().len(), 1, "{s}");
    assert_eq!(s.to_string(), "(6,3):(1,1)-1 if 1<=x0+x1<7");
}

#[test]
fn large_padded_conv_window_is_one_view_beyond_the_evaluated_bound() {
    // Invariant: the no-carry test merges exactly at any size. Witness: the
    // 3×3 windows of a 160×160 image padded by 1 (tinygrad's _pool ops); the
    // pushed view's final shrink has 3·160·3·160 = 230,400 elements, past the
    // 2^16 that evaluation verifies, yet the stack ends as one view.
    let n = 160i64;
    let s = conv_window(n).unwrap();
    assert_eq!(s.views().len(), 1, "{s}");
    let read = |y: i64, k: i64| Some(y + k - 1).filter(|r| (0..n).contains(r));
    let want: Vec<Option<i64>> = (0..n)
        .flat_map(|y| (0..n).map(move |x| (y, x)))
        .flat_map(|(y, x)| (0..3).flat_map(move |ky| (0..3).map(move |kx| (y, x, ky, kx))))
        .map(|(y, x, ky, kx)| Some(read(y, ky)? * n + read(x, kx)?))
        .collect();
    assert_eq!(s.offsets().collect::<Vec<_>>(), want);
}

#[test]
fn a_scaled_constraint_with_no_multiple_in_range_is_never() {
    // Invariant: a constraint no element satisfies canonicalises to "never".
    // Witness: pad [1] to 3 (valid iff 1<=x<2), then take every 2nd: 1<=2·x'<2 has no solution.
    let s = t(&[1]).pad(&[(1, 1)]).unwrap().stride(&[2]).unwrap();
    assert_eq!(s.to_string(), "2:0 if never");
    assert_eq!(s.offsets().collect::<Vec<_>>(), [None, None]);
}

#[test]
fn ops_leave_views_canonical() {
    // Invariant: constraints stay in canonical order (by coefficients) after every
    // op; debug builds check the full canonical form after each op. Witness: a
    // permute that swaps the leaves of two sorted constraints.
    let s = t(&[4, 6])
        .pad(&[(1, 0), (0, 2)])
        .unwrap()
        .permute(&[1, 0])
        .unwrap();
    let c = s.views()[0].constraints();
    assert!(c.windows(2).all(|w| w[0].coeffs() <= w[1].coeffs()), "{s}");
}

#[test]
fn huge_merges_stay_undecided_instead_of_walking_every_element() {
    // Invariant: no decision walks more than merge::MAX_WALKED_POINTS points; an
    // undecided pair stays stacked. Witness (from fuzzing): a 2^31×4 tensor padded
    // by 2^40, regrouped and strided, whose pair only a walk over ~10^13 points
    // could settle; the old enumeration never finished.
    let s = t(&[1 << 31, 4])
        .permute(&[1, 0])
        .and_then(|t| t.pad(&[(1, 2), (1 << 40, 1 << 40)]))
        .and_then(|t| t.reshape(&[15_408_195_174_400]))
        .and_then(|t| t.reshape(&[2, 7_704_097_587_200]))
        .and_then(|t| t.reshape(&[2, 4, 1_926_024_396_800]))
        .and_then(|t| t.permute(&[1, 0, 2]))
        .and_then(|t| t.stride(&[1, 3, 1]))
        .unwrap();
    assert_eq!(s.views().len(), 2, "{s}");
    // The same pair as tinygrad-form views over their leaves (what the stack
    // hands to the merge decision): undecided, not refused.
    let lower = FlatView::new(
        vec![7, 2_201_170_739_200],
        vec![1, 4],
        -4_398_046_511_105,
        Some(vec![(1, 5), (1_099_511_627_776, 1_101_659_111_424)]),
    )
    .unwrap();
    let upper = FlatView::new(
        vec![4, 1, 1_926_024_396_800],
        vec![1_926_024_396_800, 0, 1],
        0,
        None,
    )
    .unwrap();
    assert!(matches!(
        hlayout::merge(&lower, &upper),
        Err(Error::BudgetExceeded { .. })
    ));
    // Element (0, 0, 5) is index 5 of the lower view: padding (row 0 of 7).
    assert_eq!(s.eval(&[0, 0, 5]).unwrap(), None);
}

#[test]
fn ops_that_grow_past_i64_elements_are_overflow_errors() {
    // Invariant: a view's element count fits i64 after every op (pads and
    // expands grow it). Witness (from fuzzing): 2^31 × (4 + 2^41) elements,
    // which used to be accepted and then overflowed inside a later reshape.
    let padded = t(&[1 << 31, 4]).pad(&[(0, 0), (1 << 40, 1 << 40)]);
    assert!(matches!(padded, Err(Error::Overflow { .. })), "{padded:?}");
    let wide = t(&[1, 1 << 40]).expand(&[1 << 30, 1 << 40]);
    assert!(matches!(wide, Err(Error::Overflow { .. })), "{wide:?}");
}

#[test]
fn a_stack_tries_merges_within_the_evaluated_budget() {
    // Invariant: after each op a stack tries to merge its top pair; a plain
    // pair is decided with merge walks of at most MAX_EVALUATED_MERGE (2^16)
    // points, not merge's 2^24, so each op costs a bounded, small amount and
    // "undecided" keeps both views. Witness: 21 ops of rank <= 58 whose pads
    // and shrinks each triggered a 2^24-point walk (2.0 s in release, 63 such
    // ops 10.5 s; found by a cost probe of hlayout batch). The answer stays
    // exact: the stream equals evaluation at its first 4096 coordinates.
    let request: serde_json::Value = serde_json::from_str(PAD_SHRINK_CHAIN).unwrap();
    let s = crate::stream_props::replay(&request);
    assert_eq!(s.views().len(), 4);
    let shape = s.shape();
    for (i, got) in s.offsets().take(4096).enumerate() {
        let mut crd = vec![0; shape.len()];
        let mut rest = i as i64;
        for (c, &e) in crd.iter_mut().zip(&shape).rev() {
            *c = rest % e;
            rest /= e;
        }
        assert_eq!(got, s.eval(&crd).unwrap(), "{crd:?}");
    }
}

/// The chain of [`a_stack_tries_merges_within_the_evaluated_budget`].
const PAD_SHRINK_CHAIN: &str = r#"{"shape":[2,4,3,1,1,2,3,1,3,1,3,4,1,4,1,3,4,1,1,3,1,1,2,4,1,1,3,2,2,2,1,4,1,2,2,3,1,3,4,2,2,1,2,1,1,4,2,4,1,1,1,2,1,1,2,3,1,3],"ops":[["reshape",[8,2,4,2,6,6,2,6,2,6,2,3,2,2,2,2,2,2,4,48,3,2,108,3,2,4]],["shrink",[[3,8],[1,2],[0,4],[1,2],[2,6],[2,6],[1,2],[3,6],[1,2],[2,6],[1,2],[0,3],[1,2],[0,2],[0,2],[1,2],[0,2],[1,2],[2,4],[23,48],[1,3],[0,2],[36,108],[1,3],[1,2],[2,4]]],["pad",[[0,0],[0,0],[0,0],[0,0],[0,1],[0,0],[2,2],[1,2],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[1,2],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0]]],["shrink",[[2,5],[0,1],[0,4],[0,1],[2,5],[1,4],[1,5],[0,6],[0,1],[0,4],[0,1],[1,3],[0,1],[0,2],[0,2],[0,1],[1,2],[0,1],[1,5],[6,25],[0,2],[1,2],[9,72],[0,2],[0,1],[1,2]]],["reshape",[4,3,14,2,2,6,2,27,6,4,8,19,2]],["reshape",[21,6,114,2,6,4,4,2,4,2,2,3,3,2]],["shrink",[[8,21],[3,6],[27,114],[0,2],[3,6],[0,4],[2,4],[0,2],[0,4],[1,2],[0,2],[1,3],[0,3],[0,2]]],["shrink",[[3,13],[1,3],[38,87],[0,2],[1,3],[2,4],[1,2],[1,2],[0,4],[0,1],[1,2],[1,2],[1,3],[0,2]]],["pad",[[0,0],[0,2],[0,0],[0,0],[0,2],[0,0],[0,0],[0,1],[0,0],[0,0],[0,0],[0,0],[1,1],[0,0]]],["reshape",[64,7,7,2,8,2,20]],["pad",[[0,0],[0,0],[0,0],[0,0],[0,1],[0,0],[0,2]]],["permute",[5,2,3,0,4,1,6]],["reshape",[14,24,11,2,12,14,2]],["pad",[[0,0],[0,0],[0,0],[2,0],[0,0],[0,0],[0,0]]],["shrink",[[0,14],[0,24],[0,11],[2,4],[0,12],[0,14],[0,2]]],["pad",[[0,0],[0,0],[0,0],[2,0],[0,0],[0,0],[0,0]]],["shrink",[[0,14],[0,24],[0,11],[2,4],[0,12],[0,14],[0,2]]],["pad",[[0,0],[0,0],[0,0],[2,0],[0,0],[0,0],[0,0]]],["shrink",[[0,14],[0,24],[0,11],[2,4],[0,12],[0,14],[0,2]]],["pad",[[0,0],[0,0],[0,0],[2,0],[0,0],[0,0],[0,0]]],["shrink",[[0,14],[0,24],[0,11],[2,4],[0,12],[0,14],[0,2]]]]}"#;

#[test]
fn a_shrink_that_drops_a_constraint_merges_the_leaves_it_kept_apart() {
    // Invariant: every op leaves its view canonical (tidy is a fixed point;
    // debug builds assert it). Witness, found by fuzz target chain
    // (fuzz/regressions/chain/shrink-drops-constraint): after the reshape the
    // leaves (3,2):(2,1) are kept apart by the pad's bound 0 <= x0 < 2; the
    // shrink to 4 makes the bound always true, and its leaves (2,2):(2,1) must
    // then merge to 4:1.
    let s = t(&[1, 4])
        .pad(&[(0, 0), (0, 2)])
        .unwrap()
        .reshape(&[1, 1, 6])
        .unwrap()
        .reshape(&[3, 1, 2])
        .unwrap()
        .reshape(&[6])
        .unwrap();
    assert_eq!(s.to_string(), "((3,2)):((2,1)) if 0<=x0<2");
    let s = s.shrink(&[(0, 4)]).unwrap();
    assert_eq!(s.to_string(), "4:1");
    assert_eq!(
        s.offsets().collect::<Vec<_>>(),
        [Some(0), Some(1), Some(2), Some(3)]
    );
}

#[test]
fn a_flip_leaves_the_constraints_in_canonical_form() {
    // Invariant: every op leaves its view canonical (debug builds assert that
    // tidy is a fixed point); a flip re-canonicalises its constraints, whose
    // canonical rows are not invariant under a reflection (fixing signs and
    // order was not enough). Witness, found by fuzz target chain
    // (fuzz/regressions/chain/flip-recanonicalises); offsets checked against
    // the naive reference.
    use crate::common::ndarray::NdArray;
    let mut s = t(&[1, 3]);
    let mut a = NdArray::arange(&[1, 3]);
    let pad = |s: ViewStack, a: NdArray, p: &[(i64, i64)]| (s.pad(p).unwrap(), a.pad(p));
    (s, a) = pad(s, a, &[(0, 2), (1, 1)]);
    (s, a) = (s.reshape(&[15]).unwrap(), a.reshape(&[15]));
    (s, a) = pad(s, a, &[(1, 1)]);
    (s, a) = pad(s, a, &[(0, 2)]);
    (s, a) = (
        s.reshape(&[19, 1, 1, 1]).unwrap(),
        a.reshape(&[19, 1, 1, 1]),
    );
    (s, a) = pad(s, a, &[(2, 1), (2, 2), (0, 1), (0, 1)]);
    (s, a) = (
        s.reshape(&[5, 2, 2, 22]).unwrap(),
        a.reshape(&[5, 2, 2, 22]),
    );
    (s, a) = (
        s.stride(&[-1, -1, -1, 2]).unwrap(),
        a.stride(&[-1, -1, -1, 2]),
    );
    (s, a) = (s.reshape(&[20, 11]).unwrap(), a.reshape(&[20, 11]));
    (s, a) = pad(s, a, &[(2, 2), (1, 0)]);
    (s, a) = (
        s.reshape(&[3, 4, 2, 12]).unwrap(),
        a.reshape(&[3, 4, 2, 12]),
    );
    (s, a) = (
        s.stride(&[-3, -3, -1, -1]).unwrap(),
        a.stride(&[-3, -3, -1, -1]),
    );
    let flags = [false, true, false, false];
    (s, a) = (s.flip(&flags).unwrap(), a.flip(&flags));
    let got: Vec<i64> = s.offsets().map(|o| o.unwrap_or(-1)).collect();
    assert_eq!((s.shape(), got), (a.shape.clone(), a.data));
}

/// The leaf coordinates `x` of `v` at dimension coordinates `i`, by the rule
/// `docs/views.md` states: each dimension's leaves are the row-major digits of
/// `i_d` (plus the window's start when it has one).
fn leaf_coords(v: &hlayout::View, i: &[i64]) -> Vec<i64> {
    let ext = v.leaf_extents();
    let mut x = vec![0; ext.len()];
    for (d, &id) in i.iter().enumerate() {
        let mut r = id + v.window(d).map_or(0, |w| w.start());
        for k in v.dim_leaves(d).rev() {
            x[k] = r.rem_euclid(ext[k]);
            r = r.div_euclid(ext[k]);
        }
    }
    x
}

#[test]
fn view_text_form() {
    // Invariant: the view text form and its x's are what docs/views.md ("The text form") says:
    // x_k is leaf k's coordinate, the row-major digits of the dimension coordinates i_d that
    // the kernel uses; offset + Σ stride_k·x_k and the constraints on x give the element.
    // Witness: every row of that section's table.
    use hlayout::codegen::{self, Input, Lang};
    let pad = || t(&[4, 4]).pad(&[(1, 1), (0, 0)]).unwrap();
    let tr = || {
        t(&[10, 10])
            .permute(&[1, 0])
            .unwrap()
            .reshape(&[100])
            .unwrap()
    };
    let rows: [(ViewStack, &str, &str, &str); 7] = [
        (
            pad(),
            "(6,4):(4,1)-4 if 1<=x0<5",
            "i0 * 4 + i1 - 4",
            "i0 >= 1 && i0 < 5",
        ),
        (
            pad().reshape(&[24]).unwrap(),
            "((6,4)):((4,1))-4 if 1<=x0<5",
            "i0 - 4",
            "i0 >= 4 && i0 < 20",
        ),
        (tr(), "((10,10)):((1,10))", "i0 * 10 - i0 / 10 * 99", "1"),
        (
            tr().pad(&[(1, 1)]).unwrap(),
            "((10,10)):((1,10)) with d0 reading [-1,101) valid in [0,100)",
            "i0 * 10 - (i0 + 9) / 10 * 99 + 89",
            "i0 >= 1 && i0 < 101",
        ),
        (
            t(&[2, 6])
                .pad(&[(0, 0), (1, 1)])
                .unwrap()
                .reshape(&[2, 2, 4])
                .unwrap(),
            "(2,2,4):(6,4,1)-1 if 1<=4*x1+x2<7",
            "i0 * 6 + i1 * 4 + i2 - 1",
            "i1 * 4 + i2 >= 1 && i1 * 4 + i2 < 7",
        ),
        (
            t(&[3, 4]).flip(&[true, false]).unwrap(),
            "(3,4):(-4,1)+8",
            "i1 - i0 * 4 + 8",
            "1",
        ),
        (
            tr().reshape(&[4, 25]).unwrap(),
            "((10,10)):((1,10)) | (4,25):(25,1)",
            "i0 * 250 + i1 * 10 - (i0 * 25 + i1) / 10 * 99",
            "1",
        ),
    ];
    for (s, text, index, valid) in rows {
        assert_eq!(s.to_string(), text);
        let k = codegen::stack(&s, Input::Coords).unwrap();
        assert_eq!(
            k.render(Lang::C),
            (index.to_string(), valid.to_string()),
            "{text}"
        );
        if s.views().len() != 1 {
            continue;
        }
        let v = &s.views()[0];
        let shape = s.shape();
        for n in 0..s.size() {
            let mut i = vec![0; shape.len()];
            let mut r = n;
            for (c, &e) in i.iter_mut().zip(&shape).rev() {
                *c = r % e;
                r /= e;
            }
            let x = leaf_coords(v, &i);
            let dot = |a: &[i64]| a.iter().zip(&x).map(|(p, q)| p * q).sum::<i64>();
            let windows_ok = (0..shape.len()).all(|d| {
                v.window(d)
                    .is_none_or(|w| (w.lo()..w.hi()).contains(&(i[d] + w.start())))
            });
            let ok = windows_ok
                && v.constraints()
                    .iter()
                    .all(|c| (c.lo()..c.hi()).contains(&dot(c.coeffs())));
            let want = ok.then(|| v.offset() + dot(v.leaf_strides()));
            assert_eq!(s.eval(&i).unwrap(), want, "{text} at {i:?}");
        }
    }
}

#[test]
fn concepts_movement_table() {
    // Invariant: docs/concepts.md §4's table of movement ops is what the ops give.
    // Witness: each row of the table on a 4x4 tensor (expand on 1x4).
    let rows: [(ViewStack, &str); 7] = [
        (t(&[4, 4]).reshape(&[2, 8]).unwrap(), "(2,8):(8,1)"),
        (t(&[4, 4]).permute(&[1, 0]).unwrap(), "(4,4):(1,4)"),
        (t(&[1, 4]).expand(&[3, 4]).unwrap(), "(3,4):(0,1)"),
        (
            t(&[4, 4]).pad(&[(1, 1), (0, 0)]).unwrap(),
            "(6,4):(4,1)-4 if 1<=x0<5",
        ),
        (
            t(&[4, 4]).shrink(&[(1, 3), (0, 4)]).unwrap(),
            "(2,4):(4,1)+4",
        ),
        (t(&[4, 4]).flip(&[true, false]).unwrap(), "(4,4):(-4,1)+12"),
        (t(&[4, 4]).stride(&[2, 1]).unwrap(), "(2,4):(8,1)"),
    ];
    for (s, text) in rows {
        assert_eq!(s.to_string(), text);
    }
}
