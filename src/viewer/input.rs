//! Pointer input -> brush edits of the water state.

use eddy::Grid;
use eddy::water::Brush;

/// What a held mouse button does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tool {
    /// Left button: pour water (Shift: erase water and walls).
    Pour,
    /// Right button: draw walls (Shift: erase water and walls).
    Wall,
}

/// The pointer: position (window pixels), held tool, Shift.
#[derive(Default)]
pub struct Pointer {
    pub at: Option<(f32, f32)>,
    pub last: Option<(f32, f32)>,
    pub held: Option<Tool>,
    pub shift: bool,
}

/// The edits one pointer move makes.
pub struct Edit {
    /// Mass brushes to apply, in order.
    pub brushes: Vec<Brush>,
    /// Whether `solid` was changed (and must be uploaded).
    pub solid_changed: bool,
}

/// Mass added per cell per brush stamp when pouring (full-cell units).
const POUR: f32 = 0.5;

/// Stamps discs of `radius` cells along the segment `from -> to` (cell coordinates `(col, row)`).
pub fn stroke(from: (f32, f32), to: (f32, f32), radius: f32, tool: Tool, erase: bool, solid: &mut Grid<u8>) -> Edit {
    let len = ((to.0 - from.0).powi(2) + (to.1 - from.1).powi(2)).sqrt();
    let stamps = (len / (radius * 0.5)).ceil().max(1.0) as usize;
    let mut edit = Edit { brushes: Vec::new(), solid_changed: false };
    for i in 0..=stamps {
        let t = i as f32 / stamps as f32;
        let center = (from.0 + (to.0 - from.0) * t, from.1 + (to.1 - from.1) * t);
        if erase || tool == Tool::Wall {
            let value = (!erase) as u8;
            edit.solid_changed |= set_disc(solid, center, radius, value);
        }
        if erase {
            edit.brushes.push(Brush { center, radius, scale: 0.0, add: 0.0 });
        } else if tool == Tool::Pour && i == stamps {
            edit.brushes.push(Brush { center, radius, scale: 1.0, add: POUR });
        }
    }
    edit
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
