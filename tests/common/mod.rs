//! Shared test machinery: random nested shapes and layouts, and reference
//! evaluators written from the definitions (not from the library's code).
#![allow(dead_code, unreachable_pub)]

pub mod api_calls;
pub mod c_expr;
mod flat;
pub mod gcc;
pub mod ndarray;
pub mod oracle;
pub mod pool;
pub mod symbolic;

#[allow(unused_imports)] // the merge tests use these; other binaries do not
pub(crate) use flat::*;

use hlayout::{IntTuple, Layout};
use proptest::prelude::*;

/// The path of a reference data file in `tests/data/` (see its README), from
/// the library's test binary or the command line crate's.
pub fn data(name: &str) -> String {
    let here = env!("CARGO_MANIFEST_DIR");
    let own = format!("{here}/tests/data/{name}");
    if std::path::Path::new(&own).exists() {
        own
    } else {
        format!("{here}/../tests/data/{name}")
    }
}

/// Reads a reference data file (see [`data`]).
pub fn read_data(name: &str) -> String {
    let path = data(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {path}: {e}"))
}

/// `n` proptest cases, or `PROPTEST_CASES` when set (for long local runs).
pub fn cases(n: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
}

/// A tree of integers, the test-side model of a nested tuple.
#[derive(Clone, Debug)]
pub enum Tree {
    Leaf(i64),
    Node(Vec<Tree>),
}

impl Tree {
    pub fn to_tuple(&self) -> IntTuple {
        match self {
            Tree::Leaf(v) => IntTuple::int(*v),
            Tree::Node(c) => IntTuple::tuple(c.iter().map(Tree::to_tuple)).unwrap(),
        }
    }

    pub fn leaves(&self) -> Vec<i64> {
        match self {
            Tree::Leaf(v) => vec![*v],
            Tree::Node(c) => c.iter().flat_map(Tree::leaves).collect(),
        }
    }

    /// Same structure, leaves replaced in order from `values`.
    pub fn with_leaves(&self, values: &mut impl Iterator<Item = i64>) -> Tree {
        match self {
            Tree::Leaf(_) => Tree::Leaf(values.next().unwrap()),
            Tree::Node(c) => Tree::Node(c.iter().map(|t| t.with_leaves(values)).collect()),
        }
    }

    pub fn size(&self) -> i64 {
        self.leaves().iter().product()
    }
}

/// Nested shapes: depth <= 3, at most 4 children per node, extents in `extents`.
pub fn shape_tree(extents: std::ops::RangeInclusive<i64>) -> impl Strategy<Value = Tree> {
    let leaf = extents.prop_map(Tree::Leaf);
    leaf.prop_recursive(3, 8, 4, |inner| {
        prop::collection::vec(inner, 0..4).prop_map(Tree::Node)
    })
}

/// A layout with a nested shape (extents 1..=6) and strides in -6..=12.
pub fn layout() -> impl Strategy<Value = Layout> {
    shape_tree(1..=6).prop_flat_map(|shape| {
        let n = shape.leaves().len();
        prop::collection::vec(-6i64..=12, n).prop_map(move |strides| {
            let stride = shape.with_leaves(&mut strides.into_iter());
            Layout::new(shape.to_tuple(), stride.to_tuple()).unwrap()
        })
    })
}

/// Row-major digits of `i` over `extents` (last fastest; first takes the rest).
pub fn digits(mut i: i64, extents: &[i64]) -> Vec<i64> {
    let mut out = vec![0; extents.len()];
    for k in (0..extents.len()).rev() {
        if k == 0 {
            out[0] = i;
        } else {
            out[k] = i % extents[k];
            i /= extents[k];
        }
    }
    out
}

/// The definition: `L(i) = Σ digit_k · stride_k`.
pub fn reference_eval(l: &Layout, i: i64) -> i64 {
    digits(i, l.shape_leaves())
        .iter()
        .zip(l.stride_leaves())
        .map(|(c, d)| c * d)
        .sum()
}

/// All offsets of `l` over its domain, by the definition.
pub fn reference_offsets(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|i| reference_eval(l, i)).collect()
}

/// All offsets of `l` over its domain through the library's `eval`.
pub fn offsets(l: &Layout) -> Vec<i64> {
    (0..l.size()).map(|i| l.eval(i).unwrap()).collect()
}
