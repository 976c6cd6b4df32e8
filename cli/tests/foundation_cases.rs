//! Replays the recorded reference cases that concern the foundation
//! (`eval`, `coalesce`, `flatten`) through `hlayout batch`'s protocol handler,
//! checking answers as functions against the definition.

use crate::common;

use common::reference_offsets;
use hlayout::Layout;
use hlayout_cli::batch;
use serde_json::Value;

fn records(file: &str) -> Vec<Value> {
    let path = common::data(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    match serde_json::from_str(&text).expect("case file is JSON") {
        Value::Array(v) => v,
        _ => panic!("{path} is not an array"),
    }
}

fn ask(request: &Value) -> Value {
    serde_json::from_str(&batch::respond(&request.to_string())).expect("response is JSON")
}

/// Every coalesce record: same function at every index, and exactly the
/// fewest leaves the oracle found (`expect.modes`).
fn check_coalesce(file: &str) -> usize {
    let mut n = 0;
    for r in records(file)
        .iter()
        .filter(|r| r["request"]["op"] == "coalesce")
    {
        let input: Layout = r["request"]["layout"].as_str().unwrap().parse().unwrap();
        let answer = ask(&r["request"]);
        let text = answer["layout"]
            .as_str()
            .unwrap_or_else(|| panic!("{}: {answer}", r["id"]));
        let got: Layout = text.parse().unwrap();
        assert_eq!(got.size(), input.size(), "{}", r["id"]);
        assert_eq!(
            reference_offsets(&got),
            reference_offsets(&input),
            "{}",
            r["id"]
        );
        if let Some(modes) = r["expect"]["modes"].as_u64() {
            assert_eq!(
                got.shape_leaves().len() as u64,
                modes,
                "{}: {text}",
                r["id"]
            );
        }
        n += 1;
    }
    n
}

#[test]
fn pycute_suite_coalesce() {
    assert_eq!(check_coalesce("pycute_suite.json"), 12);
}

#[test]
fn algebra_random_coalesce() {
    assert_eq!(check_coalesce("algebra_random.json"), 500);
}

/// `eval` and `flatten` answer every layout appearing in the suites exactly.
#[test]
fn eval_and_flatten_on_suite_layouts() {
    let mut seen = 0;
    for r in records("pycute_suite.json")
        .iter()
        .chain(&records("algebra_random.json")[..600])
    {
        for key in ["layout", "a", "b"] {
            let Some(text) = r["request"][key].as_str() else {
                continue;
            };
            let l: Layout = text.parse().unwrap();
            let want = reference_offsets(&l);
            let got = ask(&serde_json::json!({"op": "eval", "layout": text}));
            let offsets: Vec<i64> = serde_json::from_value(got["offsets"].clone()).unwrap();
            assert_eq!(offsets, want, "eval {text}");
            let flat = ask(&serde_json::json!({"op": "flatten", "layout": text}));
            if flat["ordinary"] == true {
                let v = &flat["view"];
                let shape: Vec<i64> = serde_json::from_value(v["shape"].clone()).unwrap();
                let strides: Vec<i64> = serde_json::from_value(v["strides"].clone()).unwrap();
                for (i, &o) in want.iter().enumerate() {
                    let c = common::digits(i as i64, &shape);
                    let at: i64 = c.iter().zip(&strides).map(|(a, b)| a * b).sum();
                    assert_eq!(at, o, "flatten {text} at {i}");
                }
            } else {
                assert!(flat["reason"]
                    .as_str()
                    .unwrap()
                    .contains("is not one stride"));
                assert!(l.flatten().is_err());
            }
            seen += 1;
        }
    }
    assert!(seen > 500);
}

/// The W1 workload's recorded checksum and first values (CuTe text mirrored).
#[test]
fn bench_workload_w1_matches_recording() {
    let text = common::read_data("bench_workloads.json");
    let w: Value = serde_json::from_str(&text).unwrap();
    let l: Layout = w["W1"]["layout"]["row"].as_str().unwrap().parse().unwrap();
    let cute = Layout::flat(&[16, 2, 8, 4], &[2, 32, 1, 64]).unwrap();
    let offsets: Vec<i64> = (0..1024).map(|i| l.eval(i).unwrap()).collect();
    assert_eq!(
        offsets,
        (0..1024).map(|i| cute.eval(i).unwrap()).collect::<Vec<_>>()
    );
    let first: Vec<i64> = serde_json::from_value(w["W1"]["values_first16"].clone()).unwrap();
    assert_eq!(&offsets[..16], &first[..]);
    assert_eq!(
        offsets.iter().sum::<i64>(),
        w["W1"]["checksum"].as_i64().unwrap()
    );
}
