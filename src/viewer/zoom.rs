//! Zooming and panning the viewer over a grid bigger than its window: how much of the grid the
//! simulation's frame shows (the letterboxed rectangle beside the panel), and the minimap in its
//! corner that shows where the view is.

use crate::render::Area;

/// The most pixels a cell takes when zoomed in.
const MOST_PIXELS_A_CELL: f32 = 64.0;

/// The minimap's longer side and its margin from the frame's corner, pixels.
const MINIMAP_SIDE: f32 = 180.0;
const MINIMAP_MARGIN: f32 = 12.0;

/// The view: `factor` times the grid's fitted size (1: the whole grid fits the frame), centred on
/// cell coordinates `centre` (`(col, row)`, continuous).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Zoom {
    pub factor: f32,
    pub centre: (f32, f32),
}

impl Zoom {
    /// The whole grid, as the frame fits it.
    pub fn whole() -> Self {
        Zoom { factor: 1.0, centre: (f32::NAN, f32::NAN) }
    }

    /// Whether the view shows less than the whole grid.
    pub fn zoomed(&self) -> bool {
        self.factor > 1.0
    }

    /// The largest factor for `frame` and `grid`: a cell at most [`MOST_PIXELS_A_CELL`] wide.
    fn most(frame: Area, grid: (u32, u32)) -> f32 {
        (MOST_PIXELS_A_CELL / (frame.size.0 / grid.0.max(1) as f32)).max(1.0)
    }

    /// The centre kept where the zoomed grid covers the whole frame (the grid's middle when it is
    /// not zoomed).
    fn clamped(&self, grid: (u32, u32)) -> (f32, f32) {
        let clamp = |c: f32, n: u32| {
            let half = n as f32 / (2.0 * self.factor);
            if c.is_finite() { c.clamp(half, n as f32 - half) } else { n as f32 / 2.0 }
        };
        (clamp(self.centre.0, grid.0), clamp(self.centre.1, grid.1))
    }

    /// Where the whole grid is drawn, pixels: `frame` (the grid fitted, letterboxed) scaled by
    /// the factor about the centre, so the frame shows the part around it.
    pub fn area(&self, frame: Area, grid: (u32, u32)) -> Area {
        if !self.zoomed() {
            return frame;
        }
        // A grid smaller than the one zoomed into (another model, a new scene) at most as far.
        let factor = self.factor.min(Self::most(frame, grid));
        let z = Zoom { factor, ..*self };
        let (cx, cy) = z.clamped(grid);
        let size = (frame.size.0 * factor, frame.size.1 * factor);
        let middle = (frame.origin.0 + frame.size.0 / 2.0, frame.origin.1 + frame.size.1 / 2.0);
        let origin = (middle.0 - cx / grid.0 as f32 * size.0, middle.1 - cy / grid.1 as f32 * size.1);
        Area { origin: (origin.0.round(), origin.1.round()), size }
    }

    /// Zooms by `1.25^notches` about pixel `p` (the cell under it stays under it), within 1 and
    /// the largest factor.
    pub fn zoom_at(&mut self, frame: Area, grid: (u32, u32), p: (f32, f32), notches: f32) {
        let area = self.area(frame, grid);
        let under = area.cell_at(p, grid);
        let centre = self.clamped(grid);
        let factor = (self.factor * 1.25f32.powf(notches)).clamp(1.0, Self::most(frame, grid));
        let keep = self.factor / factor;
        self.centre = (under.0 + (centre.0 - under.0) * keep, under.1 + (centre.1 - under.1) * keep);
        self.factor = factor;
        self.centre = self.clamped(grid);
    }

    /// Moves the view by `delta` pixels (the grid follows the pointer's drag).
    pub fn pan(&mut self, frame: Area, grid: (u32, u32), delta: (f32, f32)) {
        let area = self.area(frame, grid);
        let centre = self.clamped(grid);
        let per_pixel = (grid.0 as f32 / area.size.0, grid.1 as f32 / area.size.1);
        self.centre = (centre.0 - delta.0 * per_pixel.0, centre.1 - delta.1 * per_pixel.1);
        self.centre = self.clamped(grid);
    }

    /// While zoomed, the minimap in the frame's bottom-right corner (the whole grid, its longer
    /// side [`MINIMAP_SIDE`] pixels) and the part of it the frame shows, pixels.
    pub fn minimap(&self, frame: Area, grid: (u32, u32)) -> Option<(Area, Area)> {
        if !self.zoomed() {
            return None;
        }
        let scale = MINIMAP_SIDE / grid.0.max(grid.1).max(1) as f32;
        let size = ((grid.0 as f32 * scale).max(8.0), (grid.1 as f32 * scale).max(8.0));
        let origin = (
            (frame.origin.0 + frame.size.0 - size.0 - MINIMAP_MARGIN).round(),
            (frame.origin.1 + frame.size.1 - size.1 - MINIMAP_MARGIN).round(),
        );
        let map = Area { origin, size };
        let area = self.area(frame, grid);
        let (c0, r0) = area.cell_at(frame.origin, grid);
        let (c1, r1) = area.cell_at((frame.origin.0 + frame.size.0, frame.origin.1 + frame.size.1), grid);
        let at = |c: f32, r: f32| (origin.0 + c / grid.0 as f32 * size.0, origin.1 + r / grid.1 as f32 * size.1);
        let (a, b) = (at(c0, r0), at(c1, r1));
        Some((map, Area { origin: a, size: (b.0 - a.0, b.1 - a.1) }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAME: Area = Area { origin: (300.0, 20.0), size: (800.0, 400.0) };
    const GRID: (u32, u32) = (16384, 8192);

    #[test]
    fn unzoomed_it_is_the_frame_and_has_no_minimap() {
        let z = Zoom::whole();
        assert_eq!(z.area(FRAME, GRID), FRAME);
        assert!(z.minimap(FRAME, GRID).is_none());
    }

    #[test]
    fn zooming_keeps_the_cell_under_the_pointer() {
        let mut z = Zoom::whole();
        let p = (500.0, 300.0);
        let before = z.area(FRAME, GRID).cell_at(p, GRID);
        z.zoom_at(FRAME, GRID, p, 10.0);
        assert!(z.factor > 9.0);
        let after = z.area(FRAME, GRID).cell_at(p, GRID);
        // Within a pixel's worth of cells (the origin is rounded to whole pixels).
        let per_pixel = GRID.0 as f32 / z.area(FRAME, GRID).size.0;
        assert!(
            (before.0 - after.0).abs() <= per_pixel && (before.1 - after.1).abs() <= per_pixel,
            "{before:?} {after:?}"
        );
        z.zoom_at(FRAME, GRID, p, -100.0);
        assert_eq!(z.factor, 1.0);
        assert_eq!(z.area(FRAME, GRID), FRAME);
    }

    #[test]
    fn the_view_stays_on_the_grid_and_the_minimap_shows_it() {
        let mut z = Zoom { factor: 8.0, centre: (100.0, 100.0) };
        // Clamped: the frame's top-left corner shows the grid's top-left cell.
        let a = z.area(FRAME, GRID);
        let corner = a.cell_at(FRAME.origin, GRID);
        assert!(corner.0.abs() < 3.0 && corner.1.abs() < 3.0, "{corner:?}");
        z.pan(FRAME, GRID, (-1e9, -1e9)); // dragged far left and up: the bottom-right end
        let far = z.area(FRAME, GRID).cell_at((FRAME.origin.0 + FRAME.size.0, FRAME.origin.1 + FRAME.size.1), GRID);
        assert!((far.0 - GRID.0 as f32).abs() < 3.0 && (far.1 - GRID.1 as f32).abs() < 3.0, "{far:?}");
        let (map, view) = z.minimap(FRAME, GRID).unwrap();
        assert_eq!(map.size, (180.0, 90.0));
        // An eighth of the grid each way, in the map's bottom-right corner.
        assert!((view.size.0 - 180.0 / 8.0).abs() < 0.5 && (view.size.1 - 90.0 / 8.0).abs() < 0.5, "{view:?}");
        assert!((view.origin.0 + view.size.0 - (map.origin.0 + map.size.0)).abs() < 0.5, "{view:?} {map:?}");
    }

    #[test]
    fn a_cell_is_at_most_64_pixels() {
        let mut z = Zoom::whole();
        z.zoom_at(FRAME, (64, 32), (400.0, 200.0), 1000.0);
        assert_eq!(z.area(FRAME, (64, 32)).size.0 / 64.0, MOST_PIXELS_A_CELL);
    }
}
