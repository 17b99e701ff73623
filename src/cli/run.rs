//! `eddy run`: the headless runner. A run is never lost: outputs are checked before the first
//! step, Ctrl-C saves the state reached, a non-finite value rolls back to the last finite state
//! and saves it, and every `.npz` is written atomically.

use super::out::{note, say};
use super::{Exit, Result, RunArgs, usage};
use crate::colour::ColourMap;
use crate::files;
use crate::gpu::{Gpu, GpuError};
use crate::model::params::readable;
use crate::model::{AnyModel, AnyStats, Done, ModelKind, Session, SessionOptions, Start, memory};
use crate::record::{DEFAULT_FPS, Format, Recorder};
use crate::render::FrameTarget;
use crate::script::{Action, Player, Script};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

/// Signals received (SIGINT, SIGTERM, SIGHUP); the first asks the run to stop, a second exits.
static SIGNALS: AtomicU32 = AtomicU32::new(0);

/// Wall time one chunk of steps between checks aims at: progress, Ctrl-C and non-finite values
/// are noticed within about this long.
const CHECK_EVERY_S: f64 = 0.25;
/// Most steps recorded into one command buffer.
const MAX_CHUNK: u64 = 4096;

/// A repeat of the signal sooner than this after the first is the same interrupt: `timeout -s
/// INT` and some shells deliver one Ctrl-C twice (to the process, then to its group) within
/// microseconds, and that must not cost the save.
const REPEAT_S: f64 = 1.0;

/// Installs the Ctrl-C / SIGTERM handler: the first signal asks the run to stop at the next step
/// boundary and save (`eddy bench`: at the next timed run, keeping the rows measured); another
/// one more than [`REPEAT_S`] later exits at once (an `.npz` being written is then left alone:
/// it goes to a temporary file first).
pub(crate) fn catch_signals() {
    let first = std::sync::OnceLock::new();
    let _ = ctrlc::set_handler(move || {
        let at = *first.get_or_init(Instant::now);
        if SIGNALS.fetch_add(1, Ordering::SeqCst) >= 1 && at.elapsed().as_secs_f64() > REPEAT_S {
            note!(
                "eddy: second interrupt: exiting without saving (a save in progress stays as a .eddy-partial-* file beside its target)"
            );
            std::process::exit(130);
        }
    });
}

pub(crate) fn interrupted() -> bool {
    SIGNALS.load(Ordering::SeqCst) > 0
}

/// Where a state goes when the run stops early (`why` = `interrupted` or `last-finite`) and no
/// `--save` was given, or when `--save` fails at the end (`unsaved`): `eddy-<why>-<mode>.npz`
/// in the current folder, or `...-2.npz`, `-3`, ... when that exists (an earlier run's file is
/// never replaced).
fn fallback_path(why: &str, kind: ModelKind) -> PathBuf {
    let name = |n: u32| match n {
        1 => PathBuf::from(format!("eddy-{why}-{kind}.npz")),
        n => PathBuf::from(format!("eddy-{why}-{kind}-{n}.npz")),
    };
    (1..).map(name).find(|p| !p.exists()).expect("some name is free")
}

pub fn run(mut args: RunArgs) -> Result {
    let script = load_script(&mut args)?;
    let steps = args.steps.unwrap_or_else(|| script.as_ref().map_or(1000, |s| s.end().max(1)));
    let setup = args.sim.setup()?;
    let kind = setup.kind;
    let fps = check_options(&args, kind, script.as_ref())?;
    let view = args.field.as_deref().unwrap_or(kind.info().views[0].name);
    kind.view(view).map_err(|e| usage(format!("--field {e}")))?;
    let colour_map = args.colour_map.as_deref().map(ColourMap::from_name).transpose().map_err(usage)?;
    let look = args.look.as_deref().map(crate::render::Look::from_name).transpose().map_err(usage)?;
    check_outputs(&args, fps)?;
    catch_signals();

    let gpu = Gpu::headless_for(&ModelKind::requirements(&[kind]))?;
    note!("adapter: {}", gpu.adapter_label());
    let describe = setup.describe();
    let params = setup.params;
    let drawn = args.frames.is_some() || args.gif.is_some() || args.video.is_some();
    let extras = memory::Extras { checkpoint: true, frame_scale: drawn.then_some(args.scale) };
    let seed = args.sim.seed.unwrap_or(1);
    let max_side = u64::from(gpu.device.limits().max_texture_dimension_2d);
    let (w, h) = setup.size();
    let pixels = (w as u64 * u64::from(args.scale), h as u64 * u64::from(args.scale));
    if drawn && pixels.0.max(pixels.1) > max_side {
        return Err(usage(format!(
            "frames of {w}x{h} cells at --scale {} would be {}x{} pixels, past this adapter's largest texture side \
             ({max_side}): record a smaller world, or run without --frames, --gif and --video",
            args.scale, pixels.0, pixels.1
        )));
    }
    let (state, first_step) = setup.state(&gpu, extras).map_err(super::setup::exit)?;
    if script.is_none() {
        let given: Vec<&str> =
            args.sim.params.given.iter().filter(|(owner, ..)| *owner == kind).map(|(_, info, _)| info.name).collect();
        if let Some(why) = crate::model::start::unused_on(&state, &given) {
            return Err(usage(why));
        }
    }
    if first_step.checked_add(steps).is_none_or(|end| end > i64::MAX as u64) {
        return Err(usage(format!(
            "the state is at step {first_step}, and {steps} more steps pass the largest step a .npz holds (2^63 - 1): run fewer"
        )));
    }
    if let Some(why) = custom_inflow_unset(&params, &state) {
        return Err(usage(why));
    }
    let check = match &args.check_hashes {
        Some(path) => Some(
            super::hashes::HashCheck::open(path, first_step, first_step + steps)
                .map_err(|e| usage(format!("--check-hashes {e}")))?,
        ),
        None => None,
    };
    let (h, w) = state.shape();
    let start = Start::State(Box::new(state), first_step);
    let options = SessionOptions { params, start, size: (w, h), seed };
    let mut session = Session::new(&gpu.device, &gpu.queue, &gpu.adapter, options)?;
    session.model().set_view(view).map_err(usage)?;
    if let Some(map) = colour_map {
        session.model().set_colour_map(map);
    }
    if let Some(look) = look {
        session.set_look(look);
    }
    if args.sleep {
        session.set_sleep(true)?;
    }
    if let Some(script) = &script {
        // Against the parameters the run starts with, the command line's options among them.
        let path = args.script.as_deref().unwrap_or(std::path::Path::new("")).display();
        script.check_from(&session).map_err(|e| usage(format!("script {path}: {e}")))?;
    }
    let (w, h) = session.model_ref().size();
    check_recordings(&args, script.as_ref(), (w * args.scale, h * args.scale), fps)?;
    let start = session.model_ref().stats()?;
    if start.non_finite() > 0 {
        return Err("the starting state has non-finite values".into());
    }
    if let Some((sum, value)) = start.overflowed() {
        return Err(format!(
            "the starting state's {sum} is {value} in f32: its values are too large to simulate (f32 ends near 3.4e38)"
        )
        .into());
    }
    let packed = match session.model_ref().packed_world_pages() {
        0 => String::new(),
        1 => ", a packed world: four cells a texel, past this adapter's largest texture".into(),
        n => format!(", a packed world in {n} pages of rows: four cells a texel, past what one texture holds"),
    };
    note!("{kind}: {describe} ({w}x{h} cells{packed}), {steps} steps");

    // Smoke's step in time units (water and gas count steps).
    let dt = match params.get("dt") {
        Some(crate::model::Value::Real(dt)) => Some(dt),
        _ => None,
    };
    if args.forces.is_some() && !session.model().logs_forces() {
        return Err(usage(match kind {
            ModelKind::Smoke => {
                "--forces: smoke's collocated grid has no bodies (the staggered grid, --grid staggered, logs their forces)"
                    .to_string()
            }
            ModelKind::Water => {
                "--forces: water logs the forces on its bodies, and this run has none: give it some (--body)".to_string()
            }
            _ => format!("--forces: {kind} does not log forces on bodies (smoke, water and gas do)"),
        }));
    }
    let mut outputs = Outputs::new(&gpu, &args, script.as_ref(), dt, fps)?;
    outputs.first = first_step;
    outputs.check = check;
    let ran = run_steps(&mut session, &gpu, &args, &mut outputs, steps, dt)?;
    report(&mut session, &args, kind, &start, &ran, steps)
}

/// Why `--inflow-profile custom` would run no inflow: the profile keeps the speeds the inflow
/// faces hold, and the starting state's are all 0 (a new scene's, or a state saved without a
/// profile).
fn custom_inflow_unset(params: &crate::model::ModelParams, state: &crate::model::AnyState) -> Option<String> {
    use crate::smoke::{EdgeKind, InflowProfile};
    let (crate::model::ModelParams::Smoke(p), crate::model::AnyState::Smoke(s)) = (params, state) else {
        return None;
    };
    if p.inflow_profile != InflowProfile::Custom || s.layout() != crate::smoke::GridLayout::Staggered {
        return None;
    }
    let inflows: Vec<usize> = (0..4).filter(|&e| p.edges[e] == EdgeKind::Inflow).collect();
    let still = |e: usize| crate::smoke::staggered::inflow_speeds(s, e).iter().all(|&v| v == 0.0);
    (!inflows.is_empty() && inflows.iter().all(|&e| still(e))).then(|| {
        "--inflow-profile custom keeps the speeds the inflow faces hold, and this run's are all 0: --load a state \
         saved with a profile (Python's set_inflow_profile gives one), or use --inflow-profile uniform or parabolic"
            .to_string()
    })
}

/// `--script`'s script, with its mode, scene, size and seed filled into the options not given,
/// and every file it writes checked against the command line's outputs.
fn load_script(args: &mut RunArgs) -> Result<Option<Script>> {
    let Some(path) = &args.script else { return Ok(None) };
    let script = Script::load(path, args.sim.stated_mode()).map_err(usage)?;
    let options = [
        ("--gif", args.gif.as_deref()),
        ("--video", args.video.as_deref()),
        ("--save", args.save.as_deref()),
        ("--frames", args.frames.as_deref()),
    ];
    super::check_script_outputs(&script, &options)?;
    args.sim.fill_from(&script);
    Ok(Some(script))
}

/// The options that do not name a file: steps between outputs, the frame rate (returned, or
/// its default), `--steady`, and `--vtk` for a registered model (the run's or one a script
/// switches to).
fn check_options(args: &RunArgs, kind: ModelKind, script: Option<&Script>) -> Result<f64> {
    if args.every == 0 {
        return Err(usage("--every must be at least 1 step"));
    }
    if args.gif_every == 0 {
        return Err(usage("--gif-every must be at least 1 step"));
    }
    if args.video_every == 0 {
        return Err(usage("--video-every must be at least 1 step"));
    }
    if args.fps.is_some() && args.gif.is_none() && args.video.is_none() {
        return Err(usage(
            "--fps sets how fast --gif and --video play: give one of them (a script's recordings take their own fps)",
        ));
    }
    if let Some(tol) = args.steady {
        if kind != ModelKind::Smoke {
            return Err(usage(format!("--steady compares smoke's velocity over time; this run is {kind}: drop it")));
        }
        if !(tol.is_finite() && tol > 0.0) {
            return Err(usage(format!("--steady {tol}: the tolerance must be a number > 0, e.g. 1e-5")));
        }
    }
    // The models the run steps: its first, and those its script switches to.
    let switches = script.into_iter().flat_map(|s| &s.actions).filter_map(|t| match t.action {
        Action::Model(k) => Some(k),
        _ => None,
    });
    let models: Vec<ModelKind> = std::iter::once(kind).chain(switches).collect();
    let hashed = [("--hashes", args.hashes.is_some()), ("--check-hashes", args.check_hashes.is_some())];
    for (option, _) in hashed.iter().filter(|(_, given)| *given) {
        let reset = script.into_iter().flat_map(|s| &s.actions).find(|t| t.action == Action::Reset);
        if let Some(t) = reset {
            return Err(usage(format!(
                "{option} logs the hash step by step, and the script's reset at step {} takes the step count back \
                 to the start: drop the reset or {option}",
                t.at
            )));
        }
    }
    match (args.hash_every, args.hashes.is_some()) {
        (Some(0), _) => return Err(usage("--hash-every must be at least 1 step")),
        (Some(_), false) => return Err(usage("--hash-every sets how often --hashes writes a row: give --hashes too")),
        _ => {}
    }
    if args.sleep && !models.contains(&ModelKind::Water) {
        return Err(usage(format!(
            "--sleep lets water's still tiles sleep; this run is {kind}, which steps every cell: drop it"
        )));
    }
    if let Some(kind) = models.iter().find(|k| matches!(k, ModelKind::Custom(_)))
        && args.vtk.is_some()
    {
        return Err(usage(format!(
            "--vtk writes the fields of eddy's own models, and {kind} is registered from outside: save its state \
             with --save (.npz) or draw it with --frames"
        )));
    }
    Ok(args.fps.unwrap_or(DEFAULT_FPS))
}

/// Every output is checked before the first step: a run must not fail at its end.
fn check_outputs(args: &RunArgs, fps: f64) -> Result {
    if let Some(path) = &args.save {
        files::check_writable_file(path).map_err(|e| usage(format!("--save: {e}")))?;
        super::check_extension("--save", path, "npz")?;
        if args.frames.as_ref().is_some_and(|f| f == path) {
            return Err(usage("--save and --frames name the same path: a state file and a folder of frames"));
        }
    }
    if let Some(dir) = &args.frames {
        check_output_dir("--frames", dir, ("frame_", ".png"))?;
    }
    if let Some(dir) = &args.vtk {
        check_output_dir("--vtk", dir, ("step_", ".vti"))?;
        if args.frames.as_ref() == Some(dir) {
            return Err(usage("--vtk and --frames name the same folder: give each its own"));
        }
    }
    for (option, path, format) in [("--gif", &args.gif, Format::Gif), ("--video", &args.video, Format::Mp4)] {
        let Some(path) = path else { continue };
        files::check_writable_file(path).map_err(|e| usage(format!("{option}: {e}")))?;
        super::check_extension(option, path, format.extension())?;
        format.check_fps(fps).map_err(|e| usage(format!("--fps: {e}")))?;
    }
    if let Some(path) = &args.forces {
        files::check_writable_file(path).map_err(|e| usage(format!("--forces: {e}")))?;
        super::check_extension("--forces", path, "csv")?;
        let taken = [&args.save, &args.gif, &args.video, &args.frames, &args.vtk];
        if taken.iter().any(|p| p.as_ref() == Some(path)) {
            return Err(usage("--forces names the same path as another output: give it its own"));
        }
    }
    if let Some(path) = &args.hashes {
        files::check_writable_file(path).map_err(|e| usage(format!("--hashes: {e}")))?;
        super::check_extension("--hashes", path, "csv")?;
        let taken = [&args.save, &args.gif, &args.video, &args.frames, &args.vtk, &args.forces, &args.check_hashes];
        if taken.iter().any(|p| p.as_ref() == Some(path)) {
            return Err(usage("--hashes names the same path as another file of the run: give it its own"));
        }
    }
    if args.save.is_none() && files::check_writable_dir(std::path::Path::new(".")).is_err() {
        note!("note: no file can be created in the current folder: give --save, or an interrupted run cannot be saved");
    }
    Ok(())
}

/// The recordings' frames, `pixels` (the grid at --scale), within what their formats take:
/// --gif's, --video's and the script's.
fn check_recordings(args: &RunArgs, script: Option<&Script>, pixels: (u32, u32), fps: f64) -> Result {
    let scripted = script.iter().flat_map(|s| &s.actions).filter_map(|t| match &t.action {
        Action::Record { path, fps, .. } => Some((path.display().to_string(), path.as_path(), *fps)),
        _ => None,
    });
    let given = [("--video", &args.video), ("--gif", &args.gif)];
    for (what, path, fps) in
        given.iter().filter_map(|(o, p)| p.as_deref().map(|p| (o.to_string(), p, fps))).chain(scripted)
    {
        Format::check(path, fps, pixels).map_err(|e| usage(format!("{what}: {e} (--scale {})", args.scale)))?;
    }
    Ok(())
}

/// What a run writes while it steps: PNG frames and VTK files every `--every` steps, the
/// recordings (--gif's, --video's and a script's, each with its steps between frames and its
/// cap), and the script's actions.
struct Outputs<'a> {
    gpu: &'a Gpu,
    args: &'a RunArgs,
    /// Smoke's step in time units (the VTK series' times); water and gas count steps.
    dt: Option<f32>,
    vtk: Option<crate::vtk::Series>,
    recordings: Vec<Recording>,
    player: Option<Player>,
    /// --forces's CSV.
    forces: Option<super::forces::ForcesCsv>,
    /// --hashes's log and --check-hashes's check.
    hashes: Option<super::hashes::HashLog>,
    check: Option<super::hashes::HashCheck>,
    /// The step the run starts at (a loaded state's).
    first: u64,
}

impl<'a> Outputs<'a> {
    fn new(gpu: &'a Gpu, args: &'a RunArgs, script: Option<&Script>, dt: Option<f32>, fps: f64) -> Result<Self> {
        let mut recordings = Vec::new();
        for (path, every) in [(&args.gif, args.gif_every), (&args.video, args.video_every)] {
            let Some(path) = path else { continue };
            let recorder = Recorder::new(path, fps)?;
            let cap = recorder.format().max_frames();
            recordings.push(Recording { recorder, every, cap, next: 0 });
        }
        let vtk = args.vtk.as_deref().map(crate::vtk::Series::new);
        let forces = args.forces.as_deref().map(super::forces::ForcesCsv::new).transpose()?;
        let every = args.hash_every.unwrap_or(1);
        let hashes = args.hashes.as_deref().map(|p| super::hashes::HashLog::new(p, every)).transpose()?;
        let player = script.map(Player::new);
        Ok(Outputs { gpu, args, dt, vtk, recordings, player, forces, hashes, check: None, first: 0 })
    }

    /// The simulation view at `scale` pixels per cell.
    fn draw(&self, session: &mut Session, scale: u32) -> Result<image::RgbaImage> {
        let target = FrameTarget::new(&self.gpu.device, session.model_ref().size(), scale)?;
        let model = session.model();
        Ok(target.render(&self.gpu.device, &self.gpu.queue, |encoder, view, size| {
            model.draw(encoder, view, FrameTarget::FORMAT, size)
        })?)
    }

    /// Whether --frames or --vtk writes a file every --every steps.
    fn every(&self) -> bool {
        self.args.frames.is_some() || self.args.vtk.is_some()
    }

    /// A PNG frame (--frames) and a VTK file (--vtk) of the step reached.
    fn frame(&mut self, session: &mut Session) -> Result {
        if let Some(dir) = &self.args.frames {
            let path = dir.join(format!("frame_{:06}.png", session.model_ref().steps_done()));
            write_png(&path, &self.draw(session, self.args.scale)?)?;
        }
        if let Some(series) = self.vtk.as_mut() {
            let step = session.model_ref().steps_done();
            let state = session.model().read_state()?;
            let (fields, solid) = state.vtk_fields();
            series.add(step, step as f64 * self.dt.map_or(1.0, f64::from), &fields, solid)?;
        }
        Ok(())
    }

    /// Plays the script's actions due at `done` steps; whether one of them quits.
    fn act(&mut self, session: &mut Session, done: u64) -> Result<bool> {
        let mut quit = false;
        let Some(player) = &mut self.player else { return Ok(quit) };
        for action in player.due(done) {
            let what = action.describe();
            match session.apply(&action).map_err(|e| format!("the script's action at step {done} ({what}): {e}"))? {
                Done::Set(kind, changed) => note!("step {done}: {kind}: {}", crate::model::changes(&changed)),
                Done::Applied => {}
                Done::Front => match action {
                    Action::Screenshot(path, scale) => {
                        write_png(&path, &self.draw(session, scale)?)?;
                        note!("step {done}: screenshot {}", path.display());
                    }
                    Action::Save(path) => {
                        session.model().save_npz(&path)?;
                        note!("step {done}: saved {}", path.display());
                    }
                    Action::Record { path, frames, every, fps } => self.recordings.push(Recording {
                        recorder: Recorder::new(&path, fps)?,
                        every: every as u64,
                        cap: frames,
                        next: done,
                    }),
                    Action::Quit => quit = true,
                    _ => {} // pauses are the viewer's
                },
            }
        }
        Ok(quit)
    }

    /// Adds a frame to each recording due at `done` steps; finishes those at their cap.
    fn record(&mut self, session: &mut Session, done: u64) -> Result {
        let mut finished = Vec::new();
        for i in 0..self.recordings.len() {
            if done >= self.recordings[i].next {
                let frame = self.draw(session, self.args.scale)?;
                let r = &mut self.recordings[i];
                r.recorder.add(frame)?;
                r.next = done + r.every;
                if r.recorder.frames() >= r.cap {
                    finished.push(i);
                }
            }
        }
        for i in finished.into_iter().rev() {
            finish_recording(self.recordings.remove(i))?;
        }
        Ok(())
    }

    /// At most `n` steps from `done`, fewer to land exactly on the next frame, recording frame or
    /// script action.
    fn steps_until_next(&self, done: u64, mut n: u64) -> u64 {
        if self.every() {
            n = n.min(self.args.every - done % self.args.every);
        }
        for r in &self.recordings {
            n = n.min(r.next.saturating_sub(done).max(1));
        }
        if let Some(p) = &self.player {
            n = p.steps_until_next(done, n).max(1);
        }
        if self.forces.is_some() {
            // Read before the force log's oldest steps are overwritten.
            n = n.min(crate::body::forces::LOG_STEPS as u64);
        }
        let step = self.first + done;
        if let Some(log) = &self.hashes {
            n = n.min(log.steps_to_next(step));
        }
        if let Some(k) = self.check.as_ref().and_then(|c| c.steps_to_next(step)) {
            n = n.min(k);
        }
        n
    }

    /// The state hash at the step reached, into --hashes's log and against --check-hashes's.
    fn hash(&mut self, session: &mut Session) -> Result {
        if let Some(log) = &mut self.hashes {
            log.write(session.model_ref())?;
        }
        if let Some(check) = &mut self.check {
            check.check(session.model_ref())?;
        }
        Ok(())
    }

    /// Writes the forces logged since the last call (--forces).
    fn forces(&mut self, session: &mut Session) -> Result {
        match &mut self.forces {
            Some(csv) => csv.write(session.model(), self.dt.unwrap_or(1.0)),
            None => Ok(()),
        }
    }

    /// Finishes the recordings being made and the forces' CSV.
    fn finish(&mut self) -> Result {
        let recordings = std::mem::take(&mut self.recordings).into_iter().try_for_each(finish_recording);
        let forces = match self.forces.take() {
            Some(csv) => {
                let path = self.args.forces.as_deref().unwrap_or(std::path::Path::new("")).display().to_string();
                csv.finish().map(|rows| note!("wrote {rows} rows of forces to {path}"))
            }
            None => Ok(()),
        };
        let hashes = match self.hashes.take() {
            Some(log) => {
                let path = self.args.hashes.as_deref().unwrap_or(std::path::Path::new("")).display().to_string();
                log.finish().map(|rows| note!("wrote {rows} state hashes to {path}"))
            }
            None => Ok(()),
        };
        // All are finished whatever any does; the first failure is the one said.
        recordings.and(forces).and(hashes)
    }
}

/// What the stepping reached.
struct Ran {
    /// Steps run (to the steady state, when --steady found one).
    steps: u64,
    elapsed: f64,
    /// `(step, change)` where --steady found the velocity steady.
    steady_at: Option<(u64, f32)>,
    /// Checks whose multigrid solve stopped at its V-cycle cap above the tolerance, of all
    /// checks, and the largest residual such a solve left.
    capped: u64,
    checks: u64,
    capped_residual: f64,
    /// --steady's chunk: steps a time unit, and `dt`.
    time_unit: Option<(u64, f32)>,
    /// --check-hashes's summary.
    replay: Option<String>,
}

/// Steps the session `steps` times in chunks of about [`CHECK_EVERY_S`], writing the outputs
/// and playing the script between chunks, checking each chunk's statistics (a non-finite value
/// rolls back and saves), stopping at Ctrl-C (and saving), a script's quit or `--steady`.
fn run_steps(
    session: &mut Session,
    gpu: &Gpu,
    args: &RunArgs,
    outputs: &mut Outputs,
    steps: u64,
    dt: Option<f32>,
) -> Result<Ran> {
    let bar = ProgressBar::new(steps).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} steps  {per_sec}  eta {eta}").expect("static template"),
    );
    // From here on the session holds a run: when an output (a frame, a recording, a script's
    // save or screenshot, the readback for --steady), an action or the replay check fails, the
    // state reached is saved first (to --save, or eddy-stopped-<mode>.npz), the files being
    // written are finished with what they hold, and the error says where.
    macro_rules! or_keep {
        ($result:expr) => {
            match $result {
                Ok(value) => value,
                Err(e) => {
                    bar.finish_and_clear();
                    let saved = save_stopped(session.model(), args, e.into());
                    return Err(also(saved, outputs.finish()));
                }
            }
        };
    }
    or_keep!(outputs.hash(session));
    let mut quit = or_keep!(outputs.act(session, 0));
    or_keep!(outputs.frame(session));
    or_keep!(outputs.record(session, 0));
    session.model().checkpoint();

    // --steady: chunks of one time unit, each compared with the state a time unit before.
    let time_unit = dt.filter(|_| args.steady.is_some()).map(|dt| ((1.0 / dt).ceil().max(1.0) as u64, dt));
    let mut last_velocity = match time_unit {
        Some(_) => Some(or_keep!(session.model().read_state())),
        None => None,
    };
    let mut ran = Ran {
        steps: 0,
        elapsed: 0.0,
        steady_at: None,
        capped: 0,
        checks: 0,
        capped_residual: 0.0,
        time_unit,
        replay: None,
    };
    let started = Instant::now();
    let mut done = 0u64;
    let mut chunk = 1u64;
    while done < steps && !quit {
        if interrupted() {
            bar.finish_and_clear();
            // The state first: a frame or recording that fails now must not cost it.
            let saved = save_interrupted(session.model(), args, done, steps);
            let mut written = Ok(());
            if outputs.every() && !done.is_multiple_of(args.every) {
                written = outputs.frame(session); // the step it stopped at
            }
            let written = written.and_then(|()| outputs.finish());
            return Err(also(saved, written));
        }
        let mut n = outputs.steps_until_next(done, chunk.min(steps - done));
        if let Some((per_unit, _)) = time_unit {
            n = n.min(per_unit - done % per_unit); // land exactly on time units
        }
        let t = Instant::now();
        session.step(n as u32)?;
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(GpuError::from)?;
        gpu.check()?;
        done += n;
        let stats = session.model_ref().stats()?;
        if stats.non_finite() > 0 || stats.overflowed().is_some() {
            bar.finish_and_clear();
            let saved = save_last_finite(session.model(), args, &stats);
            return Err(also(saved, outputs.finish()));
        }
        or_keep!(outputs.forces(session));
        or_keep!(outputs.hash(session));
        session.model().checkpoint();
        ran.checks += 1;
        if let crate::model::AnyStats::Smoke(s) = &stats
            && s.solver_capped
        {
            ran.capped += 1;
            ran.capped_residual = ran.capped_residual.max(s.solver_residual);
        }
        let rate = n as f64 / t.elapsed().as_secs_f64().max(1e-6);
        chunk = ((rate * CHECK_EVERY_S) as u64).clamp(1, MAX_CHUNK);
        bar.set_position(done);
        if done.is_multiple_of(args.every) || done == steps {
            or_keep!(outputs.frame(session));
        }
        // Actions first: a recording started at this step takes this step's frame.
        quit |= or_keep!(outputs.act(session, done));
        or_keep!(outputs.record(session, done));
        if let (Some((per_unit, dt)), Some(tol)) = (time_unit, args.steady)
            && done.is_multiple_of(per_unit)
        {
            let now = or_keep!(session.model().read_state());
            if let (Some(crate::model::AnyState::Smoke(before)), crate::model::AnyState::Smoke(after)) =
                (&last_velocity, &now)
            {
                let change = crate::smoke::cavity::steady_change(before, after, per_unit as f32 * dt);
                if (change as f64) < tol {
                    ran.steady_at = Some((done, change));
                    if outputs.every() && !done.is_multiple_of(args.every) {
                        or_keep!(outputs.frame(session));
                    }
                    break;
                }
            }
            last_velocity = Some(now);
        }
    }
    ran.steps = ran.steady_at.map_or(done, |(at, _)| at);
    ran.elapsed = started.elapsed().as_secs_f64();
    ran.replay = outputs.check.as_ref().map(super::hashes::HashCheck::summary);
    bar.finish_and_clear();
    or_keep!(outputs.finish());
    Ok(ran)
}

/// The run's summary: its speed, --steady's outcome, the statistics at the end against the
/// start, a capped solve's warning, and the final state saved to --save.
fn report(session: &mut Session, args: &RunArgs, kind: ModelKind, start: &AnyStats, ran: &Ran, steps: u64) -> Result {
    let model = session.model();
    let (w, h) = model.size();
    let end = model.stats()?;
    let rate = ran.steps as f64 / ran.elapsed.max(1e-9);
    say!(
        "ran {} steps in {:.2} s: {rate:.1} steps/s, {:.1} Mcells/s (including checks every ~{CHECK_EVERY_S} s)",
        ran.steps,
        ran.elapsed,
        rate * (w * h) as f64 / 1e6
    );
    match (ran.steady_at, ran.time_unit, args.steady) {
        (Some((at, change)), Some((_, dt)), Some(tol)) => say!(
            "steady at step {} (time {:.1}): the velocity changed {change:.2e} of its top speed in the last time unit, below {tol:e}",
            model.steps_done(),
            at as f32 * dt
        ),
        (None, Some(_), Some(tol)) => {
            say!("not steady after {steps} steps: the velocity still changes more than {tol:e} per time unit")
        }
        _ => {}
    }
    if model.kind() == kind {
        let change = end.total() - start.total();
        let sign = if change > 0.0 { "+" } else { "" };
        say!("{} (start {:.4}, change {sign}{})", end.line(), start.total(), readable(change, 4));
    } else {
        say!("{} ({} at the end)", end.line(), model.kind());
    }
    let hash = crate::gpu::state_hash::hex(model.state_hash()?);
    say!("state hash {hash} ({}, bit for bit)", model.state_hash_covers());
    if let Some(replay) = &ran.replay {
        say!("{replay}");
    }
    if let Some(t) = model.awake_tiles()? {
        let (tw, th) = t.cells;
        say!(
            "water sleeps: {} of {} tiles ({tw}x{th} cells) awake for the next step, {:.1}%",
            t.awake,
            t.all,
            100.0 * t.fraction()
        );
    }
    if model.logs_forces() && !model.bodies().is_empty() {
        model.read_forces()?;
        if let Some(last) = model.latest_forces() {
            for (i, f) in last.forces.iter().enumerate() {
                say!(
                    "body {i}: the fluid's force ({}, {}), torque {} (cell masses x cells / time unit^2, y down; step {})",
                    readable(f.fx as f64, 4),
                    readable(f.fy as f64, 4),
                    readable(f.torque as f64, 4),
                    last.step
                );
            }
        }
        // Where the fluid took the free bodies.
        model.sync_bodies()?;
        for (i, b) in model.bodies().iter().enumerate() {
            if let Some(density) = b.density {
                say!(
                    "body {i} (free, density {density}): at ({}, {}), velocity ({}, {}) cells/time unit, spin {} rad/time unit",
                    readable(b.x as f64, 4),
                    readable(b.y as f64, 4),
                    readable(b.vx as f64, 4),
                    readable(b.vy as f64, 4),
                    readable(b.spin as f64, 4)
                );
            }
        }
    }
    if ran.capped > 0 {
        let params = model.params();
        let get = |name| match params.get(name) {
            Some(crate::model::Value::Count(n)) => n.to_string(),
            Some(crate::model::Value::Real(v)) => readable(v as f64, 2),
            _ => "?".to_string(),
        };
        note!(
            "warning: the multigrid solve stopped at its cap of {} V-cycles short of the tolerance {} at {} of \
             {} checks (relative residual up to {}), so the projection left divergence: raise --max-cycles, \
             or --tolerance",
            get("max-cycles"),
            get("tolerance"),
            ran.capped,
            ran.checks,
            readable(ran.capped_residual, 2)
        );
    }
    if let Some(path) = &args.save {
        if let Err(e) = model.save_npz(path) {
            // The run is done; its state is not lost because its path went bad meanwhile.
            let fallback = fallback_path("unsaved", model.kind());
            return Err(match model.save_npz(&fallback) {
                Ok(()) => format!(
                    "saving {} failed ({e}); the state is saved to {} instead",
                    path.display(),
                    fallback.display()
                ),
                Err(e2) => format!("saving {} failed ({e}), and so did {} ({e2})", path.display(), fallback.display()),
            }
            .into());
        }
        say!("saved {} (step {})", path.display(), model.steps_done());
    }
    if let Some(dir) = &args.frames {
        say!("frames in {}", dir.display());
    }
    if let Some(dir) = &args.vtk {
        say!("VTK series in {}", dir.join(crate::vtk::Series::COLLECTION).display());
    }
    Ok(())
}

/// The text of an [`Exit`].
fn message(e: Exit) -> String {
    match e {
        Exit::Usage(e) | Exit::Failed(e) => e.to_string(),
        Exit::Interrupted(s) => s,
    }
}

/// Checks the folder of `option` (`--frames`, `--vtk`) before the first step: writable (made
/// when missing), and holding no `prefix*suffix` files of an earlier run, which this run would
/// overwrite or mix with its own.
fn check_output_dir(option: &str, dir: &std::path::Path, (prefix, suffix): (&str, &str)) -> Result {
    files::check_writable_dir(dir).map_err(|e| usage(format!("{option}: {e}")))?;
    let old = files::files_like(dir, prefix, suffix);
    match old.first() {
        Some(first) => Err(usage(format!(
            "{option}: {} already holds {} {prefix}*{suffix} files ({first}, ...) that this run would overwrite or mix \
             with its own; give an empty or new folder, or remove them",
            dir.display(),
            old.len()
        ))),
        None => Ok(()),
    }
}

/// `saved` (an early stop that has saved the state) with what finishing its outputs gave.
fn also(saved: Exit, outputs: Result) -> Exit {
    let Err(failed) = outputs else { return saved };
    match saved {
        Exit::Interrupted(s) => Exit::Interrupted(format!("{s}; then {}", message(failed))),
        other => Exit::Failed(format!("{}; then {}", message(other), message(failed)).into()),
    }
}

/// Saves the state reached after `failure` (an output or a script action that failed mid-run)
/// to `--save`, or `eddy-stopped-<mode>.npz`, and says both in one line.
fn save_stopped(model: &mut AnyModel, args: &RunArgs, failure: Exit) -> Exit {
    let path = args.save.clone().unwrap_or_else(|| fallback_path("stopped", model.kind()));
    let saved = match model.save_npz(&path) {
        Ok(()) => format!("the state at step {} is saved to {}", model.steps_done(), path.display()),
        Err(e) => format!("saving the state to {} failed too ({e})", path.display()),
    };
    Exit::Failed(format!("{}; {saved}", message(failure)).into())
}

/// A GIF or video being recorded by the runner: a frame every `every` steps from step `next`, at
/// most `cap`.
struct Recording {
    recorder: Recorder,
    every: u64,
    cap: u32,
    next: u64,
}

fn finish_recording(r: Recording) -> Result {
    let path = r.recorder.path().to_path_buf();
    let (format, fps) = (r.recorder.format(), r.recorder.fps());
    let n = r.recorder.finish()?;
    let played = (fps * 10.0).round() / 10.0;
    let what = if format == Format::Gif { "gif" } else { "video" };
    say!("{what} {} ({n} frames, {played} frames/s)", path.display());
    Ok(())
}

fn write_png(path: &std::path::Path, image: &image::RgbaImage) -> Result {
    files::write_atomically(path, |w| image.write_to(w, image::ImageFormat::Png).map_err(std::io::Error::other))?;
    Ok(())
}

/// Saves the state reached to `--save` (or the fallback path) and says so.
fn save_interrupted(model: &mut AnyModel, args: &RunArgs, done: u64, steps: u64) -> Exit {
    let path = args.save.clone().unwrap_or_else(|| fallback_path("interrupted", model.kind()));
    match model.save_npz(&path) {
        Ok(()) => Exit::Interrupted(format!(
            "interrupted at step {} ({done} of {steps} run); state saved to {}",
            model.steps_done(),
            path.display()
        )),
        Err(e) => Exit::Failed(
            format!("interrupted at step {}, and saving {} failed: {e}", model.steps_done(), path.display()).into(),
        ),
    }
}

/// Names a non-finite value (or a sum that overflows though every cell is finite), rolls back
/// to the last finite state and saves it.
fn save_last_finite(model: &mut AnyModel, args: &RunArgs, stats: &crate::model::AnyStats) -> Exit {
    let step = model.steps_done();
    let cells = stats.non_finite();
    let place = match model.read_state().map(|s| s.first_non_finite()) {
        _ if cells == 0 => {
            let (sum, value) = stats.overflowed().unwrap_or(("total", stats.total()));
            format!("the {sum} is {value} in f32 though every cell is finite (values near f32's end, 3.4e38)")
        }
        Ok(Some((field, row, col))) => {
            format!("{field} is non-finite in {cells} cells (the first in row-major order at row {row}, col {col})")
        }
        _ => format!("{cells} cells are non-finite"),
    };
    let path: PathBuf = args.save.clone().unwrap_or_else(|| fallback_path("last-finite", model.kind()));
    let (good, saved) = match model.rollback() {
        Some(good) => match model.save_npz(&path) {
            Ok(()) => (good, format!("the last finite state (step {good}) is saved to {}", path.display())),
            Err(e) => (good, format!("saving the last finite state (step {good}) to {} failed: {e}", path.display())),
        },
        None => (0, "there is no finite state to save".to_string()),
    };
    Exit::Failed(
        format!(
            "by step {step} (checked after steps {}..={step}) {place}; {saved}; check the parameters and the starting state",
            good + 1
        )
        .into(),
    )
}
