//! Composition (and the other binary algebra ops) on small random layouts:
//! never a panic, and a composition that succeeds is `A(B(i))` at every
//! `i < size(B)` (an exact oracle by evaluation).
#![no_main]

mod bytes;

use bytes::Bytes;
use hlayout::Layout;
use libfuzzer_sys::fuzz_target;

/// A small layout: rank 1-3, each mode a leaf or a pair of leaves.
fn layout(b: &mut Bytes) -> Option<Layout> {
    let rank = 1 + b.below(3);
    let mut shape = Vec::new();
    let mut stride = Vec::new();
    for _ in 0..rank {
        let leaf = |b: &mut Bytes| {
            let e = if b.below(16) == 0 { b.int() } else { 1 + b.below(6) as i64 };
            let s = if b.below(16) == 0 { b.int() } else { b.below(13) as i64 - 4 };
            (e.to_string(), s.to_string())
        };
        if b.below(3) == 0 {
            let (e0, s0) = leaf(b);
            let (e1, s1) = leaf(b);
            shape.push(format!("({e0},{e1})"));
            stride.push(format!("({s0},{s1})"));
        } else {
            let (e, s) = leaf(b);
            shape.push(e);
            stride.push(s);
        }
    }
    format!("({}):({})", shape.join(","), stride.join(",")).parse().ok()
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let op = b.below(5);
    let (Some(a), Some(bl)) = (layout(&mut b), layout(&mut b)) else {
        return;
    };
    match op {
        0 | 1 => {
            let Ok(r) = a.compose(&bl) else { return };
            if bl.size() > 4096 {
                return;
            }
            for i in 0..bl.size() {
                let x = bl.eval(i).expect("i < size(B)");
                if x < 0 {
                    continue; // A is defined on non-negative integers only
                }
                let want = a.eval(x).expect("A is defined on every x >= 0");
                assert_eq!(r.eval(i).expect("i < size(R)"), want, "{a} o {bl} = {r} at {i}");
            }
        }
        2 => {
            let _ = a.logical_divide(&bl);
        }
        3 => {
            let _ = a.logical_product(&bl);
            let _ = a.blocked_product(&bl);
            let _ = a.raked_product(&bl);
        }
        _ => {
            let _ = a.complement(bl.cosize());
            let _ = a.left_inverse();
            let _ = a.right_inverse();
        }
    }
});
