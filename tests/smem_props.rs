//! Shared memory (`hlayout::smem`), checked against brute force written from
//! the batch protocol's "Shared memory" section (not from the library's
//! code): every bank-conflict count over all threads and values, the
//! swizzle search against the exhaustive search over the whole range, the
//! swizzle between two layouts against every candidate at every index, and
//! F2 bases at every index, with import round trips.

use std::collections::{BTreeMap, BTreeSet};

use hlayout::algebra::ComposedLayout;
use hlayout::smem::{
    bank_conflicts, from_linear, search_candidates, swizzle_between, swizzle_search, to_linear,
    Access, SmemLayout,
};
use hlayout::{Error, Layout};
use proptest::prelude::*;

use crate::common;

/// `Sw<B,M,S>` from the protocol's formula (S ≥ 0 in the search range).
fn sw(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let y = ((1i64 << b) - 1) << (m + s);
    x ^ ((x & y) >> s)
}

/// A swizzle's `(B, M, S)`, and a `(wavefronts, ideal)` count.
type Bms = (i64, i64, i64);
type Count = (u64, u64);

/// The range of the protocol, in tie order (B, then M, then S).
fn range() -> Vec<(i64, i64, i64)> {
    let mut out = vec![(0, 0, 0)];
    for b in 1..=4 {
        for m in 0..=4 {
            for s in b..=7 {
                out.push((b, m, s));
            }
        }
    }
    out
}

/// `L(i)` of a plain or composed layout, from the definition.
fn eval(l: &SmemLayout, i: i64) -> i64 {
    match l {
        SmemLayout::Plain(p) => p.eval(i).unwrap(),
        SmemLayout::Swizzled(c) => {
            let s = c.swizzle();
            let x = c.offset() + c.layout().eval(i).unwrap();
            sw(s.bits(), s.base(), s.shift(), x)
        }
    }
}

/// The protocol's count, by brute force over all threads and values.
fn brute(l: &SmemLayout, a: &Layout, b: i64) -> (u64, u64) {
    let t_count = a.mode(0).unwrap().size();
    let v_count = a.mode(1).unwrap().size();
    let (mut w, mut ideal) = (0u64, 0u64);
    for warp in 0..(t_count + 31) / 32 {
        for v in 0..v_count {
            let mut words = BTreeSet::new();
            for t in warp * 32..((warp + 1) * 32).min(t_count) {
                let byte = eval(l, a.eval(t * v_count + v).unwrap()) * b;
                words.insert(byte.div_euclid(4));
            }
            let mut banks: BTreeMap<i64, u64> = BTreeMap::new();
            for word in &words {
                *banks.entry(word.rem_euclid(32)).or_default() += 1;
            }
            w += banks.values().max().copied().unwrap_or(0);
            ideal += (words.len() as u64).div_ceil(32);
        }
    }
    (w, ideal)
}

/// A random access `(T,V)` (T split in two leaves sometimes), strides ≥ 0,
/// and a tile `(R,C):(sr,sc)` (maybe swizzled) whose domain holds it.
fn case() -> impl Strategy<Value = (SmemLayout, Layout, i64)> {
    (
        (1i64..70, 1i64..5, 0i64..40, 0i64..9),
        (1i64..70, prop::bool::ANY),
        (0i64..70, 0i64..4, 0i64..4, 0i64..3, prop::bool::ANY),
        prop::sample::select(vec![1i64, 2, 4]),
    )
        .prop_map(
            |((t, v, st, sv), (cols, split), (sr, sc, bb, mm, swz), b)| {
                let a = if split && t % 2 == 0 {
                    Layout::new(
                        format!("(({},2),{v})", t / 2).parse().unwrap(),
                        format!("(({},{}),{sv})", st * 2 + 1, st).parse().unwrap(),
                    )
                    .unwrap()
                } else {
                    Layout::flat(&[t, v], &[st, sv]).unwrap()
                };
                let need = a.cosize().max(1);
                let rows = (need + cols - 1) / cols;
                let l = Layout::flat(&[rows, cols], &[sr + cols * sc.min(1), sc]).unwrap();
                let s = if swz && bb > 0 {
                    SmemLayout::Swizzled(
                        format!("Sw<{bb},{mm},{}> o 0 o {l}", bb + mm + 1)
                            .parse()
                            .unwrap(),
                    )
                } else {
                    SmemLayout::Plain(l)
                };
                (s, a, b)
            },
        )
        .prop_filter("access inside the tile", |(l, a, _)| a.cosize() <= l.size())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(256)))]

    #[test]
    fn bank_counts_equal_brute_force((l, a, b) in case()) {
        let c = bank_conflicts(&l, &Access::new(a.clone()).unwrap(), b).unwrap();
        prop_assert_eq!((c.wavefronts, c.ideal), brute(&l, &a, b));
        prop_assert_eq!(c.groups.iter().map(|g| u64::from(g.wavefronts)).sum::<u64>(), c.wavefronts);
    }

    #[test]
    fn swizzle_search_equals_exhaustive((l, a, b) in case()) {
        let plain = l.inner().clone();
        let acc = Access::new(a.clone()).unwrap();
        let found = swizzle_search(&plain, &acc, b).unwrap();
        let mut best: Option<(Count, Bms)> = None;
        for (bb, m, s) in range() {
            let c: ComposedLayout = format!("Sw<{bb},{m},{s}> o 0 o {plain}").parse().unwrap();
            let count = brute(&SmemLayout::Swizzled(c), &a, b);
            if best.is_none_or(|(w, _)| count.0 < w.0) {
                best = Some((count, (bb, m, s)));
            }
        }
        let ((w, ideal), (bb, m, s)) = best.unwrap();
        let sw = found.swizzle;
        prop_assert_eq!((sw.bits(), sw.base(), sw.shift()), (bb, m, s));
        prop_assert_eq!((found.wavefronts, found.ideal), (w, ideal));
        prop_assert_eq!(found.layout.to_string(), format!("Sw<{bb},{m},{s}> o 0 o {plain}"));
    }

    #[test]
    fn swizzle_between_is_exhaustive((l, _, _) in case(), pick in 0usize..111, noise in 0i64..3) {
        let (bb, m, s) = range()[pick];
        let inner = l.inner().clone();
        let target: SmemLayout = if noise == 0 {
            // A layout that differs from a swizzle of L somewhere, maybe.
            SmemLayout::Plain(Layout::flat(&[inner.size()], &[1 + pick as i64 % 3]).unwrap())
        } else {
            format!("Sw<{bb},{m},{s}> o 0 o {inner}").parse().unwrap()
        };
        let source = SmemLayout::Plain(inner.clone());
        let n = inner.size();
        let fits = |c: (i64, i64, i64), upto: i64| {
            (0..upto).all(|i| sw(c.0, c.1, c.2, eval(&source, i)) == eval(&target, i))
        };
        match swizzle_between(&source, &target).unwrap() {
            Ok(found) => {
                let c = (found.bits(), found.base(), found.shift());
                prop_assert!(fits(c, n));
                let first = range().into_iter().find(|&c| fits(c, n));
                prop_assert_eq!(first, Some(c));
            }
            Err(why) => {
                prop_assert!(range().into_iter().all(|c| !fits(c, why.index + 1)));
                let before = range().into_iter().filter(|&c| fits(c, why.index)).count();
                prop_assert_eq!(before as u32, why.fitted_before);
                prop_assert_eq!((why.from, why.to), (eval(&source, why.index), eval(&target, why.index)));
            }
        }
    }

    #[test]
    fn linear_bases_reproduce_the_layout(
        exps in prop::collection::vec(0u32..3, 1..5),
        strides in prop::collection::vec(-2i64..40, 4),
        swz in 0usize..111,
        offset in 0i64..2,
    ) {
        let shape: Vec<i64> = exps.iter().map(|&e| 1i64 << e).collect();
        let l = Layout::flat(&shape, &strides[..shape.len()]).unwrap();
        let (bb, m, s) = range()[swz];
        let layout: SmemLayout = if swz == 0 && offset == 0 {
            SmemLayout::Plain(l)
        } else {
            format!("Sw<{bb},{m},{s}> o {offset} o {l}").parse().unwrap()
        };
        let n = layout.size();
        let xor = |bases: &[i64], i: i64| {
            (0..bases.len()).filter(|&k| i >> k & 1 == 1).fold(0, |acc, k| acc ^ bases[k])
        };
        match to_linear(&layout) {
            Ok(Ok(bases)) => {
                prop_assert_eq!(bases.len() as u32, n.trailing_zeros());
                for i in 0..n {
                    prop_assert_eq!(eval(&layout, i), xor(&bases, i));
                }
                // Import: back to a layout with the same function.
                let back = from_linear(&bases).unwrap();
                prop_assert_eq!(back.size(), n);
                for i in 0..n {
                    prop_assert_eq!(eval(&back, i), eval(&layout, i));
                }
                prop_assert_eq!(to_linear(&back).unwrap().unwrap(), bases);
            }
            Ok(Err(why)) => {
                let bases: Vec<i64> = (0..n.trailing_zeros()).map(|k| eval(&layout, 1 << k)).collect();
                for i in 0..why.index {
                    prop_assert_eq!(eval(&layout, i), xor(&bases, i));
                }
                prop_assert_eq!(why.value, eval(&layout, why.index));
                prop_assert_eq!(why.expected, xor(&bases, why.index));
                prop_assert_ne!(why.value, why.expected);
            }
            Err(Error::Precondition { .. }) => {
                prop_assert!((0..n).any(|i| eval(&layout, i) < 0));
            }
            Err(e) => prop_assert!(false, "unexpected error {e}"),
        }
    }

    #[test]
    fn linear_import_is_exact(bases in prop::collection::vec(0i64..512, 0..7)) {
        let n = 1i64 << bases.len();
        let xor = |i: i64| (0..bases.len()).filter(|&k| i >> k & 1 == 1).fold(0, |acc, k| acc ^ bases[k]);
        match from_linear(&bases) {
            Ok(l) => {
                prop_assert_eq!(l.size(), n);
                for i in 0..n {
                    prop_assert_eq!(eval(&l, i), xor(i));
                }
                prop_assert_eq!(to_linear(&l).unwrap().unwrap(), bases);
            }
            Err(_) => {
                // No plain layout (2,…,2) with strides Sw(o_k) has the map
                // Sw(f(i)), for any swizzle in range; every plain layout of
                // size 2^n is such a refinement.
                for (bb, m, s) in range() {
                    let strides: Vec<i64> = bases.iter().rev().map(|&o| sw(bb, m, s, o)).collect();
                    let l = Layout::flat(&vec![2; bases.len()], &strides).unwrap();
                    prop_assert!((0..n).any(|i| l.eval(i).unwrap() != sw(bb, m, s, xor(i))));
                }
            }
        }
    }
}

#[test]
fn worked_examples() {
    let tile: SmemLayout = "(32,32):(32,1)".parse().unwrap();
    let by_cols = Access::new("(32,32):(32,1)".parse().unwrap()).unwrap();
    let c = bank_conflicts(&tile, &by_cols, 4).unwrap();
    assert_eq!((c.wavefronts, c.ideal), (1024, 32));
    let best = swizzle_search(tile.inner(), &by_cols, 4).unwrap();
    assert_eq!(best.swizzle.to_string(), "Sw<4,0,5>");
    assert_eq!(best.wavefronts, 64);
}

#[test]
fn bad_inputs_are_typed_errors() {
    let tile: SmemLayout = "(8,8):(8,1)".parse().unwrap();
    let a = Access::new("(8,8):(8,1)".parse().unwrap()).unwrap();
    assert!(matches!(
        bank_conflicts(&tile, &a, 3),
        Err(Error::Precondition { .. })
    ));
    assert!(matches!(
        Access::new("64:1".parse().unwrap()),
        Err(Error::Precondition { .. })
    ));
    let outside = Access::new("(8,8):(9,1)".parse().unwrap()).unwrap();
    let e = bank_conflicts(&tile, &outside, 4).unwrap_err();
    assert!(
        e.to_string().contains("thread 7 value 1 reads index 64"),
        "{e}"
    );
    let negative: SmemLayout = "(8,8):(8,-1)".parse().unwrap();
    let e = bank_conflicts(&negative, &a, 4).unwrap_err();
    assert!(
        e.to_string().contains("thread 0 value 1 reads offset -1"),
        "{e}"
    );
    let huge: SmemLayout = "(2,2):(4611686018427387904,1)".parse().unwrap();
    let two = Access::new("(2,1):(2,1)".parse().unwrap()).unwrap();
    assert!(matches!(
        bank_conflicts(&huge, &two, 4),
        Err(Error::Overflow { .. })
    ));
    let big = Access::new("(8192,4096):(4096,1)".parse().unwrap()).unwrap();
    let big_tile: SmemLayout = "(8192,4096):(4096,1)".parse().unwrap();
    assert!(matches!(
        bank_conflicts(&big_tile, &big, 4),
        Err(Error::BudgetExceeded { .. })
    ));
    assert!(matches!(
        swizzle_between(&"8:1".parse().unwrap(), &"4:1".parse().unwrap()),
        Err(Error::SizeMismatch { .. })
    ));
    assert!(matches!(
        to_linear(&"6:1".parse().unwrap()),
        Err(Error::Precondition { .. })
    ));
    assert!(matches!(
        from_linear(&[-1]),
        Err(Error::Precondition { .. })
    ));
    assert!(matches!(
        from_linear(&[1, 1]),
        Err(Error::Precondition { .. })
    ));
    assert_eq!(search_candidates().count(), 111);
}
