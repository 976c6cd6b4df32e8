//! The `hlayout` binary end to end: `batch` over pipes and `show`.

use std::io::Write;
use std::process::{Command, Stdio};

fn hlayout() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hlayout"))
}

#[test]
fn batch_answers_each_line_in_order_and_exits_zero() {
    // Invariant: the protocol over real pipes. Witness: eval, flatten, an error, coalesce.
    let mut child = hlayout()
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = "{\"op\":\"eval\",\"layout\":\"(2,3):(10,1)\"}\n{\"op\":\"flatten\",\"layout\":\"((10,10)):((1,10))\"}\n{oops\n{\"op\":\"coalesce\",\"layout\":\"(2,(2,2)):(4,(2,1))\"}\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0], r#"{"offsets":[0,1,2,10,11,12]}"#);
    assert_eq!(
        lines[1],
        r#"{"ordinary":false,"reason":"mode 0 (10,10):(1,10) is not one stride: it needs i//10 and i%10"}"#
    );
    assert!(lines[2].starts_with(r#"{"error":"#));
    assert_eq!(lines[3], r#"{"layout":"8:1"}"#);
}

#[test]
fn show_prints_report_and_grid() {
    // Invariant: show is the human view. Witness: seed 004's layout.
    let out = hlayout()
        .args(["show", "(2,(2,2)):(2,(1,4))"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("size 8, cosize 8"));
    assert!(text.contains("coalesce (4,2):(1,4)"));
    assert!(text.contains("0 | 0 4 1 5"));
    assert!(text.contains("1 | 2 6 3 7"));
}

#[test]
fn show_rejects_bad_text_with_exit_two() {
    // Invariant: errors go to stderr with a non-zero exit. Witness: an unclosed tuple.
    let out = hlayout().args(["show", "(2,3:(1,2)"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("parse error at byte"));
}

#[test]
fn show_truncates_huge_layouts() {
    // Invariant: show prints at most MAX_GRID_CELLS cells. Witness: a 2^40-element layout.
    let out = hlayout()
        .args(["show", "(1048576,1048576):(1048576,1)"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("more columns"));
    assert!(text.contains("more rows") || text.lines().count() < 4200);
    assert!(text.len() < 1 << 20);
}
