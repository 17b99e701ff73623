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
//! **Axis order**, throughout the API: a *size* is `(W, H)` / `width, height` (columns, then
//! rows: `size()`, `Grid::filled(width, height, v)`, `--size WxH`, as wgpu's extents and image
//! sizes); an *array's shape* is `(H, W)` and a cell is `(row, col)` (`shape()`, `grid[(r, c)]`,
//! the `.npz` arrays, as NumPy's). A point in the grid is `(x, y)` = `(col, row)` in cells, as
//! the tools' `center` is.
//!
//! [`model`] is the registry the front ends read: each model's parameters as data (name, unit,
//! range and why, default and its source), fields, presets and GPU needs, and
//! [`model::AnyModel`], which runs and draws any of them. The `eddy` command (feature `cli`) and
//! the viewer (`eddy_fluid::viewer`, feature `viewer`) are thin users of it; with `--no-default-features` the
//! library pulls in neither clap nor winit.
//!
//! ## Embedding
//! Every GPU type takes an application's own `&wgpu::Device` and `&wgpu::Queue` (eddy's wgpu is
//! re-exported as [`wgpu`], so the application need not match its version by hand):
//!
//! ```
//! use eddy_fluid::{wgpu, GpuModel, Simulation, scene::Scene, water::{Brush, GpuWater, WaterParams, WaterState}};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // The application's device, with wgpu's default limits.
//! let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
//! let adapter = pollster::block_on(instance.request_adapter(&Default::default()))?;
//! let (device, queue) = pollster::block_on(adapter.request_device(&Default::default()))?;
//!
//! let scene = Scene::preset("basin", 96, 64, 0)?;
//! let mut sim = GpuWater::new(&device, &queue, &WaterState::from_scene(&scene), WaterParams::default())?;
//! // One frame: steps, a brush (as a mouse handler would), statistics, more steps, all in the
//! // application's encoder and run in that order when it submits.
//! let mut encoder = device.create_command_encoder(&Default::default());
//! sim.encode_steps(&mut encoder, 10);
//! sim.encode_brush(&mut encoder, &Brush::pour((48.0, 10.0), 4.0));
//! sim.encode_stats(&mut encoder);
//! sim.encode_steps(&mut encoder, 10);
//! queue.submit([encoder.finish()]);
//! device.poll(wgpu::PollType::wait_indefinitely())?;
//! let stats = sim.collect_stats().expect("arrived once the device is idle")?;
//! assert_eq!(sim.steps_done(), 20);
//! assert!(stats.total_mass > 0.0);
//! # Ok(()) }
//! ```
//!
//! The contract with an application:
//! - **Recording order.** Every GPU operation of a model has a form that records into the
//!   caller's `&mut wgpu::CommandEncoder` and takes effect in recording order relative to
//!   everything else in it: steps (`encode_steps`), the tools (`encode_brush`, `encode_splat`,
//!   [`AnyModel::encode_stroke`], [`AnyModel::encode_click`]), walls (`encode_solid`,
//!   `encode_masks`), parameters (`encode_params`; a change of smoke's grid, which reads the
//!   state back, only through `set_params`) and statistics (`encode_stats`; collected with
//!   `collect_stats` once the application has submitted and polled). Their per-call data (a
//!   brush's uniform, a wall mask) is copied from a staging buffer by a command in the encoder
//!   ([`gpu::in_order`]), so any number of them in one encoder are each right. The forms without
//!   `encode_` (`step`, `brush`, `splat`, `upload_masks`, `set_params`, `request_stats`, ...)
//!   record into an encoder of their own and submit it.
//! - **Drawing** is middleware-shaped: `prepare` (a renderer's, or [`AnyModel::prepare`]) makes
//!   a [`render::Drawing`] with its settings in a buffer of its own, and
//!   [`render::Drawing::render`] records it into a render pass the application owns, in the
//!   viewport it gives, without clearing; [`render::Blend::Alpha`] leaves air transparent.
//!   `draw` clears a whole texture and draws, for frames and the viewer.
//! - **Errors.** Constructors (models and renderers) run inside error scopes and return
//!   [`gpu::GpuError`] instead of reaching the device's uncaptured-error handler;
//!   [`Simulation::step`] does the same for the work it records and submits. The `encode_`
//!   forms record into the application's encoder, so a failure in them (there should be none
//!   on a device the model was built on) reaches the application when it finishes or submits
//!   the encoder, through its own error handling.

#![warn(missing_docs)]

pub mod body;
#[cfg(feature = "cli")]
pub mod cli;
pub mod colour;
pub mod edge;
pub mod error;
pub mod files;
pub mod gas;
pub mod gpu;
pub mod gpu_model;
pub mod grid;
pub mod model;
#[cfg(feature = "npz")]
pub mod npz;
pub mod params;
pub mod record;
pub mod render;
pub mod scene;
#[cfg(feature = "script")]
pub mod script;
#[macro_use]
pub mod shaders;
pub mod smoke;
pub mod solver;
#[cfg(feature = "viewer")]
pub mod viewer;
#[cfg(feature = "vtk")]
pub mod vtk;
pub mod water;

/// The Rust snippets of the README and the book's pages, compiled and run as doctests (`cargo
/// test --doc`, with the default features): a page whose example no longer builds or runs
/// fails the tests.
#[cfg(doctest)]
mod book {
    #[doc = include_str!("../README.md")]
    struct Readme;
    #[doc = include_str!("../docs/embedding.md")]
    struct Embedding;
}

// Every CPU twin of the pass table named (src/shaders.rs).
check_twins!();

/// The wgpu eddy is built on (version 30): an application makes its device with this one and
/// need not match the version in its own `Cargo.toml`.
pub use wgpu;

/// The bytemuck eddy uploads with (`cast_slice` of a field's `f32`s to the bytes of a texture
/// write): a model written outside eddy need not add it to its own `Cargo.toml`.
pub use bytemuck;

pub use error::{Error, ParamError};
pub use gpu_model::{GpuModel, ModelState, ModelStats};
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
