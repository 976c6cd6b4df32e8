//! The batch protocol's stream on arbitrary bytes (seeded with real
//! requests, `seed.sh`, and `batch.dict`): never a panic; exactly one reply
//! line per non-blank input line, each a JSON object, an error being
//! `{"error": non-empty string}` alone, or with `"needs"`, a list of
//! non-empty fact texts (a symbolic refusal); the stream stays in sync (reply k is
//! the reply to line k answered on its own); and where an oracle is cheap the
//! answer is checked against the definition: `eval` lists `L(i)` for every
//! i, `coalesce` is the same function, `compose` is `A(B(i))` at every index.
#![no_main]

#[path = "../../tests/common/oracle.rs"]
mod oracle;

use hlayout::{Layout, Limits};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Offsets per reply kept small so that each run is fast.
const LIMITS: Limits = Limits { max_reply_elements: 1 << 12, ..Limits::DEFAULT };

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    hlayout_cli::batch::run_with(data, &mut out, &LIMITS).expect("writing to a Vec cannot fail");
    let lines: Vec<&[u8]> =
        data.split(|&c| c == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace)).collect();
    let text = std::str::from_utf8(&out).expect("replies are UTF-8");
    assert!(text.is_empty() || text.ends_with('\n'), "the last reply is a whole line");
    let replies: Vec<&str> = text.lines().collect();
    assert_eq!(replies.len(), lines.len(), "{text}");
    for (line, reply) in lines.iter().zip(&replies) {
        let mut alone = Vec::new();
        hlayout_cli::batch::respond_to(line, &LIMITS, &mut alone).expect("a Vec");
        assert_eq!(alone, format!("{reply}\n").as_bytes(), "reply out of sync");
        let v: Value = serde_json::from_str(reply).expect("each reply is JSON");
        let obj = v.as_object().expect("each reply is an object");
        if let Some(e) = obj.get("error") {
            // A symbolic refusal also names the facts that would help.
            let needs = obj.get("needs").map(|n| {
                n.as_array().is_some_and(|a| a.iter().all(|f| f.as_str().is_some_and(|f| !f.is_empty())))
            });
            let fields = 1 + usize::from(needs.is_some());
            assert!(
                e.as_str().is_some_and(|e| !e.is_empty()) && obj.len() == fields && needs != Some(false),
                "{reply}"
            );
            continue;
        }
        let req: Value = serde_json::from_slice(line).expect("a request that was answered is JSON");
        check(&req, obj);
    }
});

fn field(req: &Value, name: &str) -> Option<Layout> {
    req.get(name)?.as_str()?.parse().ok()
}

fn values_of(v: &Value) -> Vec<i64> {
    v.as_array().expect("a list").iter().map(|x| x.as_i64().expect("an i64")).collect()
}

/// The answer checked against the definition, where that is cheap.
fn check(req: &Value, reply: &serde_json::Map<String, Value>) {
    let op = req["op"].as_str().expect("answered requests have an op");
    let small = |l: &Layout| l.size() <= oracle::SMALL;
    match op {
        "eval" => {
            if let Some(l) = field(req, "layout") {
                assert_eq!(values_of(&reply["offsets"]), oracle::values(&l), "eval {l}");
            }
        }
        "coalesce" => {
            let (Some(l), Some(r)) = (field(req, "layout"), reply["layout"].as_str()) else { return };
            let r: Layout = r.parse().expect("the reply's layout parses");
            if small(&l) {
                assert_eq!(oracle::values(&r), oracle::values(&l), "coalesce {l} = {r}");
            }
        }
        "compose" => {
            let (Some(a), Some(b)) = (field(req, "a"), field(req, "b")) else { return };
            let r: Layout = reply["layout"].as_str().expect("a layout").parse().expect("parses");
            if small(&b) {
                assert_eq!(Some(oracle::values(&r)), oracle::composed(&a, &b), "{a} o {b} = {r}");
            }
        }
        _ => {}
    }
}
