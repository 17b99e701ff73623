//! CPU reference of the staggered smoke step: one function per compute pass, named after its
//! WGSL file (`shaders/smoke/staggered_*.wgsl`), same arithmetic in the same order.
//!
//! Positions are continuous cell coordinates `(x, y)` = `(col, row)` with cell centres at whole
//! numbers (as [`crate::smoke::cpu::bilinear`] takes them): vertical face `u[(r, c)]` sits at
//! `(c - 1/2, r)`, horizontal face `v[(r, c)]` at `(c, r - 1/2)`. The velocity anywhere is
//! [`velocity_at`]: each component interpolated bilinearly from its own faces (Bridson, *Fluid
//! Simulation for Computer Graphics*, 2nd ed., sect. 2.4 and 3.1).

use super::{u_open, v_open};
use crate::grid::Grid;
use crate::smoke::cpu::{bilinear, disc_weight, impulse_weight, lerp};
use crate::smoke::{Impulse, SmokeParams, SmokeState};

/// The velocity `(x, y)` at continuous cell coordinates `(x, y)`: `u` sampled at
/// `(x + 1/2, y)` of its `(H, W + 1)` grid, `v` at `(x, y + 1/2)` of its `(H + 1, W)` grid
/// (indices clamped to each grid, as [`bilinear`] does). At a cell centre this is the mean of
/// the cell's two faces on each axis.
pub fn velocity_at(u: &Grid<f32>, v: &Grid<f32>, x: f32, y: f32) -> (f32, f32) {
    (bilinear(u, x + 0.5, y), bilinear(v, x, y + 0.5))
}

/// Where a point at `(x, y)` was `dt` ago along the velocity, clamped to one cell beyond the
/// grid `(W, H)` (the clamp changes no sample, as indices are clamped there anyway, and keeps
/// huge velocities finite).
pub fn back_trace(u: &Grid<f32>, v: &Grid<f32>, x: f32, y: f32, dt: f32, (w, h): (usize, usize)) -> (f32, f32) {
    let (vx, vy) = velocity_at(u, v, x, y);
    ((x - dt * vx).clamp(-1.0, w as f32), (y - dt * vy).clamp(-1.0, h as f32))
}

/// Pass `staggered_advect_velocity.wgsl`: semi-Lagrangian advection (Stam 1999; GPU Gems 38.2)
/// of each face velocity along the old velocity, each component sampled at its own faces, times
/// the velocity dissipation. Closed faces (beside a wall or on the grid's edge) get 0, the
/// walls' normal velocity.
pub fn advect_velocity(s: &mut SmokeState, p: &SmokeParams) {
    let (h, w) = s.shape();
    let (u, v) = (&s.velocity_x, &s.velocity_y);
    let new_u = Grid::from_fn(w + 1, h, |r, c| {
        if !u_open(&s.solid, r, c) {
            return 0.0;
        }
        let (x, y) = back_trace(u, v, c as f32 - 0.5, r as f32, p.dt, (w, h));
        p.velocity_dissipation * bilinear(u, x + 0.5, y)
    });
    let new_v = Grid::from_fn(w, h + 1, |r, c| {
        if !v_open(&s.solid, r, c) {
            return 0.0;
        }
        let (x, y) = back_trace(u, v, c as f32, r as f32 - 0.5, p.dt, (w, h));
        p.velocity_dissipation * bilinear(v, x, y + 0.5)
    });
    (s.velocity_x, s.velocity_y) = (new_u, new_v);
}

/// Pass `staggered_advect_scalars.wgsl`: semi-Lagrangian advection of temperature and density
/// at cell centres along the old face velocity, times their dissipations; 0 in solids.
pub fn advect_scalars(s: &mut SmokeState, p: &SmokeParams) {
    let (h, w) = s.shape();
    let mut temperature = Grid::filled(w, h, 0.0);
    let mut density = Grid::filled(w, h, 0.0);
    for r in 0..h {
        for c in 0..w {
            if s.solid[(r, c)] != 0 {
                continue;
            }
            let (x, y) = back_trace(&s.velocity_x, &s.velocity_y, c as f32, r as f32, p.dt, (w, h));
            temperature[(r, c)] = p.temperature_dissipation * bilinear(&s.temperature, x, y);
            density[(r, c)] = p.density_dissipation * bilinear(&s.density, x, y);
        }
    }
    (s.temperature, s.density) = (temperature, density);
}

/// Pass `staggered_buoyancy.wgsl`: on every open horizontal face, with `T` and `d` the means of
/// the two cells beside it, `v += dt ((T - T0) sigma - d kappa) up` where `T > T0` (GPU Gems
/// 38.5, as [`crate::smoke::cpu::buoyancy`], at the face).
pub fn buoyancy(s: &mut SmokeState, p: &SmokeParams) {
    let (h, w) = s.shape();
    for r in 1..h {
        for c in 0..w {
            if !v_open(&s.solid, r, c) {
                continue;
            }
            let t = 0.5 * (s.temperature[(r - 1, c)] + s.temperature[(r, c)]);
            if t > p.ambient_temperature {
                let d = 0.5 * (s.density[(r - 1, c)] + s.density[(r, c)]);
                s.velocity_y[(r, c)] -= p.dt * ((t - p.ambient_temperature) * p.buoyancy - d * p.weight);
            }
        }
    }
}

/// The weight an impulse gives the face centred at `(x, y)` (in the `+ 1/2` convention of
/// [`impulse_weight`]): the splat's soft disc ([`disc_weight`]); 0 for the sources' impulse,
/// which carries no velocity.
pub fn face_weight(imp: &Impulse, x: f32, y: f32) -> f32 {
    if imp.sources { 0.0 } else { disc_weight(imp, x, y) }
}

/// Pass `staggered_impulse.wgsl`: temperature and density move towards the impulse's by the
/// cell weight ([`impulse_weight`]), as [`crate::smoke::cpu::impulse`]; each open face gains its
/// weight ([`face_weight`]) times the impulse velocity's component across it.
pub fn impulse(s: &mut SmokeState, imp: &Impulse) {
    let (h, w) = s.shape();
    for r in 0..h {
        for c in 0..w {
            let a = impulse_weight(s, imp, r, c);
            s.temperature[(r, c)] = lerp(s.temperature[(r, c)], imp.temperature, a);
            s.density[(r, c)] = lerp(s.density[(r, c)], imp.density, a);
        }
    }
    for r in 0..h {
        for c in 0..=w {
            if u_open(&s.solid, r, c) {
                s.velocity_x[(r, c)] += face_weight(imp, c as f32, r as f32 + 0.5) * imp.velocity.0;
            }
        }
    }
    for r in 0..=h {
        for c in 0..w {
            if v_open(&s.solid, r, c) {
                s.velocity_y[(r, c)] += face_weight(imp, c as f32 + 0.5, r as f32) * imp.velocity.1;
            }
        }
    }
}

/// Face velocities at cell centres, `(H, W)` each: `(u_left / 2 + u_right / 2, v_top / 2 +
/// v_bottom / 2)` (halved first, so values near f32's limit do not overflow); 0 in solids (pass `staggered_centres.wgsl`, which the views and statistics
/// read).
pub fn centres(u: &Grid<f32>, v: &Grid<f32>, solid: &Grid<u8>) -> (Grid<f32>, Grid<f32>) {
    let (h, w) = solid.shape();
    let open = |r: usize, c: usize| solid[(r, c)] == 0;
    (
        Grid::from_fn(w, h, |r, c| if open(r, c) { 0.5 * u[(r, c)] + 0.5 * u[(r, c + 1)] } else { 0.0 }),
        Grid::from_fn(w, h, |r, c| if open(r, c) { 0.5 * v[(r, c)] + 0.5 * v[(r + 1, c)] } else { 0.0 }),
    )
}

/// Face velocities from cell-centre ones (`(H, W)` each): each open face the mean of its two
/// cells; closed faces 0. The inverse of [`centres`] for fields that are smooth across faces;
/// used to load a collocated state onto the staggered grid.
pub fn faces_from_centres(vx: &Grid<f32>, vy: &Grid<f32>, solid: &Grid<u8>) -> (Grid<f32>, Grid<f32>) {
    let (h, w) = solid.shape();
    (
        Grid::from_fn(w + 1, h, |r, c| if u_open(solid, r, c) { 0.5 * vx[(r, c - 1)] + 0.5 * vx[(r, c)] } else { 0.0 }),
        Grid::from_fn(w, h + 1, |r, c| if v_open(solid, r, c) { 0.5 * vy[(r - 1, c)] + 0.5 * vy[(r, c)] } else { 0.0 }),
    )
}
