//! CuTe interop: CuTe's colexicographic text in, hlayout's row-major out.
//!
//! CuTe orders coordinates colexicographically (first mode fastest); hlayout
//! row-major (last mode fastest). Reversing every tuple recursively (`rev`)
//! maps one onto the other exactly: CuTe's `L(i)` equals hlayout's `rev(L)(i)`
//! for every `i`. On the flat representation `rev` reverses the leaves and
//! the bracket string, swapping `(` and `)`: O(leaves), no allocation for
//! small layouts.
//!
//! ```
//! use hlayout::Layout;
//! let l = Layout::from_cute("((4,8),(2,16)):((64,1),(32,2))").unwrap();
//! assert_eq!(l.to_string(), "((16,2),(8,4)):((2,32),(1,64))");
//! assert_eq!(l.to_cute(), "((4,8),(2,16)):((64,1),(32,2))");
//! ```

use smallvec::SmallVec;

use super::Layout;
use crate::error::Result;
use crate::tuple::{Profile, Tok};

impl Layout {
    /// Parses CuTe's colexicographic text (`SHAPE:STRIDE`) into the same function, row-major.
    ///
    /// # Errors
    /// Those of parsing a layout.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l = Layout::from_cute("(2,3):(1,2)").unwrap(); // column-major 2x3
    /// assert_eq!(l.to_string(), "(3,2):(2,1)");
    /// ```
    pub fn from_cute(text: &str) -> Result<Layout> {
        Ok(text.parse::<Layout>()?.rev())
    }

    /// CuTe's colexicographic text of the same function.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(3,2):(2,1)".parse().unwrap();
    /// assert_eq!(l.to_cute(), "(2,3):(1,2)");
    /// ```
    pub fn to_cute(&self) -> String {
        self.rev().to_string()
    }

    /// Every tuple reversed recursively (an involution).
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(2,(3,4)):(12,(4,1))".parse().unwrap();
    /// assert_eq!(l.rev().to_string(), "((4,3),2):((1,4),12)");
    /// ```
    pub fn rev(&self) -> Layout {
        let toks: SmallVec<[Tok; 24]> = self
            .profile()
            .toks()
            .iter()
            .rev()
            .map(|t| match t {
                Tok::Open => Tok::Close,
                Tok::Close => Tok::Open,
                Tok::Leaf => Tok::Leaf,
            })
            .collect();
        let rev = |v: &[i64]| v.iter().rev().copied().collect();
        Layout::from_trusted(
            Profile::from_toks(&toks),
            rev(self.shape_leaves()),
            rev(self.stride_leaves()),
        )
    }
}
