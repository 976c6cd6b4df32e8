//! Kernel expressions compiled as C by gcc with
//! `-fsanitize=undefined -fno-sanitize-recover=all` and run: any overflow or
//! other undefined behaviour aborts the program and fails the test. Shared
//! by the concrete (`tests/codegen.rs`) and the symbolic kernel tests.

use std::fmt::Write as _;
use std::process::Command;

use hlayout::codegen::SymKernel;

/// Compiles the C program `src` under UBSan, runs it and returns its output
/// lines, each a list of integers; `None` (after saying so) when gcc is not
/// installed.
pub fn compile_and_run(src: &str) -> Option<Vec<Vec<i64>>> {
    if Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("SKIPPED: gcc not found; the C expressions were not compiled");
        return None;
    }
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("hlayout-gcc-{}-{run}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (c, exe) = (dir.join("k.c"), dir.join("k"));
    std::fs::write(&c, src).unwrap();
    let cc = Command::new("gcc")
        .args([
            "-std=c99",
            "-O0",
            "-w",
            "-fsanitize=undefined",
            "-fno-sanitize-recover=all",
        ])
        .arg(&c)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        cc.status.success(),
        "gcc: {}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let run = Command::new(&exe).output().unwrap();
    assert!(
        run.status.success(),
        "UBSan: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    let out = String::from_utf8(run.stdout).unwrap();
    Some(
        out.lines()
            .map(|l| l.split_whitespace().map(|x| x.parse().unwrap()).collect())
            .collect(),
    )
}

/// One kernel text to run: its C `index` and `valid`, the names of its
/// inputs and its points, and each symbol's name and value.
pub struct CRun {
    pub index: String,
    pub valid: String,
    pub inputs: Vec<String>,
    pub symbols: Vec<(String, i64)>,
    pub points: Vec<Vec<i64>>,
}

/// One symbolic kernel to run: the binding (`values[id]` per symbol id) and
/// the points of its inputs.
pub struct SymRun<'a> {
    pub k: &'a SymKernel,
    pub values: &'a [i64],
    pub points: &'a [Vec<i64>],
}

/// [`run_texts`] of symbolic kernels.
pub fn run_sym(runs: &[SymRun]) -> Option<Vec<Vec<i64>>> {
    let runs: Vec<CRun> = runs
        .iter()
        .map(|r| {
            let vars = r.k.kernel().vars();
            let n_in = r.k.extents().len();
            let (index, valid) = r.k.kernel().c();
            CRun {
                index,
                valid,
                inputs: vars[..n_in].iter().map(|v| v.name.clone()).collect(),
                symbols: vars[n_in..]
                    .iter()
                    .zip(r.k.symbols())
                    .map(|(v, &id)| (v.name.clone(), r.values[id as usize]))
                    .collect(),
                points: r.points.to_vec(),
            }
        })
        .collect();
    run_texts(&runs)
}

/// Each run's C text at each of its points, one output line per run:
/// `index` where `valid`, else -1 (both evaluated everywhere). The symbols
/// are runtime variables read from volatile storage, so gcc cannot fold
/// them. `None` without gcc.
pub fn run_texts(runs: &[CRun]) -> Option<Vec<Vec<i64>>> {
    let mut src = String::from("#include <stdio.h>\nint main(void) {\n");
    for r in runs {
        let n_in = r.inputs.len();
        src.push_str("{\n");
        for (name, value) in &r.symbols {
            let _ = writeln!(
                src,
                "volatile long long v_{name} = {value}LL; long long {name} = v_{name};"
            );
        }
        let _ = writeln!(src, "static const long long pts[][{n_in}] = {{");
        for p in &r.points {
            let _ = writeln!(src, "{{{}}},", join(p));
        }
        src.push_str("};\n");
        let _ = writeln!(
            src,
            "for (unsigned long n = 0; n < sizeof pts / sizeof pts[0]; n++) {{"
        );
        for (k, name) in r.inputs.iter().enumerate() {
            let _ = writeln!(src, "long long {name} = pts[n][{k}];");
        }
        let _ = writeln!(
            src,
            "long long idx = {}; long long ok = {};\nprintf(\"%lld \", ok ? idx : -1LL);\n}}\nprintf(\"\\n\");\n}}",
            r.index, r.valid
        );
    }
    src.push_str("return 0;\n}\n");
    compile_and_run(&src)
}

fn join(p: &[i64]) -> String {
    p.iter()
        .map(|x| format!("{x}LL"))
        .collect::<Vec<_>>()
        .join(", ")
}
