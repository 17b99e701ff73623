//! Field -> colour: draws a model's fields into a window surface or an offscreen texture (PNG).
//!
//! One render pipeline per model ([`WaterRenderer`], [`GasRenderer`], [`SmokeRenderer`]): a full-screen triangle
//! whose fragment shader looks up the cells under each pixel and colour-maps them
//! (`shaders/render/*.wgsl`) through a [`ColourMap`]'s lookup table. The same code draws the
//! viewer's window and the runner's PNG frames ([`FrameTarget`]), so both show the same pixels.
//! A draw fills an [`Area`] of its target: the whole target, or a letterboxed rectangle in which
//! cells stay square.
//!
//! Each model also has a styled [`Look`], made for people rather than for reading values: smoke
//! lit and shaded ([`SmokeLitRenderer`], `render/smoke_lit.rs`), water as a surface with depth
//! and foam ([`WaterSurfaceRenderer`], `render/water_surface.rs`), gas as a schlieren image
//! ([`GasSchlierenRenderer`], `render/gas_schlieren.rs`). Each is a render pass with a CPU
//! mirror (`shade`) that `tests/looks.rs` holds the GPU's pixels to.

use crate::colour::{ColourMap, Legend};
use crate::gas::GpuGas;
use crate::gpu::{self, DeviceCaps, GpuError};
use crate::gpu_model::GpuModel;
use crate::shaders;
use crate::smoke::GpuSmoke;
use crate::water::GpuWater;

pub mod gas_schlieren;
pub mod smoke_lit;
pub mod water_surface;

pub use gas_schlieren::GasSchlierenRenderer;
pub use smoke_lit::SmokeLitRenderer;
pub use water_surface::WaterSurfaceRenderer;

/// How a model is drawn: its fields through colour maps, or its styled look.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Look {
    /// The chosen field through its colour map ([`ColourMap`]): what a scientist reads values
    /// from.
    #[default]
    Map,
    /// The model's own look, made for people: smoke lit and shaded from its dye, with a glow
    /// ([`SmokeLitRenderer`]); water as a surface with depth tint and foam
    /// ([`WaterSurfaceRenderer`]); gas as a schlieren image of its density gradient
    /// ([`GasSchlierenRenderer`]). The field chosen and its colour map do not apply. A model
    /// registered outside eddy has none and draws its map.
    Styled,
}

impl Look {
    /// Every look, [`Look::Map`] first.
    pub const ALL: [Look; 2] = [Look::Map, Look::Styled];

    /// Its name, as `--look` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Look::Map => "map",
            Look::Styled => "styled",
        }
    }

    /// The look named `name` (case-insensitive).
    ///
    /// # Errors
    /// A message listing the names, when `name` is none of them.
    pub fn from_name(name: &str) -> Result<Self, String> {
        Self::ALL.into_iter().find(|l| l.name().eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
            format!("{name:?} is not a look; the looks are map (the field through its colour map) and styled")
        })
    }
}

impl std::fmt::Display for Look {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The rectangle of a render target a draw fills, pixels (x right, y down from the top-left).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Area {
    /// Top-left corner in the target, pixels.
    pub origin: (f32, f32),
    /// Width and height, pixels (> 0).
    pub size: (f32, f32),
}

impl Area {
    /// The whole of a `(width, height)` target.
    pub fn full(target: (u32, u32)) -> Self {
        Area { origin: (0.0, 0.0), size: (target.0.max(1) as f32, target.1.max(1) as f32) }
    }

    /// The largest rectangle of aspect `grid` (`(W, H)` cells) centred in `within`, whole pixels:
    /// cells stay square, the rest of `within` is a border (letterboxing).
    pub fn letterbox(within: Area, grid: (u32, u32)) -> Self {
        let scale = (within.size.0 / grid.0.max(1) as f32).min(within.size.1 / grid.1.max(1) as f32);
        let size = ((grid.0 as f32 * scale).floor().max(1.0), (grid.1 as f32 * scale).floor().max(1.0));
        let origin = (
            (within.origin.0 + (within.size.0 - size.0) * 0.5).round(),
            (within.origin.1 + (within.size.1 - size.1) * 0.5).round(),
        );
        Area { origin, size }
    }

    /// The cell coordinates `(col, row)` (continuous; cell `(r, c)` spans `[c, c + 1)`) under
    /// pixel `p`, for a `(W, H)` grid drawn here; outside the area they run past `0..W`, `0..H`.
    pub fn cell_at(&self, p: (f32, f32), grid: (u32, u32)) -> (f32, f32) {
        ((p.0 - self.origin.0) / self.size.0 * grid.0 as f32, (p.1 - self.origin.1) / self.size.1 * grid.1 as f32)
    }

    /// Whether pixel `p` is inside.
    pub fn contains(&self, p: (f32, f32)) -> bool {
        p.0 >= self.origin.0
            && p.1 >= self.origin.1
            && p.0 < self.origin.0 + self.size.0
            && p.1 < self.origin.1 + self.size.1
    }
}

impl From<(u32, u32)> for Area {
    fn from(target: (u32, u32)) -> Self {
        Area::full(target)
    }
}

/// WGSL's `mix`, for the looks' CPU mirrors: `a` at `t = 0`, `b` at `t = 1`.
fn mix(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

/// How a renderer's pixels combine with what the target already holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Blend {
    /// Every pixel of the draw's area replaced (the runner's frames, the viewer).
    #[default]
    Opaque,
    /// Premultiplied alpha over the target: water's air and smoke's empty cells (no dye or
    /// density, when those are shown without a colour map) are transparent, thin smoke
    /// translucent, so the field can be a layer over an application's own drawing. Walls,
    /// water, colour-mapped fields and gas stay opaque.
    Alpha,
}

/// One prepared draw ([`WaterRenderer::prepare`] and its twins): its settings in a uniform of
/// its own and the fields it shows bound, so any number of draws, of one renderer or several,
/// can be recorded into one encoder and each shows what it was prepared with.
#[derive(Clone, Debug)]
pub struct Drawing {
    pipeline: wgpu::RenderPipeline,
    /// A draw each (a paged water world's pages, [`crate::water::packed_world`]; one else).
    bind_groups: Vec<wgpu::BindGroup>,
    area: Area,
    /// The viewport: `area` clipped to what a viewport may be; `None` draws nothing.
    viewport: Option<Area>,
}

impl Drawing {
    /// Records the draw into `pass`, a render pass the application owns (its colour attachment
    /// of the format the renderer was made for, loaded or cleared as it chose): sets the
    /// pipeline, the bind group and the viewport to the drawing's [`Area`] (set the viewport
    /// again for drawing of your own after it), and draws one full-screen triangle. Nothing
    /// outside the area is touched. An area that is not finite and positive draws nothing; one
    /// larger than a viewport may be (a grid zoomed far in) draws the part of it in
    /// `0..max_texture_dimension_2d` pixels, where any target lies.
    pub fn render(&self, pass: &mut wgpu::RenderPass<'_>) {
        let Some(a) = self.viewport else { return };
        pass.set_viewport(a.origin.0, a.origin.1, a.size.0, a.size.1, 0.0, 1.0);
        pass.set_pipeline(&self.pipeline);
        for group in &self.bind_groups {
            pass.set_bind_group(0, group, &[]);
            pass.draw(0..3, 0..1);
        }
    }

    /// The area of the target the drawing fills, pixels.
    pub fn area(&self) -> Area {
        self.area
    }
}

/// A full-screen-triangle pipeline whose fragment stage reads a uniform (binding 0), an
/// unfilterable float texture (1), a uint texture (2) and the colour map's lookup table (3).
struct Fullscreen {
    label: &'static str,
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    /// The lookup tables made so far, one per colour map (made when first drawn with).
    luts: Vec<(ColourMap, wgpu::TextureView)>,
    srgb: bool,
    blend: Blend,
}

impl Fullscreen {
    /// The pipeline for `format` targets. Creation errors come back from [`gpu::scoped`].
    fn new(
        device: &wgpu::Device,
        label: &'static str,
        source: &str,
        format: wgpu::TextureFormat,
        blend: Blend,
    ) -> Result<Self, GpuError> {
        Self::with_constants(device, label, source, format, blend, &[])
    }

    /// [`Fullscreen::new`] with values for the fragment shader's pipeline-overridable constants.
    fn with_constants(
        device: &wgpu::Device,
        label: &'static str,
        source: &str,
        format: wgpu::TextureFormat,
        blend: Blend,
        constants: &[(&str, f64)],
    ) -> Result<Self, GpuError> {
        gpu::scoped(device, || Self::build(device, label, source, format, blend, constants))
    }

    fn build(
        device: &wgpu::Device,
        label: &'static str,
        source: &str,
        format: wgpu::TextureFormat,
        blend: Blend,
        constants: &[(&str, f64)],
    ) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let entry = |binding, ty| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty,
            count: None,
        };
        let texture = |sample_type| wgpu::BindingType::Texture {
            sample_type,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some(label),
            entries: &[
                entry(
                    0,
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                ),
                entry(1, texture(wgpu::TextureSampleType::Float { filterable: false })),
                entry(2, texture(wgpu::TextureSampleType::Uint)),
                entry(3, texture(wgpu::TextureSampleType::Float { filterable: false })),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let blend_state = match blend {
            Blend::Opaque => None,
            Blend::Alpha => Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
        };
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(label),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: wgpu::PipelineCompilationOptions { constants, ..Default::default() },
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: blend_state,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        Self { label, pipeline, layout, luts: Vec::new(), srgb: format.is_srgb(), blend }
    }

    /// `map`'s lookup table, made (its upload recorded into `encoder`) the first time.
    fn lut(&mut self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, map: ColourMap) -> wgpu::TextureView {
        if let Some((_, view)) = self.luts.iter().find(|(m, _)| *m == map) {
            return view.clone();
        }
        let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        let lut = gpu::texture_2d(device, "colour map", (256, 1), wgpu::TextureFormat::Rgba8Unorm, usage);
        gpu::in_order::upload(device, encoder, &lut, bytemuck::cast_slice(&map.lut()), 4);
        let view = lut.create_view(&Default::default());
        self.luts.push((map, view.clone()));
        view
    }

    /// A drawing filling `area` with `uniform` (in a buffer of its own), the two field textures
    /// and `map`'s lookup table bound. `patch`: a buffer whose first 4 bytes are copied over the
    /// uniform's at that byte offset, recorded into `encoder` (a scale computed on the GPU).
    #[allow(clippy::too_many_arguments)]
    fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        area: Area,
        uniform: &[u8],
        field: &wgpu::TextureView,
        solid: &wgpu::TextureView,
        map: ColourMap,
        patch: Option<(&wgpu::Buffer, u64)>,
    ) -> Drawing {
        use wgpu::util::DeviceExt;
        let lut = self.lut(device, encoder, map);
        let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(self.label),
            contents: uniform,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        });
        if let Some((from, offset)) = patch {
            encoder.copy_buffer_to_buffer(from, 0, &buffer, offset, 4);
        }
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(self.label),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: buffer.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(field) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(solid) },
                wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::TextureView(&lut) },
            ],
        });
        let viewport = clip_viewport(area, device.limits().max_texture_dimension_2d as f32);
        Drawing { pipeline: self.pipeline.clone(), bind_groups: vec![bind_group], area, viewport }
    }

    /// Whether draws are to leave air transparent (the shaders' `alpha` flag).
    fn alpha(&self) -> u32 {
        (self.blend == Blend::Alpha) as u32
    }
}

/// `area` clipped to `0..max` pixels on each axis (every target lies there, and wgpu refuses a
/// viewport larger than `max` or with a negative or non-finite size); `None` when nothing is
/// left. The shaders map pixels to cells from the uniform's area, not the viewport, so
/// clipping changes only which pixels are drawn.
fn clip_viewport(area: Area, max: f32) -> Option<Area> {
    let clip = |origin: f32, size: f32| {
        let (lo, hi) = (origin.max(0.0), (origin + size).min(max));
        (origin.is_finite() && size.is_finite() && size > 0.0 && hi > lo).then_some((lo, hi - lo))
    };
    let (x, w) = clip(area.origin.0, area.size.0)?;
    let (y, h) = clip(area.origin.1, area.size.1)?;
    Some(Area { origin: (x, y), size: (w, h) })
}

/// Records `drawing` into a render pass of its own over the whole of `target`, cleared to
/// black first (the letterbox's border): the convenience the runner's frames and the viewer use.
pub(crate) fn draw_cleared(encoder: &mut wgpu::CommandEncoder, target: &wgpu::TextureView, drawing: &Drawing) {
    drawing.render(&mut target_pass(encoder, target, "eddy draw", wgpu::LoadOp::Clear(wgpu::Color::BLACK)));
}

/// A render pass over the whole of `target`, its one colour attachment loaded as `load` says
/// and stored.
pub(crate) fn target_pass<'a>(
    encoder: &'a mut wgpu::CommandEncoder,
    target: &'a wgpu::TextureView,
    label: &str,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPass<'a> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// Mirrors `struct View` in `shaders/render/water.wgsl` (64 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct WaterView {
    grid: [f32; 2],
    area_size: [f32; 2],
    area_origin: [f32; 2],
    min_mass: f32,
    srgb_target: u32,
    use_map: u32,
    map_high: f32,
    alpha: u32,
    /// The page drawn: its first row of the world, its rows, the rows of halo above them in its
    /// texture (a packed world's; the whole grid else).
    page_first: u32,
    page_rows: u32,
    page_halo: u32,
    _pad: [u32; 2],
}

/// Water mass at the high end of a colour map, full cells: compressed water reaches about
/// `1 + max_compress * depth` (Elsts), so 1.5 shows 25 cells of depth at the default 0.02.
const WATER_MAP_HIGH: f32 = 1.5;

/// Draws a [`GpuWater`]'s mass field: air near-white, thin water light blue darkening with mass,
/// compressed water (mass > 1) darker still, solids brown (after Elsts' `water_sim` drawing); or,
/// with a colour map, open cells by the map over `[0, 1.5]` full cells. A packed world
/// ([`GpuWater::is_packed_world`]) is drawn from its packed masses.
pub struct WaterRenderer {
    cells: Fullscreen,
    /// The same over a packed world's masses (`render/water.wgsl` with `PACKED`).
    packed: Fullscreen,
    /// What the packed pipeline's unread solid binding holds: one texel.
    no_solid: wgpu::TextureView,
}

impl WaterRenderer {
    /// An opaque renderer whose output is a `format` target (a surface format or
    /// `Rgba8Unorm`). With an sRGB format the shader emits linear values, so every target shows
    /// the same colours.
    ///
    /// # Errors
    /// [`GpuError::Validation`] / [`GpuError::OutOfMemory`] when the device rejects the
    /// pipeline (a `format` that cannot be rendered to, say).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Result<Self, GpuError> {
        Self::with_blend(device, format, Blend::Opaque)
    }

    /// A renderer for `format` targets whose pixels combine with the target's as `blend` says.
    ///
    /// # Errors
    /// As [`WaterRenderer::new`].
    pub fn with_blend(device: &wgpu::Device, format: wgpu::TextureFormat, blend: Blend) -> Result<Self, GpuError> {
        let cells = Fullscreen::new(device, "render/water", shaders::RENDER_WATER, format, blend)?;
        let packed = Fullscreen::with_constants(
            device,
            "render/water packed",
            shaders::RENDER_WATER,
            format,
            blend,
            &[("PACKED", 1.0)],
        )?;
        let usage = wgpu::TextureUsages::TEXTURE_BINDING;
        let no_solid = gpu::texture_2d(device, "render/water no solid", (1, 1), wgpu::TextureFormat::R32Uint, usage)
            .create_view(&Default::default());
        Ok(Self { cells, packed, no_solid })
    }

    /// How the mass is coloured with `map` ([`ColourMap::Own`]: Elsts' blues).
    pub fn legend(map: ColourMap) -> Legend {
        match map {
            ColourMap::Own => {
                Legend::Own("air white, water light to dark blue (full at 1, darker compressed), ground brown")
            }
            map => Legend::Scale { low: 0.0, high: WATER_MAP_HIGH, unit: "full cells", map },
        }
    }

    /// Prepares a draw of `sim`'s mass field as it will be when the encoder reaches the draw
    /// (prepare after recording the frame's steps), filling `area` of a target (a `(width,
    /// height)` converts to the whole of one), in Elsts' colours or with the colour map `map`.
    /// Its settings go into a buffer of its own; a colour map's lookup table is made the first
    /// time it is drawn with, its upload recorded into `encoder`, so submit the draw in
    /// `encoder` or after it. Record it into a render pass with [`Drawing::render`].
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        area: impl Into<Area>,
        sim: &GpuWater,
        map: ColourMap,
    ) -> Drawing {
        let (w, h) = sim.size();
        let area = area.into();
        let view = WaterView {
            grid: [w as f32, h as f32],
            area_size: [area.size.0, area.size.1],
            area_origin: [area.origin.0, area.origin.1],
            min_mass: sim.params().min_mass,
            srgb_target: self.cells.srgb as u32,
            use_map: (map != ColourMap::Own) as u32,
            map_high: WATER_MAP_HIGH,
            alpha: self.cells.alpha(),
            page_first: 0,
            page_rows: h,
            page_halo: 0,
            _pad: [0; 2],
        };
        let pages = sim.packed_world_pages();
        if pages.is_empty() {
            let bytes = bytemuck::bytes_of(&view);
            return self.cells.prepare(device, encoder, area, bytes, sim.mass_view(), sim.solid_view(), map, None);
        }
        // A draw a page, each drawing the rows it holds.
        let mut drawings = pages.iter().map(|page| {
            let view = WaterView {
                page_first: page.rows.start,
                page_rows: page.rows.len() as u32,
                page_halo: page.halo,
                ..view
            };
            self.packed.prepare(device, encoder, area, bytemuck::bytes_of(&view), page.view, &self.no_solid, map, None)
        });
        let mut drawing = drawings.next().expect("a page at least");
        drawing.bind_groups.extend(drawings.flat_map(|d| d.bind_groups));
        drawing
    }

    /// Records a draw of `sim`'s mass field filling `area` of `target`, in a render pass of
    /// its own that clears the whole target to black first ([`WaterRenderer::prepare`] and
    /// [`Drawing::render`] draw into a pass of the application's).
    pub fn draw(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        area: impl Into<Area>,
        sim: &GpuWater,
        map: ColourMap,
    ) {
        let drawing = self.prepare(device, encoder, area, sim, map);
        draw_cleared(encoder, target, &drawing);
    }
}

/// Which gas field a [`GasRenderer`] shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GasField {
    /// Density: the colour map over `[0.5, 2.5]` (ambient 1 a third of the way up).
    #[default]
    Density,
    /// Velocity: hue = direction, brightness = speed (full at 0.25 cells/step).
    Velocity,
}

/// Mirrors `struct View` in `shaders/render/gas.wgsl` (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct GasView {
    grid: [f32; 2],
    area_size: [f32; 2],
    area_origin: [f32; 2],
    field: u32,
    srgb_target: u32,
    density_low: f32,
    density_high: f32,
    speed_full: f32,
    _pad: f32,
}

/// Gas density at the colour map's ends (ambient 1).
const GAS_DENSITY: (f32, f32) = (0.5, 2.5);
/// Gas speed drawn at full brightness, cells/step.
const GAS_SPEED_FULL: f32 = 0.25;

/// Draws a [`GpuGas`]: density or velocity, resampled at cell corners (the mean of the open
/// cells around each corner, as the source draws it) and interpolated across cells; walls grey.
pub struct GasRenderer(Fullscreen);

impl GasRenderer {
    /// An opaque renderer whose output is a `format` target.
    ///
    /// # Errors
    /// As [`WaterRenderer::new`].
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Result<Self, GpuError> {
        Self::with_blend(device, format, Blend::Opaque)
    }

    /// A renderer for `format` targets whose pixels combine with the target's as `blend` says
    /// (gas fills its box, so its pixels stay opaque either way).
    ///
    /// # Errors
    /// As [`WaterRenderer::new`].
    pub fn with_blend(device: &wgpu::Device, format: wgpu::TextureFormat, blend: Blend) -> Result<Self, GpuError> {
        Ok(Self(Fullscreen::new(device, "render/gas", shaders::RENDER_GAS, format, blend)?))
    }

    /// How `field` is coloured with `map` (density: [`ColourMap::Own`] means inferno).
    pub fn legend(field: GasField, map: ColourMap) -> Legend {
        match field {
            GasField::Density => Legend::Scale {
                low: GAS_DENSITY.0,
                high: GAS_DENSITY.1,
                unit: "mass/cell",
                map: if map == ColourMap::Own { ColourMap::Inferno } else { map },
            },
            GasField::Velocity => Legend::Direction { full_speed: GAS_SPEED_FULL, unit: "cells/step" },
        }
    }

    /// Prepares a draw of `sim`'s `field` filling `area` of a target (a `(width, height)`
    /// converts to the whole of one), density in the colour map `map`; as
    /// [`WaterRenderer::prepare`].
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        area: impl Into<Area>,
        sim: &GpuGas,
        field: GasField,
        map: ColourMap,
    ) -> Drawing {
        let (w, h) = sim.size();
        let area = area.into();
        let map = match Self::legend(field, map) {
            Legend::Scale { map, .. } => map,
            _ => map,
        };
        let view = GasView {
            grid: [w as f32, h as f32],
            area_size: [area.size.0, area.size.1],
            area_origin: [area.origin.0, area.origin.1],
            field: (field == GasField::Velocity) as u32,
            srgb_target: self.0.srgb as u32,
            density_low: GAS_DENSITY.0,
            density_high: GAS_DENSITY.1,
            speed_full: GAS_SPEED_FULL,
            _pad: 0.0,
        };
        let (state, solid) = (sim.state_view(), sim.solid_view());
        self.0.prepare(device, encoder, area, bytemuck::bytes_of(&view), state, solid, map, None)
    }

    /// Records a draw of `sim`'s `field` filling `area` of `target`, in a render pass of its
    /// own that clears the whole target to black first (see [`WaterRenderer::draw`]).
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        area: impl Into<Area>,
        sim: &GpuGas,
        field: GasField,
        map: ColourMap,
    ) {
        let drawing = self.prepare(device, encoder, area, sim, field, map);
        draw_cleared(encoder, target, &drawing);
    }
}

/// Which smoke field a [`SmokeRenderer`] shows, and its colour scale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SmokeField {
    /// The coloured dye over a dark background, each channel full at 1 (staggered grid; the
    /// collocated grid, which carries no dye, shows its density).
    #[default]
    Dye,
    /// Density: white smoke over a dark background, full white at 1 (or a colour map over `[0, 1]`).
    Density,
    /// Temperature: the colour map over `[0, impulse temperature]`.
    Temperature,
    /// Speed `|v|`: the colour map over `[0, 20]` cells per time unit.
    Speed,
    /// Pressure of the last solve: the colour map over `[-10, 10]`.
    Pressure,
    /// Divergence before the last projection: the colour map over `[-s, s]` per time unit, `s`
    /// the field's largest magnitude over the open cells rounded up to 1, 2 or 5 times a power
    /// of ten ([`field_scale`], computed on the GPU each draw).
    Divergence,
    /// Vorticity (curl, staggered grid): the colour map over `[-s, s]` per time unit as the
    /// divergence's, positive counter-clockwise on screen.
    Vorticity,
}

/// Mirrors `struct View` in `shaders/render/smoke.wgsl` (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct SmokeView {
    grid: [f32; 2],
    area_size: [f32; 2],
    area_origin: [f32; 2],
    field: u32,
    srgb_target: u32,
    scale: f32,
    use_map: u32,
    alpha: u32,
    _pad: f32,
}

/// Draws one field of a [`GpuSmoke`], interpolated bilinearly between cell centres; solids grey.
/// The signed fields (divergence, vorticity) are drawn over a scale taken from the field itself
/// on the GPU ([`field_scale`]).
pub struct SmokeRenderer {
    pass: Fullscreen,
    /// The signed fields' scale, built when one is first drawn.
    scale: Option<FieldScale>,
}

/// The smallest colour scale [`field_scale`] gives (a field that is all 0 draws at it).
pub const MIN_FIELD_SCALE: f32 = 1e-6;

/// The colour scale of a signed field: its largest magnitude over the open cells (`solid` 0; NaN
/// and infinities left out), rounded up to 1, 2 or 5 times a power of ten, from
/// [`MIN_FIELD_SCALE`] to 1e38: the whole colour map in use however strong the field, and a colour bar
/// in round numbers that holds still while the field changes a little. The CPU mirror of
/// `shaders/render/field_scale.wgsl`, with the same f32 arithmetic.
pub fn field_scale(field: &crate::grid::Grid<f32>, solid: &crate::grid::Grid<u8>) -> f32 {
    let m = field
        .as_slice()
        .iter()
        .zip(solid.as_slice())
        .filter(|&(v, &s)| s == 0 && v.abs() <= 3.4e38)
        .fold(0.0f32, |m, (v, _)| m.max(v.abs()));
    let mut p = MIN_FIELD_SCALE;
    // 44 decades, from 1e-6 to 1e38 (f32 ends near 3.4e38).
    for _ in 0..44 {
        if p >= m {
            return p;
        }
        if 2.0 * p >= m {
            return 2.0 * p;
        }
        if 5.0 * p >= m {
            return 5.0 * p;
        }
        p *= 10.0;
    }
    p
}

/// [`field_scale`] on the GPU (`render/field_scale.wgsl`): recorded before a draw, its result
/// copied into the draw's uniform in the same encoder (the picture never waits for a readback),
/// and read back without blocking for the legend, which follows a frame or two behind.
struct FieldScale {
    kernel: gpu::Kernel,
    /// The scale (4 bytes), written by the kernel.
    buffer: wgpu::Buffer,
    staging: wgpu::Buffer,
    readback: ScaleReadback,
    /// The last scale read back, and the field it is of.
    last: Option<(SmokeField, f32)>,
}

/// Where [`FieldScale`]'s readback stands: the copy into the staging buffer is recorded with a
/// draw, mapped at the next draw (by then submitted), and read at a later one.
enum ScaleReadback {
    Idle,
    Copied(SmokeField),
    Mapping(SmokeField, futures_channel::oneshot::Receiver<Result<(), wgpu::BufferAsyncError>>),
}

impl FieldScale {
    fn new(device: &wgpu::Device, caps: &DeviceCaps) -> Self {
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("field scale"),
            size: 4,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("field scale readback"),
            size: 4,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let kernel = gpu::Kernel::new(device, caps, "render/field_scale", shaders::RENDER_FIELD_SCALE);
        Self { kernel, buffer, staging, readback: ScaleReadback::Idle, last: None }
    }

    /// Records the scale of `field` (`r32float`) over `solid`'s open cells into [`Self::buffer`],
    /// and moves the legend's readback on a stage.
    fn encode(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        which: SmokeField,
        field: &wgpu::TextureView,
        solid: &wgpu::TextureView,
    ) {
        self.poll(device);
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            let resources = [
                wgpu::BindingResource::TextureView(field),
                wgpu::BindingResource::TextureView(solid),
                self.buffer.as_entire_binding(),
            ];
            self.kernel.dispatch_once(&mut pass, device, &resources, 256, 1);
        }
        if matches!(self.readback, ScaleReadback::Idle) {
            encoder.copy_buffer_to_buffer(&self.buffer, 0, &self.staging, 0, 4);
            self.readback = ScaleReadback::Copied(which);
        }
    }

    /// Moves the readback on: a copy recorded at an earlier draw (submitted since) is mapped; a
    /// finished mapping is read into [`Self::last`]. Never waits.
    fn poll(&mut self, device: &wgpu::Device) {
        #[cfg(not(target_arch = "wasm32"))]
        let _ = device.poll(wgpu::PollType::Poll);
        #[cfg(target_arch = "wasm32")]
        let _ = device;
        match std::mem::replace(&mut self.readback, ScaleReadback::Idle) {
            ScaleReadback::Idle => {}
            ScaleReadback::Copied(which) => {
                let (tx, rx) = futures_channel::oneshot::channel();
                self.staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                    let _ = tx.send(r);
                });
                self.readback = ScaleReadback::Mapping(which, rx);
            }
            ScaleReadback::Mapping(which, mut rx) => match rx.try_recv() {
                Ok(Some(Ok(()))) => {
                    let bytes = self.staging.slice(..).get_mapped_range().map(|b| b.to_vec()).unwrap_or_default();
                    if let Ok(b) = <[u8; 4]>::try_from(bytes.as_slice()) {
                        self.last = Some((which, f32::from_le_bytes(b)));
                    }
                    self.staging.unmap();
                }
                Ok(None) => self.readback = ScaleReadback::Mapping(which, rx),
                // A failed mapping (a lost device) leaves the legend as it was.
                Ok(Some(Err(_))) | Err(_) => {}
            },
        }
    }
}

impl SmokeRenderer {
    /// An opaque renderer whose output is a `format` target.
    ///
    /// # Errors
    /// As [`WaterRenderer::new`].
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Result<Self, GpuError> {
        Self::with_blend(device, format, Blend::Opaque)
    }

    /// A renderer for `format` targets whose pixels combine with the target's as `blend` says.
    ///
    /// # Errors
    /// As [`WaterRenderer::new`].
    pub fn with_blend(device: &wgpu::Device, format: wgpu::TextureFormat, blend: Blend) -> Result<Self, GpuError> {
        let pass = Fullscreen::new(device, "render/smoke", shaders::RENDER_SMOKE, format, blend)?;
        Ok(Self { pass, scale: None })
    }

    /// The shader's field index and the value at the map's high end for `field` of `sim`.
    fn scale(sim: &GpuSmoke, field: SmokeField) -> (u32, f32) {
        match field {
            SmokeField::Dye if sim.grid() == crate::smoke::GridLayout::Staggered => (6, 1.0),
            SmokeField::Density | SmokeField::Dye => (0, 1.0),
            SmokeField::Temperature => (1, sim.params().impulse_temperature.abs().max(1e-6)),
            SmokeField::Speed => (2, 20.0),
            SmokeField::Pressure => (3, 10.0),
            SmokeField::Divergence => (4, 1.0),
            SmokeField::Vorticity => (5, 1.0),
        }
    }

    /// How `field` of `sim` is coloured with `map` as this renderer last drew it: as
    /// [`Self::legend`], with the signed fields' scale the one [`field_scale`] gave on the GPU
    /// for a recent draw (read back without waiting; until one arrives, 1).
    pub fn legend_drawn(&self, sim: &GpuSmoke, field: SmokeField, map: ColourMap) -> Legend {
        match (Self::legend(sim, field, map), self.scale.as_ref().and_then(|f| f.last)) {
            (Legend::Scale { unit, map, .. }, Some((drawn, s))) if drawn == field => {
                Legend::Scale { low: -s, high: s, unit, map }
            }
            (legend, _) => legend,
        }
    }

    /// How `field` of `sim` is coloured with `map`. [`ColourMap::Own`] is white smoke for the
    /// density, the dye's own colours, inferno for temperature and speed, blue-red for the signed
    /// fields (drawn over their own scale: [`Self::legend_drawn`] gives it; here 1).
    pub fn legend(sim: &GpuSmoke, field: SmokeField, map: ColourMap) -> Legend {
        let (index, scale) = Self::scale(sim, field);
        let (low, unit, default) = match index {
            6 => return Legend::Own("the dye's colours added to the dark background, each channel full at 1"),
            0 if map == ColourMap::Own => {
                return Legend::Own("white smoke over dark blue-grey, full white at density 1");
            }
            0 => (0.0, "density", ColourMap::Inferno),
            1 => (0.0, "temperature", ColourMap::Inferno),
            2 => (0.0, "cells/time unit", ColourMap::Inferno),
            3 => (-scale, "cells²/time unit", ColourMap::BlueRed),
            _ => (-scale, "1/time unit", ColourMap::BlueRed),
        };
        Legend::Scale { low, high: scale, unit, map: if map == ColourMap::Own { default } else { map } }
    }

    /// Prepares a draw of `sim`'s `field` filling `area` of a target (a `(width, height)`
    /// converts to the whole of one) with the colour map `map` (see [`Self::legend`]); as
    /// [`WaterRenderer::prepare`]. The vorticity, which no step keeps, is computed by a pass
    /// recorded into `encoder`.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        area: impl Into<Area>,
        sim: &GpuSmoke,
        field: SmokeField,
        map: ColourMap,
    ) -> Drawing {
        let (w, h) = sim.size();
        let area = area.into();
        let (index, scale) = Self::scale(sim, field);
        let legend = Self::legend(sim, field, map);
        let lut_map = match legend {
            Legend::Scale { map, .. } => map,
            _ => map,
        };
        let texture = match index {
            6 => sim.dye_view(),
            0 => sim.density_view(),
            1 => sim.temperature_view(),
            2 => sim.velocity_view(),
            3 => sim.pressure_view(),
            4 => sim.divergence_view(),
            _ => {
                sim.encode_vorticity(encoder);
                sim.vorticity_view()
            }
        };
        let view = SmokeView {
            grid: [w as f32, h as f32],
            area_size: [area.size.0, area.size.1],
            area_origin: [area.origin.0, area.origin.1],
            field: index,
            srgb_target: self.pass.srgb as u32,
            scale,
            use_map: matches!(legend, Legend::Scale { .. }) as u32,
            alpha: self.pass.alpha(),
            _pad: 0.0,
        };
        // The signed fields' scale from the field itself, computed before the draw reads it.
        let patch = if matches!(field, SmokeField::Divergence | SmokeField::Vorticity) {
            let scale = self.scale.get_or_insert_with(|| FieldScale::new(device, sim.caps()));
            scale.encode(device, encoder, field, texture, sim.solid_view());
            Some((&scale.buffer, std::mem::offset_of!(SmokeView, scale) as u64))
        } else {
            None
        };
        self.pass.prepare(device, encoder, area, bytemuck::bytes_of(&view), texture, sim.solid_view(), lut_map, patch)
    }

    /// Records a draw of `sim`'s `field` filling `area` of `target`, in a render pass of its
    /// own that clears the whole target to black first (see [`WaterRenderer::draw`]).
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        area: impl Into<Area>,
        sim: &GpuSmoke,
        field: SmokeField,
        map: ColourMap,
    ) {
        let drawing = self.prepare(device, encoder, area, sim, field, map);
        draw_cleared(encoder, target, &drawing);
    }
}

/// Mirrors `struct View` in `shaders/render/field.wgsl` (48 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct FieldView {
    grid: [f32; 2],
    area_size: [f32; 2],
    area_origin: [f32; 2],
    low: f32,
    high: f32,
    srgb_target: u32,
    _pad: [u32; 3],
}

/// Draws any model's scalar field ([`crate::GpuModel::scalar_view`]): open cells by a colour map
/// over the view's range, solid cells grey. What eddy's runner draws frames of a model written
/// outside eddy with ([`crate::model::Runner`]'s `frame`).
pub struct FieldRenderer(Fullscreen);

impl FieldRenderer {
    /// A renderer whose output is a `format` target (as [`WaterRenderer::new`]).
    ///
    /// # Errors
    /// As [`WaterRenderer::new`].
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Result<Self, GpuError> {
        Ok(Self(Fullscreen::new(device, "render/field", shaders::RENDER_FIELD, format, Blend::Opaque)?))
    }

    /// How a scalar view over `range` (in `unit`) is coloured with `map`: as [`Self::prepare`]
    /// draws it.
    pub fn legend(range: (f32, f32), unit: &'static str, map: ColourMap) -> Legend {
        let (low, high) = Self::ends(range);
        Legend::Scale { low, high, unit, map: Self::map(map) }
    }

    /// The values at the map's two ends: the view's range, widened to 1 when it is empty.
    fn ends((low, high): (f32, f32)) -> (f32, f32) {
        (low, if high > low { high } else { low + 1.0 })
    }

    /// [`ColourMap::Own`] reads as [`ColourMap::Inferno`].
    fn map(map: ColourMap) -> ColourMap {
        if map == ColourMap::Own { ColourMap::Inferno } else { map }
    }

    /// Prepares a draw of `field` (a `(W, H)` grid) filling `area` of a target with `map`
    /// ([`ColourMap::Own`] reads as [`ColourMap::Inferno`]); record it with [`Drawing::render`].
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        area: impl Into<Area>,
        grid: (u32, u32),
        field: crate::gpu_model::ScalarView<'_>,
        map: ColourMap,
    ) -> Drawing {
        let area = area.into();
        let (low, high) = Self::ends(field.range);
        let view = FieldView {
            grid: [grid.0 as f32, grid.1 as f32],
            area_size: [area.size.0, area.size.1],
            area_origin: [area.origin.0, area.origin.1],
            low,
            high,
            srgb_target: self.0.srgb as u32,
            _pad: [0; 3],
        };
        self.0.prepare(device, encoder, area, bytemuck::bytes_of(&view), field.field, field.solid, Self::map(map), None)
    }
}

/// An offscreen `Rgba8Unorm` target of `(W * scale) x (H * scale)` pixels whose frames are read
/// back as images. Used by `eddy run --frames`.
pub struct FrameTarget {
    target: wgpu::Texture,
    view: wgpu::TextureView,
}

impl FrameTarget {
    /// The format renderers drawing into a `FrameTarget` must be made for.
    pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

    /// A target for a `W x H` grid at `scale` pixels per cell.
    ///
    /// # Errors
    /// [`GpuError::FrameTooLarge`] when the scaled image exceeds the texture limit (a packed water
    /// world is wider than it at one pixel a cell); [`GpuError::GridTooLarge`] for a side of 0.
    pub fn new(device: &wgpu::Device, grid: (u32, u32), scale: u32) -> Result<Self, GpuError> {
        let (width, height) =
            (u64::from(grid.0) * u64::from(scale.max(1)), u64::from(grid.1) * u64::from(scale.max(1)));
        let max = device.limits().max_texture_dimension_2d;
        if width.max(height) > u64::from(max) {
            return Err(GpuError::FrameTooLarge { width, height, max });
        }
        gpu::check_grid_size(device, width as usize, height as usize)?;
        let (width, height) = (width as u32, height as u32);
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let target = gpu::texture_2d(device, "frame", (width, height), Self::FORMAT, usage);
        let view = target.create_view(&Default::default());
        Ok(Self { target, view })
    }

    /// Its size, `(width, height)` pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.target.width(), self.target.height())
    }

    /// The texture's view, to draw into (a [`crate::render::Drawing`] or the app's own), then
    /// read back with [`gpu::read_texture`].
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// Runs `draw(encoder, view, size)` (its error returned before anything is submitted), submits, and reads the image back (waits for the GPU;
    /// native targets, see [`FrameTarget::render_async`]).
    ///
    /// # Errors
    /// As [`gpu::read_texture_async`].
    #[cfg(all(feature = "png", not(target_arch = "wasm32")))]
    pub fn render(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        draw: impl FnOnce(&mut wgpu::CommandEncoder, &wgpu::TextureView, (u32, u32)) -> Result<(), GpuError>,
    ) -> Result<image::RgbaImage, GpuError> {
        gpu::wait(device, self.render_async(device, queue, draw))?
    }

    /// [`FrameTarget::render`] as a future that never blocks: it completes once the device
    /// has been polled after the GPU did the work (a frame loop's `device.poll`, any submit, a
    /// browser's event loop; see `gpu::read_texture_async`).
    ///
    /// # Errors
    /// As [`gpu::read_texture_async`].
    #[cfg(feature = "png")]
    pub async fn render_async(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        draw: impl FnOnce(&mut wgpu::CommandEncoder, &wgpu::TextureView, (u32, u32)) -> Result<(), GpuError>,
    ) -> Result<image::RgbaImage, GpuError> {
        let mut encoder = device.create_command_encoder(&Default::default());
        let size = (self.target.width(), self.target.height());
        draw(&mut encoder, &self.view, size)?;
        queue.submit([encoder.finish()]);
        let bytes = gpu::read_texture_async(device, queue, &self.target, 4).await?;
        Ok(image::RgbaImage::from_raw(size.0, size.1, bytes).expect("frame size"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;

    /// The scale is the first of 1, 2, 5 x 10^k at or above the largest magnitude of an open
    /// cell; solid cells, NaN and infinities do not count, and an all-zero field gets the
    /// smallest scale.
    #[test]
    fn the_field_scale_rounds_the_largest_open_magnitude_up() {
        let close = |a: f32, b: f32| (a - b).abs() <= 1e-5 * b;
        let field = Grid::from_vec(4, 1, vec![0.03, -0.7, f32::NAN, 90.0]).unwrap();
        let open = Grid::from_vec(4, 1, vec![0, 0, 0, 1]).unwrap();
        assert!(close(field_scale(&field, &open), 1.0), "{}", field_scale(&field, &open));
        let field = Grid::from_vec(3, 1, vec![0.03, -2.5, f32::INFINITY]).unwrap();
        assert!(close(field_scale(&field, &Grid::filled(3, 1, 0)), 5.0));
        let field = Grid::from_vec(2, 1, vec![-1.5e-3, 1e-3]).unwrap();
        assert!(close(field_scale(&field, &Grid::filled(2, 1, 0)), 2e-3));
        assert_eq!(field_scale(&Grid::filled(3, 2, 0.0), &Grid::filled(3, 2, 0)), MIN_FIELD_SCALE);
        assert!(close(field_scale(&Grid::filled(1, 1, 3e38), &Grid::filled(1, 1, 0)), 1e38));
    }
}
