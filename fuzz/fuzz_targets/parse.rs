//! Layout, tuple and composed-layout text: parsing never panics; whatever
//! parses prints back to text that parses to the same value (the printer's
//! round trip, in the row-major and CuTe notations); and on small layouts
//! every query is checked against the definition: `L(i)` is the inner
//! product of i's row-major coordinate over the leaves with the strides, and
//! `eval`, `offsets`, `coalesce`, `flatten` and the composed layout's
//! `eval`/`offsets` all agree with it at every index.
#![no_main]

#[path = "../../tests/common/oracle.rs"]
mod oracle;

use hlayout::algebra::ComposedLayout;
use hlayout::{IntTuple, Layout, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(t) = text.parse::<IntTuple>() {
        let again: IntTuple = t.to_string().parse().expect("a printed tuple parses");
        assert_eq!(again, t);
    }
    if let Ok(l) = text.parse::<Layout>() {
        layout(&l);
    }
    if let Ok(c) = text.parse::<ComposedLayout>() {
        composed(&c);
    }
});

fn layout(l: &Layout) {
    let again: Layout = l.to_string().parse().expect("a printed layout parses");
    assert_eq!(&again, l);
    let cute = Layout::from_cute(&l.to_cute()).expect("CuTe text of a layout parses");
    assert_eq!(&cute, l, "CuTe round trip");
    // The parser bounds nesting; only the rank limit can refuse a parsed layout.
    assert!(Limits::default().check_layout(l).is_ok() || l.shape_leaves().len() > 64);
    // Outside the domain: a value or a typed error, never a panic.
    for i in [-1, l.size(), i64::MAX, i64::MIN] {
        let _ = l.eval(i);
    }
    let (c, flat) = (l.coalesce(), l.flatten());
    let _ = l.cosize();
    if l.size() > oracle::SMALL {
        return;
    }
    let want = oracle::values(l);
    let got: Vec<i64> = (0..l.size()).map(|i| l.eval(i).expect("in domain")).collect();
    assert_eq!(got, want, "{l}: eval");
    assert_eq!(l.offsets().collect::<Vec<_>>(), want, "{l}: offsets");
    assert!(c.rank() <= l.shape_leaves().len().max(1));
    assert_eq!(oracle::values(&c), want, "{l}: coalesce {c}");
    if let Ok(v) = flat {
        // The plain view over the top-level shape, at every coordinate.
        let shape: Vec<i64> = l.modes().map(|m| m.size()).collect();
        assert_eq!(v.shape(), &shape[..], "{l}: flatten shape");
        for (i, &w) in want.iter().enumerate() {
            let crd = oracle::unravel(i as i64, &shape);
            assert_eq!(v.eval(&crd).expect("in range"), Some(w), "{l}: flatten at {i}");
        }
    }
}

fn composed(c: &ComposedLayout) {
    let again: ComposedLayout = c.to_string().parse().expect("printed composed text parses");
    assert_eq!(&again, c);
    for i in [-1, c.size(), i64::MAX, i64::MIN] {
        let _ = c.eval(i);
    }
    if c.size() > oracle::SMALL {
        return;
    }
    let want: Vec<i64> = oracle::values(c.layout())
        .into_iter()
        .map(|x| c.swizzle().apply(c.offset() + x))
        .collect();
    let got: Vec<i64> = (0..c.size()).map(|i| c.eval(i).expect("in domain")).collect();
    assert_eq!(got, want, "{c}: eval");
    assert_eq!(c.offsets().collect::<Vec<_>>(), want, "{c}: offsets");
}
