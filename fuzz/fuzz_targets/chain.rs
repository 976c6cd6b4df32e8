//! Movement-op chains: never a panic; every op the naive reference accepts
//! (arguments valid by tinygrad's preconditions) succeeds, and the offsets
//! equal the reference's (materialise the index array and move it) at every
//! element, through the stream, the block fill and the evaluation at a
//! coordinate; an op that fails leaves only `Overflow` as an excuse; an empty
//! tensor is one view with no offsets.
#![no_main]

mod bytes;

#[allow(dead_code, unreachable_pub, clippy::all)]
#[path = "../../tests/common/ndarray.rs"]
mod ndarray;

use bytes::Bytes;
use hlayout::ViewStack;
use libfuzzer_sys::fuzz_target;
use ndarray::NdArray;

/// Largest reference array materialised.
const ORACLE: i64 = 1 << 12;

fn extents(b: &mut Bytes, rank: usize) -> Vec<i64> {
    (0..rank).map(|_| if b.below(24) == 0 { b.int() } else { b.below(5) as i64 }).collect()
}

/// Splits `size` into `rank` factors (random), or random extents.
fn reshape_arg(b: &mut Bytes, size: i64) -> Vec<i64> {
    let rank = 1 + b.below(4) as usize;
    if b.below(8) == 0 {
        return extents(b, rank);
    }
    let mut out = vec![1i64; rank];
    if size == 0 {
        out[b.below(rank as u64) as usize] = 0;
        return out;
    }
    if size > 1 << 16 {
        // Too large to factor by trial division: the whole size in one place.
        out[b.below(rank as u64) as usize] = size;
        return out;
    }
    let mut n = size;
    let mut d = 2;
    while n > 1 && d <= n {
        while n % d == 0 {
            out[b.below(rank as u64) as usize] *= d;
            n /= d;
        }
        d += 1;
    }
    out
}

fn pairs(b: &mut Bytes, shape: &[i64], shrink: bool) -> Vec<(i64, i64)> {
    shape
        .iter()
        .map(|&s| {
            if b.below(24) == 0 {
                (b.int(), b.int())
            } else if shrink {
                let lo = b.below(s.clamp(0, 255) as u64 + 1) as i64;
                (lo, lo + b.below((s - lo).clamp(0, 255) as u64 + 1) as i64)
            } else {
                (b.below(3) as i64, b.below(3) as i64)
            }
        })
        .collect()
}

/// With FUZZ_TRACE set, each op is printed before it runs, with the stack
/// it applies to (to turn a crash into a test).
fn trace(t: &ViewStack, op: impl FnOnce() -> String) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("FUZZ_TRACE").is_some()) {
        eprintln!("{t:?} shape {:?}\n  .{}", t.shape(), op());
    }
}

/// The number of elements (0 when an extent is 0, whatever the others), or
/// `None` when it leaves i64.
fn numel(shape: &[i64]) -> Option<i64> {
    if shape.contains(&0) {
        return Some(0);
    }
    shape.iter().try_fold(1i64, |a, &x| a.checked_mul(x))
}

/// Whether the reference may materialise `shape`: the product of its
/// extents, zeros counted as ones, is at most ORACLE (so no product the
/// reference takes overflows).
fn small(shape: &[i64]) -> bool {
    shape.iter().try_fold(1i64, |a, &x| a.checked_mul(x.max(1))).is_some_and(|n| n <= ORACLE)
}

/// Row-major digits of `i` over `shape`.
fn unravel(i: i64, shape: &[i64]) -> Vec<i64> {
    let mut out = vec![0; shape.len()];
    let mut rest = i;
    for (d, &s) in out.iter_mut().zip(shape).rev() {
        *d = rest % s;
        rest /= s;
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let rank = 1 + b.below(4) as usize;
    let shape = extents(&mut b, rank);
    trace(&ViewStack::new(&[1]).unwrap(), || format!("new {shape:?}"));
    let Ok(mut t) = ViewStack::new(&shape) else {
        let overflows = shape.iter().try_fold(1i64, |a, &x| a.checked_mul(x)).is_none();
        assert!(shape.iter().any(|&s| s < 0) || overflows, "{shape:?} refused");
        return;
    };
    let mut reference = small(&shape).then(|| NdArray::arange(&shape));
    while !b.is_empty() {
        let cur = t.shape();
        let size = numel(&cur).expect("a stack's size fits i64");
        let before = t.clone();
        let (result, next) = match b.below(7) {
            0 => {
                let s = reshape_arg(&mut b, size);
                let ok = s.iter().all(|&x| x >= 0) && numel(&s) == Some(size);
                trace(&t, || format!("reshape {s:?}"));
                (t.reshape(&s), ok.then(|| reference.as_ref().filter(|_| small(&s)).map(|a| a.reshape(&s))))
            }
            1 => {
                let mut p: Vec<usize> = (0..cur.len()).collect();
                for k in (1..p.len()).rev() {
                    p.swap(k, b.below(k as u64 + 1) as usize);
                }
                if b.below(16) == 0 {
                    p.push(b.below(4) as usize);
                }
                let ok = p.len() == cur.len();
                trace(&t, || format!("permute {p:?}"));
                (t.permute(&p), ok.then(|| reference.as_ref().map(|a| a.permute(&p))))
            }
            2 => {
                let s: Vec<i64> = cur.iter().map(|&x| if x == 1 { b.below(4) as i64 } else if b.below(16) == 0 { b.int() } else { x }).collect();
                let ok = s.iter().zip(&cur).all(|(&n, &x)| n == x || (x == 1 && n >= 0))
                    && numel(&s).is_some();
                let r = ok.then(|| reference.as_ref().filter(|_| small(&s)).map(|a| a.expand(&s)));
                trace(&t, || format!("expand {s:?}"));
                (t.expand(&s), r)
            }
            3 => {
                let p = pairs(&mut b, &cur, false);
                let grown: Option<Vec<i64>> = p.iter().zip(&cur).map(|(&(x, y), &n)| n.checked_add(x)?.checked_add(y)).collect();
                let ok = p.iter().all(|&(x, y)| x >= 0 && y >= 0)
                    && grown.as_ref().and_then(|g| numel(g)).is_some();
                let fits = grown.is_some_and(|g| small(&g));
                trace(&t, || format!("pad {p:?}"));
                (t.pad(&p), ok.then(|| reference.as_ref().filter(|_| fits).map(|a| a.pad(&p))))
            }
            4 => {
                let p = pairs(&mut b, &cur, true);
                let ok = p.iter().zip(&cur).all(|(&(x, y), &n)| 0 <= x && x <= y && y <= n);
                trace(&t, || format!("shrink {p:?}"));
                (t.shrink(&p), ok.then(|| reference.as_ref().map(|a| a.shrink(&p))))
            }
            5 => {
                let f: Vec<bool> = cur.iter().map(|_| b.below(2) == 1).collect();
                trace(&t, || format!("flip {f:?}"));
                (t.flip(&f), Some(reference.as_ref().map(|a| a.flip(&f))))
            }
            _ => {
                let s: Vec<i64> = cur.iter().map(|_| if b.below(16) == 0 { b.int() } else { b.below(7) as i64 - 3 }).collect();
                let ok = !s.contains(&0);
                // The reference adds |step| to an extent: no oracle for huge steps.
                let r = reference.as_ref().filter(|_| s.iter().all(|k| k.unsigned_abs() < 1 << 32));
                trace(&t, || format!("stride {s:?}"));
                (t.stride(&s), ok.then(|| r.map(|a| a.stride(&s))))
            }
        };
        t = match (result, next) {
            (Ok(t), Some(r)) => {
                reference = r;
                t
            }
            (Ok(t), None) => panic!("accepted an op tinygrad refuses: {before:?} -> {t}"),
            (Err(e), Some(_)) => {
                // Only a size or offset that leaves i64 may refuse a valid op.
                assert!(matches!(e, hlayout::Error::Overflow { .. }), "{before}: {e}");
                return;
            }
            (Err(_), None) => return,
        };
        if let Some(a) = &reference {
            assert_eq!(t.shape(), a.shape);
            let got: Vec<i64> = t.offsets().map(|o| o.unwrap_or(-1)).collect();
            assert_eq!(got, a.data, "{t}");
            // The block fill and the evaluation at a coordinate agree with the stream.
            let mut buf = vec![0; got.len()];
            assert_eq!(t.fill_offsets(&mut buf, -1), got.len(), "{t}");
            assert_eq!(buf, got, "{t}: fill_offsets");
            for (i, &want) in got.iter().enumerate().step_by(1 + got.len() / 16) {
                let crd = unravel(i as i64, &a.shape);
                assert_eq!(t.eval(&crd).expect("in range").unwrap_or(-1), want, "{t} at {crd:?}");
            }
        }
        if t.shape().contains(&0) {
            assert_eq!(t.views().len(), 1);
            assert_eq!(t.offsets().count(), 0);
        }
    }
});
