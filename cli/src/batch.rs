//! `hlayout batch`: the JSON Lines protocol (`docs/batch-protocol.md`).
//!
//! One JSON request per input line, one JSON response per output line, in
//! order. A bad request gets `{"error": "..."}` naming the
//! problem and the stream goes on; empty lines are skipped. Input is read as
//! bytes, so a line that is not UTF-8 is one bad request like any other, and a
//! line longer than [`Limits::max_line_bytes`] is skipped without being held
//! in memory. Every request is checked against the [`Limits`] before work
//! starts; offset lists are written straight to the output as they are
//! produced, never materialised. Each operation lives in one arm of `handle`
//! (`zipped_divide` with a layout tiler is the logical divide).
//!
//! Flushing: the protocol asks for each response to be flushed after its
//! line. Replies are flushed whenever the reader has no further input
//! buffered, just before it would block waiting for more: a client that
//! waits for each reply before sending the next line gets it at once, as
//! if every line were flushed, while a client that streams many lines gets
//! their replies in large writes (one system call per buffer of input, not
//! per line). The output is flushed again at the end of the input.
//!
//! ```
//! let out = hlayout_cli::batch::respond(r#"{"op":"eval","layout":"(2,2):(1,2)"}"#);
//! assert_eq!(out, r#"{"offsets":[0,2,1,3]}"#);
//! let bad = hlayout_cli::batch::respond(r#"{"op":"eval","layout":"(2,2:(1,2)"}"#);
//! assert!(bad.starts_with(r#"{"error":"layout: parse error at byte 4"#));
//! ```

use std::io::{self, BufRead, BufReader, Read, Write};

use serde_json::{json, Map, Value};

use hlayout::{Layout, Limits, Movement, MovementKind, ViewStack};

use crate::fields::{self, clip, Fields};

/// Reads requests from `input` until it ends, writing one response line
/// each, with the default [`Limits`]; `output` is flushed whenever no further
/// input is buffered (see the module documentation).
///
/// # Errors
/// Only I/O errors; malformed requests are answered, not raised.
///
/// ```
/// let mut out = Vec::new();
/// hlayout_cli::batch::run(&b"{\"op\":\"coalesce\",\"layout\":\"(2,2):(2,1)\"}\n\n"[..], &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "{\"layout\":\"4:1\"}\n");
/// ```
pub fn run(input: impl Read, output: impl Write) -> io::Result<()> {
    run_with(input, output, &Limits::default())
}

/// [`run`] with the given limits.
///
/// # Errors
/// Only I/O errors.
///
/// ```
/// let tight = hlayout::Limits { max_line_bytes: 8, ..Default::default() };
/// let mut out = Vec::new();
/// hlayout_cli::batch::run_with(&b"{\"op\":\"eval\",\"layout\":\"2:1\"}\n"[..], &mut out, &tight).unwrap();
/// assert!(String::from_utf8(out).unwrap().contains("max_line_bytes = 8"));
/// ```
pub fn run_with(input: impl Read, mut output: impl Write, limits: &Limits) -> io::Result<()> {
    let mut input = BufReader::with_capacity(INPUT_BUFFER, input);
    // One line buffer for the whole stream (cleared, not reallocated, per line).
    let mut line = Vec::new();
    while let Some(len) = read_line(&mut input, &mut line, limits.max_line_bytes, &mut output)? {
        if len > limits.max_line_bytes {
            let e = limits.check_line(len).err().map(|e| e.to_string());
            write_json(&mut output, &json!({ "error": e }))?;
        } else if !line.iter().all(u8::is_ascii_whitespace) {
            respond_to(&line, limits, &mut output)?;
        }
    }
    output.flush()
}

/// Bytes of input read ahead; requests are short, so one read system call
/// usually brings many.
const INPUT_BUFFER: usize = 1 << 16;

/// Reads one line (without its `\n`) into `buf`, keeping at most `max`
/// bytes; returns the line's full length, or `None` at end of input.
/// Before any read that may block (nothing buffered), flushes `output`, so
/// that every reply to the input read so far is delivered first.
/// Memory O(max) whatever the line's length.
fn read_line<R: Read>(
    input: &mut BufReader<R>,
    buf: &mut Vec<u8>,
    max: usize,
    output: &mut impl Write,
) -> io::Result<Option<usize>> {
    buf.clear();
    let mut total = 0usize;
    let mut seen = false;
    loop {
        if input.buffer().is_empty() {
            output.flush()?;
        }
        let avail = match input.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(seen.then_some(total));
        }
        seen = true;
        let (chunk, end) = match avail.iter().position(|&c| c == b'\n') {
            Some(at) => (&avail[..at], true),
            None => (avail, false),
        };
        if buf.len() + chunk.len() <= max {
            buf.extend_from_slice(chunk);
        }
        total = total.saturating_add(chunk.len());
        let used = chunk.len() + usize::from(end);
        input.consume(used);
        if end {
            return Ok(Some(total));
        }
    }
}

/// The response line (without newline) to one request line, with the
/// default limits.
///
/// ```
/// let out = hlayout_cli::batch::respond(r#"{"op":"flatten","layout":"((10,10)):((1,10))"}"#);
/// assert!(out.contains(r#""ordinary":false"#));
/// ```
pub fn respond(line: &str) -> String {
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = respond_to(line.as_bytes(), &Limits::default(), &mut out);
    out.pop(); // the newline
    String::from_utf8(out).unwrap_or_default()
}

/// Writes the response to one request line (bytes), newline included.
///
/// # Errors
/// Only I/O errors of `out`.
///
/// ```
/// let mut out = Vec::new();
/// hlayout_cli::batch::respond_to(b"\xff", &Default::default(), &mut out).unwrap();
/// assert_eq!(out, b"{\"error\":\"invalid UTF-8 at byte 0\"}\n");
/// ```
pub fn respond_to(line: &[u8], limits: &Limits, out: &mut impl Write) -> io::Result<()> {
    let reply = match std::str::from_utf8(line) {
        Err(e) => Err(format!("invalid UTF-8 at byte {}", e.valid_up_to())),
        Ok(text) => match fields::parse_request(text) {
            Ok(Some(req)) => handle(&req, limits),
            Ok(None) => Err("request is not a JSON object".into()),
            Err(e) => Err(format!("invalid JSON: {e}")),
        },
    };
    match reply {
        Ok(r) => r.write(out),
        Err(e) => write_json(out, &json!({ "error": e })),
    }
}

fn write_json(out: &mut impl Write, v: &Value) -> io::Result<()> {
    serde_json::to_writer(&mut *out, v)?;
    out.write_all(b"\n")
}

/// A response, written with its offsets streamed.
pub(crate) enum Reply {
    Json(Value),
    /// `{"offsets": [...]}` of a layout.
    Eval(Layout),
    /// `{"layout": text}`, the text written straight to the output.
    Layout(Layout),
    /// `{"views", "repr", "offsets"}` of a chain, with the fields of
    /// `extra` (the kernel expressions) before the offsets.
    Chain(ViewStack, Map<String, Value>),
}

impl Reply {
    fn write(self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Reply::Json(v) => write_json(out, &v),
            Reply::Layout(l) => {
                // Layout text is digits, signs and `(),:`: nothing to escape.
                writeln!(out, "{{\"layout\":\"{l}\"}}")
            }
            Reply::Eval(l) => {
                out.write_all(b"{\"offsets\":")?;
                write_list(out, l.offsets())?;
                out.write_all(b"}\n")
            }
            Reply::Chain(t, extra) => {
                let repr = Value::from(t.to_string());
                write!(out, "{{\"views\":{},\"repr\":{repr},", t.views().len())?;
                for (k, v) in &extra {
                    write!(out, "{}:{v},", Value::from(k.as_str()))?;
                }
                out.write_all(b"\"offsets\":")?;
                write_list(out, t.offsets().map(|o| o.unwrap_or(-1)))?;
                out.write_all(b"}\n")
            }
        }
    }
}

/// `[a,b,...]`, element by element.
fn write_list(out: &mut impl Write, items: impl Iterator<Item = i64>) -> io::Result<()> {
    out.write_all(b"[")?;
    for (k, x) in items.enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        write!(out, "{x}")?;
    }
    out.write_all(b"]")
}

type Req<'a> = fields::Request<'a>;

/// The ops of the protocol, for the error naming an unknown one.
const OPS: &str = "eval, compose, coalesce, complement, right_inverse, left_inverse, \
logical_divide, zipped_divide, logical_product, blocked_product, raked_product, flatten, chain, merge, expr, \
bank_conflicts, swizzle_search, linear_layout";

/// The fields each op takes (besides `op`), or `None` for an unknown op.
fn allowed_fields(op: &str) -> Option<&'static [&'static str]> {
    Some(match op {
        "eval" | "coalesce" | "flatten" | "right_inverse" | "left_inverse" => &["layout"],
        "complement" => &["layout", "cotarget"],
        "chain" => &["shape", "ops", "offsets", "expr", "expr_input", "versions"],
        "merge" => &["first", "second"],
        "compose" | "logical_divide" | "zipped_divide" | "logical_product" | "blocked_product"
        | "raked_product" => &["a", "b"],
        "expr" => &["layout", "lang", "versions"],
        _ => return crate::smem::allowed_fields(op),
    })
}

/// The reply to one request object.
pub(crate) fn handle(req: &Req, limits: &Limits) -> Result<Reply, String> {
    let op = match req.get("op") {
        Some(Value::String(s)) => s.as_str(),
        Some(other) => return Err(fields::wrong("op", "a string", other)),
        None => return Err("missing field 'op'".into()),
    };
    let allowed =
        allowed_fields(op).ok_or_else(|| format!("unknown op '{}' (known: {OPS})", clip(op)))?;
    if crate::symbolic::applies_to(req.iter()) {
        return crate::symbolic::respond(&req.to_map(), op, allowed, limits);
    }
    let f = Fields::of_request(req, op, allowed)?;
    if let Some(answer) = crate::smem::respond(&f, op, limits) {
        return answer.map(Reply::Json);
    }
    if let Some(answer) = crate::composed::respond(&f, op, limits) {
        return answer.map(Reply::Json);
    }
    let layout = |f: &Fields| f.layout("layout", limits);
    let text = Reply::Layout;
    let lib = |r: hlayout::Result<Layout>| r.map(text).map_err(|e| e.to_string());
    match op {
        "eval" => eval(layout(&f)?, limits),
        "coalesce" => Ok(text(layout(&f)?.coalesce())),
        "flatten" => Ok(flatten(&layout(&f)?)),
        "right_inverse" => Ok(text(layout(&f)?.right_inverse())),
        "left_inverse" => lib(layout(&f)?.left_inverse()),
        "complement" => complement(&f, limits),
        "chain" => chain(&f, limits),
        "merge" => merge(&f, limits),
        "expr" => crate::expr::layout_expr(&f, limits).map(Reply::Json),
        _ => {
            let (a, b) = (f.layout("a", limits)?, f.layout("b", limits)?);
            lib(match op {
                "compose" => a.compose(&b),
                "logical_divide" | "zipped_divide" => a.logical_divide(&b),
                "logical_product" => a.logical_product(&b),
                "blocked_product" => a.blocked_product(&b),
                _ => a.raked_product(&b),
            })
        }
    }
}

/// `complement` with `cotarget` defaulting to the layout's cosize (CuTe's default).
fn complement(f: &Fields, limits: &Limits) -> Result<Reply, String> {
    let l = f.layout("layout", limits)?;
    let cotarget = match f.optional("cotarget") {
        None => l.cosize(),
        Some(v) => fields::int(v, "cotarget")?,
    };
    let r = l.complement(cotarget).map_err(|e| e.to_string())?;
    Ok(Reply::Layout(r))
}

fn eval(l: Layout, limits: &Limits) -> Result<Reply, String> {
    let size = u64::try_from(l.size()).unwrap_or(u64::MAX);
    limits
        .check_elements(size)
        .map_err(|e| format!("eval: {e}"))?;
    Ok(Reply::Eval(l))
}

fn flatten(l: &Layout) -> Reply {
    Reply::Json(match l.flatten() {
        Ok(v) => json!({ "ordinary": true, "view": view_to_json(&v) }),
        Err(report) => json!({ "ordinary": false, "reason": report.to_string() }),
    })
}

/// The stack a chain request's `shape` and `ops` describe, at most
/// `max_ops` ops of rank at most `max_rank`: O(ops² · rank²) at worst (an op
/// may look at the views below it), bounded by the limits.
///
/// # Errors
/// A wrong field or a movement op that fails, named.
pub(crate) fn chain_stack(f: &Fields, limits: &Limits) -> Result<ViewStack, String> {
    let shape = fields::ints(f.required("shape")?, "shape", limits)?;
    let ops = chain_ops(f, limits)?;
    let mut t = ViewStack::new(&shape).map_err(|e| format!("shape: {e}"))?;
    for (k, op) in ops.iter().enumerate() {
        t = movement(op, limits)
            .and_then(|m| t.apply(&m).map_err(|e| e.to_string()))
            .map_err(|e| format!("ops[{k}]: {e}"))?;
    }
    Ok(t)
}

/// The `ops` field of a chain request: an array of at most `max_ops` ops
/// (each read by its caller).
///
/// # Errors
/// A field that is not an array, or too many ops.
pub(crate) fn chain_ops<'a>(f: &Fields<'a>, limits: &Limits) -> Result<&'a [Value], String> {
    let ops = f.required("ops")?;
    let ops = ops
        .as_array()
        .ok_or_else(|| fields::wrong("ops", "an array of movement ops", ops))?;
    limits
        .check_ops(ops.len())
        .map_err(|e| format!("ops: {e}"))?;
    Ok(ops)
}

/// Applies a tinygrad movement-op chain to a contiguous tensor.
fn chain(f: &Fields, limits: &Limits) -> Result<Reply, String> {
    let listed = match f.optional("offsets") {
        None => false,
        Some(v) => fields::boolean(v, "offsets")?,
    };
    let t = chain_stack(f, limits)?;
    let extra = crate::expr::chain_expr(f, &t, limits)?;
    if listed {
        let size = u64::try_from(t.size()).unwrap_or(u64::MAX);
        let views = t.views().len() as u64;
        limits
            .check_evaluations(size, views)
            .map_err(|e| match views {
                1 => format!("chain offsets: {e}"),
                _ => format!("chain offsets ({size} through {views} views): {e}"),
            })?;
        return Ok(Reply::Chain(t, extra));
    }
    let mut out = Map::new();
    out.insert("views".into(), t.views().len().into());
    out.insert("repr".into(), t.to_string().into());
    out.extend(extra);
    Ok(Reply::Json(Value::Object(out)))
}

/// One `["name", argument]` movement op of a chain request, its argument
/// read strictly and within `limits`; the names are the library's
/// [`MovementKind`]s, tinygrad's movement ops.
fn movement(op: &Value, limits: &Limits) -> Result<Movement, String> {
    let (name, arg) = match op.as_array().map(Vec::as_slice) {
        Some([Value::String(name), arg]) => (name.as_str(), arg),
        _ => return Err(fields::wrong("movement op", "[\"name\", argument]", op)),
    };
    let kind: MovementKind = name.parse().map_err(|e: hlayout::Error| e.to_string())?;
    Ok(match kind {
        MovementKind::Reshape => Movement::Reshape(fields::ints(arg, name, limits)?),
        MovementKind::Expand => Movement::Expand(fields::ints(arg, name, limits)?),
        MovementKind::Permute => {
            let perm = fields::ints(arg, name, limits)?;
            let perm: Option<Vec<usize>> = perm.iter().map(|&p| usize::try_from(p).ok()).collect();
            Movement::Permute(perm.ok_or("permute: negative axis")?)
        }
        MovementKind::Pad => Movement::Pad(fields::pairs(arg, name, limits)?),
        MovementKind::Shrink => Movement::Shrink(fields::pairs(arg, name, limits)?),
        MovementKind::Flip => Movement::Flip(fields::bools(arg, name, limits)?),
    })
}

/// Merges two flat views (`second` indexes `first`'s shape), exactly.
fn merge(f: &Fields, limits: &Limits) -> Result<Reply, String> {
    let first = fields::flat_view(f.required("first")?, "first", limits)?;
    let second = fields::flat_view(f.required("second")?, "second", limits)?;
    let merged = hlayout::merge(&first, &second).map_err(|e| format!("merge: {e}"))?;
    Ok(Reply::Json(
        json!({ "merged": merged.as_ref().map(view_to_json) }),
    ))
}

/// A flat view as the protocol writes it.
pub(crate) fn view_to_json(v: &hlayout::FlatView) -> Value {
    let mask = v
        .mask()
        .map(|m| Value::from(m.iter().map(|&(b, e)| json!([b, e])).collect::<Vec<_>>()));
    json!({ "shape": v.shape(), "strides": v.strides(), "offset": v.offset(), "mask": mask })
}
