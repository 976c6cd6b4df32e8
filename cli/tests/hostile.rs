//! Hostile input to `hlayout batch` (issue 13): every case of the issue's list
//! of failures, and what a parser in production must survive besides. Each
//! hostile line is followed by a good request whose answer is checked, and the
//! reply lines are counted, so a case that crashed, hung or desynchronised the
//! stream fails here. Cost is bounded by the [`Limits`] and the linear work
//! behind them, never by timing: each test asserts on the answer only. Runs in
//! debug (overflow checks on) under `cargo test`.

use std::io::{self, BufRead, Read, Write};
use std::process::{Command, Stdio};

use hlayout::Limits;
use hlayout_cli::batch;
use serde_json::Value;

/// The good request after hostile line `k`, and its exact answer.
fn probe(k: usize) -> (String, String) {
    let n = k % 5 + 1;
    let offsets: Vec<String> = (0..n).map(|i| i.to_string()).collect();
    (
        format!(r#"{{"op":"eval","layout":"{n}:1"}}"#),
        format!(r#"{{"offsets":[{}]}}"#, offsets.join(",")),
    )
}

/// Hostile `lines`, each followed by a probe, as one input stream.
fn interleave(lines: &[Vec<u8>]) -> Vec<u8> {
    let mut input = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        input.extend_from_slice(line);
        input.push(b'\n');
        input.extend_from_slice(probe(k).0.as_bytes());
        input.push(b'\n');
    }
    input
}

/// Checks the replies to [`interleave`]`(lines)`: two lines per hostile line,
/// each probe answered exactly; returns the hostile lines' replies, parsed.
fn hostile_replies(lines: &[Vec<u8>], out: &[u8]) -> Vec<Value> {
    let text = std::str::from_utf8(out).expect("replies are UTF-8");
    let replies: Vec<&str> = text.lines().collect();
    assert_eq!(replies.len(), 2 * lines.len(), "one reply per line");
    assert!(text.ends_with('\n'));
    let mut hostile = Vec::new();
    for (k, pair) in replies.chunks(2).enumerate() {
        assert_eq!(
            pair[1],
            probe(k).1,
            "probe after hostile line {k} (stream out of sync)"
        );
        let v: Value = serde_json::from_str(pair[0]).expect("each reply is JSON");
        assert!(v.is_object(), "{}", pair[0]);
        hostile.push(v);
    }
    hostile
}

/// Runs `lines` (each followed by a probe) through the library entry point.
fn exchange(lines: &[Vec<u8>], limits: &Limits) -> Vec<Value> {
    let mut out = Vec::new();
    batch::run_with(&interleave(lines)[..], &mut out, limits).expect("writing to a Vec");
    hostile_replies(lines, &out)
}

fn bytes(lines: &[&str]) -> Vec<Vec<u8>> {
    lines.iter().map(|l| l.as_bytes().to_vec()).collect()
}

/// The reply's error message (the reply must be exactly `{"error": text}`).
fn error(v: &Value) -> &str {
    let obj = v.as_object().expect("an object");
    assert_eq!(obj.len(), 1, "an error reply has one field: {v}");
    obj["error"].as_str().expect("error text")
}

// --- The issue's list of failures ------------------------------------------

#[test]
fn stride_is_an_unknown_chain_op_not_an_overflow() {
    // Invariant: the protocol serves only its six chain ops; stride (with
    // i64::MAX, once an add overflow in debug builds) is refused by name.
    let r = exchange(
        &bytes(&[r#"{"op":"chain","shape":[2],"ops":[["stride",[9223372036854775807]]]}"#]),
        &Limits::default(),
    );
    assert_eq!(
        error(&r[0]),
        "ops[0]: unknown movement op 'stride' (known: reshape, permute, expand, pad, shrink, flip)"
    );
}

#[test]
fn invalid_utf8_lines_are_one_error_each_and_the_stream_goes_on() {
    // Invariant: a line that is not UTF-8 is one bad request; the next line is read.
    let lines: Vec<Vec<u8>> = vec![
        b"\xff".to_vec(),
        b"{\"op\":\"eval\",\"layout\":\"8:1\xff\"}".to_vec(),
        b"\xc0\x80".to_vec(),           // overlong encoding of NUL
        b"\xed\xa0\x80".to_vec(),       // a UTF-16 surrogate
        b"{\"op\":\"\xe2\x82".to_vec(), // a truncated character
        b"\x00\x01\x02".to_vec(),       // UTF-8, but control bytes: not JSON
    ];
    let r = exchange(&lines, &Limits::default());
    assert_eq!(error(&r[0]), "invalid UTF-8 at byte 0");
    assert_eq!(error(&r[1]), "invalid UTF-8 at byte 26");
    assert_eq!(error(&r[2]), "invalid UTF-8 at byte 0");
    assert_eq!(error(&r[3]), "invalid UTF-8 at byte 0");
    assert_eq!(error(&r[4]), "invalid UTF-8 at byte 7");
    assert!(error(&r[5]).starts_with("invalid JSON"), "{}", r[5]);
}

/// `{"op":"chain","shape":[1,…],"ops":[[name, arg]]}` of rank `n`, `arg`
/// repeating `item` n times.
fn all_ones(n: usize, name: &str, item: &str) -> String {
    let ones = vec!["1"; n].join(",");
    let arg = vec![item; n].join(",");
    format!(r#"{{"op":"chain","shape":[{ones}],"ops":[["{name}",[{arg}]]]}}"#)
}

#[test]
fn pad_of_high_rank_is_refused_by_the_rank_limit_before_any_work() {
    // Invariant: a shape above max_rank is refused in O(line) before any op
    // runs (pad on rank 2,000 was once cubic: 6.2 s).
    let lines = vec![
        all_ones(2_000, "pad", "[1,1]").into_bytes(),
        all_ones(5_000, "pad", "[0,1]").into_bytes(),
    ];
    let r = exchange(&lines, &Limits::default());
    assert_eq!(
        error(&r[0]),
        "shape: request exceeds the limit max_rank = 64 (got 2000)"
    );
    assert_eq!(
        error(&r[1]),
        "shape: request exceeds the limit max_rank = 64 (got 5000)"
    );
}

#[test]
fn pad_and_flip_of_high_rank_cost_linear_work_when_the_limit_allows_them() {
    // Invariant: with max_rank raised, pad and flip of an all-ones shape of
    // rank 5,000 are answered exactly (one view; a padded size past i64 is
    // refused as Overflow after O(rank) work); the work is linear in the
    // rank, so this debug test stays fast without a timer.
    let wide = Limits {
        max_rank: 5_000,
        ..Limits::default()
    };
    let lines = vec![
        all_ones(5_000, "pad", "[1,1]").into_bytes(),
        all_ones(5_000, "flip", "true").into_bytes(),
        // 39 dimensions padded to 3: 3^39 elements fit i64 (3^40 would not).
        {
            let mut arg = vec!["[0,0]"; 5_000];
            arg[..39].fill("[1,1]");
            let ones = vec!["1"; 5_000].join(",");
            format!(
                r#"{{"op":"chain","shape":[{ones}],"ops":[["pad",[{}]]]}}"#,
                arg.join(",")
            )
            .into_bytes()
        },
    ];
    let r = exchange(&lines, &wide);
    assert_eq!(
        error(&r[0]),
        "ops[0]: i64 overflow while computing view size"
    );
    assert_eq!(r[1]["views"], 1, "{}", r[1]);
    let repr = r[1]["repr"].as_str().expect("repr");
    assert!(
        repr.starts_with("(1,1,1,") && repr.ends_with(",0,0,0)"),
        "{repr}"
    );
    assert_eq!(r[2]["views"], 1);
}

#[test]
fn flip_of_rank_300000_is_refused_by_the_limits() {
    // Invariant: a request line over max_line_bytes is refused without being
    // held in memory; under a raised line limit, max_rank refuses it before any
    // work (flip of rank 300,000 was once quadratic: 7 s).
    let line = all_ones(300_000, "flip", "true").into_bytes();
    assert!(line.len() > Limits::default().max_line_bytes);
    let r = exchange(std::slice::from_ref(&line), &Limits::default());
    assert_eq!(
        error(&r[0]),
        format!(
            "request exceeds the limit max_line_bytes = 1048576 (got {})",
            line.len()
        )
    );
    let long = Limits {
        max_line_bytes: 4 << 20,
        ..Limits::default()
    };
    let r = exchange(std::slice::from_ref(&line), &long);
    assert_eq!(
        error(&r[0]),
        "shape: request exceeds the limit max_rank = 64 (got 300000)"
    );
    let wide = Limits {
        max_rank: 300_000,
        ..long
    };
    let r = exchange(std::slice::from_ref(&line), &wide);
    assert_eq!(r[0]["views"], 1, "flip of rank 300,000 under raised limits");
}

/// A writer that keeps only the first and last bytes, the total, and the
/// largest single write: proof that a reply is streamed, not materialised.
#[derive(Default)]
struct Tally {
    head: Vec<u8>,
    tail: Vec<u8>,
    total: usize,
    largest_write: usize,
}

impl Write for Tally {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.head.len() < 64 {
            self.head
                .extend_from_slice(&buf[..buf.len().min(64 - self.head.len())]);
        }
        self.tail.extend_from_slice(buf);
        let excess = self.tail.len().saturating_sub(64);
        self.tail.drain(..excess);
        self.total += buf.len();
        self.largest_write = self.largest_write.max(buf.len());
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn eval_of_a_4096_square_is_streamed_at_the_reply_limit_and_refused_past_it() {
    // Invariant: an offset list is written as it is produced, never built in
    // memory (once a 280 MB reply); the reply limit (2^24 offsets) admits a
    // 4096 x 4096 tile and refuses one more row before any work.
    let mut out = Tally::default();
    let input = b"{\"op\":\"eval\",\"layout\":\"(4096,4096):(4096,1)\"}\n";
    // Buffered as the binary's stdout is: a materialised reply would arrive
    // as one write of ~130 MB, a streamed one in chunks of the buffer's size.
    let buffered = io::BufWriter::with_capacity(8192, &mut out);
    batch::run(&input[..], buffered).expect("a tally cannot fail");
    assert!(out.head.starts_with(b"{\"offsets\":[0,1,2,3,"));
    assert!(out.tail.ends_with(b",16777213,16777214,16777215]}\n"));
    // Exactly the bytes of every offset 0..2^24 once, with commas.
    let n = 1u64 << 24;
    let digits: u64 = (1..=8u32)
        .map(|d| {
            let (lo, hi) = (
                if d == 1 { 0 } else { 10u64.pow(d - 1) },
                10u64.pow(d).min(n),
            );
            u64::from(d) * hi.saturating_sub(lo)
        })
        .sum();
    let digits = usize::try_from(digits).expect("fits");
    assert_eq!(
        out.total,
        "{\"offsets\":[]}\n".len() + digits + (1 << 24) - 1
    );
    assert!(
        out.largest_write <= 8192,
        "a write of {} bytes",
        out.largest_write
    );
    let r = exchange(
        &bytes(&[
            r#"{"op":"eval","layout":"(4097,4096):(4096,1)"}"#,
            r#"{"op":"chain","shape":[4097,4096],"ops":[],"offsets":true}"#,
            r#"{"op":"eval","layout":"Sw<3,4,3> o 0 o (4097,4096):(4096,1)"}"#,
            r#"{"op":"eval","layout":"(1048576,1048576,1048576):(0,0,0)"}"#,
        ]),
        &Limits::default(),
    );
    let limit = "exceeds the limit max_reply_elements = 16777216 (got 16781312)";
    assert_eq!(error(&r[0]), format!("eval: request {limit}"));
    assert_eq!(error(&r[1]), format!("chain offsets: request {limit}"));
    assert_eq!(error(&r[2]), format!("eval: request {limit}"));
    assert!(error(&r[3]).contains("max_reply_elements"), "{}", r[3]);
}

// --- A strict protocol -------------------------------------------------------

#[test]
fn the_protocol_is_strict_and_names_what_it_refuses() {
    // Invariant: unknown ops, fields and chain ops, wrong types and numbers
    // beyond i64 each get an error naming the problem; nothing is ignored.
    let cases: &[(&str, &str)] = &[
        (
            r#"{"op":"eval","layout":"8:1","extra":1}"#,
            "unknown field 'extra' for op 'eval' (allowed: op, layout)",
        ),
        (
            r#"{"op":"chain","shape":[2],"ops":[],"offsets":"yes"}"#,
            "offsets: expected a boolean (true or false), got a string",
        ),
        (
            r#"{"op":"transpose","layout":"8:1"}"#,
            "unknown op 'transpose' (known: ",
        ),
        (
            r#"{"op":"chain","shape":[2],"ops":[["unfold",[2]]]}"#,
            "ops[0]: unknown movement op 'unfold'",
        ),
        (
            r#"{"op":"chain","shape":[9223372036854775808],"ops":[]}"#,
            "shape[0]: 9223372036854775808 is beyond i64",
        ),
        (
            r#"{"op":"chain","shape":[-9223372036854775809],"ops":[]}"#,
            "shape[0]: -9.223372036854776e+18 is beyond i64",
        ),
        (
            r#"{"op":"chain","shape":[1e30],"ops":[]}"#,
            "shape[0]: 1e+30 is beyond i64",
        ),
        (
            r#"{"op":"chain","shape":[2.5],"ops":[]}"#,
            "shape[0]: expected an integer, got 2.5",
        ),
        (
            r#"{"op":"complement","layout":"8:1","cotarget":18446744073709551616}"#,
            "cotarget: 1.8446744073709552e+19 is beyond i64",
        ),
        (
            r#"{"op":"merge","first":{"shape":[2],"strides":[1],"offset":9223372036854775808},"second":{"shape":[2],"strides":[1]}}"#,
            "first.offset: 9223372036854775808 is beyond i64",
        ),
        (
            r#"{"op":"eval","layout":"9223372036854775808:1"}"#,
            "layout: ",
        ),
        (r#"{"op":"eval"}"#, "missing field 'layout'"),
        (
            r#"{"op":"eval","layout":8}"#,
            "layout: expected layout text (a string), got a number",
        ),
        (
            r#"{"op":null,"layout":"8:1"}"#,
            "op: expected a string, got null",
        ),
        (
            r#"{"op":"chain","shape":[2],"ops":{"reshape":[2]}}"#,
            "ops: expected an array of movement ops, got an object",
        ),
        (
            r#"{"op":"chain","shape":[2],"ops":[["reshape"]]}"#,
            "movement op: expected [\"name\", argument], got an array",
        ),
        (
            r#"{"op":"chain","shape":[2],"ops":[["reshape",[2],3]]}"#,
            "movement op: expected [\"name\", argument], got an array",
        ),
        (
            r#"{"op":"chain","shape":[2],"ops":[],"expr":"fortran"}"#,
            "expr: unknown language 'fortran' (known: c, cuda, rust, python)",
        ),
        (
            r#"{"op":"chain","shape":[2],"ops":[],"expr_input":"linear"}"#,
            "expr_input given without expr",
        ),
        (
            r#"{"op":"merge","first":{"shape":[2],"strides":[1],"stride":[1]},"second":{"shape":[2],"strides":[1]}}"#,
            "unknown field 'stride' in view 'first'",
        ),
        (
            r#"{"op":"eval","layout":"8:1","layout":"4:1"}"#,
            "duplicate field 'layout'",
        ),
        (
            r#"[{"op":"eval","layout":"8:1"}]"#,
            "request is not a JSON object",
        ),
        (
            r#"{"op":"eval","layout":"8:1"} {"op":"eval","layout":"8:1"}"#,
            "invalid JSON: trailing characters",
        ),
        ("\"\\ud800\"", "invalid JSON: "),
    ];
    let lines: Vec<Vec<u8>> = cases.iter().map(|c| c.0.as_bytes().to_vec()).collect();
    let r = exchange(&lines, &Limits::default());
    for ((line, want), got) in cases.iter().zip(&r) {
        let e = error(got);
        assert!(e.starts_with(want) || e.contains(want), "{line}: {e}");
    }
}

// --- Size of the input ---------------------------------------------------------

#[test]
fn deep_nesting_is_refused_without_exhausting_the_stack() {
    // Invariant: nesting is bounded (layout text by MAX_DEPTH = 64, JSON by
    // serde_json's recursion limit, 128), so 100,000 parentheses or brackets
    // are one error each, found at the first level past the bound: the stack
    // never grows with the input.
    let parens = format!("{}8{}", "(".repeat(100_000), ")".repeat(100_000));
    let brackets = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let objects = format!("{}{}", r#"{"a":"#.repeat(100_000), "}".repeat(100_000));
    let lines = vec![
        format!(r#"{{"op":"eval","layout":"{parens}:{parens}"}}"#).into_bytes(),
        format!(r#"{{"op":"chain","shape":{brackets},"ops":[]}}"#).into_bytes(),
        format!(r#"{{"op":"eval","layout":"8:1","x":{objects}}}"#).into_bytes(),
        format!(r#"{{"op":"eval","layout":"Sw<1,1,1> o 0 o {parens}:{parens}"}}"#).into_bytes(),
        format!(r#"{{"op":"expr","layout":"{parens}:{parens}","lang":"c"}}"#).into_bytes(),
        brackets.clone().into_bytes(),
    ];
    let r = exchange(&lines, &Limits::default());
    assert!(
        error(&r[0]).contains("nesting depth 65 exceeds the limit of 64"),
        "{}",
        r[0]
    );
    assert!(
        error(&r[1]).contains("recursion limit exceeded"),
        "{}",
        r[1]
    );
    assert!(
        error(&r[2]).contains("recursion limit exceeded"),
        "{}",
        r[2]
    );
    assert!(
        error(&r[3]).contains("nesting depth 65 exceeds the limit of 64"),
        "{}",
        r[3]
    );
    assert!(
        error(&r[4]).contains("nesting depth 65 exceeds the limit of 64"),
        "{}",
        r[4]
    );
    assert!(
        error(&r[5]).contains("recursion limit exceeded"),
        "{}",
        r[5]
    );
}

/// A reader that yields `len` bytes of `fill`, then `rest`, without holding
/// the long line in memory.
struct Generated {
    left: usize,
    fill: [u8; 4096],
    rest: io::Cursor<Vec<u8>>,
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.fill_buf()?.len().min(buf.len());
        buf[..n].copy_from_slice(&self.fill_buf()?[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Generated {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.left > 0 {
            Ok(&self.fill[..self.left.min(4096)])
        } else {
            self.rest.fill_buf()
        }
    }
    fn consume(&mut self, n: usize) {
        if self.left > 0 {
            self.left -= n;
        } else {
            self.rest.consume(n);
        }
    }
}

#[test]
fn ten_megabyte_lines_are_refused_and_skipped() {
    // Invariant: a line over max_line_bytes (1 MiB) gets one error naming the
    // limit and its length, is read in O(1 MiB) memory, and the stream goes on.
    let ten = 10 << 20;
    let layout = format!(r#"{{"op":"eval","layout":"{}8:1"}}"#, " ".repeat(ten));
    let string = format!(
        r#"{{"op":"eval","layout":"8:1","x":"{}"}}"#,
        "a".repeat(ten)
    );
    let lines = vec![layout.into_bytes(), string.into_bytes(), vec![b'x'; ten]];
    let r = exchange(&lines, &Limits::default());
    for (line, got) in lines.iter().zip(&r) {
        let want = format!(
            "request exceeds the limit max_line_bytes = 1048576 (got {})",
            line.len()
        );
        assert_eq!(error(got), want);
    }
    // A 256 MiB line from a generator: never held, one error, then the probe.
    let (good, answer) = probe(0);
    let mut input = Generated {
        left: 1 << 28,
        fill: [b'['; 4096],
        rest: io::Cursor::new(format!("\n{good}\n").into_bytes()),
    };
    let mut out = Vec::new();
    batch::run(&mut input, &mut out).expect("a Vec");
    let text = String::from_utf8(out).expect("UTF-8");
    let want = "{\"error\":\"request exceeds the limit max_line_bytes = 1048576 (got 268435456)\"}";
    assert_eq!(text, format!("{want}\n{answer}\n"));
    // The last line of a stream may lack its newline; it is still answered.
    let mut out = Vec::new();
    batch::run(&b"{\"op\":\"eval\",\"layout\":\"2:1\"}"[..], &mut out).expect("a Vec");
    assert_eq!(out, b"{\"offsets\":[0,1]}\n");
}

// --- Extreme numbers ---------------------------------------------------------

const EXTREMES: [i64; 4] = [i64::MIN, i64::MAX, -1, 0];

/// One request per numeric field of every request type, the field written `X`.
const TEMPLATES: &[&str] = &[
    r#"{"op":"eval","layout":"(X,3):(3,1)"}"#,
    r#"{"op":"eval","layout":"(2,3):(X,1)"}"#,
    r#"{"op":"eval","layout":"(2,(3,X)):(1,(X,2))"}"#,
    r#"{"op":"eval","layout":"Sw<X,0,1> o 0 o 4:1"}"#,
    r#"{"op":"eval","layout":"Sw<1,X,1> o 0 o 4:1"}"#,
    r#"{"op":"eval","layout":"Sw<1,0,X> o 0 o 4:1"}"#,
    r#"{"op":"eval","layout":"Sw<1,0,1> o X o 4:1"}"#,
    r#"{"op":"eval","layout":"Sw<1,0,1> o 0 o 4:X"}"#,
    r#"{"op":"compose","a":"(X,4):(4,1)","b":"(2,2):(1,2)"}"#,
    r#"{"op":"compose","a":"(4,4):(X,1)","b":"(2,2):(1,2)"}"#,
    r#"{"op":"compose","a":"(4,4):(4,1)","b":"(X,2):(1,2)"}"#,
    r#"{"op":"compose","a":"(4,4):(4,1)","b":"(2,2):(1,X)"}"#,
    r#"{"op":"compose","a":"Sw<1,0,1> o X o 8:1","b":"4:2"}"#,
    r#"{"op":"compose","a":"8:X","b":"Sw<1,0,1> o 0 o 4:1"}"#,
    r#"{"op":"coalesce","layout":"(2,X):(X,1)"}"#,
    r#"{"op":"coalesce","layout":"Sw<1,0,1> o X o (2,2):(2,1)"}"#,
    r#"{"op":"complement","layout":"(4,2):(X,1)"}"#,
    r#"{"op":"complement","layout":"(X,2):(2,1)","cotarget":32}"#,
    r#"{"op":"complement","layout":"(4,2):(4,1)","cotarget":X}"#,
    r#"{"op":"complement","layout":"Sw<1,0,1> o 0 o 4:1","cotarget":X}"#,
    r#"{"op":"right_inverse","layout":"(X,2):(2,1)"}"#,
    r#"{"op":"right_inverse","layout":"(4,2):(X,1)"}"#,
    r#"{"op":"left_inverse","layout":"(X,2):(2,1)"}"#,
    r#"{"op":"left_inverse","layout":"(4,2):(1,X)"}"#,
    r#"{"op":"left_inverse","layout":"(3,5,7):(X,1,5)"}"#,
    r#"{"op":"logical_divide","a":"(X,8):(8,1)","b":"4:1"}"#,
    r#"{"op":"logical_divide","a":"(8,8):(8,1)","b":"4:X"}"#,
    r#"{"op":"zipped_divide","a":"(8,8):(8,1)","b":"(X,2):(1,8)"}"#,
    r#"{"op":"logical_product","a":"(2,2):(X,1)","b":"3:1"}"#,
    r#"{"op":"logical_product","a":"(2,2):(2,1)","b":"X:1"}"#,
    r#"{"op":"blocked_product","a":"(2,2):(2,1)","b":"(3,4):(X,1)"}"#,
    r#"{"op":"raked_product","a":"(X,2):(2,1)","b":"(3,4):(4,1)"}"#,
    r#"{"op":"raked_product","a":"Sw<1,0,1> o 0 o (2,2):(2,1)","b":"(3,X):(4,1)"}"#,
    r#"{"op":"flatten","layout":"((2,X),3):((X,3),1)"}"#,
    r#"{"op":"chain","shape":[X,2],"ops":[],"offsets":true}"#,
    r#"{"op":"chain","shape":[4,2],"ops":[["reshape",[X,2]]],"offsets":true}"#,
    r#"{"op":"chain","shape":[4,2],"ops":[["reshape",[X]]]}"#,
    r#"{"op":"chain","shape":[4,2],"ops":[["permute",[X,0]]]}"#,
    r#"{"op":"chain","shape":[1,2],"ops":[["expand",[X,2]]],"offsets":true}"#,
    r#"{"op":"chain","shape":[4,2],"ops":[["pad",[[X,0],[0,0]]]],"offsets":true}"#,
    r#"{"op":"chain","shape":[4,2],"ops":[["pad",[[0,X],[1,1]]]],"offsets":true}"#,
    r#"{"op":"chain","shape":[4,2],"ops":[["shrink",[[X,1],[0,2]]]],"offsets":true}"#,
    r#"{"op":"chain","shape":[4,2],"ops":[["shrink",[[0,X],[0,2]]]],"offsets":true}"#,
    r#"{"op":"chain","shape":[4,2],"ops":[["pad",[[2,2],[1,1]]],["shrink",[[1,X],[0,4]]],["reshape",[X,4]]],"offsets":true,"expr":"c"}"#,
    r#"{"op":"chain","shape":[4,2],"ops":[["pad",[[X,X],[0,0]]]],"expr":"python","expr_input":"linear"}"#,
    r#"{"op":"merge","first":{"shape":[X,2],"strides":[2,1],"offset":0,"mask":null},"second":{"shape":[4],"strides":[1],"offset":0,"mask":null}}"#,
    r#"{"op":"merge","first":{"shape":[4,2],"strides":[X,1],"offset":0,"mask":null},"second":{"shape":[8],"strides":[1],"offset":0,"mask":null}}"#,
    r#"{"op":"merge","first":{"shape":[4,2],"strides":[2,1],"offset":X,"mask":null},"second":{"shape":[8],"strides":[1],"offset":0,"mask":null}}"#,
    r#"{"op":"merge","first":{"shape":[4,2],"strides":[2,1],"offset":0,"mask":[[X,4],[0,2]]},"second":{"shape":[8],"strides":[1],"offset":0,"mask":null}}"#,
    r#"{"op":"merge","first":{"shape":[4,2],"strides":[2,1],"offset":0,"mask":[[0,X],[0,2]]},"second":{"shape":[8],"strides":[1],"offset":0,"mask":null}}"#,
    r#"{"op":"merge","first":{"shape":[4,2],"strides":[2,1],"offset":0,"mask":null},"second":{"shape":[X],"strides":[1],"offset":0,"mask":null}}"#,
    r#"{"op":"merge","first":{"shape":[4,2],"strides":[2,1],"offset":0,"mask":null},"second":{"shape":[8],"strides":[X],"offset":0,"mask":null}}"#,
    r#"{"op":"merge","first":{"shape":[4,2],"strides":[2,1],"offset":0,"mask":null},"second":{"shape":[8],"strides":[1],"offset":X,"mask":[[2,6]]}}"#,
    r#"{"op":"merge","first":{"shape":[4,2],"strides":[2,1],"offset":0,"mask":null},"second":{"shape":[8],"strides":[1],"offset":0,"mask":[[X,X]]}}"#,
    r#"{"op":"expr","layout":"(4,X):(X,4)","lang":"c"}"#,
    r#"{"op":"expr","layout":"(X,6):(1,4)","lang":"python"}"#,
];

/// Whether the reply `v` to a request of `op` has the fields the protocol
/// promises (an error, or the op's answer).
fn well_formed(op: &str, v: &Value) -> bool {
    if v.get("error").is_some() {
        return v.as_object().is_some_and(|o| o.len() == 1) && v["error"].is_string();
    }
    match op {
        "eval" => v["offsets"].is_array(),
        "flatten" => v["ordinary"].is_boolean(),
        "chain" => v["views"].is_u64() && v["repr"].is_string(),
        "merge" => v.get("merged").is_some(),
        "expr" => v["index"].is_string() && v["valid"].is_string(),
        _ => v["layout"].is_string(),
    }
}

#[test]
fn i64_extremes_in_every_numeric_field_are_answered_or_refused() {
    // Invariant: MIN, MAX, -1 and 0 in any numeric field of any request get a
    // well-formed answer or a typed error, never a panic (debug: overflow
    // checks on) or a lost line; answers that succeed are checked exactly
    // where the definition is cheap (eval offsets, chain offsets).
    let mut lines = Vec::new();
    for t in TEMPLATES {
        for x in EXTREMES {
            lines.push(t.replace('X', &x.to_string()).into_bytes());
        }
    }
    let r = exchange(&lines, &Limits::default());
    let mut answered = 0;
    for (line, got) in lines.iter().zip(&r) {
        let text = std::str::from_utf8(line).expect("ASCII");
        let req: Value = serde_json::from_str(text).expect("templates are JSON");
        let op = req["op"].as_str().expect("op");
        assert!(well_formed(op, got), "{text}: {got}");
        if got.get("error").is_none() {
            answered += 1;
            check_exact(&req, got);
        }
    }
    // Both kinds occur: the extremes are not all refused wholesale.
    assert!(
        answered > lines.len() / 4 && answered < lines.len(),
        "{answered} of {}",
        lines.len()
    );
}

/// An answered eval or chain checked against the definition.
fn check_exact(req: &Value, got: &Value) {
    let offsets = |v: &Value| -> Vec<i64> {
        v.as_array()
            .expect("list")
            .iter()
            .map(|x| x.as_i64().expect("i64"))
            .collect()
    };
    match req["op"].as_str() {
        Some("eval") => {
            let text = req["layout"].as_str().expect("text");
            let Ok(l) = text.parse::<hlayout::Layout>() else {
                return; // composed text: its own tests check it
            };
            let (s, d) = (l.shape_leaves(), l.stride_leaves());
            let want: Vec<i64> = (0..l.size())
                .map(|i| {
                    let (mut rest, mut acc) = (i, 0i64);
                    for k in (0..s.len()).rev() {
                        acc += (rest % s[k]) * d[k];
                        rest /= s[k];
                    }
                    acc
                })
                .collect();
            assert_eq!(offsets(&got["offsets"]), want, "{req}");
        }
        Some("chain") if got.get("offsets").is_some() => {
            let shape: Vec<i64> = offsets(&req["shape"]);
            let want: Vec<i64> = reference(&shape, req["ops"].as_array().expect("ops"));
            assert_eq!(offsets(&got["offsets"]), want, "{req}");
        }
        _ => {}
    }
}

/// The chain's offsets by the naive reference (materialise, then move).
fn reference(shape: &[i64], ops: &[Value]) -> Vec<i64> {
    use crate::common::ndarray::NdArray;
    let mut a = NdArray::arange(shape);
    for op in ops {
        let arg = &op[1];
        let ints: Vec<i64> = arg
            .as_array()
            .expect("list")
            .iter()
            .filter_map(Value::as_i64)
            .collect();
        let pairs: Vec<(i64, i64)> = arg
            .as_array()
            .expect("list")
            .iter()
            .filter_map(|p| Some((p.get(0)?.as_i64()?, p.get(1)?.as_i64()?)))
            .collect();
        a = match op[0].as_str().expect("name") {
            "reshape" => a.reshape(&ints),
            "expand" => a.expand(&ints),
            "pad" => a.pad(&pairs),
            "shrink" => a.shrink(&pairs),
            other => panic!("no template uses {other}"),
        };
    }
    a.data
}

// --- Degenerate values -------------------------------------------------------

#[test]
fn zero_and_negative_extents_are_served_or_refused_by_rule() {
    // Invariant: extent 0 is tinygrad's empty tensor (chains, flat views), a
    // negative extent is an error naming it, and layouts need extents >= 1.
    let cases: &[(&str, &str)] = &[
        (
            r#"{"op":"chain","shape":[0,3],"ops":[],"offsets":true}"#,
            r#"{"views":1,"repr":"(0,3):(0,0)","offsets":[]}"#,
        ),
        (
            r#"{"op":"chain","shape":[2,3],"ops":[["shrink",[[1,1],[0,3]]],["reshape",[0]]],"offsets":true}"#,
            r#"{"views":1,"repr":"0:0","offsets":[]}"#,
        ),
        (
            r#"{"op":"chain","shape":[1,3],"ops":[["expand",[0,3]],["pad",[[1,0],[0,0]]]],"offsets":true}"#,
            r#"{"views":1,"repr":"(1,3):(0,0) if never","offsets":[-1,-1,-1]}"#,
        ),
        (
            r#"{"op":"chain","shape":[0],"ops":[],"expr":"c"}"#,
            r#"{"views":1,"repr":"0:0","index":"0","valid":"1"}"#,
        ),
        (r#"{"op":"chain","shape":[-1],"ops":[]}"#, "error:shape: "),
        (
            r#"{"op":"chain","shape":[2],"ops":[["reshape",[-1,-2]]]}"#,
            "error:ops[0]: ",
        ),
        (
            r#"{"op":"chain","shape":[1],"ops":[["expand",[-3]]]}"#,
            "error:ops[0]: ",
        ),
        (
            r#"{"op":"chain","shape":[2],"ops":[["pad",[[-1,0]]]]}"#,
            "error:ops[0]: ",
        ),
        (r#"{"op":"eval","layout":"0:1"}"#, "error:layout: "),
        (r#"{"op":"eval","layout":"(2,-3):(1,1)"}"#, "error:layout: "),
        (
            r#"{"op":"compose","a":"8:1","b":"(0,2):(1,1)"}"#,
            "error:b: ",
        ),
        (
            r#"{"op":"merge","first":{"shape":[0,2],"strides":[2,1]},"second":{"shape":[0],"strides":[1]}}"#,
            r#"{"merged":{"shape":[0],"strides":[0],"offset":0,"mask":null}}"#,
        ),
        (
            r#"{"op":"merge","first":{"shape":[-2],"strides":[1]},"second":{"shape":[2],"strides":[1]}}"#,
            "error:first: ",
        ),
    ];
    check_cases(cases);
}

#[test]
fn masks_with_begin_past_end_are_refused() {
    // Invariant: a mask or shrink range must satisfy 0 <= begin <= end <= extent;
    // anything else is an error naming the range (never an inverted window).
    let cases: &[(&str, &str)] = &[
        (
            r#"{"op":"merge","first":{"shape":[4],"strides":[1],"mask":[[3,1]]},"second":{"shape":[4],"strides":[1]}}"#,
            "error:first: ",
        ),
        (
            r#"{"op":"merge","first":{"shape":[4],"strides":[1]},"second":{"shape":[4],"strides":[1],"mask":[[2,1]]}}"#,
            "error:second: ",
        ),
        (
            r#"{"op":"merge","first":{"shape":[4],"strides":[1],"mask":[[0,5]]},"second":{"shape":[4],"strides":[1]}}"#,
            "error:first: ",
        ),
        (
            r#"{"op":"merge","first":{"shape":[4],"strides":[1],"mask":[[-1,2]]},"second":{"shape":[4],"strides":[1]}}"#,
            "error:first: ",
        ),
        (
            r#"{"op":"merge","first":{"shape":[4],"strides":[1],"mask":[[1,2],[0,1]]},"second":{"shape":[4],"strides":[1]}}"#,
            "error:first: ",
        ),
        (
            r#"{"op":"chain","shape":[4],"ops":[["shrink",[[3,1]]]]}"#,
            "error:ops[0]: ",
        ),
        (
            r#"{"op":"chain","shape":[4],"ops":[["shrink",[[0,5]]]]}"#,
            "error:ops[0]: ",
        ),
        (
            r#"{"op":"chain","shape":[4],"ops":[["shrink",[[2,2]]]],"offsets":true}"#,
            r#"{"views":1,"repr":"0:0","offsets":[]}"#,
        ),
        (
            r#"{"op":"merge","first":{"shape":[4],"strides":[1],"mask":[[2,2]]},"second":{"shape":[4],"strides":[1]}}"#,
            r#"{"merged":{"shape":[4],"strides":[0],"offset":0,"mask":[[0,0]]}}"#,
        ),
    ];
    check_cases(cases);
}

/// Each `(request, want)`: `want` is the exact reply, or `error:PREFIX` for an
/// error reply whose message starts with PREFIX.
fn check_cases(cases: &[(&str, &str)]) {
    let lines: Vec<Vec<u8>> = cases.iter().map(|c| c.0.as_bytes().to_vec()).collect();
    let r = exchange(&lines, &Limits::default());
    for ((line, want), got) in cases.iter().zip(&r) {
        match want.strip_prefix("error:") {
            Some(prefix) => assert!(error(got).starts_with(prefix), "{line}: {got}"),
            None => assert_eq!(
                got,
                &serde_json::from_str::<Value>(want).expect("JSON"),
                "{line}"
            ),
        }
    }
}

// --- The real binary ---------------------------------------------------------

#[test]
fn the_binary_survives_the_hostile_stream_over_pipes() {
    // Invariant: the binary answers every line of a hostile stream in order
    // and exits 0 (the library's guarantees hold through stdin and stdout).
    let mut lines: Vec<Vec<u8>> = vec![
        br#"{"op":"chain","shape":[2],"ops":[["stride",[9223372036854775807]]]}"#.to_vec(),
        b"\xff\xfe".to_vec(),
        all_ones(2_000, "pad", "[1,1]").into_bytes(),
        all_ones(300_000, "flip", "true").into_bytes(),
        br#"{"op":"eval","layout":"(4097,4096):(4096,1)"}"#.to_vec(),
        br#"{"op":"chain","shape":[2],"ops":[],"offsets":"yes"}"#.to_vec(),
        format!(r#"{{"op":"eval","layout":"{}"}}"#, "(".repeat(100_000)).into_bytes(),
        vec![b'{'; 10 << 20],
        br#"{"op":"merge","first":{"shape":[4],"strides":[1],"mask":[[3,1]]},"second":{"shape":[4],"strides":[1]}}"#.to_vec(),
    ];
    for t in &TEMPLATES[..8] {
        lines.push(t.replace('X', &i64::MIN.to_string()).into_bytes());
    }
    let input = interleave(&lines);
    let mut child = Command::new(env!("CARGO_BIN_EXE_hlayout"))
        .arg("batch")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("piped");
    // Write from a thread: the replies fill the pipe while the input is long.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("the binary ends");
    writer
        .join()
        .expect("writer thread")
        .expect("the binary reads all its input");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r = hostile_replies(&lines, &out.stdout);
    assert!(error(&r[0]).contains("unknown movement op 'stride'"));
    assert_eq!(error(&r[1]), "invalid UTF-8 at byte 0");
    assert!(error(&r[2]).contains("max_rank"));
    assert!(error(&r[3]).contains("max_line_bytes"));
    assert!(error(&r[4]).contains("max_reply_elements"));
    assert!(error(&r[5]).starts_with("offsets: "));
    assert!(error(&r[6]).contains("nesting depth 65 exceeds the limit of 64"));
    assert!(error(&r[7]).contains("max_line_bytes"));
    assert!(error(&r[8]).starts_with("first: "));
}

// --- Cost that grows with the number of views --------------------------------

/// A chain of `1 + 3k` ops on `shape = [n, n]`: the transpose flattened and
/// cut as `cut` (no common refinement with n x n), `k` more times; each cut
/// needs a view of its own.
fn cuts(n: i64, cut: [i64; 2], k: usize, extra: &str) -> String {
    let step = format!(
        r#"["permute",[1,0]],["reshape",[{}]],["reshape",[{},{}]]"#,
        n * n,
        cut[0],
        cut[1]
    );
    let ops = vec![step; k].join(",");
    format!(r#"{{"op":"chain","shape":[{n},{n}],"ops":[["permute",[1,0]],{ops}]{extra}}}"#)
}

#[test]
fn long_chains_are_bounded_by_max_ops_and_their_offsets_by_views() {
    // Invariant: a chain's cost grows with its views (an op may look at the
    // views below; each listed offset is evaluated through every view, and a
    // kernel nests one level per view), so max_ops bounds the ops, and the
    // offsets times the views are charged to max_reply_elements. Answers within
    // the limits are exact.
    let lines = vec![
        cuts(10, [4, 25], 21, "").into_bytes(), // 64 ops: served
        cuts(10, [4, 25], 22, "").into_bytes(), // 67 ops: refused
        cuts(10, [4, 25], 21, r#","offsets":true"#).into_bytes(),
        cuts(1000, [64, 15625], 21, r#","offsets":true"#).into_bytes(),
        cuts(10, [4, 25], 21, r#","expr":"c""#).into_bytes(),
    ];
    let r = exchange(&lines, &Limits::default());
    let views = r[0]["views"].as_u64().expect("served");
    assert!(views > 16, "{views} views");
    assert_eq!(
        error(&r[1]),
        "ops: request exceeds the limit max_ops = 64 (got 67)"
    );
    // Exact: the transpose of 10 x 10, cut and transposed 21 times, at every element.
    let mut want = crate::common::ndarray::NdArray::arange(&[10, 10]).permute(&[1, 0]);
    for _ in 0..21 {
        want = want.permute(&[1, 0]).reshape(&[100]).reshape(&[4, 25]);
    }
    let got: Vec<i64> = r[2]["offsets"]
        .as_array()
        .expect("offsets")
        .iter()
        .map(|x| x.as_i64().expect("i64"))
        .collect();
    assert_eq!((r[2]["views"].as_u64(), got), (Some(views), want.data));
    let e = error(&r[3]);
    assert!(e.starts_with("chain offsets (1000000 through "), "{e}");
    assert!(
        e.contains("exceeds the limit max_reply_elements = 16777216"),
        "{e}"
    );
    // The kernel of that many views: expressions, or a typed refusal (an
    // overflow, or text longer than max_expr_bytes, measured unwritten).
    match r[4].get("error") {
        None => assert!(
            r[4]["index"].is_string() && r[4]["valid"].is_string(),
            "{}",
            r[4]
        ),
        Some(e) => assert!(
            e.as_str()
                .is_some_and(|e| e.starts_with("expr: i64 overflow")
                    || e.starts_with(
                        "expr: request exceeds the limit max_expr_bytes = 1048576 (got "
                    )),
            "{}",
            r[4]
        ),
    }
}
