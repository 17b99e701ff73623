//! Smoke's styled look: the dye drawn as a lit, self-shadowing medium with a glow
//! (`shaders/render/smoke_lit.wgsl`, whose header gives the formulas), and its CPU mirror
//! [`shade`].

use super::{Area, Blend, Drawing, Fullscreen, mix};
use crate::colour::{ColourMap, Legend};
use crate::gpu::GpuError;
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::shaders;
use crate::smoke::{GpuSmoke, GridLayout};

/// Mirrors `struct View` in `shaders/render/smoke_lit.wgsl` (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct View {
    grid: [f32; 2],
    area_size: [f32; 2],
    area_origin: [f32; 2],
    srgb_target: u32,
    alpha: u32,
    has_dye: u32,
    bloom: f32,
    light: [f32; 2],
}

// The shader's constants, which the mirror uses as they are.
const SOLID_COLOUR: [f32; 3] = [0.45, 0.45, 0.48];
const BACKGROUND: [f32; 3] = [0.03, 0.04, 0.08];
const OPACITY: f32 = 3.0;
const RELIEF: f32 = 6.0;
const LIGHT_HEIGHT: f32 = 0.8;
const SHADOW: f32 = 0.16;
const SHADOW_STEPS: i32 = 6;
const SHADOW_STEP: f32 = 3.0;
const AMBIENT: f32 = 0.3;
const DIFFUSE: f32 = 1.0;
const BLOOM_TAPS: i32 = 6;
const BLOOM_RADIUS: f32 = 5.0;

/// How the light falls and glows: a [`SmokeLitRenderer`]'s settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lighting {
    /// Where the light is, a direction in the screen's plane (x right, y down; made unit
    /// length when drawn): `(-0.6, -0.8)`, the default, is up and to the left.
    pub light: (f32, f32),
    /// The glow's strength, 0 (none) to about 1: the mean colour of the smoke 5 cells around a
    /// pixel times this, added to it.
    pub bloom: f32,
}

impl Default for Lighting {
    fn default() -> Self {
        Lighting { light: (-0.6, -0.8), bloom: 0.3 }
    }
}

impl Lighting {
    /// The light's direction made unit length (up, `(0, -1)`, when it has none or is not
    /// finite), and the bloom clamped to `0..=4` (0 when not finite).
    fn fitted(self) -> ([f32; 2], f32) {
        let (x, y) = self.light;
        let n = (x * x + y * y).sqrt();
        let light = if n.is_finite() && n > 1e-6 { [x / n, y / n] } else { [0.0, -1.0] };
        let bloom = if self.bloom.is_finite() { self.bloom.clamp(0.0, 4.0) } else { 0.0 };
        (light, bloom)
    }
}

/// Draws a [`GpuSmoke`] lit: the dye (the density, white, on the collocated grid, which has no
/// dye) as a medium whose opacity follows Beer-Lambert, shaded by its gradient as if it were a
/// height, shadowed by the smoke between it and the light, with an optional glow, over a dark
/// background or, with [`Blend::Alpha`], over what the target holds.
pub struct SmokeLitRenderer {
    pass: Fullscreen,
    /// The light and the glow of the draws prepared from now on.
    pub lighting: Lighting,
}

impl SmokeLitRenderer {
    /// An opaque renderer whose output is a `format` target (as [`super::WaterRenderer::new`]).
    ///
    /// # Errors
    /// As [`super::WaterRenderer::new`].
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Result<Self, GpuError> {
        Self::with_blend(device, format, Blend::Opaque)
    }

    /// A renderer for `format` targets whose pixels combine with the target's as `blend` says
    /// (with [`Blend::Alpha`], empty air is transparent and thin smoke translucent).
    ///
    /// # Errors
    /// As [`super::WaterRenderer::new`].
    pub fn with_blend(device: &wgpu::Device, format: wgpu::TextureFormat, blend: Blend) -> Result<Self, GpuError> {
        let pass = Fullscreen::new(device, "render/smoke_lit", shaders::RENDER_SMOKE_LIT, format, blend)?;
        Ok(Self { pass, lighting: Lighting::default() })
    }

    /// What the look shows, for a legend.
    pub fn legend() -> Legend {
        Legend::Own("the dye lit from the upper left, shaded by its gradient and self-shadowed, with a glow")
    }

    /// Prepares a draw of `sim` filling `area` of a target; as [`super::WaterRenderer::prepare`].
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        area: impl Into<Area>,
        sim: &GpuSmoke,
    ) -> Drawing {
        let (w, h) = sim.size();
        let area = area.into();
        let has_dye = sim.grid() == GridLayout::Staggered;
        let (light, bloom) = self.lighting.fitted();
        let view = View {
            grid: [w as f32, h as f32],
            area_size: [area.size.0, area.size.1],
            area_origin: [area.origin.0, area.origin.1],
            srgb_target: self.pass.srgb as u32,
            alpha: self.pass.alpha(),
            has_dye: has_dye as u32,
            bloom,
            light,
        };
        let field = if has_dye { sim.dye_view() } else { sim.density_view() };
        let bytes = bytemuck::bytes_of(&view);
        self.pass.prepare(device, encoder, area, bytes, field, sim.solid_view(), ColourMap::Own, None)
    }
}

/// The fields [`shade`] reads: `(H, W)` each, row 0 at the top.
pub struct Fields<'a> {
    /// The dye's red, green and blue; `None` draws `density` in white (the collocated grid).
    pub dye: Option<&'a [Grid<f32>; 3]>,
    /// The density.
    pub density: &'a Grid<f32>,
    /// 1 = solid.
    pub solid: &'a Grid<u8>,
}

impl Fields<'_> {
    /// Colour (rgb) and amount at texel `(x, y)`, clamped to the grid (the shader's `texel`).
    fn texel(&self, x: i32, y: i32) -> [f32; 4] {
        let (h, w) = self.density.shape();
        let at = (y.clamp(0, h as i32 - 1) as usize, x.clamp(0, w as i32 - 1) as usize);
        match self.dye {
            Some(dye) => {
                let rgb = [dye[0][at].max(0.0), dye[1][at].max(0.0), dye[2][at].max(0.0)];
                [rgb[0], rgb[1], rgb[2], rgb[0].max(rgb[1].max(rgb[2]))]
            }
            None => [self.density[at].max(0.0); 4],
        }
    }

    /// Bilinear between cell centres at continuous cell coordinates `(x, y)` (the shader's
    /// `sample`).
    fn sample(&self, x: f32, y: f32) -> [f32; 4] {
        let (x, y) = (x - 0.5, y - 0.5);
        let (bx, by) = (x.floor(), y.floor());
        let (fx, fy) = (x - bx, y - by);
        let (bx, by) = (bx as i32, by as i32);
        let (a, b, c, d) =
            (self.texel(bx, by), self.texel(bx + 1, by), self.texel(bx, by + 1), self.texel(bx + 1, by + 1));
        std::array::from_fn(|i| mix(mix(a[i], b[i], fx), mix(c[i], d[i], fx), fy))
    }
}

/// The CPU mirror of `shaders/render/smoke_lit.wgsl`: the colour (sRGB-encoded, 0 to 1, with
/// alpha; premultiplied when `blend` is [`Blend::Alpha`]) the look gives pixel centre `pixel`
/// (pixels, in a target where `fields` fill `area`).
pub fn shade(fields: &Fields<'_>, area: Area, lighting: Lighting, blend: Blend, pixel: (f32, f32)) -> [f32; 4] {
    let (h, w) = fields.density.shape();
    let (ux, uy) = area.cell_at(pixel, (w as u32, h as u32));
    let cell = (uy.floor(), ux.floor());
    let solid = cell.0 >= 0.0
        && cell.1 >= 0.0
        && (cell.0 as usize) < h
        && (cell.1 as usize) < w
        && fields.solid[(cell.0 as usize, cell.1 as usize)] & 1 != 0;
    if solid {
        return [SOLID_COLOUR[0], SOLID_COLOUR[1], SOLID_COLOUR[2], 1.0];
    }
    let (light, bloom) = lighting.fitted();
    let s = fields.sample(ux, uy);
    let amount = s[3];
    let a = 1.0 - (-OPACITY * amount).exp();
    let albedo: [f32; 3] = if amount > 1e-6 { [s[0] / amount, s[1] / amount, s[2] / amount] } else { [1.0; 3] };
    let gx = fields.sample(ux + 0.5, uy)[3] - fields.sample(ux - 0.5, uy)[3];
    let gy = fields.sample(ux, uy + 0.5)[3] - fields.sample(ux, uy - 0.5)[3];
    let n = normalize([-RELIEF * gx, -RELIEF * gy, 1.0]);
    let l = normalize([light[0], light[1], LIGHT_HEIGHT]);
    let mut depth = 0.0;
    for i in 1..=SHADOW_STEPS {
        let d = SHADOW_STEP * i as f32;
        depth += fields.sample(ux + light[0] * d, uy + light[1] * d)[3];
    }
    let t = (-SHADOW * depth).exp();
    let diffuse = (n[0] * l[0] + n[1] * l[1] + n[2] * l[2]).max(0.0);
    let lit: [f32; 3] = std::array::from_fn(|i| (albedo[i] * (AMBIENT + DIFFUSE * diffuse * t)).min(1.0));
    let mut glow = [0.0f32; 3];
    if bloom > 0.0 {
        for i in 0..BLOOM_TAPS {
            let angle = std::f32::consts::TAU * i as f32 / BLOOM_TAPS as f32;
            let (dx, dy) = (angle.cos(), angle.sin());
            let tap = fields.sample(ux + BLOOM_RADIUS * dx, uy + BLOOM_RADIUS * dy);
            for c in 0..3 {
                glow[c] += tap[c];
            }
        }
        glow = glow.map(|g| g * bloom / BLOOM_TAPS as f32);
    }
    match blend {
        Blend::Alpha => {
            let colour: [f32; 3] = std::array::from_fn(|i| (lit[i] * a + glow[i]).min(1.0));
            [colour[0], colour[1], colour[2], (a + glow[0].max(glow[1].max(glow[2]))).min(1.0)]
        }
        Blend::Opaque => {
            let colour: [f32; 3] = std::array::from_fn(|i| (BACKGROUND[i] * (1.0 - a) + lit[i] * a + glow[i]).min(1.0));
            [colour[0], colour[1], colour[2], 1.0]
        }
    }
}

fn normalize(v: [f32; 3]) -> [f32; 3] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|c| c / n)
}
