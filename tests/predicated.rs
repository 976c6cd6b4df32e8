//! Predicated divides (`Layout::predicated_divide`): a tile that does not
//! divide its extent gives a view over the rounded-up tile count. Checked by
//! brute force at every element of small cases: every valid element is the
//! tile's element of A (the definition `A((complement(B, N), B)(r, t))`, and
//! the unpredicated divide's), every element whose tile index is past the
//! extent is invalid.

use hlayout::algebra::{DivideForm, Tiler};
use hlayout::Layout;
use proptest::prelude::*;

use crate::common::{cases, digits, reference_eval};

const FORMS: [DivideForm; 4] = [
    DivideForm::Logical,
    DivideForm::Zipped,
    DivideForm::Tiled,
    DivideForm::Flat,
];

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

/// The unpredicated divide of that form.
fn plain(a: &Layout, t: &Tiler, form: DivideForm) -> Layout {
    match (form, t) {
        (DivideForm::Logical, Tiler::Layout(b)) => a.logical_divide(b),
        (DivideForm::Logical, Tiler::Modes(ts)) => a.logical_divide_by(ts),
        (DivideForm::Zipped, t) => a.zipped_divide(t),
        (DivideForm::Tiled, t) => a.tiled_divide(t),
        (DivideForm::Flat, t) => a.flat_divide(t),
    }
    .unwrap()
}

/// Checks the predicated divide at every element against the definition;
/// returns the number of valid elements.
fn check(a: &Layout, t: &Tiler, form: DivideForm) -> i64 {
    let v = a.predicated_divide(t, form).unwrap();
    let r = plain(a, t, form);
    assert_eq!(v.size(), r.size(), "{a} / {t:?}");
    // The divided pieces: (mode of A, tile, its complement), and the kept modes.
    let (kept, pieces): (Vec<Layout>, Vec<(Layout, Layout, Layout)>) = match t {
        Tiler::Layout(b) => (
            vec![],
            vec![(a.clone(), b.clone(), b.complement(a.size()).unwrap())],
        ),
        Tiler::Modes(ts) => {
            let modes: Vec<Layout> = a.modes().collect();
            let skip = modes.len() - ts.len();
            let p = modes[skip..]
                .iter()
                .zip(ts)
                .map(|(m, b)| (m.clone(), b.clone(), b.complement(m.size()).unwrap()))
                .collect();
            (modes[..skip].to_vec(), p)
        }
    };
    // The radices of R's flat index: kept modes, then rests and tiles.
    let interleave = form == DivideForm::Logical && matches!(t, Tiler::Modes(_));
    let mut radix: Vec<i64> = kept.iter().map(Layout::size).collect();
    if interleave {
        for (_, b, c) in &pieces {
            radix.extend([c.size(), b.size()]);
        }
    } else {
        radix.extend(pieces.iter().map(|(_, _, c)| c.size()));
        radix.extend(pieces.iter().map(|(_, b, _)| b.size()));
    }
    let shape = v.shape();
    let mut valid = 0;
    for i in 0..r.size() {
        let d = exact_digits(i, &radix);
        let (mut want, mut ok) = (0i64, true);
        for (m, k) in kept.iter().zip(&d) {
            want += reference_eval(m, *k);
        }
        for (p, (m, b, c)) in pieces.iter().enumerate() {
            let (rest, tile) = if interleave {
                (d[kept.len() + 2 * p], d[kept.len() + 2 * p + 1])
            } else {
                (d[kept.len() + p], d[kept.len() + pieces.len() + p])
            };
            let x = reference_eval(c, rest) + reference_eval(b, tile);
            ok &= (0..m.size()).contains(&x);
            if ok {
                want += reference_eval(m, x);
            }
        }
        let got = v.eval(&exact_digits(i, &shape)).unwrap();
        if ok {
            valid += 1;
            assert_eq!(got, Some(want), "{a} / {t:?} {form:?} at {i}: {v}");
            assert_eq!(got, Some(r.eval(i).unwrap()), "{a} / {t:?} {form:?} at {i}");
        } else {
            assert_eq!(got, None, "{a} / {t:?} {form:?} at {i}: {v}");
        }
    }
    valid
}

/// Row-major digits of `0 <= i < Π radix` (each digit below its radix).
fn exact_digits(i: i64, radix: &[i64]) -> Vec<i64> {
    let mut d = digits(i, radix);
    if let Some(first) = d.first_mut() {
        assert!(*first < radix[0]);
    }
    d.truncate(radix.len());
    d
}

#[test]
fn ten_by_four_is_three_tiles_the_last_half_valid() {
    let a = l("10:1");
    let t = Tiler::Layout(l("4:1"));
    for form in FORMS {
        assert_eq!(check(&a, &t, form), 10, "{form:?}");
    }
    let v = a.predicated_divide(&t, DivideForm::Logical).unwrap();
    assert_eq!(v.shape(), vec![3, 4]);
    let valid: Vec<bool> = (0..4).map(|t| v.eval(&[2, t]).unwrap().is_some()).collect();
    assert_eq!(valid, [true, true, false, false]);
}

#[test]
fn named_cases_at_every_element() {
    let cases: &[(&str, Tiler)] = &[
        ("10:1", Tiler::Layout(l("4:2"))),
        ("10:1", Tiler::Layout(l("16:1"))),
        ("(10,6):(6,1)", Tiler::Layout(l("8:1"))),
        ("(10,6):(1,10)", Tiler::Modes(vec![l("4:1"), l("4:1")])),
        ("(10,7):(7,1)", Tiler::Modes(vec![l("3:1")])),
        (
            "(5,10,7):(70,7,1)",
            Tiler::Modes(vec![l("(2,2):(1,2)"), l("4:2")]),
        ),
        ("12:1", Tiler::Layout(l("(2,2):(1,4)"))),
        ("(9,4):(4,1)", Tiler::Modes(vec![l("2:4"), l("4:1")])),
        ("(6,4):(4,1)", Tiler::Layout(l("4:1"))), // divisible: no constraint
    ];
    for (a, t) in cases {
        for form in FORMS {
            check(&l(a), t, form);
        }
    }
    let exact = l("(6,4):(4,1)")
        .predicated_divide(&Tiler::Layout(l("4:1")), DivideForm::Logical)
        .unwrap();
    assert!(exact.constraints().is_empty(), "{exact}");
}

#[test]
fn constraints_say_which_tiles_read_past_the_end() {
    let a = l("(10,6):(6,1)");
    let t = Tiler::Modes(vec![l("4:1"), l("4:1")]);
    let v = a.predicated_divide(&t, DivideForm::Zipped).unwrap();
    assert_eq!(v.shape(), vec![6, 16]);
    assert_eq!(v.constraints().len(), 2, "{v}");
    assert_eq!(
        v.to_string(),
        "((3,2),(4,4)):((24,4),(6,1)) if 0<=4*x1+x3<6 && 0<=4*x0+x2<10"
    );
}

#[test]
fn refusals_are_the_unpredicated_divides() {
    // A composed with the rounded-up tiling is no layout: the divide's error.
    let a = l("(3,4):(1,3)");
    let t = Tiler::Layout(l("5:1"));
    let want = a.logical_divide(&l("5:1")).unwrap_err();
    assert_eq!(
        a.predicated_divide(&t, DivideForm::Logical).unwrap_err(),
        want
    );
    let long = Tiler::Modes(vec![l("2:1"), l("2:1")]);
    assert!(l("10:1")
        .predicated_divide(&long, DivideForm::Zipped)
        .is_err());
}

/// A small 1-D or 2-D layout and a tiler with tiles of 1..=6 that need not divide.
fn case() -> impl Strategy<Value = (Layout, Tiler)> {
    let tile = (1i64..=6, 1i64..=3, prop::bool::ANY).prop_map(|(n, s, two)| {
        if two && n > 1 {
            l(&format!("(2,{n}):({},{s})", n * s))
        } else {
            l(&format!("{n}:{s}"))
        }
    });
    let a1 = (1i64..=20, 1i64..=3).prop_map(|(n, s)| l(&format!("{n}:{s}")));
    let a2 = (1i64..=9, 1i64..=9, prop::bool::ANY).prop_map(|(m, n, col)| {
        if col {
            l(&format!("({m},{n}):(1,{m})"))
        } else {
            l(&format!("({m},{n}):({n},1)"))
        }
    });
    let single = (a1, tile.clone()).prop_map(|(a, b)| (a, Tiler::Layout(b)));
    let modes = (a2, tile.clone(), prop::option::of(tile))
        .prop_map(|(a, b, c)| (a, Tiler::Modes(std::iter::once(b).chain(c).collect())));
    prop_oneof![single, modes]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(300)))]

    #[test]
    fn predicated_divides_agree_with_the_definition((a, t) in case()) {
        for form in FORMS {
            let plain_ok = match (form, &t) {
                (DivideForm::Logical, Tiler::Layout(b)) => a.logical_divide(b).is_ok(),
                (DivideForm::Logical, Tiler::Modes(ts)) => a.logical_divide_by(ts).is_ok(),
                (DivideForm::Zipped, t) => a.zipped_divide(t).is_ok(),
                (DivideForm::Tiled, t) => a.tiled_divide(t).is_ok(),
                (DivideForm::Flat, t) => a.flat_divide(t).is_ok(),
            };
            let got = a.predicated_divide(&t, form);
            prop_assert_eq!(got.is_ok(), plain_ok, "{} / {:?}: {:?}", a, t, got);
            if plain_ok {
                check(&a, &t, form);
            }
        }
    }
}

#[test]
fn hostile_sizes_are_errors_and_negative_tiles_are_exact() {
    let big = l("9223372036854775807:1");
    let r = big.predicated_divide(&Tiler::Layout(l("2:1")), DivideForm::Logical);
    assert!(matches!(r, Err(hlayout::Error::Overflow { .. })), "{r:?}");
    let wide = l("(3037000499,3037000499):(3037000499,1)");
    let t = Tiler::Modes(vec![l("7:1"), l("1000000007:3")]);
    assert!(wide.predicated_divide(&t, DivideForm::Flat).is_err());
    // A tile with a negative stride reads backwards from each tile origin (the
    // plain divide's meaning): valid exactly where it reads an element of A.
    for form in FORMS {
        check(&l("10:1"), &Tiler::Layout(l("4:-1")), form);
        check(
            &l("(7,5):(5,1)"),
            &Tiler::Modes(vec![l("3:-2"), l("2:1")]),
            form,
        );
    }
}
