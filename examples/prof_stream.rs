//! Callgrind harness for the offset streams of `benches/views.rs`:
//! `cargo build --release --example prof_stream`, then
//! `valgrind --tool=callgrind target/release/examples/prof_stream WORKLOAD N`
//! with WORKLOAD one of `transpose`, `heads`, `conv`, `sliced`, `plain_transpose`,
//! `plain_heads`, `plain_conv`, `conv256`, `plain_conv256`, `plain_sliced`, `sliced_padded` (a window and
//! three constraints), `plain_sliced_padded` (the plain `i*stride` fill of the same length),
//! or the tiny views of `benches/views.rs` `stream_tiny`: `tiny_padded_16`,
//! `tiny_window_12`, `tiny_windowed_10`, `tiny_plain_16`.

use std::hint::black_box;

use hlayout::ViewStack;

#[path = "../tests/common/pool.rs"]
mod pool;
use pool::conv_window;

/// The workload's single view, or `None` for the plain fills.
fn workload(name: &str) -> (Option<ViewStack>, usize) {
    let stack = |s: hlayout::Result<ViewStack>| Some(s.unwrap());
    match name {
        "transpose" => (
            stack(
                ViewStack::new(&[1024, 1024]).and_then(|t| t.permute(&[1, 0])?.reshape(&[1 << 20])),
            ),
            1 << 20,
        ),
        "heads" => (
            stack(
                ViewStack::new(&[8, 64, 16, 64])
                    .and_then(|t| t.permute(&[0, 2, 1, 3])?.reshape(&[128, 64, 64])),
            ),
            1 << 19,
        ),
        "conv" => (stack(conv_window(64)), 64 * 64 * 9),
        "conv256" => (stack(conv_window(256)), 256 * 256 * 9),
        "plain_conv256" => (None, 256 * 256 * 9),
        "sliced" => (
            stack(ViewStack::new(&[1024, 1024]).and_then(|t| {
                t.permute(&[1, 0])?
                    .reshape(&[1 << 20])?
                    .shrink(&[(3, (1 << 20) - 5)])
            })),
            (1 << 20) - 8,
        ),
        "tiny_plain_16" => (
            stack(ViewStack::new(&[4, 4]).and_then(|t| t.permute(&[1, 0]))),
            16,
        ),
        "tiny_padded_16" => (
            stack(ViewStack::new(&[2, 2]).and_then(|t| t.pad(&[(1, 1), (1, 1)]))),
            16,
        ),
        "tiny_window_12" => (
            stack(ViewStack::new(&[4]).and_then(|t| {
                t.pad(&[(1, 1)])?
                    .reshape(&[1, 6])?
                    .expand(&[4, 6])?
                    .reshape(&[24])?
                    .shrink(&[(0, 21)])?
                    .reshape(&[3, 7])?
                    .shrink(&[(0, 3), (0, 4)])?
                    .permute(&[1, 0])
            })),
            12,
        ),
        "tiny_windowed_10" => (
            stack(
                ViewStack::new(&[4, 4])
                    .and_then(|t| t.permute(&[1, 0])?.reshape(&[16])?.shrink(&[(3, 13)])),
            ),
            10,
        ),
        "sliced_padded" => (
            stack(ViewStack::new(&[64, 64]).and_then(|t| {
                t.permute(&[1, 0])?
                    .reshape(&[4096])?
                    .shrink(&[(3, 4003)])?
                    .reshape(&[1, 1, 1, 4000])?
                    .expand(&[4, 4, 2, 4000])?
                    .pad(&[(1, 1), (1, 1), (1, 1), (0, 0)])
            })),
            6 * 6 * 4 * 4000,
        ),
        "plain_sliced_padded" => (None, 6 * 6 * 4 * 4000),
        "plain_sliced" => (None, (1 << 20) - 8),
        "plain_transpose" => (None, 1 << 20),
        "plain_heads" => (None, 1 << 19),
        "plain_conv" => (None, 64 * 64 * 9),
        other => panic!("unknown workload {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("conv", String::as_str);
    let reps: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100);
    let (single, size) = workload(name);
    let mut out = vec![0i64; size];
    for _ in 0..reps {
        match &single {
            Some(s) => {
                black_box(s.views()[0].fill_offsets(black_box(&mut out), -1));
            }
            None => {
                let stride = black_box(3i64);
                for (i, o) in (0i64..).zip(out.iter_mut()) {
                    *o = i * stride;
                }
            }
        }
        black_box(&mut out);
    }
    println!(
        "{name}: {}",
        single.map_or_else(|| "plain".into(), |s| s.to_string())
    );
}
