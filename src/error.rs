//! The one error type of the crate.
//!
//! Every fallible public function returns [`Result<T>`](crate::Result). Each
//! [`Error`] variant names the rule that failed and carries the values that broke
//! it, so its `Display` text reads like a diagnosis, e.g.
//! `shape and stride are not congruent: shape (2,3) has profile (_,_), stride 4 has profile _`.

use std::fmt;

/// Shorthand for `std::result::Result<T, hlayout::Error>`.
pub type Result<T> = std::result::Result<T, Error>;

/// What went wrong, with the operands that broke the rule.
///
/// ```
/// use hlayout::{Error, Layout};
/// let err = "(2,3):(1,2,3)".parse::<Layout>().unwrap_err();
/// assert!(matches!(err, Error::NotCongruent { .. }));
/// assert!(err.to_string().contains("not congruent"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Layout or tuple text could not be parsed.
    Parse {
        /// Byte offset in the input where parsing stopped.
        pos: usize,
        /// What the parser expected there.
        expected: &'static str,
        /// What it found (`None` at end of input).
        found: Option<char>,
    },
    /// A shape and a stride (or a coordinate and a shape) do not have the same nesting.
    NotCongruent {
        /// What was being paired, e.g. "shape and stride".
        what: &'static str,
        /// The left operand, as text.
        left: String,
        /// The right operand, as text.
        right: String,
    },
    /// A layout extent was zero or negative; layouts need extents >= 1.
    NonPositiveExtent {
        /// Leaf position (row-major, flattened).
        leaf: usize,
        /// The offending extent.
        extent: i64,
    },
    /// A checked computation left the range of `i64`.
    Overflow {
        /// The computation that overflowed, e.g. "size of shape".
        what: &'static str,
    },
    /// An index or coordinate lies outside the domain where the operation is defined.
    OutOfDomain {
        /// The rule, e.g. "coordinate 5 in mode of extent 4".
        what: String,
    },
    /// A coordinate's structure is not a coarsening of the shape it indexes.
    NotCompatible {
        /// The coordinate (or coarse shape), as text.
        coord: String,
        /// The shape, as text.
        shape: String,
    },
    /// Two shapes that must have equal size do not.
    SizeMismatch {
        /// What was compared.
        what: &'static str,
        /// Size of the left operand.
        left: i64,
        /// Size of the right operand.
        right: i64,
    },
    /// Two shapes have no common refinement: at some point the remaining extents
    /// of the two leaves being matched do not divide each other.
    NoCommonRefinement {
        /// The left shape, as text.
        left: String,
        /// The right shape, as text.
        right: String,
        /// Remaining extent of the left leaf where matching failed.
        left_extent: i64,
        /// Remaining extent of the right leaf where matching failed.
        right_extent: i64,
    },
    /// A mode index was past the rank.
    ModeOutOfRange {
        /// The requested mode.
        mode: usize,
        /// The rank.
        rank: usize,
    },
    /// A profile given to `coalesce_by` has more modes than the layout.
    ProfileTooLong {
        /// Rank of the profile.
        profile_rank: usize,
        /// Rank of the layout.
        layout_rank: usize,
    },
    /// Nesting deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    TooDeep {
        /// The depth found.
        depth: usize,
    },
    /// A movement op's arguments break its precondition (tinygrad 0.10.3 semantics).
    BadMovement {
        /// The op, e.g. "reshape".
        op: &'static str,
        /// The rule and the values that broke it.
        why: String,
    },
    /// A flat view was malformed (lengths differ, bad mask, negative extent).
    InvalidView {
        /// What is wrong.
        what: String,
    },
    /// No layout `R` has B's shape as a coarsening and `R(i) = A(B(i))` for every
    /// `i < size(B)`; the fields locate the first obstruction.
    NoComposition {
        /// A, as text.
        a: String,
        /// B, as text.
        b: String,
        /// The rule that fails.
        rule: &'static str,
        /// Flat leaf of B involved (row-major leaf position).
        leaf: usize,
        /// That leaf's stride.
        stride: i64,
        /// The place value of A's mode boundary that a carry crosses, when that is the obstruction.
        boundary: Option<i64>,
        /// An index `i < size(B)` at which the values contradict every candidate `R`.
        index: i64,
    },
    /// A value-based fallback would need more evaluations than its budget allows.
    BudgetExceeded {
        /// The computation.
        what: &'static str,
        /// Evaluations needed.
        needed: i64,
        /// The budget.
        budget: i64,
    },
    /// A request is larger than a [`Limits`](crate::Limits) (or a fixed bound
    /// of the library, such as [`codegen::MAX_STACK_VIEWS`](crate::codegen::MAX_STACK_VIEWS)) allows.
    LimitExceeded {
        /// The limit's name, e.g. `"max_rank"` (a field of [`Limits`](crate::Limits)).
        limit: &'static str,
        /// The request's size; `u64::MAX` when it is too large to count
        /// (then displayed as "more than" the limit).
        value: u64,
        /// The limit's value.
        max: u64,
    },
    /// A symbolic request has no single answer for every binding its
    /// assumptions allow (or none was proved): `needs` lists facts, in C
    /// syntax over the symbols, that together would make one exist (empty
    /// when no added fact helps). See `symbolic`.
    NeedsFacts {
        /// The operation, e.g. "compose".
        op: &'static str,
        /// What could not be proved, in words.
        why: String,
        /// The missing facts, e.g. `N % 4 == 0`, `N >= 8`.
        needs: Vec<String>,
    },
    /// An operation's precondition on its layout operand does not hold.
    Precondition {
        /// The operation, e.g. "complement".
        op: &'static str,
        /// The layout, as text.
        layout: String,
        /// The rule and the values that broke it.
        rule: String,
    },
    /// A name (a movement op, a kernel language, a kernel input) is not one
    /// of those the crate knows.
    UnknownName {
        /// What was being named, e.g. `"movement op"` or `"language"`.
        what: &'static str,
        /// The name given (its first 64 characters).
        given: String,
        /// Every name accepted, in the order the documentation lists them.
        known: &'static [&'static str],
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse {
                pos,
                expected,
                found: Some(c),
            } => write!(f, "parse error at byte {pos}: expected {expected}, found {c:?}"),
            Error::Parse {
                pos,
                expected,
                found: None,
            } => write!(f, "parse error at byte {pos}: expected {expected}, found end of input"),
            Error::NotCongruent { what, left, right } => {
                write!(f, "{what} are not congruent: {left} vs {right}")
            }
            Error::NonPositiveExtent { leaf, extent } => {
                write!(f, "extent {extent} at leaf {leaf} is not positive (layouts need extents >= 1)")
            }
            Error::Overflow { what } => write!(f, "i64 overflow while computing {what}"),
            Error::OutOfDomain { what } => write!(f, "out of domain: {what}"),
            Error::NotCompatible { coord, shape } => {
                write!(f, "{coord} is not a coarsening of shape {shape}")
            }
            Error::SizeMismatch { what, left, right } => {
                write!(f, "{what}: sizes differ ({left} vs {right})")
            }
            Error::NoCommonRefinement {
                left,
                right,
                left_extent,
                right_extent,
            } => write!(
                f,
                "{left} and {right} have no common refinement: extents {left_extent} and {right_extent} do not divide each other"
            ),
            Error::ModeOutOfRange { mode, rank } => {
                write!(f, "mode {mode} is out of range for rank {rank}")
            }
            Error::ProfileTooLong {
                profile_rank,
                layout_rank,
            } => write!(
                f,
                "coalesce profile has {profile_rank} modes but the layout only {layout_rank}"
            ),
            Error::TooDeep { depth } => write!(
                f,
                "nesting depth {depth} exceeds the limit of {}",
                crate::MAX_DEPTH
            ),
            Error::BadMovement { op, why } => write!(f, "{op}: {why}"),
            Error::InvalidView { what } => write!(f, "invalid view: {what}"),
            Error::NoComposition {
                a,
                b,
                rule,
                leaf,
                stride,
                boundary,
                index,
            } => {
                write!(f, "compose {a} o {b}: no single layout exists: {rule}; B's leaf {leaf} (stride {stride})")?;
                if let Some(p) = boundary {
                    write!(f, " carries across A's mode boundary at offset {p}")?;
                }
                write!(f, ", witness index {index}")
            }
            Error::BudgetExceeded { what, needed, budget } => write!(
                f,
                "{what} needs {needed} evaluations, over its budget of {budget} (undecided, not refused)"
            ),
            Error::Precondition { op, layout, rule } => write!(f, "{op} of {layout}: {rule}"),
            Error::NeedsFacts { op, why, needs } if needs.is_empty() => {
                write!(f, "{op}: {why}; no added fact helps")
            }
            Error::NeedsFacts { op, why, needs } => {
                write!(f, "{op}: {why}; needs {}", needs.join(" and "))
            }
            Error::LimitExceeded { limit, value, max } if *value == u64::MAX => {
                write!(f, "request exceeds the limit {limit} = {max} (got more than {max})")
            }
            Error::LimitExceeded { limit, value, max } => {
                write!(f, "request exceeds the limit {limit} = {max} (got {value})")
            }
            Error::UnknownName { what, given, known } => {
                write!(f, "unknown {what} '{given}' (known: {})", known.join(", "))
            }
        }
    }
}

impl std::error::Error for Error {}

/// `a * b` or an [`Error::Overflow`] naming `what`.
pub(crate) fn mul(a: i64, b: i64, what: &'static str) -> Result<i64> {
    match a.checked_mul(b) {
        Some(v) => Ok(v),
        None => Err(Error::Overflow { what }),
    }
}

/// The [`Error::Overflow`] naming `what`.
pub(crate) fn overflow(what: &'static str) -> Error {
    Error::Overflow { what }
}

/// `a + b` or an [`Error::Overflow`] naming `what`.
pub(crate) fn add(a: i64, b: i64, what: &'static str) -> Result<i64> {
    match a.checked_add(b) {
        Some(v) => Ok(v),
        None => Err(Error::Overflow { what }),
    }
}

/// The [`Error::UnknownName`] for `given` (clipped to 64 characters, so that
/// hostile input cannot make the message long) among `known`.
pub(crate) fn unknown_name(
    what: &'static str,
    given: &str,
    known: &'static [&'static str],
) -> Error {
    let given = match given.char_indices().nth(64) {
        Some((at, _)) => format!("{}...", &given[..at]),
        None => given.to_string(),
    };
    Error::UnknownName { what, given, known }
}
