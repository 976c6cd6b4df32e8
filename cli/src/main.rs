//! The `hlayout` command: `batch` (JSON Lines protocol), `show` (a human
//! report) and `expr` (a kernel's index and validity expressions).
//!
//! Conventions: `-h`/`--help` and `--version` print to stdout and exit 0; a
//! failed request (bad layout text) exits 1 with the error, and its position,
//! on stderr; bad usage exits 2 with a usage message on stderr.

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::{value_parser, Arg, ArgMatches, Command};
use hlayout::codegen::{Input, Lang};
use hlayout::limits::{
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_OPS, DEFAULT_MAX_RANK,
    DEFAULT_MAX_REPLY_ELEMENTS,
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
than --max-line-bytes is skipped without being held in memory.";

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
                .after_help("Example: hlayout show \"(2,(2,2)):(2,(1,4))\"")
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
                        .help("Print the offset grid as an SVG picture instead")
                        .action(clap::ArgAction::SetTrue),
                )
                .arg(
                    Arg::new("latex")
                        .long("latex")
                        .help("Print the offset grid as a TikZ (LaTeX) picture instead")
                        .action(clap::ArgAction::SetTrue)
                        .conflicts_with("svg"),
                ),
        )
        .subcommand(
            Command::new("expr")
                .about("Print a kernel's index and validity expressions for a layout or a movement-op chain")
                .after_help(
                    "Examples:\n  hlayout expr \"(4,6):(1,4)\"\n  \
                     hlayout expr \"Sw<3,4,3> o 0 o (8,64):(64,1)\"\n  \
                     hlayout expr --chain '{\"shape\":[4,6],\"ops\":[[\"permute\",[1,0]]]}'",
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
        .subcommand(
            Command::new("batch")
                .about("Answer JSON Lines requests on stdin, one reply line each (docs/batch-protocol.md)")
                .after_help(BATCH_HELP)
                .arg(limit("max-rank", "Most dimensions of a shape or op argument, and leaves of a layout", DEFAULT_MAX_RANK as u64))
                .arg(limit("max-depth", "Deepest nesting of layout text", DEFAULT_MAX_DEPTH as u64))
                .arg(limit("max-reply-elements", "Most offsets listed in one reply (for a chain of v views, offsets x v)", DEFAULT_MAX_REPLY_ELEMENTS))
                .arg(limit("max-line-bytes", "Longest request line, in bytes", DEFAULT_MAX_LINE_BYTES as u64))
                .arg(limit("max-ops", "Most movement ops in one chain", DEFAULT_MAX_OPS as u64)),
        )
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
            let stdout = BufWriter::new(io::stdout().lock());
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
            if text.trim_start().starts_with("Sw<") {
                return show_composed(text, m.get_flag("svg") || m.get_flag("latex"));
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
        Some(("expr", m)) => {
            let get = |name: &str| m.get_one::<String>(name).map(String::as_str);
            let mut args = vec!["--lang", get("lang").unwrap_or("c")];
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

/// `hlayout show` of composed text (`Sw<B,M,S> o O o L`): its report.
fn show_composed(text: &str, drawing: bool) -> ExitCode {
    if drawing {
        eprintln!("hlayout show: --svg and --latex draw plain layouts, not composed ones");
        return ExitCode::FAILURE;
    }
    match text.parse::<hlayout::algebra::ComposedLayout>() {
        Ok(c) => {
            print!("{}", hlayout_cli::composed::report(&c));
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
