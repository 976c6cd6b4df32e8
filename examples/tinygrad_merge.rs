//! The view merge tinygrad cannot do, seen from Rust.
//!
//! tinygrad describes a tensor as a stack of flat views (shape, strides,
//! offset, mask) and merges two adjacent views with `View.__add__`. Its merge
//! is a heuristic: tinygrad 0.10.3's own tests mark five pairs found by its
//! fuzzer as expected failures (`test/unit/test_view.py`,
//! `test_merges_from_fuzzer1`–`5`). `hlayout::merge` decides every pair
//! exactly; the Python plug-in (`hlayout.tinygrad.install()`) puts it behind
//! `View.__add__`. And where a chain of movement ops needs a second flat view,
//! hlayout's hierarchical view often needs none (tinygrad PR #3988, "One
//! hierarchical view is all you need").
//!
//! ```text
//! cargo run --example tinygrad_merge
//! ```
//!
//! Every merged view is compared with the pair at every element.

use hlayout::{merge_explained, FlatView, Result, ViewStack};

/// Row-major digits of `i` over `shape`.
fn unravel(mut i: i64, shape: &[i64]) -> Vec<i64> {
    let mut d = vec![0; shape.len()];
    for (x, &s) in d.iter_mut().zip(shape).rev() {
        *x = i % s;
        i /= s;
    }
    d
}

/// `second` read through `first` at coordinate `u`, by the definition: the
/// flat index into `first`'s shape, unravelled, then `first`'s offset.
fn composed(first: &FlatView, second: &FlatView, u: &[i64]) -> Result<Option<i64>> {
    let Some(x) = second.eval(u)? else {
        return Ok(None);
    };
    if !(0..first.size()).contains(&x) {
        return Ok(None);
    }
    first.eval(&unravel(x, first.shape()))
}

/// A tinygrad `View(shape, strides, offset, mask)`.
fn view(
    shape: &[i64],
    strides: &[i64],
    offset: i64,
    mask: Option<&[(i64, i64)]>,
) -> Result<FlatView> {
    FlatView::new(
        shape.to_vec(),
        strides.to_vec(),
        offset,
        mask.map(<[_]>::to_vec),
    )
}

fn main() -> Result<()> {
    // tinygrad's fuzzer pairs (v0 + v1) and the targets its test expects.
    let cases = [
        (
            view(&[2, 4], &[2, 1], -2, Some(&[(0, 2), (2, 4)]))?,
            view(&[2, 4, 2, 2], &[4, 0, -2, -1], 3, None)?,
            view(
                &[2, 4, 2, 2],
                &[2, 0, 0, -1],
                1,
                Some(&[(0, 2), (0, 4), (0, 1), (0, 2)]),
            )?,
        ),
        (
            view(
                &[5, 10, 12],
                &[100, 1, 10],
                -20,
                Some(&[(0, 5), (0, 10), (2, 12)]),
            )?,
            view(&[10, 6, 5, 2, 2], &[12, 2, 120, 1, 0], 0, None)?,
            view(
                &[10, 6, 5, 2, 2],
                &[1, 20, 100, 10, 0],
                -20,
                Some(&[(0, 10), (1, 6), (0, 5), (0, 2), (0, 2)]),
            )?,
        ),
        (
            view(&[8, 7, 3], &[1, 12, -4], 6, Some(&[(2, 6), (0, 7), (0, 3)]))?,
            view(&[4, 2, 6, 2, 1], &[42, 21, 3, 1, 0], 4, None)?,
            view(
                &[4, 2, 6, 2, 1],
                &[2, 1, 12, -4, 0],
                14,
                Some(&[(1, 3), (0, 2), (0, 6), (0, 2), (0, 1)]),
            )?,
        ),
        (
            view(
                &[7, 21, 3],
                &[54, 3, 1],
                -9,
                Some(&[(0, 6), (3, 21), (0, 3)]),
            )?,
            view(&[5, 3, 3, 7], &[63, 1, 3, 9], 63, None)?,
            view(
                &[5, 3, 3, 7],
                &[54, 1, 3, 9],
                45,
                Some(&[(0, 5), (0, 3), (0, 3), (1, 7)]),
            )?,
        ),
        (
            view(
                &[5, 1, 24],
                &[20, 0, 1],
                -2,
                Some(&[(0, 5), (0, 1), (2, 22)]),
            )?,
            view(&[12, 2, 5, 2, 1], &[2, 1, 24, 0, 0], 0, None)?,
            view(
                &[12, 2, 5, 2, 1],
                &[2, 1, 20, 0, 0],
                -2,
                Some(&[(1, 11), (0, 2), (0, 5), (0, 2), (0, 1)]),
            )?,
        ),
    ];
    for (n, (v0, v1, target)) in cases.iter().enumerate() {
        let d = merge_explained(v0, v1)?;
        let merged = d.merged.as_ref().expect("each fuzzer pair merges");
        println!(
            "fuzzer{}: strides {:?} offset {} mask {:?}   (rule {:?})",
            n + 1,
            merged.strides(),
            merged.offset(),
            merged.mask(),
            d.rule
        );
        // tinygrad's target exactly, and the pair's function at every element.
        assert_eq!(merged, target, "fuzzer{}", n + 1);
        for i in 0..v1.size() {
            let u = unravel(i, v1.shape());
            let want = composed(v0, v1, &u)?;
            assert_eq!(merged.eval(&u)?, want, "fuzzer{} at {u:?}", n + 1);
        }
    }
    println!("all five fuzzer pairs merge into the target views of tinygrad's tests");

    // tinygrad issue #8511's "accidental" merge: two carries that cancel.
    let v0 = view(&[10, 9, 4], &[140, 11, 13], 0, None)?;
    let v1 = view(&[6], &[9], 0, None)?;
    let d = merge_explained(&v0, &v1)?;
    let merged = d.merged.expect("it merges");
    println!(
        "(10,9,4):(140,11,13) read by (6):(9) -> stride {:?} ({:?})",
        merged.strides(),
        d.rule
    );
    assert_eq!(merged.strides(), [35]);
    for i in 0..6 {
        assert_eq!(merged.eval(&[i])?, composed(&v0, &v1, &[i])?);
    }

    // A chain where tinygrad pushes a second view and hlayout does not.
    let t = ViewStack::new(&[10, 10])?
        .permute(&[1, 0])?
        .reshape(&[100])?;
    println!(
        "(10,10) transposed, flattened: {t}   ({} view)",
        t.views().len()
    );
    assert_eq!(t.views().len(), 1);
    for i in 0..100 {
        assert_eq!(t.eval(&[i])?, Some(i % 10 * 10 + i / 10));
    }
    // ... and one where no single view exists at all (docs/views.md §4).
    let split = t.reshape(&[4, 25])?;
    println!(
        "then split (4,25): {split}   ({} views, provably)",
        split.views().len()
    );
    assert_eq!(split.views().len(), 2);
    Ok(())
}
