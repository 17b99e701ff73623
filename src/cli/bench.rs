//! `eddy bench`: steps/s and Mcells/s of the GPU path and the CPU reference.

use super::out::{note, say};
use super::{BenchArgs, Exit, Result, usage};
use crate::gpu::{Gpu, GpuError, StepTimer};
use crate::model::{AnyModel, AnyState, ModelKind, ModelParams, any::cpu_reference, memory};
use crate::scene::SceneSource;
use crate::smoke::{SmokeParams, SmokePreset};
use std::time::Instant;

/// The parameter sets measured: the defaults, for smoke the other pipelines and solvers, for gas
/// the first-order reconstruction too, each with a label for the table.
fn variants(kind: ModelKind) -> Vec<(&'static str, ModelParams)> {
    let defaults = ModelParams::defaults(kind);
    if kind == ModelKind::Gas {
        let constant = crate::gas::GasParams {
            reconstruction: crate::gas::Reconstruction::Constant,
            ..crate::gas::GasParams::default()
        };
        return vec![
            ("default: linear reconstruction (second order)", defaults),
            (WITH_BODIES, defaults),
            ("constant reconstruction (first order)", ModelParams::Gas(constant)),
        ];
    }
    if kind == ModelKind::Water {
        let fixed = crate::water::WaterParams {
            arithmetic: crate::water::Arithmetic::Fixed,
            ..crate::water::WaterParams::default()
        };
        return vec![
            ("default", defaults),
            (SLEEPING, defaults),
            ("fixed point (integer units, the same bits on every adapter)", ModelParams::Water(fixed)),
            (WITH_16_BOXES, defaults),
        ];
    }
    if kind != ModelKind::Smoke {
        return vec![("default", defaults)];
    }
    let d = SmokeParams::default();
    let smoke = |p: SmokeParams| ModelParams::Smoke(p);
    vec![
        ("default: staggered, Jacobi x 50, MacCormack, confinement", defaults),
        (WITH_BODIES, defaults),
        (WITH_16_BODIES, defaults),
        (
            "staggered, Jacobi x 50, semi-Lagrangian",
            smoke(SmokeParams { advection: crate::smoke::Advection::SemiLagrangian, vorticity: 0.0, ..d }),
        ),
        (
            "gpu-gems: collocated, Jacobi x 50 (the GPU Gems / Rideout step)",
            smoke(SmokeParams::preset(SmokePreset::GpuGems)),
        ),
        (
            "staggered, multigrid to 1e-4",
            smoke(SmokeParams { solver: crate::smoke::Solver::Multigrid, tolerance: 1e-4, ..d }),
        ),
    ]
}

/// The smoke and gas rows with moving bodies: the default step on the same scene with
/// [`bench_bodies`], whose cost is this row's time over the default row's.
const WITH_BODIES: &str = "default with 3 moving bodies (circle, box, spinning plate)";

/// The smoke row with the most bodies a model holds ([`crate::body::MAX_BODIES`]), free
/// ([`sixteen_bodies`]): the bodies' passes, their forces and their motion each step, whose cost
/// is this row's time over the default row's.
const WITH_16_BODIES: &str =
    "default with 16 free bodies (a 4 x 4 array of discs as dense as the fluid; their forces and motion every step)";

/// The water row with the most bodies a model holds, free ([`sixteen_boxes`]): their
/// displacement, forces and motion each step, whose cost is this row's time over the default
/// row's.
const WITH_16_BOXES: &str =
    "default with 16 floating boxes (a 4 x 4 array half as dense as water; displacement, forces and motion every step)";

/// The water row that sleeps ([`crate::water::tiles`]): the default step over the awake tiles
/// alone, the same masses to the bit; its time against the default row's is what sleeping saves
/// (or costs, where every tile is awake). The row's parameters say how many tiles were awake at
/// the end.
const SLEEPING: &str = "default, sleeping (only the tiles where something can change are stepped)";

/// Sixteen free boxes half as dense as water, starting at rest on an `n x n` scene, a 4 x 4
/// array, each `n / 16` wide and `n / 32` tall.
fn sixteen_boxes(n: usize) -> Vec<crate::body::Body> {
    use crate::body::{Body, Shape};
    let n = n as f32;
    (0..16)
        .map(|i| {
            let (x, y) = ((i % 4) as f32 + 0.5, (i / 4) as f32 + 0.5);
            let shape = Shape::Box { half_width: n / 32.0, half_height: n / 64.0 };
            Body { density: Some(0.5), ..Body::new(shape, x * n / 4.0, y * n / 4.0) }
        })
        .collect()
}

/// Sixteen free discs as dense as the fluid, starting at rest on an `n x n` scene, a 4 x 4 array,
/// each `n / 16` across.
fn sixteen_bodies(n: usize) -> Vec<crate::body::Body> {
    use crate::body::{Body, Shape};
    let n = n as f32;
    (0..16)
        .map(|i| {
            let (x, y) = ((i % 4) as f32 + 0.5, (i / 4) as f32 + 0.5);
            Body { density: Some(1.0), ..Body::new(Shape::Circle { radius: n / 32.0 }, x * n / 4.0, y * n / 4.0) }
        })
        .collect()
}

/// Three bodies on an `n x n` scene, each about `n / 8` across, moving through it: a circle
/// drifting right and up, a turned box drifting left, a plate spinning in place. Smoke's move in
/// cells per time unit, their fastest points at most about 1.5 cells a step at the default `dt`
/// (within smoke's 2, [`crate::smoke::check_bodies`], on every grid); gas's in cells per
/// step, their fastest points within [`crate::gas::bodies::MAX_BODY_SPEED`].
fn bench_bodies(n: usize, kind: ModelKind) -> Vec<crate::body::Body> {
    use crate::body::{Body, Shape};
    let n = n as f32;
    let plate = Body::new(
        Shape::Box { half_width: n / 16.0, half_height: crate::body::PLATE_THICKNESS / 2.0 },
        0.7 * n,
        0.75 * n,
    );
    let (v, spin) = match kind {
        ModelKind::Gas => (0.2, 0.15 / (n / 16.0 + 1.0)),
        // The drift grows with the grid up to 512 cells; the plate's corners move 12 cells a
        // time unit (1.5 cells a step at the default dt) on every grid.
        _ => (0.02 * n.min(512.0), 12.0 / plate.reach()),
    };
    vec![
        Body { vx: v, vy: -0.5 * v, ..Body::new(Shape::Circle { radius: n / 16.0 }, 0.25 * n, 0.6 * n) },
        Body {
            angle: 0.5,
            vx: -v,
            ..Body::new(Shape::Box { half_width: n / 16.0, half_height: n / 32.0 }, 0.75 * n, 0.3 * n)
        },
        Body { spin, ..plate },
    ]
}

/// Steps whose dispatches and bytes are counted per row ([`crate::gpu::tally`]).
const TALLY_STEPS: u64 = 16;

/// The longest single Jacobi run the solver race times, seconds: on a CPU adapter the count
/// that reaches 1e-4 at 512x512 takes minutes, so the race reports "more than" past it.
const JACOBI_LIMIT_S: f64 = 20.0;

/// `Err(Exit::Interrupted)` once Ctrl-C (or SIGTERM) came: the bench stops between timed runs
/// and keeps the rows measured so far ([`bench()`]).
fn stop_if_interrupted() -> Result {
    match super::run::interrupted() {
        true => Err(Exit::Interrupted(String::new())),
        false => Ok(()),
    }
}

/// Median over `runs` timings of `steps` steps each, as steps/s.
fn measure(runs: usize, steps: u64, mut step: impl FnMut(u64) -> Result) -> Result<f64> {
    let mut rates = Vec::with_capacity(runs);
    for _ in 0..runs {
        stop_if_interrupted()?;
        let t = Instant::now();
        step(steps)?;
        rates.push(steps as f64 / t.elapsed().as_secs_f64());
    }
    Ok(median(rates))
}

/// The median of `values` (the upper one of an even count), which are not empty.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Steps that take about `seconds`, from timing short probe runs; at least 2, as the peer's runs
/// (`../shared/peers/common.py`: ~1 s and at least 2 steps), so that a run's fixed costs (the
/// wait for the adapter, the statistics read back, the staggered grid's centres pass once a
/// batch) are never one step's alone.
fn calibrate(seconds: f64, step: impl FnMut(u64) -> Result) -> Result<u64> {
    Ok(calibrate_timed(seconds, step)?.0)
}

/// [`calibrate`], with the seconds a step took in the last probe.
fn calibrate_timed(seconds: f64, mut step: impl FnMut(u64) -> Result) -> Result<(u64, f64)> {
    let mut n = 1u64;
    loop {
        stop_if_interrupted()?;
        let t = Instant::now();
        step(n)?;
        let dt = t.elapsed().as_secs_f64();
        if dt > 0.05 || n >= 1 << 16 {
            return Ok((((seconds / dt * n as f64) as u64).clamp(MIN_RUN_STEPS, 1 << 24), dt / n as f64));
        }
        n *= 4;
    }
}

/// The fewest steps a timed run takes ([`calibrate`]).
const MIN_RUN_STEPS: u64 = 2;

/// Steps profiled pass by pass per row (`--passes`), one profile each.
const PROFILE_STEPS: u32 = 8;

/// Everything one `eddy bench` measured (`--json` writes it).
#[derive(serde::Serialize)]
struct Report {
    model: String,
    scene: String,
    adapter: String,
    /// Timed runs per row, and the seconds each lasts.
    runs: usize,
    seconds: f64,
    /// Whether Ctrl-C stopped the bench: `rows` are those measured before it.
    interrupted: bool,
    /// The texture copy's bandwidth, GB/s.
    roofline_gb_s: f64,
    rows: Vec<Row>,
    solver_race: Option<Race>,
    /// Water: a pond in a bigger world against the pond alone ([`measure_ponds`]).
    ponds: Vec<Pond>,
    /// Water: the bench scene sleeping against the same stepping every cell
    /// ([`measure_bookkeeping`]).
    bookkeeping: Vec<Bookkeeping>,
}

/// The bench scene sleeping against the same scene stepping every cell, in interleaved rounds:
/// what the tiles' bookkeeping costs where most tiles are awake.
#[derive(serde::Serialize)]
struct Bookkeeping {
    /// Width and height, cells.
    grid: [usize; 2],
    /// The sleeping model's tiles awake at the end, 0 to 1.
    awake_fraction: f64,
    /// Medians over the rounds.
    dense_steps_per_s: f64,
    sleeping_steps_per_s: f64,
    /// The median over the rounds of each round's sleeping time a step over the dense one.
    time_ratio: f64,
}

/// The side of the pond in [`measure_ponds`], cells.
const POND: usize = 512;

/// A pond in a bigger world, sleeping, against the same pond alone stepping every cell.
#[derive(serde::Serialize)]
struct Pond {
    /// The world's and the pond's width and height, cells.
    world: [usize; 2],
    pond: [usize; 2],
    /// Whether the world is past the adapter's largest texture side, kept packed
    /// ([`crate::water::packed_world`]).
    packed: bool,
    /// The pages of rows a packed world is kept in (0: not packed).
    pages: usize,
    /// The world's tiles awake at the end, 0 to 1.
    awake_fraction: f64,
    /// Medians over the rounds.
    world_steps_per_s: f64,
    alone_steps_per_s: f64,
    /// The median over the rounds of each round's world steps/s over the pond alone's.
    ratio: f64,
}

/// One parameter set at one size.
#[derive(serde::Serialize)]
struct Row {
    parameters: String,
    /// Width and height, cells.
    grid: [usize; 2],
    gpu_steps_per_s: f64,
    gpu_mcells_per_s: f64,
    /// From timestamps; `None` where the device has none.
    gpu_ms_per_step: Option<f64>,
    dispatches_per_step: f64,
    bytes_per_cell_step: f64,
    gb_per_s: f64,
    /// `gb_per_s` over the roofline.
    roofline_fraction: f64,
    cpu_steps_per_s: Option<f64>,
    /// Per pass (`--passes`), slowest first; `None` without `--passes` or without timestamps
    /// inside passes.
    passes: Option<Vec<PassRow>>,
}

/// One pass of a row's step.
#[derive(serde::Serialize)]
struct PassRow {
    pass: &'static str,
    dispatches_per_step: f64,
    gpu_ms_per_step: f64,
    /// Of the summed passes' time.
    share: f64,
    bytes_per_cell_step: f64,
    gb_per_s: f64,
}

/// The pressure solve alone, Jacobi against V-cycles to the same residual.
#[derive(serde::Serialize)]
struct Race {
    grid: [usize; 2],
    tolerance: f64,
    /// Iterations that reach the tolerance, or the last count tried when none did in time.
    jacobi_iterations: u32,
    jacobi_reached: bool,
    jacobi_ms: f64,
    v_cycles: u32,
    multigrid_ms: f64,
}

pub fn bench(args: BenchArgs) -> Result {
    if !(1..=100).contains(&args.runs) {
        return Err(usage(format!("--runs {}: allowed 1..=100 timed runs", args.runs)));
    }
    if !(args.seconds.is_finite() && (0.01..=60.0).contains(&args.seconds)) {
        return Err(usage(format!("--seconds {:e}: allowed 0.01..=60 seconds per timed run", args.seconds)));
    }
    if args.sizes.is_empty() || args.sizes.contains(&0) {
        return Err(usage("--sizes: give one or more grid sides >= 1, e.g. 256,512"));
    }
    if let Some(path) = &args.json {
        if !crate::files::has_extension(path, "json") {
            return Err(usage(format!("--json {}: give a file name ending in .json", path.display())));
        }
        crate::files::check_writable_file(path).map_err(usage)?;
    }
    if args.cpu_max_size == 0 {
        return Err(usage("--cpu-max-size 0: give a grid side >= 1 (or --no-cpu to skip the CPU reference)"));
    }
    let kind = args.mode;
    let gpu = Gpu::headless_for(&ModelKind::requirements(&[kind]))?;
    // Ctrl-C stops between timed runs; the rows measured so far are kept (and written).
    super::run::catch_signals();
    if !args.worlds.is_empty() && kind != ModelKind::Water {
        return Err(usage(format!("--worlds: the pond in a world is water's ({kind} has none): drop --worlds")));
    }
    if let Some(&(w, h)) = args.worlds.iter().find(|&&(w, h)| w <= POND || h <= POND) {
        return Err(usage(format!(
            "--worlds {w}x{h}: a world holds the {POND}x{POND} pond and more: give both sides above {POND}"
        )));
    }
    let squares = args.sizes.iter().map(|&n| (n, n));
    for (w, h) in squares.chain(args.worlds.iter().copied()) {
        kind.check_size(w, h, gpu.device.limits().max_texture_dimension_2d).map_err(usage)?;
        memory::check(kind, (w, h), memory::Extras::default(), Some(&gpu.adapter.get_info()), &gpu.device.limits())
            .map_err(usage)?;
    }
    let scene = kind.info().bench_scene;
    note!("bench: the roofline, a {ROOFLINE_SIDE}x{ROOFLINE_SIDE} rgba32float texture copy...");
    let roof = roofline(&gpu, args.runs, args.seconds)?;
    say!("eddy bench: {kind} (`{scene}` scene): {}", kind.info().about);
    say!("adapter: {}; median of {} runs of ~{} s each", gpu.adapter_label(), args.runs, args.seconds);
    say!(
        "roofline: {roof:.2} GB/s, a {ROOFLINE_SIDE}x{ROOFLINE_SIDE} rgba32float texture copied by a compute pass \
         (each texel read and written once), on this adapter in this run"
    );
    if args.passes && !gpu.device.features().contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES) {
        say!("--passes: this adapter writes no timestamps inside passes, so there is no per-pass time");
    }
    say!();
    say!(
        "| parameters | grid | GPU steps/s | GPU Mcells/s | GPU ms/step | dispatches/step | B/cell-step | GB/s | \
         of roofline | CPU ref steps/s | CPU ref Mcells/s | GPU / CPU |"
    );
    say!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut report = Report {
        model: kind.to_string(),
        scene: scene.to_string(),
        adapter: gpu.adapter_label(),
        runs: args.runs,
        seconds: args.seconds,
        roofline_gb_s: roof,
        rows: Vec::new(),
        solver_race: None,
        ponds: Vec::new(),
        bookkeeping: Vec::new(),
        interrupted: false,
    };
    let result = measure_rows(&gpu, &args, roof, &mut report);
    let interrupted = matches!(result, Err(Exit::Interrupted(_)));
    if !interrupted {
        result?;
    }
    let rows = report.rows.len();
    if !interrupted {
        print_passes(&report);
    }
    if kind == ModelKind::Smoke && !args.no_race && !interrupted {
        let n = if args.sizes.contains(&512) { 512 } else { *args.sizes.iter().max().expect("checked non-empty") };
        note!(
            "bench: the pressure solve alone on {n}x{n}, Jacobi against V-cycles to 1e-4 (a Jacobi run stops at \
             {JACOBI_LIMIT_S} s; --no-race skips this)..."
        );
        report.solver_race = Some(solver_race(&gpu, n, args.runs)?);
    }
    if kind == ModelKind::Water && !interrupted {
        report.bookkeeping = measure_bookkeeping(&gpu, &args)?;
    }
    let worlds: Vec<(usize, usize)> = match args.worlds.is_empty() {
        true => args.sizes.iter().filter(|&&n| n > POND).map(|&n| (n, n)).collect(),
        false => args.worlds.clone(),
    };
    if kind == ModelKind::Water && !interrupted && !worlds.is_empty() {
        report.ponds = measure_ponds(&gpu, &args, &worlds)?;
    }
    report.interrupted = interrupted;
    let mut written = String::new();
    if let Some(path) = &args.json {
        crate::files::write_atomically(path, |w| {
            serde_json::to_writer_pretty(&mut *w, &report).map_err(std::io::Error::other)?;
            std::io::Write::write_all(w, b"\n")
        })?;
        note!("bench: wrote {}", path.display());
        written = format!(", written to {}", path.display());
    }
    if interrupted {
        let of = variants(kind).len() * args.sizes.len();
        return Err(Exit::Interrupted(format!("bench interrupted: {rows} of {of} rows measured (above){written}")));
    }
    Ok(())
}

/// `k` steps of `model` in runs of at most 64 (each one submission; timed by `timer` where
/// given), then a wait for the GPU to finish them and a check for its errors.
fn steps_in_runs(gpu: &Gpu, model: &mut AnyModel, k: u64, mut timer: Option<&mut StepTimer>) -> Result {
    let mut left = k;
    while left > 0 {
        let c = left.min(64) as u32;
        model.step_timed(c, timer.as_deref_mut(), 0)?;
        left -= c as u64;
    }
    gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(GpuError::from)?;
    Ok(gpu.check()?)
}

/// The `basin` preset at [`POND`]x[`POND`] alone, and walled into the top-left corner of a `w x
/// h` world of dry air (walls along its right and bottom edges, as the pond alone's grid edges
/// are with the wall boundary): the same water, step for step.
fn pond_states((w, h): (usize, usize)) -> Result<(AnyState, AnyState)> {
    let params = ModelParams::defaults(ModelKind::Water);
    let alone = AnyState::start(&SceneSource::Preset("basin".into()), (POND, POND), 1, &params)?;
    let AnyState::Water(pond) = &alone else { unreachable!("the basin is water's") };
    let mut world = crate::water::WaterState::empty(w, h);
    for r in 0..POND {
        for c in 0..POND {
            world.mass[(r, c)] = pond.mass[(r, c)];
            world.solid[(r, c)] = pond.solid[(r, c)];
        }
    }
    for k in 0..=POND {
        world.solid[(POND, k)] = 1;
        world.solid[(k, POND)] = 1;
    }
    Ok((AnyState::Water(world), alone))
}

/// `a` and `b` stepped in interleaved rounds (each calibrated to `--seconds`, after 20 steps'
/// warm-up; no statistics taken): the medians of each one's steps/s, and of each round's `a`
/// steps/s over `b`'s.
fn interleaved(gpu: &Gpu, args: &BenchArgs, a: &mut AnyModel, b: &mut AnyModel) -> Result<(f64, f64, f64)> {
    let run = |model: &mut AnyModel, k: u64| steps_in_runs(gpu, model, k, None);
    run(a, 20)?;
    run(b, 20)?;
    let k_a = calibrate(args.seconds, |k| run(a, k))?;
    let k_b = calibrate(args.seconds, |k| run(b, k))?;
    let (mut rates_a, mut rates_b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..args.runs {
        stop_if_interrupted()?;
        let t = Instant::now();
        run(a, k_a)?;
        let ra = k_a as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        run(b, k_b)?;
        let rb = k_b as f64 / t.elapsed().as_secs_f64();
        rates_a.push(ra);
        rates_b.push(rb);
        ratios.push(ra / rb);
    }
    Ok((median(rates_a), median(rates_b), median(ratios)))
}

/// Water that sleeps where most tiles are awake: the bench scene stepped over its awake tiles
/// against the same scene stepping every cell, in interleaved rounds ([`interleaved`]), at each
/// size: the tiles' bookkeeping's cost, a step's time sleeping over its time dense.
fn measure_bookkeeping(gpu: &Gpu, args: &BenchArgs) -> Result<Vec<Bookkeeping>> {
    let params = ModelParams::defaults(ModelKind::Water);
    let scene = ModelKind::Water.info().bench_scene;
    say!();
    say!(
        "Water that sleeps where most of it moves: the `{scene}` scene stepped over its awake tiles against the same \
         stepping every cell; {} interleaved rounds, the median of each round's ratio (no statistics taken)",
        args.runs
    );
    say!();
    say!("| grid | tiles awake at the end | dense steps/s | sleeping steps/s | sleeping time / dense |");
    say!("|---|---|---|---|---|");
    let mut out = Vec::new();
    for &n in &args.sizes {
        note!("bench: the {scene} scene at {n}x{n}, sleeping, against the same stepping every cell...");
        let state = AnyState::start(&SceneSource::Preset(scene.into()), (n, n), 1, &params)?;
        let mut sleeping = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 0)?;
        sleeping.set_sleep(true)?;
        let mut dense = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 0)?;
        drop(state);
        let (dense_rate, sleeping_rate, ratio) = interleaved(gpu, args, &mut dense, &mut sleeping)?;
        let b = Bookkeeping {
            grid: [n, n],
            awake_fraction: sleeping.awake_tiles()?.map_or(1.0, |t| t.fraction()),
            dense_steps_per_s: dense_rate,
            sleeping_steps_per_s: sleeping_rate,
            time_ratio: ratio,
        };
        say!(
            "| {n}x{n} | {:.1}% | {} | {} | {:.2}x |",
            100.0 * b.awake_fraction,
            significant(b.dense_steps_per_s),
            significant(b.sleeping_steps_per_s),
            b.time_ratio
        );
        out.push(b);
    }
    Ok(out)
}

/// A [`POND`]x[`POND`] `basin` in the corner of bigger worlds of dry air, sleeping, against the same
/// basin alone stepping every cell, in interleaved rounds ([`interleaved`]).
fn measure_ponds(gpu: &Gpu, args: &BenchArgs, worlds: &[(usize, usize)]) -> Result<Vec<Pond>> {
    let params = ModelParams::defaults(ModelKind::Water);
    say!();
    say!(
        "Water that sleeps: the `basin` preset at {POND}x{POND} walled into the corner of a bigger world of dry air, \
         stepped over its awake tiles, against the same basin alone stepping every cell; {} interleaved rounds, the \
         median of each round's ratio (no statistics taken)",
        args.runs
    );
    say!();
    say!("| world | pond | tiles awake at the end | world steps/s | pond alone steps/s | world / alone |");
    say!("|---|---|---|---|---|---|");
    let mut out = Vec::new();
    for &(w, h) in worlds {
        note!("bench: a {POND}x{POND} pond in a {w}x{h} world, sleeping, against the pond alone...");
        let (world_state, alone_state) = pond_states((w, h))?;
        let mut world = AnyModel::new(&gpu.device, &gpu.queue, &world_state, &params, 0)?;
        drop(world_state);
        world.set_sleep(true)?;
        let pages = world.packed_world_pages();
        let mut alone = AnyModel::new(&gpu.device, &gpu.queue, &alone_state, &params, 0)?;
        let (world_rate, alone_rate, ratio) = interleaved(gpu, args, &mut world, &mut alone)?;
        let awake = world.awake_tiles()?.map_or(1.0, |t| t.fraction());
        let pond = Pond {
            world: [w, h],
            packed: pages > 0,
            pages,
            pond: [POND, POND],
            awake_fraction: awake,
            world_steps_per_s: world_rate,
            alone_steps_per_s: alone_rate,
            ratio,
        };
        say!(
            "| {w}x{h}{} | {POND}x{POND} | {:.2}% | {} | {} | {:.2}x |",
            match pond.pages {
                0 => String::new(),
                1 => " (packed)".into(),
                n => format!(" (packed, {n} pages)"),
            },
            100.0 * pond.awake_fraction,
            significant(pond.world_steps_per_s),
            significant(pond.alone_steps_per_s),
            pond.ratio
        );
        out.push(pond);
    }
    Ok(out)
}

/// Measures every row (each variant at each size) into `report`, printing each as it is done.
///
/// # Errors
/// As [`measure_row`]; [`Exit::Interrupted`] after Ctrl-C, with the rows done in `report`.
fn measure_rows(gpu: &Gpu, args: &BenchArgs, roof: f64, report: &mut Report) -> Result {
    for (label, params) in variants(args.mode) {
        for &n in &args.sizes {
            let row = measure_row(gpu, args, label, &params, n, roof)?;
            let fmt = |r: Option<f64>, scale: f64| r.map_or("-".to_string(), |r| significant(r * scale));
            say!(
                "| {} | {n}x{n} | {} | {} | {} | {:.1} | {:.0} | {:.2} | {:.0}% | {} | {} | {} |",
                row.parameters,
                significant(row.gpu_steps_per_s),
                significant(row.gpu_mcells_per_s),
                row.gpu_ms_per_step.map_or("-".to_string(), |t| format!("{t:.3}")),
                row.dispatches_per_step,
                row.bytes_per_cell_step,
                row.gb_per_s,
                100.0 * row.roofline_fraction,
                fmt(row.cpu_steps_per_s, 1.0),
                fmt(row.cpu_steps_per_s, (n * n) as f64 / 1e6),
                row.cpu_steps_per_s.map_or("-".to_string(), |c| format!("{:.1}x", row.gpu_steps_per_s / c)),
            );
            report.rows.push(row);
        }
    }
    Ok(())
}

/// The per-pass tables of the rows profiled (`--passes`).
fn print_passes(report: &Report) {
    for row in report.rows.iter().filter(|r| r.passes.is_some()) {
        let passes = row.passes.as_deref().unwrap_or_default();
        let total: f64 = passes.iter().map(|p| p.gpu_ms_per_step).sum();
        say!();
        say!(
            "Passes of `{}` at {}x{}, {PROFILE_STEPS} steps profiled, slowest first: {total:.3} ms/step in dispatches{}",
            row.parameters,
            row.grid[0],
            row.grid[1],
            row.gpu_ms_per_step.map_or(String::new(), |t| format!(" of {t:.3} ms/step in all"))
        );
        say!();
        say!("| pass | dispatches/step | GPU ms/step | share | B/cell-step | GB/s |");
        say!("|---|---|---|---|---|---|");
        for p in passes {
            say!(
                "| {} | {:.2} | {:.3} | {:.1}% | {:.0} | {:.2} |",
                p.pass,
                p.dispatches_per_step,
                p.gpu_ms_per_step,
                100.0 * p.share,
                p.bytes_per_cell_step,
                p.gb_per_s
            );
        }
    }
}

/// One row: `params` at `n x n` on `gpu`, timed, counted, profiled (`--passes`) and, for the
/// defaults, against the CPU reference.
fn measure_row(gpu: &Gpu, args: &BenchArgs, label: &str, params: &ModelParams, n: usize, roof: f64) -> Result<Row> {
    let kind = args.mode;
    let scene = kind.info().bench_scene;
    let mut state = AnyState::start(&SceneSource::Preset(scene.into()), (n, n), 1, params)?;
    if label == WITH_BODIES {
        match &mut state {
            AnyState::Smoke(s) => s.bodies = bench_bodies(n, kind),
            AnyState::Gas(s) => s.bodies = bench_bodies(n, kind),
            AnyState::Water(_) | AnyState::Custom(_) => {}
        }
    }
    if label == WITH_16_BODIES
        && let AnyState::Smoke(s) = &mut state
    {
        s.bodies = sixteen_bodies(n);
    }
    if label == WITH_16_BOXES
        && let AnyState::Water(s) = &mut state
    {
        s.bodies = sixteen_boxes(n);
    }
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, &state, params, 0)?;
    model.set_sleep(label == SLEEPING)?;
    // GPU time per step from timestamp queries, where the device has them.
    let timer = std::cell::RefCell::new(crate::gpu::StepTimer::new(&gpu.device, &gpu.queue));
    // The spans collected since the last call: the mean GPU time per step.
    let take = || {
        let mut timer = timer.borrow_mut();
        let timer = timer.as_mut()?;
        timer.poll();
        timer.take(0)
    };
    let mut gpu_steps = |k: u64| -> Result {
        steps_in_runs(gpu, &mut model, k, timer.borrow_mut().as_mut())?;
        // Statistics once per run, as `eddy run` takes them.
        model.stats()?;
        Ok(())
    };
    note!("bench: {label} at {n}x{n}: GPU, {} runs of ~{} s...", args.runs, args.seconds);
    gpu_steps(20)?; // warm-up: pipelines, first touch of memory, the solver's first plans
    let k = calibrate(args.seconds, &mut gpu_steps)?;
    take(); // the warm-up's and the calibration's spans
    let g = measure(args.runs, k, &mut gpu_steps)?;
    let gpu_ms = take().map(|t| t.per_step_ns / 1e6);
    // What a step records: dispatches, and the bytes their layouts move per cell, over 16
    // steps (a multigrid plan point and the staggered grid's once-per-run centres pass
    // included, as they fall).
    crate::gpu::tally::start();
    model.step(TALLY_STEPS as u32)?;
    let tally = crate::gpu::tally::finish().unwrap_or_default();
    let (dispatches, bytes) = (tally.dispatches as f64 / TALLY_STEPS as f64, tally.bytes as f64 / TALLY_STEPS as f64);
    let cells = (n * n) as f64;
    // Where the water sleeps, how much of it was awake at the end.
    let parameters = match model.awake_tiles()? {
        Some(t) => format!(
            "{label}: {} of {} tiles of {}x{} cells awake at the end, {:.0}%",
            t.awake,
            t.all,
            t.cells.0,
            t.cells.1,
            100.0 * t.fraction()
        ),
        None => label.to_string(),
    };
    let passes = if args.passes {
        note!("bench: {label} at {n}x{n}: {PROFILE_STEPS} steps profiled pass by pass...");
        profile_passes(gpu, &mut model, cells)?
    } else {
        None
    };
    // The GPU model's memory goes before the CPU reference takes its own (the memory check
    // counts one of them).
    drop(model);
    // The CPU reference of the defaults only: it is what the GPU is tested against.
    let cpu = if args.no_cpu || label != variants(kind)[0].0 {
        None
    } else if !kind.has_cpu_twin() {
        note!("bench: {kind} registered no CPU twin (CustomModel::CPU_STEP): the GPU alone is timed");
        None
    } else if n > args.cpu_max_size {
        note!(
            "bench: {label} at {n}x{n}: no CPU reference above --cpu-max-size {} (one core's steps take minutes \
             there; raise it to time them)",
            args.cpu_max_size
        );
        None
    } else {
        note!("bench: {label} at {n}x{n}: CPU reference, {} runs of ~{} s...", args.runs, args.seconds);
        let mut cpu = cpu_reference(state, *params)?;
        let mut cpu_steps = |k: u64| -> Result { Ok(cpu(k as u32)?) };
        let (k, per_step) = calibrate_timed(args.seconds, &mut cpu_steps)?;
        // A run is at least MIN_RUN_STEPS steps, however short --seconds is: say what that costs.
        let total = per_step * (k * args.runs as u64) as f64;
        if total > 2.0 * args.seconds * args.runs as f64 {
            note!(
                "bench: {label} at {n}x{n}: a CPU reference step takes {per_step:.1} s, so its {} runs of {k} steps \
                 take about {total:.0} s (--no-cpu skips them)",
                args.runs
            );
        }
        Some(measure(args.runs, k, &mut cpu_steps)?)
    };
    Ok(Row {
        parameters,
        grid: [n, n],
        gpu_steps_per_s: g,
        gpu_mcells_per_s: g * cells / 1e6,
        gpu_ms_per_step: gpu_ms,
        dispatches_per_step: dispatches,
        bytes_per_cell_step: bytes / cells,
        gb_per_s: g * bytes / 1e9,
        roofline_fraction: g * bytes / 1e9 / roof,
        cpu_steps_per_s: cpu,
        passes,
    })
}

/// Each pass's GPU time over [`PROFILE_STEPS`] steps of `model`, per step, slowest first;
/// `None` where the device has no timestamps inside passes. A pass's GB/s is its bytes over its
/// own time.
fn profile_passes(gpu: &Gpu, model: &mut AnyModel, cells: f64) -> Result<Option<Vec<PassRow>>> {
    let mut all: Vec<crate::gpu::profile::PassTime> = Vec::new();
    for _ in 0..PROFILE_STEPS {
        if !crate::gpu::profile::start(&gpu.device) {
            return Ok(None);
        }
        model.step(1)?;
        let profile = crate::gpu::profile::finish(&gpu.device, &gpu.queue)?.unwrap_or_default();
        for p in profile.passes {
            match all.iter_mut().find(|a| a.label == p.label) {
                Some(a) => {
                    a.dispatches += p.dispatches;
                    a.ns += p.ns;
                    a.bytes += p.bytes;
                }
                None => all.push(p),
            }
        }
    }
    let total: f64 = all.iter().map(|p| p.ns).sum();
    let steps = PROFILE_STEPS as f64;
    let mut rows: Vec<PassRow> = all
        .iter()
        .map(|p| PassRow {
            pass: p.label,
            dispatches_per_step: p.dispatches as f64 / steps,
            gpu_ms_per_step: p.ns / steps / 1e6,
            share: if total > 0.0 { p.ns / total } else { 0.0 },
            bytes_per_cell_step: p.bytes as f64 / steps / cells,
            gb_per_s: if p.ns > 0.0 { p.bytes as f64 / p.ns } else { 0.0 },
        })
        .collect();
    rows.sort_by(|a, b| b.gpu_ms_per_step.total_cmp(&a.gpu_ms_per_step));
    Ok(Some(rows))
}

/// Side of the roofline's texture, texels: 2048^2 rgba32float is 64 MiB a texture, far past
/// any cache, as a large grid's fields are.
const ROOFLINE_SIDE: u32 = 2048;

/// The adapter's bandwidth for eddy's kind of access, GB/s: a compute pass copying one
/// `rgba32float` texture to another (`shaders/common/copy.wgsl`), 32 bytes moved per texel,
/// ping-ponged; the median of `runs` timings of ~`seconds` each.
fn roofline(gpu: &Gpu, runs: usize, seconds: f64) -> Result<f64> {
    const RGBA32: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;
    let size = (ROOFLINE_SIDE, ROOFLINE_SIDE);
    let usage = wgpu::TextureUsages::STORAGE_BINDING;
    let textures = [0, 1].map(|_| crate::gpu::texture_2d(&gpu.device, "bench/roofline", size, RGBA32, usage));
    let views = textures.each_ref().map(|t| t.create_view(&Default::default()));
    let kernel = crate::gpu::scoped(&gpu.device, || {
        crate::gpu::Kernel::new(&gpu.device, &gpu.caps, "bench/roofline", crate::shaders::COPY)
    })?;
    let view = wgpu::BindingResource::TextureView;
    let groups = [(0, 1), (1, 0)].map(|(a, b)| kernel.bind_group(&gpu.device, &[view(&views[a]), view(&views[b])]));
    let mut copies = |k: u64| -> Result {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            for i in 0..k {
                kernel.dispatch(&mut pass, &groups[i as usize % 2], size.0, size.1);
            }
        }
        gpu.queue.submit([encoder.finish()]);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(GpuError::from)?;
        gpu.check()?;
        Ok(())
    };
    copies(2)?; // warm-up: the pipeline, first touch of memory
    let k = calibrate(seconds, &mut copies)?;
    let per_second = measure(runs, k, &mut copies)?;
    Ok(per_second * 32.0 * (size.0 as f64 * size.1 as f64) / 1e9)
}

/// How many Jacobi iterations and how many V-cycles bring a random divergence's relative
/// residual to 1e-4 on an `n x n` box, and how long each takes on the GPU (median of `runs`).
fn solver_race(gpu: &Gpu, n: usize, runs: usize) -> Result<Race> {
    use crate::Grid;
    use crate::solver::GpuMultigrid;
    use crate::solver::gpu::ResidualStats;
    const TOLERANCE: f64 = 1e-4;
    let mut rng = fastrand::Rng::with_seed(9);
    let solid = Grid::filled(n, n, 0u8);
    let u = Grid::from_fn(n + 1, n, |_, c| if c == 0 || c == n { 0.0 } else { rng.f32() * 2.0 - 1.0 });
    let v = Grid::from_fn(n, n + 1, |r, _| if r == 0 || r == n { 0.0 } else { rng.f32() * 2.0 - 1.0 });
    let rhs = crate::smoke::staggered::poisson_rhs(&u, &v, &solid, 1.0);
    let zero = Grid::filled(n, n, 0.0f32);
    let mg = GpuMultigrid::new(&gpu.device, &gpu.caps, &gpu.queue, &solid, crate::solver::NEUMANN, Default::default())?;
    let stats = ResidualStats::new(&gpu.device, &gpu.caps, n as u32);
    let relative = || -> Result<f64> {
        let (r, b) = stats.norms(&gpu.device, &gpu.queue, mg.pressure_view(), mg.rhs_view(), mg.solid_view(), 1.0)?;
        Ok(r / b)
    };
    let run = |jacobi: u32, cycles: u32| -> Result<f64> {
        mg.upload(&gpu.queue, &rhs, &zero);
        let t = Instant::now();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        mg.encode_jacobi(&mut encoder, jacobi);
        mg.encode_cycles(&mut encoder, cycles);
        gpu.queue.submit([encoder.finish()]);
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(GpuError::from)?;
        Ok(t.elapsed().as_secs_f64())
    };
    // V-cycles: one more at a time.
    let mut cycles = 0;
    loop {
        cycles += 1;
        run(0, cycles)?;
        if relative()? <= TOLERANCE || cycles >= 100 {
            break;
        }
    }
    // Jacobi: grow by doubling, then bisect to the first count that reaches the tolerance; a
    // run that takes longer than JACOBI_LIMIT_S stops the search (a CPU adapter needs minutes).
    let (mut lo, mut hi) = (0u32, 64u32);
    let mut reached = true;
    loop {
        let t = run(hi, 0)?;
        if relative()? <= TOLERANCE {
            break;
        }
        if hi >= 1 << 22 || t > JACOBI_LIMIT_S {
            reached = false;
            break;
        }
        (lo, hi) = (hi, hi * 2);
    }
    while reached && hi - lo > hi / 100 + 1 {
        let mid = (lo + hi) / 2;
        run(mid, 0)?;
        if relative()? <= TOLERANCE { hi = mid } else { lo = mid }
    }
    let median_of = |jacobi: u32, cycles: u32| -> Result<f64> {
        Ok(median((0..runs.max(1)).map(|_| run(jacobi, cycles)).collect::<Result<Vec<f64>>>()?))
    };
    let tv = median_of(0, cycles)?;
    let tj = if reached { median_of(hi, 0)? } else { run(hi, 0)? };
    say!();
    say!("Pressure solve on {n}x{n}, a random divergence (closed box) to a relative residual of {TOLERANCE:e}:");
    say!();
    say!("| solver | iterations | GPU time |");
    say!("|---|---|---|");
    if reached {
        say!("| Jacobi | {hi} (to within 1%) | {:.1} ms |", tj * 1e3);
    } else {
        let left = relative()?;
        say!("| Jacobi | more than {hi} (relative residual {left:.1e} after them) | over {:.1} ms |", tj * 1e3);
    }
    let ratio = if tj >= tv { format!("{:.1}x faster", tj / tv) } else { format!("{:.1}x slower", tv / tj) };
    say!("| multigrid V(2,2) | {cycles} V-cycles | {:.1} ms ({ratio}) |", tv * 1e3);
    Ok(Race {
        grid: [n, n],
        tolerance: TOLERANCE,
        jacobi_iterations: hi,
        jacobi_reached: reached,
        jacobi_ms: tj * 1e3,
        v_cycles: cycles,
        multigrid_ms: tv * 1e3,
    })
}

/// `x` to three significant digits, at least (1.80 steps/s, 24.1, 316, 3076): a slow row's rate
/// to one decimal (1.8) hides differences of up to 6%.
fn significant(x: f64) -> String {
    let decimals = if x.abs() > 0.0 { (2 - x.abs().log10().floor() as i32).clamp(0, 3) } else { 1 };
    format!("{x:.*}", decimals as usize)
}

#[cfg(test)]
mod tests {
    use crate::ModelKind;

    /// The bodies rows' bodies pass each model's own check at every grid `eddy bench` may be
    /// given a side of (powers of two and between), with the default parameters.
    #[test]
    fn bench_bodies_pass_the_models_checks_on_every_grid() {
        let smoke = crate::smoke::SmokeParams::default();
        for n in [16, 64, 100, 256, 384, 512, 1000, 1024, 2048, 4096, 16384] {
            let bodies = super::bench_bodies(n, ModelKind::Smoke);
            crate::smoke::check_bodies(&bodies, &smoke).unwrap_or_else(|e| panic!("smoke at {n}: {e}"));
            let bodies = super::bench_bodies(n, ModelKind::Gas);
            crate::gas::bodies::check(&bodies).unwrap_or_else(|e| panic!("gas at {n}: {e}"));
        }
    }

    #[test]
    fn rates_keep_three_significant_digits() {
        let cases =
            [(1.8036, "1.80"), (24.06, "24.1"), (316.3, "316"), (3075.9, "3076"), (0.0123, "0.012"), (0.0, "0.0")];
        for (x, shown) in cases {
            assert_eq!(super::significant(x), shown, "{x}");
        }
    }
}
