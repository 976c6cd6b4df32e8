//! A fixed workload for `valgrind --tool=callgrind`: 10,000 movement ops on
//! a KV-cache stack over the symbol `sp` (`sym`) or at `sp = 100`
//! (`concrete`), or only the set-up (`none`), the cases of `benches/symbolic.rs`'s `chain_op_*`.
//!
//! `cargo build --release --example prof_symview && valgrind --tool=callgrind target/release/examples/prof_symview sym shrink`

use hlayout::symbolic::{Assume, Poly, SymMovement, SymViewStack, Symbols};
use hlayout::{Movement, ViewStack};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (mode, op) = (
        args.get(1).map_or("sym", String::as_str),
        args.get(2).map_or("shrink", String::as_str),
    );
    let mut s = Symbols::new();
    let (name, min, max) = if op == "reshape" {
        ("N", 1, 1 << 20)
    } else {
        ("sp", 0, 1023)
    };
    s.assume(
        name,
        Assume {
            min,
            max,
            divisible_by: 1,
        },
    )
    .expect("assume");
    let (shape, prep, text) = match op {
        "shrink" => (
            vec!["1024", "8", "64"],
            None,
            r#"["shrink",[[0,"sp+1"],[0,8],[0,64]]]"#,
        ),
        "permute" => (
            vec!["1024", "8", "64"],
            Some(r#"["shrink",[[0,"sp+1"],[0,8],[0,64]]]"#),
            r#"["permute",[1,0,2]]"#,
        ),
        "reshape" => (
            vec!["N", "4"],
            Some(r#"["permute",[1,0]]"#),
            r#"["reshape",["4*N"]]"#,
        ),
        _ => (
            vec!["sp+1", "8", "64"],
            None,
            r#"["pad",[[0,"1023-sp"],[0,0],[0,0]]]"#,
        ),
    };
    let shape: Vec<Poly> = shape.iter().map(|t| s.parse(t).expect("shape")).collect();
    let prep = prep.map(|t| SymMovement::parse(t, &mut s).expect("op"));
    let m = SymMovement::parse(text, &mut s).expect("op");
    let values = [100];
    let mut t = SymViewStack::new(&shape, &s).expect("stack");
    if let Some(p) = &prep {
        t = t.apply(p, &s).expect("prep");
    }
    let mut views = 0;
    if mode == "none" {
        // The set-up alone, subtracted from the other modes' counts.
    } else if mode == "sym" {
        for _ in 0..10_000 {
            views += std::hint::black_box(&t)
                .clone()
                .apply(&m, &s)
                .expect("op")
                .views()
                .len();
        }
    } else {
        let bound = |m: &SymMovement| concrete(m, &values);
        let mut c = t.bind(&s, &values).expect("bind");
        if let Some(p) = &prep {
            // The concrete chain itself, not the bound stack.
            let sh: Vec<i64> = shape
                .iter()
                .map(|p| p.eval(&values).unwrap() as i64)
                .collect();
            c = ViewStack::new(&sh).expect("concrete");
            c = c.apply(&bound(p)).expect("prep");
        }
        let cm = bound(&m);
        for _ in 0..10_000 {
            views += std::hint::black_box(&c)
                .clone()
                .apply(&cm)
                .expect("op")
                .views()
                .len();
        }
    }
    println!("{views}");
}

fn concrete(op: &SymMovement, values: &[i64]) -> Movement {
    op.bind(values).expect("the binding's values fit")
}
