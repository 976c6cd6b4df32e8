//! The shared-memory ops through the batch protocol: every count against a
//! brute force written from the protocol's "Shared memory" section, the
//! swizzle search against every candidate of the range asked one by one,
//! F2 bases at every index, and the strict field checks.

use hlayout::Layout;
use hlayout_cli::batch;
use serde_json::{json, Value};

fn ask(req: &Value) -> Value {
    serde_json::from_str(&batch::respond(&req.to_string())).expect("JSON reply")
}

fn sw(b: i64, m: i64, s: i64, x: i64) -> i64 {
    let y = ((1i64 << b) - 1) << (m + s);
    x ^ ((x & y) >> s)
}

/// Plain text or `Sw<B,M,S> o 0 o L` text, read by hand: the swizzle and L.
fn read(text: &str) -> ((i64, i64, i64), Layout) {
    match text.strip_prefix("Sw<") {
        None => ((0, 0, 0), text.parse().unwrap()),
        Some(rest) => {
            let (nums, rest) = rest.split_once("> o 0 o ").unwrap();
            let n: Vec<i64> = nums.split(',').map(|x| x.parse().unwrap()).collect();
            ((n[0], n[1], n[2]), rest.parse().unwrap())
        }
    }
}

/// `L(i)` of plain or composed text.
fn eval(text: &str, i: i64) -> i64 {
    let ((b, m, s), l) = read(text);
    sw(b, m, s, l.eval(i).unwrap())
}

/// The protocol's wavefronts and ideal, by brute force.
fn brute(layout: &str, access: &str, b: i64) -> (u64, u64) {
    let a: Layout = access.parse().unwrap();
    let ((sb, sm, ss), l) = read(layout);
    let (tn, vn) = (a.mode(0).unwrap().size(), a.mode(1).unwrap().size());
    let (mut w, mut ideal) = (0, 0);
    for warp in 0..(tn + 31) / 32 {
        for v in 0..vn {
            let mut words: Vec<i64> = (warp * 32..(warp * 32 + 32).min(tn))
                .map(|t| sw(sb, sm, ss, l.eval(a.eval(t * vn + v).unwrap()).unwrap()) * b / 4)
                .collect();
            words.sort_unstable();
            words.dedup();
            let most = (0..32)
                .map(|bank| words.iter().filter(|&&x| x % 32 == bank).count())
                .max()
                .unwrap();
            w += most as u64;
            ideal += words.len().div_ceil(32) as u64;
        }
    }
    (w, ideal)
}

const CASES: [(&str, &str); 7] = [
    ("(32,32):(32,1)", "(32,32):(32,1)"),
    ("(32,32):(32,1)", "(32,32):(1,32)"),
    ("(64,64):(64,1)", "(64,8):(64,1)"),
    ("(128,64):(64,1)", "(128,64):(64,1)"),
    ("(16,(2,8)):(16,(8,1))", "((8,4),8):((16,2),1)"),
    ("Sw<3,3,3> o 0 o (64,64):(64,1)", "(64,8):(64,1)"),
    ("Sw<2,0,4> o 0 o (20,24):(24,1)", "(40,7):(11,3)"),
];

#[test]
fn bank_conflicts_equal_brute_force() {
    for (layout, access) in CASES {
        for b in [1, 2, 4] {
            let r = ask(
                &json!({"op": "bank_conflicts", "layout": layout, "access": access, "element_bytes": b}),
            );
            let (w, i) = brute(layout, access, b);
            assert_eq!(
                r,
                json!({"wavefronts": w, "ideal": i}),
                "{layout} {access} {b}"
            );
        }
    }
}

#[test]
fn swizzle_search_is_the_best_of_the_range() {
    for (layout, access) in CASES.iter().filter(|(l, _)| !l.starts_with("Sw<")) {
        for b in [1, 2, 4] {
            let r = ask(
                &json!({"op": "swizzle_search", "layout": layout, "access": access, "element_bytes": b}),
            );
            let mut best: Option<(u64, String)> = None;
            let mut cands = vec![(0, 0, 0)];
            for bb in 1..=4 {
                for m in 0..=4 {
                    cands.extend((bb..=7).map(|s| (bb, m, s)));
                }
            }
            for (bb, m, s) in cands {
                let text = format!("Sw<{bb},{m},{s}> o 0 o {layout}");
                let (w, _) = brute(&text, access, b);
                if best.as_ref().is_none_or(|(bw, _)| w < *bw) {
                    best = Some((w, text));
                }
            }
            let (w, text) = best.unwrap();
            assert_eq!(
                r,
                json!({"layout": text, "wavefronts": w}),
                "{layout} {access} {b}"
            );
        }
    }
}

#[test]
fn linear_layout_bases_at_every_index() {
    for layout in [
        "(8,64):(64,1)",
        "Sw<3,4,3> o 0 o (16,64):(64,1)",
        "(4,(2,4)):(2,(1,8))",
        "1:0",
    ] {
        let r = ask(&json!({"op": "linear_layout", "layout": layout}));
        let bases: Vec<i64> = serde_json::from_value(r["bases"].clone()).unwrap();
        let size = 1i64 << bases.len();
        for i in 0..size {
            let x = (0..bases.len())
                .filter(|&k| i >> k & 1 == 1)
                .fold(0, |a, k| a ^ bases[k]);
            assert_eq!(eval(layout, i), x, "{layout} at {i}");
        }
    }
    let r = ask(&json!({"op": "linear_layout", "layout": "(4,4):(3,12)"}));
    assert_eq!(
        r["error"],
        "linear_layout: not linear over F2: L(3) = 36, but the XOR of the bases at the set bits of 3 is 20"
    );
    let r = ask(&json!({"op": "linear_layout", "layout": "6:1"}));
    assert!(
        r["error"]
            .as_str()
            .unwrap()
            .contains("size 6 is not a power of two"),
        "{r}"
    );
}

#[test]
fn strict_fields() {
    let base = json!({"op": "bank_conflicts", "layout": "(8,8):(8,1)", "access": "(8,8):(8,1)", "element_bytes": 4});
    let cases = [
        ("extra", json!(1), "unknown field 'extra' for op 'bank_conflicts' (allowed: op, layout, access, element_bytes)"),
        ("element_bytes", json!(3), "element_bytes: 3 is not 1, 2 or 4"),
        ("element_bytes", json!("4"), "element_bytes: expected an integer, got a string"),
        ("access", json!("64:1"), "access: access of 64:1: an access has top-level rank 2 (threads, values), this one has rank 1"),
        ("access", json!("(8,8):(9,1)"), "bank_conflicts: out of domain: thread 7 value 1 reads index 64, outside the layout's domain [0, 64)"),
        ("layout", json!(5), "layout: expected layout text (a string), got a number"),
    ];
    for (field, value, want) in cases {
        let mut req = base.clone();
        req[field] = value;
        assert_eq!(ask(&req)["error"], want, "{field}");
    }
    let mut missing = base.clone();
    missing.as_object_mut().unwrap().remove("element_bytes");
    assert_eq!(ask(&missing)["error"], "missing field 'element_bytes'");
    let composed = json!({"op": "swizzle_search", "layout": "Sw<1,0,1> o 0 o 4:1", "access": "(4,1):(1,1)", "element_bytes": 4});
    assert!(ask(&composed)["error"]
        .as_str()
        .unwrap()
        .starts_with("layout: swizzle_search takes a plain layout"));
    let r = ask(&json!({"op": "linear_layout", "layout": "8:1", "access": "(1,1):(1,1)"}));
    assert!(r["error"]
        .as_str()
        .unwrap()
        .starts_with("unknown field 'access'"));
    // The access's points count against max_reply_elements.
    let tight = hlayout::Limits {
        max_reply_elements: 32,
        ..Default::default()
    };
    let mut out = Vec::new();
    batch::run_with(format!("{base}\n").as_bytes(), &mut out, &tight).unwrap();
    assert!(String::from_utf8(out)
        .unwrap()
        .contains("access: request exceeds the limit max_reply_elements = 32 (got 64)"));
}
