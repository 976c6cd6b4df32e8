//! A certificate that two stacked views are not one view: four valid
//! elements whose offsets are not a sum of per-dimension terms.
//!
//! Every single [`View`] gives a valid element `t` the offset
//! `o + Σ_j g_j(t_j)`: each leaf coordinate is read off one dimension's
//! coordinate (through its window, if any), and validity only removes
//! elements. So for any `p` and any two displacements `u`, `v` that touch
//! disjoint sets of dimensions, a single view has
//!
//! ```text
//! F(p + u + v) − F(p + u) − F(p + v) + F(p) = 0
//! ```
//!
//! whenever the four elements are valid. A [`Witness`] is such a quadruple of
//! valid elements of `lower ∘ upper` with a non-zero mixed difference: proof
//! that no single view (replayed, merged, composed or fitted) equals the pair.
//! A movement op on the upper view moves the four elements to four elements
//! of the new upper view with the same offsets and validity (a permute, flip,
//! pad or expand always; a shrink, stride or reshape when the elements stay
//! inside and still form such a quadruple), so the witness follows the op in
//! O(rank) and the pair stays refused without being decided again
//! (`docs/views.md` §5).
//!
//! [`Witness::find`] looks for one with at most [`MAX_EVALS`] evaluations, so
//! a refused pair that has no witness, or hides it, costs at most that much
//! more.

#[cfg(test)]
pub(in crate::view) mod tests;

use smallvec::SmallVec;

use super::View;
use crate::num::Ints;

/// Most evaluations of `lower ∘ upper` one [`Witness::find`] spends (each
/// costs two [`View::eval_index`], a few hundred instructions).
const MAX_EVALS: usize = 16;

/// Columns per row of the search grid.
const COLS: usize = 5;

/// Four valid elements `p`, `p + u`, `p + v`, `p + u + v` of `lower ∘ upper`
/// (coordinates of the upper view's shape), `u` and `v` non-zero on disjoint
/// dimensions, whose offsets have a non-zero mixed difference. Stored as
/// `p`, `w = u + v` and the dimensions of `u` (a bit mask).
#[derive(Debug)]
pub(super) struct Witness {
    p: Ints,
    w: Ints,
    /// Bit `d` set: `w[d]` is `u[d]` (otherwise `v[d]`).
    u_dims: u64,
}

impl Clone for Witness {
    /// Slice copies (SmallVec's own clone goes element by element).
    fn clone(&self) -> Witness {
        Witness {
            p: SmallVec::from_slice(&self.p),
            w: SmallVec::from_slice(&self.w),
            u_dims: self.u_dims,
        }
    }
}

/// `lower ∘ upper` at coordinates of the upper view, allocation-free for
/// ≤ 8 leaves.
struct Composed<'a> {
    lower: &'a View,
    upper: &'a View,
    shape: Ints,
    lower_size: i64,
    digits: Ints,
    /// The upper view reads index `i` at `i` (a freshly pushed view).
    identity: bool,
}

impl<'a> Composed<'a> {
    fn new(lower: &'a View, upper: &'a View) -> Composed<'a> {
        let leaves = lower.ext.len().max(upper.ext.len());
        Composed {
            lower,
            upper,
            shape: upper.extents(),
            lower_size: lower.size(),
            digits: SmallVec::from_elem(0, leaves),
            identity: upper.is_contiguous(),
        }
    }

    /// The offset of the element at `coord` (in range), or `None` where it is
    /// invalid in either view.
    fn at(&mut self, coord: &[i64]) -> Option<i64> {
        let idx = coord
            .iter()
            .zip(&self.shape)
            .fold(0i64, |acc, (&c, &n)| acc * n + c);
        let below = if self.identity {
            idx
        } else {
            self.upper.eval_index(idx, &mut self.digits)?
        };
        if !(0..self.lower_size).contains(&below) {
            return None;
        }
        self.lower.eval_index(below, &mut self.digits)
    }
}

impl Witness {
    /// A witness that `lower ∘ upper` is no single view, looked for on a
    /// grid of each pair of dimensions `j < k` (fastest pairs first, every
    /// other coordinate in the middle of its range): rows `0, n/2, 1, n−1`
    /// of `j`, one after another, at five spread columns of `k`; two rows
    /// whose difference changes from one column to another are a witness.
    /// At most [`MAX_EVALS`] evaluations, so O(leaves · (1 + constraints))
    /// whatever the sizes; `None` when none is found (which proves nothing).
    pub(super) fn find(lower: &View, upper: &View) -> Option<Witness> {
        if upper.rank() > 64 {
            return None;
        }
        let mut f = Composed::new(lower, upper);
        let shape = f.shape.clone();
        let mut evals = 0usize;
        for k in (0..shape.len()).rev().filter(|&k| shape[k] >= 2) {
            for j in (0..k).rev().filter(|&j| shape[j] >= 2) {
                if let Some(w) = on_grid(&mut f, &shape, (j, k), &mut evals) {
                    return Some(w);
                }
                if evals + COLS > MAX_EVALS {
                    return None;
                }
            }
        }
        None
    }

    /// `u` (`true`) or `v` (`false`).
    fn part(&self, u: bool) -> Ints {
        (0..self.w.len())
            .map(|d| {
                if (self.u_dims >> d & 1 == 1) == u {
                    self.w[d]
                } else {
                    0
                }
            })
            .collect()
    }

    /// The four elements `p`, `p + u`, `p + v`, `p + u + v`.
    pub(super) fn corners(&self) -> [Ints; 4] {
        let (u, v) = (self.part(true), self.part(false));
        let shift =
            |a: &[i64], b: &[i64]| -> Ints { a.iter().zip(b).map(|(x, y)| x + y).collect() };
        [
            self.p.clone(),
            shift(&self.p, &u),
            shift(&self.p, &v),
            shift(&self.p, &self.w),
        ]
    }

    /// Whether the four elements are inside the upper view's shape and valid
    /// in `lower ∘ upper` with a non-zero mixed difference (the invariant;
    /// checked in debug builds after every op that keeps a witness).
    #[cfg(any(test, debug_assertions))]
    pub(super) fn holds(&self, lower: &View, upper: &View) -> bool {
        let shape = upper.extents();
        let corners = self.corners();
        let inside = corners.iter().all(|q| {
            q.len() == shape.len() && q.iter().zip(&shape).all(|(&c, &n)| (0..n).contains(&c))
        });
        if !inside {
            return false;
        }
        let mut f = Composed::new(lower, upper);
        let mut at = |q: &Ints| f.at(q).map(i128::from);
        match corners.each_ref().map(&mut at) {
            [Some(a), Some(b), Some(c), Some(d)] => d - b - c + a != 0,
            _ => false,
        }
    }

    /// Follows a permute of the upper view.
    pub(super) fn permute(&mut self, perm: &[usize]) {
        for x in [&mut self.p, &mut self.w] {
            let old: Ints = SmallVec::from_slice(x);
            x.iter_mut().zip(perm).for_each(|(c, &from)| *c = old[from]);
        }
        let u = self.u_dims;
        self.u_dims = (0..perm.len()).fold(0, |m, d| m | (u >> perm[d] & 1) << d);
    }

    /// Follows a flip of the upper view of shape `shape`.
    pub(super) fn flip(&mut self, flags: &[bool], shape: &[i64]) {
        for (d, (&f, &n)) in flags.iter().zip(shape).enumerate() {
            if f {
                self.p[d] = n - 1 - self.p[d];
                self.w[d] = -self.w[d];
            }
        }
    }

    /// Follows a pad of the upper view.
    pub(super) fn pad(&mut self, arg: &[(i64, i64)]) {
        self.p.iter_mut().zip(arg).for_each(|(c, &(b, _))| *c += b);
    }

    /// Follows a shrink of the upper view; `false` when an element falls
    /// outside (each dimension moves by `u` or `v`, not both).
    pub(super) fn shrink(&mut self, arg: &[(i64, i64)]) -> bool {
        let inside = (0..arg.len()).all(|d| {
            let (c, far, (b, e)) = (self.p[d], self.p[d] + self.w[d], arg[d]);
            b <= c.min(far) && c.max(far) < e
        });
        if inside {
            self.p.iter_mut().zip(arg).for_each(|(c, &(b, _))| *c -= b);
        }
        inside
    }

    /// Follows a stride (`x[::step]`, a negative step flipping first) of the
    /// upper view of shape `shape`; `false` when an element is skipped.
    pub(super) fn stride(&mut self, steps: &[i64], shape: &[i64]) -> bool {
        let flags: SmallVec<[bool; 8]> = steps.iter().map(|&s| s < 0).collect();
        self.flip(&flags, shape);
        let k = |d: usize| steps[d].unsigned_abs() as i64;
        let on_lattice = (0..steps.len()).all(|d| self.p[d] % k(d) == 0 && self.w[d] % k(d) == 0);
        if on_lattice {
            for d in 0..steps.len() {
                self.p[d] /= k(d);
                self.w[d] /= k(d);
            }
        }
        on_lattice
    }

    /// Follows a reshape of the upper view from `from` to `to`: the four
    /// elements keep their row-major indices; `false` unless their new
    /// coordinates are again `p, p + u, p + v, p + u + v` with `u`, `v` on
    /// disjoint dimensions.
    pub(super) fn reshape(&mut self, from: &[i64], to: &[i64]) -> bool {
        if to.len() > 64 {
            return false;
        }
        let moved = self.corners().map(|q| {
            let mut i = q.iter().zip(from).fold(0i64, |a, (&c, &n)| a * n + c);
            let mut c: Ints = SmallVec::from_elem(0, to.len());
            for (x, &n) in c.iter_mut().zip(to).rev() {
                *x = i % n;
                i /= n;
            }
            c
        });
        let [p, pu, pv, far] = &moved;
        let mut u_dims = 0u64;
        for d in 0..to.len() {
            let (u, v) = (pu[d] - p[d], pv[d] - p[d]);
            if (u != 0 && v != 0) || far[d] != p[d] + u + v {
                return false;
            }
            u_dims |= u64::from(u != 0) << d;
        }
        let w = (0..to.len()).map(|d| far[d] - p[d]).collect();
        *self = Witness {
            p: p.clone(),
            w,
            u_dims,
        };
        true
    }
}

/// [`COLS`] coordinates spread over `[0, n)`, ascending, without repeats.
fn spread(n: i64) -> SmallVec<[i64; COLS]> {
    let mut out: SmallVec<[i64; COLS]> = [0, 1, n / 2, n - 2, n - 1]
        .into_iter()
        .filter(|c| (0..n).contains(c))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Rows `0, n/2, 1, n−1` of dimension `j`, one after another, at the spread
/// columns of dimension `k` (every other coordinate in the middle of its
/// range), while `evals` stays within [`MAX_EVALS`]: a witness as soon as
/// two rows' difference changes from one column to another.
fn on_grid(
    f: &mut Composed<'_>,
    shape: &[i64],
    (j, k): (usize, usize),
    evals: &mut usize,
) -> Option<Witness> {
    let n = shape[j];
    let cols = spread(shape[k]);
    let mut p: Ints = shape.iter().map(|&n| n / 2).collect();
    let mut rows: SmallVec<[(i64, [Option<i64>; COLS]); 4]> = SmallVec::new();
    for a in [0, n / 2, 1, n - 1] {
        if rows.iter().any(|r| r.0 == a) || *evals + cols.len() > MAX_EVALS {
            continue;
        }
        *evals += cols.len();
        p[j] = a;
        let mut values = [None; COLS];
        for (x, &b) in values.iter_mut().zip(&cols) {
            p[k] = b;
            *x = f.at(&p);
        }
        for &(a0, ref earlier) in &rows {
            if let Some((c0, c1)) = changing_difference(earlier, &values) {
                p[j] = a0;
                p[k] = cols[c0];
                let mut w: Ints = SmallVec::from_elem(0, shape.len());
                w[j] = a - a0;
                w[k] = cols[c1] - cols[c0];
                return Some(Witness {
                    p,
                    w,
                    u_dims: 1 << j,
                });
            }
        }
        rows.push((a, values));
    }
    None
}

/// Two columns at which both rows are valid and `high − low` differs.
fn changing_difference(low: &[Option<i64>], high: &[Option<i64>]) -> Option<(usize, usize)> {
    let mut first: Option<(usize, i128)> = None;
    for (c, (l, h)) in low.iter().zip(high).enumerate() {
        let (Some(l), Some(h)) = (l, h) else { continue };
        let d = i128::from(*h) - i128::from(*l);
        match first {
            None => first = Some((c, d)),
            Some((c0, d0)) if d0 != d => return Some((c0, c)),
            Some(_) => {}
        }
    }
    None
}
