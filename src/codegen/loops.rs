//! The loop-nest hint: the refinement of a kernel's output loops in which
//! every view it reads is *affine*, no division or modulo at all.
//!
//! A view's dimension is the row-major index over its leaves, so a loop over
//! the dimension needs a division and a modulo per leaf to find them. Split
//! the loop into one loop per (merged) leaf instead, and the leaf coordinates
//! *are* the loop variables: the index is `offset + Σ stride·v` and every
//! validity constraint is `lo <= Σ a·v < hi`. Several views of one shape (the
//! views a kernel reads) share one nest when their leaf splits of each
//! dimension refine each other: the nest splits each dimension at every
//! view's leaf boundaries, which is possible exactly when those inner
//! products form a divisibility chain (`docs/codegen.md`, section "Loop
//! nests"). A windowed dimension (a pad or shrink that cuts a nested
//! dimension) is affine only as one leaf, since `t + start` carries across
//! digits; a view with such a window over several leaves has no nest.
//!
//! ```
//! use hlayout::codegen::loop_nest;
//! use hlayout::ViewStack;
//! // A transpose flattened: one loop of 24 needs `i / 4` and `i % 4`; the nest
//! // splits it into loops of 6 and 4, in which the index is `v0 + 6·v1`.
//! let s = ViewStack::new(&[4, 6])?.permute(&[1, 0])?.reshape(&[24])?;
//! let v = &s.views()[0];
//! let nest = loop_nest(&[v])?;
//! assert_eq!(nest.extents(), vec![6, 4]);
//! assert_eq!(nest.access(0).strides(), &[1, 6]);
//! for (i, p) in nest.points().enumerate() {
//!     assert_eq!(nest.coords(&p), vec![i as i64]);
//!     assert_eq!(nest.eval(0, &p), v.eval(&[i as i64])?);
//! }
//! # Ok::<(), hlayout::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::view::View;

/// One loop of a [`LoopNest`]: it splits output dimension `dim`, and its
/// variable runs over `[0, extent)` with weight `weight` in that dimension's
/// coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The output dimension the loop refines.
    pub dim: usize,
    /// The loop's trip count.
    pub extent: i64,
    /// Its variable's weight in the dimension's coordinate (the product of
    /// the extents of the dimension's loops inside it).
    pub weight: i64,
}

/// How one view reads at a point of a [`LoopNest`]: an affine index and
/// affine validity constraints in the loop variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    strides: Vec<i64>,
    offset: i64,
    constraints: Vec<(Vec<i64>, i64, i64)>,
}

impl Access {
    /// The index's coefficient of each loop variable.
    ///
    /// See [`loop_nest`] for an example.
    pub fn strides(&self) -> &[i64] {
        &self.strides
    }

    /// The index at the nest's origin.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[6])?.shrink(&[(2, 5)])?;
    /// let nest = hlayout::codegen::loop_nest(&[&s.views()[0]])?;
    /// assert_eq!(nest.access(0).offset(), 2);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn offset(&self) -> i64 {
        self.offset
    }

    /// The validity: `lo <= Σ coeffs·v < hi` for every `(coeffs, lo, hi)`.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4])?.pad(&[(1, 0)])?;
    /// let nest = hlayout::codegen::loop_nest(&[&s.views()[0]])?;
    /// assert_eq!(nest.access(0).constraints(), &[(vec![1], 1, 5)]);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn constraints(&self) -> &[(Vec<i64>, i64, i64)] {
        &self.constraints
    }
}

/// A refinement of the output loops in which every view read is affine (see
/// [`loop_nest`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopNest {
    shape: Vec<i64>,
    loops: Vec<Loop>,
    accesses: Vec<Access>,
}

impl LoopNest {
    /// The loops, outermost first: dimension by dimension, each dimension's
    /// loops slowest first. A dimension of extent 1 has none.
    ///
    /// ```
    /// let s = hlayout::ViewStack::new(&[4, 6])?.permute(&[1, 0])?.reshape(&[24])?;
    /// let nest = hlayout::codegen::loop_nest(&[&s.views()[0]])?;
    /// assert_eq!(nest.loops()[1].weight, 1);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn loops(&self) -> &[Loop] {
        &self.loops
    }

    /// The loops' extents, outermost first.
    ///
    /// See [`loop_nest`] for an example.
    pub fn extents(&self) -> Vec<i64> {
        self.loops.iter().map(|l| l.extent).collect()
    }

    /// The output shape the nest enumerates.
    ///
    /// ```
    /// let nest = hlayout::codegen::loop_nest(&[&hlayout::View::contiguous(&[2, 3])?])?;
    /// assert_eq!(nest.shape(), &[2, 3]);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn shape(&self) -> &[i64] {
        &self.shape
    }

    /// How view `k` (in the order given to [`loop_nest`]) reads.
    ///
    /// # Panics
    /// When `k` is not the position of a view given.
    ///
    /// See [`loop_nest`] for an example.
    pub fn access(&self, k: usize) -> &Access {
        &self.accesses[k]
    }

    /// Every view's access, in the order given to [`loop_nest`].
    ///
    /// ```
    /// let nest = hlayout::codegen::loop_nest(&[&hlayout::View::contiguous(&[2, 3])?])?;
    /// assert_eq!(nest.accesses()[0].strides(), &[3, 1]);
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn accesses(&self) -> &[Access] {
        &self.accesses
    }

    /// The output coordinate of loop point `at` (one value per loop):
    /// dimension `d`'s coordinate is `Σ weight·v` over its loops.
    ///
    /// See [`loop_nest`] for an example.
    pub fn coords(&self, at: &[i64]) -> Vec<i64> {
        let mut out = vec![0i64; self.shape.len()];
        for (l, &v) in self.loops.iter().zip(at) {
            out[l.dim] += l.weight * v;
        }
        out
    }

    /// View `k`'s offset at loop point `at`, `None` where it is invalid.
    ///
    /// See [`loop_nest`] for an example.
    pub fn eval(&self, k: usize, at: &[i64]) -> Option<i64> {
        let a = &self.accesses[k];
        let dot = |c: &[i64]| c.iter().zip(at).map(|(x, y)| x * y).sum::<i64>();
        let ok = a
            .constraints
            .iter()
            .all(|(c, lo, hi)| (*lo..*hi).contains(&dot(c)));
        ok.then(|| a.offset + dot(&a.strides))
    }

    /// Every loop point, the outermost loop slowest (row-major).
    ///
    /// See [`loop_nest`] for an example.
    pub fn points(&self) -> impl Iterator<Item = Vec<i64>> + '_ {
        let ext = self.extents();
        let total: i64 = ext.iter().product();
        (0..total).map(move |mut i| {
            let mut p = vec![0i64; ext.len()];
            for (x, &e) in p.iter_mut().zip(&ext).rev() {
                *x = i % e;
                i /= e;
            }
            p
        })
    }
}

/// One merged leaf of a view's dimension, in the dimension's own coordinate.
struct Leaf {
    extent: i64,
    stride: i64,
    coeffs: Vec<i64>,
}

/// A view with every dimension as merged leaves (slowest first) of its
/// coordinate `t`, windows folded into the offset and the constraints.
struct Affine {
    dims: Vec<Vec<Leaf>>,
    offset: i64,
    bounds: Vec<(i64, i64)>,
}

fn refuse(v: &View, rule: String) -> Error {
    Error::Precondition {
        op: "loop_nest",
        layout: v.to_string(),
        rule,
    }
}

fn mul(a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b)
        .ok_or_else(|| crate::error::overflow("loop nest"))
}

fn add(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b)
        .ok_or_else(|| crate::error::overflow("loop nest"))
}

fn sub(a: i64, b: i64) -> Result<i64> {
    a.checked_sub(b)
        .ok_or_else(|| crate::error::overflow("loop nest"))
}

/// `v`'s dimensions as merged leaves (rule L1 of `docs/codegen.md`: the
/// outer leaf's stride and coefficients are the inner one's times its extent).
fn affine(v: &View) -> Result<Affine> {
    let cons = v.constraints();
    let mut bounds: Vec<(i64, i64)> = cons.iter().map(|c| (c.lo(), c.hi())).collect();
    let mut offset = v.offset();
    let (ext, st) = (v.leaf_extents(), v.leaf_strides());
    let mut dims = Vec::with_capacity(v.rank());
    for d in 0..v.rank() {
        let mut leaves: Vec<Leaf> = Vec::new();
        for k in v.dim_leaves(d) {
            if ext[k] == 1 {
                continue;
            }
            // Earlier windows' bounds (after the view's own) do not involve it.
            let mut coeffs: Vec<i64> = cons.iter().map(|c| c.coeffs()[k]).collect();
            coeffs.resize(bounds.len(), 0);
            if let Some(prev) = leaves.last_mut() {
                let joins = prev.stride == mul(st[k], ext[k])?
                    && prev
                        .coeffs
                        .iter()
                        .zip(&coeffs)
                        .all(|(&p, &c)| mul(c, ext[k]).is_ok_and(|x| x == p));
                if joins {
                    prev.extent = mul(prev.extent, ext[k])?;
                    prev.stride = st[k];
                    prev.coeffs = coeffs;
                    continue;
                }
            }
            leaves.push(Leaf {
                extent: ext[k],
                stride: st[k],
                coeffs,
            });
        }
        if let Some(w) = v.window(d) {
            if leaves.len() > 1 {
                return Err(refuse(
                    v,
                    format!(
                        "dimension {d} reads the window [{}, {}) across {} leaves \
                         (t + start carries between them)",
                        w.start(),
                        add(w.start(), w.extent())?,
                        leaves.len()
                    ),
                ));
            }
            // x = t + start: fold start into the offset and the bounds.
            if let Some(l) = leaves.first() {
                offset = add(offset, mul(l.stride, w.start())?)?;
                for (b, &a) in bounds.iter_mut().zip(&l.coeffs) {
                    let shift = mul(a, w.start())?;
                    *b = (sub(b.0, shift)?, sub(b.1, shift)?);
                }
            }
            bounds.push((sub(w.lo(), w.start())?, sub(w.hi(), w.start())?));
            for dd in dims.iter_mut().chain(std::iter::once(&mut leaves)) {
                for l in dd.iter_mut() {
                    l.coeffs.push(0);
                }
            }
            match leaves.first_mut() {
                Some(l) => {
                    l.extent = w.extent();
                    *l.coeffs.last_mut().expect("pushed above") = 1;
                }
                None if w.extent() != 1 => leaves.push(Leaf {
                    extent: w.extent(),
                    stride: 0,
                    coeffs: {
                        let mut c = vec![0; bounds.len()];
                        c[bounds.len() - 1] = 1;
                        c
                    },
                }),
                None => {} // t = 0 always: the bound is a constant test
            }
        }
        dims.push(leaves);
    }
    Ok(Affine {
        dims,
        offset,
        bounds,
    })
}

/// The loop nest in which every one of `views` (all of one shape) is affine:
/// each output dimension split at every view's leaf boundaries, the views'
/// indices and constraints rewritten in the split loops' variables.
/// O(views · leaves · (constraints + views)).
///
/// # Errors
/// [`Error::Precondition`] when the views' shapes differ, a view has an empty
/// shape element (extent 0), a windowed dimension spans several leaves, or
/// two views split a dimension at boundaries that do not refine each other
/// (e.g. one as `(2,3)`, the other as `(3,2)`); [`Error::Overflow`] past
/// `i64`.
///
/// A flattened transpose: one loop of 24 needs `i / 4` and `i % 4`; the nest
/// splits it into loops of 6 and 4, in which the index is `v0 + 6·v1`. With
/// a second view split `(2,12)`, the nest is `(6,2,2)`:
///
/// ```
/// use hlayout::ViewStack;
/// let s = ViewStack::new(&[4, 6])?.permute(&[1, 0])?.reshape(&[24])?;
/// let nest = hlayout::codegen::loop_nest(&[&s.views()[0]])?;
/// assert_eq!((nest.extents(), nest.access(0).strides()), (vec![6, 4], &[1, 6][..]));
/// let a = ViewStack::new(&[4, 6])?.permute(&[1, 0])?.reshape(&[24])?;
/// let b = ViewStack::new(&[2, 12])?.permute(&[1, 0])?.reshape(&[24])?;
/// let (a, b) = (&a.views()[0], &b.views()[0]);
/// let nest = hlayout::codegen::loop_nest(&[a, b])?;
/// assert_eq!(nest.extents(), vec![6, 2, 2]);
/// for (i, p) in nest.points().enumerate() {
///     assert_eq!(nest.eval(0, &p), a.eval(&[i as i64])?);
///     assert_eq!(nest.eval(1, &p), b.eval(&[i as i64])?);
/// }
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn loop_nest(views: &[&View]) -> Result<LoopNest> {
    let Some(first) = views.first() else {
        return Err(Error::Precondition {
            op: "loop_nest",
            layout: String::new(),
            rule: "no view given".into(),
        });
    };
    let shape = first.shape();
    for v in views {
        if v.shape() != shape {
            return Err(refuse(
                v,
                format!("shape {:?} differs from {shape:?}", v.shape()),
            ));
        }
        if v.is_empty() {
            return Err(refuse(v, "the view has no element".into()));
        }
    }
    let affines: Vec<Affine> = views.iter().map(|v| affine(v)).collect::<Result<_>>()?;
    let mut loops = Vec::new();
    for (d, &n) in shape.iter().enumerate() {
        // Every view's inner products (weights of its leaves), one chain.
        let mut cuts: Vec<i64> = vec![n];
        for a in &affines {
            let mut q = 1i64;
            for l in a.dims[d].iter().rev() {
                cuts.push(q);
                q = mul(q, l.extent)?;
            }
        }
        cuts.sort_unstable();
        cuts.dedup();
        for w in cuts.windows(2) {
            if w[1] % w[0] != 0 {
                return Err(refuse(
                    views[0],
                    format!(
                        "dimension {d}: the views split it at weights {} and {}, \
                         which do not divide each other",
                        w[0], w[1]
                    ),
                ));
            }
        }
        for w in cuts.windows(2).rev() {
            loops.push(Loop {
                dim: d,
                extent: w[1] / w[0],
                weight: w[0],
            });
        }
    }
    let accesses = affines
        .iter()
        .map(|a| access(a, &loops))
        .collect::<Result<_>>()?;
    Ok(LoopNest {
        shape,
        loops,
        accesses,
    })
}

/// `a` in the variables of `loops`: each loop lies inside one merged leaf of
/// its dimension (the cuts refine the leaves), whose stride and coefficients
/// it takes times its weight within the leaf.
fn access(a: &Affine, loops: &[Loop]) -> Result<Access> {
    let mut strides = Vec::with_capacity(loops.len());
    let mut coeffs: Vec<Vec<i64>> = vec![Vec::with_capacity(loops.len()); a.bounds.len()];
    for l in loops {
        let mut q = 1i64;
        let mut found = (0i64, vec![0i64; a.bounds.len()]);
        for leaf in a.dims[l.dim].iter().rev() {
            let top = mul(q, leaf.extent)?;
            if q <= l.weight && l.weight < top {
                let f = l.weight / q;
                found.0 = mul(leaf.stride, f)?;
                for (c, &x) in found.1.iter_mut().zip(&leaf.coeffs) {
                    *c = mul(x, f)?;
                }
                break;
            }
            q = top;
        }
        strides.push(found.0);
        for (c, x) in coeffs.iter_mut().zip(found.1) {
            c.push(x);
        }
    }
    let constraints = coeffs
        .into_iter()
        .zip(&a.bounds)
        .map(|(c, &(lo, hi))| (c, lo, hi))
        .collect();
    Ok(Access {
        strides,
        offset: a.offset,
        constraints,
    })
}
