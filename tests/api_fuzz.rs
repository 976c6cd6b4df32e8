//! The `api` fuzz target's driver (`common/api_calls.rs`: bytes decoded into
//! calls of the public API, contracts checked at sampled points) replayed
//! deterministically: every committed input in `fuzz/regressions/api/`, then
//! pseudo-random inputs from a fixed seed. A stable-toolchain stand-in for
//! the coverage-guided run (`fuzz/README.md`), so a finding stays fixed.

use crate::common::api_calls;

/// Every committed input that once found something.
#[test]
fn api_regressions_replay_clean() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/regressions/api");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .expect("fuzz/regressions/api")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for path in names {
        let data = std::fs::read(&path).expect("input");
        eprintln!("{}", path.display());
        api_calls::run(&data);
    }
}

/// Pseudo-random inputs (xorshift, fixed seed): never a panic.
#[test]
fn api_random_inputs_never_panic() {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..400 {
        let mut data = vec![0u8; 16 + (x % 400) as usize];
        for byte in &mut data {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *byte = (x >> 24) as u8;
        }
        if let Some(dump) = std::env::var_os("API_FUZZ_DUMP") {
            std::fs::write(dump, &data).expect("dump");
        }
        api_calls::run(&data);
    }
}
