//! Symbolic extents: layouts whose extents, strides and offsets are
//! polynomials over named symbols (a batch size `B`, a sequence length `S`,
//! a KV cache's `start_pos`), exact for every value the assumptions allow.
//!
//! - [`Mono`], [`Poly`]: polynomials with `i64` coefficients in a canonical
//!   form (equal functions are equal values); checked arithmetic.
//! - [`Symbols`], [`Assume`]: the symbols of a request and what each may be
//!   (`min`, `max`, `divisible_by`), and the polynomial text.
//! - [`Fact`], [`Truth`], [`Symbols::prove`]: the three-valued prover.
//! - [`SymLayout`]: layouts over symbols: row-major strides, coalesce,
//!   composition (and with it reshape), complement, divides, products,
//!   right and left inverses.
//! - [`SymPredicated`]: a divide by a tile that need not divide the extent,
//!   with its validity constraints (`predicated.rs`).
//! - [`SymFlatView`], [`merge`], [`SymLayout::flatten`]: tinygrad's flat
//!   views over symbols, the merge of two of them and flattening.
//! - [`SymView`], [`SymViewStack`], [`SymMovement`]: views and tinygrad's
//!   movement ops over symbols, [`SymViewStack::bind`] to a concrete stack.
//!
//! The contract of every operation: an answer, bound to any allowed values,
//! equals the concrete operation's answer as a function; when no answer was
//! proved for every allowed binding, the operation refuses with
//! [`Error::NeedsFacts`](crate::Error::NeedsFacts), naming facts (C syntax,
//! e.g. `N % 4 == 0`) that would make one exist. Leaves that are all
//! constant take the concrete path, so the concrete algebra is untouched.
//! The model, the proof rules and worked examples: `docs/symbolic.md`.
//!
//! ```
//! use hlayout::symbolic::{Assume, SymLayout, Symbols};
//! let mut s = Symbols::new();
//! // Contiguous whatever N is: the first 4 elements are 4:1 (CuTe's
//! // dynamic path answers a layout of size 3 at N = 3, the mirror of this).
//! let a = SymLayout::parse("(4,N):(N,1)", &mut s).unwrap();
//! let b = SymLayout::parse("4:1", &mut s).unwrap();
//! assert_eq!(a.compose(&b, &s).unwrap().show(&s).to_string(), "4:1");
//! // The first 4 elements of the transpose are 4:4 only when N >= 4
//! // (at N = 3 they are 0, 4, 8, 1: no layout).
//! let t = SymLayout::parse("(4,N):(1,4)", &mut s).unwrap();
//! let err = t.compose(&b, &s).unwrap_err();
//! assert!(err.to_string().ends_with("needs N >= 4"), "{err}");
//! s.assume("N", Assume { min: 4, ..Assume::default() }).unwrap();
//! assert_eq!(t.compose(&b, &s).unwrap().show(&s).to_string(), "4:4");
//! ```

mod by_mode;
mod coalesce;
mod complement;
mod compose;
mod flat_flatten;
mod flat_merge;
mod flat_view;
mod flat_witness;
mod inverse;
mod layout;
mod mono;
mod need;
mod poly;
mod predicated;
mod products;
mod prove;
mod symbols;
mod view;

pub use flat_flatten::{ShowFlattenReport, SymFlattenReport, SymModeObstruction};
pub use flat_merge::merge;
pub use flat_view::{ShowFlatView, SymFlatView, SymInterval};
pub use layout::{ShowLayout, SymLayout};
pub use mono::{Mono, MAX_DEGREE, MAX_SYMBOL_IDS};
pub use poly::{Poly, Term};
pub use predicated::{ShowPredicated, SymPredicated};
pub use prove::{Fact, Truth};
pub use symbols::{check_name, Assume, Show, Symbols, DEFAULT_SYMBOL_MAX, MAX_NAME_BYTES};
pub(crate) use view::BoxMap;
pub use view::{
    ShowMovement, ShowStack, ShowView, SymConstraint, SymMovement, SymView, SymViewStack,
};
