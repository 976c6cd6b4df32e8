//! Zero extents (tinygrad 0.10.3): a shape holding 0 has no elements and one
//! canonical view (every stride 0, offset 0, no mask); random chains that
//! pass through empty shapes are checked element by element against the
//! naive reference, and the only way back to elements (a pad) is all padding.

use crate::common;

use common::ndarray::NdArray;
use hlayout::{Error, Movement, ViewStack};
use proptest::prelude::*;

/// The canonical zero view's text for `shape`.
fn canonical(shape: &[i64]) -> String {
    let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    if shape.len() == 1 {
        format!("{}:0", shape[0])
    } else {
        format!("({}):({})", join(shape), join(&vec![0; shape.len()]))
    }
}

#[test]
fn empty_shapes_have_one_canonical_view_and_no_offsets() {
    // Invariant: tinygrad's View.create canonicalises a shape with 0. Witness: each constructor.
    let s = ViewStack::new(&[3, 0]).unwrap();
    assert_eq!(s.to_string(), canonical(&[3, 0]));
    assert_eq!(s.offsets().count(), 0);
    // Shrink to an empty range, from a two-view stack: one view remains.
    let two = ViewStack::new(&[10, 10])
        .unwrap()
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[4, 25])
        .unwrap();
    assert_eq!(two.views().len(), 2);
    let e = two.shrink(&[(2, 2), (0, 25)]).unwrap();
    assert_eq!((e.views().len(), e.to_string()), (1, canonical(&[0, 25])));
    // Expand 1 -> 0 is allowed (s == 1), 2 -> 0 is not.
    let x = ViewStack::new(&[1, 3]).unwrap().expand(&[0, 3]).unwrap();
    assert_eq!(x.to_string(), canonical(&[0, 3]));
    assert!(matches!(
        ViewStack::new(&[2, 3]).unwrap().expand(&[0, 3]),
        Err(Error::BadMovement { .. })
    ));
    // Reshape keeps the size (0), permute and flip keep the canonical form.
    let r = x
        .reshape(&[3, 0, 5])
        .unwrap()
        .permute(&[2, 0, 1])
        .unwrap()
        .flip(&[true, true, false])
        .unwrap();
    assert_eq!(r.to_string(), canonical(&[5, 3, 0]));
    assert!(matches!(
        r.clone().reshape(&[1]),
        Err(Error::BadMovement { .. })
    ));
    assert!(matches!(
        r.clone().reshape(&[-1, 0]),
        Err(Error::BadMovement { .. })
    ));
    // A pad that leaves a 0 stays empty; one that fills every extent is all padding.
    let p = r.clone().pad(&[(1, 0), (0, 0), (0, 0)]).unwrap();
    assert_eq!(p.to_string(), canonical(&[6, 3, 0]));
    let q = r.pad(&[(0, 0), (0, 0), (1, 1)]).unwrap();
    assert_eq!(q.shape(), vec![5, 3, 2]);
    assert_eq!(q.views().len(), 1);
    assert!(q.views()[0].is_empty());
    assert_eq!(q.offsets().collect::<Vec<_>>(), vec![None; 30]);
    // Negative extents stay errors.
    assert!(matches!(
        ViewStack::new(&[-1, 0]),
        Err(Error::BadMovement { .. })
    ));
    assert!(matches!(
        ViewStack::new(&[0]).unwrap().shrink(&[(1, 0)]),
        Err(Error::BadMovement { .. })
    ));
}

/// An op valid for `shape`, from the random words `w` (empty ranges and
/// 1 -> 0 expands are likely).
fn draw(shape: &[i64], w: &[u8]) -> Movement {
    let at = |k: usize| i64::from(w[k % w.len()]);
    let size: i64 = shape.iter().product();
    match w[0] % 6 {
        0 if size == 0 => Movement::Reshape(vec![at(1) % 3, 0, at(2) % 2 + 1]),
        0 => Movement::Reshape(vec![size]),
        1 => Movement::Permute((0..shape.len()).rev().collect()),
        2 => Movement::Expand(
            shape
                .iter()
                .enumerate()
                .map(|(d, &s)| if s == 1 { at(d + 1) % 3 } else { s })
                .collect(),
        ),
        3 => Movement::Pad(
            shape
                .iter()
                .enumerate()
                .map(|(d, _)| (at(d + 1) % 2, at(d + 2) % 2))
                .collect(),
        ),
        4 => Movement::Shrink(
            shape
                .iter()
                .enumerate()
                .map(|(d, &s)| {
                    let b = at(d + 1) % (s + 1);
                    (b, b + at(d + 3) % (s - b + 1))
                })
                .collect(),
        ),
        _ => Movement::Flip(
            shape
                .iter()
                .enumerate()
                .map(|(d, _)| at(d + 1) % 2 == 1)
                .collect(),
        ),
    }
}

fn apply(t: ViewStack, a: &NdArray, op: &Movement) -> (ViewStack, NdArray) {
    (t.apply(op).unwrap(), a.apply(op))
}

proptest! {
    #[test]
    fn chains_through_empty_shapes_match_the_reference(
        shape in prop::collection::vec(0i64..4, 1..4),
        words in prop::collection::vec(prop::collection::vec(any::<u8>(), 6), 1..7),
    ) {
        // Invariant: offsets equal the naive reference's, and an empty tensor is one canonical view.
        let mut t = ViewStack::new(&shape).unwrap();
        let mut a = NdArray::arange(&shape);
        for w in &words {
            let op = draw(&t.shape(), w);
            (t, a) = apply(t, &a, &op);
            prop_assert_eq!(t.shape(), a.shape.clone());
            let got: Vec<i64> = t.offsets().map(|o| o.unwrap_or(-1)).collect();
            prop_assert_eq!(&got, &a.data, "after {:?}", op);
            if a.data.is_empty() {
                prop_assert_eq!(t.views().len(), 1);
                prop_assert_eq!(t.to_string(), canonical(&a.shape));
            }
        }
    }
}

#[test]
fn huge_extents_beside_a_zero_have_size_zero() {
    // Invariant: a shape holding 0 has 0 elements whatever its other extents
    // (tinygrad's shapes are unbounded integers); no product of its extents may
    // overflow on the way, and an op that gives it elements again refuses with
    // Overflow when their count leaves i64. Witness: 2^40 x 2^40 x 0 (fuzz
    // target chain, regression fuzz/regressions/chain-zero-huge-extents).
    let big = 1i64 << 40;
    for shape in [[big, big, 0], [0, big, big], [big, 0, big]] {
        let s = ViewStack::new(&shape).unwrap();
        assert_eq!((s.size(), s.views()[0].size()), (0, 0), "{shape:?}");
        assert_eq!(s.offsets().count(), 0);
        assert_eq!(s.fill_offsets(&mut [0; 4], -1), 0);
        assert!(hlayout::codegen::stack(&s, hlayout::codegen::Input::Coords).is_ok());
        let k = hlayout::codegen::stack(&s, hlayout::codegen::Input::Linear);
        assert!(k.is_ok(), "{k:?}");
        let small = ViewStack::new(&[3, 0]).unwrap(); // no div or mod by the 0 extent
        let k = hlayout::codegen::stack(&small, hlayout::codegen::Input::Linear).unwrap();
        assert_eq!(k.c(), ("0".into(), "1".into()));
        // The zero view's layout prints (the algebra is not defined on it).
        let l = s.views()[0].layout();
        assert_eq!((l.size(), l.to_string()), (0, canonical(&shape)));
        assert!(s.views()[0].flatten().is_ok());
        assert!(s.eval(&[0, 0, 0]).is_err());
        let r = s.clone().reshape(&[0, big, big]).unwrap();
        assert_eq!(r.to_string(), canonical(&[0, big, big]));
        let wide = [i64::MAX, 3, 0]; // extents whose product, zero aside, leaves i64
        let r = ViewStack::new(&[0]).unwrap().reshape(&wide).unwrap();
        assert_eq!(r.to_string(), canonical(&wide));
        let e = ViewStack::new(&[1, 1, 0])
            .unwrap()
            .expand(&[big, big, 0])
            .unwrap();
        assert_eq!(e.to_string(), canonical(&[big, big, 0]));
        let p = ViewStack::new(&[1, 1, 0]).unwrap();
        let p = p.pad(&[(big, 0), (0, big), (0, 0)]).unwrap();
        assert_eq!(p.to_string(), canonical(&[big + 1, big + 1, 0]));
        let f = s
            .clone()
            .flip(&[true, false, true])
            .unwrap()
            .permute(&[2, 0, 1])
            .unwrap();
        assert_eq!(f.size(), 0);
        let cut: Vec<(i64, i64)> = shape.iter().map(|&e| (e.min(1), e)).collect();
        let x = s.clone().shrink(&cut).unwrap();
        assert_eq!(x.size(), 0);
        // Filling every extent: 2^80 elements of padding do not fit i64.
        let fill: Vec<(i64, i64)> = shape.iter().map(|&e| (0, i64::from(e == 0))).collect();
        assert!(
            matches!(s.pad(&fill), Err(Error::Overflow { .. })),
            "{shape:?}"
        );
    }
}
