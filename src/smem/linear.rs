//! Power-of-two layouts as linear maps over F2: Triton's linear layouts.
//!
//! A map `f` on `[0, 2^n)` is *linear over F2* when `f(i)` is the XOR of
//! `f(2^k)` over the set bits `k` of `i`; the `n` values `o_k = f(2^k)` (input
//! bit 0 first) are its *bases*, Triton's `LinearLayout` for one input
//! dimension. A plain layout adds where F2 XORs, so it is linear exactly when
//! its bases have pairwise disjoint bits (no sum ever carries); a swizzle is
//! itself linear over F2 (`Sw(x ^ y) = Sw(x) ^ Sw(y)`), so `Sw ∘ 0 ∘ L` is
//! linear exactly when `L` is, with bases `Sw(o_k)` (`docs/smem.md`).

use std::fmt;

use crate::algebra::ComposedLayout;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::smem::{search_candidates, SmemLayout, SMEM_BUDGET};

/// Where a layout is not linear over F2: `L(index) ≠ expected`, the XOR of
/// the bases at the set bits of `index`; every smaller index agrees.
///
/// ```
/// use hlayout::smem::to_linear;
/// let why = to_linear(&"4:3".parse()?)?.unwrap_err();
/// assert_eq!((why.index, why.value, why.expected), (3, 9, 3 ^ 6));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotLinear {
    /// The first index that breaks linearity.
    pub index: i64,
    /// `L(index)`.
    pub value: i64,
    /// The XOR of the bases at the set bits of `index`.
    pub expected: i64,
}

impl fmt::Display for NotLinear {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not linear over F2: L({}) = {}, but the XOR of the bases at the set bits of {} is {}",
            self.index, self.value, self.index, self.expected
        )
    }
}

/// The bases `[L(1), L(2), L(4), …]` of a layout of size `2^n` when
/// `L(i)` is their XOR over the set bits of `i` for every `i`, else the
/// first index where it is not.
///
/// O(n² + leaves·n) when the inner layout's strides are ≥ 0 (closed form:
/// the first overlapping pair of bases); O(size) otherwise (every index
/// checked, at most [`SMEM_BUDGET`]).
///
/// # Errors
/// [`Error::Precondition`] when the size is not a power of two or an offset
/// is negative (linear layouts map to offsets ≥ 0);
/// [`Error::BudgetExceeded`] for a check over more than [`SMEM_BUDGET`]
/// indices.
///
/// ```
/// use hlayout::smem::to_linear;
/// let bases = to_linear(&"Sw<3,4,3> o 0 o (8,64):(64,1)".parse()?)?.unwrap();
/// assert_eq!(bases, [1, 2, 4, 8, 16, 32, 64, 128 ^ 16, 256 ^ 32]); // bit 7 onto 4, 8 onto 5
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn to_linear(layout: &SmemLayout) -> Result<std::result::Result<Vec<i64>, NotLinear>> {
    let size = layout.size();
    if size.count_ones() != 1 {
        return Err(refuse(
            layout,
            format!("its size {size} is not a power of two"),
        ));
    }
    let n = size.trailing_zeros();
    let bases = (0..n)
        .map(|k| layout.eval(1i64 << k))
        .collect::<Result<Vec<i64>>>()?;
    let inner = layout.inner();
    let plain_nonneg = inner
        .shape_leaves()
        .iter()
        .zip(inner.stride_leaves())
        .all(|(&e, &s)| e == 1 || s >= 0);
    if !plain_nonneg {
        return checked_walk(layout, bases);
    }
    let (sw, offset) = layout.outer();
    if offset != 0 {
        let value = sw.apply(offset);
        if value < 0 {
            return Err(refuse(
                layout,
                format!("its offset L(0) = {value} is negative"),
            ));
        }
        return Ok(Err(NotLinear {
            index: 0,
            value,
            expected: 0,
        }));
    }
    // Inner bases are ≥ 0; a sum of them equals their XOR iff no two share
    // a bit, and the first index with two overlapping bits 2^p + 2^q (q
    // smallest, then p) is the first index that breaks.
    let inner_bases: Vec<i64> = (0..n)
        .map(|k| inner.eval(1i64 << k))
        .collect::<Result<_>>()?;
    for q in 0..n as usize {
        for p in 0..q {
            if inner_bases[p] & inner_bases[q] != 0 {
                let index = (1i64 << p) | (1i64 << q);
                return Ok(Err(NotLinear {
                    index,
                    value: layout.eval(index)?,
                    expected: bases[p] ^ bases[q],
                }));
            }
        }
    }
    Ok(Ok(bases))
}

/// Checks every index: `L(i)` against the running XOR (`expected(i+1) =
/// expected(i) ^ o_0 ^ … ^ o_tz(i+1)`). O(size).
fn checked_walk(
    layout: &SmemLayout,
    bases: Vec<i64>,
) -> Result<std::result::Result<Vec<i64>, NotLinear>> {
    let size = layout.size();
    if size > SMEM_BUDGET {
        return Err(Error::BudgetExceeded {
            what: "linearity check of a layout with negative strides (indices)",
            needed: size,
            budget: SMEM_BUDGET,
        });
    }
    let mut prefix = Vec::with_capacity(bases.len());
    let mut acc = 0;
    for &b in &bases {
        acc ^= b;
        prefix.push(acc);
    }
    let eval = layout.evaluator();
    let mut expected = 0i64;
    for i in 0..size {
        if i > 0 {
            expected ^= prefix[i.trailing_zeros() as usize];
        }
        let value = eval.eval(i)?;
        if value < 0 {
            return Err(refuse(
                layout,
                format!("its offset L({i}) = {value} is negative"),
            ));
        }
        if value != expected {
            return Ok(Err(NotLinear {
                index: i,
                value,
                expected,
            }));
        }
    }
    Ok(Ok(bases))
}

fn refuse(layout: &SmemLayout, rule: String) -> Error {
    Error::Precondition {
        op: "linear_layout",
        layout: layout.to_string(),
        rule: format!("a linear layout over F2 needs a size 2^n and offsets >= 0: {rule}"),
    }
}

/// The layout, plain when one exists, else `Sw ∘ 0 ∘ L` with the first
/// swizzle of [`search_candidates`] that makes one exist, whose map is
/// `i ↦ XOR of bases[k] over the set bits k of i`: Triton's linear layout
/// back as a CuTe layout. The inner layout is coalesced.
///
/// O(111 · n) (each candidate: swizzle the bases, test that no two share a
/// bit).
///
/// # Errors
/// [`Error::Precondition`] when a base is negative, there are more than 62,
/// or no layout (plain, or swizzled in range) has these bases: the message
/// names two bases that overlap.
///
/// ```
/// use hlayout::smem::{from_linear, to_linear};
/// assert_eq!(from_linear(&[1, 2, 4, 8])?.to_string(), "16:1");
/// assert_eq!(from_linear(&[8, 16, 1, 2])?.to_string(), "(4,4):(1,8)");
/// let bases = [1, 2, 4, 8, 16, 32, 64, 128 ^ 16, 256 ^ 32, 512 ^ 64];
/// let sw = from_linear(&bases)?;
/// assert_eq!(sw.to_string(), "Sw<3,4,3> o 0 o 1024:1");
/// assert_eq!(to_linear(&sw)?.unwrap(), bases);
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn from_linear(bases: &[i64]) -> Result<SmemLayout> {
    let refuse = |rule: String| Error::Precondition {
        op: "from_linear",
        layout: format!("{bases:?}"),
        rule,
    };
    if bases.len() > 62 {
        return Err(refuse(format!(
            "{} bases: a layout's size 2^n must fit i64 (n <= 62)",
            bases.len()
        )));
    }
    if let Some(k) = bases.iter().position(|&b| b < 0) {
        return Err(refuse(format!(
            "base {k} is {} (offsets are >= 0)",
            bases[k]
        )));
    }
    for sw in search_candidates() {
        let swizzled: Vec<i64> = bases.iter().map(|&b| sw.apply(b)).collect();
        if overlap(&swizzled).is_none() {
            let l = plain(&swizzled)?;
            return Ok(if sw.is_identity() {
                SmemLayout::Plain(l)
            } else {
                SmemLayout::Swizzled(ComposedLayout::new(sw, 0, l)?)
            });
        }
    }
    let (p, q) = overlap(bases).unwrap_or((0, 0));
    Err(refuse(format!(
        "bases {p} ({}) and {q} ({}) share bits, so a layout would add a carry where F2 XORs, \
         and no swizzle Sw<B,M,S> (0 <= B <= 4, 0 <= M <= 4, B <= S <= 7) separates all of them",
        bases[p], bases[q]
    )))
}

/// The first pair (q, then p, smallest) of bases sharing a bit.
fn overlap(bases: &[i64]) -> Option<(usize, usize)> {
    let mut seen = 0i64;
    for (q, &b) in bases.iter().enumerate() {
        if seen & b != 0 {
            let p = bases[..q].iter().position(|&a| a & b != 0).unwrap_or(0);
            return Some((p, q));
        }
        seen |= b;
    }
    None
}

/// `(2,…,2):(o_{n-1},…,o_0)` coalesced: row-major, input bit 0 is the last
/// mode.
fn plain(bases: &[i64]) -> Result<Layout> {
    if bases.is_empty() {
        return Layout::flat(&[1], &[0]);
    }
    let shape = vec![2i64; bases.len()];
    let stride: Vec<i64> = bases.iter().rev().copied().collect();
    Ok(Layout::flat(&shape, &stride)?.coalesce())
}
