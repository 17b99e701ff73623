//! [`Kernel`]: one compute pipeline with its bind-group layout, and helpers for layout entries.

/// One compute pass's pipeline and bind-group layout (group 0), built from one WGSL source.
///
/// One invocation per cell; a workgroup covers `workgroup.0 x workgroup.1` cells (columns x rows),
/// the shader's `@workgroup_size(x, y)`.
pub struct Kernel {
    /// The compute pipeline (entry point `main`).
    pub pipeline: wgpu::ComputePipeline,
    /// Layout of `@group(0)`.
    pub layout: wgpu::BindGroupLayout,
    label: &'static str,
    workgroup: (u32, u32),
}

impl Kernel {
    /// Compiles `source` and builds the pipeline with a group-0 layout of `entries`;
    /// `workgroup` must equal the shader's `@workgroup_size(x, y)`.
    ///
    /// Where `entries` hold more storage textures than the device allows per stage, the
    /// read-only ones become sampled textures, in the layout and in the WGSL (see
    /// `src/gpu/fit.rs`): the same texels, within WebGPU's default limit of 4.
    ///
    /// Creation errors surface through the device's error scopes (see [`crate::gpu::scoped`]).
    pub fn new(
        device: &wgpu::Device,
        label: &'static str,
        source: &str,
        workgroup: (u32, u32),
        entries: &[wgpu::BindGroupLayoutEntry],
    ) -> Self {
        let fitted;
        let (source, entries) =
            if super::fit::storage_count(entries) > device.limits().max_storage_textures_per_shader_stage {
                fitted = (super::fit::sampled_reads(source), super::fit::sampled_entries(entries));
                (fitted.0.as_str(), fitted.1.as_slice())
            } else {
                (source, entries)
            };
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(label),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        Self { pipeline, layout, label, workgroup }
    }

    /// A bind group for this kernel's layout, resources bound at 0, 1, 2, ... in order.
    pub fn bind_group(&self, device: &wgpu::Device, resources: &[wgpu::BindingResource<'_>]) -> wgpu::BindGroup {
        let entries: Vec<_> = resources
            .iter()
            .enumerate()
            .map(|(i, r)| wgpu::BindGroupEntry { binding: i as u32, resource: r.clone() })
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(self.label),
            layout: &self.layout,
            entries: &entries,
        })
    }

    /// Records one dispatch covering a `width x height` grid.
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, bind_group: &wgpu::BindGroup, width: u32, height: u32) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind_group, &[]);
        pass.dispatch_workgroups(width.div_ceil(self.workgroup.0), height.div_ceil(self.workgroup.1), 1);
    }
}

/// Bind-group layout entries for compute shaders, by what the WGSL declares.
pub mod binding {
    const STAGE: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

    /// `var<uniform>`.
    pub fn uniform(binding: u32) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility: STAGE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }
    }

    /// `var<storage, read_write>` (a buffer the pass writes).
    pub fn storage_buffer(binding: u32) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility: STAGE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: false },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }
    }

    /// `texture_2d<f32>` read with `textureLoad` (unfilterable float, e.g. r32float).
    pub fn texture_f32(binding: u32) -> wgpu::BindGroupLayoutEntry {
        texture(binding, wgpu::TextureSampleType::Float { filterable: false })
    }

    /// `texture_2d<u32>` (e.g. the r8uint solid mask).
    pub fn texture_u32(binding: u32) -> wgpu::BindGroupLayoutEntry {
        texture(binding, wgpu::TextureSampleType::Uint)
    }

    fn texture(binding: u32, sample_type: wgpu::TextureSampleType) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility: STAGE,
            ty: wgpu::BindingType::Texture {
                sample_type,
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        }
    }

    /// `texture_storage_2d<format, read>`.
    pub fn storage_read(binding: u32, format: wgpu::TextureFormat) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility: STAGE,
            ty: wgpu::BindingType::StorageTexture {
                access: wgpu::StorageTextureAccess::ReadOnly,
                format,
                view_dimension: wgpu::TextureViewDimension::D2,
            },
            count: None,
        }
    }

    /// `texture_storage_2d<format, write>`.
    pub fn storage_write(binding: u32, format: wgpu::TextureFormat) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility: STAGE,
            ty: wgpu::BindingType::StorageTexture {
                access: wgpu::StorageTextureAccess::WriteOnly,
                format,
                view_dimension: wgpu::TextureViewDimension::D2,
            },
            count: None,
        }
    }

    /// `texture_storage_2d<format, read_write>` (WebGPU allows it for `r32float`, `r32uint`,
    /// `r32sint` without a feature).
    pub fn storage_read_write(binding: u32, format: wgpu::TextureFormat) -> wgpu::BindGroupLayoutEntry {
        wgpu::BindGroupLayoutEntry {
            binding,
            visibility: STAGE,
            ty: wgpu::BindingType::StorageTexture {
                access: wgpu::StorageTextureAccess::ReadWrite,
                format,
                view_dimension: wgpu::TextureViewDimension::D2,
            },
            count: None,
        }
    }
}
