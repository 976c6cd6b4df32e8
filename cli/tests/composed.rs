//! Composed layouts (`Sw<B,M,S> o O o L`) through the batch protocol: every
//! request type that takes a layout, given composed text, answers the defined
//! function (checked at every index against the definitions, with the
//! swizzle written from the protocol's formula) or an error naming why.
//! (`expr` on composed text belongs to the kernel-expression suite.)

use hlayout::Layout;
use hlayout_cli::batch;
use serde_json::Value;

use crate::common;

/// Composed layouts every request is tried on: CuTe's core-test swizzles
/// (mirrored), its 128-byte atom, a negative shift with an offset, and a
/// swizzle that never sees its bits.
const COMPOSED: [&str; 6] = [
    "Sw<1,0,2> o 0 o (4,4):(4,1)",
    "Sw<1,0,2> o 0 o (4,4):(1,4)",
    "Sw<1,0,1> o 0 o (4,4):(1,8)",
    "Sw<3,3,3> o 0 o (64,8):(1,64)",
    "Sw<2,1,-3> o 5 o (3,(2,4)):(-8,(1,32))",
    "Sw<1,0,4> o 0 o (2,4):(8,1)",
];

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

/// A layout at any integer, by floor digits (the first leaf keeps the rest).
fn ext_eval(l: &Layout, x: i64) -> i64 {
    let (s, d) = (l.shape_leaves(), l.stride_leaves());
    let (mut rest, mut acc) = (x, 0i64);
    for k in (1..s.len()).rev() {
        acc += rest.rem_euclid(s[k]) * d[k];
        rest = rest.div_euclid(s[k]);
    }
    acc + rest * d.first().copied().unwrap_or(0)
}

/// Composed text as (swizzle, offset, inner layout), read by hand.
fn split(text: &str) -> ((i64, i64, i64), i64, Layout) {
    let (head, layout) = text.split_once(" o ").expect("composed text");
    let (offset, layout) = layout.split_once(" o ").expect("composed text");
    let nums: Vec<i64> = head
        .trim_start_matches("Sw<")
        .trim_end_matches('>')
        .split(',')
        .map(|n| n.parse().expect("int"))
        .collect();
    (
        (nums[0], nums[1], nums[2]),
        offset.parse().expect("offset"),
        layout.parse().expect("layout"),
    )
}

/// The function of composed text at any integer x: `Sw(O + L(x))`.
fn at(text: &str, x: i64) -> i64 {
    let ((b, m, s), o, l) = split(text);
    sw(b, m, s, o + ext_eval(&l, x))
}

fn size(text: &str) -> i64 {
    split(text).2.size()
}

/// The offsets of composed text, by the definition.
fn reference(text: &str) -> Vec<i64> {
    (0..size(text)).map(|i| at(text, i)).collect()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not a list: {v}"))
        .iter()
        .map(|x| x.as_i64().expect("int"))
        .collect()
}

fn layout_of(req: &str) -> String {
    let out = ask(req);
    out["layout"]
        .as_str()
        .unwrap_or_else(|| panic!("{req}: {out}"))
        .to_string()
}

/// A plain layout's offsets through the protocol's own `eval`.
fn plain_offsets(text: &str) -> Vec<i64> {
    ints(&ask(&format!(r#"{{"op":"eval","layout":"{text}"}}"#))["offsets"])
}

fn is_error(req: &str) -> String {
    let out = ask(req);
    out["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{req}: expected an error, got {out}"))
        .to_string()
}

#[test]
fn batch_evaluates_and_coalesces_composed_layouts() {
    // Invariant: eval of composed text is Sw(O + L(i)) at every index; coalesce keeps that function with a flat inner layout / Witness: every text of COMPOSED.
    for text in COMPOSED {
        let out = ask(&format!(r#"{{"op":"eval","layout":"{text}"}}"#));
        assert_eq!(ints(&out["offsets"]), reference(text), "{text}");
        let c = layout_of(&format!(r#"{{"op":"coalesce","layout":"{text}"}}"#));
        assert_eq!(reference(&c), reference(text), "{text}: {c}");
        assert!(split(&c).2.depth() <= 1, "{c}");
    }
}

#[test]
fn batch_complements_the_inner_layout() {
    // Invariant: complement of composed text is the inner layout's complement, ordered and disjoint from L's offsets / Witness: every text of COMPOSED with the default and a larger cotarget.
    for text in COMPOSED {
        let (_, _, l) = split(text);
        let offsets = common::reference_offsets(&l);
        for cot in ["", r#","cotarget":256"#] {
            let r = layout_of(&format!(r#"{{"op":"complement","layout":"{text}"{cot}}}"#));
            let plain = layout_of(&format!(r#"{{"op":"complement","layout":"{l}"{cot}}}"#));
            assert_eq!(r, plain, "{text}");
            let rv = plain_offsets(&r);
            assert!(rv.windows(2).all(|w| w[0] < w[1]), "{r} ordered");
            assert!(
                rv[1..].iter().all(|x| !offsets.contains(x)),
                "{r} disjoint from {l}"
            );
        }
    }
}

#[test]
fn batch_composes_composed_layouts_on_either_side() {
    // Invariant: compose answers R(i) = A(B(i)) at every index for a composed layout on the right, the left or both, or names why not / Witness: COMPOSED with a row tile, a transpose, a byte shift, each other, and CuTe's composition.cpp:502/509.
    let transpose = "(8,8):(1,8)";
    let cute_b = "Sw<2,0,-3> o 0 o (8,8):(1,8)";
    let cute_a = "Sw<2,0,3> o 0 o (8,8):(1,8)";
    // (a, b, whether a composed layout answers): the refusals are L ∘ B
    // without a layout, two swizzles of opposite shifts (CuTe nests them), a
    // layout after the swizzle that moves its bits apart, and 3·x.
    for (a, b, answers) in [
        (COMPOSED[0], "(2,4):(4,1)", true),
        (COMPOSED[3], "(2,64):(64,1)", true),
        (COMPOSED[4], "(2,3):(1,2)", false),
        ("64:2", COMPOSED[0], true),
        ("(2,64):(256,4)", COMPOSED[3], true),
        (transpose, cute_b, true),
        (cute_a, cute_b, true),
        (COMPOSED[1], COMPOSED[0], false),
        (COMPOSED[0], COMPOSED[0], true),
        ("64:3", COMPOSED[0], false),
        ("(4,4):(1,4)", COMPOSED[2], false),
    ] {
        let req = format!(r#"{{"op":"compose","a":"{a}","b":"{b}"}}"#);
        let out = ask(&req);
        let eval = |t: &str, x: i64| {
            if t.starts_with("Sw<") {
                at(t, x)
            } else {
                ext_eval(&t.parse().expect("layout"), x)
            }
        };
        let n = if b.starts_with("Sw<") {
            size(b)
        } else {
            b.parse::<Layout>().expect("b").size()
        };
        let want: Vec<i64> = (0..n).map(|i| eval(a, eval(b, i))).collect();
        match out["layout"].as_str() {
            Some(r) => assert_eq!(reference(r), want, "{req}: {r}"),
            None => assert!(out["error"].is_string(), "{req}: {out}"),
        }
        assert_eq!(out["layout"].is_string(), answers, "{req}: {out}");
    }
    assert_eq!(
        ask(&format!(
            r#"{{"op":"compose","a":"{cute_a}","b":"{cute_b}"}}"#
        ))["layout"]
            .as_str()
            .map(reference),
        Some((0..64).collect()),
        "CuTe's composition.cpp:509 is the identity"
    );
    // 3·x after a swizzle is no swizzle: the reply names CuTe's rule.
    assert!(is_error(&format!(
        r#"{{"op":"compose","a":"64:3","b":"{}"}}"#,
        COMPOSED[0]
    ))
    .contains("CuTe's rule"));
}

#[test]
fn batch_inverts_composed_layouts() {
    // Invariant: right_inverse answers C(R(i)) = i below size(R), left_inverse R(C(i)) = i (L injective here), each at every index / Witness: COMPOSED; CuTe's inverse_right.cpp:264/271/278 sizes 16, 16, 4.
    for (text, right_size) in [
        (COMPOSED[0], 16),
        (COMPOSED[1], 16),
        (COMPOSED[2], 4),
        (COMPOSED[3], 512),
    ] {
        let r = layout_of(&format!(r#"{{"op":"right_inverse","layout":"{text}"}}"#));
        assert_eq!(size(&r), right_size, "{text}: {r}");
        assert!(
            (0..size(&r)).all(|i| at(text, at(&r, i)) == i),
            "{text}: {r}"
        );
        let l = layout_of(&format!(r#"{{"op":"left_inverse","layout":"{text}"}}"#));
        assert!(
            (0..size(text)).all(|i| at(&l, at(text, i)) == i),
            "{text}: {l}"
        );
    }
    for text in [COMPOSED[4], COMPOSED[5]] {
        for op in ["right_inverse", "left_inverse"] {
            let out = ask(&format!(r#"{{"op":"{op}","layout":"{text}"}}"#));
            match out["layout"].as_str() {
                Some(r) if op == "right_inverse" => {
                    assert!((0..size(r)).all(|i| at(text, at(r, i)) == i), "{text}: {r}")
                }
                Some(r) => assert!(
                    (0..size(text)).all(|i| at(r, at(text, i)) == i),
                    "{text}: {r}"
                ),
                None => assert!(out["error"].is_string(), "{op} {text}: {out}"),
            }
        }
    }
}

#[test]
fn batch_divides_and_multiplies_composed_layouts() {
    // Invariant: a divide or product of composed text by a layout is Sw o O o op(L, B) at every index (CuTe's rule); logical_product by a swizzled tiler places A's blocks at the complement of the swizzled tiles; other swizzled tilers are refused by name / Witness: COMPOSED with 4:1 and (2,2):(1,4); 4:1 x Sw<1,0,1> o 0 o 4:1.
    for text in COMPOSED {
        let ((b, m, s), o, l) = split(text);
        for tiler in ["4:1", "(2,2):(1,4)"] {
            for op in [
                "logical_divide",
                "zipped_divide",
                "logical_product",
                "blocked_product",
                "raked_product",
            ] {
                let req = format!(r#"{{"op":"{op}","a":"{text}","b":"{tiler}"}}"#);
                let plain = ask(&format!(r#"{{"op":"{op}","a":"{l}","b":"{tiler}"}}"#));
                let out = ask(&req);
                match (out["layout"].as_str(), plain["layout"].as_str()) {
                    (Some(r), Some(p)) => {
                        let want: Vec<i64> = plain_offsets(p)
                            .into_iter()
                            .map(|x| sw(b, m, s, o + x))
                            .collect();
                        assert_eq!(reference(r), want, "{req}: {r}");
                    }
                    (None, None) => {}
                    _ => panic!("{req}: {out} but on L alone {plain}"),
                }
            }
        }
    }
    let (block, tiles) = ("4:1", "Sw<1,0,1> o 0 o 4:1");
    let r = layout_of(&format!(
        r#"{{"op":"logical_product","a":"{block}","b":"{tiles}"}}"#
    ));
    let cpl = layout_of(r#"{"op":"complement","layout":"4:1","cotarget":16}"#);
    let cpl: Layout = cpl.parse().expect("layout");
    let want: Vec<i64> = (0..16)
        .map(|i| ext_eval(&cpl, at(tiles, i / 4)) + i % 4)
        .collect();
    assert_eq!(reference(&r), want, "{r}");
    for op in [
        "logical_divide",
        "zipped_divide",
        "blocked_product",
        "raked_product",
    ] {
        let why = is_error(&format!(r#"{{"op":"{op}","a":"{block}","b":"{tiles}"}}"#));
        assert!(why.contains("tiler"), "{op}: {why}");
    }
}

#[test]
fn batch_flattens_composed_layouts_exactly() {
    // Invariant: flatten of composed text is ordinary exactly when the plain view through C(0) and each mode's first step is C at every index, and then that view / Witness: COMPOSED (the last never sets its swizzle's bits).
    let mut ordinary = 0;
    for text in COMPOSED {
        let out = ask(&format!(r#"{{"op":"flatten","layout":"{text}"}}"#));
        let modes: Vec<i64> = split(text).2.modes().map(|m| m.size()).collect();
        let start = at(text, 0);
        let mut steps = vec![0i64; modes.len()];
        let mut unit = 1;
        for k in (0..modes.len()).rev() {
            if modes[k] > 1 {
                steps[k] = at(text, unit) - start;
            }
            unit *= modes[k];
        }
        let plain: Vec<i64> = (0..size(text))
            .map(|i| {
                start
                    + common::digits(i, &modes)
                        .iter()
                        .zip(&steps)
                        .map(|(c, s)| c * s)
                        .sum::<i64>()
            })
            .collect();
        let is_plain = plain == reference(text);
        assert_eq!(out["ordinary"].as_bool(), Some(is_plain), "{text}: {out}");
        if is_plain {
            let v = &out["view"];
            assert_eq!(
                (ints(&v["shape"]), ints(&v["strides"])),
                (modes, steps),
                "{text}: {out}"
            );
            assert_eq!(v["offset"].as_i64(), Some(start));
            ordinary += 1;
        } else {
            assert!(
                out["reason"]
                    .as_str()
                    .is_some_and(|r| r.contains("swizzle")),
                "{out}"
            );
        }
    }
    assert_eq!(ordinary, 1);
}

#[test]
fn batch_names_what_is_not_defined_for_composed_layouts() {
    // Invariant: a malformed composed operand, a swizzled tiler where CuTe has none, or a field that wants no composed layout is an error naming it / Witness: Sw<3,0,2>, a composed tiler of a divide, a missing offset.
    for req in [
        format!(
            r#"{{"op":"logical_divide","a":"4:1","b":"{}"}}"#,
            COMPOSED[0]
        ),
        format!(
            r#"{{"op":"blocked_product","a":"{}","b":"{}"}}"#,
            COMPOSED[0], COMPOSED[0]
        ),
        r#"{"op":"eval","layout":"Sw<3,0,2> o 0 o 4:1"}"#.to_string(),
        r#"{"op":"eval","layout":"Sw<1,0,1> o 4:1"}"#.to_string(),
        format!(r#"{{"op":"eval","layout":"{}","extra":1}}"#, COMPOSED[0]),
    ] {
        is_error(&req);
    }
}

#[test]
fn show_prints_composed_layouts() {
    // Invariant: `hlayout show` of composed text prints its report with the offset grid of Sw(O + L(i)); bad text exits 1 naming the position; --svg and --latex print the library's drawings of Sw(O + L(i)) / Witness: COMPOSED[0], a bad swizzle, --svg, --latex.
    let show = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_hlayout"))
            .arg("show")
            .args(args)
            .output()
            .expect("runs")
    };
    let out = show(&[COMPOSED[0]]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    assert!(
        text.starts_with(&format!("layout   {}\n", COMPOSED[0])),
        "{text}"
    );
    let cells: Vec<i64> = text
        .lines()
        .filter_map(|line| line.split_once(" | "))
        .flat_map(|(_, row)| {
            row.split_whitespace()
                .map(|v| v.parse::<i64>().expect("cell"))
        })
        .collect();
    assert_eq!(cells, reference(COMPOSED[0]));
    let bad = show(&["Sw<1,0,1> o 0 o (2,2:(1,2)"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("parse error at byte"));
    let c: hlayout::algebra::ComposedLayout = COMPOSED[0].parse().expect("composed text");
    let svg = show(&["--svg", COMPOSED[0]]);
    assert!(svg.status.success(), "{svg:?}");
    assert_eq!(
        String::from_utf8(svg.stdout).expect("UTF-8"),
        hlayout::draw::composed_svg(&c)
    );
    let tex = show(&["--latex", COMPOSED[0]]);
    assert!(tex.status.success(), "{tex:?}");
    assert_eq!(
        String::from_utf8(tex.stdout).expect("UTF-8"),
        hlayout::draw::composed_latex(&c)
    );
}
