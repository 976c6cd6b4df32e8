//! Kernel expressions over symbols (`docs/batch-protocol.md`, "Symbolic
//! extents"): the batch `expr` request with a symbolic layout and
//! `hlayout expr LAYOUT --assume ...`. The symbols are variables of the text
//! after `i` (or `i0, i1, …`); the library ([`hlayout::codegen::sym_layout`])
//! builds the text or names the facts it needs.
//!
//! ```
//! use hlayout_cli::batch::respond;
//! let out = respond(r#"{"op":"expr","layout":"(4,N):(1,4)","lang":"c","assume":{"N":{"max":4096}}}"#);
//! assert_eq!(out, r#"{"index":"i * 4 - i / N * (4 * N - 1)","valid":"1"}"#);
//! ```

use serde_json::{json, Value};

use hlayout::codegen::{self, Input, Lang, SymKernel};
use hlayout::symbolic::{SymLayout, Symbols};
use hlayout::Limits;

use crate::fields::{self, Fields};

/// The `expr` request on a symbolic layout `l`: `{"index": E, "valid": P}`
/// over `i` and the symbols.
///
/// # Errors
/// A bad `lang` (text), or the library's refusal.
pub(crate) fn layout_expr(
    f: &Fields,
    l: &SymLayout,
    syms: &Symbols,
    limits: &Limits,
) -> Result<Result<Value, hlayout::Error>, String> {
    let lang = f.required("lang")?;
    let lang: Lang = match lang.as_str() {
        Some(text) => text.parse().map_err(|e| format!("lang: {e}"))?,
        None => {
            return Err(fields::wrong(
                "lang",
                "a language name (c, cuda, rust, python)",
                lang,
            ))
        }
    };
    if versions_field(f)? {
        return Ok(
            codegen::sym_layout_versions(l, syms, Input::Linear).and_then(|kv| {
                let (index, valid) = kv.kernel().kernel().render_within(lang, limits)?;
                let n = kv.versions().len();
                Ok(json!({ "index": index, "valid": valid, "versions": n }))
            }),
        );
    }
    Ok(codegen::sym_layout(l, syms, Input::Linear).and_then(|k| {
        let (index, valid) = k.kernel().render_within(lang, limits)?;
        Ok(json!({ "index": index, "valid": valid }))
    }))
}

/// The `"versions"` field of a symbolic `expr` or `chain` request (an
/// extension, default `false`): `true` asks for the versioned kernel
/// (`codegen::sym_layout_versions`, `codegen::sym_chain_versions`).
///
/// # Errors
/// A value that is not a boolean.
pub(crate) fn versions_field(f: &Fields) -> Result<bool, String> {
    f.optional("versions")
        .map_or(Ok(false), |v| fields::boolean(v, "versions"))
}

/// `hlayout expr` of layout text with symbols: two lines (`index: …`,
/// `valid: …`) and a third naming the variables (`vars: i, N`); the text
/// at most `limits.max_expr_bytes` long.
///
/// # Errors
/// A bad argument, a parse error, a refusal naming the facts needed, or
/// text longer than `limits.max_expr_bytes`.
///
/// ```
/// use hlayout::Limits;
/// use hlayout_cli::sym_expr::command;
/// let l = Limits::default();
/// let out = command("(N,4):(1,N)", &["N:max=64"], "c", Some("coords"), &l).unwrap();
/// assert_eq!(out, "index: i0 + i1 * N\nvalid: 1\nvars: i0, i1, N\n");
/// let err = command("(M,N):(1,M)", &[], "c", None, &l).unwrap_err();
/// assert!(err.contains("needs"), "{err}");
/// let tight = Limits { max_expr_bytes: 8, ..l };
/// let err = command("(N,4):(1,N)", &[], "c", Some("coords"), &tight).unwrap_err();
/// assert!(err.contains("max_expr_bytes = 8"), "{err}");
/// ```
pub fn command(
    text: &str,
    assumes: &[&str],
    lang: &str,
    input: Option<&str>,
    limits: &Limits,
) -> Result<String, String> {
    command_versioned(text, assumes, lang, input, limits, false)
}

/// [`command`], or with `versions` the versioned kernel
/// (`codegen::sym_layout_versions`; `hlayout expr --versions`): the guarded
/// text, and a fourth line `versions: n`.
///
/// # Errors
/// As [`command`].
///
/// ```
/// let l = hlayout::Limits::default();
/// let out = hlayout_cli::sym_expr::command_versioned("(4,N):(1,4)", &[], "c", None, &l, true).unwrap();
/// assert_eq!(out, "index: N == 1 ? i : i * 4 - i / N * (4 * N - 1)\nvalid: 1\nvars: i, N\nversions: 2\n");
/// ```
pub fn command_versioned(
    text: &str,
    assumes: &[&str],
    lang: &str,
    input: Option<&str>,
    limits: &Limits,
    versions: bool,
) -> Result<String, String> {
    let mut syms = crate::symbolic::symbols_of(assumes)?;
    let l = SymLayout::parse(text, &mut syms).map_err(|e| format!("{text}: {e}"))?;
    let (lang, input) = lang_input(lang, input, Input::Linear)?;
    if versions {
        let kv = codegen::sym_layout_versions(&l, &syms, input).map_err(|e| e.to_string())?;
        let n = kv.versions().len();
        return Ok(lines(kv.kernel(), lang, limits)? + &format!("versions: {n}\n"));
    }
    let k = codegen::sym_layout(&l, &syms, input).map_err(|e| e.to_string())?;
    lines(&k, lang, limits)
}

/// `hlayout expr --chain JSON` with symbols (or `--assume`): the kernel of
/// the symbolic chain over its final coordinates (`input` `coords`, the
/// default) or its row-major rank (`linear`), as [`command`]'s three lines.
///
/// `limits` bound the chain and the text.
///
/// # Errors
/// A bad argument or request, a refusal of an op, a refusal naming the
/// facts the expressions need, or text longer than `limits.max_expr_bytes`.
///
/// ```
/// let json = r#"{"shape":["N",4],"ops":[["pad",[[1,0],[0,0]]]]}"#;
/// let l = hlayout::Limits::default();
/// let out = hlayout_cli::sym_expr::chain_command(json, &["N:max=64"], "c", None, &l).unwrap();
/// assert_eq!(out, "index: i0 * 4 + i1 - 4\nvalid: i0 >= 1\nvars: i0, i1, N\n");
/// ```
pub fn chain_command(
    json: &str,
    assumes: &[&str],
    lang: &str,
    input: Option<&str>,
    limits: &Limits,
) -> Result<String, String> {
    chain_command_versioned(json, assumes, lang, input, limits, false)
}

/// [`chain_command`], or with `versions` the versioned kernel
/// (`codegen::sym_chain_versions`; `hlayout expr --chain … --versions`):
/// the guarded text, and a fourth line `versions: n`.
///
/// # Errors
/// As [`chain_command`].
///
/// ```
/// let json = r#"{"shape":["N",3],"ops":[["permute",[1,0]]]}"#;
/// let l = hlayout::Limits::default();
/// let out = hlayout_cli::sym_expr::chain_command_versioned(json, &["N:max=8"], "c", Some("linear"), &l, true).unwrap();
/// assert!(out.starts_with("index: N == 1 ? i : "), "{out}");
/// assert!(out.ends_with("versions: 2\n"), "{out}");
/// ```
pub fn chain_command_versioned(
    json: &str,
    assumes: &[&str],
    lang: &str,
    input: Option<&str>,
    limits: &Limits,
    versions: bool,
) -> Result<String, String> {
    let mut syms = crate::symbolic::symbols_of(assumes)?;
    let req = crate::fields::parse_json(json).map_err(|e| format!("--chain: {e}"))?;
    let obj = req.as_object().ok_or("--chain: expected a JSON object")?;
    let f = Fields::new(obj, "chain", &["shape", "ops"])?;
    let (t, shape, ops) = crate::sym_chain::stack(&f, &mut syms, limits)
        .map_err(crate::sym_chain::ChainError::message)?;
    let (lang, input) = lang_input(lang, input, Input::Coords)?;
    if versions {
        let kv =
            codegen::sym_chain_versions(&shape, &ops, &syms, input).map_err(|e| e.to_string())?;
        let n = kv.versions().len();
        return Ok(lines(kv.kernel(), lang, limits)? + &format!("versions: {n}\n"));
    }
    let k = codegen::sym_stack(&t, &syms, input).map_err(|e| e.to_string())?;
    lines(&k, lang, limits)
}

/// The `--lang` and `--input` arguments (`input` defaults to `default`).
fn lang_input(lang: &str, input: Option<&str>, default: Input) -> Result<(Lang, Input), String> {
    let lang: Lang = lang.parse().map_err(|e| format!("--lang: {e}"))?;
    let input: Input = match input {
        Some(name) => name.parse().map_err(|e| format!("--input: {e}"))?,
        None => default,
    };
    Ok((lang, input))
}

/// `index: …`, `valid: …` and `vars: …` lines of a symbolic kernel, or the
/// refusal of text longer than `limits.max_expr_bytes`.
fn lines(k: &SymKernel, lang: Lang, limits: &Limits) -> Result<String, String> {
    let (index, valid) = k
        .kernel()
        .render_within(lang, limits)
        .map_err(|e| e.to_string())?;
    let vars: Vec<&str> = k.kernel().vars().iter().map(|v| v.name.as_str()).collect();
    Ok(format!(
        "index: {index}\nvalid: {valid}\nvars: {}\n",
        vars.join(", ")
    ))
}
