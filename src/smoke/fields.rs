//! The smoke model's GPU fields, shared by both pipelines' passes ([`super::collocated`], the
//! staggered grid's) and the model that owns them ([`super::gpu`]): the textures, their
//! formats, and which impulse uniform is which.

use crate::gpu::PingPong;

pub(super) const R32: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
pub(super) const RG32: wgpu::TextureFormat = wgpu::TextureFormat::Rg32Float;
pub(super) const BITS: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;
pub(super) const RGBA32: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

/// The fields' textures.
pub(super) struct Fields {
    pub(super) velocity: PingPong,
    pub(super) temperature: PingPong,
    pub(super) density: PingPong,
    pub(super) pressure: PingPong,
    pub(super) divergence: wgpu::Texture,
    pub(super) divergence_view: wgpu::TextureView,
    pub(super) solid: wgpu::Texture,
    pub(super) solid_view: wgpu::TextureView,
    /// The curl at cell centres (staggered grid; stays 0 on the collocated grid).
    pub(super) vorticity_view: wgpu::TextureView,
    /// The dye, `rgba32float` (r g b in .rgb; staggered grid, kept as loaded on the collocated).
    pub(super) dye: PingPong,
}

/// The impulse uniform of a step (the scene's sources).
pub(super) const IMPULSE_STEP: usize = 0;
/// The impulse uniform of the splats.
pub(super) const IMPULSE_SPLAT: usize = 1;

/// The rectangle of nodes an impulse can change: `origin` (col, row) and `size` (cols, rows) of
/// the `(W + 1) x (H + 1)` nodes (a cell and the `u` and `v` faces at its left and top edge
/// share an index). The staggered impulse pass covers it alone (its uniform carries the
/// origin), so the sources' impulse reads the source cells, not the grid, and a splat its disc.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ImpulseRect {
    pub(super) origin: [u32; 2],
    pub(super) size: [u32; 2],
}

impl ImpulseRect {
    /// The bounding box of the source cells that are not solid (the cells the sources' impulse
    /// weighs by 1; it moves no face); empty without any. `(H, W)` masks.
    pub(super) fn sources(solid: &crate::grid::Grid<u8>, source: &crate::grid::Grid<u8>) -> Self {
        let (h, w) = source.shape();
        let (mut lo, mut hi) = ([usize::MAX; 2], [0usize; 2]);
        for r in 0..h {
            for c in 0..w {
                if source[(r, c)] != 0 && solid[(r, c)] == 0 {
                    lo = [lo[0].min(c), lo[1].min(r)];
                    hi = [hi[0].max(c), hi[1].max(r)];
                }
            }
        }
        if lo[0] == usize::MAX {
            return Self::default();
        }
        Self { origin: [lo[0] as u32, lo[1] as u32], size: [(hi[0] - lo[0] + 1) as u32, (hi[1] - lo[1] + 1) as u32] }
    }

    /// The nodes of a grid of `(w, h)` cells within a splat's disc (weight > 0 where the distance
    /// to `center` is below `radius`: cell centres at `(c + 1/2, r + 1/2)`, `u` faces at `(c, r +
    /// 1/2)`, `v` faces at `(c + 1/2, r)`), with a node of margin each side; empty when the disc
    /// misses the grid or is not finite.
    pub(super) fn disc(center: (f32, f32), radius: f32, (w, h): (u32, u32)) -> Self {
        if !(center.0.is_finite() && center.1.is_finite() && radius.is_finite() && radius > 0.0) {
            return Self::default();
        }
        let span = |x: f32, n: u32| {
            let lo = ((x - radius).floor() - 1.0).clamp(0.0, (n + 1) as f32) as u32;
            let end = ((x + radius).ceil() + 2.0).clamp(0.0, (n + 1) as f32) as u32;
            (lo, end.saturating_sub(lo))
        };
        let ((x0, sx), (y0, sy)) = (span(center.0, w), span(center.1, h));
        if sx == 0 || sy == 0 {
            return Self::default();
        }
        Self { origin: [x0, y0], size: [sx, sy] }
    }

    /// The rectangle of `impulse`: `sources` (the scene's, [`ImpulseRect::sources`]) for the
    /// sources' impulse, else its disc's.
    pub(super) fn of(impulse: &super::Impulse, sources: Self, size: (u32, u32)) -> Self {
        if impulse.sources { sources } else { Self::disc(impulse.center, impulse.radius, size) }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.size[0] == 0 || self.size[1] == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::smoke::Impulse;
    use crate::smoke::cpu::disc_weight;
    use crate::smoke::staggered::cpu::face_weight;

    /// Every node an impulse weighs by more than 0 lies in its rectangle: the cells and both
    /// faces of a splat's disc, anywhere on and off the grid, and the open source cells.
    #[test]
    fn an_impulse_rectangle_holds_every_node_it_weighs() {
        let (w, h) = (23u32, 17u32);
        let mut rng = fastrand::Rng::with_seed(3);
        for _ in 0..2000 {
            let imp = Impulse {
                center: (rng.f32() * 40.0 - 8.0, rng.f32() * 30.0 - 6.0),
                radius: rng.f32() * 9.0,
                ..Impulse::default()
            };
            let rect = ImpulseRect::disc(imp.center, imp.radius, (w, h));
            let inside = |c: u32, r: u32| {
                (rect.origin[0]..rect.origin[0] + rect.size[0]).contains(&c)
                    && (rect.origin[1]..rect.origin[1] + rect.size[1]).contains(&r)
            };
            for r in 0..=h {
                for c in 0..=w {
                    let (x, y) = (c as f32, r as f32);
                    let cell = r < h && c < w && disc_weight(&imp, x + 0.5, y + 0.5) > 0.0;
                    let u = r < h && face_weight(&imp, x, y + 0.5) > 0.0;
                    let v = c < w && face_weight(&imp, x + 0.5, y) > 0.0;
                    assert!(!(cell || u || v) || inside(c, r), "{imp:?}: node ({c}, {r}) outside {rect:?}");
                }
            }
            assert!(rect.origin[0] + rect.size[0] <= w + 1 && rect.origin[1] + rect.size[1] <= h + 1, "{rect:?}");
        }
        let solid = Grid::from_fn(w as usize, h as usize, |r, c| (r == 4 && c == 2) as u8);
        let source = Grid::from_fn(w as usize, h as usize, |r, c| {
            ((r, c) == (4, 2) || (r, c) == (5, 9) || (r, c) == (11, 6)) as u8
        });
        assert_eq!(ImpulseRect::sources(&solid, &source), ImpulseRect { origin: [6, 5], size: [4, 7] });
        assert!(ImpulseRect::sources(&solid, &Grid::from_fn(w as usize, h as usize, |_, _| 0)).is_empty());
    }
}
