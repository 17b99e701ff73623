//! The smoke model on the GPU: the textures and the step, run by the collocated grid's four
//! compute passes ([`super::collocated`]: advect, divergence and gradient a dispatch each, the
//! Jacobi iterations packed four cells a texel, four a dispatch, with a pack and an unpack around
//! them: 18 dispatches a step for 50 iterations) or the
//! staggered grid's ([`super::staggered`]'s `gpu` module), chosen by [`SmokeParams::grid`].
//!
//! Textures (`W x H` texels for an `(H, W)` grid), each field its own storage texture:
//! velocity `rg32float`, temperature, density and pressure `r32float`, all ping-ponged (every
//! pass reads one texture and writes the other); divergence `r32float`; solid/source bits
//! `r32uint` (built on the CPU when walls change, so a pass reads one texel for a cell and its
//! four neighbours' walls). Which pass swaps which ping-pong: [`super::collocated`].

use super::collocated::{Collocated, SmokePass};
use super::fields::{BITS, Fields, IMPULSE_SPLAT, IMPULSE_STEP, ImpulseRect, R32, RG32, RGBA32};
use super::staggered::bodies as body_cpu;
use super::staggered::{Shared, StaggeredFields, StaggeredPass, StaggeredPasses, StepContext};
use super::{GridLayout, Impulse, SmokeParams, SmokeState, SmokeStats, Solver, check_bodies};
use crate::body::Body;
use crate::body::contact::ContactPlan;
use crate::error::Error;
use crate::gpu::{self, DeviceCaps, GpuError, PingPong};
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::shaders;
use crate::solver::GpuMultigrid;
use crate::solver::gpu::{CycleProbes, ResidualStats};
use crate::solver::plan::CyclePlan;

/// Mirrors `struct SmokeParams` in `shaders/smoke/params.wgsl` (96 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct SmokeUniform {
    dt: f32,
    buoyancy: f32,
    weight: f32,
    ambient_temperature: f32,
    velocity_dissipation: f32,
    temperature_dissipation: f32,
    density_dissipation: f32,
    half_inverse_cell_size: f32,
    alpha: f32,
    gradient_factor: f32,
    warm_start: u32,
    cell_size: f32,
    staggered: u32,
    maccormack: u32,
    viscosity_k: f32,
    lid: f32,
    vorticity: f32,
    edges: u32,
    inflow: f32,
    bodies: u32,
    inflow_profile: u32,
    _pad: [u32; 3],
}

impl SmokeUniform {
    /// For `p` on a grid `width` cells wide (the viscosity may depend on it).
    fn new(p: &SmokeParams, width: u32) -> Self {
        Self {
            dt: p.dt,
            buoyancy: p.buoyancy,
            weight: p.weight,
            ambient_temperature: p.ambient_temperature,
            velocity_dissipation: p.velocity_dissipation,
            temperature_dissipation: p.temperature_dissipation,
            density_dissipation: p.density_dissipation,
            half_inverse_cell_size: p.half_inverse_cell_size(),
            alpha: p.alpha(),
            gradient_factor: p.gradient_factor(),
            warm_start: p.warm_start as u32,
            cell_size: p.cell_size,
            staggered: (p.grid == GridLayout::Staggered) as u32,
            maccormack: (p.advection == super::Advection::MacCormack) as u32,
            viscosity_k: p.viscosity_for(width as usize) * p.dt,
            lid: p.lid,
            vorticity: p.vorticity,
            edges: p.edges.iter().enumerate().map(|(i, e)| (*e as u32) << (2 * i)).sum(),
            inflow: p.inflow,
            bodies: 0,
            inflow_profile: p.inflow_profile as u32,
            _pad: [0; 3],
        }
    }
}

/// Mirrors `struct Impulse` in `shaders/smoke/splat.wgsl` (64 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ImpulseUniform {
    center: [f32; 2],
    velocity: [f32; 2],
    radius: f32,
    temperature: f32,
    density: f32,
    sources: u32,
    dye: [f32; 3],
    _pad: f32,
    origin: [u32; 2],
    _pad2: [u32; 2],
}

impl ImpulseUniform {
    /// `i`, its staggered pass covering the nodes of `rect` ([`ImpulseRect`]).
    fn new(i: &Impulse, rect: ImpulseRect) -> Self {
        Self {
            center: [i.center.0, i.center.1],
            velocity: [i.velocity.0, i.velocity.1],
            radius: i.radius,
            temperature: i.temperature,
            density: i.density,
            sources: i.sources as u32,
            dye: i.dye,
            _pad: 0.0,
            origin: rect.origin,
            _pad2: [0; 2],
        }
    }
}

/// Per cell: bit 0 solid; bits 1..4 the neighbour left / right / above / below is solid or
/// outside the grid; bit 5 source. Row-major `(H, W)` (see `shaders/smoke/params.wgsl`).
fn solid_bits(solid: &Grid<u8>, source: &Grid<u8>) -> Vec<u32> {
    let wall = |r: isize, c: isize| solid.get(r, c).is_none_or(|&s| s != 0);
    let (h, w) = solid.shape();
    let mut bits = Vec::with_capacity(h * w);
    for r in 0..h as isize {
        for c in 0..w as isize {
            let b = wall(r, c) as u32
                | (wall(r, c - 1) as u32) << 1
                | (wall(r, c + 1) as u32) << 2
                | (wall(r - 1, c) as u32) << 3
                | (wall(r + 1, c) as u32) << 4
                | ((source[(r as usize, c as usize)] != 0) as u32) << 5;
            bits.push(b);
        }
    }
    bits
}

/// The passes of the grid in use.
enum Pipeline {
    Collocated(Box<Collocated>),
    Staggered(Box<StaggeredPasses>),
}

/// The smoke model on a wgpu device (see the module docs for its textures).
///
/// Holds clones of the device and queue it was made with.
pub struct GpuSmoke {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The caps it was built with: the residual probes and a rebuild use them again.
    caps: DeviceCaps,
    width: u32,
    height: u32,
    params: SmokeParams,
    uniform: wgpu::Buffer,
    impulses: [wgpu::Buffer; 2],
    fields: Fields,
    solid_mask: Grid<u8>,
    source_mask: Grid<u8>,
    /// The source cells' bounding box, which the step's impulse covers (staggered grid).
    source_rect: ImpulseRect,
    pipeline: Pipeline,
    stats: gpu::Reduction,
    residual: ResidualStats,
    /// V-cycles per step of the multigrid solve, planned at fixed steps by
    /// [`GpuSmoke::plan_solver`] from the residuals after each cycle of the step that ends there
    /// (`probes`, made at the first such step), or the one `plan_residual` measures after the
    /// last.
    plan: CyclePlan,
    plan_residual: ResidualStats,
    probes: Option<CycleProbes>,
    /// The free bodies' contact points ([`crate::body::contact`]).
    contacts: ContactPlan,
    steps: u64,
}

impl GpuSmoke {
    /// Uploads `state` (every field, pressure and divergence included; its velocity moved onto
    /// `params`' grid, [`SmokeState::on_layout`]) and builds the passes of `params`' grid.
    ///
    /// # Errors
    /// [`Error::Param`] for invalid `params`; [`GpuError::GridTooLarge`] when a side is 0 or
    /// above the device's `max_texture_dimension_2d`, less one on the staggered grid (its faces
    /// are one more a side than its cells); [`GpuError::Validation`] / `OutOfMemory` if the
    /// device rejects a resource.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: &SmokeState,
        params: SmokeParams,
    ) -> Result<Self, Error> {
        Self::with_caps(device, &DeviceCaps::of(device), queue, state, params)
    }

    /// [`GpuSmoke::new`] with `device`'s caps handed in rather than derived ([`DeviceCaps::of`]);
    /// a change of grid rebuilds with the same caps.
    ///
    /// # Errors
    /// As [`GpuSmoke::new`].
    pub fn with_caps(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        queue: &wgpu::Queue,
        state: &SmokeState,
        params: SmokeParams,
    ) -> Result<Self, Error> {
        params.validate()?;
        let state = state.clone().for_run(&params);
        let (h, w) = state.shape();
        // The staggered grid's faces are one texel more a side than its cells.
        gpu::check_device(device, "smoke", super::STORAGE_TEXTURES_PER_STAGE)?;
        gpu::check_grid_size_with(device, w, h, (params.grid == GridLayout::Staggered) as u32)?;
        let size = (w as u32, h as u32);
        let solver = match params.grid {
            GridLayout::Staggered => {
                Some(GpuMultigrid::new(device, caps, queue, &state.solid, params.dirichlet(), Default::default())?)
            }
            GridLayout::Collocated => None,
        };
        let mut sim = gpu::scoped(device, || {
            let uniform = gpu::uniform_buffer(device, "smoke/params", std::mem::size_of::<SmokeUniform>());
            let impulse_size = std::mem::size_of::<ImpulseUniform>();
            let impulses = [
                gpu::uniform_buffer(device, "smoke/impulse step", impulse_size),
                gpu::uniform_buffer(device, "smoke/splat", impulse_size),
            ];
            let usage = wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::STORAGE_BINDING
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::COPY_DST;
            let divergence = gpu::texture_2d(device, "smoke/divergence", size, R32, usage);
            let solid = gpu::texture_2d(device, "smoke/solid", size, BITS, usage);
            let fields = Fields {
                velocity: PingPong::new(device, "smoke/velocity", size.0, size.1, RG32),
                temperature: PingPong::new(device, "smoke/temperature", size.0, size.1, R32),
                density: PingPong::new(device, "smoke/density", size.0, size.1, R32),
                pressure: PingPong::new(device, "smoke/pressure", size.0, size.1, R32),
                divergence_view: divergence.create_view(&Default::default()),
                divergence,
                solid_view: solid.create_view(&Default::default()),
                solid,
                vorticity_view: gpu::texture_2d(device, "smoke/vorticity", size, R32, usage)
                    .create_view(&Default::default()),
                dye: PingPong::new(device, "smoke/dye", size.0, size.1, RGBA32),
            };
            let stats = gpu::Reduction::new(device, caps, "smoke/stats", shaders::SMOKE_STATS, size.1);
            let pipeline = match solver {
                None => {
                    Pipeline::Collocated(Box::new(Collocated::new(device, caps, queue, &uniform, &impulses, &fields)))
                }
                Some(solver) => {
                    let shared = Shared {
                        uniform: &uniform,
                        impulses: &impulses,
                        temperature: &fields.temperature,
                        density: &fields.density,
                        solid: &fields.solid_view,
                        divergence: &fields.divergence_view,
                        velocity: &fields.velocity.views()[0],
                        vorticity: &fields.vorticity_view,
                        dye: &fields.dye,
                    };
                    let staggered = StaggeredFields::new(device, size);
                    Pipeline::Staggered(Box::new(StaggeredPasses::new(device, caps, &shared, staggered, solver)))
                }
            };
            GpuSmoke {
                stats,
                residual: ResidualStats::new(device, caps, size.1),
                plan_residual: ResidualStats::new(device, caps, size.1),
                probes: None,
                pipeline,
                device: device.clone(),
                caps: caps.clone(),
                queue: queue.clone(),
                width: size.0,
                height: size.1,
                params,
                uniform,
                impulses,
                fields,
                solid_mask: state.solid.clone(),
                source_mask: state.source.clone(),
                source_rect: ImpulseRect::sources(&state.solid, &state.source),
                plan: match state.v_cycle_plan {
                    Some(saved) => CyclePlan::resumed(saved, params.max_cycles, 0),
                    None => CyclePlan::new(params.tolerance, params.max_cycles, 0),
                },
                contacts: ContactPlan::default(),
                steps: 0,
            }
        })?;
        sim.residual.set_dirichlet(&params.dirichlet());
        sim.plan_residual.set_dirichlet(&params.dirichlet());
        let mut encoder = sim.device.create_command_encoder(&Default::default());
        sim.encode_param_writes(&mut encoder);
        sim.queue.submit([encoder.finish()]);
        sim.upload_state(&state);
        if state.bodies.is_empty() {
            sim.upload_masks(&state.solid, &state.source)?;
        } else {
            sim.upload_masks(&body_cpu::walls(&state.solid), &state.source)?;
            sim.set_bodies(&state.bodies)?;
        }
        sim.refresh_centres();
        Ok(sim)
    }

    fn upload_state(&self, state: &SmokeState) {
        let f = &self.fields;
        let q = &self.queue;
        match &self.pipeline {
            Pipeline::Collocated(_) => {
                let velocity: Vec<[f32; 2]> = state
                    .velocity_x
                    .as_slice()
                    .iter()
                    .zip(state.velocity_y.as_slice())
                    .map(|(&x, &y)| [x, y])
                    .collect();
                gpu::upload(q, f.velocity.current(), bytemuck::cast_slice(&velocity), 8);
                gpu::upload(q, f.pressure.current(), bytemuck::cast_slice(state.pressure.as_slice()), 4);
            }
            Pipeline::Staggered(st) => {
                gpu::upload(q, st.fields.u.current(), bytemuck::cast_slice(state.velocity_x.as_slice()), 4);
                gpu::upload(q, st.fields.v.current(), bytemuck::cast_slice(state.velocity_y.as_slice()), 4);
                gpu::upload(q, st.solver.pressure(), bytemuck::cast_slice(state.pressure.as_slice()), 4);
            }
        }
        gpu::upload(q, f.temperature.current(), bytemuck::cast_slice(state.temperature.as_slice()), 4);
        gpu::upload(q, f.density.current(), bytemuck::cast_slice(state.density.as_slice()), 4);
        gpu::upload(q, &f.divergence, bytemuck::cast_slice(state.divergence.as_slice()), 4);
        let [r, g, b] = &state.dye;
        let dye: Vec<[f32; 4]> =
            (0..r.as_slice().len()).map(|i| [r.as_slice()[i], g.as_slice()[i], b.as_slice()[i], 0.0]).collect();
        gpu::upload(q, f.dye.current(), bytemuck::cast_slice(&dye), 16);
    }

    /// Records the writes of every uniform the parameters in use fill (the step's, its sources'
    /// impulse, the collocated solve's right-hand side scale).
    fn encode_param_writes(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let uniform = SmokeUniform { bodies: self.body_count(), ..SmokeUniform::new(&self.params, self.width) };
        gpu::in_order::write_buffer(&self.device, encoder, &self.uniform, 0, bytemuck::bytes_of(&uniform));
        let step = ImpulseUniform::new(&Impulse::sources(&self.params), self.source_rect);
        gpu::in_order::write_buffer(&self.device, encoder, &self.impulses[IMPULSE_STEP], 0, bytemuck::bytes_of(&step));
        if let Pipeline::Staggered(st) = &mut self.pipeline {
            st.impulse_rects[IMPULSE_STEP] = self.source_rect;
        }
        match &self.pipeline {
            Pipeline::Collocated(c) => c.encode_params(&self.device, encoder, &self.params),
            Pipeline::Staggered(st) => st.encode_dynamics_params(&self.device, encoder, &self.params),
        }
    }

    /// Replaces the solid and source masks (`(H, W)`, non-zero = solid / source) at once
    /// ([`GpuSmoke::encode_masks`] in an encoder of its own, submitted).
    ///
    /// # Errors
    /// As [`GpuSmoke::encode_masks`].
    pub fn upload_masks(&mut self, solid: &Grid<u8>, source: &Grid<u8>) -> Result<(), GpuError> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_masks(&mut encoder, solid, source)?;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Records the replacement of the solid and source masks (`(H, W)`, non-zero = solid /
    /// source) into `encoder`, in recording order: the steps recorded before it see the old
    /// masks, those after the new. Fields in cells that became solid are zeroed by the next
    /// step's advection.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if a mask's shape differs from the grid's; nothing is recorded.
    pub fn encode_masks(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        solid: &Grid<u8>,
        source: &Grid<u8>,
    ) -> Result<(), GpuError> {
        crate::scene::check_masks(solid, source, (self.height as usize, self.width as usize))?;
        self.solid_mask = solid.clone();
        self.contacts.replan(self.steps); // the walls changed
        self.source_mask = source.clone();
        self.source_rect = ImpulseRect::sources(solid, source);
        self.encode_param_writes(encoder);
        let bits = solid_bits(solid, source);
        gpu::in_order::upload(&self.device, encoder, &self.fields.solid, bytemuck::cast_slice(&bits), 4);
        match &mut self.pipeline {
            Pipeline::Collocated(c) => c.encode_walls(&self.device, encoder, solid),
            Pipeline::Staggered(st) => {
                st.solver.encode_walls(&self.device, encoder, solid, &self.params.dirichlet());
                gpu::in_order::upload(&self.device, encoder, &st.fields.walls, bytemuck::cast_slice(&bits), 4);
                if !st.bodies.is_empty() {
                    // The bodies back on top of the new walls, where they are.
                    st.plan_bodies(&self.device, encoder, 0, self.params.dt, true);
                    let mut pass = encoder.begin_compute_pass(&Default::default());
                    st.encode_rasterise(&mut pass, self.params.solver == Solver::Multigrid);
                }
            }
        }
        Ok(())
    }

    /// Bodies the model moves each step (0 on the collocated grid, which has none).
    pub fn body_count(&self) -> u32 {
        match &self.pipeline {
            Pipeline::Staggered(st) => st.bodies.len() as u32,
            Pipeline::Collocated(_) => 0,
        }
    }

    /// Records one pass of the collocated step into `pass` and swaps the ping-pongs it wrote.
    ///
    /// # Panics
    /// On the staggered grid ([`GpuSmoke::run_staggered_pass`] runs its passes).
    pub fn encode_pass(&mut self, pass: &mut wgpu::ComputePass<'_>, which: SmokePass) {
        let Pipeline::Collocated(c) = &self.pipeline else {
            panic!("SmokePass is a collocated pass; this model runs the staggered grid");
        };
        c.encode(pass, which, &mut self.fields, (self.width, self.height));
    }

    /// Records staggered passes (the solve among them) into `encoder`
    /// ([`StaggeredPasses::encode`]). `steps`: the passes are whole steps, the first step number
    /// `self.steps + 1`, so the V-cycles of the step that ends at a plan point record their
    /// residual after each cycle ([`CycleProbes`]).
    fn encode_staggered(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        passes: &[StaggeredPass],
        impulse: usize,
        steps: bool,
    ) {
        let Pipeline::Staggered(st) = &mut self.pipeline else {
            panic!("StaggeredPass is a staggered pass; this model runs the collocated grid");
        };
        let cx = StepContext {
            device: &self.device,
            caps: &self.caps,
            params: &self.params,
            plan: self.plan,
            steps_done: self.steps,
            whole_steps: steps,
            probes: &mut self.probes,
            fields: &mut self.fields,
            impulse,
        };
        st.encode(encoder, passes, cx);
    }

    /// Runs one pass of the staggered step now (submitted, not waited for). Does not count as a
    /// step.
    ///
    /// # Panics
    /// On the collocated grid.
    pub fn run_staggered_pass(&mut self, which: StaggeredPass) {
        self.run_staggered_passes(&[which]);
    }

    /// Recomputes the centre velocities from the faces now (the staggered grid's
    /// [`StaggeredPass::Centres`]; nothing on the collocated grid, whose velocity is at the
    /// centres): after the faces were written from outside a step, as a restored checkpoint
    /// writes them, so that the statistics and the views read the faces' velocity.
    pub fn refresh_centres(&mut self) {
        if let Pipeline::Staggered(_) = self.pipeline {
            self.run_staggered_pass(StaggeredPass::Centres);
        }
    }

    /// Runs passes of the staggered step now, recorded together (submitted, not waited for).
    /// Does not count as a step.
    ///
    /// # Panics
    /// On the collocated grid.
    pub fn run_staggered_passes(&mut self, passes: &[StaggeredPass]) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_staggered(&mut encoder, passes, IMPULSE_STEP, false);
        self.queue.submit([encoder.finish()]);
    }

    /// Runs one collocated pass now (submitted, not waited for). Does not count as a step.
    ///
    /// # Panics
    /// On the staggered grid.
    pub fn run_pass(&mut self, which: SmokePass) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.encode_pass(&mut pass, which);
        }
        self.queue.submit([encoder.finish()]);
    }

    /// Applies a splat now ([`GpuSmoke::encode_splat`] in an encoder of its own, submitted).
    pub fn splat(&mut self, impulse: &Impulse) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_splat(&mut encoder, impulse);
        self.queue.submit([encoder.finish()]);
    }

    /// Records a splat into `encoder`: the impulse pass with `impulse`'s disc or sources (its
    /// uniform written by a recorded copy), in recording order: it acts on the fields the steps
    /// recorded before it leave, and the steps recorded after it see its result.
    pub fn encode_splat(&mut self, encoder: &mut wgpu::CommandEncoder, impulse: &Impulse) {
        let rect = ImpulseRect::of(impulse, self.source_rect, (self.width, self.height));
        let u = ImpulseUniform::new(impulse, rect);
        gpu::in_order::write_buffer(&self.device, encoder, &self.impulses[IMPULSE_SPLAT], 0, bytemuck::bytes_of(&u));
        if let Pipeline::Staggered(st) = &mut self.pipeline {
            st.impulse_rects[IMPULSE_SPLAT] = rect;
        }
        match &self.pipeline {
            Pipeline::Collocated(c) => {
                let mut pass = encoder.begin_compute_pass(&Default::default());
                c.encode_splat(&mut pass, &mut self.fields, (self.width, self.height));
            }
            Pipeline::Staggered(_) => {
                self.encode_staggered(encoder, &[StaggeredPass::Impulse, StaggeredPass::Centres], IMPULSE_SPLAT, false)
            }
        }
    }

    /// The statistics from the reductions' totals.
    fn stats_from(&self, totals: &gpu::Totals, norms: (f64, f64)) -> SmokeStats {
        SmokeStats::from_totals(totals, norms, self.multigrid().then_some(self.plan.cycles())).with_cap(&self.params)
    }

    /// Whether the step solves with V-cycles (the staggered grid with `--solver multigrid`).
    fn multigrid(&self) -> bool {
        matches!(self.pipeline, Pipeline::Staggered(_)) && self.params.solver == Solver::Multigrid
    }

    /// V-cycles each step runs now (`--solver multigrid`; see [`GpuSmoke::plan_solver`]).
    pub fn cycles_per_step(&self) -> u32 {
        self.plan.cycles()
    }

    /// With bodies, a readable copy of the body table (recorded and submitted now) and the
    /// number of bodies in it.
    fn bodies_copy(&self) -> Option<(wgpu::Buffer, usize)> {
        let Pipeline::Staggered(st) = &self.pipeline else { return None };
        if st.bodies.is_empty() {
            return None;
        }
        let copy = crate::body::table::copy(&self.device, &self.queue, &st.fields.bodies, st.bodies.len());
        Some((copy, st.bodies.len()))
    }

    /// The bodies where they are now (read back; waits for the GPU). Empty without bodies.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn bodies(&self) -> Result<Vec<Body>, GpuError> {
        match self.bodies_copy() {
            None => Ok(Vec::new()),
            Some((buffer, n)) => gpu::wait(&self.device, crate::body::table::read(&self.device, &buffer, n))?,
        }
    }

    /// The textures [`assemble`] reads: velocity (`rg32float`) on the collocated grid, or u and
    /// v; then pressure, dye, temperature, density, divergence; with bodies the solid bits last.
    fn state_fields(&self) -> Vec<&wgpu::Texture> {
        let f = &self.fields;
        let mut fields = match &self.pipeline {
            Pipeline::Collocated(_) => vec![f.velocity.current(), f.pressure.current()],
            Pipeline::Staggered(st) => vec![st.fields.u.current(), st.fields.v.current(), st.solver.pressure()],
        };
        fields.extend([f.dye.current(), f.temperature.current(), f.density.current(), &f.divergence]);
        if self.body_count() > 0 {
            fields.push(&f.solid);
        }
        fields
    }

    /// The cell-centre velocity texture (`rg32float`, cells per time unit, y down; face means
    /// on the staggered grid).
    pub fn velocity_view(&self) -> &wgpu::TextureView {
        self.fields.velocity.current_view()
    }

    /// The current dye texture (`rgba32float`, red green blue in `.rgb`).
    pub fn dye_view(&self) -> &wgpu::TextureView {
        self.fields.dye.current_view()
    }

    /// Which grid the model runs.
    pub fn grid(&self) -> GridLayout {
        self.params.grid
    }

    /// The current temperature texture (`r32float`).
    pub fn temperature_view(&self) -> &wgpu::TextureView {
        self.fields.temperature.current_view()
    }

    /// The current density texture (`r32float`).
    pub fn density_view(&self) -> &wgpu::TextureView {
        self.fields.density.current_view()
    }

    /// The last pressure solve's texture (`r32float`).
    pub fn pressure_view(&self) -> &wgpu::TextureView {
        match &self.pipeline {
            Pipeline::Collocated(_) => self.fields.pressure.current_view(),
            Pipeline::Staggered(st) => st.solver.pressure_view(),
        }
    }

    /// The divergence before the last projection (`r32float`).
    pub fn divergence_view(&self) -> &wgpu::TextureView {
        &self.fields.divergence_view
    }

    /// The curl `dv/dx - du/dy` at cell centres (`r32float`, per time unit; staggered grid, 0
    /// on the collocated grid): of the velocity the last confinement saw, or of the current
    /// one after [`GpuSmoke::encode_vorticity`].
    pub fn vorticity_view(&self) -> &wgpu::TextureView {
        &self.fields.vorticity_view
    }

    /// Records the vorticity pass on the current velocity (staggered grid; nothing on the
    /// collocated one), for a view of it: the step computes it only when confinement is on.
    pub fn encode_vorticity(&self, encoder: &mut wgpu::CommandEncoder) {
        if let Pipeline::Staggered(st) = &self.pipeline {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            st.encode_vorticity(&mut pass);
        }
    }

    /// The caps it was built with ([`GpuSmoke::with_caps`]): what its renderer builds uses them.
    pub fn caps(&self) -> &DeviceCaps {
        &self.caps
    }

    /// The solid/source bits texture (`r32uint`; bit 0 = solid, bit 5 = source).
    pub fn solid_view(&self) -> &wgpu::TextureView {
        &self.fields.solid_view
    }

    /// The solid and source masks last uploaded, `(H, W)` each, 1 = solid / source.
    pub fn masks(&self) -> (&Grid<u8>, &Grid<u8>) {
        (&self.solid_mask, &self.source_mask)
    }
}

/// The contract every model keeps ([`GpuModel`]); with `--solver multigrid` the V-cycle
/// count is planned at fixed steps ([`GpuModel::plan_solver`]).
impl GpuModel for GpuSmoke {
    type State = SmokeState;
    type Params = SmokeParams;
    type Stats = SmokeStats;
    const NAME: &'static str = "smoke";

    fn new(device: &wgpu::Device, queue: &wgpu::Queue, state: &SmokeState, params: SmokeParams) -> Result<Self, Error> {
        GpuSmoke::new(device, queue, state, params)
    }

    fn device(&self) -> &wgpu::Device {
        &self.device
    }

    fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    fn steps_recorded(&self) -> u64 {
        self.steps
    }

    fn solid_mask(&self) -> &Grid<u8> {
        &self.solid_mask
    }

    fn source_mask(&self) -> Option<&Grid<u8>> {
        Some(&self.source_mask)
    }

    /// The cell-centred velocity the statistics and views read, from the restored faces.
    fn restored(&mut self) {
        self.refresh_centres();
    }

    /// With the multigrid solver, its V-cycle plan.
    fn solver_plan(&self) -> Option<crate::solver::plan::SavedPlan> {
        self.v_cycle_plan()
    }

    fn restore_solver_plan(&mut self, plan: Option<crate::solver::plan::SavedPlan>) {
        if let (Some(plan), true) = (plan, self.multigrid()) {
            self.plan = CyclePlan::resumed(plan, self.params.max_cycles, self.steps);
        }
    }

    /// The parameters in use.
    fn params(&self) -> SmokeParams {
        self.params
    }

    /// Changes the parameters now ([`GpuSmoke::encode_params`] in an encoder of its own,
    /// submitted). A change of [`SmokeParams::grid`] reads the state back and rebuilds the model
    /// on the new grid ([`SmokeState::on_layout`]).
    ///
    /// # Errors
    /// [`Error::Param`] for invalid values; nothing changes. A GPU error while rebuilding.
    fn set_params(&mut self, params: SmokeParams) -> Result<(), Error> {
        params.validate()?;
        check_bodies(self.body_list(), &params)?;
        if params.grid != self.params.grid {
            #[cfg(not(target_arch = "wasm32"))]
            {
                let steps = self.steps;
                let state = gpu::wait(&self.device, self.read_state_async())??;
                *self = Self::with_caps(&self.device.clone(), &self.caps.clone(), &self.queue.clone(), &state, params)?;
                self.steps = steps;
                // The solver starts again here, with its first plan points (1, 2, 4, 8 steps on).
                self.plan = CyclePlan::new(params.tolerance, params.max_cycles, steps);
                return Ok(());
            }
            #[cfg(target_arch = "wasm32")]
            return Err(Error::Message(
                "in a browser the grid changes only with a reset (moving the state across grids reads it back, \
                 which cannot wait there)"
                    .into(),
            ));
        }
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_params(&mut encoder, params)?;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Records a change of the parameters into `encoder` (the uniforms, by recorded copies):
    /// the steps recorded before it run with the old values, those after with the new. A change
    /// of [`SmokeParams::grid`] cannot be recorded (it reads the state back): use
    /// [`GpuSmoke::set_params`].
    ///
    /// # Errors
    /// [`Error::Param`] for invalid values, [`Error::Message`] for a change of grid; nothing
    /// changes and nothing is recorded.
    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: SmokeParams) -> Result<(), Error> {
        params.validate()?;
        check_bodies(self.body_list(), &params)?;
        if params.grid != self.params.grid {
            return Err(Error::Message(
                "a change of grid moves the state across grids, which reads it back: use set_params, not \
                 encode_params"
                    .into(),
            ));
        }
        if params.solver != self.params.solver || params.max_cycles != self.params.max_cycles {
            self.plan = CyclePlan::new(params.tolerance, params.max_cycles, self.steps);
        }
        let edges_changed = params.dirichlet() != self.params.dirichlet();
        self.params = params;
        self.encode_param_writes(encoder);
        self.residual.set_dirichlet(&params.dirichlet());
        self.plan_residual.set_dirichlet(&params.dirichlet());
        if let Some(probes) = &mut self.probes {
            probes.set_dirichlet(&params.dirichlet());
        }
        if edges_changed {
            // The solver's walls carry the edges held at pressure 0: written again, with them.
            let (solid, source) = (self.solid_mask.clone(), self.source_mask.clone());
            self.encode_masks(encoder, &solid, &source)?;
        }
        Ok(())
    }

    /// Records `steps` steps into `encoder` with the V-cycle count planned so far: an
    /// application recording multigrid steps into its own encoder cuts them at
    /// [`GpuSmoke::steps_to_plan`] and calls [`GpuSmoke::plan_solver`] after submitting each run
    /// (as [`crate::model::Runner::step_in_runs`] does); otherwise the count stays the cold
    /// start's. Each grid records its own step: the collocated grid's four passes
    /// (`collocated.rs`), or the staggered grid's passes ([`StaggeredPass::STEP`] each step, then
    /// [`StaggeredPass::Centres`]; `staggered/gpu.rs`).
    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        match &self.pipeline {
            Pipeline::Collocated(c) => {
                let size = (self.width, self.height);
                c.encode_steps(encoder, steps, self.params.jacobi_iterations, &mut self.fields, size)
            }
            Pipeline::Staggered(_) => self.encode_staggered(encoder, &StaggeredPass::steps(steps), IMPULSE_STEP, true),
        }
        self.steps += steps as u64;
    }

    /// [`GpuSmoke::stats`] as a future that never blocks: it completes once the device
    /// has been polled after the GPU did the work (a frame loop's `device.poll`, any submit, a
    /// browser's event loop; see `gpu::read_texture_async`).
    ///
    /// # Errors
    /// As [`GpuSmoke::stats`].
    async fn stats_async(&self) -> Result<SmokeStats, GpuError> {
        self.stats.settle(&self.device).await;
        self.residual.settle(&self.device).await;
        self.request_stats();
        let totals = self.stats.finish(&self.device).await?;
        let norms = self.residual.finish(&self.device).await?;
        Ok(self.stats_from(&totals, norms))
    }

    /// Records the statistics' reductions into `encoder`: the statistics of the fields where
    /// the encoder has got to, which [`GpuSmoke::collect_stats`] gives once the application
    /// has submitted the encoder and polled its device ([`gpu::Reduction::encode_request`]).
    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder) {
        let f = &self.fields;
        let view = wgpu::BindingResource::TextureView;
        let (pressure, after) = match &self.pipeline {
            Pipeline::Collocated(_) => (f.pressure.current_view(), &f.divergence_view),
            Pipeline::Staggered(st) => (st.solver.pressure_view(), &st.fields.after_view),
        };
        let resources = [
            self.uniform.as_entire_binding(),
            view(f.velocity.current_view()),
            view(f.temperature.current_view()),
            view(f.density.current_view()),
            view(pressure),
            view(&f.divergence_view),
            view(&f.solid_view),
            view(after),
        ];
        self.stats.encode_request(&self.device, encoder, &resources);
        let h2 = self.params.cell_size * self.params.cell_size;
        // The right-hand side h^2 div: the divergence pass packs it for the solve
        // (`dispatch_divergence_packed`), so the divergence gives it.
        let solid = match &self.pipeline {
            Pipeline::Collocated(_) => &f.solid_view,
            Pipeline::Staggered(st) => st.solver.solid_view(),
        };
        let rhs = &f.divergence_view;
        let scale = h2;
        self.residual.encode_request(&self.device, encoder, pressure, rhs, solid, scale);
    }

    /// Whether statistics were asked for and not yet collected (`false`: ask again).
    fn stats_requested(&self) -> bool {
        self.stats.is_requested() || self.residual.is_requested()
    }

    /// The statistics of the last [`GpuSmoke::request_stats`] once both reductions have arrived
    /// (`None`: not yet). Never waits.
    ///
    /// # Errors
    /// As [`GpuSmoke::stats`].
    fn collect_stats(&self) -> Option<Result<SmokeStats, GpuError>> {
        if !(self.stats.ready(&self.device) && self.residual.ready(&self.device)) {
            return None;
        }
        let totals = self.stats.collect(&self.device)?;
        let norms = self.residual.collect(&self.device)?;
        Some(totals.and_then(|t| Ok(self.stats_from(&t, norms?))))
    }

    /// The textures holding the state (velocity or faces, temperature, density, pressure,
    /// divergence; the dye on the staggered grid, where it changes), for [`gpu::Checkpoint`].
    fn state_textures(&self) -> Vec<&wgpu::Texture> {
        let f = &self.fields;
        match &self.pipeline {
            Pipeline::Collocated(_) => vec![
                f.velocity.current(),
                f.temperature.current(),
                f.density.current(),
                f.pressure.current(),
                &f.divergence,
            ],
            Pipeline::Staggered(st) => vec![
                st.fields.u.current(),
                st.fields.v.current(),
                f.temperature.current(),
                f.density.current(),
                st.solver.pressure(),
                &f.divergence,
                f.dye.current(),
            ],
        }
    }

    /// The state's textures, then the solid, source and body bits.
    fn hashed_textures(&self) -> Vec<&wgpu::Texture> {
        let mut textures = self.state_textures();
        textures.push(&self.fields.solid);
        textures
    }

    /// The masks are the ones last uploaded.
    async fn read_state_async(&self) -> Result<SmokeState, GpuError> {
        let fields = self.state_fields();
        let masks = (self.solid_mask.clone(), self.source_mask.clone());
        let (bodies, plan) = (self.bodies_copy(), self.v_cycle_plan());
        let size = (self.width, self.height);
        assemble(&self.device, &self.queue, fields.as_slice(), size, masks, bodies).await.map(|s| s.with_plan(plan))
    }

    /// A reader of the state as it is now, which borrows nothing (see
    /// [`crate::water::GpuWater::state_reader`]).
    fn state_reader(&self) -> impl Future<Output = Result<SmokeState, GpuError>> + 'static {
        let copies = gpu::snapshot_all(&self.device, &self.queue, &self.state_fields());
        let bodies = self.bodies_copy();
        let (device, queue) = (self.device.clone(), self.queue.clone());
        let masks = (self.solid_mask.clone(), self.source_mask.clone());
        let (size, plan) = ((self.width, self.height), self.v_cycle_plan());
        async move {
            let fields: Vec<&wgpu::Texture> = copies.iter().collect();
            assemble(&device, &queue, &fields, size, masks, bodies).await.map(|s| s.with_plan(plan))
        }
    }

    /// `(W, H)` in cells.
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Records the replacement of the bodies ([`crate::body`]; where they are and how they
    /// move) into `encoder`, in recording order, and their rasterisation where they are: the
    /// solid bits, the faces beside them at their velocity, the pressure solve's walls
    /// ([`super::staggered::bodies`]). Each step moves them on. With no bodies the walls alone
    /// come back (the cells the bodies covered open, their faces keeping the bodies' velocity).
    ///
    /// # Errors
    /// [`Error::Message`] for more than [`crate::body::MAX_BODIES`] bodies, bodies on the
    /// collocated grid, a body faster than [`super::MAX_BODY_STEP`] cells a step
    /// ([`check_bodies`]); nothing is recorded.
    fn encode_bodies(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[Body]) -> Result<(), Error> {
        check_bodies(bodies, &self.params)?;
        let Pipeline::Staggered(st) = &mut self.pipeline else {
            return Ok(());
        };
        let had = st.bodies.len();
        st.bodies = bodies.to_vec();
        self.contacts.replan(self.steps);
        st.force_log().bodies_replaced();
        crate::body::table::encode_write(&self.device, encoder, &st.fields.bodies, bodies);
        self.encode_param_writes(encoder);
        let Pipeline::Staggered(st) = &mut self.pipeline else { unreachable!() };
        if !bodies.is_empty() {
            // The whole grid: the old bodies' cells open, the new ones' close.
            st.plan_bodies(&self.device, encoder, 0, self.params.dt, true);
            let mut pass = encoder.begin_compute_pass(&Default::default());
            st.encode_rasterise(&mut pass, self.params.solver == Solver::Multigrid);
        } else if had > 0 {
            let (solid, source) = (self.solid_mask.clone(), self.source_mask.clone());
            self.encode_masks(encoder, &solid, &source)?;
        }
        Ok(())
    }

    /// The free bodies where the last read of the force log found them.
    fn refresh_bodies(&mut self) {
        if let Pipeline::Staggered(st) = &mut self.pipeline {
            st.refresh_bodies();
        }
    }

    /// The bodies read back from the GPU's table, where a body is free (the driven ones the CPU
    /// moves as the GPU does: nothing to read).
    #[cfg(not(target_arch = "wasm32"))]
    fn sync_bodies(&mut self) -> Result<(), GpuError> {
        match &mut self.pipeline {
            Pipeline::Staggered(st) => st.sync_bodies(&self.device, &self.queue),
            Pipeline::Collocated(_) => Ok(()),
        }
    }

    /// The staggered grid's force log (the collocated grid has no bodies).
    fn force_log(&mut self) -> Option<&mut crate::body::forces::ForceLog> {
        match &mut self.pipeline {
            Pipeline::Staggered(st) => Some(st.force_log()),
            Pipeline::Collocated(_) => None,
        }
    }

    /// The bodies as the steps recorded so far leave them: moved on the CPU step by step as the
    /// GPU moves its own (the same arithmetic; [`GpuSmoke::bodies`] reads the GPU's back), for
    /// a front end that finds the body under the pointer without waiting for the GPU. A free
    /// body moves on from where the last read found it at the velocity it had then.
    fn body_list(&self) -> &[Body] {
        match &self.pipeline {
            Pipeline::Staggered(st) => &st.bodies,
            Pipeline::Collocated(_) => &[],
        }
    }

    /// Records a new motion for body `index` (velocity `(vx, vy)`, cells per time unit; `spin`,
    /// radians per time unit) into `encoder`, in recording order: where it is stays the GPU's,
    /// and the faces beside the bodies take their velocities now (a rasterisation over the
    /// cells they cover, as [`GpuSmoke::encode_bodies`] does over the grid).
    ///
    /// # Errors
    /// [`Error::Message`] when there is no body `index`, a value is not finite, or the body would
    /// move faster than [`super::MAX_BODY_STEP`] cells a step; nothing is recorded.
    fn encode_drive(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        index: usize,
        (vx, vy): (f32, f32),
        spin: f32,
    ) -> Result<(), Error> {
        let Pipeline::Staggered(st) = &mut self.pipeline else {
            return Err(Error::Message("no bodies on the collocated grid".into()));
        };
        let params = &self.params;
        let check = |bodies: &[Body]| check_bodies(bodies, params);
        let table = &st.fields.bodies;
        crate::body::table::encode_drive_checked(
            &self.device,
            encoder,
            table,
            &mut st.bodies,
            index,
            (vx, vy),
            spin,
            check,
        )?;
        // The faces beside the bodies at their new velocities now (so that a cell a body leaves
        // next keeps the velocity it has when it leaves), over the cells the bodies cover.
        st.plan_bodies(&self.device, encoder, 0, self.params.dt, false);
        let mut pass = encoder.begin_compute_pass(&Default::default());
        st.encode_rasterise(&mut pass, self.params.solver == Solver::Multigrid);
        Ok(())
    }

    /// Steps that may be recorded before the V-cycle count is planned again: `None` without
    /// V-cycles (Jacobi, or the collocated grid) and without free bodies, `Some(0)` when
    /// [`GpuSmoke::plan_solver`] is due. The V-cycles' plan points are fixed step numbers
    /// ([`crate::solver::plan`]), the free bodies' contact points come where they may touch
    /// something ([`crate::body::contact`]).
    fn steps_to_plan(&self) -> Option<u64> {
        let cycles = self.multigrid().then(|| self.plan.steps_to_plan(self.steps));
        let contacts = self.contacts.steps_to_plan(self.body_list(), self.steps);
        cycles.into_iter().chain(contacts).min()
    }

    /// At a plan point ([`GpuSmoke::steps_to_plan`] is `Some(0)`), measures the relative
    /// residual the last step's solve left and plans the V-cycles of the steps until the next
    /// point ([`crate::solver::plan`]); elsewhere does nothing. Waits for the GPU to finish the
    /// steps submitted so far, so the steps before a plan point must have been submitted.
    /// [`crate::Simulation::step`] and the model layer's steps call it at every plan point, which
    /// makes a multigrid run a function of its input alone, whatever its batching.
    ///
    /// In a browser nothing may wait: the measurement is requested at the plan point and used at
    /// the first call that finds it arrived, so there the count depends on timing.
    ///
    /// At a contact point, the free bodies' contacts with the walls and each other
    /// ([`ContactPlan::plan`], which waits for the GPU there too).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`] when the residual or the bodies cannot
    /// be read back; the count stays.
    fn plan_solver(&mut self) -> Result<(), GpuError> {
        if let Pipeline::Staggered(st) = &mut self.pipeline {
            let d = body_cpu::dynamics(&self.params, (self.width as usize, self.height as usize));
            let walls = crate::body::walls(&self.solid_mask);
            let (device, queue, step) = (&self.device, &self.queue, self.steps);
            let (table, list, log) = st.contact_parts();
            self.contacts.plan(device, queue, table, list, log, &walls, &d, step)?;
        }
        self.plan_cycles()
    }
}

impl GpuSmoke {
    /// The V-cycle plan a state read now keeps ([`SmokeState::v_cycle_plan`]): with the
    /// multigrid solver.
    fn v_cycle_plan(&self) -> Option<crate::solver::plan::SavedPlan> {
        self.multigrid().then(|| self.plan.saved(self.steps))
    }

    /// [`GpuSmoke::plan_solver`]'s V-cycle count.
    fn plan_cycles(&mut self) -> Result<(), GpuError> {
        let Pipeline::Staggered(st) = &self.pipeline else { return Ok(()) };
        if self.params.solver != Solver::Multigrid {
            return Ok(());
        }
        let due = self.plan.steps_to_plan(self.steps) == 0;
        // The right-hand side h^2 div, from the divergence (the divergence pass packs it for the
        // solve).
        let (pressure, rhs, solid) = (st.solver.pressure_view(), &self.fields.divergence_view, st.solver.solid_view());
        let (p, step) = (&self.params, self.steps);
        let h2 = p.cell_size * p.cell_size;
        #[cfg(not(target_arch = "wasm32"))]
        if due {
            let probed = match &mut self.probes {
                Some(probes) => probes.take(&self.device, self.plan.cycles())?,
                None => None,
            };
            let residuals = match probed {
                Some(each) => each,
                None => {
                    let (r, b) = self.plan_residual.norms(&self.device, &self.queue, pressure, rhs, solid, h2)?;
                    vec![r / b]
                }
            };
            self.plan.update(step, &residuals, p.tolerance, p.max_cycles);
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(norms) = self.plan_residual.collect(&self.device) {
            let (r, b) = norms?;
            self.plan.update(step, &[r / b], p.tolerance, p.max_cycles);
        } else if due {
            // Ask (unless the last request is still on its way) and move on to the next point
            // either way, so that the steps are not cut into one-step runs while waiting.
            if !self.plan_residual.is_requested() {
                self.plan_residual.request(&self.device, &self.queue, pressure, rhs, solid, h2);
            }
            self.plan.update(step, &[], p.tolerance, p.max_cycles);
        }
        Ok(())
    }
}

/// The smoke state from [`GpuSmoke::state_fields`]' textures (or copies of them) and the masks.
async fn assemble(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    fields: &[&wgpu::Texture],
    (w, h): (u32, u32),
    (solid, source): (Grid<u8>, Grid<u8>),
    bodies: Option<(wgpu::Buffer, usize)>,
) -> Result<SmokeState, GpuError> {
    let (w, h) = (w as usize, h as usize);
    let scalar = |t| gpu::read_r32float_async(device, queue, t);
    // With bodies the mask is read back too: the bodies' cells are where the GPU put them.
    let (fields, solid) = match &bodies {
        Some(_) => {
            let (last, rest) = fields.split_last().expect("fields");
            let bits: Vec<u32> = bytemuck::pod_collect_to_vec(&gpu::read_texture_async(device, queue, last, 4).await?);
            (rest, Grid::from_vec(w, h, bits.iter().map(|&b| solid_value(b)).collect()).expect("size"))
        }
        None => (fields, solid),
    };
    let bodies = match bodies {
        Some((buffer, n)) => crate::body::table::read(device, &buffer, n).await?,
        None => Vec::new(),
    };
    let (velocity_x, velocity_y, rest) = if fields[0].format() == RG32 {
        let v: Vec<[f32; 2]> =
            bytemuck::pod_collect_to_vec(&gpu::read_texture_async(device, queue, fields[0], 8).await?);
        let component = |k: usize| Grid::from_vec(w, h, v.iter().map(|t| t[k]).collect()).expect("size");
        (component(0), component(1), &fields[1..])
    } else {
        (scalar(fields[0]).await?, scalar(fields[1]).await?, &fields[2..])
    };
    let [pressure, dye, temperature, density, divergence] = rest else {
        unreachable!("state_fields gives pressure, dye, temperature, density, divergence last")
    };
    let texels: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(&gpu::read_texture_async(device, queue, dye, 16).await?);
    let channel = |k: usize| Grid::from_vec(w, h, texels.iter().map(|t| t[k]).collect()).expect("size");
    Ok(SmokeState {
        dye: [channel(0), channel(1), channel(2)],
        velocity_x,
        velocity_y,
        temperature: scalar(temperature).await?,
        density: scalar(density).await?,
        pressure: scalar(pressure).await?,
        divergence: scalar(divergence).await?,
        solid,
        source,
        bodies,
        v_cycle_plan: None,
    })
}

/// A cell's `solid` value ([`body_cpu`]'s: 0 open, 1 wall, `2 + i` body `i`) from its solid bits
/// (`shaders/smoke/params.wgsl`: bit 0 solid, bits 8..15 1 + the covering body's index).
fn solid_value(bits: u32) -> u8 {
    match (bits >> 8) & 255 {
        0 => (bits & 1) as u8,
        id => (id + 1) as u8,
    }
}
