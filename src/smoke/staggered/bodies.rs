//! Moving bodies on the staggered grid: the CPU mirrors of `bodies_move.wgsl`,
//! `staggered_bodies.wgsl` and `staggered_body_faces.wgsl` (the solver's walls from them are
//! `solver::packed::packed_walls`'s).
//!
//! Each step, before the advection, every body moves by `dt` times its velocity
//! ([`crate::body::Body::advance`]); then the solid mask is rasterised: a cell that is not a
//! wall is covered by the first body whose shape holds its centre ([`crate::body::covering`]),
//! and every closed face inside the box beside a covered cell takes that body's rigid velocity
//! at the face's centre (the cell on the left or above first). The advection keeps those faces
//! ([`super::u_rule`]), the viscous diffusion takes them as the no-slip wall's velocity, and
//! the divergence counts them, so the projection makes the flow through the faces around a
//! body match its motion: no fluid through it, and the fluid ahead pushed aside (Bridson,
//! "Fluid Simulation for Computer Graphics", 2nd ed. 2015, sect. 5.1 and 5.3: solid faces carry
//! the solid's velocity, the pressure's Neumann condition at them).
//!
//! A cell a body leaves is open again with what a solid cell holds (temperature, smoke and dye
//! 0: the advection writes 0 into solids) and its faces keep the body's velocity; the same
//! step's advection then fills it from upstream like any open cell. A cell a body covers loses
//! its smoke and dye (smoke is carried, not conserved, by the semi-Lagrangian advection).
//!
//! In the state's `solid` `(H, W)`, [`WALL`] (1) marks a wall (drawn, or from the scene) and
//! `2 + i` a cell covered by body `i` this step; with no bodies any non-zero value is a wall.

use super::{u_open, v_open};
use crate::body::covering;
use crate::smoke::{SmokeParams, SmokeState};

pub use crate::body::{WALL, body_index, is_body, walls};

/// One step's body work (nothing without bodies): pass `bodies_move.wgsl` (each body advances
/// by `p.dt`), then [`rasterise`].
pub fn step(s: &mut SmokeState, p: &SmokeParams) {
    if s.bodies.is_empty() {
        return;
    }
    for b in &mut s.bodies {
        b.advance(p.dt);
    }
    rasterise(s);
}

/// Pass `staggered_bodies.wgsl`: the mask from the walls and the bodies where they are now, and
/// each closed face inside the box beside a body's cell at the body's velocity (see the module
/// docs); closed faces beside walls only get 0, open faces and the box's edge faces are left as
/// they are. Nothing without bodies.
pub fn rasterise(s: &mut SmokeState) {
    if s.bodies.is_empty() {
        return;
    }
    let (h, w) = s.shape();
    for r in 0..h {
        for c in 0..w {
            if s.solid[(r, c)] != WALL {
                let id = covering(&s.bodies, r, c);
                s.solid[(r, c)] = if id == 0 { 0 } else { (id + 1) as u8 };
            }
        }
    }
    let bodies = &s.bodies;
    // The body beside a closed face: the cell on the left (above) first.
    let beside = |a: u8, b: u8| body_index(a).or(body_index(b)).map(|i| &bodies[i]);
    for r in 0..h {
        for c in 1..w {
            if !u_open(&s.solid, r, c) {
                let body = beside(s.solid[(r, c - 1)], s.solid[(r, c)]);
                s.velocity_x[(r, c)] = body.map_or(0.0, |b| b.velocity_at(c as f32, r as f32 + 0.5).0);
            }
        }
    }
    for r in 1..h {
        for c in 0..w {
            if !v_open(&s.solid, r, c) {
                let body = beside(s.solid[(r - 1, c)], s.solid[(r, c)]);
                s.velocity_y[(r, c)] = body.map_or(0.0, |b| b.velocity_at(c as f32 + 0.5, r as f32).1);
            }
        }
    }
}
