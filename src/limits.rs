//! [`Limits`]: how large a request a program driving the crate accepts.
//!
//! Every operation of the crate is exact and costs time and memory roughly
//! linear in its input (see each function's complexity note), but some inputs
//! are large by nature: a layout of size 2^40 has 2^40 offsets, a shape of
//! rank 10^6 is valid. A program that takes requests from elsewhere (the
//! `hlayout batch` command, a compiler service) checks them against a
//! [`Limits`] *before* any work starts, so that every request is answered
//! within a bound linear in its own size, and an over-limit request gets
//! [`Error::LimitExceeded`] naming the limit, its value and the offending size.
//!
//! The defaults are named constants ([`DEFAULT_MAX_RANK`], ...); every field is
//! public, so a caller with other needs sets its own.
//!
//! What drives the cost of each request of the batch protocol, and what
//! bounds it (`L` the line length, `n` the leaves or rank, at most
//! `max_rank`; `v` the views of a stack, at most `max_ops + 1`):
//!
//! | request | cost | bound |
//! |---|---|---|
//! | parsing any line | O(L); nesting checked as it is read | `max_line_bytes`, [`MAX_DEPTH`], serde_json's recursion limit |
//! | `eval` | O(n + offsets), streamed | `max_reply_elements` |
//! | `coalesce`, `flatten`, `complement`, `right_inverse` | O(n log n) | `max_rank` |
//! | `compose`, divides, products | closed forms polynomial in n; the value stage | `COMPOSE_FALLBACK_BUDGET` evaluations |
//! | `left_inverse` | closed forms; the exact search | `LEFT_INVERSE_SEARCH_BUDGET` evaluations |
//! | `merge` | closed forms polynomial in the rank; the last-resort walk | `merge::MAX_WALKED_POINTS` points |
//! | `chain` | each op polynomial in n and v; a stack's merge walks at most 2^16 points | `max_ops`, `max_rank` |
//! | `chain` offsets | one evaluation per offset and view | offsets · v ≤ `max_reply_elements` |
//! | `expr` | polynomial in n; nesting one level per view | `codegen::MAX_STACK_VIEWS` |
//! | `expr` text (and a chain's `"expr"`) | O(kernel nodes) to measure, then O(text) | `max_expr_bytes` |
//! | versioned `expr` over symbols (`"versions":true`) | one symbolic pipeline run per candidate guard, at most `4 · max_kernel_versions` pairs | `max_kernel_versions`, `max_expr_bytes` |
//!
//! A budget that runs out answers [`Error::BudgetExceeded`] ("undecided"),
//! never a guess.
//!
//! ```
//! use hlayout::{Error, Limits};
//! let limits = Limits { max_rank: 4, ..Limits::default() };
//! assert!(limits.check_rank(4).is_ok());
//! let err = limits.check_rank(5).unwrap_err();
//! assert!(matches!(err, Error::LimitExceeded { limit: "max_rank", value: 5, max: 4 }));
//! assert_eq!(err.to_string(), "request exceeds the limit max_rank = 4 (got 5)");
//! ```

use crate::error::{Error, Result};
use crate::tuple::MAX_DEPTH;

/// Default [`Limits::max_rank`]: 64, NumPy's limit on array dimensions.
pub const DEFAULT_MAX_RANK: usize = 64;

/// Default [`Limits::max_depth`]: the parser's own bound, [`MAX_DEPTH`].
pub const DEFAULT_MAX_DEPTH: usize = MAX_DEPTH;

/// Default [`Limits::max_reply_elements`]: 2^24 offsets (a 4096 x 4096 tile).
pub const DEFAULT_MAX_REPLY_ELEMENTS: u64 = 1 << 24;

/// Default [`Limits::max_line_bytes`]: 1 MiB of request text.
pub const DEFAULT_MAX_LINE_BYTES: usize = 1 << 20;

/// Default [`Limits::max_ops`]: 64 movement ops per chain (tinygrad's chains
/// in the reference data have at most 13).
pub const DEFAULT_MAX_OPS: usize = 64;

/// Default [`Limits::max_symbols`]: 64 symbols per request.
pub const DEFAULT_MAX_SYMBOLS: usize = 64;

/// Default [`Limits::max_degree`]: 8 factors in a monomial (the most the
/// symbolic layer represents).
pub const DEFAULT_MAX_DEGREE: usize = 8;

/// Default [`Limits::max_terms`]: 64 terms in one polynomial.
pub const DEFAULT_MAX_TERMS: usize = 64;

/// Default [`Limits::max_expr_bytes`]: 1 MiB of kernel text (index and
/// validity together), like [`DEFAULT_MAX_LINE_BYTES`] for a request. The
/// longest kernel text of the 165 tinygrad chains of `tests/data` is 397
/// bytes (any language, either input), so real kernels stay thousands of
/// times under it, while a chain whose text doubles every few ops (a
/// transpose, a reshape, a pad and a cut, repeated) passes it at 54 ops
/// (1.2 MB of C); at 64 ops its C text would be 177 GB, refused in
/// milliseconds.
pub const DEFAULT_MAX_EXPR_BYTES: usize = 1 << 20;

/// Default [`Limits::max_kernel_versions`]: 16 versions of one symbolic
/// kernel (the generic one included).
pub const DEFAULT_MAX_KERNEL_VERSIONS: usize = 16;

/// Bounds on one request, checked before any work starts.
///
/// ```
/// let l = hlayout::Limits::default();
/// assert_eq!(l.max_rank, hlayout::limits::DEFAULT_MAX_RANK);
/// assert!(l.check_elements(1 << 24).is_ok());
/// assert!(l.check_elements((1 << 24) + 1).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Most dimensions of a shape or movement-op argument, and most leaves of
    /// a layout. Bounds the cost of an op, which is polynomial in the rank
    /// (the constraints of a padded view are a rank x rank matrix).
    pub max_rank: usize,
    /// Deepest nesting of a layout or tuple (at most [`MAX_DEPTH`], which the
    /// parser enforces whatever this says).
    pub max_depth: usize,
    /// Most elements listed in one reply (offsets of `eval` or a chain), and
    /// the most view evaluations a reply may cost: a stack of `v` views lists
    /// at most `max_reply_elements / v` offsets, since each costs one
    /// evaluation per view.
    pub max_reply_elements: u64,
    /// Longest request line, in bytes (a longer one is skipped unread and refused).
    pub max_line_bytes: usize,
    /// Most movement ops in one chain. Bounds the views of a stack (at most
    /// one more than its ops), and with them the cost of every op (linear or
    /// polynomial in the views below it) and the nesting of a kernel
    /// expression (one level per view).
    pub max_ops: usize,
    /// Most symbols in one request (at most 255; see `symbolic`).
    pub max_symbols: usize,
    /// Most factors in one monomial of a polynomial (at most 8).
    pub max_degree: usize,
    /// Most terms in one polynomial. With `max_degree` it bounds the cost of
    /// every polynomial operation (products are quadratic in the terms).
    pub max_terms: usize,
    /// Longest kernel text, in bytes: the index and validity expressions of
    /// one kernel together, in the language asked for. The text writes every
    /// shared sub-expression out each time it is used (C has no let in an
    /// expression), so it can grow exponentially with a chain's ops although
    /// the kernel itself grows linearly; it is measured before it is written
    /// (`Kernel::render_within`).
    pub max_expr_bytes: usize,
    /// Most versions of one versioned symbolic kernel
    /// (`codegen::sym_chain_versions`), the generic one included: each
    /// costs one run of the symbolic pipeline to build and adds its text.
    pub max_kernel_versions: usize,
}

impl Limits {
    /// The defaults: [`DEFAULT_MAX_RANK`], [`DEFAULT_MAX_DEPTH`],
    /// [`DEFAULT_MAX_REPLY_ELEMENTS`], [`DEFAULT_MAX_LINE_BYTES`],
    /// [`DEFAULT_MAX_OPS`], [`DEFAULT_MAX_SYMBOLS`], [`DEFAULT_MAX_DEGREE`],
    /// [`DEFAULT_MAX_TERMS`], [`DEFAULT_MAX_EXPR_BYTES`],
    /// [`DEFAULT_MAX_KERNEL_VERSIONS`].
    ///
    /// ```
    /// assert_eq!(hlayout::Limits::DEFAULT, hlayout::Limits::default());
    /// ```
    pub const DEFAULT: Limits = Limits {
        max_rank: DEFAULT_MAX_RANK,
        max_depth: DEFAULT_MAX_DEPTH,
        max_reply_elements: DEFAULT_MAX_REPLY_ELEMENTS,
        max_line_bytes: DEFAULT_MAX_LINE_BYTES,
        max_ops: DEFAULT_MAX_OPS,
        max_symbols: DEFAULT_MAX_SYMBOLS,
        max_degree: DEFAULT_MAX_DEGREE,
        max_terms: DEFAULT_MAX_TERMS,
        max_expr_bytes: DEFAULT_MAX_EXPR_BYTES,
        max_kernel_versions: DEFAULT_MAX_KERNEL_VERSIONS,
    };

    /// `Ok` when `rank <= max_rank`. O(1).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] naming `max_rank`.
    ///
    /// ```
    /// assert!(hlayout::Limits::default().check_rank(100).is_err());
    /// ```
    pub fn check_rank(&self, rank: usize) -> Result<()> {
        check("max_rank", rank as u64, self.max_rank as u64)
    }

    /// `Ok` when `depth <= max_depth`. O(1).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] naming `max_depth`.
    ///
    /// ```
    /// let l = hlayout::Limits { max_depth: 2, ..Default::default() };
    /// assert!(l.check_depth(3).is_err());
    /// ```
    pub fn check_depth(&self, depth: usize) -> Result<()> {
        check("max_depth", depth as u64, self.max_depth as u64)
    }

    /// `Ok` when a reply of `count` elements is allowed. O(1).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] naming `max_reply_elements`.
    ///
    /// ```
    /// assert!(hlayout::Limits::default().check_elements(0).is_ok());
    /// ```
    pub fn check_elements(&self, count: u64) -> Result<()> {
        check("max_reply_elements", count, self.max_reply_elements)
    }

    /// `Ok` when a line of `bytes` bytes is allowed. O(1).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] naming `max_line_bytes`.
    ///
    /// ```
    /// assert!(hlayout::Limits::default().check_line(10 << 20).is_err());
    /// ```
    pub fn check_line(&self, bytes: usize) -> Result<()> {
        check("max_line_bytes", bytes as u64, self.max_line_bytes as u64)
    }

    /// `Ok` when a chain of `ops` movement ops is allowed. O(1).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] naming `max_ops`.
    ///
    /// ```
    /// assert!(hlayout::Limits::default().check_ops(65).is_err());
    /// ```
    pub fn check_ops(&self, ops: usize) -> Result<()> {
        check("max_ops", ops as u64, self.max_ops as u64)
    }

    /// `Ok` when listing `count` offsets of a stack of `views` views, one
    /// evaluation per view and offset, is allowed: `count · views <=
    /// max_reply_elements` (a single view is [`Limits::check_elements`]). O(1).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] naming `max_reply_elements`, with the
    /// evaluations the reply would cost.
    ///
    /// ```
    /// let l = hlayout::Limits::default();
    /// assert!(l.check_evaluations(1 << 23, 2).is_ok());
    /// assert!(l.check_evaluations(1 << 23, 3).is_err());
    /// ```
    pub fn check_evaluations(&self, count: u64, views: u64) -> Result<()> {
        self.check_elements(count.saturating_mul(views.max(1)))
    }

    /// `Ok` when a kernel text of `bytes` bytes is allowed. O(1).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] naming `max_expr_bytes`.
    ///
    /// ```
    /// let l = hlayout::Limits::default();
    /// assert!(l.check_expr_bytes(1 << 20).is_ok());
    /// assert!(l.check_expr_bytes((1 << 20) + 1).is_err());
    /// ```
    pub fn check_expr_bytes(&self, bytes: u64) -> Result<()> {
        check("max_expr_bytes", bytes, self.max_expr_bytes as u64)
    }

    /// Checks a layout's leaves against `max_rank` and its nesting against
    /// `max_depth`. O(leaves).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`] naming the limit.
    ///
    /// ```
    /// let l: hlayout::Layout = "(2,(2,2)):(1,(2,4))".parse().unwrap();
    /// let tight = hlayout::Limits { max_depth: 1, ..Default::default() };
    /// assert!(hlayout::Limits::default().check_layout(&l).is_ok());
    /// assert!(tight.check_layout(&l).is_err());
    /// ```
    pub fn check_layout(&self, layout: &crate::Layout) -> Result<()> {
        self.check_rank(layout.shape_leaves().len())?;
        self.check_depth(layout.depth())
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

fn check(limit: &'static str, value: u64, max: u64) -> Result<()> {
    if value <= max {
        Ok(())
    } else {
        Err(Error::LimitExceeded { limit, value, max })
    }
}
