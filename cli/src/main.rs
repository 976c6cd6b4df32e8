//! The `hlayout` command: `batch` (JSON Lines protocol), `show` (a human
//! report), `expr` (a kernel's index and validity expressions) and `draw`
//! (SVG or TikZ pictures, thread/value accesses included).
//!
//! Conventions: `-h`/`--help` and `--version` print to stdout and exit 0; a
//! failed request (bad layout text) exits 1 with the error, and its position,
//! on stderr; bad usage exits 2 with a usage message on stderr.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::{value_parser, Arg, ArgMatches, Command};
use hlayout::codegen::{Input, Lang};
use hlayout::limits::DEFAULT_MAX_EXPR_BYTES;
use hlayout::limits::{
    DEFAULT_MAX_DEGREE, DEFAULT_MAX_DEPTH, DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_OPS,
    DEFAULT_MAX_RANK, DEFAULT_MAX_REPLY_ELEMENTS, DEFAULT_MAX_SYMBOLS, DEFAULT_MAX_TERMS,
};
use hlayout::Limits;

const PROTOCOL: &str = "The batch protocol is specified in docs/batch-protocol.md.";

const BATCH_HELP: &str = "The batch protocol is specified in docs/batch-protocol.md.

Every request is checked against the limits below before any work starts, and
one over a limit gets an error naming it; the stream goes on. Within the
limits each reply costs time linear in the request line and the reply (the
searches behind compose, left_inverse and merge have fixed budgets and answer
'undecided' past them). Raising --max-rank or --max-ops raises what one op
may cost (polynomially in the rank and the number of views); a line longer
than --max-line-bytes is skipped without being held in memory.

Replies are flushed whenever no further input is waiting: a client that
waits for each reply gets it at once (as if every line were flushed), and a
stream of many lines is answered in large writes.";

/// Layout text as a positional argument: it may start with `-` (a negative
/// extent is a failed request, exit 1), but `--anything` is an option the
/// command does not have (bad usage, exit 2).
fn layout_text(text: &str) -> Result<String, String> {
    match text.strip_prefix("--") {
        Some(_) => Err("not an option of this command (layout text does not start with --)".into()),
        None => Ok(text.to_string()),
    }
}

fn limit(name: &'static str, help: &'static str, default: u64) -> Arg {
    Arg::new(name)
        .long(name)
        .value_name("N")
        .help(help)
        .value_parser(value_parser!(u64))
        .default_value(&*default.to_string().leak()) // built once per run
}

const ASSUME_HELP: &str =
    "Assumptions of a symbol of the layout text: NAME:min=A,max=B,divisible_by=D \
(each key optional; defaults min=1, max=2147483647, divisible_by=1). Repeat for each symbol.";

fn assume_arg() -> Arg {
    Arg::new("assume")
        .long("assume")
        .value_name("NAME:min=A,max=B,divisible_by=D")
        .help(ASSUME_HELP)
        .action(clap::ArgAction::Append)
}

fn command() -> Command {
    Command::new("hlayout")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Exact hierarchical tensor layouts and views")
        .after_help(PROTOCOL)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("show")
                .about("Print a layout: size, cosize, coalesced form, flatten report, offset grid")
                .after_help(
                    "Examples:\n  hlayout show \"(2,(2,2)):(2,(1,4))\"\n  \
                     hlayout show \"(N,(4,8)):(32,(8,1))\" --assume N:max=4096,divisible_by=4 --bind N=8\n\n\
                     A layout with symbols prints its assumptions, size and cosize as polynomials and its \
                     coalesced form; --bind prints (or draws) the concrete layout at the given values.\n\n\
                     Symbols: a leaf may be a polynomial over named symbols (docs/batch-protocol.md, \
                     \"Symbolic extents\"), e.g. (B,S,128):(128*S,128,1).",
                )
                .arg(
                    Arg::new("LAYOUT")
                        .help("Layout text SHAPE:STRIDE, e.g. (2,3):(3,1)")
                        .required(true)
                        .allow_hyphen_values(true)
                        .value_parser(layout_text),
                )
                .arg(
                    Arg::new("svg")
                        .long("svg")
                        .help("Print the offset grid as an SVG picture instead (as hlayout draw)")
                        .action(clap::ArgAction::SetTrue),
                )
                .arg(
                    Arg::new("latex")
                        .long("latex")
                        .help("Print the offset grid as a TikZ (LaTeX) picture instead")
                        .action(clap::ArgAction::SetTrue)
                        .conflicts_with("svg"),
                )
                .arg(assume_arg())
                .arg(
                    Arg::new("bind")
                        .long("bind")
                        .value_name("NAME=VALUE,...")
                        .help("Values of the symbols (within their assumptions): print the concrete layout and its grid")
                        .action(clap::ArgAction::Append),
                )
                .arg(
                    Arg::new("divide")
                        .long("divide")
                        .value_name("TILE")
                        .help("Divide by TILE even where it does not divide the layout: the view over the rounded-up tile count, '.' past the end (one --divide per trailing mode for a tiler by mode)")
                        .action(clap::ArgAction::Append),
                )
                .arg(
                    Arg::new("form")
                        .long("form")
                        .value_parser(hlayout_cli::show_tiles::FORMS)
                        .default_value("logical")
                        .requires("divide")
                        .help("With --divide: how the divide gathers its pieces"),
                ),
        )
        .subcommand(
            Command::new("expr")
                .about("Print a kernel's index and validity expressions for a layout or a movement-op chain")
                .after_help(
                    "Examples:\n  hlayout expr \"(4,6):(1,4)\"\n  \
                     hlayout expr \"Sw<3,4,3> o 0 o (8,64):(64,1)\"\n  \
                     hlayout expr --chain '{\"shape\":[4,6],\"ops\":[[\"permute\",[1,0]]]}'\n  \
                     hlayout expr \"(4,N):(1,4)\" --assume N:max=4096\n  \
                     hlayout expr --chain '{\"shape\":[\"N\",4],\"ops\":[[\"pad\",[[1,0],[0,0]]]]}' --assume N:max=64\n\n\
                     Over symbols the text uses the symbols as variables after the inputs (listed on \
                     the vars line); a kernel that needs more facts is refused naming them.",
                )
                .arg(
                    Arg::new("lang")
                        .long("lang")
                        .value_parser(Lang::NAMES)
                        .default_value("c")
                        .help("Language of the expressions"),
                )
                .arg(
                    Arg::new("input")
                        .long("input")
                        .value_parser(Input::NAMES)
                        .help("Variables: coordinates i0, i1, ... or the row-major rank i (default: linear for a layout, coords for a chain)"),
                )
                .arg(assume_arg())
                .arg(
                    Arg::new("versions")
                        .long("versions")
                        .action(clap::ArgAction::SetTrue)
                        .help("Over symbols: a versioned kernel, G ? special : ... : generic, each guard a test of the symbols alone"),
                )
                .arg(limit("max-expr-bytes", "Longest kernel text (index and valid together), in bytes", DEFAULT_MAX_EXPR_BYTES as u64))
                .arg(
                    Arg::new("chain")
                        .long("chain")
                        .value_name("JSON")
                        .help("A chain request's {\"shape\": [..], \"ops\": [..]}")
                        .conflicts_with("LAYOUT"),
                )
                .arg(
                    Arg::new("LAYOUT")
                        .help("Layout text SHAPE:STRIDE, or composed text Sw<B,M,S> o O o L")
                        .required_unless_present("chain")
                        .allow_hyphen_values(true)
                        .value_parser(layout_text),
                ),
        )
        .subcommand(draw_command())
        .subcommand(
            Command::new("batch")
                .about("Answer JSON Lines requests on stdin, one reply line each (docs/batch-protocol.md)")
                .after_help(BATCH_HELP)
                .arg(limit("max-rank", "Most dimensions of a shape or op argument, and leaves of a layout", DEFAULT_MAX_RANK as u64))
                .arg(limit("max-depth", "Deepest nesting of layout text", DEFAULT_MAX_DEPTH as u64))
                .arg(limit("max-reply-elements", "Most offsets listed in one reply (for a chain of v views, offsets x v)", DEFAULT_MAX_REPLY_ELEMENTS))
                .arg(limit("max-line-bytes", "Longest request line, in bytes", DEFAULT_MAX_LINE_BYTES as u64))
                .arg(limit("max-ops", "Most movement ops in one chain", DEFAULT_MAX_OPS as u64))
                .arg(limit("max-symbols", "Most symbols in one request (at most 255)", DEFAULT_MAX_SYMBOLS as u64))
                .arg(limit("max-degree", "Most factors in one monomial of a polynomial (at most 8)", DEFAULT_MAX_DEGREE as u64))
                .arg(limit("max-terms", "Most terms in one polynomial", DEFAULT_MAX_TERMS as u64))
                .arg(limit("max-expr-bytes", "Longest kernel text (index and valid together), in bytes", DEFAULT_MAX_EXPR_BYTES as u64)),
        )
}

const DRAW_HELP: &str = "Examples:
  hlayout draw \"(2,(2,2)):(2,(1,4))\" > layout.svg
  hlayout draw --tikz \"Sw<3,4,3> o 0 o (8,64):(64,1)\" > swizzled.tex
  hlayout draw --chain '{\"shape\":[3,4],\"ops\":[[\"pad\",[[1,0],[0,1]]]]}'
  hlayout draw --tv \"(32,4):(1,32)\" --banks \"(32,4):(4,1)\"

--tv ACCESS draws which thread reads each element of LAYOUT: ACCESS is a
layout of top-level rank 2 (threads T, values V), and thread t reads element
ACCESS(t*V + v) of LAYOUT as its value v (docs/batch-protocol.md, \"Shared
memory\"). Cells show T<t>V<v>, coloured by thread. --banks adds the banks
warp --warp reads: byte address LAYOUT(ACCESS(t*V+v)) * element bytes, 4-byte
words, bank = word % 32, and a panel of distinct words per bank and value,
with the wavefronts and the ideal. See docs/drawing.md.";

fn draw_command() -> Command {
    Command::new("draw")
        .about("Draw a layout, a composed layout, a movement-op chain or a thread/value access (SVG, or TikZ)")
        .after_help(DRAW_HELP)
        .arg(
            Arg::new("LAYOUT")
                .help("Layout text SHAPE:STRIDE, or composed text Sw<B,M,S> o O o L")
                .required_unless_present("chain")
                .allow_hyphen_values(true)
                .value_parser(layout_text),
        )
        .arg(
            Arg::new("chain")
                .long("chain")
                .value_name("JSON")
                .help("A chain request's {\"shape\": [..], \"ops\": [..]}, drawn through all its views (padding grey)")
                .conflicts_with("LAYOUT"),
        )
        .arg(
            Arg::new("tikz")
                .long("tikz")
                .help("Print a standalone TikZ (LaTeX) document instead of SVG")
                .action(clap::ArgAction::SetTrue),
        )
        .arg(
            Arg::new("tv")
                .long("tv")
                .value_name("ACCESS")
                .help("Draw the thread/value access ACCESS (threads x values) on LAYOUT")
                .allow_hyphen_values(true)
                .value_parser(layout_text)
                .conflicts_with("chain"),
        )
        .arg(
            Arg::new("banks")
                .long("banks")
                .help("With --tv: show the banks one warp hits, and its wavefronts")
                .action(clap::ArgAction::SetTrue)
                .requires("tv"),
        )
        .arg(
            Arg::new("element-bytes")
                .long("element-bytes")
                .value_name("B")
                .help("With --banks: bytes per element")
                .value_parser(["1", "2", "4"])
                .default_value("4")
                .requires("banks"),
        )
        .arg(
            Arg::new("warp")
                .long("warp")
                .value_name("W")
                .help("With --banks: the warp shown (threads 32W .. 32W+31)")
                .value_parser(value_parser!(u32))
                .default_value("0")
                .requires("banks"),
        )
}

/// `hlayout draw`: the picture on stdout (exit 0), or the error on stderr
/// (exit 1), with a caret under the position of text that did not parse.
fn run_draw(m: &ArgMatches) -> ExitCode {
    let get = |name: &str| m.get_one::<String>(name).map(String::as_str);
    let banks = m.get_flag("banks").then(|| hlayout::draw::Banks {
        element_bytes: get("element-bytes")
            .and_then(|b| b.parse().ok())
            .unwrap_or(4),
        warp: i64::from(m.get_one::<u32>("warp").copied().unwrap_or(0)),
    });
    let req = hlayout_cli::draw::Request {
        layout: get("LAYOUT"),
        chain: get("chain"),
        tv: get("tv"),
        banks,
        tikz: m.get_flag("tikz"),
    };
    match hlayout_cli::draw::draw(&req) {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hlayout draw: {}", e.message);
            if let Some((text, pos)) = e.at {
                eprintln!("  {text}\n  {:>width$}", "^", width = pos + 1);
            }
            ExitCode::FAILURE
        }
    }
}

fn limits(m: &ArgMatches) -> Limits {
    let get = |name: &str| m.get_one::<u64>(name).copied().unwrap_or(0);
    let size = |name: &str| usize::try_from(get(name)).unwrap_or(usize::MAX);
    Limits {
        max_rank: size("max-rank"),
        max_depth: size("max-depth"),
        max_reply_elements: get("max-reply-elements"),
        max_line_bytes: size("max-line-bytes"),
        max_ops: size("max-ops"),
        max_symbols: size("max-symbols"),
        max_degree: size("max-degree"),
        max_terms: size("max-terms"),
        max_expr_bytes: size("max-expr-bytes"),
        ..Limits::default()
    }
}

fn main() -> ExitCode {
    let matches = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            // Help and version go to stdout with exit 0, usage errors to stderr with exit 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    match matches.subcommand() {
        Some(("batch", m)) => {
            let stdin = io::stdin().lock();
            let stdout = BufWriter::with_capacity(1 << 16, io::stdout().lock());
            match hlayout_cli::batch::run_with(stdin, stdout, &limits(m)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("hlayout batch: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(("show", m)) => {
            let text = m.get_one::<String>("LAYOUT").map_or("", String::as_str);
            let assumes = many(m, "assume");
            let binds = many(m, "bind");
            let tiles = many(m, "divide");
            if !tiles.is_empty() {
                if hlayout_cli::symbolic::text_has_symbol(text)
                    || !assumes.is_empty()
                    || !binds.is_empty()
                {
                    eprintln!("hlayout show: --divide takes a concrete layout (over symbols: the library's SymLayout::predicated_divide)");
                    return ExitCode::FAILURE;
                }
                let form = m
                    .get_one::<String>("form")
                    .map_or("logical", String::as_str);
                let shown = text
                    .parse::<hlayout::Layout>()
                    .map_err(|e| e.to_string())
                    .and_then(|l| hlayout_cli::show_tiles::report(&l, &tiles, form));
                return match shown {
                    Ok(t) => {
                        print!("{t}");
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("hlayout show: {e}");
                        ExitCode::FAILURE
                    }
                };
            }
            if hlayout_cli::symbolic::text_has_symbol(text)
                || !assumes.is_empty()
                || !binds.is_empty()
            {
                return show_symbolic(text, &assumes, &binds, m);
            }
            if text.trim_start().starts_with("Sw<") {
                return show_composed(text, m.get_flag("svg"), m.get_flag("latex"));
            }
            match text.parse::<hlayout::Layout>() {
                Ok(l) => {
                    let text = if m.get_flag("svg") {
                        hlayout::draw::layout_svg(&l)
                    } else if m.get_flag("latex") {
                        hlayout::draw::layout_latex(&l)
                    } else {
                        hlayout_cli::show::report(&l)
                    };
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("hlayout show: {e}");
                    if let hlayout::Error::Parse { pos, .. } = e {
                        eprintln!("  {text}\n  {:>width$}", "^", width = pos + 1);
                    }
                    ExitCode::FAILURE
                }
            }
        }
        Some(("draw", m)) => run_draw(m),
        Some(("expr", m)) => {
            let get = |name: &str| m.get_one::<String>(name).map(String::as_str);
            let (assumes, lang) = (many(m, "assume"), get("lang").unwrap_or("c"));
            let max_bytes = m.get_one::<u64>("max-expr-bytes").copied();
            let max_bytes = max_bytes.map_or(DEFAULT_MAX_EXPR_BYTES, |n| {
                usize::try_from(n).unwrap_or(usize::MAX)
            });
            let limits = Limits {
                max_expr_bytes: max_bytes,
                ..Limits::default()
            };
            let symbolic = match (get("LAYOUT"), get("chain")) {
                (Some(text), None)
                    if hlayout_cli::symbolic::text_has_symbol(text) && !text.contains("Sw<") =>
                {
                    Some(hlayout_cli::sym_expr::command_versioned(
                        text,
                        &assumes,
                        lang,
                        get("input"),
                        &limits,
                        m.get_flag("versions"),
                    ))
                }
                (None, Some(json)) if symbolic_chain(json) => {
                    Some(hlayout_cli::sym_expr::chain_command_versioned(
                        json,
                        &assumes,
                        lang,
                        get("input"),
                        &limits,
                        m.get_flag("versions"),
                    ))
                }
                _ => None,
            };
            if let Some(out) = symbolic {
                return print_or_fail("expr", out);
            }
            if let Err(e) = expr_symbols(&many(m, "assume"), get("LAYOUT")) {
                eprintln!("hlayout expr: {e}");
                return ExitCode::FAILURE;
            }
            let max_text = max_bytes.to_string();
            let mut args = vec!["--lang", get("lang").unwrap_or("c")];
            args.extend(["--max-expr-bytes", &max_text]);
            if let Some(input) = get("input") {
                args.extend(["--input", input]);
            }
            match (get("chain"), get("LAYOUT")) {
                (Some(json), _) => args.extend(["--chain", json]),
                (None, Some(text)) => args.push(text),
                (None, None) => {}
            }
            match hlayout_cli::expr::command(&args) {
                Ok(text) => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("hlayout expr: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        _ => ExitCode::from(2),
    }
}

/// `hlayout show` of composed text (`Sw<B,M,S> o O o L`): its report, or
/// its drawing.
fn show_composed(text: &str, svg: bool, latex: bool) -> ExitCode {
    match text.parse::<hlayout::algebra::ComposedLayout>() {
        Ok(c) => {
            let out = if svg {
                hlayout::draw::composed_svg(&c)
            } else if latex {
                hlayout::draw::composed_latex(&c)
            } else {
                hlayout_cli::composed::report(&c)
            };
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hlayout show: {e}");
            if let hlayout::Error::Parse { pos, .. } = e {
                eprintln!("  {text}\n  {:>width$}", "^", width = pos + 1);
            }
            ExitCode::FAILURE
        }
    }
}

/// Prints `out`, or the error after `hlayout {cmd}: `.
fn print_or_fail(cmd: &str, out: Result<String, String>) -> ExitCode {
    match out {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hlayout {cmd}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The values of a repeatable option.
fn many<'a>(m: &'a ArgMatches, name: &str) -> Vec<&'a str> {
    m.get_many::<String>(name)
        .map(|v| v.map(String::as_str).collect())
        .unwrap_or_default()
}

/// `hlayout show` of layout text with symbols, `--assume` or `--bind`.
fn show_symbolic(text: &str, assumes: &[&str], binds: &[&str], m: &ArgMatches) -> ExitCode {
    use hlayout_cli::symbolic;
    let drawing = m.get_flag("svg") || m.get_flag("latex");
    if symbolic::text_has_symbol(text) && text.trim_start().starts_with("Sw<") {
        eprintln!(
            "hlayout show: composed layouts (Sw<B,M,S> o O o L) are not supported over symbols yet"
        );
        return ExitCode::FAILURE;
    }
    let out = if drawing {
        symbolic::bind_text(text, assumes, binds).map(|l| {
            if m.get_flag("svg") {
                hlayout::draw::layout_svg(&l)
            } else {
                hlayout::draw::layout_latex(&l)
            }
        })
    } else {
        symbolic::report(text, assumes, binds)
    };
    match out {
        Ok(text) => {
            print!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("hlayout show: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `hlayout expr --assume` of a layout: the assumptions checked; kernel
/// expressions of symbolic composed layouts are refused.
fn expr_symbols(assumes: &[&str], layout: Option<&str>) -> Result<(), String> {
    hlayout_cli::symbolic::symbols_of(assumes)?;
    if layout.is_some_and(hlayout_cli::symbolic::text_has_symbol) {
        return Err(
            "kernel expressions of composed layouts over symbols are not supported yet".into(),
        );
    }
    Ok(())
}

/// `true` when a `--chain` request holds a symbol.
fn symbolic_chain(json: &str) -> bool {
    hlayout_cli::fields::parse_json(json)
        .ok()
        .and_then(|v| v.as_object().cloned())
        .is_some_and(|o| hlayout_cli::symbolic::applies(&o))
}
