//! Symbolic extents (`hlayout::symbolic`): the polynomial text, the prover
//! checked against every binding of small ranges, and the algebra over
//! symbols checked against the concrete algebra (exact) at every allowed
//! binding of a range, in both directions: an answer agrees with the
//! concrete one as a function at every binding, and a binding where the
//! concrete request has no answer forces a refusal; a refusal's needs, added
//! to the assumptions, give an answer.

use hlayout::symbolic::{Assume, Fact, Poly, SymLayout, Symbols, Truth};
use hlayout::{Error, Layout, Limits};

use proptest::prelude::*;
use proptest::strategy::ValueTree;

// ---------------------------------------------------------------------------
// Polynomials and their text.

/// A random polynomial over `N` (id 0) and `M` (id 1), degree ≤ 3.
fn poly() -> impl Strategy<Value = Poly> {
    prop::collection::vec((-6i64..=6, 0usize..=2, 0usize..=2), 0..5).prop_map(|terms| {
        let (n, m) = (Poly::symbol(0), Poly::symbol(1));
        let mut p = Poly::zero();
        for (c, en, em) in terms {
            let mut t = Poly::constant(c);
            for _ in 0..en {
                t = t.mul(&n).unwrap();
            }
            for _ in 0..em.min(1) {
                t = t.mul(&m).unwrap();
            }
            p = p.add(&t).unwrap();
        }
        p
    })
}

fn table() -> Symbols {
    let mut s = Symbols::new();
    s.intern("N").unwrap();
    s.intern("M").unwrap();
    s
}

fn at(p: &Poly, n: i64, m: i64) -> i128 {
    p.eval(&[n, m]).expect("small values")
}

proptest! {
    #[test]
    fn text_round_trips_and_arithmetic_agrees_with_values(p in poly(), q in poly(), n in -9i64..9, m in -9i64..9) {
        let mut s = table();
        let text = s.show(&p).to_string();
        prop_assert_eq!(s.parse(&text).unwrap(), p.clone(), "{}", text);
        prop_assert_eq!(at(&p.add(&q).unwrap(), n, m), at(&p, n, m) + at(&q, n, m));
        prop_assert_eq!(at(&p.sub(&q).unwrap(), n, m), at(&p, n, m) - at(&q, n, m));
        let pq = p.mul(&q).unwrap();
        prop_assert_eq!(at(&pq, n, m), at(&p, n, m) * at(&q, n, m));
        if !q.is_zero() {
            prop_assert_eq!(pq.div_exact(&q), Some(p.clone()), "({}) / ({})", s.show(&pq), s.show(&q));
        }
        if let Some(d) = p.div_exact(&q) {
            prop_assert_eq!(d.mul(&q).unwrap(), p);
        }
    }
}

#[test]
fn text_of_the_protocol_examples() {
    let mut s = Symbols::new();
    for t in ["N", "32*N", "2*N+1", "73728*S", "4*i*i", "sp+1", "-4*j"] {
        let p = s.parse(t).unwrap();
        assert_eq!(s.show(&p).to_string(), t);
    }
    assert_eq!(s.show(&s.clone().parse("1+N-N").unwrap()).to_string(), "1");
    assert_eq!(
        s.show(&s.clone().parse("N*2*N").unwrap()).to_string(),
        "2*N*N"
    );
}

#[test]
fn hostile_symbolic_input_gets_a_clear_error() {
    let mut s = Symbols::new();
    // Huge coefficients: beyond i64 in the text, or by arithmetic.
    let e = s.parse("99999999999999999999*N").unwrap_err();
    assert!(matches!(e, Error::Overflow { .. }), "{e}");
    let big = s.parse("9223372036854775807*N").unwrap();
    assert!(matches!(big.add(&big), Err(Error::Overflow { .. })));
    // Names that collide with keywords of the languages kernels are written in.
    for kw in ["int", "long", "while", "fn", "lambda", "None"] {
        let e = s.parse(&format!("{kw}+1")).unwrap_err();
        assert!(e.to_string().contains("keyword"), "{kw}: {e}");
    }
    assert!(s.parse(&"x".repeat(65)).is_err());
    // High degree.
    let e = s.parse("N*N*N*N*N*N*N*N*N").unwrap_err();
    assert!(
        matches!(
            e,
            Error::LimitExceeded {
                limit: "max_degree",
                ..
            }
        ),
        "{e}"
    );
    let n8 = s.parse("N*N*N*N").unwrap();
    assert!(matches!(
        n8.mul(&n8).unwrap().mul(&n8),
        Err(Error::LimitExceeded {
            limit: "max_degree",
            ..
        })
    ));
    // Thousands of symbols, many terms.
    let many: Vec<String> = (0..3000).map(|k| format!("s{k}")).collect();
    let e = s.parse(&many.join("+")).unwrap_err();
    assert!(matches!(e, Error::LimitExceeded { .. }), "{e}");
    let mut s = Symbols::new();
    let e = s.parse(&many[..100].join("+")).unwrap_err();
    assert!(
        matches!(
            e,
            Error::LimitExceeded {
                limit: "max_symbols",
                ..
            }
        ),
        "{e}"
    );
    let mut few = Symbols::with_limits(Limits {
        max_terms: 3,
        ..Limits::default()
    });
    let e = few.parse("N*N*N+N*N+N+1").unwrap_err();
    assert!(
        matches!(
            e,
            Error::LimitExceeded {
                limit: "max_terms",
                ..
            }
        ),
        "{e}"
    );
    // Empty or malformed text.
    for bad in ["", "N+", "+N", "N**2", "2N", "N/2", "N^2", "(N)"] {
        assert!(Symbols::new().parse(bad).is_err(), "{bad:?}");
    }
    // Layout text.
    for bad in ["(N,4:(1,N)", "N", "(N,4):(1,N,1)", "(N,,4):(1,1)", "N-N:1"] {
        assert!(
            SymLayout::parse(bad, &mut Symbols::new()).is_err(),
            "{bad:?}"
        );
    }
    assert!(Symbols::new()
        .assume(
            "N",
            Assume {
                min: 5,
                max: 7,
                divisible_by: 8
            }
        )
        .is_err());
    assert!(Symbols::new()
        .assume(
            "N",
            Assume {
                min: 5,
                max: 4,
                divisible_by: 1
            }
        )
        .is_err());
    assert!(Symbols::new()
        .assume(
            "N",
            Assume {
                min: 5,
                max: 9,
                divisible_by: 0
            }
        )
        .is_err());
}

// ---------------------------------------------------------------------------
// The prover, against every binding of small ranges.

fn assume() -> impl Strategy<Value = Assume> {
    (-3i64..6, 0i64..8, 1i64..=4).prop_map(|(min, w, d)| Assume {
        min,
        max: min + w,
        divisible_by: d,
    })
}

fn bindings(s: &Symbols) -> Vec<(i64, i64)> {
    let vals = |id: u8| {
        let a = s.assumption(id);
        (a.min..=a.max).filter(move |v| a.allows(*v))
    };
    vals(0).flat_map(|n| vals(1).map(move |m| (n, m))).collect()
}

fn holds(f: &Fact, n: i64, m: i64) -> bool {
    match f {
        Fact::NonNeg(p) => at(p, n, m) >= 0,
        Fact::Zero(p) => at(p, n, m) == 0,
        Fact::AtMost { p, bound } => at(p, n, m) <= *bound as i128,
        Fact::Divides { d, p } => {
            let d = at(d, n, m);
            d != 0 && at(p, n, m) % d == 0
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn the_prover_is_sound_at_every_binding(p in poly(), q in poly(), an in assume(), am in assume(), k in 1i64..=12, which in 0usize..5) {
        prop_assume!(an.lowest().is_some() && am.lowest().is_some());
        let mut s = Symbols::new();
        s.assume("N", an).unwrap();
        s.assume("M", am).unwrap();
        let fact = match which {
            0 => Fact::NonNeg(p),
            1 => Fact::Zero(p),
            2 => Fact::divides(&k.into(), &p),
            3 => Fact::at_most(&p, k),
            _ => Fact::divides(&q.mul(&q).unwrap().add(&1.into()).unwrap(), &p), // a positive divisor
        };
        let all = bindings(&s);
        match s.prove(&fact) {
            Truth::Proved => for &(n, m) in &all {
                prop_assert!(holds(&fact, n, m), "{} proved, false at N={} M={}", fact.show(&s), n, m);
            },
            Truth::Refuted => for &(n, m) in &all {
                prop_assert!(!holds(&fact, n, m), "{} refuted, true at N={} M={}", fact.show(&s), n, m);
            },
            Truth::Unknown => {}
        }
    }
}

#[test]
fn the_prover_decides_the_facts_the_algebra_needs() {
    let mut s = Symbols::new();
    s.assume(
        "N",
        Assume {
            divisible_by: 4,
            ..Assume::default()
        },
    )
    .unwrap();
    s.assume(
        "M",
        Assume {
            min: 8,
            max: 64,
            divisible_by: 1,
        },
    )
    .unwrap();
    let p = |t: &str| s.clone().parse(t).unwrap();
    let (n, m) = (p("N"), p("M"));
    let cases = [
        (Fact::ge(&n, &4.into()).unwrap(), Truth::Proved),
        (Fact::ge(&n, &8.into()).unwrap(), Truth::Unknown),
        (Fact::le(&m, &64.into()).unwrap(), Truth::Proved),
        (Fact::lt(&m, &8.into()).unwrap(), Truth::Refuted),
        (Fact::divides(&4.into(), &p("N*M")), Truth::Proved),
        (Fact::divides(&8.into(), &p("2*N+8")), Truth::Proved),
        (Fact::divides(&8.into(), &p("2*N+4")), Truth::Refuted),
        (Fact::divides(&n, &p("N*M+N")), Truth::Proved),
        (Fact::divides(&m, &p("M-1")), Truth::Refuted),
        (Fact::eq(&p("N*M"), &p("M*N")).unwrap(), Truth::Proved),
        (Fact::eq(&n, &p("N+1")).unwrap(), Truth::Refuted),
        (Fact::eq(&n, &p("2")).unwrap(), Truth::Refuted), // N is a multiple of 4
        (Fact::ge(&p("N*M-N"), &0.into()).unwrap(), Truth::Proved),
        (Fact::at_most(&p("N*M"), i64::MAX), Truth::Proved),
        (Fact::at_most(&p("N*N*N"), i64::MAX), Truth::Unknown),
    ];
    for (f, want) in cases {
        assert_eq!(s.prove(&f), want, "{}", f.show(&s));
    }
}

// ---------------------------------------------------------------------------
// The algebra over symbols against the concrete algebra.

/// Flat layout text with leaf `k` of the shape (`stride = false`) or of the
/// stride replaced by `N`.
pub(crate) fn text(shape: &[i64], stride: &[i64], k: Option<(usize, bool)>) -> String {
    crate::common::symbolic::spot_text(shape, stride, k, false)
}

/// Leaf `k` (modulo the rank) of A (`in_a`) or of B, extent or stride: its
/// value, and the texts of A and B with that leaf written as `N`.
pub(crate) fn spotted_pair(
    (sh, st): (&[i64], &[i64]),
    (tb_s, tb_d): (&[i64], &[i64]),
    k: usize,
    is_stride: bool,
    in_a: bool,
) -> (i64, String, String) {
    let k = k % if in_a { sh.len() } else { tb_s.len() };
    let v = match (in_a, is_stride) {
        (true, true) => st[k],
        (true, false) => sh[k],
        (false, true) => tb_d[k],
        (false, false) => tb_s[k],
    };
    let spot = Some((k, is_stride));
    let ta = text(sh, st, if in_a { spot } else { None });
    let tb = text(tb_s, tb_d, if in_a { None } else { spot });
    (v, ta, tb)
}

/// `A(B(i))` for every `i < size(B)`, or `None` when some value is not defined.
fn composed(a: &Layout, b: &Layout) -> Option<Vec<i64>> {
    (0..b.size())
        .map(|i| a.eval(b.eval(i).ok()?).ok())
        .collect()
}

pub(crate) fn values(l: &Layout) -> Vec<i64> {
    (0..l.size())
        .map(|i| l.eval(i).expect("in domain"))
        .collect()
}

/// The allowed values of N (id 0) in its range.
pub(crate) fn allowed(s: &Symbols) -> Vec<i64> {
    let a = s.assumption(s.id("N").expect("N is used"));
    (a.min..=a.max).filter(|v| a.allows(*v)).collect()
}

/// How a symbolic composition went, for the census.
#[derive(Debug, Default)]
struct Census {
    answered: usize,
    refused: usize,
    answered_after_needs: usize,
}

/// Checks `A ∘ B` over N in both directions at every allowed binding.
fn check_compose(ta: &str, tb: &str, s: &mut Symbols, census: &mut Census) {
    let (Ok(a), Ok(b)) = (SymLayout::parse(ta, s), SymLayout::parse(tb, s)) else {
        return; // not a layout at every allowed binding: refused at parse time
    };
    let concrete = |n: i64| {
        let (a, b) = (a.bind(s, &[n]).unwrap(), b.bind(s, &[n]).unwrap());
        let want = composed(&a, &b);
        let exact = a.compose(&b);
        (a, b, want, exact)
    };
    match a.compose(&b, s) {
        Ok(r) => {
            census.answered += 1;
            for n in allowed(s) {
                let (ca, cb, want, exact) = concrete(n);
                let got = r
                    .bind(s, &[n])
                    .unwrap_or_else(|e| panic!("{ta} o {tb} = {} at N={n}: {e}", r.show(s)));
                assert_eq!(
                    got.size(),
                    cb.size(),
                    "{ta} o {tb} = {} at N={n}",
                    r.show(s)
                );
                assert_eq!(
                    Some(values(&got)),
                    want,
                    "{ta} o {tb} = {} at N={n}",
                    r.show(s)
                );
                let exact = exact.unwrap_or_else(|e| {
                    panic!(
                        "{ca} o {cb} refused concretely ({e}), symbolic {}",
                        r.show(s)
                    )
                });
                assert_eq!(values(&exact), values(&got));
            }
        }
        Err(Error::NeedsFacts { needs, .. }) => {
            census.refused += 1;
            if needs.is_empty() {
                return;
            }
            // The needs, added to the assumptions, give an answer.
            let mut more = s.clone();
            for need in &needs {
                let fact = parse_need(&mut more, need);
                let Some(f) = fact else { return };
                if !more.add_fact(&f).unwrap_or(false) {
                    return; // not a fact about N alone
                }
            }
            if allowed(&more).is_empty() {
                return;
            }
            let (a2, b2) = (
                SymLayout::parse(ta, &mut more),
                SymLayout::parse(tb, &mut more),
            );
            let r = a2.and_then(|a| a.compose(&b2?, &more));
            let r = r.unwrap_or_else(|e| panic!("{ta} o {tb}: needs {needs:?} added, still {e}"));
            census.answered_after_needs += 1;
            for n in allowed(&more) {
                let (_, _, want, _) = concrete(n);
                assert_eq!(
                    Some(values(&r.bind(&more, &[n]).unwrap())),
                    want,
                    "{ta} o {tb} at N={n}"
                );
            }
        }
        Err(e) => panic!("{ta} o {tb}: {e} is not a refusal naming facts"),
    }
}

/// A need about N in the forms `N >= c`, `N <= c`, `N % c == 0`, `N == c`.
fn parse_need(s: &mut Symbols, need: &str) -> Option<Fact> {
    let parts: Vec<&str> = need.split(' ').collect();
    let n = s.parse(parts[0]).ok()?;
    match parts.as_slice() {
        [_, ">=", c] => Fact::ge(&n, &c.parse::<i64>().ok()?.into()).ok(),
        [_, "<=", c] => Fact::le(&n, &c.parse::<i64>().ok()?.into()).ok(),
        [_, "==", c] => Fact::eq(&n, &c.parse::<i64>().ok()?.into()).ok(),
        [_, "%", c, "==", "0"] => Some(Fact::divides(&c.parse::<i64>().ok()?.into(), &n)),
        _ => None,
    }
}

pub(crate) fn flat(max_rank: usize) -> impl Strategy<Value = (Vec<i64>, Vec<i64>)> {
    prop::collection::vec((1i64..=6, 0i64..=12), 1..=max_rank).prop_map(|v| v.into_iter().unzip())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]
    #[test]
    fn compose_over_a_symbol_agrees_with_the_concrete_algebra(
        (sa, da) in flat(3), (sb, db) in flat(2),
        in_a in any::<bool>(), leaf in 0usize..3, is_stride in any::<bool>(),
        div_pick in 0usize..4, below in 0i64..3, above in 0i64..3,
    ) {
        let (shape, stride) = if in_a { (&sa, &da) } else { (&sb, &db) };
        let k = leaf % shape.len();
        let v = if is_stride { stride[k] } else { shape[k] };
        prop_assume!(v >= 1);
        // A divisor of v, and a range of multiples of it around v.
        let divs: Vec<i64> = (1..=v).filter(|d| v % d == 0).collect();
        let d = divs[div_pick % divs.len()];
        let a = Assume { min: (v - below * d).max(1), max: v + above * d, divisible_by: d };
        let mut s = Symbols::new();
        s.assume("N", a).unwrap();
        let spot = Some((k, is_stride));
        let (ta, tb) = if in_a {
            (text(&sa, &da, spot), text(&sb, &db, None))
        } else {
            (text(&sa, &da, None), text(&sb, &db, spot))
        };
        check_compose(&ta, &tb, &mut s, &mut Census::default());
    }
}

#[test]
fn compose_census_over_random_abstractions() {
    // The same generator, fixed seed: how many abstractions are answered,
    // refused, answered once the needs are added (and all checked).
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut census = Census::default();
    let strat = (
        flat(3),
        flat(2),
        any::<bool>(),
        0usize..3,
        any::<bool>(),
        0i64..3,
        0i64..3,
    );
    for _ in 0..3000 {
        let ((sa, da), (sb, db), in_a, leaf, is_stride, below, above) =
            strat.new_tree(&mut runner).unwrap().current();
        let (shape, stride) = if in_a { (&sa, &da) } else { (&sb, &db) };
        let k = leaf % shape.len();
        let v = if is_stride { stride[k] } else { shape[k] };
        if v < 1 || below + above == 0 {
            continue; // a fixed N is a constant: the concrete path
        }
        let mut s = Symbols::new();
        s.assume(
            "N",
            Assume {
                min: (v - below * v).max(1),
                max: v + above * v,
                divisible_by: v,
            },
        )
        .unwrap();
        let spot = Some((k, is_stride));
        let (ta, tb) = if in_a {
            (text(&sa, &da, spot), text(&sb, &db, None))
        } else {
            (text(&sa, &da, None), text(&sb, &db, spot))
        };
        check_compose(&ta, &tb, &mut s, &mut census);
    }
    eprintln!("compose census: {census:?}");
    assert!(census.answered > 300, "{census:?}");
}

/// Checks a symbolic operation on layout texts (over N) against the
/// concrete one at every allowed binding: an answer agrees as a function
/// wherever the concrete operation answers, and the concrete operation
/// answers at every binding. Returns whether the symbolic one answered.
pub(crate) fn check_unary(
    what: &str,
    texts: &[&str],
    s: &mut Symbols,
    sym: impl Fn(&[SymLayout], &Symbols) -> hlayout::Result<SymLayout>,
    conc: impl Fn(&[Layout], i64) -> hlayout::Result<Layout>,
) -> Option<bool> {
    let ls: Vec<SymLayout> = texts
        .iter()
        .map(|t| SymLayout::parse(t, s))
        .collect::<hlayout::Result<_>>()
        .ok()?;
    match sym(&ls, s) {
        Ok(r) => {
            for n in allowed(s) {
                let bound: Vec<Layout> = ls.iter().map(|l| l.bind(s, &[n]).unwrap()).collect();
                let want = conc(&bound, n).unwrap_or_else(|e| {
                    panic!(
                        "{what} {texts:?} = {} over N, refused at N={n}: {e}",
                        r.show(s)
                    )
                });
                let got = r.bind(s, &[n]).unwrap();
                assert_eq!(
                    values(&got),
                    values(&want),
                    "{what} {texts:?} = {} at N={n} vs {want}",
                    r.show(s)
                );
                assert_eq!(
                    got.shape().rank(),
                    want.shape().rank(),
                    "{what} {texts:?} at N={n}"
                );
            }
            Some(true)
        }
        Err(Error::NeedsFacts { .. }) => Some(false),
        Err(e) => panic!("{what} {texts:?}: {e} is not a refusal naming facts"),
    }
}

/// Random flat layout text with one leaf (or none) replaced by N, and N's
/// assumptions: multiples of a divisor of the replaced value around it.
pub(crate) fn abstracted(
) -> impl Strategy<Value = (Vec<i64>, Vec<i64>, usize, bool, i64, i64, usize)> {
    (
        flat(3),
        0usize..3,
        any::<bool>(),
        0i64..3,
        0i64..3,
        0usize..4,
    )
        .prop_map(|((s, d), k, st, lo, hi, dp)| (s, d, k, st, lo, hi, dp))
}

pub(crate) fn n_for(v: i64, below: i64, above: i64, div_pick: usize) -> Option<Symbols> {
    if v < 1 || below + above == 0 {
        return None;
    }
    let divs: Vec<i64> = (1..=v).filter(|d| v % d == 0).collect();
    let d = divs[div_pick % divs.len()];
    let mut s = Symbols::new();
    s.assume(
        "N",
        Assume {
            min: (v - below * d).max(1),
            max: v + above * d,
            divisible_by: d,
        },
    )
    .ok()?;
    Some(s)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]
    #[test]
    fn complement_over_a_symbol_agrees_with_the_concrete_algebra(
        (sh, st, k, is_stride, below, above, dp) in abstracted(), cot in 1i64..=40, sym_cot in any::<bool>(),
    ) {
        let k = k % sh.len();
        let v = if sym_cot { cot } else if is_stride { st[k] } else { sh[k] };
        let Some(mut s) = n_for(v, below, above, dp) else { return Ok(()) };
        let t = text(&sh, &st, (!sym_cot).then_some((k, is_stride)));
        let cot_text = if sym_cot { "N".to_string() } else { cot.to_string() };
        let m = s.parse(&cot_text).unwrap();
        check_unary("complement", &[&t], &mut s,
            |l, s| l[0].complement(&m, s),
            |l, n| l[0].complement(if sym_cot { n } else { cot }));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]
    #[test]
    fn divide_and_product_over_a_symbol_agree_with_the_concrete_algebra(
        (sh, st, k, is_stride, below, above, dp) in abstracted(), (tb_s, tb_d) in flat(2), in_a in any::<bool>(), product in any::<bool>(),
    ) {
        let (v, ta, tb) = spotted_pair((&sh, &st), (&tb_s, &tb_d), k, is_stride, in_a);
        let Some(mut s) = n_for(v, below, above, dp) else { return Ok(()) };
        if product {
            check_unary("logical_product", &[&ta, &tb], &mut s,
                |l, s| l[0].logical_product(&l[1], s), |l, _| l[0].logical_product(&l[1]));
        } else {
            check_unary("logical_divide", &[&ta, &tb], &mut s,
                |l, s| l[0].logical_divide(&l[1], s), |l, _| l[0].logical_divide(&l[1]));
        }
    }
}

/// One symbolic operation of the census, on a table of symbols.
type Run<'a> = dyn Fn(&mut Symbols) -> Option<bool> + 'a;

#[test]
fn census_of_complement_divide_and_product_answers() {
    // The property tests above pass vacuously if nothing is answered: count
    // the answers over a fixed seed (each one checked at every binding).
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strat = (abstracted(), flat(2), any::<bool>());
    let (mut answered, mut tried) = ([0usize; 3], [0usize; 3]);
    for _ in 0..3000 {
        let ((sh, st, k, is_stride, below, above, dp), (tb_s, tb_d), in_a) =
            strat.new_tree(&mut runner).unwrap().current();
        let (v, ta, tb) = spotted_pair((&sh, &st), (&tb_s, &tb_d), k, is_stride, in_a);
        let Some(s) = n_for(v, below, above, dp) else {
            continue;
        };
        let runs: [(&str, &Run); 3] = [
            ("complement", &|s| {
                let m = Poly::constant(48);
                check_unary(
                    "complement",
                    &[&ta],
                    s,
                    |l, s| l[0].complement(&m, s),
                    |l, _| l[0].complement(48),
                )
            }),
            ("divide", &|s| {
                check_unary(
                    "logical_divide",
                    &[&ta, &tb],
                    s,
                    |l, s| l[0].logical_divide(&l[1], s),
                    |l, _| l[0].logical_divide(&l[1]),
                )
            }),
            ("product", &|s| {
                check_unary(
                    "logical_product",
                    &[&ta, &tb],
                    s,
                    |l, s| l[0].logical_product(&l[1], s),
                    |l, _| l[0].logical_product(&l[1]),
                )
            }),
        ];
        for (i, (_, run)) in runs.iter().enumerate() {
            if let Some(ok) = run(&mut s.clone()) {
                tried[i] += 1;
                answered[i] += ok as usize;
            }
        }
    }
    eprintln!(
        "answered/tried: complement {}/{}, divide {}/{}, product {}/{}",
        answered[0], tried[0], answered[1], tried[1], answered[2], tried[2]
    );
    assert!(answered.iter().all(|&a| a > 100), "{answered:?}");
}

// ---------------------------------------------------------------------------
// Named cases: the issue's examples and the worked examples of
// docs/symbolic.md, each checked at several bindings, the extremes included.

pub(crate) use crate::common::symbolic::syms;

/// Every binding of the symbols to values in `picks` that the assumptions allow.
pub(crate) fn each_binding(s: &Symbols, picks: &[i64]) -> Vec<Vec<i64>> {
    let mut all = Vec::new();
    for id in 0..s.len() as u8 {
        let a = s.assumption(id);
        let vals: Vec<i64> = picks
            .iter()
            .copied()
            .chain([a.lowest().unwrap(), a.highest().unwrap()])
            .filter(|v| a.allows(*v))
            .collect();
        all.push(vals);
    }
    crate::common::symbolic::product(all)
}

/// `got` equals `a ∘ b` bound at every binding of [`each_binding`].
fn same_as_compose(got: &SymLayout, a: &SymLayout, b: &SymLayout, s: &Symbols, picks: &[i64]) {
    let want = |v: &[i64]| {
        a.bind(s, v)
            .unwrap()
            .compose(&b.bind(s, v).unwrap())
            .unwrap()
    };
    same_at(got, want, s, picks);
}

pub(crate) fn same_at(
    got: &SymLayout,
    want: impl Fn(&[i64]) -> Layout,
    s: &Symbols,
    picks: &[i64],
) {
    let bindings = each_binding(s, picks);
    assert!(bindings.len() > 2);
    for b in bindings {
        let (g, w) = (got.bind(s, &b).unwrap(), want(&b));
        assert_eq!(
            values(&g),
            values(&w),
            "{} at {b:?}: {g} vs {w}",
            got.show(s)
        );
    }
}

#[test]
fn coalesce_of_the_issue_example_and_row_major() {
    let mut s = syms(&[("N", 1, 64, 1)]);
    let l = SymLayout::parse("(N,(4,8)):(32,(8,1))", &mut s).unwrap();
    let c = l.coalesce(&s).unwrap();
    assert_eq!(c.show(&s).to_string(), "32*N:1");
    same_at(
        &c,
        |b| l.bind(&s, b).unwrap().coalesce(),
        &s,
        &[1, 2, 3, 17],
    );
    // (N,4):(1,N) never coalesces: a transpose (CuTe does not either).
    let t = SymLayout::parse("(N,4):(1,N)", &mut s).unwrap();
    assert_eq!(t.coalesce(&s).unwrap().show(&s).to_string(), "(N,4):(1,N)");
    let mut s = syms(&[("B", 1, 16, 1), ("S", 1, 64, 1)]);
    let shape = SymLayout::parse("(B,(S,128)):(0,(0,0))", &mut s).unwrap();
    let rm = SymLayout::row_major(&shape).unwrap();
    assert_eq!(rm.show(&s).to_string(), "(B,(S,128)):(128*S,(128,1))");
    assert_eq!(rm.coalesce(&s).unwrap().show(&s).to_string(), "128*B*S:1");
}

#[test]
fn compose_refuses_what_cute_answers_wrongly() {
    // cutlass issues 1353/2113/3513, mirrored: CuTe's (N,4):(1,N) o 4:1 is
    // (4,N):(N,1) o 4:1 here, contiguous, 4:1 at every N; the transpose
    // (4,N):(1,4) o 4:1 exists as 4:4 only for N >= 4 (N = 3: 0,4,8,1).
    let mut s = syms(&[("N", 1, 40, 1)]);
    let b = SymLayout::parse("4:1", &mut s).unwrap();
    let a = SymLayout::parse("(4,N):(N,1)", &mut s).unwrap();
    let r = a.compose(&b, &s).unwrap();
    assert_eq!(r.show(&s).to_string(), "4:1");
    let t = SymLayout::parse("(4,N):(1,4)", &mut s).unwrap();
    let err = t.compose(&b, &s).unwrap_err();
    let Error::NeedsFacts { needs, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(needs, &["N >= 4"]);
    assert!(t
        .bind(&s, &[3])
        .unwrap()
        .compose(&b.bind(&s, &[3]).unwrap())
        .is_err());
    s.add_fact(&Fact::ge(&s.clone().parse("N").unwrap(), &4.into()).unwrap())
        .unwrap();
    let r = t.compose(&b, &s).unwrap();
    assert_eq!(r.show(&s).to_string(), "4:4");
    same_as_compose(&r, &t, &b, &s, &[4, 5, 9]);
}

#[test]
fn kv_cache_window_batch_dimension_and_gemm_tiles() {
    // A KV cache (B, L, H, D) row-major with L = max length: the rows of one
    // head up to `sp` are the composition with (B, sp, D):(L*H*D, H*D, 1).
    let mut s = syms(&[("B", 1, 4, 1), ("L", 1, 64, 1), ("sp", 1, 64, 1)]);
    let cache = SymLayout::parse("(B,L,8,16):(128*L,128,16,1)", &mut s).unwrap();
    let window = SymLayout::parse("(B,sp,16):(128*L,128,1)", &mut s).unwrap();
    let r = cache.compose(&window, &s).unwrap();
    assert_eq!(r.show(&s).to_string(), "(B,sp,16):(128*L,128,1)");
    same_as_compose(&r, &cache, &window, &s, &[1, 2, 3]);

    // A batch dimension over a 32x32 tile: reshape (B,32,32) to (B,1024).
    let mut s = syms(&[("B", 1, 64, 1)]);
    let x = SymLayout::parse("(B,32,32):(1024,32,1)", &mut s).unwrap();
    let flat = SymLayout::parse("(B,1024):(0,0)", &mut s).unwrap();
    let r = x.reshape(&flat, &s).unwrap();
    assert_eq!(r.coalesce(&s).unwrap().show(&s).to_string(), "1024*B:1");
    // Its transpose of the tile, reshaped: still one layout, for every B.
    let xt = SymLayout::parse("(B,32,32):(1024,1,32)", &mut s).unwrap();
    let r = xt.reshape(&flat, &s).unwrap();
    assert_eq!(r.show(&s).to_string(), "(B,(32,32)):(1024,(1,32))");

    // A GEMM with M = 128*Mt rows tiled by 128 x 32 (K = 32*Kt): the tile
    // grid and the tile, by logical divide of each mode.
    let mut s = syms(&[("Mt", 1, 8, 1), ("Kt", 1, 8, 1)]);
    let a = SymLayout::parse("(128*Mt,32*Kt):(32*Kt,1)", &mut s).unwrap();
    let rows = SymLayout::parse("128*Mt:1", &mut s).unwrap();
    let d = rows
        .logical_divide(&SymLayout::parse("128:1", &mut s).unwrap(), &s)
        .unwrap();
    assert_eq!(d.show(&s).to_string(), "(Mt,128):(128,1)");
    // The tile at (0,0): rows of 32 with stride 32*Kt.
    let tile = SymLayout::parse("(128,32):(32*Kt,1)", &mut s).unwrap();
    let t = a.compose(&tile, &s).unwrap();
    assert_eq!(t.show(&s).to_string(), "(128,32):(32*Kt,1)");
    same_as_compose(&t, &a, &tile, &s, &[1, 2, 5]);
    // M itself, with M % 128 == 0 assumed, divides too, but the tile count
    // M/128 is no polynomial: the refusal says how to write it.
    let mut s = syms(&[("M", 128, 1024, 128)]);
    let rows = SymLayout::parse("M:1", &mut s).unwrap();
    let err = rows
        .logical_divide(&SymLayout::parse("128:1", &mut s).unwrap(), &s)
        .unwrap_err();
    assert!(err.to_string().contains("not a polynomial"), "{err}");
}

#[test]
fn two_symbols_compose_and_a_forced_refusal() {
    let mut s = syms(&[("N", 1, 24, 1), ("M", 1, 24, 1)]);
    // A 4 x 8 tile of an N x M row-major matrix, whatever N and M are
    // (the tile's rows need not fit: A is read on all integers).
    let a = SymLayout::parse("(N,M):(M,1)", &mut s).unwrap();
    let b = SymLayout::parse("(4,8):(M,1)", &mut s).unwrap();
    let r = a.compose(&b, &s).unwrap();
    assert_eq!(r.show(&s).to_string(), "(4,8):(M,1)");
    let b2 = SymLayout::parse("(M,4):(N,1)", &mut s).unwrap();
    let a2 = SymLayout::parse("(M,N):(1,M)", &mut s).unwrap();
    let err = a2.compose(&b2, &s).unwrap_err();
    let Error::NeedsFacts { needs, .. } = &err else {
        panic!("{err}")
    };
    assert_eq!(needs, &["N >= 4"], "{err}");
    for b in each_binding(&s, &[1, 2, 3, 8]) {
        let (ca, cb) = (a2.bind(&s, &b).unwrap(), b2.bind(&s, &b).unwrap());
        if ca.compose(&cb).is_err() {
            return; // some binding has no answer: the refusal is forced
        }
    }
    panic!("every binding composes, yet {err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(800))]
    #[test]
    fn divides_and_products_by_mode_agree_with_the_concrete_algebra(
        (sh, st) in prop::collection::vec((1i64..=8, 0i64..=16), 2..=3).prop_map(|v| v.into_iter().unzip::<_, _, Vec<i64>, Vec<i64>>()),
        tiles in prop::collection::vec((1i64..=4, 1i64..=3), 1..=2),
        k in 0usize..3, is_stride in any::<bool>(), below in 0i64..3, above in 0i64..3, dp in 0usize..4, how in 0usize..5,
    ) {
        let k = k % sh.len();
        let v = if is_stride { st[k] } else { sh[k] };
        let Some(mut s) = n_for(v, below, above, dp) else { return Ok(()) };
        let ta = text(&sh, &st, Some((k, is_stride)));
        let tt: Vec<String> = tiles.iter().map(|(e, d)| format!("{e}:{d}")).collect();
        let mut texts: Vec<&str> = vec![&ta];
        texts.extend(tt.iter().map(String::as_str));
        use hlayout::algebra::Tiler;
        let sym = |l: &[SymLayout], s: &Symbols| match how {
            0 => l[0].logical_divide_by(&l[1..], s),
            1 => l[0].zipped_divide_by(&l[1..], s),
            2 => l[0].tiled_divide_by(&l[1..], s),
            3 => l[0].flat_divide_by(&l[1..], s),
            _ => l[0].logical_product_by(&l[1..], s),
        };
        let conc = |l: &[Layout], _: i64| {
            let t = Tiler::Modes(l[1..].to_vec());
            match how {
                0 => l[0].logical_divide_by(&l[1..]),
                1 => l[0].zipped_divide(&t),
                2 => l[0].tiled_divide(&t),
                3 => l[0].flat_divide(&t),
                _ => l[0].logical_product_by(&l[1..]),
            }
        };
        check_unary("by mode", &texts, &mut s, sym, conc);
    }
}
