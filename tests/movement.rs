//! `Movement`, the one vocabulary of movement ops: its text form (the batch
//! protocol's JSON) round-trips and agrees with a JSON parser, its names are
//! the protocol's, and `ViewStack::stride`, the Rust-only shortcut, is the
//! chain of movement ops that tinygrad spells it with, at every element.

use crate::common;

use common::ndarray::NdArray;
use hlayout::codegen::{Input, Lang};
use hlayout::{Error, Movement, MovementKind, ViewStack};
use proptest::prelude::*;
use serde_json::{json, Value};

fn any_movement() -> impl Strategy<Value = Movement> {
    let ints = || prop::collection::vec(any::<i64>(), 0..5);
    let pairs = || prop::collection::vec((any::<i64>(), any::<i64>()), 0..5);
    prop_oneof![
        ints().prop_map(Movement::Reshape),
        prop::collection::vec(any::<usize>(), 0..5).prop_map(Movement::Permute),
        ints().prop_map(Movement::Expand),
        pairs().prop_map(Movement::Pad),
        pairs().prop_map(Movement::Shrink),
        prop::collection::vec(any::<bool>(), 0..5).prop_map(Movement::Flip),
    ]
}

/// The protocol's JSON of `m`, built independently of `Display`.
fn json_of(m: &Movement) -> Value {
    let arg = match m {
        Movement::Reshape(v) | Movement::Expand(v) => json!(v),
        Movement::Permute(v) => json!(v),
        Movement::Pad(v) | Movement::Shrink(v) => {
            json!(v.iter().map(|&(a, b)| [a, b]).collect::<Vec<_>>())
        }
        Movement::Flip(v) => json!(v),
    };
    json!([m.kind().name(), arg])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(256)))]

    /// Display writes the protocol's JSON (as a JSON parser reads it), and
    /// parsing it, or any JSON spelling of it, gives the op back.
    #[test]
    fn text_round_trips_and_is_the_protocols_json(m in any_movement()) {
        let text = m.to_string();
        let read: Value = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&read, &json_of(&m));
        prop_assert_eq!(&text.parse::<Movement>().unwrap(), &m);
        let spaced = serde_json::to_string_pretty(&read).unwrap();
        prop_assert_eq!(&spaced.parse::<Movement>().unwrap(), &m);
    }

    /// `stride` equals tinygrad's spelling with movement ops (a flip, then
    /// per dimension a pad to a multiple of the step, a split, a shrink to
    /// the first column, a merge) and the reference, at every element.
    #[test]
    fn stride_is_a_chain_of_movement_ops(
        shape in prop::collection::vec(0i64..=7, 1..=3),
        steps in prop::collection::vec(prop::sample::select(vec![1i64, 2, 3, 4, -1, -2, -3]), 3),
        prefix in prop::sample::select(vec![0usize, 1, 2]),
    ) {
        let steps = &steps[..shape.len()];
        // Start from a view that is not contiguous (a transpose, a pad) too.
        let mut t = ViewStack::new(&shape).unwrap();
        let mut a = NdArray::arange(&shape);
        let rank = shape.len();
        let before: Vec<Movement> = match prefix {
            1 => vec![Movement::Permute((0..rank).rev().collect())],
            2 => vec![Movement::Pad(vec![(1, 0); rank])],
            _ => vec![],
        };
        for m in &before {
            t = t.apply(m).unwrap();
            a = a.apply(m);
        }
        let chain = stride_chain(&t.shape(), steps);
        let by_chain = chain.iter().try_fold(t.clone(), ViewStack::apply).unwrap();
        let by_stride = t.stride(steps).unwrap();
        let want = a.stride(steps);
        prop_assert_eq!(&by_stride.shape(), &want.shape);
        prop_assert_eq!(&by_chain.shape(), &want.shape);
        let offsets = |s: &ViewStack| s.offsets().map(|o| o.unwrap_or(-1)).collect::<Vec<_>>();
        prop_assert_eq!(&offsets(&by_stride), &want.data);
        prop_assert_eq!(&offsets(&by_chain), &want.data, "{:?}", chain);
    }
}

/// tinygrad's spelling of `x[::step]` per dimension on a tensor of `shape`.
fn stride_chain(shape: &[i64], steps: &[i64]) -> Vec<Movement> {
    let mut ops = vec![Movement::Flip(steps.iter().map(|&k| k < 0).collect())];
    let mut shape = shape.to_vec();
    for (d, &step) in steps.iter().enumerate() {
        let k = step.abs();
        if k == 1 {
            continue;
        }
        let n = shape[d];
        let m = (n + k - 1) / k;
        let mut pad = vec![(0, 0); shape.len()];
        pad[d] = (0, m * k - n);
        let mut split = shape.clone();
        split[d] = m;
        split.insert(d + 1, k);
        let mut keep: Vec<(i64, i64)> = split.iter().map(|&e| (0, e)).collect();
        keep[d + 1] = (0, 1);
        shape[d] = m;
        ops.extend([
            Movement::Pad(pad),
            Movement::Reshape(split),
            Movement::Shrink(keep),
            Movement::Reshape(shape.clone()),
        ]);
    }
    ops
}

#[test]
fn malformed_text_is_a_parse_error_at_its_byte() {
    for (text, pos) in [
        ("", 0),
        ("reshape", 0),
        ("[reshape,[2]]", 1),
        (r#"["reshape" [2]]"#, 11),
        (r#"["reshape",2]"#, 11),
        (r#"["reshape",[2,]]"#, 14),
        (r#"["reshape",[2 3]]"#, 14),
        (r#"["reshape",[9223372036854775808]]"#, 12),
        (r#"["permute",[0,-1]]"#, 14),
        (r#"["pad",[1,1]]"#, 8),
        (r#"["pad",[[1,1,1]]]"#, 12),
        (r#"["flip",[1]]"#, 9),
        (r#"["flip",[true]] x"#, 16),
        (r#"["flip",[true]"#, 14),
        (r#"["flip"#, 6),
    ] {
        match text.parse::<Movement>() {
            Err(Error::Parse { pos: at, .. }) => assert_eq!(at, pos, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn unknown_names_list_the_known_ones() {
    let e = r#"["stride",[2]]"#.parse::<Movement>().unwrap_err();
    assert_eq!(
        e,
        Error::UnknownName {
            what: "movement op",
            given: "stride".into(),
            known: &MovementKind::NAMES,
        }
    );
    let long = "x".repeat(1000);
    let e = long.parse::<Lang>().unwrap_err().to_string();
    assert!(
        e.len() < 200 && e.contains("known: c, cuda, rust, python"),
        "{e}"
    );
    let e = "rows".parse::<Input>().unwrap_err().to_string();
    assert_eq!(e, "unknown kernel input 'rows' (known: coords, linear)");
}

#[test]
fn the_vocabulary_is_tinygrads_and_the_protocols() {
    // tinygrad 0.10.3's ShapeTracker movement ops, and the chain ops the
    // batch protocol lists, in its order.
    let protocol = include_str!("../docs/batch-protocol.md");
    let listed = protocol
        .split("`chain` applies tinygrad's movement ops")
        .nth(1)
        .and_then(|s| s.split("with tinygrad 0.10.3's semantics").next())
        .expect("the protocol's list of chain ops");
    let names: Vec<&str> = listed
        .split("`[\"")
        .skip(1)
        .map(|s| s.split('"').next().unwrap_or(""))
        .collect();
    assert_eq!(names, MovementKind::NAMES);
    for (k, name) in MovementKind::ALL.iter().zip(MovementKind::NAMES) {
        assert_eq!(name.parse::<MovementKind>().unwrap(), *k);
        assert_eq!(k.to_string(), name);
    }
    // Every language name parses, and renders as its language.
    let want = [Lang::C, Lang::C, Lang::Rust, Lang::Python];
    for (name, lang) in Lang::NAMES.iter().zip(want) {
        assert_eq!(name.parse::<Lang>().unwrap(), lang);
    }
    for lang in [Lang::C, Lang::Rust, Lang::Python] {
        assert_eq!(lang.name().parse::<Lang>().unwrap(), lang);
    }
}
