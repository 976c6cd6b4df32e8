//! Replays the movement-op chains recorded from tinygrad 0.10.3
//! (`tests/data/tinygrad_chains.json`) through `hlayout batch`.

use crate::common;
use hlayout_cli::batch;
use serde_json::Value;

fn chains() -> Vec<Value> {
    let text = common::read_data("tinygrad_chains.json");
    serde_json::from_str::<Vec<Value>>(&text).expect("chains are a JSON array")
}

#[test]
fn every_chain_is_exact_and_needs_no_more_views_than_tinygrad() {
    let mut fewer = 0;
    let records = chains();
    assert_eq!(records.len(), 165);
    for r in &records {
        let id = &r["id"];
        let out: Value = serde_json::from_str(&batch::respond(&r["request"].to_string())).unwrap();
        let e = &r["expect"];
        assert_eq!(out["offsets"], e["offsets"], "{id}: {}", out["repr"]);
        let (ours, theirs) = (
            out["views"].as_u64().unwrap(),
            e["tinygrad_views_simplified"].as_u64().unwrap(),
        );
        assert!(
            ours <= theirs,
            "{id}: {ours} views, tinygrad {theirs}: {}",
            out["repr"]
        );
        fewer += usize::from(ours < theirs);
        let single_exists = ["single_flat", "single_hier", "single_hier_masked"]
            .iter()
            .any(|k| e[k] == true);
        if single_exists {
            assert_eq!(
                ours, 1,
                "{id}: a single view exists but we keep {}",
                out["repr"]
            );
        }
    }
    // Measured when written: 44 chains need fewer views than tinygrad's simplified count.
    assert!(fewer >= 44, "only {fewer} chains beat tinygrad");
}

#[test]
fn stacks_remain_only_where_no_single_view_exists() {
    // Invariant: a stack is kept only when every oracle says no single view exists.
    // Witness: tinygrad PR #3988's (10,10) transposed, flattened, then split (4,25).
    for r in chains() {
        let out: Value = serde_json::from_str(&batch::respond(&r["request"].to_string())).unwrap();
        if out["views"].as_u64().unwrap() > 1 {
            let e = &r["expect"];
            assert!(
                e["single_flat"] == false
                    && e["single_hier"] == false
                    && e["single_hier_masked"] == false,
                "{}",
                r["id"]
            );
        }
    }
}
