//! The batch protocol's line handling and answers, in process.

use hlayout_cli::batch;

#[test]
fn batch_keeps_going_after_bad_lines() {
    // Invariant: one response per non-empty line, in order. Witness: a mixed stream.
    let input = "{\"op\":\"eval\",\"layout\":\"3:2\"}\n\nnot json\n[1]\n{\"op\":\"nope\"}\n{\"layout\":\"3:2\"}\n{\"op\":\"coalesce\",\"layout\":\"(2,2):(2,1)\"}\n";
    let mut out = Vec::new();
    batch::run(input.as_bytes(), &mut out).unwrap();
    let lines: Vec<&str> = std::str::from_utf8(&out).unwrap().lines().collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[0], r#"{"offsets":[0,2,4]}"#);
    assert!(lines[1].starts_with(r#"{"error":"invalid JSON"#));
    assert_eq!(lines[2], r#"{"error":"request is not a JSON object"}"#);
    assert!(lines[3].starts_with(r#"{"error":"unknown op 'nope' (known: eval, "#));
    assert_eq!(lines[4], r#"{"error":"missing field 'op'"}"#);
    assert_eq!(lines[5], r#"{"layout":"4:1"}"#);
}

#[test]
fn batch_complement_accepts_negative_strides() {
    // Invariant: the batch op answers like the library, cotarget defaulting to cosize (= cosize(|L|)) / Witness: (4,2):(-4,1) with no cotarget gets 2:2.
    let out = batch::respond(r#"{"op":"complement","layout":"(4,2):(-4,1)"}"#);
    assert_eq!(out, r#"{"layout":"2:2"}"#);
}
