//! [`Profile`]: the nesting structure of an [`IntTuple`](super::IntTuple)
//! without its values, as a bracket string (`(_,(_,_))`), and the walks over
//! bracket strings that every nested type shares: top-level mode spans,
//! nested printing, and the depth limit [`MAX_DEPTH`].
//!
//! ```
//! use hlayout::IntTuple;
//! let t: IntTuple = "(2,(3,4))".parse().unwrap();
//! assert_eq!(t.profile().to_string(), "(_,(_,_))");
//! ```

use std::fmt;
use std::ops::Range;

use smallvec::SmallVec;

use crate::error::{Error, Result};

/// The deepest nesting accepted anywhere in the crate (parsing, construction).
///
/// It bounds the recursion of every algorithm, so no input can overflow the stack.
pub const MAX_DEPTH: usize = 64;

/// One bracket of a [`Profile`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Tok {
    Open,
    Leaf,
    Close,
}

/// The nesting structure of an [`IntTuple`](super::IntTuple), without its values: `(_,(_,_))`.
///
/// Two tuples are *congruent* when their profiles are equal.
///
/// ```
/// use hlayout::IntTuple;
/// let a: IntTuple = "(2,(3,4))".parse().unwrap();
/// let b: IntTuple = "(7,(1,9))".parse().unwrap();
/// assert_eq!(a.profile(), b.profile());
/// assert!(a.congruent(&b));
/// ```
#[derive(PartialEq, Eq, Hash, Debug)]
pub struct Profile {
    pub(super) toks: SmallVec<[Tok; 24]>,
}

impl Profile {
    /// The profile of a single integer.
    #[inline]
    pub(crate) fn leaf() -> Profile {
        Profile {
            toks: smallvec::smallvec![Tok::Leaf],
        }
    }

    pub(crate) fn toks(&self) -> &[Tok] {
        &self.toks
    }

    pub(crate) fn from_toks(toks: &[Tok]) -> Profile {
        Profile {
            toks: SmallVec::from_slice(toks),
        }
    }

    /// Takes ownership of a bracket string (no copy).
    pub(crate) fn from_vec(toks: SmallVec<[Tok; 24]>) -> Profile {
        Profile { toks }
    }

    /// The profile of a flat tuple of `n` leaves (inline: a few stores when
    /// it fits the inline buffer).
    #[inline(always)]
    pub(crate) fn flat(n: usize) -> Profile {
        if n + 2 > 24 {
            return Profile::flat_spilled(n);
        }
        let mut buf = [Tok::Leaf; 24];
        (buf[0], buf[n + 1]) = (Tok::Open, Tok::Close);
        Profile {
            toks: SmallVec::from_buf_and_len(buf, n + 2),
        }
    }

    #[cold]
    fn flat_spilled(n: usize) -> Profile {
        let mut toks: SmallVec<[Tok; 24]> = SmallVec::from_elem(Tok::Leaf, n + 2);
        toks[0] = Tok::Open;
        toks[n + 1] = Tok::Close;
        Profile { toks }
    }

    /// Number of leaves.
    ///
    /// ```
    /// let t: hlayout::IntTuple = "((2,3),4)".parse().unwrap();
    /// assert_eq!(t.profile().leaf_count(), 3);
    /// ```
    pub fn leaf_count(&self) -> usize {
        self.toks.iter().filter(|t| **t == Tok::Leaf).count()
    }
}

impl Clone for Profile {
    /// A slice copy (SmallVec's own clone goes element by element).
    fn clone(&self) -> Profile {
        Profile {
            toks: SmallVec::from_slice(&self.toks),
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_nested(f, &self.toks, self.leaf_count(), |f, _| f.write_str("_"))
    }
}

/// The top-level modes of `toks` as (token range, leaf range) pairs.
///
/// A single leaf yields itself once; a tuple yields each child. O(len) in total.
pub(crate) fn mode_spans(toks: &[Tok]) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + '_ {
    let single = toks == [Tok::Leaf];
    let (mut t, mut l) = (if single { 0 } else { 1 }, 0usize);
    let end = if single {
        1
    } else {
        toks.len().saturating_sub(1)
    };
    std::iter::from_fn(move || {
        if t >= end {
            return None;
        }
        let (t0, l0) = (t, l);
        let mut depth = 0usize;
        loop {
            match toks[t] {
                Tok::Open => depth += 1,
                Tok::Close => depth -= 1,
                Tok::Leaf => l += 1,
            }
            t += 1;
            if depth == 0 {
                break;
            }
        }
        Some((t0..t, l0..l))
    })
}

/// Writes a nested structure, calling `leaf(f, i)` for the i-th leaf.
pub(crate) fn write_nested(
    f: &mut fmt::Formatter<'_>,
    toks: &[Tok],
    _leaf_count: usize,
    mut leaf: impl FnMut(&mut fmt::Formatter<'_>, usize) -> fmt::Result,
) -> fmt::Result {
    let mut i = 0;
    let mut need_comma = false;
    for t in toks {
        match t {
            Tok::Open => {
                if need_comma {
                    f.write_str(",")?;
                }
                f.write_str("(")?;
                need_comma = false;
            }
            Tok::Close => {
                f.write_str(")")?;
                need_comma = true;
            }
            Tok::Leaf => {
                if need_comma {
                    f.write_str(",")?;
                }
                leaf(f, i)?;
                i += 1;
                need_comma = true;
            }
        }
    }
    Ok(())
}

/// [`Error::TooDeep`] when `depth > MAX_DEPTH`.
pub(crate) fn check_depth(depth: usize) -> Result<()> {
    if depth > MAX_DEPTH {
        Err(Error::TooDeep { depth })
    } else {
        Ok(())
    }
}
