//! `water`: the compressible-water cellular automaton.
//!
//! Source: J. Elsts, "Simple Fluid Simulation With Cellular Automata" (w-shadow.com, 2009,
//! Processing `water_sim`): one mass per cell (1.0 = a full cell), flowing down, left, right and
//! up each step; a cell below may hold slightly more than 1.0 (`max_compress` per full cell above
//! it), and that compression is what pushes water up the other arm of a U-tube. The Unity port
//! of the same automaton shares side differences by 1/2 instead of 1/4 ([`RulePreset::Unity`]).
//!
//! Two backends run the same rules: [`GpuWater`] (one compute pass per step, gather-only) and
//! [`CpuWater`] (the literal sequential push loop, [`cpu::simulate_compression`]), which the tests
//! hold the GPU to.

pub mod bodies;
pub mod cpu;
pub mod fixed;
mod gpu;
pub mod hash;
pub mod packed_world;
pub mod tiles;

pub use gpu::{GpuWater, PackedPage};

/// Most storage textures one water pass writes: 2 (the bodies' displacement writes the packed
/// mass and the cells they cover in the solid bits; the step writes the new packed mass, the
/// brush the new mass). A device must allow this many per shader stage
/// ([`crate::gpu::check_device`]).
pub const STORAGE_TEXTURES_PER_STAGE: u32 = 2;

use crate::error::{Error, ParamError};
use crate::grid::Grid;
#[cfg(feature = "npz")]
use crate::npz::{Npz, NpzReader};
use crate::params::{ParamInfo, ParamKind, ParamSpec, ParamTable, Range, Value};
use crate::scene::{self, Scene, SceneError};
use std::path::Path;

/// What lies outside the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Boundary {
    /// The grid's edge is solid ground: water stays in.
    #[default]
    Wall,
    /// Outside is empty air: water that flows out is removed (Elsts' border ring).
    Open,
}

/// The two rule sets the sources give.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RulePreset {
    /// Elsts' original: side flow `(m - m_n) / 4`.
    #[default]
    Elsts,
    /// The Unity port: side flow `(m - m_n) / 2`.
    Unity,
}

/// How the step computes masses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Arithmetic {
    /// `f32`, as Elsts' sketch does: the results may differ between adapters in the last bits.
    #[default]
    Float,
    /// Whole units of 1/16384 of a full cell in integer arithmetic ([`fixed`]): the same bits on
    /// every adapter, and the total mass kept exactly.
    Fixed,
}

/// Rule constants, in units of a full cell's mass per cell per step. Uploaded as a uniform
/// (`WaterParams` in `shaders/water/params.wgsl`); settable from the CLI and [`crate::GpuModel::set_params`].
/// Each field is one row of [`WaterParams::TABLE`], which gives its range and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterParams {
    /// Which source's rules: sets [`WaterParams::side_share`] when chosen.
    pub rules: RulePreset,
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
    /// Gravity on bodies in the water, cells/step^2, down: their weight and the water's pressure
    /// on them ([`bodies`]). The automaton's water falls by its own rules.
    pub gravity: f32,
    /// Float or fixed-point masses ([`fixed`]).
    pub arithmetic: Arithmetic,
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
            rules: preset,
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
            gravity: DEFAULT_GRAVITY,
            arithmetic: Arithmetic::Float,
        }
    }

    /// Checks every constant against [`WaterParams::TABLE`].
    ///
    /// # Errors
    /// [`ParamError`] naming the first bad parameter, its allowed range and why.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check()
    }
}

const ELSTS: &str = "Elsts, water_sim (2009)";

/// [`WaterParams::gravity`]'s default, cells/step^2: a body falls its own height of 8 cells
/// through air in about 20 steps, about as fast as the automaton's water falls (at most a cell a
/// step), and a floating crate bobs with a period of a few dozen steps.
pub const DEFAULT_GRAVITY: f32 = 0.02;

/// [`WaterParams::gravity`]'s largest, cells/step^2: a body at rest would pass its fastest step
/// ([`bodies::MAX_BODY_STEP`]) in one step.
pub const MAX_GRAVITY: f32 = bodies::MAX_BODY_STEP;

impl ParamTable for WaterParams {
    const TABLE: &'static [ParamSpec<Self>] = &[
        ParamSpec {
            info: ParamInfo::of("preset", "rules", "", ParamKind::Choice(&["elsts", "unity"])).doc(
                "rule set: side flow (m - m_n) / 4 (Elsts) or / 2 (the Unity port); sets --side-share's default",
                ELSTS,
            ),
            get: |p| Value::Choice(p.rules as usize),
            set: |p, v| {
                p.rules = if v.choice() == 1 { RulePreset::Unity } else { RulePreset::Elsts };
                p.side_share = WaterParams::preset(p.rules).side_share;
            },
        },
        ParamSpec {
            info: ParamInfo::of("boundary", "edge", "", ParamKind::Choice(&["wall", "open"])).doc(
                "outside the grid: wall (solid) or open (empty air; water flowing out is removed, Elsts' border ring)",
                "eddy",
            ),
            get: |p| Value::Choice(p.boundary as usize),
            set: |p, v| p.boundary = if v.choice() == 1 { Boundary::Open } else { Boundary::Wall },
        },
        ParamSpec {
            info: ParamInfo::real(
                "max-mass",
                "MaxMass",
                "full cells",
                Range::open_min(0.0, f32::INFINITY, "a full cell must hold some water", ""),
            )
            .doc("mass of a full, uncompressed cell", ELSTS),
            get: |p| Value::Real(p.max_mass),
            set: |p, v| p.max_mass = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "max-compress",
                "MaxCompress",
                "full cells",
                Range::closed(
                    0.0,
                    f32::INFINITY,
                    "negative compression would make lower cells hold less than upper ones",
                    "",
                ),
            )
            .doc("extra mass a cell holds per full cell above it", ELSTS),
            get: |p| Value::Real(p.max_compress),
            set: |p, v| p.max_compress = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "min-mass",
                "MinMass",
                "full cells",
                Range::closed(
                    0.0,
                    f32::INFINITY,
                    "masses are never negative, so a negative threshold means nothing",
                    "",
                ),
            )
            .doc("cells with less count as dry (statistics, rendering)", ELSTS),
            get: |p| Value::Real(p.min_mass),
            set: |p, v| p.min_mass = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "min-flow",
                "MinFlow",
                "full cells/step",
                Range::closed(
                    0.0,
                    f32::INFINITY,
                    "flows are never negative, so a negative threshold means nothing",
                    "",
                ),
            )
            .doc("flows above it are halved (smoother flow)", ELSTS),
            get: |p| Value::Real(p.min_flow),
            set: |p, v| p.min_flow = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "max-speed",
                "MaxSpeed",
                "full cells/step",
                Range::open_min(0.0, f32::INFINITY, "at 0 nothing flows up or down", ""),
            )
            .doc("cap on the vertical flow out of a cell per step", ELSTS),
            get: |p| Value::Real(p.max_speed),
            set: |p, v| p.max_speed = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "side-share",
                "side",
                "",
                Range::open_min(
                    0.0,
                    0.5,
                    "at 0 no water flows sideways",
                    "above 1/2 a cell gives a neighbour more than the difference and the levels oscillate",
                ),
            )
            .doc("share of a side difference that flows per step", "Elsts 1/4, Unity port 1/2 (by --preset)"),
            get: |p| Value::Real(p.side_share),
            set: |p, v| p.side_share = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "gravity",
                "g",
                "cells/step^2",
                Range::closed(
                    0.0,
                    MAX_GRAVITY,
                    "the water's own gravity points down, so bodies' must too",
                    "a body would pass its fastest step (half a cell) in one step",
                ),
            )
            .doc("gravity on bodies in the water (their weight, the water's pressure on them), down", "eddy"),
            get: |p| Value::Real(p.gravity),
            set: |p, v| p.gravity = v.real(),
        },
        ParamSpec {
            info: ParamInfo::of("arithmetic", "arith", "", ParamKind::Choice(&["float", "fixed"])).doc(
                "masses as f32 (Elsts) or as whole units of 1/16384 in integer arithmetic: the same bits on every adapter, the mass kept exactly",
                "eddy",
            ),
            get: |p| Value::Choice(p.arithmetic as usize),
            set: |p, v| p.arithmetic = if v.choice() == 1 { Arithmetic::Fixed } else { Arithmetic::Float },
        },
    ];

    /// Fixed-point water's limits on the other constants ([`fixed::Units::of`]).
    fn check_together(&self) -> Result<(), ParamError> {
        match self.arithmetic {
            Arithmetic::Float => Ok(()),
            Arithmetic::Fixed => fixed::Units::of(self).map(|_| ()),
        }
    }
}

/// The water model's state: `mass` `(H, W)` f32 in full-cell units (1.0 = `max_mass`, more is
/// compressed water), `solid` `(H, W)` u8 (non-zero = ground) and the bodies in the water. Row 0
/// is the top.
#[derive(Clone, Debug, PartialEq)]
pub struct WaterState {
    /// Water mass per cell, `(H, W)`, >= 0; 0 in solid cells. A body's cells hold the water
    /// it could not push out ([`bodies`]), which counts in the total.
    pub mass: Grid<f32>,
    /// Solid mask, `(H, W)`, 1 = ground, 0 = open (the bodies are not in it).
    pub solid: Grid<u8>,
    /// Bodies in the water ([`bodies`], at most [`crate::body::MAX_BODIES`]).
    pub bodies: Vec<crate::body::Body>,
}

/// Statistics of a water state (the GPU computes them by reduction, `shaders/water/stats.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WaterStats {
    /// Sum of `mass` over the grid (full-cell units), accumulated in f64.
    pub total_mass: f64,
    /// Cells with `mass > min_mass` (Elsts' WATER flag).
    pub wet_cells: u64,
    /// Smallest mass of an open cell (infinite when there is none).
    pub min_mass: f32,
    /// Largest mass of an open cell (minus infinity when there is none).
    pub max_mass: f32,
    /// Cells whose mass is NaN or infinite.
    pub non_finite: u64,
}

impl WaterStats {
    /// Statistics of `state`; cells count as wet above `min_mass`.
    pub fn of(state: &WaterState, min_mass: f32) -> Self {
        let mut st = WaterStats {
            total_mass: 0.0,
            wet_cells: 0,
            min_mass: f32::INFINITY,
            max_mass: f32::NEG_INFINITY,
            non_finite: 0,
        };
        for (&m, &s) in state.mass.as_slice().iter().zip(state.solid.as_slice()) {
            st.total_mass += m as f64;
            st.wet_cells += (m > min_mass) as u64;
            st.non_finite += (!m.is_finite()) as u64;
            if s == 0 {
                st.min_mass = st.min_mass.min(m);
                st.max_mass = st.max_mass.max(m);
            }
        }
        st
    }

    /// From the GPU reduction's totals (slots as `shaders/water/stats.wgsl` fills them).
    pub(crate) fn from_totals(t: &crate::gpu::Totals) -> Self {
        WaterStats {
            total_mass: t.sum[0],
            wet_cells: t.count(1),
            non_finite: t.count(2),
            min_mass: t.min(0),
            max_mass: t.max(0),
        }
    }
}

impl WaterState {
    /// The state a scene starts in: water (mass = the scene's fluid, 1.0 where the PNG is blue)
    /// and ground where it is solid; sources are ignored.
    pub fn from_scene(scene: &Scene) -> Self {
        Self { mass: scene.fluid.clone(), solid: scene.solid.clone(), bodies: Vec::new() }
    }

    /// An empty state of `width` columns and `height` rows (fields of shape `(height, width)`): no
    /// water, no ground.
    pub fn empty(width: usize, height: usize) -> Self {
        Self { mass: Grid::filled(width, height, 0.0), solid: Grid::filled(width, height, 0), bodies: Vec::new() }
    }

    /// Total mass, wet-cell count, extremes; cells count as wet above `min_mass`.
    pub fn stats(&self, min_mass: f32) -> WaterStats {
        WaterStats::of(self, min_mass)
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

    /// Writes `path` as NumPy `.npz`: `mass` float32 `(H, W)`, `solid` uint8 `(H, W)`, row 0 top,
    /// and with bodies `bodies` float32 `(N, 13)`, a row a body ([`crate::body::Body::to_row`]).
    ///
    /// # Errors
    /// [`SceneError::Io`] when the file cannot be written.
    #[cfg(feature = "npz")]
    pub fn save_npz(&self, path: &Path) -> Result<(), SceneError> {
        let mut npz = Npz::create(path)?;
        self.write_to(&mut npz)?;
        npz.finish()
    }

    /// Adds this state's arrays to `npz` (as [`Self::save_npz`] lays them out).
    ///
    /// # Errors
    /// [`SceneError::Io`].
    #[cfg(feature = "npz")]
    pub fn write_to(&self, npz: &mut Npz) -> Result<(), SceneError> {
        npz.write_f32("mass", &self.mass)?;
        npz.write_u8("solid", &self.solid)?;
        npz.write_bodies(&self.bodies)
    }

    /// Reads a `.npz` written by [`WaterState::save_npz`] (or by NumPy with the same arrays;
    /// `solid` may be missing, meaning no ground; any integer or bool dtype is accepted for it,
    /// and with `bodies` its 1s are the walls; `bodies` may be missing, meaning none).
    ///
    /// # Errors
    /// [`SceneError`] when the file is missing or not an `.npz`, `mass` is missing or not a 2-D
    /// float32 array, shapes differ, or a mass is NaN, infinite or negative.
    #[cfg(feature = "npz")]
    pub fn load_npz(path: &Path) -> Result<Self, SceneError> {
        Self::read_from(&mut NpzReader::open(path)?, path)
    }

    /// Reads this model's arrays from an open archive (`path` names it in errors).
    ///
    /// # Errors
    /// As [`Self::load_npz`].
    #[cfg(feature = "npz")]
    pub fn read_from(npz: &mut NpzReader, path: &Path) -> Result<Self, SceneError> {
        let mass = npz.read_f32("mass")?;
        let (bodies, solid) = npz.read_bodies_and_solid()?;
        let solid = solid.unwrap_or_else(|| Grid::filled(mass.width(), mass.height(), 0));
        crate::body::check_count(bodies.len()).map_err(|message| SceneError::BadArray {
            path: path.to_path_buf(),
            name: "bodies",
            message,
        })?;
        Self { mass, solid, bodies }.validated(path)
    }
}

/// A disc-shaped edit of the mass field (the viewer's pour and erase tools): inside the disc,
/// an open cell (neither ground nor a body's) becomes `max(mass * scale + add, 0)`.
///
/// ```
/// use eddy_fluid::water::{Brush, CpuWater, WaterParams, WaterState};
/// # fn main() -> Result<(), eddy_fluid::Error> {
/// let mut sim = CpuWater::new(WaterState::empty(32, 32), WaterParams::default())?;
/// sim.brush(&Brush { center: (16.0, 16.0), ..Brush::default() }); // the viewer's pour
/// assert_eq!(sim.state().mass[(16, 16)], Brush::POUR);
/// assert_eq!(sim.state().mass[(16, 28)], 0.0); // 12 cells off: outside the disc
/// sim.brush(&Brush::erase((16.0, 16.0), 8.0));
/// assert!(sim.state().mass.as_slice().iter().all(|&m| m == 0.0));
/// # Ok(()) }
/// ```
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

impl Brush {
    /// Mass the viewer's pour adds to each open cell of the disc per stamp, full-cell units.
    pub const POUR: f32 = 0.5;

    /// The viewer's pour (left button): [`Brush::POUR`] added to every open cell of the disc of
    /// `radius` cells around `center` (`(col, row)`, cells), what is there kept.
    pub fn pour(center: (f32, f32), radius: f32) -> Self {
        Self { center, radius, scale: 1.0, add: Self::POUR }
    }

    /// The viewer's erase (Shift): every cell of the disc emptied.
    pub fn erase(center: (f32, f32), radius: f32) -> Self {
        Self { center, radius, scale: 0.0, add: 0.0 }
    }
}

/// The viewer's pour at the top-left corner, with its brush on a 256-cell grid
/// ([`crate::params::DEFAULT_RADIUS`]): set `center` (and `radius`) and apply.
impl Default for Brush {
    fn default() -> Self {
        Self::pour((0.0, 0.0), crate::params::DEFAULT_RADIUS)
    }
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
    /// Its bodies are placed where they are ([`bodies::place`]: the water in the cells they cover
    /// pushed out), as [`GpuWater::new`] does; in fixed point its masses are rounded down to the
    /// unit ([`fixed::quantize`]).
    ///
    /// # Errors
    /// [`Error::Param`] when `params` fail [`WaterParams::validate`]; [`Error::Message`] for
    /// bodies the water cannot move ([`bodies::check`]) or bodies in fixed-point water
    /// ([`bodies::check_arithmetic`]).
    pub fn new(mut state: WaterState, params: WaterParams) -> Result<Self, Error> {
        params.validate()?;
        bodies::check(&state.bodies)?;
        bodies::check_arithmetic(&state.bodies, &params)?;
        if params.arithmetic == Arithmetic::Fixed {
            fixed::quantize_grid(&mut state.mass);
        }
        if !state.bodies.is_empty() {
            bodies::place(&mut state.mass, &state.solid, &state.bodies);
        }
        Ok(Self { state, params, steps: 0 })
    }

    /// The current state.
    pub fn state(&self) -> &WaterState {
        &self.state
    }

    /// Applies a brush edit ([`cpu::brush`]); in fixed point the masses are then rounded down to
    /// the unit ([`fixed::quantize`]), as `shaders/water/brush.wgsl` does.
    pub fn brush(&mut self, b: &Brush) {
        cpu::brush(&mut self.state, b);
        if self.params.arithmetic == Arithmetic::Fixed {
            fixed::quantize_grid(&mut self.state.mass);
        }
    }
}

impl crate::Simulation for CpuWater {
    type State = WaterState;

    fn step(&mut self, steps: u32) -> Result<(), Error> {
        for _ in 0..steps {
            bodies::step(&mut self.state.mass, &self.state.solid, &mut self.state.bodies, &self.params);
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

impl crate::ModelState for WaterState {
    fn shape(&self) -> (usize, usize) {
        self.mass.shape()
    }

    fn solid(&self) -> &Grid<u8> {
        &self.solid
    }

    #[cfg(feature = "npz")]
    fn write_npz(&self, npz: &mut Npz) -> Result<(), SceneError> {
        self.write_to(npz)
    }
}

impl crate::ModelStats for WaterStats {
    fn total(&self) -> f64 {
        self.total_mass
    }

    fn non_finite(&self) -> u64 {
        self.non_finite
    }

    fn line(&self) -> String {
        use crate::gpu_model::or_na;
        format!(
            "total mass {:.4}, wet cells {}, mass of open cells {}..{}",
            self.total_mass,
            self.wet_cells,
            or_na(self.min_mass as f64, 4),
            or_na(self.max_mass as f64, 4)
        )
    }
}
