//! Validity: which grid points land on a valid element of the first view, and
//! whether they form a box.
//!
//! Each digit constraint `lo <= x mod Q < hi` becomes, over a region of the grid,
//! a union of *stripes*: with the region's [`Wrap`] `L(i) = w + ⟨ρ, i⟩` (so
//! `x mod Q = L − Q·⌊L/Q⌋`), the points that satisfy it are those with
//! `lo + nQ <= L(i) < hi + nQ` for some `n` between `⌊min L/Q⌋` and `⌊max L/Q⌋`.
//! One stripe makes it a linear *slab*; the outermost constraint (no modulus) is
//! always a slab. The decision, each step exact:
//!
//! 1. **Propagation.** Bounds propagation of the slabs shrinks the region to a
//!    box that still holds every valid point (interval arithmetic per coordinate),
//!    re-deriving the wraps on the smaller region until nothing moves. If every
//!    constraint is a slab and the region's range of each lies inside it, every
//!    point of the region is valid: it is the valid set.
//! 2. **Stripes.** Otherwise, each choice of one stripe per multi-stripe
//!    constraint is a set of slabs; propagate it; if its box lies inside all its
//!    slabs it is exactly that piece of the valid set. The pieces are disjoint
//!    boxes, so their union is a box iff its bounding box has their total volume.
//!    At most [`MAX_STRIPE_CHOICES`] choices.
//! 3. **Probe.** A box's valid corners form a face of the region, every line meets
//!    a box in an interval, and a box holds every point between two of its points.
//!    Corners, short lines through them, and the points between the valid points
//!    found can prove "not a box": at most 2^6·6·64 evaluations.
//! 4. **Enumeration.** Visit every point of the region (O(volume·k)).

use super::crossing::{wrap_range, Wrap};
use super::grid::{Grid, Region};
use super::identity::{DigitMask, Digits};
use smallvec::SmallVec;

use super::grid::dot;
use super::MaskRule;
use crate::num::floor::{ceil_div, div_floor, narrow};
use crate::num::Ints;

/// Most stripe choices tried before giving up on step 2.
pub(crate) const MAX_STRIPE_CHOICES: i128 = 64;
/// Propagation rounds before giving up (each round only shrinks the region).
const MAX_ROUNDS: usize = 64;
/// Corners and lines are probed for regions of at most this many moving coordinates.
const MAX_PROBE_RANK: usize = 6;
/// Valid points kept from the line probes for the "points between" check.
const MAX_PROBE_POINTS: usize = 8;
/// Lines are probed when at most this long.
const MAX_PROBE_LINE: i64 = 64;

/// The valid set of a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Valid {
    /// Every point is valid.
    All,
    /// No point is valid.
    Empty,
    /// The valid points do not form a box.
    NotBox,
    /// Exactly the points of this region are valid.
    Box(Region),
    /// Undecided: only enumerating this many points (past
    /// [`super::MAX_WALKED_POINTS`]) could tell.
    TooLarge(i128),
}

/// `lo <= w + ⟨a, i⟩ < hi`.
#[derive(Clone, Debug)]
struct Slab {
    w: i128,
    a: Ints,
    lo: i128,
    hi: i128,
}

type Slabs = SmallVec<[Slab; 4]>;

/// A constraint of several stripes over the current region.
#[derive(Clone, Debug)]
struct Striped {
    slab: Slab,
    modulus: i128,
    first: i128,
    last: i128,
}

enum Propagated {
    Empty,
    /// A fixpoint; whether the region moved on the way.
    Done(bool),
    GaveUp,
}

/// The valid set of `grid` under `radix`'s masks, and the step that settled
/// it; an enumeration walks at most `budget` points.
pub(crate) fn valid_region(radix: &Digits, grid: &Grid, budget: i64) -> (Valid, MaskRule) {
    if radix.constraints().all(|c| holds_everywhere(&c, grid)) {
        return (Valid::All, MaskRule::Full);
    }
    let mut region = grid.full();
    let constraints: SmallVec<[DigitMask; 8]> = radix.constraints().collect();
    let mut rule = MaskRule::Full;
    let (slabs, striped) = loop {
        let (slabs, striped) = classify(&constraints, grid, &region);
        match propagate(&slabs, &mut region) {
            Propagated::Empty => return (Valid::Empty, MaskRule::Propagation),
            Propagated::GaveUp => return undecided(radix, grid, &region, budget),
            Propagated::Done(false) => break (slabs, striped),
            Propagated::Done(true) => rule = MaskRule::Propagation,
        }
    };
    if striped.is_empty() {
        if contained(&slabs, &region) {
            return (Valid::Box(region), rule);
        }
    } else if let Some(v) = stripes(&slabs, &striped, &region) {
        return (v, MaskRule::Stripes);
    }
    undecided(radix, grid, &region, budget)
}

/// Steps 3 and 4 on a region known to hold every valid point.
fn undecided(radix: &Digits, grid: &Grid, region: &Region, budget: i64) -> (Valid, MaskRule) {
    if probe_not_box(radix, grid, region) {
        return (Valid::NotBox, MaskRule::Probe);
    }
    let points = region.volume();
    if points > i128::from(budget) {
        return (Valid::TooLarge(points), MaskRule::Enumeration);
    }
    (enumerate(radix, grid, region), MaskRule::Enumeration)
}

/// Whether `c` holds at every grid point: one stripe, inside it. O(r), no allocation.
fn holds_everywhere(c: &DigitMask, grid: &Grid) -> bool {
    let (min, max) = match c.modulus {
        None => (grid.offset, grid.offset + grid.reach()),
        Some(q) => {
            let (min, max) = wrap_range(q, grid.offset, &grid.stride, &grid.ext);
            let n = div_floor(min, q);
            if div_floor(max, q) != n {
                return false;
            }
            (min - n * q, max - n * q)
        }
    };
    c.lo <= min && max < c.hi
}

/// Splits the constraints over `region` into slabs and multi-stripe ones.
fn classify(constraints: &[DigitMask], grid: &Grid, region: &Region) -> (Slabs, Vec<Striped>) {
    let mut slabs = Slabs::new();
    let mut striped = Vec::new();
    let base = grid.at(&region.lo);
    let ext: Ints = region
        .lo
        .iter()
        .zip(&region.hi)
        .map(|(l, h)| h - l)
        .collect();
    for c in constraints {
        let Some(q) = c.modulus else {
            slabs.push(Slab {
                w: grid.offset,
                a: grid.stride.clone(),
                lo: c.lo,
                hi: c.hi,
            });
            continue;
        };
        let wrap = Wrap::new(q, base, &grid.stride);
        let (min, max) = wrap.range(&ext);
        // In absolute coordinates: L(i) = rem + ⟨rot, i − region.lo⟩.
        let w = wrap.rem - dot(&wrap.rot, &region.lo);
        let (first, last) = (div_floor(min, q), div_floor(max, q));
        let slab = Slab {
            w,
            a: wrap.rot,
            lo: c.lo,
            hi: c.hi,
        };
        if first == last {
            slabs.push(slab.shifted(first * q));
        } else {
            striped.push(Striped {
                slab,
                modulus: q,
                first,
                last,
            });
        }
    }
    (slabs, striped)
}

impl Slab {
    fn shifted(&self, by: i128) -> Slab {
        Slab {
            lo: self.lo + by,
            hi: self.hi + by,
            ..self.clone()
        }
    }

    /// Smallest and largest `w + ⟨a, i⟩` over `r`, leaving out coordinate `skip`.
    fn range(&self, r: &Region, skip: Option<usize>) -> (i128, i128) {
        (0..r.rank())
            .filter(|&q| Some(q) != skip)
            .fold((self.w, self.w), |(lo, hi), q| {
                let a = i128::from(self.a[q]);
                let (x, y) = (a * i128::from(r.lo[q]), a * i128::from(r.hi[q] - 1));
                (lo + x.min(y), hi + x.max(y))
            })
    }

    fn holds_on(&self, r: &Region) -> bool {
        let (lo, hi) = self.range(r, None);
        self.lo <= lo && hi < self.hi
    }
}

/// Shrinks `r` to the bounds the slabs imply, coordinate by coordinate, until
/// nothing moves.
fn propagate(slabs: &[Slab], r: &mut Region) -> Propagated {
    let mut moved_any = false;
    for _ in 0..MAX_ROUNDS {
        let mut moved = false;
        for s in slabs {
            if s.a.iter().all(|&a| a == 0) && !(s.lo <= s.w && s.w < s.hi) {
                return Propagated::Empty;
            }
            for q in 0..r.rank() {
                let a = i128::from(s.a[q]);
                if a == 0 {
                    continue;
                }
                // lo − max_rest <= a·i_q <= hi − 1 − min_rest
                let (min_rest, max_rest) = s.range(r, Some(q));
                let (down, up) = (s.lo - max_rest, s.hi - 1 - min_rest);
                let (first, last) = if a > 0 {
                    (ceil_div(down, a), div_floor(up, a))
                } else {
                    (ceil_div(-up, -a), div_floor(-down, -a))
                };
                // Clamped to the old bounds, so the new ones fit 64 bits.
                let lo = narrow(i128::from(r.lo[q]).max(first).min(i128::from(r.hi[q])));
                let hi = narrow(i128::from(r.hi[q]).min(last + 1).max(i128::from(lo)));
                if lo >= hi {
                    return Propagated::Empty;
                }
                if (lo, hi) != (r.lo[q], r.hi[q]) {
                    (r.lo[q], r.hi[q]) = (lo, hi);
                    moved = true;
                }
            }
        }
        if !moved {
            return Propagated::Done(moved_any);
        }
        moved_any = true;
    }
    Propagated::GaveUp
}

fn contained(slabs: &[Slab], r: &Region) -> bool {
    slabs.iter().all(|s| s.holds_on(r))
}

/// Step 2; `None` when there are too many choices or a piece is not provably a box.
fn stripes(slabs: &[Slab], striped: &[Striped], region: &Region) -> Option<Valid> {
    let choices = striped
        .iter()
        .try_fold(1i128, |n, s| n.checked_mul(s.last - s.first + 1))
        .filter(|&n| n <= MAX_STRIPE_CHOICES)?;
    let mut pieces: Vec<Region> = Vec::new();
    let mut pick: SmallVec<[i128; 4]> = striped.iter().map(|s| s.first).collect();
    for _ in 0..choices {
        let mut all: Slabs = slabs.iter().cloned().collect();
        all.extend(
            striped
                .iter()
                .zip(&pick)
                .map(|(s, &n)| s.slab.shifted(n * s.modulus)),
        );
        let mut piece = region.clone();
        match propagate(&all, &mut piece) {
            Propagated::Empty => {}
            Propagated::GaveUp => return None,
            Propagated::Done(_) if contained(&all, &piece) => pieces.push(piece),
            Propagated::Done(_) => return None,
        }
        // Next choice (odometer).
        for (p, s) in pick.iter_mut().zip(striped).rev() {
            *p += 1;
            if *p <= s.last {
                break;
            }
            *p = s.first;
        }
    }
    let Some(first) = pieces.first() else {
        return Some(Valid::Empty);
    };
    let mut hull = first.clone();
    for p in &pieces[1..] {
        for q in 0..hull.rank() {
            hull.lo[q] = hull.lo[q].min(p.lo[q]);
            hull.hi[q] = hull.hi[q].max(p.hi[q]);
        }
    }
    let total = pieces
        .iter()
        .map(Region::volume)
        .fold(0, i128::saturating_add);
    if total == i128::MAX {
        return None; // too large to compare volumes
    }
    Some(if hull.volume() == total {
        Valid::Box(hull)
    } else {
        Valid::NotBox
    })
}

/// Step 3: true when probes show the valid set is not a box. A box's valid
/// corners form a face of the region; every line meets a box in an interval; and
/// with two valid points a box holds every point between them. So: the region's
/// corners, the lines along each coordinate through each corner (when at most
/// [`MAX_PROBE_LINE`] long), and the points between valid points found on them.
fn probe_not_box(radix: &Digits, grid: &Grid, region: &Region) -> bool {
    let valid = |i: &[i64]| radix.valid(grid.at(i));
    let moving: Vec<usize> = (0..region.rank())
        .filter(|&q| region.hi[q] - region.lo[q] >= 2)
        .collect();
    if moving.len() > MAX_PROBE_RANK {
        return false;
    }
    let corner = |bits: usize| -> Ints {
        let mut p = region.lo.clone();
        for (k, &q) in moving.iter().enumerate() {
            if bits >> k & 1 == 1 {
                p[q] = region.hi[q] - 1;
            }
        }
        p
    };
    let corners: Vec<Ints> = (0..1usize << moving.len()).map(corner).collect();
    let valid_bits: Vec<usize> = (0..corners.len()).filter(|&b| valid(&corners[b])).collect();
    let (and, or) = valid_bits
        .iter()
        .fold((usize::MAX, 0), |(a, o), &b| (a & b, o | b));
    if !valid_bits.is_empty() && valid_bits.len() != 1 << (and ^ or).count_ones() {
        return true;
    }
    let mut found: Vec<Ints> = Vec::new();
    for p in &corners {
        for &q in &moving {
            if region.hi[q] - region.lo[q] > MAX_PROBE_LINE {
                continue;
            }
            let mut line = p.clone();
            let hits: Vec<i64> = (region.lo[q]..region.hi[q])
                .filter(|&m| {
                    line[q] = m;
                    valid(&line)
                })
                .collect();
            let Some((&first, &last)) = hits.first().zip(hits.last()) else {
                continue;
            };
            if last - first + 1 != hits.len() as i64 {
                return true;
            }
            if found.len() < MAX_PROBE_POINTS {
                line[q] = first;
                found.push(line);
            }
        }
    }
    found.iter().enumerate().any(|(k, p)| {
        found[..k].iter().any(|o| {
            let differ: Vec<usize> = (0..p.len()).filter(|&q| p[q] != o[q]).collect();
            (0..1usize << differ.len()).any(|bits| {
                let mut m = p.clone();
                for (b, &q) in differ.iter().enumerate() {
                    if bits >> b & 1 == 1 {
                        m[q] = o[q];
                    }
                }
                !valid(&m)
            })
        })
    })
}

/// Step 4: every point of `region`.
fn enumerate(radix: &Digits, grid: &Grid, region: &Region) -> Valid {
    let mut count = 0i128;
    let mut hull: Option<Region> = None;
    region.for_each(|i| {
        if radix.valid(grid.at(i)) {
            count += 1;
            let h = hull.get_or_insert_with(|| Region {
                lo: Ints::from_slice(i),
                hi: i.iter().map(|v| v + 1).collect(),
            });
            for (q, &v) in i.iter().enumerate() {
                h.lo[q] = h.lo[q].min(v);
                h.hi[q] = h.hi[q].max(v + 1);
            }
        }
        true
    });
    match hull {
        None => Valid::Empty,
        Some(h) if h.volume() == count => Valid::Box(h),
        Some(_) => Valid::NotBox,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing test may panic
mod tests {
    use super::*;
    use crate::layout::FlatView;

    fn setup(
        first: (&[i64], Vec<(i64, i64)>),
        offset: i128,
        ext: &[i64],
        stride: &[i64],
    ) -> (Digits, Grid) {
        let n = first.0.len();
        let v = FlatView::new(first.0.to_vec(), vec![1; n], 0, Some(first.1)).unwrap();
        let grid = Grid {
            offset,
            ext: ext.into(),
            stride: stride.into(),
        };
        (Digits::new(&v).unwrap(), grid)
    }

    fn truth(radix: &Digits, grid: &Grid) -> Valid {
        enumerate(radix, grid, &grid.full())
    }

    // Witness (merge_pair/027): x = 5..15 over (4,7) masked [1,4)×[2,7) wraps the inner
    // digit twice; the stripes show the valid points are the interval 9..13.
    #[test]
    fn stripes_find_interval_across_wraps() {
        let (r, g) = setup((&[4, 7], vec![(1, 4), (2, 7)]), 5, &[11], &[1]);
        let (v, rule) = valid_region(&r, &g, crate::merge::MAX_WALKED_POINTS);
        assert_eq!(v, truth(&r, &g));
        assert_eq!(
            v,
            Valid::Box(Region {
                lo: Ints::from_slice(&[4]),
                hi: Ints::from_slice(&[9])
            })
        );
        assert_eq!(rule, MaskRule::Stripes);
    }

    // Witness: a checkerboard-like valid set (inner digit [2,6) of 8 read with
    // strides 4 and 1) is not a box, and a probe shows it.
    #[test]
    fn probe_rejects_checkerboard() {
        let (r, g) = setup((&[16, 8], vec![(0, 16), (2, 6)]), 0, &[4, 4], &[4, 1]);
        assert_eq!(truth(&r, &g), Valid::NotBox);
        assert_eq!(
            valid_region(&r, &g, crate::merge::MAX_WALKED_POINTS).0,
            Valid::NotBox
        );
    }

    // Invariant: every step agrees with enumeration on a sweep of small cases.
    #[test]
    fn agrees_with_enumeration() {
        let masks = [(0, 3), (1, 3), (0, 2), (1, 2)];
        for m0 in masks {
            for m1 in masks {
                for m2 in [(0, 4), (1, 3), (2, 4)] {
                    for (s0, s1) in [(1, 1), (1, 4), (3, 5), (4, 12), (7, 2), (13, 1)] {
                        for offset in [-5, 0, 3, 11] {
                            let (r, g) =
                                setup((&[3, 3, 4], vec![m0, m1, m2]), offset, &[3, 4], &[s0, s1]);
                            let got = match valid_region(&r, &g, crate::merge::MAX_WALKED_POINTS).0
                            {
                                Valid::All => Valid::Box(g.full()),
                                v => v,
                            };
                            assert_eq!(
                                got,
                                truth(&r, &g),
                                "masks {m0:?} {m1:?} {m2:?} strides {s0},{s1} offset {offset}"
                            );
                        }
                    }
                }
            }
        }
    }
}
