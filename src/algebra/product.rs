//! Products: `logical_product`, `zipped_product`, `tiled_product`,
//! `blocked_product`, `raked_product`.
//!
//! CuTe's products, mirrored into row-major order. For a layout `B`,
//! `logical_product(A, B) = (complement(A, size(A)·cosize(B)) ∘ B, A)`: A is
//! the fast mode (one block), the composed complement lays out copies of A
//! following B. By mode ([`Tiler::Modes`]) it applies to the trailing modes;
//! `zipped_product` and `tiled_product` gather the pieces like the divides.
//! `blocked_product` and `raked_product` first pad A and B with leading `1:0`
//! modes to a common rank R, take the logical product `(P, A')`, and return the
//! R modes `(Pᵢ, A'ᵢ)` (blocked: each block contiguous) or `(A'ᵢ, Pᵢ)` (raked:
//! the blocks interleaved). The cost is that of the complement and composition.

use crate::algebra::coalesce::LayoutBuilder;
use crate::algebra::divide::{by_mode, pair, unzip, Gather};
use crate::algebra::Tiler;
use crate::error::{self, Result};
use crate::layout::Layout;
use crate::tuple::Tok;

impl Layout {
    /// `(complement(A, size(A)·cosize(B)) ∘ B, A)`.
    ///
    /// # Errors
    /// Those of [`Layout::complement`] and [`Layout::compose`]; [`crate::Error::Overflow`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "5:1".parse().unwrap();
    /// assert_eq!(a.logical_product(&"3:2".parse().unwrap()).unwrap().to_string(), "(3,5):(10,1)");
    /// ```
    pub fn logical_product(&self, b: &Layout) -> Result<Layout> {
        let target = error::mul(self.size(), b.cosize(), "cotarget of a product")?;
        let placed = self.complement(target)?.compose(b)?;
        pair(&placed, self)
    }

    /// [`Layout::logical_product`] by mode on the trailing modes.
    ///
    /// # Errors
    /// [`crate::Error::ProfileTooLong`]; those of [`Layout::logical_product`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "(2,3):(3,1)".parse().unwrap();
    /// let p = a.logical_product_by(&["2:1".parse().unwrap()]).unwrap();
    /// assert_eq!(p.to_string(), "(2,(2,3)):(3,(3,1))"); // per mode, in the mode's own offsets
    /// ```
    pub fn logical_product_by(&self, tiler: &[Layout]) -> Result<Layout> {
        by_mode(self, tiler, Layout::logical_product)
    }

    /// `((kept…, placements…), (blocks…))`; for a single layout, the logical product.
    ///
    /// # Errors
    /// Those of [`Layout::logical_product_by`].
    ///
    /// ```
    /// use hlayout::{algebra::Tiler, Layout};
    /// let a: Layout = "(2,3):(3,1)".parse().unwrap();
    /// let t = Tiler::Modes(vec!["2:1".parse().unwrap(), "2:1".parse().unwrap()]);
    /// assert_eq!(a.zipped_product(&t).unwrap().to_string(), "((2,2),(2,3)):((1,3),(3,1))");
    /// ```
    pub fn zipped_product(&self, tiler: &Tiler) -> Result<Layout> {
        unzip(self, tiler, Layout::logical_product, Gather::Zipped)
    }

    /// `(kept…, placements…, (blocks…))`.
    ///
    /// # Errors
    /// Those of [`Layout::logical_product_by`].
    ///
    /// ```
    /// use hlayout::{algebra::Tiler, Layout};
    /// let a: Layout = "(2,3):(3,1)".parse().unwrap();
    /// let t = Tiler::Modes(vec!["2:1".parse().unwrap(), "2:1".parse().unwrap()]);
    /// assert_eq!(a.tiled_product(&t).unwrap().to_string(), "(2,2,(2,3)):(1,3,(3,1))");
    /// ```
    pub fn tiled_product(&self, tiler: &Tiler) -> Result<Layout> {
        unzip(self, tiler, Layout::logical_product, Gather::Tiled)
    }

    /// Blocked product: mode i is `(placementᵢ, Aᵢ)`, each copy of A contiguous.
    ///
    /// # Errors
    /// Those of [`Layout::logical_product`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "(2,2):(2,1)".parse().unwrap();
    /// let p = a.blocked_product(&"(2,3):(3,1)".parse().unwrap()).unwrap();
    /// assert_eq!(p.to_string(), "((2,2),(3,2)):((12,2),(4,1))");
    /// ```
    pub fn blocked_product(&self, b: &Layout) -> Result<Layout> {
        interleave(self, b, false)
    }

    /// Raked product: mode i is `(Aᵢ, placementᵢ)`, the copies of A interleaved.
    ///
    /// # Errors
    /// Those of [`Layout::logical_product`].
    ///
    /// ```
    /// use hlayout::Layout;
    /// let a: Layout = "(2,2):(2,1)".parse().unwrap();
    /// let p = a.raked_product(&"(2,3):(3,1)".parse().unwrap()).unwrap();
    /// assert_eq!(p.to_string(), "((2,2),(2,3)):((2,12),(1,4))");
    /// ```
    pub fn raked_product(&self, b: &Layout) -> Result<Layout> {
        interleave(self, b, true)
    }
}

/// Pads `l` with leading `1:0` modes to rank `r` and lists its modes (an
/// integer layout is one mode).
fn padded_modes(l: &Layout, r: usize) -> Vec<Layout> {
    let unit = Layout::from_trusted(
        crate::tuple::Profile::leaf(),
        smallvec::smallvec![1],
        smallvec::smallvec![0],
    );
    let modes: Vec<Layout> = if l.profile().toks() == [Tok::Leaf] {
        vec![l.clone()]
    } else {
        l.modes().collect()
    };
    std::iter::repeat_n(unit, r.saturating_sub(modes.len()))
        .chain(modes)
        .collect()
}

/// Rebuilds a tuple layout from its modes.
fn tuple_of(modes: &[Layout]) -> Result<Layout> {
    let mut out = LayoutBuilder::default();
    out.b.open();
    modes.iter().for_each(|m| out.push(m));
    out.b.close();
    out.finish()
}

fn interleave(a: &Layout, b: &Layout, raked: bool) -> Result<Layout> {
    let r = a.rank().max(b.rank());
    let (am, bm) = (padded_modes(a, r), padded_modes(b, r));
    let (a2, b2) = (tuple_of(&am)?, tuple_of(&bm)?);
    let target = error::mul(a2.size(), b2.cosize(), "cotarget of a product")?;
    let placed = a2.complement(target)?.compose(&b2)?;
    let mut out = LayoutBuilder::default();
    out.b.open();
    for (p, x) in placed.modes().zip(&am) {
        let (first, second) = if raked { (x, &p) } else { (&p, x) };
        out.push(&pair(first, second)?);
    }
    out.b.close();
    out.finish()
}
