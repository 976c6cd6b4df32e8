//! Symbolic extents against their concrete counterparts: the same
//! operation on a layout with symbols and on one binding of it (the
//! concrete path is exact and the reference). Compose: a 128 x 32 tile of a
//! row-major `(M,K)` matrix, a tile of a KV cache `(B,L,8,16)`, a flipped
//! row index of a transposed tile (B with a negative stride); coalesce:
//! `(N,(4,8)):(32,(8,1))`; complement and logical divide: a tile grid; the
//! merge of two flat views (tinygrad's `test_variable_divmod` pair, a masked
//! KV cache, a padded window); the kernel expressions of symbolic chains
//! (`tests/common/sym_chain_cases.rs`). Each
//! symbolic result is checked once against the concrete one at the binding.

use divan::{black_box, Bencher};
use hlayout::codegen::{self, Input};
use hlayout::symbolic::{
    merge, Assume, Poly, SymFlatView, SymLayout, SymMovement, SymViewStack, Symbols,
};
use hlayout::{FlatView, Layout, Movement, ViewStack};

fn main() {
    divan::main();
}

struct Case {
    syms: Symbols,
    a: SymLayout,
    b: SymLayout,
    values: Vec<i64>,
}

fn case(assume: &[(&str, i64)], a: &str, b: &str, values: &[i64]) -> Case {
    let mut syms = Symbols::new();
    for &(name, max) in assume {
        syms.assume(
            name,
            Assume {
                max,
                ..Assume::default()
            },
        )
        .expect("assumptions");
    }
    let a = SymLayout::parse(a, &mut syms).expect("A");
    let b = SymLayout::parse(b, &mut syms).expect("B");
    Case {
        syms,
        a,
        b,
        values: values.to_vec(),
    }
}

fn gemm() -> Case {
    case(
        &[("M", 1 << 20), ("K", 1 << 20)],
        "(M,K):(K,1)",
        "(128,32):(K,1)",
        &[1024, 512],
    )
}

fn kv() -> Case {
    case(
        &[("B", 64), ("L", 1 << 16), ("sp", 1 << 16)],
        "(B,L,8,16):(128*L,128,16,1)",
        "(B,sp,16):(128*L,128,1)",
        &[4, 4096, 100],
    )
}

fn flip() -> Case {
    case(&[("N", 1 << 20)], "(N,8):(1,N)", "(N,8):(-8,1)", &[1000])
}

fn pick(which: &str) -> Case {
    match which {
        "gemm" => gemm(),
        "kv" => kv(),
        _ => flip(),
    }
}

fn concrete(c: &Case) -> (Layout, Layout) {
    (
        c.a.bind(&c.syms, &c.values).unwrap(),
        c.b.bind(&c.syms, &c.values).unwrap(),
    )
}

fn checked_compose(c: &Case) {
    let (a, b) = concrete(c);
    let r = c.a.compose(&c.b, &c.syms).expect("symbolic compose");
    let want = a.compose(&b).expect("concrete compose");
    let got = r.bind(&c.syms, &c.values).unwrap();
    assert!((0..want.size()).all(|i| got.eval(i).unwrap() == want.eval(i).unwrap()));
}

#[divan::bench(args = ["gemm", "kv", "flip"])]
fn compose_symbolic(bencher: Bencher, which: &str) {
    let c = pick(which);
    checked_compose(&c);
    bencher.bench_local(|| black_box(&c.a).compose(black_box(&c.b), &c.syms).unwrap());
}

#[divan::bench(args = ["gemm", "kv", "flip"])]
fn compose_concrete(bencher: Bencher, which: &str) {
    let c = pick(which);
    let (a, b) = concrete(&c);
    bencher.bench_local(|| black_box(&a).compose(black_box(&b)).unwrap());
}

fn coalesce_case() -> (Symbols, SymLayout, Layout) {
    let mut s = Symbols::new();
    let l = SymLayout::parse("(N,(4,8)):(32,(8,1))", &mut s).unwrap();
    let c = l.bind(&s, &[1000]).unwrap();
    (s, l, c)
}

#[divan::bench]
fn coalesce_symbolic(bencher: Bencher) {
    let (s, l, _) = coalesce_case();
    bencher.bench_local(|| black_box(&l).coalesce(&s).unwrap());
}

#[divan::bench]
fn coalesce_concrete(bencher: Bencher) {
    let (_, _, c) = coalesce_case();
    bencher.bench_local(|| black_box(&c).coalesce());
}

fn divide_case() -> (Symbols, SymLayout, SymLayout, Layout, Layout) {
    let mut s = Symbols::new();
    s.assume(
        "T",
        Assume {
            max: 1 << 20,
            ..Assume::default()
        },
    )
    .unwrap();
    let a = SymLayout::parse("(64*T,32):(32,1)", &mut s).unwrap();
    let b = SymLayout::parse("64:32", &mut s).unwrap();
    let (ca, cb) = (a.bind(&s, &[100]).unwrap(), b.bind(&s, &[100]).unwrap());
    (s, a, b, ca, cb)
}

#[divan::bench]
fn logical_divide_symbolic(bencher: Bencher) {
    let (s, a, b, _, _) = divide_case();
    bencher.bench_local(|| black_box(&a).logical_divide(black_box(&b), &s).unwrap());
}

#[divan::bench]
fn logical_divide_concrete(bencher: Bencher) {
    let (_, _, _, a, b) = divide_case();
    bencher.bench_local(|| black_box(&a).logical_divide(black_box(&b)).unwrap());
}

#[divan::bench]
fn complement_symbolic(bencher: Bencher) {
    let (s, _, b, _, _) = divide_case();
    let m = Poly::symbol(s.id("T").unwrap()).scale(2048).unwrap();
    bencher.bench_local(|| black_box(&b).complement(black_box(&m), &s).unwrap());
}

#[divan::bench]
fn complement_concrete(bencher: Bencher) {
    let (_, _, _, _, b) = divide_case();
    bencher.bench_local(|| black_box(&b).complement(black_box(204800)).unwrap());
}

/// Two flat views over symbols, and their binding.
struct MergeCase {
    syms: Symbols,
    first: SymFlatView,
    second: SymFlatView,
    values: Vec<i64>,
}

fn merge_case(which: &str) -> MergeCase {
    let mut syms = Symbols::new();
    let mut max = |name: &str, max: i64| {
        let a = Assume {
            max,
            ..Assume::default()
        };
        syms.assume(name, a).expect("assumptions");
    };
    let (first, second, values) = match which {
        "divmod" => {
            max("sp", 1 << 16);
            let f = SymFlatView::parse(&["3", "sp+1"], &["64", "1"], "0", None, &mut syms);
            let s = SymFlatView::parse(&["3", "sp+1"], &["sp+1", "1"], "0", None, &mut syms);
            (f, s, vec![100])
        }
        "kv" => {
            max("sp", 1 << 16);
            let mask = [("0", "2"), ("0", "sp"), ("0", "1"), ("0", "1")];
            let f = SymFlatView::parse(
                &["2", "sp+1", "1", "1"],
                &["8", "1", "0", "0"],
                "0",
                Some(&mask),
                &mut syms,
            );
            let s = SymFlatView::parse(&["2", "sp+1"], &["sp+1", "1"], "0", None, &mut syms);
            (f, s, vec![100])
        }
        _ => {
            max("N", 1 << 16);
            let mask = [("0", "N"), ("3", "8")];
            let f = SymFlatView::parse(&["N", "8"], &["5", "1"], "-3", Some(&mask), &mut syms);
            let s = SymFlatView::parse(&["N-1", "2"], &["8", "1"], "3", None, &mut syms);
            (f, s, vec![100])
        }
    };
    MergeCase {
        first: first.expect("first"),
        second: second.expect("second"),
        syms,
        values,
    }
}

/// The concrete operands, after checking the symbolic merge against the
/// concrete one at the binding, at every element.
fn checked_merge(c: &MergeCase) -> (FlatView, FlatView) {
    let (f, s) = (
        c.first.bind(&c.values).unwrap(),
        c.second.bind(&c.values).unwrap(),
    );
    let want = hlayout::merge(&f, &s).unwrap().expect("a view");
    let got = merge(&c.first, &c.second, &c.syms)
        .unwrap()
        .expect("a view");
    let got = got.bind(&c.values).unwrap();
    let (n0, n1) = (want.shape()[0], want.shape()[1]);
    for (i, j) in (0..n0).flat_map(|i| (0..n1).map(move |j| (i, j))) {
        assert_eq!(got.eval(&[i, j]).unwrap(), want.eval(&[i, j]).unwrap());
    }
    (f, s)
}

#[divan::bench(args = ["divmod", "kv", "window"])]
fn merge_symbolic(bencher: Bencher, which: &str) {
    let c = merge_case(which);
    checked_merge(&c);
    bencher.bench_local(|| merge(black_box(&c.first), black_box(&c.second), &c.syms).unwrap());
}

#[divan::bench(args = ["divmod", "kv", "window"])]
fn merge_concrete(bencher: Bencher, which: &str) {
    let (f, s) = checked_merge(&merge_case(which));
    bencher.bench_local(|| hlayout::merge(black_box(&f), black_box(&s)).unwrap());
}

/// A chain op over symbols and the same op on the bound stack: the stack
/// before the op (built once), the op, the binding.
struct ChainCase {
    syms: Symbols,
    before: SymViewStack,
    op: SymMovement,
    concrete_before: ViewStack,
    concrete_op: Movement,
}

/// KV cache `(1024,8,64)` read up to `start_pos` (`shrink`), the permute of
/// the heads in front, the `reshape` of a transposed `(N,4)` into `4*N`,
/// and a `pad` of the sequence axis up to the cache length.
fn chain_case(which: &str) -> ChainCase {
    let mut syms = Symbols::new();
    let (a, max) = match which {
        "reshape" => ("N", 1 << 20),
        _ => ("sp", 1023),
    };
    syms.assume(
        a,
        Assume {
            min: if a == "sp" { 0 } else { 1 },
            max,
            ..Assume::default()
        },
    )
    .unwrap();
    let p = |s: &mut Symbols, t: &str| s.parse(t).unwrap();
    let (shape, prep, op): (Vec<Poly>, Vec<&str>, &str) = match which {
        "shrink" => (
            vec![1024.into(), 8.into(), 64.into()],
            vec![],
            r#"["shrink",[[0,"sp+1"],[0,8],[0,64]]]"#,
        ),
        "permute" => (
            vec![1024.into(), 8.into(), 64.into()],
            vec![r#"["shrink",[[0,"sp+1"],[0,8],[0,64]]]"#],
            r#"["permute",[1,0,2]]"#,
        ),
        "reshape" => (
            vec![p(&mut syms, "N"), 4.into()],
            vec![r#"["permute",[1,0]]"#],
            r#"["reshape",["4*N"]]"#,
        ),
        _ => (
            vec![p(&mut syms, "sp+1"), 8.into(), 64.into()],
            vec![],
            r#"["pad",[[0,"1023-sp"],[0,0],[0,0]]]"#,
        ),
    };
    let values = [100];
    let at = |p: &Poly| p.eval(&values).unwrap() as i64;
    let mut before = SymViewStack::new(&shape, &syms).unwrap();
    let mut concrete_before = ViewStack::new(&shape.iter().map(at).collect::<Vec<_>>()).unwrap();
    for t in prep {
        let m = SymMovement::parse(t, &mut syms).unwrap();
        before = before.apply(&m, &syms).unwrap();
        concrete_before = concrete_before.apply(&bind_op(&m, &values)).unwrap();
    }
    let op = SymMovement::parse(op, &mut syms).unwrap();
    let concrete_op = bind_op(&op, &values);
    // The symbolic result bound equals the concrete result as a function.
    let got = before.clone().apply(&op, &syms).unwrap();
    let want = concrete_before.clone().apply(&concrete_op).unwrap();
    let bound = got.bind(&syms, &values).unwrap();
    assert!(bound.offsets().eq(want.offsets()), "{which}");
    ChainCase {
        syms,
        before,
        op,
        concrete_before,
        concrete_op,
    }
}

fn bind_op(op: &SymMovement, values: &[i64]) -> Movement {
    op.bind(values).unwrap()
}

const CHAIN_OPS: [&str; 4] = ["shrink", "permute", "reshape", "pad"];

/// One op on a clone of the stack (the clone included, as in the concrete
/// counterpart).
#[divan::bench(args = CHAIN_OPS)]
fn chain_op_symbolic(bencher: Bencher, which: &str) {
    let c = chain_case(which);
    bencher.bench_local(|| {
        black_box(&c.before)
            .clone()
            .apply(black_box(&c.op), &c.syms)
            .unwrap()
    });
}

#[divan::bench(args = CHAIN_OPS)]
fn chain_op_concrete(bencher: Bencher, which: &str) {
    let c = chain_case(which);
    bencher.bench_local(|| {
        black_box(&c.concrete_before)
            .clone()
            .apply(black_box(&c.concrete_op))
            .unwrap()
    });
}

/// The kernel expression of `(B,4,S):(1,B*S,B)` (a transposed KV-style
/// tile, three leaves, two divisions by symbols) and of its binding.
fn expr_case() -> (Symbols, SymLayout, Layout) {
    let mut s = Symbols::new();
    for name in ["B", "S"] {
        let a = Assume {
            max: 1 << 16,
            ..Assume::default()
        };
        s.assume(name, a).unwrap();
    }
    let l = SymLayout::parse("(B,4,S):(1,B*S,B)", &mut s).unwrap();
    let c = l.bind(&s, &[8, 1024]).unwrap();
    let k = codegen::sym_layout(&l, &s, Input::Linear).unwrap();
    let ck = codegen::layout(&c, Input::Linear).unwrap();
    assert!(k.kernel().div_mod_count() <= ck.div_mod_count());
    (s, l, c)
}

#[divan::bench]
fn expr_symbolic(bencher: Bencher) {
    let (s, l, _) = expr_case();
    bencher.bench_local(|| {
        codegen::sym_layout(black_box(&l), &s, Input::Linear)
            .unwrap()
            .kernel()
            .c()
    });
}

#[divan::bench]
fn expr_concrete(bencher: Bencher) {
    let (_, _, c) = expr_case();
    bencher.bench_local(|| codegen::layout(black_box(&c), Input::Linear).unwrap().c());
}

#[path = "../tests/common/sym_chain_cases.rs"]
mod sym_chain_cases;

use sym_chain_cases::{sym_chain_case, SYM_CHAINS};

/// The C kernel of a symbolic chain (`codegen::sym_stack`, rendered), and
/// of the concrete chain at the binding (`codegen::stack`).
#[divan::bench(args = SYM_CHAINS)]
fn chain_expr_symbolic(bencher: Bencher, which: &str) {
    let c = sym_chain_case(which);
    bencher.bench_local(|| {
        codegen::sym_stack(black_box(&c.stack), &c.syms, Input::Coords)
            .unwrap()
            .kernel()
            .c()
    });
}

/// The versioned kernel of the same chain (`codegen::sym_chain_versions`:
/// the candidate pins' pipelines, the whole guarded text rendered).
#[divan::bench(args = SYM_CHAINS)]
fn chain_expr_versioned(bencher: Bencher, which: &str) {
    let c = sym_chain_case(which);
    bencher.bench_local(|| {
        codegen::sym_chain_versions(black_box(&c.shape), &c.ops, &c.syms, Input::Coords)
            .unwrap()
            .kernel()
            .kernel()
            .c()
    });
}

#[divan::bench(args = SYM_CHAINS)]
fn chain_expr_concrete(bencher: Bencher, which: &str) {
    let c = sym_chain_case(which);
    bencher.bench_local(|| {
        codegen::stack(black_box(&c.concrete), Input::Coords)
            .unwrap()
            .c()
    });
}
