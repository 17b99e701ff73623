//! CPU reference of the gas model: one function per compute pass, read beside
//! `shaders/gas/{faces,limit,apply}.wgsl`.
//!
//! Source: the "two cells of unit area" description of a cellular fluid with momentum,
//! dtosoftware, "Fluid dynamics part 2" (2012, dtosoftware.wordpress.com). Units are cells and steps: density per cell, momentum = density x
//! cells/step. Vectors are `(x, y)` with x towards increasing column (right) and y towards
//! increasing row (down).
//!
//! Each cell owns the faces to its forward neighbours ([`FORWARD`]: east, south, and with
//! 8-way flow south-east and south-west); the other four faces of a cell are owned by its
//! backward neighbours. A step is three passes over the old state:
//! 1. [`faces`]: every owned face's mass flow `F` and momentum flow `P`, from cell `a` (owner)
//!    to cell `b` (neighbour): `F = dot(m_f, d) + D (rho_a - rho_b)`; `P` has `F^2 / rho_f`
//!    along `d` and `dot(m_f, perp) F / rho_f + friction dot(m_a - m_b, perp)` along `perp`,
//!    with `rho_f`, `m_f` the means of the two cells (face-midpoint values). eddy adds an
//!    isothermal pressure `pressure * rho_f` along `d` (the source has none; `pressure = 0`
//!    is its model exactly), and walls push back with the pressure of the cell beside them.
//! 2. [`limit`]: a cell that would send out more mass than it holds gets a factor `< 1` that
//!    scales every face it is the source of, so no density goes negative.
//! 3. [`apply`]: the source of each face loses what the destination gains (mass and momentum
//!    conserved up to rounding); then reflection at walls, damping, drain, sources.

use super::{GasParams, GasState, Neighbours};
use crate::grid::Grid;

/// Offsets `(dcol, drow)` of the faces a cell owns: E, S, SE, SW. 4-way flow uses the first two.
pub const FORWARD: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// Below this face density no momentum is carried (avoids dividing by ~0 in vacuum).
pub const RHO_EPSILON: f32 = 1e-6;

/// Largest speed `|m| / rho` a cell keeps after a step (cells/step): the CFL limit of this
/// explicit scheme. The mass limiter bounds what leaves a cell but not its momentum, so without
/// a cap a cell emptied of mass keeps its momentum and its velocity `m / rho` grows without
/// bound. Acts only where the flow is this fast; momentum is conserved elsewhere.
pub const MAX_SPEED: f32 = 0.5;

/// The limiter leaves this share of a cell's density unsent, so rounding cannot make it
/// negative.
pub const LIMIT_SAFETY: f32 = 0.999_99;

/// Flows across one face, from its owner to its neighbour: mass `f`, momentum `p = (x, y)`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Flux {
    /// Mass flow (density units per step), positive from owner to neighbour.
    pub f: f32,
    /// Momentum flow, owner to neighbour.
    pub p: (f32, f32),
}

/// The faces of every cell, `(H, W)` of `[Flux; 4]` in [`FORWARD`] order.
pub type Faces = Grid<[Flux; 4]>;

/// Unit vector of face `k` (diagonals scaled by exactly `1/sqrt(2)`, as in `params.wgsl`).
pub fn unit(k: usize) -> (f32, f32) {
    let (dx, dy) = FORWARD[k];
    let n = if k < 2 { 1.0 } else { std::f32::consts::FRAC_1_SQRT_2 };
    (dx as f32 * n, dy as f32 * n)
}

/// Weight of every face's flux: 1 with 4-way flow; 1/2 with 8-way, so that the eight faces
/// together move what four do (sum of `d d^T` over the faces is `2 I` either way) and the
/// stable time step is the same. With weight 1 the 8-way scheme outruns its own stability.
pub fn face_weight(n: Neighbours) -> f32 {
    match n {
        Neighbours::Four => 1.0,
        Neighbours::Eight => 0.5,
    }
}

/// Number of faces in use.
pub fn face_count(n: Neighbours) -> usize {
    match n {
        Neighbours::Four => 2,
        Neighbours::Eight => 4,
    }
}

/// The flux across the face from cell `a` to cell `b` (unit direction `d`): the formulas of the
/// source's "two cells of unit area", face values = means of the two cells.
pub fn face_flux(a: (f32, f32, f32), b: (f32, f32, f32), d: (f32, f32), p: &GasParams) -> Flux {
    let (ra, ax, ay) = a;
    let (rb, bx, by) = b;
    let rho_f = 0.5 * (ra + rb);
    let (mx, my) = (0.5 * (ax + bx), 0.5 * (ay + by));
    let perp = (-d.1, d.0);
    let f = (mx * d.0 + my * d.1) + p.diffusion * (ra - rb);
    let (mut along, mut across) = (0.0, 0.0);
    if rho_f > RHO_EPSILON {
        along = f * f / rho_f;
        across = (mx * perp.0 + my * perp.1) * f / rho_f;
    }
    along += p.pressure * rho_f; // eddy's extension: isothermal pressure c^2 rho (0 = the source's model)
    across += p.friction * ((ax - bx) * perp.0 + (ay - by) * perp.1);
    // The particles that cross by diffusion carry their cell's momentum: D (m_a - m_b).
    Flux {
        f,
        p: (
            along * d.0 + across * perp.0 + p.diffusion * (ax - bx),
            along * d.1 + across * perp.1 + p.diffusion * (ay - by),
        ),
    }
}

fn open(s: &GasState, r: isize, c: isize) -> bool {
    s.solid.get(r, c).is_some_and(|&v| v == 0)
}

fn cell(s: &GasState, r: isize, c: isize) -> (f32, f32, f32) {
    let at = (r as usize, c as usize);
    (s.density[at], s.momentum_x[at], s.momentum_y[at])
}

/// Pass 1 (`faces.wgsl`): the flux across every face each cell owns; zero where either cell
/// is a wall or the neighbour is outside the grid (the grid edge is a wall).
pub fn faces(s: &GasState, p: &GasParams) -> Faces {
    let (h, w) = s.density.shape();
    Grid::from_fn(w, h, |r, c| {
        let (r, c) = (r as isize, c as isize);
        let mut out = [Flux::default(); 4];
        if !open(s, r, c) {
            return out;
        }
        for (k, face) in out.iter_mut().enumerate().take(face_count(p.neighbours)) {
            let (dc, dr) = FORWARD[k];
            if open(s, r + dr, c + dc) {
                let flux = face_flux(cell(s, r, c), cell(s, r + dr, c + dc), unit(k), p);
                let w = face_weight(p.neighbours);
                *face = Flux { f: w * flux.f, p: (w * flux.p.0, w * flux.p.1) };
            }
        }
        out
    })
}

/// Pass 2 (`limit.wgsl`): per cell, the factor (<= 1) that scales every face it sends mass
/// through, so that it never sends more than it has: `rho / out * LIMIT_SAFETY` when the total
/// outflow `out` exceeds `rho`, else 1.
pub fn limit(s: &GasState, faces: &Faces, p: &GasParams) -> Grid<f32> {
    let (h, w) = s.density.shape();
    let n = face_count(p.neighbours);
    Grid::from_fn(w, h, |r, c| {
        let mut out = 0.0f32;
        for k in 0..n {
            out += faces[(r, c)][k].f.max(0.0); // owned faces: positive = leaving
        }
        for k in 0..n {
            let (dc, dr) = FORWARD[k];
            if let Some(face) = faces.get(r as isize - dr, c as isize - dc) {
                out += (-face[k].f).max(0.0); // faces owned by the backward neighbour
            }
        }
        let rho = s.density[(r, c)];
        if out > rho { rho / out * LIMIT_SAFETY } else { 1.0 }
    })
}

/// Pass 3 (`apply.wgsl`): moves each face's (limited) flux from source to destination, then
/// reflects momentum pointing into an edge-adjacent wall, damps momentum, drains density
/// towards the ambient 1, caps the speed at [`MAX_SPEED`], and resets source cells to ambient
/// density moving at `wind`.
pub fn apply(s: &mut GasState, faces: &Faces, factor: &Grid<f32>, p: &GasParams) {
    let (h, w) = s.density.shape();
    let n = face_count(p.neighbours);
    // Each cell reads only its own old values (before writing them) and the masks, which
    // this pass never changes, so it can update `s` in place.
    // The limiter factor of whichever cell a face's mass leaves.
    let scale = |f: f32, owner: (usize, usize), other: (isize, isize)| -> f32 {
        if f >= 0.0 { factor[owner] } else { factor[(other.0 as usize, other.1 as usize)] }
    };
    for r in 0..h {
        for c in 0..w {
            if s.solid[(r, c)] != 0 {
                continue;
            }
            let (mut rho, mut mx, mut my) = cell(s, r as isize, c as isize);
            for k in 0..n {
                let face = faces[(r, c)][k];
                let (dc, dr) = FORWARD[k];
                let t = scale(face.f, (r, c), (r as isize + dr, c as isize + dc));
                rho -= t * face.f;
                mx -= t * face.p.0;
                my -= t * face.p.1;
            }
            for k in 0..n {
                let (dc, dr) = FORWARD[k];
                let (br, bc) = (r as isize - dr, c as isize - dc);
                if let Some(face) = faces.get(br, bc) {
                    let face = face[k];
                    let t = scale(face.f, (br as usize, bc as usize), (r as isize, c as isize));
                    rho += t * face.f;
                    mx += t * face.p.0;
                    my += t * face.p.1;
                }
            }
            // Walls push back: the pressure a blocked face would have carried (eddy's pressure
            // extension), so that gas at rest beside a wall stays at rest.
            let push = face_weight(p.neighbours) * p.pressure * s.density[(r, c)];
            for (k, &(dc, dr)) in FORWARD.iter().enumerate().take(n) {
                let d = unit(k);
                for sign in [1.0f32, -1.0] {
                    let (nr, nc) = (r as isize + dr * sign as isize, c as isize + dc * sign as isize);
                    if !open(s, nr, nc) {
                        mx -= push * d.0 * sign;
                        my -= push * d.1 * sign;
                    }
                }
            }
            // Walls: the momentum component into an edge-adjacent wall bounces off.
            for (dc, dr) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                if !open(s, r as isize + dr, c as isize + dc) {
                    let into = mx * dc as f32 + my * dr as f32;
                    if into > 0.0 {
                        mx -= 2.0 * into * dc as f32;
                        my -= 2.0 * into * dr as f32;
                    }
                }
            }
            mx *= p.damping;
            my *= p.damping;
            rho = rho * p.drain + (1.0 - p.drain) * super::AMBIENT_DENSITY;
            let (speed2, cap) = (mx * mx + my * my, MAX_SPEED * rho);
            if speed2 > cap * cap {
                let k = cap / speed2.sqrt();
                mx *= k;
                my *= k;
            }
            if s.source[(r, c)] != 0 {
                rho = super::AMBIENT_DENSITY;
                mx = super::AMBIENT_DENSITY * p.wind.0;
                my = super::AMBIENT_DENSITY * p.wind.1;
            }
            // The limiter keeps rho >= 0 up to rounding; the last ulp (e.g. -1e-45) is clamped.
            s.density[(r, c)] = rho.max(0.0);
            s.momentum_x[(r, c)] = mx;
            s.momentum_y[(r, c)] = my;
        }
    }
}

/// One whole step: [`faces`], [`limit`], [`apply`].
pub fn step(s: &mut GasState, p: &GasParams) {
    let f = faces(s, p);
    let k = limit(s, &f, p);
    apply(s, &f, &k, p);
}

/// The brush (`shaders/gas/brush.wgsl`): inside the disc, an open cell gets
/// `density = max(density * scale + add, 0)`, and momentum `momentum * scale + add * (velocity +
/// radial * (cell - center) / radius)`: a push along a drag, or an outward blast. Every solid
/// cell is emptied.
pub fn brush(s: &mut GasState, b: &super::GasBrush) {
    let (h, w) = s.density.shape();
    for r in 0..h {
        for c in 0..w {
            let at = (r, c);
            let (dx, dy) = (c as f32 + 0.5 - b.center.0, r as f32 + 0.5 - b.center.1);
            if s.solid[at] != 0 {
                (s.density[at], s.momentum_x[at], s.momentum_y[at]) = (0.0, 0.0, 0.0);
                continue;
            }
            if dx * dx + dy * dy > b.radius * b.radius {
                continue;
            }
            let (ux, uy) = (b.velocity.0 + b.radial * dx / b.radius, b.velocity.1 + b.radial * dy / b.radius);
            s.density[at] = (s.density[at] * b.scale + b.add).max(0.0);
            s.momentum_x[at] = s.momentum_x[at] * b.scale + b.add * ux;
            s.momentum_y[at] = s.momentum_y[at] * b.scale + b.add * uy;
        }
    }
}
