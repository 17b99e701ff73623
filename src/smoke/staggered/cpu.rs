//! CPU reference of the staggered smoke step: one function per compute pass, named after its
//! WGSL file (`shaders/smoke/staggered_*.wgsl`), same arithmetic in the same order.
//!
//! Positions are continuous cell coordinates `(x, y)` = `(col, row)` with cell centres at whole
//! numbers (as [`crate::smoke::cpu::bilinear`] takes them): vertical face `u[(r, c)]` sits at
//! `(c - 1/2, r)`, horizontal face `v[(r, c)]` at `(c, r - 1/2)`. The velocity anywhere is
//! [`velocity_at`]: each component interpolated bilinearly from its own faces (Bridson, *Fluid
//! Simulation for Computer Graphics*, 2nd ed., sect. 2.4 and 3.1).

use super::{FaceRule, u_open, u_rule, v_open, v_rule};
use crate::grid::Grid;
use crate::smoke::cpu::{bilinear, disc_weight, impulse_weight, lerp};
use crate::smoke::{Advection, BOTTOM, Impulse, LEFT, RIGHT, SmokeParams, SmokeState, TOP};

/// The velocity `(x, y)` at continuous cell coordinates `(x, y)`: `u` sampled at
/// `(x + 1/2, y)` of its `(H, W + 1)` grid, `v` at `(x, y + 1/2)` of its `(H + 1, W)` grid
/// (indices clamped to each grid, as [`bilinear`] does). At a cell centre this is the mean of
/// the cell's two faces on each axis.
pub fn velocity_at(u: &Grid<f32>, v: &Grid<f32>, x: f32, y: f32) -> (f32, f32) {
    (bilinear(u, x + 0.5, y), bilinear(v, x, y + 0.5))
}

/// The velocity at node `(r, c)` of a field whose nodes sit at cell coordinates `(c, r) -
/// offset` (`(0.5, 0)` for `u`, `(0, 0.5)` for `v`, `(0, 0)` for cells): [`velocity_at`] there,
/// from only the faces it weighs by more than 0 (it weighs the others by 0, and `x (1 - 0) + y
/// 0` is `x` for finite `y`). At a `u` node, `u` at the node and `v` the mean of the four around
/// it; at a `v` node, the other way round; at a cell, the mean of its two faces on each axis;
/// any other offset, [`velocity_at`] itself. Mirrors `u_node_velocity`, `v_node_velocity` and
/// `cell_velocity` in `shaders/smoke/staggered_sample.wgsl` (4 or 5 texel loads instead of 8).
pub fn node_velocity(u: &Grid<f32>, v: &Grid<f32>, r: usize, c: usize, offset: (f32, f32)) -> (f32, f32) {
    // The mean of four faces of `f`, columns c0, c1 and rows r0, r1, as `bilinear` weighs them.
    let mean4 = |f: &Grid<f32>, (c0, c1): (usize, usize), (r0, r1): (usize, usize)| {
        lerp(lerp(f[(r0, c0)], f[(r0, c1)], 0.5), lerp(f[(r1, c0)], f[(r1, c1)], 0.5), 0.5)
    };
    if offset == U_OFFSET {
        let hi = (v.shape().1 - 1, v.shape().0 - 1);
        (u[(r, c)], mean4(v, (c.saturating_sub(1), c.min(hi.0)), (r, (r + 1).min(hi.1))))
    } else if offset == V_OFFSET {
        let hi = (u.shape().1 - 1, u.shape().0 - 1);
        (mean4(u, (c, (c + 1).min(hi.0)), (r.saturating_sub(1), r.min(hi.1))), v[(r, c)])
    } else if offset == (0.0, 0.0) {
        (lerp(u[(r, c)], u[(r, c + 1)], 0.5), lerp(v[(r, c)], v[(r + 1, c)], 0.5))
    } else {
        velocity_at(u, v, c as f32 - offset.0, r as f32 - offset.1)
    }
}

/// Where a point at `(x, y)` moving at `(vx, vy)` was `dt` ago, clamped to one cell beyond the
/// grid `(W, H)` (the clamp changes no sample, as indices are clamped there anyway, and keeps
/// huge velocities finite).
pub fn back_trace((x, y): (f32, f32), (vx, vy): (f32, f32), dt: f32, (w, h): (usize, usize)) -> (f32, f32) {
    ((x - dt * vx).clamp(-1.0, w as f32), (y - dt * vy).clamp(-1.0, h as f32))
}

/// Where it will be `dt` from now (MacCormack's backward step), clamped as [`back_trace`].
pub fn forward_trace((x, y): (f32, f32), (vx, vy): (f32, f32), dt: f32, (w, h): (usize, usize)) -> (f32, f32) {
    ((x + dt * vx).clamp(-1.0, w as f32), (y + dt * vy).clamp(-1.0, h as f32))
}

/// The smallest and largest of the four values [`bilinear`] interpolates between at `(x, y)`.
pub fn bilinear_bounds(f: &Grid<f32>, x: f32, y: f32) -> (f32, f32) {
    let (h, w) = f.shape();
    let col = |i: f32| (i as i64).clamp(0, w as i64 - 1) as usize;
    let row = |i: f32| (i as i64).clamp(0, h as i64 - 1) as usize;
    let (x0, y0) = (x.floor(), y.floor());
    let (c0, c1, r0, r1) = (col(x0), col(x0 + 1.0), row(y0), row(y0 + 1.0));
    let (a, b, c, d) = (f[(r0, c0)], f[(r0, c1)], f[(r1, c0)], f[(r1, c1)]);
    (a.min(b).min(c.min(d)), a.max(b).max(c.max(d)))
}

/// A field advected along `(u, v)` (the old velocity), one value per node of `f`: the node at
/// `(row, col)` sits at cell coordinates `(col, row) - offset` and is open when `open(row,
/// col)`; closed nodes get 0. `predicted` is the semi-Lagrangian result (pass
/// `staggered_advect_*.wgsl`, undamped); with it, MacCormack's correction (Selle et al. 2008, eq.
/// 7-9, pass `staggered_maccormack_*.wgsl`): `phi^ + (phi - phi_back) / 2`, `phi_back` the
/// prediction sampled where the node goes forward, clamped to the bounds of the four values the
/// prediction interpolated (sect. 3.3). Either times `dissipation`.
struct Transport<'a> {
    u: &'a Grid<f32>,
    v: &'a Grid<f32>,
    dt: f32,
    cells: (usize, usize),
}

impl Transport<'_> {
    /// The semi-Lagrangian value of `f` at node `(r, c)` whose cell coordinates are `(c, r) -
    /// offset`, undamped.
    fn predict(&self, f: &Grid<f32>, r: usize, c: usize, offset: (f32, f32)) -> f32 {
        let at = (c as f32 - offset.0, r as f32 - offset.1);
        let (bx, by) = back_trace(at, node_velocity(self.u, self.v, r, c, offset), self.dt, self.cells);
        bilinear(f, bx + offset.0, by + offset.1)
    }

    /// MacCormack's corrected value at node `(r, c)` from `f` and its prediction `predicted`.
    fn correct(&self, f: &Grid<f32>, predicted: &Grid<f32>, r: usize, c: usize, offset: (f32, f32)) -> f32 {
        let at = (c as f32 - offset.0, r as f32 - offset.1);
        let vel = node_velocity(self.u, self.v, r, c, offset);
        let (bx, by) = back_trace(at, vel, self.dt, self.cells);
        let (fx, fy) = forward_trace(at, vel, self.dt, self.cells);
        let back = bilinear(predicted, fx + offset.0, fy + offset.1);
        let value = predicted[(r, c)] + 0.5 * (f[(r, c)] - back);
        let (lo, hi) = bilinear_bounds(f, bx + offset.0, by + offset.1);
        // WGSL's clamp, min(max(x, lo), hi): no panic on a NaN bound, so a run that blows up
        // reaches the non-finite checks as on the GPU.
        value.max(lo).min(hi)
    }

    /// `f` advected by the scheme, times `dissipation`, where `rule(row, col)` says
    /// [`FaceRule::Advected`]; the others hold their [`FaceRule::Fixed`] value or take `f` at
    /// their [`FaceRule::Copy`] face.
    fn advect(
        &self,
        f: &Grid<f32>,
        offset: (f32, f32),
        rule: impl Fn(usize, usize) -> FaceRule,
        scheme: Advection,
        dissipation: f32,
    ) -> Grid<f32> {
        let (h, w) = f.shape();
        let predicted = Grid::from_fn(w, h, |r, c| match rule(r, c) {
            FaceRule::Advected => self.predict(f, r, c, offset),
            FaceRule::Fixed(v) => v,
            FaceRule::Copy(nr, nc) => f[(nr, nc)],
        });
        match scheme {
            Advection::SemiLagrangian => Grid::from_fn(w, h, |r, c| match rule(r, c) {
                FaceRule::Advected => dissipation * predicted[(r, c)],
                FaceRule::Fixed(v) => v,
                FaceRule::Copy(nr, nc) => f[(nr, nc)],
            }),
            Advection::MacCormack => Grid::from_fn(w, h, |r, c| match rule(r, c) {
                FaceRule::Advected => dissipation * self.correct(f, &predicted, r, c, offset),
                FaceRule::Fixed(v) => v,
                FaceRule::Copy(nr, nc) => f[(nr, nc)],
            }),
        }
    }
}

/// Texel offsets: a `u` node `(r, c)` sits at cell coordinates `(c - 1/2, r)`, a `v` node at
/// `(c, r - 1/2)`, a cell at `(c, r)`.
const U_OFFSET: (f32, f32) = (0.5, 0.0);
const V_OFFSET: (f32, f32) = (0.0, 0.5);

/// Pass `staggered_advect_velocity.wgsl` (and, for MacCormack, `staggered_maccormack_velocity
/// .wgsl`): advection (Stam 1999; GPU Gems 38.2) of each face velocity along the old velocity,
/// each component sampled at its own faces, by [`SmokeParams::advection`]'s scheme, times the
/// velocity dissipation. Closed faces (beside a wall or on a wall edge) get 0, the walls' normal
/// velocity; an inflow edge's faces its speed into the box, an outflow edge's the velocity of
/// the face one cell inside ([`u_rule`], [`v_rule`]).
pub fn advect_velocity(s: &mut SmokeState, p: &SmokeParams) {
    let t = Transport { u: &s.velocity_x, v: &s.velocity_y, dt: p.dt, cells: (s.shape().1, s.shape().0) };
    let diss = p.velocity_dissipation;
    let new_u = t.advect(&s.velocity_x, U_OFFSET, |r, c| u_rule(&s.solid, p, r, c), p.advection, diss);
    let new_v = t.advect(&s.velocity_y, V_OFFSET, |r, c| v_rule(&s.solid, p, r, c), p.advection, diss);
    (s.velocity_x, s.velocity_y) = (new_u, new_v);
}

/// Pass `staggered_advect_scalars.wgsl` (and, for MacCormack, `staggered_maccormack_scalars
/// .wgsl`): advection of temperature, density and the dye's three channels at cell centres
/// along the old face velocity, by [`SmokeParams::advection`]'s scheme, times their
/// dissipations (the dye's is the density's); 0 in solids. The passes trace once a cell for all
/// five (the same trace for each, so this function's field-by-field order gives the same values).
pub fn advect_scalars(s: &mut SmokeState, p: &SmokeParams) {
    let t = Transport { u: &s.velocity_x, v: &s.velocity_y, dt: p.dt, cells: (s.shape().1, s.shape().0) };
    let open = |r: usize, c: usize| if s.solid[(r, c)] == 0 { FaceRule::Advected } else { FaceRule::Fixed(0.0) };
    let temperature = t.advect(&s.temperature, (0.0, 0.0), open, p.advection, p.temperature_dissipation);
    let density = t.advect(&s.density, (0.0, 0.0), open, p.advection, p.density_dissipation);
    let dye = std::array::from_fn(|k| t.advect(&s.dye[k], (0.0, 0.0), open, p.advection, p.density_dissipation));
    (s.temperature, s.density, s.dye) = (temperature, density, dye);
}

/// One Jacobi iteration of the viscous diffusion (pass `staggered_viscosity.wgsl`): for each
/// open face, `x' = (b + k (sum of its open neighbours + sum over ghosts of 2 U)) / (1 + k (4 +
/// n_g))` with `k = nu dt` (cells^2), `b` the velocity before diffusion and `x` the iterate. A
/// neighbour along the face's own axis that is closed holds its stored velocity (a wall's 0, an
/// inflow's or outflow's edge value). A neighbour across it that is closed or beyond a wall or
/// inflow edge is a no-slip wall half a cell away: its ghost value `2 U - x` (Bridson, 2nd ed.,
/// sect. 10.3) moves `x` to the diagonal; `U` is [`SmokeParams::lid`] for the ghost above the
/// top row of `u` faces, the closed face's own velocity inside the box (a body's, or a wall's
/// 0, [`super::bodies`]), else 0. `n_g` counts the ghosts. Beyond an outflow or a slip edge the neighbour
/// is the face itself (zero gradient: no wall there, or one without friction).
pub fn viscosity_iteration(
    (xu, xv): (&Grid<f32>, &Grid<f32>),
    (bu, bv): (&Grid<f32>, &Grid<f32>),
    solid: &Grid<u8>,
    k: f32,
    p: &SmokeParams,
) -> (Grid<f32>, Grid<f32>) {
    let (h, w) = solid.shape();
    // Beyond an outflow or a slip edge the neighbour is the face itself (zero gradient).
    let outflow = |edge: usize| p.edges[edge].zero_gradient();
    let u = Grid::from_fn(w + 1, h, |r, c| {
        if !u_open(solid, r, c) {
            return xu[(r, c)];
        }
        let (mut sum, mut ghosts) = (xu[(r, c - 1)] + xu[(r, c + 1)], 0.0f32);
        for (nr, wall, edge) in [(r as isize - 1, p.lid, TOP), (r as isize + 1, 0.0, BOTTOM)] {
            if nr >= 0 && (nr as usize) < h && u_open(solid, nr as usize, c) {
                sum += xu[(nr as usize, c)];
            } else if (nr < 0 || nr as usize >= h) && outflow(edge) {
                sum += xu[(r, c)];
            } else {
                // The top edge moves at the lid's speed, a closed face inside the box at its
                // own (a body's velocity, a wall's 0), the bottom edge not at all.
                let speed = if nr < 0 {
                    wall
                } else if (nr as usize) < h {
                    xu[(nr as usize, c)]
                } else {
                    0.0
                };
                sum += 2.0 * speed;
                ghosts += 1.0;
            }
        }
        (bu[(r, c)] + k * sum) / (1.0 + k * (4.0 + ghosts))
    });
    let v = Grid::from_fn(w, h + 1, |r, c| {
        if !v_open(solid, r, c) {
            return xv[(r, c)];
        }
        let (mut sum, mut ghosts) = (xv[(r - 1, c)] + xv[(r + 1, c)], 0.0f32);
        for (nc, edge) in [(c as isize - 1, LEFT), (c as isize + 1, RIGHT)] {
            if nc >= 0 && (nc as usize) < w && v_open(solid, r, nc as usize) {
                sum += xv[(r, nc as usize)];
            } else if (nc < 0 || nc as usize >= w) && outflow(edge) {
                sum += xv[(r, c)];
            } else {
                if nc >= 0 && (nc as usize) < w {
                    sum += 2.0 * xv[(r, nc as usize)];
                }
                ghosts += 1.0;
            }
        }
        (bv[(r, c)] + k * sum) / (1.0 + k * (4.0 + ghosts))
    });
    (u, v)
}

/// The viscous diffusion of the face velocities (GPU Gems 38.2: implicit, by Jacobi iteration):
/// [`SmokeParams::viscosity_iterations`] of [`viscosity_iteration`] from the velocity itself,
/// with `nu` [`SmokeParams::viscosity_for`] the grid's width. Nothing when `nu` is 0.
pub fn viscosity(s: &mut SmokeState, p: &SmokeParams) {
    let k = p.viscosity_for(s.shape().1) * p.dt;
    if k == 0.0 {
        return;
    }
    let (bu, bv) = (s.velocity_x.clone(), s.velocity_y.clone());
    for _ in 0..p.viscosity_iterations() {
        let (u, v) = viscosity_iteration((&s.velocity_x, &s.velocity_y), (&bu, &bv), &s.solid, k, p);
        (s.velocity_x, s.velocity_y) = (u, v);
    }
}

/// Pass `staggered_forces.wgsl`, its second half: on every open horizontal face, with `T` and
/// `d` the means of the two cells beside it, `v += dt ((T - T0) sigma - d kappa) up` where
/// `T > T0` (GPU Gems 38.5, as [`crate::smoke::cpu::buoyancy`], at the face).
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

/// Passes `staggered_impulse.wgsl` and `staggered_impulse_dye.wgsl` (the dye, a dispatch of its
/// own to keep each under WebGPU's 4 storage textures, after `staggered_impulse_dye_stash.wgsl`
/// copies what it reads aside): temperature, density and dye move towards the impulse's by the
/// cell weight ([`impulse_weight`]), as [`crate::smoke::cpu::impulse`]; each open face gains
/// its weight ([`face_weight`]) times the impulse velocity's component across it.
pub fn impulse(s: &mut SmokeState, imp: &Impulse) {
    let (h, w) = s.shape();
    // A cell or face of weight 0 keeps its values (`x (1 - 0) + y 0` and `x + 0 y` are `x`):
    // the GPU pass neither reads nor writes it, and the sources' impulse moves no face.
    for r in 0..h {
        for c in 0..w {
            let a = impulse_weight(s, imp, r, c);
            if a == 0.0 {
                continue;
            }
            s.temperature[(r, c)] = lerp(s.temperature[(r, c)], imp.temperature, a);
            s.density[(r, c)] = lerp(s.density[(r, c)], imp.density, a);
            for k in 0..3 {
                s.dye[k][(r, c)] = lerp(s.dye[k][(r, c)], imp.dye[k], a);
            }
        }
    }
    if imp.sources {
        return;
    }
    for r in 0..h {
        for c in 0..=w {
            let a = face_weight(imp, c as f32, r as f32 + 0.5);
            if a != 0.0 && u_open(&s.solid, r, c) {
                s.velocity_x[(r, c)] += a * imp.velocity.0;
            }
        }
    }
    for r in 0..=h {
        for c in 0..w {
            let a = face_weight(imp, c as f32 + 0.5, r as f32);
            if a != 0.0 && v_open(&s.solid, r, c) {
                s.velocity_y[(r, c)] += a * imp.velocity.1;
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

/// Pass `staggered_vorticity.wgsl`: the curl `w = dv/dx - du/dy` at every cell centre (Fedkiw,
/// Stam & Jensen, "Visual Simulation of Smoke", SIGGRAPH 2001, eq. 9), per time unit, by
/// central differences of the cell-centre velocity ([`centres`]' face means) over cells; a
/// solid or outside neighbour reads the cell's own velocity; 0 in solids. `(H, W)`.
pub fn vorticity(u: &Grid<f32>, v: &Grid<f32>, solid: &Grid<u8>) -> Grid<f32> {
    let (h, w) = solid.shape();
    let (cx, cy) = centres(u, v, solid);
    let centre = |r: usize, c: usize| (cx[(r, c)], cy[(r, c)]);
    Grid::from_fn(w, h, |r, c| {
        if solid[(r, c)] != 0 {
            return 0.0;
        }
        let own = centre(r, c);
        let at = |dr: isize, dc: isize| {
            let (nr, nc) = (r as isize + dr, c as isize + dc);
            if crate::solver::open(solid, nr, nc) { centre(nr as usize, nc as usize) } else { own }
        };
        let dv_dx = 0.5 * (at(0, 1).1 - at(0, -1).1);
        let du_dy = 0.5 * (at(1, 0).0 - at(-1, 0).0);
        dv_dx - du_dy
    })
}

/// Vorticity confinement's force at open cell `(r, c)` (Fedkiw, Stam & Jensen 2001, eq. 10-11
/// with `h` = 1 cell): `eps (N_y w, -N_x w)`, `N` the unit vector along `grad |w|` (central
/// differences, a solid or outside neighbour reading the cell's own `|w|`); 0 where that
/// gradient is below 1e-6 per cell. Cells per time unit squared.
pub fn confinement_force(w: &Grid<f32>, solid: &Grid<u8>, eps: f32, r: usize, c: usize) -> (f32, f32) {
    let own = w[(r, c)].abs();
    let at = |dr: isize, dc: isize| {
        let (nr, nc) = (r as isize + dr, c as isize + dc);
        if crate::solver::open(solid, nr, nc) { w[(nr as usize, nc as usize)].abs() } else { own }
    };
    let g = (0.5 * (at(0, 1) - at(0, -1)), 0.5 * (at(1, 0) - at(-1, 0)));
    let length = (g.0 * g.0 + g.1 * g.1).sqrt();
    if length < 1e-6 {
        return (0.0, 0.0);
    }
    let n = (g.0 / length, g.1 / length);
    let curl = w[(r, c)];
    (eps * (n.1 * curl), eps * (-n.0 * curl))
}

/// Passes `staggered_confinement.wgsl` ([`confinement_force`] at every cell) and
/// `staggered_forces.wgsl`, its first half: each open face gains `dt` times the mean of its two
/// cells' [`confinement_force`] component across it, from the [`vorticity`] of the velocity
/// before. Nothing when [`SmokeParams::vorticity`] is 0.
pub fn confinement(s: &mut SmokeState, p: &SmokeParams) {
    if p.vorticity == 0.0 {
        return;
    }
    let w = vorticity(&s.velocity_x, &s.velocity_y, &s.solid);
    let (h, width) = s.shape();
    let force = |r: usize, c: usize| confinement_force(&w, &s.solid, p.vorticity, r, c);
    let mut u = s.velocity_x.clone();
    let mut v = s.velocity_y.clone();
    for r in 0..h {
        for c in 0..=width {
            if u_open(&s.solid, r, c) {
                u[(r, c)] += p.dt * (0.5 * (force(r, c - 1).0 + force(r, c).0));
            }
        }
    }
    for r in 0..=h {
        for c in 0..width {
            if v_open(&s.solid, r, c) {
                v[(r, c)] += p.dt * (0.5 * (force(r - 1, c).1 + force(r, c).1));
            }
        }
    }
    (s.velocity_x, s.velocity_y) = (u, v);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`node_velocity`] is [`velocity_at`] at every node of `u`, `v` and the cells, to the bit,
    /// on the grid's edges too (where `velocity_at` clamps its indices): the passes that trace
    /// from a node read 4 or 5 faces instead of 8 and change no value.
    #[test]
    fn node_velocity_is_velocity_at_the_node() {
        let mut rng = fastrand::Rng::with_seed(7);
        for (w, h) in [(1, 1), (2, 3), (7, 5), (16, 9)] {
            let u = Grid::from_fn(w + 1, h, |_, _| rng.f32() * 4.0 - 2.0);
            let v = Grid::from_fn(w, h + 1, |_, _| rng.f32() * 4.0 - 2.0);
            for (offset, (nw, nh)) in [(U_OFFSET, (w + 1, h)), (V_OFFSET, (w, h + 1)), ((0.0, 0.0), (w, h))] {
                for r in 0..nh {
                    for c in 0..nw {
                        let general = velocity_at(&u, &v, c as f32 - offset.0, r as f32 - offset.1);
                        let node = node_velocity(&u, &v, r, c, offset);
                        assert_eq!(
                            (general.0.to_bits(), general.1.to_bits()),
                            (node.0.to_bits(), node.1.to_bits()),
                            "{w}x{h}, offset {offset:?}, node ({r}, {c})"
                        );
                    }
                }
            }
        }
    }
}
