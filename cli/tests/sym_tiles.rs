//! The remaining algebra over symbols on the batch protocol
//! (`right_inverse`, `left_inverse`, `blocked_product`, `raked_product`):
//! each answer, bound at several allowed values (the extremes included), is
//! the concrete request's answer there as a function; refusals name facts.

use serde_json::json;

use crate::symbolic::{check, reply};

#[test]
fn inverses_and_products_at_bindings() {
    // Invariant: each answer over symbols is the concrete answer at every binding / Witness: a transpose's inverses, a blocked and a raked product over N and T.
    let n: &[&[(&str, i64)]] = &[&[("N", 2)], &[("N", 3)], &[("N", 7)], &[("N", 4096)]];
    let a = json!({"N":{"min":2,"max":4096}});
    check(
        json!({"op":"right_inverse","layout":"(N,4):(1,N)","assume":a}),
        n,
    );
    check(
        json!({"op":"left_inverse","layout":"(N,4):(1,2*N)","assume":a}),
        n,
    );
    check(
        json!({"op":"blocked_product","a":"(2,N):(N,1)","b":"(3,2):(2,1)","assume":a}),
        n,
    );
    check(
        json!({"op":"raked_product","a":"(2,N):(N,1)","b":"(3,2):(2,1)","assume":a}),
        n,
    );
    let nt: &[&[(&str, i64)]] = &[
        &[("N", 2), ("T", 1)],
        &[("N", 5), ("T", 3)],
        &[("N", 64), ("T", 64)],
    ];
    let a = json!({"N":{"min":2,"max":64},"T":{"max":64}});
    check(
        json!({"op":"blocked_product","a":"(2,N):(N,1)","b":"(T,3):(1,T)","assume":a}),
        nt,
    );
    check(
        json!({"op":"raked_product","a":"N:1","b":"(T,3):(3,1)","assume":a}),
        nt,
    );
}

#[test]
fn refusals_name_the_facts() {
    // Invariant: where the answer's structure depends on the values, the reply names the fact / Witness: the chain of (2,4):(K,1) goes on past 4 only at K = 4.
    let out = reply(&json!({"op":"right_inverse","layout":"(2,4):(K,1)"}));
    assert_eq!(out["needs"], json!(["K >= 5"]), "{out}");
    let out = reply(&json!({"op":"blocked_product","a":"N:1","b":"3:2"}));
    assert_eq!(out["needs"], json!(["N >= 2"]), "{out}");
}

#[test]
fn show_divide_prints_the_predicated_view() {
    // Invariant: `show --divide` prints the predicated divide's view and a grid whose cells are the view's offsets, `.` past the end / Witness: 10 by 4 (the last tile half valid), by mode in every form, a refusal and bad usage.
    let run = |args: &[&str]| {
        let out = crate::cli::hlayout().args(args).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        (
            out.status.code(),
            text,
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, text, _) = run(&["show", "10:1", "--divide", "4:1"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        text,
        "layout   10:1\ndivide   logical by 4:1\nview     (3,4):(4,1) if 0<=4*x0+x1<10\n    0 1 2 3\n  +--------\n0 | 0 1 2 3\n1 | 4 5 6 7\n2 | 8 9 . .\n"
    );
    // Every cell is the library's view at that element.
    let a: hlayout::Layout = "(5,3):(1,5)".parse().unwrap();
    for form in hlayout_cli::show_tiles::FORMS {
        let (code, text, _) = run(&[
            "show",
            "(5,3):(1,5)",
            "--divide",
            "2:1",
            "--divide",
            "2:1",
            "--form",
            form,
        ]);
        assert_eq!(code, Some(0), "{form}");
        let how = match form {
            "logical" => hlayout::algebra::DivideForm::Logical,
            "zipped" => hlayout::algebra::DivideForm::Zipped,
            "tiled" => hlayout::algebra::DivideForm::Tiled,
            _ => hlayout::algebra::DivideForm::Flat,
        };
        let t =
            hlayout::algebra::Tiler::Modes(vec!["2:1".parse().unwrap(), "2:1".parse().unwrap()]);
        let v = a.predicated_divide(&t, how).unwrap();
        assert!(text.contains(&format!("view     {v}\n")), "{form}: {text}");
        let shape = v.shape();
        let cols: i64 = shape[1..].iter().product();
        let rows: Vec<&str> = text.lines().skip(5).collect();
        assert_eq!(rows.len() as i64, shape[0], "{form}: {text}");
        for (r, line) in rows.iter().enumerate() {
            let cells: Vec<&str> = line.split('|').nth(1).unwrap().split_whitespace().collect();
            assert_eq!(cells.len() as i64, cols);
            for (c, cell) in cells.iter().enumerate() {
                let i = r as i64 * cols + c as i64;
                let mut coord = vec![0; shape.len()];
                let mut rest = i;
                for k in (0..shape.len()).rev() {
                    coord[k] = rest % shape[k];
                    rest /= shape[k];
                }
                let want = v
                    .eval(&coord)
                    .unwrap()
                    .map_or(".".to_string(), |x| x.to_string());
                assert_eq!(*cell, want, "{form} at {coord:?}");
            }
        }
    }
    // The divide's own refusal, symbols, and --form without --divide.
    let (code, _, err) = run(&["show", "(3,4):(1,3)", "--divide", "5:1"]);
    assert_eq!(code, Some(1));
    assert!(
        err.starts_with("hlayout show: predicated divide: "),
        "{err}"
    );
    let (code, _, err) = run(&["show", "N:1", "--divide", "4:1"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("--divide takes a concrete layout"), "{err}");
    crate::cli::assert_usage_error(&["show", "10:1", "--form", "tiled"]);
    crate::cli::assert_usage_error(&["show", "10:1", "--divide", "4:1", "--form", "diagonal"]);
}
