//! Versioned kernels of symbolic layouts (`codegen::sym_layout_versions`)
//! checked as functions: for the named layouts of `sym_kernel` and random
//! layouts over `N` and `M`, at each symbol's least, middle and greatest
//! value, at random bindings and at every guard's pins, the version taken
//! (by the guards) and the whole guarded text equal the concrete layout at
//! every point (the interpreter; the named ones also as C under UBSan and
//! as Python), and the version taken has no more `/` and `%` than the
//! concrete kernel of the layout at that binding. (The chains' versioned
//! census is in `sym_chain_kernel`.)

use crate::sym_chain_kernel::{guard_bindings, random_bindings};
use crate::sym_kernel::{bindings, compiled_agree, offset, points, symbols, Run, CASES};
use hlayout::codegen::{self, Input, Lang};
use hlayout::symbolic::{SymLayout, Symbols};
use proptest::prelude::*;
use proptest::strategy::ValueTree;

/// The versioned census of layouts.
#[derive(Default, Debug)]
struct Census {
    kernels: usize,
    versions: usize,
    max_versions: usize,
    checked: usize,
    /// Bindings where the single text has more `/` and `%` than the
    /// concrete kernel, and the excess summed.
    single_more: usize,
    single_excess: usize,
    /// The same for the version taken.
    versioned_more: usize,
    versioned_excess: usize,
    bytes_single: u64,
    bytes_versioned: u64,
}

/// Checks the versioned kernels of `l` at both inputs; adds the runs for
/// the compilers.
fn check(text: &str, l: &SymLayout, s: &Symbols, census: &mut Census, runs: &mut Vec<Run>) {
    for input in [Input::Linear, Input::Coords] {
        let single = codegen::sym_layout(l, s, input).unwrap_or_else(|e| panic!("{text}: {e}"));
        let kv =
            codegen::sym_layout_versions(l, s, input).unwrap_or_else(|e| panic!("{text}: {e}"));
        crate::expr_limit::text_len_is_exact(kv.kernel().kernel());
        census.kernels += 1;
        census.versions += kv.versions().len();
        census.max_versions = census.max_versions.max(kv.versions().len());
        let (a, b) = single.kernel().text_len(Lang::C);
        census.bytes_single += a + b;
        let (a, b) = kv.kernel().kernel().text_len(Lang::C);
        census.bytes_versioned += a + b;
        let last = kv.versions().last().unwrap();
        assert!(
            last.guard().is_empty(),
            "{text}: the generic version is last"
        );
        let mut all = bindings(s);
        all.extend(random_bindings(s, text.len() as u64, 4));
        all.extend(guard_bindings(s, &kv, 3));
        all.sort();
        all.dedup();
        for values in all {
            let concrete = l.bind(s, &values).unwrap();
            let conc = codegen::layout(&concrete, input).unwrap().div_mod_count();
            let taken = kv.taken(&values);
            let cost = taken.kernel().kernel().div_mod_count();
            let one = single.kernel().div_mod_count();
            assert!(
                cost <= one,
                "{text}: a version costs more than the generic one"
            );
            census.checked += 1;
            census.single_more += usize::from(one > conc);
            census.single_excess += one.saturating_sub(conc);
            census.versioned_more += usize::from(cost > conc);
            census.versioned_excess += cost.saturating_sub(conc);
            let what = format!("{text} {input:?} at {values:?}, guard {:?}", taken.guard());
            if cost > conc {
                eprintln!(
                    "versioned {what}: {:?} has {cost} / and %, the concrete {conc}",
                    taken.kernel().kernel().c()
                );
            }
            let points = points(kv.kernel(), &values);
            let want: Vec<i64> = points.iter().map(|p| offset(&concrete, p, input)).collect();
            for (p, &w) in points.iter().zip(&want) {
                assert_eq!(
                    kv.eval(s, p, &values).unwrap(),
                    (w, true),
                    "{what} at {p:?}"
                );
                assert_eq!(
                    kv.kernel().eval(s, p, &values).unwrap(),
                    (w, true),
                    "{what} whole at {p:?}"
                );
            }
            runs.push(Run {
                k: kv.kernel().clone(),
                values,
                points,
                want,
            });
        }
    }
}

#[test]
fn named_layouts_versioned_never_cost_more_than_concrete() {
    let (mut census, mut runs) = (Census::default(), Vec::new());
    for &(text, assume) in CASES {
        let mut s = symbols(assume);
        let l = SymLayout::parse(text, &mut s).unwrap();
        check(text, &l, &s, &mut census, &mut runs);
    }
    eprintln!("named layouts: {census:?}");
    assert!(census.single_more > 0, "{census:?}");
    assert_eq!(census.versioned_more, 0, "{census:?}");
    compiled_agree(&runs);
}

#[test]
fn random_layouts_versioned_census() {
    let mut census = Census::default();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let draw = (
        crate::sym_bind::layout_text(),
        (1i64..=3, 0i64..=3),
        (1i64..=2, 0i64..=3),
    );
    let mut runs = Vec::new();
    for _ in 0..crate::common::cases(200) {
        let (text, n, m) = draw.new_tree(&mut runner).unwrap().current();
        let mut s =
            crate::common::symbolic::syms(&[("N", n.0, n.0 + n.1, 1), ("M", m.0, m.0 + m.1, 1)]);
        if let Ok(l) = SymLayout::parse(&text, &mut s) {
            check(&text, &l, &s, &mut census, &mut runs);
        }
    }
    eprintln!("random layouts: {census:?}");
    assert!(census.single_more > 0, "{census:?}");
    assert_eq!(census.versioned_more, 0, "{census:?}");
    compiled_agree(&runs);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(64)))]

    /// Random layouts: every version exact where it is taken, the whole
    /// text exact, no version dearer than the generic one.
    #[test]
    fn random_layout_versions_are_exact(
        text in crate::sym_bind::layout_text(),
        n in (1i64..=3, 0i64..=3),
        m in (1i64..=2, 0i64..=3),
    ) {
        let mut s = crate::common::symbolic::syms(&[("N", n.0, n.0 + n.1, 1), ("M", m.0, m.0 + m.1, 1)]);
        if let Ok(l) = SymLayout::parse(&text, &mut s) {
            check(&text, &l, &s, &mut Census::default(), &mut Vec::new());
        }
    }
}
