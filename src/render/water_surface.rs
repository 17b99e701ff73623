//! Water's styled look: the water as a surface with a smooth edge, tinted by depth, with foam
//! where it moves fast (`shaders/render/water_surface.wgsl` and `water_foam.wgsl`, whose headers
//! give the formulas), and their CPU mirrors [`foam`] and [`shade`].

use super::{Area, Blend, Drawing, Fullscreen, mix};
use crate::colour::{ColourMap, Legend};
use crate::gpu::{self, DeviceCaps, GpuError};
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::shaders;
use crate::water::GpuWater;

/// Mirrors `struct View` in `shaders/render/water_surface.wgsl` (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct View {
    grid: [f32; 2],
    area_size: [f32; 2],
    area_origin: [f32; 2],
    srgb_target: u32,
    alpha: u32,
    max_compress: f32,
    _pad: [f32; 3],
}

/// Mirrors `struct Foam` in `shaders/render/water_foam.wgsl` (16 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct FoamUniform {
    steps: f32,
    min_mass: f32,
    _pad: [f32; 2],
}

// The shaders' constants, which the mirrors use as they are.
const AIR: [f32; 3] = [0.88, 0.93, 0.97];
const GROUND: [f32; 3] = [0.42, 0.31, 0.22];
const SHALLOW: [f32; 3] = [0.25, 0.62, 0.88];
const DEEP: [f32; 3] = [0.02, 0.12, 0.32];
const SURFACE: [f32; 3] = [0.70, 0.90, 1.0];
const FOAM: [f32; 3] = [0.97, 0.98, 1.0];
const ISO: f32 = 0.5;
const THIN: f32 = 0.6;
const RIM: f32 = 0.4;
const DEPTH_SCALE: f32 = 8.0;
const FOAM_FLOOR: f32 = 0.01;
const FOAM_GAIN: f32 = 10.0;
const FOAM_KEEP: f32 = 0.97;

/// The foam pass's state: (mass, foam) per cell as of the last draw (`rg32float`, the current
/// texture of the pair; the pass writes the other), and the step it was drawn at.
struct FoamState {
    textures: gpu::PingPong,
    /// [`GpuModel::steps_recorded`] at the last draw; `None` before the first.
    drawn_at: Option<u64>,
}

/// Draws a [`GpuWater`] as a surface: the mass interpolated between cell centres and cut at
/// half a full cell, anti-aliased; under the surface a blue that deepens with the depth the
/// compression tells (Elsts: a cell under `d` full cells holds about `1 + d * max_compress`),
/// lighter along the top (interpolated by Catmull-Rom splines, smooth and through each cell's
/// value); foam where the mass changes fast (per step, between draws), fading over tens of steps; ground brown; air
/// pale, or transparent with [`Blend::Alpha`]. The foam is kept between draws, so draw one
/// `WaterSurfaceRenderer` a model (a new grid starts it afresh).
pub struct WaterSurfaceRenderer {
    pass: Fullscreen,
    foam: gpu::Kernel,
    uniform: wgpu::Buffer,
    state: Option<FoamState>,
}

impl WaterSurfaceRenderer {
    /// An opaque renderer whose output is a `format` target (as [`super::WaterRenderer::new`]);
    /// `caps` are the device's, for the foam pass.
    ///
    /// # Errors
    /// As [`super::WaterRenderer::new`].
    pub fn new(device: &wgpu::Device, caps: &DeviceCaps, format: wgpu::TextureFormat) -> Result<Self, GpuError> {
        Self::with_blend(device, caps, format, Blend::Opaque)
    }

    /// A renderer for `format` targets whose pixels combine with the target's as `blend` says
    /// (with [`Blend::Alpha`], air is transparent).
    ///
    /// # Errors
    /// As [`super::WaterRenderer::new`].
    pub fn with_blend(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        format: wgpu::TextureFormat,
        blend: Blend,
    ) -> Result<Self, GpuError> {
        let pass = Fullscreen::new(device, "render/water_surface", shaders::RENDER_WATER_SURFACE, format, blend)?;
        let foam =
            gpu::scoped(device, || gpu::Kernel::new(device, caps, "render/water_foam", shaders::RENDER_WATER_FOAM))?;
        let uniform = gpu::uniform_buffer(device, "render/water_foam", std::mem::size_of::<FoamUniform>());
        Ok(Self { pass, foam, uniform, state: None })
    }

    /// What the look shows, for a legend.
    pub fn legend() -> Legend {
        Legend::Own(
            "water deepening in colour with depth, lighter at the surface, foam where it moves fast; ground brown",
        )
    }

    /// Prepares a draw of `sim` filling `area` of a target; as [`super::WaterRenderer::prepare`].
    /// Records the foam pass into `encoder` first: where `sim` has stepped since the last draw,
    /// the foam grows where the mass changed and fades elsewhere; otherwise (a paused model) it
    /// holds still.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        area: impl Into<Area>,
        sim: &GpuWater,
    ) -> Drawing {
        let (w, h) = sim.size();
        let area = area.into();
        let fresh =
            self.state.as_ref().is_none_or(|s| (s.textures.current().width(), s.textures.current().height()) != (w, h));
        if fresh {
            let textures = gpu::PingPong::new(device, "water foam", w, h, wgpu::TextureFormat::Rg32Float);
            self.state = Some(FoamState { textures, drawn_at: None });
        }
        let state = self.state.as_mut().expect("made above");
        let step = sim.steps_recorded();
        let uniform = FoamUniform {
            steps: state.drawn_at.map_or(0.0, |s| step.saturating_sub(s).min(1 << 20) as f32),
            min_mass: sim.params().min_mass,
            _pad: [0.0; 2],
        };
        gpu::in_order::write_buffer(device, encoder, &self.uniform, 0, bytemuck::bytes_of(&uniform));
        let (before, after) = (state.textures.read_index(), 1 - state.textures.read_index());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            let resources = [
                self.uniform.as_entire_binding(),
                wgpu::BindingResource::TextureView(sim.mass_view()),
                wgpu::BindingResource::TextureView(&state.textures.views()[before]),
                wgpu::BindingResource::TextureView(sim.solid_view()),
                wgpu::BindingResource::TextureView(&state.textures.views()[after]),
            ];
            self.foam.dispatch_once(&mut pass, device, &resources, w, h);
        }
        state.textures.swap();
        state.drawn_at = Some(step);
        let view = View {
            grid: [w as f32, h as f32],
            area_size: [area.size.0, area.size.1],
            area_origin: [area.origin.0, area.origin.1],
            srgb_target: self.pass.srgb as u32,
            alpha: self.pass.alpha(),
            max_compress: sim.params().max_compress,
            _pad: [0.0; 3],
        };
        let bytes = bytemuck::bytes_of(&view);
        self.pass.prepare(
            device,
            encoder,
            area,
            bytes,
            state.textures.current_view(),
            sim.solid_view(),
            ColourMap::Own,
            None,
        )
    }
}

/// The CPU mirror of `shaders/render/water_foam.wgsl`: the (mass, foam) of every cell after a
/// draw of `mass` (`(H, W)`), given `before`'s as of the last draw (all 0 before the first) and
/// the steps taken since (0 for the first draw).
pub fn foam(mass: &Grid<f32>, before: &Grid<[f32; 2]>, solid: &Grid<u8>, steps: u32, min_mass: f32) -> Grid<[f32; 2]> {
    let (h, w) = mass.shape();
    Grid::from_fn(w, h, |r, c| {
        let m = mass[(r, c)];
        let was = before[(r, c)];
        let mut f = was[1];
        if steps > 0 {
            let rate = (m - was[0]).abs() / steps as f32;
            f = (f * FOAM_KEEP.powf(steps as f32)).max(((rate - FOAM_FLOOR) * FOAM_GAIN).clamp(0.0, 1.0));
        }
        if solid[(r, c)] & 1 != 0 || m < min_mass {
            f = 0.0;
        }
        [m, f]
    })
}

/// The CPU mirror of `shaders/render/water_surface.wgsl`: the colour (sRGB-encoded, 0 to 1, with
/// alpha; premultiplied when `blend` is [`Blend::Alpha`]) the look gives pixel centre `pixel`,
/// from the (mass, foam) of every cell ([`foam`]'s) filling `area`.
pub fn shade(
    state: &Grid<[f32; 2]>,
    solid: &Grid<u8>,
    max_compress: f32,
    area: Area,
    blend: Blend,
    pixel: (f32, f32),
) -> [f32; 4] {
    let (h, w) = solid.shape();
    let is_solid =
        |x: i32, y: i32| x < 0 || y < 0 || x >= w as i32 || y >= h as i32 || solid[(y as usize, x as usize)] & 1 != 0;
    let (ux, uy) = area.cell_at(pixel, (w as u32, h as u32));
    let cell = ((ux.floor() as i32).clamp(0, w as i32 - 1), (uy.floor() as i32).clamp(0, h as i32 - 1));
    if is_solid(cell.0, cell.1) {
        return [GROUND[0], GROUND[1], GROUND[2], 1.0];
    }
    let here = state[(cell.1 as usize, cell.0 as usize)];
    let texel = |x: i32, y: i32| if is_solid(x, y) { here } else { state[(y as usize, x as usize)] };
    let (x, y) = (ux - 0.5, uy - 0.5);
    let (bx, by) = (x.floor() as i32, y.floor() as i32);
    let (fx, fy) = (x - x.floor(), y - y.floor());
    let (wx, wy, dx, dy) = (spline(fx), spline(fy), spline_slope(fx), spline_slope(fy));
    let (mut s, mut dm) = ([0.0f32; 2], (0.0f32, 0.0f32));
    for j in 0..4 {
        for i in 0..4 {
            let t = texel(bx + i as i32 - 1, by + j as i32 - 1);
            s[0] += wx[i] * wy[j] * t[0];
            s[1] += wx[i] * wy[j] * t[1];
            dm.0 += dx[i] * wy[j] * t[0];
            dm.1 += wx[i] * dy[j] * t[0];
        }
    }
    let m = s[0];
    let width = (0.5 * (dm.0.abs() * w as f32 / area.size.0 + dm.1.abs() * h as f32 / area.size.1)).max(1e-4);
    let cover = smoothstep(ISO - width, ISO + width, m).max(THIN * (m / ISO).clamp(0.0, 1.0));
    let depth = (m - 1.0).max(0.0) / max_compress.max(1e-6);
    let deep = 1.0 - (-depth / DEPTH_SCALE).exp();
    let rim = 0.6 * (1.0 - (m - ISO) / RIM).clamp(0.0, 1.0);
    let froth = 0.9 * s[1].clamp(0.0, 1.0);
    let water: [f32; 3] =
        std::array::from_fn(|i| mix(mix(mix(SHALLOW[i], DEEP[i], deep), SURFACE[i], rim), FOAM[i], froth));
    match blend {
        Blend::Alpha => [water[0] * cover, water[1] * cover, water[2] * cover, cover],
        Blend::Opaque => {
            let c: [f32; 3] = std::array::from_fn(|i| mix(AIR[i], water[i], cover));
            [c[0], c[1], c[2], 1.0]
        }
    }
}

/// Catmull-Rom weights of the texels at -1, 0, 1, 2 from the one below, at fraction `f` (the
/// shader's `spline`).
fn spline(f: f32) -> [f32; 4] {
    let (f2, f3) = (f * f, f * f * f);
    [-f3 + 2.0 * f2 - f, 3.0 * f3 - 5.0 * f2 + 2.0, -3.0 * f3 + 4.0 * f2 + f, f3 - f2].map(|w| 0.5 * w)
}

/// The weights' derivatives in `f` (the shader's `spline_slope`).
fn spline_slope(f: f32) -> [f32; 4] {
    let f2 = f * f;
    [-3.0 * f2 + 4.0 * f - 1.0, 9.0 * f2 - 10.0 * f, -9.0 * f2 + 8.0 * f + 1.0, 3.0 * f2 - 2.0 * f].map(|w| 0.5 * w)
}

/// WGSL's `smoothstep`.
fn smoothstep(low: f32, high: f32, x: f32) -> f32 {
    let t = ((x - low) / (high - low)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}
