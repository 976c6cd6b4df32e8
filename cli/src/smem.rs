//! The shared-memory ops of the batch protocol ("Shared memory"):
//! `bank_conflicts`, `swizzle_search` and `linear_layout`, answered with
//! [`hlayout::smem`]. The layout field takes plain or composed text (a
//! composed one starts with `Sw<`), except `swizzle_search`'s, which is the
//! plain layout the search swizzles.

use serde_json::{json, Value};

use hlayout::smem::{self, Access, SmemLayout};
use hlayout::Limits;

use crate::fields::{self, Fields};

/// The fields of each op (besides `op`), or `None` for another op.
pub fn allowed_fields(op: &str) -> Option<&'static [&'static str]> {
    match op {
        "bank_conflicts" | "swizzle_search" => Some(&["layout", "access", "element_bytes"]),
        "linear_layout" => Some(&["layout"]),
        _ => None,
    }
}

/// The answer to a shared-memory request, or `None` for another op.
///
/// ```
/// use hlayout_cli::fields::Fields;
/// use serde_json::json;
/// let req = json!({"op": "bank_conflicts", "layout": "(32,32):(32,1)",
///                  "access": "(32,32):(32,1)", "element_bytes": 4});
/// let f = Fields::new(req.as_object().unwrap(), "bank_conflicts", &["layout", "access", "element_bytes"]).unwrap();
/// let out = hlayout_cli::smem::respond(&f, "bank_conflicts", &Default::default()).unwrap();
/// assert_eq!(out.unwrap(), json!({"wavefronts": 1024, "ideal": 32}));
/// ```
pub fn respond(f: &Fields, op: &str, limits: &Limits) -> Option<Result<Value, String>> {
    Some(match op {
        "bank_conflicts" => bank_conflicts(f, limits),
        "swizzle_search" => swizzle_search(f, limits),
        "linear_layout" => linear_layout(f, limits),
        _ => return None,
    })
}

fn err(op: &str) -> impl Fn(hlayout::Error) -> String + '_ {
    move |e| format!("{op}: {e}")
}

fn bank_conflicts(f: &Fields, limits: &Limits) -> Result<Value, String> {
    let (layout, access, bytes) = (smem_layout(f, limits)?, access(f, limits)?, bytes(f)?);
    let c = smem::bank_conflicts(&layout, &access, bytes).map_err(err("bank_conflicts"))?;
    Ok(json!({ "wavefronts": c.wavefronts, "ideal": c.ideal }))
}

fn swizzle_search(f: &Fields, limits: &Limits) -> Result<Value, String> {
    let layout = match smem_layout(f, limits)? {
        SmemLayout::Plain(l) => l,
        SmemLayout::Swizzled(c) => {
            return Err(format!(
                "layout: swizzle_search takes a plain layout (it chooses the swizzle), got {c}"
            ))
        }
    };
    let (access, bytes) = (access(f, limits)?, bytes(f)?);
    let best = smem::swizzle_search(&layout, &access, bytes).map_err(err("swizzle_search"))?;
    Ok(json!({ "layout": best.layout.to_string(), "wavefronts": best.wavefronts }))
}

fn linear_layout(f: &Fields, limits: &Limits) -> Result<Value, String> {
    let layout = smem_layout(f, limits)?;
    match smem::to_linear(&layout).map_err(err("linear_layout"))? {
        Ok(bases) => Ok(json!({ "bases": bases })),
        Err(why) => Err(format!("linear_layout: {why}")),
    }
}

/// The `layout` field: plain or composed text, checked against the limits.
fn smem_layout(f: &Fields, limits: &Limits) -> Result<SmemLayout, String> {
    let text = match f.required("layout")? {
        Value::String(s) => s,
        other => return Err(fields::wrong("layout", "layout text (a string)", other)),
    };
    let l: SmemLayout = text.parse().map_err(|e| format!("layout: {e}"))?;
    limits
        .check_layout(l.inner())
        .map_err(|e| format!("layout: {e}"))?;
    Ok(l)
}

/// The `access` field, at most `max_reply_elements` points (each costs one
/// evaluation of the access and of the layout).
fn access(f: &Fields, limits: &Limits) -> Result<Access, String> {
    let a = f.layout("access", limits)?;
    limits
        .check_evaluations(u64::try_from(a.size()).unwrap_or(u64::MAX), 1)
        .map_err(|e| format!("access: {e}"))?;
    Access::new(a).map_err(|e| format!("access: {e}"))
}

fn bytes(f: &Fields) -> Result<i64, String> {
    let b = fields::int(f.required("element_bytes")?, "element_bytes")?;
    match b {
        1 | 2 | 4 => Ok(b),
        _ => Err(format!("element_bytes: {b} is not 1, 2 or 4")),
    }
}
