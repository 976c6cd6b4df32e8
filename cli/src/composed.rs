//! Composed layouts (`Sw<B,M,S> o O o L`, the protocol's swizzle text) in
//! batch requests.
//!
//! [`respond`] answers a request when one of its layout fields (`layout`,
//! `a`, `b`) holds composed text, with the library's operations on
//! [`ComposedLayout`]: `eval`, `coalesce`, `complement` (the inner layout's),
//! `expr` (the kernel expression, through [`crate::expr`]), `compose` (a
//! composed layout on either side or both), the inverses, the divides and
//! products of a composed layout by a layout, CuTe's `logical_product` by a
//! swizzled tiler, and `flatten` (exact: the one candidate plain view checked
//! at every index). Where CuTe defines no such operation (a divide by a
//! swizzled tiler, blocked and raked products by one) or CuTe's construction
//! fails for the operands, the reply is an error naming why.

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
        "expr" => crate::expr::composed_expr(req, &composed(req, "layout", limits)?, limits),
        "complement" => {
            let c = composed(req, "layout", limits)?;
            let cotarget = match req.optional("cotarget") {
                None => c.layout().cosize(),
                Some(v) => fields::int(v, "cotarget")?,
            };
            let r = c.complement(cotarget).map_err(err)?;
            Ok(json!({ "layout": r.to_string() }))
        }
        "compose" => out(match (arg(req, "a", limits)?, arg(req, "b", limits)?) {
            (Arg::Composed(a), Arg::Plain(b)) => a.compose(&b),
            (Arg::Plain(a), Arg::Composed(b)) => b.left_compose(&a),
            (Arg::Composed(a), Arg::Composed(b)) => a.compose_composed(&b),
            (Arg::Plain(_), Arg::Plain(_)) => return Err("compose: no composed operand".into()),
        }
        .map_err(err)?),
        "logical_divide" | "zipped_divide" | "logical_product" | "blocked_product"
        | "raked_product" => tiled(req, op, limits),
        "right_inverse" => out(composed(req, "layout", limits)?
            .right_inverse()
            .map_err(err)?),
        "left_inverse" => out(composed(req, "layout", limits)?
            .left_inverse()
            .map_err(err)?),
        "flatten" => {
            let c = composed(req, "layout", limits)?;
            limits
                .check_elements(u64::try_from(c.size()).unwrap_or(u64::MAX))
                .map_err(|e| format!("flatten: {e}"))?;
            Ok(match c.flatten().map_err(err)? {
                Ok(v) => json!({ "ordinary": true, "view": crate::batch::view_to_json(&v) }),
                Err(why) => json!({ "ordinary": false, "reason": why.to_string() }),
            })
        }
        other => Err(format!("'{other}' is not defined for a composed layout")),
    }
}

/// The divides and products with a composed operand: a composed layout by a
/// layout (CuTe's rule: on the inner layout), and `logical_product` by a
/// swizzled tiler (CuTe's `logical_product(Layout, ComposedLayout)`).
fn tiled(req: &Fields, op: &str, limits: &Limits) -> Result<Value, String> {
    let err = |e: hlayout::Error| e.to_string();
    let r = match (arg(req, "a", limits)?, arg(req, "b", limits)?) {
        (Arg::Composed(a), Arg::Plain(b)) => match op {
            "logical_product" => a.logical_product(&b),
            "blocked_product" => a.blocked_product(&b),
            "raked_product" => a.raked_product(&b),
            _ => a.logical_divide(&b),
        },
        (Arg::Plain(a), Arg::Composed(b)) if op == "logical_product" => {
            a.logical_product_composed(&b)
        }
        (Arg::Composed(a), Arg::Composed(b)) if op == "logical_product" => {
            a.logical_product_composed(&b)
        }
        _ => {
            return Err(format!(
                "{op}: the tiler b must be a layout: CuTe defines {op} by a swizzled tiler \
                 only for logical_product"
            ))
        }
    };
    Ok(json!({ "layout": r.map_err(err)?.to_string() }))
}

fn composed(req: &Fields, field: &str, limits: &Limits) -> Result<ComposedLayout, String> {
    match arg(req, field, limits)? {
        Arg::Composed(c) => Ok(c),
        Arg::Plain(l) => Err(format!(
            "{field}: expected a composed layout (Sw<B,M,S> o O o L), got {l}"
        )),
    }
}

/// `hlayout show` of a composed layout: the layout, its swizzle's masks, its
/// size, coalesced form, the plain-view decision, and the offset grid (rows
/// are the inner layout's top-level mode 0).
///
/// ```
/// let c: hlayout::algebra::ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse().unwrap();
/// let text = hlayout_cli::composed::report(&c);
/// assert!(text.contains("swizzle  Sw<1,0,1>: reads bits 0b10, writes bits 0b1"));
/// assert!(text.ends_with("0 | 0 1\n1 | 3 2\n"));
/// ```
pub fn report(c: &ComposedLayout) -> String {
    let (l, sw) = (c.layout(), c.swizzle());
    let flatten = match c.flatten() {
        Ok(Ok(v)) => format!(
            "ordinary: shape {:?} strides {:?} offset {}",
            v.shape(),
            v.strides(),
            v.offset()
        ),
        Ok(Err(why)) => format!("not ordinary: {why}"),
        Err(e) => format!("undecided: {e}"),
    };
    let rows = if l.rank() >= 2 {
        l.mode(0).map_or(1, |m| m.size())
    } else {
        1
    };
    format!(
        "layout   {c}\nswizzle  {sw}: reads bits {:#b}, writes bits {:#b}\n\
         size {}, rank {}, depth {}\ncoalesce {}\nflatten  {flatten}\n{}",
        sw.mask(),
        sw.write_mask(),
        c.size(),
        l.rank(),
        l.depth(),
        c.coalesce(),
        crate::show::grid_of(rows, c.size(), |i| c.eval(i).unwrap_or(0)),
    )
}
