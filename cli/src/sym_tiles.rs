//! The batch ops answered over symbols by the remaining algebra:
//! `right_inverse` and `left_inverse` of a layout, `blocked_product` and
//! `raked_product` of two (`docs/symbolic.md`). The dispatch and the reply
//! are those of [`crate::symbolic`]; this file maps an op name to the
//! library call.
//!
//! ```
//! use hlayout_cli::batch::respond;
//! let out = respond(r#"{"op":"right_inverse","layout":"(N,4):(1,N)","assume":{"N":{"min":2,"max":4096}}}"#);
//! assert_eq!(out, r#"{"layout":"(4,N):(1,4)"}"#);
//! let out = respond(r#"{"op":"blocked_product","a":"(2,N):(N,1)","b":"(3,2):(2,1)","assume":{"N":{"min":2,"max":4096}}}"#);
//! assert_eq!(out, r#"{"layout":"((3,2),(2,N)):((4*N,N),(2*N,1))"}"#);
//! ```

use hlayout::symbolic::{SymLayout, Symbols};

/// The ops of one layout answered here.
pub(crate) const UNARY: [&str; 2] = ["right_inverse", "left_inverse"];

/// The ops of two layouts answered here.
pub(crate) const BINARY: [&str; 2] = ["blocked_product", "raked_product"];

/// `op` (one of [`UNARY`]) of `l`.
pub(crate) fn unary(op: &str, l: &SymLayout, syms: &Symbols) -> hlayout::Result<SymLayout> {
    if op == "left_inverse" {
        l.left_inverse(syms)
    } else {
        l.right_inverse(syms)
    }
}

/// `op` (one of [`BINARY`]) of `a` and `b`.
pub(crate) fn binary(
    op: &str,
    a: &SymLayout,
    b: &SymLayout,
    syms: &Symbols,
) -> hlayout::Result<SymLayout> {
    if op == "raked_product" {
        a.raked_product(b, syms)
    } else {
        a.blocked_product(b, syms)
    }
}
