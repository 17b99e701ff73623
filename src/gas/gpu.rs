//! The gas model on the GPU: three compute passes per step (four with the linear
//! reconstruction; with bodies, three before them: [`BodyPasses`]), gather-only.
//!
//! 1. [`FacesPass`] (`shaders/gas/faces.wgsl`): each cell writes the flux across the faces it
//!    owns (E, S, SE, SW) into three `rgba32float` textures (mass flow, momentum x, momentum y;
//!    one channel per face).
//! 2. [`LimitPass`] (`limit.wgsl`): each cell sums what its faces would carry away and writes its
//!    limiter factor (`r32float`).
//! 3. [`ApplyPass`] (`apply.wgsl`): each cell gathers its own faces and those its backward
//!    neighbours own, each scaled by the factor of the cell its mass leaves, then walls, damping,
//!    drain, speed cap and sources; it writes the other state texture of the ping-pong.
//!
//! With the linear reconstruction a pass 0, [`PredictPass`] (`predict.wgsl`), writes each cell's
//! limited slopes and its state half a step on (MUSCL-Hancock) into four `rgba32float` textures,
//! and pass 1 takes its face states from them (`faces_linear.wgsl`), as do the faces into walls
//! in passes 2 and 3 (`ghost.wgsl`).
//!
//! Every face is computed once and read by both of its cells, so what one loses the other
//! gains bit for bit: mass and momentum are conserved up to the rounding of each cell's sum.

use super::{GasBrush, GasParams, GasState, GasStats, Neighbours};
use crate::body::contact::ContactPlan;
use crate::body::dynamics::BodyDynamics;
use crate::body::forces::ForceLog;
use crate::error::Error;
use crate::gpu::{self, DeviceCaps, GpuError, Kernel, PingPong};
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::shaders;

/// Mirrors `struct GasParams` in `shaders/gas/params.wgsl` (80 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct GasUniform {
    diffusion: f32,
    damping: f32,
    drain: f32,
    friction: f32,
    wind: [f32; 2],
    pressure: f32,
    faces: u32,
    flux: u32,
    sound_speed: f32,
    inflow: f32,
    inflow_density: f32,
    edges: [u32; 4],
    bodies: u32,
    _pad: [u32; 3],
}

impl GasUniform {
    /// The uniform of `p` with `bodies` bodies in the body table.
    fn new(p: &GasParams, bodies: u32) -> Self {
        Self {
            diffusion: p.diffusion,
            damping: p.damping,
            drain: p.drain,
            friction: p.friction,
            wind: [p.wind.0, p.wind.1],
            pressure: p.pressure,
            faces: super::lattice::face_count(p.neighbours) as u32,
            flux: p.flux as u32,
            sound_speed: p.sound_speed(),
            inflow: p.inflow,
            inflow_density: p.inflow_density,
            edges: p.edges.map(|e| e as u32),
            bodies,
            _pad: [0; 3],
        }
    }
}

/// Mirrors `struct GasBrush` in `shaders/gas/brush.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct BrushUniform {
    center: [f32; 2],
    velocity: [f32; 2],
    radius: f32,
    scale: f32,
    add: f32,
    radial: f32,
}

/// Per cell: bit 0 wall; bit `1 + k` the neighbour at forward offset `k` ([`super::lattice::FORWARD`])
/// is a wall or outside; bit `5 + k` the same for backward offset `k`; bit 9 source.
/// Row-major `(H, W)`. Built when walls or sources change, so a step reads one texel for all;
/// with bodies, `shaders/gas/bodies.wgsl` adds theirs each step (`shaders/gas/params.wgsl`).
fn solid_bits(solid: &Grid<u8>, source: &Grid<u8>) -> Vec<u32> {
    let wall = |r: isize, c: isize| solid.get(r, c).is_none_or(|&s| s != 0);
    let (h, w) = solid.shape();
    let mut bits = Vec::with_capacity(h * w);
    for r in 0..h as isize {
        for c in 0..w as isize {
            let mut b = wall(r, c) as u32 | ((source[(r as usize, c as usize)] != 0) as u32) << 9;
            for (k, (dc, dr)) in super::lattice::FORWARD.iter().enumerate() {
                b |= (wall(r + dr, c + dc) as u32) << (1 + k);
                b |= (wall(r - dr, c - dc) as u32) << (5 + k);
            }
            bits.push(b);
        }
    }
    bits
}

/// A storage-only texture's view (the face fluxes and limiter factors stay on the GPU).
fn storage_view(
    device: &wgpu::Device,
    label: &str,
    size: (u32, u32),
    format: wgpu::TextureFormat,
) -> wgpu::TextureView {
    gpu::texture_2d(
        device,
        label,
        size,
        format,
        wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING,
    )
    .create_view(&Default::default())
}

/// The `solid` value (`GasState::solid`: 0 open, 1 a wall, `2 + i` body `i`'s) of a cell's
/// bits as `shaders/gas/bodies.wgsl` writes them.
fn solid_value(bits: u32) -> u8 {
    match (bits >> 20) & 31 {
        0 => (bits & 1) as u8,
        id => (id + 1) as u8,
    }
}

use wgpu::BindingResource::TextureView as View;
const RGBA: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

/// The three face textures: mass flow, momentum x, momentum y (channel k = face k).
struct FaceTextures([wgpu::TextureView; 3]);

/// MUSCL-Hancock's predicted states (`predict.wgsl`): `(rho, ux, uy, 0)` half a step on, and
/// the slopes of rho, ux and uy (channel k = face direction k).
struct PredictedTextures([wgpu::TextureView; 4]);

impl PredictedTextures {
    fn views(&self) -> [wgpu::BindingResource<'_>; 4] {
        self.0.each_ref().map(View)
    }
}

/// What the passes that see walls bind besides their own textures: the parameters' uniform,
/// the ping-pong state, the solid bits and the body table; and whether they are built for a
/// grid with bodies (`override BODIES` in `shaders/gas/walls.wgsl`; the build without drops the
/// body code).
struct Walled<'a> {
    with_bodies: bool,
    uniform: &'a wgpu::Buffer,
    state: &'a PingPong,
    solid: &'a wgpu::TextureView,
    bodies: &'a wgpu::Buffer,
    /// The gas's push on each body, apply's fixed-point sums ([`BodyPasses::sums`]).
    sums: &'a wgpu::Buffer,
}

impl Walled<'_> {
    /// `source`'s kernel built for this grid: `[without, with]` its labels (the profile and
    /// the bench name the two builds apart), `override BODIES` set when it has bodies.
    fn kernel(
        &self,
        device: &wgpu::Device,
        caps: &DeviceCaps,
        [without, with]: [&'static str; 2],
        source: &str,
    ) -> Kernel {
        match self.with_bodies {
            false => Kernel::new(device, caps, without, source),
            true => Kernel::with_constants(device, caps, with, source, &[("BODIES", 1.0)]),
        }
    }
}

/// Pass 0 of the linear reconstruction: the predictor (`predict.wgsl`). Bind group `i` reads
/// ping-pong state `i`.
struct PredictPass {
    kernel: Kernel,
    bind_groups: [wgpu::BindGroup; 2],
}

impl PredictPass {
    fn new(device: &wgpu::Device, caps: &DeviceCaps, w: &Walled<'_>, predicted: &PredictedTextures) -> Self {
        let kernel = w.kernel(device, caps, ["gas/predict", "gas/predict_bodies"], shaders::GAS_PREDICT);
        let bind_groups = w.state.views().each_ref().map(|state| {
            let mut entries = vec![w.uniform.as_entire_binding(), View(state), View(w.solid)];
            entries.extend(predicted.views());
            entries.push(w.bodies.as_entire_binding());
            kernel.bind_group(device, &entries)
        });
        Self { kernel, bind_groups }
    }
}

/// Pass 1: faces (`faces.wgsl`), from the cells' values (`faces_constant.wgsl`: binding 1 the
/// state) or the predicted states (`faces_linear.wgsl`: binding 1 the half-step state, 6-8 the
/// slopes). Bind group `i` reads ping-pong state `i`.
struct FacesPass {
    kernel: Kernel,
    bind_groups: [wgpu::BindGroup; 2],
}

impl FacesPass {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        (label, source): (&'static str, &str),
        w: &Walled<'_>,
        faces: &FaceTextures,
        predicted: Option<&PredictedTextures>,
    ) -> Self {
        // One build with or without bodies: a face into a wall (a body's cells are walls in the
        // solid bits) carries nothing, and the faces read no body table.
        let kernel = Kernel::new(device, caps, label, source);
        let bind_groups = w.state.views().each_ref().map(|state| {
            let cells = predicted.map_or(state, |p| &p.0[0]);
            let mut entries = vec![
                w.uniform.as_entire_binding(),
                View(cells),
                View(w.solid),
                View(&faces.0[0]),
                View(&faces.0[1]),
                View(&faces.0[2]),
            ];
            entries.extend(predicted.iter().flat_map(|p| p.0[1..].iter().map(View)));
            kernel.bind_group(device, &entries)
        });
        Self { kernel, bind_groups }
    }
}

/// Pass 2: limiter (`limit.wgsl`; `predicted` given: the linear reconstruction's variant, whose
/// faces into walls read it). Bind group `i` reads ping-pong state `i`.
struct LimitPass {
    kernel: Kernel,
    bind_groups: [wgpu::BindGroup; 2],
}

impl LimitPass {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        w: &Walled<'_>,
        faces: &FaceTextures,
        factor: &wgpu::TextureView,
        predicted: Option<&PredictedTextures>,
    ) -> Self {
        let kernel = match predicted {
            None => w.kernel(device, caps, ["gas/limit", "gas/limit_bodies"], shaders::GAS_LIMIT),
            Some(_) => {
                w.kernel(device, caps, ["gas/limit_linear", "gas/limit_linear_bodies"], shaders::GAS_LIMIT_LINEAR)
            }
        };
        let bind_groups = w.state.views().each_ref().map(|state| {
            let mut entries = vec![
                w.uniform.as_entire_binding(),
                View(state),
                View(&faces.0[0]),
                View(factor),
                View(w.solid),
                w.bodies.as_entire_binding(),
            ];
            entries.extend(predicted.iter().flat_map(|p| p.views()));
            kernel.bind_group(device, &entries)
        });
        Self { kernel, bind_groups }
    }
}

/// Pass 3: gather (`apply.wgsl`; `predicted` as in [`LimitPass`]). Bind group `i` reads
/// ping-pong state `i` and writes `1 - i`.
struct ApplyPass {
    kernel: Kernel,
    bind_groups: [wgpu::BindGroup; 2],
}

impl ApplyPass {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        w: &Walled<'_>,
        faces: &FaceTextures,
        factor: &wgpu::TextureView,
        predicted: Option<&PredictedTextures>,
    ) -> Self {
        let kernel = match predicted {
            None => w.kernel(device, caps, ["gas/apply", "gas/apply_bodies"], shaders::GAS_APPLY),
            Some(_) => {
                w.kernel(device, caps, ["gas/apply_linear", "gas/apply_linear_bodies"], shaders::GAS_APPLY_LINEAR)
            }
        };
        let views = w.state.views();
        let bind_groups = [0, 1].map(|i| {
            let mut entries = vec![
                w.uniform.as_entire_binding(),
                View(&views[i]),
                View(w.solid),
                View(&faces.0[0]),
                View(&faces.0[1]),
                View(&faces.0[2]),
                View(factor),
                View(&views[1 - i]),
                w.bodies.as_entire_binding(),
            ];
            entries.push(w.sums.as_entire_binding());
            entries.extend(predicted.iter().flat_map(|p| p.views()));
            kernel.bind_group(device, &entries)
        });
        Self { kernel, bind_groups }
    }
}

/// The bodies' passes ([`super::bodies`]): they move (`bodies_move.wgsl`), are
/// rasterised into the solid bits over the walls' (`bodies.wgsl`), and the gas of the cells
/// whose coverage changed is handed over (`handoff.wgsl`; bind group `i` reads ping-pong state
/// `i`).
struct BodyPasses {
    /// The body table ([`crate::body::table`]).
    table: wgpu::Buffer,
    /// The walls' and sources' bits (`solid_bits`), which the rasterisation adds the bodies to.
    walls: wgpu::Texture,
    moves: (Kernel, wgpu::BindGroup),
    rasterise: (Kernel, wgpu::BindGroup),
    handoff: (Kernel, [wgpu::BindGroup; 2]),
    /// The gas's push on each body over a step, `(fx, fy, torque)` as fixed-point `i32` sums
    /// that `apply.wgsl` adds to ([`super::bodies::ForceSums`]) and `body_forces.wgsl` logs and
    /// clears (`forces`).
    sums: wgpu::Buffer,
    forces: (Kernel, wgpu::BindGroup),
    log: ForceLog,
    /// The free bodies' answer to the push (`common/body_dynamics.wgsl`), and their contacts.
    dynamics: BodyDynamics,
    contacts: ContactPlan,
    /// The bodies as the steps recorded so far leave them, moved on the CPU as the GPU moves its
    /// own (the same arithmetic); the GPU's are the ones read back. Empty: no body passes run.
    list: Vec<crate::body::Body>,
}

impl BodyPasses {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        uniform: &wgpu::Buffer,
        state: &PingPong,
        solid: &wgpu::TextureView,
        size: (u32, u32),
    ) -> Self {
        let table = crate::body::table::table(device, "gas/bodies");
        let usage =
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_DST;
        let walls = gpu::texture_2d(device, "gas/walls", size, wgpu::TextureFormat::R32Uint, usage);
        let moves = Kernel::new(device, caps, "gas/bodies_move", shaders::GAS_BODIES_MOVE);
        let moves_group = moves.bind_group(device, &[uniform.as_entire_binding(), table.as_entire_binding()]);
        let rasterise = Kernel::new(device, caps, "gas/bodies", shaders::GAS_BODIES);
        let walls_view = walls.create_view(&Default::default());
        let rasterise_group = rasterise.bind_group(
            device,
            &[uniform.as_entire_binding(), table.as_entire_binding(), View(&walls_view), View(solid)],
        );
        let handoff = Kernel::new(device, caps, "gas/handoff", shaders::GAS_HANDOFF);
        let views = state.views();
        let handoff_groups = [0, 1].map(|i| {
            handoff
                .bind_group(device, &[uniform.as_entire_binding(), View(&views[i]), View(solid), View(&views[1 - i])])
        });
        let sums = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("gas/body sums"),
            size: (3 * crate::body::MAX_BODIES * std::mem::size_of::<i32>()) as u64,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let log = ForceLog::with_bodies(device, caps, "gas/force log", &table);
        let forces = Kernel::new(device, caps, "gas/body_forces", shaders::GAS_BODY_FORCES);
        let forces_group = forces.bind_group(
            device,
            &[uniform.as_entire_binding(), sums.as_entire_binding(), log.buffer.as_entire_binding()],
        );
        let dynamics = BodyDynamics::new(device, caps, &table, &log.buffer);
        Self {
            table,
            walls,
            moves: (moves, moves_group),
            rasterise: (rasterise, rasterise_group),
            handoff: (handoff, handoff_groups),
            sums,
            forces: (forces, forces_group),
            log,
            dynamics,
            contacts: ContactPlan::default(),
            list: Vec::new(),
        }
    }

    /// Records the rasterisation where the bodies are and, with `handoff`, the handoff (which
    /// swaps `state`), into an open compute pass.
    fn encode_place(&self, pass: &mut wgpu::ComputePass<'_>, state: &mut PingPong, size: (u32, u32), handoff: bool) {
        self.rasterise.0.dispatch(pass, &self.rasterise.1, size.0, size.1);
        if handoff {
            self.handoff.0.dispatch(pass, &self.handoff.1[state.read_index()], size.0, size.1);
            state.swap();
        }
    }
}

/// The passes that see walls, of one reconstruction (the constant one has no predictor), built
/// for a grid with or without bodies ([`Walled`]).
struct WalledPasses {
    predict: Option<PredictPass>,
    limit: LimitPass,
    apply: ApplyPass,
}

impl WalledPasses {
    fn new(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        w: &Walled<'_>,
        t: &StepTextures,
        predicted: Option<&PredictedTextures>,
    ) -> Self {
        WalledPasses {
            predict: predicted.map(|p| PredictPass::new(device, caps, w, p)),
            limit: LimitPass::new(device, caps, w, &t.faces, &t.factor, predicted),
            apply: ApplyPass::new(device, caps, w, &t.faces, &t.factor, predicted),
        }
    }
}

/// The passes of a step with one reconstruction: the faces, and the passes that see walls
/// without bodies and, once the model has had bodies, with (built then: most models have none).
struct Passes {
    faces: FacesPass,
    without_bodies: WalledPasses,
    with_bodies: Option<WalledPasses>,
}

/// The textures a step writes and reads between its passes.
struct StepTextures {
    faces: FaceTextures,
    factor: wgpu::TextureView,
    predicted: PredictedTextures,
}

/// The gas model on a wgpu device.
///
/// Textures (`W x H` texels for an `(H, W)` grid): state `rgba32float` ping-pong
/// `(rho, mx, my, 0)`, three face textures `rgba32float`, limiter factor `r32float`, wall/source
/// bits `r32uint`. Holds clones of the device and queue it was made with.
pub struct GpuGas {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The caps it was built with: the passes with bodies, built when the first body comes, use
    /// them again.
    caps: DeviceCaps,
    width: u32,
    height: u32,
    params: GasParams,
    uniform: wgpu::Buffer,
    state: PingPong,
    solid_mask: Grid<u8>,
    source_mask: Grid<u8>,
    solid: wgpu::Texture,
    solid_view: wgpu::TextureView,
    bodies: BodyPasses,
    textures: StepTextures,
    constant: Passes,
    linear: Passes,
    brush: gpu::EditPass,
    stats: gpu::Reduction,
    steps: u64,
}

impl GpuGas {
    /// Uploads `state` and builds the passes.
    ///
    /// # Errors
    /// [`Error::Param`] for invalid `params`; [`GpuError::GridTooLarge`] when a side is 0 or above
    /// the device's `max_texture_dimension_2d`; [`GpuError::Validation`] / `OutOfMemory` if the
    /// device rejects a resource.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, state: &GasState, params: GasParams) -> Result<Self, Error> {
        Self::with_caps(device, &DeviceCaps::of(device), queue, state, params)
    }

    /// [`GpuGas::new`] with `device`'s caps handed in rather than derived ([`DeviceCaps::of`]).
    ///
    /// # Errors
    /// As [`GpuGas::new`].
    pub fn with_caps(
        device: &wgpu::Device,
        caps: &DeviceCaps,
        queue: &wgpu::Queue,
        state: &GasState,
        params: GasParams,
    ) -> Result<Self, Error> {
        params.validate()?;
        let (h, w) = state.shape();
        gpu::check_device(device, "gas", super::STORAGE_TEXTURES_PER_STAGE)?;
        gpu::check_grid_size(device, w, h)?;
        let size = (w as u32, h as u32);
        let mut sim = gpu::scoped(device, || {
            let uniform = gpu::uniform_buffer(device, "gas/params", std::mem::size_of::<GasUniform>());
            let pingpong = PingPong::new(device, "gas/state", size.0, size.1, RGBA);
            let bits_usage = wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::STORAGE_BINDING
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::COPY_SRC;
            let solid = gpu::texture_2d(device, "gas/solid", size, wgpu::TextureFormat::R32Uint, bits_usage);
            let solid_view = solid.create_view(&Default::default());
            let textures = StepTextures {
                faces: FaceTextures([
                    storage_view(device, "gas/face_f", size, RGBA),
                    storage_view(device, "gas/face_px", size, RGBA),
                    storage_view(device, "gas/face_py", size, RGBA),
                ]),
                factor: storage_view(device, "gas/factor", size, wgpu::TextureFormat::R32Float),
                predicted: PredictedTextures(
                    ["gas/half_state", "gas/slope_rho", "gas/slope_ux", "gas/slope_uy"]
                        .map(|label| storage_view(device, label, size, RGBA)),
                ),
            };
            let stats = gpu::Reduction::new(device, caps, "gas/stats", shaders::GAS_STATS, size.1);
            let bodies = BodyPasses::new(device, caps, &uniform, &pingpong, &solid_view, size);
            let walled = Walled {
                with_bodies: false,
                uniform: &uniform,
                state: &pingpong,
                solid: &solid_view,
                bodies: &bodies.table,
                sums: &bodies.sums,
            };
            let passes = |predicted: Option<&PredictedTextures>| Passes {
                faces: {
                    let kernel = match predicted {
                        None => ("gas/faces", shaders::GAS_FACES),
                        Some(_) => ("gas/faces_linear", shaders::GAS_FACES_LINEAR),
                    };
                    FacesPass::new(device, caps, kernel, &walled, &textures.faces, predicted)
                },
                without_bodies: WalledPasses::new(device, caps, &walled, &textures, predicted),
                with_bodies: None,
            };
            GpuGas {
                stats,
                constant: passes(None),
                linear: passes(Some(&textures.predicted)),
                textures,
                brush: gpu::EditPass::new(
                    device,
                    caps,
                    "gas/brush",
                    shaders::GAS_BRUSH,
                    std::mem::size_of::<BrushUniform>(),
                    &pingpong,
                    &solid_view,
                ),
                device: device.clone(),
                caps: caps.clone(),
                queue: queue.clone(),
                width: size.0,
                height: size.1,
                params,
                uniform,
                state: pingpong,
                solid_mask: state.solid.clone(),
                source_mask: state.source.clone(),
                solid,
                solid_view,
                bodies,
                steps: 0,
            }
        })?;
        sim.queue.write_buffer(&sim.uniform, 0, bytemuck::bytes_of(&GasUniform::new(&params, 0)));
        let texels: Vec<[f32; 4]> = (0..w * h)
            .map(|i| [state.density.as_slice()[i], state.momentum_x.as_slice()[i], state.momentum_y.as_slice()[i], 0.0])
            .collect();
        gpu::upload(&sim.queue, sim.state.current(), bytemuck::cast_slice(&texels), 16);
        let walls = if state.bodies.is_empty() { state.solid.clone() } else { crate::body::walls(&state.solid) };
        sim.upload_masks(&walls, &state.source)?;
        if !state.bodies.is_empty() {
            // The mask as the state has it (its bodies' cells closed) is where they were before:
            // placing them hands over the gas of the cells whose coverage differs.
            gpu::upload(&sim.queue, &sim.solid, bytemuck::cast_slice(&solid_bits(&state.solid, &state.source)), 4);
            sim.set_bodies(&state.bodies)?;
        }
        Ok(sim)
    }

    fn encode_bodies_placed(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        bodies: &[crate::body::Body],
        handoff: bool,
    ) -> Result<(), Error> {
        super::bodies::check(bodies)?;
        if !bodies.is_empty() && self.constant.with_bodies.is_none() {
            let walled = Walled {
                with_bodies: true,
                uniform: &self.uniform,
                state: &self.state,
                solid: &self.solid_view,
                bodies: &self.bodies.table,
                sums: &self.bodies.sums,
            };
            let (device, caps) = (&self.device, &self.caps);
            self.constant.with_bodies = Some(WalledPasses::new(device, caps, &walled, &self.textures, None));
            let linear = WalledPasses::new(device, caps, &walled, &self.textures, Some(&self.textures.predicted));
            self.linear.with_bodies = Some(linear);
        }
        let had = self.bodies.list.len();
        self.bodies.list = bodies.to_vec();
        self.bodies.log.bodies_replaced();
        self.bodies.contacts.replan(self.steps);
        let d = super::bodies::dynamics((self.width as usize, self.height as usize));
        self.bodies.dynamics.encode_params(&self.device, encoder, &d, bodies.len());
        crate::body::table::encode_write(&self.device, encoder, &self.bodies.table, bodies);
        let uniform = GasUniform::new(&self.params, bodies.len() as u32);
        gpu::in_order::write_buffer(&self.device, encoder, &self.uniform, 0, bytemuck::bytes_of(&uniform));
        if !bodies.is_empty() || had > 0 {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.bodies.encode_place(&mut pass, &mut self.state, (self.width, self.height), handoff);
        }
        Ok(())
    }

    /// Replaces the wall and source masks (`(H, W)`, non-zero = wall / source) and empties the
    /// cells that became walls, at once ([`GpuGas::encode_masks`] in an encoder of its own,
    /// submitted).
    ///
    /// # Errors
    /// As [`GpuGas::encode_masks`].
    pub fn upload_masks(&mut self, solid: &Grid<u8>, source: &Grid<u8>) -> Result<(), GpuError> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_masks(&mut encoder, solid, source)?;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Records the replacement of the wall and source masks (`(H, W)`, non-zero = wall /
    /// source) into `encoder`, in recording order: the bits are written and the cells that
    /// became walls emptied after the work recorded before, before the work recorded after.
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
        let solid = if self.bodies.list.is_empty() { solid.clone() } else { crate::body::walls(solid) };
        let bits = solid_bits(&solid, source);
        self.solid_mask = solid;
        self.source_mask = source.clone();
        self.bodies.contacts.replan(self.steps); // the walls changed
        gpu::in_order::upload(&self.device, encoder, &self.solid, bytemuck::cast_slice(&bits), 4);
        gpu::in_order::upload(&self.device, encoder, &self.bodies.walls, bytemuck::cast_slice(&bits), 4);
        if !self.bodies.list.is_empty() {
            // The bodies back on top of the new walls, where they are.
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.bodies.encode_place(&mut pass, &mut self.state, (self.width, self.height), false);
        }
        // A zero-radius brush changes nothing but empties walls.
        let empty =
            GasBrush { center: (0.0, 0.0), radius: 0.0, scale: 1.0, add: 0.0, velocity: (0.0, 0.0), radial: 0.0 };
        self.encode_brush(encoder, &empty);
        Ok(())
    }

    /// Applies a brush edit now ([`GpuGas::encode_brush`] in an encoder of its own, submitted).
    pub fn brush(&mut self, b: &GasBrush) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_brush(&mut encoder, b);
        self.queue.submit([encoder.finish()]);
    }

    /// Records a brush edit into `encoder` (its uniform written by a recorded copy, then one
    /// compute pass), in recording order: it acts on the state the steps recorded before it
    /// leave, and the steps recorded after it see its result.
    pub fn encode_brush(&mut self, encoder: &mut wgpu::CommandEncoder, b: &GasBrush) {
        let u = BrushUniform {
            center: [b.center.0, b.center.1],
            velocity: [b.velocity.0, b.velocity.1],
            radius: b.radius,
            scale: b.scale,
            add: b.add,
            radial: b.radial,
        };
        self.brush.encode(&self.device, encoder, &mut self.state, bytemuck::bytes_of(&u));
    }

    /// With bodies, a readable copy of the body table (recorded and submitted now) and the
    /// number of bodies in it.
    fn bodies_copy(&self) -> Option<(wgpu::Buffer, usize)> {
        let n = self.bodies.list.len();
        (n > 0).then(|| (crate::body::table::copy(&self.device, &self.queue, &self.bodies.table, n), n))
    }

    /// The current state texture (`rgba32float`: density, momentum x, momentum y, 0).
    pub fn state_view(&self) -> &wgpu::TextureView {
        self.state.current_view()
    }

    /// The wall/source bits texture (`r32uint`; bit 0 = wall or a body's cell, bit 9 = source;
    /// the rest in `shaders/gas/params.wgsl`).
    pub fn solid_view(&self) -> &wgpu::TextureView {
        &self.solid_view
    }

    /// The wall and source masks last uploaded, `(H, W)` each, 1 = wall / source.
    pub fn masks(&self) -> (&Grid<u8>, &Grid<u8>) {
        (&self.solid_mask, &self.source_mask)
    }

    /// The neighbourhood in use.
    pub fn neighbours(&self) -> Neighbours {
        self.params.neighbours
    }
}

/// The contract every model keeps ([`GpuModel`]): the statistics are a reduction pass
/// (`shaders/gas/stats.wgsl`; one row of numbers per grid row is read back): totals, extremes
/// and non-finite cells.
impl GpuModel for GpuGas {
    type State = GasState;
    type Params = GasParams;
    type Stats = GasStats;
    const NAME: &'static str = "gas";

    fn new(device: &wgpu::Device, queue: &wgpu::Queue, state: &GasState, params: GasParams) -> Result<Self, Error> {
        GpuGas::new(device, queue, state, params)
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

    /// The parameters in use.
    fn params(&self) -> GasParams {
        self.params
    }

    /// Records a change of the parameters into `encoder` (the uniform, by a recorded copy): the
    /// steps recorded before it run with the old values, those after with the new.
    ///
    /// # Errors
    /// [`Error::Param`] for invalid values; nothing changes and nothing is recorded.
    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: GasParams) -> Result<(), Error> {
        params.validate()?;
        self.params = params;
        let uniform = GasUniform::new(&params, self.bodies.list.len() as u32);
        gpu::in_order::write_buffer(&self.device, encoder, &self.uniform, 0, bytemuck::bytes_of(&uniform));
        Ok(())
    }

    /// Records `steps` steps into `encoder` (one compute pass; three dispatches per step with
    /// [`Reconstruction::Constant`](super::Reconstruction::Constant): faces, limit, apply; four
    /// with `Linear`: MUSCL-Hancock's predictor first, [`super::cpu::step`]; with bodies, their
    /// move, rasterisation and handoff before those, [`super::bodies::step`]).
    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("gas step"), timestamp_writes: None });
        let (w, h) = (self.width, self.height);
        let passes = match self.params.reconstruction {
            super::Reconstruction::Constant => &self.constant,
            super::Reconstruction::Linear => &self.linear,
        };
        let count = self.bodies.list.len() as u32;
        let free = self.bodies.list.iter().any(crate::body::Body::is_free);
        for s in 0..steps {
            if count > 0 {
                let b = &self.bodies;
                b.moves.0.dispatch(&mut pass, &b.moves.1, count, 1);
                b.encode_place(&mut pass, &mut self.state, (w, h), true);
            }
            let i = self.state.read_index();
            let walled = match (&passes.with_bodies, count) {
                (Some(with), 1..) => with,
                _ => &passes.without_bodies,
            };
            if let Some(predict) = &walled.predict {
                predict.kernel.dispatch(&mut pass, &predict.bind_groups[i], w, h);
            }
            passes.faces.kernel.dispatch(&mut pass, &passes.faces.bind_groups[i], w, h);
            walled.limit.kernel.dispatch(&mut pass, &walled.limit.bind_groups[i], w, h);
            walled.apply.kernel.dispatch(&mut pass, &walled.apply.bind_groups[i], w, h);
            self.state.swap();
            if count > 0 {
                let b = &mut self.bodies;
                b.forces.0.dispatch(&mut pass, &b.forces.1, count, 1);
                if free {
                    b.dynamics.dispatch(&mut pass, count as usize);
                }
                b.log.encode_step(&mut pass, self.steps + s as u64 + 1, count as usize);
            }
        }
        for b in &mut self.bodies.list {
            for _ in 0..steps {
                b.advance(1.0);
            }
        }
        self.steps += steps as u64;
    }

    /// [`GpuGas::stats`] as a future that never blocks: it completes once the device
    /// has been polled after the GPU did the work (a frame loop's `device.poll`, any submit, a
    /// browser's event loop; see `gpu::read_texture_async`).
    ///
    /// # Errors
    /// As [`GpuGas::stats`].
    async fn stats_async(&self) -> Result<GasStats, GpuError> {
        self.stats.settle(&self.device).await;
        self.request_stats();
        Ok(GasStats::from_totals(&self.stats.finish(&self.device).await?))
    }

    /// Records the statistics' reduction into `encoder`: the statistics of the state where the
    /// encoder has got to, which [`GpuGas::collect_stats`] gives once the application has
    /// submitted the encoder and polled its device ([`gpu::Reduction::encode_request`]).
    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder) {
        let resources = [
            wgpu::BindingResource::TextureView(self.state.current_view()),
            wgpu::BindingResource::TextureView(&self.solid_view),
        ];
        self.stats.encode_request(&self.device, encoder, &resources);
    }

    /// Whether statistics were asked for and not yet collected (`false`: ask again).
    fn stats_requested(&self) -> bool {
        self.stats.is_requested()
    }

    /// The statistics of the last [`GpuGas::request_stats`] if they have arrived (`None`: not
    /// yet). Never waits.
    ///
    /// # Errors
    /// As [`GpuGas::stats`].
    fn collect_stats(&self) -> Option<Result<GasStats, GpuError>> {
        Some(self.stats.collect(&self.device)?.map(|t| GasStats::from_totals(&t)))
    }

    /// The texture holding the state, for [`gpu::Checkpoint`].
    fn state_textures(&self) -> Vec<&wgpu::Texture> {
        vec![self.state.current()]
    }

    /// The state, then the wall, source and body bits.
    fn hashed_textures(&self) -> Vec<&wgpu::Texture> {
        vec![self.state.current(), &self.solid]
    }

    /// The masks are the ones last uploaded.
    async fn read_state_async(&self) -> Result<GasState, GpuError> {
        let masks = (self.solid_mask.clone(), self.source_mask.clone());
        let bodies = self.bodies_copy().map(|(table, n)| (&self.solid, table, n));
        assemble(&self.device, &self.queue, self.state.current(), (self.width, self.height), masks, bodies).await
    }

    /// A reader of the state as it is now, which borrows nothing (see
    /// [`crate::water::GpuWater::state_reader`]).
    fn state_reader(&self) -> impl Future<Output = Result<GasState, GpuError>> + 'static {
        // The solid bits only with bodies: without, the mask is the one uploaded.
        let mut textures = vec![self.state.current()];
        let bodies = self.bodies_copy();
        if bodies.is_some() {
            textures.push(&self.solid);
        }
        let copies = gpu::snapshot_all(&self.device, &self.queue, &textures);
        let (device, queue) = (self.device.clone(), self.queue.clone());
        let masks = (self.solid_mask.clone(), self.source_mask.clone());
        let size = (self.width, self.height);
        async move {
            let bodies = bodies.map(|(table, n)| (&copies[1], table, n));
            assemble(&device, &queue, &copies[0], size, masks, bodies).await
        }
    }

    /// `(W, H)` in cells.
    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// Records the replacement of the bodies ([`crate::body`]; where they are and how they move,
    /// velocities in cells/step) into `encoder`, in recording order, and their placing where
    /// they are: the rasterisation and the handoff of the gas in the cells whose coverage changed
    /// ([`super::bodies::place`]). Each step moves them on. With no bodies the cells the bodies
    /// covered open.
    ///
    /// # Errors
    /// [`Error::Message`] for more than [`crate::body::MAX_BODIES`] bodies or one faster than
    /// [`super::bodies::MAX_BODY_SPEED`] ([`super::bodies::check`]); nothing is recorded.
    fn encode_bodies(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[crate::body::Body]) -> Result<(), Error> {
        self.encode_bodies_placed(encoder, bodies, true)
    }

    /// [`GpuGas::encode_bodies`] for a state restored from a checkpoint taken with `bodies`
    /// where they are: the mask rasterised without the handoff, since the restored gas is
    /// already the gas those bodies leave (a handoff from the cells the later steps' bodies
    /// covered would move it again).
    ///
    /// # Errors
    /// As [`GpuGas::encode_bodies`].
    fn encode_bodies_restored(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        bodies: &[crate::body::Body],
    ) -> Result<(), Error> {
        self.encode_bodies_placed(encoder, bodies, false)
    }

    /// The bodies as the steps recorded so far leave them: moved on the CPU step by step as the
    /// GPU moves its own (the same arithmetic; [`GpuGas::read_state_async`] reads the GPU's back),
    /// for a front end that finds the body under the pointer without waiting for the GPU.
    fn body_list(&self) -> &[crate::body::Body] {
        &self.bodies.list
    }

    /// The log of the gas's push on the bodies: the momentum its fluxes carry into their faces
    /// and that bounces off them, each step ([`super::bodies::ForceSums`]).
    fn force_log(&mut self) -> Option<&mut ForceLog> {
        Some(&mut self.bodies.log)
    }

    /// The free bodies where the last read of the force log found them.
    fn refresh_bodies(&mut self) {
        self.bodies.log.refresh_free(&mut self.bodies.list);
    }

    /// The bodies read back from the GPU's table, where a body is free.
    #[cfg(not(target_arch = "wasm32"))]
    fn sync_bodies(&mut self) -> Result<(), GpuError> {
        let b = &mut self.bodies;
        crate::body::table::sync_free(&self.device, &self.queue, &b.table, &mut b.list, &mut b.log)
    }

    /// Steps that may be recorded before the free bodies' next contact point
    /// ([`crate::body::contact`]); `None` without free bodies.
    fn steps_to_plan(&self) -> Option<u64> {
        self.bodies.contacts.steps_to_plan(&self.bodies.list, self.steps)
    }

    /// At a contact point, the free bodies' contacts with the walls and each other
    /// ([`ContactPlan::plan`], which waits for the GPU there); elsewhere nothing.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`] when the bodies cannot be read back.
    fn plan_solver(&mut self) -> Result<(), GpuError> {
        let d = super::bodies::dynamics((self.width as usize, self.height as usize));
        let b = &mut self.bodies;
        b.contacts.plan(&self.device, &self.queue, &b.table, &mut b.list, &mut b.log, &self.solid_mask, &d, self.steps)
    }

    /// Records a new motion for body `index` (velocity `(vx, vy)`, cells/step; `spin`,
    /// radians/step) into `encoder`, in recording order: where it is stays the GPU's.
    ///
    /// # Errors
    /// [`Error::Message`] when there is no body `index`, a value is not finite, or the body
    /// would move faster than [`super::bodies::MAX_BODY_SPEED`]; nothing is recorded.
    fn encode_drive(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        index: usize,
        velocity: (f32, f32),
        spin: f32,
    ) -> Result<(), Error> {
        let b = &mut self.bodies;
        let check = |list: &[crate::body::Body]| super::bodies::check(list);
        crate::body::table::encode_drive_checked(
            &self.device,
            encoder,
            &b.table,
            &mut b.list,
            index,
            velocity,
            spin,
            check,
        )
    }
}

/// The gas state from its `rgba32float` texture (density, momentum x, momentum y) and masks;
/// with bodies, the mask from the solid bits (where the GPU put the bodies) and the bodies from
/// a copy of the body table ([`GpuGas::bodies_copy`]).
async fn assemble(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    state: &wgpu::Texture,
    (w, h): (u32, u32),
    (solid, source): (Grid<u8>, Grid<u8>),
    bodies: Option<(&wgpu::Texture, wgpu::Buffer, usize)>,
) -> Result<GasState, GpuError> {
    let bytes = gpu::read_texture_async(device, queue, state, 16).await?;
    let texels: Vec<[f32; 4]> = bytemuck::pod_collect_to_vec(&bytes);
    let field = |c: usize| Grid::from_vec(w as usize, h as usize, texels.iter().map(|t| t[c]).collect()).expect("size");
    let (solid, bodies) = match bodies {
        None => (solid, Vec::new()),
        Some((bits, table, n)) => {
            let bits: Vec<u32> = bytemuck::pod_collect_to_vec(&gpu::read_texture_async(device, queue, bits, 4).await?);
            let solid = Grid::from_vec(w as usize, h as usize, bits.iter().map(|&b| solid_value(b)).collect());
            (solid.expect("size"), crate::body::table::read(device, &table, n).await?)
        }
    };
    Ok(GasState { density: field(0), momentum_x: field(1), momentum_y: field(2), solid, source, bodies })
}
