//! The smoke model on the GPU: six compute passes, `5 + jacobi_iterations` dispatches a step.
//!
//! Textures (`W x H` texels for an `(H, W)` grid), each field its own storage texture:
//! velocity `rg32float`, temperature, density and pressure `r32float`, all ping-ponged (every
//! pass reads one texture and writes the other); divergence `r32float`; solid/source bits
//! `r32uint` (built on the CPU when walls change, so a pass reads one texel for a cell and its
//! four neighbours' walls).
//!
//! Ping-pong parity: velocity swaps in advect, buoyancy, impulse and gradient, temperature and
//! density in advect and impulse, pressure in each Jacobi iteration. A pass reading several
//! ping-pongs therefore keeps bind groups for each combination of their read indices,
//! `[v][s]` (velocity, scalars) or `[v][p]` (velocity, pressure), and picks by the current ones.

use super::{Impulse, SmokeParams, SmokeState, SmokeStats};
use crate::error::Error;
use crate::gpu::{self, GpuError, Kernel, PingPong, binding};
use crate::grid::Grid;
use crate::shaders;
use wgpu::BindingResource::TextureView as View;

/// `@workgroup_size` of every smoke pass: rows of 64 (see `water::gpu`).
const WORKGROUP: (u32, u32) = (64, 1);
const R32: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
const RG32: wgpu::TextureFormat = wgpu::TextureFormat::Rg32Float;
const BITS: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

/// Mirrors `struct SmokeParams` in `shaders/smoke/params.wgsl` (48 bytes).
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
    _pad: [f32; 2],
}

impl From<&SmokeParams> for SmokeUniform {
    fn from(p: &SmokeParams) -> Self {
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
            _pad: [0.0; 2],
        }
    }
}

/// Mirrors `struct Impulse` in `shaders/smoke/impulse.wgsl` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ImpulseUniform {
    center: [f32; 2],
    velocity: [f32; 2],
    radius: f32,
    temperature: f32,
    density: f32,
    sources: u32,
}

impl From<&Impulse> for ImpulseUniform {
    fn from(i: &Impulse) -> Self {
        Self {
            center: [i.center.0, i.center.1],
            velocity: [i.velocity.0, i.velocity.1],
            radius: i.radius,
            temperature: i.temperature,
            density: i.density,
            sources: i.sources as u32,
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

/// Bind groups for every pair of read indices of two ping-pongs, `[a][b]`.
type Pairs = [[wgpu::BindGroup; 2]; 2];

fn pairs(f: impl Fn(usize, usize) -> wgpu::BindGroup) -> Pairs {
    [[f(0, 0), f(0, 1)], [f(1, 0), f(1, 1)]]
}

/// The fields' textures.
struct Fields {
    velocity: PingPong,
    temperature: PingPong,
    density: PingPong,
    pressure: PingPong,
    divergence: wgpu::Texture,
    divergence_view: wgpu::TextureView,
    solid: wgpu::Texture,
    solid_view: wgpu::TextureView,
}

/// The bindings of a pass that reads and rewrites all three advected fields (advect, impulse):
/// uniform (0), velocity, temperature, density read (1-3), solid bits (4), the three written
/// (5-7).
const THREE_FIELDS: [fn(u32) -> wgpu::BindGroupLayoutEntry; 8] = [
    binding::uniform,
    |b| binding::storage_read(b, RG32),
    |b| binding::storage_read(b, R32),
    |b| binding::storage_read(b, R32),
    |b| binding::storage_read(b, BITS),
    |b| binding::storage_write(b, RG32),
    |b| binding::storage_write(b, R32),
    |b| binding::storage_write(b, R32),
];

/// A [`THREE_FIELDS`] kernel.
fn three_field_kernel(device: &wgpu::Device, label: &'static str, source: &str) -> Kernel {
    let entries: Vec<_> = THREE_FIELDS.iter().zip(0..).map(|(entry, b)| entry(b)).collect();
    Kernel::new(device, label, source, WORKGROUP, &entries)
}

/// A [`THREE_FIELDS`] bind group reading velocity `v` and scalars `s`, writing the others.
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
        let kernel = Kernel::new(
            device,
            "smoke/buoyancy",
            shaders::SMOKE_BUOYANCY,
            WORKGROUP,
            &[
                binding::uniform(0),
                binding::storage_read(1, RG32),
                binding::storage_read(2, R32),
                binding::storage_read(3, R32),
                binding::storage_read(4, BITS),
                binding::storage_write(5, RG32),
            ],
        );
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

/// Pass 3: impulse (`impulse.wgsl`), with two uniforms: the step's (the scene's sources) and
/// the splats'. `[uniform][v][s]`.
struct ImpulsePass {
    kernel: Kernel,
    uniforms: [wgpu::Buffer; 2],
    groups: [Pairs; 2],
}

impl ImpulsePass {
    const STEP: usize = 0;
    const SPLAT: usize = 1;

    fn new(device: &wgpu::Device, f: &Fields) -> Self {
        let kernel = three_field_kernel(device, "smoke/impulse", shaders::SMOKE_IMPULSE);
        let size = std::mem::size_of::<ImpulseUniform>();
        let uniforms =
            [gpu::uniform_buffer(device, "smoke/impulse step", size), gpu::uniform_buffer(device, "smoke/splat", size)];
        let groups = [0, 1].map(|u| pairs(|v, s| three_field_group(device, &kernel, &uniforms[u], f, v, s)));
        Self { kernel, uniforms, groups }
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
        let kernel = Kernel::new(
            device,
            "smoke/divergence",
            shaders::SMOKE_DIVERGENCE,
            WORKGROUP,
            &[
                binding::uniform(0),
                binding::storage_read(1, RG32),
                binding::storage_read(2, BITS),
                binding::storage_write(3, R32),
                binding::storage_write(4, R32),
            ],
        );
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

/// Pass 5: one Jacobi iteration (`jacobi.wgsl`). `[p]`.
struct JacobiPass {
    kernel: Kernel,
    groups: [wgpu::BindGroup; 2],
}

impl JacobiPass {
    fn new(device: &wgpu::Device, uniform: &wgpu::Buffer, f: &Fields) -> Self {
        let kernel = Kernel::new(
            device,
            "smoke/jacobi",
            shaders::SMOKE_JACOBI,
            WORKGROUP,
            &[
                binding::uniform(0),
                binding::storage_read(1, R32),
                binding::storage_read(2, R32),
                binding::storage_read(3, BITS),
                binding::storage_write(4, R32),
            ],
        );
        let groups = [0, 1].map(|p| {
            kernel.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    View(&f.pressure.views()[p]),
                    View(&f.divergence_view),
                    View(&f.solid_view),
                    View(&f.pressure.views()[1 - p]),
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
        let kernel = Kernel::new(
            device,
            "smoke/gradient",
            shaders::SMOKE_GRADIENT,
            WORKGROUP,
            &[
                binding::uniform(0),
                binding::storage_read(1, RG32),
                binding::storage_read(2, R32),
                binding::storage_read(3, BITS),
                binding::storage_write(4, RG32),
            ],
        );
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
/// ([`GpuSmoke::run_pass`]; the tests compare each with its CPU mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmokePass {
    /// Semi-Lagrangian advection of velocity, temperature, density ([`super::cpu::advect`]).
    Advect,
    /// Buoyancy ([`super::cpu::buoyancy`]).
    Buoyancy,
    /// The scene sources' impulse ([`super::cpu::impulse`] with [`Impulse::sources`]).
    Impulse,
    /// Divergence, pressure cleared ([`super::cpu::divergence`]).
    Divergence,
    /// One Jacobi iteration ([`super::cpu::jacobi`]).
    Jacobi,
    /// Pressure gradient subtraction ([`super::cpu::gradient`]).
    Gradient,
}

/// The smoke model on a wgpu device (see the module docs for its textures).
///
/// Holds clones of the device and queue it was made with.
pub struct GpuSmoke {
    device: wgpu::Device,
    queue: wgpu::Queue,
    width: u32,
    height: u32,
    params: SmokeParams,
    uniform: wgpu::Buffer,
    fields: Fields,
    solid_mask: Grid<u8>,
    source_mask: Grid<u8>,
    advect: AdvectPass,
    buoyancy: BuoyancyPass,
    impulse: ImpulsePass,
    divergence: DivergencePass,
    jacobi: JacobiPass,
    gradient: GradientPass,
    stats: gpu::Reduction,
    steps: u64,
}

impl GpuSmoke {
    /// Uploads `state` (every field, pressure and divergence included) and builds the passes.
    ///
    /// # Errors
    /// [`Error::Param`] for invalid `params`; [`GpuError::GridTooLarge`] when a side is 0 or
    /// above the device's `max_texture_dimension_2d`; [`GpuError::Validation`] /
    /// `OutOfMemory` if the device rejects a resource.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: &SmokeState,
        params: SmokeParams,
    ) -> Result<Self, Error> {
        params.validate()?;
        let (h, w) = state.shape();
        gpu::check_grid_size(device, w, h)?;
        let size = (w as u32, h as u32);
        let sim = gpu::scoped(device, || {
            let uniform = gpu::uniform_buffer(device, "smoke/params", std::mem::size_of::<SmokeUniform>());
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
            };
            let stats = gpu::Reduction::new(
                device,
                "smoke/stats",
                shaders::SMOKE_STATS,
                size.1,
                &[
                    binding::uniform(1),
                    binding::storage_read(2, RG32),
                    binding::storage_read(3, R32),
                    binding::storage_read(4, R32),
                    binding::storage_read(5, R32),
                    binding::storage_read(6, R32),
                    binding::storage_read(7, BITS),
                ],
            );
            GpuSmoke {
                stats,
                advect: AdvectPass::new(device, &uniform, &fields),
                buoyancy: BuoyancyPass::new(device, &uniform, &fields),
                impulse: ImpulsePass::new(device, &fields),
                divergence: DivergencePass::new(device, &uniform, &fields),
                jacobi: JacobiPass::new(device, &uniform, &fields),
                gradient: GradientPass::new(device, &uniform, &fields),
                device: device.clone(),
                queue: queue.clone(),
                width: size.0,
                height: size.1,
                params,
                uniform,
                fields,
                solid_mask: state.solid.clone(),
                source_mask: state.source.clone(),
                steps: 0,
            }
        })?;
        sim.write_params();
        let f = &sim.fields;
        let velocity: Vec<[f32; 2]> =
            state.velocity_x.as_slice().iter().zip(state.velocity_y.as_slice()).map(|(&x, &y)| [x, y]).collect();
        gpu::upload(&sim.queue, f.velocity.current(), bytemuck::cast_slice(&velocity), 8);
        gpu::upload(&sim.queue, f.temperature.current(), bytemuck::cast_slice(state.temperature.as_slice()), 4);
        gpu::upload(&sim.queue, f.density.current(), bytemuck::cast_slice(state.density.as_slice()), 4);
        gpu::upload(&sim.queue, f.pressure.current(), bytemuck::cast_slice(state.pressure.as_slice()), 4);
        gpu::upload(&sim.queue, &f.divergence, bytemuck::cast_slice(state.divergence.as_slice()), 4);
        let mut sim = sim;
        sim.upload_masks(&state.solid.clone(), &state.source.clone())?;
        Ok(sim)
    }

    fn write_params(&self) {
        self.queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&SmokeUniform::from(&self.params)));
        let step = ImpulseUniform::from(&Impulse::sources(&self.params));
        self.queue.write_buffer(&self.impulse.uniforms[ImpulsePass::STEP], 0, bytemuck::bytes_of(&step));
    }

    /// Replaces the solid and source masks (`(H, W)`, non-zero = solid / source). Fields in
    /// cells that became solid are zeroed by the next step's advection.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if a mask's shape differs from the grid's.
    pub fn upload_masks(&mut self, solid: &Grid<u8>, source: &Grid<u8>) -> Result<(), GpuError> {
        let shape = (self.height as usize, self.width as usize);
        if solid.shape() != shape || source.shape() != shape {
            return Err(GpuError::Validation(format!(
                "masks are {:?} and {:?}, grid is {shape:?}",
                solid.shape(),
                source.shape()
            )));
        }
        self.solid_mask = solid.clone();
        self.source_mask = source.clone();
        let bits = solid_bits(solid, source);
        gpu::upload(&self.queue, &self.fields.solid, bytemuck::cast_slice(&bits), 4);
        Ok(())
    }

    /// The parameters in use.
    pub fn params(&self) -> &SmokeParams {
        &self.params
    }

    /// Changes the parameters from the next step on.
    ///
    /// # Errors
    /// [`Error::Param`] for invalid values; nothing changes.
    pub fn set_params(&mut self, params: SmokeParams) -> Result<(), Error> {
        params.validate()?;
        self.params = params;
        self.write_params();
        Ok(())
    }

    /// Records one pass into `pass` and swaps the ping-pongs it wrote.
    pub fn encode_pass(&mut self, pass: &mut wgpu::ComputePass<'_>, which: SmokePass) {
        let (w, h) = (self.width, self.height);
        let f = &mut self.fields;
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
            SmokePass::Impulse => self.encode_impulse(pass, ImpulsePass::STEP),
            SmokePass::Divergence => self.divergence.kernel.dispatch(pass, &self.divergence.groups[v][p], w, h),
            SmokePass::Jacobi => {
                self.jacobi.kernel.dispatch(pass, &self.jacobi.groups[p], w, h);
                f.pressure.swap();
            }
            SmokePass::Gradient => {
                self.gradient.kernel.dispatch(pass, &self.gradient.groups[v][p], w, h);
                f.velocity.swap();
            }
        }
    }

    fn encode_impulse(&mut self, pass: &mut wgpu::ComputePass<'_>, uniform: usize) {
        let f = &mut self.fields;
        let (v, s) = (f.velocity.read_index(), f.temperature.read_index());
        self.impulse.kernel.dispatch(pass, &self.impulse.groups[uniform][v][s], self.width, self.height);
        f.velocity.swap();
        f.temperature.swap();
        f.density.swap();
    }

    /// Runs one pass now (submitted, not waited for). Does not count as a step.
    pub fn run_pass(&mut self, which: SmokePass) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.encode_pass(&mut pass, which);
        }
        self.queue.submit([encoder.finish()]);
    }

    /// Records `steps` steps into `encoder` (one compute pass, `5 + jacobi_iterations`
    /// dispatches per step).
    pub fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("smoke step"), timestamp_writes: None });
        for _ in 0..steps {
            self.encode_pass(&mut pass, SmokePass::Advect);
            self.encode_pass(&mut pass, SmokePass::Buoyancy);
            self.encode_pass(&mut pass, SmokePass::Impulse);
            self.encode_pass(&mut pass, SmokePass::Divergence);
            for _ in 0..self.params.jacobi_iterations {
                self.encode_pass(&mut pass, SmokePass::Jacobi);
            }
            self.encode_pass(&mut pass, SmokePass::Gradient);
        }
        self.steps += steps as u64;
    }

    /// Applies a splat now (the impulse pass with `impulse`'s disc or sources; submitted).
    pub fn splat(&mut self, impulse: &Impulse) {
        let u = ImpulseUniform::from(impulse);
        self.queue.write_buffer(&self.impulse.uniforms[ImpulsePass::SPLAT], 0, bytemuck::bytes_of(&u));
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.encode_impulse(&mut pass, ImpulsePass::SPLAT);
        }
        self.queue.submit([encoder.finish()]);
    }

    /// Totals, extremes, the divergence left after the last projection and non-finite cells,
    /// by a reduction pass on the GPU (`shaders/smoke/stats.wgsl`; one row of numbers per grid
    /// row is read back). Waits for the GPU.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    pub fn stats(&self) -> Result<SmokeStats, GpuError> {
        let f = &self.fields;
        let view = wgpu::BindingResource::TextureView;
        let totals = self.stats.run(
            &self.device,
            &self.queue,
            &[
                self.uniform.as_entire_binding(),
                view(f.velocity.current_view()),
                view(f.temperature.current_view()),
                view(f.density.current_view()),
                view(f.pressure.current_view()),
                view(&f.divergence_view),
                view(&f.solid_view),
            ],
        )?;
        Ok(SmokeStats::from_totals(&totals))
    }

    /// The textures holding the state (velocity, temperature, density, pressure, divergence),
    /// for [`gpu::Checkpoint`].
    pub fn state_textures(&self) -> Vec<&wgpu::Texture> {
        let f = &self.fields;
        vec![f.velocity.current(), f.temperature.current(), f.density.current(), f.pressure.current(), &f.divergence]
    }

    fn read(&self) -> Result<SmokeState, GpuError> {
        let (w, h) = (self.width as usize, self.height as usize);
        let f = &self.fields;
        let scalar =
            |t: &wgpu::Texture| -> Result<Grid<f32>, GpuError> { gpu::read_r32float(&self.device, &self.queue, t) };
        let v: Vec<[f32; 2]> =
            bytemuck::pod_collect_to_vec(&gpu::read_texture(&self.device, &self.queue, f.velocity.current(), 8)?);
        Ok(SmokeState {
            velocity_x: Grid::from_vec(w, h, v.iter().map(|t| t[0]).collect()).expect("size"),
            velocity_y: Grid::from_vec(w, h, v.iter().map(|t| t[1]).collect()).expect("size"),
            temperature: scalar(f.temperature.current())?,
            density: scalar(f.density.current())?,
            pressure: scalar(f.pressure.current())?,
            divergence: scalar(&f.divergence)?,
            solid: self.solid_mask.clone(),
            source: self.source_mask.clone(),
        })
    }

    /// The current velocity texture (`rg32float`, cells per time unit, y down).
    pub fn velocity_view(&self) -> &wgpu::TextureView {
        self.fields.velocity.current_view()
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
        self.fields.pressure.current_view()
    }

    /// The divergence before the last projection (`r32float`).
    pub fn divergence_view(&self) -> &wgpu::TextureView {
        &self.fields.divergence_view
    }

    /// The solid/source bits texture (`r32uint`; bit 0 = solid, bit 5 = source).
    pub fn solid_view(&self) -> &wgpu::TextureView {
        &self.fields.solid_view
    }

    /// `(W, H)` in cells.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The solid and source masks last uploaded, `(H, W)` each, 1 = solid / source.
    pub fn masks(&self) -> (&Grid<u8>, &Grid<u8>) {
        (&self.solid_mask, &self.source_mask)
    }
}

impl crate::Simulation for GpuSmoke {
    type State = SmokeState;

    /// Runs `steps` steps: records them into one command buffer and submits it (does not wait).
    fn step(&mut self, steps: u32) -> Result<(), Error> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_steps(&mut encoder, steps);
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Reads the state back (waits for the GPU); masks are the ones last uploaded.
    fn read_state(&mut self) -> Result<SmokeState, Error> {
        Ok(self.read()?)
    }

    fn steps_done(&self) -> u64 {
        self.steps
    }
}
