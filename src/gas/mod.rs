//! `gas`: a mass-and-momentum flow automaton.
//!
//! Source: the "two cells of unit area" description of a cellular fluid with momentum,
//! dtosoftware, "Fluid dynamics part 2" (2012, dtosoftware.wordpress.com). Every cell holds a density `rho` and a momentum `m = (mx, my)`; each step,
//! mass and momentum flow across the faces between neighbouring cells (4-way: edges; 8-way:
//! edges and diagonals), computed from face-midpoint values (the mean of the two cells). What
//! one cell loses across a face its neighbour gains, so both are conserved up to rounding,
//! except where the optional damping, drain and sources act. Walls block faces and bounce the
//! momentum that points into them.
//!
//! eddy adds four things to the source's rules, each because the CPU reference run at the
//! parameter extremes failed without it: an isothermal pressure ([`GasParams::pressure`], 0 =
//! the source's model) with walls pushing back; momentum carried by the diffusive exchange,
//! `D (m_a - m_b)` (central face fluxes are unstable without it); half weight per face with
//! 8-way flow ([`cpu::face_weight`]); and a speed cap of [`cpu::MAX_SPEED`] cells/step.
//!
//! [`GpuGas`] (three compute passes per step, gather-only) and [`CpuGas`]
//! ([`cpu::step`]) run the same rules; the tests hold the GPU to the CPU.
//!
//! Units: cells and steps; density is per cell (ambient 1), momentum is density x cells/step.
//! Vectors are `(x, y)`: x towards increasing column (right), y towards increasing row (down,
//! away from row 0 at the top).

pub mod cpu;
mod gpu;

pub use gpu::GpuGas;

use crate::error::{Error, ParamError};
use crate::grid::Grid;
use crate::model::params::{ParamInfo, ParamKind, ParamSpec, ParamTable, Range, Value};
use crate::npz::{Npz, NpzReader};
use crate::scene::{self, Scene, SceneError};
use std::path::Path;

/// The density that the drain relaxes towards, and that sources and empty scene cells hold.
pub const AMBIENT_DENSITY: f32 = 1.0;

/// Density of the scene's fluid (blue PNG pixels, the `explosion` blob): four times ambient.
pub const DENSE_GAS: f32 = 4.0;

/// Which neighbours exchange flows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Neighbours {
    /// The four edge neighbours.
    Four,
    /// Edges and diagonals: rounder fronts (the default, it looks better).
    #[default]
    Eight,
}

/// Parameters of the gas model (a uniform, `GasParams` in `shaders/gas/params.wgsl`).
///
/// The faces use face-midpoint (mean) values, a central scheme: it is stable only with enough
/// diffusion for the speeds present, which is why the ranges are what they are (measured on
/// the CPU reference over 3000 undamped steps of the `explosion` and `wind` scenes and a fast
/// blob). Defaults keep the `explosion` scene moving for a few thousand steps without blowing
/// up: pressure 0.05 makes the blob burst outward as a pressure wave (sound speed about 0.16
/// cells/step with 8-way faces); diffusion 0.05 is the middle of the stable range; damping
/// 0.999 and drain 0.9995 lose about 1/1000 of the motion and 1/2000 of the excess density per
/// step, so waves cross a 192-cell room several times before settling; friction 0.01 smooths
/// shear without freezing it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GasParams {
    /// `D`, diffusion constant of the mass flow `F = dot(m, d) + D (rho_a - rho_b)`, also
    /// carrying momentum `D (m_a - m_b)` across the face; [0.03, 0.1].
    pub diffusion: f32,
    /// Factor on momentum after each step; [0.9, 1] (1 = no damping).
    pub damping: f32,
    /// `rho = rho * drain + (1 - drain) * 1` after each step; [0.9, 1] (1 = no drain).
    pub drain: f32,
    /// Coefficient of the perpendicular-momentum exchange across a face; [0, 0.1].
    pub friction: f32,
    /// 4- or 8-way flow.
    pub neighbours: Neighbours,
    /// Velocity `(x, y)` (cells/step) that source cells blow at; each component in [-0.5, 0.5].
    pub wind: (f32, f32),
    /// eddy's extension: isothermal pressure `c^2` (cells^2/step^2), adding `c^2 rho_f` to the
    /// parallel momentum flow; [0, 0.05]. 0 is the source's model, where only diffusion resists
    /// compression: wind then piles up against obstacles until the drain balances it, and
    /// explosions barely expand.
    pub pressure: f32,
}

impl Default for GasParams {
    fn default() -> Self {
        Self {
            diffusion: 0.05,
            damping: 0.999,
            drain: 0.9995,
            friction: 0.01,
            neighbours: Neighbours::Eight,
            wind: (0.25, 0.0),
            pressure: 0.05,
        }
    }
}

impl GasParams {
    /// Checks every parameter against [`GasParams::TABLE`].
    ///
    /// # Errors
    /// [`ParamError`] naming the first parameter out of range and why.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check()
    }
}

const DTO: &str = "eddy, measured on the CPU reference";

/// The damping and drain: a factor kept per step.
const KEPT: Range = Range::closed(
    0.9,
    1.0,
    "below 0.9 more than a tenth of it goes every step; [0.9, 1] is what eddy's stability runs cover",
    "above 1 it grows every step without bound",
);

impl ParamTable for GasParams {
    const TABLE: &'static [ParamSpec<Self>] = &[
        ParamSpec {
            info: ParamInfo::real(
                "diffusion",
                "D",
                "",
                Range::closed(0.03, 0.1, "below 0.03 the scheme has too little dissipation to stay stable", "above 0.1 a blob dissolves before it moves"),
            )
            .doc("diffusion constant of the mass flow, also carrying momentum", DTO)
            .key('d', 0.01),
            get: |p| Value::Real(p.diffusion),
            set: |p, v| p.diffusion = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real("damping", "damp", "per step", KEPT).doc("momentum kept per step (1 = no damping)", DTO).key('m', 0.001),
            get: |p| Value::Real(p.damping),
            set: |p, v| p.damping = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real("drain", "drain", "per step", KEPT)
                .doc("density kept per step; the rest relaxes to ambient 1 (1 = no drain)", DTO)
                .key('k', 0.0005),
            get: |p| Value::Real(p.drain),
            set: |p, v| p.drain = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "friction",
                "fric",
                "",
                Range::closed(
                    0.0,
                    0.1,
                    "negative friction feeds shear instead of smoothing it",
                    "above 0.1 is outside what eddy's stability runs cover",
                ),
            )
            .doc("perpendicular momentum exchange across faces", DTO)
            .key('f', 0.01),
            get: |p| Value::Real(p.friction),
            set: |p, v| p.friction = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "pressure",
                "c^2",
                "cells^2/step^2",
                Range::closed(0.0, 0.05, "c^2 < 0 pulls gas together without bound", "stronger pressure outruns the scheme's stability (measured: unstable at 0.1 unless diffusion >= 0.1)"),
            )
            .doc("isothermal pressure c^2 (eddy's extension; 0 = the source's model)", DTO)
            .key('p', 0.01),
            get: |p| Value::Real(p.pressure),
            set: |p, v| p.pressure = v.real(),
        },
        ParamSpec {
            info: ParamInfo::of("neighbours", "neighbours", "", ParamKind::Choice(&["4", "8"]))
                .doc("4- or 8-way flow", "8: rounder fronts")
                .key('n', 0.0),
            get: |p| Value::Choice(p.neighbours as usize),
            set: |p, v| p.neighbours = if v.choice() == 0 { Neighbours::Four } else { Neighbours::Eight },
        },
        ParamSpec {
            info: ParamInfo::of(
                "wind",
                "wind",
                "cells/step",
                ParamKind::Pair(Range::closed(-0.5, 0.5, "faster than 0.5 cells/step breaks the CFL limit", "faster than 0.5 cells/step breaks the CFL limit")),
            )
            .doc("velocity X,Y (y down) that source cells blow at", "eddy"),
            get: |p| Value::Pair(p.wind.0, p.wind.1),
            set: |p, v| p.wind = v.pair(),
        },
    ];
}

/// The gas model's state: `density` `(H, W)`, momentum components `momentum_x`, `momentum_y`
/// `(H, W)` (x right, y down), `solid` and `source` masks `(H, W)` u8. Row 0 is the top.
#[derive(Clone, Debug, PartialEq)]
pub struct GasState {
    /// Density per cell, >= 0 (ambient 1); 0 in walls.
    pub density: Grid<f32>,
    /// Momentum towards increasing column, density x cells/step.
    pub momentum_x: Grid<f32>,
    /// Momentum towards increasing row (down), density x cells/step.
    pub momentum_y: Grid<f32>,
    /// 1 = wall.
    pub solid: Grid<u8>,
    /// 1 = source: reset each step to ambient density blowing at [`GasParams::wind`].
    pub source: Grid<u8>,
}

/// Totals over the grid, accumulated in f64 (the GPU computes them by reduction,
/// `shaders/gas/stats.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GasStats {
    /// Sum of density.
    pub total_mass: f64,
    /// Sum of momentum `(x, y)`.
    pub total_momentum: (f64, f64),
    /// Smallest density of an open cell (infinity when there is none).
    pub min_density: f32,
    /// Largest speed `|m| / rho` of an open cell with `rho >` [`cpu::RHO_EPSILON`] (cells/step;
    /// minus infinity when there is none).
    pub max_speed: f32,
    /// Cells whose density or momentum is NaN or infinite.
    pub non_finite: u64,
}

impl GasStats {
    /// Statistics of `state`.
    pub fn of(state: &GasState) -> Self {
        let mut st = GasStats {
            total_mass: 0.0,
            total_momentum: (0.0, 0.0),
            min_density: f32::INFINITY,
            max_speed: f32::NEG_INFINITY,
            non_finite: 0,
        };
        for i in 0..state.density.as_slice().len() {
            let (rho, mx, my) =
                (state.density.as_slice()[i], state.momentum_x.as_slice()[i], state.momentum_y.as_slice()[i]);
            st.total_mass += rho as f64;
            st.total_momentum.0 += mx as f64;
            st.total_momentum.1 += my as f64;
            st.non_finite += !(rho.is_finite() && mx.is_finite() && my.is_finite()) as u64;
            if state.solid.as_slice()[i] == 0 {
                st.min_density = st.min_density.min(rho);
                if rho > cpu::RHO_EPSILON {
                    st.max_speed = st.max_speed.max((mx * mx + my * my).sqrt() / rho);
                }
            }
        }
        st
    }

    /// From the GPU reduction's totals (slots as `shaders/gas/stats.wgsl` fills them).
    pub(crate) fn from_totals(t: &crate::gpu::Totals) -> Self {
        GasStats {
            total_mass: t.sum[0],
            total_momentum: (t.sum[1], t.sum[2]),
            min_density: t.min(0),
            max_speed: t.max(0),
            non_finite: t.count(3),
        }
    }
}

impl GasState {
    /// Ambient gas everywhere open, dense gas ([`DENSE_GAS`]) where the scene has fluid, walls
    /// where it is solid, sources where it has sources; no momentum.
    pub fn from_scene(scene: &Scene) -> Self {
        let density = Grid::from_fn(scene.solid.width(), scene.solid.height(), |r, c| {
            if scene.solid[(r, c)] != 0 {
                0.0
            } else {
                AMBIENT_DENSITY + (DENSE_GAS - AMBIENT_DENSITY) * scene.fluid[(r, c)]
            }
        });
        let zero = density.map(|_| 0.0);
        Self {
            momentum_x: zero.clone(),
            momentum_y: zero,
            density,
            solid: scene.solid.clone(),
            source: scene.source.clone(),
        }
    }

    /// `(H, W)`.
    pub fn shape(&self) -> (usize, usize) {
        self.density.shape()
    }

    /// Totals and extremes ([`GasStats::of`]).
    pub fn stats(&self) -> GasStats {
        GasStats::of(self)
    }

    /// Checks shapes agree, densities are finite and >= 0, momenta finite; empties walls.
    ///
    /// # Errors
    /// [`SceneError::ShapeMismatch`] or [`SceneError::BadValue`] naming the first bad cell.
    pub fn validated(mut self, origin: &Path) -> Result<Self, SceneError> {
        let shape = self.density.shape();
        for (name, other) in
            [("momentum", self.momentum_x.shape()), ("solid", self.solid.shape()), ("source", self.source.shape())]
        {
            scene::check_same_shape(origin, ("density", shape), (name, other))?;
        }
        scene::check_finite_non_negative(origin, "density", &self.density)?;
        scene::check_finite(origin, "momentum", &self.momentum_x)?;
        scene::check_finite(origin, "momentum", &self.momentum_y)?;
        for i in 0..self.density.as_slice().len() {
            if self.solid.as_slice()[i] != 0 {
                self.density.as_mut_slice()[i] = 0.0;
                self.momentum_x.as_mut_slice()[i] = 0.0;
                self.momentum_y.as_mut_slice()[i] = 0.0;
                self.source.as_mut_slice()[i] = 0;
            }
        }
        Ok(self)
    }

    /// Writes `path` as NumPy `.npz`: `density` float32 `(H, W)`, `momentum` float32 `(H, W, 2)`
    /// (`[..., 0]` = x, towards increasing column; `[..., 1]` = y, towards increasing row = down),
    /// `solid` uint8 `(H, W)`, `source` uint8 `(H, W)`. Row 0 is the top.
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
        npz.write_f32("density", &self.density)?;
        npz.write_f32_components("momentum", &[&self.momentum_x, &self.momentum_y])?;
        npz.write_u8("solid", &self.solid)?;
        npz.write_u8("source", &self.source)?;
        Ok(())
    }

    /// Reads a `.npz` as written by [`GasState::save_npz`]; `momentum`, `solid` and `source` may
    /// be missing (zero).
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
        let (momentum_x, momentum_y) = match npz.read_f32_components_opt("momentum", 2)? {
            Some(mut c) => {
                let y = c.pop().expect("two components");
                (c.pop().expect("two components"), y)
            }
            None => (Grid::filled(w, h, 0.0), Grid::filled(w, h, 0.0)),
        };
        let solid = npz.read_u8_opt("solid")?.unwrap_or_else(|| Grid::filled(w, h, 0));
        let source = npz.read_u8_opt("source")?.unwrap_or_else(|| Grid::filled(w, h, 0));
        Self { density, momentum_x, momentum_y, solid, source }.validated(path)
    }
}

/// A disc-shaped edit of the gas (the viewer's tools): inside, an open cell gets
/// `density * scale + add` and `momentum * scale + add * (velocity + radial * offset / radius)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GasBrush {
    /// Centre `(col, row)` in cells.
    pub center: (f32, f32),
    /// Radius in cells.
    pub radius: f32,
    /// Factor on the existing density and momentum (1 keep, 0 replace).
    pub scale: f32,
    /// Density added.
    pub add: f32,
    /// Velocity `(x, y)` given to the added density, cells/step.
    pub velocity: (f32, f32),
    /// Outward speed at the rim (an explosion), cells/step.
    pub radial: f32,
}

/// The gas model on the CPU: [`cpu::step`] per step.
pub struct CpuGas {
    state: GasState,
    params: GasParams,
    steps: u64,
}

impl CpuGas {
    /// Starts from `state` with `params`.
    ///
    /// # Errors
    /// [`Error::Param`] when `params` fail [`GasParams::validate`].
    pub fn new(state: GasState, params: GasParams) -> Result<Self, Error> {
        params.validate()?;
        Ok(Self { state, params, steps: 0 })
    }

    /// The current state.
    pub fn state(&self) -> &GasState {
        &self.state
    }

    /// Applies a brush edit ([`cpu::brush`]).
    pub fn brush(&mut self, b: &GasBrush) {
        cpu::brush(&mut self.state, b);
    }
}

impl crate::Simulation for CpuGas {
    type State = GasState;

    fn step(&mut self, steps: u32) -> Result<(), Error> {
        for _ in 0..steps {
            cpu::step(&mut self.state, &self.params);
        }
        self.steps += steps as u64;
        Ok(())
    }

    fn read_state(&mut self) -> Result<GasState, Error> {
        Ok(self.state.clone())
    }

    fn steps_done(&self) -> u64 {
        self.steps
    }
}
