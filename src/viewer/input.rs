//! Pointer input -> strokes: where to stamp brushes, and the wall-mask edits they make.

use eddy::Grid;

/// What a held mouse button does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tool {
    /// Left button: pour water / push gas (Shift: erase).
    Pour,
    /// Right button: draw walls (Shift: erase).
    Wall,
}

/// The pointer: position (window pixels), held tool, Shift, and whether the press has moved.
#[derive(Default)]
pub struct Pointer {
    pub at: Option<(f32, f32)>,
    pub last: Option<(f32, f32)>,
    pub held: Option<Tool>,
    pub shift: bool,
    pub moved: bool,
}

/// One pointer move: disc centres along it (cells, `(col, row)`), and whether walls changed.
pub struct Stroke {
    pub stamps: Vec<(f32, f32)>,
    pub solid_changed: bool,
    /// Unit direction of the move (0 when it did not move).
    pub direction: (f32, f32),
}

/// Stamps discs of `radius` cells along `from -> to`; drawing walls (or erasing) edits `solid`
/// on the way.
pub fn stroke(from: (f32, f32), to: (f32, f32), radius: f32, tool: Tool, erase: bool, solid: &mut Grid<u8>) -> Stroke {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    let direction = if len > 0.0 { (dx / len, dy / len) } else { (0.0, 0.0) };
    let count = (len / (radius * 0.5)).ceil().max(1.0) as usize;
    let mut s = Stroke { stamps: Vec::with_capacity(count + 1), solid_changed: false, direction };
    for i in 0..=count {
        let t = i as f32 / count as f32;
        let center = (from.0 + dx * t, from.1 + dy * t);
        if erase || tool == Tool::Wall {
            s.solid_changed |= set_disc(solid, center, radius, (!erase) as u8);
        }
        s.stamps.push(center);
    }
    s
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
