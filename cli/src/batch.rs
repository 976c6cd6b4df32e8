//! `hlayout batch`: the JSON Lines protocol (`docs/batch-protocol.md`).
//!
//! One JSON request per input line, one JSON response per output line, in
//! order, flushed after each. A bad request gets `{"error": "..."}` and the
//! stream goes on; empty lines are skipped. Each operation lives in one arm of
//! [`respond`] (`zipped_divide` with a layout tiler is the logical divide); operations whose issue has not landed answer
//! `{"error":"unsupported op ..."}`.
//!
//! ```
//! let out = hlayout_cli::batch::respond(r#"{"op":"eval","layout":"(2,2):(1,2)"}"#);
//! assert_eq!(out, r#"{"offsets":[0,2,1,3]}"#);
//! let bad = hlayout_cli::batch::respond(r#"{"op":"eval","layout":"(2,2:(1,2)"}"#);
//! assert!(bad.starts_with(r#"{"error":"#));
//! ```

use std::io::{self, BufRead, Write};

use serde_json::{json, Map, Value};

use hlayout::FlatView;
use hlayout::Layout;
use hlayout::ViewStack;

/// Largest layout whose offsets `eval` will list.
pub const MAX_EVAL_SIZE: i64 = 1 << 24;

/// Reads requests from `input` until it ends, writing one response line each.
///
/// # Errors
/// Only I/O errors; malformed requests are answered, not raised.
///
/// ```
/// let mut out = Vec::new();
/// hlayout_cli::batch::run(&b"{\"op\":\"coalesce\",\"layout\":\"(2,2):(2,1)\"}\n\n"[..], &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "{\"layout\":\"4:1\"}\n");
/// ```
pub fn run(input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(output, "{}", respond(&line))?;
        output.flush()?;
    }
    Ok(())
}

/// The response line (without newline) to one request line.
///
/// ```
/// let out = hlayout_cli::batch::respond(r#"{"op":"flatten","layout":"((10,10)):((1,10))"}"#);
/// assert!(out.contains(r#""ordinary":false"#));
/// ```
pub fn respond(line: &str) -> String {
    let answer = match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(req)) => handle(&req).unwrap_or_else(|e| json!({ "error": e })),
        Ok(_) => json!({ "error": "request is not a JSON object" }),
        Err(e) => json!({ "error": format!("invalid JSON: {e}") }),
    };
    answer.to_string()
}

type Req = Map<String, Value>;

fn handle(req: &Req) -> Result<Value, String> {
    let op = req
        .get("op")
        .and_then(Value::as_str)
        .ok_or("missing string field 'op'")?;
    match op {
        "eval" => eval(&layout_arg(req, "layout")?),
        "coalesce" => Ok(json!({ "layout": layout_arg(req, "layout")?.coalesce().to_string() })),
        "flatten" => Ok(flatten(&layout_arg(req, "layout")?)),
        "chain" => chain(req),
        "expr" => crate::expr::layout_expr(req),
        "merge" => merge(req),
        "compose" => binary(req, Layout::compose),
        "complement" => complement(req),
        "right_inverse" => {
            Ok(json!({ "layout": layout_arg(req, "layout")?.right_inverse().to_string() }))
        }
        "left_inverse" => unary(req, Layout::left_inverse),
        "logical_divide" | "zipped_divide" => binary(req, Layout::logical_divide),
        "logical_product" => binary(req, Layout::logical_product),
        "blocked_product" => binary(req, Layout::blocked_product),
        "raked_product" => binary(req, Layout::raked_product),
        other => Err(format!("unsupported op '{other}'")),
    }
}

/// `complement` with `cotarget` defaulting to the layout's cosize (CuTe's default).
fn complement(req: &Req) -> Result<Value, String> {
    let l = layout_arg(req, "layout")?;
    let cotarget = match req.get("cotarget") {
        None | Some(Value::Null) => l.cosize(),
        Some(v) => v.as_i64().ok_or("cotarget: expected an integer")?,
    };
    let r = l.complement(cotarget).map_err(|e| e.to_string())?;
    Ok(json!({ "layout": r.to_string() }))
}

/// An op on field `layout` answering `{"layout": R}` or `{"error": ...}`.
fn unary(req: &Req, op: impl Fn(&Layout) -> hlayout::Result<Layout>) -> Result<Value, String> {
    let r = op(&layout_arg(req, "layout")?).map_err(|e| e.to_string())?;
    Ok(json!({ "layout": r.to_string() }))
}

/// An op on fields `a` and `b` answering `{"layout": R}` or `{"error": ...}`.
fn binary(
    req: &Req,
    op: impl Fn(&Layout, &Layout) -> hlayout::Result<Layout>,
) -> Result<Value, String> {
    let (a, b) = (layout_arg(req, "a")?, layout_arg(req, "b")?);
    let r = op(&a, &b).map_err(|e| e.to_string())?;
    Ok(json!({ "layout": r.to_string() }))
}

fn eval(l: &Layout) -> Result<Value, String> {
    if l.size() > MAX_EVAL_SIZE {
        return Err(format!(
            "eval: layout size {} exceeds the listing limit {MAX_EVAL_SIZE}",
            l.size()
        ));
    }
    Ok(json!({ "offsets": l.offsets().collect::<Vec<_>>() }))
}

fn flatten(l: &Layout) -> Value {
    match l.flatten() {
        Ok(v) => json!({ "ordinary": true, "view": view_to_json(&v) }),
        Err(report) => json!({ "ordinary": false, "reason": report.to_string() }),
    }
}

/// The stack of a chain request's `shape` and `ops`.
pub(crate) fn chain_stack(req: &Req) -> Result<ViewStack, String> {
    let shape = int_list(req.get("shape"), "shape")?;
    let ops = req
        .get("ops")
        .and_then(Value::as_array)
        .ok_or("missing array field 'ops'")?;
    let mut t = ViewStack::new(&shape).map_err(|e| e.to_string())?;
    for (k, op) in ops.iter().enumerate() {
        t = movement(t, op).map_err(|e| format!("op {k}: {e}"))?;
    }
    Ok(t)
}

/// Applies a tinygrad movement-op chain to a contiguous tensor.
fn chain(req: &Req) -> Result<Value, String> {
    let t = chain_stack(req)?;
    let mut out = json!({ "views": t.views().len(), "repr": t.to_string() });
    crate::expr::chain_expr(req, &t, &mut out)?;
    if req.get("offsets").and_then(Value::as_bool) == Some(true) {
        let size: i64 = t.shape().iter().product();
        if size > MAX_EVAL_SIZE {
            return Err(format!(
                "chain: {size} elements exceed the listing limit {MAX_EVAL_SIZE}"
            ));
        }
        out["offsets"] = t.offsets().map(|o| o.unwrap_or(-1)).collect();
    }
    Ok(out)
}

/// One `["name", arg]` movement op.
fn movement(t: ViewStack, op: &Value) -> Result<ViewStack, String> {
    let (name, arg) = match op.as_array().map(Vec::as_slice) {
        Some([Value::String(name), arg]) => (name.as_str(), arg),
        _ => return Err(format!("expected [\"name\", argument], got {op}")),
    };
    let r = match name {
        "reshape" => t.reshape(&int_list(Some(arg), name)?),
        "expand" => t.expand(&int_list(Some(arg), name)?),
        "stride" => t.stride(&int_list(Some(arg), name)?),
        "permute" => {
            let perm = int_list(Some(arg), name)?;
            let perm: Option<Vec<usize>> = perm.iter().map(|&p| usize::try_from(p).ok()).collect();
            t.permute(&perm.ok_or("permute: negative axis")?)
        }
        "pad" | "shrink" => {
            let pairs: Option<Vec<(i64, i64)>> =
                arg.as_array().and_then(|a| a.iter().map(pair).collect());
            let pairs = pairs.ok_or_else(|| format!("{name}: expected [[a,b],..]"))?;
            if name == "pad" {
                t.pad(&pairs)
            } else {
                t.shrink(&pairs)
            }
        }
        "flip" => {
            let flags: Option<Vec<bool>> = arg
                .as_array()
                .and_then(|a| a.iter().map(Value::as_bool).collect());
            t.flip(&flags.ok_or("flip: expected [bool,..]")?)
        }
        other => return Err(format!("unknown movement op '{other}'")),
    };
    r.map_err(|e| e.to_string())
}

fn int_list(v: Option<&Value>, what: &str) -> Result<Vec<i64>, String> {
    v.and_then(Value::as_array)
        .and_then(|a| a.iter().map(Value::as_i64).collect())
        .ok_or_else(|| format!("{what}: expected an array of integers"))
}

/// Merges two flat views (`second` indexes `first`'s shape), exactly.
fn merge(req: &Req) -> Result<Value, String> {
    let view = |field: &str| -> Result<FlatView, String> {
        let v = req
            .get(field)
            .ok_or_else(|| format!("missing view field '{field}'"))?;
        view_from_json(v, field)
    };
    let merged =
        hlayout::merge(&view("first")?, &view("second")?).map_err(|e| format!("merge: {e}"))?;
    Ok(json!({ "merged": merged.as_ref().map(view_to_json) }))
}

/// A layout field given as `SHAPE:STRIDE` text.
pub(crate) fn layout_arg(req: &Req, field: &str) -> Result<Layout, String> {
    let text = req
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string field '{field}'"))?;
    text.parse::<Layout>().map_err(|e| format!("{field}: {e}"))
}

/// A flat view as the protocol writes it.
pub(crate) fn view_to_json(v: &FlatView) -> Value {
    let mask = v
        .mask()
        .map(|m| Value::from(m.iter().map(|&(b, e)| json!([b, e])).collect::<Vec<_>>()));
    json!({ "shape": v.shape(), "strides": v.strides(), "offset": v.offset(), "mask": mask })
}

/// A flat view from the protocol's JSON object.
pub(crate) fn view_from_json(v: &Value, field: &str) -> Result<FlatView, String> {
    let ints = |key: &str| -> Result<Vec<i64>, String> {
        v.get(key)
            .and_then(Value::as_array)
            .and_then(|a| a.iter().map(Value::as_i64).collect::<Option<Vec<_>>>())
            .ok_or_else(|| format!("{field}.{key}: expected an array of integers"))
    };
    let offset = match v.get("offset") {
        None | Some(Value::Null) => 0,
        Some(o) => o
            .as_i64()
            .ok_or_else(|| format!("{field}.offset: expected an integer"))?,
    };
    let mask = match v.get("mask") {
        None | Some(Value::Null) => None,
        Some(m) => Some(
            m.as_array()
                .and_then(|a| a.iter().map(pair).collect::<Option<Vec<_>>>())
                .ok_or_else(|| format!("{field}.mask: expected [[begin,end],..] or null"))?,
        ),
    };
    FlatView::new(ints("shape")?, ints("strides")?, offset, mask)
        .map_err(|e| format!("{field}: {e}"))
}

fn pair(v: &Value) -> Option<(i64, i64)> {
    match v.as_array()?.as_slice() {
        [b, e] => Some((b.as_i64()?, e.as_i64()?)),
        _ => None,
    }
}
