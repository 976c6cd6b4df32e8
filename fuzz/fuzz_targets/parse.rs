//! Layout and tuple text: parsing never panics, and whatever parses prints
//! back to text that parses to the same value (the printer's round trip).
#![no_main]

use hlayout::{IntTuple, Layout};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(l) = text.parse::<Layout>() {
        let again: Layout = l.to_string().parse().expect("a printed layout parses");
        assert_eq!(again, l);
        assert!(hlayout::Limits::default().check_layout(&l).is_ok() || l.shape_leaves().len() > 64);
        // Cheap queries on any valid layout must not panic.
        let _ = (l.size(), l.cosize(), l.coalesce(), l.flatten());
        let _ = l.eval(l.size().saturating_sub(1));
    }
    if let Ok(t) = text.parse::<IntTuple>() {
        let again: IntTuple = t.to_string().parse().expect("a printed tuple parses");
        assert_eq!(again, t);
    }
});
