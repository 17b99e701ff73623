//! `smoke`: the Eulerian grid fluid of GPU Gems ch. 38 with buoyant, cooling smoke.
//!
//! Sources: M. Harris, "Fast Fluid Dynamics Simulation on the GPU", *GPU Gems* ch. 38 (2004),
//! after J. Stam, "Stable Fluids" (SIGGRAPH 1999); the buoyancy of section 38.5 and the
//! constants, obstacle handling and pass order of P. Rideout, "Simple Fluid Simulation"
//! (prideout.net, 2010), as used in A. Joyce's Unity coursework.
//!
//! One step is six passes, in this order (one WGSL file each under `shaders/smoke/`, and one
//! function each in [`cpu`]):
//! 1. **advect** velocity, temperature and density along the velocity (semi-Lagrangian
//!    back-trace, bilinear interpolation by hand), each times its dissipation; solids get 0;
//! 2. **buoyancy**: `v += dt ((T - T0) sigma - density kappa) up` where `T > T0`;
//! 3. **impulse**: the scene's source cells get the impulse temperature and density;
//! 4. **divergence** of the velocity (central differences, solid neighbours' velocity 0); the
//!    pressure is cleared to 0;
//! 5. **jacobi**, [`SmokeParams::jacobi_iterations`] times: `p = (pL + pR + pD + pU + alpha div) / 4`,
//!    a solid neighbour taking the centre's pressure (pure Neumann);
//! 6. **gradient**: `v -= gradient_scale / cell_size * (pR - pL, pD - pU)`, the normal
//!    component zeroed next to solids (free slip).
//!
//! [`GpuSmoke`] runs them as compute passes (`5 + jacobi_iterations` dispatches per step);
//! [`CpuSmoke`] runs [`cpu::step`]. The tests hold the GPU to the CPU pass by pass.
//!
//! Units and axes: positions in cells, `(H, W)` grids with row 0 at the top; time in the
//! units of `dt` (one step advances `dt`); velocity in cells per time unit, so a cell moves
//! `dt * v` cells per step. Vectors are `(x, y)`: x towards increasing column (right), y towards
//! increasing row (**down**); "up" (where buoyancy pushes) is `-y`. (GPU Gems and Rideout use
//! OpenGL's y-up texture space; eddy keeps the image's row order, like its other models.)
//!
//! **Known property of this discretisation** (measured in `tests/smoke_invariants.rs`):
//! velocity lives at cell centres and divergence and gradient are central differences, while
//! the Jacobi iteration solves the compact 5-point Laplacian. The projection is therefore
//! approximate: a checkerboard divergence is invisible to it, and with Rideout's gradient scale
//! (`1.125 / cell_size`, where `0.5 / cell_size` would match the divergence operator) the smooth
//! part of the divergence is over-corrected. The defaults follow Rideout, as asked;
//! [`SmokeParams::gradient_scale`] is a parameter.

pub mod cpu;
mod gpu;
pub mod staggered;

pub use gpu::{GpuSmoke, SmokePass};

use crate::error::{Error, ParamError};
use crate::grid::Grid;
use crate::model::params::{ParamInfo, ParamKind, ParamSpec, ParamTable, Range, Value};
use crate::npz::{Npz, NpzReader};
use crate::scene::{self, Scene, SceneError};
use std::path::Path;

/// Parameters of the smoke model (the uniform `SmokeParams` in `shaders/smoke/params.wgsl`,
/// with the derived values precomputed on the CPU).
///
/// Defaults are Rideout's ("Simple Fluid Simulation", 2010) and Joyce's, except
/// [`SmokeParams::jacobi_iterations`] = 50 (the seed's number; Rideout uses 40).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmokeParams {
    /// Time step `dt` (time units per step); > 0. Default 0.125.
    pub dt: f32,
    /// Buoyancy `sigma`: upward acceleration per degree above ambient. Default 1.
    pub buoyancy: f32,
    /// Weight `kappa`: downward acceleration per unit of density. Default 0.05.
    pub weight: f32,
    /// Ambient temperature `T0`; buoyancy acts where `T > T0`. Default 0.
    pub ambient_temperature: f32,
    /// Temperature given to source cells each step. Default 10.
    pub impulse_temperature: f32,
    /// Density given to source cells each step. Default 1.
    pub impulse_density: f32,
    /// Factor on the advected velocity each step, in [0, 1]. Default 0.99.
    pub velocity_dissipation: f32,
    /// Factor on the advected temperature each step, in [0, 1]. Default 0.99.
    pub temperature_dissipation: f32,
    /// Factor on the advected density each step, in [0, 1]. Default 0.9999.
    pub density_dissipation: f32,
    /// Cell size `h` (length units): divergence `0.5 / h` times the central differences,
    /// Jacobi `alpha = -h^2`. Default 1.25.
    pub cell_size: f32,
    /// Numerator of Rideout's `GradientScale = 1.125 / CellSize`: the pressure gradient
    /// subtracted is `gradient_scale / cell_size` times the central differences. Default 1.125.
    pub gradient_scale: f32,
    /// Jacobi iterations of the pressure solve per step, 1..=100000. Default 50.
    pub jacobi_iterations: u32,
    /// Radius (cells) of the `plume` scene's source (the viewer's splats are half of it); `None`
    /// = `W / 8` (Rideout's `SplatRadius`). Not read by any pass.
    pub splat_radius: Option<f32>,
}

impl Default for SmokeParams {
    fn default() -> Self {
        Self {
            dt: 0.125,
            buoyancy: 1.0,
            weight: 0.05,
            ambient_temperature: 0.0,
            impulse_temperature: 10.0,
            impulse_density: 1.0,
            velocity_dissipation: 0.99,
            temperature_dissipation: 0.99,
            density_dissipation: 0.9999,
            cell_size: 1.25,
            gradient_scale: 1.125,
            jacobi_iterations: 50,
            splat_radius: None,
        }
    }
}

/// Most Jacobi iterations accepted per step.
pub const MAX_JACOBI_ITERATIONS: u32 = 100_000;

impl SmokeParams {
    /// `0.5 / cell_size`: the factor on central differences in the divergence (Rideout's
    /// `HalfInverseCellSize`).
    pub fn half_inverse_cell_size(&self) -> f32 {
        0.5 / self.cell_size
    }

    /// `-cell_size^2`: Rideout's Jacobi `Alpha`.
    pub fn alpha(&self) -> f32 {
        -self.cell_size * self.cell_size
    }

    /// `gradient_scale / cell_size`: the factor on central differences of the pressure.
    pub fn gradient_factor(&self) -> f32 {
        self.gradient_scale / self.cell_size
    }

    /// The splat radius for a grid `width` cells wide: [`SmokeParams::splat_radius`], or `W / 8`.
    pub fn splat_radius_for(&self, width: usize) -> f32 {
        self.splat_radius.unwrap_or(width as f32 / 8.0)
    }

    /// Checks every parameter against [`SmokeParams::TABLE`].
    ///
    /// # Errors
    /// [`ParamError`] naming the first parameter out of its range and why.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check()
    }
}

const RIDEOUT: &str = "Rideout, Simple Fluid Simulation (2010)";

const DISSIPATION: Range = Range::closed(
    0.0,
    1.0,
    "a negative factor flips the field's sign every step",
    "above 1 the field grows every step without bound",
);

/// A finite real with no other limit.
const fn any(name: &'static str, symbol: &'static str, unit: &'static str) -> ParamInfo {
    ParamInfo::real(name, symbol, unit, Range::ANY)
}

impl ParamTable for SmokeParams {
    const TABLE: &'static [ParamSpec<Self>] = &[
        ParamSpec {
            info: ParamInfo::real(
                "dt",
                "dt",
                "time units/step",
                Range::open_min(
                    0.0,
                    10.0,
                    "dt <= 0 does not advance",
                    "10 is the largest dt eddy's tests run (tests/smoke_invariants.rs: finite and bounded)",
                ),
            )
            .doc("time step", RIDEOUT),
            get: |p| Value::Real(p.dt),
            set: |p, v| p.dt = v.real(),
        },
        ParamSpec {
            info: any("buoyancy", "sigma", "per degree").doc("upward push per degree above ambient", RIDEOUT),
            get: |p| Value::Real(p.buoyancy),
            set: |p, v| p.buoyancy = v.real(),
        },
        ParamSpec {
            info: any("weight", "kappa", "per unit density").doc("downward pull per unit of smoke density", RIDEOUT),
            get: |p| Value::Real(p.weight),
            set: |p, v| p.weight = v.real(),
        },
        ParamSpec {
            info: any("ambient-temperature", "T0", "degrees")
                .doc("ambient temperature T0; buoyancy acts where T > T0", RIDEOUT),
            get: |p| Value::Real(p.ambient_temperature),
            set: |p, v| p.ambient_temperature = v.real(),
        },
        ParamSpec {
            info: any("impulse-temperature", "T_src", "degrees")
                .doc("temperature given to source cells each step", RIDEOUT),
            get: |p| Value::Real(p.impulse_temperature),
            set: |p, v| p.impulse_temperature = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "impulse-density",
                "d_src",
                "",
                Range::closed(
                    0.0,
                    f32::INFINITY,
                    "smoke density is >= 0: a negative one could not be saved and loaded back",
                    "",
                ),
            )
            .doc("smoke density given to source cells each step", RIDEOUT),
            get: |p| Value::Real(p.impulse_density),
            set: |p, v| p.impulse_density = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real("velocity-dissipation", "diss_v", "per step", DISSIPATION)
                .doc("velocity kept per step", RIDEOUT),
            get: |p| Value::Real(p.velocity_dissipation),
            set: |p, v| p.velocity_dissipation = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real("temperature-dissipation", "diss_T", "per step", DISSIPATION)
                .doc("temperature kept per step", RIDEOUT),
            get: |p| Value::Real(p.temperature_dissipation),
            set: |p, v| p.temperature_dissipation = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real("density-dissipation", "diss_d", "per step", DISSIPATION)
                .doc("smoke density kept per step", RIDEOUT),
            get: |p| Value::Real(p.density_dissipation),
            set: |p, v| p.density_dissipation = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "cell-size",
                "h",
                "length units",
                Range::open_min(0.0, f32::INFINITY, "a cell must have a size > 0", ""),
            )
            .doc("cell size h (divergence 0.5/h, Jacobi alpha -h^2)", RIDEOUT),
            get: |p| Value::Real(p.cell_size),
            set: |p, v| p.cell_size = v.real(),
        },
        ParamSpec {
            info: any("gradient-scale", "gs", "")
                .doc("numerator of the gradient scale, which is this / cell size", RIDEOUT),
            get: |p| Value::Real(p.gradient_scale),
            set: |p, v| p.gradient_scale = v.real(),
        },
        ParamSpec {
            info: ParamInfo::of(
                "jacobi",
                "iters",
                "iterations/step",
                ParamKind::Count {
                    min: 1,
                    max: MAX_JACOBI_ITERATIONS,
                    below: "0 skips the pressure solve and the velocity is never made divergence-free",
                    above: "more would take minutes per step",
                },
            )
            .doc("Jacobi iterations of the pressure solve per step", "the seed's 50 (Joyce); Rideout uses 40")
            .key('j', 10.0),
            get: |p| Value::Count(p.jacobi_iterations),
            set: |p, v| p.jacobi_iterations = v.count(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "splat-radius",
                "r",
                "cells",
                Range::open_min(0.0, f32::INFINITY, "a splat needs a radius > 0", ""),
            )
            .doc("radius of the plume scene's source; the viewer's splats are half of it", RIDEOUT)
            .auto("W/8 (Rideout's SplatRadius)"),
            get: |p| p.splat_radius.map_or(Value::Auto, Value::Real),
            set: |p, v| p.splat_radius = if v == Value::Auto { None } else { Some(v.real()) },
        },
    ];
}

/// The smoke model's fields, all `(H, W)`, row 0 at the top.
#[derive(Clone, Debug, PartialEq)]
pub struct SmokeState {
    /// Velocity towards increasing column, cells per time unit.
    pub velocity_x: Grid<f32>,
    /// Velocity towards increasing row (down), cells per time unit.
    pub velocity_y: Grid<f32>,
    /// Temperature (ambient [`SmokeParams::ambient_temperature`]).
    pub temperature: Grid<f32>,
    /// Smoke density (0 = clear air).
    pub density: Grid<f32>,
    /// Pressure of the last pressure solve (0 in solids).
    pub pressure: Grid<f32>,
    /// Divergence of the velocity before the last projection (0 in solids), per time unit.
    pub divergence: Grid<f32>,
    /// 1 = solid obstacle.
    pub solid: Grid<u8>,
    /// 1 = source: gets the impulse temperature and density every step.
    pub source: Grid<u8>,
}

/// Totals and norms over the open cells, accumulated in f64 (the GPU computes them by
/// reduction, `shaders/smoke/stats.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmokeStats {
    /// Sum of density.
    pub total_density: f64,
    /// Density-weighted mean row (cells from the top; NaN when there is no smoke).
    pub density_centroid_row: f64,
    /// Smallest density (infinite when no cell is open).
    pub min_density: f32,
    /// Largest speed `|v|` of an open cell, cells per time unit (minus infinity when no cell is
    /// open).
    pub max_speed: f32,
    /// Largest temperature of an open cell, degrees (minus infinity when no cell is open).
    pub max_temperature: f32,
    /// L2 norm `sqrt(sum div^2)` of the divergence of the current velocity (after the last
    /// projection), computed as [`cpu::divergence_of`] does.
    pub divergence_l2: f64,
    /// Cells (open or solid) where any field is NaN or infinite.
    pub non_finite: u64,
}

impl SmokeStats {
    /// Statistics of `state`, the divergence recomputed from its velocity with `params`' cell size.
    pub fn of(state: &SmokeState, params: &SmokeParams) -> Self {
        let s = state;
        let div = cpu::divergence_of(&s.velocity_x, &s.velocity_y, &s.solid, params);
        let mut st = SmokeStats {
            total_density: 0.0,
            density_centroid_row: 0.0,
            min_density: f32::INFINITY,
            max_speed: f32::NEG_INFINITY,
            max_temperature: f32::NEG_INFINITY,
            divergence_l2: 0.0,
            non_finite: 0,
        };
        let w = s.density.width();
        let mut weighted_row = 0.0;
        for i in 0..s.density.as_slice().len() {
            let at = |g: &Grid<f32>| g.as_slice()[i];
            let fields = [&s.velocity_x, &s.velocity_y, &s.temperature, &s.density, &s.pressure, &s.divergence];
            st.non_finite += fields.iter().any(|g| !at(g).is_finite()) as u64;
            if s.solid.as_slice()[i] != 0 {
                continue;
            }
            let d = at(&s.density);
            st.total_density += d as f64;
            weighted_row += d as f64 * (i / w) as f64;
            st.min_density = st.min_density.min(d);
            let (vx, vy) = (at(&s.velocity_x), at(&s.velocity_y));
            st.max_speed = st.max_speed.max((vx * vx + vy * vy).sqrt());
            st.max_temperature = st.max_temperature.max(at(&s.temperature));
            st.divergence_l2 += (at(&div) as f64).powi(2);
        }
        st.density_centroid_row = weighted_row / st.total_density;
        st.divergence_l2 = st.divergence_l2.sqrt();
        st
    }

    /// From the GPU reduction's totals (slots as `shaders/smoke/stats.wgsl` fills them).
    pub(crate) fn from_totals(t: &crate::gpu::Totals) -> Self {
        SmokeStats {
            total_density: t.sum[0],
            density_centroid_row: t.sum[1] / t.sum[0],
            min_density: t.min(0),
            max_speed: t.max(0),
            max_temperature: t.max(1),
            divergence_l2: t.sum[2].sqrt(),
            non_finite: t.count(3),
        }
    }
}

impl SmokeState {
    /// Still air at temperature `ambient` everywhere, smoke of density 1 where the scene has
    /// fluid (blue PNG pixels), the scene's solids and sources.
    pub fn from_scene(scene: &Scene, ambient: f32) -> Self {
        let (h, w) = scene.solid.shape();
        let zero = Grid::filled(w, h, 0.0f32);
        let density = Grid::from_fn(w, h, |r, c| if scene.solid[(r, c)] != 0 { 0.0 } else { scene.fluid[(r, c)] });
        let temperature = Grid::from_fn(w, h, |r, c| if scene.solid[(r, c)] != 0 { 0.0 } else { ambient });
        Self {
            velocity_x: zero.clone(),
            velocity_y: zero.clone(),
            temperature,
            density,
            pressure: zero.clone(),
            divergence: zero,
            solid: scene.solid.clone(),
            source: scene.source.clone(),
        }
    }

    /// `(H, W)`.
    pub fn shape(&self) -> (usize, usize) {
        self.density.shape()
    }

    /// Totals and norms ([`SmokeStats::of`]).
    pub fn stats(&self, params: &SmokeParams) -> SmokeStats {
        SmokeStats::of(self, params)
    }

    /// Checks shapes agree and every value is finite (density >= 0); zeroes solid cells.
    ///
    /// # Errors
    /// [`SceneError::ShapeMismatch`] or [`SceneError::BadValue`] naming the first bad cell.
    pub fn validated(mut self, origin: &Path) -> Result<Self, SceneError> {
        let shape = self.density.shape();
        for (name, other) in [
            ("velocity", self.velocity_x.shape()),
            ("temperature", self.temperature.shape()),
            ("pressure", self.pressure.shape()),
            ("divergence", self.divergence.shape()),
            ("solid", self.solid.shape()),
            ("source", self.source.shape()),
        ] {
            scene::check_same_shape(origin, ("density", shape), (name, other))?;
        }
        scene::check_finite_non_negative(origin, "density", &self.density)?;
        for (name, g) in [
            ("velocity", &self.velocity_x),
            ("velocity", &self.velocity_y),
            ("temperature", &self.temperature),
            ("pressure", &self.pressure),
            ("divergence", &self.divergence),
        ] {
            scene::check_finite(origin, name, g)?;
        }
        for i in 0..self.density.as_slice().len() {
            if self.solid.as_slice()[i] != 0 {
                for g in [
                    &mut self.velocity_x,
                    &mut self.velocity_y,
                    &mut self.temperature,
                    &mut self.density,
                    &mut self.pressure,
                    &mut self.divergence,
                ] {
                    g.as_mut_slice()[i] = 0.0;
                }
                self.source.as_mut_slice()[i] = 0;
            }
        }
        Ok(self)
    }

    /// Writes `path` as NumPy `.npz`: `velocity` float32 `(H, W, 2)` (`[..., 0]` = x, towards
    /// increasing column; `[..., 1]` = y, towards increasing row, i.e. **down**: rising smoke has
    /// negative y velocity), `density`, `temperature`, `pressure`, `divergence` float32
    /// `(H, W)`, `solid` and `source` uint8 `(H, W)`. Row 0 is the top.
    ///
    /// # Errors
    /// [`SceneError::Io`] when the file cannot be written.
    pub fn save_npz(&self, path: &Path) -> Result<(), SceneError> {
        let mut npz = Npz::create(path)?;
        self.write_to(&mut npz)?;
        npz.finish()
    }

    /// Adds this state's arrays to `npz` (as [`Self::save_npz`] lays them out).
    ///
    /// # Errors
    /// [`SceneError::Io`].
    pub fn write_to(&self, npz: &mut Npz) -> Result<(), SceneError> {
        npz.write_f32_components("velocity", &[&self.velocity_x, &self.velocity_y])?;
        npz.write_f32("density", &self.density)?;
        npz.write_f32("temperature", &self.temperature)?;
        npz.write_f32("pressure", &self.pressure)?;
        npz.write_f32("divergence", &self.divergence)?;
        npz.write_u8("solid", &self.solid)?;
        npz.write_u8("source", &self.source)?;
        Ok(())
    }

    /// Reads a `.npz` as written by [`SmokeState::save_npz`]. Only `density` is required; a
    /// missing `velocity`, `temperature`, `pressure` or `divergence` is zero, a missing `solid`
    /// or `source` is none.
    ///
    /// # Errors
    /// [`SceneError`] when the file is missing or not an `.npz`, `density` is missing, an array
    /// has the wrong rank, dtype or shape, or a value is NaN, infinite or (density) negative.
    pub fn load_npz(path: &Path) -> Result<Self, SceneError> {
        Self::read_from(&mut NpzReader::open(path)?, path)
    }

    /// Reads this model's arrays from an open archive (`path` names it in errors).
    ///
    /// # Errors
    /// As [`Self::load_npz`].
    pub fn read_from(npz: &mut NpzReader, path: &Path) -> Result<Self, SceneError> {
        let density = npz.read_f32("density")?;
        let (w, h) = (density.width(), density.height());
        let zero = || Grid::filled(w, h, 0.0f32);
        let (velocity_x, velocity_y) = match npz.read_f32_components_opt("velocity", 2)? {
            Some(mut c) => {
                let y = c.pop().expect("two components");
                (c.pop().expect("two components"), y)
            }
            None => (zero(), zero()),
        };
        let mut optional =
            |name: &'static str| -> Result<Grid<f32>, SceneError> { Ok(npz.read_f32_opt(name)?.unwrap_or_else(zero)) };
        let temperature = optional("temperature")?;
        let pressure = optional("pressure")?;
        let divergence = optional("divergence")?;
        let solid = npz.read_u8_opt("solid")?.unwrap_or_else(|| Grid::filled(w, h, 0));
        let source = npz.read_u8_opt("source")?.unwrap_or_else(|| Grid::filled(w, h, 0));
        Self { velocity_x, velocity_y, temperature, density, pressure, divergence, solid, source }.validated(path)
    }
}

/// An impulse (the `impulse` pass's uniform, `struct Impulse` in `shaders/smoke/impulse.wgsl`):
/// each open cell it covers moves its temperature and density towards the given values by a
/// weight `a` and gains `a * velocity`.
///
/// With `sources` the covered cells are the scene's source cells, `a = 1` (what a step does);
/// otherwise the disc of `radius` around `center` with Rideout's soft edge
/// `a = min((radius - d) / 2, 1)`, `d` the distance of the cell centre (a splat: the viewer's
/// drags).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impulse {
    /// Disc centre `(col, row)` in cells (cell `(r, c)`'s centre is `(c + 0.5, r + 0.5)`).
    pub center: (f32, f32),
    /// Disc radius, cells.
    pub radius: f32,
    /// Temperature the cells move towards.
    pub temperature: f32,
    /// Density the cells move towards.
    pub density: f32,
    /// Velocity `(x, y)` added (y down), cells per time unit.
    pub velocity: (f32, f32),
    /// Cover the scene's source cells instead of the disc.
    pub sources: bool,
}

impl Impulse {
    /// The per-step impulse of the scene's sources with `params`' temperature and density.
    pub fn sources(params: &SmokeParams) -> Self {
        Self {
            center: (0.0, 0.0),
            radius: 0.0,
            temperature: params.impulse_temperature,
            density: params.impulse_density,
            velocity: (0.0, 0.0),
            sources: true,
        }
    }
}

/// The smoke model on the CPU: [`cpu::step`] per step.
pub struct CpuSmoke {
    state: SmokeState,
    params: SmokeParams,
    steps: u64,
}

impl CpuSmoke {
    /// Starts from `state` with `params`.
    ///
    /// # Errors
    /// [`Error::Param`] when `params` fail [`SmokeParams::validate`].
    pub fn new(state: SmokeState, params: SmokeParams) -> Result<Self, Error> {
        params.validate()?;
        Ok(Self { state, params, steps: 0 })
    }

    /// The current state.
    pub fn state(&self) -> &SmokeState {
        &self.state
    }

    /// Applies a splat ([`cpu::impulse`]).
    pub fn splat(&mut self, impulse: &Impulse) {
        cpu::impulse(&mut self.state, impulse);
    }
}

impl crate::Simulation for CpuSmoke {
    type State = SmokeState;

    fn step(&mut self, steps: u32) -> Result<(), Error> {
        for _ in 0..steps {
            cpu::step(&mut self.state, &self.params);
        }
        self.steps += steps as u64;
        Ok(())
    }

    fn read_state(&mut self) -> Result<SmokeState, Error> {
        Ok(self.state.clone())
    }

    fn steps_done(&self) -> u64 {
        self.steps
    }
}
