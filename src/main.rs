//! The `eddy` command: `view` (default), `run`, `bench`. See `eddy --help`; the command itself
//! lives in the library (`eddy_fluid::cli`), where a program that registers a model of its own
//! runs it too.

fn main() -> std::process::ExitCode {
    eddy_fluid::cli::main()
}
