//! Pressure solvers: the Poisson problem of a pressure projection, and a multigrid method for it.
//!
//! The projection of an Eulerian fluid (GPU Gems ch. 38.3; Bridson, "Fluid Simulation for
//! Computer Graphics", 2nd ed. 2015, ch. 5) solves, on the open cells of an `(H, W)` grid (row 0
//! at the top),
//!
//! `sum over the open edge neighbours n of (p_n - p) = b`,
//!
//! the 5-point Laplacian scaled by `h^2` (`b = h^2 div u`, `h` the cell size), with no flux
//! through walls (Neumann): a wall or the grid's edge takes the pressure of the cell beside it,
//! exactly as the smoke model's Jacobi pass does (`p = (pL + pR + pD + pU - h^2 div) / 4`, a
//! solid neighbour reading `p`). The solution is defined up to a constant on each connected
//! region of open cells, and exists when `b` sums to zero over each (a velocity that crosses no
//! wall has that divergence).
//!
//! An edge of the box can instead hold the pressure at 0 ([`DirichletEdges`]: the smoke's
//! outflow edges): the cell beyond it is an open neighbour whose pressure is 0 ([`AT_CENTRES`],
//! the free-surface condition of Bridson, 2nd ed., sect. 5.1: "p = 0 in air cells"), so that the
//! flux through the edge is what the pressure beside it drives. The regions of open cells that
//! touch such an edge then have one solution for any `b`. The multigrid's coarse levels put that
//! 0 on the box's edge itself ([`Ghosts`]; see [`multigrid`]).
//!
//! [`Poisson`] holds the problem, [`multigrid`] solves it with V-cycles on the CPU, one
//! function per pass, and [`GpuMultigrid`] runs the same passes on the GPU
//! (`shaders/solver/`); `tests/solver.rs` holds one to the other. The smoke model's staggered
//! grid solves its projection with them (`--solver`).

pub mod gpu;
pub mod multigrid;
pub mod packed;
pub mod packed_levels;
pub mod plan;

pub use gpu::GpuMultigrid;

use crate::grid::Grid;

/// The edges of the box whose pressure is held at 0 (a Dirichlet condition; the smoke's outflow
/// edges), `[left, right, top, bottom]` (the order of `crate::edge`); `false`: no flux through
/// the edge (Neumann), as through a wall.
pub type DirichletEdges = [bool; 4];

/// No edge held at 0: every edge a wall to the pressure (a closed box, as in GPU Gems ch. 38).
pub const NEUMANN: DirichletEdges = [false; 4];

/// Where each held edge ([`DirichletEdges`]) puts the pressure's 0, `[left, right, top,
/// bottom]`, as what the cell beyond it reads: `-ghosts[e]` times the pressure of the cell beside
/// it (linear through 0). 0 puts the 0 at the centre of the cell beyond ([`AT_CENTRES`], the
/// problem a projection solves); 1 on the edge between them; `(1 - d) / d` at `d` cells beyond
/// the centre of the cell beside it. The multigrid's coarse levels use it to keep their 0 on the
/// box's edge, wherever their cells' centres fall ([`multigrid::Multigrid::ghosts`]).
pub type Ghosts = [f32; 4];

/// The pressure's 0 at the centre of each cell beyond a held edge (it reads 0).
pub const AT_CENTRES: Ghosts = [0.0; 4];

/// The Poisson problem `A p = b` of a projection: `A p = sum over open neighbours (p_n - p)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Poisson {
    /// 1 = wall (no pressure, no flux through its faces), 0 = open; `(H, W)`.
    pub solid: Grid<u8>,
    /// The right-hand side `b = h^2 div u` per cell, `(H, W)`; ignored in walls.
    pub rhs: Grid<f32>,
    /// The edges beyond which the pressure is 0 ([`NEUMANN`]: none).
    pub dirichlet: DirichletEdges,
    /// Where their 0 lies ([`AT_CENTRES`] for a projection).
    pub ghosts: Ghosts,
}

/// Whether `(r, c)` is an open cell inside the grid.
pub fn open(solid: &Grid<u8>, r: isize, c: isize) -> bool {
    solid.get(r, c).is_some_and(|&s| s == 0)
}

/// The four edge neighbours' offsets `(drow, dcol)`: up, left, right, down.
pub const EDGES: [(isize, isize); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

/// The edge of the box (`crate::edge::LEFT` ...) that `(r, c)` of an `(H, W)` grid lies
/// beyond, `None` inside. Only for cells beside the grid (an edge neighbour of a cell in it).
pub fn beyond(shape: (usize, usize), r: isize, c: isize) -> Option<usize> {
    use crate::edge::{BOTTOM, LEFT, RIGHT, TOP};
    let (h, w) = shape;
    match () {
        _ if c < 0 => Some(LEFT),
        _ if c >= w as isize => Some(RIGHT),
        _ if r < 0 => Some(TOP),
        _ if r >= h as isize => Some(BOTTOM),
        _ => None,
    }
}

/// Whether `(r, c)` is an open neighbour of the problem: an open cell inside the grid, or a
/// cell beyond a [`DirichletEdges`] edge (pressure 0).
pub fn open_neighbour(solid: &Grid<u8>, dirichlet: &DirichletEdges, r: isize, c: isize) -> bool {
    match beyond(solid.shape(), r, c) {
        Some(edge) => dirichlet[edge],
        None => open(solid, r, c),
    }
}

/// Whether cell `(r, c)` of a wall mask `(H, W)` (non-zero = wall) is a wall, or outside the
/// grid beyond an edge with no flux (not one of `dirichlet`'s, whose cells beyond are open, at
/// pressure 0): 1 or 0, as the wall bits hold it. [`open_neighbour`] negated.
pub fn wall_or_outside(solid: &Grid<u8>, dirichlet: &DirichletEdges, r: isize, c: isize) -> u32 {
    !open_neighbour(solid, dirichlet, r, c) as u32
}

/// A wall mask `(H, W)` (non-zero = wall) as bits per cell, row-major: bit 0 the cell is a
/// wall; bits 1 to 4 its neighbour up, left, right, down is a wall or outside the grid beyond
/// an edge not in `dirichlet` ([`wall_or_outside`]; the order of [`EDGES`];
/// `shaders/solver/level.wgsl` reads them), so a pass reads one value for a cell and its four
/// neighbours' walls. A clear neighbour bit on the grid's edge: the cell beyond is at pressure 0.
pub fn wall_bits(solid: &Grid<u8>, dirichlet: &DirichletEdges) -> Vec<u32> {
    let (h, w) = solid.shape();
    let wall = |r: isize, c: isize| wall_or_outside(solid, dirichlet, r, c);
    let mut bits = Vec::with_capacity(h * w);
    for r in 0..h as isize {
        for c in 0..w as isize {
            bits.push(
                wall(r, c) | wall(r - 1, c) << 1 | wall(r, c - 1) << 2 | wall(r, c + 1) << 3 | wall(r + 1, c) << 4,
            );
        }
    }
    bits
}

/// The pressure of open neighbour `(r, c)` ([`open_neighbour`]) of a cell whose pressure is
/// `beside`: `p` inside the grid, beyond edge `e` its ghost `-ghosts[e] beside` ([`Ghosts`]).
pub fn neighbour_pressure(p: &Grid<f32>, r: isize, c: isize, beside: f32, ghosts: &Ghosts) -> f32 {
    match beyond(p.shape(), r, c) {
        None => p[(r as usize, c as usize)],
        Some(e) => -ghosts[e] * beside,
    }
}

/// `A p` at open cell `(r, c)`: the sum over its open neighbours of `p_n - p` (0 in walls).
pub fn laplacian_at(p: &Grid<f32>, problem: &Poisson, r: usize, c: usize) -> f64 {
    if problem.solid[(r, c)] != 0 {
        return 0.0;
    }
    let centre = p[(r, c)] as f64;
    EDGES
        .iter()
        .map(|(dr, dc)| (r as isize + dr, c as isize + dc))
        .filter(|&(nr, nc)| open_neighbour(&problem.solid, &problem.dirichlet, nr, nc))
        .map(|(nr, nc)| neighbour_pressure(p, nr, nc, centre as f32, &problem.ghosts) as f64 - centre)
        .sum()
}

/// The residual `b - A p` per cell, `(H, W)` (0 in walls).
pub fn residual(p: &Grid<f32>, problem: &Poisson) -> Grid<f32> {
    let (h, w) = p.shape();
    Grid::from_fn(w, h, |r, c| {
        if problem.solid[(r, c)] != 0 {
            0.0
        } else {
            (problem.rhs[(r, c)] as f64 - laplacian_at(p, problem, r, c)) as f32
        }
    })
}

/// The L2 norm of a field over the open cells, in f64.
pub fn norm(f: &Grid<f32>, solid: &Grid<u8>) -> f64 {
    f.as_slice()
        .iter()
        .zip(solid.as_slice())
        .filter(|(_, s)| **s == 0)
        .map(|(v, _)| (*v as f64) * (*v as f64))
        .sum::<f64>()
        .sqrt()
}

/// One Jacobi iteration of the problem (the smoke model's `jacobi` pass, with `b = h^2 div`):
/// `p' = (sum over the 4 neighbours, a wall reading p, a cell beyond a held edge its ghost
/// ([`neighbour_pressure`]), - b) / 4` at every open cell.
pub fn jacobi(p: &Grid<f32>, problem: &Poisson) -> Grid<f32> {
    let (h, w) = p.shape();
    Grid::from_fn(w, h, |r, c| {
        if problem.solid[(r, c)] != 0 {
            return 0.0;
        }
        let centre = p[(r, c)];
        let sum: f32 = EDGES
            .iter()
            .map(|(dr, dc)| {
                let (nr, nc) = (r as isize + dr, c as isize + dc);
                if open_neighbour(&problem.solid, &problem.dirichlet, nr, nc) {
                    neighbour_pressure(p, nr, nc, centre, &problem.ghosts)
                } else {
                    centre
                }
            })
            .sum();
        (sum - problem.rhs[(r, c)]) * 0.25
    })
}
