//! [`Movement`]: tinygrad's movement ops as values, the one vocabulary of
//! movement ops shared by the crate, the command line (`hlayout expr
//! --chain`), the batch protocol's `chain` request and the Python package.
//!
//! The set is tinygrad 0.10.3's (`ShapeTracker.reshape`, `permute`,
//! `expand`, `pad`, `shrink`, `flip`), which is also the batch protocol's
//! list of chain ops. A value is applied with [`ViewStack::apply`], named by
//! its [`MovementKind`], and written (and parsed back) in the protocol's
//! JSON form, `["pad",[[1,1],[0,0]]]`.
//!
//! ```
//! use hlayout::{Movement, ViewStack};
//! let chain: Vec<Movement> = ["[\"permute\",[1,0]]", "[\"reshape\",[100]]"]
//!     .iter()
//!     .map(|text| text.parse())
//!     .collect::<Result<_, _>>()?;
//! let t = chain.iter().try_fold(ViewStack::new(&[10, 10])?, ViewStack::apply)?;
//! assert_eq!(t.to_string(), "((10,10)):((1,10))");
//! assert_eq!(chain[0].to_string(), r#"["permute",[1,0]]"#);
//! # Ok::<(), hlayout::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use super::movement_text::{movement_from, parse, Parsed};
use super::ViewStack;
use crate::error::{unknown_name, Error, Result};

/// One movement op with its argument, tinygrad 0.10.3's semantics and
/// preconditions (see the methods of [`ViewStack`] of the same names).
///
/// ```
/// use hlayout::{Movement, ViewStack};
/// let pad = Movement::Pad(vec![(1, 1)]);
/// let t = ViewStack::new(&[2])?.apply(&pad)?;
/// assert_eq!(t.to_string(), "4:1-1 if 1<=x0<3");
/// assert_eq!(pad.to_string(), r#"["pad",[[1,1]]]"#);
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Movement {
    /// The new shape (same number of elements).
    Reshape(Vec<i64>),
    /// New dimension `k` is old dimension `perm[k]`.
    Permute(Vec<usize>),
    /// The new shape: extent-1 dimensions broadcast (stride 0).
    Expand(Vec<i64>),
    /// `(before, after)` invalid elements per dimension.
    Pad(Vec<(i64, i64)>),
    /// `[begin, end)` kept per dimension.
    Shrink(Vec<(i64, i64)>),
    /// Whether each dimension is reversed.
    Flip(Vec<bool>),
}

/// Which movement op a [`Movement`] is; parsed from, and written as, its
/// name in the batch protocol (`"reshape"`, …).
///
/// ```
/// use hlayout::MovementKind;
/// let k: MovementKind = "shrink".parse()?;
/// assert_eq!(k, MovementKind::Shrink);
/// let e = "stride".parse::<MovementKind>().unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "unknown movement op 'stride' (known: reshape, permute, expand, pad, shrink, flip)"
/// );
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MovementKind {
    /// `reshape`.
    Reshape,
    /// `permute`.
    Permute,
    /// `expand`.
    Expand,
    /// `pad`.
    Pad,
    /// `shrink`.
    Shrink,
    /// `flip`.
    Flip,
}

impl MovementKind {
    /// Every kind, in the batch protocol's order.
    ///
    /// ```
    /// use hlayout::MovementKind;
    /// let names: Vec<&str> = MovementKind::ALL.iter().map(|k| k.name()).collect();
    /// assert_eq!(names, MovementKind::NAMES);
    /// ```
    pub const ALL: [MovementKind; 6] = [
        MovementKind::Reshape,
        MovementKind::Permute,
        MovementKind::Expand,
        MovementKind::Pad,
        MovementKind::Shrink,
        MovementKind::Flip,
    ];

    /// Every name, in the batch protocol's order.
    ///
    /// ```
    /// assert_eq!(hlayout::MovementKind::NAMES.join(", "), "reshape, permute, expand, pad, shrink, flip");
    /// ```
    pub const NAMES: [&'static str; 6] = ["reshape", "permute", "expand", "pad", "shrink", "flip"];

    /// The name (`"reshape"`, …).
    ///
    /// ```
    /// assert_eq!(hlayout::MovementKind::Flip.name(), "flip");
    /// ```
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl FromStr for MovementKind {
    type Err = Error;

    /// The kind named `name` (exact, lower case). O(1).
    ///
    /// # Errors
    /// [`Error::UnknownName`] listing the known names.
    fn from_str(name: &str) -> Result<MovementKind> {
        Self::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| unknown_name("movement op", name, &Self::NAMES))
    }
}

impl fmt::Display for MovementKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Movement {
    /// Which op this is.
    ///
    /// ```
    /// use hlayout::{Movement, MovementKind};
    /// assert_eq!(Movement::Flip(vec![true]).kind(), MovementKind::Flip);
    /// ```
    pub fn kind(&self) -> MovementKind {
        match self {
            Movement::Reshape(_) => MovementKind::Reshape,
            Movement::Permute(_) => MovementKind::Permute,
            Movement::Expand(_) => MovementKind::Expand,
            Movement::Pad(_) => MovementKind::Pad,
            Movement::Shrink(_) => MovementKind::Shrink,
            Movement::Flip(_) => MovementKind::Flip,
        }
    }
}

impl ViewStack {
    /// Applies one movement op: the method of the same name
    /// ([`reshape`](ViewStack::reshape), [`permute`](ViewStack::permute), …)
    /// with the op's argument. Takes the stack by value like those methods, so
    /// a chain is a fold:
    /// `ops.iter().try_fold(stack, ViewStack::apply)`.
    ///
    /// # Errors
    /// The op's [`Error::BadMovement`] (or [`Error::Overflow`]) when its
    /// argument breaks tinygrad's precondition.
    ///
    /// ```
    /// use hlayout::{Movement, ViewStack};
    /// let ops = [Movement::Reshape(vec![2, 3]), Movement::Permute(vec![1, 0])];
    /// let t = ops.iter().try_fold(ViewStack::new(&[6])?, ViewStack::apply)?;
    /// assert_eq!(t.to_string(), "(3,2):(1,3)");
    /// assert!(t.apply(&Movement::Permute(vec![0])).is_err()); // wrong rank
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn apply(self, op: &Movement) -> Result<ViewStack> {
        match op {
            Movement::Reshape(s) => self.reshape(s),
            Movement::Permute(p) => self.permute(p),
            Movement::Expand(s) => self.expand(s),
            Movement::Pad(a) => self.pad(a),
            Movement::Shrink(a) => self.shrink(a),
            Movement::Flip(f) => self.flip(f),
        }
    }
}

/// `[a,b,…]` with each item written by `item`.
fn list<T>(
    f: &mut fmt::Formatter<'_>,
    items: &[T],
    item: impl Fn(&mut fmt::Formatter<'_>, &T) -> fmt::Result,
) -> fmt::Result {
    f.write_str("[")?;
    for (k, x) in items.iter().enumerate() {
        if k > 0 {
            f.write_str(",")?;
        }
        item(f, x)?;
    }
    f.write_str("]")
}

impl fmt::Display for Movement {
    /// The batch protocol's JSON form, `["name",argument]`, without spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[\"{}\",", self.kind())?;
        match self {
            Movement::Reshape(v) | Movement::Expand(v) => list(f, v, |f, x| write!(f, "{x}")),
            Movement::Permute(v) => list(f, v, |f, x| write!(f, "{x}")),
            Movement::Pad(v) | Movement::Shrink(v) => {
                list(f, v, |f, (a, b)| write!(f, "[{a},{b}]"))
            }
            Movement::Flip(v) => list(f, v, |f, x| write!(f, "{x}")),
        }?;
        f.write_str("]")
    }
}

impl FromStr for Movement {
    type Err = Error;

    /// Parses the batch protocol's JSON form, `["name",argument]` (spaces
    /// allowed between tokens): the inverse of `Display`. O(length).
    ///
    /// # Errors
    /// [`Error::Parse`] with the byte position for malformed text (an
    /// integer beyond `i64` included), [`Error::UnknownName`] for a name
    /// that is not a movement op.
    ///
    /// ```
    /// use hlayout::Movement;
    /// let m: Movement = r#"[ "shrink", [[0, 2], [1, 3]] ]"#.parse()?;
    /// assert_eq!(m, Movement::Shrink(vec![(0, 2), (1, 3)]));
    /// assert!(r#"["flip",[1]]"#.parse::<Movement>().is_err());
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<Movement> {
        const INT: &str = "an integer";
        Ok(movement_from!(Movement, parse(text, INT, |c| c.int(INT))?))
    }
}
