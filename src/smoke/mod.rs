//! `smoke`: the Eulerian grid fluid of GPU Gems ch. 38 with buoyant, cooling smoke, on a
//! staggered (MAC) grid by default and the chapter's collocated grid on request.
//!
//! Sources: M. Harris, "Fast Fluid Dynamics Simulation on the GPU", *GPU Gems* ch. 38 (2004),
//! after J. Stam, "Stable Fluids" (SIGGRAPH 1999); the buoyancy of section 38.5 and the
//! constants, obstacle handling and pass order of P. Rideout, "Simple Fluid Simulation"
//! (prideout.net, 2010), as used in A. Joyce's Unity coursework; the staggered grid of Harlow &
//! Welch (1965) and Bridson's *Fluid Simulation for Computer Graphics* (2nd ed. 2015); MacCormack
//! advection (Selle et al. 2008); vorticity confinement (Fedkiw, Stam & Jensen 2001); the
//! lid-driven cavity of Ghia, Ghia & Shin (1982) as the check ([`cavity`]).
//!
//! [`SmokeParams::grid`] picks the pipeline ([`SmokePreset`] names the usual sets):
//! - **staggered** (default; [`staggered`]): face velocities `u` `(H, W + 1)`, `v` `(H + 1, W)`;
//!   advect (semi-Lagrangian or MacCormack), viscosity, vorticity confinement, buoyancy,
//!   impulse, divergence, the solve (Jacobi or multigrid, [`crate::solver`]), gradient. A
//!   converged solve leaves no divergence.
//! - **collocated** (GPU Gems ch. 38's; [`cpu`]): velocity at cell centres: advect, buoyancy,
//!   impulse (the three in one GPU pass), divergence (central differences), Jacobi x
//!   [`SmokeParams::jacobi_iterations`] (`p = (pL + pR + pD + pU + alpha div) / 4`, a solid
//!   neighbour taking the centre's pressure), gradient (`gradient_scale / cell_size` times the
//!   central differences, the normal component zeroed next to solids). Its projection is
//!   approximate: a checkerboard divergence is invisible to it, and with Rideout's gradient
//!   scale (`1.125 / h`, where `0.5 / h` would match the divergence) the smooth part is
//!   over-corrected (measured in `tests/smoke_invariants.rs`).
//!
//! [`GpuSmoke`] runs the passes as compute passes (one WGSL file each under `shaders/smoke/`
//! and `shaders/solver/`); [`CpuSmoke`] runs the CPU mirrors. The tests hold the GPU to the CPU
//! pass by pass.
//!
//! Units and axes: positions in cells, `(H, W)` grids with row 0 at the top; time in the
//! units of `dt` (one step advances `dt`); velocity in cells per time unit, so a cell moves
//! `dt * v` cells per step. Vectors are `(x, y)`: x towards increasing column (right), y towards
//! increasing row (**down**); "up" (where buoyancy pushes) is `-y`. (GPU Gems and Rideout use
//! OpenGL's y-up texture space; eddy keeps the image's row order, like its other models.)

pub mod cavity;
mod collocated;
pub mod cpu;
mod fields;
mod gpu;
mod params;
pub mod staggered;
pub mod wake;

pub use params::{
    Advection, BOTTOM, DEFAULT_VORTICITY, EDGE_OPTIONS, EdgeKind, GridLayout, InflowProfile, LEFT, MAX_CYCLES,
    MAX_JACOBI_ITERATIONS, RIGHT, SmokeParams, SmokePreset, Solver, TOP,
};

pub use collocated::SmokePass;
pub use gpu::GpuSmoke;
pub use staggered::StaggeredPass;

/// Most storage textures one smoke pass writes: 4 (the staggered impulse updates u, v,
/// temperature and density in place). A device must allow this many per shader stage
/// ([`crate::gpu::check_device`]); WebGPU guarantees 4.
pub const STORAGE_TEXTURES_PER_STAGE: u32 = 4;

use crate::error::Error;
use crate::grid::Grid;
#[cfg(feature = "npz")]
use crate::npz::{Npz, NpzReader};
use crate::scene::{self, Scene, SceneError};
use std::path::Path;

/// The smoke model's fields, `(H, W)` unless said, row 0 at the top.
///
/// The velocity's shape tells its layout ([`SmokeState::layout`]): on the staggered grid
/// `velocity_x` is `(H, W + 1)` (vertical faces; face `(r, c)` is the left face of cell
/// `(r, c)`) and `velocity_y` `(H + 1, W)` (horizontal faces; `(r, c)` the top face of cell
/// `(r, c)`); on the collocated grid both are `(H, W)` at cell centres. [`SmokeState::on_layout`]
/// converts between them (the models do so on start, so either layout runs on either grid).
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
    /// Non-zero = solid: 1 a wall, and with bodies `2 + i` a cell body `i` covers
    /// ([`staggered::bodies`]; rasterised again each step).
    pub solid: Grid<u8>,
    /// 1 = source: gets the impulse temperature and density every step.
    pub source: Grid<u8>,
    /// Coloured dye, `[red, green, blue]`, each `(H, W)` and >= 0 (1 = full colour): carried
    /// like density (its dissipation too) but weightless (staggered grid; the collocated grid
    /// leaves it as it is).
    pub dye: [Grid<f32>; 3],
    /// Rigid bodies moving through the fluid ([`crate::body`]; staggered grid, at most
    /// [`crate::body::MAX_BODIES`]): where they are now and how they move.
    pub bodies: Vec<crate::body::Body>,
    /// The multigrid solve's V-cycle plan where the state was read (staggered grid, multigrid
    /// solver; [`crate::solver::plan`]): a GPU model built from the state runs the same V-cycles
    /// at the same steps as the run that read it went on to, so a replay from a saved state ends
    /// where that run did. `None` (the CPU model, a scene) starts a new plan.
    pub v_cycle_plan: Option<crate::solver::plan::SavedPlan>,
}

/// The farthest a smoke body's fastest point may move in one step, cells: the thickness of a
/// plate ([`crate::body::PLATE_THICKNESS`]), so that a body covers every cell between where it
/// is in two steps (faster, a plate passes over cells it never covers, and the fluid in them is
/// never pushed). Also the gas's kind of bound ([`crate::gas::bodies::MAX_BODY_SPEED`]).
pub const MAX_BODY_STEP: f32 = crate::body::PLATE_THICKNESS;

/// Refuses bodies the smoke model cannot move: more than [`crate::body::MAX_BODIES`], any on
/// the collocated grid, or one whose fastest point moves more than [`MAX_BODY_STEP`] cells a
/// step (`dt` times its speed).
///
/// # Errors
/// [`Error::Message`] saying what to change, naming the body.
pub fn check_bodies(bodies: &[crate::body::Body], p: &SmokeParams) -> Result<(), Error> {
    let count = bodies.len();
    crate::body::check_count(count).map_err(Error::Message)?;
    if count > 0 && p.grid == GridLayout::Collocated {
        return Err(Error::Message(
            "bodies move on the staggered grid, and this run has the collocated one (--pipeline gpu-gems and rideout \
             run it): keep --grid staggered"
                .into(),
        ));
    }
    for (i, b) in bodies.iter().enumerate() {
        let per_step = b.fastest() * p.dt;
        // A NaN speed is refused too.
        if per_step.is_nan() || per_step > MAX_BODY_STEP {
            return Err(Error::Message(format!(
                "body {i} moves {} cells a step at its fastest point ({} cells/time unit, |v| + |spin| x its reach, \
                 times dt {}): smoke bodies move at most {MAX_BODY_STEP} cells a step, or they pass over cells \
                 without pushing the fluid in them; slow it down or lower --dt",
                crate::params::readable(per_step as f64, 3),
                crate::params::readable(b.fastest() as f64, 3),
                p.dt
            )));
        }
    }
    Ok(())
}

/// Totals and norms over the open cells, accumulated in f64 (the GPU computes them by
/// reduction, `shaders/smoke/stats.wgsl` and `shaders/solver/stats.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmokeStats {
    /// Sum of density.
    pub total_density: f64,
    /// Density-weighted mean row (cells from the top; NaN when there is no smoke).
    pub density_centroid_row: f64,
    /// Smallest density (infinite when no cell is open).
    pub min_density: f32,
    /// Largest speed `|v|` of an open cell's centre velocity (face means on the staggered
    /// grid), cells per time unit (minus infinity when no cell is open).
    pub max_speed: f32,
    /// Largest temperature of an open cell, degrees (minus infinity when no cell is open).
    pub max_temperature: f32,
    /// Kinetic energy `sum 1/2 |v|^2` over open cells of the centre velocity (unit density per
    /// cell, as the model's incompressible fluid), cells^2 / time unit^2.
    pub kinetic_energy: f64,
    /// L2 norm `sqrt(sum div^2)` of the divergence of the current velocity (after the last
    /// projection), per time unit, with the grid's own divergence ([`cpu::divergence_of`] on
    /// the collocated grid, [`staggered::divergence`] on the staggered one).
    pub divergence_l2: f64,
    /// The last pressure solve's relative residual `|b - A p| / |b|` (L2 over open cells; 0
    /// when `b` is 0), with `b = h^2` times the divergence before the projection and `A p` the
    /// sum over open neighbours of `p_n - p` ([`crate::solver`]): the problem both grids' Jacobi
    /// iterations solve.
    pub solver_residual: f64,
    /// V-cycles the last multigrid solve ran (`None` for Jacobi).
    pub solver_cycles: Option<u32>,
    /// Whether the last multigrid solve ran its cap of V-cycles
    /// ([`SmokeParams::max_cycles`]) and stopped with its residual above
    /// [`SmokeParams::tolerance`]: the projection left divergence the tolerance does not allow
    /// (always false for Jacobi, which runs its iterations whatever the residual).
    pub solver_capped: bool,
    /// Cells (open or solid) where any field is NaN or infinite.
    pub non_finite: u64,
}

impl SmokeStats {
    /// Statistics of `state`, the divergence recomputed from its velocity with `params`' cell
    /// size; `solver_cycles` is left `None` (the model that ran the solve knows it).
    pub fn of(state: &SmokeState, params: &SmokeParams) -> Self {
        let s = state;
        let h = params.cell_size;
        let (div, (vx, vy)) = match s.layout() {
            GridLayout::Collocated => (
                cpu::divergence_of(&s.velocity_x, &s.velocity_y, &s.solid, params),
                (s.velocity_x.clone(), s.velocity_y.clone()),
            ),
            GridLayout::Staggered => (
                staggered::divergence(&s.velocity_x, &s.velocity_y, &s.solid, h),
                staggered::cpu::centres(&s.velocity_x, &s.velocity_y, &s.solid),
            ),
        };
        let problem = crate::solver::Poisson {
            solid: s.solid.clone(),
            rhs: s.divergence.map(|d| d * h * h),
            dirichlet: params.dirichlet(),
            ghosts: crate::solver::AT_CENTRES,
        };
        let b = crate::solver::norm(&problem.rhs, &s.solid);
        let r = crate::solver::norm(&crate::solver::residual(&s.pressure, &problem), &s.solid);
        let mut st = SmokeStats {
            total_density: 0.0,
            density_centroid_row: 0.0,
            min_density: f32::INFINITY,
            max_speed: f32::NEG_INFINITY,
            max_temperature: f32::NEG_INFINITY,
            kinetic_energy: 0.0,
            divergence_l2: 0.0,
            solver_residual: if b > 0.0 { r / b } else { 0.0 },
            solver_cycles: None,
            solver_capped: false,
            non_finite: 0,
        };
        let w = s.density.width();
        let mut weighted_row = 0.0;
        for i in 0..s.density.as_slice().len() {
            let at = |g: &Grid<f32>| g.as_slice()[i];
            let fields = [&vx, &vy, &s.temperature, &s.density, &s.pressure, &s.divergence];
            st.non_finite += fields.iter().any(|g| !at(g).is_finite()) as u64;
            if s.solid.as_slice()[i] != 0 {
                continue;
            }
            let d = at(&s.density);
            st.total_density += d as f64;
            weighted_row += d as f64 * (i / w) as f64;
            st.min_density = st.min_density.min(d);
            let (x, y) = (at(&vx), at(&vy));
            st.max_speed = st.max_speed.max((x * x + y * y).sqrt());
            st.kinetic_energy += (0.5 * (x * x + y * y)) as f64; // in f32 per cell, as the GPU
            st.max_temperature = st.max_temperature.max(at(&s.temperature));
            st.divergence_l2 += (at(&div) as f64).powi(2);
        }
        st.density_centroid_row = weighted_row / st.total_density;
        st.divergence_l2 = st.divergence_l2.sqrt();
        st
    }

    /// These statistics with [`SmokeStats::solver_capped`] set: the multigrid solve ran
    /// `p`'s [`SmokeParams::max_cycles`] and left its residual above [`SmokeParams::tolerance`].
    /// The CPU model and the GPU's reductions both decide it here.
    pub(crate) fn with_cap(self, p: &SmokeParams) -> Self {
        let ran_out = self.solver_cycles.is_some_and(|n| n >= p.max_cycles);
        Self { solver_capped: ran_out && self.solver_residual > p.tolerance as f64, ..self }
    }

    /// From the GPU reductions' totals (slots as `shaders/smoke/stats.wgsl` and
    /// `shaders/solver/stats.wgsl` fill them).
    pub(crate) fn from_totals(t: &crate::gpu::Totals, (r, b): (f64, f64), cycles: Option<u32>) -> Self {
        SmokeStats {
            total_density: t.sum[0],
            density_centroid_row: t.sum[1] / t.sum[0],
            min_density: t.min(0),
            max_speed: t.max(0),
            max_temperature: t.max(1),
            kinetic_energy: t.more[0],
            divergence_l2: t.sum[2].sqrt(),
            solver_residual: if b > 0.0 { r / b } else { 0.0 },
            solver_cycles: cycles,
            solver_capped: false,
            non_finite: t.count(3),
        }
    }
}

impl SmokeState {
    /// Still air at temperature `ambient` everywhere, smoke of density 1 where the scene has
    /// fluid (blue PNG pixels), the scene's solids and sources; velocity on the staggered grid.
    pub fn from_scene(scene: &Scene, ambient: f32) -> Self {
        let (h, w) = scene.solid.shape();
        let zero = Grid::filled(w, h, 0.0f32);
        let density = Grid::from_fn(w, h, |r, c| if scene.solid[(r, c)] != 0 { 0.0 } else { scene.fluid[(r, c)] });
        let temperature = Grid::from_fn(w, h, |r, c| if scene.solid[(r, c)] != 0 { 0.0 } else { ambient });
        Self {
            velocity_x: Grid::filled(w + 1, h, 0.0),
            velocity_y: Grid::filled(w, h + 1, 0.0),
            temperature,
            density,
            pressure: zero.clone(),
            divergence: zero,
            solid: scene.solid.clone(),
            source: scene.source.clone(),
            dye: std::array::from_fn(|_| Grid::filled(w, h, 0.0)),
            bodies: Vec::new(),
            v_cycle_plan: None,
        }
    }

    /// The state with [`Self::v_cycle_plan`] `plan`.
    pub fn with_plan(self, plan: Option<crate::solver::plan::SavedPlan>) -> Self {
        Self { v_cycle_plan: plan, ..self }
    }

    /// `(H, W)`.
    pub fn shape(&self) -> (usize, usize) {
        self.density.shape()
    }

    /// Where the velocity lives, from its shape: staggered when `velocity_x` is one column
    /// wider than the grid.
    pub fn layout(&self) -> GridLayout {
        if self.velocity_x.width() == self.density.width() + 1 { GridLayout::Staggered } else { GridLayout::Collocated }
    }

    /// The velocity at cell centres, `(H, W)` each (face means on the staggered grid; 0 in
    /// solids).
    pub fn centre_velocity(&self) -> (Grid<f32>, Grid<f32>) {
        match self.layout() {
            GridLayout::Collocated => (self.velocity_x.clone(), self.velocity_y.clone()),
            GridLayout::Staggered => staggered::cpu::centres(&self.velocity_x, &self.velocity_y, &self.solid),
        }
    }

    /// This state with its velocity on `layout`: centres to faces by the mean of each open
    /// face's two cells ([`staggered::cpu::faces_from_centres`]), faces to centres by
    /// [`SmokeState::centre_velocity`]. Unchanged when it is already on `layout`.
    pub fn on_layout(mut self, layout: GridLayout) -> Self {
        if self.layout() == layout {
            return self;
        }
        (self.velocity_x, self.velocity_y) = match layout {
            GridLayout::Collocated => self.centre_velocity(),
            GridLayout::Staggered => {
                staggered::cpu::faces_from_centres(&self.velocity_x, &self.velocity_y, &self.solid)
            }
        };
        self
    }

    /// The state a run with `params` starts from, on the GPU and the CPU alike: the velocity on
    /// `params`' grid ([`Self::on_layout`]) and, on the staggered grid, the edges' faces as the
    /// edges hold them ([`staggered::hold_edges`]).
    pub fn for_run(self, params: &SmokeParams) -> Self {
        let mut state = self.on_layout(params.grid);
        if params.grid == GridLayout::Staggered {
            staggered::hold_edges(&mut state, params);
        }
        state
    }

    /// Totals and norms ([`SmokeStats::of`]).
    pub fn stats(&self, params: &SmokeParams) -> SmokeStats {
        SmokeStats::of(self, params)
    }

    /// Checks shapes agree (the velocity on either layout) and every value is finite (density at
    /// least 0); zeroes solid cells, and on the staggered grid the faces of solid cells (the
    /// walls' normal velocity). The faces on the grid's edge beside open cells stay: what they
    /// hold depends on the edges, which a run sets when it starts ([`staggered::hold_edges`]).
    ///
    /// # Errors
    /// [`SceneError::ShapeMismatch`] or [`SceneError::BadValue`] naming the first bad cell.
    pub fn validated(mut self, origin: &Path) -> Result<Self, SceneError> {
        let shape = self.density.shape();
        let (h, w) = shape;
        // The layout either face array says (so that the wrong one of the two is blamed).
        let staggered = self.velocity_x.shape() == (h, w + 1) || self.velocity_y.shape() == (h + 1, w);
        let (want_x, want_y) = if staggered { ((h, w + 1), (h + 1, w)) } else { (shape, shape) };
        for (name, want, got) in
            [("velocity_x", want_x, self.velocity_x.shape()), ("velocity_y", want_y, self.velocity_y.shape())]
        {
            if want != got {
                return Err(SceneError::BadArray {
                    path: origin.to_path_buf(),
                    name,
                    message: format!(
                        "shape {got:?}, but density is {shape:?}: velocity_x is (H, W + 1) and velocity_y \
                         (H + 1, W) on cell faces, or both (H, W) at cell centres"
                    ),
                });
            }
        }
        for (name, other) in [
            ("temperature", self.temperature.shape()),
            ("pressure", self.pressure.shape()),
            ("divergence", self.divergence.shape()),
            ("solid", self.solid.shape()),
            ("source", self.source.shape()),
            ("dye", self.dye[0].shape()),
        ] {
            scene::check_same_shape(origin, ("density", shape), (name, other))?;
        }
        scene::check_finite_non_negative(origin, "density", &self.density)?;
        for channel in &self.dye {
            scene::check_finite_non_negative(origin, "dye", channel)?;
        }
        for (name, g) in [
            (if staggered { "velocity_x" } else { "velocity (x)" }, &self.velocity_x),
            (if staggered { "velocity_y" } else { "velocity (y)" }, &self.velocity_y),
            ("temperature", &self.temperature),
            ("pressure", &self.pressure),
            ("divergence", &self.divergence),
        ] {
            scene::check_finite(origin, name, g)?;
        }
        for i in 0..self.density.as_slice().len() {
            if self.solid.as_slice()[i] != 0 {
                let [r, g, b] = &mut self.dye;
                let mut cell =
                    vec![&mut self.temperature, &mut self.density, &mut self.pressure, &mut self.divergence, r, g, b];
                if !staggered {
                    cell.extend([&mut self.velocity_x, &mut self.velocity_y]);
                }
                for g in cell {
                    g.as_mut_slice()[i] = 0.0;
                }
                self.source.as_mut_slice()[i] = 0;
            }
        }
        if staggered {
            // Faces on the grid's edge beside an open cell are the edges' ([`staggered::hold_edges`]
            // sets them when a run starts: an outflow's keep what they had).
            for r in 0..h {
                for c in 1..w {
                    if !staggered::u_open(&self.solid, r, c) {
                        self.velocity_x[(r, c)] = 0.0;
                    }
                }
                for (c, inner) in [(0, 0), (w, w - 1)] {
                    if self.solid[(r, inner)] != 0 {
                        self.velocity_x[(r, c)] = 0.0;
                    }
                }
            }
            for c in 0..w {
                for r in 1..h {
                    if !staggered::v_open(&self.solid, r, c) {
                        self.velocity_y[(r, c)] = 0.0;
                    }
                }
                for (r, inner) in [(0, 0), (h, h - 1)] {
                    if self.solid[(inner, c)] != 0 {
                        self.velocity_y[(r, c)] = 0.0;
                    }
                }
            }
        }
        Ok(self)
    }

    /// Writes `path` as NumPy `.npz` ([`Self::write_to`] lists the arrays).
    ///
    /// # Errors
    /// [`SceneError::Io`] when the file cannot be written.
    #[cfg(feature = "npz")]
    pub fn save_npz(&self, path: &Path) -> Result<(), SceneError> {
        let mut npz = Npz::create(path)?;
        self.write_to(&mut npz)?;
        npz.finish()
    }

    /// Adds this state's arrays to `npz`: `velocity` float32 `(H, W, 2)` at cell centres
    /// (`[..., 0]` = x, towards increasing column; `[..., 1]` = y, towards increasing row, i.e.
    /// **down**: rising smoke has negative y velocity; face means on the staggered grid); on the
    /// staggered grid also the face velocities `velocity_x` float32 `(H, W + 1)` and
    /// `velocity_y` `(H + 1, W)` (same signs); `density`, `temperature`, `pressure`,
    /// `divergence` float32 `(H, W)`, `dye` float32 `(H, W, 3)` (red, green, blue), `solid` and
    /// `source` uint8 `(H, W)` (`solid`: 1 a wall, `2 + i` a cell of body `i`); with bodies,
    /// `bodies` float32 `(N, 13)`, a row a body ([`crate::body::Body::to_row`]). Row 0 is the top.
    ///
    /// # Errors
    /// [`SceneError::Io`].
    #[cfg(feature = "npz")]
    pub fn write_to(&self, npz: &mut Npz) -> Result<(), SceneError> {
        let (cx, cy) = self.centre_velocity();
        npz.write_f32_components("velocity", &[&cx, &cy])?;
        if self.layout() == GridLayout::Staggered {
            npz.write_f32("velocity_x", &self.velocity_x)?;
            npz.write_f32("velocity_y", &self.velocity_y)?;
        }
        npz.write_f32("density", &self.density)?;
        npz.write_f32("temperature", &self.temperature)?;
        npz.write_f32("pressure", &self.pressure)?;
        npz.write_f32("divergence", &self.divergence)?;
        npz.write_f32_components("dye", &[&self.dye[0], &self.dye[1], &self.dye[2]])?;
        npz.write_u8("solid", &self.solid)?;
        npz.write_u8("source", &self.source)?;
        npz.write_bodies(&self.bodies)?;
        if let Some(plan) = &self.v_cycle_plan {
            npz.write_scalar_i64(V_CYCLE_PLAN[0], i64::from(plan.cycles))?;
            npz.write_scalar_i64(V_CYCLE_PLAN[1], plan.since_start as i64)?;
            npz.write_scalar_i64(V_CYCLE_PLAN[2], plan.since_planned as i64)?;
        }
        Ok(())
    }

    /// Reads a `.npz` as written by [`SmokeState::save_npz`]. Only `density` is required. The
    /// velocity is read from `velocity_x` and `velocity_y` (faces, staggered) when both are
    /// there, else from `velocity` (centres, collocated); missing, it is zero on the staggered
    /// grid. A missing `temperature`, `pressure`, `divergence` or `dye` is zero, a missing
    /// `solid` or `source` is none.
    ///
    /// # Errors
    /// [`SceneError`] when the file is missing or not an `.npz`, `density` is missing, only one
    /// of `velocity_x` and `velocity_y` is there, an array has the wrong rank, dtype or shape,
    /// or a value is NaN, infinite or (density) negative.
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
        let density = npz.read_f32("density")?;
        let (w, h) = (density.width(), density.height());
        let zero = || Grid::filled(w, h, 0.0f32);
        let (velocity_x, velocity_y) = match (npz.read_f32_opt("velocity_x")?, npz.read_f32_opt("velocity_y")?) {
            (Some(x), Some(y)) => (x, y),
            (None, None) => match npz.read_f32_components_opt("velocity", 2)? {
                Some(mut c) => {
                    let y = c.pop().expect("two components");
                    (c.pop().expect("two components"), y)
                }
                None => (Grid::filled(w + 1, h, 0.0), Grid::filled(w, h + 1, 0.0)),
            },
            (x, _) => {
                let (has, lacks) =
                    if x.is_some() { ("velocity_x", "velocity_y") } else { ("velocity_y", "velocity_x") };
                return Err(SceneError::BadArray {
                    path: path.to_path_buf(),
                    name: has,
                    message: format!(
                        "has {has} but not {lacks}: the staggered grid's face velocities come in pairs \
                         (or give only `velocity`, (H, W, 2) at cell centres)"
                    ),
                });
            }
        };
        let mut optional =
            |name: &'static str| -> Result<Grid<f32>, SceneError> { Ok(npz.read_f32_opt(name)?.unwrap_or_else(zero)) };
        let temperature = optional("temperature")?;
        let pressure = optional("pressure")?;
        let divergence = optional("divergence")?;
        let (bodies, solid) = npz.read_bodies_and_solid()?;
        let solid = solid.unwrap_or_else(|| Grid::filled(w, h, 0));
        let source = npz.read_u8_opt("source")?.unwrap_or_else(|| Grid::filled(w, h, 0));
        let dye = match npz.read_f32_components_opt("dye", 3)? {
            Some(c) => <[Grid<f32>; 3]>::try_from(c).expect("three components"),
            None => std::array::from_fn(|_| zero()),
        };
        let v_cycle_plan = read_v_cycle_plan(npz, path)?;
        Self {
            velocity_x,
            velocity_y,
            temperature,
            density,
            pressure,
            divergence,
            solid,
            source,
            dye,
            bodies,
            v_cycle_plan,
        }
        .validated(path)
    }
}

/// The `.npz` scalars of [`SmokeState::v_cycle_plan`]: V-cycles a step, steps since the plan
/// started, steps since it was last planned.
pub const V_CYCLE_PLAN: [&str; 3] = ["v_cycles", "v_cycle_plan_started", "v_cycle_plan_last"];

/// [`SmokeState::v_cycle_plan`] from its three scalars, all or none.
#[cfg(feature = "npz")]
fn read_v_cycle_plan(npz: &mut NpzReader, path: &Path) -> Result<Option<crate::solver::plan::SavedPlan>, SceneError> {
    let [cycles, since_start, since_planned] = V_CYCLE_PLAN;
    let values = [npz.read_scalar_i64(cycles)?, npz.read_scalar_i64(since_start)?, npz.read_scalar_i64(since_planned)?];
    let bad = |name: &'static str, message: String| SceneError::BadArray { path: path.to_path_buf(), name, message };
    match values {
        [None, None, None] => Ok(None),
        [Some(c), Some(s), Some(p)] => {
            if c < 1 || c > i64::from(u32::MAX) {
                return Err(bad(cycles, format!("= {c}: a step runs at least 1 V-cycle")));
            }
            if p > s {
                return Err(bad(
                    since_planned,
                    format!("= {p} is more than {since_start} = {s}: the plan was last planned after it started"),
                ));
            }
            Ok(Some(crate::solver::plan::SavedPlan {
                cycles: c as u32,
                since_start: s as u64,
                since_planned: p as u64,
            }))
        }
        _ => {
            let (i, _) = values.iter().enumerate().find(|(_, v)| v.is_none()).expect("one is missing");
            Err(bad(
                V_CYCLE_PLAN[i],
                format!("is missing: the V-cycle plan's {} come together (or drop all three)", V_CYCLE_PLAN.join(", ")),
            ))
        }
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
///
/// ```
/// use eddy_fluid::scene::Scene;
/// use eddy_fluid::smoke::{CpuSmoke, Impulse, SmokeParams, SmokeState};
/// # fn main() -> Result<(), eddy_fluid::Error> {
/// let params = SmokeParams::default();
/// let state = SmokeState::from_scene(&Scene::empty(64, 64)?, params.ambient_temperature);
/// let mut sim = CpuSmoke::new(state, params)?;
/// sim.splat(&Impulse { center: (32.0, 32.0), ..Impulse::default() }); // the viewer's splat
/// assert!(sim.state().density[(32, 32)] > 0.0);
/// assert_eq!(sim.state().density[(32, 60)], 0.0); // 28 cells off: outside the disc
/// sim.splat(&Impulse::clear((32.0, 32.0), 20.0, &params)); // the viewer's erase
/// assert_eq!(sim.state().density[(32, 32)], 0.0);
/// # Ok(()) }
/// ```
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
    /// Dye colour `[r, g, b]` the cells move towards (staggered grid).
    pub dye: [f32; 3],
}

impl Impulse {
    /// Speed the viewer's splats give along a drag, cells per time unit.
    pub const DRAG_SPEED: f32 = 10.0;

    /// The viewer's splat (a drag of the left button): the disc of `radius` cells around
    /// `center` (`(col, row)`, cells) moves towards `params`' impulse temperature and density
    /// and dye of `hue` degrees ([`hue_colour`]), and gains [`Impulse::DRAG_SPEED`] along
    /// `direction` (a unit vector, `(x, y)` with y down; `(0, 0)` for none).
    pub fn splat(center: (f32, f32), radius: f32, params: &SmokeParams, direction: (f32, f32), hue: f32) -> Self {
        Self {
            center,
            radius,
            temperature: params.impulse_temperature,
            density: params.impulse_density,
            velocity: (direction.0 * Self::DRAG_SPEED, direction.1 * Self::DRAG_SPEED),
            sources: false,
            dye: hue_colour(hue),
        }
    }

    /// The viewer's erase (Shift): clear air in the disc, temperature back to `params`' ambient,
    /// no smoke, no dye, no added velocity.
    pub fn clear(center: (f32, f32), radius: f32, params: &SmokeParams) -> Self {
        Self {
            center,
            radius,
            temperature: params.ambient_temperature,
            density: 0.0,
            velocity: (0.0, 0.0),
            sources: false,
            dye: [0.0; 3],
        }
    }

    /// The per-step impulse of the scene's sources with `params`' temperature and density.
    pub fn sources(params: &SmokeParams) -> Self {
        Self {
            center: (0.0, 0.0),
            radius: 0.0,
            temperature: params.impulse_temperature,
            density: params.impulse_density,
            velocity: (0.0, 0.0),
            sources: true,
            dye: hue_colour(params.dye_hue),
        }
    }
}

/// The viewer's splat with the default parameters and their dye hue, still, at the top-left
/// corner, with the viewer's splat radius on a 256-cell grid (half the default splat radius,
/// `W / 16`: 16 cells): set `center` (and the rest) and apply.
impl Default for Impulse {
    fn default() -> Self {
        let params = SmokeParams::default();
        Self::splat((0.0, 0.0), 16.0, &params, (0.0, 0.0), params.dye_hue)
    }
}

/// The fully saturated colour of `hue` degrees (0 red, 120 green, 240 blue; the HSV hexcone
/// with value and saturation 1), `[r, g, b]` in [0, 1].
pub fn hue_colour(hue: f32) -> [f32; 3] {
    let h = hue.rem_euclid(360.0) / 60.0;
    let x = 1.0 - (h % 2.0 - 1.0).abs();
    match h as u32 {
        0 => [1.0, x, 0.0],
        1 => [x, 1.0, 0.0],
        2 => [0.0, 1.0, x],
        3 => [0.0, x, 1.0],
        4 => [x, 0.0, 1.0],
        _ => [1.0, 0.0, x],
    }
}

/// The smoke model on the CPU: [`cpu::step`] (collocated) or [`staggered::step`] per step.
pub struct CpuSmoke {
    state: SmokeState,
    params: SmokeParams,
    multigrid: Option<crate::solver::multigrid::Multigrid>,
    last_solve: Option<crate::solver::multigrid::Report>,
    steps: u64,
}

impl CpuSmoke {
    /// Starts from `state` (its velocity moved onto `params`' grid, [`SmokeState::on_layout`])
    /// with `params`.
    ///
    /// # Errors
    /// [`Error::Param`] when `params` fail [`SmokeParams::validate`].
    pub fn new(state: SmokeState, params: SmokeParams) -> Result<Self, Error> {
        params.validate()?;
        check_bodies(&state.bodies, &params)?;
        let mut state = state.for_run(&params);
        staggered::bodies::rasterise(&mut state);
        let multigrid = (params.solver == Solver::Multigrid).then(|| {
            crate::solver::multigrid::Multigrid::with_dirichlet(&state.solid, params.dirichlet(), Default::default())
        });
        Ok(Self { state, params, multigrid, last_solve: None, steps: 0 })
    }

    /// The current state.
    pub fn state(&self) -> &SmokeState {
        &self.state
    }

    /// Statistics of the current state ([`SmokeStats::of`]) with the last multigrid solve's
    /// cycle count.
    pub fn stats(&self) -> SmokeStats {
        SmokeStats { solver_cycles: self.last_solve.map(|r| r.cycles), ..self.state.stats(&self.params) }
            .with_cap(&self.params)
    }

    /// Applies a splat ([`cpu::impulse`] or [`staggered::cpu::impulse`]).
    pub fn splat(&mut self, impulse: &Impulse) {
        match self.params.grid {
            GridLayout::Collocated => cpu::impulse(&mut self.state, impulse),
            GridLayout::Staggered => staggered::cpu::impulse(&mut self.state, impulse),
        }
    }
}

impl crate::Simulation for CpuSmoke {
    type State = SmokeState;

    fn step(&mut self, steps: u32) -> Result<(), Error> {
        for _ in 0..steps {
            match self.params.grid {
                GridLayout::Collocated => cpu::step(&mut self.state, &self.params),
                GridLayout::Staggered => {
                    self.last_solve = staggered::step(&mut self.state, &self.params, self.multigrid.as_ref())
                }
            }
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

impl SmokeStats {
    /// The last pressure solve's relative residual, and its V-cycles for multigrid
    /// (`"solver residual 3.1e-5 after 4 V-cycles"`, and `" (the cap, short of the
    /// tolerance)"` after them when [`SmokeStats::solver_capped`]).
    pub fn solver_line(&self) -> String {
        use crate::params::readable;
        let residual = readable(self.solver_residual, 2);
        match self.solver_cycles {
            Some(n) if self.solver_capped => {
                format!("solver residual {residual} after {n} V-cycles (the cap, short of the tolerance)")
            }
            Some(n) => format!("solver residual {residual} after {n} V-cycles"),
            None => format!("solver residual {residual}"),
        }
    }
}

impl crate::ModelState for SmokeState {
    fn shape(&self) -> (usize, usize) {
        self.density.shape()
    }

    fn solid(&self) -> &Grid<u8> {
        &self.solid
    }

    #[cfg(feature = "npz")]
    fn write_npz(&self, npz: &mut Npz) -> Result<(), SceneError> {
        self.write_to(npz)
    }
}

impl crate::ModelStats for SmokeStats {
    fn total(&self) -> f64 {
        self.total_density
    }

    fn non_finite(&self) -> u64 {
        self.non_finite
    }

    fn line(&self) -> String {
        use crate::gpu_model::or_na;
        format!(
            "total density {:.4}, density centroid row {}, max speed {} cells/time unit, kinetic energy {:.4}, divergence L2 after projection {:.4}, {}",
            self.total_density,
            or_na(self.density_centroid_row, 2),
            or_na(self.max_speed as f64, 3),
            self.kinetic_energy,
            self.divergence_l2,
            self.solver_line()
        )
    }
}
