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
//! Edges held at pressure 0 ([`super::DirichletEdges`], the smoke's outflows) are held on every
//! level, the coarse levels' 0 on the box's edge itself wherever their cells' centres fall
//! ([`Multigrid::ghosts`]), and each coarse level is laid against them: where a level's width
//! (height) is odd, its coarse cells pair fine cells from the held side, so the one left over,
//! half outside the grid, lies on the other side ([`Offset`]), where a no-flux edge does not
//! mind it. Without both, the V-cycles diverged on most grids (a 0 at the centre of each level's
//! own cell beyond moves the edge outwards level by level, and so does a coarse cell half
//! beyond it: with the right edge held, 0.9 a cycle at 64 x 64, diverging at 61 x 24, 97 x 61
//! and 400 x 240); with both, those converge 4-10x a cycle, as the Neumann problem does
//! (`tests/solver.rs`). Both edges of an odd axis held leave a cell half beyond one of them:
//! its ghost puts the 0 inside that cell, and 97 x 61 held left and right converges only about
//! 1.5x a cycle.
//!
//! Units: those of the problem (pressure times `h^2` per cell on the right-hand side).

use super::{AT_CENTRES, DirichletEdges, EDGES, Ghosts, NEUMANN, Poisson, norm, open, open_neighbour, residual};
use crate::edge::{BOTTOM, LEFT, RIGHT, TOP};
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

/// How a coarse level lies on the finer one: coarse cell `(r, c)` has the fine cells
/// `(2 r + i - row, 2 c + j - col)`, `i, j` in 0..2. 0: pairs from the top (left) edge, any cell
/// left over at the bottom (right); 1 (odd sizes only): pairs from the bottom (right), the one
/// left over at the top (left), half beyond the grid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Offset {
    /// 0 or 1, along the rows.
    pub row: usize,
    /// 0 or 1, along the columns.
    pub col: usize,
}

impl Offset {
    /// The offset of the level below an `(H, W)` level whose edges `dirichlet` holds at 0: 1
    /// along an axis of odd size whose far edge (bottom, right) is held and near edge is not.
    pub fn below(shape: (usize, usize), dirichlet: &DirichletEdges) -> Self {
        let one = |n: usize, near: usize, far: usize| (n % 2 == 1 && dirichlet[far] && !dirichlet[near]) as usize;
        Self { row: one(shape.0, TOP, BOTTOM), col: one(shape.1, LEFT, RIGHT) }
    }

    /// The fine cell `(r, c)`'s coarse cell.
    pub fn parent(self, r: usize, c: usize) -> (usize, usize) {
        ((r + self.row) / 2, (c + self.col) / 2)
    }
}

/// The walls of the next coarser level, laid `offset` on it: a coarse cell is a wall only when
/// all four of its fine cells are (cells beyond the fine grid count as walls).
/// `(ceil((H + offset.row) / 2), ceil((W + offset.col) / 2))`.
pub fn coarsen(solid: &Grid<u8>, offset: Offset) -> Grid<u8> {
    let (h, w) = solid.shape();
    Grid::from_fn((w + offset.col).div_ceil(2), (h + offset.row).div_ceil(2), |r, c| {
        let any_open = (0..2).any(|i| {
            (0..2).any(|j| {
                open(solid, (2 * r + i) as isize - offset.row as isize, (2 * c + j) as isize - offset.col as isize)
            })
        });
        (!any_open) as u8
    })
}

/// One red-black Gauss-Seidel sweep of colour `colour` (0: `(r + c)` even, 1: odd): each open
/// cell of that colour with an open neighbour gets the `p` that zeroes its residual, `(sum of
/// open neighbours' p - b) / count`, a neighbour beyond held edge `e` counting `1 + ghosts[e]`
/// (it reads `-ghosts[e] p`, [`Ghosts`]).
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
                if !open_neighbour(&problem.solid, &problem.dirichlet, nr, nc) {
                    continue;
                }
                match super::beyond(p.shape(), nr, nc) {
                    None => (sum, count) = (sum + p[(nr as usize, nc as usize)], count + 1.0),
                    Some(e) => count += 1.0 + problem.ghosts[e],
                }
            }
            if count > 0.0 {
                p[(r, c)] = (sum - problem.rhs[(r, c)]) / count;
            }
        }
    }
}

/// The coarse right-hand side: per coarse cell (laid `offset` on the fine level), the sum of
/// its open fine cells' residuals (0 in coarse walls).
pub fn restrict(
    fine_residual: &Grid<f32>,
    fine_solid: &Grid<u8>,
    coarse_solid: &Grid<u8>,
    offset: Offset,
) -> Grid<f32> {
    let (h, w) = coarse_solid.shape();
    Grid::from_fn(w, h, |r, c| {
        let mut sum = 0.0f32;
        for i in 0..2 {
            for j in 0..2 {
                let (fr, fc) = ((2 * r + i) as isize - offset.row as isize, (2 * c + j) as isize - offset.col as isize);
                if open(fine_solid, fr, fc) {
                    sum += fine_residual[(fr as usize, fc as usize)];
                }
            }
        }
        sum
    })
}

/// Adds the coarse correction to the fine pressure: `p += e` of the parent coarse cell, at open
/// fine cells (piecewise constant: bilinear interpolation between coarse centres converges no
/// faster on the tests' grids).
pub fn prolong(p: &mut Grid<f32>, fine_solid: &Grid<u8>, correction: &Grid<f32>, offset: Offset) {
    let (h, w) = p.shape();
    for r in 0..h {
        for c in 0..w {
            if fine_solid[(r, c)] == 0 {
                p[(r, c)] += correction[offset.parent(r, c)];
            }
        }
    }
}

/// A multigrid hierarchy for one wall layout: the walls of every level, finest first, down to a
/// level of at most 4 x 4 cells, how each lies on the one above, and the edges held at pressure
/// 0, which are those of every level (the coarse corrections vanish at them as the pressure does).
#[derive(Clone, Debug)]
pub struct Multigrid {
    /// Walls per level, `levels[0]` the problem's own.
    pub levels: Vec<Grid<u8>>,
    /// `offsets[l]`: how level `l + 1` lies on level `l`.
    pub offsets: Vec<Offset>,
    /// `ghosts[l]`: where level `l` puts the 0 beyond each held edge ([`Ghosts`]): at the
    /// centres of the cells beyond on the finest level (the problem's own, [`AT_CENTRES`]), on
    /// the box's edge on the coarse ones: `(1 - d) / d`, `d` the distance from the centre of the
    /// level's last cell to the finest level's edge, in the level's cells (1/2 where the level
    /// ends on the edge, 1; at least 0.1, where a coarse cell lies half beyond it).
    pub ghosts: Vec<Ghosts>,
    /// The edges beyond which the pressure is 0 ([`NEUMANN`] from [`Multigrid::new`]).
    pub dirichlet: DirichletEdges,
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
    /// The hierarchy for `solid` `(H, W)`, every edge with no flux ([`NEUMANN`]).
    pub fn new(solid: &Grid<u8>, settings: Settings) -> Self {
        Self::with_dirichlet(solid, NEUMANN, settings)
    }

    /// The hierarchy for `solid` `(H, W)` with the pressure held at 0 beyond the `dirichlet`
    /// edges, each coarse level laid against them ([`Offset::below`]).
    pub fn with_dirichlet(solid: &Grid<u8>, dirichlet: DirichletEdges, settings: Settings) -> Self {
        let (h0, w0) = solid.shape();
        let (mut levels, mut offsets, mut ghosts) = (vec![solid.clone()], Vec::new(), vec![AT_CENTRES]);
        // Level l's near (top, left) edge in finest cells, and its cells' size.
        let (mut top, mut left, mut size) = (0.0f32, 0.0f32, 1.0f32);
        while let Some(last) = levels.last() {
            let (h, w) = last.shape();
            if h <= 4 && w <= 4 {
                break;
            }
            let offset = Offset::below((h, w), &dirichlet);
            let coarse = coarsen(last, offset);
            (top, left, size) = (top - offset.row as f32 * size, left - offset.col as f32 * size, 2.0 * size);
            // From the centre of the level's first (last) cell to the finest's near (far) edge.
            let (ch, cw) = (coarse.height() as f32, coarse.width() as f32);
            let d = [
                0.5 + left / size,
                (w0 as f32 - left) / size - cw + 0.5,
                0.5 + top / size,
                (h0 as f32 - top) / size - ch + 0.5,
            ];
            ghosts.push(d.map(|d| (1.0 - d.max(0.1)) / d.max(0.1)));
            offsets.push(offset);
            levels.push(coarse);
        }
        Self { levels, offsets, ghosts, dirichlet, settings }
    }

    /// Level `l`'s problem for right-hand side `rhs`.
    fn problem(&self, l: usize, rhs: &Grid<f32>) -> Poisson {
        Poisson { solid: self.levels[l].clone(), rhs: rhs.clone(), dirichlet: self.dirichlet, ghosts: self.ghosts[l] }
    }

    /// One V-cycle on level `l` for right-hand side `rhs`, improving `p` in place.
    pub(crate) fn cycle(&self, l: usize, p: &mut Grid<f32>, rhs: &Grid<f32>) {
        let problem = self.problem(l, rhs);
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
        let offset = self.offsets[l];
        let coarse_rhs = restrict(&residual(p, &problem), &problem.solid, coarse_solid, offset);
        let mut correction = Grid::filled(coarse_solid.width(), coarse_solid.height(), 0.0);
        self.cycle(l + 1, &mut correction, &coarse_rhs);
        prolong(p, &problem.solid, &correction, offset);
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
        let problem = self.problem(0, rhs);
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
