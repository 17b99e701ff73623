//! The staggered smoke step on the GPU, one struct per pass (`shaders/smoke/staggered_*.wgsl`)
//! plus the pressure solve ([`GpuMultigrid`]: Jacobi iterations or V-cycles on its finest
//! level).
//!
//! Textures: face velocities `u` (`(W + 1) x H` texels) and `v` (`W x (H + 1)`), `r32float`,
//! ping-ponged together by the advection; buoyancy, impulse and the gradient subtraction are
//! pointwise and update them in place (`read_write`). Temperature, density, the solid bits, the
//! divergence and the cell-centre velocity (`rg32float`, for the views) are the smoke model's
//! shared fields (`super::super::gpu`). The pressure and the right-hand side live in the
//! solver's finest level. After the projection, `staggered_centres.wgsl` writes the
//! cell-centre velocity and the divergence left (`after`), which the statistics read.

use crate::gpu::{Kernel, PingPong, binding};
use crate::shaders;
use crate::solver::GpuMultigrid;
use wgpu::BindingResource::TextureView as View;

const WORKGROUP: (u32, u32) = (64, 1);
const R32: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
const RG32: wgpu::TextureFormat = wgpu::TextureFormat::Rg32Float;
const BITS: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

/// The staggered grid's own textures.
pub(crate) struct StaggeredFields {
    /// `u`, `(W + 1) x H` texels.
    pub u: PingPong,
    /// `v`, `W x (H + 1)` texels; swaps with `u`.
    pub v: PingPong,
    /// Divergence after the projection, `W x H`.
    pub after: wgpu::Texture,
    pub after_view: wgpu::TextureView,
}

impl StaggeredFields {
    pub fn new(device: &wgpu::Device, (w, h): (u32, u32)) -> Self {
        let usage = wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::TEXTURE_BINDING;
        let after = crate::gpu::texture_2d(device, "smoke/staggered/after", (w, h), R32, usage);
        Self {
            u: PingPong::new(device, "smoke/staggered/u", w + 1, h, R32),
            v: PingPong::new(device, "smoke/staggered/v", w, h + 1, R32),
            after_view: after.create_view(&Default::default()),
            after,
        }
    }
}

/// What the passes read from the smoke model's shared fields.
pub(crate) struct Shared<'a> {
    pub uniform: &'a wgpu::Buffer,
    pub impulses: &'a [wgpu::Buffer; 2],
    pub temperature: &'a PingPong,
    pub density: &'a PingPong,
    pub solid: &'a wgpu::TextureView,
    pub divergence: &'a wgpu::TextureView,
    pub velocity: &'a wgpu::TextureView,
}

/// One pass of the staggered step, for running it pass by pass (the tests hold each to its CPU
/// mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaggeredPass {
    /// Temperature and density ([`super::cpu::advect_scalars`]).
    AdvectScalars,
    /// Face velocities ([`super::cpu::advect_velocity`]).
    AdvectVelocity,
    /// Buoyancy on the `v` faces ([`super::cpu::buoyancy`]).
    Buoyancy,
    /// The sources' impulse ([`super::cpu::impulse`]).
    Impulse,
    /// Divergence, right-hand side, pressure cleared unless warm-starting (first lines of
    /// [`super::project`]).
    Divergence,
    /// The pressure solve as the parameters say (Jacobi iterations or V-cycles).
    Solve,
    /// Gradient subtraction ([`super::subtract_gradient`]).
    Gradient,
    /// Cell-centre velocity and the divergence left ([`super::cpu::centres`]).
    Centres,
}

/// The staggered passes' kernels and bind groups. Index conventions: `[uv]` the face
/// velocities' read index, `[s]` the scalars', `[i]` the impulse uniform (0 step, 1 splat).
pub(crate) struct StaggeredPasses {
    pub fields: StaggeredFields,
    pub solver: GpuMultigrid,
    advect_velocity: (Kernel, [wgpu::BindGroup; 2]),
    advect_scalars: (Kernel, [[wgpu::BindGroup; 2]; 2]),
    buoyancy: (Kernel, [[wgpu::BindGroup; 2]; 2]),
    impulse: (Kernel, [[[wgpu::BindGroup; 2]; 2]; 2]),
    divergence: (Kernel, [wgpu::BindGroup; 2]),
    gradient: (Kernel, [wgpu::BindGroup; 2]),
    centres: (Kernel, [wgpu::BindGroup; 2]),
    size: (u32, u32),
}

fn kernel(device: &wgpu::Device, label: &'static str, source: &str, entries: &[wgpu::BindGroupLayoutEntry]) -> Kernel {
    Kernel::new(device, label, source, WORKGROUP, entries)
}

impl StaggeredPasses {
    pub fn new(device: &wgpu::Device, shared: &Shared<'_>, fields: StaggeredFields, solver: GpuMultigrid) -> Self {
        let f = &fields;
        let (u, v) = (f.u.views(), f.v.views());
        let (t, d) = (shared.temperature.views(), shared.density.views());
        let uniform = || shared.uniform.as_entire_binding();
        let advect_velocity = kernel(
            device,
            "smoke/staggered_advect_velocity",
            shaders::SMOKE_STAGGERED_ADVECT_VELOCITY,
            &[
                binding::uniform(0),
                binding::storage_read(1, R32),
                binding::storage_read(2, R32),
                binding::storage_read(3, BITS),
                binding::storage_write(4, R32),
                binding::storage_write(5, R32),
            ],
        );
        let advect_velocity_groups = [0, 1].map(|i| {
            advect_velocity.bind_group(
                device,
                &[uniform(), View(&u[i]), View(&v[i]), View(shared.solid), View(&u[1 - i]), View(&v[1 - i])],
            )
        });
        let advect_scalars = kernel(
            device,
            "smoke/staggered_advect_scalars",
            shaders::SMOKE_STAGGERED_ADVECT_SCALARS,
            &[
                binding::uniform(0),
                binding::storage_read(1, R32),
                binding::storage_read(2, R32),
                binding::storage_read(3, R32),
                binding::storage_read(4, R32),
                binding::storage_read(5, BITS),
                binding::storage_write(6, R32),
                binding::storage_write(7, R32),
            ],
        );
        let advect_scalars_groups = [0, 1].map(|i| {
            [0, 1].map(|s| {
                advect_scalars.bind_group(
                    device,
                    &[
                        uniform(),
                        View(&u[i]),
                        View(&v[i]),
                        View(&t[s]),
                        View(&d[s]),
                        View(shared.solid),
                        View(&t[1 - s]),
                        View(&d[1 - s]),
                    ],
                )
            })
        });
        let buoyancy = kernel(
            device,
            "smoke/staggered_buoyancy",
            shaders::SMOKE_STAGGERED_BUOYANCY,
            &[
                binding::uniform(0),
                binding::storage_read_write(1, R32),
                binding::storage_read(2, R32),
                binding::storage_read(3, R32),
                binding::storage_read(4, BITS),
            ],
        );
        let buoyancy_groups = [0, 1].map(|i| {
            [0, 1].map(|s| {
                buoyancy.bind_group(device, &[uniform(), View(&v[i]), View(&t[s]), View(&d[s]), View(shared.solid)])
            })
        });
        let impulse = kernel(
            device,
            "smoke/staggered_impulse",
            shaders::SMOKE_STAGGERED_IMPULSE,
            &[
                binding::uniform(0),
                binding::storage_read_write(1, R32),
                binding::storage_read_write(2, R32),
                binding::storage_read_write(3, R32),
                binding::storage_read_write(4, R32),
                binding::storage_read(5, BITS),
            ],
        );
        let impulse_groups = [0, 1].map(|which| {
            [0, 1].map(|i| {
                [0, 1].map(|s| {
                    impulse.bind_group(
                        device,
                        &[
                            shared.impulses[which].as_entire_binding(),
                            View(&u[i]),
                            View(&v[i]),
                            View(&t[s]),
                            View(&d[s]),
                            View(shared.solid),
                        ],
                    )
                })
            })
        });
        let divergence = kernel(
            device,
            "smoke/staggered_divergence",
            shaders::SMOKE_STAGGERED_DIVERGENCE,
            &[
                binding::uniform(0),
                binding::storage_read(1, R32),
                binding::storage_read(2, R32),
                binding::storage_read(3, BITS),
                binding::storage_write(4, R32),
                binding::storage_write(5, R32),
                binding::storage_write(6, R32),
            ],
        );
        let divergence_groups = [0, 1].map(|i| {
            divergence.bind_group(
                device,
                &[
                    uniform(),
                    View(&u[i]),
                    View(&v[i]),
                    View(shared.solid),
                    View(shared.divergence),
                    View(solver.rhs_view()),
                    View(solver.pressure_view()),
                ],
            )
        });
        let gradient = kernel(
            device,
            "smoke/staggered_gradient",
            shaders::SMOKE_STAGGERED_GRADIENT,
            &[
                binding::uniform(0),
                binding::storage_read_write(1, R32),
                binding::storage_read_write(2, R32),
                binding::storage_read(3, BITS),
                binding::storage_read(4, R32),
            ],
        );
        let gradient_groups = [0, 1].map(|i| {
            gradient.bind_group(
                device,
                &[uniform(), View(&u[i]), View(&v[i]), View(shared.solid), View(solver.pressure_view())],
            )
        });
        let centres = kernel(
            device,
            "smoke/staggered_centres",
            shaders::SMOKE_STAGGERED_CENTRES,
            &[
                binding::uniform(0),
                binding::storage_read(1, R32),
                binding::storage_read(2, R32),
                binding::storage_read(3, BITS),
                binding::storage_write(4, RG32),
                binding::storage_write(5, R32),
            ],
        );
        let centres_groups = [0, 1].map(|i| {
            centres.bind_group(
                device,
                &[uniform(), View(&u[i]), View(&v[i]), View(shared.solid), View(shared.velocity), View(&f.after_view)],
            )
        });
        let size = (f.after.width(), f.after.height());
        Self {
            fields,
            solver,
            advect_velocity: (advect_velocity, advect_velocity_groups),
            advect_scalars: (advect_scalars, advect_scalars_groups),
            buoyancy: (buoyancy, buoyancy_groups),
            impulse: (impulse, impulse_groups),
            divergence: (divergence, divergence_groups),
            gradient: (gradient, gradient_groups),
            centres: (centres, centres_groups),
            size,
        }
    }

    /// Records one compute pass's dispatch (not [`StaggeredPass::Solve`], which records its own
    /// passes) and swaps what it wrote: the scalars (advect scalars) or the faces (advect
    /// velocity). `s` is the scalars' read index; `impulse` picks the impulse uniform.
    pub fn dispatch(
        &mut self,
        pass: &mut wgpu::ComputePass<'_>,
        which: StaggeredPass,
        scalars: (&mut PingPong, &mut PingPong),
        impulse: usize,
    ) {
        let (w, h) = self.size;
        let i = self.fields.u.read_index();
        let s = scalars.0.read_index();
        match which {
            StaggeredPass::AdvectScalars => {
                self.advect_scalars.0.dispatch(pass, &self.advect_scalars.1[i][s], w, h);
                scalars.0.swap();
                scalars.1.swap();
            }
            StaggeredPass::AdvectVelocity => {
                self.advect_velocity.0.dispatch(pass, &self.advect_velocity.1[i], w + 1, h + 1);
                self.fields.u.swap();
                self.fields.v.swap();
            }
            StaggeredPass::Buoyancy => self.buoyancy.0.dispatch(pass, &self.buoyancy.1[i][s], w, h + 1),
            StaggeredPass::Impulse => self.impulse.0.dispatch(pass, &self.impulse.1[impulse][i][s], w + 1, h + 1),
            StaggeredPass::Divergence => self.divergence.0.dispatch(pass, &self.divergence.1[i], w, h),
            StaggeredPass::Gradient => self.gradient.0.dispatch(pass, &self.gradient.1[i], w + 1, h + 1),
            StaggeredPass::Centres => self.centres.0.dispatch(pass, &self.centres.1[i], w, h),
            StaggeredPass::Solve => unreachable!("the solve records its own passes"),
        }
    }
}
