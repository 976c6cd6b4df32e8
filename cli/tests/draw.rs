//! `hlayout draw` end to end: each kind of input prints the library's
//! picture (SVG, or TikZ with `--tikz`) and exits 0; help goes to stdout;
//! bad usage exits 2 and failed requests exit 1, as for every subcommand.

use crate::cli::{assert_usage_error, hlayout};
use hlayout::draw::{self, Banks, TvPicture};

/// Runs `hlayout draw ARGS`, asserts exit 0 and an empty stderr, returns stdout.
fn draw_ok(args: &[&str]) -> String {
    let out = hlayout().arg("draw").args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty(), "{args:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn draw_prints_the_library_pictures() {
    // Invariant: every input kind prints exactly the library's drawing.
    let l: hlayout::Layout = "(2,(2,2)):(2,(1,4))".parse().unwrap();
    assert_eq!(draw_ok(&["(2,(2,2)):(2,(1,4))"]), draw::layout_svg(&l));
    assert_eq!(
        draw_ok(&["--tikz", "(2,(2,2)):(2,(1,4))"]),
        draw::layout_latex(&l)
    );
    let text = "Sw<3,4,3> o 0 o (8,64):(64,1)";
    let c: hlayout::algebra::ComposedLayout = text.parse().unwrap();
    assert_eq!(draw_ok(&[text]), draw::composed_svg(&c));
    assert_eq!(draw_ok(&[text, "--tikz"]), draw::composed_latex(&c));
    let s = hlayout::ViewStack::new(&[10, 10])
        .unwrap()
        .permute(&[1, 0])
        .unwrap();
    let s = s.reshape(&[100]).unwrap().reshape(&[4, 25]).unwrap();
    let chain =
        r#"{"shape":[10,10],"ops":[["permute",[1,0]],["reshape",[100]],["reshape",[4,25]]]}"#;
    assert_eq!(draw_ok(&["--chain", chain]), draw::stack_svg(&s));
    assert_eq!(
        draw_ok(&["--tikz", "--chain", chain]),
        draw::stack_latex(&s)
    );
    let a: hlayout::Layout = "(32,4):(4,1)".parse().unwrap();
    let tile: hlayout::Layout = "(16,8):(8,1)".parse().unwrap();
    let p = TvPicture::of_layout(&tile, &a, None).unwrap();
    assert_eq!(
        draw_ok(&["--tv", "(32,4):(4,1)", "(16,8):(8,1)"]),
        draw::tv_svg(&p)
    );
    let banks = Some(Banks {
        element_bytes: 2,
        warp: 0,
    });
    let p = TvPicture::of_composed(&c, &"((8,8),8):((64,8),1)".parse().unwrap(), banks).unwrap();
    let args = [
        "--tv",
        "((8,8),8):((64,8),1)",
        "--banks",
        "--element-bytes",
        "2",
        text,
    ];
    assert_eq!(draw_ok(&args), draw::tv_svg(&p));
    let args = [
        "--tikz",
        "--tv",
        "((8,8),8):((64,8),1)",
        "--banks",
        "--element-bytes",
        "2",
        "--warp",
        "1",
        text,
    ];
    let p = TvPicture::of_composed(
        &c,
        &"((8,8),8):((64,8),1)".parse().unwrap(),
        Some(Banks {
            element_bytes: 2,
            warp: 1,
        }),
    )
    .unwrap();
    assert_eq!(draw_ok(&args), draw::tv_latex(&p));
}

#[test]
fn draw_help_goes_to_stdout() {
    for args in [&["draw", "--help"][..], &["draw", "-h"], &["help", "draw"]] {
        let out = hlayout().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("Usage: hlayout draw"), "{args:?}: {text}");
        assert!(out.stderr.is_empty(), "{args:?}");
    }
    let text =
        String::from_utf8(hlayout().args(["draw", "--help"]).output().unwrap().stdout).unwrap();
    for flag in [
        "--tikz",
        "--tv",
        "--banks",
        "--element-bytes",
        "--warp",
        "--chain",
    ] {
        assert!(text.contains(flag), "{flag}");
    }
    let top = String::from_utf8(hlayout().arg("--help").output().unwrap().stdout).unwrap();
    assert!(top.contains("draw"), "{top}");
}

#[test]
fn draw_bad_usage_exits_two() {
    // Invariant: malformed command lines exit 2, usage on stderr, nothing on stdout.
    for args in [
        &["draw"][..],
        &["draw", "8:1", "9:1"],
        &["draw", "--bogus", "8:1"],
        &["draw", "--banks", "8:1"],
        &["draw", "--element-bytes", "2", "8:1"],
        &[
            "draw",
            "--tv",
            "(8,1):(1,0)",
            "--banks",
            "--element-bytes",
            "3",
            "8:1",
        ],
        &[
            "draw",
            "--tv",
            "(8,1):(1,0)",
            "--banks",
            "--warp",
            "-1",
            "8:1",
        ],
        &["draw", "--tv", "--banks", "8:1"],
        &["draw", "8:1", "--chain", "{}"],
        &["draw", "--tv", "(8,1):(1,0)", "--chain", "{}"],
        &["draw", "--version"],
    ] {
        assert_usage_error(args);
    }
}

#[test]
fn draw_failed_requests_exit_one_with_the_error() {
    // Invariant: a request that fails exits 1 with its error (and the byte
    // position of text that did not parse) on stderr, nothing on stdout.
    for (args, want) in [
        (
            &["(2,3:(1,2)"][..],
            "parse error at byte 4: expected ',' or ')', found ':'\n  (2,3:(1,2)\n      ^",
        ),
        (&["-3:1"], "extent -3"),
        (&["Sw<9,0,0> o 0 o 8:1"], "Sw<9,0,0> o 0 o 8:1:"),
        (&["--tv", "(8,:", "8:1"], "(8,:: parse error at byte 3"),
        (&["--tv", "32:1", "(4,8):(8,1)"], "top-level rank 2"),
        (
            &["--tv", "(8,5):(1,8)", "(4,8):(8,1)"],
            "access A(4) = 32 is outside [0, 32)",
        ),
        (
            &[
                "--tv",
                "(8,4):(4,1)",
                "--banks",
                "--warp",
                "1",
                "(4,8):(8,1)",
            ],
            "warp 1 of an access with 8 threads",
        ),
        (
            &["--tv", "(32,1):(1,0)", "(512,256):(256,1)"],
            "max_tv_cells",
        ),
        (&["--chain", "{bad"], "--chain: key must be a string"),
        (
            &["--chain", r#"{"shape":[4],"ops":[["permute",[1]]]}"#],
            "--chain: ops[0]",
        ),
        (&["--chain", r#"{"shape":[4],"ops":[],"x":1}"#], "--chain:"),
    ] {
        let out = hlayout().arg("draw").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("hlayout draw: "), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn show_still_draws() {
    // Invariant: `hlayout show --svg/--latex` keeps printing the same pictures as `draw`.
    let l = "(2,(2,2)):(2,(1,4))";
    let show = hlayout().args(["show", "--svg", l]).output().unwrap();
    assert_eq!(String::from_utf8(show.stdout).unwrap(), draw_ok(&[l]));
    let show = hlayout().args(["show", "--latex", l]).output().unwrap();
    assert_eq!(
        String::from_utf8(show.stdout).unwrap(),
        draw_ok(&["--tikz", l])
    );
}

#[test]
fn the_pictures_in_the_docs_are_current() {
    // Invariant: docs/img holds what `hlayout draw` prints for the commands
    // docs/drawing.md shows (regenerate them with those commands).
    let chain = r#"{"shape":[4,6],"ops":[["permute",[1,0]],["pad",[[1,1],[0,1]]]]}"#;
    for (file, args) in [
        ("layout_nested.svg", &["(2,(2,2)):(2,(1,4))"][..]),
        ("composed.svg", &["Sw<2,0,2> o 0 o (4,8):(8,1)"]),
        ("chain_padded.svg", &["--chain", chain]),
        (
            "tv_fp32_rows.svg",
            &["--tv", "(32,8):(8,1)", "--banks", "(32,8):(8,1)"],
        ),
        (
            "tv_fp32_rows_swizzled.svg",
            &[
                "--tv",
                "(32,8):(8,1)",
                "--banks",
                "Sw<3,0,5> o 0 o (32,8):(8,1)",
            ],
        ),
    ] {
        let path = format!("{}/../docs/img/{file}", env!("CARGO_MANIFEST_DIR"));
        let want = std::fs::read_to_string(&path).unwrap();
        assert_eq!(draw_ok(args), want, "{file}");
    }
}
