//! The swizzle that removes a shared-memory access's bank conflicts, and the
//! swizzle that maps one layout onto another.
//!
//! Both search the protocol's range: `Sw<B,M,S>` with `0 ≤ B ≤ 4`,
//! `0 ≤ M ≤ 4`, `B ≤ S ≤ 7` ([`search_candidates`]: the identity and 110
//! others), every swizzle CuTe's shared-memory atoms use for 1-, 2- and
//! 4-byte elements (`Sw<3,4,3>`, `Sw<3,3,3>`, `Sw<2,4,3>`, …), and order
//! ties by the smallest `B`, then `M`, then `S`.
//!
//! [`swizzle_search`] is exact: every candidate is counted, but a count
//! stops as soon as it cannot beat (or, for a later candidate, tie) the best
//! so far, using a lower bound on what the remaining requests must cost.
//! Why the word sets of the plain layout serve every candidate, and why the
//! bound holds, is in `docs/smem.md`.

use std::fmt;

use crate::algebra::{ComposedLayout, Swizzle};
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::smem::banks::WordSets;
use crate::smem::{word_shift, Access, SmemLayout, BANKS, SMEM_BUDGET};

/// The largest `B`, `M` and `S` searched.
const MAX_BITS: i64 = 4;
const MAX_BASE: i64 = 4;
const MAX_SHIFT: i64 = 7;

/// Every bit a candidate reads or writes lies below this one
/// (`M + S + B ≤ 15`), and every bank bit (`k + 5 ≤ 7`) too.
const LOW_BITS: u32 = 15;

/// The candidates, in tie order: `Sw<0,0,0>` (the identity; every `B = 0`
/// swizzle is the same function), then `B = 1..4`, `M = 0..4`, `S = B..7`,
/// lexicographically. 111 swizzles.
///
/// ```
/// let c: Vec<_> = hlayout::smem::search_candidates().collect();
/// assert_eq!(c.len(), 111);
/// assert!(c[0].is_identity());
/// assert_eq!(c[1].to_string(), "Sw<1,0,1>");
/// assert_eq!(c[110].to_string(), "Sw<4,4,7>");
/// ```
pub fn search_candidates() -> impl Iterator<Item = Swizzle> {
    let rest = (1..=MAX_BITS).flat_map(|b| {
        (0..=MAX_BASE)
            .flat_map(move |m| (b..=MAX_SHIFT).filter_map(move |s| Swizzle::new(b, m, s).ok()))
    });
    std::iter::once(Swizzle::identity()).chain(rest)
}

/// The best swizzle for an access, and its count.
///
/// ```
/// use hlayout::smem::{swizzle_search, Access};
/// let a = Access::new("(32,32):(32,1)".parse()?)?; // value v: the warp reads column v
/// let best = swizzle_search(&"(32,32):(32,1)".parse()?, &a, 4)?;
/// assert_eq!(best.swizzle.to_string(), "Sw<4,0,5>");
/// assert_eq!((best.wavefronts, best.ideal), (64, 32));
/// assert_eq!(best.layout.to_string(), "Sw<4,0,5> o 0 o (32,32):(32,1)");
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwizzleChoice {
    /// The swizzle.
    pub swizzle: Swizzle,
    /// `Sw ∘ 0 ∘ L`.
    pub layout: ComposedLayout,
    /// The wavefronts of the access on `layout` (summed over warps and values).
    pub wavefronts: u64,
    /// The ideal count (the same for every swizzle).
    pub ideal: u64,
}

/// The swizzle `Sw` in the range of [`search_candidates`] whose layout
/// `Sw ∘ 0 ∘ L` takes the fewest wavefronts for `access` (ties: smallest
/// `B`, then `M`, then `S`), exactly.
///
/// O(T·V·(leaves + log 32)) to build the per-request word sets once, then at
/// most 111 · (warps·V) · 32 bank lookups; each count stops when it cannot
/// beat the best so far (most candidates stop after a few requests), and the
/// search stops when the best meets the lower bound. A 128×64 fp32 tile read
/// by columns takes about 45 µs (`benches/README.md`).
///
/// # Errors
/// As [`bank_conflicts`](crate::smem::bank_conflicts); [`Error::Overflow`]
/// when a swizzled byte address would leave `i64`.
///
/// ```
/// use hlayout::smem::{swizzle_search, Access};
/// // An fp16 64x64 tile, each thread reading 8 consecutive halves (16 bytes)
/// // of row t, value by value: 32-way conflicts without a swizzle.
/// let a = Access::new("(64,8):(64,1)".parse()?)?;
/// let best = swizzle_search(&"(64,64):(64,1)".parse()?, &a, 2)?;
/// assert_eq!(best.swizzle.to_string(), "Sw<4,1,5>"); // rows 0..15 over 16 banks
/// assert_eq!((best.wavefronts, best.ideal), (32, 16));
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn swizzle_search(
    layout: &Layout,
    access: &Access,
    element_bytes: i64,
) -> Result<SwizzleChoice> {
    let k = word_shift(element_bytes)?;
    let sets = WordSets::new(&SmemLayout::Plain(layout.clone()), access, k)?;
    // A swizzle sets bits below 8 only: Sw(x) ≤ x | 255.
    if sets.max_offset() | 255 > i64::MAX >> (2 - k) {
        return Err(Error::Overflow {
            what: "byte address of a swizzled shared-memory element",
        });
    }
    let packed = Packed::new(&sets);
    let candidates: Vec<Swizzle> = search_candidates().collect();
    // The identity first: when it meets the bound nothing can beat or tie it.
    let mut best = (
        packed
            .count(&candidates[0], k, u64::MAX)
            .unwrap_or(u64::MAX),
        0,
    );
    let order = (1..candidates.len()).rev().map(|c| {
        // B descending, then M and S ascending: strong candidates early.
        let sw = candidates[c];
        (MAX_BITS - sw.bits(), sw.base(), sw.shift(), c)
    });
    let mut order: Vec<_> = order.collect();
    order.sort_unstable();
    for &(_, _, _, c) in &order {
        if best.0 == packed.floor[0] && best.1 < c {
            continue; // the best meets the lower bound and wins the tie
        }
        let bound = if c < best.1 {
            best.0
        } else {
            best.0.saturating_sub(1)
        };
        if let Some(w) = packed.count(&candidates[c], k, bound) {
            best = (w, c);
        }
    }
    let swizzle = candidates[best.1];
    Ok(SwizzleChoice {
        swizzle,
        layout: ComposedLayout::new(swizzle, 0, layout.clone())?,
        wavefronts: best.0,
        ideal: packed.ideal,
    })
}

/// The word sets, each request XOR-translated to start at 0 and cut to its
/// low 16 bits (all a candidate's banks depend on), equal ones merged with a
/// weight, and a lower bound per request.
///
/// XOR-translating a request by `c` changes no candidate's count: a swizzle
/// and the bank are linear over F2, so every bank moves to `bank ^
/// bank(Sw(c))`, a permutation, and words stay distinct. The requests of a
/// power-of-two tile read at a fixed pattern usually all become one.
struct Packed {
    low: Vec<u32>,
    starts: Vec<usize>,
    weight: Vec<u64>,
    /// `floor[g]`: a lower bound on the weighted wavefronts of requests
    /// `g..` under every candidate (`floor[len] = 0`).
    floor: Vec<u64>,
    ideal: u64,
}

impl Packed {
    /// O(points + requests · log requests).
    fn new(sets: &WordSets) -> Packed {
        let n = sets.len();
        let mut norm = Vec::with_capacity(n * 32);
        let mut bounds = Vec::with_capacity(n + 1);
        let mut keyed = Vec::with_capacity(n);
        let mut ideal = 0;
        bounds.push(0);
        for g in 0..n {
            let reps = sets.group(g);
            let first = reps.first().copied().unwrap_or(0);
            let start = norm.len();
            norm.extend(reps.iter().map(|&x| ((x ^ first) & 0xffff) as u32));
            bounds.push(norm.len());
            keyed.push((fnv(&norm[start..]), g));
            ideal += reps.len().div_ceil(BANKS as usize) as u64;
        }
        keyed.sort_unstable();
        // Merge equal requests (equal hash, then equal slices).
        let mut unique: Vec<(usize, u64)> = Vec::new();
        let mut run_start = 0;
        for j in 0..keyed.len() {
            if j > 0 && keyed[j].0 != keyed[j - 1].0 {
                run_start = unique.len();
            }
            let g = keyed[j].1;
            let slice = &norm[bounds[g]..bounds[g + 1]];
            match unique[run_start..]
                .iter_mut()
                .find(|(u, _)| &norm[bounds[*u]..bounds[*u + 1]] == slice)
            {
                Some((_, w)) => *w += 1,
                None => unique.push((g, 1)),
            }
        }
        // Heaviest first: a hopeless candidate is stopped sooner.
        unique.sort_by_key(|&(g, w)| (std::cmp::Reverse(w), g));
        let mut p = Packed {
            low: Vec::with_capacity(norm.len()),
            starts: vec![0],
            weight: Vec::with_capacity(unique.len()),
            floor: vec![0; unique.len() + 1],
            ideal,
        };
        for &(g, w) in &unique {
            p.low.extend_from_slice(&norm[bounds[g]..bounds[g + 1]]);
            p.starts.push(p.low.len());
            p.weight.push(w);
        }
        for u in (0..unique.len()).rev() {
            let own = same_low_bits(&p.low[p.starts[u]..p.starts[u + 1]]);
            p.floor[u] = p.floor[u + 1] + p.weight[u] * own;
        }
        p
    }

    /// The wavefronts under `sw`, or `None` once they must exceed `bound`.
    /// O(unique requests · 32).
    fn count(&self, sw: &Swizzle, k: u32, bound: u64) -> Option<u64> {
        let read = sw.mask() as u32; // below bit 15
        let shift = sw.shift() as u32; // 0 ≤ S ≤ 7
        let mut total = 0u64;
        for u in 0..self.weight.len() {
            let mut hist = [0u8; BANKS as usize];
            let mut most = 0u8;
            for &r in &self.low[self.starts[u]..self.starts[u + 1]] {
                let bank = (((r ^ ((r & read) >> shift)) >> k) & 31) as usize;
                hist[bank] += 1;
                most = most.max(hist[bank]);
            }
            total += self.weight[u] * u64::from(most);
            if total + self.floor[u + 1] > bound {
                return None;
            }
        }
        Some(total)
    }
}

/// FNV-1a over the words of a request.
fn fnv(words: &[u32]) -> u64 {
    words.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &w| {
        (h ^ u64::from(w)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The most offsets of one request that agree on their low 15 bits: they
/// differ only in bits no candidate reads or writes, so every candidate
/// puts them in one bank (as distinct words). O(n log n), n ≤ 32.
fn same_low_bits(low: &[u32]) -> u64 {
    let mut buf = [0u32; 32];
    let n = low.len().min(32);
    for (b, &r) in buf.iter_mut().zip(low) {
        *b = r & ((1 << LOW_BITS) - 1);
    }
    let lanes = &mut buf[..n];
    lanes.sort_unstable();
    let (mut most, mut run) = (0u64, 0u64);
    for j in 0..n {
        run = if j > 0 && lanes[j] == lanes[j - 1] {
            run + 1
        } else {
            1
        };
        most = most.max(run);
    }
    most
}

/// Why no swizzle in range maps a layout onto a target: the first index at
/// which every candidate consistent with the indices before it fails.
///
/// ```
/// use hlayout::smem::{swizzle_between, SmemLayout};
/// let l: SmemLayout = "8:1".parse()?;
/// let t: SmemLayout = "8:2".parse()?;
/// let why = swizzle_between(&l, &t)?.unwrap_err();
/// assert_eq!((why.index, why.from, why.to), (1, 1, 2));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoSwizzle {
    /// The first index no remaining candidate maps right.
    pub index: i64,
    /// `L(index)`.
    pub from: i64,
    /// `target(index)`.
    pub to: i64,
    /// How many candidates fitted every index below `index`.
    pub fitted_before: u32,
}

impl fmt::Display for NoSwizzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no swizzle Sw<B,M,S> (0 <= B <= 4, 0 <= M <= 4, B <= S <= 7) maps the layout onto the \
             target: at index {} the layout gives {} and the target {}, which none of the {} \
             swizzles that fit every index below it maps",
            self.index, self.from, self.to, self.fitted_before
        )
    }
}

/// The swizzle `Sw` (in the range of [`search_candidates`], the smallest in
/// tie order) with `Sw(L(i)) = target(i)` at every index, or why there is
/// none (cutlass issue #1038: "given two layouts, find the swizzle").
///
/// O(size · 111) at worst, O(size · 15) where the layouts agree: the
/// candidates that fit the indices so far are a bit set; where `L(i) =
/// target(i)` the ones that read a bit of `L(i)` are dropped at once (15 set
/// operations), elsewhere each survivor is tried (a wrong one usually fails
/// at one of the first indices).
///
/// # Errors
/// [`Error::SizeMismatch`] when the sizes differ; [`Error::BudgetExceeded`]
/// above [`SMEM_BUDGET`] indices.
///
/// ```
/// use hlayout::smem::{swizzle_between, SmemLayout};
/// let l: SmemLayout = "(16,64):(64,1)".parse()?;
/// let t: SmemLayout = "Sw<3,4,3> o 0 o (16,64):(64,1)".parse()?;
/// assert_eq!(swizzle_between(&l, &t)?.unwrap().to_string(), "Sw<3,4,3>");
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn swizzle_between(
    layout: &SmemLayout,
    target: &SmemLayout,
) -> Result<std::result::Result<Swizzle, NoSwizzle>> {
    let size = layout.size();
    if size != target.size() {
        return Err(Error::SizeMismatch {
            what: "swizzle between a layout and a target",
            left: size,
            right: target.size(),
        });
    }
    if size > SMEM_BUDGET {
        return Err(Error::BudgetExceeded {
            what: "swizzle between a layout and a target (indices)",
            needed: size,
            budget: SMEM_BUDGET,
        });
    }
    let candidates: Vec<Swizzle> = search_candidates().collect();
    let mut alive: u128 = (1u128 << candidates.len()) - 1;
    // reads[b]: the candidates that read bit b (all read below bit 15).
    let mut reads = [0u128; LOW_BITS as usize];
    for (c, sw) in candidates.iter().enumerate() {
        for (b, set) in reads.iter_mut().enumerate() {
            if sw.mask() >> b & 1 == 1 {
                *set |= 1u128 << c;
            }
        }
    }
    for (i, (x, y)) in (0..size).zip(layout.offsets().zip(target.offsets())) {
        let before = alive.count_ones();
        if x == y {
            // Sw(x) = x exactly when Sw reads none of x's bits.
            let mut bits = x & ((1 << LOW_BITS) - 1);
            while bits != 0 {
                alive &= !reads[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
        } else {
            let mut rest = alive;
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if candidates[c].apply(x) != y {
                    alive &= !(1u128 << c);
                }
            }
        }
        if alive == 0 {
            return Ok(Err(NoSwizzle {
                index: i,
                from: x,
                to: y,
                fitted_before: before,
            }));
        }
    }
    Ok(Ok(candidates[alive.trailing_zeros() as usize]))
}
