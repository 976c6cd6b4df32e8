//! The `hlayout` binary end to end: `batch` over pipes and `show`.

use std::io::Write;
use std::process::{Command, Stdio};

/// The `hlayout` binary of this build.
pub(crate) fn hlayout() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hlayout"))
}

/// Asserts that `hlayout ARGS` is bad usage: exit 2, nothing on stdout, and
/// an `error: ` line on stderr.
pub(crate) fn assert_usage_error(args: &[&str]) {
    let out = hlayout().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("error: "), "{args:?}: {err}");
}

/// Runs `hlayout ARGS` with `input` on stdin; asserts exit 0 and returns the
/// reply lines.
pub(crate) fn batch_lines(args: &[&str], input: &str) -> Vec<String> {
    let mut child = hlayout()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().map(str::to_owned).collect()
}

#[test]
fn batch_answers_each_line_in_order_and_exits_zero() {
    // Invariant: the protocol over real pipes. Witness: eval, flatten, an error, coalesce.
    let input = "{\"op\":\"eval\",\"layout\":\"(2,3):(10,1)\"}\n{\"op\":\"flatten\",\"layout\":\"((10,10)):((1,10))\"}\n{oops\n{\"op\":\"coalesce\",\"layout\":\"(2,(2,2)):(4,(2,1))\"}\n";
    let lines = batch_lines(&["batch"], input);
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
    // Invariant: show is the human view. Witness: tinygrad PR #3988's layout.
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
fn show_rejects_bad_text_with_exit_one_and_the_position() {
    // Invariant: a failed request exits 1, its error and position on stderr. Witness: an unclosed tuple.
    let out = hlayout().args(["show", "(2,3:(1,2)"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("parse error at byte 4: expected ',' or ')', found ':'"),
        "{err}"
    );
    assert!(err.contains("  (2,3:(1,2)\n      ^"), "{err}");
}

#[test]
fn help_and_version_go_to_stdout_with_exit_zero() {
    // Invariant: -h/--help on the program and every subcommand, and --version, print to stdout, exit 0.
    for args in [
        &["--help"][..],
        &["-h"],
        &["show", "--help"],
        &["show", "-h"],
        &["batch", "--help"],
        &["help", "batch"],
    ] {
        let out = hlayout().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Usage: hlayout"), "{args:?}: {text}");
        assert!(out.stderr.is_empty(), "{args:?}");
    }
    let batch = hlayout().args(["batch", "--help"]).output().unwrap();
    let text = String::from_utf8(batch.stdout).unwrap();
    assert!(text.contains("docs/batch-protocol.md") && text.contains("--max-line-bytes"));
    let out = hlayout().arg("--version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("hlayout {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn bad_usage_exits_two_with_usage_on_stderr() {
    // Invariant: usage errors exit 2, nothing on stdout. Witness: no command, an unknown one, extra or missing arguments.
    for args in [
        &[][..],
        &["bogus"],
        &["show"],
        &["show", "8:1", "9:1"],
        &["batch", "extra"],
        &["batch", "--max-rank", "-1"],
        &["--nope"],
    ] {
        let out = hlayout().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(
            String::from_utf8(out.stderr)
                .unwrap()
                .contains("Usage: hlayout"),
            "{args:?}"
        );
    }
}

#[test]
fn show_takes_layouts_starting_with_a_minus() {
    // Invariant: layout text is a value, not an option. Witness: a negative extent is a failed request (1), not usage (2).
    let out = hlayout().args(["show", "-3:1"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr).unwrap().contains("extent -3"));
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

#[test]
fn show_cuts_wide_grids_by_columns() {
    // Invariant: no grid line grows with the layout: at most MAX_GRID_COLS columns, then an
    // ellipsis column, and a closing line counting what was cut. Witness: a 1024x1024 layout.
    let out = hlayout()
        .args(["show", "(1024,1024):(1024,1)"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let grid: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("flatten"))
        .skip(1)
        .collect();
    // 32 cells of at most 6 digits each, the row label, the ellipsis: about 240 bytes.
    let longest = grid.iter().map(|l| l.len()).max().unwrap();
    assert!(longest <= 300, "a line of {longest} bytes");
    let header: Vec<&str> = grid[0].split_whitespace().collect();
    let columns: Vec<String> = (0..32).map(|c| c.to_string()).collect();
    assert_eq!(&header[..32], &columns[..]);
    assert_eq!(header[32..], ["..."]);
    // Row 5 holds offsets 5*1024 + 0..32, then the ellipsis.
    let row5 = grid
        .iter()
        .find(|l| l.trim_start().starts_with("5 |"))
        .unwrap();
    let cells: Vec<&str> = row5.split('|').nth(1).unwrap().split_whitespace().collect();
    let expect: Vec<String> = (0..32).map(|c| (5 * 1024 + c).to_string()).collect();
    assert_eq!(&cells[..32], &expect[..]);
    assert_eq!(cells[32..], ["..."]);
    assert_eq!(
        *grid.last().unwrap(),
        "... (896 more rows, 992 more columns)"
    );
    // A grid that fits keeps every column and has no ellipsis.
    let out = hlayout().args(["show", "(2,32):(32,1)"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("...") && text.contains(" 31\n"));
}

#[test]
fn show_draws_svg_and_latex() {
    // Invariant: --svg and --latex print the library's drawings, exit 0;
    // together they are bad usage. Witness: tinygrad PR #3988's layout.
    let text = "(2,(2,2)):(2,(1,4))";
    let l: hlayout::Layout = text.parse().unwrap();
    let out = hlayout().args(["show", "--svg", text]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        hlayout::draw::layout_svg(&l)
    );
    let out = hlayout().args(["show", text, "--latex"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        hlayout::draw::layout_latex(&l)
    );
    let out = hlayout()
        .args(["show", "--svg", "--latex", text])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn every_subcommand_has_help_on_stdout() {
    // Invariant: -h/--help and `help` work for the program and every
    // subcommand (stdout, exit 0, nothing on stderr); -V is --version; the
    // batch help lists every limit flag.
    for args in [
        &["expr", "--help"][..],
        &["expr", "-h"],
        &["batch", "-h"],
        &["help"],
        &["help", "show"],
        &["help", "expr"],
        &["show", "-3:1", "--help"],
    ] {
        let out = hlayout().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(
            String::from_utf8(out.stdout)
                .unwrap()
                .contains("Usage: hlayout"),
            "{args:?}"
        );
        assert!(out.stderr.is_empty(), "{args:?}");
    }
    let out = hlayout().arg("-V").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("hlayout {}\n", env!("CARGO_PKG_VERSION"))
    );
    let text =
        String::from_utf8(hlayout().args(["batch", "--help"]).output().unwrap().stdout).unwrap();
    for flag in [
        "--max-rank",
        "--max-depth",
        "--max-reply-elements",
        "--max-line-bytes",
        "--max-ops",
    ] {
        assert!(text.contains(flag), "{flag}");
    }
    assert!(
        text.contains("linear in the request line and the reply"),
        "{text}"
    );
}

#[test]
fn malformed_arguments_are_usage_errors_with_exit_two() {
    // Invariant: every malformed command line exits 2 with an error on stderr
    // and nothing on stdout, whichever subcommand: unknown options (also where
    // layout text may start with '-'), bad values, missing or conflicting arguments.
    for args in [
        &["expr"][..],
        &["expr", "--lang", "fortran", "8:1"],
        &["expr", "--input", "diagonal", "8:1"],
        &["expr", "8:1", "--chain", "{}"],
        &["expr", "--chain"],
        &["expr", "--bogus"],
        &["show", "--bogus"],
        &["show", "--version"],
        &["batch", "--max-ops", "x"],
        &["batch", "--max-reply-elements", "18446744073709551616"],
        &["batch", "--version"],
    ] {
        assert_usage_error(args);
    }
}

#[test]
fn failed_expr_requests_exit_one_with_the_error_on_stderr() {
    // Invariant: a request that fails (bad layout text, with its byte
    // position; bad chain JSON; an op that breaks its precondition) exits 1,
    // its error on stderr, nothing on stdout.
    for (args, want) in [
        (
            &["expr", "(2,3:(1,2)"][..],
            "parse error at byte 4: expected ',' or ')', found ':'",
        ),
        (&["expr", "-3:1"], "extent -3"),
        (
            &["expr", "--chain", "{bad"],
            "--chain: key must be a string at line 1 column 2",
        ),
        (
            &["expr", "--chain", r#"{"shape":[2],"ops":[],"ops":[]}"#],
            "duplicate field 'ops'",
        ),
        (
            &["expr", "--chain", r#"{"shape":[2],"ops":[["stride",[2]]]}"#],
            "unknown movement op 'stride'",
        ),
        (&["show", "(2,3):(1,2,3)"], "not congruent"),
    ] {
        let out = hlayout().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn batch_flags_change_the_limits() {
    // Invariant: the limit flags reach the protocol: a request over a lowered
    // limit is refused naming it, and the stream goes on.
    let input = concat!(
        "{\"op\":\"eval\",\"layout\":\"8:1\"}\n",
        "{\"op\":\"chain\",\"shape\":[2],\"ops\":[[\"flip\",[true]],[\"flip\",[true]]]}\n",
        "{\"op\":\"chain\",\"shape\":[2,2,2],\"ops\":[]}\n",
        "{\"op\":\"eval\",\"layout\":\"4:1\"}\n",
    );
    let lines = batch_lines(
        &[
            "batch",
            "--max-reply-elements",
            "4",
            "--max-ops",
            "1",
            "--max-rank",
            "2",
        ],
        input,
    );
    assert_eq!(
        lines,
        [
            r#"{"error":"eval: request exceeds the limit max_reply_elements = 4 (got 8)"}"#,
            r#"{"error":"ops: request exceeds the limit max_ops = 1 (got 2)"}"#,
            r#"{"error":"shape: request exceeds the limit max_rank = 2 (got 3)"}"#,
            r#"{"offsets":[0,1,2,3]}"#,
        ]
    );
}

#[test]
fn batch_replies_to_a_waiting_client_before_its_next_line() {
    // Invariant: replies are flushed whenever no further input is buffered, so a
    // client that waits for each reply before writing the next line is never
    // left waiting (the protocol's "flushed after each line", as such a client
    // sees it). Witness: three round trips over pipes, the last line written in
    // two pieces; each reply must arrive within 60 s (not at end of input).
    use std::io::{BufRead, BufReader};
    use std::sync::mpsc;
    use std::time::Duration;
    let mut child = hlayout()
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let wait = Duration::from_secs(60);
    let mut ask = |pieces: &[&str]| {
        for p in pieces {
            stdin.write_all(p.as_bytes()).unwrap();
            stdin.flush().unwrap();
        }
        rx.recv_timeout(wait)
            .expect("a reply while the client waits")
    };
    assert_eq!(
        ask(&["{\"op\":\"coalesce\",\"layout\":\"(2,2):(2,1)\"}\n"]),
        r#"{"layout":"4:1"}"#
    );
    assert_eq!(
        ask(&["\n{\"op\":\"eval\",\"layout\":\"3:2\"}\n"]),
        r#"{"offsets":[0,2,4]}"#
    );
    assert_eq!(
        ask(&["{\"op\":\"coalesce\",", "\"layout\":\"8:1\"}\n"]),
        r#"{"layout":"8:1"}"#
    );
    drop(stdin);
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
}
