//! The movement-op chains of `tests/data/tinygrad_chains.json`, parsed once
//! into ops (so that timing them times the library, not JSON): shared by the
//! codegen benchmark and its profiling example, which include this file by
//! path.
#![allow(dead_code)]

use hlayout::{Result, ViewStack};
use serde_json::Value;

/// One movement op, parsed ahead of the timing.
pub(crate) enum Op {
    Reshape(Vec<i64>),
    Permute(Vec<usize>),
    Expand(Vec<i64>),
    Pad(Vec<(i64, i64)>),
    Shrink(Vec<(i64, i64)>),
    Flip(Vec<bool>),
}

/// Every chain of the reference data: its shape and its ops.
pub(crate) fn chains() -> Vec<(Vec<i64>, Vec<Op>)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tinygrad_chains.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/data/tinygrad_chains.json");
    let records: Vec<Value> = serde_json::from_str(&text).expect("a JSON array");
    let ints = |v: &Value| -> Vec<i64> {
        v.as_array()
            .expect("a list")
            .iter()
            .map(|x| x.as_i64().expect("an integer"))
            .collect()
    };
    let pairs = |v: &Value| -> Vec<(i64, i64)> {
        v.as_array()
            .expect("a list")
            .iter()
            .map(|p| (p[0].as_i64().expect("int"), p[1].as_i64().expect("int")))
            .collect()
    };
    records
        .iter()
        .map(|r| {
            let req = &r["request"];
            let ops = req["ops"]
                .as_array()
                .expect("ops")
                .iter()
                .map(|op| {
                    let arg = &op[1];
                    match op[0].as_str().expect("a name") {
                        "reshape" => Op::Reshape(ints(arg)),
                        "permute" => Op::Permute(ints(arg).iter().map(|&p| p as usize).collect()),
                        "expand" => Op::Expand(ints(arg)),
                        "pad" => Op::Pad(pairs(arg)),
                        "shrink" => Op::Shrink(pairs(arg)),
                        "flip" => Op::Flip(
                            arg.as_array()
                                .expect("flags")
                                .iter()
                                .map(|b| b.as_bool().expect("bool"))
                                .collect(),
                        ),
                        other => panic!("unknown op {other}"),
                    }
                })
                .collect();
            (ints(&req["shape"]), ops)
        })
        .collect()
}

/// The chain's stack.
pub(crate) fn apply(shape: &[i64], ops: &[Op]) -> Result<ViewStack> {
    let mut t = ViewStack::new(shape)?;
    for op in ops {
        t = match op {
            Op::Reshape(s) => t.reshape(s),
            Op::Permute(p) => t.permute(p),
            Op::Expand(s) => t.expand(s),
            Op::Pad(p) => t.pad(p),
            Op::Shrink(p) => t.shrink(p),
            Op::Flip(f) => t.flip(f),
        }?;
    }
    Ok(t)
}
