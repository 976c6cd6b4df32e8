//! `Limits::max_expr_bytes`: the length of a kernel's text measured before
//! it is written ([`Kernel::text_len`]) equals the rendered length, in every
//! language, on every kernel the codegen tests build (their helpers call
//! [`text_len_is_exact`]); a chain whose text doubles with each op is refused
//! quickly, on every interface, naming the limit; a kernel just under the
//! limit renders.

use std::time::Instant;

use hlayout::codegen::{self, Input, Kernel, Lang};
use hlayout::{Error, Limits, ViewStack};

/// The languages a kernel renders in.
const LANGS: [Lang; 3] = [Lang::C, Lang::Rust, Lang::Python];

/// Asserts that [`Kernel::text_len`] is the length of [`Kernel::render`] in
/// every language, and that [`Kernel::render_within`] renders the same text
/// or refuses exactly when it is longer than the limit. Kernels whose text
/// is longer than the default limit are measured, not rendered.
pub(crate) fn text_len_is_exact(k: &Kernel) {
    let limits = Limits::default();
    for lang in LANGS {
        let (index, valid) = k.text_len(lang);
        let total = index + valid;
        match k.render_within(lang, &limits) {
            Ok(text) => {
                assert_eq!(
                    (index, valid),
                    (text.0.len() as u64, text.1.len() as u64),
                    "{lang}: {text:?}"
                );
                assert_eq!(text, k.render(lang), "{lang}");
                assert!(total <= limits.max_expr_bytes as u64);
                // One byte less is refused, naming the length.
                if total > 0 {
                    let tight = Limits {
                        max_expr_bytes: total as usize - 1,
                        ..limits
                    };
                    assert!(matches!(
                        k.render_within(lang, &tight),
                        Err(Error::LimitExceeded { limit: "max_expr_bytes", value, .. }) if value == total
                    ));
                }
            }
            Err(e) => {
                assert!(total > limits.max_expr_bytes as u64, "{lang}: {e}");
                assert!(matches!(
                    e,
                    Error::LimitExceeded {
                        limit: "max_expr_bytes",
                        ..
                    }
                ));
            }
        }
    }
}

/// The op of the doubling chain at step `k`: transpose, reshape, pad a row,
/// cut it off again. Each reshape of a transposed view needs a view of its
/// own, and the kernel of each view uses the index of the view above twice,
/// so the text about doubles with every four ops.
fn doubling_op(t: ViewStack, k: usize) -> ViewStack {
    match k % 4 {
        0 => t.permute(&[1, 0]),
        1 => t.reshape(&[5, 4]),
        2 => t.pad(&[(1, 0), (0, 0)]),
        _ => t.shrink(&[(0, 5), (0, 4)]),
    }
    .unwrap()
}

/// The doubling chain of `ops` ops over a (5, 4) tensor.
pub(crate) fn doubling_chain(ops: usize) -> ViewStack {
    (0..ops).fold(ViewStack::new(&[5, 4]).unwrap(), doubling_op)
}

#[test]
fn the_doubling_chain_is_measured_exactly_while_it_renders() {
    let mut last = 0;
    for ops in 0..=28 {
        let t = doubling_chain(ops);
        for input in [Input::Coords, Input::Linear] {
            let k = codegen::stack(&t, input).unwrap();
            text_len_is_exact(&k);
        }
        let (i, v) = codegen::stack(&t, Input::Coords).unwrap().text_len(Lang::C);
        last = last.max(i + v);
    }
    // The longest of them is still well under the default limit.
    assert!(last > 5_000 && last < 100_000, "{last}");
}

#[test]
fn the_64_op_chain_is_refused_quickly_naming_the_limit() {
    let start = Instant::now();
    let t = doubling_chain(64);
    for input in [Input::Coords, Input::Linear] {
        let k = codegen::stack(&t, input).unwrap();
        for lang in LANGS {
            let (index, valid) = k.text_len(lang);
            // Gigabytes of text, measured without writing it.
            assert!(index + valid > 1 << 30, "{lang}: {index} + {valid}");
            let err = k.render_within(lang, &Limits::default()).unwrap_err();
            assert_eq!(
                err,
                Error::LimitExceeded {
                    limit: "max_expr_bytes",
                    value: index + valid,
                    max: 1 << 20
                }
            );
            assert!(
                err.to_string().contains("max_expr_bytes = 1048576"),
                "{err}"
            );
        }
    }
    // Rendering would take minutes; the refusal takes milliseconds (a loose
    // bound, for a debug build on a busy host).
    assert!(start.elapsed().as_secs() < 20);
}

#[test]
fn a_kernel_just_under_the_limit_renders_and_one_byte_over_is_refused() {
    // The longest doubling chain whose C text fits the default limit.
    let mut best = None;
    for ops in 0..64 {
        let k = codegen::stack(&doubling_chain(ops), Input::Coords).unwrap();
        let (i, v) = k.text_len(Lang::C);
        if i + v <= 1 << 20 {
            best = Some((k, i + v));
        } else {
            break;
        }
    }
    let (k, len) = best.unwrap();
    assert!(len > 100_000, "{len}");
    let exact = Limits {
        max_expr_bytes: len as usize,
        ..Limits::default()
    };
    let (index, valid) = k.render_within(Lang::C, &exact).unwrap();
    assert_eq!((index.len() + valid.len()) as u64, len);
    assert_eq!((index, valid), k.render(Lang::C));
    let short = Limits {
        max_expr_bytes: len as usize - 1,
        ..Limits::default()
    };
    assert!(matches!(
        k.render_within(Lang::C, &short),
        Err(Error::LimitExceeded { limit: "max_expr_bytes", value, max }) if value == len && max == len - 1
    ));
}

#[test]
fn a_length_too_large_to_count_saturates_and_says_more_than() {
    let err = Error::LimitExceeded {
        limit: "max_expr_bytes",
        value: u64::MAX,
        max: 1 << 20,
    };
    assert_eq!(
        err.to_string(),
        "request exceeds the limit max_expr_bytes = 1048576 (got more than 1048576)"
    );
    assert!(Limits::default().check_expr_bytes(u64::MAX).is_err());
}
