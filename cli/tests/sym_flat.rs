//! Symbolic `merge` and `flatten` on the batch protocol: every answer, bound
//! to several allowed values (the extremes included), equals `second` read
//! through `first` (merge) or the concrete flatten (flatten) as a function;
//! refusals carry `needs`; numbers of answers are integers or polynomial text.

use hlayout::symbolic::Symbols;
use hlayout_cli::batch::respond;
use serde_json::{json, Value};

use crate::common::{composed, eval_all, view};

/// `v` with every string number replaced by its value at `values` (by name).
fn bind(v: &Value, values: &[(&str, i64)]) -> Value {
    match v {
        Value::String(t) => {
            let mut s = Symbols::new();
            for (n, _) in values {
                s.intern(n).unwrap();
            }
            let p = s.parse(t).unwrap();
            let vals: Vec<i64> = values.iter().map(|&(_, x)| x).collect();
            json!(i64::try_from(p.eval(&vals).unwrap()).unwrap())
        }
        Value::Array(a) => Value::from(a.iter().map(|x| bind(x, values)).collect::<Vec<_>>()),
        Value::Object(o) => Value::from(
            o.iter()
                .map(|(k, x)| (k.clone(), bind(x, values)))
                .collect::<serde_json::Map<_, _>>(),
        ),
        other => other.clone(),
    }
}

fn reply(req: &Value) -> Value {
    serde_json::from_str(&respond(&req.to_string())).unwrap()
}

/// The merge reply, checked at every binding of `name` in `range`.
fn checked_merge(req: &Value, name: &str, range: std::ops::RangeInclusive<i64>) -> Value {
    let out = reply(req);
    if let Some(merged) = out.get("merged").filter(|m| !m.is_null()) {
        for x in range {
            let at = [(name, x)];
            let (f, g) = (
                view(&bind(&req["first"], &at)),
                view(&bind(&req["second"], &at)),
            );
            let m = view(&bind(merged, &at));
            assert_eq!(
                eval_all(&m),
                composed(&f, &g),
                "{req} at {name} = {x}: {out}"
            );
        }
    }
    out
}

#[test]
fn symbolic_merges_answer_right_at_every_binding() {
    // Invariant: a merged view with polynomial numbers, bound, equals second read through first.
    let req = json!({"op": "merge",
        "first": {"shape": [3, "sp+1"], "strides": [64, 1], "offset": 0, "mask": null},
        "second": {"shape": [3, "sp+1"], "strides": ["sp+1", 1], "offset": 0, "mask": null},
        "assume": {"sp": {"min": 0, "max": 20}}});
    let out = checked_merge(&req, "sp", 0..=20);
    assert_eq!(
        out,
        json!({"merged": {"shape": [3, "sp+1"], "strides": [64, 1], "offset": 0, "mask": null}})
    );
    let req = json!({"op": "merge",
        "first": {"shape": [2, "sp+1", 1, 1], "strides": [8, 1, 0, 0], "offset": 0,
                  "mask": [[0, 2], [0, "sp"], [0, 1], [0, 1]]},
        "second": {"shape": [2, "sp+1"], "strides": ["sp+1", 1], "offset": 0, "mask": null},
        "assume": {"sp": {"max": 8}}});
    let out = checked_merge(&req, "sp", 1..=8);
    assert_eq!(out["merged"]["mask"], json!([[0, 2], [0, "sp"]]));
    let req = json!({"op": "merge",
        "first": {"shape": ["N", 3], "strides": [3, 1], "offset": 0, "mask": null},
        "second": {"shape": ["N", 3], "strides": [-3, -1], "offset": "3*N-1", "mask": null},
        "assume": {"N": {"max": 9}}});
    let out = checked_merge(&req, "N", 1..=9);
    assert_eq!(out["merged"]["offset"], json!("3*N-1"));
}

#[test]
fn symbolic_merge_refusals_and_null() {
    // Invariant: a merge whose answer depends on the binding is refused with needs; constants answer null exactly.
    let req = json!({"op": "merge",
        "first": {"shape": [3, "sp+1"], "strides": [64, 1], "offset": 0, "mask": null},
        "second": {"shape": [2, 4], "strides": ["sp+1", 1], "offset": 0, "mask": null}});
    let out = reply(&req);
    assert_eq!(out["needs"], json!(["sp >= 3"]), "{out}");
    let mut with = req.clone();
    with["assume"] = json!({"sp": {"min": 3, "max": 12}});
    checked_merge(&with, "sp", 3..=12);
    let req = json!({"op": "merge",
        "first": {"shape": [10, "K", 3], "strides": [19, 2, 5], "offset": 0, "mask": null},
        "second": {"shape": [6], "strides": [4], "offset": 0, "mask": null},
        "assume": {"K": {"min": 3, "max": 3}}});
    assert_eq!(reply(&req), json!({"merged": null}));
    for bad in [
        json!({"op": "merge", "first": {"shape": ["N+"], "strides": [1]}, "second": {"shape": [1], "strides": [1]}}),
        json!({"op": "merge", "first": {"shape": ["N"], "strides": [1], "x": 1}, "second": {"shape": [1], "strides": [1]}}),
        json!({"op": "merge", "first": {"shape": ["N"], "strides": [1], "mask": [[0]]}, "second": {"shape": [1], "strides": [1]}}),
        json!({"op": "merge", "first": {"shape": ["N-1"], "strides": [1]}, "second": {"shape": [1], "strides": [1]}}),
    ] {
        assert!(reply(&bad).get("error").is_some(), "{bad}");
    }
}

#[test]
fn symbolic_flatten_replies() {
    // Invariant: flatten over symbols is ordinary, not ordinary with its reason, or refused with needs.
    let out = reply(&json!({"op": "flatten", "layout": "(N,(4,8)):(32,(8,1))"}));
    assert_eq!(
        out,
        json!({"ordinary": true, "view": {"shape": ["N", 32], "strides": [32, 1], "offset": 0, "mask": null}})
    );
    let out = reply(&json!({"op": "flatten", "layout": "((N,4)):((1,N))"}));
    assert_eq!(out["needs"], json!(["N >= 2"]));
    let out =
        reply(&json!({"op": "flatten", "layout": "((N,4)):((1,N))", "assume": {"N": {"min": 2}}}));
    assert_eq!(
        out,
        json!({"ordinary": false, "reason": "mode 0 (N,4):(1,N) is not one stride: it needs i//4 and i%4"})
    );
}

#[test]
fn hostile_symbolic_views_get_an_error() {
    // Invariant: huge coefficients, high degrees, keywords, too many symbols or dims in a view get an error, nothing else.
    let big = "9223372036854775807*N";
    let many: Vec<String> = (0..300).map(|k| format!("s{k}")).collect();
    let sum = many.join("+");
    for (shape, strides, offset) in [
        (json!([big, 2]), json!([1, 1]), json!(0)),
        (json!(["N", 2]), json!([big, 1]), json!(big)),
        (json!(["N*N*N*N*N*N*N*N*N"]), json!([1]), json!(0)),
        (json!(["int"]), json!([1]), json!(0)),
        (json!([sum]), json!([1]), json!(0)),
        (json!(vec!["N"; 100]), json!(vec![1; 100]), json!(0)),
        (
            json!(["N", 4]),
            json!(["-9223372036854775807*N", "N*N*N*N"]),
            json!("-N"),
        ),
    ] {
        let view = json!({"shape": shape, "strides": strides, "offset": offset, "mask": null});
        for req in [
            json!({"op": "merge", "first": view, "second": {"shape": [2], "strides": [1]}}),
            json!({"op": "merge", "first": {"shape": ["N", 3], "strides": [3, 1]}, "second": view}),
        ] {
            assert!(reply(&req).get("error").is_some(), "{req}");
        }
    }
}

#[test]
fn show_prints_the_symbolic_flatten() {
    // Invariant: `hlayout show` over symbols prints flatten as ordinary, not ordinary, or undecided with the needs.
    let line = |text: &str, assume: &[&str]| {
        let out = hlayout_cli::symbolic::report(text, assume, &[]).unwrap();
        out.lines()
            .find(|l| l.starts_with("flatten"))
            .unwrap()
            .to_string()
    };
    assert_eq!(
        line("((N,4)):((1,N))", &["N:min=2"]),
        "flatten  not ordinary: mode 0 (N,4):(1,N) is not one stride: it needs i//4 and i%4"
    );
    assert!(line("((N,4)):((1,N))", &[]).ends_with("needs N >= 2"));
    assert_eq!(
        line("(B,(S,64)):(64*S,(64,1))", &["S:max=4096"]),
        "flatten  ordinary: shape [B, 64*S] strides [64*S, 1]"
    );
}
