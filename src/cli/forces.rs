//! `eddy run --forces OUT.csv`: the fluid's force and torque on every body, every step, as
//! CSV rows `step,time,body,fx,fy,torque,drag_coefficient,lift_coefficient` (units in
//! [`crate::body::forces`]; the coefficients against the stream an inflow edge drives,
//! [`crate::smoke::SmokeParams::stream`], and the body's extent across it, empty without one).
//! Written to a temporary file beside the target as the run goes, renamed over it when the run
//! ends, however it ends ([`super::csv`]).

use super::Result;
use super::csv::CsvOut;
use crate::body::forces::{Reference, StepForces};
use crate::model::{AnyModel, ModelParams};
use std::path::Path;

/// The CSV being written.
pub(crate) struct ForcesCsv(CsvOut);

/// The CSV's header line.
pub(crate) const HEADER: &str = "step,time,body,fx,fy,torque,drag_coefficient,lift_coefficient";

impl ForcesCsv {
    /// Starts the CSV at `path` (its header written to the temporary file).
    ///
    /// # Errors
    /// When the temporary file cannot be made or written.
    pub(crate) fn new(path: &Path) -> Result<Self> {
        Ok(ForcesCsv(CsvOut::new("--forces", path, HEADER)?))
    }

    /// Writes the forces logged since the last call (read from the model: every step, as the
    /// runner reads at least every [`crate::body::forces::LOG_STEPS`] steps), `dt` time units a
    /// step (1 for models that count steps).
    ///
    /// # Errors
    /// A GPU readback error, or the file's.
    pub(crate) fn write(&mut self, model: &mut AnyModel, dt: f32) -> Result {
        let steps = model.read_forces()?;
        let stream = match model.params() {
            ModelParams::Smoke(p) => p.stream(),
            _ => None,
        };
        let bodies = model.bodies().to_vec();
        for StepForces { step, forces } in steps {
            for (i, f) in forces.iter().enumerate() {
                let coefficients = match (stream, bodies.get(i)) {
                    (Some((speed, direction)), Some(body)) => {
                        let (cd, cl) = f.coefficients(&Reference::across(body, speed, direction));
                        format!("{cd},{cl}")
                    }
                    _ => ",".into(),
                };
                let time = step as f64 * dt as f64;
                self.0.row(format_args!("{step},{time},{i},{},{},{},{coefficients}", f.fx, f.fy, f.torque))?;
            }
        }
        self.0.flush()
    }

    /// Renames the CSV over its target; the rows written.
    ///
    /// # Errors
    /// The file's.
    pub(crate) fn finish(self) -> Result<u64> {
        self.0.finish()
    }
}
