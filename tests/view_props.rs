//! Random movement-op chains checked element by element against the naive
//! reference (materialise the index array and move it).

use crate::common;

use common::ndarray::NdArray;
use hlayout::{Movement, ViewStack};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// One step of a random chain, valid for the shape it is drawn for: a
/// movement op, or the Rust-only `stride` shortcut (not a [`Movement`]).
#[derive(Clone, Debug)]
pub(crate) enum Op {
    Move(Movement),
    Stride(Vec<i64>),
}

/// Draws from a pool of random words.
pub(crate) struct Draw<'a>(pub(crate) std::slice::Iter<'a, u32>);

impl Draw<'_> {
    fn below(&mut self, n: u32) -> u32 {
        self.0.next().copied().unwrap_or(0) % n.max(1)
    }
}

fn factor_into(mut n: i64, rank: usize, r: &mut Draw) -> Vec<i64> {
    let mut out = vec![1; rank];
    let mut d = 2;
    while n > 1 {
        while n % d == 0 {
            out[r.below(rank as u32) as usize] *= d;
            n /= d;
        }
        d += 1;
    }
    out
}

pub(crate) fn draw_op(shape: &[i64], r: &mut Draw) -> Op {
    let rank = shape.len();
    let size: i64 = shape.iter().product();
    Op::Move(match r.below(7) {
        0 => Movement::Reshape(factor_into(size, 1 + r.below(4) as usize, r)),
        1 => {
            let mut p: Vec<usize> = (0..rank).collect();
            for k in (1..rank).rev() {
                p.swap(k, r.below(k as u32 + 1) as usize);
            }
            Movement::Permute(p)
        }
        2 => Movement::Expand(
            shape
                .iter()
                .map(|&s| if s == 1 { 1 + r.below(3) as i64 } else { s })
                .collect(),
        ),
        3 if size <= 400 => Movement::Pad(
            shape
                .iter()
                .map(|_| (r.below(3) as i64, r.below(3) as i64))
                .collect(),
        ),
        4 => Movement::Shrink(
            shape
                .iter()
                .map(|&s| {
                    let b = r.below(s as u32) as i64;
                    (b, b + 1 + r.below((s - b) as u32) as i64)
                })
                .collect(),
        ),
        5 => Movement::Flip(shape.iter().map(|_| r.below(2) == 1).collect()),
        6 => {
            return Op::Stride(
                shape
                    .iter()
                    .map(|_| [1, 2, 3, -1, -2][r.below(5) as usize])
                    .collect(),
            )
        }
        _ => Movement::Flip(vec![false; rank]),
    })
}

pub(crate) fn apply(t: ViewStack, a: &NdArray, op: &Op) -> (ViewStack, NdArray) {
    match op {
        Op::Move(m) => (t.apply(m).unwrap(), a.apply(m)),
        Op::Stride(s) => (t.stride(s).unwrap(), a.stride(s)),
    }
}

/// Every element's offset (-1 for padding); the stream and the fill agree.
fn offsets(t: &ViewStack) -> Vec<i64> {
    let streamed: Vec<i64> = t.offsets().map(|o| o.unwrap_or(-1)).collect();
    let mut filled = vec![0; streamed.len()];
    assert_eq!(t.fill_offsets(&mut filled, -1), streamed.len());
    assert_eq!(filled, streamed, "fill and stream of {t}");
    streamed
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(384)))]

    /// Every op of a random chain gives exactly the reference's offsets, and a
    /// single view's stream, evaluation and flat form agree with it.
    #[test]
    fn random_chains_match_reference(
        shape in prop::collection::vec(1i64..=5, 1..=3),
        words in prop::collection::vec(any::<u32>(), 64),
    ) {
        let mut r = Draw(words.iter());
        let mut t = ViewStack::new(&shape).unwrap();
        let mut a = NdArray::arange(&shape);
        let mut history = Vec::new();
        for _ in 0..6 {
            let op = draw_op(&t.shape(), &mut r);
            history.push(op.clone());
            (t, a) = apply(t, &a, &op);
            prop_assert_eq!(&t.shape(), &a.shape, "{:?}", history);
            prop_assert_eq!(&offsets(&t), &a.data, "after {:?}: {}", history, t);
            if let [v] = t.views() {
                let mut buf = vec![0; a.data.len()];
                prop_assert_eq!(v.fill_offsets(&mut buf, -1), a.data.len());
                prop_assert_eq!(&buf, &a.data);
                if let Ok(flat) = v.flatten() {
                    for (i, &want) in a.data.iter().enumerate() {
                        let c = common::digits(i as i64, flat.shape());
                        prop_assert_eq!(flat.eval(&c).unwrap().unwrap_or(-1), want);
                    }
                }
            }
        }
    }
}

/// `n` random chains (up to six ops on a shape of up to 3 dimensions), each
/// with its reference offsets.
pub(crate) fn random_chains(n: usize) -> Vec<(ViewStack, Vec<i64>)> {
    let mut runner = TestRunner::deterministic();
    let strat = (
        prop::collection::vec(1i64..=5, 1..=3),
        prop::collection::vec(any::<u32>(), 64),
    );
    (0..n)
        .map(|_| {
            let (shape, words) = strat.new_tree(&mut runner).unwrap().current();
            let mut r = Draw(words.iter());
            let mut t = ViewStack::new(&shape).unwrap();
            let mut a = NdArray::arange(&shape);
            for _ in 0..6 {
                let op = draw_op(&t.shape(), &mut r);
                (t, a) = apply(t, &a, &op);
            }
            (t, a.data)
        })
        .collect()
}
