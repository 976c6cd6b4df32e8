//! Divides: `logical_divide`, `zipped_divide`, `tiled_divide`, `flat_divide`.
//!
//! CuTe's divides, mirrored into row-major order. For a layout tiler `B`,
//! `logical_divide(A, B) = A ∘ (complement(B, size(A)), B)`: the result has two
//! modes `(Rest, Tile)`, the tile (B's elements) fastest. For a tiler with one
//! layout per mode ([`Tiler::Modes`]), the division applies mode by mode to the
//! trailing modes (as NumPy broadcasting aligns shapes), leading modes kept;
//! `zipped_divide` gathers the pieces into `((kept…, Rests…), (Tiles…))`,
//! `tiled_divide` into `(kept…, Rests…, (Tiles…))` and `flat_divide` into
//! `(kept…, Rests…, Tiles…)`. The cost is that of the compositions.

use crate::algebra::coalesce::LayoutBuilder;
use crate::algebra::Tiler;
use crate::error::Result;
use crate::layout::Layout;

impl Layout {
    /// `(Rest, Tile) = A ∘ (complement(B, size(A)), B)`.
    ///
    /// # Errors
    /// Those of [`Layout::complement`] and [`Layout::compose`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "(4,6):(6,1)".parse().unwrap();
    /// let d = a.logical_divide(&"3:1".parse().unwrap()).unwrap();
    /// assert_eq!(d.to_string(), "(8,3):(3,1)");
    /// ```
    pub fn logical_divide(&self, b: &Layout) -> Result<Layout> {
        let c = b.complement(self.size())?;
        self.compose(&pair(&c, b)?)
    }

    /// [`Layout::logical_divide`] by mode: trailing modes divided by the
    /// tiler's layouts, leading modes kept.
    ///
    /// # Errors
    /// [`crate::Error::ProfileTooLong`] when the tiler outranks A; those of
    /// [`Layout::logical_divide`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "(4,6):(6,1)".parse().unwrap();
    /// let d = a.logical_divide_by(&["2:1".parse().unwrap()]).unwrap();
    /// assert_eq!(d.to_string(), "(4,(3,2)):(6,(2,1))");
    /// ```
    pub fn logical_divide_by(&self, tiler: &[Layout]) -> Result<Layout> {
        by_mode(self, tiler, Layout::logical_divide)
    }

    /// `((kept…, Rests…), (Tiles…))`; for a single layout, the logical divide.
    ///
    /// # Errors
    /// Those of [`Layout::logical_divide_by`].
    ///
    /// ```
    /// use hlayout::{algebra::Tiler, Layout};
    /// let a: Layout = "(4,6):(6,1)".parse().unwrap();
    /// let t = Tiler::Modes(vec!["2:1".parse().unwrap(), "3:1".parse().unwrap()]);
    /// assert_eq!(a.zipped_divide(&t).unwrap().to_string(), "((2,2),(2,3)):((12,3),(6,1))");
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<Layout> {
        unzip(self, tiler, Layout::logical_divide, Gather::Zipped)
    }

    /// `(kept…, Rests…, (Tiles…))`; for a single layout `(Rest's modes…, Tile)`.
    ///
    /// # Errors
    /// Those of [`Layout::logical_divide_by`].
    ///
    /// ```
    /// use hlayout::{algebra::Tiler, Layout};
    /// let a: Layout = "(4,6):(6,1)".parse().unwrap();
    /// let t = Tiler::Modes(vec!["2:1".parse().unwrap(), "3:1".parse().unwrap()]);
    /// assert_eq!(a.tiled_divide(&t).unwrap().to_string(), "(2,2,(2,3)):(12,3,(6,1))");
    /// ```
    pub fn tiled_divide(&self, tiler: &Tiler) -> Result<Layout> {
        unzip(self, tiler, Layout::logical_divide, Gather::Tiled)
    }

    /// `(kept…, Rests…, Tiles…)`; for a single layout `(Rest's modes…, Tile's modes…)`.
    ///
    /// # Errors
    /// Those of [`Layout::logical_divide_by`].
    ///
    /// ```
    /// use hlayout::{algebra::Tiler, Layout};
    /// let a: Layout = "(4,6):(6,1)".parse().unwrap();
    /// let t = Tiler::Modes(vec!["2:1".parse().unwrap(), "3:1".parse().unwrap()]);
    /// assert_eq!(a.flat_divide(&t).unwrap().to_string(), "(2,2,2,3):(12,3,6,1)");
    /// ```
    pub fn flat_divide(&self, tiler: &Tiler) -> Result<Layout> {
        unzip(self, tiler, Layout::logical_divide, Gather::Flat)
    }
}

/// The rank-2 layout `(x, y)`.
pub(crate) fn pair(x: &Layout, y: &Layout) -> Result<Layout> {
    let mut out = LayoutBuilder::default();
    out.b.open();
    out.push(x);
    out.push(y);
    out.b.close();
    out.finish()
}

/// The top-level modes, an integer layout counting as one mode.
pub(crate) fn modes_of(l: &Layout) -> Vec<Layout> {
    l.modes().collect()
}

/// `op` on the trailing modes, leading modes kept.
pub(crate) fn by_mode(
    a: &Layout,
    tiler: &[Layout],
    op: fn(&Layout, &Layout) -> Result<Layout>,
) -> Result<Layout> {
    let (split, kept) = split_by_mode(a, tiler, op)?;
    let mut out = LayoutBuilder::default();
    out.b.open();
    kept.iter().chain(&split).for_each(|m| out.push(m));
    out.b.close();
    out.finish()
}

/// The results of `op` on the trailing modes, and the kept leading modes.
fn split_by_mode(
    a: &Layout,
    tiler: &[Layout],
    op: fn(&Layout, &Layout) -> Result<Layout>,
) -> Result<(Vec<Layout>, Vec<Layout>)> {
    let modes = modes_of(a);
    if tiler.len() > modes.len() {
        return Err(crate::error::Error::ProfileTooLong {
            profile_rank: tiler.len(),
            layout_rank: modes.len(),
        });
    }
    let skip = modes.len() - tiler.len();
    let split = modes[skip..]
        .iter()
        .zip(tiler)
        .map(|(m, t)| op(m, t))
        .collect::<Result<Vec<_>>>()?;
    Ok((split, modes[..skip].to_vec()))
}

/// How [`unzip`] arranges the pieces.
#[derive(Clone, Copy)]
pub(crate) enum Gather {
    Zipped,
    Tiled,
    Flat,
}

/// Applies the rank-2 splitter `op` and gathers first and second pieces.
pub(crate) fn unzip(
    a: &Layout,
    tiler: &Tiler,
    op: fn(&Layout, &Layout) -> Result<Layout>,
    how: Gather,
) -> Result<Layout> {
    let (firsts, seconds) = match tiler {
        Tiler::Layout(b) => {
            let r = op(a, b)?;
            if matches!(how, Gather::Zipped) {
                return Ok(r);
            }
            let mut halves = r.modes();
            let (Some(x), Some(y)) = (halves.next(), halves.next()) else {
                unreachable!("splitters return rank 2")
            };
            let ys = if matches!(how, Gather::Flat) {
                modes_of(&y)
            } else {
                vec![y]
            };
            (modes_of(&x), ys)
        }
        Tiler::Modes(ts) => {
            let (split, kept) = split_by_mode(a, ts, op)?;
            let mut firsts = kept;
            let mut seconds = Vec::with_capacity(split.len());
            for s in &split {
                let mut halves = s.modes();
                if let (Some(x), Some(y)) = (halves.next(), halves.next()) {
                    firsts.push(x);
                    seconds.push(y);
                }
            }
            (firsts, seconds)
        }
    };
    let mut out = LayoutBuilder::default();
    out.b.open();
    match how {
        Gather::Zipped => {
            group(&mut out, &firsts);
            group(&mut out, &seconds);
        }
        Gather::Tiled => {
            firsts.iter().for_each(|m| out.push(m));
            if seconds.len() == 1 && matches!(tiler, Tiler::Layout(_)) {
                out.push(&seconds[0]);
            } else {
                group(&mut out, &seconds);
            }
        }
        Gather::Flat => firsts.iter().chain(&seconds).for_each(|m| out.push(m)),
    }
    out.b.close();
    out.finish()
}

fn group(out: &mut LayoutBuilder, modes: &[Layout]) {
    out.b.open();
    modes.iter().for_each(|m| out.push(m));
    out.b.close();
}
