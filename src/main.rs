//! The `eddy` command: `view` (default), `run`, `bench`. See `eddy --help`.

mod cli;
#[cfg(feature = "viewer")]
mod viewer;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = cli::Cli::parse();
    let result = match args.command.unwrap_or(cli::Command::View(args.view)) {
        cli::Command::Run(a) => cli::run::run(a),
        cli::Command::Bench(a) => cli::bench::bench(a),
        cli::Command::View(a) => view(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One clear line: the error and those of its causes it does not already say.
            let mut line = format!("eddy: error: {e}");
            let mut source = std::error::Error::source(&*e);
            while let Some(s) = source {
                let cause = s.to_string();
                if !line.contains(&cause) {
                    line.push_str(&format!(": {cause}"));
                }
                source = s.source();
            }
            eprintln!("{line}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(feature = "viewer")]
fn view(args: cli::ViewArgs) -> cli::Result {
    viewer::run(args)
}

#[cfg(not(feature = "viewer"))]
fn view(_: cli::ViewArgs) -> cli::Result {
    Err("this eddy was built without the `viewer` feature; rebuild with default features, or use `eddy run`".into())
}
