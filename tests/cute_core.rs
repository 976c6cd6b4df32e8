//! CuTe's own C++ core unit tests (NVIDIA CUTLASS `test/unit/cute/core`:
//! composition, complement, left and right inverse, logical divide and
//! product, coalesce), mirrored to row-major and replayed from
//! `tests/data/cute_core.json` (see its README entry and the extractor beside
//! it). Every `test_<op>` call of those files is a case, none left out: plain
//! layouts, swizzled ones (`Sw<B,M,S> o O o L`), and CuTe's basis strides
//! (`E<…>`, replayed through A's index strides and checked against CuTe's
//! coordinates). Each case must pass every assertion CuTe's test makes, with
//! hlayout's functions: no refusal, no weaker inverse, no wrong value. A
//! failure names the case by its file and line in CUTLASS.

use hlayout::algebra::{ComposedLayout, Swizzle};
use hlayout::tuple::is_coarsening;
use hlayout::{IntTuple, Layout};
use serde_json::Value;

use crate::common;
use common::oracle;

/// A layout operand: plain, or composed (its text starts with `Sw<`).
enum Operand {
    Plain(Layout),
    Composed(ComposedLayout),
}

impl Operand {
    fn size(&self) -> i64 {
        match self {
            Operand::Plain(l) => l.size(),
            Operand::Composed(c) => c.size(),
        }
    }

    fn eval(&self, i: i64) -> i64 {
        match self {
            Operand::Plain(l) => l.eval(i),
            Operand::Composed(c) => c.eval(i),
        }
        .expect("defined")
    }

    /// The shape of the domain (a composed layout's is its inner layout's).
    fn shape(&self) -> IntTuple {
        match self {
            Operand::Plain(l) => l.shape().to_owned(),
            Operand::Composed(c) => c.layout().shape().to_owned(),
        }
    }

    fn values(&self) -> Vec<i64> {
        (0..self.size()).map(|i| self.eval(i)).collect()
    }

    fn text(&self) -> String {
        match self {
            Operand::Plain(l) => l.to_string(),
            Operand::Composed(c) => c.to_string(),
        }
    }
}

fn text(v: &Value) -> Result<&str, String> {
    v.as_str().ok_or_else(|| format!("missing text: {v}"))
}

fn operand(v: &Value) -> Result<Operand, String> {
    let t = text(v)?;
    let err = |e: hlayout::Error| format!("parsing {t}: {e}");
    if t.starts_with("Sw<") {
        t.parse().map(Operand::Composed).map_err(err)
    } else {
        t.parse().map(Operand::Plain).map_err(err)
    }
}

fn cute_operand(v: &Value) -> Result<Operand, String> {
    let t = text(v)?;
    let err = |e: hlayout::Error| format!("parsing CuTe's {t}: {e}");
    if t.starts_with("Sw<") {
        ComposedLayout::from_cute(t)
            .map(Operand::Composed)
            .map_err(err)
    } else {
        Layout::from_cute(t).map(Operand::Plain).map_err(err)
    }
}

/// CuTe's own printed answer (`cute.printed`, CuTe's colexicographic text):
/// a layout after any number of `Sw<B,M,S> o O` stages (CuTe nests composed
/// layouts), evaluated stage by stage.
struct Printed {
    stages: Vec<(Swizzle, i64)>,
    layout: Layout,
}

impl Printed {
    fn parse(v: &Value) -> Result<Printed, String> {
        let t = text(v)?;
        let mut parts: Vec<&str> = t.split(" o ").collect();
        let last = parts.pop().ok_or("empty")?;
        let layout = Layout::from_cute(last).map_err(|e| format!("CuTe printed {t}: {e}"))?;
        let stages = parts
            .chunks(2)
            .map(|p| {
                let sw = p[0].parse().map_err(|e| format!("{t}: {e}"))?;
                let o = p
                    .get(1)
                    .ok_or("no offset")?
                    .parse()
                    .map_err(|e| format!("{t}: {e}"))?;
                Ok((sw, o))
            })
            .collect::<Result<_, String>>()?;
        Ok(Printed { stages, layout })
    }

    /// The printed function at x: the layout, then each stage outwards.
    fn eval(&self, x: i64) -> i64 {
        let inner = self.layout.eval(x).expect("defined");
        (self.stages.iter().rev()).fold(inner, |y, (sw, o)| sw.apply(o + y))
    }

    fn values(&self) -> Vec<i64> {
        (0..self.layout.size()).map(|i| self.eval(i)).collect()
    }
}

/// CuTe's printed answer is `r`'s function (size and every value).
fn same_as_printed(r: &Operand, case: &Value) -> Result<(), String> {
    let printed = Printed::parse(&case["cute"]["printed"])?;
    if printed.values() != r.values() {
        return Err(format!(
            "{} is not CuTe's answer {}",
            r.text(),
            case["cute"]["printed"]
        ));
    }
    Ok(())
}

fn plain(v: &Value) -> Result<Layout, String> {
    match operand(v)? {
        Operand::Plain(l) => Ok(l),
        Operand::Composed(c) => Err(format!("expected a layout, got {c}")),
    }
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}

/// The mirrored text and CuTe's text are the same function of the index.
fn check_mirror(case: &Value) -> Result<(), String> {
    for key in ["a", "b", "layout"] {
        let (rm, cu) = (&case[key], &case["cute"][key]);
        if rm.is_null() || cu.is_null() {
            continue;
        }
        let (a, b) = (operand(rm)?, cute_operand(cu)?);
        if a.values() != b.values() {
            return Err(format!(
                "{} is not the mirror of CuTe's {}",
                a.text(),
                b.text()
            ));
        }
    }
    Ok(())
}

/// `A ∘ B` for whichever of A and B is composed.
fn compose(a: &Operand, b: &Operand) -> hlayout::Result<Operand> {
    Ok(match (a, b) {
        (Operand::Plain(a), Operand::Plain(b)) => Operand::Plain(a.compose(b)?),
        (Operand::Composed(a), Operand::Plain(b)) => Operand::Composed(a.compose(b)?),
        (Operand::Plain(a), Operand::Composed(b)) => Operand::Composed(b.left_compose(a)?),
        (Operand::Composed(a), Operand::Composed(b)) => Operand::Composed(a.compose_composed(b)?),
    })
}

/// CuTe asserts `compatible(B, R)` and `R(c) = A(B(c))` for every `c < size(B)`.
fn check_composition(case: &Value) -> Result<(), String> {
    let (a, b) = (operand(&case["a"])?, operand(&case["b"])?);
    let want = ints(&case["expect"]["values"]);
    let r = compose(&a, &b).map_err(|e| format!("refused: {e}"))?;
    let (at, bt, rt) = (a.text(), b.text(), r.text());
    if !is_coarsening(&b.shape(), &r.shape()) {
        return Err(format!(
            "{at} o {bt} = {rt}: B's shape does not coarsen R's"
        ));
    }
    if r.values() != want || want.len() as i64 != b.size() {
        return Err(format!(
            "{at} o {bt} = {rt} has {:?}, A(B(i)) is {want:?}",
            r.values()
        ));
    }
    if let Some(coords) = case["b_coords"].as_array() {
        check_basis(&a, &b, coords, &want, case)?;
    }
    if case["cute_truncating"].is_null() {
        return same_as_printed(&r, case);
    }
    // CuTe evaluates A at a negative index with C++'s truncating `/` and `%`
    // (so A(-x) = -A(x)), hlayout by floor digits (the integer extension):
    // CuTe's R is A o B under its evaluation, hlayout's under its own.
    let printed = Printed::parse(&case["cute"]["printed"])?.values();
    if printed != ints(&case["cute_truncating"]["values"]) {
        return Err(format!(
            "CuTe's answer {printed:?} is not A(B(i)) under truncation"
        ));
    }
    Ok(())
}

/// A basis-stride B (`E<…>`) maps index i to a coordinate of A; the replayed
/// B must reach the same element: `A(B(i)) = A(coordinate i)`.
fn check_basis(
    a: &Operand,
    b: &Operand,
    coords: &[Value],
    want: &[i64],
    case: &Value,
) -> Result<(), String> {
    let Operand::Plain(a) = a else {
        return Err("a basis-stride case composes plain layouts".into());
    };
    for (i, c) in coords.iter().enumerate() {
        let crd: IntTuple = text(c)?.parse().map_err(|e| format!("{c}: {e}"))?;
        let at = a.eval_crd(&crd).map_err(|e| format!("{c}: {e}"))?;
        if at != want[i] || a.eval(b.eval(i as i64)) != Ok(at) {
            return Err(format!(
                "CuTe's B = {} sends {i} to coordinate {crd}, where A is {at}",
                case["b_basis"]
            ));
        }
    }
    Ok(())
}

/// CuTe's complement, and the postconditions its test asserts (numbered as
/// in `complement.cpp`), each on hlayout's result.
fn check_complement(case: &Value) -> Result<(), String> {
    let l = plain(&case["layout"])?;
    let cotarget = case["cotarget"].as_i64().ok_or("missing cotarget")?;
    let r = l
        .complement(cotarget)
        .map_err(|e| format!("refused: {e}"))?;
    let want = plain(&case["expect"]["layout"])?;
    let name = format!("complement({l}, {cotarget}) = {r}");
    if r.size() != want.size() || common::offsets(&r) != common::offsets(&want) {
        return Err(format!("{name}, CuTe's is {want}"));
    }
    let (lv, rv) = (common::offsets(&l), common::offsets(&r));
    let cosize = |v: &[i64]| v.iter().max().map_or(0, |m| m + 1);
    let filtered = l.filter().size();
    let completed = cosize(&lv) + cosize(&rv) - 1;
    let conditions = [
        ("(1) cosize(L, R) >= size(cotarget)", completed >= cotarget),
        (
            "(2) cosize(R) <= round_up(size(cotarget), cosize(L))",
            cosize(&rv) <= (cotarget + cosize(&lv) - 1) / cosize(&lv) * cosize(&lv),
        ),
        ("(3) R is ordered", rv.windows(2).all(|w| w[0] < w[1])),
        (
            "(4) R(i) != L(j) for i >= 1",
            rv[1..].iter().all(|x| !lv.contains(x)),
        ),
        (
            "size(R) >= size(cotarget) / size(filter(L))",
            r.size() >= cotarget / filtered,
        ),
        (
            "cosize(L, R) <= cosize(R) + cosize(L)",
            completed <= cosize(&rv) + cosize(&lv),
        ),
        (
            "cosize(R) >= size(cotarget) / size(filter(L))",
            cosize(&rv) >= cotarget / filtered,
        ),
    ];
    if let Some((rule, _)) = conditions.iter().find(|(_, ok)| !ok) {
        return Err(format!("{name}: CuTe's postcondition {rule} fails"));
    }
    if case["cute"]["static"].as_bool() == Some(true) {
        check_complement_static(&l, &r, cotarget, &name)?;
    }
    same_as_printed(&Operand::Plain(r), case)
}

/// The two checks CuTe makes when everything is static: nothing is left
/// beside `(L, R)`, and complementing twice gives R back (as a function).
fn check_complement_static(
    l: &Layout,
    r: &Layout,
    cotarget: i64,
    name: &str,
) -> Result<(), String> {
    let completed: Layout = format!(
        "({},{}):({},{})",
        l.shape(),
        r.shape(),
        l.stride(),
        r.stride()
    )
    .parse()
    .map_err(|e| format!("{name}: (L, R): {e}"))?;
    let rest = completed.complement(completed.cosize());
    if !matches!(rest, Ok(ref c) if c.size() == 1) {
        return Err(format!(
            "{name}: complement(({l}, {r})) = {rest:?}, CuTe's has size 1"
        ));
    }
    let back = r
        .complement(l.cosize())
        .and_then(|c| c.complement(cotarget))
        .map_err(|e| format!("{name}: complementing twice: {e}"))?;
    if back.size() != r.size() || common::offsets(&back) != common::offsets(r) {
        return Err(format!(
            "{name}: complementing twice gives {back}, CuTe's gives R"
        ));
    }
    Ok(())
}

/// CuTe's right inverse exactly (every stride static), never smaller than
/// CuTe's C++ answer (which drops dynamic strides), `L(R(i)) = i` below its
/// size; the largest one is never smaller and is valid too.
fn check_right_inverse(case: &Value) -> Result<(), String> {
    let l = operand(&case["layout"])?;
    let want = operand(&case["expect"]["layout"])?;
    let cute = cute_operand(&case["cute"]["result"])?;
    if Printed::parse(&case["cute"]["printed"])?.values() != cute.values() {
        return Err(format!(
            "CuTe printed {}, the record says {}",
            case["cute"]["printed"],
            cute.text()
        ));
    }
    let mut answers = Vec::new();
    match &l {
        Operand::Plain(p) => {
            answers.push(("right_inverse", Operand::Plain(p.right_inverse())));
            answers.push((
                "right_inverse_largest",
                Operand::Plain(p.right_inverse_largest()),
            ));
        }
        Operand::Composed(c) => answers.push((
            "right_inverse",
            Operand::Composed(c.right_inverse().map_err(|e| format!("refused: {e}"))?),
        )),
    }
    let (r0, name0) = (&answers[0].1, answers[0].0);
    if r0.values() != want.values() {
        return Err(format!(
            "{name0}({}) = {}, CuTe's is {}",
            l.text(),
            r0.text(),
            want.text()
        ));
    }
    for (name, r) in &answers {
        if r.size() < cute.size() || r.size() < want.size() {
            return Err(format!(
                "{name}({}) = {}, smaller than CuTe's {}",
                l.text(),
                r.text(),
                cute.text()
            ));
        }
        if let Some(i) = (0..r.size()).find(|&i| l.eval(r.eval(i)) != i) {
            return Err(format!(
                "{name}({}) = {}: L(R({i})) != {i}",
                l.text(),
                r.text()
            ));
        }
    }
    Ok(())
}

/// `R(L(i)) = i₀` at every index (so CuTe's `L(R(L(i))) = L(i)`).
fn check_left_inverse(case: &Value) -> Result<(), String> {
    let l = operand(&case["layout"])?;
    let (r, inner) = match &l {
        Operand::Plain(p) => (
            Operand::Plain(p.left_inverse().map_err(|e| format!("refused: {e}"))?),
            p,
        ),
        Operand::Composed(c) => (
            Operand::Composed(c.left_inverse().map_err(|e| format!("refused: {e}"))?),
            c.layout(),
        ),
    };
    for i in 0..l.size() {
        let (x, want) = (l.eval(i), oracle::kernel_free(inner, i));
        if r.eval(x) != want || l.eval(r.eval(x)) != x {
            return Err(format!(
                "left_inverse({}) = {}: R(L({i})) = R({x}) = {}, want {want}",
                l.text(),
                r.text(),
                r.eval(x)
            ));
        }
    }
    let first: Vec<i64> = (0..l.size().min(16))
        .map(|i| oracle::kernel_free(inner, i))
        .collect();
    if first != ints(&case["expect"]["first_values"]) {
        return Err(format!("i0 of {}: {first:?}, recorded otherwise", l.text()));
    }
    cute_left_inverse_holds(&l, case)
}

/// CuTe's own answer (printed) meets CuTe's postcondition `L(R(L(i))) = L(i)`
/// here too: the record is CuTe's case.
fn cute_left_inverse_holds(l: &Operand, case: &Value) -> Result<(), String> {
    if case["cute"]["printed"] == "(-1,4):(0,1)" {
        // CuTe's beta answer for 4:-1 has a negative extent, no layout here;
        // C++ evaluates it as x ↦ -x, which hlayout's R is on L's image
        // (check_left_inverse).
        return Ok(());
    }
    let cute = Printed::parse(&case["cute"]["printed"])?;
    let at = |x: i64| cute.eval(x);
    if let Some(i) = (0..l.size()).find(|&i| l.eval(at(l.eval(i))) != l.eval(i)) {
        return Err(format!(
            "CuTe's own {} fails L(R(L({i}))) = L({i}) here",
            case["cute"]["printed"]
        ));
    }
    Ok(())
}

/// CuTe asserts rank 2, B compatible with the tile mode (divide) or A equal
/// to the block mode and B compatible with the other (product); the values
/// and mode sizes come from CuTe's definitions; extra asserts on the shape
/// and stride of a result are checked exactly.
fn check_divide_or_product(case: &Value, op: &str) -> Result<(), String> {
    let (a, b) = (plain(&case["a"])?, plain(&case["b"])?);
    let r = if op == "logical_divide" {
        a.logical_divide(&b)
    } else {
        a.logical_product(&b)
    }
    .map_err(|e| format!("refused: {e}"))?;
    let name = format!("{op}({a}, {b}) = {r}");
    let modes: Vec<Layout> = r.modes().collect();
    let sizes: Vec<i64> = modes.iter().map(Layout::size).collect();
    let want = ints(&case["expect"]["values"]);
    if sizes != ints(&case["expect"]["modes"]) || common::offsets(&r) != want {
        return Err(format!(
            "{name}: modes {sizes:?}, values {:?}, CuTe's {want:?}",
            common::offsets(&r)
        ));
    }
    let (tile, other) = if op == "logical_divide" {
        (1, 0)
    } else {
        (0, 1)
    };
    if !is_coarsening(&b.shape().to_owned(), &modes[tile].shape().to_owned()) {
        return Err(format!("{name}: B is not compatible with mode {tile}"));
    }
    if op == "logical_product" && modes[other].to_string() != a.to_string() {
        return Err(format!("{name}: mode {other} is not A"));
    }
    check_asserts(&r, case, &name)?;
    same_as_printed(&Operand::Plain(r), case)
}

/// What an extra assert looks at in `r` (a mode's or the whole shape or
/// stride, as text) and what it wants there (mirrored).
fn asserted<'a>(r: &Layout, assert: &'a Value) -> Result<(String, &'a str), String> {
    let part = match assert["mode"].as_u64() {
        Some(k) => r.mode(k as usize).map_err(|e| e.to_string())?,
        None => r.clone(),
    };
    Ok(match assert["shape"].as_str() {
        Some(s) => (part.shape().to_string(), s),
        None => (part.stride().to_string(), text(&assert["stride"])?),
    })
}

/// The extra asserts on a result's shape or stride, exactly. Where one fixes
/// a form CuTe gives only because a value is dynamic (`cute.static_spelling`),
/// hlayout (no static/dynamic distinction) must give exactly CuTe's answer to
/// the static spelling, `cute.printed_static`, the same function.
fn check_asserts(r: &Layout, case: &Value, name: &str) -> Result<(), String> {
    let cute = Layout::from_cute(text(&case["cute"]["printed"])?).map_err(|e| e.to_string())?;
    for assert in case["cute_asserts"].as_array().into_iter().flatten() {
        let (got, want) = asserted(r, assert)?;
        let (on_cute, _) = asserted(&cute, assert)?;
        if on_cute != want {
            return Err(format!(
                "{name}: CuTe's own answer {cute} fails {}",
                assert["cute"]
            ));
        }
        if got == want {
            continue;
        }
        let Some(static_answer) = case["cute"]["printed_static"].as_str() else {
            return Err(format!(
                "{name}: CuTe asserts {} (mirrored: {want}), got {got}",
                assert["cute"]
            ));
        };
        let s = Layout::from_cute(static_answer).map_err(|e| format!("{static_answer}: {e}"))?;
        if s.to_string() != r.to_string() || common::offsets(&s) != common::offsets(&cute) {
            return Err(format!(
                "{name}: CuTe asserts {} for a dynamic value; its answer to {} is {s} (mirrored), not {r}",
                assert["cute"], case["cute"]["static_spelling"]
            ));
        }
    }
    Ok(())
}

fn check(case: &Value) -> Result<(), String> {
    check_mirror(case)?;
    match case["op"].as_str().ok_or("missing op")? {
        "composition" => check_composition(case),
        "complement" => check_complement(case),
        "right_inverse" => check_right_inverse(case),
        "left_inverse" => check_left_inverse(case),
        op @ ("logical_divide" | "logical_product") => check_divide_or_product(case, op),
        "coalesce" => {
            let l = plain(&case["layout"])?;
            let r = l.coalesce();
            if r.depth() > 1 || common::offsets(&r) != ints(&case["expect"]["values"]) {
                return Err(format!("coalesce({l}) = {r}"));
            }
            same_as_printed(&Operand::Plain(r), case)
        }
        other => Err(format!("unknown op {other}")),
    }
}

#[test]
fn cute_core_unit_tests_give_cutes_functions() {
    // Invariant: every test_<op> call of CuTe's core tests passes CuTe's assertions here and matches CuTe's printed answer / Witness: all 255 extracted cases, none excluded; 2 differ by the integer extension, 3 asserts by CuTe's dynamic types.
    let data: Value =
        serde_json::from_str(&common::read_data("cute_core.json")).expect("valid JSON");
    let cases = data["cases"].as_array().expect("cases");
    assert!(data.get("excluded").is_none(), "no case may be left out");
    // Every call of each file (counted by hand in CUTLASS v4.2.0).
    let per_file: [(&str, usize); 7] = [
        ("composition", 68),
        ("complement", 62),
        ("inverse_left", 26),
        ("inverse_right", 32),
        ("logical_divide", 25),
        ("logical_product", 22),
        ("coalesce", 20),
    ];
    for (file, n) in per_file {
        let path = format!("test/unit/cute/core/{file}.cpp");
        let count = cases.iter().filter(|c| c["file"] == path.as_str()).count();
        assert_eq!(count, n, "{path}");
        assert_eq!(data["files"][path.as_str()], n as u64, "{path}");
    }
    assert_eq!(cases.len(), 255);
    // The cases where CuTe's answer is another function than hlayout's or
    // another form: named, so that a new one fails here.
    let ids = |key: &str, field: &str| -> Vec<&str> {
        let has = |c: &&Value| !c[key][field].is_null();
        cases
            .iter()
            .filter(has)
            .filter_map(|c| c["id"].as_str())
            .collect()
    };
    let sm80 = [
        "test/unit/cute/core/composition.cpp:563",
        "test/unit/cute/core/composition.cpp:570",
    ];
    assert_eq!(ids("cute_truncating", "values"), sm80);
    let dynamic =
        ["187", "222", "236"].map(|l| format!("test/unit/cute/core/logical_divide.cpp:{l}"));
    assert_eq!(ids("cute", "printed_static"), dynamic);
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
