//! Merging two flat views: never a panic, and the answer equals the
//! brute-force oracle's (the composed map evaluated at every element, and the
//! one candidate view, its valid set's bounding box, checked against it).
#![no_main]

mod bytes;

#[allow(dead_code, unreachable_pub, clippy::all)]
#[path = "../../tests/common/flat.rs"]
mod flat;

use bytes::Bytes;
use hlayout::FlatView;
use libfuzzer_sys::fuzz_target;

fn view(b: &mut Bytes, shape_of: Option<i64>) -> Option<FlatView> {
    let rank = 1 + b.below(3) as usize;
    let mut shape: Vec<i64> = (0..rank).map(|_| b.below(5) as i64).collect();
    if let Some(size) = shape_of {
        // Often a view whose indices land in the first view's range.
        if b.below(2) == 0 {
            shape = vec![size.max(0)];
        }
    }
    let strides: Vec<i64> = (0..shape.len())
        .map(|_| if b.below(20) == 0 { b.int() } else { b.below(9) as i64 - 4 })
        .collect();
    let offset = if b.below(20) == 0 { b.int() } else { b.below(9) as i64 - 2 };
    let mask = (b.below(2) == 0).then(|| {
        shape
            .iter()
            .map(|&s| {
                let lo = b.below(s as u64 + 1) as i64;
                (lo, lo + b.below((s - lo) as u64 + 1) as i64)
            })
            .collect()
    });
    FlatView::new(shape, strides, offset, mask).ok()
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let Some(first) = view(&mut b, None) else { return };
    let size: i64 = first.shape().iter().product();
    let Some(second) = view(&mut b, Some(size)) else { return };
    let got = hlayout::merge(&first, &second);
    // Views whose offsets overflow may be refused with a typed error; the
    // oracle below evaluates in i64 too, so compare only small ones.
    let small = |v: &FlatView| {
        v.offset().unsigned_abs() < 1 << 20 && v.strides().iter().all(|s| s.unsigned_abs() < 1 << 20)
    };
    if !(small(&first) && small(&second)) {
        return;
    }
    let got = got.expect("small views merge or are refused without error");
    let map = flat::composed(&first, &second);
    if let Some(v) = &got {
        assert_eq!(v.shape(), second.shape());
        assert_eq!(flat::eval_all(v), map, "{first:?} + {second:?} -> {v:?}");
    }
    let oracle = flat::brute_merge(second.shape(), &map);
    assert_eq!(got.is_some(), oracle.is_some(), "{first:?} + {second:?}: {got:?} vs {oracle:?}");
});
