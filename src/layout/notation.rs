//! The layout text form `SHAPE:STRIDE` (grammar in [`crate::tuple`]'s notation):
//! two congruent tuples separated by a colon.
//!
//! ```
//! use hlayout::Layout;
//! let l: Layout = "(2, (2,2)) : (2,(1,4))".parse().unwrap();
//! assert_eq!(l.to_string(), "(2,(2,2)):(2,(1,4))");
//! let err = "(2,(2,2):(2,(1,4))".parse::<Layout>().unwrap_err();
//! assert_eq!(err.to_string(), "parse error at byte 8: expected ',' or ')', found ':'");
//! ```

use super::Layout;
use crate::error::Result;
use crate::tuple::notation::Parser;

/// Parses `SHAPE:STRIDE`. O(length of `text`).
pub(crate) fn parse_layout(text: &str) -> Result<Layout> {
    let mut p = Parser::new(text);
    let shape = p.tuple()?;
    p.expect(':', "':' between shape and stride")?;
    let stride = p.tuple()?;
    p.end()?;
    Layout::new(shape, stride)
}
