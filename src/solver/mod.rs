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
//! [`Poisson`] holds the problem, [`multigrid`] solves it with V-cycles on the CPU, one
//! function per pass, and [`GpuMultigrid`] runs the same passes on the GPU
//! (`shaders/solver/`); `tests/solver.rs` holds one to the other. The smoke model's staggered
//! grid solves its projection with them (`--solver`).

pub mod gpu;
pub mod multigrid;
pub mod packed;
pub mod plan;

pub use gpu::GpuMultigrid;

use crate::grid::Grid;

/// The Poisson problem `A p = b` of a projection: `A p = sum over open neighbours (p_n - p)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Poisson {
    /// 1 = wall (no pressure, no flux through its faces), 0 = open; `(H, W)`.
    pub solid: Grid<u8>,
    /// The right-hand side `b = h^2 div u` per cell, `(H, W)`; ignored in walls.
    pub rhs: Grid<f32>,
}

/// Whether `(r, c)` is an open cell inside the grid.
pub fn open(solid: &Grid<u8>, r: isize, c: isize) -> bool {
    solid.get(r, c).is_some_and(|&s| s == 0)
}

/// The four edge neighbours' offsets `(drow, dcol)`: up, left, right, down.
pub const EDGES: [(isize, isize); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];

/// `A p` at open cell `(r, c)`: the sum over its open neighbours of `p_n - p` (0 in walls).
pub fn laplacian_at(p: &Grid<f32>, solid: &Grid<u8>, r: usize, c: usize) -> f64 {
    if solid[(r, c)] != 0 {
        return 0.0;
    }
    let centre = p[(r, c)] as f64;
    EDGES
        .iter()
        .filter(|(dr, dc)| open(solid, r as isize + dr, c as isize + dc))
        .map(|(dr, dc)| p[((r as isize + dr) as usize, (c as isize + dc) as usize)] as f64 - centre)
        .sum()
}

/// The residual `b - A p` per cell, `(H, W)` (0 in walls).
pub fn residual(p: &Grid<f32>, problem: &Poisson) -> Grid<f32> {
    let (h, w) = p.shape();
    Grid::from_fn(w, h, |r, c| {
        if problem.solid[(r, c)] != 0 {
            0.0
        } else {
            (problem.rhs[(r, c)] as f64 - laplacian_at(p, &problem.solid, r, c)) as f32
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
/// `p' = (sum over the 4 neighbours, a wall reading p - b) / 4` at every open cell.
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
                if open(&problem.solid, nr, nc) { p[(nr as usize, nc as usize)] } else { centre }
            })
            .sum();
        (sum - problem.rhs[(r, c)]) * 0.25
    })
}
