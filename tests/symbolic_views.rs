//! Views and movement ops over symbols (`hlayout::symbolic::SymViewStack`),
//! checked as functions against the concrete chain: for a symbolic chain
//! that answers, at several bindings per symbol (the extremes of each range
//! included) the bound stack gives the reference's offset at every element
//! and the reference's validity everywhere (the reference materialises the
//! index array and moves it, `common::ndarray`), and the concrete chain
//! succeeds; a chain whose concrete instance fails at some allowed binding
//! is refused. Random concrete chains (and the tinygrad reference chains)
//! are abstracted — one extent or op argument replaced by a symbol whose
//! range keeps or breaks the chain — and checked in both directions.

use crate::common;

#[path = "common/chains.rs"]
pub(crate) mod chains;

use common::ndarray::NdArray;
use hlayout::symbolic::{Assume, Poly, SymMovement, SymViewStack, Symbols};
use hlayout::{Error, Movement, ViewStack};
use proptest::prelude::*;

/// The concrete op at a binding.
pub(crate) fn bind_op(op: &SymMovement, values: &[i64]) -> Movement {
    op.bind(values).expect("small")
}

/// `(name, min, max, divisible_by)` of each symbol.
type Assumes<'a> = &'a [(&'a str, i64, i64, i64)];

/// A symbolic chain: its symbols, initial shape and ops.
pub(crate) struct Chain {
    pub(crate) syms: Symbols,
    pub(crate) shape: Vec<Poly>,
    pub(crate) ops: Vec<SymMovement>,
}

impl Chain {
    pub(crate) fn parse(assume: &[(&str, i64, i64, i64)], shape: &[&str], ops: &[&str]) -> Chain {
        let mut syms = common::symbolic::syms(assume);
        let shape = shape.iter().map(|t| syms.parse(t).unwrap()).collect();
        let ops = ops
            .iter()
            .map(|t| SymMovement::parse(t, &mut syms).unwrap())
            .collect();
        Chain { syms, shape, ops }
    }

    pub(crate) fn run(&self) -> hlayout::Result<SymViewStack> {
        self.ops
            .iter()
            .try_fold(SymViewStack::new(&self.shape, &self.syms)?, |t, op| {
                t.apply(op, &self.syms)
            })
    }

    /// Every binding of the symbols' ranges, at most `per` values each (the
    /// extremes and evenly spaced ones between, each allowed).
    pub(crate) fn bindings(&self, per: usize) -> Vec<Vec<i64>> {
        let mut all = vec![Vec::new()];
        for id in 0..self.syms.len() as u8 {
            let a = self.syms.assumption(id);
            let (lo, hi) = self.syms.range(id);
            let d = a.divisible_by;
            let count = (hi - lo) / d + 1;
            let mut vals: Vec<i64> = (0..count.min(per as i64))
                .map(|k| lo + d * (k * (count - 1) / (count.min(per as i64) - 1).max(1)))
                .collect();
            vals.dedup();
            all = all
                .into_iter()
                .flat_map(|b| {
                    vals.iter().map(move |&v| {
                        let mut b = b.clone();
                        b.push(v);
                        b
                    })
                })
                .collect();
        }
        all
    }

    /// The concrete chain at a binding: the reference array and the
    /// library's stack, or the concrete error.
    pub(crate) fn concrete(&self, values: &[i64]) -> Result<(NdArray, ViewStack), Error> {
        let shape: Vec<i64> = self
            .shape
            .iter()
            .map(|p| p.eval(values).unwrap() as i64)
            .collect();
        let mut t = ViewStack::new(&shape)?;
        let mut a = NdArray::arange(&shape);
        for op in &self.ops {
            let m = bind_op(op, values);
            t = t.apply(&m)?;
            a = a.apply(&m);
        }
        Ok((a, t))
    }
}

impl Chain {
    /// `true` when some shape along the concrete chain holds a 0.
    fn empty_on_the_way(&self, values: &[i64]) -> bool {
        let shape: Vec<i64> = self
            .shape
            .iter()
            .map(|p| p.eval(values).unwrap() as i64)
            .collect();
        let mut t = ViewStack::new(&shape).unwrap();
        let mut empty = shape.contains(&0);
        for op in &self.ops {
            t = t.apply(&bind_op(op, values)).unwrap();
            empty |= t.shape().contains(&0);
        }
        empty
    }
}

fn offsets(t: &ViewStack) -> Vec<i64> {
    t.offsets().map(|o| o.unwrap_or(-1)).collect()
}

/// The symbolic answer agrees with the concrete chain at every binding:
/// `Ok(answer)` checked, or the symbolic error when it refused, after
/// checking that a refusal with no need is right (`needs: []` or a
/// `BadMovement`: some binding fails concretely).
fn check(c: &Chain, per: usize) -> Result<SymViewStack, Error> {
    let text = c
        .ops
        .iter()
        .map(|op| op.show(&c.syms).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    match c.run() {
        Ok(s) => {
            for values in c.bindings(per) {
                let (a, t) = c.concrete(&values).unwrap_or_else(|e| {
                    panic!("{text} at {values:?}: the symbolic chain answered, the concrete one failed: {e}")
                });
                let bound = s.bind(&c.syms, &values).unwrap();
                assert_eq!(bound.shape(), a.shape, "{text} at {values:?}");
                assert_eq!(
                    offsets(&bound),
                    a.data,
                    "{text} at {values:?}: {} bound to {bound}, concrete {t}",
                    s.show(&c.syms)
                );
            }
            Ok(s)
        }
        Err(e) => {
            if matches!(e, Error::BadMovement { .. }) {
                let fails = c.bindings(per).iter().any(|v| c.concrete(v).is_err());
                assert!(
                    fails,
                    "{text}: refused with {e} but every binding tried works"
                );
            }
            Err(e)
        }
    }
}

fn needs(e: &Error) -> Vec<String> {
    match e {
        Error::NeedsFacts { needs, .. } => needs.clone(),
        other => panic!("expected NeedsFacts, got {other}"),
    }
}

// ---------------------------------------------------------------------------
// Named chains.

#[test]
fn kv_cache_chains_agree_at_every_binding() {
    // A KV cache of 128 positions, 8 heads of 16; start_pos `sp` < 128.
    let c = Chain::parse(
        &[("sp", 0, 127, 1)],
        &["128", "8", "16"],
        &[
            r#"["shrink",[[0,"sp+1"],[0,8],[0,16]]]"#,
            r#"["permute",[1,0,2]]"#,
            r#"["reshape",[1,8,"sp+1",16]]"#,
            r#"["expand",[4,8,"sp+1",16]]"#,
        ],
    );
    let s = check(&c, 5).unwrap();
    assert_eq!(s.show(&c.syms).to_string(), "(4,8,sp+1,16):(0,16,128,1)");
    // The new token's row padded up to the cache length.
    let c = Chain::parse(
        &[("sp", 0, 63, 1)],
        &["sp+1", "16"],
        &[r#"["pad",[[0,"63-sp"],[0,0]]]"#, r#"["reshape",[64,4,4]]"#],
    );
    let s = check(&c, 6).unwrap();
    assert_eq!(
        s.show(&c.syms).to_string(),
        "(64,4,4):(16,4,1) if 0<=x0<sp+1"
    );
}

#[test]
fn batch_and_sequence_chains_agree_at_every_binding() {
    let cases: &[(Assumes, &[&str], &[&str])] = &[
        (
            &[("B", 1, 4, 1), ("S", 1, 6, 1)],
            &["B", "S", "8"],
            &[r#"["permute",[1,0,2]]"#, r#"["reshape",["S","8*B"]]"#],
        ),
        (
            &[("B", 1, 4, 1), ("S", 1, 6, 1)],
            &["B", "S", "8"],
            &[
                r#"["reshape",["B*S",8]]"#,
                r#"["reshape",["B","S",2,4]]"#,
                r#"["permute",[3,1,2,0]]"#,
            ],
        ),
        (
            &[("N", 1, 9, 1)],
            &["N", "4"],
            &[
                r#"["permute",[1,0]]"#,
                r#"["reshape",["4*N"]]"#,
                r#"["shrink",[[1,"4*N"]]]"#,
            ],
        ),
        (
            &[("N", 2, 9, 1)],
            &["N", "4"],
            &[
                r#"["flip",[true,false]]"#,
                r#"["pad",[[1,1],[2,"N"]]]"#,
                r#"["shrink",[[1,"N+1"],[0,6]]]"#,
                r#"["flip",[true,true]]"#,
            ],
        ),
        (
            &[("N", 1, 7, 1)],
            &["N", "6"],
            &[
                r#"["permute",[1,0]]"#,
                r#"["reshape",["6*N"]]"#,
                r#"["reshape",["N",6]]"#,
            ],
        ),
        (
            &[("N", 4, 16, 4)],
            &["N", "3"],
            &[
                r#"["reshape",["3*N"]]"#,
                r#"["pad",[[2,2]]]"#,
                r#"["reshape",[1,"3*N+4"]]"#,
                r#"["expand",[3,"3*N+4"]]"#,
                r#"["flip",[false,true]]"#,
            ],
        ),
        (
            &[("j", 0, 5, 1)],
            &["4", "5"],
            &[
                r#"["pad",[["j",0],[0,"j"]]]"#,
                r#"["permute",[1,0]]"#,
                r#"["shrink",[[0,5],[0,"j+1"]]]"#,
            ],
        ),
        (
            &[("M", 1, 5, 1), ("K", 1, 3, 1)],
            &["M", "K"],
            &[
                r#"["reshape",["M",1,"K"]]"#,
                r#"["expand",["M",3,"K"]]"#,
                r#"["permute",[2,1,0]]"#,
                r#"["reshape",["3*K","M"]]"#,
            ],
        ),
        (
            &[("N", 1, 6, 1)],
            &["2*N", "3"],
            &[
                r#"["reshape",[2,"N",3]]"#,
                r#"["pad",[[0,0],[1,0],[0,0]]]"#,
                r#"["reshape",[2,"3*N+3"]]"#,
                r#"["flip",[true,true]]"#,
            ],
        ),
    ];
    for (assume, shape, ops) in cases {
        let c = Chain::parse(assume, shape, ops);
        check(&c, 6).unwrap_or_else(|e| panic!("{ops:?}: {e}"));
    }
}

#[test]
fn single_views_where_the_symbols_allow() {
    let c = Chain::parse(
        &[("N", 1, 8, 1)],
        &["N", "4"],
        &[r#"["permute",[1,0]]"#, r#"["reshape",["4*N"]]"#],
    );
    let s = check(&c, 8).unwrap();
    assert_eq!(s.show(&c.syms).to_string(), "((4,N)):((1,4))");
    // (N,4)->(4,N): no split of a symbolic leaf by a constant that divides it.
    let c = Chain::parse(&[("N", 1, 8, 1)], &["N", "4"], &[r#"["reshape",[4,"N"]]"#]);
    let s = check(&c, 8).unwrap();
    assert_eq!(s.views().len(), 1, "{}", s.show(&c.syms));
    let c = Chain::parse(
        &[("N", 1, 8, 1)],
        &["N", "4"],
        &[r#"["permute",[1,0]]"#, r#"["reshape",[2,"2*N"]]"#],
    );
    let s = check(&c, 8).unwrap();
    assert_eq!(s.show(&c.syms).to_string(), "(2,(2,N)):(2,(1,4))");
    // The transpose of (N,M) flattened and cut as (N,M): two views.
    let c = Chain::parse(
        &[("N", 1, 5, 1), ("M", 1, 5, 1)],
        &["N", "M"],
        &[
            r#"["permute",[1,0]]"#,
            r#"["reshape",["N*M"]]"#,
            r#"["reshape",["N","M"]]"#,
        ],
    );
    let s = check(&c, 5).unwrap();
    assert_eq!(s.views().len(), 2, "{}", s.show(&c.syms));
}

#[test]
fn padded_boxes_survive_merges_and_splits() {
    // The padded sequence axis merged with the heads: one view, the box
    // scaled; split again by the symbol-free factor, the box comes back.
    let c = Chain::parse(
        &[("sp", 0, 15, 1)],
        &["sp+1", "4"],
        &[r#"["pad",[[0,"15-sp"],[0,0]]]"#, r#"["reshape",[64]]"#],
    );
    let s = check(&c, 6).unwrap();
    assert_eq!(s.show(&c.syms).to_string(), "64:1 if 0<=x0<4*sp+4");
    let c = Chain::parse(
        &[("sp", 0, 15, 1)],
        &["sp+1", "4"],
        &[
            r#"["pad",[[0,"15-sp"],[0,0]]]"#,
            r#"["reshape",[64]]"#,
            r#"["reshape",[16,2,2]]"#,
        ],
    );
    let s = check(&c, 6).unwrap();
    assert_eq!(
        s.show(&c.syms).to_string(),
        "(16,2,2):(4,2,1) if 0<=x0<sp+1"
    );
    // A symbolic factor splits a box whose bounds it divides.
    let c = Chain::parse(
        &[("N", 1, 5, 1), ("M", 1, 3, 1), ("j", 0, 2, 1)],
        &["N", "M"],
        &[
            r#"["pad",[["j",1],[0,0]]]"#,
            r#"["reshape",["N*M+M*j+M"]]"#,
            r#"["reshape",["N+j+1","M"]]"#,
        ],
    );
    let s = check(&c, 4).unwrap();
    assert_eq!(s.views().len(), 1, "{}", s.show(&c.syms));
}

/// A pad of a merged dimension pushes a box view; a shrink that undoes it
/// folds the box back into the view below (module `fold`), also when the
/// same ops pad and shrink one-leaf dimensions, or a flip comes between.
/// Other ops between them end the folding.
#[test]
fn a_shrink_that_undoes_a_pad_folds_the_box() {
    let syms = [("N", 2, 5, 1), ("M", 1, 3, 1), ("j", 0, 2, 1)];
    let merged = [
        r#"["reshape",["M",3,"N+1",1]]"#,
        r#"["pad",[[0,1],[0,0],[0,"j"],["j","j"]]]"#,
        r#"["reshape",["M+1",3,"2*N*j+2*j*j+N+3*j+1"]]"#,
    ];
    let round_trip = [
        r#"["pad",[[1,0],[0,1],[0,1]]]"#,
        r#"["shrink",[[0,"M+1"],[0,1],[0,"2*N*j+2*j*j+N+3*j+1"]]]"#,
    ];
    let run = |ops: &[&str]| {
        let c = Chain::parse(&syms, &["M", "3", "N+1"], &[&merged[..], ops].concat());
        let s = check(&c, 4).unwrap();
        (s.show(&c.syms).to_string(), s.views().len())
    };
    assert_eq!(
        run(&round_trip).0,
        "(M+1,1,(N+j+1,2*j+1)):(3*N+3,N+1,(1,0))-3*N-3 if 1<=x0<M+1 && 0<=x2<N+1 && j<=x3<j+1"
    );
    // Halfway, the box is still there: the merged dimension is padded.
    assert_eq!(run(&round_trip[..1]).1, 2);
    // A flip between the pad and the shrink: the box reads that dimension
    // backwards, and still folds.
    let flip = r#"["flip",[true,false,false]]"#;
    assert_eq!(run(&[round_trip[0], flip, round_trip[1]]).1, 1);
    // A permute between them ends the tracking: two views.
    let permute = r#"["permute",[0,2,1]]"#;
    let shrink = r#"["shrink",[[0,"M+1"],[0,"2*N*j+2*j*j+N+3*j+1"],[0,1]]]"#;
    assert_eq!(run(&[round_trip[0], permute, shrink]).1, 2);
}

// ---------------------------------------------------------------------------
// Refusals.

#[test]
fn reshape_to_another_size_is_refused_for_every_x() {
    // tinygrad 0.10.3 accepts (x,4) -> (x,5) unchecked.
    let c = Chain::parse(
        &[("x", 1, 100, 1)],
        &["x", "4"],
        &[r#"["reshape",["x",5]]"#],
    );
    let e = check(&c, 5).unwrap_err();
    assert!(matches!(e, Error::BadMovement { op: "reshape", .. }), "{e}");
    // Equal sizes only at some x: the fact is named.
    let c = Chain::parse(&[("x", 1, 100, 1)], &["x", "4"], &[r#"["reshape",[8,4]]"#]);
    let e = check(&c, 5).unwrap_err();
    assert_eq!(needs(&e), ["x == 8"]);
}

#[test]
fn unproved_preconditions_name_their_facts() {
    let cases: &[(Assumes, &[&str], &str, &[&str])] = &[
        (
            &[("N", 1, 100, 1)],
            &["N", "64"],
            r#"["shrink",[[0,"sp+1"],[0,64]]]"#,
            &["N-sp >= 1"],
        ),
        (
            &[("N", 1, 100, 1)],
            &["N"],
            r#"["shrink",[[2,"N"]]]"#,
            &["N >= 3"],
        ),
        (
            &[("N", 1, 100, 1)],
            &["N"],
            r#"["expand",[8]]"#,
            &["N == 8"],
        ),
        (
            &[("N", 1, 100, 1)],
            &["N-1"],
            r#"["flip",[true]]"#,
            &["N >= 2"],
        ),
        (
            &[("N", 1, 100, 1)],
            &["N"],
            r#"["pad",[["N-5",0]]]"#,
            &["N >= 5"],
        ),
        (
            &[("N", 1, 100, 1)],
            &["N", "4"],
            r#"["reshape",["N",2,"M"]]"#,
            &["-2*N*M+4*N == 0"],
        ),
    ];
    for (assume, shape, op, want) in cases {
        let c = Chain::parse(assume, shape, &[op]);
        let e = check(&c, 4).unwrap_err();
        assert_eq!(needs(&e), *want, "{op}: {e}");
    }
    // Refuted for every binding: the concrete error.
    let c = Chain::parse(&[("N", 1, 100, 1)], &["N"], &[r#"["shrink",[[0,"N+1"]]]"#]);
    assert!(matches!(
        c.run().unwrap_err(),
        Error::BadMovement { op: "shrink", .. }
    ));
    let c = Chain::parse(&[("N", 2, 100, 1)], &["N"], &[r#"["expand",["N+1"]]"#]);
    assert!(matches!(
        c.run().unwrap_err(),
        Error::BadMovement { op: "expand", .. }
    ));
    let c = Chain::parse(&[("N", 1, 100, 1)], &["N"], &[r#"["pad",[["-N",0]]]"#]);
    assert!(matches!(
        c.run().unwrap_err(),
        Error::BadMovement { op: "pad", .. }
    ));
}

#[test]
fn needs_added_to_the_assumptions_give_an_answer() {
    let c = Chain::parse(&[], &["N", "64"], &[r#"["shrink",[[0,"sp+1"],[0,64]]]"#]);
    let e = c.run().unwrap_err();
    assert_eq!(needs(&e), ["N-sp >= 1"]);
    // sp + 1 <= N: with N = sp + 1 + k, k >= 0 (written over new symbols).
    let c = Chain::parse(
        &[("sp", 0, 7, 1), ("k", 0, 3, 1)],
        &["sp+1+k", "64"],
        &[r#"["shrink",[[0,"sp+1"],[0,64]]]"#],
    );
    check(&c, 8).unwrap();
}

#[test]
fn sizes_past_i64_are_refused() {
    let c = Chain::parse(&[], &["N", "M", "K"], &[]);
    let e = c.run().unwrap_err();
    assert_eq!(needs(&e), ["N*M*K <= 9223372036854775807"]);
    let c = Chain::parse(
        &[("N", 1, 1 << 20, 1)],
        &["N", "1"],
        &[r#"["expand",["N","M*M"]]"#],
    );
    assert!(!needs(&c.run().unwrap_err()).is_empty());
}

// ---------------------------------------------------------------------------
// Random concrete chains, abstracted.

/// One number of a concrete chain: the initial extent `k`, or number `k`
/// of op `op`'s argument (in the order they are written).
pub(crate) fn numbers(ops: &[Movement]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, m) in ops.iter().enumerate() {
        let n = match m {
            Movement::Reshape(v) | Movement::Expand(v) => v.len(),
            Movement::Pad(v) | Movement::Shrink(v) => 2 * v.len(),
            Movement::Permute(_) | Movement::Flip(_) => 0,
        };
        out.extend((0..n).map(|k| (i, k)));
    }
    out
}

/// The chain with one number replaced by `x + (v - lo)`... kept simple:
/// the number `v` at `at` becomes the symbol `x` itself, `x ∈ [lo, hi]`
/// (which holds `v`).
pub(crate) fn abstracted(
    shape: &[i64],
    ops: &[Movement],
    at: Option<(usize, usize)>,
    lo: i64,
    hi: i64,
) -> Chain {
    let mut syms = Symbols::new();
    syms.assume(
        "x",
        Assume {
            min: lo,
            max: hi,
            divisible_by: 1,
        },
    )
    .unwrap();
    let x = syms.parse("x").unwrap();
    let mut shape: Vec<Poly> = shape.iter().map(|&v| Poly::constant(v)).collect();
    let mut ops: Vec<SymMovement> = ops.iter().map(SymMovement::from).collect();
    match at {
        None => shape[0] = x,
        Some((i, k)) => match &mut ops[i] {
            SymMovement::Reshape(v) | SymMovement::Expand(v) => v[k] = x,
            SymMovement::Pad(v) | SymMovement::Shrink(v) => {
                if k % 2 == 0 {
                    v[k / 2].0 = x
                } else {
                    v[k / 2].1 = x
                }
            }
            _ => unreachable!("no number"),
        },
    }
    Chain { syms, shape, ops }
}

pub(crate) fn value_at(shape: &[i64], ops: &[Movement], at: Option<(usize, usize)>) -> i64 {
    match at {
        None => shape[0],
        Some((i, k)) => match &ops[i] {
            Movement::Reshape(v) | Movement::Expand(v) => v[k],
            Movement::Pad(v) | Movement::Shrink(v) => {
                if k % 2 == 0 {
                    v[k / 2].0
                } else {
                    v[k / 2].1
                }
            }
            _ => unreachable!("no number"),
        },
    }
}

/// Checks one abstraction in both directions. Fixed to one value (its own
/// and its neighbours), the symbolic chain answers exactly when the
/// concrete one does without an empty intermediate shape (extents stay
/// `>= 1` over symbols), and agrees; over a range, an answer agrees at
/// every binding and a binding that fails concretely forces a refusal.
fn check_abstraction(
    shape: &[i64],
    ops: &[Movement],
    at: Option<(usize, usize)>,
    below: i64,
    above: i64,
) {
    let v = value_at(shape, ops, at);
    let least = if at.is_none() { 1 } else { 0 };
    for x in (v - 1).max(least)..=v + 1 {
        let fixed = abstracted(shape, ops, at, x, x);
        let concrete = fixed.concrete(&[x]);
        let empty = concrete.is_ok() && fixed.empty_on_the_way(&[x]);
        let got = check(&fixed, 1);
        if !empty {
            assert_eq!(
                got.is_ok(),
                concrete.is_ok(),
                "{ops:?} with {at:?} fixed to {x}: {:?}",
                got.err()
            );
        }
    }
    let lo = (v - below).max(least);
    let wide = abstracted(shape, ops, at, lo, v + above);
    let any_fails = wide.bindings(64).iter().any(|b| wide.concrete(b).is_err());
    let got = check(&wide, 64);
    if any_fails {
        assert!(
            got.is_err(),
            "{ops:?} with {at:?} in [{lo}, {}]: answered",
            v + above
        );
    }
}

/// The ops of a random concrete chain (no `stride`): movement ops drawn
/// for the current shape.
pub(crate) fn chain_ops(shape: &[i64], words: &[u32]) -> Vec<Movement> {
    let mut r = crate::view_props::Draw(words.iter());
    let mut t = ViewStack::new(shape).unwrap();
    let mut ops = Vec::new();
    while ops.len() < 5 {
        if let crate::view_props::Op::Move(m) = crate::view_props::draw_op(&t.shape(), &mut r) {
            t = t.apply(&m).unwrap();
            ops.push(m);
        }
        if r.0.len() == 0 {
            break;
        }
    }
    ops
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(256)))]

    /// A random chain with one number abstracted, both directions.
    #[test]
    fn abstracted_random_chains_agree(
        shape in prop::collection::vec(1i64..=4, 1..=3),
        words in prop::collection::vec(any::<u32>(), 64),
        pick in any::<u32>(),
        below in 0i64..=2,
        above in 0i64..=2,
    ) {
        let ops = chain_ops(&shape, &words);
        let nums = numbers(&ops);
        let k = pick as usize % (nums.len() + 1);
        let at = nums.get(k).copied();
        check_abstraction(&shape, &ops, at, below, above);
    }
}

#[test]
fn abstracted_tinygrad_chains_agree() {
    for (shape, ops) in chains::chains() {
        let size: i64 = shape.iter().product();
        if size > 4096 || shape.contains(&0) || shape.is_empty() {
            continue;
        }
        if chains::apply(&shape, &ops).is_ok_and(|t| t.size() == 0) {
            continue;
        }
        let nums = numbers(&ops);
        for at in std::iter::once(None).chain(nums.iter().copied().map(Some).take(3)) {
            check_abstraction(&shape, &ops, at, 1, 1);
        }
    }
}

#[test]
fn from_concrete_binds_to_the_same_stack() {
    for (s, want) in crate::view_props::random_chains(common::cases(64) as usize) {
        let sym = SymViewStack::from_concrete(&s).unwrap();
        let windowed = s
            .views()
            .iter()
            .any(|v| (0..v.rank()).any(|d| v.window(d).is_some()));
        if !windowed {
            assert_eq!(sym.show(&Symbols::new()).to_string(), s.to_string());
        }
        let bound = sym.bind(&Symbols::new(), &[]).unwrap();
        assert_eq!(offsets(&bound), want, "{s}");
    }
}

// ---------------------------------------------------------------------------
// Random symbolic chains: ops drawn over symbolic shapes (N ∈ [2,5],
// M ∈ [1,3], j ∈ [0,2]) so that every precondition holds for every
// binding; each must be answered and agree at every binding.

pub(crate) struct Words<'a>(pub(crate) std::slice::Iter<'a, u32>);

impl Words<'_> {
    fn below(&mut self, n: usize) -> usize {
        self.0.next().copied().unwrap_or(0) as usize % n.max(1)
    }
}

/// A concrete stack with windows becomes a box over the view of its
/// leaves (its shifts the window starts); padded by a symbol `j` on top,
/// its kernel (which lowers the box dimension by dimension) gives the
/// concrete chain's offset and validity at every point, for every `j`.
#[test]
fn windows_lower_as_boxes_under_symbolic_ops() {
    let mut windowed = 0;
    for (s, _) in crate::view_props::random_chains(10 * common::cases(64) as usize) {
        let has_window = s
            .views()
            .iter()
            .any(|v| (0..v.rank()).any(|d| v.window(d).is_some()));
        if !has_window {
            continue;
        }
        windowed += 1;
        let mut syms = Symbols::new();
        let j = syms.parse("j").unwrap();
        let one = Assume {
            min: 0,
            max: 2,
            divisible_by: 1,
        };
        syms.assume("j", one).unwrap();
        let rank = s.shape().len();
        let mut arg = vec![(Poly::zero(), Poly::zero()); rank];
        arg[0] = (j, Poly::constant(1));
        let t = SymViewStack::from_concrete(&s)
            .unwrap()
            .pad(&arg, &syms)
            .unwrap();
        let k = hlayout::codegen::sym_stack(&t, &syms, hlayout::codegen::Input::Coords).unwrap();
        for jv in 0..=2 {
            let mut concrete_arg = vec![(0, 0); rank];
            concrete_arg[0] = (jv, 1);
            let c = s.clone().apply(&Movement::Pad(concrete_arg)).unwrap();
            let shape = c.shape();
            for (i, want) in c.offsets().enumerate() {
                let p = common::digits(i as i64, &shape);
                let (idx, ok) = k.eval(&syms, &p, &[jv]).unwrap();
                assert_eq!(ok, want.is_some(), "{s} padded at j = {jv}, {p:?}");
                if let Some(w) = want {
                    assert_eq!(idx, w, "{s} padded at j = {jv}, {p:?}");
                }
            }
        }
    }
    assert!(windowed >= 5, "{windowed} windowed stacks");
}

pub(crate) fn symbolic_table() -> Symbols {
    let mut s = Symbols::new();
    for (name, min, max) in [("N", 2, 5), ("M", 1, 3), ("j", 0, 2)] {
        s.assume(
            name,
            Assume {
                min,
                max,
                divisible_by: 1,
            },
        )
        .unwrap();
    }
    s
}

/// One op valid at every binding for a stack of shape `shape`.
pub(crate) fn draw_symbolic_op(shape: &[Poly], s: &Symbols, r: &mut Words) -> SymMovement {
    let p = |t: &str| {
        let mut s2 = s.clone();
        s2.parse(t).unwrap()
    };
    let one = Poly::constant(1);
    let rank = shape.len();
    let at_least_2 = |e: &Poly| {
        s.prove(&hlayout::symbolic::Fact::ge(e, &2.into()).unwrap())
            == hlayout::symbolic::Truth::Proved
    };
    match r.below(6) {
        0 => {
            let mut perm: Vec<usize> = (0..rank).collect();
            for k in (1..rank).rev() {
                perm.swap(k, r.below(k + 1));
            }
            SymMovement::Permute(perm)
        }
        1 => SymMovement::Flip((0..rank).map(|_| r.below(2) == 1).collect()),
        2 => {
            let amount = |r: &mut Words| [Poly::zero(), one.clone(), p("j")][r.below(3)].clone();
            SymMovement::Pad((0..rank).map(|_| (amount(r), amount(r))).collect())
        }
        3 => SymMovement::Shrink(
            shape
                .iter()
                .map(|e| {
                    let last = e.sub(&one).unwrap();
                    match r.below(4) {
                        1 if at_least_2(e) => (one.clone(), e.clone()),
                        2 if at_least_2(e) => (Poly::zero(), last),
                        3 => (Poly::zero(), one.clone()),
                        _ => (Poly::zero(), e.clone()),
                    }
                })
                .collect(),
        ),
        4 if shape.contains(&one) => SymMovement::Expand(
            shape
                .iter()
                .map(|e| {
                    if *e == one {
                        [p("M"), 3.into()][r.below(2)].clone()
                    } else {
                        e.clone()
                    }
                })
                .collect(),
        ),
        _ => SymMovement::Reshape(reshaped(shape, &p, r)),
    }
}

/// A new shape of the same size: adjacent dimensions merged, one split by
/// a constant or a symbol factor, a 1 inserted or removed, or all flattened.
fn reshaped(shape: &[Poly], p: &dyn Fn(&str) -> Poly, r: &mut Words) -> Vec<Poly> {
    let mut out = shape.to_vec();
    let one = Poly::constant(1);
    match r.below(5) {
        0 if out.len() >= 2 => {
            let d = r.below(out.len() - 1);
            let m = out[d].mul(&out[d + 1]).unwrap();
            out.splice(d..d + 2, [m]);
        }
        1 => {
            let d = r.below(out.len());
            let factors = [2.into(), 3.into(), p("N"), p("M"), p("N+1")];
            let f: &Poly = &factors[r.below(factors.len())];
            if let Some(q) = out[d].div_exact(f).filter(|q| *q != one) {
                out.splice(d..d + 1, [f.clone(), q]);
            }
        }
        2 if out.len() < 4 => {
            let d = r.below(out.len() + 1);
            out.insert(d, one);
        }
        3 => {
            if let Some(d) = out.iter().position(|e| *e == one) {
                if out.len() > 1 {
                    out.remove(d);
                }
            }
        }
        _ => {
            let size = out.iter().fold(one.clone(), |a, e| a.mul(e).unwrap());
            out = vec![size];
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(192)))]

    /// Random symbolic chains are answered and agree at every binding.
    #[test]
    fn random_symbolic_chains_agree(
        dims in prop::collection::vec(0usize..6, 1..=3),
        words in prop::collection::vec(any::<u32>(), 96),
    ) {
        let mut syms = symbolic_table();
        let texts = ["N", "M", "2", "3", "2*N", "N+1"];
        let shape: Vec<Poly> = dims.iter().map(|&k| syms.parse(texts[k]).unwrap()).collect();
        let mut r = Words(words.iter());
        let mut t = SymViewStack::new(&shape, &syms).unwrap();
        let mut ops = Vec::new();
        for _ in 0..6 {
            let op = draw_symbolic_op(&t.shape().unwrap(), &syms, &mut r);
            let before = t.show(&syms).to_string();
            t = t.apply(&op, &syms).unwrap_or_else(|e| {
                panic!("{before} then {}: {e}", op.show(&syms))
            });
            ops.push(op);
        }
        let c = Chain { syms: std::mem::take(&mut syms), shape, ops };
        let got = check(&c, 4).unwrap();
        prop_assert_eq!(got, t);
    }
}
