//! tinygrad's `_pool` window chain for a padded 3×3 convolution: one
//! definition shared by the tests, the benchmarks and the profiling examples
//! (which include this file by path).

use hlayout::{Result, ViewStack};

/// The 3×3 windows of an `n`×`n` image padded by 1, as tinygrad's `_pool`
/// builds them: pad, reshape, expand, reshape, shrink, reshape, shrink,
/// permute. The result has shape `(n, n, 3, 3)`.
pub(crate) fn conv_window(n: i64) -> Result<ViewStack> {
    let p = n + 2;
    ViewStack::new(&[n, n])
        .and_then(|t| t.pad(&[(1, 1), (1, 1)]))
        .and_then(|t| t.reshape(&[1, p, 1, p]))
        .and_then(|t| t.expand(&[4, p, 4, p]))
        .and_then(|t| t.reshape(&[4 * p, 4 * p]))
        .and_then(|t| t.shrink(&[(0, 3 * (p + 1)), (0, 3 * (p + 1))]))
        .and_then(|t| t.reshape(&[3, p + 1, 3, p + 1]))
        .and_then(|t| t.shrink(&[(0, 3), (0, n), (0, 3), (0, n)]))
        .and_then(|t| t.permute(&[1, 3, 0, 2]))
}
