//! Floor and ceiling division on `i128` (the merge decision's products and
//! sums), taken in 64-bit arithmetic whenever both operands fit, because
//! 128-bit division is several times slower.

/// `⌊a/b⌋` for `b > 0`, in 64-bit arithmetic when both fit (the common case:
/// 128-bit division is several times slower).
#[inline]
pub(crate) fn div_floor(a: i128, b: i128) -> i128 {
    debug_assert!(b > 0);
    match (i64::try_from(a), i64::try_from(b)) {
        (Ok(a), Ok(b)) => i128::from(a.div_euclid(b)),
        _ => a.div_euclid(b),
    }
}

/// `a mod b` in `[0, b)` for `b > 0`, as [`div_floor`].
#[inline]
pub(crate) fn mod_floor(a: i128, b: i128) -> i128 {
    debug_assert!(b > 0);
    match (i64::try_from(a), i64::try_from(b)) {
        (Ok(a), Ok(b)) => i128::from(a.rem_euclid(b)),
        _ => a.rem_euclid(b),
    }
}

/// `v` in 64 bits; callers pass values bounded by bounds derived from `merge::MAX_SPAN`.
#[inline]
pub(crate) fn narrow(v: i128) -> i64 {
    debug_assert!(i64::try_from(v).is_ok(), "{v} does not fit i64");
    v as i64
}

/// `⌈a/b⌉` for `b > 0`.
#[inline]
pub(crate) fn ceil_div(a: i128, b: i128) -> i128 {
    -div_floor(-a, b)
}
