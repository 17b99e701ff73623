//! The lid-driven cavity against Ghia, Ghia & Shin, "High-Re solutions for incompressible flow
//! using the Navier-Stokes equations and a multigrid method", J. Comput. Phys. 48 (1982)
//! 387-411, Tables I and II: the published velocity profiles through the cavity's centre, which
//! eddy's staggered smoke must reproduce (`tests/smoke_cavity.rs`, `examples/cavity.rs`).
//!
//! The tables are read from their reproduction in Oceananigans.jl's lid-driven cavity
//! validation script ("Data from tables 1 and 2 of Ghia et al. (1982)"), and agree with the
//! many other copies in public CFD code.
//!
//! Ghia's axes are the unit square with `y` up and the lid at `y = 1` moving at `u = 1`; eddy's
//! grid has row 0 at the top and `v` down, so `v_Ghia = -v`, `y_Ghia = 1 - row / H`, and the
//! lid's speed [`SmokeParams::lid`] is the unit of velocity.

use super::{SmokeParams, SmokeState, cpu::bilinear};
use crate::Simulation;
use crate::error::Error;

/// Table I: `y` of the 17 points on the vertical line through the centre, top to bottom.
pub const GHIA_Y: [f32; 17] = [
    1.0, 0.9766, 0.9688, 0.9609, 0.9531, 0.8516, 0.7344, 0.6172, 0.5, 0.4531, 0.2813, 0.1719, 0.1016, 0.0703, 0.0625,
    0.0547, 0.0,
];

/// Table I, Re = 100: `u` at [`GHIA_Y`].
pub const GHIA_U_RE100: [f32; 17] = [
    1.0, 0.84123, 0.78871, 0.73722, 0.68717, 0.23151, 0.00332, -0.13641, -0.20581, -0.21090, -0.15662, -0.10150,
    -0.06434, -0.04775, -0.04192, -0.03717, 0.0,
];

/// Table II: `x` of the 17 points on the horizontal line through the centre, right to left.
pub const GHIA_X: [f32; 17] = [
    1.0, 0.9688, 0.9609, 0.9531, 0.9453, 0.9063, 0.8594, 0.8047, 0.5, 0.2344, 0.2266, 0.1563, 0.0938, 0.0781, 0.0703,
    0.0625, 0.0,
];

/// Table II, Re = 100: `v` (up) at [`GHIA_X`].
pub const GHIA_V_RE100: [f32; 17] = [
    0.0, -0.05906, -0.07391, -0.08864, -0.10313, -0.16914, -0.22445, -0.24533, 0.05454, 0.17527, 0.17507, 0.16077,
    0.12317, 0.10890, 0.10091, 0.09233, 0.0,
];

/// One point of a centreline profile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Ghia's coordinate along the line (`y` for `u`, `x` for `v`), in units of the cavity's
    /// side.
    pub at: f32,
    /// Ghia's value, in units of the lid speed.
    pub ghia: f32,
    /// eddy's, interpolated bilinearly from the faces to the point, in units of the lid speed.
    pub eddy: f32,
}

impl Point {
    /// `|eddy - ghia|`.
    pub fn error(&self) -> f32 {
        (self.eddy - self.ghia).abs()
    }
}

/// `u` along the vertical centreline at Ghia's 15 interior points (the two walls, where the
/// values are the boundary conditions, left out), divided by `lid`. `state` must be on the
/// staggered grid.
pub fn u_profile(state: &SmokeState, lid: f32) -> Vec<Point> {
    let (h, w) = state.shape();
    interior(&GHIA_Y, &GHIA_U_RE100, |y| {
        // u node (r, c) sits at (x, y) = (c, r + 1/2) cells from the top-left corner.
        let (x, from_top) = (w as f32 * 0.5, h as f32 * (1.0 - y));
        bilinear(&state.velocity_x, x, from_top - 0.5) / lid
    })
}

/// `v` (up) along the horizontal centreline at Ghia's 15 interior points, divided by `lid`.
pub fn v_profile(state: &SmokeState, lid: f32) -> Vec<Point> {
    let (h, w) = state.shape();
    interior(&GHIA_X, &GHIA_V_RE100, |x| {
        // v node (r, c) sits at (c + 1/2, r); eddy's v points down.
        let (x, from_top) = (w as f32 * x, h as f32 * 0.5);
        -bilinear(&state.velocity_y, x - 0.5, from_top) / lid
    })
}

fn interior(at: &[f32; 17], ghia: &[f32; 17], sample: impl Fn(f32) -> f32) -> Vec<Point> {
    (1..16).map(|i| Point { at: at[i], ghia: ghia[i], eddy: sample(at[i]) }).collect()
}

/// The largest change of any face velocity between `before` and `after`, per time unit
/// (`elapsed` time units apart), divided by the largest face speed of `after`: what
/// `--steady TOL` compares with `TOL`. Infinite when `after` is still (nothing to divide by)
/// and the velocity changed; 0 when neither moves.
pub fn steady_change(before: &SmokeState, after: &SmokeState, elapsed: f32) -> f32 {
    let faces =
        |s: &SmokeState| s.velocity_x.as_slice().iter().chain(s.velocity_y.as_slice()).copied().collect::<Vec<_>>();
    let (a, b) = (faces(before), faces(after));
    let change = a.iter().zip(&b).fold(0.0f32, |m, (x, y)| m.max((x - y).abs())) / elapsed;
    let speed = b.iter().fold(0.0f32, |m, x| m.max(x.abs()));
    if change == 0.0 { 0.0 } else { change / speed }
}

/// Where [`run_to_steady`] stopped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Steady {
    /// Steps run.
    pub steps: u64,
    /// Time reached, time units.
    pub time: f32,
    /// The last [`steady_change`] measured.
    pub change: f32,
    /// Whether it fell below the tolerance (else the time limit stopped it).
    pub reached: bool,
}

/// Steps `sim` one time unit at a time (`ceil(1 / dt)` steps) until [`steady_change`] over the
/// last time unit falls below `tolerance`, or `max_time` time units have run. `each_unit` runs
/// after every time unit (a progress report, say; the multigrid plans its V-cycles on its own,
/// at fixed steps: [`crate::solver::plan`]).
///
/// # Errors
/// The model's, from stepping or reading the state back, or `each_unit`'s.
pub fn run_to_steady<S: Simulation<State = SmokeState>>(
    sim: &mut S,
    params: &SmokeParams,
    tolerance: f32,
    max_time: f32,
    mut each_unit: impl FnMut(&mut S) -> Result<(), Error>,
) -> Result<Steady, Error> {
    let per_unit = (1.0 / params.dt).ceil().max(1.0) as u32;
    let elapsed = per_unit as f32 * params.dt;
    let mut before = sim.read_state()?;
    let mut steady = Steady { steps: 0, time: 0.0, change: f32::INFINITY, reached: false };
    while steady.time < max_time {
        sim.step(per_unit)?;
        each_unit(sim)?;
        let after = sim.read_state()?;
        steady.steps += per_unit as u64;
        steady.time += elapsed;
        steady.change = steady_change(&before, &after, elapsed);
        if steady.change < tolerance {
            steady.reached = true;
            break;
        }
        before = after;
    }
    Ok(steady)
}
