//! The collocated grid's four compute passes (GPU Gems ch. 38, Harris 2004, as Rideout 2010
//! ports them): advect (with buoyancy and the sources' impulse), divergence, Jacobi, gradient,
//! one struct each, and the splat's impulse pass. Their CPU mirrors are the functions of the
//! same names in [`super::cpu`]; [`super::gpu::GpuSmoke`] owns the textures ([`Fields`]) and
//! runs these passes, or the staggered grid's.
//!
//! GPU Gems applies buoyancy and the impulse as passes of their own after the advection; each is
//! a function of the cell alone, so pass 1 applies them to the values it has just advected
//! (`advect.wgsl`), two passes fewer over three fields a step (the CPU mirror keeps the three
//! functions, run in the same order).
//!
//! Ping-pong parity: velocity swaps in advect, impulse and gradient, temperature and density in
//! advect and impulse. The Jacobi iterations run packed four cells a texel
//! ([`crate::solver::packed`]) and unpack into the pressure texture they started from, so the
//! pressure does not swap; in a step the divergence packs their input and the gradient unpacks
//! their result ([`Collocated::encode_projection`]), run pass by pass they keep the solve's own
//! pack and unpack. A pass reading several
//! ping-pongs keeps bind groups for each combination of their read indices, `[v][s]`
//! (velocity, scalars) or `[v][p]` (velocity, pressure), and picks by the current ones.

use super::fields::Fields;
use crate::gpu::{DeviceCaps, Kernel};
use crate::shaders;
use crate::solver::packed::PackedJacobi;
use wgpu::BindingResource::TextureView as View;

/// Bind groups for every pair of read indices of two ping-pongs, `[a][b]`.
type Pairs = [[wgpu::BindGroup; 2]; 2];

fn pairs(f: impl Fn(usize, usize) -> wgpu::BindGroup) -> Pairs {
    [[f(0, 0), f(0, 1)], [f(1, 0), f(1, 1)]]
}

/// A bind group of a pass that reads and rewrites all three advected fields (advect, impulse):
/// uniform (0), velocity `v`, temperature and density `s` read (1-3), solid bits (4), the
/// three others written (5-7), then `extra` (advect's impulse uniform, 8).
fn three_field_group(
    device: &wgpu::Device,
    kernel: &Kernel,
    uniform: &wgpu::Buffer,
    f: &Fields,
    (v, s): (usize, usize),
    extra: &[wgpu::BindingResource<'_>],
) -> wgpu::BindGroup {
    let mut entries = vec![
        uniform.as_entire_binding(),
        View(&f.velocity.views()[v]),
        View(&f.temperature.views()[s]),
        View(&f.density.views()[s]),
        View(&f.solid_view),
        View(&f.velocity.views()[1 - v]),
        View(&f.temperature.views()[1 - s]),
        View(&f.density.views()[1 - s]),
    ];
    entries.extend_from_slice(extra);
    kernel.bind_group(device, &entries)
}

/// Records a [`three_field_group`] pass over the `(w, h)` grid with the group of the current
/// read indices, and swaps the three fields.
fn three_field_dispatch(
    pass: &mut wgpu::ComputePass<'_>,
    kernel: &Kernel,
    groups: &Pairs,
    f: &mut Fields,
    (w, h): (u32, u32),
) {
    let s = f.temperature.read_index();
    debug_assert_eq!(s, f.density.read_index(), "temperature and density swap together");
    kernel.dispatch(pass, &groups[f.velocity.read_index()][s], w, h);
    f.velocity.swap();
    f.temperature.swap();
    f.density.swap();
}

/// Pass 1: advect velocity, temperature, density, then buoyancy and the impulse of the step's
/// uniform ([`super::fields::IMPULSE_STEP`]: the scene's sources) (`advect.wgsl`). `[v][s]`.
struct AdvectPass {
    kernel: Kernel,
    groups: Pairs,
}

impl AdvectPass {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        uniform: &wgpu::Buffer,
        impulse: &wgpu::Buffer,
        f: &Fields,
    ) -> Self {
        let kernel = Kernel::new(device, caps, "smoke/advect", shaders::SMOKE_ADVECT);
        let groups =
            pairs(|v, s| three_field_group(device, &kernel, uniform, f, (v, s), &[impulse.as_entire_binding()]));
        Self { kernel, groups }
    }
}

/// The splats' impulse (`impulse.wgsl`), with the splat's uniform
/// ([`super::fields::IMPULSE_SPLAT`]). `[v][s]`.
struct ImpulsePass {
    kernel: Kernel,
    groups: Pairs,
}

impl ImpulsePass {
    fn new(device: &wgpu::Device, caps: &DeviceCaps, uniform: &wgpu::Buffer, f: &Fields) -> Self {
        let kernel = Kernel::new(device, caps, "smoke/impulse", shaders::SMOKE_IMPULSE);
        let groups = pairs(|v, s| three_field_group(device, &kernel, uniform, f, (v, s), &[]));
        Self { kernel, groups }
    }
}

/// Pass 2: divergence, and the pressure cleared (`divergence.wgsl`). `[v][p]`: reads velocity
/// `v`, writes the divergence and pressure texture `p` (the one the first Jacobi iteration
/// reads).
struct DivergencePass {
    kernel: Kernel,
    groups: Pairs,
}

impl DivergencePass {
    fn new(device: &wgpu::Device, caps: &DeviceCaps, uniform: &wgpu::Buffer, f: &Fields) -> Self {
        let kernel = Kernel::new(device, caps, "smoke/divergence", shaders::SMOKE_DIVERGENCE);
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

/// Pass 4: subtract the pressure gradient (`gradient.wgsl`). `[v][p]`.
struct GradientPass {
    kernel: Kernel,
    groups: Pairs,
}

impl GradientPass {
    fn new(device: &wgpu::Device, caps: &DeviceCaps, uniform: &wgpu::Buffer, f: &Fields) -> Self {
        let kernel = Kernel::new(device, caps, "smoke/gradient", shaders::SMOKE_GRADIENT);
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

/// Passes 2 to 4 of a step, as [`Collocated::encode_projection`] records them: the divergence
/// packing the Jacobi iterations' input (`divergence_packed.wgsl`, `[v][p]`: velocity `v`,
/// pressure texture `p` for a warm start), and the gradient reading their packed result and
/// unpacking it into pressure texture `p` (`gradient_packed.wgsl`, `[v][p][from]`, `from` the
/// packed pressure holding the result).
struct PackedProjection {
    divergence: Kernel,
    divergence_groups: Pairs,
    gradient: Kernel,
    gradient_groups: [Pairs; 2],
}

impl PackedProjection {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        uniform: &wgpu::Buffer,
        f: &Fields,
        jacobi: &PackedJacobi,
    ) -> Self {
        let divergence = Kernel::new(device, caps, "smoke/divergence_packed", shaders::SMOKE_DIVERGENCE_PACKED);
        let packed = jacobi.packed_pressure_views();
        let divergence_groups = pairs(|v, p| {
            divergence.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    jacobi.scale_buffer().as_entire_binding(),
                    View(&f.velocity.views()[v]),
                    View(&f.solid_view),
                    View(&f.pressure.views()[p]),
                    View(&f.divergence_view),
                    View(jacobi.packed_rhs_view()),
                    View(packed[0]),
                ],
            )
        });
        let gradient = Kernel::new(device, caps, "smoke/gradient_packed", shaders::SMOKE_GRADIENT_PACKED);
        let gradient_groups = packed.map(|from| {
            pairs(|v, p| {
                gradient.bind_group(
                    device,
                    &[
                        uniform.as_entire_binding(),
                        View(&f.velocity.views()[v]),
                        View(from),
                        View(&f.solid_view),
                        View(&f.velocity.views()[1 - v]),
                        View(&f.pressure.views()[p]),
                    ],
                )
            })
        });
        Self { divergence, divergence_groups, gradient, gradient_groups }
    }
}

/// One pass of the smoke step, for running the pipeline pass by pass
/// ([`super::GpuSmoke::run_pass`]; the tests compare each with its CPU mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmokePass {
    /// Semi-Lagrangian advection of velocity, temperature, density, then buoyancy and the scene
    /// sources' impulse ([`super::cpu::advect`], [`super::cpu::buoyancy`], then
    /// [`super::cpu::impulse`] with [`super::Impulse::sources`]).
    Advect,
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
    divergence: DivergencePass,
    /// Pass 3, the Jacobi iterations, packed four cells a texel ([`crate::solver::packed`]:
    /// `p = (pL + pR + pD + pU - b) / 4` with `b = -alpha div`, the GPU Gems iteration), between
    /// either pressure texture and itself.
    jacobi: PackedJacobi,
    gradient: GradientPass,
    projection: PackedProjection,
    splat: ImpulsePass,
}

impl Collocated {
    /// Builds the passes over `f`, with the smoke uniform and the two impulse uniforms
    /// ([`super::fields::IMPULSE_STEP`] for pass 1, [`super::fields::IMPULSE_SPLAT`] for splats).
    pub(super) fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        queue: &wgpu::Queue,
        uniform: &wgpu::Buffer,
        impulses: &[wgpu::Buffer; 2],
        f: &Fields,
    ) -> Self {
        use super::fields::{IMPULSE_SPLAT, IMPULSE_STEP};
        let size = f.divergence.size();
        let [p0, p1] = f.pressure.views();
        let jacobi = PackedJacobi::new(device, caps, queue, (size.width, size.height), &[p0, p1], &f.divergence_view);
        Self {
            advect: AdvectPass::new(device, caps, uniform, &impulses[IMPULSE_STEP], f),
            divergence: DivergencePass::new(device, caps, uniform, f),
            projection: PackedProjection::new(device, caps, uniform, f, &jacobi),
            jacobi,
            gradient: GradientPass::new(device, caps, uniform, f),
            splat: ImpulsePass::new(device, caps, &impulses[IMPULSE_SPLAT], f),
        }
    }

    /// Records pass `which` over the `(w, h)` grid into `pass` and swaps the ping-pongs it wrote.
    pub(super) fn encode(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        which: SmokePass,
        f: &mut Fields,
        (w, h): (u32, u32),
    ) {
        let (v, p) = (f.velocity.read_index(), f.pressure.read_index());
        match which {
            SmokePass::Advect => three_field_dispatch(pass, &self.advect.kernel, &self.advect.groups, f, (w, h)),
            SmokePass::Divergence => self.divergence.kernel.dispatch(pass, &self.divergence.groups[v][p], w, h),
            SmokePass::Jacobi => self.jacobi.dispatch(pass, p, 1),
            SmokePass::Gradient => {
                self.gradient.kernel.dispatch(pass, &self.gradient.groups[v][p], w, h);
                f.velocity.swap();
            }
        }
    }

    /// Records the splat's impulse (the splat uniform as written) over the `(w, h)` grid into
    /// `pass` and swaps the three fields.
    pub(super) fn encode_splat(&self, pass: &mut wgpu::ComputePass<'_>, f: &mut Fields, size: (u32, u32)) {
        three_field_dispatch(pass, &self.splat.kernel, &self.splat.groups, f, size);
    }

    /// Records passes 2 to 4 of a step over the `(w, h)` grid into `pass`, to the bit as
    /// [`SmokePass::Divergence`], `iterations` Jacobi iterations and [`SmokePass::Gradient`]
    /// would, in `iterations / 4 + (iterations % 4 >= 2) + iterations % 2 + 2` dispatches (15
    /// for 50): the divergence packs the iterations' input and the gradient unpacks their
    /// result ([`PackedProjection`]) instead of the solve's own pack and unpack. Swaps the
    /// velocity.
    pub(super) fn encode_projection(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        iterations: u32,
        f: &mut Fields,
        (w, h): (u32, u32),
    ) {
        let (v, p) = (f.velocity.read_index(), f.pressure.read_index());
        let (pw, ph) = crate::gpu::packed::packed_size(w, h);
        let pr = &self.projection;
        pr.divergence.dispatch(pass, &pr.divergence_groups[v][p], pw, ph);
        let from = self.jacobi.dispatch_iterations(pass, iterations);
        pr.gradient.dispatch(pass, &pr.gradient_groups[from][v][p], pw, ph);
        f.velocity.swap();
    }

    /// Records `steps` steps over the `(w, h)` grid into `encoder`, in one compute pass: for
    /// each, [`SmokePass::Advect`], then the projection with `iterations` Jacobi iterations
    /// ([`Self::encode_projection`]): advection, the packed divergence, the iterations
    /// ([`PackedJacobi::dispatch_iterations`]: 13 dispatches for 50) and the packed gradient,
    /// 16 dispatches a step for 50.
    pub(super) fn encode_steps(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        steps: u32,
        iterations: u32,
        f: &mut Fields,
        size: (u32, u32),
    ) {
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("smoke step"), timestamp_writes: None });
        for _ in 0..steps {
            self.encode(&mut pass, SmokePass::Advect, f, size);
            self.encode_projection(&mut pass, iterations, f, size);
        }
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
        self.jacobi.encode_walls(device, encoder, solid, &crate::solver::NEUMANN);
    }
}
