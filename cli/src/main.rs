//! The `hlayout` command: `batch` (JSON Lines protocol) and `show` (a human report).

use std::io::{self, BufWriter};
use std::process::ExitCode;

const USAGE: &str = "usage:
  hlayout show LAYOUT     print a layout, its size/cosize, coalesced form,
                          flatten report and offset grid, e.g.
                          hlayout show \"(2,(2,2)):(2,(1,4))\"
  hlayout show --svg LAYOUT    the offset grid as an SVG picture
  hlayout show --latex LAYOUT  the offset grid as a TikZ (LaTeX) picture
  hlayout batch           answer JSON Lines requests on stdin (see docs/batch-protocol.md)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["batch"] => {
            let stdin = io::stdin().lock();
            let stdout = BufWriter::new(io::stdout().lock());
            match hlayout_cli::batch::run(stdin, stdout) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("hlayout batch: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        ["show", text] | ["show", "--svg" | "--latex", text] => {
            match text.parse::<hlayout::Layout>() {
                Ok(l) => {
                    print!(
                        "{}",
                        match args[1].as_str() {
                            "--svg" => hlayout::draw::layout_svg(&l),
                            "--latex" => hlayout::draw::layout_latex(&l),
                            _ => hlayout_cli::show::report(&l),
                        }
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("hlayout show: {e}");
                    ExitCode::from(2)
                }
            }
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
