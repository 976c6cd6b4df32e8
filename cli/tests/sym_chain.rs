//! `chain` over symbols on the batch protocol: at several bindings per
//! symbol (the extremes included) the offsets of the symbolic answer equal
//! the concrete chain's offsets at those values; refusals name facts, or
//! are the concrete error when every binding fails.

use crate::common;
use crate::symbolic::symbols;
use common::gcc::{run_texts, CRun};
use common::ndarray::NdArray;
use hlayout::symbolic::Symbols;
use hlayout::Movement;
use hlayout_cli::batch::respond;
use serde_json::{json, Map, Value};

/// Every string in `v` (polynomial text) replaced by its value.
fn substitute(v: &Value, syms: &Symbols, values: &Map<String, Value>) -> Value {
    match v {
        Value::String(t) => {
            let mut s = syms.clone();
            let p = s.parse(t).unwrap();
            let ids: Vec<i64> = (0..s.len())
                .map(|id| {
                    values
                        .get(s.name(id as u8))
                        .map_or(0, |v| v.as_i64().unwrap())
                })
                .collect();
            json!(p.eval(&ids).unwrap() as i64)
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, syms, values)).collect()),
        other => other.clone(),
    }
}

fn reply(req: &Value) -> Value {
    serde_json::from_str(&respond(&req.to_string())).unwrap()
}

/// The request answered, and its offsets at each binding equal to the
/// concrete chain's.
fn agrees(req: Value, bindings: &[Value]) {
    let syms = symbols(&req);
    let answer = reply(&req);
    assert!(answer.get("repr").is_some(), "{req}: {answer}");
    for b in bindings {
        let mut with = req.clone();
        with["offsets"] = json!(true);
        with["bind"] = b.clone();
        let got = reply(&with);
        assert_eq!(got["repr"], answer["repr"], "{with}");
        let values = b.as_object().unwrap();
        let concrete = json!({
            "op": "chain",
            "shape": substitute(&req["shape"], &syms, values),
            "ops": req["ops"].as_array().unwrap().iter().map(|op| json!([op[0], substitute(&op[1], &syms, values)])).collect::<Vec<_>>(),
            "offsets": true,
        });
        let want = reply(&concrete);
        assert_eq!(got["offsets"], want["offsets"], "{with} vs {concrete}");
    }
}

#[test]
fn symbolic_chains_agree_with_the_concrete_chain() {
    agrees(
        json!({"op":"chain","shape":["N",4],"ops":[["permute",[1,0]],["reshape",["4*N"]]],
               "assume":{"N":{"max":9}}}),
        &[json!({"N":1}), json!({"N":4}), json!({"N":9})],
    );
    agrees(
        json!({"op":"chain","shape":[64,8,16],"ops":[["shrink",[[0,"sp+1"],[0,8],[0,16]]],["permute",[1,0,2]],["pad",[[0,0],[0,"63-sp"],[0,0]]]],
               "assume":{"sp":{"min":0,"max":63}}}),
        &[json!({"sp":0}), json!({"sp":17}), json!({"sp":63})],
    );
    agrees(
        json!({"op":"chain","shape":["B","S",8],"ops":[["reshape",["B*S",8]],["flip",[true,false]],["pad",[["j",1],[0,0]]]],
               "assume":{"B":{"max":3},"S":{"max":4},"j":{"min":0,"max":2}}}),
        &[
            json!({"B":1,"S":1,"j":0}),
            json!({"B":3,"S":4,"j":2}),
            json!({"B":2,"S":3,"j":1}),
        ],
    );
}

#[test]
fn refusals_name_facts_or_are_the_concrete_error() {
    let r = reply(&json!({"op":"chain","shape":["x",4],"ops":[["reshape",["x",5]]]}));
    assert!(r.get("needs").is_none(), "{r}");
    assert!(r["error"].as_str().unwrap().contains("reshape"), "{r}");
    let r = reply(&json!({"op":"chain","shape":["N",64],"ops":[["shrink",[[0,"sp+1"],[0,64]]]]}));
    assert_eq!(r["needs"], json!(["N-sp >= 1"]), "{r}");
    let r = reply(&json!({"op":"chain","shape":["N"],"ops":[["expand",[4]]]}));
    assert_eq!(r["needs"], json!(["N == 4"]), "{r}");
}

#[test]
fn malformed_symbolic_chains_are_named() {
    for (req, part) in [
        (
            json!({"op":"chain","shape":["N"],"ops":[["stride",[1]]]}),
            "unknown movement op",
        ),
        (
            json!({"op":"chain","shape":["N"],"ops":[["reshape",["N+"]]]}),
            "parse error",
        ),
        (
            json!({"op":"chain","shape":["N"],"ops":[],"offsets":true}),
            "bind: no value for N",
        ),
        (
            json!({"op":"chain","shape":["N"],"ops":[],"offsets":true,"bind":{"N":0}}),
            "breaks its assumptions",
        ),
        (
            json!({"op":"chain","shape":["N"],"ops":[],"bind":{"M":1}}),
            "uses no symbol M",
        ),
        (json!({"op":"chain","shape":["int"],"ops":[]}), "keyword"),
        (
            json!({"op":"chain","shape":["N"],"ops":[],"colour":1}),
            "unknown field",
        ),
    ] {
        let r = reply(&req);
        let e = r["error"].as_str().unwrap_or_else(|| panic!("{req}: {r}"));
        assert!(e.contains(part), "{req}: {e}");
    }
}

/// The request and its `expr` replies at both inputs, as runs of the C
/// text at each binding, with the offsets of the concrete chain there (the
/// index array materialised and moved; -1 where invalid).
fn expr_runs(req: &Value, bindings: &[Value], runs: &mut Vec<(CRun, Vec<i64>)>) {
    let syms = symbols(req);
    for input in ["coords", "linear"] {
        let mut with = req.clone();
        with["expr"] = json!("c");
        with["expr_input"] = json!(input);
        let r = reply(&with);
        let (Some(index), Some(valid)) = (r["index"].as_str(), r["valid"].as_str()) else {
            panic!("{with}: {r}")
        };
        for b in bindings {
            let values = b.as_object().unwrap();
            let shape = substitute(&req["shape"], &syms, values);
            let shape: Vec<i64> = shape
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            let mut a = NdArray::arange(&shape);
            for op in req["ops"].as_array().unwrap() {
                let op = json!([op[0], substitute(&op[1], &syms, values)]);
                a = a.apply(&op.to_string().parse::<Movement>().unwrap());
            }
            let size: i64 = a.shape.iter().product();
            let (inputs, points): (Vec<String>, Vec<Vec<i64>>) = match input {
                "coords" => (
                    (0..a.shape.len()).map(|k| format!("i{k}")).collect(),
                    (0..size).map(|i| common::digits(i, &a.shape)).collect(),
                ),
                _ => (vec!["i".into()], (0..size).map(|i| vec![i]).collect()),
            };
            let run = CRun {
                index: index.into(),
                valid: valid.into(),
                inputs,
                symbols: values
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_i64().unwrap()))
                    .collect(),
                points,
            };
            runs.push((run, a.data));
        }
    }
}

#[test]
fn symbolic_chain_expressions_agree_with_the_concrete_chain() {
    // Invariant: a chain's `expr` over symbols, compiled by gcc under UBSan with the symbols bound at several allowed values, gives the concrete chain's offset at every valid element and its validity everywhere.
    let cases = [
        (
            json!({"op":"chain","shape":["N",4],"ops":[["pad",[["j",0],[0,0]]]],
                   "assume":{"N":{"max":5},"j":{"min":0,"max":3}}}),
            vec![
                json!({"N":1,"j":0}),
                json!({"N":3,"j":2}),
                json!({"N":5,"j":3}),
            ],
        ),
        (
            json!({"op":"chain","shape":["N",4],"ops":[["permute",[1,0]],["reshape",["4*N"]]],
                   "assume":{"N":{"max":9}}}),
            vec![json!({"N":1}), json!({"N":4}), json!({"N":9})],
        ),
        (
            json!({"op":"chain","shape":[16,8,4],"ops":[["shrink",[[0,"sp+1"],[0,8],[0,4]]],["permute",[1,0,2]],["pad",[[0,0],[0,"15-sp"],[0,0]]]],
                   "assume":{"sp":{"min":0,"max":15}}}),
            vec![json!({"sp":0}), json!({"sp":7}), json!({"sp":15})],
        ),
        (
            json!({"op":"chain","shape":["B","S",8],"ops":[["reshape",["B*S",8]],["flip",[true,false]],["pad",[["j",1],[0,0]]]],
                   "assume":{"B":{"max":3},"S":{"max":4},"j":{"min":0,"max":2}}}),
            vec![
                json!({"B":1,"S":1,"j":0}),
                json!({"B":3,"S":4,"j":2}),
                json!({"B":2,"S":3,"j":1}),
            ],
        ),
        (
            json!({"op":"chain","shape":["N",4],"ops":[["permute",[1,0]],["reshape",["4*N"]],["reshape",["N",4]]],
                   "assume":{"N":{"max":6}}}),
            vec![json!({"N":1}), json!({"N":3}), json!({"N":6})],
        ),
    ];
    let mut runs = Vec::new();
    for (req, bindings) in &cases {
        expr_runs(req, bindings, &mut runs);
    }
    let texts: Vec<CRun> = runs
        .iter()
        .map(|(r, _)| CRun {
            points: r.points.clone(),
            symbols: r.symbols.clone(),
            inputs: r.inputs.clone(),
            index: r.index.clone(),
            valid: r.valid.clone(),
        })
        .collect();
    let Some(out) = run_texts(&texts) else { return };
    assert_eq!(out.len(), runs.len());
    for ((run, want), got) in runs.iter().zip(&out) {
        assert_eq!(
            got, want,
            "{} if {} at {:?}",
            run.index, run.valid, run.symbols
        );
    }
}

#[test]
fn symbolic_chain_expressions_name_their_needs() {
    // Invariant: an expression that could overflow at an allowed binding is refused with the facts it needs, and answered once they are assumed.
    let req = json!({"op":"chain","shape":["M","N"],"ops":[["permute",[1,0]],["reshape",["M*N"]]],
                     "expr":"c","expr_input":"linear"});
    let r = reply(&req);
    assert!(r["needs"].as_array().is_some_and(|n| !n.is_empty()), "{r}");
    assert!(r["error"].as_str().unwrap().starts_with("expr: "), "{r}");
    let mut ok = req.clone();
    ok["assume"] = json!({"M":{"max":1048576},"N":{"max":1048576}});
    let r = reply(&ok);
    assert!(r["index"].is_string(), "{r}");
    assert_eq!(r["views"], json!(1));
}
