//! Batch `merge` and `flatten` over symbols (`docs/batch-protocol.md`,
//! "Symbolic extents"): flat views whose numbers are JSON integers or
//! polynomial text in strings, answered by [`hlayout::symbolic::merge`] and
//! [`SymLayout::flatten`]. A number of an answer is a JSON integer when it is
//! a constant, else polynomial text. Dispatched from [`crate::symbolic`].
//!
//! ```
//! use hlayout_cli::batch::respond;
//! let out = respond(r#"{"op":"merge","first":{"shape":[3,"sp+1"],"strides":[64,1],"offset":0,"mask":null},"second":{"shape":[3,"sp+1"],"strides":["sp+1",1],"offset":0,"mask":null}}"#);
//! assert_eq!(out, r#"{"merged":{"mask":null,"offset":0,"shape":[3,"sp+1"],"strides":[64,1]}}"#);
//! let out = respond(r#"{"op":"flatten","layout":"((N,4)):((1,N))"}"#);
//! assert!(out.ends_with(r#""needs":["N >= 2"]}"#), "{out}");
//! ```

use serde_json::{json, Value};

use hlayout::symbolic::{merge as sym_merge, Poly, SymFlatView, SymLayout, Symbols};
use hlayout::Limits;

use crate::batch::Reply;
use crate::fields::{self, clip, Fields};
use crate::symbolic::{lib, number, Refusal};

/// `{"merged": V}` or `{"merged": null}` for a request's `first` and `second`.
pub(crate) fn merge(f: &Fields, syms: &mut Symbols, limits: &Limits) -> Result<Reply, Refusal> {
    let first = view(f.required("first")?, "first", syms, limits)?;
    let second = view(f.required("second")?, "second", syms, limits)?;
    let merged = sym_merge(&first, &second, syms).map_err(|e| lib("merge", e))?;
    let merged = merged.map(|v| view_json(&v, syms));
    Ok(Reply::Json(json!({ "merged": merged })))
}

/// `{"ordinary": true, "view": V}` or `{"ordinary": false, "reason": …}`.
pub(crate) fn flatten(l: &SymLayout, syms: &Symbols) -> Result<Reply, Refusal> {
    let r = l.flatten(syms).map_err(|e| lib("flatten", e))?;
    Ok(Reply::Json(match r {
        Ok(v) => json!({ "ordinary": true, "view": view_json(&v, syms) }),
        Err(report) => json!({ "ordinary": false, "reason": report.show(syms).to_string() }),
    }))
}

/// A flat view field whose numbers may be polynomial text, strictly read
/// (the keys `shape`, `strides`, `offset`, `mask`; `offset` defaults to 0).
fn view(
    v: &Value,
    field: &str,
    syms: &mut Symbols,
    limits: &Limits,
) -> Result<SymFlatView, Refusal> {
    const KEYS: [&str; 4] = ["shape", "strides", "offset", "mask"];
    let obj = v
        .as_object()
        .ok_or_else(|| fields::wrong(field, "a view object", v))?;
    if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(Refusal::from(format!(
            "unknown field '{}' in view '{field}' (allowed: {})",
            clip(k),
            KEYS.join(", ")
        )));
    }
    let need = |key: &str| {
        obj.get(key)
            .ok_or_else(|| Refusal::from(format!("{field}: missing field '{key}'")))
    };
    let shape = numbers(need("shape")?, &format!("{field}.shape"), syms, limits)?;
    let strides = numbers(need("strides")?, &format!("{field}.strides"), syms, limits)?;
    let offset = match obj.get("offset") {
        None => Poly::zero(),
        Some(o) => number(o, &format!("{field}.offset"), syms)?,
    };
    let mask = match obj.get("mask") {
        None | Some(Value::Null) => None,
        Some(m) => Some(intervals(m, &format!("{field}.mask"), syms, limits)?),
    };
    SymFlatView::new(shape, strides, offset, mask, syms).map_err(|e| lib(field, e))
}

/// An array of numbers (integers or polynomial text), at most `max_rank`.
fn numbers(
    v: &Value,
    what: &str,
    syms: &mut Symbols,
    limits: &Limits,
) -> Result<Vec<Poly>, Refusal> {
    let a = array(
        v,
        what,
        "an array of integers or polynomial strings",
        limits,
    )?;
    a.iter()
        .enumerate()
        .map(|(k, x)| number(x, &format!("{what}[{k}]"), syms))
        .collect()
}

/// An array of `[begin, end]` pairs of numbers.
fn intervals(
    v: &Value,
    what: &str,
    syms: &mut Symbols,
    limits: &Limits,
) -> Result<Vec<(Poly, Poly)>, Refusal> {
    let a = array(v, what, "an array of [begin, end] pairs", limits)?;
    a.iter()
        .enumerate()
        .map(|(k, p)| {
            let w = format!("{what}[{k}]");
            match p.as_array().map(Vec::as_slice) {
                Some([b, e]) => Ok((number(b, &w, syms)?, number(e, &w, syms)?)),
                _ => Err(fields::wrong(&w, "a [begin, end] pair", p).into()),
            }
        })
        .collect()
}

fn array<'v>(
    v: &'v Value,
    what: &str,
    expected: &str,
    limits: &Limits,
) -> Result<&'v Vec<Value>, Refusal> {
    let a = v
        .as_array()
        .ok_or_else(|| fields::wrong(what, expected, v))?;
    limits.check_rank(a.len()).map_err(|e| lib(what, e))?;
    Ok(a)
}

/// A number of an answer: an integer when constant, else polynomial text.
fn num(p: &Poly, syms: &Symbols) -> Value {
    match p.as_const() {
        Some(c) => json!(c),
        None => json!(syms.show(p).to_string()),
    }
}

/// A flat view as the protocol writes it, numbers as [`num`].
fn view_json(v: &SymFlatView, syms: &Symbols) -> Value {
    let all = |ps: &[Poly]| Value::from(ps.iter().map(|p| num(p, syms)).collect::<Vec<_>>());
    let mask = v.mask().map(|m| {
        Value::from(
            m.iter()
                .map(|(b, e)| json!([num(b, syms), num(e, syms)]))
                .collect::<Vec<_>>(),
        )
    });
    json!({
        "shape": all(v.shape()),
        "strides": all(v.strides()),
        "offset": num(v.offset(), syms),
        "mask": mask,
    })
}

/// The `flatten` line of `hlayout show` for a layout over symbols: ordinary
/// (the shape and strides), not ordinary (the reason), or undecided (the
/// refusal naming the facts).
pub(crate) fn flatten_line(l: &SymLayout, syms: &Symbols) -> String {
    let list = |ps: &[Poly]| {
        let items: Vec<String> = ps.iter().map(|p| syms.show(p).to_string()).collect();
        format!("[{}]", items.join(", "))
    };
    match l.flatten(syms) {
        Ok(Ok(v)) => format!(
            "flatten  ordinary: shape {} strides {}",
            list(v.shape()),
            list(v.strides())
        ),
        Ok(Err(r)) => format!("flatten  not ordinary: {}", r.show(syms)),
        Err(e) => format!("flatten  undecided: {e}"),
    }
}
