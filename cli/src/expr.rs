//! Kernel expressions on the command line and in the batch protocol
//! (`docs/batch-protocol.md`, "Kernel expressions"): the `expr` request for a
//! layout, the `"expr"` field of a `chain` request, and `hlayout expr`.
//!
//! The library builds the expressions ([`hlayout::codegen`]); this module only
//! reads the requests' fields, strictly, and writes the replies.
//!
//! ```
//! let out = hlayout_cli::batch::respond(r#"{"op":"expr","layout":"(4,6):(1,4)","lang":"c"}"#);
//! assert_eq!(out, r#"{"index":"i * 4 - i / 6 * 23","valid":"1"}"#);
//! ```

use serde_json::{json, Map, Value};

use hlayout::algebra::ComposedLayout;
use hlayout::codegen::{self, Input, Kernel, Lang};
use hlayout::{Limits, ViewStack};

use crate::fields::{self, Fields};

/// The language named `name` in a request: one of the library's
/// [`Lang::NAMES`] (`"c"`, `"cuda"`, `"rust"`, `"python"`; the protocol
/// requires `"c"` and allows `"python"`, the others are this
/// implementation's additions, documented in `docs/codegen.md`).
fn lang(name: &Value, field: &str) -> Result<Lang, String> {
    match name.as_str() {
        Some(text) => text.parse().map_err(|e| format!("{field}: {e}")),
        None => Err(fields::wrong(
            field,
            "a language name (c, cuda, rust, python)",
            name,
        )),
    }
}

/// The kernel input named `name` (the `"expr_input"` field, `hlayout expr
/// --input`): one of the library's [`Input::NAMES`].
fn input(name: &str, field: &str) -> Result<Input, String> {
    name.parse().map_err(|e| format!("{field}: {e}"))
}

/// `{"index": E, "valid": P}` of `k` in `lang`, or the refusal of text
/// longer than `limits.max_expr_bytes` (measured before it is written).
fn texts(k: &Kernel, lang: Lang, limits: &Limits) -> Result<(Value, Value), String> {
    let (index, valid) = k
        .render_within(lang, limits)
        .map_err(|e| format!("expr: {e}"))?;
    Ok((Value::from(index), Value::from(valid)))
}

/// The `expr` request: `{"op":"expr","layout":L,"lang":"c"}`, the layout's
/// offset over its row-major rank `i`.
///
/// ```
/// let out = hlayout_cli::batch::respond(r#"{"op":"expr","layout":"8:1","lang":"python"}"#);
/// assert_eq!(out, r#"{"index":"i","valid":"True"}"#);
/// ```
pub(crate) fn layout_expr(f: &Fields, limits: &Limits) -> Result<Value, String> {
    let l = f.layout("layout", limits)?;
    let lang = lang(f.required("lang")?, "lang")?;
    let k = codegen::layout(&l, Input::Linear).map_err(|e| format!("expr: {e}"))?;
    let (index, valid) = texts(&k, lang, limits)?;
    Ok(json!({ "index": index, "valid": valid }))
}

/// The `expr` request on a composed layout (`Sw<B,M,S> o O o L`):
/// `{"index": E, "valid": "1"}`, E over the row-major rank `i` of L.
///
/// ```
/// let req = r#"{"op":"expr","layout":"Sw<1,0,1> o 0 o 4:1","lang":"c"}"#;
/// let out = hlayout_cli::batch::respond(req);
/// assert_eq!(out, r#"{"index":"i + i / 2 * (1 - (i - i / 2 * 2) * 2)","valid":"1"}"#);
/// ```
pub(crate) fn composed_expr(
    f: &Fields,
    c: &ComposedLayout,
    limits: &Limits,
) -> Result<Value, String> {
    let lang = lang(f.required("lang")?, "lang")?;
    let k = codegen::composed(c, Input::Linear).map_err(|e| format!("expr: {e}"))?;
    let (index, valid) = texts(&k, lang, limits)?;
    Ok(json!({ "index": index, "valid": valid }))
}

/// The `"expr"` and `"expr_input"` fields of a `chain` request: the
/// `"index"` and `"valid"` fields of the reply when `"expr"` is present
/// (none otherwise).
///
/// ```
/// let req = r#"{"op":"chain","shape":[4],"ops":[["pad",[[1,0]]]],"expr":"c"}"#;
/// let out: serde_json::Value = serde_json::from_str(&hlayout_cli::batch::respond(req)).unwrap();
/// assert_eq!((&out["index"], &out["valid"]), (&"i0 - 1".into(), &"i0 >= 1".into()));
/// ```
pub(crate) fn chain_expr(
    f: &Fields,
    t: &ViewStack,
    limits: &Limits,
) -> Result<Map<String, Value>, String> {
    let Some((lang, input)) = chain_expr_fields(f)? else {
        return Ok(Map::new());
    };
    let k = codegen::stack(t, input).map_err(|e| format!("expr: {e}"))?;
    kernel_fields(&k, lang, limits)
}

/// The `"expr"` (a language) and `"expr_input"` (default `coords`) fields of
/// a `chain` request, read strictly; `None` without `"expr"`.
///
/// # Errors
/// A bad language or input name, or `expr_input` without `expr`.
pub(crate) fn chain_expr_fields(f: &Fields) -> Result<Option<(Lang, Input)>, String> {
    let input = match f.optional("expr_input") {
        None => Input::Coords,
        Some(v) => match v.as_str() {
            Some(name) => input(name, "expr_input")?,
            None => return Err(fields::wrong("expr_input", "\"coords\" or \"linear\"", v)),
        },
    };
    let Some(name) = f.optional("expr") else {
        if f.optional("expr_input").is_some() {
            return Err("expr_input given without expr".into());
        }
        return Ok(None);
    };
    Ok(Some((lang(name, "expr")?, input)))
}

/// The reply's `"index"` and `"valid"` fields: `k` rendered in `lang`.
///
/// # Errors
/// Text longer than `limits.max_expr_bytes`.
pub(crate) fn kernel_fields(
    k: &Kernel,
    lang: Lang,
    limits: &Limits,
) -> Result<Map<String, Value>, String> {
    let (index, valid) = texts(k, lang, limits)?;
    let mut out = Map::new();
    out.insert("index".into(), index);
    out.insert("valid".into(), valid);
    Ok(out)
}

/// `hlayout expr`: the arguments after `expr`, answered as two lines
/// (`index: …`, `valid: …`).
///
/// `[--lang c|cuda|rust|python] [--input linear|coords] [--max-expr-bytes N] (LAYOUT | --chain JSON)`,
/// where LAYOUT is layout text or composed text (`Sw<B,M,S> o O o L`) and
/// JSON a chain request's `{"shape": [..], "ops": [..]}`. A layout defaults
/// to its row-major rank `i`, a chain to its coordinates.
///
/// # Errors
/// A usage or library error, as text.
///
/// ```
/// let out = hlayout_cli::expr::command(&["--lang", "rust", "(4,6):(1,4)"]).unwrap();
/// assert_eq!(out, "index: i * 4 - i / 6 * 23\nvalid: true\n");
/// let out = hlayout_cli::expr::command(&["--chain", r#"{"shape":[4],"ops":[["flip",[true]]]}"#]).unwrap();
/// assert_eq!(out, "index: 3 - i0\nvalid: 1\n");
/// let out = hlayout_cli::expr::command(&["Sw<1,0,1> o 0 o 4:1"]).unwrap();
/// assert_eq!(out, "index: i + i / 2 * (1 - (i - i / 2 * 2) * 2)\nvalid: 1\n");
/// ```
pub fn command(args: &[&str]) -> Result<String, String> {
    let (mut lang, mut input, mut chain, mut layout) = (Lang::C, None, None, None);
    let mut limits = Limits::default();
    let mut it = args.iter();
    while let Some(&a) = it.next() {
        let mut value = || it.next().copied().ok_or(format!("{a} needs a value"));
        match a {
            "--lang" => lang = value()?.parse().map_err(|e| format!("--lang: {e}"))?,
            "--input" => input = Some(self::input(value()?, "--input")?),
            "--chain" => chain = Some(value()?),
            "--max-expr-bytes" => {
                let n = value()?;
                limits.max_expr_bytes = n
                    .parse()
                    .map_err(|_| format!("--max-expr-bytes: expected a byte count, got '{n}'"))?;
            }
            text if layout.is_none() && !text.starts_with("--") => layout = Some(text),
            other => return Err(format!("unexpected argument '{other}'")),
        }
    }
    let k = match (layout, chain) {
        (Some(text), None) if text.trim_start().starts_with("Sw<") => {
            let c: ComposedLayout = text.parse().map_err(|e| format!("{text}: {e}"))?;
            codegen::composed(&c, input.unwrap_or(Input::Linear)).map_err(|e| e.to_string())?
        }
        (Some(text), None) => {
            let l: hlayout::Layout = text.parse().map_err(|e| format!("{text}: {e}"))?;
            codegen::layout(&l, input.unwrap_or(Input::Linear)).map_err(|e| e.to_string())?
        }
        (None, Some(json)) => {
            let req: Value =
                crate::fields::parse_json(json).map_err(|e| format!("--chain: {e}"))?;
            let obj = req.as_object().ok_or("--chain: expected a JSON object")?;
            let f = Fields::new(obj, "chain", &["shape", "ops", "offsets"])?;
            let t = crate::batch::chain_stack(&f, &Limits::default())?;
            codegen::stack(&t, input.unwrap_or(Input::Coords)).map_err(|e| e.to_string())?
        }
        _ => return Err("expected one LAYOUT or one --chain JSON".into()),
    };
    let (index, valid) = k.render_within(lang, &limits).map_err(|e| e.to_string())?;
    Ok(format!("index: {index}\nvalid: {valid}\n"))
}
