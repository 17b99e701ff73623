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
    /// Bytes one invocation moves ([`bytes_per_cell`] of its layout).
    bytes_per_cell: u64,
}

/// Bytes a kernel with layout `entries` moves per cell it is dispatched over: each storage
/// texture's texel once, twice when it is read and written (`read_write`); uniforms and
/// sampled textures (the browser's fitted reads, whose format the layout does not say) count 0.
/// A stencil's neighbour reads are taken to come from cache, as a roofline model counts them.
pub fn bytes_per_cell(entries: &[wgpu::BindGroupLayoutEntry]) -> u64 {
    entries
        .iter()
        .map(|e| match e.ty {
            wgpu::BindingType::StorageTexture { access, format, .. } => {
                let texel = format.block_copy_size(None).unwrap_or(0) as u64;
                if access == wgpu::StorageTextureAccess::ReadWrite { 2 * texel } else { texel }
            }
            _ => 0,
        })
        .sum()
}

/// Counts the dispatches this thread records, and the bytes they move, while a count is open:
/// what `eddy bench` reports per step. Only [`Kernel::dispatch`] counts.
pub mod tally {
    use std::cell::Cell;

    thread_local! {
        static OPEN: Cell<Option<Tally>> = const { Cell::new(None) };
    }

    /// Dispatches recorded and bytes moved ([`super::bytes_per_cell`] times the cells of each).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct Tally {
        /// Dispatches recorded.
        pub dispatches: u64,
        /// Bytes they move, by the layout's texels.
        pub bytes: u64,
    }

    /// Opens a count on this thread (an open one starts again from 0).
    pub fn start() {
        OPEN.with(|t| t.set(Some(Tally::default())));
    }

    /// Closes the count and gives it; `None` when none was open.
    pub fn finish() -> Option<Tally> {
        OPEN.with(|t| t.take())
    }

    pub(super) fn add(bytes: u64) {
        OPEN.with(|t| {
            if let Some(mut tally) = t.get() {
                tally.dispatches += 1;
                tally.bytes += bytes;
                t.set(Some(tally));
            }
        });
    }
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
        let bytes_per_cell = bytes_per_cell(entries);
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
        Self { pipeline, layout, label, workgroup, bytes_per_cell }
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
        tally::add(self.bytes_per_cell * width as u64 * height as u64);
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
