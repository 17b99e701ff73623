//! Multigrid V-cycles on the GPU: the passes of [`super::multigrid`], one WGSL file each. The
//! levels down to the first of 32 x 32 cells or less run packed four cells a texel
//! ([`super::packed_levels`]: two red-black sweeps a dispatch, the residual restricted in one
//! pass, the correction prolonged), the finest on the packed Jacobi iterations' textures; the
//! coarse levels run in one workgroup (`coarse.wgsl`), from one `r32float` pressure and
//! right-hand side. Each level keeps its walls one cell a texel (`r32uint`) for the CPU's uploads
//! and `coarsen_walls.wgsl`. The same finest level also runs plain Jacobi iterations
//! ([`super::packed`]), and [`ResidualStats`] measures a solve's relative residual on the GPU.

use super::DirichletEdges;
use super::multigrid::{Multigrid, Settings};
use super::packed::PackedJacobi;
use super::packed_levels::{LevelTextures, PackedLevels};
use crate::error::Error;
use crate::gpu::{self, DeviceCaps, GpuError, Kernel};
use crate::grid::Grid;
use crate::shaders;

const R32: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
const BITS: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

use wgpu::BindingResource::TextureView as View;

/// One level, `(w, h)` cells: its walls (`r32uint`, one cell a texel: what the CPU uploads and
/// `coarsen_walls.wgsl` writes), its uniform ([`LevelUniform`]), and on the finest level and the
/// coarse kernel's first its pressure and right-hand side one cell a texel (`r32float`): what a
/// solve packs and unpacks, and what the coarse kernel reads and writes. The levels above the
/// coarse kernel's run packed ([`PackedLevels`]).
struct Level {
    size: (u32, u32),
    solid: wgpu::TextureView,
    uniform: wgpu::Buffer,
    /// Pressure, right-hand side and their views.
    fields: Option<([wgpu::Texture; 2], [wgpu::TextureView; 2])>,
}

impl Level {
    fn fields(&self) -> &([wgpu::Texture; 2], [wgpu::TextureView; 2]) {
        self.fields.as_ref().expect("the finest level or the coarse kernel's first")
    }
}

/// Mirrors `struct Level` in `shaders/solver/level.wgsl`: level `l`'s [`Multigrid::ghosts`],
/// how level `l + 1` lies on it ([`Multigrid::offsets`], `[col, row]`) and its size `[w, h]`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct LevelUniform {
    ghosts: [f32; 4],
    offset: [i32; 2],
    size: [u32; 2],
}

impl LevelUniform {
    fn of(mg: &Multigrid, l: usize) -> Self {
        let o = mg.offsets.get(l).copied().unwrap_or_default();
        let size = [mg.levels[l].width() as u32, mg.levels[l].height() as u32];
        Self { ghosts: mg.ghosts[l], offset: [o.col as i32, o.row as i32], size }
    }
}

/// What a pressure solve runs ([`GpuMultigrid::dispatch_solve`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solve {
    /// Jacobi iterations, this many.
    Jacobi(u32),
    /// V-cycles, this many.
    VCycles(u32),
}

/// The GPU multigrid for one wall layout (the GPU twin of [`Multigrid`]).
pub struct GpuMultigrid {
    levels: Vec<Level>,
    /// Jacobi iterations on the finest level, four cells an invocation.
    jacobi: PackedJacobi,
    /// The levels above the coarse kernel's, packed; `None` when the coarse kernel holds every
    /// level (a grid of 32 x 32 cells or less).
    packed: Option<PackedLevels>,
    /// The coarse levels' part of a V-cycle in one dispatch.
    coarse: Coarse,
    /// `coarsen_walls.wgsl` and its bind group per level pair `(l, l + 1)`, with their uniforms.
    coarsen: (Kernel, Vec<wgpu::BindGroup>, Vec<wgpu::Buffer>),
    settings: Settings,
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
    shapes: wgpu::Buffer,
    ghosts: wgpu::Buffer,
    _uniform: wgpu::Buffer,
}

/// Where level `l` starts in the coarse kernel's arrays (its walls buffer, its workgroup
/// memory), which hold the levels from `first` one after the other: the cells of those before it.
fn coarse_start(mg: &Multigrid, first: usize, l: usize) -> usize {
    mg.levels[first..l].iter().map(|w| w.width() * w.height()).sum()
}

/// The coarse kernel's tables for the levels from `first`: shapes (width, height, first cell,
/// offset bits: 1 columns, 2 rows), wall bits, ghosts.
fn coarse_tables(mg: &Multigrid, first: usize) -> (Vec<[u32; 4]>, Vec<u32>, Vec<[f32; 4]>) {
    let shapes = (first..mg.levels.len())
        .map(|l| {
            let (w, o) = (&mg.levels[l], mg.offsets.get(l).copied().unwrap_or_default());
            [w.width() as u32, w.height() as u32, coarse_start(mg, first, l) as u32, (o.col | o.row << 1) as u32]
        })
        .collect();
    let bits = mg.levels[first..].iter().flat_map(|w| crate::solver::wall_bits(w, &mg.dirichlet)).collect();
    (shapes, bits, mg.ghosts[first..].to_vec())
}

impl Coarse {
    /// The first level whose cells and those of every coarser level fit the kernel.
    fn first(walls: &[Grid<u8>]) -> usize {
        let cells = |l: usize| walls[l..].iter().map(|w| w.width() * w.height()).sum::<usize>();
        (0..walls.len())
            .find(|&l| walls[l].width() * walls[l].height() <= COARSE_FIRST_CELLS && cells(l) <= COARSE_CELLS)
            .expect("the coarsest level has at most 4 x 4 cells")
    }

    /// The kernel for `mg`'s levels; its tables are written by [`Coarse::encode_tables`].
    fn new(device: &wgpu::Device, caps: &DeviceCaps, mg: &Multigrid, levels: &[Level]) -> Self {
        use wgpu::util::DeviceExt;
        let first = Self::first(&mg.levels);
        let settings = mg.settings;
        let held = (mg.levels.len() - first) as u64;
        let uniform =
            CoarseUniform { levels: held as u32, pre: settings.pre, post: settings.post, coarsest: settings.coarsest };
        let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("solver/coarse"),
            contents: bytemuck::bytes_of(&uniform),
            usage: wgpu::BufferUsages::UNIFORM,
        });
        let table = |label: &str, size: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let shapes = table("solver/coarse shapes", 16 * held);
        let walls = table("solver/coarse walls", 4 * coarse_start(mg, first, mg.levels.len()) as u64);
        let ghosts = table("solver/coarse ghosts", 16 * held);
        let kernel = Kernel::new(device, caps, "solver/coarse", shaders::SOLVER_COARSE);
        let [p, rhs] = &levels[first].fields().1;
        let group = kernel.bind_group(
            device,
            &[
                uniform.as_entire_binding(),
                shapes.as_entire_binding(),
                walls.as_entire_binding(),
                ghosts.as_entire_binding(),
                View(p),
                View(rhs),
                View(&levels[first].solid),
            ],
        );
        Self { first, kernel, group, walls, shapes, ghosts, _uniform: uniform }
    }

    /// Records the writes of its tables for `mg` (walls, offsets, ghosts) into `encoder`.
    fn encode_tables(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, mg: &Multigrid) {
        let (shapes, bits, ghosts) = coarse_tables(mg, self.first);
        gpu::in_order::write_buffer(device, encoder, &self.shapes, 0, bytemuck::cast_slice(&shapes));
        gpu::in_order::write_buffer(device, encoder, &self.walls, 0, bytemuck::cast_slice(&bits));
        gpu::in_order::write_buffer(device, encoder, &self.ghosts, 0, bytemuck::cast_slice(&ghosts));
    }
}

/// `coarsen_walls.wgsl`'s uniform for levels `(l, l + 1)`: where level `l + 1` starts in the
/// coarse kernel's walls, whether that kernel holds it, how it lies on level `l` (col, row).
fn coarsen_uniform(mg: &Multigrid, first: usize, l: usize) -> [u32; 4] {
    let held = l + 1 >= first;
    let start = if held { coarse_start(mg, first, l + 1) } else { 0 };
    let o = mg.offsets[l];
    [start as u32, held as u32, o.col as u32, o.row as u32]
}

impl GpuMultigrid {
    /// Builds the levels for `solid` `(H, W)` (1 = wall), as [`Multigrid::with_dirichlet`] does,
    /// and uploads their walls and tables ([`Self::encode_walls`]'s writes), the pressure held at
    /// 0 beyond the `dirichlet` edges on every level; pressure and right-hand side start at 0.
    ///
    /// # Errors
    /// [`Error::Gpu`] when a texture or pipeline cannot be created (e.g. the grid is larger
    /// than the device's texture limit); [`Error::Message`] when `settings.pre` or
    /// `settings.post` is odd (the packed levels sweep two at a time, [`super::packed_levels`]).
    pub fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        queue: &wgpu::Queue,
        solid: &Grid<u8>,
        dirichlet: DirichletEdges,
        settings: Settings,
    ) -> Result<Self, Error> {
        if settings.pre % 2 == 1 || settings.post % 2 == 1 {
            return Err(Error::Message(format!(
                "the GPU multigrid sweeps its levels two red-black sweeps at a time: {} before and {} after the \
                 coarse correction cannot be run; give even counts",
                settings.pre, settings.post
            )));
        }
        gpu::check_grid_size(device, solid.width(), solid.height())?;
        gpu::scoped(device, || Self::build(device, caps, queue, solid, dirichlet, settings)).map_err(Error::from)
    }

    fn build(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        queue: &wgpu::Queue,
        solid: &Grid<u8>,
        dirichlet: DirichletEdges,
        settings: Settings,
    ) -> Self {
        let mg = Multigrid::with_dirichlet(solid, dirichlet, settings);
        let walls = &mg.levels;
        // TEXTURE_BINDING: the smoke model's pressure view draws the finest level's pressure.
        let usage = wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::TEXTURE_BINDING;
        let first = Coarse::first(walls);
        let levels: Vec<Level> = walls
            .iter()
            .enumerate()
            .map(|(l, s)| {
                let size = (s.width() as u32, s.height() as u32);
                let view = |t: &wgpu::Texture| t.create_view(&Default::default());
                let solid = view(&gpu::texture_2d(device, "solver/solid", size, BITS, usage));
                let uniform = gpu::uniform_buffer(device, "solver/level", std::mem::size_of::<LevelUniform>());
                let fields = (l == 0 || l == first).then(|| {
                    let textures =
                        ["solver/pressure", "solver/rhs"].map(|label| gpu::texture_2d(device, label, size, R32, usage));
                    let views = textures.each_ref().map(view);
                    (textures, views)
                });
                Level { size, solid, uniform, fields }
            })
            .collect();
        let [p, rhs] = &levels[0].fields().1;
        let jacobi = PackedJacobi::new(device, caps, queue, levels[0].size, &[p], rhs);
        let packed = (first > 0).then(|| {
            let textures: Vec<LevelTextures<'_>> = levels
                .iter()
                .map(|l| LevelTextures {
                    size: l.size,
                    uniform: &l.uniform,
                    walls: &l.solid,
                    fields: l.fields.as_ref().map(|(_, [p, b])| (p, b)),
                })
                .collect();
            PackedLevels::new(device, caps, &jacobi, &textures, first)
        });
        let coarse = Coarse::new(device, caps, &mg, &levels);
        let coarsen = Kernel::new(device, caps, "solver/coarsen_walls", shaders::SOLVER_COARSEN_WALLS);
        let (mut groups_c, mut uniforms) = (Vec::new(), Vec::new());
        for l in 0..levels.len().saturating_sub(1) {
            let uniform = gpu::uniform_buffer(device, "solver/coarsen", 16);
            groups_c.push(coarsen.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    View(&levels[l].solid),
                    View(&levels[l + 1].solid),
                    coarse.walls.as_entire_binding(),
                ],
            ));
            uniforms.push(uniform);
        }
        let multigrid = Self { levels, jacobi, packed, coarse, coarsen: (coarsen, groups_c, uniforms), settings };
        let mut encoder = device.create_command_encoder(&Default::default());
        multigrid.encode_hierarchy(device, &mut encoder, &mg);
        queue.submit([encoder.finish()]);
        multigrid
    }

    /// Records `iterations` Jacobi iterations on the finest level ([`super::jacobi`]) into an
    /// open compute pass (so a step's other passes and its solve share one pass), ending in the
    /// pressure texture: packed four cells a texel ([`PackedJacobi::dispatch`]: 15 dispatches
    /// for 50 iterations).
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
    /// [`Multigrid::new`] coarsens them, and of the edges held at pressure 0, into `encoder`
    /// ([`gpu::in_order`]: in recording order).
    ///
    /// # Panics
    /// When `solid` is not the finest level's shape.
    pub fn encode_walls(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        solid: &Grid<u8>,
        dirichlet: &DirichletEdges,
    ) {
        let (w, h) = self.levels[0].size;
        assert_eq!(solid.shape(), (h as usize, w as usize), "walls of another grid");
        // The levels' sizes do not depend on the edges (an offset is 1 only on an odd size).
        self.encode_hierarchy(device, encoder, &Multigrid::with_dirichlet(solid, *dirichlet, self.settings));
    }

    /// Records the writes of everything `mg` sets (every level's walls and uniform, the coarsen
    /// passes' uniforms, the packed Jacobi's walls, the coarse kernel's tables) into `encoder`.
    fn encode_hierarchy(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, mg: &Multigrid) {
        for (l, (level, s)) in self.levels.iter().zip(&mg.levels).enumerate() {
            let bits = crate::solver::wall_bits(s, &mg.dirichlet);
            gpu::in_order::upload(device, encoder, level.solid.texture(), bytemuck::cast_slice(&bits), 4);
            if let Some(packed) = self.packed.as_ref().filter(|_| l > 0 && l < self.coarse.first) {
                let texels = gpu::packed::pack_bits(&bits, s.width(), gpu::packed::WALL_PADDING);
                gpu::in_order::upload(device, encoder, packed.walls(l), bytemuck::cast_slice(&texels), 4);
            }
            let uniform = LevelUniform::of(mg, l);
            gpu::in_order::write_buffer(device, encoder, &level.uniform, 0, bytemuck::bytes_of(&uniform));
        }
        for (l, buffer) in self.coarsen.2.iter().enumerate() {
            let uniform = coarsen_uniform(mg, self.coarse.first, l);
            gpu::in_order::write_buffer(device, encoder, buffer, 0, bytemuck::cast_slice(&uniform));
        }
        self.jacobi.encode_walls(device, encoder, &mg.levels[0], &mg.dirichlet);
        self.coarse.encode_tables(device, encoder, mg);
    }

    /// A view of the finest level's walls (`r32uint`, 1 = wall).
    pub fn solid_view(&self) -> &wgpu::TextureView {
        &self.levels[0].solid
    }

    /// Records the coarse levels' walls made from the finest level's (written on the GPU, as
    /// moving bodies do: `staggered_solver_walls.wgsl`) into an open compute pass, level after
    /// level, and the coarse kernel's copy of them: what [`Self::encode_walls`] uploads from the
    /// CPU. One dispatch a coarse level, and one a packed coarse level to pack its walls.
    pub fn dispatch_coarsen_walls(&self, pass: &mut wgpu::ComputePass<'_>) {
        let (kernel, groups, _) = &self.coarsen;
        for (l, group) in groups.iter().enumerate() {
            let (w, h) = self.levels[l + 1].size;
            kernel.dispatch(pass, group, w, h);
        }
        if let Some(packed) = &self.packed {
            packed.dispatch_pack_walls(pass);
        }
    }

    /// The packed Jacobi iterations on the finest level, for passes that pack its input or
    /// unpack its result themselves ([`PackedJacobi::packed_pressure_views`]).
    pub fn jacobi(&self) -> &PackedJacobi {
        &self.jacobi
    }

    /// A view of the packed Jacobi iterations' walls ([`PackedJacobi::walls_view`]).
    pub fn jacobi_walls_view(&self) -> &wgpu::TextureView {
        self.jacobi.walls_view()
    }

    /// The finest level's pressure texture (`r32float`, `(W, H)` texels, row 0 at the top).
    pub fn pressure(&self) -> &wgpu::Texture {
        &self.levels[0].fields().0[0]
    }

    /// A view of the finest level's pressure, for a pass that reads it (the gradient).
    pub fn pressure_view(&self) -> &wgpu::TextureView {
        &self.levels[0].fields().1[0]
    }

    /// A view of the finest level's right-hand side `b` (`r32float`), for a pass that writes it
    /// (the divergence) before [`Self::encode_cycles`] packs it.
    pub fn rhs_view(&self) -> &wgpu::TextureView {
        &self.levels[0].fields().1[1]
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
        let [p, b] = &self.levels[0].fields().0;
        gpu::upload(queue, b, bytemuck::cast_slice(rhs.as_slice()), 4);
        gpu::upload(queue, p, bytemuck::cast_slice(pressure.as_slice()), 4);
    }

    /// Records `cycles` V-cycles on the finest level's pressure and right-hand side (the passes
    /// of [`Multigrid`]'s cycle, in its order) in a compute pass of its own: the pack of both
    /// into the packed layout, the cycles ([`Self::dispatch_packed_cycles`]), the unpack of the
    /// result into the pressure. On a grid the coarse kernel holds whole (32 x 32 cells or
    /// less), one dispatch a cycle on the pressure itself.
    pub fn encode_cycles(&self, encoder: &mut wgpu::CommandEncoder, cycles: u32) {
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("solver/v-cycle"), timestamp_writes: None });
        self.dispatch_cycles(&mut pass, cycles);
    }

    /// [`Self::encode_cycles`] into an open compute pass (so a step's other passes and its
    /// solve share one pass).
    pub fn dispatch_cycles(&self, pass: &mut wgpu::ComputePass<'_>, cycles: u32) {
        if !self.packs_cycles() {
            for _ in 0..cycles {
                self.coarse.kernel.dispatch(pass, &self.coarse.group, 1, 1);
            }
            return;
        }
        self.jacobi.dispatch_pack(pass, 0);
        let result = self.dispatch_packed_cycles(pass, cycles);
        self.jacobi.dispatch_unpack(pass, 0, result);
    }

    /// Records `2 n` red-black sweeps of the finest level's pressure (colours 0, 1, 0, 1, ...:
    /// [`super::multigrid::smooth`]) in a compute pass of its own, as the V-cycles smooth it: the
    /// pack of the pressure and the right-hand side, `n` dispatches of two sweeps, the unpack.
    /// For tests of the smoother alone.
    ///
    /// # Panics
    /// When the grid has no packed finest level ([`Self::packs_cycles`] is false).
    pub fn encode_sweeps(&self, encoder: &mut wgpu::CommandEncoder, n: u32) {
        let packed = self.packed.as_ref().expect("a grid larger than the coarse kernel's levels");
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("solver/sweeps"), timestamp_writes: None });
        self.jacobi.dispatch_pack(&mut pass, 0);
        let mut from = 0;
        for _ in 0..n {
            from = packed.dispatch_sweeps(&mut pass, 0, from);
        }
        self.jacobi.dispatch_unpack(&mut pass, 0, from);
    }

    /// Records a solve of the finest level into an open compute pass and returns which packed
    /// pressure ([`PackedJacobi::packed_pressure_views`]) holds its result. Its input: with
    /// `packed_in`, the packed right-hand side and packed pressure 0, which a pass before it
    /// packed itself (the staggered divergence); otherwise the pressure and right-hand side
    /// textures, packed first. Its result: with `packed_out`, left packed for a pass after it to
    /// unpack itself (the staggered gradient); otherwise unpacked into the pressure texture.
    /// With neither, [`Self::dispatch_jacobi`] or [`Self::dispatch_cycles`] (on a grid the coarse
    /// kernel holds whole, the V-cycles run there) and 0.
    ///
    /// # Panics
    /// `packed_in` or `packed_out` with V-cycles on a grid without a packed finest level
    /// ([`Self::packs_cycles`]).
    pub fn dispatch_solve(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        solve: Solve,
        packed_in: bool,
        packed_out: bool,
    ) -> usize {
        if !packed_in && !packed_out {
            match solve {
                Solve::Jacobi(iterations) => self.dispatch_jacobi(pass, iterations),
                Solve::VCycles(cycles) => self.dispatch_cycles(pass, cycles),
            }
            return 0;
        }
        if !packed_in {
            self.jacobi.dispatch_pack(pass, 0);
        }
        let result = match solve {
            Solve::Jacobi(iterations) => self.jacobi.dispatch_iterations(pass, iterations),
            Solve::VCycles(cycles) => self.dispatch_packed_cycles(pass, cycles),
        };
        if !packed_out {
            self.jacobi.dispatch_unpack(pass, 0, result);
        }
        result
    }

    /// Records V-cycle `k` of a solve recorded cycle by cycle, so that its residual can be
    /// measured after each ([`CycleProbes`]): the input packed first when `k` is 0 and it is not
    /// `packed_in` (as [`Self::dispatch_solve`]), one cycle from packed pressure `from`, its
    /// result unpacked into the pressure texture, which the probe reads. Returns the packed
    /// pressure holding the result.
    ///
    /// # Panics
    /// As [`Self::dispatch_packed_cycles`].
    pub fn dispatch_probed_cycle(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        k: u32,
        packed_in: bool,
        from: usize,
    ) -> usize {
        if k == 0 && !packed_in {
            self.jacobi.dispatch_pack(pass, 0);
        }
        let result = self.dispatch_packed_cycles_from(pass, 1, from);
        self.jacobi.dispatch_unpack(pass, 0, result);
        result
    }

    /// Whether the V-cycles run on the packed finest level ([`Self::dispatch_packed_cycles`]):
    /// all but grids the coarse kernel holds whole (32 x 32 cells or less).
    pub fn packs_cycles(&self) -> bool {
        self.packed.is_some()
    }

    /// Records `cycles` V-cycles into an open compute pass, from the packed pressure 0 and the
    /// packed right-hand side of [`Self::jacobi`] (packed by the caller), and returns which
    /// packed pressure holds the result: per cycle and level down to the coarse kernel's first
    /// (32 x 32 cells or less), two red-black sweeps a dispatch and the residual restricted
    /// ([`super::packed_levels`]), one dispatch for all the coarse levels' passes
    /// (`shaders/solver/coarse.wgsl`), then per level back up the correction prolonged and two
    /// sweeps a dispatch.
    ///
    /// # Panics
    /// When the grid has no packed finest level ([`Self::packs_cycles`] is false).
    pub fn dispatch_packed_cycles(&self, pass: &mut wgpu::ComputePass<'_>, cycles: u32) -> usize {
        self.dispatch_packed_cycles_from(pass, cycles, 0)
    }

    /// [`Self::dispatch_packed_cycles`] from packed pressure `from` (0 or 1): a solve recorded
    /// cycle by cycle, its residual measured after each ([`CycleProbes`]).
    ///
    /// # Panics
    /// As [`Self::dispatch_packed_cycles`].
    pub fn dispatch_packed_cycles_from(&self, pass: &mut wgpu::ComputePass<'_>, cycles: u32, from: usize) -> usize {
        let packed = self.packed.as_ref().expect("a grid larger than the coarse kernel's levels");
        let coarse = |pass: &mut wgpu::ComputePass<'_>| self.coarse.kernel.dispatch(pass, &self.coarse.group, 1, 1);
        packed.dispatch_cycles(pass, cycles, from, (self.settings.pre, self.settings.post), coarse)
    }

    /// Reads the finest level's pressure back, `(H, W)`.
    ///
    /// # Errors
    /// [`GpuError`] when the readback fails (device lost, out of memory).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_pressure(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Grid<f32>, GpuError> {
        gpu::read_r32float(device, queue, &self.levels[0].fields().0[0])
    }
}

/// `dirichlet` as the shaders take it: bit `e` set when edge `e` (`crate::edge::LEFT` ...) holds
/// the pressure at 0.
pub fn dirichlet_bits(dirichlet: &DirichletEdges) -> u32 {
    dirichlet.iter().enumerate().map(|(e, &d)| (d as u32) << e).sum()
}

/// The relative residuals `|b - A p| / |b|` after each V-cycle of one solve, for the plan of
/// the V-cycle count ([`super::plan`]): one [`ResidualStats`] a cycle, recorded into the step
/// that ends at a plan point and read there, once.
pub struct CycleProbes {
    probes: Vec<ResidualStats>,
    /// Cycles whose residuals the last probed solve recorded and nobody has read (0: none).
    recorded: usize,
}

impl CycleProbes {
    /// Most cycles of a solve that can be probed.
    pub const COUNT: usize = 16;

    /// For a grid `height` rows tall, every edge with no flux: [`CycleProbes::COUNT`] reductions
    /// sharing one pipeline.
    pub fn new(device: &wgpu::Device, caps: &DeviceCaps, height: u32) -> Self {
        let first = ResidualStats::new(device, caps, height);
        let mut probes: Vec<ResidualStats> = (1..Self::COUNT).map(|_| first.sibling(device, height)).collect();
        probes.insert(0, first);
        Self { probes, recorded: 0 }
    }

    /// The edges beyond which the pressure is 0 in the residuals measured from now on.
    pub fn set_dirichlet(&mut self, dirichlet: &DirichletEdges) {
        for p in &mut self.probes {
            p.set_dirichlet(dirichlet);
        }
    }

    /// Whether a solve of `cycles` cycles can be probed: no more cycles than probes, and no
    /// probe recorded and not yet read (a request still waiting would be ignored, and its reader
    /// get an earlier solve's residual).
    pub fn can_record(&self, cycles: u32) -> bool {
        cycles as usize <= self.probes.len() && self.recorded == 0 && self.probes.iter().all(|p| !p.is_requested())
    }

    /// Records the residual after cycle `k + 1` (`k` from 0, in order) of pressure `pressure`,
    /// right-hand side `rhs_scale * rhs` and walls `solid` ([`ResidualStats::encode_request`]).
    pub fn encode(
        &mut self,
        k: usize,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        fields: (&wgpu::TextureView, &wgpu::TextureView, &wgpu::TextureView),
        rhs_scale: f32,
    ) {
        let (pressure, rhs, solid) = fields;
        self.probes[k].encode_request(device, encoder, pressure, rhs, solid, rhs_scale);
        self.recorded = k + 1;
    }

    /// The relative residuals after each of the probed solve's `cycles` cycles, waiting for the
    /// GPU; `None` when no solve of `cycles` cycles was probed. Either way nothing is left
    /// waiting.
    ///
    /// # Errors
    /// [`GpuError`] when a readback fails.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn take(&mut self, device: &wgpu::Device, cycles: u32) -> Result<Option<Vec<f64>>, GpuError> {
        let recorded = std::mem::take(&mut self.recorded);
        let residuals = self.probes[..recorded]
            .iter()
            .map(|p| gpu::wait(device, p.finish(device))?.map(|(r, b)| r / b))
            .collect::<Result<Vec<f64>, GpuError>>()?;
        Ok((recorded > 0 && recorded == cycles as usize).then_some(residuals))
    }
}

/// The relative residual `|b - A p| / |b|` of a solve, by a reduction on the GPU
/// (`shaders/solver/stats.wgsl`): the twin of [`super::residual`] and [`super::norm`].
pub struct ResidualStats {
    reduction: gpu::Reduction,
    scale: wgpu::Buffer,
    /// The edges held at pressure 0, one bit each in `crate::edge`'s order.
    dirichlet: u32,
}

impl ResidualStats {
    /// For a grid `height` rows tall, every edge with no flux (see [`ResidualStats::set_dirichlet`]).
    pub fn new(device: &wgpu::Device, caps: &DeviceCaps, height: u32) -> Self {
        let reduction = gpu::Reduction::new(device, caps, "solver/stats", shaders::SOLVER_STATS, height);
        Self { reduction, scale: gpu::uniform_buffer(device, "solver/stats scale", 16), dirichlet: 0 }
    }

    /// Another for a grid `height` rows tall, every edge with no flux, sharing this one's
    /// pipeline ([`gpu::Reduction::sibling`]).
    pub fn sibling(&self, device: &wgpu::Device, height: u32) -> Self {
        let reduction = self.reduction.sibling(device, height);
        Self { reduction, scale: gpu::uniform_buffer(device, "solver/stats scale", 16), dirichlet: 0 }
    }

    /// The edges beyond which the pressure is 0 in the residuals measured from now on.
    pub fn set_dirichlet(&mut self, dirichlet: &DirichletEdges) {
        self.dirichlet = dirichlet_bits(dirichlet);
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
        let uniform = [rhs_scale.to_bits(), self.dirichlet, 0, 0];
        gpu::in_order::write_buffer(device, encoder, &self.scale, 0, bytemuck::cast_slice(&uniform));
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
