//! CuTe's own C++ core unit tests (NVIDIA CUTLASS `test/unit/cute/core`:
//! composition, complement, left and right inverse, logical divide and
//! product, coalesce), mirrored to row-major and replayed from
//! `tests/data/cute_core.json` (see its README entry and the extractor beside
//! it). Every case must give CuTe's function: no refusal, no weaker inverse,
//! no wrong value. A failure names the case by its file and line in CUTLASS.

use hlayout::tuple::is_coarsening;
use hlayout::Layout;
use serde_json::Value;

use crate::common;

fn values(l: &Layout) -> Vec<i64> {
    (0..l.size())
        .map(|i| l.eval(i).expect("in domain"))
        .collect()
}

fn parse(v: &Value) -> Result<Layout, String> {
    let text = v.as_str().ok_or("missing layout text")?;
    text.parse().map_err(|e| format!("parsing {text}: {e}"))
}

fn expected_values(case: &Value) -> Vec<i64> {
    case["expect"]["values"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

/// `i` with the coordinates of L's stride-0 leaves set to 0 (row-major).
fn kernel_free(l: &Layout, i: i64) -> i64 {
    let (s, d) = (l.shape_leaves(), l.stride_leaves());
    let (mut rest, mut unit, mut out) = (i, 1i64, 0i64);
    for k in (0..s.len()).rev() {
        if d[k] != 0 {
            out += (rest % s[k]) * unit;
        }
        rest /= s[k];
        unit *= s[k];
    }
    out
}

/// The mirrored text and CuTe's text are the same function of the index.
fn check_mirror(row_major: &Value, cute: &Value) -> Result<(), String> {
    let (Some(rm), Some(cu)) = (row_major.as_str(), cute.as_str()) else {
        return Ok(());
    };
    let a: Layout = rm.parse().map_err(|e| format!("{rm}: {e}"))?;
    let b = Layout::from_cute(cu).map_err(|e| format!("{cu}: {e}"))?;
    if a.size() != b.size() || values(&a) != values(&b) {
        return Err(format!("{rm} is not the mirror of CuTe's {cu}"));
    }
    Ok(())
}

fn same(got: &Layout, want: &Layout, what: &str) -> Result<(), String> {
    if got.size() != want.size() || values(got) != values(want) {
        return Err(format!("{what} = {got}, CuTe's is {want}"));
    }
    Ok(())
}

fn check(case: &Value) -> Result<(), String> {
    let op = case["op"].as_str().ok_or("missing op")?;
    for (rm, cu) in [("a", "a"), ("b", "b"), ("layout", "layout")] {
        check_mirror(&case[rm], &case["cute"][cu])?;
    }
    let err = |e: hlayout::Error| format!("{op} refused: {e}");
    match op {
        "composition" => {
            let (a, b) = (parse(&case["a"])?, parse(&case["b"])?);
            let r = a.compose(&b).map_err(err)?;
            if !is_coarsening(&b.shape().to_owned(), &r.shape().to_owned()) {
                return Err(format!("{a} o {b} = {r}: B's shape does not coarsen R's"));
            }
            if values(&r) != expected_values(case) {
                return Err(format!(
                    "{a} o {b} = {r} has {:?}, A(B(i)) is {:?}",
                    values(&r),
                    expected_values(case)
                ));
            }
        }
        "complement" => {
            let l = parse(&case["layout"])?;
            let cotarget = case["cotarget"].as_i64().ok_or("missing cotarget")?;
            let r = l.complement(cotarget).map_err(err)?;
            same(
                &r,
                &parse(&case["expect"]["layout"])?,
                &format!("complement({l}, {cotarget})"),
            )?;
        }
        "right_inverse" => {
            // CuTe's exactly; the largest one is never smaller and is valid.
            let l = parse(&case["layout"])?;
            let want = parse(&case["expect"]["layout"])?;
            same(&l.right_inverse(), &want, &format!("right_inverse({l})"))?;
            let r = l.right_inverse_largest();
            if r.size() < want.size() {
                return Err(format!(
                    "right_inverse_largest({l}) = {r}, smaller than CuTe's {want}"
                ));
            }
            if let Some(i) = (0..r.size()).find(|&i| r.eval(i).and_then(|x| l.eval(x)) != Ok(i)) {
                return Err(format!(
                    "right_inverse_largest({l}) = {r}: L(R({i})) != {i}"
                ));
            }
        }
        "left_inverse" => {
            let l = parse(&case["layout"])?;
            let r = l.left_inverse().map_err(err)?;
            for i in 0..l.size() {
                let x = l.eval(i).expect("in domain");
                let got = r.eval(x).map_err(err)?;
                if got != kernel_free(&l, i) {
                    return Err(format!(
                        "left_inverse({l}) = {r}: R(L({i})) = R({x}) = {got}, want {}",
                        kernel_free(&l, i)
                    ));
                }
            }
            let first: Vec<i64> = (0..l.size().min(16)).map(|i| kernel_free(&l, i)).collect();
            let recorded: Vec<i64> = case["expect"]["first_values"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default();
            if first != recorded {
                return Err(format!("i0 of {l}: {first:?}, recorded {recorded:?}"));
            }
        }
        "logical_divide" | "logical_product" => {
            let (a, b) = (parse(&case["a"])?, parse(&case["b"])?);
            let r = if op == "logical_divide" {
                a.logical_divide(&b)
            } else {
                a.logical_product(&b)
            }
            .map_err(err)?;
            let modes: Vec<i64> = r.modes().map(|m| m.size()).collect();
            let want: Vec<i64> = case["expect"]["modes"]
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_i64).collect())
                .unwrap_or_default();
            if modes != want || values(&r) != expected_values(case) {
                return Err(format!(
                    "{op}({a}, {b}) = {r}: modes {modes:?} and {:?}, CuTe's are {want:?} and {:?}",
                    values(&r),
                    expected_values(case)
                ));
            }
        }
        "coalesce" => {
            let l = parse(&case["layout"])?;
            let r = l.coalesce();
            if r.depth() > 1 || values(&r) != expected_values(case) {
                return Err(format!("coalesce({l}) = {r}"));
            }
        }
        other => return Err(format!("unknown op {other}")),
    }
    Ok(())
}

#[test]
fn cute_core_unit_tests_give_cutes_functions() {
    // Invariant: every replayed case of CuTe's core tests gives CuTe's function / Witness: all 245 extracted cases.
    let data: Value =
        serde_json::from_str(&common::read_data("cute_core.json")).expect("valid JSON");
    let cases = data["cases"].as_array().expect("cases");
    assert!(cases.len() >= 245, "{} cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            check(c)
                .err()
                .map(|e| format!("{}: {e}", c["id"].as_str().unwrap_or("?")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} CuTe core cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
