//! The remaining divides and products over symbols, for a single-layout
//! tiler: `zipped_divide` (the logical divide), `tiled_divide`
//! `(Rest's modes…, Tile)`, `flat_divide` `(Rest's modes…, Tile's modes…)`,
//! `zipped_product` (the logical product), `tiled_product`, and the
//! `blocked_product` and `raked_product`, each built as the concrete one
//! (`src/algebra/divide.rs`, `product.rs`) from the symbolic logical divide,
//! complement and composition, so their needs are those operations'. The
//! blocked and raked products pad A and B with leading `1:0` modes to a
//! common rank R, take `P = complement(A', size(A')·cosize(B')) ∘ B'` (B's
//! strides proved `≥ 0`) and return the R modes `(Pᵢ, A'ᵢ)` (blocked) or
//! `(A'ᵢ, Pᵢ)` (raked). Cost: that of the complement and composition.

use super::complement::pair;
use super::layout::SymLayout;
use super::need::Needs;
use super::poly::Poly;
use super::prove::Fact;
use super::symbols::Symbols;
use crate::error::Result;
use crate::tuple::{Profile, Tok};

impl SymLayout {
    /// The zipped divide by one layout: the logical divide `(Rest, Tile)`.
    ///
    /// # Errors
    /// Those of [`SymLayout::logical_divide`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let a = SymLayout::parse("(4*T,6):(6,1)", &mut s).unwrap();
    /// let d = a.zipped_divide(&SymLayout::parse("6:1", &mut s).unwrap(), &s).unwrap();
    /// assert_eq!(d.show(&s).to_string(), "(4*T,6):(6,1)");
    /// ```
    pub fn zipped_divide(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        self.logical_divide(b, syms)
    }

    /// The tiled divide by one layout: `(Rest's modes…, Tile)`.
    ///
    /// # Errors
    /// Those of [`SymLayout::logical_divide`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let a = SymLayout::parse("8*T:1", &mut s).unwrap();
    /// let d = a.tiled_divide(&SymLayout::parse("(2,2):(1,4)", &mut s).unwrap(), &s).unwrap();
    /// assert_eq!(d.show(&s).to_string(), "(T,2,(2,2)):(8,2,(1,4))");
    /// ```
    pub fn tiled_divide(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        let (rest, tile) = halves(&self.logical_divide(b, syms)?);
        let mut modes = rest.modes();
        modes.push(tile);
        Ok(tuple(&modes))
    }

    /// The flat divide by one layout: `(Rest's modes…, Tile's modes…)`.
    ///
    /// # Errors
    /// Those of [`SymLayout::logical_divide`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let a = SymLayout::parse("8*T:1", &mut s).unwrap();
    /// let d = a.flat_divide(&SymLayout::parse("(2,2):(1,4)", &mut s).unwrap(), &s).unwrap();
    /// assert_eq!(d.show(&s).to_string(), "(T,2,2,2):(8,2,1,4)");
    /// ```
    pub fn flat_divide(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        let (rest, tile) = halves(&self.logical_divide(b, syms)?);
        let mut modes = rest.modes();
        modes.extend(tile.modes());
        Ok(tuple(&modes))
    }

    /// The zipped product by one layout: the logical product.
    ///
    /// # Errors
    /// Those of [`SymLayout::logical_product`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, max: 1 << 20, ..Assume::default() }).unwrap();
    /// let a = SymLayout::parse("N:1", &mut s).unwrap();
    /// let p = a.zipped_product(&SymLayout::parse("3:1", &mut s).unwrap(), &s).unwrap();
    /// assert_eq!(p.show(&s).to_string(), "(3,N):(N,1)");
    /// ```
    pub fn zipped_product(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        self.logical_product(b, syms)
    }

    /// The tiled product by one layout: `(placement's modes…, A)`.
    ///
    /// # Errors
    /// Those of [`SymLayout::logical_product`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, max: 1 << 20, ..Assume::default() }).unwrap();
    /// let a = SymLayout::parse("N:1", &mut s).unwrap();
    /// let p = a.tiled_product(&SymLayout::parse("(2,3):(3,1)", &mut s).unwrap(), &s).unwrap();
    /// assert_eq!(p.show(&s).to_string(), "(2,3,N):(3*N,N,1)");
    /// ```
    pub fn tiled_product(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        let (placed, block) = halves(&self.logical_product(b, syms)?);
        let mut modes = placed.modes();
        modes.push(block);
        Ok(tuple(&modes))
    }

    /// The blocked product: mode i is `(placementᵢ, Aᵢ)`, each copy of A
    /// contiguous (module docs).
    ///
    /// # Errors
    /// [`Error::NeedsFacts`](crate::Error::NeedsFacts): B's strides not
    /// proved `≥ 0`; those of [`SymLayout::complement`] and
    /// [`SymLayout::compose`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, max: 1 << 20, ..Assume::default() }).unwrap();
    /// let a = SymLayout::parse("(2,N):(N,1)", &mut s).unwrap();
    /// let p = a.blocked_product(&SymLayout::parse("(3,2):(2,1)", &mut s).unwrap(), &s).unwrap();
    /// assert_eq!(p.show(&s).to_string(), "((3,2),(2,N)):((4*N,N),(2*N,1))");
    /// ```
    pub fn blocked_product(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        interleave(self, b, syms, false)
    }

    /// The raked product: mode i is `(Aᵢ, placementᵢ)`, the copies of A
    /// interleaved (module docs).
    ///
    /// # Errors
    /// Those of [`SymLayout::blocked_product`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, max: 1 << 20, ..Assume::default() }).unwrap();
    /// let a = SymLayout::parse("(2,N):(N,1)", &mut s).unwrap();
    /// let p = a.raked_product(&SymLayout::parse("(3,2):(2,1)", &mut s).unwrap(), &s).unwrap();
    /// assert_eq!(p.show(&s).to_string(), "((2,3),(N,2)):((N,4*N),(1,2*N))");
    /// ```
    pub fn raked_product(&self, b: &SymLayout, syms: &Symbols) -> Result<SymLayout> {
        interleave(self, b, syms, true)
    }
}

/// The two modes of a rank-2 result.
fn halves(l: &SymLayout) -> (SymLayout, SymLayout) {
    let mut m = l.modes().into_iter();
    match (m.next(), m.next()) {
        (Some(x), Some(y)) => (x, y),
        _ => unreachable!("divides and products answer two modes"),
    }
}

/// The tuple of `modes` (always a tuple, even of one mode). O(leaves).
pub(crate) fn tuple(modes: &[SymLayout]) -> SymLayout {
    let mut toks = vec![Tok::Open];
    let (mut shape, mut stride) = (Vec::new(), Vec::new());
    for m in modes {
        toks.extend_from_slice(m.profile().toks());
        shape.extend_from_slice(m.shape_leaves());
        stride.extend_from_slice(m.stride_leaves());
    }
    toks.push(Tok::Close);
    SymLayout::from_parts(Profile::from_toks(&toks), shape, stride)
}

/// `l`'s modes padded with leading `1:0` modes to `r`.
fn padded(l: &SymLayout, r: usize) -> Vec<SymLayout> {
    let modes = l.modes();
    let unit = SymLayout::flat(vec![Poly::constant(1)], vec![Poly::zero()]);
    std::iter::repeat_n(unit, r.saturating_sub(modes.len()))
        .chain(modes)
        .collect()
}

fn interleave(a: &SymLayout, b: &SymLayout, syms: &Symbols, raked: bool) -> Result<SymLayout> {
    let r = a.modes().len().max(b.modes().len());
    let (am, bm) = (padded(a, r), padded(b, r));
    let (a2, b2) = (tuple(&am), tuple(&bm));
    let op = if raked {
        "raked_product"
    } else {
        "blocked_product"
    };
    let mut needs = Needs::new(syms, op);
    let mut cosize = Poly::constant(1);
    for (s, d) in b2.shape_leaves().iter().zip(b2.stride_leaves()) {
        needs.require(Fact::ge(d, &Poly::zero())?)?;
        cosize = cosize.add(&s.sub(&Poly::constant(1))?.mul(d)?)?;
    }
    needs.finish("B's strides >= 0")?;
    let target = a2.size()?.mul(&cosize)?;
    let placed = a2.complement(&target, syms)?.compose(&b2, syms)?;
    let modes: Vec<SymLayout> = placed
        .modes()
        .iter()
        .zip(&am)
        .map(|(p, x)| if raked { pair(x, p) } else { pair(p, x) })
        .collect();
    let out = tuple(&modes);
    out.validate_parts(syms, false)?;
    Ok(out)
}
