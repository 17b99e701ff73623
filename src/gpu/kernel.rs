//! [`Kernel`]: one compute pipeline with its bind-group layout, read from its WGSL.

/// One compute pass's pipeline and bind-group layout (group 0), built from one WGSL source.
///
/// A workgroup covers `workgroup.0 x workgroup.1` invocations (columns x rows), the shader's
/// `@workgroup_size(x, y)`; most passes run one invocation per cell, packed ones
/// ([`crate::solver::packed`]) one per texel of four cells.
pub struct Kernel {
    /// Layout of `@group(0)`.
    pub layout: wgpu::BindGroupLayout,
    /// The compute pipeline (entry point `main`), built from [`Self::recipe`] when the kernel
    /// is made or, with [`super::DeviceCaps::lazy_pipelines`], when it is first dispatched.
    pipeline: std::sync::OnceLock<wgpu::ComputePipeline>,
    recipe: Recipe,
    label: &'static str,
    workgroup: (u32, u32),
    /// Per binding, the bytes a texel of it moves in one dispatch ([`texel_bytes`]).
    texel_bytes: Vec<u64>,
    /// The bytes one dispatch moves with each bind group [`Kernel::bind_group`] made (what
    /// [`tally`] and [`super::profile`] count).
    group_bytes: std::sync::Mutex<Vec<(wgpu::BindGroup, u64)>>,
}

/// What a [`Kernel`]'s pipeline is built from.
struct Recipe {
    device: wgpu::Device,
    module: wgpu::ShaderModule,
    layout: wgpu::PipelineLayout,
    /// Values of the shader's pipeline-overridable constants, by name.
    constants: Vec<(String, f64)>,
}

/// The bytes a texel of the binding `entry` moves in one dispatch: a storage texture's texel
/// size, twice when it is read and written (`read_write`); uniforms, buffers and sampled
/// textures count 0. A dispatch is counted as touching each bound storage texture's texels once
/// (a stencil's neighbour reads are taken to come from cache, as a roofline model counts them).
pub fn texel_bytes(entry: &wgpu::BindGroupLayoutEntry) -> u64 {
    match entry.ty {
        wgpu::BindingType::StorageTexture { access, format, .. } => {
            let texel = format.block_copy_size(None).unwrap_or(0) as u64;
            if access == wgpu::StorageTextureAccess::ReadWrite { 2 * texel } else { texel }
        }
        _ => 0,
    }
}

/// Counts the dispatches this thread records, and the bytes they move, while a count is open:
/// what `eddy bench` reports per step. Only [`Kernel::dispatch`] counts.
pub mod tally {
    use std::cell::Cell;

    thread_local! {
        static OPEN: Cell<Option<Tally>> = const { Cell::new(None) };
    }

    /// Dispatches recorded and bytes moved (each bound storage texture's texels once a dispatch,
    /// [`super::texel_bytes`]).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct Tally {
        /// Dispatches recorded.
        pub dispatches: u64,
        /// Bytes they move.
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

    /// Whether a count is open on this thread.
    pub fn is_open() -> bool {
        OPEN.with(|t| t.get().is_some())
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
    /// Compiles `source` and builds the pipeline with the group-0 layout and workgroup size its
    /// WGSL declares ([`super::reflect`]); with [`super::DeviceCaps::lazy_pipelines`], the
    /// pipeline when it is first dispatched ([`Kernel::pipeline`]).
    ///
    /// `caps` are `device`'s ([`super::DeviceCaps::of`], derived once by the model that builds
    /// the kernel). Where the pass binds more storage textures than
    /// [`super::DeviceCaps::storage_textures_per_stage`] allows, the read-only ones become
    /// sampled textures, in the WGSL and so in the layout (see
    /// `src/gpu/fit.rs`): the same texels, within WebGPU's default limit of 4.
    ///
    /// Creation errors surface through the device's error scopes (see [`crate::gpu::scoped`]).
    ///
    /// # Panics
    /// When `source` cannot be reflected (it does not parse, or binds what eddy's passes do
    /// not): eddy's own WGSL always can, which `tests/shader_validation.rs` checks for every
    /// module.
    pub fn new(device: &wgpu::Device, caps: &super::DeviceCaps, label: &'static str, source: &str) -> Self {
        Self::with_constants(device, caps, label, source, &[])
    }

    /// [`Kernel::new`] with values for the shader's pipeline-overridable constants (WGSL
    /// `override` declarations, by name), e.g. a strip length chosen for the adapter.
    ///
    /// # Panics
    /// As [`Kernel::new`].
    pub fn with_constants(
        device: &wgpu::Device,
        caps: &super::DeviceCaps,
        label: &'static str,
        source: &str,
        constants: &[(&str, f64)],
    ) -> Self {
        match Self::try_with_constants(device, caps, label, source, constants) {
            Ok(kernel) => kernel,
            Err(super::GpuError::Validation(why)) => panic!("eddy's {why}"),
            Err(e) => panic!("eddy's WGSL `{label}`: {e}"),
        }
    }

    /// [`Kernel::new`] for WGSL that may not reflect (a model written outside eddy): the
    /// error instead of a panic.
    ///
    /// # Errors
    /// [`super::GpuError::Validation`] saying which shader and why, with the line and column of a
    /// parse error: ``WGSL `heat/step` cannot be reflected: line 12, column 9: no definition in
    /// scope for identifier: `tt` ``. Errors the device finds later surface through its error
    /// scopes, as for [`Kernel::new`].
    pub fn try_new(
        device: &wgpu::Device,
        caps: &super::DeviceCaps,
        label: &'static str,
        source: &str,
    ) -> Result<Self, super::GpuError> {
        Self::try_with_constants(device, caps, label, source, &[])
    }

    /// [`Kernel::with_constants`], with [`Kernel::try_new`]'s errors.
    ///
    /// # Errors
    /// As [`Kernel::try_new`].
    pub fn try_with_constants(
        device: &wgpu::Device,
        caps: &super::DeviceCaps,
        label: &'static str,
        source: &str,
        constants: &[(&str, f64)],
    ) -> Result<Self, super::GpuError> {
        let reflect = |source: &str| {
            super::reflect::reflect(source)
                .map_err(|e| super::GpuError::Validation(format!("WGSL `{label}` cannot be reflected: {e}")))
        };
        let mut reflection = reflect(source)?;
        // Counted from the layout as written: a fitted (sampled) read moves the same texels.
        let texel_bytes = reflection.entries.iter().map(texel_bytes).collect();
        let fitted;
        let source = if super::fit::storage_count(&reflection.entries) > caps.storage_textures_per_stage {
            fitted = super::fit::sampled_reads(source);
            reflection = reflect(&fitted)?;
            fitted.as_str()
        } else {
            source
        };
        let (entries, workgroup) = (reflection.entries.as_slice(), reflection.workgroup);
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
        let recipe = Recipe {
            device: device.clone(),
            module,
            layout: pipeline_layout,
            constants: constants.iter().map(|&(name, value)| (name.to_string(), value)).collect(),
        };
        let kernel = Self {
            pipeline: Default::default(),
            recipe,
            layout,
            label,
            workgroup,
            texel_bytes,
            group_bytes: Default::default(),
        };
        if !caps.lazy_pipelines {
            kernel.pipeline();
        }
        Ok(kernel)
    }

    /// The compute pipeline (entry point `main`), built now if it was not yet.
    pub fn pipeline(&self) -> &wgpu::ComputePipeline {
        self.pipeline.get_or_init(|| {
            let r = &self.recipe;
            let constants: Vec<(&str, f64)> = r.constants.iter().map(|(name, value)| (name.as_str(), *value)).collect();
            r.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(self.label),
                layout: Some(&r.layout),
                module: &r.module,
                entry_point: Some("main"),
                compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
                cache: None,
            })
        })
    }

    /// The kernel's name (its shader's path under `shaders/`, without `.wgsl`).
    pub fn label(&self) -> &'static str {
        self.label
    }

    /// A bind group for this kernel's layout, resources bound at 0, 1, 2, ... in order.
    /// The kernel remembers the bytes a dispatch with it moves (for [`tally`] and the
    /// profiler) as long as it lives: make the groups of a pass once, at creation, and use
    /// [`Kernel::dispatch_once`] for one made per use.
    pub fn bind_group(&self, device: &wgpu::Device, resources: &[wgpu::BindingResource<'_>]) -> wgpu::BindGroup {
        let group = self.unremembered_group(device, resources);
        let bytes = self.bytes_bound(resources);
        self.group_bytes.lock().unwrap_or_else(|e| e.into_inner()).push((group.clone(), bytes));
        group
    }

    /// Records one dispatch (as [`Kernel::dispatch`]) with a bind group of `resources` made for
    /// it alone, which the kernel does not remember: for a pass whose resources change from
    /// use to use, such as a reduction's each time it is asked, whose groups would otherwise
    /// pile up for the kernel's life.
    pub fn dispatch_once(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        device: &wgpu::Device,
        resources: &[wgpu::BindingResource<'_>],
        width: u32,
        height: u32,
    ) {
        let group = self.unremembered_group(device, resources);
        self.dispatch_counted(pass, &group, self.bytes_bound(resources), (width, height, 1));
    }

    /// The bytes a dispatch binding `resources` moves: each texture's texels times the bytes
    /// its binding's format holds.
    fn bytes_bound(&self, resources: &[wgpu::BindingResource<'_>]) -> u64 {
        resources
            .iter()
            .zip(&self.texel_bytes)
            .map(|(r, &b)| match r {
                wgpu::BindingResource::TextureView(v) => b * v.texture().width() as u64 * v.texture().height() as u64,
                _ => 0,
            })
            .sum()
    }

    fn unremembered_group(&self, device: &wgpu::Device, resources: &[wgpu::BindingResource<'_>]) -> wgpu::BindGroup {
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

    /// The bytes a dispatch with `group` moves (0 for a group this kernel did not make).
    fn bytes_of(&self, group: &wgpu::BindGroup) -> u64 {
        let groups = self.group_bytes.lock().unwrap_or_else(|e| e.into_inner());
        groups.iter().find(|(g, _)| g == group).map_or(0, |&(_, b)| b)
    }

    /// Records one dispatch of `width x height` invocations (cells, or texels of a packed pass).
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, bind_group: &wgpu::BindGroup, width: u32, height: u32) {
        self.dispatch_layers(pass, bind_group, width, height, 1);
    }

    /// [`Kernel::dispatch`] `layers` times over, the invocations' z from 0 to `layers - 1` (the
    /// kernel's workgroups are one deep).
    pub fn dispatch_layers(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        bind_group: &wgpu::BindGroup,
        width: u32,
        height: u32,
        layers: u32,
    ) {
        let bytes = if tally::is_open() || super::profile::is_open() { self.bytes_of(bind_group) } else { 0 };
        self.dispatch_counted(pass, bind_group, bytes, (width, height, layers));
    }

    /// [`Kernel::dispatch`] for a pass that touches only `part` (0 to 1) of its textures'
    /// texels, such as the impulse over its rectangle: the bytes it is counted to move (for
    /// [`tally`] and the profiler) are that part of its bound textures', not all of them.
    pub fn dispatch_part(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        bind_group: &wgpu::BindGroup,
        width: u32,
        height: u32,
        part: f64,
    ) {
        let bytes = if tally::is_open() || super::profile::is_open() { self.bytes_of(bind_group) } else { 0 };
        self.dispatch_counted(
            pass,
            bind_group,
            (bytes as f64 * part.clamp(0.0, 1.0)).round() as u64,
            (width, height, 1),
        );
    }

    /// The kernel over the workgroups `args` holds at `offset` (three `u32`s: x, y, z, as a pass
    /// before it wrote them on the GPU), such as the awake tiles of sleeping water. How many run
    /// is known only on the GPU, so its bytes are counted as its bound textures' whole (for
    /// [`tally`] and the profiler): what it moves when every workgroup it could run runs.
    pub fn dispatch_indirect(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        bind_group: &wgpu::BindGroup,
        args: &wgpu::Buffer,
        offset: u64,
    ) {
        let bytes = if tally::is_open() || super::profile::is_open() { self.bytes_of(bind_group) } else { 0 };
        pass.set_pipeline(self.pipeline());
        pass.set_bind_group(0, bind_group, &[]);
        super::profile::around(pass, self.label, bytes, |pass| pass.dispatch_workgroups_indirect(args, offset));
        tally::add(bytes);
    }

    fn dispatch_counted(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        bind_group: &wgpu::BindGroup,
        bytes: u64,
        (width, height, layers): (u32, u32, u32),
    ) {
        pass.set_pipeline(self.pipeline());
        pass.set_bind_group(0, bind_group, &[]);
        let groups = (width.div_ceil(self.workgroup.0), height.div_ceil(self.workgroup.1));
        super::profile::around(pass, self.label, bytes, |pass| pass.dispatch_workgroups(groups.0, groups.1, layers));
        tally::add(bytes);
    }
}
