//! `left_inverse` on a family of layouts up to 2^20 elements, each checked
//! once against `R(L(i)) = i` at every index (or its refusal against the
//! expected kind). Run: `cargo bench --bench inverse`.
//!
//! The closed forms (mixed radix, divisible chain) answer in O(n log n) of
//! the leaves whatever the size, carry-free chains in O(rank·Σ √d). Every other layout goes to the exact search
//! of `src/algebra/inverse_search.rs`, which reads the offsets lazily in
//! increasing order, walks prime chains with Lemma 7's block cut and checks
//! candidates symbolically: its cost depends on how far it reads, not on the
//! size, but is exponential in the worst case, and past
//! `LEFT_INVERSE_SEARCH_BUDGET` it answers `BudgetExceeded`. The `search_*`
//! benches measure that path on the strides `(100, 3)` (issue 15's example)
//! and on 2^15..2^20-element layouts with and without an inverse, injective
//! or not (see benches/README.md for the numbers against the 10 µs goal).

use divan::{black_box, Bencher};
use hlayout::{Error, Layout};

fn main() {
    divan::main();
}

/// What the bench expects of a layout's answer.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Inverse,
    NotInjective,
    NoInverse,
    Undecided,
}

/// Checks the answer once: `R(L(i)) = i` at every index (no stride 0 here),
/// or the refusal's kind.
fn checked(text: &str, want: Kind) -> Layout {
    let l: Layout = text.parse().unwrap();
    let got = match l.left_inverse() {
        Ok(r) => {
            for i in 0..l.size() {
                assert_eq!(r.eval(l.eval(i).unwrap()).unwrap(), i, "{text}: {r} at {i}");
            }
            Kind::Inverse
        }
        Err(Error::BudgetExceeded { .. }) => Kind::Undecided,
        Err(e) if e.to_string().contains("not injective") => Kind::NotInjective,
        Err(_) => Kind::NoInverse,
    };
    assert_eq!(got, want, "{text}");
    l
}

/// Mixed radix (CuTe's answer): a permuted, gapped 2^20-element layout.
#[divan::bench(args = ["(16,16):(1,32)", "(64,64,64,4):(1,4096,64,262144)", "(1024,1024):(1,2048)"])]
fn closed_form_mixed_radix(b: Bencher, text: &str) {
    let l = checked(text, Kind::Inverse);
    b.bench(|| black_box(&l).left_inverse().unwrap());
}

/// Divisible chains (no mixed radix): strides dividing each other with gaps.
#[divan::bench(args = ["(4,4):(13,1)", "(64,64):(65,1)", "(1024,1024):(3075,3)"])]
fn closed_form_divisible_chain(b: Bencher, text: &str) {
    let l = checked(text, Kind::Inverse);
    b.bench(|| black_box(&l).left_inverse().unwrap());
}

/// Carry-free chains (closed form 3): no level ever receives a carry when
/// L's leaves are added, so R solves one small system per chain.
/// `(796,130):(594,596)` is `594·(a + b) + 2b` (`R = 130·⌊x/594⌋ −
/// 129·(⌊x/2⌋ mod 297)`; the search needed 2^26 units for it).
#[divan::bench(args = ["(2,2):(3,2)", "(80,58):(272,137)", "(34,594):(396,393)", "(796,130):(594,596)"])]
fn closed_form_carry_free(b: Bencher, text: &str) {
    let l = checked(text, Kind::Inverse);
    b.bench(|| black_box(&l).left_inverse().unwrap());
}

/// Chains with borrows (closed form 4): residues `d mod E − E` whose
/// borrows cancel. `(1011,189):(410,409)` is `410·(a + b) − b` (the search
/// needed 2^22 units, 30 ms); `(737,44):(804,798)` needed 2^24 (63 ms).
#[divan::bench(args = ["(1011,189):(410,409)", "(737,44):(804,798)"])]
fn closed_form_borrows(b: Bencher, text: &str) {
    let l = checked(text, Kind::Inverse);
    b.bench(|| black_box(&l).left_inverse().unwrap());
}

/// No closed form: `(s,s):(100,3)` (`100 ≡ 1 mod 3` carries) and its
/// neighbours `(64,34)` (an inverse with the chain 1 | 3 | 300) and
/// `(64,35)` (none).
#[divan::bench(args = [
    ("(8,8):(100,3)", Kind::Inverse),
    ("(16,16):(100,3)", Kind::Inverse),
    ("(32,32):(100,3)", Kind::Inverse),
    ("(64,34):(100,3)", Kind::Inverse),
    ("(64,35):(100,3)", Kind::NoInverse),
    ("(64,64):(100,3)", Kind::NoInverse),
], sample_count = 20)]
fn search_100_3(b: Bencher, (text, want): (&str, Kind)) {
    let l = checked(text, want);
    b.bench(|| black_box(&l).left_inverse().is_ok());
}

/// The search on 2^15..2^20 elements: inverses found after a short prefix
/// (`(1024,34):(100,3)`, and `(1024,1024):(3076,3)` on the chain
/// 1 | 3 | 9228 of the first pass), collisions named (rank 2 in O(1), rank 3
/// up front), injective layouts refused (`(851,6):(862,740)` was undecided
/// at the old default of 2^18 units), and one still undecided at the
/// default 2^20 (`(82,37):(910,892)`, 3,034 elements: refused given 2^22).
#[divan::bench(args = [
    ("(1024,34):(100,3)", Kind::Inverse),
    ("(1024,1024):(100,3)", Kind::NotInjective),
    ("(64,64,256):(65,1,4097)", Kind::NotInjective),
    ("(1024,1024):(1025,3)", Kind::NoInverse),
    ("(1024,1024):(1024,3)", Kind::NoInverse),
    ("(1024,1024):(3076,3)", Kind::Inverse),
    ("(851,6):(862,740)", Kind::NoInverse),
    ("(82,37):(910,892)", Kind::Undecided),
], sample_count = 10)]
fn search_large(b: Bencher, (text, want): (&str, Kind)) {
    let l = checked(text, want);
    b.bench(|| black_box(&l).left_inverse().is_ok());
}

/// Past the default budget (`left_inverse_with_budget`): layouts of the
/// rank-2 censuses that the default 2^20 units leave undecided, decided
/// with the budget the census ladder found enough
/// (`examples/prof_inverse.rs ladder SEED CASES 2`).
#[divan::bench(args = [
    ("(359,702):(890,593)", 22, Kind::NoInverse),
    ("(744,9):(832,364)", 22, Kind::Inverse),
    ("(82,37):(910,892)", 22, Kind::NoInverse),
], sample_count = 5, sample_size = 1)]
fn search_past_default_budget(b: Bencher, (text, log, want): (&str, u32, Kind)) {
    let l: Layout = text.parse().unwrap();
    let got = match l.left_inverse_with_budget(1 << log) {
        Ok(r) => {
            for i in 0..l.size() {
                assert_eq!(r.eval(l.eval(i).unwrap()).unwrap(), i, "{text}: {r} at {i}");
            }
            Kind::Inverse
        }
        Err(Error::BudgetExceeded { .. }) => Kind::Undecided,
        Err(_) => Kind::NoInverse,
    };
    assert_eq!(got, want, "{text}");
    b.bench(|| black_box(&l).left_inverse_with_budget(1 << log).is_ok());
}
