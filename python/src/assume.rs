//! The assumption plumbing every symbolic class shares (`SymLayout`,
//! `SymFlatView`, `SymViewStack`, …): reading `assume=` (a dict of bounds or
//! tinygrad `Variable`s) into a [`Symbols`] table, writing a table back as
//! the `symbols` / `assumptions` attributes and as `repr` text, and reading
//! the `bind(**values)` keywords. One module, so every class accepts and
//! prints assumptions the same way.

use hlayout::symbolic::{Assume, Symbols};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::convert::{arg_error, given};
use crate::errors::IntoPy;

/// What `assume` accepts.
const ASSUME: &str = "a dict {name: {'min': .., 'max': .., 'divisible_by': ..}} \
or a list of tinygrad Variables";

/// `min …, max …, divisible_by …`: one symbol's assumptions in words.
pub(crate) fn show_assume(a: &Assume) -> String {
    format!(
        "min {}, max {}, divisible_by {}",
        a.min, a.max, a.divisible_by
    )
}

/// A table holding the assumptions of `assume` (`None` gives an empty one).
pub(crate) fn table(assume: Option<&Bound<'_, PyAny>>) -> PyResult<Symbols> {
    let mut syms = Symbols::new();
    if let Some(a) = assume.filter(|a| !a.is_none()) {
        read_assume(a, &mut syms)?;
    }
    Ok(syms)
}

/// Reads `assume` into `syms`.
pub(crate) fn read_assume(obj: &Bound<'_, PyAny>, syms: &mut Symbols) -> PyResult<()> {
    if let Ok(d) = obj.downcast::<PyDict>() {
        for (k, v) in d.iter() {
            let name: String = k.extract().map_err(|_| arg_error("assume", ASSUME, obj))?;
            let a = if v.downcast::<PyDict>().is_ok() {
                assumption(&v, &name)?
            } else {
                variable(&v)?.1
            };
            syms.assume(&name, a).py()?;
        }
        return Ok(());
    }
    if obj.is_instance_of::<PyString>() {
        return Err(arg_error("assume", ASSUME, obj));
    }
    let items = obj
        .try_iter()
        .map_err(|_| arg_error("assume", ASSUME, obj))?;
    for v in items {
        let (name, a) = variable(&v?)?;
        syms.assume(&name, a).py()?;
    }
    Ok(())
}

/// `{'min': .., 'max': .., 'divisible_by': ..}`, strictly.
fn assumption(d: &Bound<'_, PyAny>, name: &str) -> PyResult<Assume> {
    let d = d.downcast::<PyDict>()?;
    let mut a = Assume::default();
    for (k, v) in d.iter() {
        let key: String = k.extract().unwrap_or_default();
        let value: i64 = v.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "assume[{name:?}][{key:?}]: expected an int, got {}",
                given(&v)
            ))
        })?;
        match key.as_str() {
            "min" => a.min = value,
            "max" => a.max = value,
            "divisible_by" => a.divisible_by = value,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "assume[{name:?}]: unknown key {} (known: min, max, divisible_by)",
                    given(&k)
                )))
            }
        }
    }
    Ok(a)
}

/// A tinygrad `Variable` (a `DEFINE_VAR` UOp: its name in `expr` or
/// `arg[0]`, its bounds in `vmin`, `vmax`) as a name and assumptions.
fn variable(v: &Bound<'_, PyAny>) -> PyResult<(String, Assume)> {
    let bad = || arg_error("assume", ASSUME, v);
    let name: String = match v.getattr("expr").and_then(|e| e.extract()) {
        Ok(n) => n,
        Err(_) => v
            .getattr("arg")
            .and_then(|a| a.get_item(0))
            .and_then(|n| n.extract())
            .map_err(|_| bad())?,
    };
    let bound = |attr: &str| -> PyResult<i64> {
        v.getattr(attr).and_then(|x| x.extract()).map_err(|_| bad())
    };
    Ok((
        name,
        Assume {
            min: bound("vmin")?,
            max: bound("vmax")?,
            divisible_by: 1,
        },
    ))
}

/// The symbols' names, in order of first appearance (the `symbols`
/// attribute).
pub(crate) fn names(syms: &Symbols) -> Vec<String> {
    (0..syms.len() as u8)
        .map(|id| syms.name(id).to_string())
        .collect()
}

/// `{name: {'min', 'max', 'divisible_by'}}` (the `assumptions` attribute,
/// which `assume=` accepts back).
pub(crate) fn assumptions<'py>(py: Python<'py>, syms: &Symbols) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for id in 0..syms.len() as u8 {
        let a = syms.assumption(id);
        let d = PyDict::new(py);
        d.set_item("min", a.min)?;
        d.set_item("max", a.max)?;
        d.set_item("divisible_by", a.divisible_by)?;
        out.set_item(syms.name(id), d)?;
    }
    Ok(out)
}

/// The `assumptions` dict as Python text, for a `repr`:
/// `{'N': {'min': 1, 'max': 8, 'divisible_by': 1}}`.
pub(crate) fn repr(syms: &Symbols) -> String {
    let parts: Vec<String> = (0..syms.len() as u8)
        .map(|id| {
            let a = syms.assumption(id);
            format!(
                "'{}': {{'min': {}, 'max': {}, 'divisible_by': {}}}",
                syms.name(id),
                a.min,
                a.max,
                a.divisible_by
            )
        })
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// The `(name, value)` pairs of a `bind(**values)` call, each value an int.
pub(crate) fn bind_pairs(values: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, i64)>> {
    let mut pairs: Vec<(String, i64)> = Vec::new();
    if let Some(d) = values {
        for (k, v) in d.iter() {
            let name: String = k.extract()?;
            let x: i64 = v.extract().map_err(|_| {
                PyTypeError::new_err(format!("{name}: expected an int, got {}", given(&v)))
            })?;
            pairs.push((name, x));
        }
    }
    Ok(pairs)
}

/// The binding (`values[id]` per symbol of `syms`) of `pairs`, each value
/// checked against its assumptions; every symbol needs a value.
pub(crate) fn binding(syms: &Symbols, pairs: &[(String, i64)]) -> PyResult<Vec<i64>> {
    let pairs: Vec<(&str, i64)> = pairs.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    syms.binding(&pairs).py()
}
