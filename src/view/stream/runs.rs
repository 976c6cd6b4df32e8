//! The run-wise fill of a constrained view: long innermost runs written run
//! by run.
//!
//! An odometer steps over all leaves but the innermost; along the innermost
//! run, each constraint `lo <= v + j·a < hi` holds on an interval of `j`
//! computed once per run ([`run_interval`]), so the run is written as three
//! plain loops: invalid, offsets, invalid.

use super::ViewOffsets;

/// Run-wise fill of `it` (at its start) into `out`; returns how many were
/// written (`out.len()` or the stream's length, the lesser). O(n + runs ·
/// constraints) for `n` written, no heap.
pub(super) fn fill_constrained(mut it: ViewOffsets, out: &mut [i64], invalid: i64) -> usize {
    let Some(last) = it.leaves.extents.len().checked_sub(1) else {
        return out
            .iter_mut()
            .zip(it)
            .map(|(o, v)| *o = v.unwrap_or(invalid))
            .count();
    };
    let want = out.len().min(usize::try_from(it.remaining).unwrap_or(0));
    let n = it.leaves.extents[last];
    let run = usize::try_from(n).unwrap_or(0);
    let d = it.leaves.strides[last];
    let mut written = 0;
    while written + run <= want {
        let (mut lo_j, mut hi_j) = (0i64, n);
        let cons = it.odo.values.iter().zip(&it.leaves.bounds);
        for ((&v, &(lo, hi)), &a) in cons.zip(&it.leaves.coeffs[last]) {
            let (l, h) = run_interval(v, a, lo, hi);
            lo_j = lo_j.max(l);
            hi_j = hi_j.min(h);
        }
        let chunk = &mut out[written..written + run];
        let (lo_j, hi_j) = (
            lo_j.clamp(0, run as i64) as usize,
            hi_j.clamp(0, run as i64) as usize,
        );
        let hi_j = hi_j.max(lo_j);
        chunk[..lo_j].fill(invalid);
        for (j, o) in (lo_j as i64..).zip(&mut chunk[lo_j..hi_j]) {
            *o = it.odo.offset + j * d;
        }
        chunk[hi_j..].fill(invalid);
        written += run;
        it.skip_run(last);
    }
    for o in &mut out[written..want] {
        *o = it.next().flatten().unwrap_or(invalid);
    }
    want
}

/// The `j` with `lo <= v + j·a < hi`, as a half-open interval (possibly empty
/// or unbounded). O(1).
fn run_interval(v: i64, a: i64, lo: i64, hi: i64) -> (i64, i64) {
    use num_integer::Integer;
    match a {
        0 if lo <= v && v < hi => (i64::MIN, i64::MAX),
        0 => (0, 0),
        // Unit coefficients (pads, conv windows) need no division.
        1 => (lo - v, hi - v),
        -1 => (v - hi + 1, v - lo + 1),
        a if a > 0 => (
            Integer::div_ceil(&(lo - v), &a),
            Integer::div_ceil(&(hi - v), &a),
        ),
        a => {
            let b = -a;
            (
                Integer::div_floor(&(v - hi), &b) + 1,
                Integer::div_floor(&(v - lo), &b) + 1,
            )
        }
    }
}
