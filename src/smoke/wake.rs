//! The cylinder wake: flow past a fixed circular cylinder, whose shedding frequency
//! is the best-measured number in fluid dynamics. Williamson, "Vortex dynamics in the cylinder
//! wake", Annu. Rev. Fluid Mech. 28 (1996) 477-539, fig. 3, and his fit for parallel shedding,
//! `St = 0.1816 - 3.3265 / Re + 1.6e-4 Re` for 49 < Re < 178 (Williamson, Phys. Fluids 31 (1988)
//! 2742): St = 0.164 at Re = 100. Below Re of about 47 the wake is steady.
//!
//! [`Wake`] lays out the box that stands for open flow (`tests/smoke_strouhal.rs`,
//! `examples/cylinder.rs`): a uniform inflow through the left edge, outflow through the right,
//! free-slip top and bottom edges (no boundary layers growing from the inlet; with no-slip side
//! walls the `channel` scene sheds 19% fast), a cylinder of `diameter` cells `upstream`
//! diameters from the inlet, half a cell off the centreline, viscosity `nu = U D / Re`, the
//! `channel` pipeline's multigrid and MacCormack. A transverse kick behind the cylinder starts
//! the street at once. [`period`] reads the shedding period from a probe's samples.
//!
//! The inlet must stand well upstream: a uniform inflow held 3 D before the cylinder's centre
//! sheds 10% fast (St 0.180 at D 24, and more on finer grids: 0.184 at D 48, 0.186 at D 64),
//! whatever the grid, the blockage, the step or the solver's tolerance; at 6 D it is 1% fast, at 8
//! D within 2.5% from D 16 to 32, and at 10 D 0.1% (README "The smoke model", measured on an
//! NVIDIA H200 with what is now `examples/cylinder.rs`, from a probe of v behind the
//! cylinder). So [`Wake::new`] puts it 8 D upstream.

use super::{Advection, EdgeKind, SmokeParams, SmokePreset, SmokeState};
use crate::grid::Grid;
use crate::scene::Scene;

/// Williamson's fit for parallel shedding (Phys. Fluids 31, 1988, valid for 49 < Re < 178):
/// `St = 0.1816 - 3.3265 / Re + 1.6e-4 Re`; 0.1643 at Re = 100.
pub fn williamson_strouhal(reynolds: f64) -> f64 {
    0.1816 - 3.3265 / reynolds + 1.6e-4 * reynolds
}

/// One cylinder-wake experiment: the box, the cylinder and the numerics. Lengths in cells,
/// the inflow speed 1 cell per time unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wake {
    /// The box, `(W, H)` cells.
    pub size: (usize, usize),
    /// The cylinder's diameter `D`, cells (its cells are those whose centres lie in the disc).
    pub diameter: f32,
    /// Reynolds number `U D / nu`.
    pub reynolds: f32,
    /// The cylinder's centre from the inflow edge, in diameters.
    pub upstream: f32,
    /// The time step, time units (the `channel` pipeline's 0.5).
    pub dt: f32,
    /// Velocity advection (the `channel` pipeline's MacCormack).
    pub advection: Advection,
    /// The multigrid's relative residual (the `channel` pipeline's 1e-4).
    pub tolerance: f32,
    /// The top and bottom edges: [`EdgeKind::Slip`] stands for open flow, [`EdgeKind::Wall`]
    /// for a channel.
    pub sides: EdgeKind,
}

impl Wake {
    /// A wake at Reynolds number `reynolds` in a box of `size` cells: a cylinder of `diameter`
    /// cells 8 diameters from the inlet, the `channel` pipeline's numerics, slip side edges.
    /// Leave at least 10 diameters behind it for the street (`W >= 18 D`).
    pub fn new(size: (usize, usize), diameter: f32, reynolds: f32) -> Self {
        let channel = SmokeParams::preset(SmokePreset::Channel);
        Self {
            size,
            diameter,
            reynolds,
            upstream: 8.0,
            dt: channel.dt,
            advection: channel.advection,
            tolerance: channel.tolerance,
            sides: EdgeKind::Slip,
        }
    }

    /// The cylinder's centre, `(col, row)` in cells: half a cell below the centreline, so that
    /// the box is not exactly symmetric.
    pub fn centre(&self) -> (f32, f32) {
        (self.upstream * self.diameter, self.size.1 as f32 / 2.0 + 0.5)
    }

    /// The parameters: the `channel` pipeline with this wake's edges, viscosity, step and
    /// numerics, no vorticity confinement. The viscous diffusion runs 10 Jacobi iterations,
    /// which converge by `4k / (1 + 4k)` an iteration (`k = nu dt`): 1e-5 at Re 100, D 24
    /// (k 0.12), 1e-3 at Re 30, D 16 (k 0.27).
    pub fn params(&self) -> SmokeParams {
        let u = 1.0;
        SmokeParams {
            edges: [EdgeKind::Inflow, EdgeKind::Outflow, self.sides, self.sides],
            inflow: u,
            viscosity: u * self.diameter / self.reynolds,
            vorticity: 0.0,
            jacobi_iterations: 10,
            dt: self.dt,
            advection: self.advection,
            tolerance: self.tolerance,
            ..SmokeParams::preset(SmokePreset::Channel)
        }
    }

    /// The starting state: the cylinder, a body held still (its cells those whose centres lie
    /// in the disc; the fluid's force on it is logged each step, [`crate::body::forces`]), and
    /// fluid at rest but for a kick across the wake (`v` = 0.2 U over the
    /// 2 D behind the cylinder, on one side of it), so that the street need not wait for
    /// rounding to break the symmetry (from rest it took some 1,100 time units to saturate).
    pub fn state(&self) -> SmokeState {
        let (w, h) = self.size;
        let d = self.diameter;
        let (xc, yc) = self.centre();
        let scene =
            Scene { solid: Grid::filled(w, h, 0), fluid: Grid::filled(w, h, 0.0), source: Grid::filled(w, h, 0) };
        let mut state = SmokeState::from_scene(&scene, 0.0);
        state.bodies = vec![crate::body::Body::new(crate::body::Shape::Circle { radius: d / 2.0 }, xc, yc)];
        super::staggered::bodies::rasterise(&mut state);
        for r in (yc - d).max(0.0) as usize..(yc as usize).min(h) {
            for c in (xc + d) as usize..((xc + 3.0 * d) as usize).min(w) {
                state.velocity_y[(r, c)] = 0.2;
            }
        }
        state
    }

    /// The probe, `(row, col)` of [`SmokeState::velocity_y`]: the `v` face on the centreline
    /// 2 D behind the cylinder's centre.
    pub fn probe(&self) -> (usize, usize) {
        let (xc, _) = self.centre();
        (self.size.1 / 2, ((xc + 2.0 * self.diameter) as usize).min(self.size.0 - 1))
    }
}

/// Published values for the flow past a circular cylinder, an unconfined one: the steady
/// wake's drag coefficient and the length of its recirculation bubble behind the cylinder, in
/// diameters, at Re 20 and 40; the shedding wake's mean drag coefficient and lift amplitude at
/// Re 100.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Published {
    /// Who measured or computed it.
    pub source: &'static str,
    /// Reynolds number `U D / nu`.
    pub reynolds: f32,
    /// The (mean) drag coefficient.
    pub drag: f32,
    /// The bubble's length `L / D` from the cylinder's rear (steady wakes; NaN where not given).
    pub bubble: f32,
    /// The lift coefficient's amplitude (shedding wakes; NaN for steady ones).
    pub lift: f32,
}

/// The values [`Published`] holds, by source:
/// - Dennis & Chang, "Numerical solutions for steady flow past a circular cylinder at Reynolds
///   numbers up to 100", J. Fluid Mech. 42 (1970) 471-489;
/// - Fornberg, "A numerical study of steady viscous flow past a circular cylinder", J. Fluid
///   Mech. 98 (1980) 819-855;
/// - Coutanceau & Bouard, "Experimental determination of the main features of the viscous flow
///   in the wake of a circular cylinder in uniform translation. Part 1. Steady flow", J. Fluid
///   Mech. 79 (1977) 231-256 (the bubble only; measured);
/// - Park, Kwon & Choi, "Numerical solutions of flow past a circular cylinder at Reynolds
///   numbers up to 160", KSME Int. J. 12 (1998) 1200-1205;
/// - Liu, Zheng & Sung, "Preconditioned multigrid methods for unsteady incompressible flows",
///   J. Comput. Phys. 139 (1998) 35-57.
pub const PUBLISHED: [Published; 8] = {
    const N: f32 = f32::NAN;
    const fn row(source: &'static str, reynolds: f32, drag: f32, bubble: f32, lift: f32) -> Published {
        Published { source, reynolds, drag, bubble, lift }
    }
    [
        row("Dennis & Chang 1970", 20.0, 2.045, 0.94, N),
        row("Fornberg 1980", 20.0, 2.000, 0.91, N),
        row("Coutanceau & Bouard 1977", 20.0, N, 0.93, N),
        row("Dennis & Chang 1970", 40.0, 1.522, 2.345, N),
        row("Fornberg 1980", 40.0, 1.498, 2.24, N),
        row("Coutanceau & Bouard 1977", 40.0, N, 2.13, N),
        row("Park, Kwon & Choi 1998", 100.0, 1.33, N, 0.332),
        row("Liu, Zheng & Sung 1998", 100.0, 1.350, N, 0.339),
    ]
};

/// The recirculation bubble's length behind the cylinder, in diameters from its rear: where
/// the `u` faces on the wake's centreline (the row through the cylinder's centre) turn from
/// backward to forward flow, interpolated linearly between the faces; 0 when no face behind the
/// cylinder flows backward, `None` when the flow is backward to the box's end.
pub fn bubble_length(wake: &Wake, state: &SmokeState) -> Option<f32> {
    let (xc, yc) = wake.centre();
    let row = yc.floor() as usize;
    let u = &state.velocity_x;
    let w = wake.size.0;
    // The first open face behind the cylinder's centre, then the cylinder's rear.
    let first = (xc.ceil() as usize..w).find(|&c| super::staggered::u_open(&state.solid, row, c))?;
    let rear = xc + wake.diameter / 2.0;
    if u[(row, first)] >= 0.0 {
        return Some(0.0);
    }
    (first..w).find(|&c| u[(row, c + 1)] >= 0.0).map(|c| {
        let (a, b) = (u[(row, c)], u[(row, c + 1)]);
        let zero = c as f32 + a / (a - b);
        (zero - rear) / wake.diameter
    })
}

/// The drag coefficient from the momentum the stream loses between two columns of `u` faces, 2
/// cells inside each end of the box: `sum (P + u^2)` down the first minus down the second, over
/// `1/2 U^2 D` (U 1, the fluid's density 1; `P` the pressure, `p / (h dt)` of the solve's `p`,
/// the mean of the two cells beside each face). In a steady flow between slip walls (which take
/// no x momentum) this is the fluid's force on the cylinder, found without looking at the
/// cylinder: a check of [`crate::body::forces`] that omits only the viscous normal stress
/// `2 nu du/dx` across the two columns.
pub fn drag_from_momentum(wake: &Wake, state: &SmokeState) -> f64 {
    let p = wake.params();
    let (w, h) = wake.size;
    let to_pressure = 1.0 / (p.cell_size * p.dt);
    let flux = |c: usize| -> f64 {
        (0..h)
            .map(|r| {
                let pressure = 0.5 * (state.pressure[(r, c - 1)] + state.pressure[(r, c)]) * to_pressure;
                let u = state.velocity_x[(r, c)];
                (pressure + u * u) as f64
            })
            .sum()
    };
    (flux(2) - flux(w - 2)) / (0.5 * wake.diameter as f64)
}

/// The period of `v` sampled every `dt` time units, and the whole cycles it was read over:
/// from its first to its last upward crossing of its mean, linearly interpolated. `None` when
/// `v` crosses its mean upward fewer than twice.
pub fn period(v: &[f32], dt: f64) -> Option<(f64, usize)> {
    let mean = v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
    let ups: Vec<f64> = v
        .windows(2)
        .enumerate()
        .filter(|(_, w)| (w[0] as f64) < mean && (w[1] as f64) >= mean)
        .map(|(i, w)| (i as f64 + (mean - w[0] as f64) / (w[1] as f64 - w[0] as f64)) * dt)
        .collect();
    let cycles = ups.len().checked_sub(1).filter(|&c| c > 0)?;
    Some(((ups[cycles] - ups[0]) / cycles as f64, cycles))
}

/// The largest sample minus the smallest (`-inf` for no samples).
pub fn swing(v: &[f32]) -> f32 {
    v.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x)) - v.iter().fold(f32::INFINITY, |m, &x| m.min(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Williamson's fit at Re 100 is his 0.164; the period of a sampled sine is its own.
    #[test]
    fn the_fit_and_the_period() {
        assert!((williamson_strouhal(100.0) - 0.1643).abs() < 1e-4);
        // 55 time units: up-crossings at 7.3 k - 1.16, k = 1..=7.
        let v: Vec<f32> = (0..1100).map(|i| (i as f32 * 0.05 * std::f32::consts::TAU / 7.3 + 1.0).sin()).collect();
        let (t, cycles) = period(&v, 0.05).unwrap();
        assert!((t - 7.3).abs() < 1e-3, "{t}");
        assert_eq!(cycles, 6);
        assert!((swing(&v) - 2.0).abs() < 1e-3);
    }
}
