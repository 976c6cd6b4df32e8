//! `chain` over symbols on the batch protocol: at several bindings per
//! symbol (the extremes included) the offsets of the symbolic answer equal
//! the concrete chain's offsets at those values; refusals name facts, or
//! are the concrete error when every binding fails.

use hlayout::symbolic::{Assume, Symbols};
use hlayout_cli::batch::respond;
use serde_json::{json, Map, Value};

/// The symbols of a request's `assume` field.
fn symbols(req: &Value) -> Symbols {
    let mut s = Symbols::new();
    if let Some(a) = req.get("assume").and_then(Value::as_object) {
        for (name, v) in a {
            let get = |k: &str, d: i64| v.get(k).and_then(Value::as_i64).unwrap_or(d);
            let d = Assume::default();
            let a = Assume {
                min: get("min", d.min),
                max: get("max", d.max),
                divisible_by: get("divisible_by", d.divisible_by),
            };
            s.assume(name, a).unwrap();
        }
    }
    s
}

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
