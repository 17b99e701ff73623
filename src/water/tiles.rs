//! Water that sleeps: the grid cut into tiles, and a step over the awake tiles alone that gives
//! the dense step's result to the bit (the CPU mirror of the tile bookkeeping).
//!
//! **Why a sleeping tile is exact.** A cell's four outflows are a function of its 3x3
//! neighbourhood of the last step's masses ([`super::cpu::compression_step`]: the flows read
//! only the last step's masses), and its new mass a function of its own outflows and its four
//! neighbours' outflows towards it: of the cells within 2 of it (a 5x5 block less its corners).
//! So if no cell within 2 of a tile changed in the last step, the step's inputs there are the
//! last step's, and its outputs the last step's too, which were the tile's masses then and still
//! are: the step would leave the tile exactly as it is, bit for bit, whatever the rules do
//! (Elsts' small flows that never quite stop included: a tile over such water keeps changing, so
//! it stays awake). "Changed" is bitwise: a mass whose bits differ from the last step's.
//!
//! **The bookkeeping.** After each step a tile is awake for the next one when a cell within 2 of
//! it changed ([`Tiles::wake_around_changes`]); an edit (the brush, a wall drawn, a state
//! loaded; bodies, each step around their regions) wakes the tiles within 2 of every cell it
//! touched ([`Tiles::wake_cells`], [`Tiles::wake_all`]). Waking too many is never wrong: stepping a tile that would sleep leaves
//! it as it is. Outside the grid nothing changes (open air stays empty; walls stay walls).

use super::WaterParams;
use super::cpu::outflows;
use crate::grid::Grid;

/// How far a change reaches in one step, cells: a cell's new mass depends on the masses within
/// this distance of it (module docs).
pub const REACH: usize = 2;

/// How much of a sleeping world is awake ([`crate::water::GpuWater::awake_tiles`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AwakeTiles {
    /// The tiles the next step takes.
    pub awake: u32,
    /// All the tiles.
    pub all: u32,
    /// A tile's `(width, height)`, cells.
    pub cells: (u32, u32),
}

impl AwakeTiles {
    /// The share of the tiles awake, 0 to 1.
    pub fn fraction(&self) -> f64 {
        f64::from(self.awake) / f64::from(self.all.max(1))
    }
}

/// Along one axis, the tiles (`tile` cells each, `count` of them) within [`REACH`] of any cell in
/// `cells`: empty for no cells.
pub fn within_reach(cells: std::ops::Range<usize>, tile: usize, count: usize) -> std::ops::Range<usize> {
    if cells.is_empty() {
        return 0..0;
    }
    cells.start.saturating_sub(REACH) / tile..((cells.end - 1 + REACH) / tile + 1).min(count)
}

/// The grid cut into tiles of `size` cells (the last row and column of tiles may be cut short by
/// the grid's edge), each awake or asleep.
#[derive(Clone, Debug, PartialEq)]
pub struct Tiles {
    /// A tile's `(width, height)`, cells; each at least [`REACH`].
    pub size: (usize, usize),
    /// Whether each tile is awake, `(tiles down, tiles across)`, row 0 at the top.
    pub awake: Grid<bool>,
}

impl Tiles {
    /// Tiles of `size` cells over a `(W, H)` grid, all awake (nothing is known of the last step).
    ///
    /// # Panics
    /// If a side of `size` is below [`REACH`]: a change could then reach past the tiles next to
    /// its own.
    pub fn new((w, h): (usize, usize), size: (usize, usize)) -> Self {
        assert!(size.0 >= REACH && size.1 >= REACH, "tiles of {size:?} cells: each side at least {REACH}");
        Self { size, awake: Grid::filled(w.div_ceil(size.0), h.div_ceil(size.1), true) }
    }

    /// How many tiles are awake.
    pub fn awake_count(&self) -> usize {
        self.awake.as_slice().iter().filter(|&&a| a).count()
    }

    /// The fraction of the tiles awake, 0 to 1.
    pub fn awake_fraction(&self) -> f64 {
        self.awake_count() as f64 / self.awake.as_slice().len().max(1) as f64
    }

    /// Every tile awake (a state replaced, parameters changed).
    pub fn wake_all(&mut self) {
        self.awake.as_mut_slice().fill(true);
    }

    /// Wakes the tiles within [`REACH`] of any cell in rows `rows` and columns `cols` (an edit
    /// touched them).
    pub fn wake_cells(&mut self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) {
        let (tw, th) = self.size;
        let (nx, ny) = (self.awake.width(), self.awake.height());
        for tr in within_reach(rows, th, ny) {
            for tc in within_reach(cols.clone(), tw, nx) {
                self.awake[(tr, tc)] = true;
            }
        }
    }

    /// Wakes the tiles around what an edit changed: every cell whose mass differs, bitwise,
    /// between `before` and `after`, or whose ground (`blocks`, non-zero) does.
    pub fn wake_around_edit(&mut self, before: (&Grid<f32>, &Grid<u8>), after: (&Grid<f32>, &Grid<u8>)) {
        let (h, w) = before.0.shape();
        for r in 0..h {
            for c in 0..w {
                let mass = before.0[(r, c)].to_bits() != after.0[(r, c)].to_bits();
                if mass || (before.1[(r, c)] != 0) != (after.1[(r, c)] != 0) {
                    self.wake_cells(r..r + 1, c..c + 1);
                }
            }
        }
    }

    /// Sets the tiles awake for the next step from what this one changed: awake exactly where a
    /// cell within [`REACH`] of the tile differs, bitwise, between `before` and `after` (module
    /// docs). Only the tiles awake in this step can hold changes, so only they are compared.
    pub fn wake_around_changes(&mut self, before: &Grid<f32>, after: &Grid<f32>) {
        let (h, w) = before.shape();
        let (tw, th) = self.size;
        let was = self.awake.clone();
        self.awake.as_mut_slice().fill(false);
        for tr in 0..was.height() {
            for tc in 0..was.width() {
                if !was[(tr, tc)] {
                    continue;
                }
                for r in tr * th..((tr + 1) * th).min(h) {
                    for c in tc * tw..((tc + 1) * tw).min(w) {
                        if before[(r, c)].to_bits() != after[(r, c)].to_bits() {
                            self.wake_cells(r..r + 1, c..c + 1);
                        }
                    }
                }
            }
        }
    }
}

/// Cell `(y, x)`'s mass after [`super::cpu::compression_step`], gathered: the pushes into it and
/// out of it added in the loop's order (the cell above's down flow and the left one's right flow
/// come before its own four, the right one's left flow and the one below's up flow after), so
/// the result is the loop's to the bit.
fn stepped(mass: &Grid<f32>, blocks: &Grid<u8>, p: &WaterParams, y: usize, x: usize) -> f32 {
    let (y, x) = (y as isize, x as isize);
    let mut m = mass[(y as usize, x as usize)];
    let inflow = |dy: isize, dx: isize, k: usize| {
        mass.get(y + dy, x + dx)?;
        outflows(mass, blocks, p, y + dy, x + dx)[k]
    };
    if let Some(f) = inflow(-1, 0, 0) {
        m += f;
    }
    if let Some(f) = inflow(0, -1, 2) {
        m += f;
    }
    for f in outflows(mass, blocks, p, y, x).into_iter().flatten() {
        m -= f;
    }
    if let Some(f) = inflow(0, 1, 1) {
        m += f;
    }
    if let Some(f) = inflow(1, 0, 3) {
        m += f;
    }
    m
}

/// One step of the water automaton over the awake tiles of `tiles` alone, in place, then the
/// tiles awake for the next step ([`Tiles::wake_around_changes`]): bit for bit what
/// [`super::cpu::compression_step`] gives `field`, `blocks` the same ground (module docs).
/// Returns the number of tiles stepped.
pub fn compression_step(field: &mut Grid<f32>, blocks: &Grid<u8>, p: &WaterParams, tiles: &mut Tiles) -> usize {
    let (h, w) = field.shape();
    let (tw, th) = tiles.size;
    let mut next = field.clone();
    let mut stepped_tiles = 0;
    for tr in 0..tiles.awake.height() {
        for tc in 0..tiles.awake.width() {
            if !tiles.awake[(tr, tc)] {
                continue;
            }
            stepped_tiles += 1;
            for r in tr * th..((tr + 1) * th).min(h) {
                for c in tc * tw..((tc + 1) * tw).min(w) {
                    next[(r, c)] = stepped(field, blocks, p, r, c);
                }
            }
        }
    }
    tiles.wake_around_changes(field, &next);
    *field = next;
    stepped_tiles
}
