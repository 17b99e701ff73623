//! Jacobi iterations four cells at a time: the pressure, the right-hand side and the walls in
//! a packed layout (`shaders/solver/packed.wgsl`: four cells of a row in one `rgba32float`
//! texel, their wall bits in one `r32uint`), so an invocation reads and writes four cells with
//! one texel operation each.
//!
//! On lavapipe a texel operation costs about as much as a cell's arithmetic, and an iteration
//! ran 3x faster packed (110 against 310-350 Mcell-iterations/s at 512² and 1024²; eight cells
//! an invocation gained 10% more, and storage buffers instead of textures 5-10%). The fields
//! outside the solve keep one cell a texel: a solve packs the pressure and the right-hand side
//! (`pack.wgsl`), runs its iterations between two packed textures (`jacobi_packed.wgsl`), and
//! unpacks the result into the pressure it started from (`unpack.wgsl`), three dispatches more
//! than its iterations. The iteration is [`super::jacobi`]'s, which is its CPU mirror;
//! [`gpu::packed`] mirrors the other two passes.

use crate::gpu::packed::{pack_bits, packed_size};
use crate::gpu::{self, Kernel};
use crate::grid::Grid;
use crate::shaders;
use wgpu::BindingResource::TextureView as View;

/// The walls of `solid` `(H, W)` (non-zero = wall) in the packed layout: each cell's
/// [`gpu::wall_bits`] in byte `column % 4` of its texel, padding cells walls.
pub fn packed_walls(solid: &Grid<u8>) -> Vec<u32> {
    pack_bits(&gpu::wall_bits(solid), solid.width(), PADDING)
}

/// The wall bits of a padding cell past the grid's last column: a wall.
const PADDING: u32 = 1;

/// Packed Jacobi iterations over one grid: the packed textures, the three kernels and their bind
/// groups for a set of pressure textures (e.g. both of a ping-pong pair) and one right-hand side.
pub struct PackedJacobi {
    size: (u32, u32),
    packed: (u32, u32),
    scale: wgpu::Buffer,
    walls: wgpu::Texture,
    kernels: [Kernel; 3], // pack, iteration, unpack
    /// `[pressure]`: pack pressure texture `pressure` and the right-hand side into packed 0.
    pack_groups: Vec<wgpu::BindGroup>,
    /// `[from]`: packed `from` to packed `1 - from`.
    iteration_groups: [wgpu::BindGroup; 2],
    /// `[pressure][from]`: packed `from` into pressure texture `pressure`.
    unpack_groups: Vec<[wgpu::BindGroup; 2]>,
}

impl PackedJacobi {
    /// The packed solve of a `size` grid (cells) whose pressure is any of `pressures` (`r32float`,
    /// read and written) and right-hand side `rhs` (`r32float`, read; scaled by
    /// [`PackedJacobi::set_rhs_scale`], 1 at first). Walls start open: call
    /// [`PackedJacobi::upload_walls`].
    ///
    /// Creation errors surface through the device's error scopes ([`gpu::scoped`]).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        size: (u32, u32),
        pressures: &[&wgpu::TextureView],
        rhs: &wgpu::TextureView,
    ) -> Self {
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
            Kernel::new(device, "solver/pack", shaders::SOLVER_PACK),
            Kernel::new(device, "solver/jacobi_packed", shaders::SOLVER_JACOBI_PACKED),
            Kernel::new(device, "common/unpack", shaders::UNPACK),
        ];
        let pack_groups = pressures
            .iter()
            .map(|p| kernels[0].bind_group(device, &[scale.as_entire_binding(), View(p), View(rhs), View(p0), View(b)]))
            .collect();
        let iteration_groups = [(p0, p1), (p1, p0)]
            .map(|(from, to)| kernels[1].bind_group(device, &[View(from), View(b), View(&walls_view), View(to)]));
        let unpack_groups = pressures
            .iter()
            .map(|p| [p0, p1].map(|from| kernels[2].bind_group(device, &[View(from), View(p)])))
            .collect();
        Self { size, packed, scale, walls, kernels, pack_groups, iteration_groups, unpack_groups }
    }

    /// Sets the walls from `solid` `(H, W)`, the grid's shape (non-zero = wall).
    ///
    /// # Panics
    /// When `solid` is not the grid's shape.
    pub fn upload_walls(&self, queue: &wgpu::Queue, solid: &Grid<u8>) {
        assert_eq!(solid.shape(), (self.size.1 as usize, self.size.0 as usize), "walls of another grid");
        gpu::upload(queue, &self.walls, bytemuck::cast_slice(&packed_walls(solid)), 4);
    }

    /// Scales the right-hand side as it is packed: `b = scale * rhs` (1 for the Poisson problem's
    /// `b`; `-alpha` for the smoke step's divergence, GPU Gems 38.3).
    pub fn set_rhs_scale(&self, queue: &wgpu::Queue, scale: f32) {
        queue.write_buffer(&self.scale, 0, bytemuck::bytes_of(&[scale, 0.0, 0.0, 0.0]));
    }

    /// Records `iterations` Jacobi iterations of pressure texture `pressure` (an index into the
    /// `pressures` given to [`PackedJacobi::new`]) into `pass`: pack, iterate, unpack into the
    /// same texture. Nothing for 0 iterations.
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, pressure: usize, iterations: u32) {
        if iterations == 0 {
            return;
        }
        let (w, h) = self.packed;
        self.kernels[0].dispatch(pass, &self.pack_groups[pressure], w, h);
        for i in 0..iterations {
            self.kernels[1].dispatch(pass, &self.iteration_groups[i as usize % 2], w, h);
        }
        self.kernels[2].dispatch(pass, &self.unpack_groups[pressure][iterations as usize % 2], w, h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_walls_put_each_cells_bits_in_its_byte_and_wall_the_padding() {
        // 1 row, 5 columns, a wall in column 1: cells 0..4 in texel 0, cell 4 and 3 padding in texel 1.
        let solid = Grid::from_fn(5, 1, |_, c| (c == 1) as u8);
        let bits = gpu::wall_bits(&solid);
        let texels = packed_walls(&solid);
        assert_eq!(texels.len(), 2);
        for (c, &b) in bits.iter().take(4).enumerate() {
            assert_eq!((texels[0] >> (8 * c)) & 0xff, b, "cell {c}");
        }
        assert_eq!(texels[1] & 0xff, bits[4]);
        assert_eq!(texels[1] >> 8, PADDING | PADDING << 8 | PADDING << 16);
        // Cell 0: walls up, left (the edge) and down (the edges), right (column 1's wall).
        assert_eq!(bits[0], 0b11110);
    }
}
