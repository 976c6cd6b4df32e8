//! The movement-op chains of `tests/data/tinygrad_chains.json`, parsed once
//! into ops (so that timing them times the library, not JSON): shared by the
//! codegen benchmark and its profiling example, which include this file by
//! path.
#![allow(dead_code)]

use hlayout::{Movement, Result, ViewStack};
use serde_json::Value;

/// Every chain of the reference data: its shape and its ops (each parsed
/// from its JSON text by the library's `Movement` parser).
pub(crate) fn chains() -> Vec<(Vec<i64>, Vec<Movement>)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tinygrad_chains.json"
    );
    let text = std::fs::read_to_string(path).expect("tests/data/tinygrad_chains.json");
    let records: Vec<Value> = serde_json::from_str(&text).expect("a JSON array");
    records
        .iter()
        .map(|r| {
            let req = &r["request"];
            let ops = req["ops"]
                .as_array()
                .expect("ops")
                .iter()
                .map(|op| op.to_string().parse().expect("a movement op"))
                .collect();
            let shape = req["shape"].as_array().expect("a shape");
            let shape = shape.iter().map(|x| x.as_i64().expect("an integer"));
            (shape.collect(), ops)
        })
        .collect()
}

/// The chain's stack.
pub(crate) fn apply(shape: &[i64], ops: &[Movement]) -> Result<ViewStack> {
    ops.iter()
        .try_fold(ViewStack::new(shape)?, ViewStack::apply)
}
