#![allow(unsafe_code)] // a counting GlobalAlloc is unsafe by definition; the library itself forbids unsafe
//! The hot paths allocate nothing for rank <= 8: a counting allocator proves it.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use hlayout::coord::{crd2idx, idx2crd};
use hlayout::{IntTuple, Layout};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    f();
    ALLOCATIONS.load(Ordering::SeqCst) - before
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
        let parsed: Layout = "(2,(3,4)):(12,(4,1))".parse().unwrap();
        sum += parsed.size() + l.mode(2).unwrap().size();
        std::hint::black_box(sum);
    });
    assert_eq!(n, 0);
}
