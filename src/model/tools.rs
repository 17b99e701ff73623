//! The viewer's tools as data: a [`Stroke`] is one pointer move in cells, and [`AnyModel::stroke`]
//! applies it to whichever model runs (pour water, inject smoke, push gas, draw or erase walls).
//!
//! [`AnyModel::stroke`]: super::AnyModel::stroke

use crate::grid::Grid;

pub use crate::params::DEFAULT_RADIUS;

/// What a held mouse button does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Left button: the model's fluid tool ([`super::ModelInfo::left_button`]).
    Fluid,
    /// Right button: draw walls.
    Wall,
}

impl Tool {
    /// The tool, and whether it erases, that scripts and Python name a drawn path's tool:
    /// `fluid`, `wall`, or `erase` (the fluid tool with erase on, as Shift makes it in the
    /// viewer); `None` for another name.
    pub fn from_name(name: &str) -> Option<(Tool, bool)> {
        match name {
            "fluid" => Some((Tool::Fluid, false)),
            "wall" => Some((Tool::Wall, false)),
            "erase" => Some((Tool::Fluid, true)),
            _ => None,
        }
    }

    /// The name [`Tool::from_name`] takes for this tool with `erase`.
    pub fn name(self, erase: bool) -> &'static str {
        match (self, erase) {
            (_, true) => "erase",
            (Tool::Fluid, false) => "fluid",
            (Tool::Wall, false) => "wall",
        }
    }
}

/// One pointer move, in cells (`(col, row)`, cell `(r, c)` has its centre at `(c + 0.5, r + 0.5)`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// Where the move started (equal to `to` for a press without movement).
    pub from: (f32, f32),
    /// Where it ended.
    pub to: (f32, f32),
    /// The tool held.
    pub tool: Tool,
    /// Erase instead (Shift): walls and fluid go.
    pub erase: bool,
}

impl Stroke {
    /// Disc centres every half `radius` (cells; taken as at least 0.5) along the move, both ends
    /// included.
    pub fn stamps(&self, radius: f32) -> Vec<(f32, f32)> {
        let (dx, dy) = (self.to.0 - self.from.0, self.to.1 - self.from.1);
        let len = (dx * dx + dy * dy).sqrt();
        let spacing = 0.5 * if radius.is_finite() { radius.max(0.5) } else { 0.5 };
        let count = if len.is_finite() { (len / spacing).ceil().clamp(1.0, 1e6) as usize } else { 1 };
        (0..=count)
            .map(|i| {
                let t = i as f32 / count as f32;
                (self.from.0 + dx * t, self.from.1 + dy * t)
            })
            .collect()
    }

    /// Unit direction of the move, `(0, 0)` when it did not move.
    pub fn direction(&self) -> (f32, f32) {
        let (dx, dy) = (self.to.0 - self.from.0, self.to.1 - self.from.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len > 0.0 { (dx / len, dy / len) } else { (0.0, 0.0) }
    }

    /// Whether the pointer moved.
    pub fn moved(&self) -> bool {
        self.from != self.to
    }

    /// Draws (or erases) walls of `radius` along the move into `solid`; true if any cell changed.
    /// Does nothing unless the tool is [`Tool::Wall`] or the stroke erases.
    pub fn edit_walls(&self, solid: &mut Grid<u8>, radius: f32) -> bool {
        if !(self.erase || self.tool == Tool::Wall) {
            return false;
        }
        let value = (!self.erase) as u8;
        let mut changed = false;
        for center in self.stamps(radius) {
            changed |= set_disc(solid, center, radius, value);
        }
        changed
    }
}

/// Sets the cells of `grid` whose centres lie in the disc to `value`; true if any changed.
fn set_disc(grid: &mut Grid<u8>, center: (f32, f32), radius: f32, value: u8) -> bool {
    let (h, w) = grid.shape();
    let mut changed = false;
    let r0 = (center.1 - radius).floor().max(0.0) as usize;
    let c0 = (center.0 - radius).floor().max(0.0) as usize;
    for row in r0..h.min((center.1 + radius).ceil().max(0.0) as usize + 1) {
        for col in c0..w.min((center.0 + radius).ceil().max(0.0) as usize + 1) {
            let (dx, dy) = (col as f32 + 0.5 - center.0, row as f32 + 0.5 - center.1);
            if dx * dx + dy * dy <= radius * radius && grid[(row, col)] != value {
                grid[(row, col)] = value;
                changed = true;
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_are_drawn_along_the_move_and_erased() {
        let mut solid = Grid::filled(20, 10, 0u8);
        let s = Stroke { from: (2.0, 5.0), to: (17.0, 5.0), tool: Tool::Wall, erase: false };
        assert!(s.edit_walls(&mut solid, 1.5));
        assert!((2..17).all(|c| solid[(5, c)] == 1), "a continuous wall along row 5");
        assert_eq!(solid[(0, 0)], 0);
        let e = Stroke { erase: true, tool: Tool::Fluid, ..s };
        assert!(e.edit_walls(&mut solid, 1.5));
        assert!(solid.as_slice().iter().all(|&v| v == 0));
        let pour = Stroke { tool: Tool::Fluid, ..s };
        assert!(!pour.edit_walls(&mut solid, 1.5), "pouring does not touch walls");
    }
}
