//! Python exceptions for the crate's typed errors.
//!
//! Every [`hlayout::Error`] variant becomes its own exception class, a subclass of
//! `hlayout.HlayoutError` (itself a `ValueError`), whose instance carries the
//! variant's fields as attributes, plus `kind` (the variant's name) and `fields`
//! (a dict of the same values). A failed flatten raises `FlattenError` with the
//! report's obstructions.

use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyTuple, PyType};

create_exception!(
    hlayout,
    HlayoutError,
    PyValueError,
    "Base class of hlayout's errors."
);
create_exception!(
    hlayout,
    ParseError,
    HlayoutError,
    "Layout or tuple text could not be parsed."
);
create_exception!(
    hlayout,
    NotCongruentError,
    HlayoutError,
    "Two tuples do not have the same nesting."
);
create_exception!(
    hlayout,
    NonPositiveExtentError,
    HlayoutError,
    "A layout extent was below 1."
);
create_exception!(
    hlayout,
    IntegerOverflowError,
    HlayoutError,
    "A checked computation left the range of i64."
);
create_exception!(
    hlayout,
    OutOfDomainError,
    HlayoutError,
    "An index or coordinate lies outside the domain."
);
create_exception!(
    hlayout,
    NotCompatibleError,
    HlayoutError,
    "A coordinate is not a coarsening of the shape."
);
create_exception!(
    hlayout,
    SizeMismatchError,
    HlayoutError,
    "Two shapes that must have equal size do not."
);
create_exception!(
    hlayout,
    NoCommonRefinementError,
    HlayoutError,
    "Two shapes have no common refinement."
);
create_exception!(
    hlayout,
    ProfileTooLongError,
    HlayoutError,
    "A profile or tiler has more modes than the layout."
);
create_exception!(
    hlayout,
    TooDeepError,
    HlayoutError,
    "Nesting deeper than the limit."
);
create_exception!(
    hlayout,
    BadMovementError,
    HlayoutError,
    "A movement op's arguments break its precondition."
);
create_exception!(
    hlayout,
    InvalidViewError,
    HlayoutError,
    "A flat view was malformed."
);
create_exception!(
    hlayout,
    NoCompositionError,
    HlayoutError,
    "No single layout is the composition."
);
create_exception!(
    hlayout,
    BudgetExceededError,
    HlayoutError,
    "A value-based fallback would exceed its budget."
);
create_exception!(
    hlayout,
    LimitExceededError,
    HlayoutError,
    "A request is larger than a limit allows."
);
create_exception!(
    hlayout,
    PreconditionError,
    HlayoutError,
    "An operation's precondition does not hold."
);
create_exception!(
    hlayout,
    NeedsFactsError,
    HlayoutError,
    "An answer over symbols exists only under facts the assumptions do not prove; `needs` lists them."
);
create_exception!(
    hlayout,
    FlattenError,
    HlayoutError,
    "A layout or view has no plain strided form."
);

/// `ModeOutOfRangeError`: a mode index past the rank. It subclasses both
/// `HlayoutError` and `IndexError`, so `layout[k]` ends iteration and
/// indexing the way Python sequences do. (Built once with `type()`:
/// `create_exception!` takes a single base.)
fn mode_out_of_range_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static TYPE: GILOnceCell<Py<PyType>> = GILOnceCell::new();
    TYPE.get_or_try_init(py, || {
        let bases = PyTuple::new(
            py,
            [
                py.get_type::<HlayoutError>().into_any(),
                py.get_type::<PyIndexError>().into_any(),
            ],
        )?;
        let dict = PyDict::new(py);
        dict.set_item("__module__", "hlayout")?;
        dict.set_item(
            "__doc__",
            "A mode index was past the rank (also an IndexError).",
        )?;
        let ty =
            py.import("builtins")?
                .getattr("type")?
                .call1(("ModeOutOfRangeError", bases, dict))?;
        Ok(ty.downcast_into::<PyType>()?.unbind())
    })
    .map(|t| t.bind(py))
}

/// `ModeOutOfRangeError` for mode `mode` (as the caller wrote it, negative
/// counting from the end) of a rank-`rank` layout.
pub(crate) fn mode_out_of_range(py: Python<'_>, mode: i64, rank: usize) -> PyErr {
    let msg = format!("mode {mode} is out of range for rank {rank}");
    let fields = vec![
        ("mode", Field::Int(mode)),
        ("rank", Field::Int(i64::try_from(rank).unwrap_or(i64::MAX))),
    ];
    match mode_out_of_range_type(py) {
        Ok(ty) => raise_type(py, ty, msg, "ModeOutOfRange", fields),
        Err(e) => e,
    }
}

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("HlayoutError", py.get_type::<HlayoutError>())?;
    m.add("ParseError", py.get_type::<ParseError>())?;
    m.add("NotCongruentError", py.get_type::<NotCongruentError>())?;
    m.add(
        "NonPositiveExtentError",
        py.get_type::<NonPositiveExtentError>(),
    )?;
    m.add(
        "IntegerOverflowError",
        py.get_type::<IntegerOverflowError>(),
    )?;
    m.add("OutOfDomainError", py.get_type::<OutOfDomainError>())?;
    m.add("NotCompatibleError", py.get_type::<NotCompatibleError>())?;
    m.add("SizeMismatchError", py.get_type::<SizeMismatchError>())?;
    m.add(
        "NoCommonRefinementError",
        py.get_type::<NoCommonRefinementError>(),
    )?;
    m.add("ModeOutOfRangeError", mode_out_of_range_type(py)?)?;
    m.add("ProfileTooLongError", py.get_type::<ProfileTooLongError>())?;
    m.add("TooDeepError", py.get_type::<TooDeepError>())?;
    m.add("BadMovementError", py.get_type::<BadMovementError>())?;
    m.add("InvalidViewError", py.get_type::<InvalidViewError>())?;
    m.add("NoCompositionError", py.get_type::<NoCompositionError>())?;
    m.add("BudgetExceededError", py.get_type::<BudgetExceededError>())?;
    m.add("LimitExceededError", py.get_type::<LimitExceededError>())?;
    m.add("PreconditionError", py.get_type::<PreconditionError>())?;
    m.add("FlattenError", py.get_type::<FlattenError>())?;
    m.add("NeedsFactsError", py.get_type::<NeedsFactsError>())?;
    Ok(())
}

/// One field value of an error.
pub(crate) enum Field {
    Int(i64),
    Str(String),
    OptInt(Option<i64>),
    OptStr(Option<String>),
    List(Vec<(usize, String, String, Vec<String>)>),
    Strs(Vec<String>),
}

impl<'py> IntoPyObject<'py> for Field {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(match self {
            Field::Int(v) => v.into_pyobject(py)?.into_any(),
            Field::Str(v) => v.into_pyobject(py)?.into_any(),
            Field::OptInt(v) => v.into_pyobject(py)?.into_any(),
            Field::OptStr(v) => v.into_pyobject(py)?.into_any(),
            Field::List(v) => v.into_pyobject(py)?.into_any(),
            Field::Strs(v) => v.into_pyobject(py)?.into_any(),
        })
    }
}

/// Builds an exception of class `E` with `message`, `kind` and `fields`, each
/// field also set as an attribute.
pub(crate) fn raise<E: pyo3::PyTypeInfo>(
    py: Python<'_>,
    message: String,
    kind: &str,
    fields: Vec<(&'static str, Field)>,
) -> PyErr {
    raise_type(py, &py.get_type::<E>(), message, kind, fields)
}

/// [`raise`] with the class given as a value.
fn raise_type(
    py: Python<'_>,
    ty: &Bound<'_, PyType>,
    message: String,
    kind: &str,
    fields: Vec<(&'static str, Field)>,
) -> PyErr {
    let err = PyErr::from_type(ty.clone(), message);
    let value = err.value(py);
    let dict = PyDict::new(py);
    let mut ok = value.setattr("kind", kind).is_ok();
    for (name, field) in fields {
        if let Ok(obj) = field.into_pyobject(py) {
            ok &= value.setattr(name, &obj).is_ok() && dict.set_item(name, obj).is_ok();
        }
    }
    if ok {
        let _ = value.setattr("fields", dict);
    }
    err
}

/// The Python exception for a crate error.
pub(crate) fn to_py(e: hlayout::Error) -> PyErr {
    use hlayout::Error as E;
    use Field::{Int, OptInt, OptStr, Str};
    let msg = e.to_string();
    let n = |v: usize| Int(i64::try_from(v).unwrap_or(i64::MAX));
    Python::with_gil(|py| match e {
        E::Parse {
            pos,
            expected,
            found,
        } => raise::<ParseError>(
            py,
            msg,
            "Parse",
            vec![
                ("pos", n(pos)),
                ("expected", Str(expected.into())),
                ("found", OptStr(found.map(String::from))),
            ],
        ),
        E::NotCongruent { what, left, right } => raise::<NotCongruentError>(
            py,
            msg,
            "NotCongruent",
            vec![
                ("what", Str(what.into())),
                ("left", Str(left)),
                ("right", Str(right)),
            ],
        ),
        E::NonPositiveExtent { leaf, extent } => raise::<NonPositiveExtentError>(
            py,
            msg,
            "NonPositiveExtent",
            vec![("leaf", n(leaf)), ("extent", Int(extent))],
        ),
        E::Overflow { what } => {
            raise::<IntegerOverflowError>(py, msg, "Overflow", vec![("what", Str(what.into()))])
        }
        E::OutOfDomain { what } => {
            raise::<OutOfDomainError>(py, msg, "OutOfDomain", vec![("what", Str(what))])
        }
        E::NotCompatible { coord, shape } => raise::<NotCompatibleError>(
            py,
            msg,
            "NotCompatible",
            vec![("coord", Str(coord)), ("shape", Str(shape))],
        ),
        E::SizeMismatch { what, left, right } => raise::<SizeMismatchError>(
            py,
            msg,
            "SizeMismatch",
            vec![
                ("what", Str(what.into())),
                ("left", Int(left)),
                ("right", Int(right)),
            ],
        ),
        E::NoCommonRefinement {
            left,
            right,
            left_extent,
            right_extent,
        } => raise::<NoCommonRefinementError>(
            py,
            msg,
            "NoCommonRefinement",
            vec![
                ("left", Str(left)),
                ("right", Str(right)),
                ("left_extent", Int(left_extent)),
                ("right_extent", Int(right_extent)),
            ],
        ),
        E::ModeOutOfRange { mode, rank } => {
            mode_out_of_range(py, i64::try_from(mode).unwrap_or(i64::MAX), rank)
        }
        E::ProfileTooLong {
            profile_rank,
            layout_rank,
        } => raise::<ProfileTooLongError>(
            py,
            msg,
            "ProfileTooLong",
            vec![
                ("profile_rank", n(profile_rank)),
                ("layout_rank", n(layout_rank)),
            ],
        ),
        E::TooDeep { depth } => {
            raise::<TooDeepError>(py, msg, "TooDeep", vec![("depth", n(depth))])
        }
        E::BadMovement { op, why } => raise::<BadMovementError>(
            py,
            msg,
            "BadMovement",
            vec![("op", Str(op.into())), ("why", Str(why))],
        ),
        E::InvalidView { what } => {
            raise::<InvalidViewError>(py, msg, "InvalidView", vec![("what", Str(what))])
        }
        E::NoComposition {
            a,
            b,
            rule,
            leaf,
            stride,
            boundary,
            index,
        } => raise::<NoCompositionError>(
            py,
            msg,
            "NoComposition",
            vec![
                ("a", Str(a)),
                ("b", Str(b)),
                ("rule", Str(rule.into())),
                ("leaf", n(leaf)),
                ("stride", Int(stride)),
                ("boundary", OptInt(boundary)),
                ("index", Int(index)),
            ],
        ),
        E::BudgetExceeded {
            what,
            needed,
            budget,
        } => raise::<BudgetExceededError>(
            py,
            msg,
            "BudgetExceeded",
            vec![
                ("what", Str(what.into())),
                ("needed", Int(needed)),
                ("budget", Int(budget)),
            ],
        ),
        E::LimitExceeded { limit, value, max } => raise::<LimitExceededError>(
            py,
            msg,
            "LimitExceeded",
            vec![
                ("limit", Str(limit.into())),
                ("value", Int(i64::try_from(value).unwrap_or(i64::MAX))),
                ("max", Int(i64::try_from(max).unwrap_or(i64::MAX))),
            ],
        ),
        E::Precondition { op, layout, rule } => raise::<PreconditionError>(
            py,
            msg,
            "Precondition",
            vec![
                ("op", Str(op.into())),
                ("layout", Str(layout)),
                ("rule", Str(rule)),
            ],
        ),
        E::NeedsFacts { op, why, needs } => raise::<NeedsFactsError>(
            py,
            msg,
            "NeedsFacts",
            vec![
                ("op", Str(op.into())),
                ("why", Str(why)),
                ("needs", Field::Strs(needs)),
            ],
        ),
        other => raise::<HlayoutError>(py, other.to_string(), "Other", vec![]),
    })
}

/// `FlattenError` for a layout's flatten report: `modes` lists, per offending
/// top-level mode, `(mode, layout, coalesced, index_expressions)`, and
/// `reasons` each mode's sentence.
pub(crate) fn flatten_error(report: &hlayout::FlattenReport) -> PyErr {
    let modes = report
        .modes()
        .iter()
        .map(|m| {
            (
                m.mode,
                m.layout.to_string(),
                m.coalesced.to_string(),
                m.index_expressions(),
            )
        })
        .collect();
    let reasons = report.modes().iter().map(|m| m.to_string()).collect();
    Python::with_gil(|py| {
        raise::<FlattenError>(
            py,
            report.to_string(),
            "Flatten",
            vec![
                ("modes", Field::List(modes)),
                ("reasons", Field::Strs(reasons)),
            ],
        )
    })
}

/// `FlattenError` for a view's flatten report: `reasons` lists why (one
/// sentence per obstruction); `modes` is empty (a view's obstructions are not
/// all modes).
pub(crate) fn view_flatten_error(message: String, reasons: Vec<String>) -> PyErr {
    Python::with_gil(|py| {
        raise::<FlattenError>(
            py,
            message,
            "Flatten",
            vec![
                ("modes", Field::List(Vec::new())),
                ("reasons", Field::Strs(reasons)),
            ],
        )
    })
}

/// Shorthand: a crate result as a Python result.
pub(crate) trait IntoPy<T> {
    /// Maps the error to its Python exception.
    fn py(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for hlayout::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}
