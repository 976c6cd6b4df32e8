//! The batch protocol's `chain` over symbols (`docs/batch-protocol.md`,
//! "Symbolic extents"): a shape and movement ops whose numbers may be
//! polynomial text, answered by [`hlayout::symbolic::SymViewStack`].
//!
//! The reply is the concrete one's: `views` (the number of views of the
//! symbolic stack), `repr` (its text, polynomials inside) and, with
//! `"offsets": true` and a `bind` naming every symbol the chain uses, the
//! offsets of the stack at that binding (row-major, `-1` for padding); with
//! `"expr"` (and `"expr_input"`), the kernel's `index` and `valid` over the
//! coordinates (or `i`) and the symbols ([`hlayout::codegen::sym_stack`]).
//! A refusal for want of a fact is `{"error": …, "needs": [F, …]}`.
//!
//! ```
//! use hlayout_cli::batch::respond;
//! let out = respond(r#"{"op":"chain","shape":["N",4],"ops":[["permute",[1,0]],["reshape",["4*N"]]]}"#);
//! assert_eq!(out, r#"{"repr":"((4,N)):((1,4))","views":1}"#);
//! let out = respond(r#"{"op":"chain","shape":["x",4],"ops":[["reshape",["x",5]]]}"#);
//! assert!(out.starts_with(r#"{"error":"ops[0]: reshape: size 5*x differs"#), "{out}");
//! let out = respond(r#"{"op":"chain","shape":["N",64],"ops":[["shrink",[[0,"sp+1"],[0,64]]]]}"#);
//! assert!(out.ends_with(r#""needs":["N-sp >= 1"]}"#), "{out}");
//! let out = respond(r#"{"op":"chain","shape":[4],"ops":[["pad",[["j",0]]]],"offsets":true,"bind":{"j":1}}"#);
//! assert_eq!(out, r#"{"offsets":[-1,0,1,2,3],"repr":"j+4:1-j if j<=x0<j+4","views":1}"#);
//! let out = respond(r#"{"op":"chain","shape":[4],"ops":[["pad",[["j",0]]]],"expr":"c","assume":{"j":{"min":0,"max":8}}}"#);
//! assert_eq!(out, r#"{"index":"i0 - j","repr":"j+4:1-j if j<=x0<j+4","valid":"i0 >= j","views":1}"#);
//! ```

use serde_json::{Map, Value};

use hlayout::codegen;
use hlayout::symbolic::{Poly, SymMovement, SymViewStack, Symbols};
use hlayout::{Error, Limits};

use crate::batch::Reply;
use crate::fields::{self, Fields};

/// Why a symbolic chain has no answer: a message, and the facts that would
/// make one exist when the library named them.
pub(crate) enum ChainError {
    /// A malformed request or a refusal with no fact to name.
    Plain(String),
    /// The library's refusal (its `needs`, if any, go into the reply).
    Lib(String, Box<Error>),
}

impl From<String> for ChainError {
    fn from(e: String) -> ChainError {
        ChainError::Plain(e)
    }
}

/// The reply to a `chain` request that holds a symbol; `syms` holds the
/// request's assumptions. O(ops · rank · t²) for the stack, plus the
/// offsets when asked for (at most `max_reply_elements` evaluations).
pub(crate) fn chain(f: &Fields, syms: &mut Symbols, limits: &Limits) -> Result<Reply, ChainError> {
    let expr = crate::expr::chain_expr_fields(f)?;
    let listed = match f.optional("offsets") {
        None => false,
        Some(v) => fields::boolean(v, "offsets")?,
    };
    let (t, shape, parsed) = stack(f, syms, limits)?;
    let mut out = Map::new();
    out.insert("views".into(), t.views().len().into());
    out.insert("repr".into(), t.show(syms).to_string().into());
    if let Some((lang, input)) = expr {
        let lib = |e| ChainError::Lib(String::new(), Box::new(e));
        if crate::sym_expr::versions_field(f)? {
            let kv = codegen::sym_chain_versions(&shape, &parsed, syms, input).map_err(lib)?;
            out.extend(crate::expr::kernel_fields(
                kv.kernel().kernel(),
                lang,
                limits,
            )?);
            out.insert("versions".into(), kv.versions().len().into());
        } else {
            let k = codegen::sym_stack(&t, syms, input).map_err(lib)?;
            out.extend(crate::expr::kernel_fields(k.kernel(), lang, limits)?);
        }
    }
    if f.optional("bind").is_some() && !listed {
        // Checked (a binding must name used symbols within their
        // assumptions) though only offsets use it.
        binding(f, syms, &shape, &parsed, false)?;
    }
    if listed {
        let values = binding(f, syms, &shape, &parsed, true)?;
        let bound = t
            .bind(syms, &values)
            .map_err(|e| ChainError::Lib("bind".into(), Box::new(e)))?;
        let size = u64::try_from(bound.size()).unwrap_or(u64::MAX);
        let views = bound.views().len() as u64;
        limits
            .check_evaluations(size, views)
            .map_err(|e| format!("chain offsets: {e}"))?;
        let offsets: Vec<i64> = bound.offsets().map(|o| o.unwrap_or(-1)).collect();
        out.insert("offsets".into(), offsets.into());
    }
    Ok(Reply::Json(Value::Object(out)))
}

/// The stack of a chain request's `shape` and `ops` over symbols, with the
/// shape and the ops read (a binding is checked against them).
/// O(ops · rank · t²).
///
/// # Errors
/// A malformed field, or the library's refusal of an op.
pub(crate) fn stack(
    f: &Fields,
    syms: &mut Symbols,
    limits: &Limits,
) -> Result<(SymViewStack, Vec<Poly>, Vec<SymMovement>), ChainError> {
    let shape = shape(f.required("shape")?, syms, limits)?;
    let ops = crate::batch::chain_ops(f, limits)?;
    let parsed = ops
        .iter()
        .enumerate()
        .map(|(k, op)| movement(op, syms, limits).map_err(|e| prefix(&format!("ops[{k}]"), e)))
        .collect::<Result<Vec<SymMovement>, ChainError>>()?;
    let mut t = SymViewStack::new(&shape, syms)
        .map_err(|e| ChainError::Lib("shape".into(), Box::new(e)))?;
    for (k, op) in parsed.iter().enumerate() {
        t = t
            .apply(op, syms)
            .map_err(|e| ChainError::Lib(format!("ops[{k}]"), Box::new(e)))?;
    }
    Ok((t, shape, parsed))
}

impl ChainError {
    /// The message of the error.
    pub(crate) fn message(self) -> String {
        match self {
            ChainError::Plain(m) => m,
            ChainError::Lib(w, e) if w.is_empty() => e.to_string(),
            ChainError::Lib(w, e) => format!("{w}: {e}"),
        }
    }
}

/// `what: ` before a message.
fn prefix(what: &str, e: ChainError) -> ChainError {
    match e {
        ChainError::Plain(m) => ChainError::Plain(format!("{what}: {m}")),
        ChainError::Lib(w, e) if w.is_empty() => ChainError::Lib(what.into(), e),
        ChainError::Lib(w, e) => ChainError::Lib(format!("{what}: {w}"), e),
    }
}

/// The shape: integers or polynomial text, at most `max_rank`.
fn shape(v: &Value, syms: &mut Symbols, limits: &Limits) -> Result<Vec<Poly>, ChainError> {
    fields::array(v, "shape", limits)?
        .iter()
        .enumerate()
        .map(|(k, x)| number(x, &format!("shape[{k}]"), syms))
        .collect()
}

/// An integer, or polynomial text in a string.
fn number(v: &Value, what: &str, syms: &mut Symbols) -> Result<Poly, ChainError> {
    match v {
        Value::String(s) => {
            let p = syms
                .parse(s)
                .map_err(|e| ChainError::Lib(what.into(), Box::new(e)))?;
            syms.check(&p)
                .map_err(|e| ChainError::Lib(what.into(), Box::new(e)))?;
            Ok(p)
        }
        _ => Ok(Poly::constant(fields::int(v, what)?)),
    }
}

/// One `["name", argument]` op: its argument at most `max_rank` long, its
/// numbers integers or polynomial text.
fn movement(op: &Value, syms: &mut Symbols, limits: &Limits) -> Result<SymMovement, ChainError> {
    let arg = match op.as_array().map(Vec::as_slice) {
        Some([Value::String(_), arg]) => arg,
        _ => return Err(fields::wrong("movement op", "[\"name\", argument]", op).into()),
    };
    fields::array(arg, "argument", limits)?;
    SymMovement::parse(&op.to_string(), syms)
        .map_err(|e| ChainError::Lib(String::new(), Box::new(e)))
}

/// The value of every symbol of the table from the `bind` field, each
/// checked against its assumptions. When `complete`, every symbol the
/// chain uses must be bound; one only named by `assume` takes its least
/// allowed value (it changes nothing).
fn binding(
    f: &Fields,
    syms: &Symbols,
    shape: &[Poly],
    ops: &[SymMovement],
    complete: bool,
) -> Result<Vec<i64>, ChainError> {
    let given = crate::symbolic::given_values(f, syms)?;
    let used = used_symbols(shape, ops);
    (0..syms.len())
        .map(|id| match given[id] {
            Some(x) => Ok(x),
            None if complete && used.contains(&(id as u8)) => {
                Err(format!("bind: no value for {}", syms.name(id as u8)).into())
            }
            None => Ok(syms.range(id as u8).0),
        })
        .collect()
}

/// The ids of the symbols the shape and the ops use.
fn used_symbols(shape: &[Poly], ops: &[SymMovement]) -> Vec<u8> {
    let mut polys: Vec<&Poly> = shape.iter().collect();
    for op in ops {
        match op {
            SymMovement::Reshape(v) | SymMovement::Expand(v) => polys.extend(v),
            SymMovement::Pad(v) | SymMovement::Shrink(v) => {
                polys.extend(v.iter().flat_map(|(a, b)| [a, b]))
            }
            SymMovement::Permute(_) | SymMovement::Flip(_) => {}
        }
    }
    let mut ids: Vec<u8> = polys.into_iter().flat_map(Poly::symbols).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}
