//! Symbolic movement-op chains whose kernel expressions
//! (`codegen::sym_stack`) the benchmark `benches/symbolic.rs` and the
//! profiling example `examples/prof_sym_chain.rs` time against the concrete
//! chain at one binding (both include this file by path): `kv`, a KV cache
//! `(1024,8,64)` read up to `start_pos`, heads first, broadcast over a batch
//! of 4 (one view); `pad`, the new rows padded to the cache length (one
//! view with a mask); `views`, a transposed `(N,4)` flattened and cut again
//! (two views).
#![allow(dead_code)]

use hlayout::codegen::{self, Input};
use hlayout::symbolic::{Assume, Poly, SymMovement, SymViewStack, Symbols};
use hlayout::{Movement, ViewStack};

/// The names of the cases.
pub(crate) const SYM_CHAINS: [&str; 3] = ["kv", "pad", "views"];

/// A symbolic chain's stack and the concrete chain's at the binding.
pub(crate) struct SymChainCase {
    pub(crate) syms: Symbols,
    pub(crate) stack: SymViewStack,
    pub(crate) concrete: ViewStack,
    /// The request: the initial shape and the ops (for versioned kernels).
    pub(crate) shape: Vec<Poly>,
    pub(crate) ops: Vec<SymMovement>,
}

/// The case `which` (one of [`SYM_CHAINS`]), its symbolic kernel checked
/// once against the concrete chain at the binding (`sp = 100`, `N = 100`).
pub(crate) fn sym_chain_case(which: &str) -> SymChainCase {
    let (name, min, max) = match which {
        "views" => ("N", 1, 1 << 20),
        _ => ("sp", 0, 1023),
    };
    // (shape, ops) over the symbol, and the same at its value 100.
    let (shape, ops, cshape, cops): (&[&str], &[&str], &[i64], &[&str]) = match which {
        "kv" => (
            &["1024", "8", "64"],
            &[
                r#"["shrink",[[0,"sp+1"],[0,8],[0,64]]]"#,
                r#"["permute",[1,0,2]]"#,
                r#"["reshape",[1,8,"sp+1",64]]"#,
                r#"["expand",[4,8,"sp+1",64]]"#,
            ],
            &[1024, 8, 64],
            &[
                r#"["shrink",[[0,101],[0,8],[0,64]]]"#,
                r#"["permute",[1,0,2]]"#,
                r#"["reshape",[1,8,101,64]]"#,
                r#"["expand",[4,8,101,64]]"#,
            ],
        ),
        "pad" => (
            &["sp+1", "8", "64"],
            &[
                r#"["pad",[[0,"1023-sp"],[0,0],[0,0]]]"#,
                r#"["reshape",[1024,512]]"#,
            ],
            &[101, 8, 64],
            &[
                r#"["pad",[[0,923],[0,0],[0,0]]]"#,
                r#"["reshape",[1024,512]]"#,
            ],
        ),
        _ => (
            &["N", "4"],
            &[
                r#"["permute",[1,0]]"#,
                r#"["reshape",["4*N"]]"#,
                r#"["reshape",["N",4]]"#,
            ],
            &[100, 4],
            &[
                r#"["permute",[1,0]]"#,
                r#"["reshape",[400]]"#,
                r#"["reshape",[100,4]]"#,
            ],
        ),
    };
    let mut syms = Symbols::new();
    let a = Assume {
        min,
        max,
        ..Assume::default()
    };
    syms.assume(name, a).expect("assume");
    let shape: Vec<_> = shape
        .iter()
        .map(|t| syms.parse(t).expect("shape"))
        .collect();
    let mut stack = SymViewStack::new(&shape, &syms).expect("shape");
    let mut sym_ops = Vec::new();
    for t in ops {
        let m = SymMovement::parse(t, &mut syms).expect("op");
        stack = stack.apply(&m, &syms).expect("symbolic op");
        sym_ops.push(m);
    }
    let request = shape;
    let mut concrete = ViewStack::new(cshape).expect("shape");
    for t in cops {
        let m: Movement = t.parse().expect("op");
        concrete = concrete.apply(&m).expect("concrete op");
    }
    let k = codegen::sym_stack(&stack, &syms, Input::Coords).expect("symbolic kernel");
    let shape = concrete.shape();
    let size: i64 = shape.iter().product();
    for i in (0..size).step_by(97) {
        let mut at = vec![0; shape.len()];
        let mut rest = i;
        for (x, &n) in at.iter_mut().zip(&shape).rev() {
            *x = rest % n;
            rest /= n;
        }
        let (index, valid) = k.eval(&syms, &at, &[100]).expect("eval");
        let want = concrete.eval(&at).expect("concrete eval");
        assert_eq!(valid, want.is_some(), "{which} at {at:?}");
        if let Some(w) = want {
            assert_eq!(index, w, "{which} at {at:?}");
        }
    }
    SymChainCase {
        syms,
        stack,
        concrete,
        shape: request,
        ops: sym_ops,
    }
}
