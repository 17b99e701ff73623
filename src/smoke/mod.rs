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

pub use gpu::{GpuSmoke, SmokePass};

use crate::error::{Error, ParamError};
use crate::grid::Grid;
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

    /// Checks every parameter.
    ///
    /// # Errors
    /// [`ParamError`] naming the first parameter that is not finite or would make a step
    /// meaningless or unbounded: `dt <= 0` (or above 10), `cell_size <= 0`, a dissipation
    /// outside [0, 1] (above 1 a field grows without bound), `jacobi_iterations` 0 or above
    /// [`MAX_JACOBI_ITERATIONS`], or a non-finite value anywhere.
    pub fn validate(&self) -> Result<(), ParamError> {
        let finite = [
            ("buoyancy", self.buoyancy),
            ("weight", self.weight),
            ("ambient-temperature", self.ambient_temperature),
            ("impulse-temperature", self.impulse_temperature),
            ("impulse-density", self.impulse_density),
            ("gradient-scale", self.gradient_scale),
        ];
        for (name, v) in finite {
            if !v.is_finite() {
                return Err(ParamError::new(name, v, "a finite number"));
            }
        }
        if !(self.dt > 0.0 && self.dt <= 10.0) {
            return Err(ParamError::new("dt", self.dt, "in (0, 10] time units per step: dt <= 0 does not advance"));
        }
        if !(self.cell_size > 0.0 && self.cell_size.is_finite()) {
            return Err(ParamError::new("cell-size", self.cell_size, "a finite number > 0"));
        }
        for (name, v) in [
            ("velocity-dissipation", self.velocity_dissipation),
            ("temperature-dissipation", self.temperature_dissipation),
            ("density-dissipation", self.density_dissipation),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(ParamError::new(name, v, "in [0, 1]: above 1 the field grows every step without bound"));
            }
        }
        if self.jacobi_iterations == 0 || self.jacobi_iterations > MAX_JACOBI_ITERATIONS {
            return Err(ParamError::new(
                "jacobi",
                self.jacobi_iterations,
                "1..=100000 iterations: 0 skips the pressure solve and the velocity is never made divergence-free",
            ));
        }
        Ok(())
    }
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

/// Totals and norms over the open cells, accumulated in f64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmokeStats {
    /// Sum of density.
    pub total_density: f64,
    /// Density-weighted mean row (cells from the top; NaN when there is no smoke).
    pub density_centroid_row: f64,
    /// Largest speed `|v|`, cells per time unit.
    pub max_speed: f32,
    /// Largest temperature.
    pub max_temperature: f32,
    /// L2 norm `sqrt(sum div^2)` of the divergence of the current velocity (after the last
    /// projection), computed with [`cpu::divergence_of`].
    pub divergence_l2: f64,
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

    /// Totals and norms; the divergence is recomputed from the current velocity with `params`'
    /// cell size.
    pub fn stats(&self, params: &SmokeParams) -> SmokeStats {
        let div = cpu::divergence_of(&self.velocity_x, &self.velocity_y, &self.solid, params);
        let mut st = SmokeStats {
            total_density: 0.0,
            density_centroid_row: 0.0,
            max_speed: 0.0,
            max_temperature: f32::NEG_INFINITY,
            divergence_l2: 0.0,
        };
        let w = self.density.width();
        let mut weighted_row = 0.0;
        for i in 0..self.density.as_slice().len() {
            if self.solid.as_slice()[i] != 0 {
                continue;
            }
            let d = self.density.as_slice()[i] as f64;
            st.total_density += d;
            weighted_row += d * (i / w) as f64;
            let (vx, vy) = (self.velocity_x.as_slice()[i], self.velocity_y.as_slice()[i]);
            st.max_speed = st.max_speed.max((vx * vx + vy * vy).sqrt());
            st.max_temperature = st.max_temperature.max(self.temperature.as_slice()[i]);
            st.divergence_l2 += (div.as_slice()[i] as f64).powi(2);
        }
        st.density_centroid_row = weighted_row / st.total_density;
        st.divergence_l2 = st.divergence_l2.sqrt();
        st
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
        let mut npz = scene::Npz::create(path)?;
        npz.write_f32_components("velocity", &[&self.velocity_x, &self.velocity_y])?;
        npz.write_f32("density", &self.density)?;
        npz.write_f32("temperature", &self.temperature)?;
        npz.write_f32("pressure", &self.pressure)?;
        npz.write_f32("divergence", &self.divergence)?;
        npz.write_u8("solid", &self.solid)?;
        npz.write_u8("source", &self.source)?;
        npz.finish()
    }

    /// Reads a `.npz` as written by [`SmokeState::save_npz`]. Only `density` is required; a
    /// missing `velocity`, `temperature`, `pressure` or `divergence` is zero, a missing `solid`
    /// or `source` is none.
    ///
    /// # Errors
    /// [`SceneError`] when the file is missing or not an `.npz`, `density` is missing, an array
    /// has the wrong rank, dtype or shape, or a value is NaN, infinite or (density) negative.
    pub fn load_npz(path: &Path) -> Result<Self, SceneError> {
        let mut npz = scene::NpzReader::open(path)?;
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
