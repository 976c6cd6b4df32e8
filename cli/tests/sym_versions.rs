//! The `"versions"` extension of symbolic `expr` and `chain` requests: the
//! versioned kernel (`codegen::sym_layout_versions`,
//! `codegen::sym_chain_versions`) as one guarded text, equal to the library's
//! at every binding checked, and the field's type checked.

use hlayout::codegen::{self, Input, Lang};
use hlayout::symbolic::{Assume, SymLayout, SymMovement, Symbols};
use hlayout_cli::batch::respond;
use serde_json::{json, Value};

fn reply(req: &Value) -> Value {
    serde_json::from_str(&respond(&req.to_string())).unwrap()
}

#[test]
fn a_symbolic_layout_expr_answers_the_versioned_text() {
    let r = reply(&json!({"op":"expr","layout":"(4,N):(1,4)","lang":"c","versions":true}));
    let mut s = Symbols::new();
    let l = SymLayout::parse("(4,N):(1,4)", &mut s).unwrap();
    let kv = codegen::sym_layout_versions(&l, &s, Input::Linear).unwrap();
    let (index, valid) = kv.kernel().kernel().render(Lang::C);
    assert_eq!(r, json!({"index": index, "valid": valid, "versions": 2}));
    assert_eq!(r["index"], "N == 1 ? i : i * 4 - i / N * (4 * N - 1)");
    // Without the field, the single text, as before.
    let r = reply(&json!({"op":"expr","layout":"(4,N):(1,4)","lang":"c"}));
    assert_eq!(r["index"], "i * 4 - i / N * (4 * N - 1)");
    assert!(r.get("versions").is_none());
}

#[test]
fn a_symbolic_chain_expr_answers_the_versioned_text() {
    let req = json!({"op":"chain","shape":["N",3],"ops":[["permute",[1,0]]],"expr":"python",
        "expr_input":"linear","assume":{"N":{"max":8}},"versions":true});
    let r = reply(&req);
    let mut s = Symbols::new();
    s.assume(
        "N",
        Assume {
            max: 8,
            ..Assume::default()
        },
    )
    .unwrap();
    let shape = [s.parse("N").unwrap(), 3.into()];
    let ops = [SymMovement::parse(r#"["permute",[1,0]]"#, &mut s).unwrap()];
    let kv = codegen::sym_chain_versions(&shape, &ops, &s, Input::Linear).unwrap();
    let (index, valid) = kv.kernel().kernel().render(Lang::Python);
    assert_eq!(r["index"], index);
    assert_eq!(r["valid"], valid);
    assert_eq!(r["versions"], 2);
    assert_eq!(r["repr"], "(3,N):(1,3)");
}

#[test]
fn the_versions_field_must_be_a_boolean() {
    for req in [
        json!({"op":"expr","layout":"(4,N):(1,4)","lang":"c","versions":1}),
        json!({"op":"chain","shape":["N",3],"ops":[],"expr":"c","versions":"yes"}),
    ] {
        let r = reply(&req);
        let e = r["error"].as_str().unwrap_or_else(|| panic!("{r}"));
        assert!(e.contains("versions"), "{e}");
    }
}
