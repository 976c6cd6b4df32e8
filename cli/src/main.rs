//! The `hlayout` command: `batch` (JSON Lines protocol) and `show` (a human report).

use std::io::{self, BufWriter};
use std::process::ExitCode;

const USAGE: &str = "usage:
  hlayout show LAYOUT     print a layout, its size/cosize, coalesced form,
                          flatten report and offset grid, e.g.
                          hlayout show \"(2,(2,2)):(2,(1,4))\"
  hlayout batch           answer JSON Lines requests on stdin (see docs/batch-protocol.md)
  hlayout expr [--lang c|rust|python] [--input linear|coords] (LAYOUT | --chain JSON)
                          print a kernel's index and validity expressions, e.g.
                          hlayout expr --chain '{\"shape\":[4,6],\"ops\":[[\"permute\",[1,0]]]}'";

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
        ["expr", rest @ ..] => match hlayout_cli::expr::command(rest) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("hlayout expr: {e}");
                ExitCode::from(2)
            }
        },
        ["show", text] => match text.parse::<hlayout::Layout>() {
            Ok(l) => {
                print!("{}", hlayout_cli::show::report(&l));
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("hlayout show: {e}");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}
