//! Composed layouts (`Sw<B,M,S> o O o L`, the protocol's swizzle text) in
//! batch requests.
//!
//! [`respond`] answers a request when one of its layout fields (`layout`,
//! `a`, `b`) holds composed text, with the library's operations on
//! [`ComposedLayout`]: `eval`, `coalesce`, `expr` (the kernel expression,
//! through [`crate::expr`]), `compose` (a composed layout on
//! either side, a layout on the other), `complement` (the inner layout's), the
//! divides and products with a composed layout and a layout tiler. Every other
//! request on a composed layout gets an error naming why it is not defined.

use serde_json::{json, Value};

use hlayout::algebra::ComposedLayout;
use hlayout::{Layout, Limits};

use crate::fields::{self, Fields};

/// A layout field: plain layout text, or composed text (it starts with `Sw<`).
enum Arg {
    Plain(Layout),
    Composed(ComposedLayout),
}

fn is_composed(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str)
        .is_some_and(|t| t.trim_start().starts_with("Sw<"))
}

fn arg(f: &Fields, field: &str, limits: &Limits) -> Result<Arg, String> {
    let value = f.required(field)?;
    if !is_composed(Some(value)) {
        return f.layout(field, limits).map(Arg::Plain);
    }
    let text = value.as_str().unwrap_or_default();
    let c: ComposedLayout = text.parse().map_err(|e| format!("{field}: {e}"))?;
    limits
        .check_layout(c.layout())
        .map_err(|e| format!("{field}: {e}"))?;
    Ok(Arg::Composed(c))
}

/// The answer to `req` (operation `op`) when a layout field holds composed
/// text, else `None` (the request is an ordinary one).
///
/// ```
/// use hlayout_cli::fields::Fields;
/// use serde_json::json;
/// let req = json!({"op": "eval", "layout": "Sw<1,0,1> o 0 o 4:1"});
/// let f = Fields::new(req.as_object().unwrap(), "eval", &["layout"]).unwrap();
/// let out = hlayout_cli::composed::respond(&f, "eval", &Default::default()).unwrap().unwrap();
/// assert_eq!(out, json!({"offsets": [0, 1, 3, 2]}));
/// ```
pub fn respond(f: &Fields, op: &str, limits: &Limits) -> Option<Result<Value, String>> {
    let names = ["layout", "a", "b"];
    if !names.iter().any(|n| is_composed(f.optional(n))) {
        return None;
    }
    Some(answer(f, op, limits))
}

fn answer(req: &Fields, op: &str, limits: &Limits) -> Result<Value, String> {
    let err = |e: hlayout::Error| e.to_string();
    let out = |c: ComposedLayout| Ok(json!({ "layout": c.to_string() }));
    match op {
        "eval" => {
            let c = composed(req, "layout", limits)?;
            limits
                .check_elements(u64::try_from(c.size()).unwrap_or(u64::MAX))
                .map_err(|e| format!("eval: {e}"))?;
            Ok(json!({ "offsets": c.offsets().collect::<Vec<_>>() }))
        }
        "coalesce" => out(composed(req, "layout", limits)?.coalesce()),
        "expr" => crate::expr::composed_expr(req, &composed(req, "layout", limits)?),
        "complement" => {
            let c = composed(req, "layout", limits)?;
            let cotarget = match req.optional("cotarget") {
                None => c.layout().cosize(),
                Some(v) => fields::int(v, "cotarget")?,
            };
            let r = c.complement(cotarget).map_err(err)?;
            Ok(json!({ "layout": r.to_string() }))
        }
        "compose" => match (arg(req, "a", limits)?, arg(req, "b", limits)?) {
            (Arg::Composed(a), Arg::Plain(b)) => out(a.compose(&b).map_err(err)?),
            (Arg::Plain(a), Arg::Composed(b)) => out(b.left_compose(&a).map_err(err)?),
            _ => Err("compose: two composed layouts do not compose into one \
                      (the second swizzle would sit inside the first)"
                .into()),
        },
        "logical_divide" | "zipped_divide" | "logical_product" | "blocked_product"
        | "raked_product" => {
            let a = composed(req, "a", limits)?;
            let Arg::Plain(b) = arg(req, "b", limits)? else {
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

fn composed(req: &Fields, field: &str, limits: &Limits) -> Result<ComposedLayout, String> {
    match arg(req, field, limits)? {
        Arg::Composed(c) => Ok(c),
        Arg::Plain(l) => Err(format!(
            "{field}: expected a composed layout (Sw<B,M,S> o O o L), got {l}"
        )),
    }
}
