//! Printing that can never stop a run: progress and summary lines go through [`say!`] (standard
//! output) and [`note!`] (standard error), which ignore a failed write instead of panicking as
//! `println!` does. A closed pipe (`eddy run ... | head -1`), a full disk (`> /dev/full`) or a
//! closed descriptor therefore costs lines, never the run or its files; after the first failure
//! on standard output nothing more is printed there, and `main` reports it once on standard
//! error and exits 1 (the run itself went on and saved what it was asked to).

use std::io::Write;
use std::sync::OnceLock;

/// The first error writing to standard output, kept for the exit line.
static STDOUT_FAILED: OnceLock<std::io::ErrorKind> = OnceLock::new();

/// Writes `line` and a newline to standard output and flushes it (so a failure shows at once);
/// a failure is recorded ([`stdout_failed`]) and ends printing there.
pub fn stdout_line(line: std::fmt::Arguments<'_>) {
    if STDOUT_FAILED.get().is_some() {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{line}").and_then(|()| out.flush()) {
        let _ = STDOUT_FAILED.set(e.kind());
    }
}

/// Writes `line` and a newline to standard error; a failure is ignored (there is nowhere left
/// to say it).
pub fn stderr_line(line: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// The error standard output first failed with, if it did.
pub fn stdout_failed() -> Option<std::io::ErrorKind> {
    STDOUT_FAILED.get().copied()
}

/// `println!` that never panics and never stops the program ([`stdout_line`]).
macro_rules! say {
    () => { $crate::cli::out::stdout_line(format_args!("")) };
    ($($t:tt)*) => { $crate::cli::out::stdout_line(format_args!($($t)*)) };
}

/// `eprintln!` that never panics ([`stderr_line`]).
macro_rules! note {
    ($($t:tt)*) => { $crate::cli::out::stderr_line(format_args!($($t)*)) };
}

pub(crate) use {note, say};
