//! Errors of eddy's public surface: [`Error`] wraps the GPU, scene and parameter errors.

pub use crate::gpu::GpuError;
pub use crate::scene::SceneError;

/// A simulation parameter outside the range where the model is defined or stable.
#[derive(Debug, thiserror::Error)]
#[error("invalid parameter {name} = {value}: {expected}")]
#[non_exhaustive]
pub struct ParamError {
    /// The parameter's name as the CLI spells it (e.g. `side-share`).
    pub name: &'static str,
    /// The rejected value, as given.
    pub value: String,
    /// What would be accepted, and why.
    pub expected: String,
}

impl ParamError {
    /// A parameter error; `expected` says what range is allowed and why.
    pub fn new(name: &'static str, value: impl ToString, expected: impl Into<String>) -> Self {
        Self { name, value: value.to_string(), expected: expected.into() }
    }
}

/// Any error from eddy's library API.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// From the GPU: no adapter, device lost, validation, grid too large for the adapter.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// From reading or writing scenes and state files.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// A parameter out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// Anything else, said in one line (a model this adapter cannot run, a field a model does
    /// not have, a script's action that does not apply).
    #[error("{0}")]
    Message(String),
}
