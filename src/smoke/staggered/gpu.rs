//! The staggered smoke step on the GPU: a kernel and its bind groups per pass
//! (`shaders/smoke/staggered_*.wgsl`) plus the pressure solve ([`GpuMultigrid`]: Jacobi
//! iterations or V-cycles on its finest level).
//!
//! Textures: face velocities `u` (`(W + 1) x H` texels) and `v` (`W x (H + 1)`), `r32float`,
//! ping-ponged together by the advection and the viscous diffusion; confinement, buoyancy,
//! impulse and the gradient subtraction are pointwise and update them in place (`read_write`).
//! Temperature, density, the dye (`rgba32float`, ping-ponged by the advection and the impulse),
//! the solid bits, the divergence, the vorticity and the cell-centre velocity (`rg32float`, for
//! the views) are the smoke model's shared fields (`super::super::gpu`); scratch textures hold
//! MacCormack's predictions. The pressure and the right-hand side live in the
//! solver's finest level. After the projection, `staggered_centres.wgsl` writes the
//! cell-centre velocity and the divergence left (`after`), which the statistics read.

use crate::gpu::{DeviceCaps, Kernel, PingPong};
use crate::shaders;
use crate::smoke::fields::Fields;
use crate::smoke::{Advection, SmokeParams, Solver};
use crate::solver::GpuMultigrid;
use crate::solver::gpu::{CycleProbes, Solve};
use crate::solver::plan::CyclePlan;
use wgpu::BindingResource::TextureView as View;

const R32: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
const RGBA32: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

/// Cells along a row that one invocation of the vorticity and confinement passes computes
/// (`STRIP` in `staggered_vorticity.wgsl` and `staggered_confinement.wgsl`, which must agree:
/// a larger one here than there leaves cells unwritten on grids wider than a workgroup of
/// strips, 256 cells, which `tests/smoke_invariants.rs`'s solid-body rotation, 301 wide, sees).
const STRIP: u32 = 4;

/// The staggered grid's own textures.
pub(crate) struct StaggeredFields {
    /// `u`, `(W + 1) x H` texels.
    pub u: PingPong,
    /// `v`, `W x (H + 1)` texels; swaps with `u`.
    pub v: PingPong,
    /// Divergence after the projection, `W x H`.
    pub after: wgpu::Texture,
    pub after_view: wgpu::TextureView,
    /// Scratch: MacCormack's predictions of `u`, `v` (and the viscous iterate's partner),
    /// temperature and density.
    hats: [wgpu::TextureView; 4],
    /// Scratch: MacCormack's prediction of the dye (`rgba32float`).
    dye_hat: wgpu::TextureView,
    /// Scratch: vorticity confinement's force at each cell (`rg32float`, `W x H`).
    force: wgpu::TextureView,
    /// The walls alone (drawn, or from the scene) with the sources, in the solid texture's bits,
    /// `W x H`: the bodies' rasterisation adds the bodies to them each step.
    pub walls: wgpu::Texture,
    walls_view: wgpu::TextureView,
    /// The bodies, [`crate::body::MAX_BODIES`] of [`crate::body::GpuBody`] (storage).
    pub bodies: wgpu::Buffer,
}

impl StaggeredFields {
    pub fn new(device: &wgpu::Device, (w, h): (u32, u32)) -> Self {
        let usage = wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::TEXTURE_BINDING;
        let after = crate::gpu::texture_2d(device, "smoke/staggered/after", (w, h), R32, usage);
        let walls =
            crate::gpu::texture_2d(device, "smoke/staggered/walls", (w, h), wgpu::TextureFormat::R32Uint, usage);
        let bodies = crate::body::table::table(device, "smoke/bodies");
        let hat =
            |label, size| crate::gpu::texture_2d(device, label, size, R32, usage).create_view(&Default::default());
        Self {
            u: PingPong::new(device, "smoke/staggered/u", w + 1, h, R32),
            v: PingPong::new(device, "smoke/staggered/v", w, h + 1, R32),
            after_view: after.create_view(&Default::default()),
            after,
            dye_hat: crate::gpu::texture_2d(device, "smoke/staggered/dye^", (w, h), RGBA32, usage)
                .create_view(&Default::default()),
            force: crate::gpu::texture_2d(
                device,
                "smoke/staggered/force",
                (w, h),
                wgpu::TextureFormat::Rg32Float,
                usage,
            )
            .create_view(&Default::default()),
            hats: [
                hat("smoke/staggered/u^", (w + 1, h)),
                hat("smoke/staggered/v^", (w, h + 1)),
                hat("smoke/staggered/temperature^", (w, h)),
                hat("smoke/staggered/density^", (w, h)),
            ],
            walls_view: walls.create_view(&Default::default()),
            walls,
            bodies,
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
    pub vorticity: &'a wgpu::TextureView,
    pub dye: &'a PingPong,
}

/// One pass of the staggered step, for running it pass by pass (the tests hold each to its CPU
/// mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaggeredPass {
    /// The bodies move one step and are rasterised ([`super::bodies::step`]); nothing without
    /// bodies.
    Bodies,
    /// Temperature, density and dye ([`super::cpu::advect_scalars`]).
    AdvectScalars,
    /// Face velocities ([`super::cpu::advect_velocity`]).
    AdvectVelocity,
    /// Viscous diffusion ([`super::cpu::viscosity`]); nothing when the viscosity is 0.
    Viscosity,
    /// The forces, GPU Gems 38.3's "add forces": vorticity confinement
    /// ([`super::cpu::confinement`]; none when its `eps` is 0), then buoyancy on the `v` faces
    /// ([`super::cpu::buoyancy`]). Three dispatches (the vorticity, confinement's force at each
    /// cell, both forces onto the faces) or, without confinement, the last alone.
    Forces,
    /// The sources' impulse ([`super::cpu::impulse`]).
    Impulse,
    /// The divergence, right-hand side, pressure cleared unless warm-starting (first lines of
    /// [`super::project`]). Recorded just before a Jacobi [`StaggeredPass::Solve`] (as in a
    /// step), it writes the right-hand side and the starting pressure straight into the
    /// iterations' packed textures instead, and the pressure texture keeps its old values
    /// until the gradient or the solve's unpack writes the result.
    Divergence,
    /// The pressure solve as the parameters say (Jacobi iterations or V-cycles). The Jacobi
    /// iterations pack their input and unpack their result unless the divergence just before
    /// or the gradient just after does it.
    Solve,
    /// Gradient subtraction ([`super::subtract_gradient`]). Recorded just after a Jacobi
    /// [`StaggeredPass::Solve`], it reads the packed result and unpacks it into the pressure
    /// texture as it goes.
    Gradient,
    /// The fluid's force and torque on each body, into the force log ([`super::bodies::forces`]);
    /// nothing without bodies.
    BodyForces,
    /// Cell-centre velocity and the divergence left ([`super::cpu::centres`]).
    Centres,
}

impl StaggeredPass {
    /// One step's passes, in order (the bodies, then GPU Gems 38.3's: advect, diffuse, add forces, project;
    /// then the fluid's forces on the bodies);
    /// [`StaggeredPass::Centres`], which only the views and statistics read, runs once after
    /// a batch of steps.
    pub const STEP: [StaggeredPass; 10] = [
        StaggeredPass::Bodies,
        StaggeredPass::AdvectScalars,
        StaggeredPass::AdvectVelocity,
        StaggeredPass::Viscosity,
        StaggeredPass::Forces,
        StaggeredPass::Impulse,
        StaggeredPass::Divergence,
        StaggeredPass::Solve,
        StaggeredPass::Gradient,
        StaggeredPass::BodyForces,
    ];

    /// The passes of `steps` whole steps: [`Self::STEP`] for each, then
    /// [`StaggeredPass::Centres`] once, which leaves the cell-centre velocity and the divergence
    /// for the views and statistics.
    pub(crate) fn steps(steps: u32) -> Vec<StaggeredPass> {
        let mut passes: Vec<StaggeredPass> = std::iter::repeat_n(Self::STEP, steps as usize).flatten().collect();
        passes.push(StaggeredPass::Centres);
        passes
    }
}

/// What recording a staggered step reads from the model that owns the grid
/// ([`StaggeredPasses::encode`]).
pub(in crate::smoke) struct StepContext<'a> {
    pub device: &'a wgpu::Device,
    /// The device's caps, for what is made on first use.
    pub caps: &'a DeviceCaps,
    pub params: &'a SmokeParams,
    /// The V-cycle plan ([`crate::solver::plan`]), and the steps recorded before these.
    pub plan: CyclePlan,
    pub steps_done: u64,
    /// The passes are whole steps, the first step number `steps_done + 1`, so the V-cycles of
    /// the step that ends at a plan point record their residual after each cycle.
    pub whole_steps: bool,
    /// The residual probes, made on first use.
    pub probes: &'a mut Option<CycleProbes>,
    /// The fields the grid shares with the model (temperature, density, dye, divergence).
    pub fields: &'a mut Fields,
    /// Which impulse uniform the impulse pass reads ([`crate::smoke::fields::IMPULSE_STEP`], or
    /// a splat's).
    pub impulse: usize,
}

/// Grid-wide bind-group index conventions of the staggered passes: `[uv]` the face velocities'
/// read index, `[s]` the scalars', `[k]` the dye's, `[i]` the impulse uniform (0 step, 1 splat).
type Pass<G> = (Kernel, G);

/// The advection: semi-Lagrangian, and MacCormack's correction of its prediction.
struct AdvectionPasses {
    /// `[uv][target]`: target 0 the other ping-pong (semi-Lagrangian), 1 the predictions.
    velocity: Pass<[[wgpu::BindGroup; 2]; 2]>,
    /// Temperature, density and dye: `[uv][s][k][target]`.
    scalars: Pass<[[[[wgpu::BindGroup; 2]; 2]; 2]; 2]>,
    /// `[uv]`.
    maccormack_velocity: Pass<[wgpu::BindGroup; 2]>,
    /// Temperature, density and dye: `[uv][s][k]`.
    maccormack_scalars: Pass<[[[wgpu::BindGroup; 2]; 2]; 2]>,
}

impl AdvectionPasses {
    fn new(device: &wgpu::Device, caps: &DeviceCaps, shared: &Shared<'_>, f: &StaggeredFields) -> Self {
        let [hu, hv, ht, hd] = &f.hats;
        let (u, v) = (f.u.views(), f.v.views());
        let (t, d) = (shared.temperature.views(), shared.density.views());
        let uniform = || shared.uniform.as_entire_binding();
        let advect_velocity =
            Kernel::new(device, caps, "smoke/staggered_advect_velocity", shaders::SMOKE_STAGGERED_ADVECT_VELOCITY);
        let advect_velocity_groups = [0, 1].map(|i| {
            [(&u[1 - i], &v[1 - i]), (hu, hv)].map(|(to_u, to_v)| {
                advect_velocity.bind_group(
                    device,
                    &[uniform(), View(&u[i]), View(&v[i]), View(shared.solid), View(to_u), View(to_v)],
                )
            })
        });
        let maccormack_velocity = Kernel::new(
            device,
            caps,
            "smoke/staggered_maccormack_velocity",
            shaders::SMOKE_STAGGERED_MACCORMACK_VELOCITY,
        );
        let maccormack_velocity_groups = [0, 1].map(|i| {
            maccormack_velocity.bind_group(
                device,
                &[
                    uniform(),
                    View(&u[i]),
                    View(&v[i]),
                    View(hu),
                    View(hv),
                    View(shared.solid),
                    View(&u[1 - i]),
                    View(&v[1 - i]),
                ],
            )
        });
        let c = shared.dye.views();
        let advect_scalars =
            Kernel::new(device, caps, "smoke/staggered_advect_scalars", shaders::SMOKE_STAGGERED_ADVECT_SCALARS);
        let advect_scalars_groups = [0, 1].map(|i| {
            [0, 1].map(|s| {
                [0, 1].map(|k| {
                    [(&t[1 - s], &d[1 - s], &c[1 - k]), (ht, hd, &f.dye_hat)].map(|(to_t, to_d, to_c)| {
                        advect_scalars.bind_group(
                            device,
                            &[
                                uniform(),
                                View(&u[i]),
                                View(&v[i]),
                                View(&t[s]),
                                View(&d[s]),
                                View(&c[k]),
                                View(shared.solid),
                                View(to_t),
                                View(to_d),
                                View(to_c),
                            ],
                        )
                    })
                })
            })
        });
        let maccormack_scalars = Kernel::new(
            device,
            caps,
            "smoke/staggered_maccormack_scalars",
            shaders::SMOKE_STAGGERED_MACCORMACK_SCALARS,
        );
        let maccormack_scalars_groups = [0, 1].map(|i| {
            [0, 1].map(|s| {
                [0, 1].map(|k| {
                    maccormack_scalars.bind_group(
                        device,
                        &[
                            uniform(),
                            View(&u[i]),
                            View(&v[i]),
                            View(&t[s]),
                            View(ht),
                            View(&d[s]),
                            View(hd),
                            View(&c[k]),
                            View(&f.dye_hat),
                            View(shared.solid),
                            View(&t[1 - s]),
                            View(&d[1 - s]),
                            View(&c[1 - k]),
                        ],
                    )
                })
            })
        });
        Self {
            velocity: (advect_velocity, advect_velocity_groups),
            scalars: (advect_scalars, advect_scalars_groups),
            maccormack_velocity: (maccormack_velocity, maccormack_velocity_groups),
            maccormack_scalars: (maccormack_scalars, maccormack_scalars_groups),
        }
    }
}

/// The forces on the faces: viscous diffusion, vorticity confinement, buoyancy.
struct ForcePasses {
    /// `[uv][n]`: n 0 iterate = b -> predictions, 1 predictions -> other ping-pong, 2 other
    /// ping-pong -> predictions.
    viscosity: Pass<[[wgpu::BindGroup; 3]; 2]>,
    /// `[uv]`.
    vorticity: Pass<[wgpu::BindGroup; 2]>,
    /// Confinement's force from the vorticity.
    confinement: Pass<wgpu::BindGroup>,
    /// Confinement's force and buoyancy onto the faces, `[uv][s]`.
    forces: Pass<[[wgpu::BindGroup; 2]; 2]>,
}

impl ForcePasses {
    fn new(device: &wgpu::Device, caps: &DeviceCaps, shared: &Shared<'_>, f: &StaggeredFields) -> Self {
        let [hu, hv, ..] = &f.hats;
        let (u, v) = (f.u.views(), f.v.views());
        let (t, d) = (shared.temperature.views(), shared.density.views());
        let uniform = || shared.uniform.as_entire_binding();
        let viscosity = Kernel::new(device, caps, "smoke/staggered_viscosity", shaders::SMOKE_STAGGERED_VISCOSITY);
        let viscosity_groups = [0, 1].map(|i| {
            let steps =
                [((&u[i], &v[i]), (hu, hv)), ((hu, hv), (&u[1 - i], &v[1 - i])), ((&u[1 - i], &v[1 - i]), (hu, hv))];
            steps.map(|((xu, xv), (ou, ov))| {
                viscosity.bind_group(
                    device,
                    &[uniform(), View(&u[i]), View(&v[i]), View(xu), View(xv), View(shared.solid), View(ou), View(ov)],
                )
            })
        });
        let vorticity = Kernel::new(device, caps, "smoke/staggered_vorticity", shaders::SMOKE_STAGGERED_VORTICITY);
        let vorticity_groups = [0, 1].map(|i| {
            vorticity
                .bind_group(device, &[uniform(), View(&u[i]), View(&v[i]), View(shared.solid), View(shared.vorticity)])
        });
        let confinement =
            Kernel::new(device, caps, "smoke/staggered_confinement", shaders::SMOKE_STAGGERED_CONFINEMENT);
        let confinement_group =
            confinement.bind_group(device, &[uniform(), View(shared.vorticity), View(shared.solid), View(&f.force)]);
        let forces = Kernel::new(device, caps, "smoke/staggered_forces", shaders::SMOKE_STAGGERED_FORCES);
        let forces_groups = [0, 1].map(|i| {
            [0, 1].map(|s| {
                forces.bind_group(
                    device,
                    &[
                        uniform(),
                        View(&u[i]),
                        View(&v[i]),
                        View(&f.force),
                        View(&t[s]),
                        View(&d[s]),
                        View(shared.solid),
                    ],
                )
            })
        });
        Self {
            viscosity: (viscosity, viscosity_groups),
            vorticity: (vorticity, vorticity_groups),
            confinement: (confinement, confinement_group),
            forces: (forces, forces_groups),
        }
    }
}

/// The impulse (sources, splats) over its rectangle.
struct ImpulsePasses {
    /// Temperature, density and faces, `[i][uv][s]`.
    fields: Pass<[[[wgpu::BindGroup; 2]; 2]; 2]>,
    /// `[i][k]`: from the stash (the other dye texture) into dye texture `k`.
    dye: Pass<[[wgpu::BindGroup; 2]; 2]>,
    /// `[i][k]`: dye texture `k`'s rectangle into the other, the stash.
    stash: Pass<[[wgpu::BindGroup; 2]; 2]>,
}

impl ImpulsePasses {
    fn new(device: &wgpu::Device, caps: &DeviceCaps, shared: &Shared<'_>, f: &StaggeredFields) -> Self {
        let (u, v) = (f.u.views(), f.v.views());
        let (t, d) = (shared.temperature.views(), shared.density.views());
        let c = shared.dye.views();
        let impulse = Kernel::new(device, caps, "smoke/staggered_impulse", shaders::SMOKE_STAGGERED_IMPULSE);
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
        let impulse_dye =
            Kernel::new(device, caps, "smoke/staggered_impulse_dye", shaders::SMOKE_STAGGERED_IMPULSE_DYE);
        let impulse_dye_groups = [0, 1].map(|which| {
            [0, 1].map(|k| {
                impulse_dye.bind_group(
                    device,
                    &[shared.impulses[which].as_entire_binding(), View(shared.solid), View(&c[1 - k]), View(&c[k])],
                )
            })
        });
        let stash =
            Kernel::new(device, caps, "smoke/staggered_impulse_dye_stash", shaders::SMOKE_STAGGERED_IMPULSE_DYE_STASH);
        let stash_groups = [0, 1].map(|which| {
            [0, 1].map(|k| {
                stash.bind_group(device, &[shared.impulses[which].as_entire_binding(), View(&c[k]), View(&c[1 - k])])
            })
        });
        Self { fields: (impulse, impulse_groups), dye: (impulse_dye, impulse_dye_groups), stash: (stash, stash_groups) }
    }
}

/// The projection around the solve, and the cell centres after it.
struct ProjectionPasses {
    /// `[uv]`.
    divergence: Pass<[wgpu::BindGroup; 2]>,
    /// `[uv]`.
    gradient: Pass<[wgpu::BindGroup; 2]>,
    /// `[uv]`: the divergence into the packed Jacobi iterations' input.
    divergence_packed: Pass<[wgpu::BindGroup; 2]>,
    /// `[uv][from]`: the gradient from the packed Jacobi iterations' result `from`, unpacking it.
    gradient_packed: Pass<[[wgpu::BindGroup; 2]; 2]>,
    /// `[uv]`.
    centres: Pass<[wgpu::BindGroup; 2]>,
}

impl ProjectionPasses {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        shared: &Shared<'_>,
        f: &StaggeredFields,
        solver: &GpuMultigrid,
    ) -> Self {
        let (u, v) = (f.u.views(), f.v.views());
        let uniform = || shared.uniform.as_entire_binding();
        let divergence = Kernel::new(device, caps, "smoke/staggered_divergence", shaders::SMOKE_STAGGERED_DIVERGENCE);
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
        let gradient = Kernel::new(device, caps, "smoke/staggered_gradient", shaders::SMOKE_STAGGERED_GRADIENT);
        let gradient_groups = [0, 1].map(|i| {
            gradient.bind_group(
                device,
                &[uniform(), View(&u[i]), View(&v[i]), View(shared.solid), View(solver.pressure_view())],
            )
        });
        let jacobi = solver.jacobi();
        let packed_pressures = jacobi.packed_pressure_views();
        let divergence_packed =
            Kernel::new(device, caps, "smoke/staggered_divergence_packed", shaders::SMOKE_STAGGERED_DIVERGENCE_PACKED);
        let divergence_packed_groups = [0, 1].map(|i| {
            divergence_packed.bind_group(
                device,
                &[
                    uniform(),
                    View(&u[i]),
                    View(&v[i]),
                    View(shared.solid),
                    View(solver.pressure_view()),
                    View(shared.divergence),
                    View(jacobi.packed_rhs_view()),
                    View(packed_pressures[0]),
                ],
            )
        });
        let gradient_packed =
            Kernel::new(device, caps, "smoke/staggered_gradient_packed", shaders::SMOKE_STAGGERED_GRADIENT_PACKED);
        let gradient_packed_groups = [0, 1].map(|i| {
            packed_pressures.map(|from| {
                gradient_packed.bind_group(
                    device,
                    &[
                        uniform(),
                        View(&u[i]),
                        View(&v[i]),
                        View(shared.solid),
                        View(from),
                        View(solver.pressure_view()),
                    ],
                )
            })
        });
        let centres = Kernel::new(device, caps, "smoke/staggered_centres", shaders::SMOKE_STAGGERED_CENTRES);
        let centres_groups = [0, 1].map(|i| {
            centres.bind_group(
                device,
                &[uniform(), View(&u[i]), View(&v[i]), View(shared.solid), View(shared.velocity), View(&f.after_view)],
            )
        });
        Self {
            divergence: (divergence, divergence_groups),
            gradient: (gradient, gradient_groups),
            divergence_packed: (divergence_packed, divergence_packed_groups),
            gradient_packed: (gradient_packed, gradient_packed_groups),
            centres: (centres, centres_groups),
        }
    }
}

/// The moving bodies: their move, their rasterisation into the solid bits and the faces beside
/// them, the solve's walls from the solid bits.
struct BodyPasses {
    /// `bodies_move.wgsl`.
    moves: Pass<wgpu::BindGroup>,
    /// `staggered_bodies.wgsl`.
    rasterise: Pass<wgpu::BindGroup>,
    /// `staggered_body_faces.wgsl`, `[uv]`.
    faces: Pass<[wgpu::BindGroup; 2]>,
    /// `staggered_solver_walls.wgsl`.
    solver_walls: Pass<wgpu::BindGroup>,
    /// `staggered_body_forces.wgsl`, `[uv]`.
    forces: Pass<[wgpu::BindGroup; 2]>,
    /// The forces' log, which `forces` writes.
    log: crate::body::forces::ForceLog,
    /// `common/body_dynamics.wgsl`: the free bodies' velocities from the forces just logged.
    dynamics: crate::body::dynamics::BodyDynamics,
    /// `struct BodyRect` of `shaders/smoke/staggered_bodies.wgsl`: the cells the body passes
    /// cover in the steps recorded next.
    rect: wgpu::Buffer,
}

impl BodyPasses {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        shared: &Shared<'_>,
        f: &StaggeredFields,
        solver: &GpuMultigrid,
    ) -> Self {
        let (u, v) = (f.u.views(), f.v.views());
        let uniform = || shared.uniform.as_entire_binding();
        let bodies_move = Kernel::new(device, caps, "smoke/bodies_move", shaders::SMOKE_BODIES_MOVE);
        let bodies_move_group = bodies_move.bind_group(device, &[uniform(), f.bodies.as_entire_binding()]);
        let rasterise = Kernel::new(device, caps, "smoke/staggered_bodies", shaders::SMOKE_STAGGERED_BODIES);
        let body_rect = crate::gpu::uniform_buffer(device, "smoke/body rect", 32);
        let rasterise_group = rasterise.bind_group(
            device,
            &[
                uniform(),
                body_rect.as_entire_binding(),
                f.bodies.as_entire_binding(),
                View(&f.walls_view),
                View(shared.solid),
            ],
        );
        let body_faces = Kernel::new(device, caps, "smoke/staggered_body_faces", shaders::SMOKE_STAGGERED_BODY_FACES);
        let body_faces_groups = [0, 1].map(|i| {
            body_faces.bind_group(
                device,
                &[
                    uniform(),
                    body_rect.as_entire_binding(),
                    f.bodies.as_entire_binding(),
                    View(shared.solid),
                    View(&u[i]),
                    View(&v[i]),
                ],
            )
        });
        let solver_walls =
            Kernel::new(device, caps, "smoke/staggered_solver_walls", shaders::SMOKE_STAGGERED_SOLVER_WALLS);
        let solver_walls_group = solver_walls.bind_group(
            device,
            &[uniform(), View(shared.solid), View(solver.jacobi_walls_view()), View(solver.solid_view())],
        );
        let log = crate::body::forces::ForceLog::with_bodies(device, caps, "smoke/force log", &f.bodies);
        let forces = Kernel::new(device, caps, "smoke/staggered_body_forces", shaders::SMOKE_STAGGERED_BODY_FORCES);
        let forces_groups = [0, 1].map(|i| {
            forces.bind_group(
                device,
                &[
                    uniform(),
                    f.bodies.as_entire_binding(),
                    View(shared.solid),
                    View(&u[i]),
                    View(&v[i]),
                    View(solver.pressure_view()),
                    log.buffer.as_entire_binding(),
                ],
            )
        });
        let dynamics = crate::body::dynamics::BodyDynamics::new(device, caps, &f.bodies, &log.buffer);
        Self {
            dynamics,
            moves: (bodies_move, bodies_move_group),
            rasterise: (rasterise, rasterise_group),
            faces: (body_faces, body_faces_groups),
            solver_walls: (solver_walls, solver_walls_group),
            forces: (forces, forces_groups),
            log,
            rect: body_rect,
        }
    }
}

/// The staggered passes' kernels and bind groups, by stage of the step.
pub(crate) struct StaggeredPasses {
    pub fields: StaggeredFields,
    pub solver: GpuMultigrid,
    advection: AdvectionPasses,
    forces: ForcePasses,
    impulse: ImpulsePasses,
    projection: ProjectionPasses,
    body: BodyPasses,
    /// The bodies as the steps recorded so far leave them, moved on the CPU as the GPU moves
    /// its own (`bodies_move.wgsl`), only to bound the region the body passes cover; the GPU's
    /// are the ones read back. Empty: the body passes do nothing.
    pub bodies: Vec<crate::body::Body>,
    /// The size of the region [`BodyPasses::rect`] holds, cells, and its layers: 1, or the
    /// bodies when it is a square around each.
    rect: (u32, u32, u32),
    /// The nodes each impulse uniform's pass covers (`[i]`), as its uniform's origin says.
    pub(in crate::smoke) impulse_rects: [crate::smoke::fields::ImpulseRect; 2],
    size: (u32, u32),
}

impl StaggeredPasses {
    pub fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        shared: &Shared<'_>,
        fields: StaggeredFields,
        solver: GpuMultigrid,
    ) -> Self {
        let f = &fields;
        Self {
            advection: AdvectionPasses::new(device, caps, shared, f),
            forces: ForcePasses::new(device, caps, shared, f),
            impulse: ImpulsePasses::new(device, caps, shared, f),
            projection: ProjectionPasses::new(device, caps, shared, f, &solver),
            body: BodyPasses::new(device, caps, shared, f, &solver),
            bodies: Vec::new(),
            rect: (0, 0, 0),
            impulse_rects: Default::default(),
            size: (f.after.width(), f.after.height()),
            fields,
            solver,
        }
    }

    /// Records `passes` (the solve among them) into `encoder`: the grid's own step when they
    /// are [`StaggeredPass::STEP`]s. The solve runs packed four cells a texel, and a divergence
    /// recorded just before it packs its input and a gradient just after it unpacks its result
    /// ([`GpuMultigrid::dispatch_solve`]). One compute pass holds them all but where a V-cycle's
    /// residual is measured ([`CycleProbes`]), which needs its own.
    pub(in crate::smoke) fn encode(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        passes: &[StaggeredPass],
        cx: StepContext<'_>,
    ) {
        let moves = passes.iter().filter(|&&p| p == StaggeredPass::Bodies).count() as u32;
        if moves > 0 {
            self.plan_bodies(cx.device, encoder, moves, cx.params.dt, false);
        }
        // The solve runs packed four cells a texel (the Jacobi iterations, and the V-cycles' finest
        // level on all but the smallest grids): a divergence recorded just before it packs its
        // input and a gradient just after it unpacks its result, to the bit as the solve's own
        // pack and unpack would (`dispatch_divergence_packed`, `dispatch_gradient_packed`): two
        // full-grid passes a step fewer.
        let multigrid = cx.params.solver == Solver::Multigrid;
        let packed_solve = !multigrid || self.solver.packs_cycles();
        let (iterations, cycles) = (cx.params.jacobi_iterations, cx.plan.cycles());
        let packs = |n: usize| {
            packed_solve && passes[n] == StaggeredPass::Divergence && passes.get(n + 1) == Some(&StaggeredPass::Solve)
        };
        let unpacks = |n: usize| {
            packed_solve && passes[n] == StaggeredPass::Solve && passes.get(n + 1) == Some(&StaggeredPass::Gradient)
        };
        // The V-cycles of the step ending at a plan point measure the residual after each cycle
        // (not in a browser, where nothing may wait for them).
        let (plan, done) = (cx.plan, cx.steps_done);
        let ends_at_plan_point = |solves: u64| {
            cx.whole_steps
                && cfg!(not(target_arch = "wasm32"))
                && multigrid
                && packed_solve
                && plan.steps_to_plan(done + solves) == 1
        };
        let h2 = cx.params.cell_size * cx.params.cell_size;
        // The packed pressure the solve left its result in, for the gradient that unpacks it.
        let mut result = 0;
        let mut solves = 0;
        let mut open: Option<wgpu::ComputePass<'_>> = None;
        let begin = |encoder: &mut wgpu::CommandEncoder| {
            encoder
                .begin_compute_pass(&wgpu::ComputePassDescriptor {
                    label: Some("smoke staggered step"),
                    timestamp_writes: None,
                })
                .forget_lifetime()
        };
        for (n, &which) in passes.iter().enumerate() {
            let (packed_in, packed_out) = (n > 0 && packs(n - 1), unpacks(n));
            let probes = match which == StaggeredPass::Solve && ends_at_plan_point(solves) {
                true => Some(cx.probes.get_or_insert_with(|| {
                    let mut probes = CycleProbes::new(cx.device, cx.caps, self.size.1);
                    probes.set_dirichlet(&cx.params.dirichlet());
                    probes
                })),
                false => None,
            };
            if let Some(probes) = probes.filter(|p| p.can_record(cycles)) {
                // Cycle by cycle, each result unpacked into the pressure (which the gradient
                // overwrites with the last) and its residual recorded.
                result = 0; // where the divergence (or the pack) put the input
                for k in 0..cycles {
                    let pass = open.get_or_insert_with(|| begin(encoder));
                    result = self.solver.dispatch_probed_cycle(pass, k, packed_in, result);
                    drop(open.take());
                    let fields = (self.solver.pressure_view(), &cx.fields.divergence_view, self.solver.solid_view());
                    probes.encode(k as usize, cx.device, encoder, fields, h2);
                }
                solves += 1;
                continue;
            }
            solves += (which == StaggeredPass::Solve) as u64;
            let pass = open.get_or_insert_with(|| begin(encoder));
            match which {
                StaggeredPass::Divergence if packs(n) => self.dispatch_divergence_packed(pass),
                StaggeredPass::Solve => {
                    let solve = if multigrid { Solve::VCycles(cycles) } else { Solve::Jacobi(iterations) };
                    result = self.solver.dispatch_solve(pass, solve, packed_in, packed_out);
                }
                StaggeredPass::Gradient if n > 0 && unpacks(n - 1) => self.dispatch_gradient_packed(pass, result),
                StaggeredPass::BodyForces => self.dispatch_body_forces(pass, cx.steps_done + solves),
                _ => {
                    let f = &mut *cx.fields;
                    let scalars = (&mut f.temperature, &mut f.density, &mut f.dye);
                    self.dispatch(pass, which, scalars, cx.impulse, cx.params)
                }
            }
        }
    }

    /// Records the bodies' forces pass (nothing without bodies), the free bodies' response to
    /// them (`body_dynamics.wgsl`, with any free body) and their count in the force log, as
    /// model step `step`'s.
    pub fn dispatch_body_forces(&mut self, pass: &mut wgpu::ComputePass<'_>, step: u64) {
        let n = self.bodies.len();
        if n > 0 {
            let group = &self.body.forces.1[self.fields.u.read_index()];
            self.body.forces.0.dispatch(pass, group, 64 * n as u32, 1);
            if self.bodies.iter().any(crate::body::Body::is_free) {
                self.body.dynamics.dispatch(pass, n);
            }
            self.body.log.encode_step(pass, step, n);
        }
    }

    /// Records the write of the free bodies' pass's parameters ([`super::bodies::dynamics`], the
    /// bodies' count).
    pub fn encode_dynamics_params(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        params: &SmokeParams,
    ) {
        let d = super::bodies::dynamics(params, (self.size.0 as usize, self.size.1 as usize));
        self.body.dynamics.encode_params(device, encoder, &d, self.bodies.len());
    }

    /// Takes the free bodies the last read of the force log found into [`Self::bodies`] (the
    /// driven ones there move as the GPU's do).
    pub fn refresh_bodies(&mut self) {
        self.body.log.refresh_free(&mut self.bodies);
    }

    /// [`Self::bodies`] read back from the GPU's table where a body is free
    /// ([`crate::body::table::sync_free`]).
    ///
    /// # Errors
    /// [`crate::gpu::GpuError::DeviceLost`] / [`crate::gpu::GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn sync_bodies(&mut self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<(), crate::gpu::GpuError> {
        crate::body::table::sync_free(device, queue, &self.fields.bodies, &mut self.bodies, &mut self.body.log)
    }

    /// What the free bodies' contact points read and write ([`crate::body::contact::ContactPlan`]):
    /// the body table, the bodies as the steps recorded leave them, and the force log.
    pub fn contact_parts(
        &mut self,
    ) -> (&wgpu::Buffer, &mut Vec<crate::body::Body>, &mut crate::body::forces::ForceLog) {
        (&self.fields.bodies, &mut self.bodies, &mut self.body.log)
    }

    /// The bodies' force log.
    pub fn force_log(&mut self) -> &mut crate::body::forces::ForceLog {
        &mut self.body.log
    }

    /// Records the vorticity pass on the current faces.
    pub fn encode_vorticity(&self, pass: &mut wgpu::ComputePass<'_>) {
        let (w, h) = self.size;
        self.forces.vorticity.0.dispatch(
            pass,
            &self.forces.vorticity.1[self.fields.u.read_index()],
            w.div_ceil(STRIP),
            h,
        );
    }

    /// Records the divergence pass in the form that packs the Jacobi iterations' input itself
    /// (`staggered_divergence_packed.wgsl`: the divergence, and the right-hand side and the
    /// starting pressure into [`crate::solver::packed::PackedJacobi`]'s packed textures 0), in
    /// place of [`StaggeredPass::Divergence`] and the solve's pack; the pressure texture is
    /// left as it was until [`StaggeredPasses::dispatch_gradient_packed`] or an unpack writes
    /// it.
    pub fn dispatch_divergence_packed(&self, pass: &mut wgpu::ComputePass<'_>) {
        let (w, h) = crate::gpu::packed::packed_size(self.size.0, self.size.1);
        self.projection.divergence_packed.0.dispatch(
            pass,
            &self.projection.divergence_packed.1[self.fields.u.read_index()],
            w,
            h,
        );
    }

    /// Records the gradient pass in the form that reads the Jacobi iterations' result from
    /// packed pressure `from` and unpacks it into the pressure texture
    /// (`staggered_gradient_packed.wgsl`), in place of the solve's unpack and
    /// [`StaggeredPass::Gradient`].
    pub fn dispatch_gradient_packed(&self, pass: &mut wgpu::ComputePass<'_>, from: usize) {
        // One invocation a texel of the (W + 1) x (H + 1) face indices, packed.
        let (w, h) = crate::gpu::packed::packed_size(self.size.0 + 1, self.size.1 + 1);
        let group = &self.projection.gradient_packed.1[self.fields.u.read_index()][from];
        self.projection.gradient_packed.0.dispatch(pass, group, w, h);
    }

    /// Bounds the region the body passes of the next `steps` steps cover (the whole grid with
    /// `whole`), records its write, and moves [`StaggeredPasses::bodies`] on by `steps` steps
    /// of `dt`: the reach of every body where it is now (where it was last rasterised, so its
    /// old cells are cleared) and where it will be (motion is linear, so the box between holds
    /// the path), two cells wider for rounding, within the grid; the whole grid with a free
    /// body. Unless `whole`, a square around each body where it is at each step takes its
    /// place when that is fewer cells (`struct BodyRect` in `shaders/common/body.wgsl`).
    pub fn plan_bodies(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        steps: u32,
        dt: f32,
        whole: bool,
    ) {
        if self.bodies.is_empty() {
            return;
        }
        let (w, h) = self.size;
        let mut bounds = [f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY];
        let mut extend = |b: &crate::body::Body| {
            let r = b.reach() + 2.0;
            bounds = [bounds[0].min(b.x - r), bounds[1].min(b.y - r), bounds[2].max(b.x + r), bounds[3].max(b.y + r)];
        };
        for b in &mut self.bodies {
            extend(b);
            for _ in 0..steps {
                b.advance(dt);
            }
            extend(b);
        }
        // Where a free body goes only the GPU knows: the whole grid (or squares around them).
        let free = self.bodies.iter().any(crate::body::Body::is_free);
        let (x0, y0, x1, y1) = if whole || free {
            (0, 0, w, h)
        } else {
            let clamp = |v: f32, hi: u32| v.clamp(0.0, hi as f32) as u32;
            (
                clamp(bounds[0].floor(), w),
                clamp(bounds[1].floor(), h),
                clamp(bounds[2].ceil(), w),
                clamp(bounds[3].ceil(), h),
            )
        };
        let (rw, rh) = (x1.saturating_sub(x0), y1.saturating_sub(y0));
        // Or a square around each body where it is at each step: `half` cells each way from the
        // cell of its centre holds it, where it was a step before (at most MAX_BODY_STEP cells
        // away) and the faces beside both, whichever has fewer cells.
        let reach = self.bodies.iter().map(crate::body::Body::reach).fold(0.0f32, f32::max);
        let half = (reach + crate::smoke::MAX_BODY_STEP + 2.0).ceil() as u32;
        let side = 2 * half + 1;
        let per_body =
            !whole && (self.bodies.len() as u64) * u64::from(side) * u64::from(side) < u64::from(rw) * u64::from(rh);
        self.rect = match per_body {
            true => (side, side, self.bodies.len() as u32),
            false => (rw, rh, 1),
        };
        let rect: [u32; 8] = [x0, y0, self.rect.0, self.rect.1, half, per_body as u32, 0, 0];
        crate::gpu::in_order::write_buffer(device, encoder, &self.body.rect, 0, bytemuck::cast_slice(&rect));
    }

    /// Records the bodies' rasterisation where they are (no move): the solid bits, the faces
    /// beside them, the solve's walls (`staggered_bodies.wgsl`, `staggered_body_faces.wgsl`,
    /// `staggered_solver_walls.wgsl`).
    /// With `multigrid`, also the coarse levels' walls (`GpuMultigrid::dispatch_coarsen_walls`).
    pub fn encode_rasterise(&self, pass: &mut wgpu::ComputePass<'_>, multigrid: bool) {
        let (w, h) = self.size;
        let (rw, rh, layers) = self.rect;
        if rw > 0 && rh > 0 {
            self.body.rasterise.0.dispatch_layers(pass, &self.body.rasterise.1, rw, rh, layers);
            let faces = &self.body.faces.1[self.fields.u.read_index()];
            self.body.faces.0.dispatch_layers(pass, faces, rw, rh, layers);
        }
        let (pw, ph) = crate::gpu::packed::packed_size(w, h);
        self.body.solver_walls.0.dispatch(pass, &self.body.solver_walls.1, pw, ph);
        if multigrid {
            self.solver.dispatch_coarsen_walls(pass);
        }
    }

    /// Records one pass's dispatches (not [`StaggeredPass::Solve`], which records its own
    /// compute passes) and swaps what it wrote: the scalars and the dye (advect scalars), the
    /// faces (advect velocity, viscosity); the impulse changes its fields in place, the dye
    /// through a stash of its rectangle in the dye's other texture. `impulse` picks the impulse
    /// uniform.
    pub fn dispatch(
        &mut self,
        pass: &mut wgpu::ComputePass<'_>,
        which: StaggeredPass,
        scalars: (&mut PingPong, &mut PingPong, &mut PingPong),
        impulse: usize,
        params: &SmokeParams,
    ) {
        let (w, h) = self.size;
        let i = self.fields.u.read_index();
        let s = scalars.0.read_index();
        let k = scalars.2.read_index();
        let maccormack = params.advection == Advection::MacCormack;
        match which {
            StaggeredPass::Bodies => {
                if !self.bodies.is_empty() {
                    self.body.moves.0.dispatch(pass, &self.body.moves.1, self.bodies.len() as u32, 1);
                    self.encode_rasterise(pass, params.solver == crate::smoke::Solver::Multigrid);
                }
            }
            StaggeredPass::AdvectScalars => {
                self.advection.scalars.0.dispatch(pass, &self.advection.scalars.1[i][s][k][maccormack as usize], w, h);
                if maccormack {
                    self.advection.maccormack_scalars.0.dispatch(
                        pass,
                        &self.advection.maccormack_scalars.1[i][s][k],
                        w,
                        h,
                    );
                }
                scalars.0.swap();
                scalars.1.swap();
                scalars.2.swap();
            }
            StaggeredPass::AdvectVelocity => {
                self.advection.velocity.0.dispatch(
                    pass,
                    &self.advection.velocity.1[i][maccormack as usize],
                    w + 1,
                    h + 1,
                );
                if maccormack {
                    self.advection.maccormack_velocity.0.dispatch(
                        pass,
                        &self.advection.maccormack_velocity.1[i],
                        w + 1,
                        h + 1,
                    );
                }
                self.fields.u.swap();
                self.fields.v.swap();
            }
            StaggeredPass::Viscosity => {
                if params.viscosity_for(w as usize) * params.dt == 0.0 {
                    return;
                }
                let groups = &self.forces.viscosity.1[i];
                for n in 0..params.viscosity_iterations() {
                    // b -> scratch, then scratch -> other and other -> scratch by turns: an even
                    // count ends in the other ping-pong.
                    let k = if n == 0 {
                        0
                    } else if n % 2 == 1 {
                        1
                    } else {
                        2
                    };
                    self.forces.viscosity.0.dispatch(pass, &groups[k], w + 1, h + 1);
                }
                self.fields.u.swap();
                self.fields.v.swap();
            }
            StaggeredPass::Forces => {
                if params.vorticity != 0.0 {
                    self.encode_vorticity(pass);
                    self.forces.confinement.0.dispatch(pass, &self.forces.confinement.1, w.div_ceil(STRIP), h);
                }
                self.forces.forces.0.dispatch(pass, &self.forces.forces.1[i][s], w + 1, h + 1);
            }
            StaggeredPass::Impulse => {
                let rect = self.impulse_rects[impulse];
                if !rect.is_empty() {
                    let [cols, rows] = rect.size;
                    // Counted over the rectangle they touch, not the whole textures they bind.
                    let part = f64::from(cols) * f64::from(rows) / (f64::from(w) * f64::from(h));
                    self.impulse.fields.0.dispatch_part(pass, &self.impulse.fields.1[impulse][i][s], cols, rows, part);
                    let stash = &self.impulse.stash;
                    stash.0.dispatch_part(pass, &stash.1[impulse][k], cols, rows, part);
                    self.impulse.dye.0.dispatch_part(pass, &self.impulse.dye.1[impulse][k], cols, rows, part);
                }
            }
            StaggeredPass::Divergence => {
                self.projection.divergence.0.dispatch(pass, &self.projection.divergence.1[i], w, h)
            }
            StaggeredPass::Gradient => {
                self.projection.gradient.0.dispatch(pass, &self.projection.gradient.1[i], w + 1, h + 1)
            }
            StaggeredPass::Centres => self.projection.centres.0.dispatch(pass, &self.projection.centres.1[i], w, h),
            StaggeredPass::Solve | StaggeredPass::BodyForces => unreachable!("{which:?} records itself"),
        }
    }
}
