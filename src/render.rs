//! Field -> colour: draws a model's fields into a window surface or an offscreen texture (PNG).
//!
//! One render pipeline per model ([`WaterRenderer`], [`GasRenderer`], [`SmokeRenderer`]): a full-screen triangle
//! whose fragment shader looks up the cells under each pixel and colour-maps them
//! (`shaders/render/*.wgsl`). The same code draws the viewer's window and the runner's PNG
//! frames ([`FrameTarget`]), so both show the same pixels.

use crate::gas::GpuGas;
use crate::gpu::{self, GpuError};
use crate::shaders;
use crate::smoke::GpuSmoke;
use crate::water::GpuWater;

/// A full-screen-triangle pipeline whose fragment stage reads a uniform (binding 0), an
/// unfilterable float texture (1) and a uint texture (2).
struct Fullscreen {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    srgb: bool,
}

impl Fullscreen {
    fn new(
        device: &wgpu::Device,
        label: &'static str,
        source: &str,
        uniform_size: usize,
        format: wgpu::TextureFormat,
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
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
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
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let uniform = gpu::uniform_buffer(device, label, uniform_size);
        Self { pipeline, layout, uniform, srgb: format.is_srgb() }
    }

    /// Records a draw filling `target` with `uniform` and the two field textures bound.
    #[allow(clippy::too_many_arguments)]
    fn draw(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        uniform: &[u8],
        field: &wgpu::TextureView,
        solid: &wgpu::TextureView,
    ) {
        queue.write_buffer(&self.uniform, 0, uniform);
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: self.uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(field) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(solid) },
            ],
        });
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
}

/// Mirrors `struct View` in `shaders/render/water.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct WaterView {
    grid: [f32; 2],
    target_size: [f32; 2],
    min_mass: f32,
    srgb_target: u32,
    _pad: [f32; 2],
}

/// Draws a [`GpuWater`]'s mass field: air near-white, thin water light blue darkening with mass,
/// compressed water (mass > 1) darker still, solids brown (after Elsts' `water_sim` drawing).
pub struct WaterRenderer(Fullscreen);

impl WaterRenderer {
    /// A renderer whose output is a `format` target (a surface format or `Rgba8Unorm`).
    /// With an sRGB format the shader emits linear values, so every target shows the same colours.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        Self(Fullscreen::new(device, "render/water", shaders::RENDER_WATER, std::mem::size_of::<WaterView>(), format))
    }

    /// Records a draw of `sim`'s current mass field filling `target` (`target_size` pixels).
    pub fn draw(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        target_size: (u32, u32),
        sim: &GpuWater,
    ) {
        let (w, h) = sim.size();
        let view = WaterView {
            grid: [w as f32, h as f32],
            target_size: [target_size.0 as f32, target_size.1 as f32],
            min_mass: sim.params().min_mass,
            srgb_target: self.0.srgb as u32,
            _pad: [0.0; 2],
        };
        self.0.draw(device, queue, encoder, target, bytemuck::bytes_of(&view), sim.mass_view(), sim.solid_view());
    }
}

/// Which gas field a [`GasRenderer`] shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GasField {
    /// Density: dark (0.5 and below) through purple (ambient 1) and orange to yellow (2.5 and above).
    #[default]
    Density,
    /// Velocity: hue = direction, brightness = speed (full at 0.25 cells/step).
    Velocity,
}

/// Mirrors `struct View` in `shaders/render/gas.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct GasView {
    grid: [f32; 2],
    target_size: [f32; 2],
    field: u32,
    srgb_target: u32,
    density_low: f32,
    density_high: f32,
}

/// Draws a [`GpuGas`]: density or velocity, resampled at cell corners (the mean of the open
/// cells around each corner, as the source draws it) and interpolated across cells; walls grey.
pub struct GasRenderer(Fullscreen);

impl GasRenderer {
    /// A renderer whose output is a `format` target.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        Self(Fullscreen::new(device, "render/gas", shaders::RENDER_GAS, std::mem::size_of::<GasView>(), format))
    }

    /// Records a draw of `sim`'s `field` filling `target` (`target_size` pixels).
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        target_size: (u32, u32),
        sim: &GpuGas,
        field: GasField,
    ) {
        let (w, h) = sim.size();
        let view = GasView {
            grid: [w as f32, h as f32],
            target_size: [target_size.0 as f32, target_size.1 as f32],
            field: (field == GasField::Velocity) as u32,
            srgb_target: self.0.srgb as u32,
            density_low: 0.5,
            density_high: 2.5,
        };
        self.0.draw(device, queue, encoder, target, bytemuck::bytes_of(&view), sim.state_view(), sim.solid_view());
    }
}

/// Which smoke field a [`SmokeRenderer`] shows, and its colour scale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SmokeField {
    /// The coloured dye over a dark background, each channel full at 1 (staggered grid; the
    /// collocated grid, which carries no dye, shows its density).
    #[default]
    Dye,
    /// Density: white smoke over a dark background, full white at 1.
    Density,
    /// Temperature: heat ramp, full white at the impulse temperature.
    Temperature,
    /// Speed `|v|`: heat ramp, full white at 20 cells per time unit.
    Speed,
    /// Pressure of the last solve: blue (negative) to red (positive), full at +-10.
    Pressure,
    /// Divergence before the last projection: blue to red, full at +-1 per time unit.
    Divergence,
    /// Vorticity (curl, staggered grid): blue (clockwise on screen) to red, full at +-1 per
    /// time unit.
    Vorticity,
}

/// Mirrors `struct View` in `shaders/render/smoke.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct SmokeView {
    grid: [f32; 2],
    target_size: [f32; 2],
    field: u32,
    srgb_target: u32,
    scale: f32,
    _pad: f32,
}

/// Draws one field of a [`GpuSmoke`], interpolated bilinearly between cell centres; solids grey.
pub struct SmokeRenderer(Fullscreen);

impl SmokeRenderer {
    /// A renderer whose output is a `format` target.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        Self(Fullscreen::new(device, "render/smoke", shaders::RENDER_SMOKE, std::mem::size_of::<SmokeView>(), format))
    }

    /// Records a draw of `sim`'s `field` filling `target` (`target_size` pixels).
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        target_size: (u32, u32),
        sim: &GpuSmoke,
        field: SmokeField,
    ) {
        let (w, h) = sim.size();
        let (index, scale, texture) = match field {
            SmokeField::Dye if sim.grid() == crate::smoke::GridLayout::Staggered => (6, 1.0, sim.dye_view()),
            SmokeField::Density | SmokeField::Dye => (0, 1.0, sim.density_view()),
            SmokeField::Temperature => (1, sim.params().impulse_temperature.abs().max(1e-6), sim.temperature_view()),
            SmokeField::Speed => (2, 20.0, sim.velocity_view()),
            SmokeField::Pressure => (3, 10.0, sim.pressure_view()),
            SmokeField::Divergence => (4, 1.0, sim.divergence_view()),
            SmokeField::Vorticity => {
                sim.encode_vorticity(encoder);
                (5, 1.0, sim.vorticity_view())
            }
        };
        let view = SmokeView {
            grid: [w as f32, h as f32],
            target_size: [target_size.0 as f32, target_size.1 as f32],
            field: index,
            srgb_target: self.0.srgb as u32,
            scale,
            _pad: 0.0,
        };
        self.0.draw(device, queue, encoder, target, bytemuck::bytes_of(&view), texture, sim.solid_view());
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
    /// [`GpuError::GridTooLarge`] when the scaled image exceeds the texture limit.
    pub fn new(device: &wgpu::Device, grid: (u32, u32), scale: u32) -> Result<Self, GpuError> {
        let (width, height) = (grid.0 * scale.max(1), grid.1 * scale.max(1));
        gpu::check_grid_size(device, width as usize, height as usize)?;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
        let target = gpu::texture_2d(device, "frame", (width, height), Self::FORMAT, usage);
        let view = target.create_view(&Default::default());
        Ok(Self { target, view })
    }

    /// Runs `draw(encoder, view, size)`, submits, and reads the image back (waits for the GPU).
    ///
    /// # Errors
    /// As [`gpu::read_texture`].
    pub fn render(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        draw: impl FnOnce(&mut wgpu::CommandEncoder, &wgpu::TextureView, (u32, u32)),
    ) -> Result<image::RgbaImage, GpuError> {
        let mut encoder = device.create_command_encoder(&Default::default());
        let size = (self.target.width(), self.target.height());
        draw(&mut encoder, &self.view, size);
        queue.submit([encoder.finish()]);
        let bytes = gpu::read_texture(device, queue, &self.target, 4)?;
        Ok(image::RgbaImage::from_raw(size.0, size.1, bytes).expect("frame size"))
    }
}
