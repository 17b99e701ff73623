//! The collocated grid's six compute passes (GPU Gems ch. 38, Harris 2004, as Rideout 2010
//! ports them): advect, buoyancy, impulse, divergence, Jacobi, gradient, one struct each. Their
//! CPU mirrors are the functions of the same names in [`super::cpu`]; [`super::gpu::GpuSmoke`]
//! owns the textures ([`Fields`]) and runs these passes, or the staggered grid's.
//!
//! Ping-pong parity: velocity swaps in advect, buoyancy, impulse and gradient, temperature and
//! density in advect and impulse. The Jacobi iterations run packed four cells a texel
//! ([`crate::solver::packed`]) and unpack into the pressure texture they started from, so the
//! pressure does not swap. A pass reading several
//! ping-pongs keeps bind groups for each combination of their read indices, `[v][s]`
//! (velocity, scalars) or `[v][p]` (velocity, pressure), and picks by the current ones.

use super::fields::Fields;
use crate::gpu::Kernel;
use crate::shaders;
use crate::solver::packed::PackedJacobi;
use wgpu::BindingResource::TextureView as View;

/// Bind groups for every pair of read indices of two ping-pongs, `[a][b]`.
type Pairs = [[wgpu::BindGroup; 2]; 2];

fn pairs(f: impl Fn(usize, usize) -> wgpu::BindGroup) -> Pairs {
    [[f(0, 0), f(0, 1)], [f(1, 0), f(1, 1)]]
}

/// A pass that reads and rewrites all three advected fields (advect, impulse): uniform (0),
/// velocity, temperature, density read (1-3), solid bits (4), the three written (5-7).
fn three_field_kernel(device: &wgpu::Device, label: &'static str, source: &str) -> Kernel {
    Kernel::new(device, label, source)
}

/// A [`three_field_kernel`] bind group reading velocity `v` and scalars `s`, writing the others.
fn three_field_group(
    device: &wgpu::Device,
    kernel: &Kernel,
    uniform: &wgpu::Buffer,
    f: &Fields,
    v: usize,
    s: usize,
) -> wgpu::BindGroup {
    kernel.bind_group(
        device,
        &[
            uniform.as_entire_binding(),
            View(&f.velocity.views()[v]),
            View(&f.temperature.views()[s]),
            View(&f.density.views()[s]),
            View(&f.solid_view),
            View(&f.velocity.views()[1 - v]),
            View(&f.temperature.views()[1 - s]),
            View(&f.density.views()[1 - s]),
        ],
    )
}

/// Pass 1: advect velocity, temperature, density (`advect.wgsl`). `[v][s]`.
struct AdvectPass {
    kernel: Kernel,
    groups: Pairs,
}

impl AdvectPass {
    fn new(device: &wgpu::Device, uniform: &wgpu::Buffer, f: &Fields) -> Self {
        let kernel = three_field_kernel(device, "smoke/advect", shaders::SMOKE_ADVECT);
        let groups = pairs(|v, s| three_field_group(device, &kernel, uniform, f, v, s));
        Self { kernel, groups }
    }
}

/// Pass 2: buoyancy (`buoyancy.wgsl`). `[v][s]`.
struct BuoyancyPass {
    kernel: Kernel,
    groups: Pairs,
}

impl BuoyancyPass {
    fn new(device: &wgpu::Device, uniform: &wgpu::Buffer, f: &Fields) -> Self {
        let kernel = Kernel::new(device, "smoke/buoyancy", shaders::SMOKE_BUOYANCY);
        let groups = pairs(|v, s| {
            kernel.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    View(&f.velocity.views()[v]),
                    View(&f.temperature.views()[s]),
                    View(&f.density.views()[s]),
                    View(&f.solid_view),
                    View(&f.velocity.views()[1 - v]),
                ],
            )
        });
        Self { kernel, groups }
    }
}

/// Pass 3: impulse (`impulse.wgsl`), with two uniforms ([`super::fields::IMPULSE_STEP`],
/// [`super::fields::IMPULSE_SPLAT`]). `[uniform][v][s]`.
struct ImpulsePass {
    kernel: Kernel,
    groups: [Pairs; 2],
}

impl ImpulsePass {
    fn new(device: &wgpu::Device, uniforms: &[wgpu::Buffer; 2], f: &Fields) -> Self {
        let kernel = three_field_kernel(device, "smoke/impulse", shaders::SMOKE_IMPULSE);
        let groups = [0, 1].map(|u| pairs(|v, s| three_field_group(device, &kernel, &uniforms[u], f, v, s)));
        Self { kernel, groups }
    }
}

/// Pass 4: divergence, and the pressure cleared (`divergence.wgsl`). `[v][p]`: reads velocity
/// `v`, writes the divergence and pressure texture `p` (the one the first Jacobi iteration
/// reads).
struct DivergencePass {
    kernel: Kernel,
    groups: Pairs,
}

impl DivergencePass {
    fn new(device: &wgpu::Device, uniform: &wgpu::Buffer, f: &Fields) -> Self {
        let kernel = Kernel::new(device, "smoke/divergence", shaders::SMOKE_DIVERGENCE);
        let groups = pairs(|v, p| {
            kernel.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    View(&f.velocity.views()[v]),
                    View(&f.solid_view),
                    View(&f.divergence_view),
                    View(&f.pressure.views()[p]),
                ],
            )
        });
        Self { kernel, groups }
    }
}

/// Pass 6: subtract the pressure gradient (`gradient.wgsl`). `[v][p]`.
struct GradientPass {
    kernel: Kernel,
    groups: Pairs,
}

impl GradientPass {
    fn new(device: &wgpu::Device, uniform: &wgpu::Buffer, f: &Fields) -> Self {
        let kernel = Kernel::new(device, "smoke/gradient", shaders::SMOKE_GRADIENT);
        let groups = pairs(|v, p| {
            kernel.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    View(&f.velocity.views()[v]),
                    View(&f.pressure.views()[p]),
                    View(&f.solid_view),
                    View(&f.velocity.views()[1 - v]),
                ],
            )
        });
        Self { kernel, groups }
    }
}

/// One pass of the smoke step, for running the pipeline pass by pass
/// ([`super::GpuSmoke::run_pass`]; the tests compare each with its CPU mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmokePass {
    /// Semi-Lagrangian advection of velocity, temperature, density ([`super::cpu::advect`]).
    Advect,
    /// Buoyancy ([`super::cpu::buoyancy`]).
    Buoyancy,
    /// The scene sources' impulse ([`super::cpu::impulse`] with [`super::Impulse::sources`]).
    Impulse,
    /// Divergence, pressure cleared ([`super::cpu::divergence`]).
    Divergence,
    /// One Jacobi iteration ([`super::cpu::jacobi`]).
    Jacobi,
    /// Pressure gradient subtraction ([`super::cpu::gradient`]).
    Gradient,
}

/// The collocated grid's passes.
pub(super) struct Collocated {
    advect: AdvectPass,
    buoyancy: BuoyancyPass,
    impulse: ImpulsePass,
    divergence: DivergencePass,
    /// Pass 5, the Jacobi iterations, packed four cells a texel ([`crate::solver::packed`]:
    /// `p = (pL + pR + pD + pU - b) / 4` with `b = -alpha div`, the GPU Gems iteration), between
    /// either pressure texture and itself.
    jacobi: PackedJacobi,
    gradient: GradientPass,
}

impl Collocated {
    /// Builds the six passes over `f`, with the smoke uniform and the two impulse uniforms
    /// ([`super::fields::IMPULSE_STEP`], [`super::fields::IMPULSE_SPLAT`]).
    pub(super) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        uniform: &wgpu::Buffer,
        impulses: &[wgpu::Buffer; 2],
        f: &Fields,
    ) -> Self {
        let size = f.divergence.size();
        let [p0, p1] = f.pressure.views();
        Self {
            advect: AdvectPass::new(device, uniform, f),
            buoyancy: BuoyancyPass::new(device, uniform, f),
            impulse: ImpulsePass::new(device, impulses, f),
            divergence: DivergencePass::new(device, uniform, f),
            jacobi: PackedJacobi::new(device, queue, (size.width, size.height), &[p0, p1], &f.divergence_view),
            gradient: GradientPass::new(device, uniform, f),
        }
    }

    /// Records pass `which` over the `(w, h)` grid into `pass` (the impulse with uniform
    /// `impulse`) and swaps the ping-pongs it wrote.
    pub(super) fn encode(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        which: SmokePass,
        impulse: usize,
        f: &mut Fields,
        (w, h): (u32, u32),
    ) {
        let (v, s, p) = (f.velocity.read_index(), f.temperature.read_index(), f.pressure.read_index());
        debug_assert_eq!(s, f.density.read_index(), "temperature and density swap together");
        match which {
            SmokePass::Advect => {
                self.advect.kernel.dispatch(pass, &self.advect.groups[v][s], w, h);
                f.velocity.swap();
                f.temperature.swap();
                f.density.swap();
            }
            SmokePass::Buoyancy => {
                self.buoyancy.kernel.dispatch(pass, &self.buoyancy.groups[v][s], w, h);
                f.velocity.swap();
            }
            SmokePass::Impulse => {
                self.impulse.kernel.dispatch(pass, &self.impulse.groups[impulse][v][s], w, h);
                f.velocity.swap();
                f.temperature.swap();
                f.density.swap();
            }
            SmokePass::Divergence => self.divergence.kernel.dispatch(pass, &self.divergence.groups[v][p], w, h),
            SmokePass::Jacobi => self.jacobi.dispatch(pass, p, 1),
            SmokePass::Gradient => {
                self.gradient.kernel.dispatch(pass, &self.gradient.groups[v][p], w, h);
                f.velocity.swap();
            }
        }
    }

    /// Records `iterations` Jacobi iterations of the current pressure texture (which stays
    /// current) into `pass`.
    pub(super) fn encode_jacobi(&self, pass: &mut wgpu::ComputePass<'_>, iterations: u32, f: &Fields) {
        self.jacobi.dispatch(pass, f.pressure.read_index(), iterations);
    }

    /// Records the Jacobi iterations' right-hand side scale, `-alpha` of `p`, into `encoder`.
    pub(super) fn encode_params(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        p: &super::SmokeParams,
    ) {
        self.jacobi.encode_rhs_scale(device, encoder, -p.alpha());
    }

    /// The Jacobi iterations' walls: `solid` `(H, W)`, non-zero = solid.
    pub(super) fn encode_walls(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        solid: &crate::grid::Grid<u8>,
    ) {
        self.jacobi.encode_walls(device, encoder, solid);
    }
}
