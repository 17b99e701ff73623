//! Gas's styled look: a numerical schlieren image of the density (Quirk 1994;
//! `shaders/render/gas_schlieren.wgsl`, whose header gives the formula), and its CPU mirror
//! [`shade`].

use super::{Area, Blend, Drawing, Fullscreen, mix};
use crate::colour::{ColourMap, Legend};
use crate::gas::GpuGas;
use crate::gpu::GpuError;
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::shaders;

/// Mirrors `struct View` in `shaders/render/gas_schlieren.wgsl` (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct View {
    grid: [f32; 2],
    area_size: [f32; 2],
    area_origin: [f32; 2],
    srgb_target: u32,
    strength: f32,
    _pad: [f32; 4],
}

// The shader's constants, which the mirror uses as they are.
const WALL_COLOUR: [f32; 3] = [0.55, 0.55, 0.58];
const LIGHT: [f32; 3] = [0.93, 0.91, 0.86];
const DARK: [f32; 3] = [0.06, 0.05, 0.05];

/// How dark a density gradient draws by default, per unit of density per cell: a sound wave of
/// amplitude 0.01 over a few cells shows, a shock (a jump of 0.5 over two cells) is black.
pub const SCHLIEREN_STRENGTH: f32 = 30.0;

/// Draws a [`GpuGas`] as a schlieren photograph shows a flow: light where the density is even,
/// darker the steeper its gradient (`exp(-strength |grad rho|)`), so shocks, sound waves and
/// the edges of jets stand out; walls grey. Opaque whatever the blend (gas fills its box).
pub struct GasSchlierenRenderer {
    pass: Fullscreen,
    /// How dark a gradient draws, per unit of density per cell ([`SCHLIEREN_STRENGTH`]).
    pub strength: f32,
}

impl GasSchlierenRenderer {
    /// A renderer whose output is a `format` target (as [`super::WaterRenderer::new`]).
    ///
    /// # Errors
    /// As [`super::WaterRenderer::new`].
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Result<Self, GpuError> {
        Self::with_blend(device, format, Blend::Opaque)
    }

    /// A renderer for `format` targets (gas fills its box, so its pixels stay opaque whatever
    /// `blend` says).
    ///
    /// # Errors
    /// As [`super::WaterRenderer::new`].
    pub fn with_blend(device: &wgpu::Device, format: wgpu::TextureFormat, blend: Blend) -> Result<Self, GpuError> {
        let pass = Fullscreen::new(device, "render/gas_schlieren", shaders::RENDER_GAS_SCHLIEREN, format, blend)?;
        Ok(Self { pass, strength: SCHLIEREN_STRENGTH })
    }

    /// What the look shows, for a legend.
    pub fn legend() -> Legend {
        Legend::Own("schlieren: light where the density is even, darker the steeper its gradient; walls grey")
    }

    /// Prepares a draw of `sim` filling `area` of a target; as [`super::WaterRenderer::prepare`].
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        area: impl Into<Area>,
        sim: &GpuGas,
    ) -> Drawing {
        let (w, h) = sim.size();
        let area = area.into();
        let view = View {
            grid: [w as f32, h as f32],
            area_size: [area.size.0, area.size.1],
            area_origin: [area.origin.0, area.origin.1],
            srgb_target: self.pass.srgb as u32,
            strength: if self.strength.is_finite() { self.strength.max(0.0) } else { SCHLIEREN_STRENGTH },
            _pad: [0.0; 4],
        };
        let bytes = bytemuck::bytes_of(&view);
        self.pass.prepare(device, encoder, area, bytes, sim.state_view(), sim.solid_view(), ColourMap::Own, None)
    }
}

/// The CPU mirror of `shaders/render/gas_schlieren.wgsl`: the colour (sRGB-encoded, 0 to 1, and
/// opaque) the look gives pixel centre `pixel`, for `density` and `solid` (`(H, W)`; non-zero a
/// wall or a body's cell) filling `area`.
pub fn shade(density: &Grid<f32>, solid: &Grid<u8>, strength: f32, area: Area, pixel: (f32, f32)) -> [f32; 4] {
    let (h, w) = density.shape();
    let wall =
        |x: i32, y: i32| x < 0 || y < 0 || x >= w as i32 || y >= h as i32 || solid[(y as usize, x as usize)] != 0;
    let rho = |x: i32, y: i32| density[(y as usize, x as usize)];
    let beside = |x: i32, y: i32, own: f32| if wall(x, y) { own } else { rho(x, y) };
    let gradient = |x: i32, y: i32, here: f32| {
        if wall(x, y) {
            return here;
        }
        let own = rho(x, y);
        let gx = beside(x + 1, y, own) - beside(x - 1, y, own);
        let gy = beside(x, y + 1, own) - beside(x, y - 1, own);
        0.5 * (gx * gx + gy * gy).sqrt()
    };
    let (ux, uy) = area.cell_at(pixel, (w as u32, h as u32));
    let cell = ((ux.floor() as i32).clamp(0, w as i32 - 1), (uy.floor() as i32).clamp(0, h as i32 - 1));
    if wall(cell.0, cell.1) {
        return [WALL_COLOUR[0], WALL_COLOUR[1], WALL_COLOUR[2], 1.0];
    }
    let here = gradient(cell.0, cell.1, 0.0);
    let (x, y) = (ux - 0.5, uy - 0.5);
    let (bx, by) = (x.floor() as i32, y.floor() as i32);
    let (fx, fy) = (x - x.floor(), y - y.floor());
    let g = mix(
        mix(gradient(bx, by, here), gradient(bx + 1, by, here), fx),
        mix(gradient(bx, by + 1, here), gradient(bx + 1, by + 1, here), fx),
        fy,
    );
    let t = (-strength * g).exp();
    [mix(DARK[0], LIGHT[0], t), mix(DARK[1], LIGHT[1], t), mix(DARK[2], LIGHT[2], t), 1.0]
}
