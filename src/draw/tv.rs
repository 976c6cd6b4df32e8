//! The thread/value picture of a shared-memory access, in the manner of
//! CuTe's `print_latex_tv`: a layout `L` (plain or composed) places element
//! `i` of a tile at shared-memory position `L(i)`, and an access `A` (a
//! plain layout of top-level rank 2, `T` threads by `V` values) says that
//! thread `t` reads element `A(t·V + v)` as its value `v`
//! (`docs/batch-protocol.md`, "Shared memory").
//!
//! [`TvPicture`] inverts the access: each cell of `L`'s grid (mode 0 the
//! rows, as [`Grid`] draws `L`) holds the first `(t, v)` that reads it and
//! how many `(t, v)` do. With [`Banks`] it also holds, for one warp (32
//! consecutive threads), the bank of each cell the warp reads and, for each
//! value `v`, the number of distinct 4-byte words the warp touches in every
//! bank: byte address `L(A(t·V+v))·b`, word = address / 4 (floor), bank =
//! word mod 32. The largest count is the wavefronts of that `v`; ideal is
//! `ceil(distinct words / 32)`.
//!
//! Building costs O(size(A) + size(L)) evaluations plus O(V·32) memory for
//! the bank panel; sizes are bounded by [`MAX_TV_CELLS`] and
//! [`MAX_TV_READS`].

use super::grid::Grid;
use crate::algebra::ComposedLayout;
use crate::error::{Error, Result};
use crate::layout::Layout;

/// Most cells (elements of `L`) a thread/value picture draws.
pub const MAX_TV_CELLS: i64 = 1 << 16;
/// Most reads (elements of `A`) a thread/value picture inverts.
pub const MAX_TV_READS: i64 = 1 << 20;
/// Threads per warp.
pub const WARP: i64 = 32;
/// Shared-memory banks (of 4-byte words).
pub const BANKS: usize = 32;

/// Which warp's banks to show, for which element size.
///
/// ```
/// let b = hlayout::draw::Banks { element_bytes: 2, warp: 0 };
/// assert_eq!(b.element_bytes, 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Banks {
    /// Bytes per element: 1, 2 or 4.
    pub element_bytes: i64,
    /// The warp (threads `32·warp .. 32·warp + 31`).
    pub warp: i64,
}

/// The bank panel: for one warp, per value `v`, distinct words per bank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankPanel {
    /// The warp and element size shown.
    pub banks: Banks,
    /// `words[v][k]`: distinct words of bank `k` that the warp reads as value `v`.
    pub words: Vec<[u32; BANKS]>,
}

impl BankPanel {
    /// Wavefronts of value `v`: the most distinct words in one bank.
    ///
    /// ```
    /// let p = hlayout::draw::BankPanel { banks: hlayout::draw::Banks { element_bytes: 4, warp: 0 }, words: vec![[2; 32]] };
    /// assert_eq!((p.wavefronts(0), p.ideal(0)), (2, 2));
    /// ```
    pub fn wavefronts(&self, v: usize) -> u32 {
        self.words[v].iter().copied().max().unwrap_or(0)
    }

    /// Ideal wavefronts of value `v`: `ceil(distinct words / 32)`.
    pub fn ideal(&self, v: usize) -> u32 {
        self.words[v].iter().sum::<u32>().div_ceil(BANKS as u32)
    }
}

/// The picture model of a shared-memory access: the tile layout `L` (plain
/// or composed) places element `i` at position `L(i)`, in elements; thread
/// `t` reads element `A(t·V + v)` as its value `v`, where the access `A` has
/// top-level rank 2 (`T` threads by `V` values). Each cell of `L`'s grid
/// holds the first `(t, v)` that reads it and how many do. With [`Banks`],
/// each cell also has its bank (`⌊L(i)·b / 4⌋ mod 32`), and the
/// [`BankPanel`] counts, for one warp and each value, the distinct 4-byte
/// words per bank. `docs/drawing.md` shows pictures.
///
/// Building costs O(size(A) + size(L)) evaluations (bounded by
/// [`MAX_TV_READS`] and [`MAX_TV_CELLS`]), plus O(32·V) with banks.
///
/// ```
/// use hlayout::draw::TvPicture;
/// // A 4x2 row-major tile; thread t reads column t as its 4 values.
/// let l = "(4,2):(2,1)".parse()?;
/// let a = "(2,4):(1,2)".parse()?; // thread t, value v reads element t + 2v
/// let p = TvPicture::of_layout(&l, &a, None)?;
/// assert_eq!(p.thread_value(1, 0), Some((0, 1))); // element 2: t=0, v=1
/// assert_eq!(p.thread_value(0, 1), Some((1, 0)));
/// # Ok::<(), hlayout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TvPicture {
    /// `L`'s grid; each cell holds the first access index `j = t·V + v`
    /// reading it (`None`: no thread reads it).
    pub grid: Grid,
    /// What is drawn, as text (`L` and `A`).
    pub title: String,
    threads: i64,
    values: i64,
    /// How many `(t, v)` read each element of `L`.
    readers: Vec<u32>,
    /// Each element's bank (empty without [`Banks`]).
    bank: Vec<u8>,
    /// Whether the shown warp reads each element (empty without [`Banks`]).
    in_warp: Vec<bool>,
    /// The bank panel, with [`Banks`].
    pub panel: Option<BankPanel>,
}

impl TvPicture {
    /// The picture of access `a` on the plain layout `l`.
    ///
    /// # Errors
    /// As [`TvPicture::of_composed`].
    ///
    /// ```
    /// let p = hlayout::draw::TvPicture::of_layout(&"8:1".parse()?, &"(8,1):(1,0)".parse()?, None)?;
    /// assert_eq!(p.thread_value(0, 7), Some((7, 0)));
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn of_layout(l: &Layout, a: &Layout, banks: Option<Banks>) -> Result<TvPicture> {
        let modes = modes_of(l);
        TvPicture::build(l.to_string(), &modes, |i| l.eval(i), a, banks)
    }

    /// The picture of access `a` on the composed layout `c` (`Sw<B,M,S> o O o L`).
    ///
    /// # Errors
    /// [`Error::Precondition`] when `a` is not of top-level rank 2 or the
    /// element size is not 1, 2 or 4; [`Error::OutOfDomain`] naming the first
    /// `j` whose `A(j)` is outside `L`'s domain, or a warp with no threads;
    /// [`Error::LimitExceeded`] past [`MAX_TV_CELLS`] or [`MAX_TV_READS`];
    /// [`Error::Overflow`] when a byte address leaves `i64`.
    ///
    /// ```
    /// use hlayout::draw::{Banks, TvPicture};
    /// let c = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse()?;
    /// let banks = Some(Banks { element_bytes: 4, warp: 0 });
    /// let p = TvPicture::of_composed(&c, &"(4,1):(1,0)".parse()?, banks)?;
    /// assert_eq!(p.bank(1, 0), Some(3)); // element 2 sits at Sw(2) = 3
    /// # Ok::<(), hlayout::Error>(())
    /// ```
    pub fn of_composed(c: &ComposedLayout, a: &Layout, banks: Option<Banks>) -> Result<TvPicture> {
        let modes = modes_of(c.layout());
        TvPicture::build(c.to_string(), &modes, |i| c.eval(i), a, banks)
    }

    fn build(
        l_text: String,
        modes: &[Vec<i64>],
        l: impl Fn(i64) -> Result<i64>,
        a: &Layout,
        banks: Option<Banks>,
    ) -> Result<TvPicture> {
        let (threads, values) = thread_values(a)?;
        let n = modes
            .iter()
            .flatten()
            .try_fold(1i64, |p, &e| p.checked_mul(e));
        let n = n.ok_or(Error::Overflow {
            what: "size of the tile",
        })?;
        check_limit("max_tv_cells", n, MAX_TV_CELLS)?;
        check_limit("max_tv_reads", a.size(), MAX_TV_READS)?;
        let cells = usize::try_from(n).unwrap_or(0);
        let mut first: Vec<Option<i64>> = vec![None; cells];
        let mut readers = vec![0u32; cells];
        for (j, i) in a.offsets().enumerate() {
            let k = usize::try_from(i).ok().filter(|&k| k < cells);
            let k = k.ok_or_else(|| Error::OutOfDomain {
                what: format!("access A({j}) = {i} is outside [0, {n}), the domain of {l_text}"),
            })?;
            first[k].get_or_insert(j as i64);
            readers[k] += 1;
        }
        let title = format!("{l_text} read by {a}");
        let grid = Grid::from_fn_capped(title.clone(), modes, MAX_TV_CELLS, |i| first[i as usize]);
        let mut p = TvPicture {
            grid,
            title,
            threads,
            values,
            readers,
            bank: Vec::new(),
            in_warp: Vec::new(),
            panel: None,
        };
        if let Some(b) = banks {
            p.add_banks(b, &l, a)?;
        }
        Ok(p)
    }

    /// Fills the per-cell banks, the warp's cells and the bank panel.
    /// O(size(L) + 32·V) evaluations of `L`.
    fn add_banks(&mut self, b: Banks, l: &impl Fn(i64) -> Result<i64>, a: &Layout) -> Result<()> {
        if ![1, 2, 4].contains(&b.element_bytes) {
            return Err(Error::Precondition {
                op: "bank picture",
                layout: a.to_string(),
                rule: format!("element_bytes must be 1, 2 or 4, got {}", b.element_bytes),
            });
        }
        let warps = (self.threads + WARP - 1) / WARP;
        if !(0..warps).contains(&b.warp) {
            return Err(Error::OutOfDomain {
                what: format!(
                    "warp {} of an access with {} threads ({warps} warps)",
                    b.warp, self.threads
                ),
            });
        }
        let word = |i: i64| -> Result<i64> {
            let bytes = l(i)?.checked_mul(b.element_bytes);
            Ok(bytes
                .ok_or(Error::Overflow {
                    what: "byte address",
                })?
                .div_euclid(4))
        };
        let cells = self.readers.len();
        self.bank = (0..cells)
            .map(|i| Ok(word(i as i64)?.rem_euclid(BANKS as i64) as u8))
            .collect::<Result<_>>()?;
        self.in_warp = vec![false; cells];
        let lo = b.warp * WARP;
        let hi = (lo + WARP).min(self.threads);
        let mut words = Vec::with_capacity(usize::try_from(self.values).unwrap_or(0));
        let mut seen: Vec<i64> = Vec::with_capacity(WARP as usize);
        for v in 0..self.values {
            seen.clear();
            for t in lo..hi {
                let i = a.eval(t * self.values + v)?;
                self.in_warp[i as usize] = true;
                seen.push(word(i)?);
            }
            seen.sort_unstable();
            seen.dedup();
            let mut per_bank = [0u32; BANKS];
            for w in &seen {
                per_bank[w.rem_euclid(BANKS as i64) as usize] += 1;
            }
            words.push(per_bank);
        }
        self.panel = Some(BankPanel { banks: b, words });
        Ok(())
    }

    /// Threads `T` (the size of `A`'s mode 0).
    pub fn threads(&self) -> i64 {
        self.threads
    }

    /// Values per thread `V` (the size of `A`'s mode 1).
    pub fn values(&self) -> i64 {
        self.values
    }

    /// The first `(t, v)` (smallest `t·V + v`) reading the cell, `None` when
    /// no thread reads it.
    pub fn thread_value(&self, row: usize, col: usize) -> Option<(i64, i64)> {
        self.grid
            .cell(row, col)
            .map(|j| (j / self.values, j % self.values))
    }

    /// How many `(t, v)` read the cell (more than 1: a broadcast).
    pub fn readers(&self, row: usize, col: usize) -> u32 {
        self.index(row, col).map_or(0, |i| self.readers[i])
    }

    /// The cell's bank (with [`Banks`]).
    pub fn bank(&self, row: usize, col: usize) -> Option<u8> {
        self.index(row, col).and_then(|i| self.bank.get(i).copied())
    }

    /// Whether the shown warp reads the cell (always false without [`Banks`]).
    pub fn in_warp(&self, row: usize, col: usize) -> bool {
        self.index(row, col)
            .is_some_and(|i| self.in_warp.get(i).copied().unwrap_or(false))
    }

    fn index(&self, row: usize, col: usize) -> Option<usize> {
        (row < self.grid.rows() && col < self.grid.cols()).then(|| row * self.grid.cols() + col)
    }
}

/// A layout's modes as lists of leaf extents (the grid's rows and columns).
fn modes_of(l: &Layout) -> Vec<Vec<i64>> {
    l.modes().map(|m| m.shape_leaves().to_vec()).collect()
}

/// `(T, V)` of an access of top-level rank 2.
fn thread_values(a: &Layout) -> Result<(i64, i64)> {
    match (a.rank(), a.mode(0), a.mode(1)) {
        (2, Ok(t), Ok(v)) => Ok((t.size(), v.size())),
        _ => Err(Error::Precondition {
            op: "thread/value picture",
            layout: a.to_string(),
            rule: format!(
                "the access must have top-level rank 2 (threads, values), not {}",
                a.rank()
            ),
        }),
    }
}

fn check_limit(limit: &'static str, value: i64, max: i64) -> Result<()> {
    if value > max {
        return Err(Error::LimitExceeded {
            limit,
            value: value as u64,
            max: max as u64,
        });
    }
    Ok(())
}
