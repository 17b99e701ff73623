//! From `SimArgs` to what a run starts with: [`crate::model::start`] does the work (the Python
//! module shares it); its usage errors exit 2, its file errors 1.

use super::{Exit, Result, SimArgs, usage};
use crate::model::ModelKind;
pub use crate::model::start::Origin;
use crate::model::start::{Request, Setup, StartError};

/// A usage error exits 2, a file's error 1.
pub fn exit(e: StartError) -> Exit {
    match e {
        StartError::Usage(m) => usage(m),
        StartError::Failed(e) => Exit::Failed(e.into()),
    }
}

impl SimArgs {
    /// What the command line asks for.
    pub fn request(&self) -> Request {
        Request {
            mode: self.mode,
            scene: self.scene.clone(),
            load: self.load.clone(),
            size: self.size,
            seed: self.seed,
            bodies: self.bodies.clone(),
            given: self.params.given.clone(),
            scripted: self.scripted,
        }
    }

    /// The model the command line names or implies ([`Request::stated_mode`]).
    pub fn stated_mode(&self) -> Option<ModelKind> {
        self.request().stated_mode()
    }

    /// The model, its parameters and where the run starts ([`Request::setup`]).
    pub fn setup(&self) -> Result<Setup> {
        self.request().setup().map_err(exit)
    }
}
