//! Shared memory: bank conflicts, the optimal swizzle, F2 linear layouts.
//!
//! A kernel stages a tile in GPU shared memory through a layout `L` (plain,
//! or swizzled `Sw ∘ O ∘ L`: [`SmemLayout`]) that maps an element's index to
//! its position in shared memory, in elements. Threads read it through an
//! *access* `A` ([`Access`]): a plain layout of top-level rank 2, `T` threads
//! by `V` values, where `A(t·V + v)` is the index thread `t` reads as its
//! value `v`. The model is the batch protocol's ("Shared memory"), the one
//! of NVIDIA GPUs since Volta: 32 banks of 4-byte words, warps of 32
//! consecutive threads, one request per warp and value, served in as many
//! *wavefronts* as the largest number of distinct words asked of one bank.
//!
//! - `banks.rs`: the exact count ([`bank_conflicts`]) and the per-(warp,
//!   value) word sets that the search reuses;
//! - `swizzle_search.rs`: the swizzle `Sw<B,M,S>` that minimises the
//!   wavefronts of an access ([`swizzle_search`]), and the swizzle that maps
//!   one layout onto another ([`swizzle_between`], cutlass issue #1038);
//! - `linear.rs`: power-of-two layouts as linear maps over F2, Triton's
//!   "linear layouts" ([`to_linear`], [`from_linear`]).
//!
//! The mathematics, the algorithms and worked examples are in `docs/smem.md`.

use std::fmt;
use std::str::FromStr;

use crate::algebra::{ComposedLayout, ComposedOffsets, Swizzle};
use crate::error::{Error, Result};
use crate::layout::{Evaluator, Layout, Offsets};

mod banks;
mod linear;
mod swizzle_search;

pub use banks::{bank_conflicts, BankConflicts, GroupCount};
pub use linear::{from_linear, to_linear, NotLinear};
pub use swizzle_search::{
    search_candidates, swizzle_between, swizzle_search, NoSwizzle, SwizzleChoice,
};

/// The most points (accessed elements, or indices checked) one shared-memory
/// question may cost: `2^24`, 64 MiB of fp32 (shared memory holds at most a
/// few hundred KiB). Above it the answer is [`Error::BudgetExceeded`].
pub const SMEM_BUDGET: i64 = 1 << 24;

/// Banks of shared memory.
pub const BANKS: i64 = 32;

/// Threads of a warp.
pub const WARP: i64 = 32;

/// A shared-memory layout: plain `L`, or swizzled `Sw ∘ O ∘ L`.
///
/// Its text is a layout's or a composed layout's (it starts with `Sw<`).
///
/// ```
/// use hlayout::smem::SmemLayout;
/// let s: SmemLayout = "Sw<1,0,2> o 0 o (4,4):(4,1)".parse()?;
/// assert_eq!((s.size(), s.eval(4)?), (16, 5));
/// let p: SmemLayout = "(4,4):(4,1)".parse()?;
/// assert_eq!(p.to_string(), "(4,4):(4,1)");
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SmemLayout {
    /// A plain layout.
    Plain(Layout),
    /// A swizzled (composed) layout.
    Swizzled(ComposedLayout),
}

impl SmemLayout {
    /// The number of indices.
    ///
    /// ```
    /// let s: hlayout::smem::SmemLayout = "(8,8):(8,1)".parse().unwrap();
    /// assert_eq!(s.size(), 64);
    /// ```
    pub fn size(&self) -> i64 {
        match self {
            SmemLayout::Plain(l) => l.size(),
            SmemLayout::Swizzled(c) => c.size(),
        }
    }

    /// The position of index `i`, in elements. O(leaves).
    ///
    /// # Errors
    /// Those of [`Layout::eval`] and [`ComposedLayout::eval`].
    ///
    /// ```
    /// let s: hlayout::smem::SmemLayout = "Sw<1,0,1> o 0 o 4:1".parse().unwrap();
    /// assert_eq!(s.eval(2).unwrap(), 3);
    /// ```
    pub fn eval(&self, i: i64) -> Result<i64> {
        match self {
            SmemLayout::Plain(l) => l.eval(i),
            SmemLayout::Swizzled(c) => c.eval(i),
        }
    }

    /// The plain part: `L` itself, or the inner layout of `Sw ∘ O ∘ L`.
    ///
    /// ```
    /// let s: hlayout::smem::SmemLayout = "Sw<1,0,1> o 0 o 4:1".parse().unwrap();
    /// assert_eq!(s.inner().to_string(), "4:1");
    /// ```
    pub fn inner(&self) -> &Layout {
        match self {
            SmemLayout::Plain(l) => l,
            SmemLayout::Swizzled(c) => c.layout(),
        }
    }

    /// The swizzle and offset applied after the inner layout (the identity
    /// and 0 for a plain layout).
    ///
    /// ```
    /// let s: hlayout::smem::SmemLayout = "Sw<1,0,1> o 8 o 4:1".parse().unwrap();
    /// assert_eq!(s.outer().1, 8);
    /// ```
    pub fn outer(&self) -> (Swizzle, i64) {
        match self {
            SmemLayout::Plain(_) => (Swizzle::identity(), 0),
            SmemLayout::Swizzled(c) => (c.swizzle(), c.offset()),
        }
    }

    /// Every offset in index order, incrementally (no division per element).
    ///
    /// ```
    /// let s: hlayout::smem::SmemLayout = "Sw<1,0,1> o 0 o 4:1".parse().unwrap();
    /// assert_eq!(s.offsets().collect::<Vec<_>>(), [0, 1, 3, 2]);
    /// ```
    pub fn offsets(&self) -> SmemOffsets {
        match self {
            SmemLayout::Plain(l) => SmemOffsets::Plain(l.offsets()),
            SmemLayout::Swizzled(c) => SmemOffsets::Swizzled(c.offsets()),
        }
    }

    /// A fast evaluator for many indices (multiply-high reciprocals).
    pub(crate) fn evaluator(&self) -> SmemEval {
        let (swizzle, offset) = self.outer();
        SmemEval {
            inner: self.inner().evaluator(),
            swizzle,
            offset,
        }
    }
}

/// The offsets of a [`SmemLayout`] in index order ([`SmemLayout::offsets`]).
#[derive(Clone, Debug)]
pub enum SmemOffsets {
    /// A plain layout's stream.
    Plain(Offsets),
    /// A composed layout's stream.
    Swizzled(ComposedOffsets),
}

impl Iterator for SmemOffsets {
    type Item = i64;

    #[inline]
    fn next(&mut self) -> Option<i64> {
        match self {
            SmemOffsets::Plain(o) => o.next(),
            SmemOffsets::Swizzled(o) => o.next(),
        }
    }
}

/// [`SmemLayout::eval`] through an [`Evaluator`].
pub(crate) struct SmemEval {
    inner: Evaluator,
    swizzle: Swizzle,
    offset: i64,
}

impl SmemEval {
    /// `Sw(O + L(i))`.
    #[inline]
    pub(crate) fn eval(&self, i: i64) -> Result<i64> {
        let x = self.inner.eval(i)?;
        let x = crate::error::add(self.offset, x, "offset of a composed layout")?;
        Ok(self.swizzle.apply(x))
    }
}

impl From<Layout> for SmemLayout {
    fn from(l: Layout) -> SmemLayout {
        SmemLayout::Plain(l)
    }
}

impl From<ComposedLayout> for SmemLayout {
    fn from(c: ComposedLayout) -> SmemLayout {
        SmemLayout::Swizzled(c)
    }
}

impl fmt::Display for SmemLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmemLayout::Plain(l) => l.fmt(f),
            SmemLayout::Swizzled(c) => c.fmt(f),
        }
    }
}

impl FromStr for SmemLayout {
    type Err = Error;

    /// Composed text when it starts with `Sw<`, layout text otherwise.
    fn from_str(text: &str) -> Result<SmemLayout> {
        if text.trim_start().starts_with("Sw<") {
            Ok(SmemLayout::Swizzled(text.parse()?))
        } else {
            Ok(SmemLayout::Plain(text.parse()?))
        }
    }
}

/// A thread/value access: a plain layout of top-level rank 2, `T` threads by
/// `V` values; thread `t` reads index `A(t·V + v)` as its value `v`.
///
/// ```
/// use hlayout::smem::Access;
/// let a = Access::new("(32,4):(1,32)".parse()?)?;
/// assert_eq!((a.threads(), a.values()), (32, 4));
/// assert!(Access::new("32:1".parse()?).is_err()); // rank 1
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Access {
    layout: Layout,
    threads: i64,
    values: i64,
}

impl Access {
    /// The access `A`.
    ///
    /// # Errors
    /// [`Error::Precondition`] unless `A` has top-level rank 2.
    pub fn new(layout: Layout) -> Result<Access> {
        if layout.rank() != 2 {
            return Err(Error::Precondition {
                op: "access",
                layout: layout.to_string(),
                rule: format!(
                    "an access has top-level rank 2 (threads, values), this one has rank {}",
                    layout.rank()
                ),
            });
        }
        let threads = layout.mode(0)?.size();
        let values = layout.mode(1)?.size();
        Ok(Access {
            layout,
            threads,
            values,
        })
    }

    /// `T`, the number of threads (top-level mode 0).
    pub fn threads(&self) -> i64 {
        self.threads
    }

    /// `V`, the values per thread (top-level mode 1).
    pub fn values(&self) -> i64 {
        self.values
    }

    /// The layout `A`.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The number of warps, `ceil(T / 32)`.
    ///
    /// ```
    /// let a = hlayout::smem::Access::new("(40,2):(2,1)".parse().unwrap()).unwrap();
    /// assert_eq!(a.warps(), 2);
    /// ```
    pub fn warps(&self) -> i64 {
        (self.threads + WARP - 1) / WARP
    }
}

impl fmt::Display for Access {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.layout.fmt(f)
    }
}

/// `log2(4 / b)`: an element offset `x` lies in word `x >> k`.
///
/// # Errors
/// [`Error::Precondition`] unless `b` is 1, 2 or 4.
pub(crate) fn word_shift(element_bytes: i64) -> Result<u32> {
    match element_bytes {
        4 => Ok(0),
        2 => Ok(1),
        1 => Ok(2),
        b => Err(Error::Precondition {
            op: "bank_conflicts",
            layout: format!("element_bytes = {b}"),
            rule: "elements are 1, 2 or 4 bytes (banks are 4-byte words)".into(),
        }),
    }
}
