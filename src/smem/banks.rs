//! The exact bank-conflict count of a thread/value access.
//!
//! For each warp (32 consecutive threads) and each value `v`, the threads'
//! element offsets `x = L(A(t·V + v))` lie in the 4-byte words `⌊x·b/4⌋ =
//! x >> k` (`b = 4 >> k` bytes per element), word `w` in bank `w % 32`. The
//! request takes as many wavefronts as the largest number of *distinct*
//! words in one bank (threads reading the same word share it, the
//! broadcast), and ideally `⌈distinct words / 32⌉`.
//!
//! [`WordSets`] keeps, per (warp, value), one element offset for each
//! distinct word: the swizzle search counts every candidate on these sets,
//! because a swizzle never merges or splits words (`docs/smem.md`).

use crate::algebra::Swizzle;
use crate::error::{Error, Result};
use crate::layout::Offsets;
use crate::smem::{word_shift, Access, SmemEval, SmemLayout, BANKS, SMEM_BUDGET, WARP};

/// The count of one request: warp `warp`, value `value`.
///
/// ```
/// use hlayout::smem::{bank_conflicts, Access};
/// let a = Access::new("(32,1):(32,1)".parse()?)?; // thread t reads row t
/// let c = bank_conflicts(&"(32,32):(32,1)".parse()?, &a, 4)?;
/// assert_eq!((c.groups[0].wavefronts, c.groups[0].ideal), (32, 1));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupCount {
    /// The warp (threads `32·warp ..`).
    pub warp: i64,
    /// The value index `v`.
    pub value: i64,
    /// Wavefronts: the most distinct words asked of one bank.
    pub wavefronts: u32,
    /// `⌈distinct words / 32⌉`.
    pub ideal: u32,
}

/// Wavefronts of an access, total and per (warp, value).
///
/// ```
/// use hlayout::smem::{bank_conflicts, Access};
/// // A row-major 32x32 fp32 tile read by columns: every thread in bank v.
/// let a = Access::new("(32,32):(32,1)".parse()?)?;
/// let c = bank_conflicts(&"(32,32):(32,1)".parse()?, &a, 4)?;
/// assert_eq!((c.wavefronts, c.ideal), (1024, 32));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankConflicts {
    /// The sum of the wavefronts over warps and values.
    pub wavefronts: u64,
    /// The sum of the ideal counts over warps and values.
    pub ideal: u64,
    /// One count per warp and value, warp-major (`warp · V + value`).
    pub groups: Vec<GroupCount>,
}

/// The exact wavefronts of `access` reading `layout`, elements of
/// `element_bytes` bytes (1, 2 or 4).
///
/// O(T·V·(leaves + log 32)) time (one evaluation of A and of L per point, a
/// sort of ≤ 32 words per request), O(32·V + warps·V) memory.
///
/// # Errors
/// [`Error::Precondition`] for an element size other than 1, 2, 4;
/// [`Error::BudgetExceeded`] when `T·V` exceeds [`SMEM_BUDGET`];
/// [`Error::OutOfDomain`] naming the thread and value whose index
/// `A(t·V+v)` lies outside `[0, size(L))` or whose offset is negative;
/// [`Error::Overflow`] when a byte address leaves `i64`.
///
/// ```
/// use hlayout::smem::{bank_conflicts, Access};
/// let tile = "Sw<3,0,3> o 0 o (8,8):(8,1)".parse()?; // an 8x8 fp32 tile, swizzled
/// let cols = Access::new("(8,8):(8,1)".parse()?)?;  // value v: the threads read column v
/// let c = bank_conflicts(&tile, &cols, 4)?;
/// assert_eq!((c.wavefronts, c.ideal), (8, 8)); // conflict-free
/// let plain = bank_conflicts(&"(8,8):(8,1)".parse()?, &cols, 4)?;
/// assert_eq!(plain.wavefronts, 16); // rows t and t+4 share a bank
/// # Ok::<(), hlayout::Error>(())
/// ```
pub fn bank_conflicts(
    layout: &SmemLayout,
    access: &Access,
    element_bytes: i64,
) -> Result<BankConflicts> {
    let k = word_shift(element_bytes)?;
    let sets = WordSets::new(layout, access, k)?;
    let mut out = BankConflicts {
        wavefronts: 0,
        ideal: 0,
        groups: Vec::with_capacity(sets.len()),
    };
    for g in 0..sets.len() {
        let reps = sets.group(g);
        let wavefronts = identity_wavefronts(reps, k);
        let ideal = reps.len().div_ceil(BANKS as usize) as u32;
        out.wavefronts += u64::from(wavefronts);
        out.ideal += u64::from(ideal);
        let v = access.values();
        out.groups.push(GroupCount {
            warp: g as i64 / v,
            value: g as i64 % v,
            wavefronts,
            ideal,
        });
    }
    Ok(out)
}

/// The most distinct words in one bank: the words of `reps` are distinct,
/// so this is the largest bank's count. O(|reps|).
fn identity_wavefronts(reps: &[i64], k: u32) -> u32 {
    let mut hist = [0u8; BANKS as usize];
    let mut most = 0;
    for &x in reps {
        let b = ((x >> k) & (BANKS - 1)) as usize;
        hist[b] += 1;
        most = most.max(hist[b]);
    }
    u32::from(most)
}

/// Per (warp, value), warp-major: one element offset per distinct word.
pub(crate) struct WordSets {
    reps: Vec<i64>,
    starts: Vec<usize>,
    max_offset: i64,
}

impl WordSets {
    /// The word sets of `access` on `layout`, words `x >> k`.
    /// O(T·V·(leaves + log 32)).
    ///
    /// # Errors
    /// As [`bank_conflicts`].
    pub(crate) fn new(layout: &SmemLayout, access: &Access, k: u32) -> Result<WordSets> {
        let points = access.layout().size();
        if points > SMEM_BUDGET {
            return Err(Error::BudgetExceeded {
                what: "bank conflicts of an access (points T*V)",
                needed: points,
                budget: SMEM_BUDGET,
            });
        }
        let (t_count, v_count) = (access.threads(), access.values());
        let mut points = Points::new(layout, access);
        let mut sets = WordSets {
            reps: Vec::with_capacity(points_len(access)),
            starts: Vec::with_capacity((access.warps() * v_count) as usize + 1),
            max_offset: 0,
        };
        sets.starts.push(0);
        // One warp at a time: its 32·V offsets, thread-major as A lists them.
        let mut warp = vec![0i64; (WARP * v_count) as usize];
        for t0 in (0..t_count).step_by(WARP as usize) {
            let lanes = WARP.min(t_count - t0);
            let buf = &mut warp[..(lanes * v_count) as usize];
            points.fill(buf, t0 * v_count, v_count)?;
            for (j, &x) in buf.iter().enumerate() {
                if x < 0 {
                    let (t, v) = (t0 + j as i64 / v_count, j as i64 % v_count);
                    return Err(Error::OutOfDomain {
                        what: format!(
                            "thread {t} value {v} reads offset {x}: shared memory offsets are >= 0"
                        ),
                    });
                }
                sets.max_offset = sets.max_offset.max(x);
            }
            if sets.max_offset > i64::MAX >> (2 - k) {
                return Err(Error::Overflow {
                    what: "byte address of a shared-memory element",
                });
            }
            for v in 0..v_count {
                let lane = |j: i64| warp[(j * v_count + v) as usize];
                sets.push_group((0..lanes).map(lane), k);
            }
        }
        Ok(sets)
    }

    /// Adds one request: the offsets of its lanes (at most 32), the first
    /// of each word kept, in lane order. Words are deduplicated in a table
    /// of 64 slots (open addressing, at most half full): O(32) expected, no
    /// sort.
    fn push_group(&mut self, xs: impl Iterator<Item = i64>, k: u32) {
        const EMPTY: i64 = -1; // words are >= 0
        let mut table = [EMPTY; 64];
        for x in xs {
            let w = x >> k;
            let mut at = (w as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58;
            loop {
                let slot = &mut table[at as usize];
                if *slot == w {
                    break;
                }
                if *slot == EMPTY {
                    *slot = w;
                    self.reps.push(x);
                    break;
                }
                at = (at + 1) & 63;
            }
        }
        self.starts.push(self.reps.len());
    }

    /// The largest element offset read.
    pub(crate) fn max_offset(&self) -> i64 {
        self.max_offset
    }

    /// The number of requests (warps · V).
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Request `g`'s offsets, one per distinct word.
    pub(crate) fn group(&self, g: usize) -> &[i64] {
        &self.reps[self.starts[g]..self.starts[g + 1]]
    }
}

fn points_len(access: &Access) -> usize {
    access.layout().size() as usize // at most SMEM_BUDGET
}

/// The element offsets `L(A(t·V+v))` in the order A lists them.
enum Points {
    /// `Sw(O + R(i))` with `R = L ∘ A`, a division-free stream: when the
    /// composition exists and A's offsets all lie in L's domain.
    Composed {
        stream: Offsets,
        swizzle: Swizzle,
        offset: i64,
    },
    /// A's offsets, each checked and evaluated by L.
    Each {
        stream: Offsets,
        eval: Box<SmemEval>,
        size: i64,
    },
}

impl Points {
    /// O(leaves(L)·leaves(A)) for the composition.
    fn new(layout: &SmemLayout, access: &Access) -> Points {
        let a = access.layout();
        let (lo, hi) = a.offset_range();
        let (swizzle, offset) = layout.outer();
        if lo >= 0 && hi < layout.size() {
            if let Ok(r) = layout.inner().compose(a) {
                return Points::Composed {
                    stream: r.coalesce().offsets(),
                    swizzle,
                    offset,
                };
            }
        }
        Points::Each {
            stream: a.offsets(),
            eval: Box::new(layout.evaluator()),
            size: layout.size(),
        }
    }

    /// Fills `out` with the next offsets of the stream, the first being
    /// point `first` (`t·V + v`), `v_count` values per thread.
    ///
    /// # Errors
    /// [`Error::OutOfDomain`] when some `A(t·V+v)` lies outside L's domain;
    /// [`Error::Overflow`] when `O + L(..)` leaves `i64`.
    fn fill(&mut self, out: &mut [i64], first: i64, v_count: i64) -> Result<()> {
        let what = "offset of a composed layout";
        match self {
            Points::Composed {
                stream,
                swizzle,
                offset,
            } => {
                stream.fill(out);
                if *offset != 0 || !swizzle.is_identity() {
                    for x in out.iter_mut() {
                        *x = swizzle.apply(crate::error::add(*offset, *x, what)?);
                    }
                }
            }
            Points::Each { stream, eval, size } => {
                stream.fill(out);
                for (j, x) in out.iter_mut().enumerate() {
                    let a = *x;
                    if !(0..*size).contains(&a) {
                        let p = first + j as i64;
                        let (t, v) = (p / v_count, p % v_count);
                        return Err(Error::OutOfDomain {
                            what: format!(
                                "thread {t} value {v} reads index {a}, outside the layout's domain [0, {size})"
                            ),
                        });
                    }
                    *x = eval.eval(a)?;
                }
            }
        }
        Ok(())
    }
}
