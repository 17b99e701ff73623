//! Field -> colour: draws a model's field into a window surface or an offscreen texture (PNG).
//!
//! One render pipeline per model: a full-screen triangle whose fragment shader looks up the
//! cell under each pixel (nearest) and colour-maps it (`shaders/render/*.wgsl`). The same code
//! draws the viewer's window and the runner's PNG frames, so both show the same pixels.

use crate::gpu::{self, GpuError};
use crate::shaders;
use crate::water::GpuWater;

/// Mirrors `struct View` in `shaders/render/water.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ViewUniform {
    grid: [f32; 2],
    target_size: [f32; 2],
    min_mass: f32,
    srgb_target: u32,
    _pad: [f32; 2],
}

/// Draws a [`GpuWater`]'s mass field: air near-white, thin water light blue darkening with mass,
/// compressed water (mass > 1) darker still, solids brown.
pub struct WaterRenderer {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    srgb: bool,
}

impl WaterRenderer {
    /// A renderer whose output is a `format` target (a surface format or `Rgba8Unorm`).
    /// With an sRGB format the shader emits linear values, so every target shows the same colours.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("render/water"),
            source: wgpu::ShaderSource::Wgsl(shaders::RENDER_WATER.into()),
        });
        let fragment_entry = |binding, sample_type| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type,
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("render/water"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
                fragment_entry(1, wgpu::TextureSampleType::Float { filterable: false }),
                fragment_entry(2, wgpu::TextureSampleType::Uint),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("render/water"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("render/water"),
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
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("render/water view"),
            size: std::mem::size_of::<ViewUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Self { pipeline, layout, uniform, srgb: format.is_srgb() }
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
        let view = ViewUniform {
            grid: [w as f32, h as f32],
            target_size: [target_size.0 as f32, target_size.1 as f32],
            min_mass: sim.params().min_mass,
            srgb_target: self.srgb as u32,
            _pad: [0.0; 2],
        };
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&view));
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("render/water"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: self.uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(sim.mass_view()) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::TextureView(sim.solid_view()) },
            ],
        });
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("render/water"),
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

/// Renders frames of a [`GpuWater`] offscreen (`Rgba8Unorm`) and reads them back as images,
/// `scale` pixels per cell. Used by `eddy run --frames`.
pub struct FrameRenderer {
    renderer: WaterRenderer,
    target: wgpu::Texture,
    view: wgpu::TextureView,
}

impl FrameRenderer {
    /// A `(W * scale) x (H * scale)` offscreen target for a `W x H` grid.
    ///
    /// # Errors
    /// [`GpuError::GridTooLarge`] when the scaled image exceeds the texture limit.
    pub fn new(device: &wgpu::Device, grid: (u32, u32), scale: u32) -> Result<Self, GpuError> {
        let (width, height) = (grid.0 * scale.max(1), grid.1 * scale.max(1));
        gpu::check_grid_size(device, width as usize, height as usize)?;
        let target = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("frame"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = target.create_view(&Default::default());
        Ok(Self { renderer: WaterRenderer::new(device, wgpu::TextureFormat::Rgba8Unorm), target, view })
    }

    /// Draws `sim` and reads the image back (waits for the GPU).
    ///
    /// # Errors
    /// As [`gpu::read_texture`].
    pub fn render(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        sim: &GpuWater,
    ) -> Result<image::RgbaImage, GpuError> {
        let mut encoder = device.create_command_encoder(&Default::default());
        let size = (self.target.width(), self.target.height());
        self.renderer.draw(device, queue, &mut encoder, &self.view, size, sim);
        queue.submit([encoder.finish()]);
        let bytes = gpu::read_texture(device, queue, &self.target, 4)?;
        Ok(image::RgbaImage::from_raw(size.0, size.1, bytes).expect("frame size"))
    }
}
