//! The divides and products by mode over symbols: a tiler with one layout
//! per trailing mode (leading modes kept), gathered as the concrete
//! [`Tiler::Modes`](crate::algebra::Tiler::Modes) forms are:
//! `logical_divide_by` `(kept…, (Restᵢ, Tileᵢ)…)`, `zipped_divide_by`
//! `((kept…, Rests…), (Tiles…))`, `tiled_divide_by` `(kept…, Rests…,
//! (Tiles…))`, `flat_divide_by` `(kept…, Rests…, Tiles…)`, and
//! `logical_product_by`. Each mode's operation is that of
//! `symbolic::complement`; every need of every mode is its own refusal (the
//! first mode that refuses answers). Cost: the sum over the modes.

use super::layout::SymLayout;
use super::products::tuple;
use super::symbols::Symbols;
use crate::algebra::DivideForm;
use crate::error::{Error, Result};
use crate::tuple::{mode_spans, Profile};

type Op = fn(&SymLayout, &SymLayout, &Symbols) -> Result<SymLayout>;

impl SymLayout {
    /// The top-level modes (an integer layout is one mode).
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("M", Assume { max: 1 << 20, ..Assume::default() }).unwrap();
    /// let l = SymLayout::parse("(N,(4,M)):(1,(N,4*N))", &mut s).unwrap();
    /// let m: Vec<String> = l.modes().iter().map(|m| m.show(&s).to_string()).collect();
    /// assert_eq!(m, ["N:1", "(4,M):(N,4*N)"]);
    /// ```
    pub fn modes(&self) -> Vec<SymLayout> {
        mode_spans(self.profile().toks())
            .map(|(t, l)| {
                SymLayout::from_parts(
                    Profile::from_toks(&self.profile().toks()[t]),
                    self.shape_leaves()[l.clone()].to_vec(),
                    self.stride_leaves()[l].to_vec(),
                )
            })
            .collect()
    }

    /// Logical divide of each trailing mode by its tiler entry.
    ///
    /// # Errors
    /// [`Error::ProfileTooLong`]; those of [`SymLayout::logical_divide`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("Kt", Assume { max: 1 << 20, ..Assume::default() }).unwrap();
    /// let a = SymLayout::parse("(128*Mt,32*Kt):(32*Kt,1)", &mut s).unwrap();
    /// let t = [SymLayout::parse("128:1", &mut s).unwrap(), SymLayout::parse("32:1", &mut s).unwrap()];
    /// let d = a.logical_divide_by(&t, &s).unwrap();
    /// assert_eq!(d.show(&s).to_string(), "((Mt,128),(Kt,32)):((4096*Kt,32*Kt),(32,1))");
    /// ```
    pub fn logical_divide_by(&self, tiler: &[SymLayout], syms: &Symbols) -> Result<SymLayout> {
        gather(
            self,
            tiler,
            syms,
            SymLayout::logical_divide,
            DivideForm::Logical,
        )
    }

    /// `((kept…, Rests…), (Tiles…))`.
    ///
    /// # Errors
    /// Those of [`SymLayout::logical_divide_by`].
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("Kt", Assume { max: 1 << 20, ..Assume::default() }).unwrap();
    /// let a = SymLayout::parse("(128*Mt,32*Kt):(32*Kt,1)", &mut s).unwrap();
    /// let t = [SymLayout::parse("128:1", &mut s).unwrap(), SymLayout::parse("32:1", &mut s).unwrap()];
    /// let d = a.zipped_divide_by(&t, &s).unwrap();
    /// assert_eq!(d.show(&s).to_string(), "((Mt,Kt),(128,32)):((4096*Kt,32),(32*Kt,1))");
    /// ```
    pub fn zipped_divide_by(&self, tiler: &[SymLayout], syms: &Symbols) -> Result<SymLayout> {
        gather(
            self,
            tiler,
            syms,
            SymLayout::logical_divide,
            DivideForm::Zipped,
        )
    }

    /// `(kept…, Rests…, (Tiles…))`.
    ///
    /// # Errors
    /// Those of [`SymLayout::logical_divide_by`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let a = SymLayout::parse("(4*T,6):(6,1)", &mut s).unwrap();
    /// let t = [SymLayout::parse("2:1", &mut s).unwrap(), SymLayout::parse("3:1", &mut s).unwrap()];
    /// assert_eq!(a.tiled_divide_by(&t, &s).unwrap().show(&s).to_string(), "(2*T,2,(2,3)):(12,3,(6,1))");
    /// ```
    pub fn tiled_divide_by(&self, tiler: &[SymLayout], syms: &Symbols) -> Result<SymLayout> {
        gather(
            self,
            tiler,
            syms,
            SymLayout::logical_divide,
            DivideForm::Tiled,
        )
    }

    /// `(kept…, Rests…, Tiles…)`.
    ///
    /// # Errors
    /// Those of [`SymLayout::logical_divide_by`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let a = SymLayout::parse("(4*T,6):(6,1)", &mut s).unwrap();
    /// let t = [SymLayout::parse("2:1", &mut s).unwrap(), SymLayout::parse("3:1", &mut s).unwrap()];
    /// assert_eq!(a.flat_divide_by(&t, &s).unwrap().show(&s).to_string(), "(2*T,2,2,3):(12,3,6,1)");
    /// ```
    pub fn flat_divide_by(&self, tiler: &[SymLayout], syms: &Symbols) -> Result<SymLayout> {
        gather(
            self,
            tiler,
            syms,
            SymLayout::logical_divide,
            DivideForm::Flat,
        )
    }

    /// Logical product of each trailing mode with its tiler entry.
    ///
    /// # Errors
    /// [`Error::ProfileTooLong`]; those of [`SymLayout::logical_product`].
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let a = SymLayout::parse("(2,4*T):(4*T,1)", &mut s).unwrap();
    /// let p = a.logical_product_by(&[SymLayout::parse("2:1", &mut s).unwrap()], &s).unwrap();
    /// assert_eq!(p.show(&s).to_string(), "(2,(2,4*T)):(4*T,(4*T,1))");
    /// ```
    pub fn logical_product_by(&self, tiler: &[SymLayout], syms: &Symbols) -> Result<SymLayout> {
        gather(
            self,
            tiler,
            syms,
            SymLayout::logical_product,
            DivideForm::Logical,
        )
    }
}

fn gather(
    a: &SymLayout,
    tiler: &[SymLayout],
    syms: &Symbols,
    op: Op,
    how: DivideForm,
) -> Result<SymLayout> {
    let (kept, split) = per_mode(a, tiler, |m, t| op(m, t, syms))?;
    if how == DivideForm::Logical {
        return Ok(tuple(&[kept, split].concat()));
    }
    let mut firsts = kept;
    let mut seconds = Vec::with_capacity(split.len());
    for s in &split {
        let mut halves = s.modes().into_iter();
        if let (Some(x), Some(y)) = (halves.next(), halves.next()) {
            firsts.push(x);
            seconds.push(y);
        }
    }
    Ok(gathered(firsts, seconds, how))
}

/// `a`'s leading modes that `tiler` does not reach, and `f` of each other
/// mode with its tiler mode. O(modes) calls of `f`.
///
/// # Errors
/// [`Error::ProfileTooLong`] when `tiler` has more modes than `a`; `f`'s.
pub(crate) fn per_mode<T>(
    a: &SymLayout,
    tiler: &[SymLayout],
    mut f: impl FnMut(&SymLayout, &SymLayout) -> Result<T>,
) -> Result<(Vec<SymLayout>, Vec<T>)> {
    let mut modes = a.modes();
    if tiler.len() > modes.len() {
        return Err(Error::ProfileTooLong {
            profile_rank: tiler.len(),
            layout_rank: modes.len(),
        });
    }
    let skip = modes.len() - tiler.len();
    let split = modes[skip..]
        .iter()
        .zip(tiler)
        .map(|(m, t)| f(m, t))
        .collect::<Result<Vec<_>>>()?;
    modes.truncate(skip);
    Ok((modes, split))
}

/// The kept modes and first halves `firsts` with the second halves
/// `seconds`, arranged as `form` says (a logical form is read as flat).
pub(crate) fn gathered(
    mut firsts: Vec<SymLayout>,
    seconds: Vec<SymLayout>,
    form: DivideForm,
) -> SymLayout {
    match form {
        DivideForm::Zipped => tuple(&[tuple(&firsts), tuple(&seconds)]),
        DivideForm::Tiled => {
            firsts.push(tuple(&seconds));
            tuple(&firsts)
        }
        _ => tuple(&[firsts, seconds].concat()),
    }
}
