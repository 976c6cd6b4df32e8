//! Kernel codegen benchmarks: from a movement-op chain to rendered C text
//! (apply the ops, lower, simplify, check, render), over all 165 chains of
//! `tests/data/tinygrad_chains.json` per iteration (divide by 165 for the
//! per-chain figure; tinygrad 0.10.3 takes a median 4.6 ms per chain, from
//! `tests/data/tinygrad_chain_exprs.json`), the same split into its parts, and
//! the padded conv window. Run: `cargo bench --bench codegen`.

use divan::{black_box, Bencher};
use hlayout::codegen::{self, Input};
use hlayout::{Result, ViewStack};
use serde_json::Value;

#[path = "../tests/common/pool.rs"]
mod pool;

fn main() {
    divan::main();
}

/// One movement op, parsed ahead of the timing.
enum Op {
    Reshape(Vec<i64>),
    Permute(Vec<usize>),
    Expand(Vec<i64>),
    Pad(Vec<(i64, i64)>),
    Shrink(Vec<(i64, i64)>),
    Flip(Vec<bool>),
}

/// Every chain of the reference data: its shape and its ops.
fn chains() -> Vec<(Vec<i64>, Vec<Op>)> {
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
fn apply(shape: &[i64], ops: &[Op]) -> Result<ViewStack> {
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

/// Ops to C text for all 165 chains (coordinate input, as tinygrad's figure).
#[divan::bench(sample_size = 4)]
fn all_chains_ops_to_c(b: Bencher) {
    let all = chains();
    b.bench(|| {
        for (shape, ops) in &all {
            let t = apply(black_box(shape), ops).expect("a valid chain");
            let k = codegen::stack(&t, Input::Coords).expect("a kernel");
            black_box(k.c());
        }
    });
}

/// The ops alone, for all 165 chains (the part [`all_chains_ops_to_c`]
/// shares with building the views).
#[divan::bench(sample_size = 4)]
fn all_chains_ops_only(b: Bencher) {
    let all = chains();
    b.bench(|| {
        for (shape, ops) in &all {
            black_box(apply(black_box(shape), ops).expect("a valid chain"));
        }
    });
}

/// Stack to C text for all 165 chains (codegen alone).
#[divan::bench(sample_size = 4)]
fn all_chains_stack_to_c(b: Bencher) {
    let stacks: Vec<ViewStack> = chains()
        .iter()
        .map(|(s, ops)| apply(s, ops).expect("a valid chain"))
        .collect();
    b.bench(|| {
        for t in &stacks {
            let k = codegen::stack(black_box(t), Input::Coords).expect("a kernel");
            black_box(k.c());
        }
    });
}

/// The padded 3×3 conv window of a 64×64 image: ops to C text.
#[divan::bench]
fn conv_window_ops_to_c() -> (String, String) {
    let t = pool::conv_window(black_box(64)).expect("the window");
    codegen::stack(&t, Input::Coords).expect("a kernel").c()
}
