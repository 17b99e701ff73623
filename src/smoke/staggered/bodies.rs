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
//!
//! **The fluid's force on a body** ([`forces`], pass `staggered_body_forces.wgsl`, after the
//! projection) is the pressure and the viscous stress over the faces between the body's cells
//! and open cells, each as the step's own operators apply it there, so that what the body feels
//! is what the fluid loses:
//! - the pressure: the projection subtracts `(p_b - p_a) / h` on the open faces only, so
//!   (summing by parts) the momentum it takes from the fluid is, face by face, an open cell's
//!   `p / (h dt)` pushing on each face it shares with a body (the solve's `p` is `dt P / rho`
//!   times `h`; the fluid's density is 1 a cell). A constant added to `p` adds nothing on a
//!   closed body.
//! - the shear: the viscous diffusion's no-slip ghost `2 U - u` half a cell beyond an open face
//!   takes `2 nu (u - U)` a time unit from it across the body's face (`U` the body's velocity
//!   there, held by its closed face), which the body gains.
//! - the normal stress: a closed face of the body along an open face's own axis enters the
//!   diffusion as it is: `nu (u - U)`.
//!
//! Each piece acts at its face's centre (the torque about the body's centre). This is the
//! "momentum exchange" of the cells the body covers with the fluid around them over the
//! projection and the diffusion; the momentum the advection carries into a body's cells as it
//! moves, and what a covered cell's fluid held, are not counted (a body at rest loses none).

use super::{u_open, v_open};
use crate::body::forces::{Force, ForceSum};
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
    crate::body::rasterise(&mut s.solid, &s.bodies);
    let (h, w) = s.shape();
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

/// What the free bodies' pass needs of `p` on a `(W, H)` grid: its dt and gravity, the bodies'
/// bound on a step ([`crate::smoke::MAX_BODY_STEP`]), the grid's edges.
pub fn dynamics(p: &SmokeParams, (w, h): (usize, usize)) -> crate::body::dynamics::Dynamics {
    crate::body::dynamics::Dynamics {
        dt: p.dt,
        gravity: p.gravity,
        max_step: crate::smoke::MAX_BODY_STEP,
        size: (w as f32, h as f32),
        coupling: crate::body::dynamics::Coupling::Projected,
        turning_layer: crate::body::dynamics::TURNING_LAYER,
    }
}

/// Pass `common/body_dynamics.wgsl` after the forces pass: each free body's velocity under the
/// fluid's force over the step just taken ([`forces`]) and gravity
/// ([`crate::body::dynamics::advance`]), then their contacts with the walls and each other
/// ([`crate::body::contact::resolve`]). Nothing without free bodies.
pub fn respond(s: &mut SmokeState, p: &SmokeParams) {
    if !s.bodies.iter().any(crate::body::Body::is_free) {
        return;
    }
    let forces = forces(s, p);
    let (h, w) = s.shape();
    let d = dynamics(p, (w, h));
    for (body, force) in s.bodies.iter_mut().zip(forces) {
        crate::body::dynamics::advance(body, force, &d);
    }
    crate::body::contact::resolve(&mut s.bodies, &walls(&s.solid), &d);
}

/// Pass `staggered_body_forces.wgsl`: the fluid's force and torque on each body over the last
/// step, from the pressure and the faces as the projection left them (see the module docs;
/// units in [`crate::body::forces`]). `nu` is [`SmokeParams::viscosity_for`] the grid's width.
pub fn forces(s: &SmokeState, p: &SmokeParams) -> Vec<Force> {
    let mut sum = ForceSum::new(&s.bodies);
    let (h, w) = s.shape();
    let (h, w) = (h as isize, w as isize);
    // The uniform's `nu dt` over `dt`, as the pass has it.
    let nu = (p.viscosity_for(w as usize) * p.dt) / p.dt;
    let to_pressure = 1.0 / (p.cell_size * p.dt);
    let solid = &s.solid;
    let body_at = |r: isize, c: isize| match r >= 0 && r < h && c >= 0 && c < w {
        true => body_index(solid[(r as usize, c as usize)]),
        false => None,
    };
    // The body beside the closed face between cells a and b: a's, else b's.
    let beside = |a: (isize, isize), b: (isize, isize)| body_at(a.0, a.1).or(body_at(b.0, b.1));
    let is_u_open = |r: isize, c: isize| u_open(solid, r as usize, c as usize);
    let is_v_open = |r: isize, c: isize| v_open(solid, r as usize, c as usize);
    let (u, v) = (&s.velocity_x, &s.velocity_y);
    let at = |g: &crate::grid::Grid<f32>, r: isize, c: isize| g[(r as usize, c as usize)];
    for r in 0..h {
        for c in 0..w {
            if solid[(r as usize, c as usize)] != 0 {
                continue;
            }
            let pr = at(&s.pressure, r, c) * to_pressure;
            for (dc, dr) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                if let Some(i) = body_at(r + dr, c + dc) {
                    let face = (c as f32 + 0.5 + 0.5 * dc as f32, r as f32 + 0.5 + 0.5 * dr as f32);
                    sum.add(i, face, (pr * dc as f32, pr * dr as f32));
                }
            }
        }
    }
    for r in 0..h {
        for c in 1..w {
            if !is_u_open(r, c) {
                continue;
            }
            let x = at(u, r, c);
            for step in [-1, 1] {
                let n = r + step;
                if (0..h).contains(&n)
                    && !is_u_open(n, c)
                    && let Some(i) = beside((n, c - 1), (n, c))
                {
                    let shear = 2.0 * nu * (x - at(u, n, c));
                    sum.add(i, (c as f32, r as f32 + 0.5 + 0.5 * step as f32), (shear, 0.0));
                }
                let m = c + step;
                if (1..w).contains(&m)
                    && !is_u_open(r, m)
                    && let Some(i) = beside((r, m - 1), (r, m))
                {
                    sum.add(i, (m as f32, r as f32 + 0.5), (nu * (x - at(u, r, m)), 0.0));
                }
            }
        }
    }
    for r in 1..h {
        for c in 0..w {
            if !is_v_open(r, c) {
                continue;
            }
            let y = at(v, r, c);
            for step in [-1, 1] {
                let n = c + step;
                if (0..w).contains(&n)
                    && !is_v_open(r, n)
                    && let Some(i) = beside((r - 1, n), (r, n))
                {
                    let shear = 2.0 * nu * (y - at(v, r, n));
                    sum.add(i, (c as f32 + 0.5 + 0.5 * step as f32, r as f32), (0.0, shear));
                }
                let m = r + step;
                if (1..h).contains(&m)
                    && !is_v_open(m, c)
                    && let Some(i) = beside((m - 1, c), (m, c))
                {
                    sum.add(i, (c as f32 + 0.5, m as f32), (0.0, nu * (y - at(v, m, c))));
                }
            }
        }
    }
    sum.forces()
}
