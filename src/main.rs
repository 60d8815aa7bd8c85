//! The `ansatz` binary: parse arguments, run, map the result to an exit code
//! (0 ok, 1 a search found nothing of what was asked, 2 bad input or I/O).

use std::process::ExitCode;

fn main() -> ExitCode {
    ansatz::cli::main()
}
