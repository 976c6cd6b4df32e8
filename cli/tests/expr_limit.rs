//! `max_expr_bytes` on every interface of the command line crate: the batch
//! `expr` request (layouts, composed and symbolic layouts), a `chain`'s
//! `"expr"` (concrete and symbolic), `hlayout batch --max-expr-bytes` and
//! `hlayout expr --max-expr-bytes`. A chain whose kernel text doubles every
//! few ops is refused at once, naming the limit and the text's length; text
//! of exactly the limit is answered.

use std::time::Instant;

use hlayout::Limits;
use hlayout_cli::batch::{respond, run_with};
use serde_json::{json, Value};

use crate::cli::{batch_lines, hlayout};

/// The ops of the doubling chain: transpose, reshape to `rows` x 4, pad a
/// row, cut it off again; `ops` of them.
fn doubling_ops(ops: usize, rows: Value) -> Value {
    let cycle = [
        json!(["permute", [1, 0]]),
        json!(["reshape", [rows, 4]]),
        json!(["pad", [[1, 0], [0, 0]]]),
        json!(["shrink", [[0, rows], [0, 4]]]),
    ];
    Value::from((0..ops).map(|k| cycle[k % 4].clone()).collect::<Vec<_>>())
}

/// The doubling chain over (5, 4) with `"expr":"c"`.
fn concrete_chain(ops: usize) -> String {
    json!({"op": "chain", "shape": [5, 4], "ops": doubling_ops(ops, json!(5)), "expr": "c"})
        .to_string()
}

/// The doubling chain over (N, 4), 5 <= N <= 64, with `"expr":"c"`.
fn symbolic_chain(ops: usize) -> String {
    json!({"op": "chain", "shape": ["N", 4], "ops": doubling_ops(ops, json!("N")),
           "expr": "c", "assume": {"N": {"min": 5, "max": 64}}})
    .to_string()
}

/// The reply to `line` under `limits`.
fn reply(line: &str, limits: &Limits) -> Value {
    let mut out = Vec::new();
    run_with(format!("{line}\n").as_bytes(), &mut out, limits).unwrap();
    serde_json::from_slice(&out).unwrap()
}

/// The length the refusal of `line` under a limit of 1 byte names.
fn measured(line: &str) -> u64 {
    let tight = Limits {
        max_expr_bytes: 1,
        ..Limits::default()
    };
    let err = reply(line, &tight)["error"].as_str().unwrap().to_owned();
    let got = err.rsplit("(got ").next().unwrap().trim_end_matches(')');
    got.parse().unwrap_or_else(|_| panic!("{err}"))
}

#[test]
fn the_64_op_chains_are_refused_quickly_naming_the_limit() {
    let start = Instant::now();
    for line in [concrete_chain(64), symbolic_chain(64)] {
        let out: Value = serde_json::from_str(&respond(&line)).unwrap();
        let err = out["error"].as_str().unwrap();
        assert!(
            err.starts_with("expr: request exceeds the limit max_expr_bytes = 1048576 (got "),
            "{err}"
        );
        // Hundreds of gigabytes of text, measured without writing it.
        assert!(measured(&line) > 100_000_000_000, "{err}");
        assert_eq!(out.as_object().unwrap().len(), 1, "{out}");
    }
    // Rendering would take minutes (loose bound: a debug build, a busy host).
    assert!(start.elapsed().as_secs() < 20);
}

#[test]
fn text_of_exactly_the_limit_is_answered_and_one_byte_more_refused() {
    let lines = [
        concrete_chain(20),
        symbolic_chain(20),
        json!({"op": "chain", "shape": [5, 4], "ops": doubling_ops(20, json!(5)),
               "expr": "python", "expr_input": "linear"})
        .to_string(),
        r#"{"op":"expr","layout":"(4,6):(1,4)","lang":"c"}"#.to_owned(),
        r#"{"op":"expr","layout":"Sw<1,0,1> o 0 o 4:1","lang":"rust"}"#.to_owned(),
        r#"{"op":"expr","layout":"(4,N):(1,4)","lang":"python","assume":{"N":{"max":4096}}}"#
            .to_owned(),
    ];
    for line in lines {
        let len = measured(&line);
        let at = |max: u64| Limits {
            max_expr_bytes: max as usize,
            ..Limits::default()
        };
        let out = reply(&line, &at(len));
        let text = |k: &str| {
            out[k]
                .as_str()
                .unwrap_or_else(|| panic!("{line}: {out}"))
                .len()
        };
        assert_eq!((text("index") + text("valid")) as u64, len, "{line}");
        assert_eq!(out, serde_json::from_str::<Value>(&respond(&line)).unwrap());
        let err = reply(&line, &at(len - 1))["error"]
            .as_str()
            .unwrap()
            .to_owned();
        let want = format!("max_expr_bytes = {} (got {len})", len - 1);
        assert!(err.ends_with(&want), "{line}: {err}");
    }
}

#[test]
fn the_command_line_takes_max_expr_bytes() {
    // hlayout expr: over the limit exits 1 naming it; at the limit prints.
    let out = hlayout()
        .args(["expr", "--max-expr-bytes", "18", "(4,6):(1,4)"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("max_expr_bytes = 18 (got 19)"), "{err}");
    let out = hlayout()
        .args(["expr", "--max-expr-bytes", "19", "(4,6):(1,4)"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "index: i * 4 - i / 6 * 23\nvalid: 1\n"
    );
    // Over symbols, and a chain.
    let chain = r#"{"shape":["N",4],"ops":[["pad",[[1,0],[0,0]]]]}"#;
    for args in [
        vec![
            "expr",
            "--max-expr-bytes",
            "8",
            "(N,4):(1,N)",
            "--assume",
            "N:max=64",
        ],
        vec![
            "expr",
            "--max-expr-bytes",
            "8",
            "--chain",
            chain,
            "--assume",
            "N:max=64",
        ],
    ] {
        let out = hlayout().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("max_expr_bytes = 8"), "{args:?}: {err}");
    }
    // The default refuses the 64-op chain.
    let ops = doubling_ops(64, json!(5)).to_string();
    let chain = format!(r#"{{"shape":[5,4],"ops":{ops}}}"#);
    let out = hlayout()
        .args(["expr", "--chain", &chain])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("max_expr_bytes = 1048576"), "{err}");
    // hlayout batch --max-expr-bytes reaches the protocol; the stream goes on.
    let input = concat!(
        "{\"op\":\"expr\",\"layout\":\"(4,6):(1,4)\",\"lang\":\"c\"}\n",
        "{\"op\":\"expr\",\"layout\":\"8:1\",\"lang\":\"c\"}\n",
    );
    assert_eq!(
        batch_lines(&["batch", "--max-expr-bytes", "18"], input),
        [
            r#"{"error":"expr: request exceeds the limit max_expr_bytes = 18 (got 19)"}"#,
            r#"{"index":"i","valid":"1"}"#,
        ]
    );
}
