//! `eddy run --hashes OUT.csv` and `--check-hashes LOG.csv`: the state hash
//! ([`crate::gpu::state_hash`]) step by step, as CSV rows `step,hash` (the hash 16 hex digits), and
//! a replay held to such a log, which stops at the first step whose hash differs.
//!
//! The log is written to a temporary file beside the target as the run goes and renamed over it
//! when the run ends, however it ends ([`super::csv`]). A log to check is read through once
//! before the first step (every line well formed, the steps increasing, one at least within the
//! run), and then again as the run reaches its steps, so a log of any length takes no memory.

use super::Result;
use super::csv::CsvOut;
use crate::model::AnyModel;
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// The log's header line.
pub(crate) const HEADER: &str = "step,hash";

/// The hash of the state `model` holds now.
fn hash_now(model: &AnyModel) -> Result<u64> {
    Ok(model.state_hash()?)
}

/// The log being written (`--hashes`), a row every `every` steps.
pub(crate) struct HashLog {
    csv: CsvOut,
    every: u64,
}

impl HashLog {
    /// Starts the log at `path` (its header written to the temporary file).
    ///
    /// # Errors
    /// When the temporary file cannot be made or written.
    pub(crate) fn new(path: &Path, every: u64) -> Result<Self> {
        Ok(HashLog { csv: CsvOut::new("--hashes", path, HEADER)?, every })
    }

    /// Steps from `step` to the next one the log takes.
    pub(crate) fn steps_to_next(&self, step: u64) -> u64 {
        self.every - step % self.every
    }

    /// Writes the hash of the model's water at the start and when its step is one the log
    /// takes (a multiple of `every`).
    ///
    /// # Errors
    /// A GPU readback error, or the file's.
    pub(crate) fn write(&mut self, model: &AnyModel) -> Result {
        let step = model.steps_done();
        // The start's row, then every `every` steps.
        if self.csv.rows() > 0 && !step.is_multiple_of(self.every) {
            return Ok(());
        }
        let hash = crate::gpu::state_hash::hex(hash_now(model)?);
        self.csv.row(format_args!("{step},{hash}"))
    }

    /// Renames the log over its target; the rows written.
    ///
    /// # Errors
    /// The file's.
    pub(crate) fn finish(self) -> Result<u64> {
        self.csv.finish()
    }
}

/// One row of a log: `(step, hash)`, or why line `line` is not one.
fn parse_row(text: &str, line: u64) -> std::result::Result<(u64, u64), String> {
    let bad = |why: &str| format!("line {line} ({text:?}) {why}: each row is step,hash (e.g. 1000,f34ea3712048fdce)");
    let (step, hash) = text.trim_end_matches('\r').split_once(',').ok_or_else(|| bad("has no comma"))?;
    let step: u64 = step.trim().parse().map_err(|_| bad("has no whole step number"))?;
    let hash = hash.trim();
    if hash.len() != 16 {
        return Err(bad("has no hash of 16 hex digits"));
    }
    let hash = u64::from_str_radix(hash, 16).map_err(|_| bad("has no hash of 16 hex digits"))?;
    Ok((step, hash))
}

/// A log's rows, read one at a time; every error names the file and the line.
struct Rows {
    lines: std::io::Lines<std::io::BufReader<std::fs::File>>,
    path: PathBuf,
    line: u64,
    last: Option<u64>,
}

impl Rows {
    fn open(path: &Path) -> std::result::Result<Self, String> {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut lines = std::io::BufReader::new(file).lines();
        let header = lines.next().transpose().map_err(|e| format!("{}: {e}", path.display()))?;
        if header.as_deref().map(|h| h.trim_end_matches('\r')) != Some(HEADER) {
            return Err(format!(
                "{}: not a hash log: its first line should be {HEADER:?} (eddy run --hashes writes one)",
                path.display()
            ));
        }
        Ok(Rows { lines, path: path.into(), line: 1, last: None })
    }

    fn next(&mut self) -> std::result::Result<Option<(u64, u64)>, String> {
        loop {
            let Some(text) = self.lines.next() else { return Ok(None) };
            self.line += 1;
            let text = text.map_err(|e| format!("{}: line {}: {e}", self.path.display(), self.line))?;
            if text.trim().is_empty() {
                continue;
            }
            let (step, hash) = parse_row(&text, self.line).map_err(|e| format!("{}: {e}", self.path.display()))?;
            if self.last.is_some_and(|last| step <= last) {
                return Err(format!(
                    "{}: line {}: step {step} after step {}: a log's steps increase",
                    self.path.display(),
                    self.line,
                    self.last.unwrap_or(0)
                ));
            }
            self.last = Some(step);
            return Ok(Some((step, hash)));
        }
    }
}

/// A replay held to a log (`--check-hashes`).
pub(crate) struct HashCheck {
    rows: Rows,
    /// The next row at or after the step reached.
    next: Option<(u64, u64)>,
    /// Steps compared, and the last.
    compared: u64,
    last: Option<u64>,
}

impl HashCheck {
    /// Reads the log at `path` through (every row well formed, the steps increasing) and opens
    /// it for the run from step `first` to `end`.
    ///
    /// # Errors
    /// A line naming the file and what is wrong with it: missing or unreadable, not a log, a row
    /// not `step,hash`, steps not increasing, or no step from `first` to `end` to compare.
    pub(crate) fn open(path: &Path, first: u64, end: u64) -> std::result::Result<Self, String> {
        let mut rows = Rows::open(path)?;
        let (mut within, mut span) = (0u64, None::<(u64, u64)>);
        while let Some((step, _)) = rows.next()? {
            within += (first..=end).contains(&step) as u64;
            span = Some(span.map_or((step, step), |(lo, _)| (lo, step)));
        }
        let Some((lo, hi)) = span else {
            return Err(format!(
                "{}: the log has no rows to compare: write one with eddy run --hashes",
                path.display()
            ));
        };
        if within == 0 {
            return Err(format!(
                "{}: the log holds steps {lo} to {hi}, and this run goes from step {first} to {end}: no step to compare \
                 (--load the state saved at or before a logged step, or run more --steps)",
                path.display()
            ));
        }
        let mut rows = Rows::open(path)?;
        let mut next = rows.next()?;
        while next.is_some_and(|(step, _)| step < first) {
            next = rows.next()?;
        }
        Ok(HashCheck { rows, next, compared: 0, last: None })
    }

    /// Steps from `step` to the next logged one (`None` past the log's last).
    pub(crate) fn steps_to_next(&self, step: u64) -> Option<u64> {
        self.next.map(|(s, _)| s.saturating_sub(step).max(1))
    }

    /// Compares the model's hash with the log's when its step is a logged one.
    ///
    /// # Errors
    /// At the first step whose hash differs, a line naming it, both hashes and the last step
    /// that agreed; a GPU readback error.
    pub(crate) fn check(&mut self, model: &AnyModel) -> Result {
        let step = model.steps_done();
        let Some((logged, want)) = self.next else { return Ok(()) };
        if logged != step {
            return Ok(());
        }
        let got = hash_now(model)?;
        if got != want {
            let hex = crate::gpu::state_hash::hex;
            let agreed = match self.last {
                Some(last) => format!("the {} steps compared before it agreed, the last at step {last}", self.compared),
                None => "it is the first step compared".to_string(),
            };
            return Err(format!(
                "replay differs from {} first at step {step}: hash {} here, {} in the log ({agreed})",
                self.rows.path.display(),
                hex(got),
                hex(want)
            )
            .into());
        }
        self.compared += 1;
        self.last = Some(step);
        self.next = self.rows.next()?;
        Ok(())
    }

    /// What the check found, for the run's summary: the steps compared, and where the log goes on
    /// past the run.
    pub(crate) fn summary(&self) -> String {
        let path = self.rows.path.display();
        let mut line = match self.last {
            Some(last) => {
                format!("replay check: the hashes of {} steps match {path}, the last at step {last}", self.compared)
            }
            None => format!("replay check: no step of {path} was reached"),
        };
        if let Some((step, _)) = self.next {
            line.push_str(&format!(" (the log goes on from step {step})"));
        }
        line
    }
}
