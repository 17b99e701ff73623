//! Multigrid V-cycles on the GPU: the passes of [`super::multigrid`], one WGSL file each
//! (`shaders/solver/{smooth,residual,restrict,prolong}.wgsl`), over one set of `r32float`
//! textures per level (pressure, right-hand side, residual) and an `r32uint` wall texture.
//! Red-black sweeps update the pressure in place (`read_write` storage), so a level holds one
//! pressure texture, not a ping-pong pair. The same finest level also runs plain Jacobi
//! iterations (packed four cells a texel, [`super::packed`]), and
//! [`ResidualStats`] measures a solve's relative residual on the GPU.

use super::multigrid::{Multigrid, Settings};
use super::packed::PackedJacobi;
use crate::error::Error;
use crate::gpu::{self, GpuError, Kernel};
use crate::grid::Grid;
use crate::shaders;

const R32: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
const BITS: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

use wgpu::BindingResource::TextureView as View;

/// One level's textures, `(w, h)` cells.
struct Level {
    size: (u32, u32),
    pressure: wgpu::Texture,
    views: [wgpu::TextureView; 4], // pressure, rhs, residual, solid
    rhs: wgpu::Texture,
}

/// The bind groups of one level: smooth (red, black), residual, restrict to the next level,
/// prolong from the next level.
struct Groups {
    smooth: [wgpu::BindGroup; 2],
    residual: wgpu::BindGroup,
    restrict: Option<wgpu::BindGroup>,
    prolong: Option<wgpu::BindGroup>,
}

/// The GPU multigrid for one wall layout (the GPU twin of [`Multigrid`]).
pub struct GpuMultigrid {
    levels: Vec<Level>,
    groups: Vec<Groups>,
    kernels: [Kernel; 4], // smooth, residual, restrict, prolong
    /// Jacobi iterations on the finest level, four cells an invocation.
    jacobi: PackedJacobi,
    /// The coarse levels' part of a V-cycle in one dispatch.
    coarse: Coarse,
    /// `coarsen_walls.wgsl` and its bind group per level pair `(l, l + 1)`, with their uniforms.
    coarsen: (Kernel, Vec<wgpu::BindGroup>, Vec<wgpu::Buffer>),
    settings: Settings,
    _colours: [wgpu::Buffer; 2],
}

/// Most cells of the first level the coarse kernel takes (32 x 32), and of all the levels it
/// holds (its workgroup arrays, `CAPACITY` in `shaders/solver/coarse.wgsl`).
const COARSE_FIRST_CELLS: usize = 1024;
const COARSE_CELLS: usize = 1536;

/// Mirrors `struct Coarse` in `shaders/solver/coarse.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct CoarseUniform {
    levels: u32,
    pre: u32,
    post: u32,
    coarsest: u32,
}

/// The coarse levels of a V-cycle (`shaders/solver/coarse.wgsl`): from level `first` (the first
/// of at most [`COARSE_FIRST_CELLS`] cells) to the coarsest, in one workgroup's memory.
struct Coarse {
    first: usize,
    kernel: Kernel,
    group: wgpu::BindGroup,
    walls: wgpu::Buffer,
    _uniform: wgpu::Buffer,
    _shapes: wgpu::Buffer,
}

impl Coarse {
    /// The first level whose cells and those of every coarser level fit the kernel.
    fn first(walls: &[Grid<u8>]) -> usize {
        let cells = |l: usize| walls[l..].iter().map(|w| w.width() * w.height()).sum::<usize>();
        (0..walls.len())
            .find(|&l| walls[l].width() * walls[l].height() <= COARSE_FIRST_CELLS && cells(l) <= COARSE_CELLS)
            .expect("the coarsest level has at most 4 x 4 cells")
    }

    /// Every coarse level's wall bits, one after the other.
    fn wall_bits(walls: &[Grid<u8>]) -> Vec<u32> {
        walls.iter().flat_map(gpu::wall_bits).collect()
    }

    fn new(device: &wgpu::Device, walls: &[Grid<u8>], levels: &[Level], settings: Settings) -> Self {
        use wgpu::util::DeviceExt;
        let first = Self::first(walls);
        let mut offset = 0u32;
        let shapes: Vec<[u32; 4]> = walls[first..]
            .iter()
            .map(|w| {
                let shape = [w.width() as u32, w.height() as u32, offset, 0];
                offset += (w.width() * w.height()) as u32;
                shape
            })
            .collect();
        let buffer = |label: &str, contents: &[u8], usage: wgpu::BufferUsages| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor { label: Some(label), contents, usage })
        };
        let uniform = CoarseUniform {
            levels: shapes.len() as u32,
            pre: settings.pre,
            post: settings.post,
            coarsest: settings.coarsest,
        };
        let uniform = buffer("solver/coarse", bytemuck::bytes_of(&uniform), wgpu::BufferUsages::UNIFORM);
        let shapes = buffer("solver/coarse shapes", bytemuck::cast_slice(&shapes), wgpu::BufferUsages::STORAGE);
        let bits = Self::wall_bits(&walls[first..]);
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST;
        let walls = buffer("solver/coarse walls", bytemuck::cast_slice(&bits), storage);
        let kernel = Kernel::new(device, "solver/coarse", shaders::SOLVER_COARSE);
        let [p, rhs, ..] = &levels[first].views;
        let group = kernel.bind_group(
            device,
            &[uniform.as_entire_binding(), shapes.as_entire_binding(), walls.as_entire_binding(), View(p), View(rhs)],
        );
        Self { first, kernel, group, walls, _uniform: uniform, _shapes: shapes }
    }
}

impl GpuMultigrid {
    /// Builds the levels for `solid` `(H, W)` (1 = wall), as [`Multigrid::new`] does, and
    /// uploads their walls; pressure and right-hand side start at 0.
    ///
    /// # Errors
    /// [`Error::Gpu`] when a texture or pipeline cannot be created (e.g. the grid is larger
    /// than the device's texture limit).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        solid: &Grid<u8>,
        settings: Settings,
    ) -> Result<Self, Error> {
        gpu::check_grid_size(device, solid.width(), solid.height())?;
        gpu::scoped(device, || Self::build(device, queue, solid, settings)).map_err(Error::from)
    }

    fn build(device: &wgpu::Device, queue: &wgpu::Queue, solid: &Grid<u8>, settings: Settings) -> Self {
        let walls = Multigrid::new(solid, settings).levels;
        // TEXTURE_BINDING: the smoke model's pressure view draws the finest level's pressure.
        let usage = wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::TEXTURE_BINDING;
        let levels: Vec<Level> = walls
            .iter()
            .map(|s| {
                let size = (s.width() as u32, s.height() as u32);
                let pressure = gpu::texture_2d(device, "solver/pressure", size, R32, usage);
                let rhs = gpu::texture_2d(device, "solver/rhs", size, R32, usage);
                let residual = gpu::texture_2d(device, "solver/residual", size, R32, usage);
                let solid = gpu::texture_2d(device, "solver/solid", size, BITS, usage);
                gpu::upload_walls(queue, &solid, s);
                let view = |t: &wgpu::Texture| t.create_view(&Default::default());
                Level { size, views: [view(&pressure), view(&rhs), view(&residual), view(&solid)], pressure, rhs }
            })
            .collect();
        let kernels = [
            Kernel::new(device, "solver/smooth", shaders::SOLVER_SMOOTH),
            Kernel::new(device, "solver/residual", shaders::SOLVER_RESIDUAL),
            Kernel::new(device, "solver/restrict", shaders::SOLVER_RESTRICT),
            Kernel::new(device, "solver/prolong", shaders::SOLVER_PROLONG),
        ];
        let colours = [0u32, 1].map(|c| gpu::selector_uniform(device, queue, "solver/colour", c));
        let groups = (0..levels.len())
            .map(|l| {
                let [p, rhs, res, solid] = &levels[l].views;
                let next = levels.get(l + 1);
                Groups {
                    smooth: [0, 1].map(|c| {
                        kernels[0]
                            .bind_group(device, &[colours[c].as_entire_binding(), View(p), View(rhs), View(solid)])
                    }),
                    residual: kernels[1].bind_group(device, &[View(p), View(rhs), View(solid), View(res)]),
                    restrict: next.map(|n| {
                        kernels[2].bind_group(device, &[View(res), View(solid), View(&n.views[1]), View(&n.views[0])])
                    }),
                    prolong: next.map(|n| kernels[3].bind_group(device, &[View(p), View(solid), View(&n.views[0])])),
                }
            })
            .collect();
        let [p, rhs, ..] = &levels[0].views;
        let jacobi = PackedJacobi::new(device, queue, levels[0].size, &[p], rhs);
        let mut encoder = device.create_command_encoder(&Default::default());
        jacobi.encode_walls(device, &mut encoder, &walls[0]);
        queue.submit([encoder.finish()]);
        let coarse = Coarse::new(device, &walls, &levels, settings);
        let coarsen = Kernel::new(device, "solver/coarsen_walls", shaders::SOLVER_COARSEN_WALLS);
        let (mut groups_c, mut uniforms) = (Vec::new(), Vec::new());
        let mut offset = 0u32;
        for l in 0..levels.len().saturating_sub(1) {
            let held = l + 1 >= coarse.first;
            let uniform = gpu::uniform_buffer(device, "solver/coarsen", 16);
            queue.write_buffer(&uniform, 0, bytemuck::cast_slice(&[offset, held as u32, 0, 0]));
            if held {
                offset += levels[l + 1].size.0 * levels[l + 1].size.1;
            }
            groups_c.push(coarsen.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    View(&levels[l].views[3]),
                    View(&levels[l + 1].views[3]),
                    coarse.walls.as_entire_binding(),
                ],
            ));
            uniforms.push(uniform);
        }
        Self {
            levels,
            groups,
            kernels,
            jacobi,
            coarse,
            coarsen: (coarsen, groups_c, uniforms),
            settings,
            _colours: colours,
        }
    }

    /// Records `iterations` Jacobi iterations on the finest level ([`super::jacobi`]) into an
    /// open compute pass (so a step's other passes and its solve share one pass), ending in the
    /// pressure texture: packed four cells a texel ([`PackedJacobi`]), `iterations + 2`
    /// dispatches.
    pub fn dispatch_jacobi(&self, pass: &mut wgpu::ComputePass<'_>, iterations: u32) {
        self.jacobi.dispatch(pass, 0, iterations);
    }

    /// [`Self::dispatch_jacobi`] in a compute pass of its own.
    pub fn encode_jacobi(&self, encoder: &mut wgpu::CommandEncoder, iterations: u32) {
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("solver/jacobi"), timestamp_writes: None });
        self.dispatch_jacobi(&mut pass, iterations);
    }

    /// Records the replacement of the walls (`(H, W)`, the grid's shape), every level's as
    /// [`Multigrid::new`] coarsens them, into `encoder` ([`gpu::record`]: in recording order).
    ///
    /// # Panics
    /// When `solid` is not the finest level's shape.
    pub fn encode_walls(&mut self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, solid: &Grid<u8>) {
        let (w, h) = self.levels[0].size;
        assert_eq!(solid.shape(), (h as usize, w as usize), "walls of another grid");
        let walls = Multigrid::new(solid, self.settings).levels;
        for (level, s) in self.levels.iter().zip(&walls) {
            let texture = level.views[3].texture();
            gpu::record::upload(device, encoder, texture, bytemuck::cast_slice(&gpu::wall_bits(s)), 4);
        }
        self.jacobi.encode_walls(device, encoder, &walls[0]);
        let coarse = Coarse::wall_bits(&walls[self.coarse.first..]);
        if !coarse.is_empty() {
            gpu::record::write_buffer(device, encoder, &self.coarse.walls, 0, bytemuck::cast_slice(&coarse));
        }
    }

    /// A view of the finest level's walls (`r32uint`, 1 = wall).
    pub fn solid_view(&self) -> &wgpu::TextureView {
        &self.levels[0].views[3]
    }

    /// Records the coarse levels' walls made from the finest level's (written on the GPU, as
    /// moving bodies do: `staggered_solver_walls.wgsl`) into an open compute pass, level after
    /// level, and the coarse kernel's copy of them: what [`Self::encode_walls`] uploads from the
    /// CPU. One dispatch a coarse level.
    pub fn dispatch_coarsen_walls(&self, pass: &mut wgpu::ComputePass<'_>) {
        let (kernel, groups, _) = &self.coarsen;
        for (l, group) in groups.iter().enumerate() {
            let (w, h) = self.levels[l + 1].size;
            kernel.dispatch(pass, group, w, h);
        }
    }

    /// A view of the packed Jacobi iterations' walls ([`PackedJacobi::walls_view`]).
    pub fn jacobi_walls_view(&self) -> &wgpu::TextureView {
        self.jacobi.walls_view()
    }

    /// The finest level's pressure texture (`r32float`, `(W, H)` texels, row 0 at the top).
    pub fn pressure(&self) -> &wgpu::Texture {
        &self.levels[0].pressure
    }

    /// A view of the finest level's pressure, for a pass that reads it (the gradient).
    pub fn pressure_view(&self) -> &wgpu::TextureView {
        &self.levels[0].views[0]
    }

    /// A view of the finest level's right-hand side `b` (`r32float`), for a pass that writes it
    /// (the divergence) before [`Self::encode_cycles`].
    pub fn rhs_view(&self) -> &wgpu::TextureView {
        &self.levels[0].views[1]
    }

    /// Number of levels, finest first.
    pub fn level_count(&self) -> usize {
        self.levels.len()
    }

    /// Uploads the finest level's right-hand side `b` and initial pressure `p` (both `(H, W)`).
    ///
    /// # Panics
    /// When either is not the grid's shape.
    pub fn upload(&self, queue: &wgpu::Queue, rhs: &Grid<f32>, pressure: &Grid<f32>) {
        let (w, h) = self.levels[0].size;
        assert_eq!((rhs.shape(), pressure.shape()), ((h as usize, w as usize), (h as usize, w as usize)));
        gpu::upload(queue, &self.levels[0].rhs, bytemuck::cast_slice(rhs.as_slice()), 4);
        gpu::upload(queue, &self.levels[0].pressure, bytemuck::cast_slice(pressure.as_slice()), 4);
    }

    /// Records `cycles` V-cycles on the finest level's pressure (the passes of
    /// [`Multigrid`]'s cycle, in its order): a dispatch per pass down to the first coarse level
    /// (32 x 32 cells or less), one for all the coarse levels' passes
    /// (`shaders/solver/coarse.wgsl`), then a dispatch per pass back up.
    pub fn encode_cycles(&self, encoder: &mut wgpu::CommandEncoder, cycles: u32) {
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("solver/v-cycle"), timestamp_writes: None });
        let first = self.coarse.first;
        for _ in 0..cycles {
            for l in 0..first {
                self.sweeps(&mut pass, l, self.settings.pre);
                let (w, h) = self.levels[l].size;
                self.kernels[1].dispatch(&mut pass, &self.groups[l].residual, w, h);
                let (cw, ch) = self.levels[l + 1].size;
                self.kernels[2].dispatch(&mut pass, self.groups[l].restrict.as_ref().expect("a coarser level"), cw, ch);
            }
            self.coarse.kernel.dispatch(&mut pass, &self.coarse.group, 1, 1);
            for l in (0..first).rev() {
                let (w, h) = self.levels[l].size;
                self.kernels[3].dispatch(&mut pass, self.groups[l].prolong.as_ref().expect("a coarser level"), w, h);
                self.sweeps(&mut pass, l, self.settings.post);
            }
        }
    }

    fn sweeps(&self, pass: &mut wgpu::ComputePass<'_>, l: usize, n: u32) {
        let (w, h) = self.levels[l].size;
        for _ in 0..n {
            for colour in 0..2 {
                self.kernels[0].dispatch(pass, &self.groups[l].smooth[colour], w, h);
            }
        }
    }

    /// Reads the finest level's pressure back, `(H, W)`.
    ///
    /// # Errors
    /// [`GpuError`] when the readback fails (device lost, out of memory).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_pressure(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Grid<f32>, GpuError> {
        gpu::read_r32float(device, queue, &self.levels[0].pressure)
    }
}

/// The relative residual `|b - A p| / |b|` of a solve, by a reduction on the GPU
/// (`shaders/solver/stats.wgsl`): the twin of [`super::residual`] and [`super::norm`].
pub struct ResidualStats {
    reduction: gpu::Reduction,
    scale: wgpu::Buffer,
}

impl ResidualStats {
    /// For a grid `height` rows tall.
    pub fn new(device: &wgpu::Device, height: u32) -> Self {
        let reduction = gpu::Reduction::new(device, "solver/stats", shaders::SOLVER_STATS, height);
        Self { reduction, scale: gpu::uniform_buffer(device, "solver/stats scale", 16) }
    }

    /// `(|b - A p|, |b|)` (L2 over the cells whose `solid` bit 0 is clear) for pressure
    /// `pressure`, right-hand side `b = rhs_scale * rhs` and walls `solid`. Waits for the GPU
    /// (native targets; see [`ResidualStats::norms_async`]).
    ///
    /// # Errors
    /// [`GpuError`] when the readback fails.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn norms(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pressure: &wgpu::TextureView,
        rhs: &wgpu::TextureView,
        solid: &wgpu::TextureView,
        rhs_scale: f32,
    ) -> Result<(f64, f64), GpuError> {
        gpu::wait(device, self.norms_async(device, queue, pressure, rhs, solid, rhs_scale))?
    }

    /// [`ResidualStats::norms`] as a future that never blocks: it completes once the device
    /// has been polled after the GPU did the work (a frame loop's `device.poll`, any submit, a
    /// browser's event loop; see `gpu::read_texture_async`).
    ///
    /// # Errors
    /// As [`ResidualStats::norms`].
    pub async fn norms_async(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pressure: &wgpu::TextureView,
        rhs: &wgpu::TextureView,
        solid: &wgpu::TextureView,
        rhs_scale: f32,
    ) -> Result<(f64, f64), GpuError> {
        self.settle(device).await;
        self.request(device, queue, pressure, rhs, solid, rhs_scale);
        self.finish(device).await
    }

    /// Waits out a request in flight ([`gpu::Reduction::settle`]).
    pub async fn settle(&self, device: &wgpu::Device) {
        self.reduction.settle(device).await;
    }

    /// Whether norms were asked for and not yet collected.
    pub fn is_requested(&self) -> bool {
        self.reduction.is_requested()
    }

    /// Submits [`ResidualStats::norms`]' reduction without waiting.
    pub fn request(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pressure: &wgpu::TextureView,
        rhs: &wgpu::TextureView,
        solid: &wgpu::TextureView,
        rhs_scale: f32,
    ) {
        let mut encoder = device.create_command_encoder(&Default::default());
        self.encode_request(device, &mut encoder, pressure, rhs, solid, rhs_scale);
        queue.submit([encoder.finish()]);
    }

    /// Records [`ResidualStats::norms`]' reduction into `encoder`
    /// ([`gpu::Reduction::encode_request`]): the norms of the fields where the encoder has got to.
    pub fn encode_request(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        pressure: &wgpu::TextureView,
        rhs: &wgpu::TextureView,
        solid: &wgpu::TextureView,
        rhs_scale: f32,
    ) {
        gpu::record::write_buffer(device, encoder, &self.scale, 0, bytemuck::cast_slice(&[rhs_scale, 0.0, 0.0, 0.0]));
        let resources = [self.scale.as_entire_binding(), View(pressure), View(rhs), View(solid)];
        self.reduction.encode_request(device, encoder, &resources);
    }

    /// Whether the requested norms have arrived ([`gpu::Reduction::ready`]).
    pub fn ready(&self, device: &wgpu::Device) -> bool {
        self.reduction.ready(device)
    }

    /// The requested norms if they have arrived; never waits.
    ///
    /// # Errors
    /// As [`ResidualStats::norms`].
    pub fn collect(&self, device: &wgpu::Device) -> Option<Result<(f64, f64), GpuError>> {
        Some(self.reduction.collect(device)?.map(|t| Self::norms_of(&t)))
    }

    /// Awaits the requested norms.
    ///
    /// # Errors
    /// As [`ResidualStats::norms`].
    pub async fn finish(&self, device: &wgpu::Device) -> Result<(f64, f64), GpuError> {
        Ok(Self::norms_of(&self.reduction.finish(device).await?))
    }

    fn norms_of(t: &gpu::Totals) -> (f64, f64) {
        (t.sum[0].max(0.0).sqrt(), t.sum[1].max(0.0).sqrt())
    }
}
