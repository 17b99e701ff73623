//! `water`: the compressible-water cellular automaton.
//!
//! Source: J. Elsts, "Simple Fluid Simulation With Cellular Automata" (w-shadow.com, 2009,
//! Processing `water_sim`): one mass per cell (1.0 = a full cell), flowing down, left, right and
//! up each step; a cell below may hold slightly more than 1.0 (`max_compress` per full cell above
//! it), and that compression is what pushes water up the other arm of a U-tube. The Unity port
//! of the same automaton shares side differences by 1/2 instead of 1/4 ([`RulePreset::Unity`]).
//!
//! Two backends run the same rules: [`GpuWater`] (two compute passes per step, gather-only) and
//! [`CpuWater`] (the literal sequential push loop, [`cpu::simulate_compression`]), which the tests
//! hold the GPU to.

pub mod cpu;
mod gpu;

pub use gpu::GpuWater;

use crate::error::{Error, ParamError};
use crate::grid::Grid;
use crate::scene::{self, Scene, SceneError};
use std::path::Path;

/// What lies outside the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Boundary {
    /// The grid's edge is solid ground: water stays in.
    #[default]
    Wall,
    /// Outside is empty air: water that flows out is removed (Elsts' border ring).
    Open,
}

/// The two rule sets the sources give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum RulePreset {
    /// Elsts' original: side flow `(m - m_n) / 4`.
    #[default]
    Elsts,
    /// The Unity port: side flow `(m - m_n) / 2`.
    Unity,
}

/// Rule constants, in units of a full cell's mass per cell per step. Uploaded as a uniform
/// (`WaterParams` in `shaders/water/params.wgsl`); settable from the CLI and [`GpuWater::set_params`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterParams {
    /// MaxMass: mass of a full, uncompressed cell (Elsts: 1.0).
    pub max_mass: f32,
    /// MaxCompress: extra mass a cell holds per full cell above it (Elsts: 0.02).
    pub max_compress: f32,
    /// MinMass: cells with less count as dry in statistics and rendering (Elsts: 0.0001).
    pub min_mass: f32,
    /// MinFlow: a flow above it is halved, "leads to smoother flow" (Elsts: 0.01).
    pub min_flow: f32,
    /// MaxSpeed: cap on the vertical flow out of a cell per step (Elsts: 1.0).
    pub max_speed: f32,
    /// Share of a side-neighbour mass difference that flows per step: 1/4 (Elsts), 1/2 (Unity).
    pub side_share: f32,
    /// What lies outside the grid.
    pub boundary: Boundary,
}

impl Default for WaterParams {
    fn default() -> Self {
        Self::preset(RulePreset::Elsts)
    }
}

impl WaterParams {
    /// The constants of Elsts' `water_sim`, with the side share of `preset`.
    pub fn preset(preset: RulePreset) -> Self {
        Self {
            max_mass: 1.0,
            max_compress: 0.02,
            min_mass: 0.0001,
            min_flow: 0.01,
            max_speed: 1.0,
            side_share: match preset {
                RulePreset::Elsts => 0.25,
                RulePreset::Unity => 0.5,
            },
            boundary: Boundary::Wall,
        }
    }

    /// Checks every constant is finite and in the range where the automaton is defined.
    ///
    /// # Errors
    /// [`ParamError`] naming the first bad parameter: `max_mass`, `max_speed` must be > 0;
    /// `max_compress`, `min_mass`, `min_flow` >= 0; `side_share` in (0, 0.5] (above 1/2 a cell
    /// would give a neighbour more than the difference and the levels would oscillate).
    pub fn validate(&self) -> Result<(), ParamError> {
        let checks: [(&'static str, f32, bool, &'static str); 6] = [
            ("max-mass", self.max_mass, self.max_mass > 0.0, "a finite number > 0"),
            ("max-compress", self.max_compress, self.max_compress >= 0.0, "a finite number >= 0"),
            ("min-mass", self.min_mass, self.min_mass >= 0.0, "a finite number >= 0"),
            ("min-flow", self.min_flow, self.min_flow >= 0.0, "a finite number >= 0"),
            ("max-speed", self.max_speed, self.max_speed > 0.0, "a finite number > 0"),
            ("side-share", self.side_share, self.side_share > 0.0 && self.side_share <= 0.5, "in (0, 0.5]"),
        ];
        for (name, value, ok, expected) in checks {
            if !value.is_finite() || !ok {
                return Err(ParamError::new(name, value, expected));
            }
        }
        Ok(())
    }
}

/// The water model's state: `mass` `(H, W)` f32 in full-cell units (1.0 = `max_mass`, more is
/// compressed water), and `solid` `(H, W)` u8 (non-zero = ground). Row 0 is the top.
#[derive(Clone, Debug, PartialEq)]
pub struct WaterState {
    /// Water mass per cell, `(H, W)`, >= 0; 0 in solid cells.
    pub mass: Grid<f32>,
    /// Solid mask, `(H, W)`, 1 = ground, 0 = open.
    pub solid: Grid<u8>,
}

/// Statistics of a water field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterStats {
    /// Sum of `mass` over the grid (full-cell units), accumulated in f64.
    pub total_mass: f64,
    /// Cells with `mass > min_mass` (Elsts' WATER flag).
    pub wet_cells: usize,
}

impl WaterStats {
    /// Statistics of an `(H, W)` mass field; cells count as wet above `min_mass`.
    pub fn of(mass: &Grid<f32>, min_mass: f32) -> Self {
        let m = mass.as_slice();
        Self { total_mass: m.iter().map(|&v| v as f64).sum(), wet_cells: m.iter().filter(|&&v| v > min_mass).count() }
    }
}

impl WaterState {
    /// The state a scene starts in: water (mass = the scene's fluid, 1.0 where the PNG is blue)
    /// and ground where it is solid; sources are ignored.
    pub fn from_scene(scene: &Scene) -> Self {
        Self { mass: scene.fluid.clone(), solid: scene.solid.clone() }
    }

    /// An empty `height x width` state (no water, no ground).
    pub fn empty(width: usize, height: usize) -> Self {
        Self { mass: Grid::filled(width, height, 0.0), solid: Grid::filled(width, height, 0) }
    }

    /// Total mass and wet-cell count; cells count as wet above `min_mass`.
    pub fn stats(&self, min_mass: f32) -> WaterStats {
        WaterStats::of(&self.mass, min_mass)
    }

    /// `(H, W)`.
    pub fn shape(&self) -> (usize, usize) {
        self.mass.shape()
    }

    /// Checks shapes agree and masses are finite and >= 0; then empties solid cells.
    ///
    /// # Errors
    /// [`SceneError::ShapeMismatch`] or [`SceneError::BadValue`] naming the first bad cell.
    pub fn validated(mut self, origin: &Path) -> Result<Self, SceneError> {
        scene::check_same_shape(origin, ("mass", self.mass.shape()), ("solid", self.solid.shape()))?;
        scene::check_finite_non_negative(origin, "mass", &self.mass)?;
        for (m, &s) in self.mass.as_mut_slice().iter_mut().zip(self.solid.as_slice()) {
            if s != 0 {
                *m = 0.0;
            }
        }
        Ok(self)
    }

    /// Writes `path` as NumPy `.npz`: `mass` float32 `(H, W)`, `solid` uint8 `(H, W)`, row 0 top.
    ///
    /// # Errors
    /// [`SceneError::Io`] when the file cannot be written.
    pub fn save_npz(&self, path: &Path) -> Result<(), SceneError> {
        let mut npz = scene::Npz::create(path)?;
        npz.write_f32("mass", &self.mass)?;
        npz.write_u8("solid", &self.solid)?;
        npz.finish()
    }

    /// Reads a `.npz` written by [`WaterState::save_npz`] (or by NumPy with the same arrays;
    /// `solid` may be missing, meaning no ground; any integer or bool dtype is accepted for it).
    ///
    /// # Errors
    /// [`SceneError`] when the file is missing or not an `.npz`, `mass` is missing or not a 2-D
    /// float32 array, shapes differ, or a mass is NaN, infinite or negative.
    pub fn load_npz(path: &Path) -> Result<Self, SceneError> {
        let mut npz = scene::NpzReader::open(path)?;
        let mass = npz.read_f32("mass")?;
        let solid = match npz.read_u8_opt("solid")? {
            Some(s) => s,
            None => Grid::filled(mass.width(), mass.height(), 0),
        };
        Self { mass, solid }.validated(path)
    }
}

/// A disc-shaped edit of the mass field (the viewer's pour and erase tools).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Brush {
    /// Centre `(col, row)` in cells; cell `(r, c)` has its centre at `(c + 0.5, r + 0.5)`.
    pub center: (f32, f32),
    /// Radius in cells.
    pub radius: f32,
    /// Factor on the existing mass: 1 keeps it, 0 erases it.
    pub scale: f32,
    /// Mass added to each cell inside (full-cell units).
    pub add: f32,
}

/// The water model on the CPU: [`cpu::simulate_compression`] per step.
pub struct CpuWater {
    state: WaterState,
    params: WaterParams,
    steps: u64,
}

impl CpuWater {
    /// Starts from `state` with `params`.
    ///
    /// # Errors
    /// [`Error::Param`] when `params` fail [`WaterParams::validate`].
    pub fn new(state: WaterState, params: WaterParams) -> Result<Self, Error> {
        params.validate()?;
        Ok(Self { state, params, steps: 0 })
    }

    /// The current state.
    pub fn state(&self) -> &WaterState {
        &self.state
    }

    /// Applies a brush edit ([`cpu::brush`]).
    pub fn brush(&mut self, b: &Brush) {
        cpu::brush(&mut self.state, b);
    }
}

impl crate::Simulation for CpuWater {
    type State = WaterState;

    fn step(&mut self, steps: u32) -> Result<(), Error> {
        for _ in 0..steps {
            cpu::simulate_compression(&mut self.state, &self.params);
        }
        self.steps += steps as u64;
        Ok(())
    }

    fn read_state(&mut self) -> Result<WaterState, Error> {
        Ok(self.state.clone())
    }

    fn steps_done(&self) -> u64 {
        self.steps
    }
}
