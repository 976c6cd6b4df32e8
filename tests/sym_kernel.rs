//! Kernel expressions over symbols (`codegen::sym_layout`) checked as
//! functions: at several bindings per case (each symbol's least and greatest
//! allowed value among them) the symbolic kernel, through the interpreter,
//! compiled with gcc under UBSan (the symbols runtime variables) and run by
//! Python, equals the concrete layout at every point, and uses no more `/`
//! and `%` than the concrete kernel of the same layout at that binding.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::Command;

use crate::common;
use common::gcc::{run_sym, SymRun};
use hlayout::codegen::{self, Input, Lang, SymKernel};
use hlayout::symbolic::{Assume, SymLayout, Symbols};
use hlayout::Layout;

/// `(layout, [(symbol, min, max, divisible_by)])`.
type Case = (&'static str, &'static [(&'static str, i64, i64, i64)]);

pub(crate) const CASES: &[Case] = &[
    ("(4,N):(1,4)", &[("N", 1, 9, 1)]),
    ("(N,4):(1,N)", &[("N", 2, 7, 1)]),
    ("(N,(4,8)):(32,(8,1))", &[("N", 1, 3, 1)]),
    ("(M,N):(1,M)", &[("M", 1, 5, 1), ("N", 1, 6, 1)]),
    ("(M,N):(N,1)", &[("M", 1, 5, 1), ("N", 1, 6, 1)]),
    ("(2,N,3):(1,6,2)", &[("N", 1, 5, 1)]),
    ("(N,3,2):(6,1,3)", &[("N", 1, 4, 1)]),
    (
        "((2,N),(3,M)):((1,6*M),(2,6))",
        &[("N", 1, 3, 1), ("M", 1, 3, 1)],
    ),
    ("(N,4):(0,1)", &[("N", 1, 6, 1)]),
    ("(4,N,2):(2*N,0,1)", &[("N", 1, 6, 1)]),
    ("(3,N):(N+1,1)", &[("N", 1, 6, 1)]),
    ("(N,2):(-2,1)", &[("N", 1, 6, 1)]),
    ("(8,N):(1,8)", &[("N", 4, 16, 4)]),
    ("(B,S,4):(4*S,4,1)", &[("B", 1, 3, 1), ("S", 1, 5, 1)]),
    ("(B,4,S):(1,B*S,B)", &[("B", 1, 3, 1), ("S", 2, 5, 1)]),
    ("(N,N):(1,N)", &[("N", 1, 6, 1)]),
    ("(2,N,M):(N*M,1,N)", &[("N", 1, 4, 1), ("M", 1, 4, 1)]),
];

pub(crate) fn symbols(assume: &[(&str, i64, i64, i64)]) -> Symbols {
    let mut s = Symbols::new();
    for &(name, min, max, divisible_by) in assume {
        let a = Assume {
            min,
            max,
            divisible_by,
        };
        s.assume(name, a).unwrap();
    }
    s
}

/// Each symbol at its least, greatest and a middle allowed value, all
/// combinations.
pub(crate) fn bindings(s: &Symbols) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for id in 0..s.len() as u8 {
        let (lo, hi) = s.range(id);
        let d = s.assumption(id).divisible_by;
        let mid = (lo + (hi - lo) / 2) / d * d;
        let mut vals = vec![lo, hi, mid.max(lo)];
        vals.sort_unstable();
        vals.dedup();
        out = out
            .iter()
            .flat_map(|b| {
                vals.iter().map(move |&v| {
                    let mut b = b.clone();
                    b.push(v);
                    b
                })
            })
            .collect();
    }
    out
}

/// The points of the kernel's inputs at `values`, row-major.
pub(crate) fn points(k: &SymKernel, values: &[i64]) -> Vec<Vec<i64>> {
    let ext: Vec<i64> = k
        .extents()
        .iter()
        .map(|p| i64::try_from(p.eval(values).unwrap()).unwrap())
        .collect();
    let size: i64 = ext.iter().product();
    (0..size).map(|i| common::digits(i, &ext)).collect()
}

/// One run: a kernel, a binding, and the offsets wanted at its points.
pub(crate) struct Run {
    pub(crate) k: SymKernel,
    pub(crate) values: Vec<i64>,
    pub(crate) points: Vec<Vec<i64>>,
    pub(crate) want: Vec<i64>,
}

/// The kernels of every case at both inputs, checked by the interpreter
/// and against the concrete kernel's cost; the runs for the compilers.
fn runs() -> Vec<Run> {
    let mut out = Vec::new();
    let (mut checked, mut coincidences) = (0, 0);
    for &(text, assume) in CASES {
        let mut s = symbols(assume);
        let l = SymLayout::parse(text, &mut s).unwrap_or_else(|e| panic!("{text}: {e}"));
        for input in [Input::Linear, Input::Coords] {
            let k = codegen::sym_layout(&l, &s, input).unwrap_or_else(|e| panic!("{text}: {e}"));
            crate::expr_limit::text_len_is_exact(k.kernel());
            for values in bindings(&s) {
                let concrete = l.bind(&s, &values).unwrap();
                let ck = codegen::layout(&concrete, input).unwrap();
                let what = format!("{text} {input:?} at {values:?}: {:?}", k.kernel().c());
                let (sym_leaves, conc_leaves) = leaves(&l, &s, &concrete, input);
                let count = k.kernel().div_mod_count();
                if sym_leaves == conc_leaves {
                    assert!(
                        count <= ck.div_mod_count(),
                        "{what}: more / and % than the concrete {:?}",
                        ck.c()
                    );
                } else {
                    // A coincidence of this binding (an extent 1, a stride
                    // equal to a product) merges leaves one text for every
                    // binding cannot: at most one division per leaf boundary.
                    let bound: usize = sym_leaves.iter().map(|n| n - 1).sum();
                    assert!(count <= bound, "{what}: more than {bound} / and %");
                    coincidences += 1;
                }
                checked += 1;
                let points = points(&k, &values);
                let want: Vec<i64> = points.iter().map(|p| offset(&concrete, p, input)).collect();
                for (p, &w) in points.iter().zip(&want) {
                    assert_eq!(
                        k.eval(&s, p, &values).unwrap(),
                        (w, true),
                        "{what} at {p:?}"
                    );
                }
                out.push(Run {
                    k: k.clone(),
                    values,
                    points,
                    want,
                });
            }
        }
    }
    assert!(coincidences * 3 < checked, "{coincidences} of {checked}");
    out
}

/// The leaves of each mode (the whole layout for a linear input),
/// coalesced, of the symbolic layout and of its binding.
fn leaves(l: &SymLayout, s: &Symbols, bound: &Layout, input: Input) -> (Vec<usize>, Vec<usize>) {
    match input {
        Input::Linear => (
            vec![l.coalesce(s).unwrap().shape_leaves().len()],
            vec![bound.coalesce().shape_leaves().len()],
        ),
        Input::Coords => (
            l.modes()
                .iter()
                .map(|m| m.coalesce(s).unwrap().shape_leaves().len())
                .collect(),
            (0..bound.rank())
                .map(|m| bound.mode(m).unwrap().coalesce().shape_leaves().len())
                .collect(),
        ),
    }
}

/// The concrete layout's offset at the input point `p`.
pub(crate) fn offset(l: &Layout, p: &[i64], input: Input) -> i64 {
    match input {
        Input::Linear => l.eval(p[0]).unwrap(),
        Input::Coords => {
            let modes: Vec<i64> = (0..p.len()).map(|m| l.mode(m).unwrap().size()).collect();
            let mut i = 0;
            for (x, n) in p.iter().zip(&modes) {
                i = i * n + x;
            }
            l.eval(i).unwrap()
        }
    }
}

/// The C of every run compiled with UBSan (`common::gcc`); its output
/// lines, or `None` without gcc.
pub(crate) fn run_c(runs: &[Run]) -> Option<Vec<Vec<i64>>> {
    let runs: Vec<SymRun> = runs
        .iter()
        .map(|r| SymRun {
            k: &r.k,
            values: &r.values,
            points: &r.points,
        })
        .collect();
    run_sym(&runs)
}

/// The Python text of every run evaluated by `python3` at its points.
pub(crate) fn run_python(runs: &[Run]) -> Option<Vec<Vec<i64>>> {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("SKIPPED: python3 not found");
        return None;
    }
    let mut src = String::from("import sys\n");
    for r in runs {
        let vars = r.k.kernel().vars();
        let n_in = r.k.extents().len();
        let (index, valid) = r.k.kernel().render(Lang::Python);
        let mut env: Vec<String> = vars[n_in..]
            .iter()
            .zip(r.k.symbols())
            .map(|(v, &id)| format!("'{}': {}", v.name, r.values[id as usize]))
            .collect();
        env.push("'__builtins__': {}".into());
        let names: Vec<String> = vars[..n_in]
            .iter()
            .map(|v| format!("'{}'", v.name))
            .collect();
        let _ = writeln!(
            src,
            "env = {{{}}}\npts = {:?}\nout = []\nci, cv = compile({:?}, 'i', 'eval'), compile({:?}, 'v', 'eval')\nfor p in pts:\n    env.update(zip([{}], p))\n    idx, ok = eval(ci, env), eval(cv, env)\n    out.append(idx if ok else -1)\nprint(' '.join(map(str, out)))",
            env.join(", "),
            r.points,
            index,
            valid,
            names.join(", ")
        );
    }
    // The source on stdin: an argument would be too long for many runs.
    let mut child = Command::new("python3")
        .arg("-")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(src.as_bytes()));
    let run = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        run.status.success(),
        "python: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let out = String::from_utf8(run.stdout).unwrap();
    Some(
        out.lines()
            .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
            .collect(),
    )
}

#[test]
fn symbolic_kernels_equal_the_concrete_layouts_in_c_and_python() {
    let runs = runs();
    assert!(runs.len() > 100);
    compiled_agree(&runs);
}

/// The C (gcc under UBSan) and the Python (`eval`) of every run agree with
/// the reference.
pub(crate) fn compiled_agree(runs: &[Run]) {
    for (name, out) in [("C", run_c(runs)), ("Python", run_python(runs))] {
        let Some(out) = out else { continue };
        assert_eq!(out.len(), runs.len(), "{name}");
        for (r, got) in runs.iter().zip(&out) {
            assert_eq!(
                got,
                &r.want,
                "{name}: {:?} at {:?}",
                r.k.kernel().c(),
                r.values
            );
        }
    }
}

/// At the default `max` (2^31 - 1) the kernel is proved free of overflow,
/// and gcc under UBSan agrees at the extreme binding's first and last points.
#[test]
fn extreme_bindings_do_not_overflow() {
    for text in ["(4,N):(1,4)", "(N,(4,8)):(32,(8,1))", "(N,3,2):(6,1,3)"] {
        let mut s = Symbols::new();
        let l = SymLayout::parse(text, &mut s).unwrap();
        let k = codegen::sym_layout(&l, &s, Input::Linear).unwrap();
        for n in [1, 2, 2147483647] {
            let values = vec![n];
            let concrete = l.bind(&s, &values).unwrap();
            let size = concrete.size();
            let picks = [0, 1, size / 2, size - 2, size - 1];
            let points: Vec<Vec<i64>> = picks
                .iter()
                .filter(|&&i| (0..size).contains(&i))
                .map(|&i| vec![i])
                .collect();
            let want: Vec<i64> = points
                .iter()
                .map(|p| concrete.eval(p[0]).unwrap())
                .collect();
            for (p, &w) in points.iter().zip(&want) {
                assert_eq!(k.eval(&s, p, &values).unwrap(), (w, true), "{text} N={n}");
            }
            let run = Run {
                k: k.clone(),
                values,
                points,
                want,
            };
            if let Some(out) = run_c(std::slice::from_ref(&run)) {
                assert_eq!(out[0], run.want, "{text} N={n}");
            }
        }
    }
}

/// A kernel that could overflow at the default maximum is refused, naming
/// the fact; the fact, assumed, makes it go through.
#[test]
fn overflow_at_the_default_max_names_the_fact() {
    let mut s = Symbols::new();
    let l = SymLayout::parse("(M,N):(1,M)", &mut s).unwrap();
    let err = codegen::sym_layout(&l, &s, Input::Linear).unwrap_err();
    let hlayout::Error::NeedsFacts { needs, .. } = &err else {
        panic!("{err}")
    };
    assert!(!needs.is_empty(), "{err}");
    assert!(
        needs.iter().all(|f| f.contains("<= 9223372036854775807")),
        "{err}"
    );
    s.assume(
        "M",
        Assume {
            max: 1 << 20,
            ..Assume::default()
        },
    )
    .unwrap();
    s.assume(
        "N",
        Assume {
            max: 1 << 20,
            ..Assume::default()
        },
    )
    .unwrap();
    assert!(codegen::sym_layout(&l, &s, Input::Linear).is_ok());
}

/// A symbol named like an input variable is refused.
#[test]
fn a_symbol_named_like_an_input_is_refused() {
    let mut s = Symbols::new();
    let l = SymLayout::parse("(i,4):(1,i)", &mut s).unwrap();
    assert!(codegen::sym_layout(&l, &s, Input::Linear).is_err());
    assert!(codegen::sym_layout(&l, &s, Input::Coords).is_ok());
}
