//! Zooming and panning the viewer over a grid bigger than its window: how much of the grid the
//! view (the panel's free rectangle) shows, the grid letterboxed in it or zoomed in filling it,
//! and the minimap in its corner that shows where the view is.

use crate::render::Area;

/// The most pixels a cell takes when zoomed in.
const MOST_PIXELS_A_CELL: f32 = 64.0;

/// The minimap's longer side and its margin from the frame's corner, pixels.
const MINIMAP_SIDE: f32 = 180.0;
const MINIMAP_MARGIN: f32 = 12.0;

/// The view: `factor` times the grid's fitted size (1: the whole grid fits, letterboxed, in the
/// panel's free rectangle, the *view*), centred on cell coordinates `centre` (`(col, row)`,
/// continuous). Zoomed in, the grid fills the whole view, not only its letterboxed part: a world
/// much wider than tall (a packed world, 16 times as wide) is seen in the window's shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Zoom {
    pub factor: f32,
    pub centre: (f32, f32),
}

impl Zoom {
    /// The whole grid, as the view fits it.
    pub fn whole() -> Self {
        Zoom { factor: 1.0, centre: (f32::NAN, f32::NAN) }
    }

    /// Whether the view shows less than the whole grid.
    pub fn zoomed(&self) -> bool {
        self.factor > 1.0
    }

    /// The largest factor for `view` and `grid`: a cell at most [`MOST_PIXELS_A_CELL`] wide.
    fn most(view: Area, grid: (u32, u32)) -> f32 {
        let fitted = Area::letterbox(view, grid);
        (MOST_PIXELS_A_CELL / (fitted.size.0 / grid.0.max(1) as f32)).max(1.0)
    }

    /// The factor in use (a grid smaller than the one zoomed into, another model or a new scene,
    /// at most as far), the grid's size drawn at it, pixels, and the centre kept where the drawn
    /// grid covers the view, or along a side shorter than the view's, on the grid (so that the
    /// cell under the pointer stays there while a strip is zoomed into).
    fn placed(&self, view: Area, grid: (u32, u32)) -> (f32, (f32, f32), (f32, f32)) {
        let factor = self.factor.clamp(1.0, Self::most(view, grid));
        let fitted = Area::letterbox(view, grid);
        let size = (fitted.size.0 * factor, fitted.size.1 * factor);
        let clamp = |c: f32, n: u32, shown: f32, drawn: f32| {
            // Half the view, in cells.
            let (half, n) = (n as f32 * shown / (2.0 * drawn), n as f32);
            match c.is_finite() {
                false => n / 2.0,
                true if 2.0 * half < n => c.clamp(half, n - half),
                true => c.clamp(0.0, n),
            }
        };
        let centre =
            (clamp(self.centre.0, grid.0, view.size.0, size.0), clamp(self.centre.1, grid.1, view.size.1, size.1));
        (factor, size, centre)
    }

    /// Where the whole grid is drawn, pixels: fitted in `view` (letterboxed), or zoomed in, that
    /// size times the factor about the centre, filling the view.
    pub fn area(&self, view: Area, grid: (u32, u32)) -> Area {
        if !self.zoomed() {
            return Area::letterbox(view, grid);
        }
        let (_, size, (cx, cy)) = self.placed(view, grid);
        let middle = (view.origin.0 + view.size.0 / 2.0, view.origin.1 + view.size.1 / 2.0);
        let origin = (middle.0 - cx / grid.0 as f32 * size.0, middle.1 - cy / grid.1 as f32 * size.1);
        Area { origin: (origin.0.round(), origin.1.round()), size }
    }

    /// Where the grid is seen in `view`, pixels: the fitted grid, or zoomed in, the whole view
    /// (the pointer acts on the grid anywhere in it).
    pub fn frame(&self, view: Area, grid: (u32, u32)) -> Area {
        if self.zoomed() { view } else { Area::letterbox(view, grid) }
    }

    /// Zooms by `1.25^notches` about pixel `p` (the cell under it stays under it), within 1 and
    /// the largest factor.
    pub fn zoom_at(&mut self, view: Area, grid: (u32, u32), p: (f32, f32), notches: f32) {
        let under = self.area(view, grid).cell_at(p, grid);
        let (old, _, centre) = self.placed(view, grid);
        let factor = (old * 1.25f32.powf(notches)).clamp(1.0, Self::most(view, grid));
        let keep = old / factor;
        self.centre = (under.0 + (centre.0 - under.0) * keep, under.1 + (centre.1 - under.1) * keep);
        self.factor = factor;
        self.centre = self.placed(view, grid).2;
    }

    /// Moves the view by `delta` pixels (the grid follows the pointer's drag).
    pub fn pan(&mut self, view: Area, grid: (u32, u32), delta: (f32, f32)) {
        let (_, size, centre) = self.placed(view, grid);
        let per_pixel = (grid.0 as f32 / size.0, grid.1 as f32 / size.1);
        self.centre = (centre.0 - delta.0 * per_pixel.0, centre.1 - delta.1 * per_pixel.1);
        self.centre = self.placed(view, grid).2;
    }

    /// While zoomed, the minimap in the view's bottom-right corner (the whole grid, its longer
    /// side [`MINIMAP_SIDE`] pixels) and the part of it the view shows, pixels.
    pub fn minimap(&self, view: Area, grid: (u32, u32)) -> Option<(Area, Area)> {
        if !self.zoomed() {
            return None;
        }
        let scale = MINIMAP_SIDE / grid.0.max(grid.1).max(1) as f32;
        let size = ((grid.0 as f32 * scale).max(8.0), (grid.1 as f32 * scale).max(8.0));
        let origin = (
            (view.origin.0 + view.size.0 - size.0 - MINIMAP_MARGIN).round(),
            (view.origin.1 + view.size.1 - size.1 - MINIMAP_MARGIN).round(),
        );
        let map = Area { origin, size };
        let area = self.area(view, grid);
        let cell = |p: (f32, f32)| {
            let (c, r) = area.cell_at(p, grid);
            (c.clamp(0.0, grid.0 as f32), r.clamp(0.0, grid.1 as f32))
        };
        let (c0, r0) = cell(view.origin);
        let (c1, r1) = cell((view.origin.0 + view.size.0, view.origin.1 + view.size.1));
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

    /// A world 16 times as wide as tall fits the view as a strip, and zoomed in fills the whole
    /// view, its cells square, with the grid's middle row in the view's middle.
    #[test]
    fn a_wide_world_zoomed_in_fills_the_view() {
        let wide = (32768, 2048);
        let mut z = Zoom::whole();
        let strip = z.frame(FRAME, wide);
        assert_eq!((strip.size.0, strip.size.1), (800.0, 50.0));
        z.zoom_at(FRAME, wide, (700.0, 220.0), 12.0);
        let (area, frame) = (z.area(FRAME, wide), z.frame(FRAME, wide));
        assert_eq!(frame, FRAME);
        assert!((area.size.0 / wide.0 as f32 - area.size.1 / wide.1 as f32).abs() < 1e-3, "{area:?}");
        assert!(area.origin.1 <= FRAME.origin.1 && area.origin.1 + area.size.1 >= FRAME.origin.1 + FRAME.size.1);
        let (_, view) = z.minimap(FRAME, wide).unwrap();
        assert!(view.size.0 > 0.0 && view.size.1 > 0.0, "{view:?}");
        // Notch by notch, the cell under the pointer stays under it (down the grid, while the
        // zoomed strip is shorter than the view; then the view keeps to the grid).
        let mut z = Zoom::whole();
        let p = (364.0, 240.0);
        let under = z.area(FRAME, wide).cell_at(p, wide);
        for _ in 0..15 {
            z.zoom_at(FRAME, wide, p, 1.0);
            let (area, now) = (z.area(FRAME, wide), z.area(FRAME, wide).cell_at(p, wide));
            let per_pixel = wide.0 as f32 / area.size.0;
            assert!((now.0 - under.0).abs() <= 2.0 * per_pixel, "{now:?}");
            if area.size.1 < FRAME.size.1 {
                assert!((now.1 - under.1).abs() <= 2.0 * per_pixel, "{now:?}");
            } else {
                // Within the pixel the origin is rounded to.
                let (top, bottom) = (area.origin.1, area.origin.1 + area.size.1);
                assert!(top <= FRAME.origin.1 + 0.5 && bottom >= FRAME.origin.1 + FRAME.size.1 - 0.5, "{area:?}");
            }
        }
    }

    #[test]
    fn a_cell_is_at_most_64_pixels() {
        let mut z = Zoom::whole();
        z.zoom_at(FRAME, (64, 32), (400.0, 200.0), 1000.0);
        assert_eq!(z.area(FRAME, (64, 32)).size.0 / 64.0, MOST_PIXELS_A_CELL);
    }
}
