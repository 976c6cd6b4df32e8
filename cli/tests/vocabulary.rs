//! One vocabulary: the batch protocol's `chain` and `hlayout expr --chain`
//! accept exactly the library's movement ops (`MovementKind::NAMES`, applied
//! as `ViewStack::apply` does), and the `expr` request, the chain's `"expr"`
//! field and `hlayout expr --lang` exactly the library's languages
//! (`Lang::NAMES`), each rendered as the library renders it.

use std::process::Command;

use hlayout::codegen::{self, Input, Lang};
use hlayout::{Layout, Movement, MovementKind, ViewStack};
use hlayout_cli::batch;
use serde_json::{json, Value};

fn respond(req: &Value) -> Value {
    serde_json::from_str(&batch::respond(&req.to_string())).expect("a JSON reply")
}

/// One op of each kind, valid on a `[1, 3]` tensor.
fn one_of_each() -> Vec<Movement> {
    vec![
        Movement::Reshape(vec![3, 1]),
        Movement::Permute(vec![1, 0]),
        Movement::Expand(vec![2, 3]),
        Movement::Pad(vec![(1, 0), (0, 2)]),
        Movement::Shrink(vec![(0, 1), (1, 3)]),
        Movement::Flip(vec![true, false]),
    ]
}

#[test]
fn chain_accepts_every_movement_op_and_no_other() {
    let ops = one_of_each();
    let kinds: Vec<MovementKind> = ops.iter().map(Movement::kind).collect();
    assert_eq!(kinds, MovementKind::ALL);
    for op in &ops {
        let want = ViewStack::new(&[1, 3]).unwrap().apply(op).unwrap();
        let arg: Value = serde_json::from_str(&op.to_string()).unwrap();
        let req = json!({"op": "chain", "shape": [1, 3], "ops": [arg], "offsets": true});
        let out = respond(&req);
        assert_eq!(out["repr"], want.to_string(), "{req}");
        let offsets: Vec<i64> = want.offsets().map(|o| o.unwrap_or(-1)).collect();
        assert_eq!(out["offsets"], json!(offsets), "{req}");
        // The command line's --chain reads the same ops.
        let chain = json!({"shape": [1, 3], "ops": [arg]}).to_string();
        let text = hlayout_cli::expr::command(&["--chain", &chain]).unwrap();
        let (index, valid) = codegen::stack(&want, Input::Coords)
            .unwrap()
            .render(Lang::C);
        assert_eq!(text, format!("index: {index}\nvalid: {valid}\n"));
    }
    // stride is the Rust library's shortcut, not a movement op.
    let out = respond(&json!({"op": "chain", "shape": [4], "ops": [["stride", [2]]]}));
    assert_eq!(
        out["error"],
        "ops[0]: unknown movement op 'stride' (known: reshape, permute, expand, pad, shrink, flip)"
    );
}

#[test]
fn every_interface_takes_every_language() {
    let layout: Layout = "(4,6):(1,4)".parse().unwrap();
    let stack = ViewStack::new(&[4]).unwrap().pad(&[(1, 0)]).unwrap();
    for name in Lang::NAMES {
        let lang: Lang = name.parse().unwrap();
        let (index, valid) = codegen::layout(&layout, Input::Linear)
            .unwrap()
            .render(lang);
        let out = respond(&json!({"op": "expr", "layout": "(4,6):(1,4)", "lang": name}));
        assert_eq!(
            (&out["index"], &out["valid"]),
            (&json!(index), &json!(valid)),
            "{name}"
        );
        let text = hlayout_cli::expr::command(&["--lang", name, "(4,6):(1,4)"]).unwrap();
        assert_eq!(text, format!("index: {index}\nvalid: {valid}\n"));
        let (index, valid) = codegen::stack(&stack, Input::Coords).unwrap().render(lang);
        let out = respond(
            &json!({"op": "chain", "shape": [4], "ops": [["pad", [[1, 0]]]], "expr": name}),
        );
        assert_eq!(
            (&out["index"], &out["valid"]),
            (&json!(index), &json!(valid)),
            "{name}"
        );
        let composed =
            respond(&json!({"op": "expr", "layout": "Sw<1,0,1> o 0 o 4:1", "lang": name}));
        assert!(composed["index"].is_string(), "{name}: {composed}");
        // The binary's argument parser takes the same names.
        let out = Command::new(env!("CARGO_BIN_EXE_hlayout"))
            .args(["expr", "--lang", name, "(4,6):(1,4)"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}");
    }
    let out = respond(&json!({"op": "expr", "layout": "4:1", "lang": "fortran"}));
    assert_eq!(
        out["error"],
        "lang: unknown language 'fortran' (known: c, cuda, rust, python)"
    );
    let err = hlayout_cli::expr::command(&["--lang", "js", "4:1"]).unwrap_err();
    assert_eq!(
        err,
        "--lang: unknown language 'js' (known: c, cuda, rust, python)"
    );
}
