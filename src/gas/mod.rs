//! `gas`: a mass-and-momentum flow automaton.
//!
//! Source: the "two cells of unit area" description of a cellular fluid with momentum,
//! dtosoftware, "Fluid dynamics part 2" (2012, dtosoftware.wordpress.com). Every cell holds a
//! density `rho` and a momentum `m = (mx, my)`; each step, mass and momentum flow across the
//! faces between neighbouring cells (4-way: edges; 8-way: edges and diagonals), computed from
//! face-midpoint values (the mean of the two cells). What one cell loses across a face its
//! neighbour gains, so both are conserved up to rounding, except where the optional damping,
//! drain and sources act. Walls block faces and bounce the momentum that points into them.
//!
//! With pressure on, this is a finite-volume scheme for isothermal compressible flow,
//! `rho_t + div m = 0`, `m_t + div(m m^T / rho) + c^2 grad rho = 0`, `c^2` =
//! [`GasParams::pressure`], and [`checks`] holds it to that: a blob carried by a uniform flow, a
//! pressure pulse spreading at `c`, and a shock tube against the exact solution ([`exact`]).
//!
//! eddy adds to the source's rules, each because a measurement failed without it: an
//! isothermal pressure (0 = the source's model); momentum carried by the exchange,
//! `nu (m_a - m_b) / h` (central face fluxes are unstable without it); face lengths that make
//! 8-way flow consistent (below); walls as mirrors ([`cpu::ghost`]); Rusanov's upwind exchange
//! ([`FluxScheme::Rusanov`], the default); second order in space and time
//! ([`Reconstruction::Linear`], the default: MUSCL-Hancock, limited slopes and half-step face states; the
//! source's first-order scheme is [`Reconstruction::Constant`]); and a speed cap of
//! [`cpu::MAX_SPEED`] cells/step that no in-range scene reaches (a safety net). The second order
//! is held to the exact 2D pulse and simple wave, a textbook second-order code and a
//! convergence study (`tests/gas_physics.rs`).
//!
//! # Face lengths: the derivation
//!
//! A face from cell `a` to `b = a + delta` (`h = |delta|`, unit normal `d = delta / h`, length
//! `L`) carries `L (m_f . d)` of mass and `L (Pi_f d)` of momentum (`Pi = m m^T / rho + c^2
//! rho I`), from the means of the two cells. For fields linear in x, the means differ across
//! the opposite faces `+delta`, `-delta` by `h (d . grad)`, so a cell's net outflow is
//! `sum_k L_k h_k (d_k d_k^T) : grad m` of mass and `sum_k L_k h_k (d_k d_k^T) grad Pi` of
//! momentum. Both the axis pair (E, S) and the diagonal pair (SE, SW) have `sum d d^T = I`, so
//! both operators are `L_axis + sqrt(2) L_diag` times the exact divergence and gradient:
//! - (a) a uniform flow moves mass at exactly its velocity, in every direction,
//! - (b) a uniform density gradient feels the pressure force `c^2 grad rho` in 4- and 8-way,
//! - (c) sound (`rho_tt = c^2 lap rho` in the long-wave limit) travels at `c` in every direction,
//!
//! all three iff `L_axis + sqrt(2) L_diag = 1`. The source's rule (1/2 each) gives
//! `0.5 + 0.707 = 1.207`: 8-way flow moved mass 21% faster than its momentum says. The
//! exchange `nu (x_a - x_b) / h` with the same `nu` on every face (the central flux) sums to
//! the same factor times `nu lap x`, so `nu` is the diffusion coefficient in both
//! neighbourhoods. One freedom is left. The next Taylor term of the x gradient is
//! `(1/6)[(L_axis + sqrt(2) L_diag) d_xxx + 3 sqrt(2) L_diag d_xyy]`, isotropic (a multiple of
//! `d_x lap`) iff `L_axis = 2 sqrt(2) L_diag`; the Laplacian's 9-point stencil for a constant
//! `nu` is then the isotropic one, axis : diagonal = 4 : 1 (as in the D2Q9 lattice-Boltzmann
//! weights). Hence **`L_axis = 2/3`, `L_diag = sqrt(2)/6`** ([`lattice::face_length`]); 4-way flow
//! has `L = 1`. (Rusanov's exchange grows with `h`, so its stencil is 4 : sqrt(2) and its
//! dissipation along an axis is `(2 + sqrt 2)/6 alpha = 0.57 alpha` in 8-way against
//! `0.5 alpha` in 4-way: a little more diffusive, and not exactly isotropic.) Measured
//! ([`checks::translation`], [`checks::sound_speed`]): blobs move within 0.2% of the flow,
//! sound spreads within 0.2% of `c`, and the crest of a pulse travels along the diagonals
//! within 0.5% of its speed along the axes.
//!
//! Rigid bodies move through the gas ([`bodies`]): rasterised into the walls each step,
//! the gas of the cells they cover or leave handed over so that mass stays conserved, and the
//! faces into them the walls' mirror in each body's frame; a piston driven into gas at rest
//! matches the isothermal jump conditions within 0.2% (`tests/gas_physics.rs`).
//!
//! [`GpuGas`] (three compute passes per step, four with the linear reconstruction, three more
//! with bodies; gather-only) and [`CpuGas`]
//! ([`cpu::step`]) run the same rules; the tests hold the GPU to the CPU.
//!
//! Units: cells and steps; density is per cell (ambient 1), momentum is density x cells/step.
//! Vectors are `(x, y)`: x towards increasing column (right), y towards increasing row (down,
//! away from row 0 at the top).

pub mod acoustics;
pub mod bodies;
pub mod checks;
pub mod cpu;
pub mod exact;
mod gpu;
pub mod lattice;

pub use gpu::GpuGas;

/// Most storage textures one gas pass writes: 4 (the linear reconstruction's predictor, its
/// half-step state and three slopes). A device must allow this many per shader stage
/// ([`crate::gpu::check_device`]).
pub const STORAGE_TEXTURES_PER_STAGE: u32 = 4;

use crate::edge::EdgeKind;
use crate::error::{Error, ParamError};
use crate::grid::Grid;
#[cfg(feature = "npz")]
use crate::npz::{Npz, NpzReader};
use crate::params::{ParamInfo, ParamKind, ParamSpec, ParamTable, Range, Value};
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

/// How a face's flux is stabilised: what sets the exchange coefficient `nu` of density and
/// momentum across it ([`cpu::exchange`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FluxScheme {
    /// The source's rule: face means plus `D (x_a - x_b)`, the same `D` everywhere.
    Central,
    /// Local Lax-Friedrichs (Rusanov 1961): `nu = max(D, alpha h / 2)` with `alpha` the fastest
    /// signal speed `|u . d| + c` at the face; stable shocks without tuning `D`.
    #[default]
    Rusanov,
}

/// How the face states are reconstructed from the cells, and with it the time integration
/// ([`cpu::step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reconstruction {
    /// Piecewise constant: the face sees its two cells' values; one forward-Euler stage a step
    /// (first order in space and time; the source's scheme).
    Constant,
    /// Piecewise linear (MUSCL-Hancock, van Leer 1984; Toro 2009, section 14.4): each cell's
    /// value advanced half a step ([`cpu::predict`]) plus half its slope along the face's
    /// direction, the slope limited by [`cpu::LIMITER`] from the cells behind and beyond; one
    /// update a step with the fluxes of those face states. Second order in space and time where
    /// the flow is smooth, monotone at shocks. Needs the Rusanov flux.
    #[default]
    Linear,
}

/// Parameters of the gas model (a uniform, `GasParams` in `shaders/gas/params.wgsl`).
///
/// The ranges come from runs that include shocks as well as smooth scenes (the shock tube with
/// a density ratio of 8, the undamped `explosion`, the `wind` preset at its fastest along an
/// axis and a diagonal; `tests/gas_physics.rs`, `examples/gas_physics.rs ranges`): inside them
/// the speed cap [`cpu::MAX_SPEED`] never acts. Some limits depend on another parameter and are
/// checked together ([`GasParams::diffusion_range`], [`GasParams::pressure_range`],
/// [`GasParams::WIND_LIMIT`], [`GasParams::limits`]). Defaults: the linear reconstruction
/// (second order); wind 0.2 cells/step; pressure 0.05 makes the `explosion` blob burst outward
/// as a pressure wave at `c = 0.22` cells/step; diffusion 0.05, a floor that Rusanov's exchange
/// (at least `c / 2 = 0.11` there) leaves unused at the default pressure, and that matters at
/// the lowest (`c / 2 = 0.05`); damping 0.999 and drain 0.9995 lose about 1/1000 of the
/// motion and 1/2000 of the excess density per step, so waves cross a 192-cell room several
/// times before settling; friction 0.01 smooths shear without freezing it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GasParams {
    /// `D`, the exchange of density and momentum across a face, `nu (x_a - x_b) / h` with
    /// `nu = D` (central) or `max(D, alpha h / 2)` (Rusanov), cells^2/step; [0, 0.15]
    /// (central: [0.1, 0.15]).
    pub diffusion: f32,
    /// Factor on momentum after each step; [0.9, 1] (1 = no damping).
    pub damping: f32,
    /// `rho = rho * drain + (1 - drain) * 1` after each step; [0.9, 1] (1 = no drain).
    pub drain: f32,
    /// Coefficient of the perpendicular-momentum exchange across a face, `friction / h`;
    /// [0, 0.1].
    pub friction: f32,
    /// 4- or 8-way flow.
    pub neighbours: Neighbours,
    /// The face flux: the source's central rule or Rusanov's upwind one.
    pub flux: FluxScheme,
    /// Piecewise-constant (first-order) or limited piecewise-linear (second-order) face states.
    pub reconstruction: Reconstruction,
    /// Velocity `(x, y)` (cells/step) that source cells blow at; `|wind| <= 0.25` (0.2 with the
    /// linear reconstruction, [`GasParams::limits`]).
    pub wind: (f32, f32),
    /// eddy's extension: isothermal pressure `c^2` (cells^2/step^2), adding `c^2 rho_f` to the
    /// momentum flow along each face; [0.01, 0.05] (central: [0.015, 0.02]). The source's model
    /// had none (0), where only diffusion resists compression: wind piles up against obstacles
    /// and leaves near-vacuum wakes that reach the speed cap, so eddy does not allow it.
    pub pressure: f32,
    /// What each edge of the box is, `[left, right, top, bottom]` ([`crate::edge::LEFT`] ...):
    /// a wall (a mirror, the default), an inflow or an outflow ([`EdgeKind`]; a slip edge is a
    /// wall here).
    pub edges: [EdgeKind; 4],
    /// Speed of the gas the inflow edges' ghosts hold, normal to the edge and into the box,
    /// cells/step; [0, 0.25], and at most the wind limit of the reconstruction
    /// ([`GasParams::limits`]).
    pub inflow: f32,
    /// Density of the gas the inflow edges' ghosts hold (ambient 1); [0.5, 4].
    pub inflow_density: f32,
}

impl Default for GasParams {
    fn default() -> Self {
        Self {
            diffusion: 0.05,
            damping: 0.999,
            drain: 0.9995,
            friction: 0.01,
            neighbours: Neighbours::Eight,
            flux: FluxScheme::Rusanov,
            reconstruction: Reconstruction::Linear,
            wind: (0.2, 0.0),
            pressure: 0.05,
            edges: [EdgeKind::Wall; 4],
            inflow: 0.15,
            inflow_density: AMBIENT_DENSITY,
        }
    }
}

impl GasParams {
    /// Largest wind speed `|wind|` (cells/step): up to 0.25 the flow around the `wind` preset's
    /// obstacles stays below the speed cap at every corner of the allowed ranges
    /// (`tests/gas_physics.rs`, largest speed 0.365); a diagonal wind of `(0.25, 0.25)` (speed
    /// 0.35) reaches it (4-way Rusanov: the exchange `(|u_x| + |u_y| + 2c) / 2` plus friction
    /// passes the explicit limit 1/2).
    pub const WIND_LIMIT: f32 = 0.25;

    /// The wind limit and the largest friction that `reconstruction` stays under the speed cap
    /// with, `(wind, friction)`: the constant reconstruction [`GasParams::WIND_LIMIT`] and 0.1
    /// (the table's range); the linear one 0.2 and 0.02. Its sharper flow reaches higher speeds
    /// in the expansions behind the `wind` preset's obstacles (the exact isothermal
    /// Prandtl-Meyer turn of a Mach 1.1 wind round a right-angled corner would pass 0.5
    /// cells/step), where the explicit exchange `(|u| + c) / 2` plus friction passes the
    /// stability limit 1/2 and a checkerboard grows to the cap: wind 0.25 with friction 0.1
    /// reached the cap, and so did 4-way at `c^2` = 0.01 with friction 0.05 (at wind 0.2 and
    /// even 0.15, measured with a two-stage Heun time step); at wind 0.2 and friction
    /// 0.02 the fastest corner runs 0.440 with MUSCL-Hancock (all corners of diffusion, pressure
    /// and neighbours, undamped, 2000 steps; `tests/gas_physics.rs`).
    pub fn limits(reconstruction: Reconstruction) -> (f32, f32) {
        match reconstruction {
            Reconstruction::Constant => (Self::WIND_LIMIT, 0.1),
            Reconstruction::Linear => (0.2, 0.02),
        }
    }

    /// The diffusion `D` (cells^2/step) that `flux` keeps clean with, `(min, max)`: no speed
    /// cap reached, no overshoot behind a shock. Rusanov: [0, 0.15]; its exchange is at least
    /// `c h / 2` (>= 0.05 in the pressure range) whatever `D`, so `D` is only a floor under it
    /// and below `c / 2` changes nothing (0.11 at the default pressure). Central: [0.1, 0.15];
    /// at 0.05 and 0.07 the `wind` preset reaches the speed cap, and the shock tube overshoots
    /// behind the shock by 9-13% at 0.05 and up to 0.9% at 0.09 (the von Neumann bound
    /// `nu >= lambda^2 / 2`, `lambda = u* + c = 2.06 c`, is only 0.03-0.04 in central's pressure
    /// range: it is the cell Peclet condition `nu >~ lambda / 2` and the wind that set it).
    /// Above 0.15 the explicit exchange plus the largest friction passes the stability limit of
    /// 4-way faces (`nu_x + nu_y <= 1/2`). Measured: `examples/gas_physics.rs`,
    /// `tests/gas_physics.rs`.
    pub fn diffusion_range(flux: FluxScheme) -> (f32, f32) {
        match flux {
            FluxScheme::Central => (0.1, 0.15),
            FluxScheme::Rusanov => (0.0, 0.15),
        }
    }

    /// The pressure `c^2` (cells^2/step^2) that `flux` keeps clean with, `(min, max)`.
    /// Rusanov: [0.01, 0.05]; at 0.1 the undamped explosion reaches the speed cap with 4-way
    /// faces; below 0.01 pressure-free wind piles up in front of obstacles and leaves
    /// near-vacuum wakes whose speed reaches the cap (the source's model, pressure 0, is
    /// therefore out of range). Central: [0.015, 0.02]; at 0.01 a diagonal wind of Mach 2.5
    /// reaches the cap, and above 0.02 the shock tube overshoots behind the shock by more than
    /// 1% at `D` = 0.1 (1.4% at 0.025, 16% at 0.05): a central scheme is free of oscillations
    /// only while its exchange is about the fastest signal speed (`nu >~ lambda / 2`, the cell
    /// Peclet condition). Measured: `examples/gas_physics.rs shock`, `tests/gas_physics.rs`.
    pub fn pressure_range(flux: FluxScheme) -> (f32, f32) {
        match flux {
            FluxScheme::Central => (0.015, 0.02),
            FluxScheme::Rusanov => (0.01, 0.05),
        }
    }

    /// The `tunnel` scene's parameters: gas enters through the left edge at
    /// ambient density and 0.1 cells/step (Mach 0.45 at the default `c = 0.22`; at 0.15 the
    /// flow past the scene's cylinder, a blockage of 1/5, turns transonic) and leaves
    /// through the right; the top and bottom edges are walls; no damping or drain, which would
    /// slow the stream and pull its density. The rest are the defaults.
    pub fn tunnel() -> Self {
        use crate::edge::EdgeKind::{Inflow, Outflow, Wall};
        Self {
            edges: [Inflow, Outflow, Wall, Wall],
            inflow: 0.1,
            inflow_density: AMBIENT_DENSITY,
            damping: 1.0,
            drain: 1.0,
            ..Self::default()
        }
    }

    /// The speed of sound `c = sqrt(pressure)`, cells/step.
    pub fn sound_speed(&self) -> f32 {
        self.pressure.max(0.0).sqrt()
    }

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

/// What each edge kind means for gas, in its table rows (`crate::edge::edge_row`).
macro_rules! gas_edge_row {
    ($name:literal, $index:expr, $side:literal) => {
        crate::edge::edge_row!(
            $name,
            $index,
            $side,
            "wall (a mirror), inflow (gas at --inflow-density moving in at --inflow), outflow (zero gradient: waves \
             leave) or slip (a wall)",
            "eddy; Toro (2009) 6.3.3"
        )
    };
}

impl ParamTable for GasParams {
    const TABLE: &'static [ParamSpec<Self>] = &[
        ParamSpec {
            info: ParamInfo::real(
                "diffusion",
                "D",
                "cells^2/step",
                Range::closed(
                    0.0,
                    0.15,
                    "negative diffusion sharpens every ripple until the speed cap acts",
                    "above 0.15 the explicit exchange passes the stability limit of 4-way faces",
                ),
            )
            .doc(
                "exchange of density and momentum across faces; rusanov: a floor under (|u|+c) h/2, no effect below c/2; central: [0.1, 0.15]",
                DTO,
            )
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
                "cells^2/step",
                Range::closed(
                    0.0,
                    0.1,
                    "negative friction feeds shear instead of smoothing it",
                    "above 0.1 is outside what eddy's stability runs cover",
                ),
            )
            .doc("perpendicular momentum exchange across faces; at most 0.02 with the linear reconstruction", DTO)
            .key('f', 0.01),
            get: |p| Value::Real(p.friction),
            set: |p, v| p.friction = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "pressure",
                "c^2",
                "cells^2/step^2",
                Range::closed(
                    0.01,
                    0.05,
                    "below 0.01 there is too little pressure: wind piles up against obstacles and leaves near-vacuum wakes that reach the speed cap (measured at 0; c^2 < 0 pulls gas together)",
                    "above 0.05 an undamped explosion reaches the speed cap with 4-way faces (measured at 0.1)",
                ),
            )
            .doc("isothermal pressure c^2 = sound speed squared (eddy's extension); central: [0.015, 0.02]", DTO)
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
            info: ParamInfo::of("flux", "flux", "", ParamKind::Choice(&["central", "rusanov"]))
                .doc("face flux: rusanov (upwind: exchange at least (|u|+c) h/2) or central (the source's: D everywhere; \
                 needs --diffusion in [0.1, 0.15] and --pressure in [0.015, 0.02], which the viewer's key moves them into)", "rusanov: clean shocks at every D (eddy's shock-tube runs)")
                .key('x', 0.0),
            get: |p| Value::Choice(p.flux as usize),
            set: |p, v| p.flux = if v.choice() == 0 { FluxScheme::Central } else { FluxScheme::Rusanov },
        },
        ParamSpec {
            info: ParamInfo::of("reconstruction", "recon", "", ParamKind::Choice(&["constant", "linear"]))
                .doc(
                    "face states: linear (MUSCL-Hancock, limited slopes advanced half a step: second order, needs --flux rusanov) \
                     or constant (first order, the source's)",
                    "linear: keeps sound and blasts sharper (eddy's pulse, wave and shock-tube runs)",
                )
                .key('o', 0.0),
            get: |p| Value::Choice(p.reconstruction as usize),
            set: |p, v| p.reconstruction = if v.choice() == 0 { Reconstruction::Constant } else { Reconstruction::Linear },
        },
        ParamSpec {
            info: ParamInfo::of(
                "wind",
                "wind",
                "cells/step",
                ParamKind::Pair(Range::closed(
                    -GasParams::WIND_LIMIT,
                    GasParams::WIND_LIMIT,
                    "faster wind accelerates around obstacles up to the speed cap",
                    "faster wind accelerates around obstacles up to the speed cap",
                )),
            )
            .doc("velocity X,Y (y down) that source cells blow at; |wind| <= 0.25 (linear reconstruction: 0.2)", "eddy"),
            get: |p| Value::Pair(p.wind.0, p.wind.1),
            set: |p, v| p.wind = v.pair(),
        },
        gas_edge_row!("left-edge", crate::edge::LEFT, "left"),
        gas_edge_row!("right-edge", crate::edge::RIGHT, "right"),
        gas_edge_row!("top-edge", crate::edge::TOP, "top"),
        gas_edge_row!("bottom-edge", crate::edge::BOTTOM, "bottom"),
        ParamSpec {
            info: ParamInfo::real(
                "inflow",
                "U_in",
                "cells/step",
                Range::closed(
                    0.0,
                    GasParams::WIND_LIMIT,
                    "an inflow runs into the box (>= 0; a wall is --left-edge wall)",
                    "faster inflows accelerate around obstacles up to the speed cap, as the wind does",
                ),
            )
            .doc(
                "speed of the gas entering through inflow edges, normal to them; at most 0.2 with the linear reconstruction",
                "eddy",
            ),
            get: |p| Value::Real(p.inflow),
            set: |p, v| p.inflow = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "inflow-density",
                "rho_in",
                "",
                Range::closed(
                    0.5,
                    DENSE_GAS,
                    "below half the ambient density the inflow meets the room as an expansion towards vacuum, outside eddy's runs",
                    "above the scenes' dense gas (4) is outside eddy's runs",
                ),
            )
            .doc("density of the gas entering through inflow edges (ambient 1)", "eddy"),
            get: |p| Value::Real(p.inflow_density),
            set: |p, v| p.inflow_density = v.real(),
        },
    ];

    /// The diffusion and pressure ranges of the chosen flux ([`GasParams::diffusion_range`],
    /// [`GasParams::pressure_range`]).
    fn check_together(&self) -> Result<(), ParamError> {
        let flux = ["central", "rusanov"][self.flux as usize];
        let ((d0, d1), (p0, p1)) = (Self::diffusion_range(self.flux), Self::pressure_range(self.flux));
        let ranges = format!(
            "the {flux} flux stays clean (no overshoot at shocks, no speed cap) with --diffusion in [{d0}, {d1}] \
             and --pressure in [{p0}, {p1}]; change them, or --flux"
        );
        if !(d0..=d1).contains(&self.diffusion) {
            return Err(ParamError::new("diffusion", self.diffusion, ranges));
        }
        if !(p0..=p1).contains(&self.pressure) {
            return Err(ParamError::new("pressure", self.pressure, ranges));
        }
        if self.reconstruction == Reconstruction::Linear && self.flux == FluxScheme::Central {
            return Err(ParamError::new(
                "reconstruction",
                "linear",
                "the linear reconstruction needs the Rusanov flux: with the central flux's fixed exchange the \
                 sharper face states are not damped and ripples grow; use --flux rusanov, or --reconstruction constant",
            ));
        }
        let (limit, friction) = Self::limits(self.reconstruction);
        let with = match self.reconstruction {
            Reconstruction::Constant => "",
            Reconstruction::Linear => " with the linear reconstruction (--reconstruction constant allows more)",
        };
        let speed = self.wind.0.hypot(self.wind.1);
        if speed > limit * (1.0 + f32::EPSILON) {
            // With the digits that tell it from the limit (0.2000001, not 0.2000).
            let shown = (4..=9)
                .map(|d| format!("{speed:.d$}"))
                .find(|s| s.parse::<f32>().is_ok_and(|v| v > limit))
                .unwrap_or_else(|| speed.to_string());
            return Err(ParamError::new(
                "wind",
                format!("{},{}", self.wind.0, self.wind.1),
                format!(
                    "its speed {shown} is above {limit} cells/step{with}, where flow around obstacles reaches the \
                     speed cap; scale it down (e.g. {:.4},{:.4})",
                    self.wind.0 * limit / speed,
                    self.wind.1 * limit / speed,
                ),
            ));
        }
        if self.inflow > limit * (1.0 + f32::EPSILON) {
            return Err(ParamError::new(
                "inflow",
                self.inflow,
                format!(
                    "at most {limit} cells/step{with}, where flow around obstacles reaches the speed cap; lower it"
                ),
            ));
        }
        if self.friction > friction {
            return Err(ParamError::new(
                "friction",
                self.friction,
                format!("at most {friction}{with}: more makes the fastest flow unstable; lower it"),
            ));
        }
        Ok(())
    }

    /// `--inflow` and `--inflow-density` do nothing without an inflow edge.
    fn unused(&self, name: &str) -> Option<String> {
        match name {
            "inflow" | "inflow-density" if !self.edges.contains(&EdgeKind::Inflow) => Some(format!(
                "--{name} is the gas entering through inflow edges, and this run has none: add --left-edge inflow \
                 (or another edge), or drop --{name}"
            )),
            _ => None,
        }
    }

    /// Diffusion and pressure into the flux's ranges, the constant reconstruction with the
    /// central flux, the wind scaled to its speed limit and the friction to its largest
    /// ([`GasParams::limits`]).
    fn fit_together(&mut self) {
        if self.flux == FluxScheme::Central {
            self.reconstruction = Reconstruction::Constant;
        }
        let (lo, hi) = Self::diffusion_range(self.flux);
        self.diffusion = self.diffusion.clamp(lo, hi);
        let (lo, hi) = Self::pressure_range(self.flux);
        self.pressure = self.pressure.clamp(lo, hi);
        let (limit, friction) = Self::limits(self.reconstruction);
        self.friction = self.friction.min(friction);
        self.inflow = self.inflow.min(limit);
        let speed = self.wind.0.hypot(self.wind.1);
        if speed > limit {
            let k = limit / speed;
            self.wind = (self.wind.0 * k, self.wind.1 * k);
        }
    }
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
    /// Non-zero = solid: 1 a wall, and with bodies `2 + i` a cell body `i` covers ([`bodies`];
    /// rasterised again each step).
    pub solid: Grid<u8>,
    /// 1 = source: reset each step to ambient density blowing at [`GasParams::wind`].
    pub source: Grid<u8>,
    /// Rigid bodies moving through the gas ([`crate::body`], at most
    /// [`crate::body::MAX_BODIES`]; velocities in cells/step).
    pub bodies: Vec<crate::body::Body>,
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
    /// Kinetic energy `sum |m|^2 / (2 rho)` over open cells with `rho >` [`cpu::RHO_EPSILON`],
    /// mass x (cells/step)^2.
    pub kinetic_energy: f64,
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
            kinetic_energy: 0.0,
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
                    st.kinetic_energy += (0.5 * (mx * mx + my * my) / rho) as f64; // f32 per cell, as the GPU
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
            kinetic_energy: t.more[0],
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
            bodies: Vec::new(),
        }
    }

    /// `(H, W)`.
    pub fn shape(&self) -> (usize, usize) {
        self.density.shape()
    }

    /// With an inflow edge in `p` ([`GasParams::edges`]), every open cell that is not a source
    /// moving at the inflow's velocity ([`GasParams::inflow`] along the first inflow edge's
    /// inward normal, [`crate::edge::inward`]) with its density: a stream started at once, as
    /// a wind tunnel's. A subsonic inflow edge holds both its density and its velocity, so gas
    /// at rest behind it would settle at the isothermal Riemann problem's middle state between
    /// the two, not at the inflow (`tests/gas_physics.rs` checks that state); the stream starts
    /// where the inflow holds it. Unchanged without an inflow edge.
    pub fn streaming(mut self, p: &GasParams) -> Self {
        let Some(e) = p.edges.iter().position(|&e| e == EdgeKind::Inflow) else { return self };
        let (nx, ny) = crate::edge::inward(e);
        for i in 0..self.density.as_slice().len() {
            if self.solid.as_slice()[i] == 0 && self.source.as_slice()[i] == 0 {
                let rho = self.density.as_slice()[i];
                self.momentum_x.as_mut_slice()[i] = rho * p.inflow * nx;
                self.momentum_y.as_mut_slice()[i] = rho * p.inflow * ny;
            }
        }
        self
    }

    /// Totals and extremes ([`GasStats::of`]).
    pub fn stats(&self) -> GasStats {
        GasStats::of(self)
    }

    /// Checks shapes agree, densities are finite and >= 0, momenta finite, at most
    /// [`crate::body::MAX_BODIES`] bodies; empties walls.
    ///
    /// # Errors
    /// [`SceneError::ShapeMismatch`] or [`SceneError::BadValue`] naming the first bad cell;
    /// [`SceneError::BadArray`] for too many bodies.
    pub fn validated(mut self, origin: &Path) -> Result<Self, SceneError> {
        crate::body::check_count(self.bodies.len()).map_err(|message| SceneError::BadArray {
            path: origin.to_path_buf(),
            name: "bodies",
            message,
        })?;
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
    /// `solid` uint8 `(H, W)` (1 a wall, `2 + i` a cell of body `i`), `source` uint8 `(H, W)`;
    /// with bodies, `bodies` float32 `(N, 13)`, a row a body ([`crate::body::Body::to_row`]).
    /// Row 0 is the top.
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
        npz.write_f32("density", &self.density)?;
        npz.write_f32_components("momentum", &[&self.momentum_x, &self.momentum_y])?;
        npz.write_u8("solid", &self.solid)?;
        npz.write_u8("source", &self.source)?;
        npz.write_bodies(&self.bodies)?;
        Ok(())
    }

    /// Reads a `.npz` as written by [`GasState::save_npz`]; `momentum`, `solid`, `source` and
    /// `bodies` may be missing (zero, none). With bodies, a body's cell in `solid` (`2 + i`) reads
    /// as open: the bodies are rasterised anew when a run starts.
    ///
    /// # Errors
    /// [`SceneError`] when the file is missing or not an `.npz`, `density` is missing, an array
    /// has the wrong rank, dtype or shape, a value is NaN, infinite or (density) negative, or the
    /// `bodies` table is not one ([`NpzReader::read_bodies_and_solid`]).
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
        let (momentum_x, momentum_y) = match npz.read_f32_components_opt("momentum", 2)? {
            Some(mut c) => {
                let y = c.pop().expect("two components");
                (c.pop().expect("two components"), y)
            }
            None => (Grid::filled(w, h, 0.0), Grid::filled(w, h, 0.0)),
        };
        let (bodies, solid) = npz.read_bodies_and_solid()?;
        let solid = solid.unwrap_or_else(|| Grid::filled(w, h, 0));
        let source = npz.read_u8_opt("source")?.unwrap_or_else(|| Grid::filled(w, h, 0));
        Self { density, momentum_x, momentum_y, solid, source, bodies }.validated(path)
    }
}

/// A disc-shaped edit of the gas (the viewer's tools): inside, an open cell gets
/// `density * scale + add` and `momentum * scale + add * (velocity + radial * offset / radius)`.
///
/// ```
/// use eddy_fluid::gas::{AMBIENT_DENSITY, CpuGas, GasBrush, GasParams, GasState};
/// use eddy_fluid::scene::Scene;
/// # fn main() -> Result<(), eddy_fluid::Error> {
/// let mut sim = CpuGas::new(GasState::from_scene(&Scene::empty(32, 32)?), GasParams::default())?;
/// sim.brush(&GasBrush { center: (16.0, 16.0), ..GasBrush::default() }); // the viewer's click
/// assert!(sim.state().density[(16, 16)] > AMBIENT_DENSITY);
/// sim.brush(&GasBrush::calm((16.0, 16.0), 8.0)); // the viewer's erase
/// assert_eq!(sim.state().density[(16, 16)], AMBIENT_DENSITY);
/// # Ok(()) }
/// ```
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

impl GasBrush {
    /// Density the viewer's push adds per stamp along a drag, and the speed it gives it
    /// (cells/step).
    pub const PUSH: (f32, f32) = (0.3, 0.3);
    /// Density the viewer's blast (a click) adds, and the outward speed at its rim (cells/step).
    pub const BLAST: (f32, f32) = (2.0, 0.3);

    /// The viewer's push (a drag of the left button): [`GasBrush::PUSH`]'s density added in the
    /// disc of `radius` cells around `center` (`(col, row)`, cells), moving along `direction`
    /// (a unit vector, `(x, y)` with y down).
    pub fn push(center: (f32, f32), radius: f32, direction: (f32, f32)) -> Self {
        let velocity = (direction.0 * Self::PUSH.1, direction.1 * Self::PUSH.1);
        Self { center, radius, scale: 1.0, add: Self::PUSH.0, velocity, radial: 0.0 }
    }

    /// The viewer's blast (a click without a drag): [`GasBrush::BLAST`]'s density added and blown
    /// outwards.
    pub fn blast(center: (f32, f32), radius: f32) -> Self {
        Self { center, radius, scale: 1.0, add: Self::BLAST.0, velocity: (0.0, 0.0), radial: Self::BLAST.1 }
    }

    /// The viewer's erase (Shift): the disc back to gas at rest at [`AMBIENT_DENSITY`].
    pub fn calm(center: (f32, f32), radius: f32) -> Self {
        Self { center, radius, scale: 0.0, add: AMBIENT_DENSITY, velocity: (0.0, 0.0), radial: 0.0 }
    }
}

/// The viewer's blast at the top-left corner, with its brush on a 256-cell grid
/// ([`crate::params::DEFAULT_RADIUS`]): set `center` (and `radius`) and apply.
impl Default for GasBrush {
    fn default() -> Self {
        Self::blast((0.0, 0.0), crate::params::DEFAULT_RADIUS)
    }
}

/// The gas model on the CPU: [`cpu::step`] per step.
pub struct CpuGas {
    state: GasState,
    params: GasParams,
    steps: u64,
}

impl CpuGas {
    /// Starts from `state` with `params`; its bodies are placed where they are
    /// ([`bodies::place`]: the gas in the cells they cover pushed out), as [`GpuGas::new`] does.
    ///
    /// # Errors
    /// [`Error::Param`] when `params` fail [`GasParams::validate`]; [`Error::Message`] for bodies
    /// the gas cannot move ([`bodies::check`]).
    pub fn new(mut state: GasState, params: GasParams) -> Result<Self, Error> {
        params.validate()?;
        bodies::check(&state.bodies)?;
        if !state.bodies.is_empty() {
            bodies::place(&mut state, &params);
        }
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

impl crate::ModelState for GasState {
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

impl crate::ModelStats for GasStats {
    fn total(&self) -> f64 {
        self.total_mass
    }

    fn non_finite(&self) -> u64 {
        self.non_finite
    }

    fn line(&self) -> String {
        use crate::gpu_model::or_na;
        format!(
            "total mass {:.4}, total momentum ({:.4}, {:.4}), kinetic energy {:.4}, min density {}, max speed {} cells/step",
            self.total_mass,
            self.total_momentum.0,
            self.total_momentum.1,
            self.kinetic_energy,
            or_na(self.min_density as f64, 4),
            or_na(self.max_speed as f64, 3)
        )
    }
}
