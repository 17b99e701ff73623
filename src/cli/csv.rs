//! A CSV file a run writes as it goes (`--forces`, `--hashes`): to a temporary file beside its
//! target, renamed over the target when the run ends, however it ends (a run stopped by Ctrl-C,
//! a non-finite value or a failed check keeps its rows). Errors name the option and the path.

use super::Result;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The CSV being written.
pub(crate) struct CsvOut {
    out: std::io::BufWriter<std::fs::File>,
    partial: Option<crate::files::Partial>,
    path: PathBuf,
    /// The option that asked for it, for the errors.
    option: &'static str,
    rows: u64,
}

impl CsvOut {
    /// Starts the CSV at `path` for `option`, its `header` line written to the temporary file.
    ///
    /// # Errors
    /// When the temporary file cannot be made or written.
    pub(crate) fn new(option: &'static str, path: &Path, header: &str) -> Result<Self> {
        let partial = crate::files::partial(path).map_err(|e| format!("{option}: {e}"))?;
        let file = partial.file.try_clone().map_err(|e| format!("{option} {}: {e}", path.display()))?;
        let out = std::io::BufWriter::new(file);
        let mut csv = CsvOut { out, partial: Some(partial), path: path.into(), option, rows: 0 };
        writeln!(csv.out, "{header}").map_err(|e| csv.failed(e))?;
        Ok(csv)
    }

    fn failed(&self, e: std::io::Error) -> String {
        format!("{} {}: {e}", self.option, self.path.display())
    }

    /// Writes one row, `line` and a newline.
    ///
    /// # Errors
    /// The file's.
    pub(crate) fn row(&mut self, line: std::fmt::Arguments<'_>) -> Result {
        writeln!(self.out, "{line}").map_err(|e| self.failed(e))?;
        self.rows += 1;
        Ok(())
    }

    /// The rows written so far.
    pub(crate) fn rows(&self) -> u64 {
        self.rows
    }

    /// Writes out what is buffered.
    ///
    /// # Errors
    /// The file's.
    pub(crate) fn flush(&mut self) -> Result {
        self.out.flush().map_err(|e| self.failed(e))?;
        Ok(())
    }

    /// Renames the CSV over its target; the rows written.
    ///
    /// # Errors
    /// The file's.
    pub(crate) fn finish(mut self) -> Result<u64> {
        self.flush()?;
        let partial = self.partial.take().expect("finished once");
        crate::files::commit(partial, &self.path).map_err(|e| format!("{}: {e}", self.option))?;
        Ok(self.rows)
    }
}
