//! Thread/value pictures: every cell's thread and value, reader count and
//! bank, and the bank panel's per-bank word counts equal a brute-force
//! inversion of the access (random tiles, plain and swizzled, and random
//! accesses); the SVG is well-formed and labels each cell, the TikZ places
//! each label at its cell, is balanced, and compiles when `pdflatex` is
//! installed; the picture is never narrower than its title and has a
//! background; a 128x128 access stays small; bad requests are typed errors.

use std::collections::{BTreeSet, HashSet};

use hlayout::algebra::ComposedLayout;
use hlayout::draw::{self, Banks, TvPicture};
use hlayout::{Error, Layout};
use proptest::prelude::*;

use crate::common;
use crate::draw::well_formed;

/// The brute-force inversion: for element `i` of the tile, every access
/// index `j` with `A(j) = i`, in increasing order.
fn readers_of(a: &Layout, n: i64) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new(); n as usize];
    for j in 0..a.size() {
        out[a.eval(j).unwrap() as usize].push(j);
    }
    out
}

/// Checks `p` against the brute force, for the tile function `l` of size `n`.
fn check(p: &TvPicture, l: &dyn Fn(i64) -> i64, a: &Layout, n: i64, banks: Option<Banks>) {
    let v_count = a.mode(1).unwrap().size();
    let t_count = a.mode(0).unwrap().size();
    assert_eq!((p.threads(), p.values()), (t_count, v_count));
    let g = &p.grid;
    assert_eq!((g.rows() * g.cols()) as i64, n);
    let readers = readers_of(a, n);
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            let i = r * g.cols() + c;
            let want = readers[i].first().map(|&j| (j / v_count, j % v_count));
            assert_eq!(p.thread_value(r, c), want, "cell {r},{c}");
            assert_eq!(p.readers(r, c) as usize, readers[i].len(), "cell {r},{c}");
            if let Some(b) = banks {
                let word = (l(i as i64) * b.element_bytes).div_euclid(4);
                assert_eq!(p.bank(r, c), Some(word.rem_euclid(32) as u8));
                let in_warp = readers[i].iter().any(|j| j / v_count / 32 == b.warp);
                assert_eq!(p.in_warp(r, c), in_warp, "cell {r},{c}");
            } else {
                assert_eq!((p.bank(r, c), p.in_warp(r, c)), (None, false));
            }
        }
    }
    let Some(b) = banks else {
        assert!(p.panel.is_none());
        return;
    };
    let panel = p.panel.as_ref().unwrap();
    assert_eq!(panel.words.len() as i64, v_count);
    for v in 0..v_count {
        let mut words: Vec<HashSet<i64>> = vec![HashSet::new(); 32];
        for t in (32 * b.warp..32 * b.warp + 32).filter(|&t| t < t_count) {
            let w = (l(a.eval(t * v_count + v).unwrap()) * b.element_bytes).div_euclid(4);
            words[w.rem_euclid(32) as usize].insert(w);
        }
        let counts: Vec<u32> = words.iter().map(|s| s.len() as u32).collect();
        assert_eq!(panel.words[v as usize].to_vec(), counts, "v {v}");
        let distinct: u32 = counts.iter().sum();
        assert_eq!(panel.wavefronts(v as usize), *counts.iter().max().unwrap());
        assert_eq!(panel.ideal(v as usize), distinct.div_ceil(32));
    }
}

/// The `T<t>V<v>` (and `+k`) labels the SVG shows.
fn svg_labels(svg: &str) -> BTreeSet<String> {
    svg.split("</text>")
        .filter_map(|s| s.rsplit_once('>').map(|(_, t)| t))
        .filter(|t| t.starts_with('T') && t.contains('V'))
        .map(str::to_owned)
        .collect()
}

/// The labels the picture's cells should carry.
fn want_labels(p: &TvPicture) -> BTreeSet<String> {
    let g = &p.grid;
    let mut out = BTreeSet::new();
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            if let Some((t, v)) = p.thread_value(r, c) {
                out.insert(match p.readers(r, c) {
                    1 => format!("T{t}V{v}"),
                    k => format!("T{t}V{v}+{}", k - 1),
                });
            }
        }
    }
    out
}

/// Braces and `\begin`/`\end` balance, in order.
fn tikz_balanced(tex: &str) {
    let mut depth = 0i64;
    let mut prev = ' ';
    for ch in tex.chars() {
        if prev != '\\' {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
        }
        assert!(depth >= 0, "unbalanced braces");
        prev = if prev == '\\' && ch == '\\' { ' ' } else { ch };
    }
    assert_eq!(depth, 0, "unbalanced braces");
    let mut envs = Vec::new();
    for part in tex.split('\\').skip(1) {
        if let Some(rest) = part.strip_prefix("begin{") {
            envs.push(rest.split('}').next().unwrap().to_string());
        } else if let Some(rest) = part.strip_prefix("end{") {
            assert_eq!(
                envs.pop().as_deref(),
                rest.split('}').next(),
                "mismatched \\end"
            );
        }
    }
    assert!(envs.is_empty(), "unclosed {envs:?}");
}

/// Every labelled cell's TikZ node sits at its row and column.
fn tikz_places_labels(p: &TvPicture, tex: &str) {
    let g = &p.grid;
    for r in 0..g.rows() {
        for c in 0..g.cols() {
            if let Some((t, v)) = p.thread_value(r, c) {
                let node = format!("] at ({r},{c}) {{T{t}V{v}");
                assert!(tex.contains(&node), "{node}");
                assert!(tex.contains(&format!("\\definecolor{{t{t}}}")));
            }
        }
    }
}

/// The value of attribute `name` in the tag text `tag`.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let v = tag.split(&format!(" {name}=\"")).nth(1)?;
    v.split('"').next()
}

/// The colour runs tile the grid: every cell is covered by exactly one
/// rectangle, whose class is the cell's thread (`hl-u` when unread) and,
/// with banks, faded (`hl-f`) exactly outside the warp.
fn runs_cover_the_cells(p: &TvPicture, svg: &str) {
    let mut rects = Vec::new();
    for tag in svg.split("<rect").skip(1) {
        let Some(class) = attr(tag, "class") else {
            continue;
        };
        let n = |k: &str| attr(tag, k).unwrap().parse::<usize>().unwrap();
        rects.push((n("x"), n("y"), n("width"), n("height"), class.to_string()));
    }
    let g = &p.grid;
    let left = rects.iter().map(|r| r.0).min().unwrap();
    let top = rects.iter().map(|r| r.1).min().unwrap();
    let right = rects.iter().map(|r| r.0 + r.2).max().unwrap();
    let bottom = rects.iter().map(|r| r.1 + r.3).max().unwrap();
    let (cw, ch) = ((right - left) / g.cols(), (bottom - top) / g.rows());
    assert_eq!((cw * g.cols(), ch * g.rows()), (right - left, bottom - top));
    let mut seen = vec![0u32; g.rows() * g.cols()];
    for (x, y, w, h, class) in rects {
        assert!((x - left) % cw == 0 && (y - top) % ch == 0 && w % cw == 0 && h % ch == 0);
        for r in (y - top) / ch..(y - top + h) / ch {
            for c in (x - left) / cw..(x - left + w) / cw {
                seen[r * g.cols() + c] += 1;
                let want = match p.thread_value(r, c) {
                    None => "hl-u".to_string(),
                    Some((t, _)) if p.panel.is_some() && !p.in_warp(r, c) => {
                        format!("hl-t{t} hl-f")
                    }
                    Some((t, _)) => format!("hl-t{t}"),
                };
                assert_eq!(class, want, "cell {r},{c}");
            }
        }
    }
    assert!(seen.iter().all(|&k| k == 1), "every cell covered once");
}

/// Checks the pictures `p` renders to.
fn check_renders(p: &TvPicture) {
    let svg = draw::tv_svg(p);
    well_formed(&svg);
    runs_cover_the_cells(p, &svg);
    assert_eq!(svg_labels(&svg), want_labels(p));
    // The style sheet only names classes of its own (a notebook applies it to the whole page).
    let sheet = svg
        .split("<style>")
        .nth(1)
        .unwrap()
        .split("</style>")
        .next()
        .unwrap();
    for rule in sheet.split('}').map(str::trim).filter(|r| !r.is_empty()) {
        assert!(rule.starts_with(".hl-"), "{rule}");
    }
    let tex = draw::tv_latex(p);
    tikz_balanced(&tex);
    tikz_places_labels(p, &tex);
}

#[test]
fn named_accesses_match_the_brute_force() {
    // A row-major fp32 32x32 tile read by columns, the same tile swizzled,
    // an ldmatrix-like fp16 access, a broadcast and a partial warp.
    let cases: [(&str, &str, i64, i64); 6] = [
        ("(32,32):(32,1)", "(32,32):(32,1)", 4, 0),
        ("Sw<5,0,5> o 0 o (32,32):(32,1)", "(32,32):(32,1)", 4, 0),
        ("(16,16):(16,1)", "(32,8):(8,1)", 2, 0),
        (
            "Sw<2,3,3> o 0 o (8,64):(64,1)",
            "((8,8),8):((64,8),1)",
            2,
            1,
        ),
        ("(4,8):(8,1)", "((32,2),2):((1,0),0)", 1, 1),
        ("(8,6):(6,1)", "(48,1):(1,0)", 4, 1),
    ];
    for (l_text, a_text, bytes, warp) in cases {
        let a: Layout = a_text.parse().unwrap();
        let banks = Some(Banks {
            element_bytes: bytes,
            warp,
        });
        let (p, n, f): (TvPicture, i64, Box<dyn Fn(i64) -> i64>) = if l_text.starts_with("Sw<") {
            let c: ComposedLayout = l_text.parse().unwrap();
            let p = TvPicture::of_composed(&c, &a, banks).unwrap();
            let n = c.size();
            (p, n, Box::new(move |i| c.eval(i).unwrap()))
        } else {
            let l: Layout = l_text.parse().unwrap();
            let p = TvPicture::of_layout(&l, &a, banks).unwrap();
            let n = l.size();
            (p, n, Box::new(move |i| l.eval(i).unwrap()))
        };
        check(&p, &*f, &a, n, banks);
        check_renders(&p);
    }
}

#[test]
fn columns_of_a_row_major_fp32_tile_conflict_and_the_swizzle_fixes_them() {
    // Witness: 32 threads reading one column of a 32x32 fp32 tile hit one
    // bank 32 times; Sw<5,0,5> spreads each column over all 32 banks.
    let a: Layout = "(32,32):(32,1)".parse().unwrap();
    let banks = Some(Banks {
        element_bytes: 4,
        warp: 0,
    });
    let plain = TvPicture::of_layout(&"(32,32):(32,1)".parse().unwrap(), &a, banks).unwrap();
    let panel = plain.panel.as_ref().unwrap();
    assert!((0..32).all(|v| panel.wavefronts(v) == 32 && panel.ideal(v) == 1));
    let sw: ComposedLayout = "Sw<5,0,5> o 0 o (32,32):(32,1)".parse().unwrap();
    let fixed = TvPicture::of_composed(&sw, &a, banks).unwrap();
    let panel = fixed.panel.as_ref().unwrap();
    assert!((0..32).all(|v| panel.wavefronts(v) == 1));
    let svg = draw::tv_svg(&plain);
    assert!(svg.contains("warp 0 (4-byte elements): 1024 wavefronts, ideal 32, over 32 values"));
}

/// A tile layout (rows, cols) with small strides, maybe swizzled, and an
/// access whose every read falls in the tile.
fn tile_and_access() -> impl Strategy<Value = (Option<(i64, i64, i64)>, Layout, Layout)> {
    let access = (1i64..=40, 1i64..=6, 0i64..5, 0i64..5, 1i64..=2);
    let tile = (1i64..=8, -3i64..=9, -3i64..=9);
    let swz = prop_oneof![
        Just(None),
        (0i64..=3, 0i64..=2, 0i64..=4).prop_map(|(b, m, s)| Some((b, m, s.max(b))))
    ];
    (access, tile, swz).prop_map(|((t, v, st, sv, split), (cols, rs, cs), sw)| {
        let a: Layout = if split == 2 && t % 2 == 0 {
            format!("((2,{}),{v}):((1,{}),{sv})", t / 2, 2 * st.max(1))
                .parse()
                .unwrap()
        } else {
            format!("({t},{v}):({st},{sv})").parse().unwrap()
        };
        let reach = a.offsets().max().unwrap() + 1;
        let rows = (reach + cols - 1) / cols + 1;
        let l: Layout = format!("({rows},{cols}):({rs},{cs})").parse().unwrap();
        (sw, l, a)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(common::cases(128)))]

    /// Every cell's (t, v), reader count and bank, the warp's cells and the
    /// bank panel equal the brute force, for random tiles and accesses.
    #[test]
    fn tv_pictures_match_the_brute_force(
        (sw, l, a) in tile_and_access(),
        bytes in prop_oneof![Just(1i64), Just(2), Just(4)],
        warp in 0i64..2,
        banks_on in any::<bool>(),
    ) {
        let warps = (a.mode(0).unwrap().size() + 31) / 32;
        let banks = (banks_on && warp < warps).then_some(Banks { element_bytes: bytes, warp });
        let n = l.size();
        match sw {
            None => {
                let p = TvPicture::of_layout(&l, &a, banks).unwrap();
                check(&p, &|i| l.eval(i).unwrap(), &a, n, banks);
                check_renders(&p);
            }
            Some((b, m, s)) => {
                let c: ComposedLayout = format!("Sw<{b},{m},{s}> o 0 o {l}").parse().unwrap();
                let p = TvPicture::of_composed(&c, &a, banks).unwrap();
                check(&p, &|i| c.eval(i).unwrap(), &a, n, banks);
                check_renders(&p);
            }
        }
    }
}

#[test]
fn bad_requests_are_typed_errors() {
    let l: Layout = "(4,8):(8,1)".parse().unwrap();
    let err =
        |a: &str, b: Option<Banks>| TvPicture::of_layout(&l, &a.parse().unwrap(), b).unwrap_err();
    assert!(matches!(err("32:1", None), Error::Precondition { .. }));
    assert!(matches!(
        err("(2,2,2):(1,2,4)", None),
        Error::Precondition { .. }
    ));
    let e = err("(8,5):(1,8)", None); // A(1) = 8, ..., A(4*... ) reaches 32
    assert_eq!(
        e.to_string(),
        "out of domain: access A(4) = 32 is outside [0, 32), the domain of (4,8):(8,1)"
    );
    let e = err(
        "(8,4):(4,1)",
        Some(Banks {
            element_bytes: 3,
            warp: 0,
        }),
    );
    assert!(
        e.to_string()
            .contains("element_bytes must be 1, 2 or 4, got 3"),
        "{e}"
    );
    let e = err(
        "(8,4):(4,1)",
        Some(Banks {
            element_bytes: 4,
            warp: 1,
        }),
    );
    assert!(
        e.to_string()
            .contains("warp 1 of an access with 8 threads (1 warps)"),
        "{e}"
    );
    let big: Layout = "(512,256):(256,1)".parse().unwrap();
    let e = TvPicture::of_layout(&big, &"(32,1):(1,0)".parse().unwrap(), None).unwrap_err();
    assert!(matches!(
        e,
        Error::LimitExceeded {
            limit: "max_tv_cells",
            ..
        }
    ));
    let huge: Layout = "(2048,1024):(0,0)".parse().unwrap();
    let e = TvPicture::of_layout(&l, &huge, None).unwrap_err();
    assert!(matches!(
        e,
        Error::LimitExceeded {
            limit: "max_tv_reads",
            ..
        }
    ));
    let far: Layout = "2:4611686018427387904".parse().unwrap();
    let e = TvPicture::of_layout(
        &far,
        &"(2,1):(1,0)".parse().unwrap(),
        Some(Banks {
            element_bytes: 4,
            warp: 0,
        }),
    );
    assert!(matches!(e, Err(Error::Overflow { .. })), "{e:?}");
}

#[test]
fn a_128x128_access_stays_small() {
    // 128 threads read a 128x128 fp16 tile, each one row of 128 values.
    let l: Layout = "(128,128):(128,1)".parse().unwrap();
    let a: Layout = "(128,128):(128,1)".parse().unwrap();
    let p = TvPicture::of_layout(
        &l,
        &a,
        Some(Banks {
            element_bytes: 2,
            warp: 0,
        }),
    )
    .unwrap();
    let svg = draw::tv_svg(&p);
    well_formed(&svg);
    assert!(svg.len() < 3 << 20, "{} bytes", svg.len());
    assert_eq!(svg_labels(&svg).len(), 128 * 128);
    // By columns (runs down the columns), and interleaved: threads alternate
    // along every row and repeat for two rows only (the most runs).
    for access in ["(128,128):(1,128)", "((64,2),(2,64)):((256,1),(128,2))"] {
        let a: Layout = access.parse().unwrap();
        let p = TvPicture::of_layout(
            &l,
            &a,
            Some(Banks {
                element_bytes: 2,
                warp: 0,
            }),
        )
        .unwrap();
        let svg = draw::tv_svg(&p);
        assert!(svg.len() < 2 << 20, "{access}: {} bytes", svg.len());
        assert_eq!(svg_labels(&svg).len(), 128 * 128);
    }
    // Past the label threshold: small cells and a legend, no labels.
    let l: Layout = "(256,128):(128,1)".parse().unwrap();
    let a: Layout = "(256,128):(128,1)".parse().unwrap();
    let svg = draw::tv_svg(&TvPicture::of_layout(&l, &a, None).unwrap());
    well_formed(&svg);
    assert!(svg_labels(&svg).is_empty());
    assert!(svg.contains("labels omitted above 16384 cells"));
    assert!(svg.len() < 2 << 20, "{} bytes", svg.len());
}

/// The `width` attribute of an SVG picture.
fn width(svg: &str) -> usize {
    let w = svg.split("width=\"").nth(1).unwrap();
    w[..w.find('"').unwrap()].parse().unwrap()
}

#[test]
fn pictures_are_as_wide_as_their_titles_and_have_a_background() {
    // Witness: a one-element layout with a 200-character title; 7.2 px per
    // character is 0.6em of the 12px monospace font.
    let ones = vec!["1"; 50].join(",");
    let zeros = vec!["0"; 50].join(",");
    let text = format!("({ones}):({zeros})");
    let l: Layout = text.parse().unwrap();
    assert!(text.len() > 200 && l.size() == 1);
    let c: ComposedLayout = format!("Sw<1,1,1> o 0 o {text}").parse().unwrap();
    let a: Layout = "(1,1):(0,0)".parse().unwrap();
    for (title, svg) in [
        (l.to_string(), draw::layout_svg(&l)),
        (c.to_string(), draw::composed_svg(&c)),
        (
            format!("{l} read by {a}"),
            draw::tv_svg(&TvPicture::of_layout(&l, &a, None).unwrap()),
        ),
    ] {
        well_formed(&svg);
        let w = width(&svg);
        assert!(
            w as f64 >= 4.0 + 7.2 * title.chars().count() as f64,
            "{w} for {} chars",
            title.len()
        );
        let h = svg.split("height=\"").nth(1).unwrap();
        let h = &h[..h.find('"').unwrap()];
        let bg = format!(r##"<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>"##);
        let first = svg.lines().nth(2).unwrap();
        assert_eq!(first, bg, "the background comes first");
    }
}

#[test]
fn tikz_compiles_when_pdflatex_is_installed() {
    let found = std::process::Command::new("pdflatex")
        .arg("--version")
        .output();
    if !found.is_ok_and(|o| o.status.success()) {
        eprintln!("pdflatex not installed: compile check skipped");
        return;
    }
    let dir = std::env::temp_dir().join(format!("hlayout-tikz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a: Layout = "(32,2):(2,1)".parse().unwrap();
    let l: Layout = "(8,8):(8,1)".parse().unwrap();
    let tv = TvPicture::of_layout(
        &l,
        &a,
        Some(Banks {
            element_bytes: 2,
            warp: 0,
        }),
    )
    .unwrap();
    let c: ComposedLayout = "Sw<1,1,2> o 0 o (4,8):(8,1)".parse().unwrap();
    for (name, tex) in [
        ("tv", draw::tv_latex(&tv)),
        ("composed", draw::composed_latex(&c)),
        ("layout", draw::layout_latex(&l)),
    ] {
        std::fs::write(dir.join(format!("{name}.tex")), &tex).unwrap();
        let out = std::process::Command::new("pdflatex")
            .args([
                "-interaction=nonstopmode",
                "-halt-on-error",
                &format!("{name}.tex"),
            ])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
