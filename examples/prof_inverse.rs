//! Profiling harness for `left_inverse` (`benches/inverse.rs`), for
//! instruction counts under callgrind and for the random-family census:
//!
//! ```text
//! cargo build --release --example prof_inverse
//! valgrind --tool=callgrind target/release/examples/prof_inverse one "(64,64):(100,3)" 1  # [budget]
//! target/release/examples/prof_inverse family 1 2000 2   # seed, cases, rank [, budget]
//! target/release/examples/prof_inverse ladder 1 300 2     # undecided ones, budget raised
//! ```
//!
//! `one` prints the answer and nanoseconds per call (wall clock). `family` draws `cases` random layouts of
//! the given rank (extents 2..=1024 for rank 2, products up to 2^20 for ranks
//! 3 and 4, strides 1..=1000), times one call each, checks every `Ok` at every
//! index, and prints the census: answers by kind, the share within 10 µs, the
//! slowest cases and every `BudgetExceeded`.

use std::hint::black_box;

use hlayout::algebra::LEFT_INVERSE_SEARCH_BUDGET;
use hlayout::{Error, Layout};

/// Nanoseconds since the first call (wall clock: schedstat's on-CPU time
/// is too coarse on this kernel for microsecond calls).
fn on_cpu_ns() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}

/// xorshift64*: a fixed, dependency-free stream of draws.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

fn draw(rng: &mut Rng, rank: usize) -> Layout {
    loop {
        let mut shape = Vec::new();
        let mut size = 1i64;
        for _ in 0..rank {
            let s = if rank == 2 {
                rng.range(2, 1024)
            } else {
                1i64 << rng.range(1, 20 / rank as i64 + 2)
            };
            let s = if rank == 2 {
                s
            } else {
                rng.range(s / 2 + 1, s).max(2)
            };
            shape.push(s);
            size *= s;
        }
        if size > 1 << 20 {
            continue;
        }
        let stride: Vec<i64> = (0..rank).map(|_| rng.range(1, 1000)).collect();
        return Layout::flat(&shape, &stride).expect("small");
    }
}

fn kind(r: &Result<Layout, Error>) -> &'static str {
    match r {
        Ok(_) => "ok",
        Err(Error::BudgetExceeded { .. }) => "budget",
        Err(e) if e.to_string().contains("not injective") => "not_injective",
        Err(Error::Precondition { .. }) => "refused",
        Err(_) => "other_error",
    }
}

fn check(l: &Layout, r: &Layout) {
    for i in 0..l.size() {
        let x = l.eval(i).expect("in domain");
        assert_eq!(r.eval(x).expect("defined"), i, "{l}: {r} at {i}");
    }
}

/// The census by budget: each layout the default budget leaves undecided is
/// retried at 2^22, 2^24, …, 2^30 units until decided; prints how many each
/// budget decides, what (found or refused) and the wall time of the deciding
/// call.
fn ladder(seed: u64, cases: usize, rank: usize) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut undecided = 0usize;
    for _ in 0..cases {
        let l = draw(&mut rng, rank);
        if !matches!(l.left_inverse(), Err(Error::BudgetExceeded { .. })) {
            continue;
        }
        undecided += 1;
        let mut answer = format!("{l}: undecided at 2^30");
        for log in (22..=30).step_by(2) {
            let t0 = on_cpu_ns();
            let r = l.left_inverse_with_budget(1 << log);
            let ms = (on_cpu_ns() - t0) as f64 / 1e6;
            if !matches!(r, Err(Error::BudgetExceeded { .. })) {
                if let Ok(r) = &r {
                    check(&l, r);
                }
                answer = format!("{l}: {} at 2^{log} units, {ms:.1} ms", kind(&r));
                break;
            }
        }
        println!("  {answer}");
    }
    println!(
        "rank {rank}, {cases} cases, seed {seed}: {undecided} undecided at the default budget"
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("one") => {
            let l: Layout = args.next().expect("a layout").parse().expect("valid");
            let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
            let budget: i64 = args
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or(LEFT_INVERSE_SEARCH_BUDGET);
            let t0 = on_cpu_ns();
            let mut last = black_box(&l).left_inverse_with_budget(budget);
            for _ in 1..n {
                last = black_box(&l).left_inverse_with_budget(budget);
            }
            let ns = (on_cpu_ns() - t0) / n.max(1);
            match &last {
                Ok(r) => println!("{l}: Ok {r} ({ns} ns)"),
                Err(e) => println!("{l}: {e} ({ns} ns)"),
            }
        }
        Some("family") => {
            let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
            let cases: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
            let rank: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
            let budget: i64 = args
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or(LEFT_INVERSE_SEARCH_BUDGET);
            let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            let mut counts = std::collections::BTreeMap::<&str, usize>::new();
            let mut fast = 0usize;
            let mut slow: Vec<(u64, String, &str)> = Vec::new();
            for _ in 0..cases {
                let l = draw(&mut rng, rank);
                let t0 = on_cpu_ns();
                let r = l.left_inverse_with_budget(budget);
                let ns = on_cpu_ns() - t0;
                let k = kind(&r);
                *counts.entry(k).or_default() += 1;
                if ns <= 10_000 {
                    fast += 1;
                }
                slow.push((ns, l.to_string(), k));
                if let Ok(r) = &r {
                    check(&l, r);
                }
            }
            slow.sort_unstable_by(|a, b| b.cmp(a));
            println!("rank {rank}, {cases} cases, seed {seed}, budget {budget}: {counts:?}");
            println!(
                "within 10 us: {fast} ({:.1}%)",
                100.0 * fast as f64 / cases as f64
            );
            let mut times: Vec<u64> = slow.iter().map(|s| s.0).collect();
            times.sort_unstable();
            let q = |f: f64| times[((times.len() - 1) as f64 * f) as usize];
            println!(
                "ns: median {}, p90 {}, p99 {}, max {}",
                q(0.5),
                q(0.9),
                q(0.99),
                q(1.0)
            );
            for (ns, l, k) in slow.iter().take(12) {
                println!("  slow {ns:>12} ns {k:>13} {l}");
            }
            let found: Vec<_> = slow.iter().filter(|s| s.2 == "ok").collect();
            let over: Vec<_> = found.iter().filter(|s| s.0 > 20_000).collect();
            println!("found: {}, above 20 us: {}", found.len(), over.len());
            if std::env::var_os("PROF_ALL_FOUND").is_some() {
                for (ns, l, _) in &found {
                    println!("FOUND {l} {ns}");
                }
            }
            for (ns, l, _) in over.iter().take(12) {
                println!("  found {ns:>12} ns {l}");
            }
            for (_, l, k) in slow.iter().filter(|s| s.2 == "budget") {
                println!("  budget {k} {l}");
            }
        }
        Some("ladder") => {
            let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
            let cases: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1000);
            let rank: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(2);
            ladder(seed, cases, rank);
        }
        _ => eprintln!(
            "usage: prof_inverse one LAYOUT [N] | family SEED CASES RANK [BUDGET] | ladder SEED CASES RANK"
        ),
    }
}
