//! Symbolic extents in batch requests and on the command line
//! (`docs/batch-protocol.md`, "Symbolic extents").
//!
//! A request is *symbolic* when an integer it holds is polynomial text (a
//! layout leaf such as `N` or `32*N`, a cotarget given as a JSON string), or
//! when it carries `"assume"` or `"bind"`. [`applies`] decides that from the
//! text alone, before anything is parsed, so every other request takes the
//! concrete path unchanged. A request with `assume` or `bind` but no symbol
//! is checked (the assumptions and the binding are read strictly) and then
//! answered by the concrete path, byte for byte as without them.
//!
//! Over symbols the library ([`hlayout::symbolic`]) answers `coalesce`,
//! `complement` (the cotarget defaults to the cosize, `1 + Σ (s−1)·|d|`),
//! `compose`, `logical_divide`, `zipped_divide` (a layout tiler: the logical
//! divide, as on the concrete path), `logical_product`, `right_inverse`,
//! `left_inverse`, `blocked_product`, `raked_product` (`sym_tiles.rs`), `merge`
//! and `flatten` (flat views whose numbers may be polynomial text:
//! `sym_flat.rs`), `expr` of a layout (`sym_expr.rs`), `chain`
//! ([`sym_chain`](crate::sym_chain)) and `eval` with
//! `"bind"` (the offsets of the layout at the bound values). Every other op
//! over symbols is refused with an error naming it as not supported over
//! symbols yet; never a wrong answer. A refusal of the library for want of a
//! fact is `{"error": …, "needs": [F, …]}`.
//!
//! ```
//! use hlayout_cli::batch::respond;
//! let out = respond(r#"{"op":"coalesce","layout":"(N,(4,8)):(32,(8,1))"}"#);
//! assert_eq!(out, r#"{"layout":"32*N:1"}"#);
//! let out = respond(r#"{"op":"compose","a":"(4,N):(1,4)","b":"4:1"}"#);
//! assert!(out.ends_with(r#""needs":["N >= 4"]}"#), "{out}");
//! let out = respond(r#"{"op":"compose","a":"(4,N):(1,4)","b":"4:1","assume":{"N":{"min":4}}}"#);
//! assert_eq!(out, r#"{"layout":"4:4"}"#);
//! ```

use serde_json::{json, Map, Value};

use hlayout::symbolic::{Assume, Fact, Poly, SymLayout, Symbols, Truth};
use hlayout::{Error, Limits};

use crate::batch::Reply;
use crate::fields::{self, clip, Fields};

type Req = Map<String, Value>;

/// The ops answered over symbols.
pub const SUPPORTED: &str = "eval (with bind), coalesce, complement, compose, logical_divide, \
zipped_divide, logical_product, right_inverse, left_inverse, blocked_product, raked_product, \
merge, flatten, expr (of a layout), chain (offsets with bind, expr)";

/// The layout fields of a request.
const LAYOUT_FIELDS: [&str; 3] = ["layout", "a", "b"];

/// `true` when the request holds a symbol or carries `assume` or `bind`
/// (module docs). O(request).
///
/// ```
/// use serde_json::json;
/// let req = json!({"op": "eval", "layout": "(N,4):(4,1)"});
/// assert!(hlayout_cli::symbolic::applies(req.as_object().unwrap()));
/// let req = json!({"op": "eval", "layout": "Sw<1,0,1> o 0 o 4:1"});
/// assert!(!hlayout_cli::symbolic::applies(req.as_object().unwrap()));
/// ```
pub fn applies(req: &Req) -> bool {
    applies_to(req.iter().map(|(k, v)| (k.as_str(), v)))
}

/// [`applies`] of a request's fields as `(name, value)` pairs, so the
/// batch loop asks it of a line without building a map. O(request).
pub(crate) fn applies_to<'a>(fields: impl Iterator<Item = (&'a str, &'a Value)>) -> bool {
    let mut fields = fields;
    fields.any(|(k, v)| matches!(k, "assume" | "bind") || holds_symbol(k, v))
}

/// `true` when an integer of the request is polynomial text.
fn uses_symbols(req: &Req) -> bool {
    req.iter().any(|(k, v)| holds_symbol(k, v))
}

/// `true` when field `k` of a request holds polynomial text where an
/// integer belongs.
fn holds_symbol(k: &str, v: &Value) -> bool {
    match k {
        "layout" | "a" | "b" => v.as_str().is_some_and(text_has_symbol),
        "cotarget" => v.is_string(),
        "shape" => has_string(v),
        "ops" => v
            .as_array()
            .is_some_and(|ops| ops.iter().any(|op| op.get(1).is_some_and(has_string))),
        "first" | "second" => v.as_object().is_some_and(|o| {
            ["shape", "strides", "offset", "mask"]
                .iter()
                .any(|f| o.get(*f).is_some_and(has_string))
        }),
        _ => false,
    }
}

/// `true` when a JSON value holds a string anywhere.
fn has_string(v: &Value) -> bool {
    match v {
        Value::String(_) => true,
        Value::Array(a) => a.iter().any(has_string),
        Value::Object(o) => o.values().any(has_string),
        _ => false,
    }
}

/// `true` when layout text names a symbol: an identifier other than the
/// composed text's `Sw` and `o`.
///
/// ```
/// use hlayout_cli::symbolic::text_has_symbol;
/// assert!(text_has_symbol("(N,4):(4,1)"));
/// assert!(text_has_symbol("Sw<3,4,3> o 0 o (8,N):(N,1)"));
/// assert!(!text_has_symbol("Sw<3,4,3> o 0 o (8,8):(8,1)"));
/// assert!(!text_has_symbol("(2,-3):(1,2)"));
/// ```
pub fn text_has_symbol(text: &str) -> bool {
    let composed = is_composed(text);
    let mut words = text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    words.any(|w| {
        w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && !(composed && (w == "Sw" || w == "o"))
    })
}

fn is_composed(text: &str) -> bool {
    text.trim_start().starts_with("Sw<")
}

/// A failed symbolic request: its message, and the facts that would make
/// an answer exist when the library named them.
pub(crate) struct Refusal {
    error: String,
    needs: Option<Vec<String>>,
}

impl From<String> for Refusal {
    fn from(error: String) -> Refusal {
        Refusal { error, needs: None }
    }
}

impl From<&str> for Refusal {
    fn from(error: &str) -> Refusal {
        Refusal::from(error.to_string())
    }
}

/// A library error, prefixed with `what` when not empty.
pub(crate) fn lib(what: &str, e: Error) -> Refusal {
    let error = match what {
        "" => e.to_string(),
        _ => format!("{what}: {e}"),
    };
    let needs = match e {
        Error::NeedsFacts { needs, .. } => Some(needs),
        _ => None,
    };
    Refusal { error, needs }
}

/// The reply to a request for which [`applies`] holds; `allowed` are the
/// op's fields on the concrete path.
pub(crate) fn respond(
    req: &Req,
    op: &str,
    allowed: &[&str],
    limits: &Limits,
) -> Result<Reply, String> {
    match answer(req, op, allowed, limits) {
        Ok(r) => Ok(r),
        Err(Refusal { error, needs: None }) => Err(error),
        Err(Refusal {
            error,
            needs: Some(needs),
        }) => Ok(Reply::Json(json!({ "error": error, "needs": needs }))),
    }
}

fn answer(req: &Req, op: &str, allowed: &[&str], limits: &Limits) -> Result<Reply, Refusal> {
    let mut names = allowed.to_vec();
    names.push("assume");
    if matches!(op, "eval" | "chain") {
        names.push("bind");
    }
    let f = Fields::new(req, op, &names)?;
    let mut syms = Symbols::with_limits(*limits);
    if let Some(a) = f.optional("assume") {
        assume(a, &mut syms)?;
    }
    if !uses_symbols(req) {
        return concrete(req, &f, &syms, limits);
    }
    if LAYOUT_FIELDS.iter().any(|n| {
        f.optional(n)
            .and_then(Value::as_str)
            .is_some_and(is_composed)
    }) {
        return Err(unsupported(op, "composed layouts (Sw<B,M,S> o O o L) are"));
    }
    let layout = |name: &str, syms: &mut Symbols| layout(&f, name, syms, limits);
    let text =
        |l: SymLayout, syms: &Symbols| Reply::Json(json!({ "layout": l.show(syms).to_string() }));
    match op {
        "eval" => {
            let l = layout("layout", &mut syms)?;
            let values = binding(&f, &syms, &[&l])?;
            let bound = l.bind(&syms, &values).map_err(|e| lib("bind", e))?;
            limits
                .check_elements(u64::try_from(bound.size()).unwrap_or(u64::MAX))
                .map_err(|e| lib("eval", e))?;
            Ok(Reply::Eval(bound))
        }
        "coalesce" => {
            let l = layout("layout", &mut syms)?;
            Ok(text(l.coalesce(&syms).map_err(|e| lib("", e))?, &syms))
        }
        "complement" => {
            let l = layout("layout", &mut syms)?;
            let cotarget = match f.optional("cotarget") {
                None => cosize(&l, &syms).map_err(|e| lib("cotarget", e))?,
                Some(v) => number(v, "cotarget", &mut syms)?,
            };
            let r = l.complement(&cotarget, &syms).map_err(|e| lib("", e))?;
            Ok(text(r, &syms))
        }
        "compose" | "logical_divide" | "zipped_divide" | "logical_product" => {
            let a = layout("a", &mut syms)?;
            let b = layout("b", &mut syms)?;
            let r = match op {
                "compose" => a.compose(&b, &syms),
                "logical_product" => a.logical_product(&b, &syms),
                _ => a.logical_divide(&b, &syms),
            };
            Ok(text(r.map_err(|e| lib("", e))?, &syms))
        }
        "merge" => crate::sym_flat::merge(&f, &mut syms, limits),
        "flatten" => crate::sym_flat::flatten(&layout("layout", &mut syms)?, &syms),
        _ if crate::sym_tiles::UNARY.contains(&op) => {
            let l = layout("layout", &mut syms)?;
            let r = crate::sym_tiles::unary(op, &l, &syms).map_err(|e| lib("", e))?;
            Ok(text(r, &syms))
        }
        _ if crate::sym_tiles::BINARY.contains(&op) => {
            let (a, b) = (layout("a", &mut syms)?, layout("b", &mut syms)?);
            let r = crate::sym_tiles::binary(op, &a, &b, &syms).map_err(|e| lib("", e))?;
            Ok(text(r, &syms))
        }
        "expr" => {
            let l = layout("layout", &mut syms)?;
            let reply = crate::sym_expr::layout_expr(&f, &l, &syms, limits)?;
            Ok(Reply::Json(reply.map_err(|e| lib("", e))?))
        }
        "chain" => crate::sym_chain::chain(&f, &mut syms, limits).map_err(|e| match e {
            crate::sym_chain::ChainError::Plain(m) => Refusal::from(m),
            crate::sym_chain::ChainError::Lib(what, e) => lib(&what, *e),
        }),
        _ => Err(unsupported(op, "this op is")),
    }
}

/// The refusal of an op the library does not answer over symbols yet.
fn unsupported(op: &str, what: &str) -> Refusal {
    Refusal::from(format!(
        "{op}: {what} not supported over symbols yet (supported over symbols: {SUPPORTED})"
    ))
}

/// A request with `assume` or `bind` but no symbol: the binding checked,
/// then the concrete answer to the request without them.
fn concrete(req: &Req, f: &Fields, syms: &Symbols, limits: &Limits) -> Result<Reply, Refusal> {
    binding(f, syms, &[])?;
    let mut plain = req.clone();
    plain.remove("assume");
    plain.remove("bind");
    crate::batch::handle(&fields::Request::from_map(plain), limits).map_err(Refusal::from)
}

/// Reads `"assume": {"N": {"min": .., "max": .., "divisible_by": ..}, ..}`
/// into `syms`, strictly: unknown fields and values that no integer
/// satisfies are errors.
fn assume(v: &Value, syms: &mut Symbols) -> Result<(), Refusal> {
    let obj = v
        .as_object()
        .ok_or_else(|| fields::wrong("assume", "an object {\"N\": {\"min\": 1, ..}}", v))?;
    for (name, a) in obj {
        let what = format!("assume.{}", clip(name));
        let a = assumption(a, &what)?;
        syms.assume(name, a).map_err(|e| lib(&what, e))?;
    }
    Ok(())
}

/// One symbol's assumptions: an object with `min`, `max`, `divisible_by`,
/// each optional (the protocol's defaults).
pub(crate) fn assumption(v: &Value, what: &str) -> Result<Assume, String> {
    const KEYS: [&str; 3] = ["min", "max", "divisible_by"];
    let obj = v
        .as_object()
        .ok_or_else(|| fields::wrong(what, "an object with min, max, divisible_by", v))?;
    if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown field '{}' in {what} (allowed: {})",
            clip(k),
            KEYS.join(", ")
        ));
    }
    let mut a = Assume::default();
    for (k, x) in obj {
        let n = fields::int(x, &format!("{what}.{k}"))?;
        match k.as_str() {
            "min" => a.min = n,
            "max" => a.max = n,
            _ => a.divisible_by = n,
        }
    }
    Ok(a)
}

/// A layout field with polynomial leaves, checked against the limits.
fn layout(
    f: &Fields,
    name: &str,
    syms: &mut Symbols,
    limits: &Limits,
) -> Result<SymLayout, Refusal> {
    let text = match f.required(name)? {
        Value::String(s) => s,
        other => return Err(fields::wrong(name, "layout text (a string)", other).into()),
    };
    limits.check_depth(depth(text)).map_err(|e| lib(name, e))?;
    SymLayout::parse(text, syms).map_err(|e| lib(name, e))
}

/// The deepest parenthesis nesting of layout text (its depth).
fn depth(text: &str) -> usize {
    let (mut d, mut max) = (0usize, 0usize);
    for c in text.bytes() {
        match c {
            b'(' => {
                d += 1;
                max = max.max(d);
            }
            b')' => d = d.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// An integer field: a JSON integer, or polynomial text in a string.
pub(crate) fn number(v: &Value, what: &str, syms: &mut Symbols) -> Result<Poly, Refusal> {
    match v {
        Value::String(s) => {
            let p = syms.parse(s).map_err(|e| lib(what, e))?;
            Ok(p)
        }
        _ => Ok(Poly::constant(fields::int(v, what)?)),
    }
}

/// `1 + Σ (s−1)·|d|`: the cosize of `|L|`, CuTe's default cotarget, each
/// stride's sign proved (validation proved it when the layout was parsed).
fn cosize(l: &SymLayout, syms: &Symbols) -> hlayout::Result<Poly> {
    let mut c = Poly::constant(1);
    for (s, d) in l.shape_leaves().iter().zip(l.stride_leaves()) {
        let reach = s.sub(&Poly::constant(1))?.mul(d)?;
        c = match syms.prove(&Fact::ge(d, &Poly::zero())?) {
            Truth::Proved => c.add(&reach)?,
            Truth::Refuted => c.sub(&reach)?,
            Truth::Unknown => {
                return Err(Error::NeedsFacts {
                    op: "complement",
                    why: format!("the sign of the stride {} is not proved", syms.show(d)),
                    needs: vec![format!("{} >= 0", syms.show(d))],
                })
            }
        };
    }
    Ok(c)
}

/// The values the `bind` field gives, by symbol id (`None` where it names
/// none), each checked against its symbol's assumptions. O(symbols).
///
/// # Errors
/// A `bind` that is not an object of integers, a name the request does
/// not use, or a value its assumptions do not allow.
pub(crate) fn given_values(f: &Fields, syms: &Symbols) -> Result<Vec<Option<i64>>, String> {
    let obj = match f.optional("bind") {
        None => return Ok(vec![None; syms.len()]),
        Some(Value::Object(o)) => o,
        Some(v) => return Err(fields::wrong("bind", "an object {\"N\": 3, ..}", v)),
    };
    let mut given = vec![None; syms.len()];
    for (name, v) in obj {
        let what = format!("bind.{}", clip(name));
        let x = fields::int(v, &what)?;
        let id = syms
            .id(name)
            .ok_or_else(|| format!("{what}: the request uses no symbol {}", clip(name)))?;
        let a = syms.assumption(id);
        if !a.allows(x) {
            return Err(format!(
                "{what}: {name} = {x} breaks its assumptions ({} <= {name} <= {}, {name} % {} == 0)",
                a.min, a.max, a.divisible_by
            ));
        }
        given[id as usize] = Some(x);
    }
    Ok(given)
}

/// The value of every symbol of the table from the `bind` field, each
/// checked against its assumptions. A symbol that `layouts` use must be
/// bound; one they do not use (only named by `assume`) takes its least
/// allowed value, which changes nothing.
fn binding(f: &Fields, syms: &Symbols, layouts: &[&SymLayout]) -> Result<Vec<i64>, Refusal> {
    let given = given_values(f, syms)?;
    let used = used_symbols(layouts);
    (0..syms.len())
        .map(|id| match given[id] {
            Some(x) => Ok(x),
            None if used.contains(&(id as u8)) => {
                Err(format!("bind: no value for {}", syms.name(id as u8)).into())
            }
            None => Ok(syms.range(id as u8).0),
        })
        .collect()
}

/// The ids of the symbols the layouts' leaves use.
fn used_symbols(layouts: &[&SymLayout]) -> Vec<u8> {
    let mut ids: Vec<u8> = layouts
        .iter()
        .flat_map(|l| l.shape_leaves().iter().chain(l.stride_leaves()))
        .flat_map(Poly::symbols)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// One `--assume` argument: `NAME:key=value,...` with the keys `min`,
/// `max` and `divisible_by` (each optional; the protocol's defaults), or a
/// bare `NAME` (all defaults).
///
/// # Errors
/// A missing name, an unknown key, a value that is not an integer.
///
/// ```
/// use hlayout_cli::symbolic::assume_arg;
/// let (name, a) = assume_arg("N:min=1,max=4096,divisible_by=4").unwrap();
/// assert_eq!((name.as_str(), a.min, a.max, a.divisible_by), ("N", 1, 4096, 4));
/// assert!(assume_arg("N:step=2").is_err());
/// ```
pub fn assume_arg(text: &str) -> Result<(String, Assume), String> {
    let (name, rest) = text.split_once(':').unwrap_or((text, ""));
    let name = name.trim();
    hlayout::symbolic::check_name(name).map_err(|e| format!("--assume {}: {e}", clip(text)))?;
    let mut a = Assume::default();
    for item in rest.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (key, value) = item.split_once('=').ok_or_else(|| {
            format!(
                "--assume {}: expected key=value, got '{}'",
                clip(text),
                clip(item)
            )
        })?;
        let v: i64 = value
            .trim()
            .parse()
            .map_err(|_| format!("--assume {}: {} is not an integer", clip(text), clip(value)))?;
        match key.trim() {
            "min" => a.min = v,
            "max" => a.max = v,
            "divisible_by" => a.divisible_by = v,
            other => {
                return Err(format!(
                    "--assume {}: unknown key '{}' (known: min, max, divisible_by)",
                    clip(text),
                    clip(other)
                ))
            }
        }
    }
    Ok((name.to_string(), a))
}

/// `--bind` arguments: `NAME=VALUE`, several per argument when joined by
/// commas.
///
/// # Errors
/// An item that is not `NAME=integer`.
///
/// ```
/// let pairs = hlayout_cli::symbolic::bind_args(&["N=3,M=4", "K=1"]).unwrap();
/// assert_eq!(pairs, [("N".to_string(), 3), ("M".to_string(), 4), ("K".to_string(), 1)]);
/// ```
pub fn bind_args(args: &[&str]) -> Result<Vec<(String, i64)>, String> {
    let mut out = Vec::new();
    for item in args.iter().flat_map(|a| a.split(',')).map(str::trim) {
        let bad = || format!("--bind {}: expected NAME=integer", clip(item));
        let (name, value) = item.split_once('=').ok_or_else(bad)?;
        let v: i64 = value.trim().parse().map_err(|_| bad())?;
        out.push((name.trim().to_string(), v));
    }
    Ok(out)
}

/// The symbols table of `--assume` arguments.
///
/// # Errors
/// A bad argument, or assumptions no value satisfies.
pub fn symbols_of(assumes: &[&str]) -> Result<Symbols, String> {
    let mut syms = Symbols::new();
    for text in assumes {
        let (name, a) = assume_arg(text)?;
        syms.assume(&name, a)
            .map_err(|e| format!("--assume {}: {e}", clip(text)))?;
    }
    Ok(syms)
}

/// `hlayout show` of layout text with symbols: the layout, each symbol's
/// assumptions, the size and cosize as polynomials, the coalesced form and,
/// with a binding, the concrete layout and its offset grid.
///
/// # Errors
/// A bad argument, a parse error, or a refusal naming the facts the layout
/// needs to be valid for every allowed value.
///
/// ```
/// let out = hlayout_cli::symbolic::report("(N,(4,8)):(32,(8,1))", &["N:max=64"], &["N=2"]).unwrap();
/// assert!(out.contains("size     32*N\n"));
/// assert!(out.contains("coalesce 32*N:1\n"));
/// assert!(out.contains("at N=2:\nlayout   (2,(4,8)):(32,(8,1))\n"));
/// ```
pub fn report(text: &str, assumes: &[&str], binds: &[&str]) -> Result<String, String> {
    use std::fmt::Write;
    let mut syms = symbols_of(assumes)?;
    let l = SymLayout::parse(text, &mut syms).map_err(|e| e.to_string())?;
    let mut out = String::new();
    let _ = writeln!(out, "layout   {}", l.show(&syms));
    for id in 0..syms.len() as u8 {
        let (name, a) = (syms.name(id), syms.assumption(id));
        let _ = write!(out, "assume   {} <= {name} <= {}", a.min, a.max);
        if a.divisible_by != 1 {
            let _ = write!(out, ", {name} % {} == 0", a.divisible_by);
        }
        out.push('\n');
    }
    let size = l.size().map_err(|e| e.to_string())?;
    let _ = writeln!(out, "size     {}", syms.show(&size));
    match cosize(&l, &syms) {
        Ok(c) => {
            let _ = writeln!(out, "cosize   {}", syms.show(&c));
        }
        Err(e) => {
            let _ = writeln!(out, "cosize   undecided: {e}");
        }
    }
    let c = l.coalesce(&syms).map_err(|e| e.to_string())?;
    let _ = writeln!(out, "coalesce {}", c.show(&syms));
    let _ = writeln!(out, "{}", crate::sym_flat::flatten_line(&l, &syms));
    if !binds.is_empty() {
        let bound = bound(&l, &syms, binds)?;
        let _ = writeln!(out, "\nat {}:", binds.join(","));
        out.push_str(&crate::show::report(&bound));
    }
    Ok(out)
}

/// The concrete layout of symbolic text at `--bind` values (`--svg` and
/// `--latex` draw it).
///
/// # Errors
/// As [`report`]; a symbol without a value or a value outside its assumptions.
///
/// ```
/// let l = hlayout_cli::symbolic::bind_text("(N,4):(1,N)", &[], &["N=3"]).unwrap();
/// assert_eq!(l.to_string(), "(3,4):(1,3)");
/// ```
pub fn bind_text(text: &str, assumes: &[&str], binds: &[&str]) -> Result<hlayout::Layout, String> {
    let mut syms = symbols_of(assumes)?;
    let l = SymLayout::parse(text, &mut syms).map_err(|e| e.to_string())?;
    bound(&l, &syms, binds)
}

fn bound(l: &SymLayout, syms: &Symbols, binds: &[&str]) -> Result<hlayout::Layout, String> {
    let pairs = bind_args(binds)?;
    let pairs: Vec<(&str, i64)> = pairs.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    let values = syms.binding(&pairs).map_err(|e| format!("--bind: {e}"))?;
    l.bind(syms, &values).map_err(|e| format!("--bind: {e}"))
}
