//! The protocol's kernel expressions: every chain of the reference data with
//! `"expr"`, and every layout of the reference data with the `expr` request,
//! answered with the library's texts, checked as functions by the library's
//! interpreter; the fields are read strictly. (The library's own test suite
//! compiles the same expressions with gcc.)

use crate::common;
use common::c_expr;
use hlayout::algebra::ComposedLayout;
use hlayout::codegen::{self, Input, Lang};
use hlayout::Layout;
use hlayout_cli::batch;
use serde_json::{json, Value};

fn respond(req: &Value) -> Value {
    serde_json::from_str(&batch::respond(&req.to_string())).expect("a JSON reply")
}

#[test]
fn every_chain_answers_expr_in_both_inputs() {
    let chains: Vec<Value> =
        serde_json::from_str(&common::read_data("tinygrad_chains.json")).unwrap();
    for r in chains {
        for (input, mode) in [("coords", Input::Coords), ("linear", Input::Linear)] {
            let mut req = r["request"].clone();
            req["expr"] = json!("c");
            req["expr_input"] = json!(input);
            let out = respond(&req);
            assert_eq!(out["offsets"], r["expect"]["offsets"], "{}", r["id"]);
            let s = hlayout_cli::expr::command(&[
                "--input",
                input,
                "--chain",
                &r["request"].to_string(),
            ])
            .unwrap();
            let want = format!(
                "index: {}\nvalid: {}\n",
                out["index"].as_str().unwrap(),
                out["valid"].as_str().unwrap()
            );
            assert_eq!(s, want, "{}", r["id"]);
            // The texts are the library kernel's, and that kernel is exact.
            let offsets = r["expect"]["offsets"].as_array().unwrap();
            let shape: Vec<i64> = r["expect"]["final_shape"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            let req_obj = r["request"].clone();
            let t = replay(&req_obj);
            let k = codegen::stack(&t, mode).unwrap();
            assert_eq!(
                k.render(Lang::C),
                (
                    out["index"].as_str().unwrap().to_string(),
                    out["valid"].as_str().unwrap().to_string()
                )
            );
            for (i, want) in offsets.iter().enumerate() {
                let p = match mode {
                    Input::Coords => common::digits(i as i64, &shape),
                    Input::Linear => vec![i as i64],
                };
                let (idx, ok) = k.eval(&p).unwrap();
                assert_eq!(
                    if ok { idx } else { -1 },
                    want.as_i64().unwrap(),
                    "{}",
                    r["id"]
                );
            }
        }
    }
}

/// The chain's stack, through the library.
fn replay(req: &Value) -> hlayout::ViewStack {
    let mut s = hlayout::ViewStack::new(
        &req["shape"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect::<Vec<_>>(),
    )
    .unwrap();
    for op in req["ops"].as_array().unwrap() {
        let ints = |v: &Value| -> Vec<i64> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect()
        };
        let pairs = |v: &Value| -> Vec<(i64, i64)> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap()))
                .collect()
        };
        let arg = &op[1];
        s = match op[0].as_str().unwrap() {
            "reshape" => s.reshape(&ints(arg)),
            "permute" => s.permute(&ints(arg).iter().map(|&p| p as usize).collect::<Vec<_>>()),
            "expand" => s.expand(&ints(arg)),
            "pad" => s.pad(&pairs(arg)),
            "shrink" => s.shrink(&pairs(arg)),
            "flip" => s.flip(
                &arg.as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b.as_bool().unwrap())
                    .collect::<Vec<_>>(),
            ),
            other => panic!("unknown op {other}"),
        }
        .unwrap();
    }
    s
}

/// Every layout text in the algebra reference data.
fn layouts() -> Vec<String> {
    let mut out = Vec::new();
    for file in ["pycute_suite.json", "algebra_random.json"] {
        let records: Vec<Value> = serde_json::from_str(&common::read_data(file)).unwrap();
        for r in records {
            for field in ["layout", "a", "b"] {
                if let Some(t) = r["request"][field].as_str() {
                    out.push(t.to_string());
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Checks the C text `index` over the variable `i` with the protocol checker
/// at every `i < want.len()` against `want`.
fn c_text_holds(index: &str, want: &[i64], what: &str) {
    let e = c_expr::parse(index, &["i"]).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(c_expr::redundant_parens(index, &["i"]), None, "{what}");
    for (i, &w) in want.iter().enumerate() {
        let got = e
            .eval(&[i as i64])
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(got, w, "{what} at {i}: {index}");
    }
}

#[test]
fn every_reference_layout_answers_expr() {
    let all = layouts();
    assert!(all.len() > 1000, "{}", all.len());
    for text in all {
        let out = respond(&json!({"op": "expr", "layout": text, "lang": "c"}));
        let (k, want): (_, Vec<i64>) = match text.parse::<Layout>() {
            Ok(l) => (
                codegen::layout(&l, Input::Linear).unwrap(),
                l.offsets().collect(),
            ),
            Err(_) => {
                let c: ComposedLayout = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
                let cli = hlayout_cli::expr::command(&[&text]).unwrap();
                assert_eq!(
                    cli,
                    format!("index: {}\nvalid: 1\n", out["index"].as_str().unwrap())
                );
                (
                    codegen::composed(&c, Input::Linear).unwrap(),
                    c.offsets().collect(),
                )
            }
        };
        assert_eq!(out, json!({"index": k.c().0, "valid": "1"}), "{text}");
        if want.len() <= 1 << 12 {
            for (i, &w) in want.iter().enumerate() {
                assert_eq!(k.eval(&[i as i64]).unwrap(), (w, true), "{text} at {i}");
            }
            c_text_holds(out["index"].as_str().unwrap(), &want, &text);
        }
    }
}

#[test]
fn composed_layouts_answer_expr() {
    let inner = [
        "(4,4):(4,1)",
        "(8,8):(8,1)",
        "(4,(2,4)):(-16,(3,-1))",
        "(3,5):(-5,-1)",
        "((2,4),6):((1,24),-4)",
    ];
    let mut n = 0;
    for b in 0..=3 {
        for m in 0..=3 {
            for s in [b, b + 2, -b, -(b + 1)] {
                for o in [-37, 0, 21] {
                    for l in inner {
                        let text = format!("Sw<{b},{m},{s}> o {o} o {l}");
                        let c: ComposedLayout = text.parse().unwrap();
                        let want: Vec<i64> = c.offsets().collect();
                        let out = respond(&json!({"op": "expr", "layout": text, "lang": "c"}));
                        assert_eq!(out["valid"], "1", "{text}");
                        c_text_holds(out["index"].as_str().unwrap(), &want, &text);
                        n += 1;
                    }
                }
            }
        }
    }
    assert_eq!(n, 4 * 4 * 4 * 3 * 5);
}

#[test]
fn composed_expr_in_every_language() {
    let text = "Sw<2,1,-3> o -40 o (4,(2,4)):(-16,(3,-1))";
    let c: ComposedLayout = text.parse().unwrap();
    let want: Vec<i64> = c.offsets().collect();
    let out = respond(&json!({"op": "expr", "layout": text, "lang": "c"}));
    c_text_holds(out["index"].as_str().unwrap(), &want, text);
    let py = respond(&json!({"op": "expr", "layout": text, "lang": "python"}));
    assert_eq!(
        py["index"],
        codegen::composed(&c, Input::Linear)
            .unwrap()
            .render(Lang::Python)
            .0
    );
    let rust = hlayout_cli::expr::command(&["--lang", "rust", "--input", "coords", text]).unwrap();
    let k = codegen::composed(&c, Input::Coords).unwrap();
    assert_eq!(
        rust,
        format!("index: {}\nvalid: true\n", k.render(Lang::Rust).0)
    );
    for bad in [
        json!({"op": "expr", "layout": "Sw<3,0,2> o 0 o 8:1", "lang": "c"}),
        json!({"op": "expr", "layout": "Sw<1,0,1> o 0 o 8:1", "lang": "fortran"}),
        json!({"op": "expr", "layout": "Sw<1,0,1> o 0 o 8:1"}),
    ] {
        assert!(respond(&bad)["error"].is_string(), "{bad}");
    }
}

#[test]
fn expr_fields_are_strict() {
    let bad = [
        json!({"op": "expr", "layout": "4:1"}),
        json!({"op": "expr", "layout": "4:1", "lang": "fortran"}),
        json!({"op": "expr", "layout": "4:1", "lang": "c", "extra": 1}),
        json!({"op": "chain", "shape": [4], "ops": [], "expr": "js"}),
        json!({"op": "chain", "shape": [4], "ops": [], "expr": 5}),
        json!({"op": "chain", "shape": [4], "ops": [], "expr": "c", "expr_input": "rows"}),
        json!({"op": "chain", "shape": [4], "ops": [], "expr_input": "linear"}),
    ];
    for req in bad {
        assert!(respond(&req)["error"].is_string(), "{req}");
    }
    let ok = respond(
        &json!({"op": "chain", "shape": [4, 6], "ops": [["permute", [1, 0]]], "expr": "python", "expr_input": "linear"}),
    );
    assert_eq!(ok["index"], "i * 6 - i // 4 * 23");
    assert_eq!(ok["valid"], "True");
}
