//! Flattening a hierarchical layout to a plain strided view, or saying why not.
//!
//! A layout is *ordinary* when every top-level mode coalesces to a single leaf
//! `n:d`: then it equals the flat view whose shape is the top-level shape and
//! whose strides are those `d`. Otherwise each offending mode needs div/mod
//! arithmetic on its index, and [`FlattenReport`] names every such mode, its
//! coalesced form and the index expressions it needs. O(leaves).
//!
//! ```
//! use hlayout::Layout;
//! let ok: Layout = "(2,(3,4)):(12,(4,1))".parse().unwrap();
//! assert_eq!(ok.flatten().unwrap().strides(), &[12, 1]);
//! let bad: Layout = "((10,10)):((1,10))".parse().unwrap();
//! assert_eq!(
//!     bad.flatten().unwrap_err().to_string(),
//!     "mode 0 (10,10):(1,10) is not one stride: it needs i//10 and i%10"
//! );
//! ```

use std::fmt;

use super::{FlatView, Layout};

/// Why a layout is not one flat view: the modes that keep several leaves.
///
/// ```
/// let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
/// let report = l.flatten().unwrap_err();
/// assert_eq!(report.modes().len(), 1);
/// assert_eq!(report.modes()[0].mode, 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlattenReport {
    modes: Vec<ModeObstruction>,
}

/// One top-level mode that does not coalesce to a single stride.
///
/// ```
/// let l: hlayout::Layout = "((10,10)):((1,10))".parse().unwrap();
/// let report = l.flatten().unwrap_err();
/// let m = &report.modes()[0];
/// assert_eq!(m.coalesced.to_string(), "(10,10):(1,10)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeObstruction {
    /// Top-level mode position.
    pub mode: usize,
    /// The mode as given.
    pub layout: Layout,
    /// Its coalesced form, with two or more leaves.
    pub coalesced: Layout,
}

impl FlattenReport {
    /// The offending modes, in order.
    ///
    /// ```
    /// let l: hlayout::Layout = "((2,2),(2,2)):((1,4),(2,8))".parse().unwrap();
    /// assert_eq!(l.flatten().unwrap_err().modes().len(), 2);
    /// ```
    pub fn modes(&self) -> &[ModeObstruction] {
        &self.modes
    }
}

impl ModeObstruction {
    /// The index expressions the mode needs, e.g. `["i//10", "i%10"]`.
    ///
    /// ```
    /// let l: hlayout::Layout = "((2,3,4)):((1,2,6))".parse().unwrap();
    /// let report = l.flatten().unwrap_err();
    /// let m = &report.modes()[0];
    /// assert_eq!(m.index_expressions(), ["i//12", "(i//4)%3", "i%4"]);
    /// ```
    pub fn index_expressions(&self) -> Vec<String> {
        let shape = self.coalesced.shape_leaves();
        let mut out = Vec::with_capacity(shape.len());
        let mut below: i64 = shape.iter().product();
        for (j, &n) in shape.iter().enumerate() {
            below /= n;
            out.push(match (j, below) {
                (0, 1) => "i".to_string(),
                (0, p) => format!("i//{p}"),
                (_, 1) => format!("i%{n}"),
                (_, p) => format!("(i//{p})%{n}"),
            });
        }
        out
    }
}

impl ModeObstruction {
    /// `"{noun} {k} {layout} is not one stride: it needs …"`: the mode's
    /// sentence, naming it as a layout mode or a view dimension.
    pub(crate) fn describe(&self, noun: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let exprs = self.index_expressions();
        let (last, init) = exprs
            .split_last()
            .map_or(("", &[][..]), |(l, i)| (l.as_str(), i));
        write!(
            f,
            "{noun} {} {} is not one stride: it needs {} and {last}",
            self.mode,
            self.layout,
            init.join(", ")
        )
    }
}

impl fmt::Display for ModeObstruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.describe("mode", f)
    }
}

impl fmt::Display for FlattenReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, m) in self.modes.iter().enumerate() {
            if k > 0 {
                f.write_str("; ")?;
            }
            m.fmt(f)?;
        }
        Ok(())
    }
}

impl std::error::Error for FlattenReport {}

impl Layout {
    /// The plain strided view equal to this layout, or a report of the modes
    /// that need div/mod. The view's shape is the top-level shape.
    ///
    /// # Errors
    /// [`FlattenReport`] listing every top-level mode that keeps two or more
    /// leaves after coalescing.
    ///
    /// ```
    /// let l: hlayout::Layout = "((2,5),3):((15,3),1)".parse().unwrap();
    /// let v = l.flatten().unwrap();
    /// assert_eq!((v.shape(), v.strides()), (&[10, 3][..], &[3, 1][..]));
    /// ```
    pub fn flatten(&self) -> Result<FlatView, FlattenReport> {
        let mut shape = Vec::with_capacity(self.rank());
        let mut strides = Vec::with_capacity(self.rank());
        let mut modes = Vec::new();
        for (k, mode) in self.modes().enumerate() {
            let c = mode.coalesce();
            match (c.shape_leaves(), c.stride_leaves()) {
                (&[n], &[d]) => {
                    shape.push(n);
                    strides.push(d);
                }
                _ => modes.push(ModeObstruction {
                    mode: k,
                    layout: mode,
                    coalesced: c,
                }),
            }
        }
        if !modes.is_empty() {
            return Err(FlattenReport { modes });
        }
        Ok(FlatView::from_trusted(shape, strides, 0, None))
    }
}
