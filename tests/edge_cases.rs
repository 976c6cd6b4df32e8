//! Named edge cases of the foundation. Each opens with its invariant and witness.

use hlayout::tuple::{crd2idx, idx2crd};
use hlayout::{Error, IntTuple, Layout, MAX_DEPTH};

fn l(text: &str) -> Layout {
    text.parse().unwrap()
}

fn t(text: &str) -> IntTuple {
    text.parse().unwrap()
}

fn all(layout: &Layout) -> Vec<i64> {
    (0..layout.size())
        .map(|i| layout.eval(i).unwrap())
        .collect()
}

#[test]
fn pr_3988_example_is_six_in_row_major_order() {
    // Invariant: crd2idx is row-major. Witness: tinygrad PR #3988 says 7; (1,(1,0)) in (2,(2,2)) is 4+2+0 = 6.
    assert_eq!(crd2idx(&t("(1,(1,0))"), &t("(2,(2,2))")).unwrap(), 6);
    assert_eq!(idx2crd(7, &t("(2,4)")).unwrap().to_string(), "(1,3)");
    assert_eq!(crd2idx(&t("(1,3)"), &t("(2,(2,2))")).unwrap(), 7);
}

#[test]
fn pr_3988_hierarchical_layout_offsets() {
    // Invariant: nested evaluation. Witness: (2,(2,2)):(2,(1,4)) lays out 0 4 1 5 / 2 6 3 7.
    assert_eq!(all(&l("(2,(2,2)):(2,(1,4))")), [0, 4, 1, 5, 2, 6, 3, 7]);
    assert_eq!(
        l("(2,(2,2)):(2,(1,4))").eval_crd(&t("(1,(1,0))")).unwrap(),
        3
    );
}

#[test]
fn size_one_modes_vanish_in_coalesce() {
    // Invariant: extent-1 leaves contribute nothing. Witness: (1,(4,1)):(99,(1,7)) is 4:1.
    assert_eq!(l("(1,(4,1)):(99,(1,7))").coalesce().to_string(), "4:1");
    assert_eq!(l("(1,1):(5,6)").coalesce().to_string(), "1:0");
}

#[test]
fn zero_strides_broadcast_and_merge() {
    // Invariant: stride-0 leaves repeat offsets; adjacent zero strides merge. Witness: (2,3):(0,0) -> 6:0.
    assert_eq!(all(&l("(2,3):(0,1)")), [0, 1, 2, 0, 1, 2]);
    assert_eq!(l("(2,3):(0,0)").coalesce().to_string(), "6:0");
    assert_eq!(l("(2,3):(0,1)").filter().to_string(), "3:1");
    assert_eq!(l("(2,3):(0,1)").cosize(), 3);
}

#[test]
fn negative_strides_count_in_cosize() {
    // Invariant: cosize = max - min + 1. Witness: (3,4):(-4,1) spans -8..=3, 12 offsets.
    let n = l("(3,4):(-4,1)");
    assert_eq!(n.offset_range(), (-8, 3));
    assert_eq!(n.cosize(), 12);
    assert_eq!(all(&n)[4], -4);
    assert_eq!(l("(3,4):(-4,-1)").coalesce().to_string(), "12:-1");
}

#[test]
fn empty_tuple_is_rank_zero_size_one() {
    // Invariant: the empty product is 1. Witness: ():() has rank 0, size 1, L(0) = 0, no L(1).
    let e = l("():()");
    assert_eq!((e.rank(), e.size(), e.depth(), e.cosize()), (0, 1, 1, 1));
    assert_eq!(e.eval(0).unwrap(), 0);
    assert!(matches!(e.eval(1), Err(Error::OutOfDomain { .. })));
    assert_eq!(e.coalesce().to_string(), "1:0");
    assert_eq!(e.flatten().unwrap().shape(), &[] as &[i64]);
    assert_eq!(t("()").size().unwrap(), 1);
    assert_eq!(crd2idx(&t("()"), &t("()")).unwrap(), 0);
}

#[test]
fn past_the_domain_first_leaf_takes_the_quotient() {
    // Invariant: L is defined on all i >= 0. Witness: the protocol's (2,3):(10,1) at 7 is 21.
    assert_eq!(l("(2,3):(10,1)").eval(7).unwrap(), 21);
    assert_eq!(l("((2,2),3):((20,10),1)").eval(13).unwrap(), 41);
}

#[test]
fn overflow_is_an_error_not_a_wrap() {
    // Invariant: checked arithmetic. Witness: 2^32 x 2^32 elements overflow i64's size.
    let big = 1i64 << 32;
    assert!(matches!(
        Layout::flat(&[big, big], &[1, 1]),
        Err(Error::Overflow { .. })
    ));
    assert!(matches!(
        Layout::flat(&[3], &[i64::MAX]),
        Err(Error::Overflow { .. })
    ));
    assert!(matches!(
        Layout::flat(&[2], &[i64::MIN]),
        Err(Error::Overflow { .. })
    ));
    assert!(matches!(
        Layout::flat(&[2], &[i64::MAX]),
        Err(Error::Overflow {
            what: "cosize of layout"
        })
    ));
    assert_eq!(
        Layout::flat(&[2], &[i64::MAX - 1]).unwrap().cosize(),
        i64::MAX
    );
    let wide = Layout::flat(&[2], &[1 << 61]).unwrap();
    assert!(matches!(wide.eval(8), Err(Error::Overflow { .. })));
    // The integer extension: floor digits, the outermost leaf keeps the quotient.
    assert_eq!(l("4:1").eval(-1).unwrap(), -1);
    assert_eq!(l("((4,2),1):((512,-1),0)").eval(-1).unwrap(), -513);
    assert!(matches!(wide.eval(-8), Err(Error::Overflow { .. })));
}

#[test]
fn non_positive_extents_are_rejected() {
    // Invariant: layouts need extents >= 1. Witness: (2,0):(1,1) names leaf 1 and extent 0.
    assert_eq!(
        "(2,0):(1,1)".parse::<Layout>().unwrap_err(),
        Error::NonPositiveExtent { leaf: 1, extent: 0 }
    );
    assert!("-3:1".parse::<Layout>().is_err());
}

#[test]
fn parse_errors_name_position_and_expectation() {
    // Invariant: malformed text says where and what. Witness: each text below.
    let cases = [
        ("(2,3", 4, "',' or ')'"),
        ("(2,3):(1,", 9, "an integer or '('"),
        ("(2,3)(1,1)", 5, "':' between shape and stride"),
        ("(2,,3):(1,1,1)", 3, "an integer or '('"),
        ("8:1 x", 4, "end of input"),
        ("99999999999999999999:1", 0, "an integer that fits in i64"),
        ("-:1", 1, "a digit"),
    ];
    for (text, pos, expected) in cases {
        match text.parse::<Layout>() {
            Err(Error::Parse {
                pos: p,
                expected: e,
                ..
            }) => {
                assert_eq!((p, e), (pos, expected), "{text}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    assert!(matches!(
        "(2,3):(1,2,3)".parse::<Layout>(),
        Err(Error::NotCongruent { .. })
    ));
}

#[test]
fn deep_nesting_is_refused_without_recursion() {
    // Invariant: no input exhausts the stack. Witness: 100000 open brackets give TooDeep.
    let text = "(".repeat(100_000);
    assert!(matches!(
        text.parse::<IntTuple>(),
        Err(Error::TooDeep { .. })
    ));
    let ok = format!("{}1{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
    assert_eq!(ok.parse::<IntTuple>().unwrap().depth(), MAX_DEPTH);
}

#[test]
fn flatten_reports_the_transpose_flatten() {
    // Invariant: flatten names each mode needing div/mod. Witness: tinygrad PR #3988's ((10,10)):((1,10)).
    let report = l("((10,10)):((1,10))").flatten().unwrap_err();
    assert_eq!(
        report.to_string(),
        "mode 0 (10,10):(1,10) is not one stride: it needs i//10 and i%10"
    );
    let v = l("((5,2),(5,2)):((2,1),(20,10))").flatten().unwrap();
    assert_eq!((v.shape(), v.strides()), (&[10, 10][..], &[1, 10][..]));
}

#[test]
fn crd2idx_rejects_bad_coordinates() {
    // Invariant: coordinates must be compatible and in range. Witness: (4,2) vs (2,(2,2)); 8 in 8 elements.
    assert!(matches!(
        crd2idx(&t("(1,(1,1,1))"), &t("(2,(2,2))")),
        Err(Error::NotCompatible { .. })
    ));
    assert!(matches!(
        crd2idx(&t("8"), &t("(2,(2,2))")),
        Err(Error::OutOfDomain { .. })
    ));
    assert!(matches!(
        crd2idx(&t("(0,(2,0))"), &t("(2,(2,2))")),
        Err(Error::OutOfDomain { .. })
    ));
    assert!(matches!(
        crd2idx(&t("(0,-1)"), &t("(2,4)")),
        Err(Error::OutOfDomain { .. })
    ));
}

#[test]
fn near_overflow_strides_stream_and_coalesce() {
    // Invariant: no intermediate leaves i64 when the span fits. Witness: stride 2^62 with extent 2,
    // whose extent·stride (2^63) does not fit although every offset does.
    let big = 1i64 << 62;
    let l = Layout::flat(&[2], &[big]).unwrap();
    assert_eq!(l.offsets().collect::<Vec<_>>(), [0, big]);
    let mut buf = [0i64; 2];
    l.offsets().fill(&mut buf);
    assert_eq!(buf, [0, big]);
    let two = Layout::flat(&[2, 2], &[1, big]).unwrap();
    assert_eq!(two.coalesce().to_string(), format!("(2,2):(1,{big})"));
    assert_eq!(two.offsets().collect::<Vec<_>>(), [0, big, 1, big + 1]);
    let s = hlayout::ViewStack::from_layout(&two)
        .pad(&[(0, 1), (0, 0)])
        .unwrap();
    let all: Vec<Option<i64>> = s.offsets().collect();
    assert_eq!(
        all,
        [Some(0), Some(big), Some(1), Some(big + 1), None, None]
    );
}

#[test]
fn every_error_variant_is_produced_by_a_public_call() {
    // Invariant: each variant of `Error` (read from src/error.rs) is what some public
    // call answers, so none is dead (issue 21: `NegativeIndex` was, and went). Witness:
    // one call per variant, checked to give exactly that variant.
    use hlayout::algebra::Swizzle;
    use hlayout::tuple::common_refinement;
    use hlayout::{FlatView, Limits, ViewStack};
    let source = include_str!("../src/error.rs");
    let body = &source[source.find("pub enum Error {").unwrap()..];
    let body = &body[..body.find("\n}\n").unwrap()];
    let variants: Vec<&str> = body
        .lines()
        .filter_map(|line| line.strip_prefix("    ")?.strip_suffix(" {"))
        .filter(|name| name.chars().all(char::is_alphanumeric))
        .collect();
    let g = l("(2,3):(3,1)");
    let deep = format!("{}1{}", "(".repeat(70), ")".repeat(70));
    let triggers: Vec<(&str, Error)> = vec![
        ("Parse", "(2,3:(1,2)".parse::<Layout>().unwrap_err()),
        (
            "NotCongruent",
            "(2,3):(1,2,3)".parse::<Layout>().unwrap_err(),
        ),
        (
            "NonPositiveExtent",
            "(2,0):(1,1)".parse::<Layout>().unwrap_err(),
        ),
        (
            "Overflow",
            Layout::flat(&[1 << 32, 1 << 32], &[1, 1]).unwrap_err(),
        ),
        ("OutOfDomain", g.eval_crd(&t("(2,0)")).unwrap_err()),
        ("NotCompatible", g.eval_crd(&t("(1,2,3)")).unwrap_err()),
        (
            "SizeMismatch",
            common_refinement(&t("(2,3)"), &t("7")).unwrap_err(),
        ),
        (
            "NoCommonRefinement",
            common_refinement(&t("(6,4)"), &t("(4,6)")).unwrap_err(),
        ),
        ("ModeOutOfRange", g.mode(2).unwrap_err()),
        ("ProfileTooLong", g.coalesce_by(&t("(1,1,1)")).unwrap_err()),
        ("TooDeep", deep.parse::<Layout>().unwrap_err()),
        (
            "BadMovement",
            ViewStack::new(&[2, 3]).unwrap().reshape(&[7]).unwrap_err(),
        ),
        (
            "InvalidView",
            FlatView::new(vec![2, 3], vec![1], 0, None).unwrap_err(),
        ),
        (
            "NoComposition",
            l("(2,6):(7,1)").compose(&l("(2,3):(3,2)")).unwrap_err(),
        ),
        (
            "BudgetExceeded",
            l("(82,37):(910,892)").left_inverse().unwrap_err(),
        ),
        (
            "LimitExceeded",
            Limits::default().check_rank(1000).unwrap_err(),
        ),
        ("Precondition", Swizzle::new(3, 0, 2).unwrap_err()),
        (
            "UnknownName",
            "stride".parse::<hlayout::MovementKind>().unwrap_err(),
        ),
        ("NeedsFacts", needs_facts()),
    ];
    let named: Vec<&str> = triggers.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        {
            let mut v = variants.clone();
            v.sort_unstable();
            v
        },
        {
            let mut v = named.clone();
            v.sort_unstable();
            v
        }
    );
    for (name, e) in &triggers {
        let debug = format!("{e:?}");
        assert!(debug.starts_with(&format!("{name} {{")), "{name}: {debug}");
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn idx2crd_refuses_negative_extents() {
    // Invariant: idx2crd and crd2idx are inverse on a shape's domain; a negative extent
    // has no domain (the `api` fuzz target: idx2crd(7, (1,-7,-5)) gave (0,-1,2), which
    // crd2idx refuses). Witness: that case and a single negative extent.
    assert!(matches!(
        idx2crd(7, &t("(1,-7,-5)")),
        Err(Error::OutOfDomain { .. })
    ));
    assert!(matches!(
        idx2crd(0, &t("(-1,-1)")),
        Err(Error::OutOfDomain { .. })
    ));
    assert_eq!(idx2crd(7, &t("(1,7,5)")).unwrap().to_string(), "(0,1,2)");
}

/// `(4,N):(1,4) o 4:1` for N in [1, 40]: a layout only when N >= 4.
fn needs_facts() -> Error {
    use hlayout::symbolic::{Assume, SymLayout, Symbols};
    let mut s = Symbols::new();
    let n = Assume {
        min: 1,
        max: 40,
        divisible_by: 1,
    };
    s.assume("N", n).unwrap();
    let b = SymLayout::parse("4:1", &mut s).unwrap();
    let t = SymLayout::parse("(4,N):(1,4)", &mut s).unwrap();
    t.compose(&b, &s).unwrap_err()
}
