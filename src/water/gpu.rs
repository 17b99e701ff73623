//! The water model on the GPU: one compute pass per step ([`StepPass`],
//! `shaders/water/step.wgsl`), gather-only. Every cell works out its own four outflows (down,
//! left, right, up) exactly as Elsts' push loop computes them from the previous masses, and
//! those its neighbours send towards it, and writes its old mass minus the one plus the other
//! into the other mass texture of the ping-pong. Because the push loop reads only the previous
//! step's masses, the sum of pushes a cell receives equals what it gathers here: the two
//! formulations agree to the bit.
//!
//! The pass runs in the packed layout ([`crate::gpu::packed`]: four cells of a row a
//! `rgba32float` texel), each invocation walking a column of [`DeviceCaps::strip`] rows of two texels so
//! that each row's outflows are computed once and every texel is read about once: on lavapipe
//! texel operations and dispatches, not bytes, bound a step, and this keeps both few.
//! The mass keeps one cell a texel between runs of steps (the renderer, the brush, the
//! statistics and readbacks read it so): a run packs it first and unpacks it after its last
//! step, two dispatches a run. Packed, a solid cell's mass is stored negated (-0.0 when empty,
//! and every other mass is >= +0.0), so the step reads which cells are solid from the signs of
//! the masses it loads anyway instead of from a texture of solid bits beside them.

use super::{Boundary, Brush, WaterParams, WaterState, WaterStats};
use crate::error::Error;
use crate::gpu::{self, DeviceCaps, GpuError, Kernel, PingPong};
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::shaders;
use wgpu::BindingResource::TextureView as View;

/// Mirrors `struct WaterParams` in `shaders/water/params.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct WaterUniform {
    max_mass: f32,
    max_compress: f32,
    min_mass: f32,
    min_flow: f32,
    max_speed: f32,
    side_share: f32,
    open_boundary: u32,
    width: u32,
}

impl WaterUniform {
    /// For `p` on a grid `width` cells wide.
    fn new(p: &WaterParams, width: u32) -> Self {
        Self {
            max_mass: p.max_mass,
            max_compress: p.max_compress,
            min_mass: p.min_mass,
            min_flow: p.min_flow,
            max_speed: p.max_speed,
            side_share: p.side_share,
            open_boundary: (p.boundary == Boundary::Open) as u32,
            width,
        }
    }
}

/// Per cell, which of itself and its four neighbours is solid: bit 0 self, 1 below, 2 left,
/// 3 right, 4 above (`SOLID_*` in `shaders/water/params.wgsl`). Outside the grid is solid with
/// [`Boundary::Wall`] and open with [`Boundary::Open`]. Row-major `(H, W)`.
fn solid_bits(solid: &Grid<u8>, boundary: Boundary) -> Vec<u32> {
    let wall = boundary == Boundary::Wall;
    let is_solid = |r: isize, c: isize| solid.get(r, c).map_or(wall, |&s| s != 0);
    let (h, w) = solid.shape();
    let mut bits = Vec::with_capacity(h * w);
    for r in 0..h as isize {
        for c in 0..w as isize {
            let neighbours = [(r, c), (r + 1, c), (r, c - 1), (r, c + 1), (r - 1, c)];
            bits.push(neighbours.iter().enumerate().map(|(i, &(nr, nc))| (is_solid(nr, nc) as u32) << i).sum());
        }
    }
    bits
}

/// Mirrors `struct Brush` in `shaders/water/brush.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct BrushUniform {
    center: [f32; 2],
    radius: f32,
    scale: f32,
    add: f32,
    _pad: [f32; 3],
}

/// The packed textures a run of steps works in: the mass, four cells a texel, a solid cell's
/// stored negated (`shaders/water/pack.wgsl`), a ping-pong pair.
struct Packed {
    size: (u32, u32),
    mass: [wgpu::TextureView; 2],
}

impl Packed {
    fn new(device: &wgpu::Device, (width, height): (u32, u32)) -> Self {
        let size = gpu::packed::packed_size(width, height);
        // TEXTURE_BINDING: on a device with WebGPU's 4 storage textures per stage the passes
        // read them as sampled textures (gpu::fit).
        let usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING;
        let rgba = wgpu::TextureFormat::Rgba32Float;
        let view = |t: wgpu::Texture| t.create_view(&Default::default());
        let mass = [0, 1].map(|_| view(gpu::texture_2d(device, "water/packed mass", size, rgba, usage)));
        Self { size, mass }
    }
}

/// The step (`shaders/water/step.wgsl`): outflows and gather in one pass, each invocation a
/// column of [`DeviceCaps::strip`] rows of two texels. Bind group `j` reads packed mass texture `j` and
/// writes `1 - j`.
struct StepPass {
    kernel: Kernel,
    bind_groups: [wgpu::BindGroup; 2],
    strip: u32,
}

impl StepPass {
    fn new(device: &wgpu::Device, caps: &DeviceCaps, uniform: &wgpu::Buffer, packed: &Packed) -> Self {
        let strip = caps.strip;
        let kernel =
            Kernel::with_constants(device, caps, "water/step", shaders::WATER_STEP, &[("STRIP", strip as f64)]);
        let bind_groups = [0, 1].map(|j| {
            kernel.bind_group(device, &[uniform.as_entire_binding(), View(&packed.mass[j]), View(&packed.mass[1 - j])])
        });
        Self { kernel, bind_groups, strip }
    }
}

/// Packing the mass before a run of steps (`shaders/water/pack.wgsl`: the solid cells' masses
/// negated, so that the step reads which cells are solid from the signs) and unpacking it after
/// (`shaders/common/unpack.wgsl` with `MAGNITUDE`: |m|): `pack[i]` packs mass texture `i` into
/// packed texture 0, `unpack[i][j]` unpacks packed texture `j` into mass texture `i`.
struct PackPasses {
    kernels: [Kernel; 2],
    pack: [wgpu::BindGroup; 2],
    unpack: [[wgpu::BindGroup; 2]; 2],
}

impl PackPasses {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        uniform: &wgpu::Buffer,
        mass: &PingPong,
        solid: &wgpu::TextureView,
        packed: &Packed,
    ) -> Self {
        let kernels = [
            Kernel::new(device, caps, "water/pack", shaders::WATER_PACK),
            Kernel::with_constants(device, caps, "water/unpack", shaders::UNPACK, &[("MAGNITUDE", 1.0)]),
        ];
        let pack = [0, 1].map(|i| {
            let entries = [uniform.as_entire_binding(), View(&mass.views()[i]), View(solid), View(&packed.mass[0])];
            kernels[0].bind_group(device, &entries)
        });
        let unpack = [0, 1]
            .map(|i| [0, 1].map(|j| kernels[1].bind_group(device, &[View(&packed.mass[j]), View(&mass.views()[i])])));
        Self { kernels, pack, unpack }
    }
}

/// The water model on a wgpu device.
///
/// Textures (`W x H` texels for an `(H, W)` grid, texel `(x, y)` = cell `(row y, col x)`):
/// mass `r32float` ping-pong, solid bits `r32uint` (see [`GpuWater::solid_view`]); and for the
/// step, packed four cells a texel (see the module docs), the mass ping-pong, each solid
/// cell's mass stored negated (the step's solid bits are the signs). Every pass reads through
/// read-only storage bindings: on lavapipe an image load costs about half of a sampled
/// `textureLoad`.
/// Holds clones of the device and queue it was made with (an application's own, or
/// [`crate::gpu::Gpu`]'s).
pub struct GpuWater {
    device: wgpu::Device,
    queue: wgpu::Queue,
    width: u32,
    height: u32,
    params: WaterParams,
    uniform: wgpu::Buffer,
    mass: PingPong,
    solid_mask: Grid<u8>,
    solid: wgpu::Texture,
    solid_view: wgpu::TextureView,
    packed: Packed,
    step: StepPass,
    packing: PackPasses,
    brush: gpu::EditPass,
    stats: gpu::Reduction,
    steps: u64,
    /// The caps it was built with, for what is built later to draw it (the surface look's foam).
    caps: DeviceCaps,
}

impl GpuWater {
    /// Uploads `state` and builds the passes.
    ///
    /// # Errors
    /// [`Error::Param`] for invalid `params`; [`GpuError::GridTooLarge`] when a side is 0 or above
    /// the device's `max_texture_dimension_2d`; [`GpuError::Validation`] / `OutOfMemory` if the
    /// device rejects a resource.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: &WaterState,
        params: WaterParams,
    ) -> Result<Self, Error> {
        Self::with_caps(device, &DeviceCaps::of(device), queue, state, params)
    }

    /// [`GpuWater::new`] with `device`'s caps handed in rather than derived: the step walks
    /// [`DeviceCaps::strip`] texel rows an invocation (1 or more), so a test can run every strip
    /// on one adapter and find the same result.
    ///
    /// # Errors
    /// As [`GpuWater::new`].
    ///
    /// # Panics
    /// When `caps.strip` is 0.
    pub fn with_caps(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        queue: &wgpu::Queue,
        state: &WaterState,
        params: WaterParams,
    ) -> Result<Self, Error> {
        assert!(caps.strip > 0, "a strip of no rows");
        params.validate()?;
        let (h, w) = state.shape();
        gpu::check_device(device, "water", super::STORAGE_TEXTURES_PER_STAGE)?;
        gpu::check_grid_size(device, w, h)?;
        let (width, height) = (w as u32, h as u32);
        let mut sim = gpu::scoped(device, || {
            let uniform = gpu::uniform_buffer(device, "water/params", std::mem::size_of::<WaterUniform>());
            let mass = PingPong::new(device, "water/mass", width, height, wgpu::TextureFormat::R32Float);
            let bits_usage = wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::STORAGE_BINDING
                | wgpu::TextureUsages::COPY_DST;
            let solid =
                gpu::texture_2d(device, "water/solid", (width, height), wgpu::TextureFormat::R32Uint, bits_usage);
            let solid_view = solid.create_view(&Default::default());
            let packed = Packed::new(device, (width, height));
            let step = StepPass::new(device, caps, &uniform, &packed);
            let packing = PackPasses::new(device, caps, &uniform, &mass, &solid_view, &packed);
            let brush = gpu::EditPass::new(
                device,
                caps,
                "water/brush",
                shaders::WATER_BRUSH,
                std::mem::size_of::<BrushUniform>(),
                &mass,
                &solid_view,
            );
            let stats = gpu::Reduction::new(device, caps, "water/stats", shaders::WATER_STATS, height);
            GpuWater {
                stats,
                device: device.clone(),
                queue: queue.clone(),
                width,
                height,
                params,
                uniform,
                mass,
                solid_mask: state.solid.clone(),
                solid,
                solid_view,
                packed,
                step,
                packing,
                brush,
                steps: 0,
                caps: caps.clone(),
            }
        })?;
        sim.queue.write_buffer(&sim.uniform, 0, bytemuck::bytes_of(&WaterUniform::new(&params, width)));
        sim.upload_mass(&state.mass);
        sim.upload_solid(&state.solid)?;
        Ok(sim)
    }

    fn upload_mass(&self, mass: &Grid<f32>) {
        gpu::upload(&self.queue, self.mass.current(), bytemuck::cast_slice(mass.as_slice()), 4);
    }

    /// Replaces the solid mask (`(H, W)`, non-zero = ground) and empties the cells that became
    /// solid, at once ([`GpuWater::encode_solid`] in an encoder of its own, submitted).
    ///
    /// # Errors
    /// As [`GpuWater::encode_solid`].
    pub fn upload_solid(&mut self, solid: &Grid<u8>) -> Result<(), GpuError> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_solid(&mut encoder, solid)?;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Records the replacement of the solid mask (`(H, W)`, non-zero = ground) into `encoder`:
    /// the solid bits are written and the cells that became solid emptied where the encoder has
    /// got to, after the steps and edits recorded before and before those recorded after.
    /// [`GpuWater::solid_mask`] gives the new mask at once.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if `solid`'s shape differs from the grid's; nothing is recorded.
    pub fn encode_solid(&mut self, encoder: &mut wgpu::CommandEncoder, solid: &Grid<u8>) -> Result<(), GpuError> {
        if solid.shape() != (self.height as usize, self.width as usize) {
            return Err(GpuError::Validation(format!(
                "solid mask is {:?}, grid is ({}, {})",
                solid.shape(),
                self.height,
                self.width
            )));
        }
        self.solid_mask = solid.clone();
        self.encode_solid_bits(encoder);
        // A zero-radius brush changes nothing but empties solid cells.
        self.encode_brush(encoder, &Brush { center: (0.0, 0.0), radius: 0.0, scale: 1.0, add: 0.0 });
        Ok(())
    }

    /// Records the write of the solid bits of the mask and boundary in use (the next run of
    /// steps packs them into its masses' signs).
    fn encode_solid_bits(&self, encoder: &mut wgpu::CommandEncoder) {
        let bits = solid_bits(&self.solid_mask, self.params.boundary);
        gpu::in_order::upload(&self.device, encoder, &self.solid, bytemuck::cast_slice(&bits), 4);
    }

    /// Applies a brush edit now ([`GpuWater::encode_brush`] in an encoder of its own,
    /// submitted).
    pub fn brush(&mut self, b: &Brush) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_brush(&mut encoder, b);
        self.queue.submit([encoder.finish()]);
    }

    /// Records a brush edit into `encoder` (its uniform written by a recorded copy, then one
    /// compute pass), in recording order: it acts on the mass the steps recorded before it
    /// leave, and the steps recorded after it see its result.
    pub fn encode_brush(&mut self, encoder: &mut wgpu::CommandEncoder, b: &Brush) {
        let u = BrushUniform {
            center: [b.center.0, b.center.1],
            radius: b.radius,
            scale: b.scale,
            add: b.add,
            _pad: [0.0; 3],
        };
        self.brush.encode(&self.device, encoder, &mut self.mass, bytemuck::bytes_of(&u));
    }

    /// Reads the mass field back: `(H, W)` f32, row 0 at top. Waits for the GPU (native
    /// targets; see [`GpuWater::read_mass_async`]).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_mass(&self) -> Result<Grid<f32>, GpuError> {
        gpu::wait(&self.device, self.read_mass_async())?
    }

    /// [`GpuWater::read_mass`] as a future that never blocks: it completes once the device
    /// has been polled after the GPU did the work (a frame loop's `device.poll`, any submit, a
    /// browser's event loop; see `gpu::read_texture_async`).
    ///
    /// # Errors
    /// As [`GpuWater::read_mass`].
    pub async fn read_mass_async(&self) -> Result<Grid<f32>, GpuError> {
        gpu::read_r32float_async(&self.device, &self.queue, self.mass.current()).await
    }

    /// The caps of the device it runs on, as it was built with them.
    pub fn caps(&self) -> &DeviceCaps {
        &self.caps
    }

    /// The current mass texture (`r32float`), e.g. to render it.
    pub fn mass_view(&self) -> &wgpu::TextureView {
        self.mass.current_view()
    }

    /// The solid texture (`r32uint`): bit 0 = the cell is solid; bits 1..=4 = the cell below,
    /// left, right, above is solid (the `SOLID_*` constants of `shaders/water/params.wgsl`).
    pub fn solid_view(&self) -> &wgpu::TextureView {
        &self.solid_view
    }
}

/// The contract every model keeps ([`GpuModel`]); the steps run in one compute pass (the mass
/// packed, one dispatch a step, the mass unpacked; see the module docs), and the statistics are
/// a reduction pass (`shaders/water/stats.wgsl`; one row of numbers per grid row is read back):
/// total mass, wet cells, extremes and non-finite cells.
impl GpuModel for GpuWater {
    type State = WaterState;
    type Params = WaterParams;
    type Stats = WaterStats;
    const NAME: &'static str = "water";

    fn new(device: &wgpu::Device, queue: &wgpu::Queue, state: &WaterState, params: WaterParams) -> Result<Self, Error> {
        GpuWater::new(device, queue, state, params)
    }

    fn device(&self) -> &wgpu::Device {
        &self.device
    }

    fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn params(&self) -> WaterParams {
        self.params
    }

    /// The uniform, and the solid bits when the boundary changes, by recorded copies.
    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: WaterParams) -> Result<(), Error> {
        params.validate()?;
        let boundary_changed = params.boundary != self.params.boundary;
        self.params = params;
        let uniform = WaterUniform::new(&params, self.width);
        gpu::in_order::write_buffer(&self.device, encoder, &self.uniform, 0, bytemuck::bytes_of(&uniform));
        if boundary_changed {
            self.encode_solid_bits(encoder);
        }
        Ok(())
    }

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        if steps == 0 {
            return;
        }
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("water step"), timestamp_writes: None });
        let i = self.mass.read_index();
        let (w, h) = self.packed.size;
        let [pack, unpack] = &self.packing.kernels;
        pack.dispatch(&mut pass, &self.packing.pack[i], w, h);
        for s in 0..steps as usize {
            self.step.kernel.dispatch(
                &mut pass,
                &self.step.bind_groups[s % 2],
                w.div_ceil(2),
                h.div_ceil(self.step.strip),
            );
        }
        unpack.dispatch(&mut pass, &self.packing.unpack[i][steps as usize % 2], w, h);
        self.steps += steps as u64;
    }

    fn steps_recorded(&self) -> u64 {
        self.steps
    }

    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder) {
        let resources = [
            self.uniform.as_entire_binding(),
            wgpu::BindingResource::TextureView(self.mass.current_view()),
            wgpu::BindingResource::TextureView(&self.solid_view),
        ];
        self.stats.encode_request(&self.device, encoder, &resources);
    }

    fn stats_requested(&self) -> bool {
        self.stats.is_requested()
    }

    fn collect_stats(&self) -> Option<Result<WaterStats, GpuError>> {
        Some(self.stats.collect(&self.device)?.map(|t| WaterStats::from_totals(&t)))
    }

    async fn stats_async(&self) -> Result<WaterStats, GpuError> {
        self.stats.settle(&self.device).await;
        self.request_stats();
        Ok(WaterStats::from_totals(&self.stats.finish(&self.device).await?))
    }

    /// The mass; the solid mask is the one last uploaded.
    async fn read_state_async(&self) -> Result<WaterState, GpuError> {
        Ok(WaterState { mass: self.read_mass_async().await?, solid: self.solid_mask.clone() })
    }

    fn state_reader(&self) -> impl Future<Output = Result<WaterState, GpuError>> + 'static {
        let [mass] = gpu::snapshot(&self.device, &self.queue, [self.mass.current()]);
        let (device, queue, solid) = (self.device.clone(), self.queue.clone(), self.solid_mask.clone());
        async move { Ok(WaterState { mass: gpu::read_r32float_async(&device, &queue, &mass).await?, solid }) }
    }

    /// The current mass.
    fn state_textures(&self) -> Vec<&wgpu::Texture> {
        vec![self.mass.current()]
    }

    /// 1 = ground.
    fn solid_mask(&self) -> &Grid<u8> {
        &self.solid_mask
    }
}
