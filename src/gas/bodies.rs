//! Moving bodies in the gas: the CPU mirrors of `shaders/gas/bodies_move.wgsl`,
//! `shaders/gas/bodies.wgsl` (the rasterisation) and `shaders/gas/handoff.wgsl`, and the body
//! velocity that the faces into a body's cells see ([`wall_velocity`]).
//!
//! Each step, before the fluxes, every body moves by one step of its velocity
//! ([`crate::body::Body::advance`] with `dt` = 1 step) and the mask is rasterised as smoke's is:
//! a cell that is not a wall is covered by the first body whose shape holds its centre
//! ([`crate::body::covering`]; `solid` = `2 + i`). Then the gas of the cells whose coverage
//! changed is handed over ([`handoff`]), so that **the handoff conserves the gas's mass and
//! momentum** up to rounding (the bodies' walls do push the gas, through the faces below: that
//! changes its momentum, as a moving body's force should, and the total is not conserved):
//! - a cell a body covers gives its gas `(rho, m)` in equal shares to its neighbours (the 4 or 8
//!   the flow uses) that are open now: what the body sweeps is pushed aside, not lost (only a cell
//!   with no open neighbour, a pocket the bodies close, loses it);
//! - a cell a body leaves starts with a share of its open neighbours' gas: each neighbour that
//!   was open before and is open now gives it `1 / (1 + n)` of its own (`n` = 4 or 8, the
//!   neighbours in use, so a neighbour keeps at least `1 / (1 + n)` of its gas however many
//!   cells open around it), density and momentum alike. The new cell then holds about
//!   `k / (1 + n)` of the gas around it (`k` its donors, 3 to 5 behind a moving body) moving at
//!   their mean velocity, a mild rarefaction that the next steps' fluxes fill, instead of
//!   a vacuum or gas made from nothing.
//!
//! The faces into a body's cells are the mirror of [`super::cpu::ghost`] in the body's frame
//! (the face flux at a moving wall is the mirror in the body's frame): the face states move into
//! the frame of the body's rigid velocity at the face's midpoint ([`wall_velocity`]),
//! `m' = m - rho V`, the flux `(f', P')` is the wall's, and the lab frame sees `f = f'` (no gas
//! crosses the moving wall: at a face along an axis `f' = 0` exactly) and `P = P' + V f'`. The
//! predictor's ghost in the lab frame is `m_g = s (m - rho V) + rho V` (`s` the mirror's signs),
//! and the momentum into a body's face bounces relative to it. With `V = 0` (a wall) each is the
//! resting mirror's arithmetic, bit for bit.

use super::{GasParams, GasState};
use crate::body::forces::Force;
use crate::error::Error;
use crate::grid::Grid;

/// Fixed-point scale of the forces' sums (cell masses x cells / step^2): `2^20`, so a sum
/// holds up to 2048 and each piece is rounded to about 1e-6 ([`ForceSums`]).
pub const FORCE_SCALE: f32 = 1_048_576.0;

/// Fixed-point scale of the torques' sums (cell masses x cells^2 / step^2): `2^14`, up to
/// 131072, each piece rounded to about 6e-5.
pub const TORQUE_SCALE: f32 = 16_384.0;

/// The gas's push on each body over a step, as pass `apply.wgsl` adds it up: each piece of
/// momentum the gas gives a body (the flux into a face of the body's, and the momentum that
/// bounces off a face of it) rounded to fixed point ([`FORCE_SCALE`], [`TORQUE_SCALE`]) and
/// summed as integers, so that the GPU's atomic sums, in whatever order its invocations add,
/// come to the same bits as this. The torque is about the body's centre, from the face's
/// midpoint.
#[derive(Clone, Debug)]
pub struct ForceSums {
    centres: Vec<(f32, f32)>,
    sums: Vec<[i32; 3]>,
}

impl ForceSums {
    /// Empty sums for `bodies`.
    pub fn new(bodies: &[crate::body::Body]) -> Self {
        Self { centres: bodies.iter().map(|b| (b.x, b.y)).collect(), sums: vec![[0; 3]; bodies.len()] }
    }

    /// Adds momentum `(px, py)` that open cell `(r, c)` of `s` gives through its face in
    /// direction `(dc, dr)` to what blocks it, where that is a body's cell; at the face's
    /// midpoint. A diagonal face between two blocked axis neighbours is a corner's: along x its
    /// push goes to what blocks the x neighbour, along y to what blocks the y neighbour (a
    /// piston's corner against a wall pushes the piston along x and the wall along y), and
    /// along an axis whose neighbour is open, to what blocks the diagonal.
    pub fn push(&mut self, s: &GasState, (r, c): (usize, usize), (dc, dr): (isize, isize), (px, py): (f32, f32)) {
        let (r, c) = (r as isize, c as isize);
        let at = (c as f32 + 0.5 + 0.5 * dc as f32, r as f32 + 0.5 + 0.5 * dr as f32);
        let cell = |r: isize, c: isize| s.solid.get(r, c).copied();
        let body = |v: Option<u8>| v.and_then(crate::body::body_index);
        if dc == 0 || dr == 0 {
            if let Some(i) = body(cell(r + dr, c + dc)) {
                self.add(i, at, (px, py));
            }
            return;
        }
        let blocked = |v: Option<u8>| v != Some(0);
        let diagonal = cell(r + dr, c + dc);
        let (x, y) = (cell(r, c + dc), cell(r + dr, c));
        if let Some(i) = body(if blocked(x) { x } else { diagonal }) {
            self.add(i, at, (px, 0.0));
        }
        if let Some(i) = body(if blocked(y) { y } else { diagonal }) {
            self.add(i, at, (0.0, py));
        }
    }

    /// Adds momentum `(px, py)` given to body `i` at point `at` (cells).
    fn add(&mut self, i: usize, at: (f32, f32), (px, py): (f32, f32)) {
        let (cx, cy) = self.centres[i];
        let torque = (at.0 - cx) * py - (at.1 - cy) * px;
        let fixed = |v: f32, scale: f32| (v * scale).round_ties_even() as i32;
        let sum = &mut self.sums[i];
        sum[0] = sum[0].wrapping_add(fixed(px, FORCE_SCALE));
        sum[1] = sum[1].wrapping_add(fixed(py, FORCE_SCALE));
        sum[2] = sum[2].wrapping_add(fixed(torque, TORQUE_SCALE));
    }

    /// The forces, as `body_forces.wgsl` converts the sums.
    pub fn forces(&self) -> Vec<Force> {
        let back = |v: i32, scale: f32| v as f32 / scale;
        self.sums
            .iter()
            .map(|s| Force {
                fx: back(s[0], FORCE_SCALE),
                fy: back(s[1], FORCE_SCALE),
                torque: back(s[2], TORQUE_SCALE),
            })
            .collect()
    }
}

/// The fastest a point of a gas body may move, cells/step: the limit of the gas's own wind and
/// inflow ([`GasParams::limits`]). A wall driven faster than the gas's sound speed (0.22 at the
/// default pressure) makes a shock, which the scheme holds (the piston, `tests/gas_physics.rs`,
/// runs at up to `c`); at 0.35 cells/step a disc through the `explosion` preset drove the gas
/// beside it to the speed cap ([`super::cpu::MAX_SPEED`]), which in range never acts.
pub const MAX_BODY_SPEED: f32 = 0.25;

/// The speed of a body's fastest point, cells/step: `|v| + |spin| reach`.
pub fn fastest(b: &crate::body::Body) -> f32 {
    b.fastest()
}

/// Refuses bodies the gas cannot move: more than the GPU's body table holds
/// ([`crate::body::MAX_BODIES`]), or one whose fastest point moves faster than
/// [`MAX_BODY_SPEED`] (a free one too: the gas holds it there, [`dynamics`]).
///
/// # Errors
/// [`Error::Message`] saying how many a model holds, or which body is too fast, how fast, and
/// the limit.
pub fn check(bodies: &[crate::body::Body]) -> Result<(), Error> {
    crate::body::check_count(bodies.len()).map_err(Error::Message)?;
    for (i, b) in bodies.iter().enumerate() {
        let v = fastest(b);
        // A NaN speed is refused too.
        if v.is_nan() || v > MAX_BODY_SPEED {
            return Err(Error::Message(format!(
                "body {i} moves at {v:.3} cells/step at its fastest point (|v| + |spin| x its reach): gas bodies \
                 move at most {MAX_BODY_SPEED} cells/step, the gas's own wind limit; slow it down"
            )));
        }
    }
    Ok(())
}

/// What the free bodies' pass (`common/body_dynamics.wgsl`) needs of the gas on a `(W, H)`
/// grid: a step of 1 (velocities in cells/step), no gravity (the gas has none), the bodies'
/// bound [`MAX_BODY_SPEED`], and the added-mass-corrected coupling
/// ([`crate::body::dynamics::Coupling::Projected`]). The gas answers a body's motion with its
/// pressure at once, as a piston's face does (about `rho c` times the speed a face), but its
/// reaction to the body's acceleration, the added mass, arrives with the sound; the correction
/// `M a` carried from step to step holds a light body steady meanwhile and changes nothing
/// where the acceleration holds.
pub fn dynamics((w, h): (usize, usize)) -> crate::body::dynamics::Dynamics {
    crate::body::dynamics::Dynamics {
        dt: 1.0,
        gravity: 0.0,
        max_step: MAX_BODY_SPEED,
        size: (w as f32, h as f32),
        coupling: crate::body::dynamics::Coupling::Projected,
        turning_layer: TURNING_LAYER,
    }
}

/// The gas's [`crate::body::dynamics::Dynamics::turning_layer`]: half the staircase's layer, five
/// times smoke's. A turning staircase's faces push the gas along their normals at once (the
/// mirror in the body's frame), so the gas answers a disc's spin, which an ideal fluid never
/// feels, harder than smoke's projection does: with smoke's tenth, a free disc of radius 8 less
/// than 0.03 as dense as the gas spun back and forth at the speed limit each step (`cargo run
/// --release --example free_bodies -- model=gas`); with half, discs, squares and plates are
/// stable from 0.001 to 10.
pub const TURNING_LAYER: f32 = 0.5;

/// The bodies placed where they are, without moving (a model made with bodies, or given new
/// ones: `GpuGas::encode_bodies`): the mask rasterised and the gas of the cells whose coverage
/// changed handed over, as in a step.
pub fn place(s: &mut GasState, p: &GasParams) {
    let before = rasterise(s);
    handoff(s, &before, p);
}

/// The share of its gas a cell that stays open gives each neighbour a body leaves open:
/// `1 / (1 + n)` with `n` the neighbours in use (module docs).
pub fn opening_share(p: &GasParams) -> f32 {
    1.0 / (1.0 + 2.0 * super::lattice::face_count(p.neighbours) as f32)
}

/// One step's body work (nothing without bodies): each body advances by one step
/// (`bodies_move.wgsl`), the mask is rasterised ([`rasterise`], `bodies.wgsl`) and the gas of
/// the cells whose coverage changed handed over ([`handoff`], `handoff.wgsl`).
pub fn step(s: &mut GasState, p: &GasParams) {
    if s.bodies.is_empty() {
        return;
    }
    for b in &mut s.bodies {
        b.advance(1.0);
    }
    let before = rasterise(s);
    handoff(s, &before, p);
}

/// Pass `bodies.wgsl`: the mask from the walls and the bodies where they are now (a cell that
/// is not a wall: `2 + i` if body `i` is the first to hold its centre, else 0). Returns the mask
/// as it was.
pub fn rasterise(s: &mut GasState) -> Grid<u8> {
    let before = s.solid.clone();
    crate::body::rasterise(&mut s.solid, &s.bodies);
    before
}

/// Pass `handoff.wgsl`: the gas of the cells whose coverage changed from `before` to `s.solid`
/// handed over, conserving mass and momentum (module docs): a covered cell's gas in equal shares
/// to its open neighbours, and each cell opened gets [`opening_share`] of each neighbour open
/// before and after. Closed cells end empty. Every share comes from the state as it was.
pub fn handoff(s: &mut GasState, before: &Grid<u8>, p: &GasParams) {
    let (h, w) = s.shape();
    let open_before = |r: isize, c: isize| before.get(r, c).is_some_and(|&v| v == 0);
    let open_now = |r: isize, c: isize| s.solid.get(r, c).is_some_and(|&v| v == 0);
    let directions: Vec<(isize, isize)> =
        super::lattice::directions(p.neighbours).map(|j| super::lattice::direction(j).0).collect();
    let share = opening_share(p);
    let old = (s.density.clone(), s.momentum_x.clone(), s.momentum_y.clone());
    let gas = |r: isize, c: isize| {
        let at = (r as usize, c as usize);
        (old.0[at], old.1[at], old.2[at])
    };
    for r in 0..h as isize {
        for c in 0..w as isize {
            let at = (r as usize, c as usize);
            if !open_now(r, c) {
                (s.density[at], s.momentum_x[at], s.momentum_y[at]) = (0.0, 0.0, 0.0);
                continue;
            }
            let was_open = open_before(r, c);
            let mut q = (0.0f32, 0.0f32, 0.0f32);
            if was_open {
                // What this cell keeps: all but a share for each neighbour opened.
                let opened =
                    directions.iter().filter(|(dc, dr)| !open_before(r + dr, c + dc) && open_now(r + dr, c + dc));
                let keep = 1.0 - share * opened.count() as f32;
                let g = gas(r, c);
                q = (keep * g.0, keep * g.1, keep * g.2);
            }
            for &(dc, dr) in &directions {
                let (nr, nc) = (r + dr, c + dc);
                // Only a neighbour open before gives (one inside the grid).
                if !open_before(nr, nc) {
                    continue;
                }
                let g = gas(nr, nc);
                if !open_now(nr, nc) {
                    // A covered neighbour: its gas in equal shares to its open neighbours.
                    let receivers = directions.iter().filter(|(ec, er)| open_now(nr + er, nc + ec)).count() as f32;
                    q = (q.0 + g.0 / receivers, q.1 + g.1 / receivers, q.2 + g.2 / receivers);
                } else if !was_open {
                    // This cell opened: a share of each neighbour open before and now.
                    q = (q.0 + share * g.0, q.1 + share * g.1, q.2 + share * g.2);
                }
            }
            (s.density[at], s.momentum_x[at], s.momentum_y[at]) = q;
        }
    }
}

/// The velocity `(x, y)` (cells/step) of what blocks direction `(dc, dr)` of open cell `(r, c)`:
/// a body's rigid velocity at the face's midpoint (`(c + 0.5 + dc / 2, r + 0.5 + dr / 2)`) when
/// the cell there is a body's, else 0 (a wall, or the box's edge). CPU mirror of
/// `wall_velocity` in `shaders/gas/walls.wgsl`.
pub fn wall_velocity(s: &GasState, r: isize, c: isize, (dc, dr): (isize, isize)) -> (f32, f32) {
    let Some(&v) = s.solid.get(r + dr, c + dc) else { return (0.0, 0.0) };
    match crate::body::body_index(v) {
        Some(i) => {
            let (x, y) = (c as f32 + 0.5 + 0.5 * dc as f32, r as f32 + 0.5 + 0.5 * dr as f32);
            s.bodies[i].velocity_at(x, y)
        }
        None => (0.0, 0.0),
    }
}
