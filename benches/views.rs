//! View benchmarks: movement ops, a realistic 6-op chain, the padded conv
//! window chain (a pushed view merged back), and offset streams of
//! a single hierarchical view side by side with the equivalent tinygrad-style
//! stack (one row-major unravel per extra view, per element) and a plain
//! `i*stride` fill. Run: `cargo bench --bench views`.

use divan::{black_box, Bencher};
use hlayout::{FlatView, ViewStack};

#[path = "../tests/common/pool.rs"]
mod pool;
use pool::conv_window;

fn main() {
    divan::main();
}

/// Reshape of a permuted view (the transpose-flatten step). Ops consume the
/// stack, so each sample gets its own copy, made outside the timing; 64 calls
/// per sample keep the timer's own cost out of the figure.
#[divan::bench(sample_size = 64)]
fn reshape_of_permuted(b: Bencher) {
    let t = ViewStack::new(&[64, 64]).unwrap().permute(&[1, 0]).unwrap();
    b.with_inputs(|| t.clone())
        .bench_values(|t| t.reshape(black_box(&[4096])).unwrap());
}

/// The copy that [`reshape_of_permuted`] excludes: what keeping the
/// original stack costs a caller.
#[divan::bench]
fn clone_of_permuted(b: Bencher) {
    let t = ViewStack::new(&[64, 64]).unwrap().permute(&[1, 0]).unwrap();
    b.bench(|| black_box(&t).clone());
}

/// Attention head split, transpose, merge, slice, pad, flip: 6 ops from a fresh tensor.
#[divan::bench(sample_size = 16)]
fn six_op_chain(b: Bencher) {
    b.bench(|| {
        ViewStack::new(black_box(&[2, 64, 512]))
            .and_then(|t| t.reshape(&[2, 64, 8, 64]))
            .and_then(|t| t.permute(&[0, 2, 1, 3]))
            .and_then(|t| t.reshape(&[16, 64, 64]))
            .and_then(|t| t.shrink(&[(0, 16), (0, 32), (0, 64)]))
            .and_then(|t| t.pad(&[(0, 0), (0, 0), (1, 1)]))
            .and_then(|t| t.flip(&[false, true, false]))
            .unwrap()
    });
}

/// Building the padded 3×3 conv window view (`conv_window`, 8 ops): the
/// reshape after the windowed shrink pushes a view, and the next shrink
/// merges the pair back into one by the affine composition.
#[divan::bench(args = [16, 64])]
fn conv_window_chain(n: i64) -> ViewStack {
    conv_window(black_box(n)).unwrap()
}

/// The evaluated merge's worst case: a 2×2 pooling window (stride 127) of a
/// 122×122 image padded by 2, split by a reshape whose carries all fall on
/// padding, so the no-carry test fails and the candidate is verified at all
/// 64,516 elements before the pair merges.
#[divan::bench]
fn pool_merge_verified(b: Bencher) {
    let (n, pad, k, extra) = (122i64, 2, 2, 1);
    let p = n + 2 * pad;
    let m = k * (p + extra);
    let t = ViewStack::new(&[n, n])
        .and_then(|t| t.pad(&[(pad, pad), (pad, pad)]))
        .and_then(|t| t.reshape(&[1, p, 1, p]))
        .and_then(|t| t.expand(&[k + 1, p, k + 1, p]))
        .and_then(|t| t.reshape(&[(k + 1) * p, (k + 1) * p]))
        .and_then(|t| t.shrink(&[(0, m), (0, m)]))
        .unwrap();
    let split = [k, p + extra, k, p + extra];
    assert_eq!(t.clone().reshape(&split).unwrap().views().len(), 1);
    b.with_inputs(|| t.clone())
        .bench_values(|t| t.reshape(black_box(&split)).unwrap());
}

/// One of the stream workloads: our single view, and tinygrad's stack of flat views.
struct Workload {
    single: ViewStack,
    stack: Vec<FlatView>,
    size: usize,
}

fn view(shape: &[i64], strides: &[i64], offset: i64, mask: Option<Vec<(i64, i64)>>) -> FlatView {
    FlatView::new(shape.to_vec(), strides.to_vec(), offset, mask).unwrap()
}

fn workload(name: &str) -> Workload {
    match name {
        "transpose_flatten_1024" => Workload {
            single: ViewStack::new(&[1024, 1024])
                .unwrap()
                .permute(&[1, 0])
                .unwrap()
                .reshape(&[1 << 20])
                .unwrap(),
            stack: vec![
                view(&[1024, 1024], &[1, 1024], 0, None),
                view(&[1 << 20], &[1], 0, None),
            ],
            size: 1 << 20,
        },
        "head_merge_8x16x64x64" => Workload {
            single: ViewStack::new(&[8, 64, 16, 64])
                .unwrap()
                .permute(&[0, 2, 1, 3])
                .unwrap()
                .reshape(&[128, 64, 64])
                .unwrap(),
            stack: vec![
                view(&[8, 16, 64, 64], &[65536, 64, 1024, 1], 0, None),
                view(&[128, 64, 64], &[4096, 64, 1], 0, None),
            ],
            size: 1 << 19,
        },
        "padded_conv3x3_64" => Workload {
            single: conv_window(64).unwrap(),
            stack: vec![
                view(&[66, 66], &[64, 1], -65, Some(vec![(1, 65), (1, 65)])),
                view(&[64, 64, 3, 3], &[66, 1, 66, 1], 0, None),
            ],
            size: 64 * 64 * 9,
        },
        "sliced_transpose_bcast_512" => Workload {
            single: ViewStack::new(&[32, 32])
                .and_then(|t| t.permute(&[1, 0]))
                .and_then(|t| t.reshape(&[1024]))
                .and_then(|t| t.shrink(&[(3, 1000)]))
                .and_then(|t| t.reshape(&[1, 997]))
                .and_then(|t| t.expand(&[512, 997]))
                .unwrap(),
            stack: vec![
                view(&[32, 32], &[1, 32], 0, None),
                view(&[512, 997], &[0, 1], 3, None),
            ],
            size: 512 * 997,
        },
        "sliced_transpose_1024" => Workload {
            single: ViewStack::new(&[1024, 1024])
                .and_then(|t| t.permute(&[1, 0]))
                .and_then(|t| t.reshape(&[1 << 20]))
                .and_then(|t| t.shrink(&[(3, (1 << 20) - 5)]))
                .unwrap(),
            stack: vec![
                view(&[1024, 1024], &[1, 1024], 0, None),
                view(&[(1 << 20) - 8], &[1], 3, None),
            ],
            size: (1 << 20) - 8,
        },
        "sliced_transpose_padded_576k" => Workload {
            single: ViewStack::new(&[64, 64])
                .and_then(|t| t.permute(&[1, 0]))
                .and_then(|t| t.reshape(&[4096]))
                .and_then(|t| t.shrink(&[(3, 4003)]))
                .and_then(|t| t.reshape(&[1, 1, 1, 4000]))
                .and_then(|t| t.expand(&[4, 4, 2, 4000]))
                .and_then(|t| t.pad(&[(1, 1), (1, 1), (1, 1), (0, 0)]))
                .unwrap(),
            stack: vec![
                view(&[64, 64], &[1, 64], 0, None),
                view(
                    &[6, 6, 4, 4000],
                    &[0, 0, 0, 1],
                    3,
                    Some(vec![(1, 5), (1, 5), (1, 3), (0, 4000)]),
                ),
            ],
            size: 6 * 6 * 4 * 4000,
        },
        _ => unreachable!(),
    }
}

/// tinygrad-style evaluation of a stack: per element, each view's offset is
/// unravelled row-major into the shape of the view below (buffers reused, no
/// allocation per element).
fn stack_fill(views: &[FlatView], out: &mut [i64]) {
    let rank = views.iter().map(|v| v.shape().len()).max().unwrap_or(0);
    let mut coord = vec![0i64; rank];
    for (i, o) in (0i64..).zip(out.iter_mut()) {
        let mut value = Some(i);
        for v in views.iter().rev() {
            let Some(idx) = value else { break };
            let c = &mut coord[..v.shape().len()];
            let mut rest = idx;
            for (x, &s) in c.iter_mut().zip(v.shape()).rev() {
                *x = rest % s;
                rest /= s;
            }
            value = eval_flat(v, c);
        }
        *o = value.unwrap_or(-1);
    }
}

/// A flat view at a coordinate known to be in range.
#[inline]
fn eval_flat(v: &FlatView, c: &[i64]) -> Option<i64> {
    if let Some(m) = v.mask() {
        if !m.iter().zip(c).all(|(&(b, e), &x)| b <= x && x < e) {
            return None;
        }
    }
    Some(v.offset() + c.iter().zip(v.strides()).map(|(x, s)| x * s).sum::<i64>())
}

const STREAMS: [&str; 6] = [
    "transpose_flatten_1024",
    "head_merge_8x16x64x64",
    "padded_conv3x3_64",
    "sliced_transpose_bcast_512",
    "sliced_transpose_1024",
    "sliced_transpose_padded_576k",
];

/// The single hierarchical view's offset stream (checked once against the
/// stack's, so both sides compute the same offsets).
#[divan::bench(args = STREAMS)]
fn stream_single_view(b: Bencher, name: &str) {
    let w = workload(name);
    assert_eq!(w.single.views().len(), 1, "{name}: {}", w.single);
    let mut out = vec![0i64; w.size];
    let mut want = vec![0i64; w.size];
    stack_fill(&w.stack, &mut want);
    w.single.views()[0].fill_offsets(&mut out, -1);
    assert!(
        out == want,
        "{name}: the single view and the stack disagree"
    );
    b.counter(divan::counter::ItemsCount::new(w.size))
        .bench_local(|| w.single.views()[0].fill_offsets(&mut out, -1));
}

/// The same offsets through tinygrad's stack of views.
#[divan::bench(args = STREAMS)]
fn stream_tinygrad_stack(b: Bencher, name: &str) {
    let w = workload(name);
    let mut out = vec![0i64; w.size];
    b.counter(divan::counter::ItemsCount::new(w.size))
        .bench_local(|| stack_fill(&w.stack, &mut out));
}

/// A plain `i*stride` fill of the same length: the floor.
#[divan::bench(args = STREAMS)]
fn stream_plain_fill(b: Bencher, name: &str) {
    let w = workload(name);
    let mut out = vec![0i64; w.size];
    b.counter(divan::counter::ItemsCount::new(w.size))
        .bench_local(|| {
            let stride = black_box(3i64);
            for (i, o) in (0i64..).zip(out.iter_mut()) {
                *o = i * stride;
            }
        });
}

/// Tiny views (1 to 16 elements), one of each kind the fill distinguishes:
/// what a stream costs to set up. `one` is a single element; `plain_16` a
/// transposed 4×4 (the layout stream); `padded_16` a 2×2 padded by one (two
/// constraints, the blocked fill); `window_12` a 1-D 3-tap window over 4
/// elements padded by one (an affine constraint `1 <= x0 + x1 < 5`);
/// `windowed_10` a flattened 4×4 transpose sliced to `[3, 13)` (a window).
fn tiny_view(name: &str) -> ViewStack {
    match name {
        "one" => ViewStack::new(&[1]),
        "plain_16" => ViewStack::new(&[4, 4]).and_then(|t| t.permute(&[1, 0])),
        "padded_16" => ViewStack::new(&[2, 2]).and_then(|t| t.pad(&[(1, 1), (1, 1)])),
        "window_12" => ViewStack::new(&[4])
            .and_then(|t| t.pad(&[(1, 1)]))
            .and_then(|t| t.reshape(&[1, 6]))
            .and_then(|t| t.expand(&[4, 6]))
            .and_then(|t| t.reshape(&[24]))
            .and_then(|t| t.shrink(&[(0, 21)]))
            .and_then(|t| t.reshape(&[3, 7]))
            .and_then(|t| t.shrink(&[(0, 3), (0, 4)]))
            .and_then(|t| t.permute(&[1, 0])),
        "windowed_10" => ViewStack::new(&[4, 4])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[16]))
            .and_then(|t| t.shrink(&[(3, 13)])),
        _ => unreachable!(),
    }
    .unwrap()
}

const TINY: [&str; 5] = ["one", "plain_16", "padded_16", "window_12", "windowed_10"];

/// The whole offset stream of a tiny view: the per-fill setup, which the
/// issue bounds at 200 ns.
#[divan::bench(args = TINY, sample_size = 64)]
fn stream_tiny(b: Bencher, name: &str) {
    let t = tiny_view(name);
    assert_eq!(t.views().len(), 1, "{name}: {t}");
    let v = &t.views()[0];
    let mut out = vec![0i64; v.size() as usize];
    b.bench_local(|| v.fill_offsets(black_box(&mut out), -1));
}

/// Two-view stacks (the pair refused by the merge): `permute_then_reshape` is
/// tinygrad's `test_permute_then_reshape` (`[7, 4]`, permute, reshape `[7, 4]`);
/// `_256` the same at 192×256; `windowed_256` a flattened transpose sliced
/// to `[3, 65000)` (a windowed lower view) and split by a reshape, so only the
/// evaluated check can refuse the pair.
fn two_view_stack(name: &str) -> ViewStack {
    let t = match name {
        "permute_then_reshape" => ViewStack::new(&[7, 4])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[7, 4])),
        "permute_then_reshape_256" => ViewStack::new(&[192, 256])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[192, 256])),
        "windowed_256" => ViewStack::new(&[256, 256])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[65536]))
            .and_then(|t| t.shrink(&[(3, 65003)]))
            .and_then(|t| t.reshape(&[250, 260])),
        _ => unreachable!(),
    }
    .unwrap();
    assert_eq!(t.views().len(), 2, "{name}: {t}");
    t
}

const TWO_VIEW: [&str; 3] = [
    "permute_then_reshape",
    "permute_then_reshape_256",
    "windowed_256",
];

/// One movement op on a two-view stack that stays at two views: a permute,
/// a flip, a shrink by one row, a pad by one row (each on a fresh copy).
#[divan::bench(args = TWO_VIEW, consts = [0, 1, 2, 3])]
fn two_view_op<const OP: usize>(b: Bencher, name: &str) {
    let t = two_view_stack(name);
    let (r, c) = (t.shape()[0], t.shape()[1]);
    let apply = move |t: ViewStack| match OP {
        0 => t.permute(&[1, 0]),
        1 => t.flip(&[true, false]),
        2 => t.shrink(&[(0, r - 1), (0, c)]),
        _ => t.pad(&[(0, 1), (0, 0)]),
    };
    assert_eq!(apply(t.clone()).unwrap().views().len(), 2, "{name} op {OP}");
    b.with_inputs(|| t.clone())
        .bench_values(|t| apply(black_box(t)).unwrap());
}

// ---------------------------------------------------------------------------
// Scaling: how the cost grows with the work (benches/README.md plots these).

/// Chain lengths of the scaling benches.
const LENGTHS: [usize; 7] = [1, 2, 4, 8, 16, 32, 64];

/// Op `k` of a six-op cycle on a `(16, 64, 64)` tensor that returns to that
/// shape (head split, inner transpose, merge, pad, shrink, flip), so a chain
/// of any length is valid and its view stays of bounded size.
fn cycle_op(t: ViewStack, k: usize) -> hlayout::Result<ViewStack> {
    match k % 6 {
        0 => t.reshape(&[16, 64, 8, 8]),
        1 => t.permute(&[0, 1, 3, 2]),
        2 => t.reshape(&[16, 64, 64]),
        3 => t.pad(&[(0, 0), (1, 1), (0, 0)]),
        4 => t.shrink(&[(0, 16), (1, 65), (0, 64)]),
        _ => t.flip(&[false, true, false]),
    }
}

/// A chain of `n` ops from a fresh tensor (the cycle above): one view
/// throughout, so the cost should grow linearly with `n`.
#[divan::bench(args = LENGTHS)]
fn chain_length_one_view(b: Bencher, n: usize) {
    let run = |n: usize| (0..n).try_fold(ViewStack::new(&[16, 64, 64])?, cycle_op);
    assert_eq!(run(n).unwrap().views().len(), 1);
    b.bench(|| run(black_box(n)).unwrap());
}

/// Op `k` of a four-op cycle that keeps a `(192, 256)` two-view stack at two
/// views (flip, pad, shrink, permute twice).
fn two_view_cycle_op(t: ViewStack, k: usize) -> hlayout::Result<ViewStack> {
    match k % 4 {
        0 => t.flip(&[true, false]),
        1 => t.pad(&[(1, 1), (0, 0)]),
        2 => t.shrink(&[(1, 193), (0, 256)]),
        _ => t.permute(&[1, 0])?.permute(&[1, 0]),
    }
}

/// `n` ops (the cycle above) on tinygrad's `test_permute_then_reshape` at
/// 192×256, a pair the merge refuses: with its witness carried through every
/// op, the cost should grow linearly with `n` and stay at the single view's
/// rate.
#[divan::bench(args = LENGTHS)]
fn chain_length_two_views(b: Bencher, n: usize) {
    let start = two_view_stack("permute_then_reshape_256");
    let run = |t: ViewStack, n: usize| (0..n).try_fold(t, two_view_cycle_op);
    assert_eq!(run(start.clone(), n).unwrap().views().len(), 2);
    b.with_inputs(|| start.clone())
        .bench_values(|t| run(t, black_box(n)).unwrap());
}

/// Sides of the square images of the stream scaling benches: 2^4 to 2^20
/// elements for the transpose.
const SIDES: [i64; 5] = [4, 16, 64, 256, 1024];

/// The flattened `n×n` transpose (one nested view, no constraint) and the
/// padded 3×3 window of an `n×n` image (affine constraints, 9·n² elements).
fn scaling_stream(kind: &str, n: i64) -> ViewStack {
    match kind {
        "transpose" => ViewStack::new(&[n, n])
            .and_then(|t| t.permute(&[1, 0]))
            .and_then(|t| t.reshape(&[n * n])),
        _ => conv_window(n),
    }
    .unwrap()
}

/// The offset stream of one view against its size: linear, with a fixed
/// setup that shows only at the smallest sizes.
#[divan::bench(args = SIDES)]
fn stream_size_transpose(b: Bencher, n: i64) {
    let t = scaling_stream("transpose", n);
    let mut out = vec![0i64; (n * n) as usize];
    b.counter(divan::counter::ItemsCount::new(out.len()))
        .bench_local(|| t.views()[0].fill_offsets(black_box(&mut out), -1));
}

/// As [`stream_size_transpose`], for the padded conv window (blocked fill).
#[divan::bench(args = [4, 16, 64, 256])]
fn stream_size_conv(b: Bencher, n: i64) {
    let t = scaling_stream("conv", n);
    assert_eq!(t.views().len(), 1);
    let mut out = vec![0i64; t.size() as usize];
    b.counter(divan::counter::ItemsCount::new(out.len()))
        .bench_local(|| t.views()[0].fill_offsets(black_box(&mut out), -1));
}

/// The plain `i*stride` fill of `n²` elements: the floor for both.
#[divan::bench(args = SIDES)]
fn stream_size_plain(b: Bencher, n: i64) {
    let mut out = vec![0i64; (n * n) as usize];
    b.counter(divan::counter::ItemsCount::new(out.len()))
        .bench_local(|| {
            let stride = black_box(3i64);
            for (i, o) in (0i64..).zip(out.iter_mut()) {
                *o = i * stride;
            }
        });
}
