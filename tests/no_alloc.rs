#![allow(unsafe_code)] // a counting GlobalAlloc is unsafe by definition; the library itself forbids unsafe
//! The hot paths allocate nothing for rank <= 8: a counting allocator proves it.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;

use hlayout::tuple::{crd2idx, idx2crd};
use hlayout::{IntTuple, Layout, ViewStack};

struct Counting;

thread_local! {
    /// Allocations made by this thread: the test harness's other threads (and
    /// the other tests, which run in parallel) allocate meanwhile.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn hot_paths_do_not_allocate_for_rank_eight() {
    // Invariant: no heap on hot paths for <= 8 leaves. Witness: a depth-3, 8-leaf layout.
    let l: Layout = "((2,3),(2,(2,3)),(4,5,2)):((1,2),(6,(12,24)),(72,288,1440))"
        .parse()
        .unwrap();
    let shape: IntTuple = l.shape().to_owned();
    let crd: IntTuple = "((1,2),(1,(0,2)),(3,4,1))".parse().unwrap();
    let e = l.evaluator();
    let mut buf = [0i64; 64];
    let mixed: Layout = "(2,3,4):(1,8,2)".parse().unwrap();
    let chain: Layout = "(2,2):(3,1)".parse().unwrap();
    // Composition's fast path: one leaf of B spread over all of A's, and a W2 pair.
    let (whole, a, b): (Layout, Layout, Layout) = (
        "2880:1".parse().unwrap(),
        "(3,4,8,6):(432,2592,1,24)".parse().unwrap(),
        "(3,3,4,2):(2,192,6,96)".parse().unwrap(),
    );
    let n = allocations_during(|| {
        let mut sum = 0i64;
        for i in 0..l.size() {
            sum += l.eval(i).unwrap() + e.eval(i).unwrap();
        }
        sum += l.offsets().take(100).sum::<i64>();
        l.offsets().fill(&mut buf);
        sum += l.coalesce().size() + l.filter().size();
        sum += crd2idx(&crd, &shape).unwrap();
        sum += idx2crd(1234, &shape).unwrap().leaves()[0];
        sum += l.eval_crd(&crd).unwrap();
        // left_inverse's closed forms: a mixed radix and a divisible chain.
        sum += mixed.left_inverse().unwrap().size() + chain.left_inverse().unwrap().size();
        sum += l.compose(&whole).unwrap().size() + a.compose(&b).unwrap().size();
        sum += l.right_inverse().size() + mixed.complement(100).unwrap().size();
        let parsed: Layout = "(2,(3,4)):(12,(4,1))".parse().unwrap();
        sum += parsed.size() + l.mode(2).unwrap().size();
        std::hint::black_box(sum);
    });
    assert_eq!(n, 0);
}

#[test]
fn constrained_view_streams_do_not_allocate() {
    // Invariant: filling a view's offsets allocates nothing beyond the caller's
    // buffer for <= 8 leaves and <= 2 constraints. Witness: the padded 3×3 conv
    // window on 64×64 (blocked fill: template, boundary blocks, fixed holes),
    // a mostly-padding window (mask pass), and a long-run padded view (run-wise fill).
    let conv = ViewStack::new(&[64, 64])
        .and_then(|t| t.pad(&[(1, 1), (1, 1)]))
        .and_then(|t| t.reshape(&[1, 66, 1, 66]))
        .and_then(|t| t.expand(&[4, 66, 4, 66]))
        .and_then(|t| t.reshape(&[264, 264]))
        .and_then(|t| t.shrink(&[(0, 201), (0, 201)]))
        .and_then(|t| t.reshape(&[3, 67, 3, 67]))
        .and_then(|t| t.shrink(&[(0, 3), (0, 64), (0, 3), (0, 64)]))
        .and_then(|t| t.permute(&[1, 3, 0, 2]))
        .unwrap();
    let wide = ViewStack::new(&[30, 4])
        .and_then(|t| t.pad(&[(1, 1), (6, 6)]))
        .and_then(|t| t.reshape(&[1, 32, 1, 16]))
        .and_then(|t| t.expand(&[4, 32, 4, 16]))
        .and_then(|t| t.reshape(&[128, 64]))
        .and_then(|t| t.shrink(&[(0, 99), (0, 51)]))
        .and_then(|t| t.reshape(&[3, 33, 3, 17]))
        .and_then(|t| t.shrink(&[(0, 3), (0, 30), (0, 3), (0, 14)]))
        .and_then(|t| t.permute(&[1, 3, 0, 2]))
        .unwrap();
    let long = ViewStack::new(&[8, 2000])
        .and_then(|t| t.pad(&[(1, 1), (3, 3)]))
        .unwrap();
    let mut buf = vec![0i64; 64 * 64 * 9];
    for t in [&conv, &wide, &long] {
        assert_eq!(t.views().len(), 1, "{t}");
    }
    let n = allocations_during(|| {
        for t in [&conv, &wide, &long] {
            let v = &t.views()[0];
            let size = usize::try_from(v.size()).unwrap();
            std::hint::black_box(v.fill_offsets(&mut buf[..size], -1));
            std::hint::black_box(v.fill_offsets(&mut buf[..size / 2 + 7], -1));
        }
    });
    assert_eq!(n, 0);
}

#[test]
fn symbolic_movement_ops_do_not_allocate() {
    // Invariant: an op on a symbolic stack of rank <= 8 with one- and
    // two-term polynomials edits it in place, with no heap.
    use hlayout::symbolic::{Assume, SymMovement, SymViewStack, Symbols};
    let mut s = Symbols::new();
    s.assume(
        "sp",
        Assume {
            min: 0,
            max: 1023,
            divisible_by: 1,
        },
    )
    .unwrap();
    let shape = [1024.into(), 8.into(), 64.into()];
    let ops: Vec<SymMovement> = [
        r#"["shrink",[[0,"sp+1"],[0,8],[0,64]]]"#,
        r#"["permute",[1,0,2]]"#,
        r#"["flip",[false,true,false]]"#,
        r#"["pad",[[0,0],[0,"1023-sp"],[0,0]]]"#,
        r#"["shrink",[[0,8],[1,1023],[0,64]]]"#,
        r#"["permute",[2,0,1]]"#,
        r#"["reshape",[1,512,1022]]"#,
        r#"["expand",[4,512,1022]]"#,
    ]
    .iter()
    .map(|t| SymMovement::parse(t, &mut s).unwrap())
    .collect();
    let mut t = SymViewStack::new(&shape, &s).unwrap();
    for op in &ops {
        let input = t.clone();
        let mut out = None;
        let n = allocations_during(|| out = Some(input.apply(op, &s).unwrap()));
        t = out.unwrap();
        assert_eq!(n, 0, "{} -> {}", op.show(&s), t.show(&s));
    }
    assert_eq!(t.views().len(), 1);
}
