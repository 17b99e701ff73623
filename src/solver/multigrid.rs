//! Multigrid V-cycles for the projection's Poisson problem ([`super::Poisson`]), CPU reference.
//!
//! Cell-centred geometric multigrid (Briggs, Henson & McCormick, "A Multigrid Tutorial", 2nd ed.
//! 2000, ch. 3 and 4; Trottenberg, Oosterlee & Schüller, "Multigrid", 2001, sect. 2.8 for the
//! cell-centred transfers). Level `l + 1` has cells `2 x 2` times as large, `ceil(H / 2) x
//! ceil(W / 2)` of them; a coarse cell is open when any of its fine cells is, so obstacles are
//! respected on every level. One V-cycle, one function per pass (each a GPU pass, `shaders/solver/`):
//! 1. [`smooth`] `pre` times: red-black Gauss-Seidel sweeps (red cells `(r + c)` even, then
//!    black), `p = (sum of open neighbours' p - b) / (open neighbours)`;
//! 2. [`super::residual`] `r = b - A p`, [`restrict`]ed to the coarse level as the sum
//!    of the four fine residuals (the coarse operator is the same 5-point sum on cells twice as
//!    large, `(2h)^2 lap = 4 h^2 lap`, so the coarse right-hand side is four times the mean);
//! 3. the same cycle on the coarse level from zero, for the correction `e`; on the coarsest
//!    level, [`Settings::coarsest`] sweeps;
//! 4. [`prolong`]: `p += e` of the parent coarse cell (piecewise constant);
//! 5. [`smooth`] `post` times.
//!
//! Measured (`tests/solver.rs`): on 128 x 128 without walls, 2 V-cycles bring a random
//! divergence's residual to 1e-4 of its start where Jacobi takes 12,234 iterations. Each V(2,2) cycle cuts the residual 2.2x to 250x (about 3x
//! once the smooth part is gone), reaching 1e-6 of the start in 7-9 cycles on 128 x 128 and
//! 97 x 61 with obstacles; f32 rounding sets a floor near 1e-7. The coarse operator is the
//! fine one rediscretised on the coarse walls, which is what slows odd-sized grids (0.47 per
//! cycle at 97 x 61 against 0.33 at 128 x 128); a Galerkin coarse operator is the known cure.
//!
//! Units: those of the problem (pressure times `h^2` per cell on the right-hand side).

use super::{EDGES, Poisson, norm, open, residual};
use crate::grid::Grid;

/// How a V-cycle smooths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Red-black Gauss-Seidel sweeps before restricting. Default 2.
    pub pre: u32,
    /// Sweeps after the coarse correction. Default 2.
    pub post: u32,
    /// Sweeps on the coarsest level (at most 4 x 4 cells). Default 40.
    pub coarsest: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Self { pre: 2, post: 2, coarsest: 40 }
    }
}

/// The walls of the next coarser level: a coarse cell is a wall only when all four of its fine
/// cells are (cells beyond the fine grid count as walls). `(ceil(H/2), ceil(W/2))`.
pub fn coarsen(solid: &Grid<u8>) -> Grid<u8> {
    let (h, w) = solid.shape();
    Grid::from_fn(w.div_ceil(2), h.div_ceil(2), |r, c| {
        let any_open = (0..2).any(|i| (0..2).any(|j| open(solid, (2 * r + i) as isize, (2 * c + j) as isize)));
        (!any_open) as u8
    })
}

/// One red-black Gauss-Seidel sweep of colour `colour` (0: `(r + c)` even, 1: odd): each open
/// cell of that colour with an open neighbour gets `(sum of open neighbours' p - b) / count`.
/// Cells of one colour only read the other colour, so a sweep is one parallel pass.
pub fn smooth(p: &mut Grid<f32>, problem: &Poisson, colour: usize) {
    let (h, w) = p.shape();
    for r in 0..h {
        for c in (0..w).filter(|c| (r + c) % 2 == colour) {
            if problem.solid[(r, c)] != 0 {
                continue;
            }
            let (mut sum, mut count) = (0.0f32, 0.0f32);
            for (dr, dc) in EDGES {
                let (nr, nc) = (r as isize + dr, c as isize + dc);
                if open(&problem.solid, nr, nc) {
                    sum += p[(nr as usize, nc as usize)];
                    count += 1.0;
                }
            }
            if count > 0.0 {
                p[(r, c)] = (sum - problem.rhs[(r, c)]) / count;
            }
        }
    }
}

/// The coarse right-hand side: per coarse cell, the sum of its open fine cells' residuals
/// (0 in coarse walls).
pub fn restrict(fine_residual: &Grid<f32>, fine_solid: &Grid<u8>, coarse_solid: &Grid<u8>) -> Grid<f32> {
    let (h, w) = coarse_solid.shape();
    Grid::from_fn(w, h, |r, c| {
        let mut sum = 0.0f32;
        for i in 0..2 {
            for j in 0..2 {
                let (fr, fc) = ((2 * r + i) as isize, (2 * c + j) as isize);
                if open(fine_solid, fr, fc) {
                    sum += fine_residual[(fr as usize, fc as usize)];
                }
            }
        }
        sum
    })
}

/// Adds the coarse correction to the fine pressure: `p += e` of the parent coarse cell, at open
/// fine cells (piecewise constant; measured against bilinear interpolation between coarse
/// centres, which converged no faster here: 0.39 and 0.50 per cycle against 0.37 and 0.47 on
/// the tests' 128 x 128 and 97 x 61 grids).
pub fn prolong(p: &mut Grid<f32>, fine_solid: &Grid<u8>, correction: &Grid<f32>) {
    let (h, w) = p.shape();
    for r in 0..h {
        for c in 0..w {
            if fine_solid[(r, c)] == 0 {
                p[(r, c)] += correction[(r / 2, c / 2)];
            }
        }
    }
}

/// A multigrid hierarchy for one wall layout: the walls of every level, finest first, down to a
/// level of at most 4 x 4 cells.
#[derive(Clone, Debug)]
pub struct Multigrid {
    /// Walls per level, `levels[0]` the problem's own.
    pub levels: Vec<Grid<u8>>,
    /// How each cycle smooths.
    pub settings: Settings,
}

/// What a solve reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Report {
    /// V-cycles run.
    pub cycles: u32,
    /// `|b - A p| / |b|` at the end (L2 over open cells; 0 when `b` is 0).
    pub relative_residual: f64,
}

impl Multigrid {
    /// The hierarchy for `solid` `(H, W)`.
    pub fn new(solid: &Grid<u8>, settings: Settings) -> Self {
        let mut levels = vec![solid.clone()];
        while let Some(last) = levels.last() {
            let (h, w) = last.shape();
            if h <= 4 && w <= 4 {
                break;
            }
            levels.push(coarsen(last));
        }
        Self { levels, settings }
    }

    /// One V-cycle on level `l` for right-hand side `rhs`, improving `p` in place.
    fn cycle(&self, l: usize, p: &mut Grid<f32>, rhs: &Grid<f32>) {
        let problem = Poisson { solid: self.levels[l].clone(), rhs: rhs.clone() };
        let sweeps = |p: &mut Grid<f32>, n: u32| {
            for _ in 0..n {
                smooth(p, &problem, 0);
                smooth(p, &problem, 1);
            }
        };
        if l + 1 == self.levels.len() {
            sweeps(p, self.settings.coarsest);
            return;
        }
        sweeps(p, self.settings.pre);
        let coarse_solid = &self.levels[l + 1];
        let coarse_rhs = restrict(&residual(p, &problem), &problem.solid, coarse_solid);
        let mut correction = Grid::filled(coarse_solid.width(), coarse_solid.height(), 0.0);
        self.cycle(l + 1, &mut correction, &coarse_rhs);
        prolong(p, &problem.solid, &correction);
        sweeps(p, self.settings.post);
    }

    /// Runs V-cycles on `p` (the initial guess: zero, or the previous step's pressure for a
    /// warm start) until `|b - A p| <= tolerance |b|` or `max_cycles` ran.
    ///
    /// # Panics
    /// When `p` or `rhs` is not the shape of the finest level.
    pub fn solve(&self, p: &mut Grid<f32>, rhs: &Grid<f32>, tolerance: f64, max_cycles: u32) -> Report {
        assert_eq!(p.shape(), self.levels[0].shape(), "pressure and walls differ in shape");
        assert_eq!(rhs.shape(), self.levels[0].shape(), "right-hand side and walls differ in shape");
        let problem = Poisson { solid: self.levels[0].clone(), rhs: rhs.clone() };
        let scale = norm(rhs, &problem.solid);
        let relative =
            |p: &Grid<f32>| if scale > 0.0 { norm(&residual(p, &problem), &problem.solid) / scale } else { 0.0 };
        let mut report = Report { cycles: 0, relative_residual: relative(p) };
        while report.relative_residual > tolerance && report.cycles < max_cycles {
            self.cycle(0, p, rhs);
            report = Report { cycles: report.cycles + 1, relative_residual: relative(p) };
        }
        report
    }
}
