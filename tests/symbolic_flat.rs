//! Flat views over symbols (`hlayout::symbolic::{SymFlatView, merge}`,
//! `SymLayout::flatten`), checked at every binding of small ranges (the
//! extremes included) against the definition: a merge answer, bound, equals
//! `second` read through `first` as a function (validity everywhere, offset
//! at every valid element), `None` means the brute-force oracle finds no view
//! at any binding, and a refusal's needs, added to the assumptions, give an
//! answer. Flatten is checked against the concrete `Layout::flatten`.

use hlayout::symbolic::{merge, Assume, Fact, SymFlatView, SymLayout, Symbols};
use hlayout::{Error, FlatView, Layout};

use proptest::prelude::*;

use crate::common::{brute_merge, composed, eval_all};

// ---------------------------------------------------------------------------
// Bindings and the oracle.

/// The values of one symbol to check: all of them when there are at most 12,
/// else the three smallest, the middle and the two largest.
fn values(s: &Symbols, id: u8) -> Vec<i64> {
    let (lo, hi) = s.range(id);
    let d = s.assumption(id).divisible_by;
    let count = (hi - lo) / d + 1;
    if count <= 12 {
        return (0..count).map(|k| lo + k * d).collect();
    }
    let mid = lo + (count / 2) * d;
    vec![lo, lo + d, lo + 2 * d, mid, hi - d, hi]
}

/// Every combination of [`values`].
fn bindings(s: &Symbols) -> Vec<Vec<i64>> {
    crate::common::symbolic::product((0..s.len() as u8).map(|id| values(s, id)))
}

/// The merge of the two views, checked at every binding against the oracle.
fn checked_merge(
    first: &SymFlatView,
    second: &SymFlatView,
    s: &Symbols,
) -> Result<Option<SymFlatView>, Error> {
    let r = merge(first, second, s);
    for b in bindings(s) {
        let (f, g) = (first.bind(&b).unwrap(), second.bind(&b).unwrap());
        let map = composed(&f, &g);
        match &r {
            Ok(Some(v)) => {
                let bound = v.bind(&b).unwrap();
                assert_eq!(
                    eval_all(&bound),
                    map,
                    "at {b:?}: {} for {} + {}",
                    v.show(s),
                    first.show(s),
                    second.show(s)
                );
                assert!(hlayout::merge(&f, &g).unwrap().is_some());
            }
            Ok(None) => assert!(
                brute_merge(g.shape(), &map).is_none(),
                "None but a view exists at {b:?}"
            ),
            Err(Error::NeedsFacts { .. }) => {}
            Err(e) => panic!("unexpected error {e}"),
        }
    }
    r
}

/// `merge` refused with exactly these needs; with them added (each one
/// written as an assumption), it answers, right at every binding.
fn refused_with(
    first: &SymFlatView,
    second: &SymFlatView,
    s: &Symbols,
    needs: &[&str],
) -> Option<SymFlatView> {
    match checked_merge(first, second, s) {
        Err(Error::NeedsFacts { needs: got, .. }) => assert_eq!(got, needs),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let mut more = s.clone();
    for n in needs {
        let fact = parse_fact(n, &mut more);
        assert!(more.add_fact(&fact).unwrap(), "{n} is an assumption");
    }
    checked_merge(first, second, &more).expect("answers with the needs")
}

/// `s` with every need of a refusal added as an assumption; `None` when one
/// is not about a single symbol (`N >= c`, `N <= c`, `N == c`, `N % k == 0`)
/// or leaves no value.
fn with_needs(s: &Symbols, needs: &[String]) -> Option<Symbols> {
    let mut more = s.clone();
    for n in needs {
        let fact = if let Some((l, r)) = n.split_once(" == ") {
            let (l, r) = (more.parse(l).ok()?, more.parse(r).ok()?);
            match l.as_const() {
                Some(_) => return None,
                None if n.contains(" % ") => return None,
                None => Fact::eq(&l, &r).ok()?,
            }
        } else if let Some((l, k)) = n.split_once(" % ") {
            let k = k.strip_suffix(" == 0")?.parse::<i64>().ok()?;
            Fact::divides(&k.into(), &more.parse(l).ok()?)
        } else if n.contains(" >= ") || n.contains(" <= ") {
            parse_fact(n, &mut more)
        } else {
            return None;
        };
        if !matches!(more.add_fact(&fact), Ok(true)) {
            return None;
        }
    }
    Some(more)
}

/// A refusal's needs decide the request: added to the assumptions (when
/// each is about one symbol), the merge answers, and `checked_merge` finds
/// the answer right at every binding the needs allow.
fn needs_decide(
    first: &SymFlatView,
    second: &SymFlatView,
    s: &Symbols,
    r: &Result<Option<SymFlatView>, Error>,
) {
    let Err(Error::NeedsFacts { needs, .. }) = r else {
        return;
    };
    if needs.is_empty() {
        return;
    }
    let Some(more) = with_needs(s, needs) else {
        return;
    };
    if let Err(e) = checked_merge(first, second, &more) {
        panic!(
            "needs {needs:?} added, still {e} for {} + {}",
            first.show(s),
            second.show(s)
        );
    }
}

/// `N >= c` or `N <= c` as a fact.
fn parse_fact(text: &str, s: &mut Symbols) -> Fact {
    let (l, op, r) = if let Some((l, r)) = text.split_once(" >= ") {
        (l, ">=", r)
    } else {
        let (l, r) = text.split_once(" <= ").unwrap();
        (l, "<=", r)
    };
    let (l, r) = (s.parse(l).unwrap(), s.parse(r).unwrap());
    match op {
        ">=" => Fact::ge(&l, &r).unwrap(),
        _ => Fact::le(&l, &r).unwrap(),
    }
}

fn view(
    shape: &[&str],
    strides: &[&str],
    offset: &str,
    mask: Option<&[(&str, &str)]>,
    s: &mut Symbols,
) -> SymFlatView {
    SymFlatView::parse(shape, strides, offset, mask, s).unwrap()
}

fn assume(s: &mut Symbols, name: &str, min: i64, max: i64) {
    s.assume(
        name,
        Assume {
            min,
            max,
            ..Assume::default()
        },
    )
    .unwrap();
}

// ---------------------------------------------------------------------------
// Merges tinygrad 0.10.3 cannot do with symbols, and the named refusals.

#[test]
fn variable_divmod_merges() {
    // test_variable_divmod: (idx0*(sp+1) + idx1) unravelled by sp+1 is (idx0, idx1).
    let mut s = Symbols::new();
    assume(&mut s, "sp", 0, 24);
    let first = view(&["3", "sp+1"], &["64", "1"], "0", None, &mut s);
    let second = view(&["3", "sp+1"], &["sp+1", "1"], "0", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(3, sp+1), strides=(64, 1), offset=0, mask=None)"
    );
    // Transposed reads of the same buffer: still one view.
    let second = view(&["sp+1", "3"], &["1", "sp+1"], "0", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(v.strides()[1].as_const(), Some(64));
}

#[test]
fn kv_cache_mask_is_kept() {
    // test_real_strides_0's two views: the mask (0, sp) of the padded cache
    // survives the merge.
    let mut s = Symbols::new();
    assume(&mut s, "sp", 1, 8);
    let first = view(
        &["2", "sp+1", "1", "1"],
        &["8", "1", "0", "0"],
        "0",
        Some(&[("0", "2"), ("0", "sp"), ("0", "1"), ("0", "1")]),
        &mut s,
    );
    let second = view(&["2", "sp+1"], &["sp+1", "1"], "0", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(2, sp+1), strides=(8, 1), offset=0, mask=((0, 2), (0, sp)))"
    );
}

#[test]
fn padded_window_drops_the_mask() {
    let mut s = Symbols::new();
    assume(&mut s, "N", 2, 9);
    let first = view(
        &["N", "8"],
        &["5", "1"],
        "-3",
        Some(&[("0", "N"), ("3", "8")]),
        &mut s,
    );
    let second = view(&["2", "2"], &["8", "1"], "3", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(2, 2), strides=(5, 1), offset=0, mask=None)"
    );
    // At N = 1 the second row is outside the buffer: N >= 2 is needed.
    let mut s1 = Symbols::new();
    assume(&mut s1, "N", 1, 9);
    let first = view(&["N", "8"], &["5", "1"], "0", None, &mut s1);
    let second = view(&["2", "2"], &["8", "1"], "3", None, &mut s1);
    let v = refused_with(&first, &second, &s1, &["N >= 2"]).unwrap();
    assert!(v.mask().is_none());
}

#[test]
fn flips_and_reversed_reads() {
    let mut s = Symbols::new();
    assume(&mut s, "N", 1, 10);
    let first = view(&["N", "3"], &["3", "1"], "0", None, &mut s);
    let second = view(&["N", "3"], &["-3", "-1"], "3*N-1", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(N, 3), strides=(-3, -1), offset=3*N-1, mask=None)"
    );
    // A flipped, masked buffer read forwards.
    let first = view(
        &["N", "3"],
        &["-3", "1"],
        "3*N-3",
        Some(&[("1", "N"), ("0", "2")]),
        &mut s,
    );
    let second = view(&["N", "3"], &["3", "1"], "0", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(N, 3), strides=(-3, 1), offset=3*N-3, mask=((1, N), (0, 2)))"
    );
}

#[test]
fn reshapes_across_contiguous_dimensions() {
    // (N, M) contiguous read as one dimension of N*M, and (N*M) read as (N, M).
    let mut s = Symbols::new();
    assume(&mut s, "N", 1, 5);
    assume(&mut s, "M", 1, 5);
    let first = view(&["N", "M"], &["M", "1"], "0", None, &mut s);
    let second = view(&["N*M"], &["1"], "0", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(v.strides()[0].as_const(), Some(1));
    let first = view(&["N", "M", "2"], &["2*M", "2", "1"], "0", None, &mut s);
    let second = view(&["N", "2*M"], &["2*M", "1"], "0", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(N, 2*M), strides=(2*M, 1), offset=0, mask=None)"
    );
}

#[test]
fn nothing_valid_and_empty_views() {
    let mut s = Symbols::new();
    assume(&mut s, "N", 1, 6);
    // The window reads columns 2..4 of a buffer whose mask keeps columns 0..2.
    let first = view(
        &["N", "4"],
        &["4", "1"],
        "0",
        Some(&[("0", "N"), ("0", "2")]),
        &mut s,
    );
    let second = view(&["N", "2"], &["4", "1"], "2", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(v.mask().unwrap()[1], (0.into(), 0.into()));
    // No element at all: any view.
    let second = view(&["0", "N"], &["N", "1"], "0", None, &mut s);
    assert!(checked_merge(&first, &second, &s).unwrap().is_some());
}

#[test]
fn constants_take_the_exact_concrete_merge() {
    // The Lean formalisation's overflow example: no view exists.
    let mut s = Symbols::new();
    let first = view(&["10", "3", "3"], &["19", "2", "5"], "0", None, &mut s);
    let second = view(&["6"], &["4"], "0", None, &mut s);
    assert_eq!(checked_merge(&first, &second, &s).unwrap(), None);
    // A symbol with one allowed value is a constant.
    assume(&mut s, "K", 3, 3);
    let first = view(&["10", "K", "3"], &["19", "2", "5"], "0", None, &mut s);
    assert_eq!(checked_merge(&first, &second, &s).unwrap(), None);
}

#[test]
fn refusals_name_the_facts() {
    let mut s = Symbols::new();
    assume(&mut s, "sp", 1, 40);
    let first = view(&["3", "sp+1"], &["64", "1"], "0", None, &mut s);
    // A 4-wide window of a row of sp+1: the row must hold it.
    let second = view(&["2", "4"], &["sp+1", "1"], "0", None, &mut s);
    refused_with(&first, &second, &s, &["sp >= 3"]).unwrap();
    // A stride whose sign depends on the binding.
    let mut s = Symbols::new();
    assume(&mut s, "a", -3, 3);
    let first = view(&["8"], &["1"], "4", None, &mut s);
    let second = view(&["2"], &["a"], "4", None, &mut s);
    // (Both signs give the same view here; the rule reads the dimension
    // forwards or backwards, so it asks for the sign: stronger than needed,
    // never wrong.)
    let v = refused_with(&first, &second, &s, &["a >= 0"]).unwrap();
    assert_eq!(v.strides()[0], s.parse("a").unwrap());
}

// ---------------------------------------------------------------------------
// Random merges over one or two symbols, checked at every binding.

/// A number: a small constant or a small polynomial in `N` (id 0), `M` (id 1).
fn num(syms: bool) -> impl Strategy<Value = String> {
    let c = (-3i64..=4).prop_map(|c| c.to_string());
    if !syms {
        return c.boxed();
    }
    prop_oneof![
        3 => c,
        1 => Just("N".to_string()),
        1 => Just("N+1".to_string()),
        1 => Just("2*N".to_string()),
        1 => Just("M".to_string()),
        1 => Just("N*M".to_string()),
    ]
    .boxed()
}

/// An extent: 1..4, `N`, `N+1`, `M`, `2*N`.
fn extent() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (1i64..=4).prop_map(|c| c.to_string()),
        1 => Just("N".to_string()),
        1 => Just("N+1".to_string()),
        1 => Just("M".to_string()),
        1 => Just("2*N".to_string()),
    ]
}

/// A random case: `first` with symbolic extents and strides (contiguous or
/// random), `second` whose strides and offset are combinations of `first`'s
/// place values (the way movement ops produce them) or random, masks optional.
#[derive(Clone, Debug)]
struct Case {
    first: Parts,
    second: Parts,
    n: (i64, i64),
    m: (i64, i64),
}

fn mask_of(shape: &[String], cut: &[(bool, bool)]) -> Vec<(String, String)> {
    shape
        .iter()
        .zip(cut)
        .map(|(n, &(b, e))| {
            let b = if b { "1".to_string() } else { "0".to_string() };
            let e = if e { format!("{n}-1") } else { n.clone() };
            (b, e)
        })
        .collect()
}

fn case() -> impl Strategy<Value = Case> {
    let first = (1usize..=3).prop_flat_map(|k| {
        (
            prop::collection::vec(extent(), k),
            prop::collection::vec(num(true), k),
            any::<bool>(),
            -4i64..=4,
            prop::option::of(prop::collection::vec(any::<(bool, bool)>(), k)),
        )
    });
    let second = (1usize..=3).prop_flat_map(|r| {
        (
            prop::collection::vec(extent(), r),
            prop::collection::vec((0usize..3, -1i64..=2, num(false)), r),
            (0usize..3, -1i64..=2, -3i64..=3),
            prop::option::of(prop::collection::vec(any::<(bool, bool)>(), r)),
        )
    });
    (first, second, 1i64..=3, 0i64..=3, 1i64..=3, 0i64..=2).prop_map(
        |((fs, fd, contiguous, fo, fm), (ss, sd, so, sm), n0, nw, m0, mw)| {
            // Place values of first, as text.
            let k = fs.len();
            let mut place = vec![String::from("1"); k];
            for i in (0..k.saturating_sub(1)).rev() {
                place[i] = format!("{}*({})", fs[i + 1], place[i + 1]);
            }
            let fd = if contiguous { place.clone() } else { fd };
            let combo =
                |(i, c, extra): &(usize, i64, String)| format!("{c}*({})+{extra}", place[i % k]);
            let sd: Vec<String> = sd.iter().map(|t| combo(&(t.0, t.1, t.2.clone()))).collect();
            let so = combo(&(so.0, so.1, so.2.to_string()));
            let fmask = fm.map(|m| mask_of(&fs, &m));
            let smask = sm.map(|m| mask_of(&ss, &m));
            Case {
                first: (fs, fd, fo.to_string(), fmask),
                second: (ss, sd, so, smask),
                n: (n0, n0 + nw),
                m: (m0, m0 + mw),
            }
        },
    )
}

/// Expands `c*(a*(b))+e` text into a polynomial via the parser, which knows
/// no parentheses: evaluated piecewise.
fn poly_text(t: &str, s: &mut Symbols) -> Option<hlayout::symbolic::Poly> {
    // Products of factors separated by "*(" ... ")" and a trailing "+e".
    let (prod, extra) = match t.rfind(")+") {
        Some(p) => (&t[..=p], &t[p + 2..]),
        None => (t, "0"),
    };
    let mut acc = hlayout::symbolic::Poly::constant(1);
    for f in prod.split('*') {
        let f = f.trim_matches(|c| c == '(' || c == ')');
        if f.is_empty() {
            continue;
        }
        acc = acc.mul(&s.parse(f).ok()?).ok()?;
    }
    acc.add(&s.parse(extra).ok()?).ok()
}

type Parts = (
    Vec<String>,
    Vec<String>,
    String,
    Option<Vec<(String, String)>>,
);

fn sym_view(p: &Parts, s: &mut Symbols) -> Option<SymFlatView> {
    let all = |v: &[String], s: &mut Symbols| -> Option<Vec<hlayout::symbolic::Poly>> {
        v.iter().map(|t| poly_text(t, s)).collect()
    };
    let shape = all(&p.0, s)?;
    let strides = all(&p.1, s)?;
    let offset = poly_text(&p.2, s)?;
    let mask = match &p.3 {
        None => None,
        Some(m) => Some(
            m.iter()
                .map(|(b, e)| Some((poly_text(b, s)?, poly_text(e, s)?)))
                .collect::<Option<Vec<_>>>()?,
        ),
    };
    SymFlatView::new(shape, strides, offset, mask, s).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(400)))]

    /// Every answer is right at every binding (checked inside
    /// `checked_merge`), and `None` only where no view exists at any.
    #[test]
    fn random_symbolic_merges_are_right_at_every_binding(c in case()) {
        let mut s = Symbols::new();
        s.intern("N").unwrap();
        s.intern("M").unwrap();
        assume(&mut s, "N", c.n.0, c.n.1);
        assume(&mut s, "M", c.m.0, c.m.1);
        let (Some(first), Some(second)) = (sym_view(&c.first, &mut s), sym_view(&c.second, &mut s)) else {
            return Ok(());
        };
        let r = checked_merge(&first, &second, &s);
        needs_decide(&first, &second, &s, &r);
    }

    /// Concrete merges abstracted: one extent of `first` or `second` (and
    /// every number that was the same value because of it) becomes `N` in a
    /// range around its value. An answer is right at every binding; when the
    /// range is the single value, the answer is the concrete one.
    #[test]
    fn abstracted_concrete_merges(c in case(), n0 in 1i64..=4, up in 0i64..=2) {
        let mut s = Symbols::new();
        s.intern("N").unwrap();
        s.intern("M").unwrap();
        assume(&mut s, "N", n0, n0 + up);
        assume(&mut s, "M", 2, 2);
        let (Some(first), Some(second)) = (sym_view(&c.first, &mut s), sym_view(&c.second, &mut s)) else {
            return Ok(());
        };
        let r = checked_merge(&first, &second, &s);
        needs_decide(&first, &second, &s, &r);
        // Fixed: the exact concrete merge, never a refusal.
        let mut fixed = s.clone();
        assume(&mut fixed, "N", n0, n0);
        let exact = merge(&first, &second, &fixed).unwrap();
        let (f, g) = (first.bind(&[n0, 2]).unwrap(), second.bind(&[n0, 2]).unwrap());
        prop_assert_eq!(exact.is_some(), hlayout::merge(&f, &g).unwrap().is_some());
        if let Ok(Some(v)) = r {
            prop_assert!(exact.is_some(), "symbolic {} but no concrete view", v.show(&s));
        }
    }
}

/// How many random cases the symbolic merge answers, against how many have
/// a view at every binding (printed; every answer is checked).
#[test]
fn merge_census() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let (mut answered, mut none, mut refused, mut exist_everywhere) = (0, 0, 0, 0);
    for _ in 0..1500 {
        let c = case().new_tree(&mut runner).unwrap().current();
        let mut s = Symbols::new();
        s.intern("N").unwrap();
        s.intern("M").unwrap();
        assume(&mut s, "N", c.n.0, c.n.1);
        assume(&mut s, "M", c.m.0, c.m.1);
        let (Some(first), Some(second)) = (sym_view(&c.first, &mut s), sym_view(&c.second, &mut s))
        else {
            continue;
        };
        let everywhere = bindings(&s).iter().all(|b| {
            let (f, g) = (first.bind(b).unwrap(), second.bind(b).unwrap());
            hlayout::merge(&f, &g).unwrap().is_some()
        });
        exist_everywhere += usize::from(everywhere);
        match checked_merge(&first, &second, &s) {
            Ok(Some(_)) => answered += 1,
            Ok(None) => none += 1,
            Err(_) => refused += 1,
        }
    }
    println!(
        "merge census: {answered} answered, {none} none, {refused} refused; \
         {exist_everywhere} have a view at every binding"
    );
    assert!(answered > 0 && answered <= exist_everywhere);
}

// ---------------------------------------------------------------------------
// Flatten.

/// Flatten checked against the concrete flatten at every binding.
fn checked_flatten(
    l: &SymLayout,
    s: &Symbols,
) -> Result<Result<SymFlatView, hlayout::symbolic::SymFlattenReport>, Error> {
    let r = l.flatten(s);
    for b in bindings(s) {
        let c: Layout = l.bind(s, &b).unwrap();
        match (&r, c.flatten()) {
            (Ok(Ok(v)), Ok(cv)) => {
                let bound: FlatView = v.bind(&b).unwrap();
                assert_eq!(bound.shape(), cv.shape(), "at {b:?}");
                assert_eq!(eval_all(&bound), eval_all(&cv), "at {b:?}: {}", v.show(s));
            }
            (Ok(Err(_)), Err(_)) | (Err(Error::NeedsFacts { .. }), _) => {}
            (Ok(x), y) => panic!("at {b:?}: symbolic {x:?} but concrete {y:?} for {c}"),
            (Err(e), _) => panic!("unexpected error {e}"),
        }
    }
    r
}

#[test]
fn flatten_cases() {
    let mut s = Symbols::new();
    assume(&mut s, "N", 1, 9);
    let l = SymLayout::parse("(N,(4,8)):(32,(8,1))", &mut s).unwrap();
    let v = checked_flatten(&l, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(N, 32), strides=(32, 1), offset=0, mask=None)"
    );
    let t = SymLayout::parse("((N,4)):((1,N))", &mut s).unwrap();
    match checked_flatten(&t, &s) {
        Err(Error::NeedsFacts { needs, .. }) => assert_eq!(needs, ["N >= 2"]),
        other => panic!("{other:?}"),
    }
    assume(&mut s, "N", 2, 9);
    let r = checked_flatten(&t, &s).unwrap().unwrap_err();
    assert_eq!(
        r.show(&s).to_string(),
        "mode 0 (N,4):(1,N) is not one stride: it needs i//4 and i%4"
    );
    // A batch of B sequences of S tokens of 64: ordinary whatever B and S.
    let mut s = Symbols::new();
    assume(&mut s, "B", 1, 4);
    assume(&mut s, "S", 1, 6);
    let l = SymLayout::parse("((B,S),64):((64*S,64),1)", &mut s).unwrap();
    let v = checked_flatten(&l, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(B*S, 64), strides=(64, 1), offset=0, mask=None)"
    );
}

/// A random layout text over `N`, nested one level.
fn sym_layout_text() -> impl Strategy<Value = String> {
    let leaf = (extent(), num(true));
    let mode = prop::collection::vec(leaf, 1..=3);
    prop::collection::vec(mode, 1..=3).prop_map(|modes| {
        let part = |pick: &dyn Fn(&(String, String)) -> String| {
            let ms: Vec<String> = modes
                .iter()
                .map(|m| {
                    let ls: Vec<String> = m.iter().map(pick).collect();
                    format!("({})", ls.join(","))
                })
                .collect();
            format!("({})", ms.join(","))
        };
        format!("{}:{}", part(&|l| l.0.clone()), part(&|l| l.1.clone()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(400)))]

    /// Ordinary only where every binding is, the report only where none is.
    #[test]
    fn random_flattens_are_right_at_every_binding(text in sym_layout_text(), n0 in 1i64..=3, up in 0i64..=3) {
        let mut s = Symbols::new();
        s.intern("N").unwrap();
        s.intern("M").unwrap();
        assume(&mut s, "N", n0, n0 + up);
        assume(&mut s, "M", 1, 3);
        if let Ok(l) = SymLayout::parse(&text, &mut s) {
            let _ = checked_flatten(&l, &s);
        }
    }
}

/// A hostile number: an extreme coefficient times a power of `N`.
fn hostile_num() -> impl Strategy<Value = hlayout::symbolic::Poly> {
    let c = prop_oneof![
        Just(i64::MAX),
        Just(i64::MIN + 1),
        Just(1i64 << 40),
        Just(-(1i64 << 40)),
        -3i64..=3,
    ];
    (c, 0usize..=3, -2i64..=2).prop_map(|(c, d, k)| {
        let mut p = hlayout::symbolic::Poly::constant(c);
        for _ in 0..d {
            p = p
                .mul(&hlayout::symbolic::Poly::symbol(0))
                .unwrap_or_default();
        }
        p.add(&k.into()).unwrap_or_default()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(300)))]

    /// Extreme coefficients and degrees give an answer or an error, never a
    /// panic or a wrapped value (every answer is still checked at a binding).
    #[test]
    fn hostile_numbers_never_panic(
        parts in prop::collection::vec(hostile_num(), 8),
        n in 1i64..=3,
        wide in any::<bool>(),
    ) {
        let mut s = Symbols::new();
        let max = if wide { i64::from(i32::MAX) } else { n + 2 };
        assume(&mut s, "N", n, max);
        let v = |a: usize| SymFlatView::new(
            vec![parts[a].clone(), 2.into()],
            vec![parts[a + 1].clone(), parts[a + 2].clone()],
            parts[a + 3].clone(),
            None,
            &s,
        );
        if let (Ok(first), Ok(second)) = (v(0), v(4)) {
            if let Ok(Some(m)) = merge(&first, &second, &s) {
                let b = [n];
                if let (Ok(f), Ok(g), Ok(mb)) = (first.bind(&b), second.bind(&b), m.bind(&b)) {
                    if f.size() <= 4096 && g.size() <= 4096 {
                        prop_assert_eq!(eval_all(&mb), composed(&f, &g));
                    }
                }
            }
        }
    }
}

#[test]
fn tinygrad_symbolic_view_pairs() {
    // test_merge_view_recursion_err / _err2 (tinygrad 0.10.3
    // test_symbolic_shapetracker.py): a broadcast buffer read once, and read
    // through a full mask (tinygrad answers None; the exact answer is a view).
    let mut s = Symbols::new();
    assume(&mut s, "j", 1, 10);
    let first = view(&["j"], &["0"], "0", None, &mut s);
    let second = view(&["1"], &["0"], "0", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(1,), strides=(0,), offset=0, mask=None)"
    );
    let second = view(&["j"], &["1"], "0", Some(&[("0", "j")]), &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(j,), strides=(0,), offset=0, mask=None)"
    );
    // test_cat_dim0_strides: a buffer of i rows of 4 padded to i+k rows, read flat.
    let mut s = Symbols::new();
    assume(&mut s, "i", 1, 5);
    assume(&mut s, "k", 1, 5);
    let first = view(
        &["i+k", "4"],
        &["4", "1"],
        "0",
        Some(&[("0", "i"), ("0", "4")]),
        &mut s,
    );
    let second = view(&["4*i+4*k"], &["1"], "0", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(4*i+4*k,), strides=(1,), offset=0, mask=((0, 4*i),))"
    );
    // The rows of the second buffer of the cat, shifted up by i.
    let first = view(
        &["i+k", "4"],
        &["4", "1"],
        "-4*i",
        Some(&[("i", "i+k"), ("0", "4")]),
        &mut s,
    );
    let second = view(&["k", "4"], &["4", "1"], "4*i", None, &mut s);
    let v = checked_merge(&first, &second, &s).unwrap().unwrap();
    assert_eq!(
        v.show(&s).to_string(),
        "View(shape=(k, 4), strides=(4, 1), offset=0, mask=None)"
    );
}

#[test]
fn an_empty_box_names_the_fact_that_decides() {
    // Row 1 of a 3 x M window (the mask keeps columns [1, M)) read through a
    // flipped pair: no view at M = 2, but at M = 1 the window is empty and
    // any view is right. The refusal names `M >= 2`, under which no view
    // exists (the proptest regression of the merge).
    let mut s = Symbols::new();
    assume(&mut s, "N", 1, 1);
    assume(&mut s, "M", 1, 2);
    let first = view(&["2*N", "2"], &["0", "-1"], "0", None, &mut s);
    let mask: &[(&str, &str)] = &[("0", "3"), ("1", "M")];
    let second = view(&["3", "M"], &["-1", "0"], "2", Some(mask), &mut s);
    assert_eq!(refused_with(&first, &second, &s, &["M >= 2"]), None);
    // The other side holds too: at M = 1 nothing is valid, a view answers.
    let mut one = s.clone();
    assume(&mut one, "M", 1, 1);
    assert!(checked_merge(&first, &second, &one).unwrap().is_some());
}

#[test]
fn no_view_is_proved_by_a_witness() {
    // A transposed buffer read in order: three elements across a carry are
    // not affine at any N >= 2 (offsets 3N, 1, N+1), so no view exists.
    let mut s = Symbols::new();
    assume(&mut s, "N", 2, 12);
    let first = view(&["N", "4"], &["1", "N"], "0", None, &mut s);
    let second = view(&["4*N"], &["1"], "0", None, &mut s);
    assert_eq!(checked_merge(&first, &second, &s).unwrap(), None);
    // At N = 1 it is 4:1: refused, not None.
    let mut s = Symbols::new();
    assume(&mut s, "N", 1, 12);
    let first = view(&["N", "4"], &["1", "N"], "0", None, &mut s);
    let second = view(&["4*N"], &["1"], "0", None, &mut s);
    assert!(matches!(
        checked_merge(&first, &second, &s),
        Err(Error::NeedsFacts { .. })
    ));
    // A carry at a symbolic place: rows of N+1 (stride 64) read flat; the
    // offsets N, 64, 65 around the carry are affine only at N = 63.
    let mut s = Symbols::new();
    assume(&mut s, "N", 1, 12);
    let first = view(&["4", "N+1"], &["64", "1"], "0", None, &mut s);
    let second = view(&["2*N+2"], &["1"], "0", None, &mut s);
    assert_eq!(checked_merge(&first, &second, &s).unwrap(), None);
    let mut s = Symbols::new();
    assume(&mut s, "N", 1, 100);
    let first = view(&["4", "N+1"], &["64", "1"], "0", None, &mut s);
    let second = view(&["2*N+2"], &["1"], "0", None, &mut s);
    assert!(matches!(
        checked_merge(&first, &second, &s),
        Err(Error::NeedsFacts { .. })
    ));
}
