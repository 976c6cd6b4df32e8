//! Reshape of a single view: regroup the leaves, splitting where the new shape cuts.
//!
//! The row-major index over a view's shape equals the row-major index over its
//! leaves (a windowed dimension counting as one opaque unit), so a reshape only
//! has to express the new dimensions through the leaves. Steps, each exact:
//!
//! 1. drop extent-1 leaves and coalesce adjacent leaves whose stride *and* every
//!    constraint coefficient scale by the faster leaf's extent (the merged
//!    coordinate `x_k·s_{k+1} + x_{k+1}` then carries the same offset and the same
//!    constraint values);
//! 2. walk the leaves and the new shape from the fastest end, splitting a leaf
//!    `x` of extent `s = p·q` into `x = y·q + z` (strides `d·q`, `d`; coefficients
//!    `a·q`, `a`) wherever a new dimension boundary falls inside it;
//! 3. give each new dimension the pieces it covers, as a nested mode.
//!
//! A windowed dimension can be neither split nor merged: it must become one new
//! dimension of the same extent. Step 2 fails exactly when two remaining
//! extents do not divide each other (no common refinement) or a window would be
//! cut; the caller then pushes a view. Coalescing first can only help (coarser
//! leaves have fewer suffix products, so more shapes refine them).
//! O(leaves + rank).

use smallvec::SmallVec;

use super::{Builder, View};
use crate::error::{Error, Result};

/// Most leaves of a view whose reshape is written in place (see `write_pieces`).
const PLAIN_LEAVES: usize = 8;

/// A unit of the reshape walk: `extent` leaves' worth of coordinates taking
/// their stride and coefficients from leaf `src`, or the windowed dimension `src`.
#[derive(Clone, Copy)]
struct Unit {
    extent: i64,
    src: usize,
    window: bool,
}

/// What a new dimension receives, fastest first while walking.
#[derive(Clone, Copy)]
enum Piece {
    /// `extent` coordinates of leaf `src`, scaled by `scale`.
    Leaf { extent: i64, src: usize, scale: i64 },
    /// The whole windowed dimension `src`.
    Window { src: usize },
}

impl View {
    /// Reshapes to `shape` (same number of elements, extents >= 0).
    pub(crate) fn reshape(&mut self, shape: &[i64]) -> Result<bool> {
        let size = self.size();
        // A 0 anywhere makes the size 0, whatever the other extents' product.
        let new_size = if shape.contains(&0) {
            shape.iter().all(|&s| s >= 0).then_some(0)
        } else {
            shape
                .iter()
                .try_fold(1i64, |a, &s| if s < 0 { None } else { a.checked_mul(s) })
        };
        if new_size != Some(size) {
            return Err(Error::BadMovement {
                op: "reshape",
                why: format!(
                    "shape {shape:?} does not have {size} elements of extent >= 0 (from {:?})",
                    self.shape()
                ),
            });
        }
        if self.has_shape(shape) {
            return Ok(true);
        }
        if self.become_zero(shape)? {
            return Ok(true);
        }
        let mut units: SmallVec<[Unit; 8]> = SmallVec::new();
        self.push_units(&mut units);
        let mut pieces: SmallVec<[(usize, Piece); 8]> = SmallVec::new();
        if !regroup(&units, shape, &mut pieces) {
            return Ok(false);
        }
        if !self.write_pieces(shape, &pieces) {
            self.assemble(shape, &pieces).finish_into(self);
        }
        // Pieces of one new dimension come from distinct maximal units, so
        // nothing merges and the span is unchanged; only split constraints may
        // canonicalise further (e.g. a pad bound decouples onto the slow piece).
        if !self.bounds.is_empty() {
            self.tidy()?;
        }
        Ok(true)
    }

    /// Overwrites the leaves in place with `pieces` (slowest first, tagged
    /// with their new dimension), for views without windows with at most
    /// [`PLAIN_LEAVES`] leaves and 2 constraints; the sources' strides and
    /// coefficients are copied to stack arrays first. A new dimension without
    /// pieces gets one `1:0` leaf. `false` (nothing edited) when it does not
    /// apply; [`assemble`](Self::assemble) builds the view then.
    /// O(leaves · constraints).
    fn write_pieces(&mut self, shape: &[i64], pieces: &[(usize, Piece)]) -> bool {
        let (n_old, c) = (self.ext.len(), self.cons());
        if !self.windows.is_empty() || n_old > PLAIN_LEAVES || c > 2 {
            return false;
        }
        let (mut src_stride, mut src_coeffs) = ([0i64; PLAIN_LEAVES], [0i64; 2 * PLAIN_LEAVES]);
        src_stride[..n_old].copy_from_slice(&self.stride);
        src_coeffs[..n_old * c].copy_from_slice(&self.coeffs);
        let empty_dims = (0..shape.len())
            .filter(|&j| !pieces.iter().any(|p| p.0 == j))
            .count();
        let n = pieces.len() + empty_dims;
        self.ext.resize(n, 0);
        self.stride.resize(n, 0);
        self.coeffs.resize(n * c, 0);
        self.dim_len.resize(shape.len(), 0);
        let (ext, stride, coeffs) = (
            &mut self.ext[..],
            &mut self.stride[..],
            &mut self.coeffs[..],
        );
        let (mut k, mut p) = (0usize, 0usize);
        for (j, len) in self.dim_len.iter_mut().enumerate() {
            let first = k;
            while let Some(&(_, Piece::Leaf { extent, src, scale })) =
                pieces.get(p).filter(|(dim, _)| *dim == j)
            {
                // |stride·scale| <= |stride|·(extent-1): within the span, and
                // likewise each coefficient within its constraint's reach.
                (ext[k], stride[k]) = (extent, src_stride[src] * scale);
                for i in 0..c {
                    coeffs[k * c + i] = src_coeffs[src * c + i] * scale;
                }
                (k, p) = (k + 1, p + 1);
            }
            if k == first {
                (ext[k], stride[k]) = (1, 0);
                coeffs[k * c..(k + 1) * c].iter_mut().for_each(|a| *a = 0);
                k += 1;
            }
            *len = (k - first) as u32;
        }
        true
    }

    /// Whether the view's shape is `shape` already. O(leaves).
    fn has_shape(&self, shape: &[i64]) -> bool {
        shape.len() == self.rank()
            && self
                .dim_ranges()
                .zip(shape)
                .enumerate()
                .all(|(d, (r, &n))| match self.window(d) {
                    Some(w) => w.extent == n,
                    None => self.ext[r].iter().product::<i64>() == n,
                })
    }

    /// Pushes all units: leaves of plain dimensions (extent-1 dropped, adjacent
    /// mergeable ones merged) and windowed dimensions whole.
    fn push_units(&self, out: &mut SmallVec<[Unit; 8]>) {
        for (d, r) in self.dim_ranges().enumerate() {
            if let Some(w) = self.window(d) {
                if w.extent != 1 {
                    out.push(Unit {
                        extent: w.extent,
                        src: d,
                        window: true,
                    });
                }
                continue;
            }
            for k in r.filter(|&k| self.ext[k] != 1) {
                match out.last_mut() {
                    Some(prev) if !prev.window && self.mergeable(prev.src, k) => {
                        prev.extent *= self.ext[k];
                        prev.src = k;
                    }
                    _ => out.push(Unit {
                        extent: self.ext[k],
                        src: k,
                        window: false,
                    }),
                }
            }
        }
    }

    /// The view whose dimension `j` holds `pieces` tagged `j` (slowest first).
    fn assemble(&self, shape: &[i64], pieces: &[(usize, Piece)]) -> Builder {
        let mut b = Builder::new(self.bounds.clone(), self.offset);
        let mut at = 0;
        for j in 0..shape.len() {
            let mut window = None;
            while let Some(&(dim, piece)) = pieces.get(at).filter(|(dim, _)| *dim == j) {
                debug_assert_eq!(dim, j);
                match piece {
                    Piece::Leaf { extent, src, scale } => b.leaf(
                        extent,
                        self.stride[src] * scale,
                        self.leaf_coeffs(src).iter().map(|a| a * scale),
                    ),
                    Piece::Window { src } => {
                        self.dim_range(src).for_each(|k| b.copy_leaf(self, k));
                        window = self.window(src);
                    }
                }
                at += 1;
            }
            b.end_dim(window);
        }
        b
    }
}

/// Splits `units` along `shape` from the fastest end into `pieces` tagged
/// with their new dimension, slowest first; `false` without a common
/// refinement or when a window would be cut. O(units + rank).
fn regroup(units: &[Unit], shape: &[i64], pieces: &mut SmallVec<[(usize, Piece); 8]>) -> bool {
    let mut next = units.len();
    // The unconsumed fast part of the current leaf unit: extent `rem`, scale `unit`.
    let (mut rem, mut scale, mut src) = (1i64, 1i64, 0usize);
    for (j, &n) in shape.iter().enumerate().rev() {
        let mut need = n;
        let first = pieces.len();
        while need > 1 {
            if rem == 1 {
                let Some(n) = next.checked_sub(1) else {
                    return false;
                };
                next = n;
                let u = units[next];
                if u.window {
                    if u.extent != need || pieces.len() != first {
                        return false;
                    }
                    pieces.push((j, Piece::Window { src: u.src }));
                    break;
                }
                (rem, scale, src) = (u.extent, 1, u.src);
            }
            let take = if rem % need == 0 {
                need
            } else if need % rem == 0 {
                rem
            } else {
                return false;
            };
            pieces.push((
                j,
                Piece::Leaf {
                    extent: take,
                    src,
                    scale,
                },
            ));
            scale *= take;
            rem /= take;
            need /= take;
        }
    }
    pieces.reverse();
    true
}
