//! Symbolic requests on the batch protocol: every answer, bound to several
//! allowed values (the extremes included), equals the concrete request's
//! answer at those values as a function; every refusal names facts, and the
//! concrete request fails at a binding that breaks them while, with the
//! facts assumed, the symbolic request is answered.

use hlayout::symbolic::{Assume, SymLayout, Symbols};
use hlayout::Layout;
use hlayout_cli::batch::respond;
use serde_json::{json, Map, Value};

/// The symbols of a request's `assume` field.
pub(crate) fn symbols(req: &Value) -> Symbols {
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

/// The concrete layout of symbolic text at `values` (by name).
fn bind(text: &str, syms: &Symbols, values: &[(&str, i64)]) -> Layout {
    let mut s = syms.clone();
    let l = SymLayout::parse(text, &mut s).unwrap();
    let ids: Vec<i64> = (0..s.len())
        .map(|id| {
            let name = s.name(id as u8);
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(s.range(id as u8).0, |v| v.1)
        })
        .collect();
    l.bind(&s, &ids).unwrap()
}

/// The request with every layout field and the cotarget bound, `assume` dropped.
fn concrete(req: &Value, values: &[(&str, i64)]) -> Value {
    let syms = symbols(req);
    let mut out = Map::new();
    for (k, v) in req.as_object().unwrap() {
        match (k.as_str(), v) {
            ("assume", _) => {}
            ("layout" | "a" | "b", Value::String(t)) => {
                out.insert(k.clone(), bind(t, &syms, values).to_string().into());
            }
            ("cotarget", Value::String(t)) => {
                let mut s = syms.clone();
                let p = s.parse(t).unwrap();
                let ids: Vec<i64> = (0..s.len())
                    .map(|id| {
                        values
                            .iter()
                            .find(|(n, _)| *n == s.name(id as u8))
                            .unwrap()
                            .1
                    })
                    .collect();
                out.insert(k.clone(), json!(p.eval(&ids).unwrap() as i64));
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Object(out)
}

pub(crate) fn reply(req: &Value) -> Value {
    serde_json::from_str(&respond(&req.to_string())).unwrap()
}

/// `true` when two layouts are the same function (size, then the offsets:
/// all of them up to 4096, else the first and last 2048 and a stride).
fn same_function(x: &Layout, y: &Layout) -> bool {
    if x.size() != y.size() {
        return false;
    }
    let n = x.size();
    let at = |i: i64| x.eval(i).unwrap() == y.eval(i).unwrap();
    if n <= 4096 {
        return (0..n).all(at);
    }
    (0..2048).all(at) && (n - 2048..n).all(at) && (0..n).step_by((n / 4096) as usize).all(at)
}

/// Checks the symbolic answer of `req` against the concrete one at every
/// binding of `bindings`.
pub(crate) fn check(req: Value, bindings: &[&[(&str, i64)]]) {
    let out = reply(&req);
    let text = out["layout"]
        .as_str()
        .unwrap_or_else(|| panic!("{req}: {out}"));
    let syms = symbols(&req);
    for values in bindings {
        let c = reply(&concrete(&req, values));
        let want: Layout = c["layout"]
            .as_str()
            .unwrap_or_else(|| panic!("{req} at {values:?}: {c}"))
            .parse()
            .unwrap();
        let got = bind(text, &syms, values);
        assert!(
            same_function(&got, &want),
            "{req} at {values:?}: symbolic {text} gives {got}, concrete {want}"
        );
    }
}

const MAX: i64 = 2147483647;

#[test]
fn coalesce_at_bindings() {
    // Invariant: coalesce over symbols is the concrete coalesce at every binding / Witness: the issue's (N,(4,8)):(32,(8,1)) -> 32*N:1, and a transpose that must stay.
    let n: &[&[(&str, i64)]] = &[
        &[("N", 1)],
        &[("N", 2)],
        &[("N", 3)],
        &[("N", 7)],
        &[("N", MAX / 64)],
    ];
    check(json!({"op":"coalesce","layout":"(N,(4,8)):(32,(8,1))"}), n);
    check(json!({"op":"coalesce","layout":"(N,4):(1,N)"}), &n[..4]);
    check(
        json!({"op":"coalesce","layout":"(B,S,128):(128*S,128,1)","assume":{"S":{"max":4096},"B":{"max":64}}}),
        &[
            &[("B", 1), ("S", 1)],
            &[("B", 3), ("S", 5)],
            &[("B", 64), ("S", 4096)],
        ],
    );
}

#[test]
fn compose_at_bindings() {
    // Invariant: compose over symbols is the concrete compose at every allowed binding / Witness: a GEMM row tile, the contiguous transpose, a KV-cache row.
    check(
        json!({"op":"compose","a":"(M,K):(K,1)","b":"(128,K):(K,1)","assume":{"M":{"divisible_by":128,"max":4096},"K":{"max":512}}}),
        &[
            &[("M", 128), ("K", 1)],
            &[("M", 256), ("K", 3)],
            &[("M", 4096), ("K", 512)],
        ],
    );
    check(
        json!({"op":"compose","a":"(4,N):(N,1)","b":"4:1"}),
        &[&[("N", 1)], &[("N", 2)], &[("N", 5)], &[("N", MAX)]],
    );
    check(
        json!({"op":"compose","a":"(4,N):(1,4)","b":"4:1","assume":{"N":{"min":4,"max":100}}}),
        &[&[("N", 4)], &[("N", 5)], &[("N", 100)]],
    );
}

#[test]
fn complement_divide_product_at_bindings() {
    // Invariant: complement (given and default cotarget), logical_divide, zipped_divide and logical_product agree with the concrete ops.
    let k: &[&[(&str, i64)]] = &[&[("K", 1)], &[("K", 2)], &[("K", 9)], &[("K", 1000)]];
    check(
        json!({"op":"complement","layout":"(4,8):(8*K,1)","cotarget":"32*K"}),
        k,
    );
    check(json!({"op":"complement","layout":"(4,8):(8*K,1)"}), k);
    let t: &[&[(&str, i64)]] = &[&[("T", 1)], &[("T", 2)], &[("T", 33)]];
    check(json!({"op":"logical_divide","a":"64*T:1","b":"64:1"}), t);
    check(json!({"op":"zipped_divide","a":"64*T:1","b":"64:1"}), t);
    check(
        json!({"op":"logical_product","a":"N:1","b":"3:2","assume":{"N":{"min":2,"max":1000}}}),
        &[&[("N", 2)], &[("N", 3)], &[("N", 1000)]],
    );
}

#[test]
fn refusals_name_the_facts() {
    // Invariant: a refusal lists the facts; the concrete request fails where they break, and with them assumed the symbolic request is answered / Witness: the transpose's first 4 elements need N >= 4 (CuTe answers a wrong layout at N = 3).
    let req = json!({"op":"compose","a":"(4,N):(1,4)","b":"4:1"});
    let out = reply(&req);
    assert_eq!(out["needs"], json!(["N >= 4"]), "{out}");
    assert!(out["error"].as_str().unwrap().contains("needs N >= 4"));
    // Below 4 the concrete answers differ from the 4:4 of N >= 4: no
    // single layout answers every N.
    let four: Layout = "4:4".parse().unwrap();
    for n in 1..4 {
        let c = reply(&concrete(&req, &[("N", n)]));
        let l = c["layout"].as_str().map(|t| t.parse::<Layout>().unwrap());
        assert!(l.is_none_or(|l| !same_function(&l, &four)), "N = {n}: {c}");
    }
    let mut with = req.clone();
    with["assume"] = json!({"N": {"min": 4}});
    assert_eq!(reply(&with), json!({"layout": "4:4"}));
    // A size that may leave i64 names the bound it needs.
    let out = reply(&json!({"op":"coalesce","layout":"(N,M,K):(1,1,1)"}));
    assert_eq!(
        out["needs"],
        json!(["N*M*K <= 9223372036854775807"]),
        "{out}"
    );
    // No added fact helps: an empty list.
    let out = reply(
        &json!({"op":"logical_divide","a":"N:1","b":"4:1","assume":{"N":{"divisible_by":4}}}),
    );
    assert_eq!(out["needs"], json!([]), "{out}");
    assert!(
        out["error"]
            .as_str()
            .unwrap()
            .contains("no added fact helps"),
        "{out}"
    );
}

#[test]
fn eval_binds_within_the_assumptions() {
    // Invariant: eval with bind lists the offsets of the bound layout; a value outside the assumptions, a missing or unknown symbol is an error.
    let out = respond(r#"{"op":"eval","layout":"(N,4):(1,N)","bind":{"N":3}}"#);
    assert_eq!(out, respond(r#"{"op":"eval","layout":"(3,4):(1,3)"}"#));
    let out = respond(
        r#"{"op":"eval","layout":"(N,4):(1,N)","assume":{"N":{"divisible_by":4}},"bind":{"N":8}}"#,
    );
    assert_eq!(out, respond(r#"{"op":"eval","layout":"(8,4):(1,8)"}"#));
    let bad = [
        (
            r#"{"op":"eval","layout":"(N,4):(1,N)","assume":{"N":{"divisible_by":4}},"bind":{"N":6}}"#,
            "bind.N: N = 6 breaks its assumptions",
        ),
        (
            r#"{"op":"eval","layout":"(N,4):(1,N)"}"#,
            "bind: no value for N",
        ),
        (
            r#"{"op":"eval","layout":"(N,4):(1,N)","bind":{"N":2,"M":1}}"#,
            "bind.M: the request uses no symbol M",
        ),
        (
            r#"{"op":"eval","layout":"(N,4):(1,N)","bind":{"N":"2"}}"#,
            "bind.N: expected an integer",
        ),
        (
            r#"{"op":"eval","layout":"(N,4):(1,N)","bind":[2]}"#,
            "bind: expected an object",
        ),
        (
            r#"{"op":"coalesce","layout":"(N,4):(1,N)","bind":{"N":2}}"#,
            "unknown field 'bind'",
        ),
    ];
    for (req, want) in bad {
        let out = respond(req);
        assert!(
            out.starts_with(&format!(r#"{{"error":"{want}"#)),
            "{req}: {out}"
        );
    }
}

#[test]
fn assume_is_strict() {
    // Invariant: assume is an object of objects with min, max, divisible_by (integers); anything else is an error naming the field.
    let cases = [
        (
            json!({"N": {"min": 1, "step": 2}}),
            "unknown field 'step' in assume.N",
        ),
        (
            json!({"N": {"min": "1"}}),
            "assume.N.min: expected an integer",
        ),
        (json!({"N": 4}), "assume.N: expected an object"),
        (json!([1]), "assume: expected an object"),
        (json!({"N": {"divisible_by": 0}}), "assume.N: out of domain"),
        (
            json!({"N": {"min": 9, "max": 3}}),
            "assume.N: out of domain",
        ),
        (json!({"int": {}}), "assume.int: parse error"),
        (
            json!({"N": {"max": 9223372036854775808u64}}),
            "assume.N.max: 9223372036854775808 is beyond i64",
        ),
    ];
    for (assume, want) in cases {
        let req = json!({"op": "coalesce", "layout": "(N,4):(4,1)", "assume": assume});
        let out = reply(&req);
        let err = out["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{req}: {out}"));
        assert!(err.starts_with(want), "{req}: {err}");
    }
}

#[test]
fn requests_without_symbols_answer_as_before() {
    // Invariant: a request with assume or bind but no symbol gets the concrete answer, byte for byte.
    let plain = [
        r#"{"op":"eval","layout":"(2,3):(1,2)"}"#,
        r#"{"op":"compose","a":"(4,6):(6,1)","b":"(2,3):(3,1)"}"#,
        r#"{"op":"complement","layout":"(4,2):(-4,1)"}"#,
        r#"{"op":"flatten","layout":"((10,10)):((1,10))"}"#,
        r#"{"op":"chain","shape":[4,6],"ops":[["permute",[1,0]]],"expr":"c"}"#,
        r#"{"op":"expr","layout":"(4,6):(1,4)","lang":"c"}"#,
        r#"{"op":"compose","a":"4:1","b":"8:1"}"#,
        r#"{"op":"eval","layout":"Sw<1,0,1> o 0 o 4:1"}"#,
    ];
    for req in plain {
        let with = format!(
            r#"{},"assume":{{"N":{{"min":2}}}}}}"#,
            &req[..req.len() - 1]
        );
        assert_eq!(respond(&with), respond(req), "{with}");
    }
    let with = r#"{"op":"eval","layout":"(2,3):(1,2)","bind":{}}"#;
    assert_eq!(
        respond(with),
        respond(r#"{"op":"eval","layout":"(2,3):(1,2)"}"#)
    );
}

#[test]
fn unsupported_ops_are_named() {
    // Invariant: an op the library does not answer over symbols yet is refused, naming it; never a concrete guess.
    let reqs = [
        r#"{"op":"expr","layout":"Sw<1,0,1> o 0 o (N,4):(4,1)","lang":"c"}"#,
        r#"{"op":"linear_layout","layout":"(N,4):(4,1)"}"#,
        r#"{"op":"eval","layout":"Sw<3,4,3> o 0 o (8,N):(N,1)"}"#,
    ];
    for req in reqs {
        let out = respond(req);
        assert!(
            out.contains("not supported over symbols yet"),
            "{req}: {out}"
        );
    }
}

#[test]
fn hostile_symbolic_input_is_an_error() {
    // Invariant: bad polynomial text, keywords, huge coefficients, too many symbols get an error, nothing else.
    let reqs = [
        r#"{"op":"coalesce","layout":"(N+,4):(4,1)"}"#,
        r#"{"op":"coalesce","layout":"(int,4):(4,1)"}"#,
        r#"{"op":"coalesce","layout":"(99999999999999999999*N,4):(4,1)"}"#,
        r#"{"op":"coalesce","layout":"(N*N*N*N*N*N*N*N*N,4):(4,1)"}"#,
        r#"{"op":"complement","layout":"N:1","cotarget":"M+"}"#,
        r#"{"op":"complement","layout":"N:1","cotarget":[1]}"#,
        r#"{"op":"coalesce","layout":"N-1:1"}"#,
    ];
    for req in reqs {
        let out = respond(req);
        assert!(out.starts_with(r#"{"error":"#), "{req}: {out}");
    }
    let many: Vec<String> = (0..100).map(|k| format!("s{k}")).collect();
    let req =
        json!({"op": "coalesce", "layout": format!("({}):({})", many.join(","), many.join(","))});
    assert!(reply(&req).get("error").is_some());
}

fn hlayout(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hlayout"))
        .args(args)
        .output()
        .unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (
        out.status.code().unwrap(),
        text(out.stdout),
        text(out.stderr),
    )
}

#[test]
fn show_prints_polynomials_and_binds() {
    // Invariant: show of a symbolic layout prints its assumptions, size, cosize and coalesced form as polynomials; --bind adds the concrete report of the bound layout.
    let (code, out, _) = hlayout(&[
        "show",
        "(N,(4,8)):(32,(8,1))",
        "--assume",
        "N:max=64,divisible_by=2",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "layout   (N,(4,8)):(32,(8,1))\nassume   1 <= N <= 64, N % 2 == 0\nsize     32*N\ncosize   32*N\n\
         coalesce 32*N:1\nflatten  ordinary: shape [N, 32] strides [32, 1]\n"
    );
    let (code, out, _) = hlayout(&["show", "(N,4):(1,N)", "--bind", "N=3"]);
    assert_eq!(code, 0);
    let concrete = hlayout_cli::show::report(&"(3,4):(1,3)".parse().unwrap());
    assert!(out.ends_with(&format!("\nat N=3:\n{concrete}")), "{out}");
    let (code, out, _) = hlayout(&["show", "(N,4):(1,N)", "--bind", "N=3", "--svg"]);
    assert_eq!(
        (code, out),
        (
            0,
            hlayout::draw::layout_svg(&"(3,4):(1,3)".parse().unwrap())
        )
    );
}

#[test]
fn show_and_expr_refuse_bad_symbolic_arguments() {
    // Invariant: a bad --assume or --bind, a binding outside the assumptions, an invalid symbolic layout, expr of a symbolic chain and a symbolic kernel needing a fact exit 1 with the reason on stderr.
    let cases: [(&[&str], &str); 10] = [
        (
            &["show", "(N,4):(1,N)", "--assume", "N:step=2"],
            "unknown key 'step'",
        ),
        (
            &["show", "(N,4):(1,N)", "--assume", "N:min=x"],
            "x is not an integer",
        ),
        (&["show", "(N,4):(1,N)", "--assume", "int:min=1"], "keyword"),
        (
            &[
                "show",
                "(N,4):(1,N)",
                "--assume",
                "N:divisible_by=4",
                "--bind",
                "N=6",
            ],
            "N = 6 breaks its assumptions",
        ),
        (
            &["show", "(N,4):(1,N)", "--bind", "N"],
            "expected NAME=integer",
        ),
        (&["show", "N-1:1"], "needs N >= 2"),
        (
            &["expr", "Sw<1,0,1> o 0 o (N,4):(4,1)"],
            "not supported yet",
        ),
        (
            &[
                "expr",
                "--input",
                "linear",
                "--chain",
                r#"{"shape":["M","N"],"ops":[["permute",[1,0]],["reshape",["M*N"]]]}"#,
            ],
            "needs M*N*N-N <= 9223372036854775807",
        ),
        (
            &[
                "expr",
                "--chain",
                r#"{"shape":["N"],"ops":[["reshape",["N",2]]]}"#,
            ],
            "reshape",
        ),
        (&["expr", "(M,N):(1,M)"], "needs"),
    ];
    for (args, want) in cases {
        let (code, out, err) = hlayout(args);
        assert_eq!((code, out.as_str()), (1, ""), "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // A symbolic layout: the expressions over i and the symbols.
    let (code, out, _) = hlayout(&["expr", "(4,N):(1,4)", "--assume", "N:max=8"]);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "index: i * 4 - i / N * (4 * N - 1)\nvalid: 1\nvars: i, N\n"
        )
    );
    // A symbolic chain: the expressions over the coordinates and the symbols.
    let chain = r#"{"shape":["N",4],"ops":[["pad",[["j",0],[0,0]]]]}"#;
    let (code, out, _) = hlayout(&["expr", "--chain", chain, "--assume", "j:min=0,max=8"]);
    assert_eq!(
        (code, out.as_str()),
        (
            0,
            "index: i0 * 4 + i1 - 4 * j\nvalid: i0 >= j\nvars: i0, i1, j, N\n"
        )
    );
    // A concrete layout with --assume: the concrete expressions.
    let (code, out, _) = hlayout(&["expr", "(4,6):(1,4)", "--assume", "N:max=8"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "index: i * 4 - i / 6 * 23\nvalid: 1\n")
    );
}

mod random {
    //! Random concrete requests with one extent replaced by a symbol `N`
    //! ranging over a small interval: whenever the batch answers over
    //! symbols, the answer at every value of the interval is the concrete
    //! answer there, as a function.

    use super::*;
    use proptest::prelude::*;

    /// A flat layout text from extents and strides, extent `k` written as `N`.
    fn text(shape: &[i64], stride: &[i64], sym: Option<usize>) -> String {
        let s: Vec<String> = shape
            .iter()
            .enumerate()
            .map(|(i, e)| {
                if Some(i) == sym {
                    "N".to_string()
                } else {
                    e.to_string()
                }
            })
            .collect();
        let d: Vec<String> = stride.iter().map(i64::to_string).collect();
        format!("({}):({})", s.join(","), d.join(","))
    }

    fn layout() -> impl Strategy<Value = (Vec<i64>, Vec<i64>)> {
        (1usize..=3).prop_flat_map(|r| {
            (
                proptest::collection::vec(1i64..=4, r),
                proptest::collection::vec(prop_oneof![Just(0i64), 1i64..=16], r),
            )
        })
    }

    /// Checks `req` (with `N` in `lo..=hi`) against the concrete requests.
    fn agree(req: Value, lo: i64, hi: i64) -> Result<(), TestCaseError> {
        let out = reply(&req);
        let Some(text) = out["layout"].as_str() else {
            prop_assert!(out["error"].is_string(), "{req}: {out}");
            return Ok(());
        };
        let syms = symbols(&req);
        for n in lo..=hi {
            let c = reply(&concrete(&req, &[("N", n)]));
            let want = c["layout"].as_str();
            prop_assert!(
                want.is_some(),
                "{req} at N = {n}: symbolic {text}, concrete {c}"
            );
            let want: Layout = want.unwrap().parse().unwrap();
            let got = bind(text, &syms, &[("N", n)]);
            prop_assert!(
                same_function(&got, &want),
                "{req} at N = {n}: {text} -> {got}, concrete {want}"
            );
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        #[test]
        fn coalesce_and_complement((shape, stride) in layout(), k in 0usize..3, lo in 1i64..=4, w in 0i64..=4) {
            let k = k % shape.len();
            let assume = json!({"N": {"min": lo, "max": lo + w}});
            let a = text(&shape, &stride, Some(k));
            agree(json!({"op": "coalesce", "layout": a, "assume": assume}), lo, lo + w)?;
            agree(json!({"op": "complement", "layout": a, "assume": assume}), lo, lo + w)?;
        }

        #[test]
        fn compose_divide_product((sa, da) in layout(), (sb, db) in layout(), k in 0usize..3, side in 0usize..2, lo in 1i64..=4, w in 0i64..=4) {
            let assume = json!({"N": {"min": lo, "max": lo + w}});
            let (a, b) = if side == 0 {
                (text(&sa, &da, Some(k % sa.len())), text(&sb, &db, None))
            } else {
                (text(&sa, &da, None), text(&sb, &db, Some(k % sb.len())))
            };
            for op in ["compose", "logical_divide", "logical_product"] {
                agree(json!({"op": op, "a": a, "b": b, "assume": assume}), lo, lo + w)?;
            }
        }
    }
}

#[test]
fn batch_flags_bound_the_polynomials() {
    // Invariant: --max-symbols, --max-degree and --max-terms reach the symbolic layer; a request over them is one error line.
    use std::io::Write;
    let cases = [
        (
            "--max-symbols",
            r#"{"op":"coalesce","layout":"(N,M):(M,1)"}"#,
            "max_symbols = 1 (got 2)",
        ),
        (
            "--max-degree",
            r#"{"op":"coalesce","layout":"(N*N,M):(M,1)"}"#,
            "max_degree = 1 (got 2)",
        ),
        (
            "--max-terms",
            r#"{"op":"coalesce","layout":"(N+M+1,4):(4,1)"}"#,
            "max_terms = 1 (got 3)",
        ),
    ];
    for (flag, req, want) in cases {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hlayout"))
            .args(["batch", flag, "1"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        writeln!(child.stdin.take().unwrap(), "{req}").unwrap();
        let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
        assert!(
            out.starts_with(r#"{"error":"#) && out.contains(want),
            "{flag}: {out}"
        );
    }
}
