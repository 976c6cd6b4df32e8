//! Strict reading of a request's fields, as `docs/batch-protocol.md`
//! ("Strictness") requires: an unknown field, a missing one, a field of the
//! wrong type or a number beyond `i64` is an error that names the field and
//! the problem; nothing is silently ignored or defaulted past the protocol.
//! [`parse_json`] reads the request line itself and refuses an object with a
//! repeated key (a plain JSON reader keeps the last value and drops the others).
//!
//! ```
//! use hlayout_cli::fields::Fields;
//! let req = serde_json::json!({"op": "eval", "layout": "8:1", "extra": 1});
//! let err = Fields::new(req.as_object().unwrap(), "eval", &["layout"]).unwrap_err();
//! assert_eq!(err, "unknown field 'extra' for op 'eval' (allowed: op, layout)");
//! ```

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use hlayout::{FlatView, Layout, Limits};

/// A request object whose field names were checked against an op's list.
#[derive(Debug)]
pub struct Fields<'a> {
    req: Object<'a>,
}

/// The object behind [`Fields`]: a JSON map, or a parsed request line.
#[derive(Clone, Copy, Debug)]
enum Object<'a> {
    Map(&'a Map<String, Value>),
    Request(&'a Request<'a>),
}

impl<'a> Object<'a> {
    fn get(self, name: &str) -> Option<&'a Value> {
        match self {
            Object::Map(m) => m.get(name),
            Object::Request(r) => r.get(name),
        }
    }

    /// The alphabetically first key that is not `op` or in `allowed` (the
    /// same one whatever the fields' order).
    fn first_unknown(self, allowed: &[&str]) -> Option<&'a str> {
        let unknown = |k: &&str| *k != "op" && !allowed.contains(k);
        match self {
            Object::Map(m) => m.keys().map(String::as_str).find(unknown),
            Object::Request(r) => r
                .fields
                .iter()
                .map(|(k, _)| k.as_ref())
                .filter(unknown)
                .min(),
        }
    }
}

impl<'a> Fields<'a> {
    /// Checks that every field of `req` is `op` or one of `allowed`. O(fields · allowed).
    ///
    /// # Errors
    /// The first unknown field, named with the allowed ones.
    ///
    /// ```
    /// let req = serde_json::json!({"op": "coalesce", "layout": "8:1"});
    /// assert!(hlayout_cli::fields::Fields::new(req.as_object().unwrap(), "coalesce", &["layout"]).is_ok());
    /// ```
    pub fn new(
        req: &'a Map<String, Value>,
        op: &str,
        allowed: &[&str],
    ) -> Result<Fields<'a>, String> {
        Fields::checked(Object::Map(req), op, allowed)
    }

    /// [`Fields::new`] of a request line parsed by [`parse_request`].
    ///
    /// # Errors
    /// The first unknown field (alphabetically), named with the allowed ones.
    ///
    /// ```
    /// use hlayout_cli::fields::{parse_request, Fields};
    /// let req = parse_request(r#"{"op":"coalesce","layout":"8:1"}"#).unwrap().unwrap();
    /// assert!(Fields::of_request(&req, "coalesce", &["layout"]).is_ok());
    /// ```
    pub fn of_request(
        req: &'a Request<'a>,
        op: &str,
        allowed: &[&str],
    ) -> Result<Fields<'a>, String> {
        Fields::checked(Object::Request(req), op, allowed)
    }

    fn checked(req: Object<'a>, op: &str, allowed: &[&str]) -> Result<Fields<'a>, String> {
        if let Some(k) = req.first_unknown(allowed) {
            let mut names = vec!["op"];
            names.extend_from_slice(allowed);
            return Err(format!(
                "unknown field '{}' for op '{op}' (allowed: {})",
                clip(k),
                names.join(", ")
            ));
        }
        Ok(Fields { req })
    }

    /// The field's value, or an error naming a missing required field.
    ///
    /// # Errors
    /// When the field is absent.
    pub fn required(&self, name: &str) -> Result<&'a Value, String> {
        self.req
            .get(name)
            .ok_or_else(|| format!("missing field '{name}'"))
    }

    /// The field's value when present (`null` counts as absent).
    pub fn optional(&self, name: &str) -> Option<&'a Value> {
        self.req.get(name).filter(|v| !v.is_null())
    }

    /// A layout given as text, parsed and checked against `limits`.
    ///
    /// # Errors
    /// Wrong type, parse error (with its byte position) or a limit.
    pub fn layout(&self, name: &str, limits: &Limits) -> Result<Layout, String> {
        let text = match self.required(name)? {
            Value::String(s) => s,
            other => return Err(wrong(name, "layout text (a string)", other)),
        };
        let l: Layout = text.parse().map_err(|e| format!("{name}: {e}"))?;
        limits
            .check_layout(&l)
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(l)
    }
}

/// A short description of a JSON value's type, for error messages.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// "field: expected X, got Y".
pub fn wrong(what: &str, expected: &str, got: &Value) -> String {
    format!("{what}: expected {expected}, got {}", type_name(got))
}

/// The first 64 characters of a name or text quoted in an error.
pub fn clip(s: &str) -> String {
    match s.char_indices().nth(64) {
        Some((at, _)) => format!("{}...", &s[..at]),
        None => s.to_string(),
    }
}

/// An integer that fits `i64`.
///
/// # Errors
/// Wrong type, a fraction, or a number beyond `i64` (named as such).
///
/// ```
/// use serde_json::json;
/// use hlayout_cli::fields::int;
/// assert_eq!(int(&json!(-3), "x"), Ok(-3));
/// assert_eq!(int(&json!(9223372036854775808u64), "x").unwrap_err(), "x: 9223372036854775808 is beyond i64");
/// assert_eq!(int(&json!(1.5), "x").unwrap_err(), "x: expected an integer, got 1.5");
/// ```
pub fn int(v: &Value, what: &str) -> Result<i64, String> {
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) => Ok(i),
            None if n.is_u64() => Err(format!("{what}: {n} is beyond i64")),
            None => match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() >= 9.2e18 => {
                    Err(format!("{what}: {n} is beyond i64"))
                }
                _ => Err(format!("{what}: expected an integer, got {n}")),
            },
        },
        other => Err(wrong(what, "an integer", other)),
    }
}

/// A boolean.
///
/// # Errors
/// Wrong type.
pub fn boolean(v: &Value, what: &str) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| wrong(what, "a boolean (true or false)", v))
}

/// An array of at most `limits.max_rank` items.
///
/// # Errors
/// Wrong type or the rank limit.
pub fn array<'v>(v: &'v Value, what: &str, limits: &Limits) -> Result<&'v [Value], String> {
    let a = v.as_array().ok_or_else(|| wrong(what, "an array", v))?;
    limits
        .check_rank(a.len())
        .map_err(|e| format!("{what}: {e}"))?;
    Ok(a)
}

/// An array of integers (at most `max_rank`).
///
/// # Errors
/// As [`array()`] and [`int`], naming the item.
pub fn ints(v: &Value, what: &str, limits: &Limits) -> Result<Vec<i64>, String> {
    array(v, what, limits)?
        .iter()
        .enumerate()
        .map(|(k, x)| int(x, &format!("{what}[{k}]")))
        .collect()
}

/// An array of `[a, b]` integer pairs (at most `max_rank`).
///
/// # Errors
/// As [`array()`] and [`int`], naming the item.
pub fn pairs(v: &Value, what: &str, limits: &Limits) -> Result<Vec<(i64, i64)>, String> {
    array(v, what, limits)?
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let at = format!("{what}[{k}]");
            match p.as_array().map(Vec::as_slice) {
                Some([a, b]) => Ok((int(a, &at)?, int(b, &at)?)),
                _ => Err(wrong(&at, "a pair [a, b] of integers", p)),
            }
        })
        .collect()
}

/// An array of booleans (at most `max_rank`).
///
/// # Errors
/// As [`array()`] and [`boolean`], naming the item.
pub fn bools(v: &Value, what: &str, limits: &Limits) -> Result<Vec<bool>, String> {
    array(v, what, limits)?
        .iter()
        .enumerate()
        .map(|(k, x)| boolean(x, &format!("{what}[{k}]")))
        .collect()
}

/// A flat view object `{"shape", "strides", "offset", "mask"}` (`offset`
/// and `mask` optional, `mask` may be null); unknown keys are errors.
///
/// # Errors
/// Unknown key, wrong type, limit, or an invalid view.
///
/// ```
/// let v = serde_json::json!({"shape": [2], "strides": [1], "offset": 0, "mask": null, "x": 0});
/// let err = hlayout_cli::fields::flat_view(&v, "first", &Default::default()).unwrap_err();
/// assert!(err.contains("unknown field 'x' in view 'first'"));
/// ```
pub fn flat_view(v: &Value, field: &str, limits: &Limits) -> Result<FlatView, String> {
    const KEYS: [&str; 4] = ["shape", "strides", "offset", "mask"];
    let obj = v
        .as_object()
        .ok_or_else(|| wrong(field, "a view object", v))?;
    if let Some(k) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown field '{}' in view '{field}' (allowed: {})",
            clip(k),
            KEYS.join(", ")
        ));
    }
    let need = |key: &str| {
        obj.get(key)
            .ok_or_else(|| format!("{field}: missing field '{key}'"))
    };
    let shape = ints(need("shape")?, &format!("{field}.shape"), limits)?;
    let strides = ints(need("strides")?, &format!("{field}.strides"), limits)?;
    let offset = match obj.get("offset") {
        None => 0,
        Some(o) => int(o, &format!("{field}.offset"))?,
    };
    let mask = match obj.get("mask") {
        None | Some(Value::Null) => None,
        Some(m) => Some(pairs(m, &format!("{field}.mask"), limits)?),
    };
    FlatView::new(shape, strides, offset, mask).map_err(|e| format!("{field}: {e}"))
}

/// Parses one request line as JSON, refusing an object (at any depth) that
/// repeats a key. Nesting is bounded by serde_json's recursion limit (128).
/// O(line).
///
/// # Errors
/// serde_json's error: the syntax error, or `duplicate field 'k'`, with its
/// line and column.
///
/// ```
/// use hlayout_cli::fields::parse_json;
/// assert!(parse_json(r#"{"op":"eval","layout":"8:1"}"#).is_ok());
/// let err = parse_json(r#"{"op":"eval","layout":"8:1","layout":"4:1"}"#).unwrap_err();
/// assert_eq!(err.to_string(), "duplicate field 'layout' at line 1 column 36");
/// ```
pub fn parse_json(text: &str) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Strict::deserialize(&mut de)?;
    de.end()?;
    Ok(v.0)
}

/// A request line's top-level object: its fields in order, each key
/// borrowed from the line unless it holds an escape. Cheaper than a
/// [`Map`] for the few fields a request has (no tree, no key copies).
#[derive(Debug)]
pub struct Request<'de> {
    fields: Vec<(Cow<'de, str>, Value)>,
}

impl Request<'_> {
    /// The value of field `name`. O(fields).
    ///
    /// ```
    /// let req = hlayout_cli::fields::parse_request(r#"{"op":"eval"}"#).unwrap().unwrap();
    /// assert_eq!(req.get("op").and_then(|v| v.as_str()), Some("eval"));
    /// ```
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// The fields in order, as `(name, value)`. O(1).
    ///
    /// ```
    /// let req = hlayout_cli::fields::parse_request(r#"{"op":"eval"}"#).unwrap().unwrap();
    /// assert_eq!(req.iter().map(|(k, _)| k).collect::<Vec<_>>(), ["op"]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.fields.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// The fields as a JSON map (copies them). O(fields).
    ///
    /// ```
    /// let req = hlayout_cli::fields::parse_request(r#"{"op":"eval"}"#).unwrap().unwrap();
    /// assert_eq!(req.to_map()["op"], "eval");
    /// ```
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter()
            .map(|(k, v)| (k.to_owned(), v.clone()))
            .collect()
    }

    /// A request holding the fields of `map`. O(fields).
    ///
    /// ```
    /// let map = serde_json::json!({"op": "eval"});
    /// let req = hlayout_cli::fields::Request::from_map(map.as_object().unwrap().clone());
    /// assert_eq!(req.get("op").and_then(|v| v.as_str()), Some("eval"));
    /// ```
    pub fn from_map(map: Map<String, Value>) -> Request<'static> {
        Request {
            fields: map.into_iter().map(|(k, v)| (Cow::Owned(k), v)).collect(),
        }
    }
}

/// Parses one request line as [`parse_json`] does (the same errors: invalid
/// JSON, a repeated key at any depth), keeping a top-level object as a
/// [`Request`]; `None` when the line is valid JSON but not an object.
///
/// # Errors
/// serde_json's, and "duplicate field" for a repeated key.
///
/// ```
/// use hlayout_cli::fields::parse_request;
/// assert!(parse_request(r#"{"op":"eval","layout":"8:1"}"#).unwrap().is_some());
/// assert!(parse_request("[1, 2]").unwrap().is_none());
/// let err = parse_request(r#"{"op":"eval","layout":"8:1","layout":"4:1"}"#).unwrap_err();
/// assert_eq!(err.to_string(), "duplicate field 'layout' at line 1 column 36");
/// ```
pub fn parse_request(text: &str) -> serde_json::Result<Option<Request<'_>>> {
    let mut de = serde_json::Deserializer::from_str(text);
    let r = de.deserialize_any(RequestVisitor)?;
    de.end()?;
    Ok(r)
}

/// A map key, borrowed from the input when it has no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key<'de>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

/// The top level of a request line: an object as a [`Request`], anything
/// else checked as [`Strict`] and dropped.
struct RequestVisitor;

impl<'de> Visitor<'de> for RequestVisitor {
    type Value = Option<Request<'de>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        StrictVisitor.visit_seq(seq).map(|_| None)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut fields: Vec<(Cow<'de, str>, Value)> = Vec::with_capacity(4);
        // Past a few keys, a set keeps the duplicate check linear.
        let mut seen: Option<HashSet<String>> = None;
        while let Some(Key(key)) = map.next_key()? {
            let repeated = match &mut seen {
                Some(set) => !set.insert(key.to_string()),
                None => fields.iter().any(|(k, _)| *k == key),
            };
            if repeated {
                return Err(de::Error::custom(format!(
                    "duplicate field '{}'",
                    clip(&key)
                )));
            }
            let Strict(v) = map.next_value()?;
            fields.push((key, v));
            if seen.is_none() && fields.len() >= 16 {
                seen = Some(fields.iter().map(|(k, _)| k.to_string()).collect());
            }
        }
        Ok(Some(Request { fields }))
    }
}

/// A JSON value whose objects have distinct keys.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

/// Builds a [`Value`] as serde_json does, checking each object's keys.
struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::from(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(Value::from(u))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::from(f)) // JSON has no NaN or infinity: always a number
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::from(s))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
        while let Some(Strict(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "duplicate field '{}'",
                    clip(&key)
                )));
            }
            let Strict(v) = map.next_value()?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}
