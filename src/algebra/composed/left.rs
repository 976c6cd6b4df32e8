//! Composed layouts with a layout *after* the swizzle: `A ∘ C`, `C₁ ∘ C₂`, a
//! layout's product with a swizzled tiler, and the inverses.
//!
//! Each of these is some layout applied to a swizzle's output, and the form
//! `Sw ∘ O ∘ L` keeps the swizzle outermost. CuTe moves it there by its rule
//! for `composition(Layout, Swizzle)`: `A ∘ Sw = Sw' ∘ A`, where `Sw'` reads
//! the bits `A(Y)` and writes the bits `A(Z)` (A's images of Sw's masks). The
//! rule holds when A carries Sw's bits to whole bits (a shift, a transpose of
//! power-of-two tiles), not in general, and CuTe applies it unchecked. Here:
//!
//! - a shift `A(x) = 2ᵗ·x` (or `A = 0`) is proved: a left shift distributes
//!   over XOR and AND, so `2ᵗ·Sw(y) = Sw<B,M+t,S>(2ᵗ·y)`;
//! - every other result is CuTe's construction checked at every index
//!   against its definition ([`COMPOSED_CHECK_BUDGET`] bounds the checks);
//!   where the check fails the answer is an [`Error::Precondition`] naming the
//!   index and both values, never a wrong layout. A refusal says CuTe's rule
//!   does not hold for these operands, not that no composed layout could.

use crate::algebra::divide::pair;
use crate::algebra::swizzle::Swizzle;
use crate::error::{self, Error, Result};
use crate::layout::Layout;

use super::ComposedLayout;

/// Most indices one check of a composed result visits (`size` of the result);
/// past it the answer is [`Error::BudgetExceeded`], never an unchecked layout.
pub const COMPOSED_CHECK_BUDGET: i64 = 1 << 24;

const OFFSET: &str = "offset of a composed layout";

/// CuTe's `Sw'` with `A ∘ Sw = Sw' ∘ A` where that holds: the swizzle reading
/// `A(Y)` and writing `A(Z)`.
fn through(
    a: &Layout,
    sw: Swizzle,
    op: &'static str,
    what: &dyn Fn() -> String,
) -> Result<Swizzle> {
    if sw.is_identity() {
        return Ok(sw);
    }
    let (y, z) = (a.eval(sw.mask())?, a.eval(sw.write_mask())?);
    Swizzle::from_masks(y, z).ok_or_else(|| Error::Precondition {
        op,
        layout: what(),
        rule: format!(
            "CuTe's rule A ∘ {sw} = Sw' ∘ A needs A's images of the swizzle's masks to be \
             a swizzle's masks; A(Y = {}) = {y} and A(Z = {}) = {z} are not",
            sw.mask(),
            sw.write_mask()
        ),
    })
}

/// The first `(i, got, want)` with `got(i) ≠ want(i)` over two streams of `n`
/// values, or `None`; more than [`COMPOSED_CHECK_BUDGET`] values is refused.
pub(super) fn first_difference(
    n: i64,
    what: &'static str,
    got: impl Iterator<Item = Result<i64>>,
    want: impl Iterator<Item = Result<i64>>,
) -> Result<Option<(i64, i64, i64)>> {
    if n > COMPOSED_CHECK_BUDGET {
        return Err(Error::BudgetExceeded {
            what,
            needed: n,
            budget: COMPOSED_CHECK_BUDGET,
        });
    }
    for (i, (g, w)) in (0..n).zip(got.zip(want)) {
        let (g, w) = (g?, w?);
        if g != w {
            return Ok(Some((i, g, w)));
        }
    }
    Ok(None)
}

/// `r` if it passed its check, else the refusal naming the index.
fn checked(
    r: ComposedLayout,
    difference: Option<(i64, i64, i64)>,
    op: &'static str,
    what: String,
    want: &str,
) -> Result<ComposedLayout> {
    match difference {
        None => Ok(r),
        Some((i, got, value)) => Err(Error::Precondition {
            op,
            layout: what,
            rule: format!(
                "CuTe's rule A ∘ Sw = Sw' ∘ A gives {r}, which fails at index {i}: \
                 {want} is {value}, it gives {got}"
            ),
        }),
    }
}

impl ComposedLayout {
    /// `A ∘ C` for a layout A: `R(i) = A(C(i))` for every `i < size(C)`, as
    /// `Sw' ∘ A(O) ∘ (A ∘ L)` by CuTe's rule (`Sw'` reads `A(Y)`, writes
    /// `A(Z)`); proved when A is `x ↦ 2ᵗ·x` or 0 on every integer (rescaling
    /// element offsets to bytes), checked at every index otherwise. Where the
    /// rule fails, `A(O) ∘ (A ∘ L)` without a swizzle is tried (C may never
    /// set the bits its swizzle reads), checked the same way.
    ///
    /// # Errors
    /// [`Error::Precondition`] when CuTe's rule does not give `A ∘ C` (the
    /// masks' images are no swizzle's, or the index where it fails); those of
    /// [`Layout::compose`] (`A ∘ L`); [`Error::BudgetExceeded`] past
    /// [`COMPOSED_CHECK_BUDGET`] indices.
    ///
    /// ```
    /// use hlayout::{algebra::ComposedLayout, Layout};
    /// let c: ComposedLayout = "Sw<1,0,2> o 1 o 4:1".parse().unwrap();
    /// let bytes: Layout = "64:4".parse().unwrap(); // 4-byte elements
    /// assert_eq!(c.left_compose(&bytes).unwrap().to_string(), "Sw<1,2,2> o 4 o 4:4");
    /// // A transpose of an 8x8 tile moves the swizzle's bit groups (CuTe's test):
    /// let t: Layout = "(8,8):(1,8)".parse().unwrap();
    /// let c: ComposedLayout = "Sw<2,0,-3> o 0 o (8,8):(1,8)".parse().unwrap();
    /// let r = c.left_compose(&t).unwrap();
    /// assert_eq!(r.swizzle().to_string(), "Sw<2,0,3>");
    /// assert!((0..64).all(|i| r.eval(i).unwrap() == t.eval(c.eval(i).unwrap()).unwrap()));
    /// ```
    pub fn left_compose(&self, a: &Layout) -> Result<ComposedLayout> {
        if self.is_plain() {
            // C = L: A ∘ L is exact, nothing to check.
            return ComposedLayout::new(Swizzle::identity(), 0, a.compose(&self.layout)?);
        }
        if let Some(r) = self.shifted(a)? {
            return Ok(r);
        }
        let what = || format!("{a} o ({self})");
        let (inner, offset) = (a.compose(&self.layout)?, a.eval(self.offset)?);
        let (first, tried) = match through(a, self.swizzle, "compose", &what) {
            Ok(sw) => match self.after(a, ComposedLayout::new(sw, offset, inner.clone())?)? {
                Ok(r) => return Ok(r),
                Err(e) => (e, sw),
            },
            Err(e) => (e, self.swizzle),
        };
        // The swizzle dropped: A ∘ C when C never sets the bits it reads.
        if !tried.is_identity() {
            if let Ok(r) =
                self.after(a, ComposedLayout::new(Swizzle::identity(), offset, inner)?)?
            {
                return Ok(r);
            }
        }
        Err(first)
    }

    /// `r` if it is `A ∘ C` at every index, else the refusal naming where not.
    fn after(&self, a: &Layout, r: ComposedLayout) -> Result<Result<ComposedLayout>> {
        let want = self.offsets().map(|x| a.eval(x));
        let diff = first_difference(self.size(), "checking A o C", r.values(), want)?;
        Ok(checked(
            r,
            diff,
            "compose",
            format!("{a} o ({self})"),
            "A(C(i))",
        ))
    }

    /// `A ∘ C` when A is `x ↦ k·x` on every integer with `k = 2ᵗ` or 0:
    /// `Sw<B,M+t,S> ∘ k·O ∘ (A ∘ L)`, or the zero map. `None` for other A.
    fn shifted(&self, a: &Layout) -> Result<Option<ComposedLayout>> {
        let Some(k) = slope(a) else {
            return Ok(None);
        };
        if k < 0 || k.count_ones() > 1 {
            return Ok(None);
        }
        let inner = a.compose(&self.layout)?;
        if k == 0 {
            return ComposedLayout::new(Swizzle::identity(), 0, inner).map(Some);
        }
        let offset = error::mul(self.offset, k, OFFSET)?;
        let swizzle = self.swizzle.scaled(k.trailing_zeros())?;
        ComposedLayout::new(swizzle, offset, inner).map(Some)
    }

    /// `C₁ ∘ C₂`: `R(i) = C₁(C₂(i))` for every `i < size(C₂)`, as
    /// `Sw₁ ∘ O₁ ∘ (L₁ ∘ C₂)` with `L₁ ∘ C₂ = Sw' ∘ O' ∘ L'` by
    /// [`ComposedLayout::left_compose`], and the two swizzles merged into
    /// one by [`Swizzle::then`] (CuTe merges swizzles of one shift the same
    /// way). Exact when `O₁ = 0` or `Sw'` is the identity; otherwise the
    /// offset between the swizzles is moved inside and the result checked.
    ///
    /// # Errors
    /// Those of [`ComposedLayout::left_compose`]; [`Error::Precondition`]
    /// when the swizzles do not merge, or the offset does not move inside.
    ///
    /// ```
    /// use hlayout::algebra::ComposedLayout;
    /// let a: ComposedLayout = "Sw<2,0,3> o 0 o (8,8):(1,8)".parse().unwrap();
    /// let b: ComposedLayout = "Sw<2,0,-3> o 0 o (8,8):(1,8)".parse().unwrap();
    /// let r = a.compose_composed(&b).unwrap(); // CuTe's test: the identity
    /// assert!((0..64).all(|i| r.eval(i).unwrap() == i));
    /// ```
    pub fn compose_composed(&self, b: &ComposedLayout) -> Result<ComposedLayout> {
        self.outside(b.left_compose(&self.layout)?, "compose", &|| {
            format!("({self}) o ({b})")
        })
    }

    /// CuTe's `logical_product(C, T)` with a swizzled tiler T:
    /// `Sw ∘ O ∘ logical_product(L, T)`, the inner product by
    /// [`Layout::logical_product_composed`] and its swizzle merged with Sw as
    /// in [`ComposedLayout::compose_composed`].
    ///
    /// # Errors
    /// Those of [`Layout::logical_product_composed`] and of the merge.
    ///
    /// ```
    /// use hlayout::algebra::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,2,2> o 0 o 4:1".parse().unwrap();
    /// let tiles: ComposedLayout = "Sw<1,1,2> o 0 o 8:1".parse().unwrap();
    /// let p = c.logical_product_composed(&tiles).unwrap();
    /// assert_eq!(p.to_string(), "Sw<2,2,2> o 0 o (8,4):(4,1)");
    /// // Block a of tile j lands at C(4·T(j) + a).
    /// assert!((0..32).all(|i| p.eval(i).unwrap() == c.eval(4 * tiles.eval(i / 4).unwrap() + i % 4).unwrap()));
    /// ```
    pub fn logical_product_composed(&self, b: &ComposedLayout) -> Result<ComposedLayout> {
        let inner = self.layout.logical_product_composed(b)?;
        self.outside(inner, "logical_product", &|| format!("({self}) x ({b})"))
    }

    /// `Sw ∘ O ∘ inner` as one composed layout: the offset added when inner's
    /// swizzle is the identity (exact), else the two swizzles merged by
    /// [`Swizzle::then`] (exact when `O = 0`; otherwise O moved inside the
    /// inner swizzle and the result checked at every index).
    fn outside(
        &self,
        inner: ComposedLayout,
        op: &'static str,
        what: &dyn Fn() -> String,
    ) -> Result<ComposedLayout> {
        if inner.swizzle.is_identity() {
            let offset = error::add(self.offset, inner.offset, OFFSET)?;
            return ComposedLayout::new(self.swizzle, offset, inner.layout);
        }
        let Some(sw) = self.swizzle.then(&inner.swizzle) else {
            return Err(Error::Precondition {
                op,
                layout: what(),
                rule: format!(
                    "{} after {} is no single swizzle (the shifts differ, or the outer \
                     one reads bits the inner one writes)",
                    self.swizzle, inner.swizzle
                ),
            });
        };
        let offset = error::add(self.offset, inner.offset, OFFSET)?;
        let r = ComposedLayout::new(sw, offset, inner.layout.clone())?;
        if self.offset == 0 {
            return Ok(r);
        }
        let want = inner
            .values()
            .map(|x| x.and_then(|x| error::add(self.offset, x, OFFSET)));
        let want = want.map(|x| x.map(|x| self.swizzle.apply(x)));
        let diff = first_difference(inner.size(), "checking Sw o O o C", r.values(), want)?;
        checked(r, diff, op, what(), "Sw(O + C(i))")
    }

    /// CuTe's right inverse `right_inverse(L) ∘ (−O) ∘ Sw` brought into this
    /// form: `Sw' ∘ (−L⁻¹(O)) ∘ L⁻¹` with `L⁻¹` = [`Layout::right_inverse`]
    /// and `Sw'` by CuTe's rule, then checked: `C(R(i)) = i` for every
    /// `i < size(R)`. If the first failure is at `j > 0`, R is cut to the
    /// longest prefix of size `≤ j` that is a layout (CuTe's would be wrong
    /// there).
    ///
    /// # Errors
    /// [`Error::Precondition`] when the masks' images are no swizzle's, or the
    /// check fails at index 0; [`Error::BudgetExceeded`]; [`Error::Overflow`].
    ///
    /// ```
    /// use hlayout::algebra::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,0,1> o 0 o (4,4):(1,8)".parse().unwrap();
    /// let r = c.right_inverse().unwrap();
    /// assert_eq!(r.to_string(), "Sw<1,2,1> o 0 o 4:4"); // CuTe's
    /// assert!((0..4).all(|i| c.eval(r.eval(i).unwrap()).unwrap() == i));
    /// ```
    pub fn right_inverse(&self) -> Result<ComposedLayout> {
        if self.is_plain() {
            // C = L: the layout's right inverse is exact, nothing to check.
            return ComposedLayout::new(Swizzle::identity(), 0, self.layout.right_inverse());
        }
        let r = self.inverse_candidate(&self.layout.right_inverse(), "right_inverse")?;
        let got = r.values().map(|x| x.and_then(|x| self.eval(x)));
        let diff = first_difference(r.size(), "checking a right inverse", got, (0..).map(Ok))?;
        let Some((j, got, _)) = diff else {
            return Ok(r);
        };
        if j == 0 {
            return Err(Error::Precondition {
                op: "right_inverse",
                layout: self.to_string(),
                rule: format!("CuTe's right inverse {r} gives C(R(0)) = {got}, not 0"),
            });
        }
        ComposedLayout::new(r.swizzle, r.offset, prefix(&r.layout, j)?)
    }

    /// CuTe's left inverse `left_inverse(L) ∘ (−O) ∘ Sw` brought into this
    /// form: `Sw' ∘ (−L⁻¹(O)) ∘ L⁻¹` with `L⁻¹` = [`Layout::left_inverse`]
    /// (exact for layouts) and `Sw'` by CuTe's rule, checked at every index:
    /// `R(C(i)) = i₀`, i with the coordinates of L's stride-0 leaves set to 0
    /// (so `C(R(C(i))) = C(i)`, CuTe's postcondition).
    ///
    /// # Errors
    /// Those of [`Layout::left_inverse`]; [`Error::Precondition`] when the
    /// masks' images are no swizzle's or the check fails (naming the index);
    /// [`Error::BudgetExceeded`]; [`Error::Overflow`].
    ///
    /// ```
    /// use hlayout::algebra::ComposedLayout;
    /// let c: ComposedLayout = "Sw<1,0,1> o 0 o (4,4):(1,8)".parse().unwrap();
    /// let r = c.left_inverse().unwrap();
    /// assert_eq!(r.swizzle().to_string(), "Sw<1,2,1>"); // CuTe's
    /// assert!((0..16).all(|i| r.eval(c.eval(i).unwrap()).unwrap() == i));
    /// ```
    pub fn left_inverse(&self) -> Result<ComposedLayout> {
        if self.is_plain() {
            // C = L: the layout's left inverse is exact, nothing to check.
            return ComposedLayout::new(Swizzle::identity(), 0, self.layout.left_inverse()?);
        }
        let r = self.inverse_candidate(&self.layout.left_inverse()?, "left_inverse")?;
        let got = self.values().map(|x| x.and_then(|x| r.eval(x)));
        let want = kernel_free(&self.layout);
        let diff = first_difference(self.size(), "checking a left inverse", got, want)?;
        checked(
            r,
            diff,
            "left_inverse",
            self.to_string(),
            "i0 (i off L's kernel)",
        )
    }

    /// Whether C is its layout alone (identity swizzle, offset 0).
    fn is_plain(&self) -> bool {
        self.swizzle.is_identity() && self.offset == 0
    }

    /// `Sw' ∘ (−inv(O)) ∘ inv`, `Sw'` from inv's images of Sw's masks.
    fn inverse_candidate(&self, inv: &Layout, op: &'static str) -> Result<ComposedLayout> {
        let what = || self.to_string();
        let sw = through(inv, self.swizzle, op, &what)?;
        let offset = inv.eval(self.offset)?.checked_neg();
        ComposedLayout::new(sw, offset.ok_or(error::overflow(OFFSET))?, inv.clone())
    }

    /// Every `C(i)`, `i < size(C)`, as results (for [`first_difference`]).
    pub(super) fn values(&self) -> impl Iterator<Item = Result<i64>> + '_ {
        self.offsets().map(Ok)
    }
}

impl Layout {
    /// CuTe's `logical_product(A, C)` with a swizzled tiler C: `(P, A)` with
    /// `P = complement(A, size(A)·cosize(L)) ∘ C` (a composed layout, by
    /// [`ComposedLayout::left_compose`]) and A as the fast block, as one
    /// composed layout `Sw' ∘ O' ∘ (P's layout, A)`. That is A's blocks placed
    /// at the swizzled tile positions when `Sw'` leaves A's offsets alone;
    /// checked at every index when `Sw'` is not the identity.
    ///
    /// # Errors
    /// Those of [`Layout::complement`] and [`ComposedLayout::left_compose`];
    /// [`Error::Precondition`] naming the index where the swizzle would also
    /// move a block's own offsets; [`Error::BudgetExceeded`].
    ///
    /// ```
    /// use hlayout::{algebra::ComposedLayout, Layout};
    /// let block: Layout = "4:1".parse().unwrap();
    /// let tiles: ComposedLayout = "Sw<1,0,1> o 0 o 4:1".parse().unwrap(); // tiles 0 1 3 2
    /// let p = block.logical_product_composed(&tiles).unwrap();
    /// assert_eq!(p.to_string(), "Sw<1,2,1> o 0 o (4,4):(4,1)");
    /// ```
    pub fn logical_product_composed(&self, tiler: &ComposedLayout) -> Result<ComposedLayout> {
        let target = error::mul(self.size(), tiler.layout.cosize(), "cotarget of a product")?;
        let placed = tiler.left_compose(&self.complement(target)?)?;
        let r = ComposedLayout::new(placed.swizzle, placed.offset, pair(&placed.layout, self)?)?;
        if r.swizzle.is_identity() {
            return Ok(r);
        }
        let block: Vec<i64> = self.offsets().collect();
        let block = &block;
        let want = placed
            .offsets()
            .flat_map(|p| block.iter().map(move |&x| error::add(p, x, OFFSET)));
        let diff = first_difference(r.size(), "checking a product", r.values(), want)?;
        checked(
            r,
            diff,
            "logical_product",
            format!("{self} x ({tiler})"),
            "P(j) + A(a)",
        )
    }
}

/// The k with `A(x) = k·x` for every integer x, if there is one: every leaf
/// that reads a digit (extent > 1, or the first leaf, which keeps the
/// quotient) has stride `k·σ`, σ its place value (the product of the extents
/// after it). A leaf off that rule is seen at `x = σ`, where only its digit
/// is 1. A rank-0 layout (defined at 0 only) has none.
fn slope(a: &Layout) -> Option<i64> {
    let (shape, stride) = (a.shape_leaves(), a.stride_leaves());
    let k = a.eval(1).ok()?;
    let mut place = 1i64;
    for j in (0..shape.len()).rev() {
        if (j == 0 || shape[j] > 1) && Some(stride[j]) != k.checked_mul(place) {
            return None;
        }
        place = place.checked_mul(shape[j])?;
    }
    (!shape.is_empty()).then_some(k)
}

/// The longest prefix of `l` of size `≤ j` that is a layout: `l ∘ (m:1)` with
/// `m = q·P`, P the largest product of l's fastest coalesced leaves `≤ j`.
fn prefix(l: &Layout, j: i64) -> Result<Layout> {
    let c = l.coalesce();
    let mut place = 1i64;
    for &s in c.shape_leaves().iter().rev() {
        match place.checked_mul(s) {
            Some(p) if p <= j => place = p,
            _ => break,
        }
    }
    l.compose(&Layout::flat(&[j / place * place], &[1])?)
}

/// `i₀` for every `i < size(l)`: i with the row-major coordinates of l's
/// stride-0 leaves set to 0.
fn kernel_free(l: &Layout) -> impl Iterator<Item = Result<i64>> + '_ {
    let (shape, stride) = (l.shape_leaves(), l.stride_leaves());
    (0..l.size()).map(move |i| {
        let (mut rest, mut unit, mut out) = (i, 1i64, 0i64);
        for (&s, &d) in shape.iter().zip(stride).rev() {
            if d != 0 {
                out += (rest % s) * unit;
            }
            rest /= s;
            unit *= s;
        }
        Ok(out)
    })
}
