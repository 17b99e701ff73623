//! The smoke model's parameters: [`SmokeParams`] and its table, one row per option, and the
//! named presets ([`SmokePreset`]) that set several of them at once.

use crate::error::ParamError;
use crate::params::{ParamInfo, ParamKind, ParamSpec, ParamTable, Range, Value};

/// Where the velocity lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GridLayout {
    /// On cell faces (the MAC grid of Harlow & Welch 1965; Bridson, *Fluid Simulation for
    /// Computer Graphics*, ch. 2): `u` `(H, W + 1)`, `v` `(H + 1, W)`. Divergence of gradient
    /// is the 5-point Laplacian the solver inverts, so a converged solve leaves no divergence.
    #[default]
    Staggered,
    /// At cell centres with central differences (GPU Gems ch. 38's and Rideout's):
    /// `(H, W)` each. The projection only approximately removes divergence (module docs).
    Collocated,
}

/// The pressure solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Solver {
    /// [`SmokeParams::jacobi_iterations`] Jacobi iterations per step (GPU Gems 38.3).
    #[default]
    Jacobi,
    /// Multigrid V-cycles ([`crate::solver::multigrid`]) until the relative residual is below
    /// [`SmokeParams::tolerance`] or [`SmokeParams::max_cycles`] ran. Staggered grid only.
    Multigrid,
}

/// How fields are carried along the velocity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Advection {
    /// Stam's semi-Lagrangian back-trace with bilinear interpolation (GPU Gems 38.2): stable,
    /// first order, diffusive.
    #[default]
    SemiLagrangian,
    /// MacCormack (Selle, Fedkiw, Kim, Liu & Rossignac, "An Unconditionally Stable MacCormack
    /// Method", J. Sci. Comput. 35, 2008): a forward and a backward semi-Lagrangian step, half
    /// the error added back, clamped to the values the forward step interpolated between
    /// (their eq. 7-9 and sect. 3.3). Second order in smooth regions. Staggered grid only.
    MacCormack,
}

pub use crate::edge::{BOTTOM, EDGE_OPTIONS, EdgeKind, LEFT, RIGHT, TOP};

/// How the speed into the box varies along an inflow edge ([`SmokeParams::inflow_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum InflowProfile {
    /// [`SmokeParams::inflow`] on every face.
    #[default]
    Uniform,
    /// A parabola across the edge, 0 at its two ends: a channel's developed (plane Poiseuille)
    /// flow between walls at the edge's ends, `u = 6 U s (1 - s)` at `s` the face centre's place
    /// along the edge (0 to 1), scaled so that the faces carry exactly `U` times their count
    /// (the same flux as the uniform profile; White, *Viscous Fluid Flow*, 3rd ed. 2006, sect.
    /// 3-2.3).
    Parabolic,
    /// Each inflow face keeps the speed it holds: a profile given as an array
    /// ([`crate::smoke::staggered::set_inflow_profile`], Python's `set_inflow_profile`), which a
    /// saved state keeps. A face a wall closes holds 0 from then on.
    Custom,
}

/// The named parameter sets (`--pipeline`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SmokePreset {
    /// The staggered grid, Jacobi x 50 from the previous step's pressure; otherwise Rideout's
    /// constants. The default.
    #[default]
    Staggered,
    /// The collocated grid with Harris' gradient `halfrdx = 0.5 / h` (GPU Gems 38.3,
    /// Example 38-5), which matches the central-difference divergence; Jacobi x 50 from 0.
    GpuGems,
    /// The collocated grid as Rideout ships it: gradient `1.125 / h`, 40 Jacobi iterations
    /// from 0.
    Rideout,
    /// The lid-driven cavity (Ghia, Ghia & Shin 1982): the staggered grid with the top edge
    /// moving right at 1 cell per time unit, Reynolds number 100 (`viscosity = N / 100`), no
    /// buoyancy, weight or dissipation, multigrid to 1e-5, time step 1. The `cavity` scene
    /// starts it.
    Cavity,
    /// Flow past a cylinder: the staggered grid with an inflow through the left edge
    /// at 1 cell per time unit and an outflow through the right, walls top and bottom; no
    /// buoyancy, weight, confinement or dissipation, the sources giving dye only; multigrid to
    /// 1e-4, MacCormack, `dt` 0.5. The `channel` scene starts it.
    Channel,
}

impl SmokePreset {
    /// The names `--pipeline` takes, in the enum's order.
    pub const NAMES: &'static [&'static str] = &["staggered", "gpu-gems", "rideout", "cavity", "channel"];
    /// In the enum's order.
    pub const ALL: [SmokePreset; 5] =
        [SmokePreset::Staggered, SmokePreset::GpuGems, SmokePreset::Rideout, SmokePreset::Cavity, SmokePreset::Channel];
}

/// Parameters of the smoke model (the uniform `SmokeParams` in `shaders/smoke/params.wgsl`,
/// with the derived values precomputed on the CPU).
///
/// Defaults ([`SmokePreset::Staggered`]) are Rideout's ("Simple Fluid Simulation", 2010) and
/// Joyce's constants on the staggered grid, with [`SmokeParams::jacobi_iterations`] = 50 (the
/// `gpu-gems` preset's number; Rideout uses 40).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmokeParams {
    /// The preset these parameters started from (setting it resets the others).
    pub preset: SmokePreset,
    /// Where the velocity lives. Default staggered.
    pub grid: GridLayout,
    /// The pressure solver. Default Jacobi.
    pub solver: Solver,
    /// Multigrid: stop once `|b - A p| / |b|` (L2 over open cells) is below this. Default 1e-4.
    pub tolerance: f32,
    /// Multigrid: most V-cycles per step, 1..=1000. Default 20.
    pub max_cycles: u32,
    /// How velocity, temperature and density are advected. Default MacCormack on the
    /// staggered grid, semi-Lagrangian on the collocated presets.
    pub advection: Advection,
    /// Kinematic viscosity `nu`, cells^2 per time unit; the velocity diffuses implicitly,
    /// `(I - nu dt lap) u' = u` (GPU Gems 38.2 "viscous diffusion"), by
    /// [`SmokeParams::viscosity_iterations`] Jacobi iterations, no-slip at walls. Default 0.
    /// Staggered grid only.
    pub viscosity: f32,
    /// Reynolds number `Re`: when set, the viscosity is `1 x N / Re` for a grid `N` cells wide
    /// (a speed of 1 cell per time unit across the grid: the cavity's lid), overriding
    /// [`SmokeParams::viscosity`]. Default unset.
    pub reynolds: Option<f32>,
    /// Vorticity confinement's `eps` (Fedkiw, Stam & Jensen 2001), cells per time unit (with
    /// `h` = 1 cell): the force `eps (N x w)` that puts back the small swirls the advection
    /// smooths away. Default 0.2 on the staggered preset (see the table's row); 0 elsewhere.
    /// Staggered grid only.
    pub vorticity: f32,
    /// Velocity of the grid's top edge along x (a moving wall, the cavity's lid), cells per
    /// time unit: the no-slip condition there drags the fluid. Default 0. Staggered grid only.
    pub lid: f32,
    /// What each edge of the box is, `[left, right, top, bottom]` ([`LEFT`] ...): a wall (the
    /// default), an inflow at [`SmokeParams::inflow`] or an outflow ([`EdgeKind`]). Staggered
    /// grid only.
    pub edges: [EdgeKind; 4],
    /// Speed of the flow into the box through its inflow edges, normal to them, cells per time
    /// unit; >= 0. Default 1. The mean speed over an edge's faces with a profile
    /// ([`SmokeParams::inflow_profile`]).
    pub inflow: f32,
    /// How the inflow's speed varies along an inflow edge. Default uniform.
    pub inflow_profile: InflowProfile,
    /// Gravity on free bodies ([`crate::body::dynamics`]), cells per time unit^2, down: a body
    /// `s` times as dense as the fluid feels `(s - 1) A g`, its weight less the fluid's buoyancy.
    /// Default 0. Staggered grid only (where bodies are).
    pub gravity: f32,
    /// Start each pressure solve from the previous step's pressure (`true`) or from 0 (GPU
    /// Gems' and Rideout's `ClearSurface`). Default on for the staggered preset, off for
    /// `gpu-gems` and `rideout`.
    pub warm_start: bool,
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
    /// Cell size `h` (length units). Collocated: divergence `0.5 / h` times the central
    /// differences, Jacobi `alpha = -h^2`. Staggered: divergence and gradient are face
    /// differences over `h`. Default 1.25.
    pub cell_size: f32,
    /// Collocated grid only: numerator of Rideout's `GradientScale = 1.125 / CellSize`; the
    /// pressure gradient subtracted is `gradient_scale / cell_size` times the central
    /// differences. Default 1.125 (Rideout); `gpu-gems` 0.5.
    pub gradient_scale: f32,
    /// Jacobi iterations of the pressure solve per step, 1..=100000. Default 50.
    pub jacobi_iterations: u32,
    /// Hue (degrees: 0 red, 120 green, 240 blue) of the dye the sources give, fully
    /// saturated. Default 25 (a flame orange).
    pub dye_hue: f32,
    /// Radius (cells) of the `plume` scene's source (the viewer's splats are half of it); `None`
    /// = `W / 8` (Rideout's `SplatRadius`). Not read by any pass.
    pub splat_radius: Option<f32>,
}

impl Default for SmokeParams {
    fn default() -> Self {
        Self::preset(SmokePreset::Staggered)
    }
}

impl SmokeParams {
    /// The edges whose pressure the projection holds at 0: the outflows
    /// ([`EdgeKind::Outflow`]), `[left, right, top, bottom]`; none on the collocated grid (whose
    /// edges are walls).
    pub fn dirichlet(&self) -> crate::solver::DirichletEdges {
        match self.grid {
            GridLayout::Staggered => self.edges.map(|e| e == EdgeKind::Outflow),
            GridLayout::Collocated => crate::solver::NEUMANN,
        }
    }

    /// The parameters of a named preset.
    pub fn preset(preset: SmokePreset) -> Self {
        let rideout = Self {
            preset,
            grid: GridLayout::Collocated,
            solver: Solver::Jacobi,
            tolerance: 1e-4,
            max_cycles: 20,
            advection: Advection::SemiLagrangian,
            vorticity: 0.0,
            viscosity: 0.0,
            reynolds: None,
            lid: 0.0,
            edges: [EdgeKind::Wall; 4],
            inflow: 1.0,
            inflow_profile: InflowProfile::Uniform,
            gravity: 0.0,
            warm_start: false,
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
            jacobi_iterations: 40,
            dye_hue: 25.0,
            splat_radius: None,
        };
        match preset {
            SmokePreset::Rideout => rideout,
            SmokePreset::GpuGems => Self { gradient_scale: 0.5, jacobi_iterations: 50, ..rideout },
            SmokePreset::Staggered => Self {
                grid: GridLayout::Staggered,
                warm_start: true,
                jacobi_iterations: 50,
                advection: Advection::MacCormack,
                vorticity: DEFAULT_VORTICITY,
                ..rideout
            },
            SmokePreset::Cavity => Self {
                grid: GridLayout::Staggered,
                solver: Solver::Multigrid,
                tolerance: 1e-5,
                warm_start: true,
                advection: Advection::MacCormack,
                reynolds: Some(100.0),
                lid: 1.0,
                dt: 1.0,
                buoyancy: 0.0,
                weight: 0.0,
                impulse_density: 0.0,
                impulse_temperature: 0.0,
                velocity_dissipation: 1.0,
                temperature_dissipation: 1.0,
                density_dissipation: 1.0,
                jacobi_iterations: 50,
                ..rideout
            },
            SmokePreset::Channel => Self {
                grid: GridLayout::Staggered,
                solver: Solver::Multigrid,
                warm_start: true,
                advection: Advection::MacCormack,
                edges: [EdgeKind::Inflow, EdgeKind::Outflow, EdgeKind::Wall, EdgeKind::Wall],
                inflow: 1.0,
                dt: 0.5,
                cell_size: 1.0,
                buoyancy: 0.0,
                weight: 0.0,
                impulse_temperature: 0.0,
                velocity_dissipation: 1.0,
                temperature_dissipation: 1.0,
                density_dissipation: 1.0,
                jacobi_iterations: 50,
                ..rideout
            },
        }
    }
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

    /// The kinematic viscosity on a grid `width` cells wide: `width / Re` when
    /// [`SmokeParams::reynolds`] is set, else [`SmokeParams::viscosity`]; cells^2 per time unit.
    pub fn viscosity_for(&self, width: usize) -> f32 {
        self.reynolds.map_or(self.viscosity, |re| width as f32 / re)
    }

    /// Jacobi iterations of the viscous diffusion per step: [`SmokeParams::jacobi_iterations`]
    /// rounded up to an even number (the GPU ping-pongs the iterate against a scratch texture
    /// and must end in the velocity's). Its system is diagonally dominant, `1 + 4 nu dt` on the
    /// diagonal against `4 nu dt` off it, so Jacobi converges at `4k / (1 + 4k)` per iteration.
    pub fn viscosity_iterations(&self) -> u32 {
        self.jacobi_iterations.next_multiple_of(2)
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

impl SmokeParams {
    /// The speed into the box of face `index` of the `count` faces along an inflow edge (from
    /// the edge's top or left end), cells per time unit: [`SmokeParams::inflow`], or with the
    /// parabolic profile `inflow 6 s (1 - s) / (1 + 1 / (2 count^2))`, `s = (index + 1/2) / count`
    /// (the divisor is the parabola's mean over the faces' centres, so they carry `inflow count`).
    /// Mirrors `inflow_at` in `shaders/smoke/edge_rules.wgsl`. (A custom profile's faces keep their
    /// own speeds: the rules never ask this of it.)
    pub fn inflow_at(&self, index: usize, count: usize) -> f32 {
        match self.inflow_profile {
            InflowProfile::Uniform => self.inflow,
            InflowProfile::Parabolic | InflowProfile::Custom => {
                let n = count as f32;
                let s = (index as f32 + 0.5) / n;
                self.inflow * (6.0 * s * (1.0 - s)) / (1.0 + 0.5 / (n * n))
            }
        }
    }

    /// The stream the first inflow edge drives (left, right, top, bottom): its speed
    /// ([`SmokeParams::inflow`], cells per time unit) and direction into the box (a unit vector,
    /// y down); `None` without an inflow edge or with `inflow` 0. The reference flow of the
    /// drag and lift coefficients ([`crate::body::forces::Reference`]).
    pub fn stream(&self) -> Option<(f32, (f32, f32))> {
        let edge = (0..4).find(|&e| self.edges[e] == EdgeKind::Inflow).filter(|_| self.inflow != 0.0)?;
        let inward = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)][edge];
        Some((self.inflow.abs(), if self.inflow > 0.0 { inward } else { (-inward.0, -inward.1) }))
    }

    /// Refuses inflow edges with no outflow edge: the fluid is incompressible (the projection
    /// makes the divergence 0 in every cell), so the volume an inflow pushes in each step must
    /// leave through an outflow, the only edge where the pressure is held ([`Self::dirichlet`]).
    /// Without one, the Poisson problem with the inflow's flux through the walls has no solution
    /// (its right-hand side does not sum to 0, the compatibility condition of the pure Neumann
    /// problem; Bridson, 2nd ed., sect. 5.1): the Jacobi iterations leave the divergence the
    /// inflow brings and the multigrid runs to its cycle cap every step.
    fn check_outflow(&self) -> Result<(), ParamError> {
        let inflows: Vec<usize> = (0..4).filter(|&e| self.edges[e] == EdgeKind::Inflow).collect();
        if self.grid != GridLayout::Staggered
            || self.inflow == 0.0
            || inflows.is_empty()
            || self.edges.contains(&EdgeKind::Outflow)
        {
            return Ok(());
        }
        let named: Vec<&str> = inflows.iter().map(|&e| crate::edge::EDGE_NAMES[e]).collect();
        // The edge opposite the first inflow (where a channel's outflow is), else any that is not
        // an inflow, else the first inflow's opposite itself (all four are inflows).
        let opposite = |e: usize| e ^ 1;
        let fix = std::iter::once(opposite(inflows[0]))
            .chain(0..4)
            .find(|&e| self.edges[e] != EdgeKind::Inflow)
            .unwrap_or(opposite(inflows[0]));
        Err(ParamError::new(
            EDGE_OPTIONS[inflows[0]],
            "inflow",
            format!(
                "smoke is incompressible, and what flows in through the {} {} at {} cells/time unit has no way \
                 out without an outflow edge (the pressure solve cannot converge): make an edge an outflow \
                 (--{} outflow), or give --inflow 0",
                match named.split_last() {
                    Some((last, [])) => last.to_string(),
                    Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                    None => String::new(),
                },
                if named.len() == 1 { "edge" } else { "edges" },
                self.inflow,
                EDGE_OPTIONS[fix]
            ),
        ))
    }
}

const RIDEOUT: &str = "Rideout, Simple Fluid Simulation (2010)";

const DISSIPATION: Range = Range::closed(
    0.0,
    1.0,
    "a negative factor flips the field's sign every step",
    "above 1 the field grows every step without bound",
);

/// Most Jacobi iterations accepted per step.
pub const MAX_JACOBI_ITERATIONS: u32 = 100_000;

/// The staggered preset's vorticity confinement `eps` (cells per time unit).
pub const DEFAULT_VORTICITY: f32 = 0.2;

/// Most multigrid V-cycles accepted per step.
pub const MAX_CYCLES: u32 = 1000;

/// A finite real with no other limit.
const fn any(name: &'static str, symbol: &'static str, unit: &'static str) -> ParamInfo {
    ParamInfo::real(name, symbol, unit, Range::ANY)
}

/// What each edge kind means for smoke, in its table rows (`crate::edge::edge_row`).
macro_rules! edge_row {
    ($name:literal, $index:expr, $side:literal) => {
        crate::edge::edge_row!(
            $name,
            $index,
            $side,
            "wall (no-slip), inflow (at --inflow), outflow or slip (a free-slip wall); staggered grid",
            "eddy"
        )
    };
}

impl ParamTable for SmokeParams {
    const TABLE: &'static [ParamSpec<Self>] = &[
        ParamSpec {
            info: ParamInfo::of("pipeline", "pipeline", "", ParamKind::Choice(SmokePreset::NAMES)).doc(
                "parameter set: staggered (MAC grid, MacCormack, Jacobi x 50 from the last pressure), gpu-gems \
                 (collocated, gradient 0.5/h, Jacobi x 50 from 0), rideout (collocated, gradient 1.125/h, \
                 Jacobi x 40 from 0), cavity (lid-driven cavity at Re 100, multigrid), channel (inflow left, outflow right: flow past the channel scene's cylinder); resets the other options, \
                 which may follow it",
                "eddy; Harris, GPU Gems ch. 38; Rideout (2010); Ghia, Ghia & Shin (1982)",
            ),
            get: |p| Value::Choice(p.preset as usize),
            set: |p, v| {
                let preset = SmokePreset::ALL[v.choice().min(SmokePreset::ALL.len() - 1)];
                *p = SmokeParams { splat_radius: p.splat_radius, ..SmokeParams::preset(preset) };
            },
        },
        ParamSpec {
            info: ParamInfo::of("grid", "grid", "", ParamKind::Choice(&["staggered", "collocated"])).doc(
                "where velocity lives: staggered (cell faces, exact projection) or collocated (cell centres, the collocated GPU Gems / Rideout pipeline's)",
                "Harlow & Welch (1965); Bridson, Fluid Simulation for Computer Graphics, ch. 2",
            ),
            get: |p| Value::Choice(p.grid as usize),
            set: |p, v| p.grid = if v.choice() == 1 { GridLayout::Collocated } else { GridLayout::Staggered },
        },
        ParamSpec {
            info: ParamInfo::of("solver", "solver", "", ParamKind::Choice(&["jacobi", "multigrid"])).doc(
                "pressure solver: jacobi (--jacobi iterations per step) or multigrid (V-cycles to --tolerance, staggered grid)",
                "GPU Gems 38.3; Briggs, Henson & McCormick, A Multigrid Tutorial (2000)",
            ),
            get: |p| Value::Choice(p.solver as usize),
            set: |p, v| p.solver = if v.choice() == 1 { Solver::Multigrid } else { Solver::Jacobi },
        },
        ParamSpec {
            info: ParamInfo::real(
                "tolerance",
                "tol",
                "relative residual",
                Range::open_min(
                    0.0,
                    1.0,
                    "0 is never reached in f32 arithmetic (the floor is about 1e-7): every step would run --max-cycles",
                    "1 is what a solve from 0 starts with: no V-cycle would run",
                ),
            )
            .doc("multigrid: V-cycles stop once |b - A p| / |b| is below this", "eddy"),
            get: |p| Value::Real(p.tolerance),
            set: |p, v| p.tolerance = v.real(),
        },
        ParamSpec {
            info: ParamInfo::of(
                "max-cycles",
                "cycles",
                "V-cycles/step",
                ParamKind::Count {
                    min: 1,
                    max: MAX_CYCLES,
                    below: "0 skips the pressure solve and the velocity is never made divergence-free",
                    above: "a V-cycle reduces the residual 2-3x; 1000 would be far past f32's floor",
                },
            )
            .doc("multigrid: most V-cycles per step", "eddy"),
            get: |p| Value::Count(p.max_cycles),
            set: |p, v| p.max_cycles = v.count(),
        },
        ParamSpec {
            info: ParamInfo::of("advection", "adv", "", ParamKind::Choice(&["semi-lagrangian", "maccormack"])).doc(
                "advection scheme: semi-lagrangian (Stam) or maccormack (Selle et al. 2008, clamped; staggered grid)",
                "Stam (1999); Selle, Fedkiw, Kim, Liu & Rossignac (2008)",
            ),
            get: |p| Value::Choice(p.advection as usize),
            set: |p, v| p.advection = if v.choice() == 1 { Advection::MacCormack } else { Advection::SemiLagrangian },
        },
        ParamSpec {
            info: ParamInfo::real(
                "vorticity",
                "eps",
                "cells/time unit",
                Range::closed(
                    0.0,
                    2.0,
                    "a negative eps damps the swirls it is meant to keep",
                    "above 2 the default plume's speed runs away (tests/smoke_invariants.rs)",
                ),
            )
            .doc("vorticity confinement strength (staggered grid)", "Fedkiw, Stam & Jensen (2001)")
            .key('c', 0.05),
            get: |p| Value::Real(p.vorticity),
            set: |p, v| p.vorticity = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "viscosity",
                "nu",
                "cells^2/time unit",
                Range::closed(0.0, f32::INFINITY, "a negative viscosity amplifies every wavelength: it blows up", ""),
            )
            .doc("kinematic viscosity, diffused implicitly with no-slip walls (staggered grid)", "GPU Gems 38.2"),
            get: |p| Value::Real(p.viscosity),
            set: |p, v| p.viscosity = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "reynolds",
                "Re",
                "",
                Range::open_min(0.0, f32::INFINITY, "the Reynolds number of a flow is > 0", ""),
            )
            .doc("sets the viscosity to 1 x N / Re for a grid N cells wide (the cavity's lid speed 1)", "eddy")
            .auto("unset: --viscosity applies"),
            get: |p| p.reynolds.map_or(Value::Auto, Value::Real),
            set: |p, v| p.reynolds = if v == Value::Auto { None } else { Some(v.real()) },
        },
        ParamSpec {
            info: ParamInfo::real(
                "lid",
                "U_lid",
                "cells/time unit",
                Range::closed(
                    -100.0,
                    100.0,
                    "faster lids than 100 cells/time unit are not run in eddy's tests (tests/smoke_invariants.rs: finite); 1e30 overflows f32",
                    "faster lids than 100 cells/time unit are not run in eddy's tests (tests/smoke_invariants.rs: finite); 1e30 overflows f32",
                ),
            )
            .doc("velocity of the grid's top edge along x, a moving no-slip wall (staggered grid)", "Ghia, Ghia & Shin (1982)"),
            get: |p| Value::Real(p.lid),
            set: |p, v| p.lid = v.real(),
        },
        edge_row!("left-edge", LEFT, "left"),
        edge_row!("right-edge", RIGHT, "right"),
        edge_row!("top-edge", TOP, "top"),
        edge_row!("bottom-edge", BOTTOM, "bottom"),
        ParamSpec {
            info: ParamInfo::real(
                "inflow",
                "U_in",
                "cells/time unit",
                Range::closed(
                    0.0,
                    100.0,
                    "an inflow runs into the box (>= 0; a wall is --left-edge wall)",
                    "faster inflows than 100 cells/time unit are not run in eddy's tests",
                ),
            )
            .doc("speed of the flow into the box through its inflow edges, normal to them", "eddy"),
            get: |p| Value::Real(p.inflow),
            set: |p, v| p.inflow = v.real(),
        },
        ParamSpec {
            info: ParamInfo::of(
                "inflow-profile",
                "profile",
                "",
                ParamKind::Choice(&["uniform", "parabolic", "custom"]),
            )
            .doc(
                "how the inflow's speed varies along an inflow edge: uniform, parabolic (a channel's developed flow, \
                 0 at the edge's ends, mean --inflow), or custom (each face keeps the speed it holds: an array given \
                 from Python or the library, kept in saved states)",
                "White, Viscous Fluid Flow (2006), 3-2.3",
            ),
            get: |p| Value::Choice(p.inflow_profile as usize),
            set: |p, v| {
                p.inflow_profile = match v.choice() {
                    1 => InflowProfile::Parabolic,
                    2 => InflowProfile::Custom,
                    _ => InflowProfile::Uniform,
                }
            },
        },
        ParamSpec {
            info: ParamInfo::real(
                "gravity",
                "g",
                "cells/time unit^2",
                Range::closed(
                    -100.0,
                    100.0,
                    "stronger gravity than 100 cells/time unit^2 (up) is not run in eddy's tests",
                    "stronger gravity than 100 cells/time unit^2 is not run in eddy's tests",
                ),
            )
            .doc(
                "gravity on free bodies (down; a body of density s feels (s - 1) A g, its weight less the fluid's \
                 buoyancy; the fluid's hydrostatic pressure is taken whole)",
                "Archimedes; eddy",
            ),
            get: |p| Value::Real(p.gravity),
            set: |p, v| p.gravity = v.real(),
        },
        ParamSpec {
            info: ParamInfo::of("warm-start", "warm", "", ParamKind::Choice(&["off", "on"])).doc(
                "start each pressure solve from the last step's pressure (on) or from 0 (off, as GPU Gems' ClearSurface)",
                "eddy; Rideout clears",
            ),
            get: |p| Value::Choice(p.warm_start as usize),
            set: |p, v| p.warm_start = v.choice() == 1,
        },
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
            // Measured at 96x96, 400 steps of the plume: buoyancy 1 -> top speed 21 cells/time unit,
            // 100 -> 188, 1000 -> 815 (the plume crosses the grid in a tenth of a time unit, so the
            // advection samples little but the edges), 1e20 -> 2e14 with exit 0.
            info: ParamInfo::real(
                "buoyancy",
                "sigma",
                "per degree",
                Range::closed(
                    -1000.0,
                    1000.0,
                    "below -1000 the smoke falls faster than the grid resolves (speeds of hundreds of cells per time unit)",
                    "above 1000 the plume rises faster than the grid resolves (815 cells per time unit at 1000, measured)",
                ),
            )
            .doc("upward push per degree above ambient", RIDEOUT),
            get: |p| Value::Real(p.buoyancy),
            set: |p, v| p.buoyancy = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "weight",
                "kappa",
                "per unit density",
                Range::closed(
                    -1000.0,
                    1000.0,
                    "below -1000 dense smoke rises faster than the grid resolves (as --buoyancy above 1000)",
                    "above 1000 dense smoke falls faster than the grid resolves (as --buoyancy above 1000)",
                ),
            )
            .doc("downward pull per unit of smoke density", RIDEOUT),
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
                Range::closed(
                    1e-3,
                    1e3,
                    "eddy's tests run cell sizes from 1e-3 to 1e3 (tests/smoke_invariants.rs: finite); at 1e-30 the divergence / h overflows f32",
                    "eddy's tests run cell sizes from 1e-3 to 1e3 (tests/smoke_invariants.rs: finite); at 1e30 h^2 overflows f32",
                ),
            )
            .doc("cell size h (collocated: divergence 0.5/h, Jacobi alpha -h^2; staggered: differences / h)", RIDEOUT),
            get: |p| Value::Real(p.cell_size),
            set: |p, v| p.cell_size = v.real(),
        },
        ParamSpec {
            // Measured on gpu-gems at 96x96, 400 steps: the divergence left is smallest from 0.5
            // to 1 (12.3-12.8), 168 at Rideout's 1.125, 569 at 1.5 (top speed 32 against 20), 1493
            // at 2 (speed 110, growing); -0.5 anti-projects (divergence 988) and -5 reaches 1.4e6.
            info: ParamInfo::real(
                "gradient-scale",
                "gs",
                "",
                Range::open_min(
                    0.0,
                    1.5,
                    "0 skips the projection and a negative scale adds divergence instead of removing it",
                    "above 1.5 the gradient overshoots: the divergence left and the speeds grow (6x the speed at 2, measured)",
                ),
            )
                .doc("collocated grid: numerator of the gradient scale, which is this / cell size", RIDEOUT),
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
            .doc(
                "Jacobi iterations per step of the pressure solve (unless multigrid) and of the viscous diffusion \
                 (rounded up to even)",
                "GPU Gems' 50 (Joyce); Rideout uses 40",
            )
            .key('j', 10.0),
            get: |p| Value::Count(p.jacobi_iterations),
            set: |p, v| p.jacobi_iterations = v.count(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "dye-hue",
                "hue",
                "degrees",
                Range::closed(0.0, 360.0, "hues run from 0 (red) to 360 (red again)", "hues run from 0 (red) to 360 (red again)"),
            )
            .doc("hue of the dye the sources give (0 red, 120 green, 240 blue); the viewer's drags cycle hues", "eddy"),
            get: |p| Value::Real(p.dye_hue),
            set: |p, v| p.dye_hue = v.real(),
        },
        ParamSpec {
            info: ParamInfo::real(
                "splat-radius",
                "r",
                "cells",
                Range::open_min(
                    0.0,
                    crate::scene::MAX_SIDE as f32,
                    "a splat needs a radius > 0",
                    "a wider splat covers the largest grid whole",
                ),
            )
            .doc("radius of the plume scene's source; the viewer's splats are half of it", RIDEOUT)
            .auto("W/8 (Rideout's SplatRadius)"),
            get: |p| p.splat_radius.map_or(Value::Auto, Value::Real),
            set: |p, v| p.splat_radius = if v == Value::Auto { None } else { Some(v.real()) },
        },
    ];

    fn check_together(&self) -> Result<(), ParamError> {
        if self.grid == GridLayout::Collocated {
            // Every option the collocated grid lacks, at once: (name, value, what, the value
            // that turns it off; empty: drop it).
            let mut lacks: Vec<(&'static str, String, &str, &str)> = Vec::new();
            if self.advection == Advection::MacCormack {
                lacks.push(("advection", "maccormack".into(), "MacCormack advection", "semi-lagrangian"));
            }
            if self.vorticity != 0.0 {
                lacks.push(("vorticity", self.vorticity.to_string(), "vorticity confinement", "0"));
            }
            if let Some(re) = self.reynolds {
                lacks.push(("reynolds", re.to_string(), "viscous diffusion", ""));
            } else if self.viscosity != 0.0 {
                lacks.push(("viscosity", self.viscosity.to_string(), "viscous diffusion", "0"));
            }
            if self.lid != 0.0 {
                lacks.push(("lid", self.lid.to_string(), "the moving lid", "0"));
            }
            for (edge, name) in self.edges.iter().zip(EDGE_OPTIONS) {
                if *edge != EdgeKind::Wall {
                    lacks.push((
                        name,
                        EdgeKind::NAMES[*edge as usize].into(),
                        "inflow, outflow and slip edges",
                        "wall",
                    ));
                }
            }
            if let Some(&(name, ref value, _, _)) = lacks.first() {
                // Once each: several edges lack the same thing.
                let mut whats: Vec<&str> = lacks.iter().map(|l| l.2).collect();
                whats.dedup();
                let fixes: Vec<String> = lacks
                    .iter()
                    .map(|(n, _, _, off)| if off.is_empty() { format!("drop --{n}") } else { format!("--{n} {off}") })
                    .collect();
                let others: Vec<String> = lacks[1..].iter().map(|(n, v, _, _)| format!("{n} = {v}")).collect();
                let also = if others.is_empty() { String::new() } else { format!(" (and {})", others.join(", ")) };
                return Err(ParamError::new(
                    name,
                    format!("{value}{also}"),
                    format!(
                        "{} {} built on the staggered grid's faces: for the collocated grid use --pipeline gpu-gems \
                         or rideout (which leave {}) or {}; or keep --grid staggered",
                        whats.join(", "),
                        if whats.len() == 1 { "is" } else { "are" },
                        if whats.len() == 1 { "it off" } else { "them off" },
                        fixes.join(", ")
                    ),
                ));
            }
        }
        if self.lid != 0.0 && self.edges[TOP] != EdgeKind::Wall {
            return Err(ParamError::new(
                "lid",
                self.lid.to_string(),
                format!(
                    "the lid moves the top edge, which is set to {}: give --lid 0, or --top-edge wall",
                    EdgeKind::NAMES[self.edges[TOP] as usize]
                ),
            ));
        }
        self.check_outflow()?;
        if self.solver == Solver::Multigrid && self.grid == GridLayout::Collocated {
            return Err(ParamError::new(
                "solver",
                "multigrid",
                "the multigrid solves the staggered grid's Poisson problem; the collocated grid's projection \
                 is inexact whatever the solver: keep --grid staggered, or use --solver jacobi",
            ));
        }
        Ok(())
    }

    fn unused(&self, name: &str) -> Option<String> {
        let multigrid = self.solver == Solver::Multigrid;
        match name {
            "tolerance" | "max-cycles" if self.grid == GridLayout::Collocated => Some(format!(
                "--{name} is the multigrid solve's, which runs on the staggered grid only, and this run is on the \
                 collocated grid: drop --{name}, or use --grid staggered --solver multigrid"
            )),
            "tolerance" | "max-cycles" if !multigrid => Some(format!(
                "--{name} is the multigrid solve's, and this run solves with --solver jacobi: add --solver \
                 multigrid, or drop --{name}"
            )),
            // With viscosity it also counts the viscous diffusion's iterations.
            "jacobi" if multigrid && self.viscosity == 0.0 && self.reynolds.is_none() => Some(
                "--jacobi counts Jacobi iterations (of the pressure solve, and of the viscous diffusion when there \
                 is viscosity), and this run solves with --solver multigrid (V-cycles to --tolerance) without \
                 viscosity: drop --jacobi, or use --solver jacobi"
                    .into(),
            ),
            "gradient-scale" if self.grid == GridLayout::Staggered => Some(
                "--gradient-scale scales the collocated grid's gradient (Rideout's 1.125), and the staggered grid's \
                 is exact: drop it, or use --grid collocated"
                    .into(),
            ),
            "inflow" if !self.edges.contains(&EdgeKind::Inflow) => Some(
                "--inflow is the speed through inflow edges, and this run has none: add --left-edge inflow (or \
                 another edge), or drop --inflow"
                    .into(),
            ),
            "viscosity" if self.reynolds.is_some() => Some(
                "--viscosity is overridden by the Reynolds number (--reynolds, or the cavity pipeline's 100), which \
                 sets the viscosity to W / Re: give one of them (--reynolds auto unsets it)"
                    .into(),
            ),
            _ => None,
        }
    }

    fn fit_together(&mut self) {
        if self.grid == GridLayout::Collocated {
            self.solver = Solver::Jacobi;
            self.advection = Advection::SemiLagrangian;
            (self.viscosity, self.reynolds, self.lid, self.vorticity) = (0.0, None, 0.0, 0.0);
            self.edges = [EdgeKind::Wall; 4];
        }
    }
}
