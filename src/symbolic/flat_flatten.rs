//! [`SymLayout::flatten`]: a layout over symbols as one flat view, or the
//! report of the modes that keep several strides, decided for every allowed
//! binding at once.
//!
//! A top-level mode is one stride at a binding iff, with its extent-1 leaves
//! dropped, every adjacent pair `n₀:d₀, n₁:d₁` has `d₀ = n₁·d₁` (the concrete
//! rule of [`Layout::flatten`](crate::Layout::flatten)). Over symbols:
//! - the mode coalesces (proved merges, `coalesce.rs`) to one leaf: one
//!   stride at every binding;
//! - some adjacent pair of its coalesced leaves has both extents proved
//!   `>= 2` and `d₀ = n₁·d₁` refuted: one stride at no binding;
//! - otherwise the answer depends on the binding (or was not decided), and
//!   the layout is refused with the facts that decide it, read at the probe
//!   binding: the equalities that make the mode coalesce when it is one
//!   stride there, else the extents `>= 2` and the sign of `d₀ − n₁·d₁` of a
//!   pair that breaks there.
//!
//! The layout is *ordinary* (one [`SymFlatView`]) when every mode is one
//! stride at every binding; *not ordinary* (a [`SymFlattenReport`]) when some
//! mode is one stride at no binding (then no binding is ordinary); otherwise
//! [`Error::NeedsFacts`](crate::Error::NeedsFacts). O(leaves) prover calls.

use std::fmt;

use super::coalesce::coalesce_leaves;
use super::flat_view::SymFlatView;
use super::layout::SymLayout;
use super::need::Needs;
use super::poly::Poly;
use super::prove::{Fact, Truth};
use super::symbols::Symbols;
use crate::error::Result;
use crate::tuple::{mode_spans, Profile};

/// Why a layout over symbols is not one flat view at any allowed binding:
/// the modes that are never one stride.
///
/// ```
/// use hlayout::symbolic::{Assume, SymLayout, Symbols};
/// let mut s = Symbols::new();
/// s.assume("N", Assume { min: 2, ..Assume::default() }).unwrap();
/// let l = SymLayout::parse("(2,(N,4)):(4*N,(1,N))", &mut s).unwrap();
/// let report = l.flatten(&s).unwrap().unwrap_err();
/// assert_eq!(report.modes().len(), 1);
/// assert_eq!(
///     report.show(&s).to_string(),
///     "mode 1 (N,4):(1,N) is not one stride: it needs i//4 and i%4"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymFlattenReport {
    modes: Vec<SymModeObstruction>,
}

/// One top-level mode that is one stride at no allowed binding.
///
/// ```
/// use hlayout::symbolic::{Assume, SymLayout, Symbols};
/// let mut s = Symbols::new();
/// s.assume("N", Assume { min: 2, ..Assume::default() }).unwrap();
/// let l = SymLayout::parse("((N,4)):((1,N))", &mut s).unwrap();
/// let report = l.flatten(&s).unwrap().unwrap_err();
/// assert_eq!(report.modes()[0].coalesced.show(&s).to_string(), "(N,4):(1,N)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SymModeObstruction {
    /// Top-level mode position.
    pub mode: usize,
    /// The mode as given.
    pub layout: SymLayout,
    /// Its coalesced form, with two or more leaves.
    pub coalesced: SymLayout,
}

impl SymFlattenReport {
    /// The offending modes, in order.
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, ..Assume::default() }).unwrap();
    /// let l = SymLayout::parse("((2,N),(2,2)):((1,2),(1,2))", &mut s).unwrap();
    /// assert_eq!(l.flatten(&s).unwrap().unwrap_err().modes().len(), 2);
    /// ```
    pub fn modes(&self) -> &[SymModeObstruction] {
        &self.modes
    }

    /// A `Display` of the reason, in the concrete report's words.
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, ..Assume::default() }).unwrap();
    /// let l = SymLayout::parse("((2,N)):((1,2))", &mut s).unwrap();
    /// let r = l.flatten(&s).unwrap().unwrap_err();
    /// assert_eq!(r.show(&s).to_string(), "mode 0 (2,N):(1,2) is not one stride: it needs i//N and i%N");
    /// ```
    pub fn show<'a>(&'a self, syms: &'a Symbols) -> ShowFlattenReport<'a> {
        ShowFlattenReport { r: self, syms }
    }
}

impl SymModeObstruction {
    /// The index expressions the mode needs, e.g. `["i//N", "i%N"]`; a
    /// divisor that is not a number or a symbol is in parentheses.
    ///
    /// ```
    /// use hlayout::symbolic::{Assume, SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// s.assume("N", Assume { min: 2, ..Assume::default() }).unwrap();
    /// let l = SymLayout::parse("((2,N,4)):((1,2,8))", &mut s).unwrap();
    /// let r = l.flatten(&s).unwrap().unwrap_err();
    /// assert_eq!(r.modes()[0].index_expressions(&s).unwrap(), ["i//(4*N)", "(i//4)%N", "i%4"]);
    /// ```
    ///
    /// # Errors
    /// [`Error::Overflow`](crate::Error::Overflow) from the products.
    pub fn index_expressions(&self, syms: &Symbols) -> Result<Vec<String>> {
        let shape = self.coalesced.shape_leaves();
        let text = |p: &Poly| {
            let t = syms.show(p).to_string();
            if t.contains(['+', '-', '*']) {
                format!("({t})")
            } else {
                t
            }
        };
        let mut out = vec![String::new(); shape.len()];
        let mut below = Poly::constant(1);
        for j in (0..shape.len()).rev() {
            let n = &shape[j];
            out[j] = match (j, below.as_const() == Some(1)) {
                (0, true) => "i".to_string(),
                (0, false) => format!("i//{}", text(&below)),
                (_, true) => format!("i%{}", text(n)),
                (_, false) => format!("(i//{})%{}", text(&below), text(n)),
            };
            below = below.mul(n)?;
        }
        Ok(out)
    }
}

/// A [`SymFlattenReport`] with its symbol names.
#[derive(Clone, Copy, Debug)]
pub struct ShowFlattenReport<'a> {
    r: &'a SymFlattenReport,
    syms: &'a Symbols,
}

impl fmt::Display for ShowFlattenReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, m) in self.r.modes.iter().enumerate() {
            if k > 0 {
                f.write_str("; ")?;
            }
            let exprs = m.index_expressions(self.syms).map_err(|_| fmt::Error)?;
            let (last, init) = exprs
                .split_last()
                .map_or(("", &[][..]), |(l, i)| (l.as_str(), i));
            write!(
                f,
                "mode {} {} is not one stride: it needs {} and {last}",
                m.mode,
                m.layout.show(self.syms),
                init.join(", ")
            )?;
        }
        Ok(())
    }
}

/// What one mode is over every binding.
enum Mode {
    /// One stride everywhere: the extent and the stride.
    One(Poly, Poly),
    /// One stride nowhere: its coalesced leaves.
    Never(Vec<Poly>, Vec<Poly>),
}

impl SymLayout {
    /// The flat view equal to this layout at every allowed binding (shape:
    /// the top-level shape, offset 0, no mask), or the report of the modes
    /// that are one stride at no binding (module docs of `flat_flatten.rs`).
    ///
    /// # Errors
    /// [`Error::NeedsFacts`](crate::Error::NeedsFacts) when whether the layout
    /// is one flat view depends on the binding, naming the facts that decide
    /// it; [`Error::Overflow`](crate::Error::Overflow).
    ///
    /// ```
    /// use hlayout::symbolic::{SymLayout, Symbols};
    /// let mut s = Symbols::new();
    /// let l = SymLayout::parse("(N,(4,8)):(32,(8,1))", &mut s).unwrap();
    /// let v = l.flatten(&s).unwrap().unwrap();
    /// assert_eq!(v.show(&s).to_string(), "View(shape=(N, 32), strides=(32, 1), offset=0, mask=None)");
    /// // (N,4):(1,N) is 4:1 at N = 1 and two strides otherwise.
    /// let t = SymLayout::parse("((N,4)):((1,N))", &mut s).unwrap();
    /// let err = t.flatten(&s).unwrap_err();
    /// assert!(err.to_string().ends_with("needs N >= 2"), "{err}");
    /// ```
    pub fn flatten(
        &self,
        syms: &Symbols,
    ) -> Result<std::result::Result<SymFlatView, SymFlattenReport>> {
        let fixed = self.fixed(syms);
        if let Some(l) = fixed.to_layout() {
            return Ok(match l.flatten() {
                Ok(v) => Ok(SymFlatView::from_flat(&v)),
                Err(r) => Err(SymFlattenReport {
                    modes: r
                        .modes()
                        .iter()
                        .map(|m| SymModeObstruction {
                            mode: m.mode,
                            layout: SymLayout::from_layout(&m.layout),
                            coalesced: SymLayout::from_layout(&m.coalesced),
                        })
                        .collect(),
                }),
            });
        }
        let mut needs = Needs::new(syms, "flatten");
        let (mut shape, mut strides, mut never) = (Vec::new(), Vec::new(), Vec::new());
        let toks = fixed.profile().toks();
        for (k, (t, l)) in mode_spans(toks).enumerate() {
            let (ns, ds) = (&fixed.shape_leaves()[l.clone()], &fixed.stride_leaves()[l]);
            match mode(ns, ds, &mut needs)? {
                Mode::One(n, d) => {
                    shape.push(n);
                    strides.push(d);
                }
                Mode::Never(cs, cd) => never.push(SymModeObstruction {
                    mode: k,
                    layout: SymLayout::from_parts(
                        Profile::from_toks(&toks[t]),
                        ns.to_vec(),
                        ds.to_vec(),
                    ),
                    coalesced: SymLayout::flat(cs, cd),
                }),
            }
        }
        if !never.is_empty() {
            return Ok(Err(SymFlattenReport { modes: never }));
        }
        needs.finish("whether every mode is one stride")?;
        Ok(Ok(SymFlatView::from_parts(
            shape,
            strides,
            Poly::zero(),
            None,
        )))
    }
}

/// Decides one mode (module docs); an undecided mode records its needs and
/// answers `One` (the caller refuses).
fn mode(ns: &[Poly], ds: &[Poly], needs: &mut Needs) -> Result<Mode> {
    let syms = needs.syms;
    let (cs, cd) = coalesce_leaves(syms, ns, ds)?;
    if let ([n], [d]) = (&cs[..], &cd[..]) {
        return Ok(Mode::One(n.clone(), d.clone()));
    }
    let two = Poly::constant(2);
    let at_least_two =
        |n: &Poly| -> Result<bool> { Ok(syms.prove(&Fact::ge(n, &two)?) == Truth::Proved) };
    let mut gaps = Vec::with_capacity(cs.len());
    for i in 0..cs.len() - 1 {
        gaps.push(cd[i].sub(&cs[i + 1].mul(&cd[i + 1])?)?);
    }
    for (i, gap) in gaps.iter().enumerate() {
        if at_least_two(&cs[i])?
            && at_least_two(&cs[i + 1])?
            && syms.prove(&Fact::Zero(gap.clone())) == Truth::Refuted
        {
            return Ok(Mode::Never(cs, cd));
        }
    }
    decide_at_probe(&cs, &gaps, needs)?;
    if needs.is_clean() {
        return Err(needs.refuse("whether a mode is one stride was not decided".into()));
    }
    let size = cs.iter().try_fold(Poly::constant(1), |a, n| a.mul(n))?;
    Ok(Mode::One(size, Poly::zero()))
}

/// Records the facts that decide an undecided mode, read at the probe.
fn decide_at_probe(cs: &[Poly], gaps: &[Poly], needs: &mut Needs) -> Result<()> {
    let probe = needs.syms.probe();
    let at = |p: &Poly| p.eval(&probe).unwrap_or(i128::MAX);
    let one = Poly::constant(1);
    let broken =
        (0..gaps.len()).find(|&i| at(&gaps[i]) != 0 && at(&cs[i]) >= 2 && at(&cs[i + 1]) >= 2);
    match broken {
        Some(i) => {
            needs.require(Fact::ge(&cs[i], &Poly::constant(2))?)?;
            needs.require(Fact::ge(&cs[i + 1], &Poly::constant(2))?)?;
            let g = &gaps[i];
            let sign = if at(g) > 0 {
                g.sub(&one)?
            } else {
                g.neg()?.sub(&one)?
            };
            needs.require(Fact::NonNeg(sign))
        }
        None => {
            for (i, g) in gaps.iter().enumerate() {
                if at(g) == 0 {
                    needs.require(Fact::Zero(g.clone()))?;
                } else if at(&cs[i]) < 2 {
                    needs.require(Fact::Zero(cs[i].sub(&one)?))?;
                } else {
                    needs.require(Fact::Zero(cs[i + 1].sub(&one)?))?;
                }
            }
            Ok(())
        }
    }
}
