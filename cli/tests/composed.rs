//! Composed layouts (`Sw<B,M,S> o O o L`) through the batch protocol: every
//! answer checked at every index against `i ↦ Sw(O + L(i))`, with the swizzle
//! written from the protocol's formula.

use hlayout::Layout;
use hlayout_cli::batch;
use serde_json::Value;

fn sw(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let y = ((1i64 << b) - 1) << (m + s.max(0));
    if s >= 0 {
        x ^ ((x & y) >> s)
    } else {
        x ^ ((x & y) << -s)
    }
}

fn ask(req: &str) -> Value {
    serde_json::from_str(&batch::respond(req)).expect("JSON reply")
}

/// The offsets of composed text `Sw<b,m,s> o o o L`, by the definition.
fn reference(text: &str) -> Vec<i64> {
    let (head, layout) = text.rsplit_once(" o ").expect("composed text");
    let (sw_text, offset) = head.split_once(" o ").expect("composed text");
    let nums: Vec<i64> = sw_text
        .trim_start_matches("Sw<")
        .trim_end_matches('>')
        .split(',')
        .map(|n| n.parse().expect("int"))
        .collect();
    let o: i64 = offset.parse().expect("offset");
    let l: Layout = layout.parse().expect("layout");
    (0..l.size())
        .map(|i| sw(nums[0], nums[1], nums[2], o + l.eval(i).expect("in domain")))
        .collect()
}

fn offsets(v: &Value) -> Vec<i64> {
    v["offsets"]
        .as_array()
        .expect("offsets")
        .iter()
        .map(|x| x.as_i64().expect("int"))
        .collect()
}

#[test]
fn batch_evaluates_composed_layouts() {
    // Invariant: eval of composed text is Sw(O + L(i)) at every index / Witness: CuTe's 128-byte atom for 16-bit elements (mirrored) and a negative shift.
    for text in [
        "Sw<3,3,3> o 0 o (64,8):(1,64)",
        "Sw<2,1,-3> o 5 o (3,(2,4)):(-8,(1,32))",
    ] {
        let out = ask(&format!(r#"{{"op":"eval","layout":"{text}"}}"#));
        assert_eq!(offsets(&out), reference(text), "{text}");
    }
}

#[test]
fn batch_composes_divides_and_multiplies_composed_layouts() {
    // Invariant: results of compose/divide/product on composed text are composed text with R(i) = definition / Witness: Sw<1,0,2> o 0 o (4,4):(4,1).
    let c = "Sw<1,0,2> o 0 o (4,4):(4,1)";
    let cases = [
        (
            format!(r#"{{"op":"compose","a":"{c}","b":"(2,4):(4,1)"}}"#),
            "Sw<1,0,2> o 0 o (2,4):(4,1)",
        ),
        (
            format!(r#"{{"op":"compose","a":"64:2","b":"{c}"}}"#),
            "Sw<1,1,2> o 0 o (4,4):(8,2)",
        ),
        (
            format!(r#"{{"op":"logical_divide","a":"{c}","b":"4:1"}}"#),
            "Sw<1,0,2> o 0 o (4,4):(4,1)",
        ),
        (
            format!(r#"{{"op":"logical_product","a":"{c}","b":"2:1"}}"#),
            "Sw<1,0,2> o 0 o (2,(4,4)):(16,(4,1))",
        ),
        (
            format!(r#"{{"op":"coalesce","layout":"{c}"}}"#),
            "Sw<1,0,2> o 0 o 16:1",
        ),
    ];
    for (req, want) in cases {
        let out = ask(&req);
        let got = out["layout"]
            .as_str()
            .unwrap_or_else(|| panic!("{req}: {out}"));
        assert_eq!(reference(got), reference(want), "{req}: {got}");
        let listed = ask(&format!(r#"{{"op":"eval","layout":"{got}"}}"#));
        assert_eq!(offsets(&listed), reference(got));
    }
}

#[test]
fn batch_names_what_is_not_defined_for_composed_layouts() {
    // Invariant: an operation not defined for a composed layout is an error naming why, never a guess / Witness: inverses, two composed operands, a composed tiler, a non-shift on the left.
    let c = "Sw<1,0,2> o 0 o (4,4):(4,1)";
    for req in [
        format!(r#"{{"op":"right_inverse","layout":"{c}"}}"#),
        format!(r#"{{"op":"left_inverse","layout":"{c}"}}"#),
        format!(r#"{{"op":"compose","a":"{c}","b":"{c}"}}"#),
        format!(r#"{{"op":"logical_divide","a":"4:1","b":"{c}"}}"#),
        format!(r#"{{"op":"compose","a":"64:3","b":"{c}"}}"#),
        format!(r#"{{"op":"flatten","layout":"{c}"}}"#),
        r#"{"op":"eval","layout":"Sw<3,0,2> o 0 o 4:1"}"#.to_string(),
    ] {
        let out = ask(&req);
        assert!(out["error"].is_string(), "{req}: {out}");
    }
}
