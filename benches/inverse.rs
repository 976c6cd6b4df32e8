//! `left_inverse` on a family of layouts up to 2^20 elements, each checked
//! once against `R(L(i)) = i` at every index (or its refusal against the
//! expected kind). Run: `cargo bench --bench inverse`.
//!
//! The closed forms (mixed radix, divisible chain) answer in O(n log n) of
//! the leaves whatever the size. Every other layout goes to the exact search
//! of `src/algebra/inverse_search.rs`, which sorts all offsets and walks
//! prime chains: its cost grows with the size and, in the worst case,
//! exponentially, and past `LEFT_INVERSE_SEARCH_BUDGET` it answers
//! `BudgetExceeded`. The `search_*` benches measure that path on the strides
//! `(100, 3)` (issue 15's example): the requirement of at most 10 µs per
//! answer is not met there (see benches/README.md).

use divan::{black_box, Bencher};
use hlayout::{Error, Layout};

fn main() {
    divan::main();
}

/// Checks the answer once: `R(L(i)) = i` at every index (no stride 0 here).
fn checked(text: &str) -> Layout {
    let l: Layout = text.parse().unwrap();
    if let Ok(r) = l.left_inverse() {
        for i in 0..l.size() {
            assert_eq!(r.eval(l.eval(i).unwrap()).unwrap(), i, "{text}: {r} at {i}");
        }
    }
    l
}

/// Mixed radix (CuTe's answer): a permuted, gapped 2^20-element layout.
#[divan::bench(args = ["(16,16):(1,32)", "(64,64,64,4):(1,4096,64,262144)", "(1024,1024):(1,2048)"])]
fn closed_form_mixed_radix(b: Bencher, text: &str) {
    let l = checked(text);
    assert!(l.left_inverse().is_ok());
    b.bench(|| black_box(&l).left_inverse().unwrap());
}

/// Divisible chains (no mixed radix): strides dividing each other with gaps.
#[divan::bench(args = ["(4,4):(13,1)", "(64,64):(65,1)", "(1024,1024):(3075,3)"])]
fn closed_form_divisible_chain(b: Bencher, text: &str) {
    let l = checked(text);
    assert!(l.left_inverse().is_ok());
    b.bench(|| black_box(&l).left_inverse().unwrap());
}

/// Neither closed form: `(s,s):(100,3)`. The search finds R up to 32×32
/// (1,024 elements), refutes 64×64 only with more than its budget, and
/// answers `BudgetExceeded` from 2^9 × 2^9 on (it sorts every offset first).
#[divan::bench(args = ["(8,8):(100,3)", "(16,16):(100,3)", "(32,32):(100,3)", "(64,64):(100,3)", "(1024,1024):(100,3)"], sample_count = 10)]
fn search_100_3(b: Bencher, text: &str) {
    let l = checked(text);
    let found = l.left_inverse();
    if l.size() > 1024 {
        assert!(
            matches!(found, Err(Error::BudgetExceeded { .. })),
            "{text}: {found:?}"
        );
    }
    b.bench(|| black_box(&l).left_inverse().is_ok());
}
