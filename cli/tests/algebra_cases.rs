//! Replays the shared algebra case files through the library and through
//! `batch::respond`, checking every answer as a function (evaluation at every
//! index), never by comparing text.

use crate::common;
use hlayout::algebra::ComposePath;
use hlayout::tuple::is_coarsening;
use hlayout::Layout;
use hlayout_cli::batch;
use serde_json::Value;

fn load(name: &str) -> Vec<Value> {
    let path = common::data(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    match serde_json::from_str(&text) {
        Ok(Value::Array(records)) => records,
        other => panic!("{path}: not a JSON array: {other:?}"),
    }
}

fn lay(v: &Value) -> Layout {
    let text = v.as_str().unwrap_or_else(|| panic!("not a string: {v}"));
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn field<'a>(r: &'a Value, path: &[&str]) -> &'a Value {
    path.iter().fold(r, |v, k| &v[*k])
}

fn values(l: &Layout) -> Vec<i64> {
    (0..l.size())
        .map(|i| l.eval(i).expect("in domain"))
        .collect()
}

/// The batch answer's layout, or `None` when it answered an error.
fn batch_layout(request: &Value) -> Option<Layout> {
    let out: Value = serde_json::from_str(&batch::respond(&request.to_string())).expect("JSON");
    if out.get("error").is_some() {
        return None;
    }
    Some(lay(&out["layout"]))
}

/// `R(i) = A(B(i))` for every `i < size(B)`, sizes equal, B's shape coarsens R's.
fn check_compose(a: &Layout, b: &Layout, r: &Layout, id: &str) {
    assert_eq!(r.size(), b.size(), "{id}: size of {r}");
    assert!(
        is_coarsening(&b.shape().to_owned(), &r.shape().to_owned()),
        "{id}: {b} does not coarsen {r}"
    );
    for i in 0..b.size() {
        let want = a.eval(b.eval(i).expect("B in domain")).expect("A defined");
        assert_eq!(
            r.eval(i).expect("in domain"),
            want,
            "{id}: {a} o {b} = {r} at {i}"
        );
    }
}

struct Tally {
    structural: usize,
    witness: usize,
    values: usize,
}

fn replay_compose(records: &[Value]) -> Tally {
    let mut tally = Tally {
        structural: 0,
        witness: 0,
        values: 0,
    };
    for r in records
        .iter()
        .filter(|r| field(r, &["request", "op"]) == "compose")
    {
        let id = r["id"].as_str().unwrap_or("?");
        let (a, b) = (
            lay(field(r, &["request", "a"])),
            lay(field(r, &["request", "b"])),
        );
        let exists = field(r, &["expect", "exists"]).as_bool().expect("exists");
        let (got, path) = a.compose_explained(&b);
        match path {
            ComposePath::Structural => tally.structural += 1,
            ComposePath::Witness => tally.witness += 1,
            ComposePath::Values => tally.values += 1,
        }
        match (&got, exists) {
            (Ok(res), true) => check_compose(&a, &b, res, id),
            (Err(e), false) => assert!(e.to_string().contains("no single layout"), "{id}: {e}"),
            (Ok(res), false) => panic!("{id}: {a} o {b} gave {res} but no layout exists"),
            (Err(e), true) => panic!("{id}: {a} o {b} refused ({e}) but a layout exists"),
        }
        let via_batch = batch_layout(&r["request"]);
        assert_eq!(
            via_batch.is_some(),
            exists,
            "{id}: batch disagrees on existence"
        );
        if let Some(res) = via_batch {
            check_compose(&a, &b, &res, id);
        }
    }
    tally
}

#[test]
fn algebra_random_compose_ok_iff_exists() {
    let t = replay_compose(&load("algebra_random.json"));
    let total = t.structural + t.witness + t.values;
    assert_eq!(total, 3000);
    eprintln!(
        "compose decisions: structural {} ({:.1}%), witness {}, values {}",
        t.structural,
        100.0 * t.structural as f64 / total as f64,
        t.witness,
        t.values
    );
}

#[test]
fn pycute_suite_compose_ok_iff_exists() {
    replay_compose(&load("pycute_suite.json"));
}

/// Same size and the same offset at every index.
fn same_function(got: &Layout, want: &Layout, id: &str) {
    assert_eq!(
        got.size(),
        want.size(),
        "{id}: size of {got} vs reference {want}"
    );
    assert_eq!(values(got), values(want), "{id}: {got} vs reference {want}");
}

fn injective(offsets: &[i64]) -> bool {
    let mut v = offsets.to_vec();
    v.sort_unstable();
    v.windows(2).all(|w| w[0] != w[1])
}

/// The library's answer to one non-compose record.
fn library_answer(req: &Value) -> hlayout::Result<Layout> {
    let op = req["op"].as_str().expect("op");
    if op == "coalesce" {
        return Ok(lay(&req["layout"]).coalesce());
    }
    if op == "complement" || op.ends_with("inverse") {
        let l = lay(&req["layout"]);
        return match op {
            "complement" => l.complement(req["cotarget"].as_i64().unwrap_or_else(|| l.cosize())),
            "right_inverse" => Ok(l.right_inverse()),
            _ => l.left_inverse(),
        };
    }
    let (a, b) = (lay(&req["a"]), lay(&req["b"]));
    match op {
        "logical_divide" | "zipped_divide" => a.logical_divide(&b),
        "logical_product" => a.logical_product(&b),
        "blocked_product" => a.blocked_product(&b),
        "raked_product" => a.raked_product(&b),
        other => panic!("unexpected op {other}"),
    }
}

/// Checks one answer against the record's contract, evaluating everywhere.
fn check_record(r: &Value, got: &Layout) {
    let (id, req) = (r["id"].as_str().unwrap_or("?"), &r["request"]);
    let reference = lay(field(r, &["expect", "reference"]));
    match req["op"].as_str().expect("op") {
        "complement" => {
            let l = lay(&req["layout"]).filter(); // disjointness concerns L's image
            let ordered = values(got).windows(2).all(|w| w[0] < w[1]);
            assert!(ordered, "{id}: complement {got} is not ordered");
            let pair = format!(
                "({},{}):({},{})",
                got.shape(),
                l.shape(),
                got.stride(),
                l.stride()
            );
            assert!(
                injective(&values(&lay(&Value::from(pair)))),
                "{id}: ({got}, {l}) not injective"
            );
            same_function(got, &reference, id);
        }
        "right_inverse" => {
            let l = lay(&req["layout"]);
            for i in 0..got.size() {
                assert_eq!(
                    l.eval(got.eval(i).expect("in domain")).expect("defined"),
                    i,
                    "{id}: {l} at {got}({i})"
                );
            }
            // The references are pycute's, which stops at a stride-0 leaf
            // and at the end of the stride chain; hlayout's is the largest
            // (checked against brute force in the library's tests).
            assert!(
                got.size() >= reference.size(),
                "{id}: {got} is smaller than the reference {reference}"
            );
        }
        "left_inverse" => {
            let l = lay(&req["layout"]);
            for i in 0..l.size() {
                assert_eq!(
                    got.eval(l.eval(i).expect("in domain")).expect("defined"),
                    i,
                    "{id}: {got} at {l}({i})"
                );
            }
            same_function(got, &reference, id);
        }
        "coalesce" => {
            let modes = field(r, &["expect", "modes"]).as_u64().expect("modes") as usize;
            assert_eq!(
                got.shape_leaves().len(),
                modes,
                "{id}: {got} is not minimal"
            );
            same_function(got, &lay(&req["layout"]), id);
        }
        _ => same_function(got, &reference, id),
    }
}

fn replay_others(records: &[Value]) -> usize {
    let mut n = 0;
    for r in records {
        let op = field(r, &["request", "op"]).as_str().expect("op");
        if op == "compose" {
            continue;
        }
        let id = r["id"].as_str().unwrap_or("?");
        let got = library_answer(&r["request"]).unwrap_or_else(|e| panic!("{id}: {e}"));
        check_record(r, &got);
        let via_batch =
            batch_layout(&r["request"]).unwrap_or_else(|| panic!("{id}: batch refused"));
        check_record(r, &via_batch);
        n += 1;
    }
    n
}

#[test]
fn algebra_random_other_ops_match_references() {
    assert_eq!(replay_others(&load("algebra_random.json")), 3000);
}

#[test]
fn pycute_suite_other_ops_match_references() {
    assert_eq!(replay_others(&load("pycute_suite.json")), 46);
}
