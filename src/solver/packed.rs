//! Jacobi iterations four cells at a time: the pressure, the right-hand side and the walls in
//! a packed layout (`shaders/common/packed.wgsl`: four cells of a row in one `rgba32float`
//! texel, their wall bits in one `r32uint`), so an invocation reads and writes four cells with
//! one texel operation each.
//!
//! On lavapipe a texel operation costs about as much as a cell's arithmetic, so an iteration
//! costs mostly its texel operations, and four cells a texel need far fewer of them. The fields
//! outside the solve keep one cell a texel: a solve packs the pressure and the right-hand side
//! (`pack.wgsl`), runs its iterations between two packed textures, four a dispatch where it
//! can (`jacobi_quad.wgsl`, temporal blocking in registers; `jacobi_pair.wgsl` and
//! `jacobi_packed.wgsl` run two and one), and unpacks the result into the pressure it started
//! from (`unpack.wgsl`). Every one of them applies [`super::jacobi`]'s iteration, its CPU mirror,
//! bit for bit (`tests/solver.rs`); [`gpu::packed`] mirrors the pack and the unpack.
//!
//! The quad's temporal blocking keeps its rows in registers, not in a tile of workgroup memory:
//! on lavapipe a workgroup-memory load at a per-invocation address costs about 100 ns.

use crate::gpu::packed::{CELLS_PER_TEXEL, pack_bits, packed_size};
use crate::gpu::{self, DeviceCaps, Kernel};
use crate::grid::Grid;
use crate::shaders;
use crate::solver::DirichletEdges;
use wgpu::BindingResource::TextureView as View;

/// The walls of `solid` `(H, W)` (non-zero = wall) in the packed layout, the pressure held at 0
/// beyond the `dirichlet` edges: each cell's [`crate::solver::wall_bits`] in byte `column % 4` of its
/// texel, padding cells walls; and for the two iterations a dispatch of `jacobi_pair.wgsl`
/// runs, the wall bits of the cells around the two just beyond the texel's edges (1 = a wall or
/// beyond a no-flux edge, [`crate::solver::wall_or_outside`]): a texel's first cell has its up-left,
/// down-left and left-left cells' in bits 5, 6, 7, its last cell (unless padding) its
/// up-right, down-right and right-right cells'.
pub fn packed_walls(solid: &Grid<u8>, dirichlet: &DirichletEdges) -> Vec<u32> {
    let mut texels = pack_bits(&crate::solver::wall_bits(solid, dirichlet), solid.width(), PADDING);
    let (h, w) = solid.shape();
    let pw = w.div_ceil(CELLS_PER_TEXEL);
    let wall = |r: isize, c: isize| crate::solver::wall_or_outside(solid, dirichlet, r, c);
    for r in 0..h {
        for x in 0..pw {
            let (row, first, last) = (r as isize, (CELLS_PER_TEXEL * x) as isize, (CELLS_PER_TEXEL * x + 3) as isize);
            let left = wall(row - 1, first - 1) << 5 | wall(row + 1, first - 1) << 6 | wall(row, first - 2) << 7;
            texels[r * pw + x] |= left;
            if (last as usize) < w {
                let right = wall(row - 1, last + 1) << 5 | wall(row + 1, last + 1) << 6 | wall(row, last + 2) << 7;
                texels[r * pw + x] |= right << 24;
            }
        }
    }
    texels
}

/// The wall bits of a padding cell past the grid's last column: a wall.
const PADDING: u32 = crate::gpu::packed::WALL_PADDING;

/// Texel rows one invocation of `jacobi_pair.wgsl` walks down (its `STRIP`).
const PAIR_STRIP: u32 = 8;

/// Packed Jacobi iterations over one grid: the packed textures, the five kernels and their bind
/// groups for a set of pressure textures (e.g. both of a ping-pong pair) and one right-hand side.
pub struct PackedJacobi {
    size: (u32, u32),
    packed: (u32, u32),
    /// Texel rows an invocation of the quad writes ([`DeviceCaps::strip`]).
    quad_strip: u32,
    scale: wgpu::Buffer,
    walls: wgpu::Texture,
    walls_view: wgpu::TextureView,
    /// The packed pressures 0 and 1, and the packed right-hand side.
    views: [wgpu::TextureView; 3],
    kernels: [Kernel; 5], // pack, one iteration, two, four, unpack
    /// `[pressure]`: pack pressure texture `pressure` and the right-hand side into packed 0.
    pack_groups: Vec<wgpu::BindGroup>,
    /// `[from]`: packed `from` to packed `1 - from`, by one iteration.
    iteration_groups: [wgpu::BindGroup; 2],
    /// `[from]`: packed `from` to packed `1 - from`, by two iterations.
    pair_groups: [wgpu::BindGroup; 2],
    /// `[from]`: packed `from` to packed `1 - from`, by four iterations.
    quad_groups: [wgpu::BindGroup; 2],
    /// `[pressure][from]`: packed `from` into pressure texture `pressure`.
    unpack_groups: Vec<[wgpu::BindGroup; 2]>,
}

impl PackedJacobi {
    /// The packed solve of a `size` grid (cells) whose pressure is any of `pressures` (`r32float`,
    /// read and written) and right-hand side `rhs` (`r32float`, read; scaled by
    /// [`PackedJacobi::encode_rhs_scale`], 1 at first). Walls start open: record
    /// [`PackedJacobi::encode_walls`].
    ///
    /// `jacobi_quad.wgsl` writes [`DeviceCaps::strip`] texel rows an invocation (its `override
    /// STRIP`, 1 or more): the six rows that fill an invocation's windows are spread over the rows
    /// it writes; on a GPU 8 keeps the quad's walk (14 rows) near the pair's (10) and its
    /// invocations as many. Any strip gives the same results, bit for bit, so a test may hand in
    /// caps with another.
    ///
    /// Creation errors surface through the device's error scopes ([`gpu::scoped`]).
    ///
    /// # Panics
    /// When `caps.strip` is 0.
    pub fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        queue: &wgpu::Queue,
        size: (u32, u32),
        pressures: &[&wgpu::TextureView],
        rhs: &wgpu::TextureView,
    ) -> Self {
        let quad_strip = caps.strip;
        assert!(quad_strip > 0, "a strip of no rows");
        let packed = packed_size(size.0, size.1);
        // TEXTURE_BINDING: on a device with fewer storage textures per stage than a pass binds,
        // its reads are sampled (gpu::fit).
        let usage =
            wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        let rgba = wgpu::TextureFormat::Rgba32Float;
        let textures = [0, 1, 2].map(|_| gpu::texture_2d(device, "solver/packed", packed, rgba, usage));
        let walls = gpu::texture_2d(device, "solver/packed walls", packed, wgpu::TextureFormat::R32Uint, usage);
        let views = textures.each_ref().map(|t| t.create_view(&Default::default()));
        let walls_view = walls.create_view(&Default::default());
        let [p0, p1, b] = &views;
        let scale = gpu::uniform_buffer(device, "solver/pack scale", 16);
        queue.write_buffer(&scale, 0, bytemuck::bytes_of(&[1.0f32, 0.0, 0.0, 0.0]));
        let kernels = [
            Kernel::new(device, caps, "solver/pack", shaders::SOLVER_PACK),
            Kernel::new(device, caps, "solver/jacobi_packed", shaders::SOLVER_JACOBI_PACKED),
            Kernel::new(device, caps, "solver/jacobi_pair", shaders::SOLVER_JACOBI_PAIR),
            Kernel::with_constants(
                device,
                caps,
                "solver/jacobi_quad",
                shaders::SOLVER_JACOBI_QUAD,
                &[("STRIP", quad_strip as f64)],
            ),
            Kernel::new(device, caps, "common/unpack", shaders::UNPACK),
        ];
        let pack_groups = pressures
            .iter()
            .map(|p| kernels[0].bind_group(device, &[scale.as_entire_binding(), View(p), View(rhs), View(p0), View(b)]))
            .collect();
        let [iteration_groups, pair_groups, quad_groups] = [&kernels[1], &kernels[2], &kernels[3]].map(|kernel| {
            [(p0, p1), (p1, p0)]
                .map(|(from, to)| kernel.bind_group(device, &[View(from), View(b), View(&walls_view), View(to)]))
        });
        let unpack_groups = pressures
            .iter()
            .map(|p| [p0, p1].map(|from| kernels[4].bind_group(device, &[View(from), View(p)])))
            .collect();
        Self {
            size,
            packed,
            quad_strip,
            scale,
            walls,
            walls_view,
            views,
            kernels,
            pack_groups,
            iteration_groups,
            pair_groups,
            quad_groups,
            unpack_groups,
        }
    }

    /// Records the walls' write from `solid` `(H, W)`, the grid's shape (non-zero = wall), the
    /// pressure held at 0 beyond the `dirichlet` edges, into `encoder` ([`gpu::in_order`]: it takes
    /// effect in recording order).
    ///
    /// # Panics
    /// When `solid` is not the grid's shape.
    pub fn encode_walls(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        solid: &Grid<u8>,
        dirichlet: &DirichletEdges,
    ) {
        assert_eq!(solid.shape(), (self.size.1 as usize, self.size.0 as usize), "walls of another grid");
        gpu::in_order::upload(device, encoder, &self.walls, bytemuck::cast_slice(&packed_walls(solid, dirichlet)), 4);
    }

    /// Texel rows an invocation of `jacobi_quad.wgsl` writes: the [`DeviceCaps::strip`] it was
    /// built with.
    pub fn quad_strip(&self) -> u32 {
        self.quad_strip
    }

    /// The packed walls (`r32uint`, `ceil(W / 4) x H` texels, [`packed_walls`]' layout), for a
    /// pass that writes them on the GPU (moving bodies: `staggered_solver_walls.wgsl`).
    pub fn walls_view(&self) -> &wgpu::TextureView {
        &self.walls_view
    }

    /// Records the right-hand side's scale as it is packed, in recording order
    /// ([`gpu::in_order`]): `b = scale * rhs` (1 for the Poisson problem's `b`; `-alpha` for the
    /// smoke step's divergence, GPU Gems 38.3).
    pub fn encode_rhs_scale(&self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, scale: f32) {
        gpu::in_order::write_buffer(device, encoder, &self.scale, 0, bytemuck::bytes_of(&[scale, 0.0, 0.0, 0.0]));
    }

    /// Records `iterations` Jacobi iterations of pressure texture `pressure` (an index into the
    /// `pressures` given to [`PackedJacobi::new`]) into `pass`: pack, iterate (four iterations
    /// a dispatch, `jacobi_quad.wgsl`; what is left, two with `jacobi_pair.wgsl` and one with
    /// `jacobi_packed.wgsl`), unpack into the same texture: `iterations / 4 + (iterations % 4 >=
    /// 2) + iterations % 2 + 2` dispatches (15 for 50). Nothing for 0 iterations.
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, pressure: usize, iterations: u32) {
        if iterations == 0 {
            return;
        }
        self.dispatch_pack(pass, pressure);
        let from = self.dispatch_iterations(pass, iterations);
        self.dispatch_unpack(pass, pressure, from);
    }

    /// Records the pack of pressure texture `pressure` and the right-hand side (times the
    /// scale) into the packed pressure 0 and the packed right-hand side (`solver/pack.wgsl`).
    pub fn dispatch_pack(&self, pass: &mut wgpu::ComputePass<'_>, pressure: usize) {
        let (w, h) = self.packed;
        self.kernels[0].dispatch(pass, &self.pack_groups[pressure], w, h);
    }

    /// Records `iterations` iterations from the packed pressure 0 and returns which packed
    /// pressure ([`PackedJacobi::packed_pressure_views`]) holds the result: each dispatch writes
    /// the other, so 0 after an even number of them (0 iterations included).
    /// `iterations / 4 + (iterations % 4 >= 2) + iterations % 2` dispatches.
    pub fn dispatch_iterations(&self, pass: &mut wgpu::ComputePass<'_>, iterations: u32) -> usize {
        let (w, h) = self.packed;
        let [_, single, pair, quad, _] = &self.kernels;
        let mut from = 0;
        for _ in 0..iterations / 4 {
            quad.dispatch(pass, &self.quad_groups[from], w.div_ceil(2), h.div_ceil(self.quad_strip));
            from = 1 - from;
        }
        if iterations % 4 >= 2 {
            pair.dispatch(pass, &self.pair_groups[from], w.div_ceil(2), h.div_ceil(PAIR_STRIP));
            from = 1 - from;
        }
        if iterations % 2 == 1 {
            single.dispatch(pass, &self.iteration_groups[from], w, h);
            from = 1 - from;
        }
        from
    }

    /// Records the unpack of packed pressure `from` into pressure texture `pressure`
    /// (`common/unpack.wgsl`).
    pub fn dispatch_unpack(&self, pass: &mut wgpu::ComputePass<'_>, pressure: usize, from: usize) {
        let (w, h) = self.packed;
        self.kernels[4].dispatch(pass, &self.unpack_groups[pressure][from], w, h);
    }

    /// The two packed pressures the iterations ping-pong between (`rgba32float`, `ceil(W / 4) x
    /// H` texels, the layout of `shaders/common/packed.wgsl`): 0 is where they start, for a
    /// pass that packs the pressure itself (`staggered_divergence_packed.wgsl`); the result is
    /// in the one [`PackedJacobi::dispatch_iterations`] returns, for a pass that unpacks it
    /// (`staggered_gradient_packed.wgsl`).
    pub fn packed_pressure_views(&self) -> [&wgpu::TextureView; 2] {
        [&self.views[0], &self.views[1]]
    }

    /// The uniform holding the right-hand side's scale ([`PackedJacobi::encode_rhs_scale`];
    /// `struct PackParams` of `solver/pack.wgsl`), for a pass that packs it itself.
    pub fn scale_buffer(&self) -> &wgpu::Buffer {
        &self.scale
    }

    /// The packed right-hand side (`rgba32float`, as [`PackedJacobi::packed_pressure_views`]),
    /// `b` times the scale, for a pass that packs it itself.
    pub fn packed_rhs_view(&self) -> &wgpu::TextureView {
        &self.views[2]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pair's dispatch covers `ceil(H / PAIR_STRIP)` invocation rows, each walking `STRIP`
    /// texel rows in the shader: the two numbers must be one. The quad's `STRIP` is the
    /// pipeline's, set from [`quad_strip`], so it has no value of its own to disagree with.
    #[test]
    fn the_strips_dispatched_are_the_shaders() {
        let line = format!("const STRIP: i32 = {PAIR_STRIP};");
        assert!(shaders::SOLVER_JACOBI_PAIR.contains(&line), "shaders/solver/jacobi_pair.wgsl lacks `{line}`");
        assert!(
            shaders::SOLVER_JACOBI_QUAD.contains("override STRIP: i32;"),
            "jacobi_quad.wgsl's STRIP is set by the pipeline"
        );
    }

    #[test]
    fn packed_walls_put_each_cells_bits_in_its_byte_and_wall_the_padding() {
        // 1 row, 5 columns, a wall in column 1: cells 0..4 in texel 0, cell 4 and 3 padding in texel 1.
        let solid = Grid::from_fn(5, 1, |_, c| (c == 1) as u8);
        let bits = crate::solver::wall_bits(&solid, &crate::solver::NEUMANN);
        let texels = packed_walls(&solid, &crate::solver::NEUMANN);
        assert_eq!(texels.len(), 2);
        for (c, &b) in bits.iter().take(4).enumerate() {
            assert_eq!((texels[0] >> (8 * c)) & 0x1f, b, "cell {c}");
        }
        assert_eq!(texels[1] & 0x1f, bits[4]);
        assert_eq!(texels[1] >> 8, PADDING | PADDING << 8 | PADDING << 16);
        // Cell 0: walls up, left (the edge) and down (the edges), right (column 1's wall).
        assert_eq!(bits[0], 0b11110);
    }

    #[test]
    fn edge_cells_carry_the_walls_around_the_cells_beyond_the_texel() {
        // 3 rows, 6 columns (texel 1 holds columns 4, 5 and two padding cells), walls at
        // (row 0, column 4) and (row 2, column 2). Row 1, bits 5-7 (a wall or beyond the grid):
        let solid = Grid::from_fn(6, 3, |r, c| ((r, c) == (0, 4) || (r, c) == (2, 2)) as u8);
        let texels = packed_walls(&solid, &crate::solver::NEUMANN);
        let extra = |texel: u32, lane: u32| (texel >> (8 * lane + 5)) & 0b111;
        let row1 = &texels[2..4];
        // Column 0: its up-left, down-left and left-left cells are all beyond the grid.
        assert_eq!(extra(row1[0], 0), 0b111);
        // Column 3: up-right (0, 4) is a wall, down-right (2, 4) and right-right (1, 5) open.
        assert_eq!(extra(row1[0], 3), 0b001);
        // Column 4: up-left (0, 3), down-left (2, 3), left-left (1, 2) are open.
        assert_eq!(extra(row1[1], 0), 0b000);
        // A padding cell carries no more than its own wall bit.
        assert_eq!(row1[1] >> 24, PADDING);
        // Row 0, column 3: up-right is beyond the grid, down-right (1, 4) open, right-right (0, 5) open.
        assert_eq!(extra(texels[0], 3), 0b001);
        // Row 0, column 4: down-left (1, 3) open, left-left (0, 2) open, up-left beyond.
        assert_eq!(extra(texels[1], 0), 0b001);
        // Row 2, column 3: up-right (1, 4) open, down-right beyond the grid, right-right (2, 5) open.
        assert_eq!(extra(texels[4], 3), 0b010);
        // Row 2, column 4: left-left (2, 2) is a wall, up-left (1, 3) open, down-left beyond.
        assert_eq!(extra(texels[5], 0), 0b110);
    }
}
