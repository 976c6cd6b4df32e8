//! The loop-nest hint (`codegen::loop_nest`) checked as a function: on every
//! one-view chain of `tests/data/tinygrad_chains.json` and on random chains,
//! the refined loops enumerate every output coordinate once, in row-major
//! order, and the affine access equals the view at every point; the refusals
//! name the rule. Also rule V2: a never-valid kernel's index is `0`.

use crate::common;
use crate::stream_props::replay;
use crate::view_props::random_chains;
use hlayout::codegen::{self, loop_nest, Input, Node};
use hlayout::{Error, View, ViewStack};
use serde_json::Value;

/// Every reference chain's stack, with its id.
fn chains_stacks() -> Vec<(String, ViewStack)> {
    let all: Vec<Value> =
        serde_json::from_str(&common::read_data("tinygrad_chains.json")).expect("a JSON array");
    all.iter()
        .map(|r| (r["id"].as_str().unwrap().to_string(), replay(&r["request"])))
        .collect()
}

/// `n` random chains of up to six ops on up to 3 dimensions.
fn random_stacks(n: usize) -> Vec<ViewStack> {
    random_chains(n).into_iter().map(|(t, _)| t).collect()
}

/// Asserts `views`' nest is exact at every point; the number of loops.
fn check_nest(views: &[&View], what: &str) -> Option<usize> {
    let nest = match loop_nest(views) {
        Ok(n) => n,
        Err(Error::Precondition { op, .. }) => {
            assert_eq!(op, "loop_nest", "{what}");
            return None;
        }
        Err(e) => panic!("{what}: {e}"),
    };
    let shape = views[0].shape();
    let size: i64 = shape.iter().product();
    let ext = nest.extents();
    assert_eq!(
        ext.iter().product::<i64>(),
        size,
        "{what}: {ext:?} over {shape:?}"
    );
    assert!(
        ext.iter().all(|&e| e > 1),
        "{what}: a trivial loop in {ext:?}"
    );
    let mut count = 0i64;
    for (i, p) in nest.points().enumerate() {
        let c = nest.coords(&p);
        assert_eq!(
            c,
            common::digits(i as i64, &shape),
            "{what}: order at {p:?}"
        );
        for (k, v) in views.iter().enumerate() {
            assert_eq!(
                nest.eval(k, &p),
                v.eval(&c).unwrap(),
                "{what}: view {k} at {c:?}"
            );
        }
        count += 1;
    }
    assert_eq!(count, size, "{what}");
    Some(ext.len())
}

#[test]
fn nests_are_exact_on_the_reference_chains() {
    let (mut one_view, mut nests) = (0, 0);
    for (id, s) in chains_stacks() {
        if s.views().len() != 1 || s.views()[0].is_empty() {
            continue;
        }
        one_view += 1;
        if check_nest(&[&s.views()[0]], &id).is_some() {
            nests += 1;
        }
    }
    eprintln!("loop nests: {nests} of {one_view} one-view chains");
    // Measured: every one-view chain but those whose pad or shrink cuts a
    // nested dimension.
    assert!(nests * 10 >= one_view * 8, "{nests} of {one_view}");
}

#[test]
fn nests_are_exact_on_random_chains_and_pairs() {
    let stacks: Vec<ViewStack> = random_stacks(common::cases(200) as usize);
    let (mut pairs, mut found) = (0, 0);
    for (k, s) in stacks.iter().enumerate() {
        if s.views()[0].is_empty() {
            continue;
        }
        let top = s.views().last().unwrap();
        check_nest(&[top], &format!("random {k}: {s}"));
        // Pairs of views of one shape: a common refinement or a refusal.
        for t in &stacks[k + 1..] {
            let other = t.views().last().unwrap();
            if other.shape() == top.shape() && !other.is_empty() {
                pairs += 1;
                if check_nest(&[top, other], &format!("pair {s} / {t}")).is_some() {
                    found += 1;
                }
            }
        }
    }
    eprintln!("loop nests of random pairs: {found} of {pairs}");
}

#[test]
fn nests_split_a_flattened_transpose_and_refuse_what_cannot_be_affine() {
    let s = ViewStack::new(&[4, 6])
        .unwrap()
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[24])
        .unwrap();
    let v = &s.views()[0];
    let nest = loop_nest(&[v]).unwrap();
    assert_eq!(nest.extents(), vec![6, 4]);
    assert_eq!(
        (nest.access(0).strides(), nest.access(0).offset()),
        (&[1, 6][..], 0)
    );
    // A pad that cuts the nested dimension: x = t + 1 carries between leaves.
    let p = s.pad(&[(1, 0)]).unwrap();
    let e = loop_nest(&[&p.views()[0]]).unwrap_err();
    assert!(e.to_string().contains("dimension 0"), "{e}");
    // (2,3) and (3,2) splits of 6 do not refine each other.
    let a = ViewStack::new(&[2, 3])
        .unwrap()
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[6])
        .unwrap();
    let b = ViewStack::new(&[3, 2])
        .unwrap()
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[6])
        .unwrap();
    let e = loop_nest(&[&a.views()[0], &b.views()[0]]).unwrap_err();
    assert!(e.to_string().contains("do not divide"), "{e}");
    // Shapes must agree.
    let c = View::contiguous(&[6, 1]).unwrap();
    assert!(loop_nest(&[&a.views()[0], &c]).is_err());
    assert!(loop_nest(&[]).is_err());
}

#[test]
fn a_never_valid_index_is_zero() {
    // A flattened transpose, padded, then shrunk to the padding only, then
    // reshaped: the validity is false everywhere, and the index emits nothing.
    let s = ViewStack::new(&[4, 6])
        .unwrap()
        .permute(&[1, 0])
        .unwrap()
        .reshape(&[24])
        .unwrap();
    let s = s
        .pad(&[(0, 12)])
        .unwrap()
        .shrink(&[(24, 36)])
        .unwrap()
        .reshape(&[3, 4])
        .unwrap();
    for k in [
        codegen::stack(&s, Input::Coords).unwrap(),
        codegen::stack(&s, Input::Linear).unwrap(),
        codegen::fused(&s, Input::Coords).unwrap(),
        codegen::split(&s, Input::Coords).unwrap(),
    ] {
        assert_eq!(k.nodes()[k.index() as usize], Node::Const(0), "{:?}", k.c());
        assert_eq!(
            k.nodes()[k.valid() as usize],
            Node::Bool(false),
            "{:?}",
            k.c()
        );
        assert_eq!(k.div_mod_count(), 0);
        for i in 0..k.vars().iter().map(|v| v.extent).product::<i64>() {
            let at = common::digits(i, &k.vars().iter().map(|v| v.extent).collect::<Vec<_>>());
            assert_eq!(k.eval(&at).unwrap(), (0, false));
            if at.len() == 2 {
                assert_eq!(s.eval(&at).unwrap(), None);
            }
        }
    }
}
