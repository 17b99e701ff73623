//! The staggered (MAC) grid's projection, CPU reference: the first piece of the smoke model's
//! staggered pipeline (issue 9), not yet wired into a step.
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

mod gpu;

pub use gpu::GpuProjection;

use crate::grid::Grid;
use crate::solver::open;

/// Face velocities: `u` `(H, W + 1)` on vertical faces, `v` `(H + 1, W)` on horizontal faces,
/// cells per time unit (x right, y down).
#[derive(Clone, Debug, PartialEq)]
pub struct Faces {
    /// Velocity across vertical faces, towards increasing column; `(H, W + 1)`.
    pub u: Grid<f32>,
    /// Velocity across horizontal faces, towards increasing row (down); `(H + 1, W)`.
    pub v: Grid<f32>,
}

/// Whether vertical face `(r, c)` (between cells `(r, c - 1)` and `(r, c)`) is open.
pub fn u_open(solid: &Grid<u8>, r: usize, c: usize) -> bool {
    open(solid, r as isize, c as isize - 1) && open(solid, r as isize, c as isize)
}

/// Whether horizontal face `(r, c)` (between cells `(r - 1, c)` and `(r, c)`) is open.
pub fn v_open(solid: &Grid<u8>, r: usize, c: usize) -> bool {
    open(solid, r as isize - 1, c as isize) && open(solid, r as isize, c as isize)
}

/// Divergence per cell, `(H, W)`: `(u[r][c+1] - u[r][c] + v[r+1][c] - v[r][c]) / h`; 0 in walls.
pub fn divergence(f: &Faces, solid: &Grid<u8>, h: f32) -> Grid<f32> {
    let (rows, cols) = solid.shape();
    Grid::from_fn(cols, rows, |r, c| {
        if solid[(r, c)] != 0 { 0.0 } else { (f.u[(r, c + 1)] - f.u[(r, c)] + f.v[(r + 1, c)] - f.v[(r, c)]) / h }
    })
}

/// Subtracts the pressure gradient on every open face: `u -= (p_right - p_left) / h`,
/// `v -= (p_below - p_above) / h`; closed faces keep their (wall) velocity.
pub fn subtract_gradient(f: &mut Faces, p: &Grid<f32>, solid: &Grid<u8>, h: f32) {
    let (rows, cols) = solid.shape();
    for r in 0..rows {
        for c in 0..=cols {
            if u_open(solid, r, c) {
                f.u[(r, c)] -= (p[(r, c)] - p[(r, c - 1)]) / h;
            }
        }
    }
    for r in 0..=rows {
        for c in 0..cols {
            if v_open(solid, r, c) {
                f.v[(r, c)] -= (p[(r, c)] - p[(r - 1, c)]) / h;
            }
        }
    }
}

/// The projection's right-hand side `h^2 div` (see the module docs), `(H, W)`.
pub fn poisson_rhs(f: &Faces, solid: &Grid<u8>, h: f32) -> Grid<f32> {
    divergence(f, solid, h).map(|d| d * h * h)
}
