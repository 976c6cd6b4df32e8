//! `coalesce`: the same function with the fewest leaves.
//!
//! Row-major rule: two adjacent leaves `s0:d0` (slower) and `s1:d1` (faster)
//! merge into `s0·s1 : d1` exactly when `d0 = s1·d1`, since then
//! `c0·d0 + c1·d1 = (c0·s1 + c1)·d1`. Extent-1 leaves contribute nothing and are
//! dropped. One pass from the fastest leaf, O(leaves), no allocation for ≤ 8
//! leaves. The result is an integer layout when one leaf remains (`1:0` when
//! none does), else a flat tuple.
//!
//! Minimality: after the pass no two adjacent leaves satisfy the merge rule and
//! none has extent 1; such a flat layout has the fewest leaves among layouts with
//! the same function (see `docs/model.md`).

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::num::Ints;
use crate::tuple::{Builder, Profile, Tok, TupleRef};

impl Layout {
    /// The same function with the fewest leaves (flat, or an integer layout).
    ///
    /// O(leaves); allocates nothing for ≤ 8 leaves.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "(2,(2,2)):(4,(2,1))".parse().unwrap();
    /// assert_eq!(l.coalesce().to_string(), "8:1");
    /// let t: Layout = "((10,10)):((1,10))".parse().unwrap();
    /// assert_eq!(t.coalesce().to_string(), "(10,10):(1,10)");
    /// assert_eq!("(1,1):(3,5)".parse::<Layout>().unwrap().coalesce().to_string(), "1:0");
    /// ```
    pub fn coalesce(&self) -> Layout {
        let (s, d) = (self.shape_leaves(), self.stride_leaves());
        if s.len() > 8 {
            let (shape, stride) = coalesce_leaves(s, d);
            return with_profile(shape, stride, self.size());
        }
        // Written in place: the arrays become the result's inline storage.
        let (mut shape, mut stride) = ([0i64; 8], [0i64; 8]);
        let m = coalesce_into(s, d, &mut shape, &mut stride);
        with_profile(
            SmallVec::from_buf_and_len(shape, m),
            SmallVec::from_buf_and_len(stride, m),
            self.size(),
        )
    }

    /// Coalesces mode by mode following `profile`: where `profile` has an integer,
    /// that sub-layout is coalesced whole; where it has a tuple, recursively. A
    /// tuple profile shorter than the rank applies to the trailing modes (the
    /// leading ones are kept), as NumPy broadcasting aligns shapes. Only the
    /// structure of `profile` matters, not its values. O(leaves · depth).
    ///
    /// # Errors
    /// [`Error::ProfileTooLong`] when a tuple in `profile` has more modes than the
    /// sub-layout it applies to.
    ///
    /// ```
    /// use hlayout::Layout;
    /// let l: Layout = "((2,3),(4,5)):((3,1),(5,1))".parse().unwrap();
    /// assert_eq!(l.coalesce_by(&"(1,1)".parse().unwrap()).unwrap().to_string(), "(6,20):(1,1)");
    /// assert_eq!(l.coalesce_by(&"(1)".parse().unwrap()).unwrap().to_string(), "((2,3),20):((3,1),1)");
    /// ```
    pub fn coalesce_by(&self, profile: &crate::tuple::IntTuple) -> Result<Layout> {
        let mut b = LayoutBuilder::default();
        by_profile(self, profile.as_ref(), &mut b)?;
        b.finish()
    }
}

fn by_profile(l: &Layout, profile: TupleRef<'_>, out: &mut LayoutBuilder) -> Result<()> {
    if profile.as_int().is_some() || l.profile().toks() == [Tok::Leaf] {
        out.push(&l.coalesce());
        return Ok(());
    }
    let (rank, prank) = (l.rank(), profile.rank());
    if prank > rank {
        return Err(Error::ProfileTooLong {
            profile_rank: prank,
            layout_rank: rank,
        });
    }
    out.b.open();
    let mut targets = std::iter::repeat_n(None, rank - prank).chain(profile.modes().map(Some));
    for mode in l.modes() {
        match targets.next().flatten() {
            Some(p) => by_profile(&mode, p, out)?,
            None => out.push(&mode),
        }
    }
    out.b.close();
    Ok(())
}

/// Builds a layout from sub-layouts (shape and stride share one profile).
#[derive(Default)]
pub(crate) struct LayoutBuilder {
    pub(crate) b: Builder,
    pub(crate) stride: Ints,
}

impl LayoutBuilder {
    pub(crate) fn push(&mut self, l: &Layout) {
        self.b.push(l.shape());
        self.stride.extend_from_slice(l.stride_leaves());
    }

    /// The assembled layout, validated: parts built from valid layouts can
    /// still have a combined offset span past `i64`.
    pub(crate) fn finish(self) -> Result<Layout> {
        let shape = self.b.finish();
        let (profile, leaves) = (
            shape.profile().clone(),
            SmallVec::from_slice(shape.leaves()),
        );
        Layout::from_leaves(profile, leaves, self.stride)
    }
}

/// The layout of coalesced leaves: an integer layout for one leaf, else flat.
/// Merging multiplies extents and drops 1s, so the size is the input's.
#[inline(always)]
fn with_profile(shape: Ints, stride: Ints, size: i64) -> Layout {
    let profile = if shape.len() == 1 {
        Profile::leaf()
    } else {
        Profile::flat(shape.len())
    };
    Layout::from_trusted_sized(profile, shape, stride, size)
}

/// Coalesces flat leaves (row-major), returning at least one leaf (`1:0` if all vanish).
/// O(leaves); no allocation for ≤ 8 leaves (the result is written in place).
#[inline]
pub(crate) fn coalesce_leaves(shape: &[i64], stride: &[i64]) -> (Ints, Ints) {
    if shape.len() <= 8 {
        let (mut s, mut d) = ([0i64; 8], [0i64; 8]);
        let m = coalesce_into(shape, stride, &mut s, &mut d);
        return (
            SmallVec::from_buf_and_len(s, m),
            SmallVec::from_buf_and_len(d, m),
        );
    }
    let n = shape.len();
    let (mut s, mut d) = (vec![0i64; n], vec![0i64; n]);
    let m = coalesce_into(shape, stride, &mut s, &mut d);
    (SmallVec::from_slice(&s[..m]), SmallVec::from_slice(&d[..m]))
}

/// Writes the coalesced leaves, slowest first, to the front of `out_s` and
/// `out_d` (room for `max(1, leaves)`) and returns how many. One pass from the
/// slowest leaf: the run so far (`cur`) absorbs the next faster leaf `s:d`
/// when `cur`'s stride is `s·d` (the rule of the module docs, applied to the
/// run's fastest leaf, so the runs are those of a pass from either end).
#[inline]
fn coalesce_into(shape: &[i64], stride: &[i64], out_s: &mut [i64], out_d: &mut [i64]) -> usize {
    let mut m = 0;
    let (mut cur_s, mut cur_d) = (1i64, 0i64);
    for (&s, &d) in shape.iter().zip(stride) {
        if s == 1 {
            continue;
        }
        if cur_s == 1 {
            (cur_s, cur_d) = (s, d);
        } else if s.checked_mul(d) == Some(cur_d) {
            (cur_s, cur_d) = (cur_s * s, d); // ≤ size
        } else {
            (out_s[m], out_d[m]) = (cur_s, cur_d);
            m += 1;
            (cur_s, cur_d) = (s, d);
        }
    }
    (out_s[m], out_d[m]) = (cur_s, if cur_s == 1 { 0 } else { cur_d });
    m + 1
}
