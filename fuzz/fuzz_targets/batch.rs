//! The batch protocol's line handler on arbitrary bytes: never a panic, and
//! exactly one reply line, valid JSON, per non-empty input line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    hlayout_cli::batch::run(data, &mut out).expect("writing to a Vec cannot fail");
    let requests = data
        .split(|&c| c == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .count();
    let text = std::str::from_utf8(&out).expect("replies are UTF-8");
    let replies: Vec<&str> = text.lines().collect();
    assert_eq!(replies.len(), requests, "{text}");
    for r in replies {
        let v: serde_json::Value = serde_json::from_str(r).expect("each reply is JSON");
        assert!(v.is_object());
    }
});
