//! The largest right inverse, behind [`Layout::right_inverse_largest`].
//!
//! CuTe's right inverse takes L's leaves whose strides chain contiguously
//! from 1. A layout R with `L(R(i)) = i` for `i < n` can be larger: for
//! `(2,3):(2,1)` (offsets 0 1 2 2 3 4) the chain gives `3:1`, but
//! `(2,2):(3,1)` reaches `n = 4`. This module finds the largest n, reading
//! only L's leaves off its kernel (stride 0), as CuTe does.
//!
//! **Search.** Write R fastest leaf first as place values `1 = E₀ | E₁ | …`
//! with strides `r_k` (an index of L) and a last leaf of extent m. The
//! values below `E_k` only read the leaves below k, so every prefix of a valid
//! R is a valid R of size `E_k` (prefix pruning). At level k the search tries
//! each stride `r_k` among the kernel-free preimages of the value `E_k`, and
//! extends the leaf block by block: block u holds `R(j + u·E_k) = R(j) + u·r_k`
//! for `j < E_k`, each checked by one evaluation of L. Every block count m
//! that passes gives a valid R of size `E_k·m` (a candidate), and the next
//! level starts from it. A step whose stride continues the current leaf
//! (`r = m·r_k`) is the same function as a longer leaf, so it is skipped.
//! The search is exhaustive over coalesced layouts, hence exact, within
//! [`RIGHT_INVERSE_SEARCH_BUDGET`] evaluations, and runs on layouts with at
//! most that many elements off the kernel; past it the largest inverse found
//! so far (CuTe's for larger layouts) is returned: never smaller than CuTe's,
//! always valid.
//!
//! Cost: nothing beyond CuTe's chain when the chain already covers every
//! kernel-free leaf (L is then a bijection onto its image and no larger R
//! exists), or when the image misses a value just past the chain; otherwise
//! the kernel-free offsets are sorted once (`O(n log n)`) and the search
//! spends at most the budget.

use smallvec::SmallVec;

use crate::algebra::complement::{flat_layout, push_coalesced};
use crate::layout::Layout;
use crate::num::Ints;

/// Most evaluations of L the largest-right-inverse search spends; past it
/// [`Layout::right_inverse_largest`] returns the largest inverse found so far.
///
/// ```
/// assert_eq!(hlayout::algebra::RIGHT_INVERSE_SEARCH_BUDGET, 1 << 16);
/// ```
pub const RIGHT_INVERSE_SEARCH_BUDGET: i64 = 1 << 16;

/// The largest right inverse of `l`, given CuTe's (`chain`).
pub(crate) fn largest_right_inverse(l: &Layout, chain: Layout) -> Layout {
    let (s, d) = (l.shape_leaves(), l.stride_leaves());
    let reach = (0..s.len())
        .filter(|&k| s[k] > 1 && d[k] != 0)
        .try_fold(1i64, |acc, k| acc.checked_mul(s[k]));
    match reach {
        Some(r) if r > chain.size() && r <= RIGHT_INVERSE_SEARCH_BUDGET => {}
        _ => return chain,
    }
    let points = kernel_free_points(s, d);
    let n0 = image_prefix(&points);
    if n0 <= chain.size() {
        return chain;
    }
    let mut search = Search {
        l,
        points,
        n0,
        budget: RIGHT_INVERSE_SEARCH_BUDGET,
        vals: vec![0],
        leaves: Vec::new(),
        best: chain.size(),
        best_leaves: Vec::new(),
    };
    search.level(1);
    if search.best_leaves.is_empty() {
        return chain;
    }
    let mut leaves: SmallVec<[(i64, i64); 9]> = SmallVec::new();
    for &(e, r) in &search.best_leaves {
        push_coalesced(&mut leaves, e, r);
    }
    if leaves.is_empty() {
        return chain;
    }
    let shape: Ints = leaves.iter().rev().map(|t| t.0).collect();
    let stride: Ints = leaves.iter().rev().map(|t| t.1).collect();
    flat_layout(shape, stride)
}

/// `(L(i), i)` for every index i without stride-0 coordinates, sorted.
fn kernel_free_points(s: &[i64], d: &[i64]) -> Vec<(i64, i64)> {
    let mut index: SmallVec<[i64; 8]> = SmallVec::from_elem(1, s.len());
    for k in (0..s.len().saturating_sub(1)).rev() {
        index[k] = index[k + 1] * s[k + 1]; // ≤ size
    }
    let read: SmallVec<[usize; 8]> = (0..s.len()).filter(|&k| s[k] > 1 && d[k] != 0).collect();
    let mut points = vec![(0i64, 0i64)];
    for &k in read.iter().rev() {
        let mut next = Vec::with_capacity(points.len() * s[k] as usize);
        for c in 0..s[k] {
            // Within L's validated span and size.
            next.extend(
                points
                    .iter()
                    .map(|&(x, i)| (x + c * d[k], i + c * index[k])),
            );
        }
        points = next;
    }
    points.sort_unstable();
    points
}

/// The first value missing from the sorted points' offsets, counting from 0.
fn image_prefix(points: &[(i64, i64)]) -> i64 {
    let mut n = 0i64;
    for &(x, _) in points {
        if x == n {
            n += 1;
        } else if x > n {
            break;
        }
    }
    n
}

struct Search<'a> {
    l: &'a Layout,
    points: Vec<(i64, i64)>,
    /// Values `0 .. n0` are in L's image; R cannot reach past them.
    n0: i64,
    budget: i64,
    /// `R(i)` for the indices fixed so far.
    vals: Vec<i64>,
    /// R's leaves fixed so far, fastest first.
    leaves: Vec<(i64, i64)>,
    best: i64,
    best_leaves: Vec<(i64, i64)>,
}

impl Search<'_> {
    /// Tries every leaf at place value `e` (R fixed below it); records every
    /// valid R found and descends.
    fn level(&mut self, e: i64) {
        let prev = self.leaves.last().copied();
        let lo = self.points.partition_point(|p| p.0 < e);
        let hi = self.points.partition_point(|p| p.0 <= e);
        for p in lo..hi {
            let r = self.points[p].1;
            if prev.is_some_and(|(m, rk)| Some(r) == m.checked_mul(rk)) {
                continue;
            }
            let mut m = 1i64;
            while (m + 1).checked_mul(e).is_some_and(|n| n <= self.n0) && self.block(e, r, m) {
                m += 1;
                if e * m > self.best {
                    self.best = e * m;
                    self.best_leaves.clone_from(&self.leaves);
                    self.best_leaves.push((m, r));
                }
                self.leaves.push((m, r));
                let keep = self.vals.len();
                if e * m < self.n0 {
                    self.level(e * m);
                }
                self.vals.truncate(keep);
                self.leaves.pop();
                if self.budget <= 0 {
                    return;
                }
            }
            // Drop the blocks of this stride before trying the next one.
            self.vals.truncate(e as usize);
        }
    }

    /// Appends block `u` (`R(j + u·e) = R(j) + u·r`, `j < e`) when every value
    /// maps back: `L(R(i)) = i`. One evaluation per index, charged.
    fn block(&mut self, e: i64, r: i64, u: i64) -> bool {
        if self.budget < e {
            self.budget = 0;
            return false;
        }
        self.budget -= e;
        let size = self.l.size();
        let start = self.vals.len();
        for j in 0..e as usize {
            let x = u.checked_mul(r).and_then(|v| v.checked_add(self.vals[j]));
            let want = u * e + j as i64; // < n0
            match x {
                Some(x) if (0..size).contains(&x) && self.l.eval(x) == Ok(want) => {
                    self.vals.push(x);
                }
                _ => {
                    self.vals.truncate(start);
                    return false;
                }
            }
        }
        true
    }
}
