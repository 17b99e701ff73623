//! A model written outside eddy and run by eddy: heat diffusion, one WGSL pass and its CPU twin,
//! through the public API only ([`GpuModel`], [`CustomModel`], `eddy_fluid::gpu`'s textures,
//! kernels and reduction). Registered ([`eddy_fluid::model::register`]), it is one of the
//! `eddy` command's models, run by the code that runs eddy's own: `main` is the `eddy` command
//! with heat added, so
//!
//! ```text
//! cargo run --release --example custom_model -- run --mode heat --steps 2000 \
//!     --diffusivity 0.24 --save heat.npz --frames out/ --every 500
//! cargo run --release --example custom_model -- view --mode heat
//! ```
//!
//! step it, print its statistics, save it as `.npz` and draw PNG frames (and the viewer shows
//! it, with its parameter in the panel). Without the registry, [`eddy_fluid::model::Runner`] runs any
//! [`GpuModel`] alone. The tests (`cargo test --release --example custom_model`) hold the GPU
//! step to the CPU twin and both to the exact decay of a cosine mode, and run it through eddy's
//! session and runner.
//!
//! The model: temperature `T`, `(H, W)`, row 0 at the top; walls insulate (no heat crosses a
//! face to a solid cell or the grid's edge). Each step is the explicit five-point scheme
//! (forward Euler in time, central differences in space):
//! `T'[c] = T[c] + a * sum over open neighbours n of (T[n] - T[c])`, `a = kappa dt / dx^2`,
//! stable for `a <= 1/4`. Every face's flux leaves one cell and enters the other, so the total
//! heat is conserved.

use eddy_fluid::gpu::{self, DeviceCaps, GpuError, Kernel, PingPong, Reduction};
use eddy_fluid::gpu_model::ScalarView;
use eddy_fluid::model::custom::CpuStep;
use eddy_fluid::model::{CustomModel, FieldInfo, ModelInfo};
use eddy_fluid::npz::NpzReader;
use eddy_fluid::params::{ParamInfo, ParamSpec, ParamTable, Range, Value};
use eddy_fluid::scene::{Scene, SceneError};
use eddy_fluid::{Error, GpuModel, Grid, ModelState, ModelStats, bytemuck, wgpu};
use std::path::Path;

/// The step (binding 0 the uniform, 1 the temperature read, 2 the solid bits, 3 the temperature
/// written). CPU twin: [`cpu_step`].
const STEP: &str = r#"
struct Heat { a: f32, _pad0: f32, _pad1: f32, _pad2: f32 };

@group(0) @binding(0) var<uniform> heat: Heat;
@group(0) @binding(1) var t_in: texture_2d<f32>;
@group(0) @binding(2) var solid: texture_2d<u32>;
@group(0) @binding(3) var t_out: texture_storage_2d<r32float, write>;

// T[q] - t when q is an open cell inside the grid; 0 across a wall or the edge.
fn flux(q: vec2<i32>, size: vec2<i32>, t: f32) -> f32 {
    if any(q < vec2<i32>(0)) || any(q >= size) || (textureLoad(solid, q, 0).r & 1u) != 0u {
        return 0.0;
    }
    return textureLoad(t_in, q, 0).r - t;
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = vec2<i32>(textureDimensions(t_in));
    let p = vec2<i32>(id.xy);
    if any(p >= size) {
        return;
    }
    let t = textureLoad(t_in, p, 0).r;
    var next = t;
    if (textureLoad(solid, p, 0).r & 1u) == 0u {
        let left = flux(p - vec2<i32>(1, 0), size, t);
        let right = flux(p + vec2<i32>(1, 0), size, t);
        let up = flux(p - vec2<i32>(0, 1), size, t);
        let down = flux(p + vec2<i32>(0, 1), size, t);
        next = t + heat.a * (((left + right) + up) + down);
    }
    textureStore(t_out, p, vec4<f32>(next, 0.0, 0.0, 0.0));
}
"#;

/// The statistics' per-cell half, composed before `eddy_fluid::shaders::REDUCE`: the heat of
/// open cells, non-finite cells, the extremes of open cells. CPU twin: [`HeatStats::of`].
const STATS: &str = r#"
@group(0) @binding(1) var temperature: texture_2d<f32>;
@group(0) @binding(2) var solid_bits: texture_2d<u32>;

fn grid_size() -> vec2<u32> {
    return textureDimensions(temperature);
}

fn cell_quantities(p: vec2<i32>) -> Quantities {
    let t = textureLoad(temperature, p, 0).r;
    let open = (textureLoad(solid_bits, p, 0).r & 1u) == 0u;
    var q: Quantities;
    q.sum = vec4<f32>(select(0.0, t, open), non_finite(t), 0.0, 0.0);
    q.lo = vec2<f32>(select(BIG, t, open), BIG);
    q.hi = vec2<f32>(select(-BIG, t, open), -BIG);
    return q;
}
"#;

/// The model's one parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeatParams {
    /// `a = kappa dt / dx^2`, the share of each neighbour's difference a cell takes a step.
    pub diffusivity: f32,
}

impl Default for HeatParams {
    fn default() -> Self {
        Self { diffusivity: 0.2 }
    }
}

impl ParamTable for HeatParams {
    const TABLE: &'static [ParamSpec<Self>] = &[ParamSpec {
        info: ParamInfo::real(
            "diffusivity",
            "a",
            "cells^2/step",
            Range::open_min(0.0, 0.25, "no diffusion at all", "the explicit scheme is unstable above 1/4"),
        )
        .doc("kappa dt / dx^2 of the five-point scheme", "forward Euler, central differences"),
        get: |p| Value::Real(p.diffusivity),
        set: |p, v| p.diffusivity = v.real(),
    }];
}

/// The temperature and the walls.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatState {
    /// Temperature, `(H, W)`.
    pub temperature: Grid<f32>,
    /// 1 = wall (insulating; its temperature never changes), `(H, W)`.
    pub solid: Grid<u8>,
}

impl ModelState for HeatState {
    fn shape(&self) -> (usize, usize) {
        self.temperature.shape()
    }

    fn solid(&self) -> &Grid<u8> {
        &self.solid
    }

    fn write_npz(&self, npz: &mut eddy_fluid::npz::Npz) -> Result<(), eddy_fluid::scene::SceneError> {
        npz.write_f32("temperature", &self.temperature)?;
        npz.write_u8("solid", &self.solid)
    }
}

/// Total heat, extremes and non-finite cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeatStats {
    /// Sum of the open cells' temperatures.
    pub total_heat: f64,
    /// Coldest open cell.
    pub min: f32,
    /// Hottest open cell.
    pub max: f32,
    /// Cells holding a NaN or an infinity.
    pub non_finite: u64,
}

impl HeatStats {
    /// The CPU twin of the reduction.
    pub fn of(state: &HeatState) -> Self {
        let mut s = HeatStats { total_heat: 0.0, min: f32::INFINITY, max: f32::NEG_INFINITY, non_finite: 0 };
        for (&t, &wall) in state.temperature.as_slice().iter().zip(state.solid.as_slice()) {
            s.non_finite += !t.is_finite() as u64;
            if wall == 0 {
                s.total_heat += t as f64;
                s.min = s.min.min(t);
                s.max = s.max.max(t);
            }
        }
        s
    }
}

impl ModelStats for HeatStats {
    fn total(&self) -> f64 {
        self.total_heat
    }

    fn non_finite(&self) -> u64 {
        self.non_finite
    }

    fn line(&self) -> String {
        format!("total heat {:.4}, open cells {:.4}..{:.4}", self.total_heat, self.min, self.max)
    }
}

/// One step of the CPU twin, in the shader's order of operations.
pub fn cpu_step(state: &mut HeatState, params: &HeatParams) {
    let (h, w) = state.shape();
    let t = state.temperature.clone();
    let open = |r: isize, c: isize| {
        (0..h as isize).contains(&r) && (0..w as isize).contains(&c) && state.solid[(r as usize, c as usize)] == 0
    };
    for r in 0..h {
        for c in 0..w {
            if state.solid[(r, c)] != 0 {
                continue;
            }
            let here = t[(r, c)];
            let flux = |dr: isize, dc: isize| {
                let (rr, cc) = (r as isize + dr, c as isize + dc);
                if open(rr, cc) { t[(rr as usize, cc as usize)] - here } else { 0.0 }
            };
            let sum = ((flux(0, -1) + flux(0, 1)) + flux(-1, 0)) + flux(1, 0);
            state.temperature[(r, c)] = here + params.diffusivity * sum;
        }
    }
}

/// Heat diffusion on the GPU.
pub struct GpuHeat {
    device: wgpu::Device,
    queue: wgpu::Queue,
    params: HeatParams,
    uniform: wgpu::Buffer,
    temperature: PingPong,
    solid: Grid<u8>,
    solid_view: wgpu::TextureView,
    step: Kernel,
    /// The step's bind group reading each of the ping-pong's textures.
    groups: [wgpu::BindGroup; 2],
    stats: Reduction,
    steps: u64,
}

impl GpuHeat {
    fn uniform_bytes(params: &HeatParams) -> [u8; 16] {
        bytemuck::cast([params.diffusivity, 0.0, 0.0, 0.0])
    }
}

impl GpuModel for GpuHeat {
    type State = HeatState;
    type Params = HeatParams;
    type Stats = HeatStats;
    const NAME: &'static str = "heat";

    fn new(device: &wgpu::Device, queue: &wgpu::Queue, state: &HeatState, params: HeatParams) -> Result<Self, Error> {
        params.check()?;
        let (h, w) = state.shape();
        gpu::check_grid_size(device, w, h)?;
        let (width, height) = (w as u32, h as u32);
        // What the adapter changes (whether the pass's reads are fitted to fewer storage
        // textures), derived once for every kernel of the model.
        let caps = DeviceCaps::of(device);
        let model = gpu::scoped(device, || {
            let uniform = gpu::uniform_buffer(device, "heat/params", 16);
            let temperature = PingPong::new(device, "heat/temperature", width, height, wgpu::TextureFormat::R32Float);
            let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
            let solid = gpu::texture_2d(device, "heat/solid", (width, height), wgpu::TextureFormat::R32Uint, usage);
            let bits: Vec<u32> = state.solid.as_slice().iter().map(|&s| (s != 0) as u32).collect();
            gpu::upload(queue, &solid, bytemuck::cast_slice(&bits), 4);
            let solid_view = solid.create_view(&Default::default());
            // `try_new`: a shader that does not parse is an error with its line and column.
            let step = Kernel::try_new(device, &caps, "heat/step", STEP)?;
            let [a, b] = temperature.views();
            let group = |from: &wgpu::TextureView, to: &wgpu::TextureView| {
                let resources = [
                    uniform.as_entire_binding(),
                    wgpu::BindingResource::TextureView(from),
                    wgpu::BindingResource::TextureView(&solid_view),
                    wgpu::BindingResource::TextureView(to),
                ];
                step.bind_group(device, &resources)
            };
            let groups = [group(a, b), group(b, a)];
            let source = format!("{STATS}\n{}", eddy_fluid::shaders::REDUCE);
            let stats = Reduction::try_new(device, &caps, "heat/stats", &source, height)?;
            Ok::<_, GpuError>(GpuHeat {
                device: device.clone(),
                queue: queue.clone(),
                params,
                uniform,
                temperature,
                solid: state.solid.clone(),
                solid_view,
                step,
                groups,
                stats,
                steps: 0,
            })
        })??;
        queue.write_buffer(&model.uniform, 0, &Self::uniform_bytes(&params));
        gpu::upload(queue, model.temperature.current(), bytemuck::cast_slice(state.temperature.as_slice()), 4);
        Ok(model)
    }

    fn device(&self) -> &wgpu::Device {
        &self.device
    }

    fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    fn size(&self) -> (u32, u32) {
        let t = self.temperature.current();
        (t.width(), t.height())
    }

    fn params(&self) -> HeatParams {
        self.params
    }

    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: HeatParams) -> Result<(), Error> {
        params.check()?;
        self.params = params;
        gpu::in_order::write_buffer(&self.device, encoder, &self.uniform, 0, &Self::uniform_bytes(&params));
        Ok(())
    }

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        let (w, h) = self.size();
        let mut pass = encoder.begin_compute_pass(&Default::default());
        for _ in 0..steps {
            self.step.dispatch(&mut pass, &self.groups[self.temperature.read_index()], w, h);
            self.temperature.swap();
        }
        self.steps += steps as u64;
    }

    fn steps_recorded(&self) -> u64 {
        self.steps
    }

    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder) {
        let resources = [
            wgpu::BindingResource::TextureView(self.temperature.current_view()),
            wgpu::BindingResource::TextureView(&self.solid_view),
        ];
        self.stats.encode_request(&self.device, encoder, &resources);
    }

    fn stats_requested(&self) -> bool {
        self.stats.is_requested()
    }

    fn collect_stats(&self) -> Option<Result<HeatStats, GpuError>> {
        Some(self.stats.collect(&self.device)?.map(|t| from_totals(&t)))
    }

    async fn stats_async(&self) -> Result<HeatStats, GpuError> {
        self.stats.settle(&self.device).await;
        self.request_stats();
        Ok(from_totals(&self.stats.finish(&self.device).await?))
    }

    fn state_reader(&self) -> impl Future<Output = Result<HeatState, GpuError>> + 'static {
        let [copy] = gpu::snapshot(&self.device, &self.queue, [self.temperature.current()]);
        let (device, queue, solid) = (self.device.clone(), self.queue.clone(), self.solid.clone());
        async move { Ok(HeatState { temperature: gpu::read_r32float_async(&device, &queue, &copy).await?, solid }) }
    }

    fn state_textures(&self) -> Vec<&wgpu::Texture> {
        vec![self.temperature.current()]
    }

    fn solid_mask(&self) -> &Grid<u8> {
        &self.solid
    }

    fn scalar_view(&self) -> Option<ScalarView<'_>> {
        Some(ScalarView { field: self.temperature.current_view(), solid: &self.solid_view, range: (0.0, 1.0) })
    }
}

/// What eddy's registry knows of heat, so that its session, `eddy run` and `eddy view` run it.
impl CustomModel for GpuHeat {
    const INFO: ModelInfo = ModelInfo {
        name: "heat",
        about: "heat diffusion, the explicit five-point scheme (examples/custom_model.rs)",
        views: &[FieldInfo { name: "temperature", unit: "", shape: "(H, W) float32", doc: "inferno from 0 to 1" }],
        arrays: &[
            FieldInfo { name: "temperature", unit: "", shape: "(H, W) float32", doc: "temperature, finite" },
            FieldInfo { name: "solid", unit: "", shape: "(H, W) uint8", doc: "1 = insulating wall, 0 = open" },
        ],
        presets: &[("room", "a walled room, a wall across part of it, a hot block in cold air")],
        bench_scene: "room",
        left_button: "nothing (heat has no tools)",
        storage_formats: &[(wgpu::TextureFormat::R32Float, "temperature")],
        storage_read_write: &[],
        storage_textures_per_stage: 1,
        textures: &[("temperature, r32float", 4, 2), ("solid bits, r32uint", 4, 1)],
        state_bytes_per_cell: 4,
        host_bytes_per_cell: 5,
    };

    fn preset(name: &str, size: (usize, usize), _seed: u64, _params: &HeatParams) -> Result<HeatState, SceneError> {
        match (name, size) {
            ("room", (w, h)) if w >= 8 && h >= 8 => Ok(room(w, h)),
            (_, (width, height)) => Err(SceneError::BadSize { width, height, reason: "the room needs 8x8 cells" }),
        }
    }

    /// A PNG scene's walls, its fluid (blue) as hot cells.
    fn from_scene(scene: &Scene, _params: &HeatParams) -> Option<HeatState> {
        let temperature = scene.fluid.clone();
        Some(HeatState { temperature, solid: scene.solid.clone() })
    }

    const CPU_STEP: Option<CpuStep<Self>> = Some(cpu_step);

    fn read_npz(npz: &mut NpzReader, path: &Path) -> Result<HeatState, SceneError> {
        let temperature = npz.read_f32("temperature")?;
        let solid = npz.read_u8_opt("solid")?.unwrap_or_else(|| temperature.map(|_| 0));
        if solid.shape() != temperature.shape() {
            let (a_shape, b_shape) = (temperature.shape(), solid.shape());
            let path = path.to_path_buf();
            return Err(SceneError::ShapeMismatch { path, a: "temperature", a_shape, b: "solid", b_shape });
        }
        if let Some(i) = temperature.as_slice().iter().position(|t| !t.is_finite()) {
            let (row, col, w) = (i / temperature.width(), i % temperature.width(), temperature.width());
            let (path, value) = (path.to_path_buf(), temperature.as_slice()[row * w + col]);
            return Err(SceneError::BadValue { path, array: "temperature", row, col, value, expected: "finite" });
        }
        Ok(HeatState { temperature, solid })
    }
}

fn from_totals(t: &gpu::Totals) -> HeatStats {
    HeatStats { total_heat: t.sum[0], min: t.min(0), max: t.max(0), non_finite: t.count(1) }
}

/// A `w x h` room with a wall ring and a wall across part of it; a hot block (1) in cold air (0).
fn room(w: usize, h: usize) -> HeatState {
    let mut temperature = Grid::filled(w, h, 0.0);
    let mut solid = Grid::filled(w, h, 0u8);
    for r in 0..h {
        for c in 0..w {
            let ring = r == 0 || c == 0 || r == h - 1 || c == w - 1;
            solid[(r, c)] = (ring || (c == w / 2 && r > h / 3)) as u8;
            if !ring && (h / 4..h / 2).contains(&r) && (w / 8..w / 3).contains(&c) {
                temperature[(r, c)] = 1.0;
            }
        }
    }
    HeatState { temperature, solid }
}

/// The `eddy` command with heat registered: `run`, `view` and `bench` take `--mode heat`, its
/// `--diffusivity`, its `room` preset, and load its `.npz` states.
fn main() -> std::process::ExitCode {
    if let Err(e) = eddy_fluid::model::register::<GpuHeat>() {
        eprintln!("custom_model: error: {e}");
        return std::process::ExitCode::FAILURE;
    }
    eddy_fluid::cli::main()
}

#[cfg(test)]
mod tests {
    use super::*;
    use eddy_fluid::Simulation;
    use eddy_fluid::model::Runner;

    fn gpu() -> gpu::Gpu {
        gpu::Gpu::headless().expect("a GPU adapter (on a machine without one: Mesa's lavapipe)")
    }

    /// The GPU step against its CPU twin in a room with walls, 300 steps. Both do the same f32
    /// operations in the same order; 1e-6 leaves room for a device that fuses a multiply-add.
    #[test]
    fn the_gpu_step_is_its_cpu_twin() {
        let gpu = gpu();
        let (state, params) = (room(48, 30), HeatParams { diffusivity: 0.23 });
        let mut sim = GpuHeat::new(&gpu.device, &gpu.queue, &state, params).unwrap();
        sim.step(300).unwrap();
        let got = sim.read_state().unwrap();
        let mut want = state;
        for _ in 0..300 {
            cpu_step(&mut want, &params);
        }
        let worst = got.temperature.as_slice().iter().zip(want.temperature.as_slice()).map(|(a, b)| (a - b).abs());
        let worst = worst.fold(0.0f32, f32::max);
        assert!(worst <= 1e-6, "GPU and CPU differ by {worst}");
        assert_eq!(got.solid, want.solid);
    }

    /// What a model written outside eddy gets wrong is an error, not a panic or a silent zero: a
    /// shader that does not parse names its line and column, and a reduction whose bind group
    /// does not match its shader (here the walls bound as `r32float` where the shader reads
    /// `u32`) makes `stats` fail with the device's validation error.
    #[test]
    fn a_bad_shader_or_a_bad_reduction_is_an_error() {
        let gpu = gpu();
        let broken = STEP.replace("let t = textureLoad(t_in, p, 0).r;", "let t = textureLoad(tt, p, 0).r;");
        let Err(e) = Kernel::try_new(&gpu.device, &gpu.caps, "heat/step", &broken) else {
            panic!("a shader that does not parse")
        };
        let (line, text) = broken.lines().enumerate().find(|(_, l)| l.contains("textureLoad(tt")).unwrap();
        let at = format!("line {}, column {}", line + 1, text.find("tt,").unwrap() + 1);
        let message = e.to_string();
        assert!(message.contains(&format!("WGSL `heat/step` cannot be reflected: {at}")), "{message}");
        assert!(message.contains("`tt`"), "{message}");

        let mut sim = GpuHeat::new(&gpu.device, &gpu.queue, &room(16, 12), HeatParams::default()).unwrap();
        let usage = wgpu::TextureUsages::TEXTURE_BINDING;
        let wrong = gpu::texture_2d(&gpu.device, "wrong", (16, 12), wgpu::TextureFormat::R32Float, usage);
        sim.solid_view = wrong.create_view(&Default::default());
        match sim.stats() {
            Err(GpuError::Validation(why)) => assert!(why.contains("heat/stats"), "{why}"),
            other => panic!("a rejected reduction gave {other:?}"),
        }
    }

    /// eddy's session runs heat once it is registered, as it runs its own models: from its
    /// preset, a parameter set by name (and a bad one refused with the table's message), steps,
    /// statistics against the CPU twin, a `.npz` save that eddy's loader knows as heat's, and a
    /// frame drawn from its scalar view.
    #[test]
    fn eddys_session_runs_it_once_registered() {
        use eddy_fluid::model::{Action, AnyState, ModelParams, Session, SessionOptions, Start};
        use eddy_fluid::scene::SceneSource;
        let kind = eddy_fluid::model::register::<GpuHeat>().unwrap();
        assert_eq!(eddy_fluid::model::register::<GpuHeat>().unwrap(), kind, "registering again gives the same kind");
        assert_eq!(eddy_fluid::ModelKind::from_name("heat"), Some(kind));
        let gpu = gpu();
        let options = SessionOptions {
            params: ModelParams::defaults(kind),
            start: Start::Scene(SceneSource::parse("room").unwrap()),
            size: (40, 24),
            seed: 1,
        };
        let mut session = Session::new(&gpu.device, &gpu.queue, &gpu.adapter, options).unwrap();
        let start = HeatStats::of(&room(40, 24));
        let bad = session.apply(&Action::Set("diffusivity", Value::Real(0.3))).unwrap_err().to_string();
        assert!(bad.contains("diffusivity") && bad.contains("1/4"), "{bad}");
        session.apply(&Action::Set("diffusivity", Value::Real(0.24))).unwrap();
        session.step(200).unwrap();

        let mut want = room(40, 24);
        for _ in 0..200 {
            cpu_step(&mut want, &HeatParams { diffusivity: 0.24 });
        }
        let AnyState::Custom(got) = session.model().read_state().unwrap() else { panic!("not heat's state") };
        let got = got.downcast::<GpuHeat>().unwrap().clone();
        let worst = got.temperature.as_slice().iter().zip(want.temperature.as_slice()).map(|(a, b)| (a - b).abs());
        assert!(worst.fold(0.0f32, f32::max) <= 1e-6);
        let stats = session.model_ref().stats().unwrap();
        assert!((stats.total() - start.total_heat).abs() < 1e-3 * start.total_heat, "{}", stats.line());
        let eddy_fluid::model::AnyStats::Custom(own) = &stats else { panic!("not heat's statistics") };
        let (own, cpu) = (own.downcast::<GpuHeat>().unwrap(), HeatStats::of(&got));
        assert!((own.total_heat - cpu.total_heat).abs() < 1e-4, "{own:?} against {cpu:?}");
        assert_eq!((own.min, own.max, own.non_finite), (cpu.min, cpu.max, 0));

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("heat.npz");
        session.model().save_npz(&path).unwrap();
        let (loaded, step) = AnyState::load_npz(&path, None).unwrap();
        assert_eq!((loaded.kind(), step), (kind, 200));
        assert_eq!(loaded, AnyState::custom::<GpuHeat>(got.clone()).unwrap());
        let params = AnyState::read_parameters(&path, kind).unwrap().unwrap();
        assert_eq!(params.get("diffusivity"), Some(Value::Real(0.24)));

        let target = eddy_fluid::render::FrameTarget::new(&gpu.device, (40, 24), 1).unwrap();
        let frame = target
            .render(&gpu.device, &gpu.queue, |encoder, view, size| {
                session.model().draw(encoder, view, eddy_fluid::render::FrameTarget::FORMAT, size)
            })
            .unwrap();
        let lut = eddy_fluid::colour::ColourMap::Inferno.lut();
        let (r, c) = (12, 10);
        let t = got.temperature[(r, c)];
        assert_eq!(frame.get_pixel(c as u32, r as u32).0, lut[(t.clamp(0.0, 1.0) * 255.0).round() as usize], "{t}");
    }

    /// The `eddy` command with heat registered (what `main` runs): `eddy run --mode heat` steps
    /// it with the parameter given, saves a state that is the CPU twin's after as many steps,
    /// and writes a frame every `--every` steps; a value out of the table's range is a usage
    /// error (status 2), and `--vtk`, which heat has no fields for, is refused before any step.
    #[test]
    fn the_eddy_command_runs_it() {
        use std::process::ExitCode;
        eddy_fluid::model::register::<GpuHeat>().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (save, frames) = (dir.path().join("heat.npz"), dir.path().join("frames"));
        let run = |extra: &[&str]| {
            let mut args = vec!["eddy", "run", "--mode", "heat", "--size", "48x32", "--steps", "300"];
            args.extend_from_slice(extra);
            eddy_fluid::cli::main_with(args)
        };
        let (save_arg, frames_arg) = (save.to_str().unwrap(), frames.to_str().unwrap());
        let done = run(&["--diffusivity", "0.24", "--save", save_arg, "--frames", frames_arg, "--every", "100"]);
        assert_eq!(done, ExitCode::SUCCESS);

        let mut want = room(48, 32);
        for _ in 0..300 {
            cpu_step(&mut want, &HeatParams { diffusivity: 0.24 });
        }
        let mut npz = NpzReader::open(&save).unwrap();
        assert_eq!(npz.read_scalar_i64("step").unwrap(), Some(300));
        assert_eq!(npz.read_text_opt("parameters").unwrap().as_deref(), Some("diffusivity = 0.24\n"));
        let got = GpuHeat::read_npz(&mut npz, &save).unwrap();
        let worst = got.temperature.as_slice().iter().zip(want.temperature.as_slice()).map(|(a, b)| (a - b).abs());
        assert!(worst.fold(0.0f32, f32::max) <= 1e-6);
        assert_eq!(got.solid, want.solid);
        let mut written: Vec<String> =
            std::fs::read_dir(&frames).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        written.sort();
        assert_eq!(written, ["frame_000000.png", "frame_000100.png", "frame_000200.png", "frame_000300.png"]);

        let untouched = std::fs::read(&save).unwrap();
        assert_eq!(run(&["--diffusivity", "0.3", "--save", save_arg]), ExitCode::from(2));
        let tiny = ["eddy", "run", "--mode", "heat", "--size", "4x4", "--save", save_arg];
        assert_eq!(eddy_fluid::cli::main_with(tiny), ExitCode::from(2), "the preset's own refusal of a size");
        let vtk = dir.path().join("vtk");
        assert_eq!(run(&["--vtk", vtk.to_str().unwrap(), "--save", save_arg]), ExitCode::from(2));
        assert!(!vtk.exists());
        // Nor can a script switch a VTK run over to heat.
        let script = dir.path().join("to_heat.toml");
        std::fs::write(&script, "[[action]]\nat = 5\nmodel = \"heat\"\n").unwrap();
        let water = ["eddy", "run", "--mode", "water", "--steps", "10", "--vtk", vtk.to_str().unwrap()];
        let status = eddy_fluid::cli::main_with(water.into_iter().chain(["--script", script.to_str().unwrap()]));
        assert_eq!(status, ExitCode::from(2));
        assert!(!vtk.exists());
        assert_eq!(std::fs::read(&save).unwrap(), untouched, "a refused run leaves the save alone");
    }

    /// Exact solution of the scheme: with insulated edges the cosine `cos(pi k (x + 1/2) / W)` is
    /// an eigenvector of the five-point Laplacian, eigenvalue `-4 sin^2(pi k / (2 W))`, so each
    /// step multiplies its amplitude by `1 - 4 a sin^2(pi k / (2 W))` (von Neumann). The
    /// tolerance is f32 rounding over 500 steps of values near 1.
    #[test]
    fn a_cosine_mode_decays_as_the_scheme_says() {
        let gpu = gpu();
        let (w, h, k, a, n) = (64usize, 6usize, 3.0f64, 0.2f64, 500);
        let pi = std::f64::consts::PI;
        let mode = |c: usize| (pi * k * (c as f64 + 0.5) / w as f64).cos();
        let temperature = Grid::from_fn(w, h, |_, c| (0.5 + 0.25 * mode(c)) as f32);
        let state = HeatState { temperature, solid: Grid::filled(w, h, 0) };
        let mut sim = GpuHeat::new(&gpu.device, &gpu.queue, &state, HeatParams { diffusivity: a as f32 }).unwrap();
        sim.step(n).unwrap();
        let got = sim.read_state().unwrap();
        let decay = (1.0 - 4.0 * a * (pi * k / (2.0 * w as f64)).sin().powi(2)).powi(n as i32);
        for r in 0..h {
            for c in 0..w {
                let want = 0.5 + 0.25 * decay * mode(c);
                let err = (got.temperature[(r, c)] as f64 - want).abs();
                assert!(err < 2e-5, "cell ({r}, {c}): {} against {want}", got.temperature[(r, c)]);
            }
        }
    }

    /// eddy's runner on the custom model: steps, statistics (held to the CPU twin, and the
    /// total heat conserved), a checkpoint and its rollback, a `.npz` save read back with eddy's
    /// reader, and a frame whose pixels are the colour map's colours of the cells under them.
    #[test]
    fn eddys_runner_steps_saves_and_draws_it() {
        use eddy_fluid::colour::ColourMap;
        let gpu = gpu();
        let state = room(40, 24);
        let before = HeatStats::of(&state);
        let model = GpuHeat::new(&gpu.device, &gpu.queue, &state, HeatParams::default()).unwrap();
        let mut runner = Runner::new(model, 1000);
        runner.step(50).unwrap();
        runner.checkpoint();
        let at_50 = runner.read_state().unwrap();
        runner.step(70).unwrap();
        assert_eq!(runner.steps_done(), 1120);
        let stats = runner.stats().unwrap();
        let state = runner.read_state().unwrap();
        let cpu = HeatStats::of(&state);
        assert!((stats.total_heat - cpu.total_heat).abs() < 1e-4, "{stats:?} against {cpu:?}");
        assert_eq!((stats.min, stats.max, stats.non_finite), (cpu.min, cpu.max, 0));
        let drift = (stats.total_heat - before.total_heat).abs() / before.total_heat;
        assert!(drift < 1e-5, "the total heat moved by {drift:e} of itself");

        assert_eq!(runner.rollback(), Some(1050));
        assert_eq!(runner.read_state().unwrap(), at_50);

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("heat.npz");
        runner.save_npz(&path).unwrap();
        let mut npz = eddy_fluid::npz::NpzReader::open(&path).unwrap();
        assert_eq!(npz.read_f32("temperature").unwrap(), at_50.temperature);
        assert_eq!(npz.read_scalar_i64("step").unwrap(), Some(1050));
        assert_eq!(npz.read_text_opt("parameters").unwrap().as_deref(), Some("diffusivity = 0.2\n"));

        let frame = runner.frame(2, ColourMap::Viridis).unwrap();
        assert_eq!(frame.dimensions(), (80, 48));
        let lut = ColourMap::Viridis.lut();
        for (r, c) in [(8, 8), (12, 14), (20, 30)] {
            let t = at_50.temperature[(r, c)];
            let want = lut[(t.clamp(0.0, 1.0) * 255.0).round() as usize];
            let got = frame.get_pixel(2 * c as u32, 2 * r as u32).0;
            assert_eq!(got, want, "cell ({r}, {c}) at {t}");
        }
    }
}
