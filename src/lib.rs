//! # eddy: 2D fluids as WGSL compute passes on wgpu
//!
//! Three models of fluid, each a set of compute passes over ping-pong storage textures with a
//! CPU reference that the GPU is tested against:
//!
//! - [`water`]: the compressible-water cellular automaton (J. Elsts, "Simple Fluid Simulation
//!   With Cellular Automata", 2009, and its Unity port);
//! - [`gas`]: a mass-and-momentum flow automaton (dtosoftware, "Fluid dynamics part 2", 2012);
//! - [`smoke`]: the GPU Gems ch. 38 Eulerian pipeline (Harris 2004, after Stam 1999) with
//!   Rideout's buoyant smoke and obstacles.
//!
//! All fields are `(H, W)` [`Grid`]s with row 0 at the top; units are cells and steps.
//!
//! [`model`] is the registry the front ends read: each model's parameters as data (name, unit,
//! range and why, default and its source), fields, presets and GPU needs, and
//! [`model::AnyModel`], which runs and draws any of them. The `eddy` command (feature `cli`) and
//! the [`viewer`] (feature `viewer`) are thin users of it; with `--no-default-features` the
//! library pulls in neither clap nor winit.
//!
//! ## Embedding
//! Every GPU type takes an application's own `&wgpu::Device` and `&wgpu::Queue`:
//!
//! ```no_run
//! use eddy::{Simulation, scene::Scene, water::{GpuWater, WaterParams, WaterState}};
//! # fn main() -> Result<(), eddy::Error> {
//! let gpu = eddy::gpu::Gpu::headless()?; // or your own device and queue
//! let scene = Scene::preset("basin", 192, 128, 0)?;
//! let mut sim = GpuWater::new(&gpu.device, &gpu.queue, &WaterState::from_scene(&scene), WaterParams::default())?;
//! sim.step(100)?;
//! println!("total mass {}", sim.stats()?.total_mass);
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

pub mod colour;
pub mod error;
pub mod files;
pub mod gas;
pub mod gpu;
pub mod grid;
pub mod model;
pub mod npz;
pub mod params;
pub mod record;
pub mod render;
pub mod scene;
pub mod script;
pub mod shaders;
pub mod smoke;
pub mod solver;
#[cfg(feature = "viewer")]
pub mod viewer;
pub mod water;

/// The wgpu eddy is built on (version 30): an application makes its device with this one and
/// need not match the version in its own `Cargo.toml`.
pub use wgpu;

pub use error::{Error, ParamError};
pub use grid::Grid;
pub use model::{AnyModel, ModelKind};

/// One simulation, on either backend: the GPU one and its CPU reference implement the same
/// interface, so a test runs one scenario on both and compares the fields.
pub trait Simulation {
    /// The fields read back, e.g. [`water::WaterState`].
    type State;

    /// Advances `steps` steps. A GPU backend submits the work without waiting for it.
    ///
    /// # Errors
    /// [`Error::Gpu`] if the device reports a failure.
    fn step(&mut self, steps: u32) -> Result<(), Error>;

    /// The current fields (a GPU backend reads them back and waits for the GPU).
    ///
    /// # Errors
    /// [`Error::Gpu`] if the readback fails or the device is lost.
    fn read_state(&mut self) -> Result<Self::State, Error>;

    /// Steps run since creation.
    fn steps_done(&self) -> u64;
}
