//! The GPU V-cycle's finest level in the packed layout of [`super::packed`] (four cells of a row
//! in one `rgba32float` texel), on the packed Jacobi iterations' own textures: its pressure
//! ping-pongs between their two packed pressures, its right-hand side and walls are theirs.
//!
//! Three passes, each the twin of [`super::multigrid`]'s functions on the finest level:
//! - `smooth_quad.wgsl`: two red-black Gauss-Seidel sweeps a dispatch ([`super::multigrid::smooth`]
//!   with colours 0, 1, 0, 1), run by the walk of the Jacobi quad (`quad_walk.wgsl`, temporal
//!   blocking in registers): a half-sweep reads only the colour it keeps, so it is a stencil over
//!   the half-sweep before, as a Jacobi iteration is over the iteration before;
//! - `restrict_packed.wgsl`: the residual ([`super::residual`]) summed onto the level below
//!   ([`super::multigrid::restrict`]) in one pass, with no residual texture;
//! - `prolong_packed.wgsl`: the coarse correction added ([`super::multigrid::prolong`]), from one
//!   packed pressure into the other.
//!
//! The smoke step's divergence packs the first level's input and its gradient unpacks the result
//! (as for the Jacobi iterations), so a V-cycle never touches the finest level one cell a texel.
//! Why: the finest level is three quarters of a V-cycle's cells, and on lavapipe one cell a
//! texel and an invocation, a red-black sweep of one colour cost about 7 packed Jacobi
//! iterations (half its invocations doing nothing); the quad's walk runs four half-sweeps for
//! about what four Jacobi iterations cost.

use super::packed::PackedJacobi;
use crate::gpu::Kernel;
use crate::gpu::packed::packed_size;
use crate::shaders;
use wgpu::BindingResource::TextureView as View;

/// The finest level's packed passes and their bind groups (`[from]`: from packed pressure
/// `from` of the [`PackedJacobi`] to the other).
pub(super) struct PackedFineLevel {
    /// Texels, `(ceil(W / 4), H)`.
    packed: (u32, u32),
    /// Texel rows an invocation of the sweeps' walk writes (the Jacobi quad's).
    strip: u32,
    kernels: [Kernel; 3], // smooth_quad, restrict_packed, prolong_packed
    smooth: [wgpu::BindGroup; 2],
    restrict: [wgpu::BindGroup; 2],
    prolong: [wgpu::BindGroup; 2],
}

impl PackedFineLevel {
    /// The passes over `jacobi`'s packed textures of a `size` grid (cells), with the finest
    /// level's uniform `level` (`struct Level` of `level.wgsl`) and the pressure and right-hand
    /// side (`r32float`) of the level below, which the restriction writes and the prolongation
    /// reads.
    pub(super) fn new(
        device: &wgpu::Device,
        jacobi: &PackedJacobi,
        size: (u32, u32),
        level: &wgpu::Buffer,
        coarse_pressure: &wgpu::TextureView,
        coarse_rhs: &wgpu::TextureView,
    ) -> Self {
        let strip = jacobi.quad_strip();
        let kernels = [
            Kernel::with_constants(
                device,
                "solver/smooth_quad",
                shaders::SOLVER_SMOOTH_QUAD,
                &[("STRIP", strip as f64)],
            ),
            Kernel::new(device, "solver/restrict_packed", shaders::SOLVER_RESTRICT_PACKED),
            Kernel::new(device, "solver/prolong_packed", shaders::SOLVER_PROLONG_PACKED),
        ];
        let [p0, p1] = jacobi.packed_pressure_views();
        let (b, walls) = (jacobi.packed_rhs_view(), jacobi.walls_view());
        let pairs = [(p0, p1), (p1, p0)];
        let smooth =
            pairs.map(|(from, to)| kernels[0].bind_group(device, &[View(from), View(b), View(walls), View(to)]));
        let restrict = [p0, p1].map(|from| {
            kernels[1].bind_group(
                device,
                &[level.as_entire_binding(), View(from), View(b), View(walls), View(coarse_rhs), View(coarse_pressure)],
            )
        });
        let prolong = pairs.map(|(from, to)| {
            kernels[2].bind_group(
                device,
                &[level.as_entire_binding(), View(from), View(walls), View(coarse_pressure), View(to)],
            )
        });
        Self { packed: packed_size(size.0, size.1), strip, kernels, smooth, restrict, prolong }
    }

    /// Records two red-black sweeps of packed pressure `from` into the other; returns it.
    pub(super) fn dispatch_sweeps(&self, pass: &mut wgpu::ComputePass<'_>, from: usize) -> usize {
        let (w, h) = self.packed;
        self.kernels[0].dispatch(pass, &self.smooth[from], w.div_ceil(2), h.div_ceil(self.strip));
        1 - from
    }

    /// Records the residual of packed pressure `from` restricted onto the level below, `coarse`
    /// cells `(w, h)`, and that level's correction set to 0.
    pub(super) fn dispatch_restrict(&self, pass: &mut wgpu::ComputePass<'_>, from: usize, coarse: (u32, u32)) {
        self.kernels[1].dispatch(pass, &self.restrict[from], coarse.0, coarse.1);
    }

    /// Records the level below's correction added to packed pressure `from`, written into the
    /// other; returns it.
    pub(super) fn dispatch_prolong(&self, pass: &mut wgpu::ComputePass<'_>, from: usize) -> usize {
        let (w, h) = self.packed;
        self.kernels[2].dispatch(pass, &self.prolong[from], w, h);
        1 - from
    }
}
