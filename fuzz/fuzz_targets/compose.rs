//! The layout algebra on small random layouts (extremes of i64 mixed in):
//! never a panic, and every answer checked against the definition at every
//! index (`oracle.rs`):
//! - compose: `R(i) = A(B(i))` for every `i < size(B)`, `size(R) = size(B)`;
//!   a refusal is `NoComposition` or `Overflow`, and on small B the
//!   brute-force search over refinements of B's shape finds no layout either;
//! - complement: ordered, and `(R, filter(L))` injective;
//! - right inverse: `L(R(i)) = i`; left inverse: `R(L(i)) = i₀` (i with its
//!   stride-0 coordinates zeroed), and refused when L is not injective off
//!   its kernel;
//! - logical divide: `A ∘ (complement(B, size A), B)` as functions;
//! - logical product: `complement(A, size(A)·cosize(B))(B(j)) + A(k)`;
//!   blocked and raked products are rearrangements of it.
#![no_main]

mod bytes;
#[path = "../../tests/common/oracle.rs"]
mod oracle;

use bytes::Bytes;
use hlayout::{Error, Layout};
use libfuzzer_sys::fuzz_target;
use oracle::{values, SMALL};

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

fn compose(a: &Layout, b: &Layout) {
    let got = a.compose(b);
    if b.size() > SMALL {
        return;
    }
    let want = oracle::composed(a, b);
    match got {
        Ok(r) => {
            assert_eq!(r.size(), b.size(), "{a} o {b} = {r}: size");
            let want = want.unwrap_or_else(|| panic!("{a} o {b} = {r}, but A(B(i)) leaves i64"));
            assert_eq!(values(&r), want, "{a} o {b} = {r}");
        }
        Err(e) => {
            assert!(matches!(e, Error::NoComposition { .. } | Error::Overflow { .. }), "{a} o {b}: {e}");
            if let (Some(w), Error::NoComposition { .. }) = (&want, &e) {
                if b.size() <= 64 {
                    assert!(!oracle::composition_exists(b, w), "{a} o {b} refused ({e}), but a layout exists");
                }
            }
        }
    }
}

fn complement(l: &Layout, cotarget: i64) {
    let Ok(r) = l.complement(cotarget) else { return };
    let f = l.filter();
    if r.size().saturating_mul(f.size()) > SMALL {
        return;
    }
    let rv = values(&r);
    assert!(rv.windows(2).all(|w| w[0] < w[1]), "complement({l}, {cotarget}) = {r} not ordered");
    let fv = values(&f);
    let mut sums: Vec<i128> = rv.iter().flat_map(|&x| fv.iter().map(move |&y| i128::from(x) + i128::from(y))).collect();
    sums.sort_unstable();
    assert!(sums.windows(2).all(|w| w[0] != w[1]), "({r}, {l}) not injective");
}

fn inverses(l: &Layout) {
    let r = l.right_inverse();
    if r.size() <= SMALL {
        for i in 0..r.size() {
            let x = r.eval(i).expect("in domain");
            assert_eq!(l.eval(x).ok(), Some(i), "right_inverse({l}) = {r} at {i}");
        }
    }
    let left = l.left_inverse();
    if l.size() > SMALL {
        return;
    }
    let lv = values(l);
    if let Ok(r) = &left {
        for (i, &x) in lv.iter().enumerate() {
            let want = oracle::kernel_free(l, i as i64);
            assert_eq!(r.eval(x).ok(), Some(want), "left_inverse({l}) = {r} at {i}");
        }
    }
    let free: Vec<i64> =
        (0..l.size()).filter(|&i| oracle::kernel_free(l, i) == i).map(|i| lv[i as usize]).collect();
    if !oracle::injective(&free) {
        assert!(left.is_err(), "{l} is not injective off its kernel");
    }
}

fn divide(a: &Layout, b: &Layout) {
    let got = a.logical_divide(b);
    let Ok(c) = b.complement(a.size()) else { return };
    let Ok(d) = got else { return };
    if d.size() > SMALL {
        return;
    }
    assert_eq!(Some(d.size()), c.size().checked_mul(b.size()), "{a} / {b} = {d}: size");
    let (cv, bv) = (values(&c), values(b));
    for i in 0..d.size() {
        let x = cv[(i / b.size()) as usize].checked_add(bv[(i % b.size()) as usize]);
        let want = x.and_then(|x| a.eval(x).ok());
        assert_eq!(d.eval(i).ok(), want, "{a} / {b} = {d} at {i}");
    }
}

fn product(a: &Layout, b: &Layout) {
    let p = a.logical_product(b);
    let (blocked, raked) = (a.blocked_product(b), a.raked_product(b));
    let Ok(p) = p else { return };
    if p.size() > SMALL {
        return;
    }
    let Some(target) = a.size().checked_mul(b.cosize()) else { return };
    if let Ok(c) = a.complement(target) {
        assert_eq!(Some(p.size()), a.size().checked_mul(b.size()), "{a} x {b} = {p}: size");
        for i in 0..p.size() {
            let (j, k) = (i / a.size(), i % a.size());
            let placed = b.eval(j).ok().and_then(|y| c.eval(y).ok());
            let want = placed.and_then(|y| y.checked_add(a.eval(k).ok()?));
            assert_eq!(p.eval(i).ok(), want, "{a} x {b} = {p} at {i}");
        }
    }
    let mut pv = values(&p);
    pv.sort_unstable();
    for (name, r) in [("blocked", blocked), ("raked", raked)] {
        if let Ok(r) = r {
            let mut rv = values(&r);
            rv.sort_unstable();
            assert_eq!(rv, pv, "{name} product of {a} and {b} rearranges the logical product");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let op = b.below(5);
    let cotarget = if b.below(8) == 0 { b.int() } else { b.below(200) as i64 };
    let (Some(a), Some(bl)) = (layout(&mut b), layout(&mut b)) else {
        return;
    };
    match op {
        0 | 1 => compose(&a, &bl),
        2 => divide(&a, &bl),
        3 => product(&a, &bl),
        _ => {
            complement(&a, cotarget);
            inverses(&a);
        }
    }
});
