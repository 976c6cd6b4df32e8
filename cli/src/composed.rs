//! Composed layouts (`Sw<B,M,S> o O o L`, the protocol's swizzle text) in
//! batch requests.
//!
//! [`respond`] answers a request when one of its layout fields (`layout`,
//! `a`, `b`) holds composed text, with the library's operations on
//! [`ComposedLayout`]: `eval`, `coalesce`, `compose` (a composed layout on
//! either side, a layout on the other), `complement` (the inner layout's), the
//! divides and products with a composed layout and a layout tiler. Every other
//! request on a composed layout gets an error naming why it is not defined.

use serde_json::{json, Map, Value};

use hlayout::algebra::ComposedLayout;
use hlayout::Layout;

use crate::batch::MAX_EVAL_SIZE;

type Req = Map<String, Value>;

/// A layout field: plain layout text, or composed text (it starts with `Sw<`).
enum Arg {
    Plain(Layout),
    Composed(ComposedLayout),
}

fn is_composed(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str)
        .is_some_and(|t| t.trim_start().starts_with("Sw<"))
}

fn arg(req: &Req, field: &str) -> Result<Arg, String> {
    let text = req
        .get(field)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string field '{field}'"))?;
    let bad = |e: hlayout::Error| format!("{field}: {e}");
    if is_composed(req.get(field)) {
        text.parse().map(Arg::Composed).map_err(bad)
    } else {
        text.parse().map(Arg::Plain).map_err(bad)
    }
}

/// The answer to `req` (operation `op`) when a layout field holds composed
/// text, else `None` (the request is an ordinary one).
///
/// ```
/// use serde_json::{json, Value};
/// let req = json!({"op": "eval", "layout": "Sw<1,0,1> o 0 o 4:1"});
/// let Value::Object(req) = req else { unreachable!() };
/// let out = hlayout_cli::composed::respond(&req, "eval").unwrap().unwrap();
/// assert_eq!(out, json!({"offsets": [0, 1, 3, 2]}));
/// ```
pub fn respond(req: &Req, op: &str) -> Option<Result<Value, String>> {
    let fields = ["layout", "a", "b"];
    if !fields.iter().any(|f| is_composed(req.get(*f))) {
        return None;
    }
    Some(answer(req, op))
}

fn answer(req: &Req, op: &str) -> Result<Value, String> {
    let err = |e: hlayout::Error| e.to_string();
    let out = |c: ComposedLayout| Ok(json!({ "layout": c.to_string() }));
    match op {
        "eval" => {
            let c = composed(req, "layout")?;
            if c.size() > MAX_EVAL_SIZE {
                return Err(format!(
                    "eval: layout size {} exceeds the listing limit {MAX_EVAL_SIZE}",
                    c.size()
                ));
            }
            Ok(json!({ "offsets": c.offsets().collect::<Vec<_>>() }))
        }
        "coalesce" => out(composed(req, "layout")?.coalesce()),
        "complement" => {
            let c = composed(req, "layout")?;
            let cotarget = match req.get("cotarget") {
                None | Some(Value::Null) => c.layout().cosize(),
                Some(v) => v.as_i64().ok_or("cotarget: expected an integer")?,
            };
            let r = c.complement(cotarget).map_err(err)?;
            Ok(json!({ "layout": r.to_string() }))
        }
        "compose" => match (arg(req, "a")?, arg(req, "b")?) {
            (Arg::Composed(a), Arg::Plain(b)) => out(a.compose(&b).map_err(err)?),
            (Arg::Plain(a), Arg::Composed(b)) => out(b.left_compose(&a).map_err(err)?),
            _ => Err("compose: two composed layouts do not compose into one \
                      (the second swizzle would sit inside the first)"
                .into()),
        },
        "logical_divide" | "zipped_divide" | "logical_product" | "blocked_product"
        | "raked_product" => {
            let a = composed(req, "a")?;
            let Arg::Plain(b) = arg(req, "b")? else {
                return Err(format!(
                    "{op}: the tiler b must be a layout, not a composed layout"
                ));
            };
            let r = match op {
                "logical_product" => a.logical_product(&b),
                "blocked_product" => a.blocked_product(&b),
                "raked_product" => a.raked_product(&b),
                _ => a.logical_divide(&b),
            };
            out(r.map_err(err)?)
        }
        "right_inverse" | "left_inverse" => Err(format!(
            "{op} is not defined for a composed layout in this form: its inverse is a layout \
             after the swizzle (L⁻¹ ∘ Sw), and the swizzle must come last"
        )),
        other => Err(format!("'{other}' is not defined for a composed layout")),
    }
}

fn composed(req: &Req, field: &str) -> Result<ComposedLayout, String> {
    match arg(req, field)? {
        Arg::Composed(c) => Ok(c),
        Arg::Plain(l) => Err(format!(
            "{field}: expected a composed layout (Sw<B,M,S> o O o L), got {l}"
        )),
    }
}
