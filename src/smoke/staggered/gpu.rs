//! The staggered grid's projection on the GPU: `shaders/smoke/staggered_divergence.wgsl`
//! writes `h^2 div` into the multigrid's right-hand side, [`GpuMultigrid`] solves, and
//! `shaders/smoke/staggered_gradient.wgsl` subtracts the gradient from the faces in place. The
//! GPU twin of [`super::divergence`] / [`super::subtract_gradient`] with
//! [`crate::solver::multigrid`]; the staggered smoke pipeline will own one.

use super::Faces;
use crate::error::Error;
use crate::gpu::{self, GpuError, Kernel, binding};
use crate::grid::Grid;
use crate::shaders;
use crate::solver::GpuMultigrid;
use crate::solver::multigrid::Settings;
use wgpu::BindingResource::TextureView as View;

const WORKGROUP: (u32, u32) = (64, 1);
const R32: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
const BITS: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

/// Face velocity textures `u` (`(W + 1) x H` texels) and `v` (`W x (H + 1)`), the walls, and
/// the solver for one wall layout.
pub struct GpuProjection {
    size: (u32, u32),
    u: wgpu::Texture,
    v: wgpu::Texture,
    solver: GpuMultigrid,
    divergence: (Kernel, wgpu::BindGroup),
    gradient: (Kernel, wgpu::BindGroup),
    _cell: wgpu::Buffer,
}

impl GpuProjection {
    /// For walls `solid` `(H, W)` (1 = wall) and cell size `h` (length units).
    ///
    /// # Errors
    /// [`Error::Gpu`] when a texture or pipeline cannot be created (e.g. the grid is larger
    /// than the device's texture limit).
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, solid: &Grid<u8>, h: f32) -> Result<Self, Error> {
        gpu::check_grid_size(device, solid.width() + 1, solid.height() + 1)?;
        let solver = GpuMultigrid::new(device, queue, solid, Settings::default())?;
        gpu::scoped(device, || Self::build(device, queue, solid, h, solver)).map_err(Error::from)
    }

    fn build(device: &wgpu::Device, queue: &wgpu::Queue, solid: &Grid<u8>, h: f32, solver: GpuMultigrid) -> Self {
        let size = (solid.width() as u32, solid.height() as u32);
        let usage =
            wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC;
        let u = gpu::texture_2d(device, "smoke/staggered/u", (size.0 + 1, size.1), R32, usage);
        let v = gpu::texture_2d(device, "smoke/staggered/v", (size.0, size.1 + 1), R32, usage);
        let walls = gpu::texture_2d(device, "smoke/staggered/solid", size, BITS, usage);
        gpu::upload_walls(queue, &walls, solid);
        let cell = gpu::uniform_buffer(device, "smoke/staggered/cell", 16);
        queue.write_buffer(&cell, 0, bytemuck::cast_slice(&[h, 0.0, 0.0, 0.0]));
        let view = |t: &wgpu::Texture| t.create_view(&Default::default());
        let (uv, vv, sv) = (view(&u), view(&v), view(&walls));
        let div = Kernel::new(
            device,
            "smoke/staggered_divergence",
            shaders::SMOKE_STAGGERED_DIVERGENCE,
            WORKGROUP,
            &[
                binding::uniform(0),
                binding::storage_read(1, R32),
                binding::storage_read(2, R32),
                binding::storage_read(3, BITS),
                binding::storage_write(4, R32),
            ],
        );
        let div_group = div
            .bind_group(device, &[cell.as_entire_binding(), View(&uv), View(&vv), View(&sv), View(solver.rhs_view())]);
        let grad = Kernel::new(
            device,
            "smoke/staggered_gradient",
            shaders::SMOKE_STAGGERED_GRADIENT,
            WORKGROUP,
            &[
                binding::uniform(0),
                binding::storage_read_write(1, R32),
                binding::storage_read_write(2, R32),
                binding::storage_read(3, BITS),
                binding::storage_read(4, R32),
            ],
        );
        let grad_group = grad.bind_group(
            device,
            &[cell.as_entire_binding(), View(&uv), View(&vv), View(&sv), View(solver.pressure_view())],
        );
        Self { size, u, v, solver, divergence: (div, div_group), gradient: (grad, grad_group), _cell: cell }
    }

    /// Uploads face velocities (`u` `(H, W + 1)`, `v` `(H + 1, W)`) and the initial pressure
    /// `(H, W)` (0, or the previous step's for a warm start).
    ///
    /// # Panics
    /// When a shape does not match the grid.
    pub fn upload(&self, queue: &wgpu::Queue, faces: &Faces, pressure: &Grid<f32>) {
        let (w, h) = (self.size.0 as usize, self.size.1 as usize);
        assert_eq!((faces.u.shape(), faces.v.shape()), ((h, w + 1), (h + 1, w)), "face arrays of another grid");
        gpu::upload(queue, &self.u, bytemuck::cast_slice(faces.u.as_slice()), 4);
        gpu::upload(queue, &self.v, bytemuck::cast_slice(faces.v.as_slice()), 4);
        let zero = Grid::filled(w, h, 0.0);
        self.solver.upload(queue, &zero, pressure);
    }

    /// Records the projection: the divergence into the solver's right-hand side, `cycles`
    /// V-cycles, the gradient subtraction.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder, cycles: u32) {
        let (w, h) = self.size;
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.divergence.0.dispatch(&mut pass, &self.divergence.1, w, h);
        }
        self.solver.encode_cycles(encoder, cycles);
        let mut pass = encoder.begin_compute_pass(&Default::default());
        self.gradient.0.dispatch(&mut pass, &self.gradient.1, w + 1, h + 1);
    }

    /// Reads the face velocities back.
    ///
    /// # Errors
    /// [`GpuError`] when a readback fails.
    pub fn read_faces(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Faces, GpuError> {
        Ok(Faces { u: gpu::read_r32float(device, queue, &self.u)?, v: gpu::read_r32float(device, queue, &self.v)? })
    }

    /// Reads the pressure back, `(H, W)`.
    ///
    /// # Errors
    /// [`GpuError`] when the readback fails.
    pub fn read_pressure(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Grid<f32>, GpuError> {
        self.solver.read_pressure(device, queue)
    }
}
