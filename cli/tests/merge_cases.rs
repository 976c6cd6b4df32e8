//! Replays `tests/data/merge_pairs.json` and `merge_random.json` through the
//! library and through `hlayout batch`: existence must match exactly, and a merged
//! view must reproduce the composed map (offsets and validity) at every element.
#![allow(clippy::unwrap_used)] // a failing test may panic

use crate::common;

use common::{composed, eval_all, view};
use serde_json::Value;

fn replay(path: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let cases: Value = serde_json::from_str(&text).unwrap();
    let cases = cases.as_array().unwrap();
    let mut failures = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let req = &case["request"];
        let (first, second) = (view(&req["first"]), view(&req["second"]));
        let exists = case["expect"]["single_view_exists"].as_bool().unwrap();
        let truth = composed(&first, &second);
        // Invariant: our reading of the semantics reproduces the recorded map.
        let recorded: Vec<i64> = case["expect"]["composed_index"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_i64().unwrap())
            .collect();
        assert_eq!(
            truth.iter().map(|m| m.unwrap_or(-1)).collect::<Vec<_>>(),
            recorded,
            "{id}"
        );

        let lib = hlayout::merge(&first, &second).unwrap();
        if lib.is_some() != exists {
            failures.push(format!(
                "{id}: library says {}, expected {exists}",
                lib.is_some()
            ));
        }
        if let Some(v) = &lib {
            if eval_all(v) != truth {
                failures.push(format!(
                    "{id}: library view {v:?} differs from the composed map"
                ));
            }
        }

        let reply: Value =
            serde_json::from_str(&hlayout_cli::batch::respond(&req.to_string())).unwrap();
        let merged = reply
            .get("merged")
            .unwrap_or_else(|| panic!("{id}: {reply}"));
        if merged.is_null() == exists {
            failures.push(format!("{id}: batch answered {merged}, expected {exists}"));
        }
        if !merged.is_null() && eval_all(&view(merged)) != truth {
            failures.push(format!(
                "{id}: batch view {merged} differs from the composed map"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    cases.len()
}

#[test]
fn merge_pairs_replay() {
    assert_eq!(replay(&common::data("merge_pairs.json")), 262);
}

#[test]
fn merge_random_replay() {
    assert_eq!(replay(&common::data("merge_random.json")), 1500);
}
