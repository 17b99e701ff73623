//! CPU reference of the smoke model: one function per compute pass, named after its WGSL file in
//! `shaders/smoke/` and written to be read beside it, same arithmetic in the same order.
//!
//! Sources: GPU Gems ch. 38 (Harris 2004) for the pipeline and equations; P. Rideout, "Simple
//! Fluid Simulation" (2010) for the obstacle rules (solid neighbours in divergence, Jacobi and
//! gradient), the constants and the pass order.
//!
//! Grids are `(H, W)`, row 0 at the top; vectors `(x, y)` with y **down** (up = `-y`). The
//! grid's edge is a wall: a neighbour outside the grid counts as solid.

use super::{Impulse, SmokeParams, SmokeState};
use crate::grid::Grid;

/// True when cell `(r, c)` is solid or outside the grid.
fn wall(solid: &Grid<u8>, r: isize, c: isize) -> bool {
    solid.get(r, c).is_none_or(|&s| s != 0)
}

/// `a (1 - t) + b t`, the interpolation both backends use (`lerp` in `params.wgsl`).
pub fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

/// Bilinear interpolation of `f` at continuous cell coordinates `(x, y)` = `(col, row)` (cell
/// centres at whole numbers), indices clamped to the grid (OpenGL's `CLAMP_TO_EDGE`).
pub fn bilinear(f: &Grid<f32>, x: f32, y: f32) -> f32 {
    let (h, w) = f.shape();
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let col = |i: f32| (i as i64).clamp(0, w as i64 - 1) as usize;
    let row = |i: f32| (i as i64).clamp(0, h as i64 - 1) as usize;
    let (c0, c1, r0, r1) = (col(x0), col(x0 + 1.0), row(y0), row(y0 + 1.0));
    lerp(lerp(f[(r0, c0)], f[(r0, c1)], fx), lerp(f[(r1, c0)], f[(r1, c1)], fx), fy)
}

/// Pass 1 (`advect.wgsl`, which then applies [`buoyancy`] and the sources' [`impulse`] to each
/// cell it advects): semi-Lagrangian advection (GPU Gems 38.2, Stam 1999) of velocity,
/// temperature and density along the *old* velocity: each open cell traces back
/// `(col, row) - dt v` and takes the bilinear value there, times the field's dissipation.
/// Solid cells get 0 (Rideout). The back-trace is clamped to one cell beyond the grid, which
/// changes nothing (indices are clamped there anyway) and keeps huge velocities finite.
///
/// Rideout advects temperature and density with the velocity already advected this step;
/// GPU Gems (and eddy) advect every field with the same old velocity, in one pass.
pub fn advect(s: &mut SmokeState, p: &SmokeParams) {
    let (h, w) = s.shape();
    let mut vx = Grid::filled(w, h, 0.0);
    let mut vy = Grid::filled(w, h, 0.0);
    let mut temperature = Grid::filled(w, h, 0.0);
    let mut density = Grid::filled(w, h, 0.0);
    for r in 0..h {
        for c in 0..w {
            if s.solid[(r, c)] != 0 {
                continue;
            }
            let x = (c as f32 - p.dt * s.velocity_x[(r, c)]).clamp(-1.0, w as f32);
            let y = (r as f32 - p.dt * s.velocity_y[(r, c)]).clamp(-1.0, h as f32);
            vx[(r, c)] = p.velocity_dissipation * bilinear(&s.velocity_x, x, y);
            vy[(r, c)] = p.velocity_dissipation * bilinear(&s.velocity_y, x, y);
            temperature[(r, c)] = p.temperature_dissipation * bilinear(&s.temperature, x, y);
            density[(r, c)] = p.density_dissipation * bilinear(&s.density, x, y);
        }
    }
    (s.velocity_x, s.velocity_y, s.temperature, s.density) = (vx, vy, temperature, density);
}

/// Pass 1, after [`advect`] (`buoyancy.wgsl`, applied by `advect.wgsl`): where `T > T0` in an open cell,
/// `v += dt ((T - T0) sigma - density kappa) up` with up = `(0, -1)` (GPU Gems 38.5,
/// Rideout's `ApplyBuoyancy`). Rideout multiplies only the temperature term by `dt`; eddy
/// follows GPU Gems and scales the whole force. Joyce's shader pushes along `(1, 1)`; eddy
/// pushes straight up.
pub fn buoyancy(s: &mut SmokeState, p: &SmokeParams) {
    for i in 0..s.density.as_slice().len() {
        let t = s.temperature.as_slice()[i];
        if s.solid.as_slice()[i] == 0 && t > p.ambient_temperature {
            let d = s.density.as_slice()[i];
            s.velocity_y.as_mut_slice()[i] -= p.dt * ((t - p.ambient_temperature) * p.buoyancy - d * p.weight);
        }
    }
}

/// The weight `a` an impulse gives cell `(r, c)` (0 = untouched): 1 on a source cell for a
/// sources impulse; Rideout's `Splat` soft disc `min((radius - d) / 2, 1)` inside the disc
/// otherwise; 0 in solids.
pub fn impulse_weight(s: &SmokeState, imp: &Impulse, r: usize, c: usize) -> f32 {
    if s.solid[(r, c)] != 0 {
        return 0.0;
    }
    if imp.sources {
        return if s.source[(r, c)] != 0 { 1.0 } else { 0.0 };
    }
    disc_weight(imp, c as f32 + 0.5, r as f32 + 0.5)
}

/// Rideout's soft disc of a splat at `(x, y)` (cell `(r, c)`'s centre is `(c + 0.5, r + 0.5)`):
/// `min((radius - d) / 2, 1)` inside the disc, 0 outside (`disc` in `shaders/smoke/splat.wgsl`).
pub fn disc_weight(imp: &Impulse, x: f32, y: f32) -> f32 {
    let (dx, dy) = (x - imp.center.0, y - imp.center.1);
    let d = (dx * dx + dy * dy).sqrt();
    if d < imp.radius { ((imp.radius - d) * 0.5).min(1.0) } else { 0.0 }
}

/// Pass 1, after [`buoyancy`], with [`Impulse::sources`] (`splat.wgsl`'s `apply_impulse`,
/// applied by `advect.wgsl`), and the splats' pass (`impulse.wgsl`): temperature and density
/// move towards the impulse's values by the weight `a` ([`impulse_weight`]), `x (1 - a) + value
/// a` (Rideout blends his splat the same way), and the velocity gains `a * impulse.velocity`.
pub fn impulse(s: &mut SmokeState, imp: &Impulse) {
    let (h, w) = s.shape();
    for r in 0..h {
        for c in 0..w {
            let a = impulse_weight(s, imp, r, c);
            s.temperature[(r, c)] = lerp(s.temperature[(r, c)], imp.temperature, a);
            s.density[(r, c)] = lerp(s.density[(r, c)], imp.density, a);
            s.velocity_x[(r, c)] += a * imp.velocity.0;
            s.velocity_y[(r, c)] += a * imp.velocity.1;
        }
    }
}

/// The divergence of `(vx, vy)`: `0.5 / h ((vR.x - vL.x) + (vD.y - vU.y))` with central
/// differences (GPU Gems 38.2-38.3, Rideout's `ComputeDivergence`), a solid or outside
/// neighbour's velocity counting as the obstacle's, 0; 0 in solid cells.
pub fn divergence_of(vx: &Grid<f32>, vy: &Grid<f32>, solid: &Grid<u8>, p: &SmokeParams) -> Grid<f32> {
    let (h, w) = vx.shape();
    let k = p.half_inverse_cell_size();
    Grid::from_fn(w, h, |r, c| {
        let (ri, ci) = (r as isize, c as isize);
        if solid[(r, c)] != 0 {
            return 0.0;
        }
        let at = |g: &Grid<f32>, dr: isize, dc: isize| {
            if wall(solid, ri + dr, ci + dc) { 0.0 } else { g[((ri + dr) as usize, (ci + dc) as usize)] }
        };
        let (left, right) = (at(vx, 0, -1), at(vx, 0, 1));
        let (up, down) = (at(vy, -1, 0), at(vy, 1, 0));
        k * ((right - left) + (down - up))
    })
}

/// Pass 2 (`divergence.wgsl`): the divergence of the velocity ([`divergence_of`]) into
/// `s.divergence`, and, unless [`SmokeParams::warm_start`], the pressure cleared to 0 for the
/// Jacobi iterations (Rideout's `ClearSurface`; the GPU pass writes both).
pub fn divergence(s: &mut SmokeState, p: &SmokeParams) {
    s.divergence = divergence_of(&s.velocity_x, &s.velocity_y, &s.solid, p);
    if !p.warm_start {
        s.pressure.as_mut_slice().fill(0.0);
    }
}

/// Pass 3 (the solver's Jacobi kernels, `shaders/solver/jacobi_*.wgsl`), one iteration: `p = (pL + pR + pD + pU + alpha div) / 4` with
/// `alpha = -cell_size^2` (GPU Gems 38.2-38.3: Jacobi iteration of the Poisson
/// pressure equation; Rideout's `Jacobi`); a solid or outside neighbour takes the centre's pressure (pure Neumann,
/// Rideout); 0 in solid cells.
pub fn jacobi(s: &mut SmokeState, p: &SmokeParams) {
    let (h, w) = s.shape();
    let alpha = p.alpha();
    let old = &s.pressure;
    let new = Grid::from_fn(w, h, |r, c| {
        if s.solid[(r, c)] != 0 {
            return 0.0;
        }
        let (ri, ci) = (r as isize, c as isize);
        let centre = old[(r, c)];
        let at = |dr: isize, dc: isize| {
            if wall(&s.solid, ri + dr, ci + dc) { centre } else { old[((ri + dr) as usize, (ci + dc) as usize)] }
        };
        (at(0, -1) + at(0, 1) + at(1, 0) + at(-1, 0) + alpha * s.divergence[(r, c)]) * 0.25
    });
    s.pressure = new;
}

/// Pass 4 (`gradient.wgsl`): subtract the pressure gradient,
/// `v -= gradient_scale / cell_size (pR - pL, pD - pU)` (GPU Gems 38.2, Helmholtz-Hodge
/// projection, with Rideout's `GradientScale`), a solid or outside neighbour taking the centre's pressure; then
/// free slip: the x component is zeroed next to a solid on the left or right, the y component
/// next to one above or below (Rideout's `vMask`). Solid cells get velocity 0.
pub fn gradient(s: &mut SmokeState, p: &SmokeParams) {
    let (h, w) = s.shape();
    let k = p.gradient_factor();
    for r in 0..h {
        for c in 0..w {
            if s.solid[(r, c)] != 0 {
                s.velocity_x[(r, c)] = 0.0;
                s.velocity_y[(r, c)] = 0.0;
                continue;
            }
            let (ri, ci) = (r as isize, c as isize);
            let centre = s.pressure[(r, c)];
            let at = |dr: isize, dc: isize| {
                if wall(&s.solid, ri + dr, ci + dc) {
                    centre
                } else {
                    s.pressure[((ri + dr) as usize, (ci + dc) as usize)]
                }
            };
            let mask_x = if wall(&s.solid, ri, ci - 1) || wall(&s.solid, ri, ci + 1) { 0.0 } else { 1.0 };
            let mask_y = if wall(&s.solid, ri - 1, ci) || wall(&s.solid, ri + 1, ci) { 0.0 } else { 1.0 };
            let (gx, gy) = ((at(0, 1) - at(0, -1)) * k, (at(1, 0) - at(-1, 0)) * k);
            s.velocity_x[(r, c)] = (s.velocity_x[(r, c)] - gx) * mask_x;
            s.velocity_y[(r, c)] = (s.velocity_y[(r, c)] - gy) * mask_y;
        }
    }
}

/// The pressure projection: [`divergence`], then `p.jacobi_iterations` x [`jacobi`], then
/// [`gradient`] (GPU Gems 38.2-38.3).
pub fn project(s: &mut SmokeState, p: &SmokeParams) {
    divergence(s, p);
    for _ in 0..p.jacobi_iterations {
        jacobi(s, p);
    }
    gradient(s, p);
}

/// One step: [`advect`], [`buoyancy`], [`impulse`] of the scene's sources, [`project`].
pub fn step(s: &mut SmokeState, p: &SmokeParams) {
    advect(s, p);
    buoyancy(s, p);
    impulse(s, &Impulse::sources(p));
    project(s, p);
}
