//! The staggered (MAC) grid: the smoke model's default layout ([`super::GridLayout`]). This
//! module holds the projection and the step, [`cpu`] the other passes' CPU mirrors, `gpu` the
//! passes on the GPU.
//!
//! Harlow & Welch (1965); Bridson, "Fluid Simulation for Computer Graphics" (2nd ed. 2015),
//! ch. 2 and 5. Velocity lives on cell faces: `u` on the vertical faces, `(H, W + 1)` (face
//! `(r, c)` is the left face of cell `(r, c)`), `v` on the horizontal faces, `(H + 1, W)` (face
//! `(r, c)` is the top face of cell `(r, c)`; y towards increasing row, down). A face is open
//! when both cells beside it are open; the others (walls, the grid's edge) keep the wall's
//! velocity (0 here). Units: cells, time units; `h` the cell size.
//!
//! With one-sided face differences, divergence `div = (u_right - u_left + v_bottom - v_top) / h`
//! and the gradient subtraction `u -= (p_b - p_a) / h` on each open face make
//! `div(after) = div(before) - A p / h^2`, where `A p` is the sum over open neighbours of
//! `p_n - p` ([`crate::solver::Poisson`]). So solving `A p = h^2 div` *is* the projection: a
//! converged solve leaves no divergence, and every Jacobi iteration leaves less (the Jacobi
//! residual's L2 norm never grows: its iteration matrix `I + A / 4` is symmetric with
//! eigenvalues in [-1, 1]).
//!
//! Measured (`tests/staggered_projection.rs`, random velocities, 12% random walls): multigrid to
//! a relative residual of 1e-6 leaves 9e-7 to 1e-6 of the divergence (19-21 V-cycles: isolated
//! pockets of open cells slow the coarse levels); Jacobi leaves 0.9%, 0.2% and 0.03% after 50,
//! 200 and 2000 iterations on 64 x 64.

pub mod bodies;
pub mod cpu;
mod gpu;

pub use gpu::StaggeredPass;
pub(in crate::smoke) use gpu::StepContext;
pub(crate) use gpu::{Shared, StaggeredFields, StaggeredPasses};

use super::{SmokeParams, SmokeState, Solver};
use crate::grid::Grid;
use crate::solver::multigrid::{Multigrid, Report};
use crate::solver::{AT_CENTRES, DirichletEdges, Poisson, jacobi, neighbour_pressure, open, open_neighbour};

/// Whether vertical face `(r, c)` (between cells `(r, c - 1)` and `(r, c)`) is open.
pub fn u_open(solid: &Grid<u8>, r: usize, c: usize) -> bool {
    open(solid, r as isize, c as isize - 1) && open(solid, r as isize, c as isize)
}

/// Whether horizontal face `(r, c)` (between cells `(r - 1, c)` and `(r, c)`) is open.
pub fn v_open(solid: &Grid<u8>, r: usize, c: usize) -> bool {
    open(solid, r as isize - 1, c as isize) && open(solid, r as isize, c as isize)
}

/// What the advection does with a face ([`u_rule`], [`v_rule`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FaceRule {
    /// Traced back along the flow and sampled (open faces).
    Advected,
    /// Holds this velocity (walls' 0, an inflow edge's speed into the box).
    Fixed(f32),
    /// Takes the velocity the face `(row, col)` had before the advection: on an outflow edge the
    /// face one cell inside (zero gradient across it, so what reaches the edge leaves); for a
    /// closed face beside a body the face itself (it keeps the body's velocity).
    Copy(usize, usize),
}

/// The rule of a face on edge `edge` ([`super::LEFT`] ...) beside a cell that is open or not:
/// a wall's 0, an inflow's speed into the box ([`SmokeParams::inflow_at`] face `along` of the
/// edge's `(index, count)`; `sign` the edge's inward direction along the face's axis; with a
/// custom profile the face `own` keeps its own), an outflow's copy of the face `next` one cell
/// inside.
fn edge_rule(
    p: &SmokeParams,
    edge: usize,
    inner_open: bool,
    sign: f32,
    (own, next): ((usize, usize), (usize, usize)),
    along: (usize, usize),
) -> FaceRule {
    match (inner_open, p.edges[edge]) {
        (false, _) | (_, super::EdgeKind::Wall | super::EdgeKind::Slip) => FaceRule::Fixed(0.0),
        (true, super::EdgeKind::Inflow) if p.inflow_profile == super::InflowProfile::Custom => {
            FaceRule::Copy(own.0, own.1)
        }
        (true, super::EdgeKind::Inflow) => FaceRule::Fixed(sign * p.inflow_at(along.0, along.1)),
        (true, super::EdgeKind::Outflow) => FaceRule::Copy(next.0, next.1),
    }
}

/// Face `i` of edge `edge` ([`super::LEFT`] ...) of a `(H, W)` grid, from the edge's top or left
/// end: whether it is a `u` face (else `v`), its `(row, col)` there, and the edge's inward
/// direction along the face's axis.
fn edge_face((h, w): (usize, usize), edge: usize, i: usize) -> (bool, (usize, usize), f32) {
    match edge {
        super::LEFT => (true, (i, 0), 1.0),
        super::RIGHT => (true, (i, w), -1.0),
        super::TOP => (false, (0, i), 1.0),
        _ => (false, (h, i), -1.0),
    }
}

/// The speeds into the box that edge `edge`'s faces hold in `s`, one a face from the edge's top
/// or left end, cells per time unit: what [`set_inflow_profile`] gave them.
pub fn inflow_speeds(s: &SmokeState, edge: usize) -> Vec<f32> {
    let (h, w) = s.shape();
    let count = if edge < super::TOP { h } else { w };
    (0..count)
        .map(|i| {
            let (is_u, at, sign) = edge_face((h, w), edge, i);
            sign * if is_u { s.velocity_x[at] } else { s.velocity_y[at] }
        })
        .collect()
}

/// Gives inflow edge `edge` ([`super::LEFT`] ...) of `s` the speeds into the box `speeds`, one a
/// face from the edge's top or left end (`H` for the left and right edges, `W` for the top and
/// bottom), cells per time unit: its faces hold them (the right and bottom edges' negated, as
/// their inward direction is). With [`super::InflowProfile::Custom`] the faces keep them; the
/// other profiles' rules overwrite them at the next step.
///
/// # Errors
/// A message when `speeds` is not one a face, or holds a value that is not finite or outside 0
/// to 100 (the inflow's range); nothing changes.
pub fn set_inflow_profile(s: &mut SmokeState, edge: usize, speeds: &[f32]) -> Result<(), String> {
    let (h, w) = s.shape();
    let count = if edge < super::TOP { h } else { w };
    let name = crate::edge::EDGE_NAMES[edge];
    if speeds.len() != count {
        return Err(format!(
            "the {name} edge has {count} faces and {} speeds were given: give one a face, from its {} end",
            speeds.len(),
            if edge < super::TOP { "top" } else { "left" }
        ));
    }
    if let Some(bad) = speeds.iter().find(|v| !(0.0..=100.0).contains(*v)) {
        return Err(format!(
            "an inflow speed of {bad} on the {name} edge: speeds into the box are 0 to 100 cells/time unit"
        ));
    }
    for (i, &speed) in speeds.iter().enumerate() {
        let (is_u, at, sign) = edge_face((h, w), edge, i);
        let faces = if is_u { &mut s.velocity_x } else { &mut s.velocity_y };
        faces[at] = sign * speed;
    }
    Ok(())
}

/// The advection's rule for vertical face `(r, c)` of `(H, W + 1)`: inside the box, advected when
/// open ([`u_open`]), else kept when beside a body's cell (it holds the body's velocity there,
/// [`bodies::rasterise`]), else the wall's 0; on the left and right edges, as the edge is
/// ([`SmokeParams::edges`]: wall 0, inflow `+-`[`SmokeParams::inflow_at`] into the box, outflow
/// the face inside).
pub fn u_rule(solid: &Grid<u8>, p: &SmokeParams, r: usize, c: usize) -> FaceRule {
    let (h, w) = solid.shape();
    if c == 0 {
        edge_rule(p, super::LEFT, solid[(r, 0)] == 0, 1.0, ((r, 0), (r, 1)), (r, h))
    } else if c == w {
        edge_rule(p, super::RIGHT, solid[(r, w - 1)] == 0, -1.0, ((r, w), (r, w - 1)), (r, h))
    } else if u_open(solid, r, c) {
        FaceRule::Advected
    } else if bodies::is_body(solid[(r, c - 1)]) || bodies::is_body(solid[(r, c)]) {
        FaceRule::Copy(r, c)
    } else {
        FaceRule::Fixed(0.0)
    }
}

/// [`u_rule`] for horizontal face `(r, c)` of `(H + 1, W)`, on the top and bottom edges.
pub fn v_rule(solid: &Grid<u8>, p: &SmokeParams, r: usize, c: usize) -> FaceRule {
    let (h, w) = solid.shape();
    if r == 0 {
        edge_rule(p, super::TOP, solid[(0, c)] == 0, 1.0, ((0, c), (1, c)), (c, w))
    } else if r == h {
        edge_rule(p, super::BOTTOM, solid[(h - 1, c)] == 0, -1.0, ((h, c), (h - 1, c)), (c, w))
    } else if v_open(solid, r, c) {
        FaceRule::Advected
    } else if bodies::is_body(solid[(r - 1, c)]) || bodies::is_body(solid[(r, c)]) {
        FaceRule::Copy(r, c)
    } else {
        FaceRule::Fixed(0.0)
    }
}

/// Sets the faces on the grid's edges to what their edge holds ([`u_rule`], [`v_rule`]: a wall's
/// or slip edge's 0, an inflow's speed into the box) and leaves an outflow's as they are: what a
/// run starts with, whether its state is new or saved (a state file's faces are checked without
/// the edges, [`SmokeState::validated`], so an outflow's keep the velocity they left with and a
/// loaded run goes on as the saved one would have).
pub fn hold_edges(s: &mut SmokeState, p: &SmokeParams) {
    let (h, w) = s.shape();
    for r in 0..h {
        for c in [0, w] {
            if let FaceRule::Fixed(x) = u_rule(&s.solid, p, r, c) {
                s.velocity_x[(r, c)] = x;
            }
        }
    }
    for r in [0, h] {
        for c in 0..w {
            if let FaceRule::Fixed(x) = v_rule(&s.solid, p, r, c) {
                s.velocity_y[(r, c)] = x;
            }
        }
    }
}

/// Divergence per cell, `(H, W)`: `(u[r][c+1] - u[r][c] + v[r+1][c] - v[r][c]) / h` for faces
/// `u` `(H, W + 1)` and `v` `(H + 1, W)`; 0 in walls.
pub fn divergence(u: &Grid<f32>, v: &Grid<f32>, solid: &Grid<u8>, h: f32) -> Grid<f32> {
    let (rows, cols) = solid.shape();
    Grid::from_fn(cols, rows, |r, c| {
        if solid[(r, c)] != 0 { 0.0 } else { (u[(r, c + 1)] - u[(r, c)] + v[(r + 1, c)] - v[(r, c)]) / h }
    })
}

/// Subtracts the pressure gradient on every face between two cells the solve holds (open
/// cells, and the cells beyond the `dirichlet` edges, at pressure 0: [`open_neighbour`]):
/// `u -= (p_right - p_left) / h`, `v -= (p_below - p_above) / h`, `u` `(H, W + 1)`, `v`
/// `(H + 1, W)`, `p` and `solid` `(H, W)`. So an outflow edge's faces beside open cells are
/// driven by the pressure inside; the other closed faces keep their (wall, inflow) velocity.
pub fn subtract_gradient(
    u: &mut Grid<f32>,
    v: &mut Grid<f32>,
    p: &Grid<f32>,
    solid: &Grid<u8>,
    dirichlet: &DirichletEdges,
    h: f32,
) {
    let (rows, cols) = solid.shape();
    let held = |r: isize, c: isize| open_neighbour(solid, dirichlet, r, c);
    let at = |r: isize, c: isize| neighbour_pressure(p, r, c, 0.0, &AT_CENTRES);
    for r in 0..rows as isize {
        for c in 0..=cols as isize {
            if held(r, c - 1) && held(r, c) {
                u[(r as usize, c as usize)] -= (at(r, c) - at(r, c - 1)) / h;
            }
        }
    }
    for r in 0..=rows as isize {
        for c in 0..cols as isize {
            if held(r - 1, c) && held(r, c) {
                v[(r as usize, c as usize)] -= (at(r, c) - at(r - 1, c)) / h;
            }
        }
    }
}

/// The projection's right-hand side `h^2 div` (see the module docs), `(H, W)`.
pub fn poisson_rhs(u: &Grid<f32>, v: &Grid<f32>, solid: &Grid<u8>, h: f32) -> Grid<f32> {
    divergence(u, v, solid, h).map(|d| d * h * h)
}

/// The pressure projection (pass `staggered_divergence.wgsl`, the solve, pass
/// `staggered_gradient.wgsl`): `s.divergence` gets the divergence before it; the pressure
/// starts from the last step's ([`SmokeParams::warm_start`]) or 0, then
/// [`SmokeParams::jacobi_iterations`] Jacobi iterations ([`jacobi`]) or, with `multigrid`,
/// V-cycles to [`SmokeParams::tolerance`], the pressure held at 0 beyond the outflow edges
/// ([`SmokeParams::dirichlet`]); then the gradient is subtracted ([`subtract_gradient`]).
/// Returns the multigrid's report.
///
/// # Panics
/// When `p.solver` is multigrid and `multigrid` is `None`, or its edges held at 0 are not
/// `p`'s.
pub fn project(s: &mut SmokeState, p: &SmokeParams, multigrid: Option<&Multigrid>) -> Option<Report> {
    let h = p.cell_size;
    let dirichlet = p.dirichlet();
    s.divergence = divergence(&s.velocity_x, &s.velocity_y, &s.solid, h);
    if !p.warm_start {
        s.pressure.as_mut_slice().fill(0.0);
    }
    let rhs = s.divergence.map(|d| d * h * h);
    let report = match p.solver {
        Solver::Jacobi => {
            let problem = Poisson { solid: s.solid.clone(), rhs, dirichlet, ghosts: AT_CENTRES };
            for _ in 0..p.jacobi_iterations {
                s.pressure = jacobi(&s.pressure, &problem);
            }
            None
        }
        Solver::Multigrid => {
            let mg = multigrid.expect("a multigrid for --solver multigrid");
            assert_eq!(mg.dirichlet, dirichlet, "the multigrid's edges held at pressure 0 are not the outflows");
            Some(mg.solve(&mut s.pressure, &rhs, p.tolerance as f64, p.max_cycles))
        }
    };
    subtract_gradient(&mut s.velocity_x, &mut s.velocity_y, &s.pressure, &s.solid, &dirichlet, h);
    report
}

/// One staggered step: move and rasterise the bodies ([`bodies::step`], when there are any), advect velocity and scalars (both along the old velocity), viscous
/// diffusion, vorticity confinement, buoyancy, the sources' impulse, the projection ([`project`]) (the order of GPU
/// Gems 38.3: advect, diffuse, add forces, project); then the free bodies' response to the
/// fluid's forces ([`bodies::respond`]).
pub fn step(s: &mut SmokeState, p: &SmokeParams, multigrid: Option<&Multigrid>) -> Option<Report> {
    bodies::step(s, p);
    // Bodies change the walls every step: the multigrid's levels follow them.
    let moved = multigrid
        .filter(|_| !s.bodies.is_empty())
        .map(|mg| Multigrid::with_dirichlet(&s.solid, mg.dirichlet, mg.settings));
    let multigrid = moved.as_ref().or(multigrid);
    // Both advections read the old velocity: the scalars' pass leaves it unchanged.
    cpu::advect_scalars(s, p);
    cpu::advect_velocity(s, p);
    cpu::viscosity(s, p);
    cpu::confinement(s, p);
    cpu::buoyancy(s, p);
    cpu::impulse(s, &super::Impulse::sources(p));
    let report = project(s, p, multigrid);
    bodies::respond(s, p);
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each edge's speeds, set and read back, land on that edge's faces with its inward sign.
    #[test]
    fn an_inflow_profile_set_reads_back_on_its_own_edge() {
        let mut s = SmokeState::from_scene(&crate::scene::Scene::empty(5, 3).unwrap(), 0.0);
        for (edge, count) in
            [(super::super::LEFT, 3), (super::super::RIGHT, 3), (super::super::TOP, 5), (super::super::BOTTOM, 5)]
        {
            let speeds: Vec<f32> = (0..count).map(|i| 0.5 + i as f32).collect();
            set_inflow_profile(&mut s, edge, &speeds).unwrap();
            assert_eq!(inflow_speeds(&s, edge), speeds, "edge {edge}");
        }
        assert_eq!((s.velocity_x[(2, 5)], s.velocity_y[(3, 4)]), (-2.5, -4.5), "the right and bottom edges point in");
        assert!(set_inflow_profile(&mut s, super::super::LEFT, &[1.0; 4]).unwrap_err().contains("3 faces and 4"));
        assert!(set_inflow_profile(&mut s, super::super::TOP, &[f32::NAN; 5]).unwrap_err().contains("0 to 100"));
    }
}
