//! The `eddy` command ([`main`]): command-line arguments (clap) and the `run`, `bench` and
//! `view` commands. Every model option is generated from the model registry's parameter tables
//! ([`crate::model`]), registered models' too; nothing here lists models or parameters.

pub(crate) mod bench;
mod csv;
mod entry;
pub(crate) mod forces;
pub(crate) mod hashes;
pub(crate) mod out;
pub(crate) mod run;
pub(crate) mod setup;

pub use entry::{main, main_with};

use crate::model::{ModelKind, ParamInfo, Value};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// How a command ends when it does not succeed, and the exit status it gives.
pub(crate) enum Exit {
    /// The command line is wrong (unknown option, malformed value, a value out of its range, an
    /// option of another model): exit 2.
    Usage(Box<dyn std::error::Error>),
    /// The command was understood but failed (a file, the GPU, the simulation): exit 1.
    Failed(Box<dyn std::error::Error>),
    /// Interrupted (Ctrl-C, SIGTERM) after saving what there was to save (a run's state, the
    /// viewer's GIF being recorded); the line says what: exit 130.
    Interrupted(String),
}

impl<E: Into<Box<dyn std::error::Error>>> From<E> for Exit {
    fn from(e: E) -> Self {
        Exit::Failed(e.into())
    }
}

/// A usage error (exit 2).
pub(crate) fn usage(message: impl Into<Box<dyn std::error::Error>>) -> Exit {
    Exit::Usage(message.into())
}

/// Refuses an output path whose extension is not `ext` (`--save x.png` would write a zip where
/// a picture was, and `--screenshot w.npz` a picture over a state).
pub(crate) fn check_extension(option: &str, path: &std::path::Path, ext: &str) -> Result {
    if crate::files::has_extension(path, ext) {
        return Ok(());
    }
    Err(usage(format!("{option} {}: give a path ending in .{ext}", path.display())))
}

/// What the commands return.
pub(crate) type Result<T = ()> = std::result::Result<T, Exit>;

/// eddy: 2D fluids as WGSL compute passes on wgpu (water, smoke, gas), each with a CPU reference.
///
/// With no command, opens the viewer on the default scene.
#[derive(Parser, Debug)]
#[command(
    name = "eddy",
    version,
    about,
    long_about = None,
    args_conflicts_with_subcommands = true,
    after_help = format!("{}\n\n{EXIT_STATUS}", viewer_help())
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    /// Options of `view`, when no command is given.
    #[command(flatten)]
    pub(crate) view: ViewArgs,
}

// One command is parsed a run, so the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Open a window and run a model live (the default command).
    #[command(after_help = viewer_help())]
    View(ViewArgs),
    /// Run a model headless: scene in, PNG frames and .npz state out.
    #[command(after_help = format!("{}\n\n{EXIT_STATUS}", run_help()))]
    Run(RunArgs),
    /// Measure steps/s and Mcells/s of the GPU path and the CPU reference (each model's default
    /// parameters, on its bench scene).
    Bench(BenchArgs),
}

/// The exit statuses, for `--help`.
const EXIT_STATUS: &str = "Exit status: 0 done; 1 the command failed (a file, the GPU, the simulation, or \
                           standard output: a closed pipe or a full disk costs lines, never the run or its files); \
                           2 the command line is wrong; 130 interrupted by Ctrl-C or SIGTERM (run: the state \
                           reached is saved; view: a GIF being recorded is finished).";

/// `--mode`: a model's name.
fn parse_mode(s: &str) -> std::result::Result<ModelKind, String> {
    ModelKind::from_name(s).ok_or_else(|| {
        let names: Vec<_> = ModelKind::all().iter().map(|k| k.name()).collect();
        format!("{s:?} is not a model; the models are {}", names.join(", "))
    })
}

/// Where a run starts and by which rules: shared by `view` and `run`.
#[derive(Args, Debug, Clone)]
pub(crate) struct SimArgs {
    #[arg(long, value_parser = parse_mode, help = mode_help())]
    pub(crate) mode: Option<ModelKind>,
    #[arg(long, help = scene_help())]
    pub(crate) scene: Option<String>,
    /// Start from a saved .npz state instead of a scene (its arrays tell the model).
    #[arg(long, value_name = "STATE.npz")]
    pub(crate) load: Option<PathBuf>,
    /// Size of a preset scene, WxH cells [default: 192x128] (a PNG scene or a loaded state has
    /// its own).
    #[arg(long, value_name = "WxH", value_parser = parse_size)]
    pub(crate) size: Option<(usize, usize)>,
    /// Seed of the `random` preset [default: 1].
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// A rigid body moving through the smoke or gas (repeat for more, at most 16):
    /// SHAPE:KEY=VALUE,... with shape circle (r), box (w, h) or plate (length), the centre x, y
    /// (cells from the top-left corner, y down) and optionally angle (radians, clockwise on
    /// screen), vx, vy and spin (smoke: cells and radians per time unit, at most 2 cells a step
    /// at the fastest point; gas: per step, at most 0.25). E.g. circle:x=40,y=64,r=8,vx=0.5.
    /// Smoke's bodies need the staggered grid.
    #[arg(long = "body", value_name = "SHAPE:KEY=VALUE,...", value_parser = crate::body::Body::parse)]
    pub(crate) bodies: Vec<crate::body::Body>,
    #[command(flatten)]
    pub(crate) params: ParamArgs,
    /// A script plays in this run ([`SimArgs::fill_from`]): its `set` actions may make an
    /// option that does nothing at the start count later, so such options are not refused.
    #[arg(skip)]
    pub(crate) scripted: bool,
}

/// Parses `WxH` (e.g. `256x128`).
fn parse_size(s: &str) -> std::result::Result<(usize, usize), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("{s:?} is not WxH, e.g. 256x128"))?;
    let num =
        |t: &str| t.trim().parse::<usize>().map_err(|_| format!("{s:?} is not WxH with whole numbers, e.g. 256x128"));
    Ok((num(w)?, num(h)?))
}

/// The model parameters given on the command line: one option per row of every model's table
/// (`--dt`, `--diffusion`, ...), generated from the tables.
#[derive(Clone, Debug, Default)]
pub(crate) struct ParamArgs {
    /// `(model, row, value)` for each option given, in table order.
    pub(crate) given: Vec<(ModelKind, &'static ParamInfo, Value)>,
}

impl clap::FromArgMatches for ParamArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> std::result::Result<Self, clap::Error> {
        let mut given = Vec::new();
        for kind in ModelKind::all() {
            for info in kind.params() {
                if let Some(v) = m.get_one::<Value>(info.name) {
                    given.push((kind, info, *v));
                }
            }
        }
        Ok(Self { given })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> std::result::Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for ParamArgs {
    fn augment_args(mut cmd: clap::Command) -> clap::Command {
        for kind in ModelKind::all() {
            let defaults = crate::model::ModelParams::defaults(kind);
            for info in kind.params() {
                let rows = ModelKind::param_rows(info.name);
                if rows[0].0 != kind {
                    continue; // a shared option (crate::model::SHARED_PARAMS): added with its first model's
                }
                let default = defaults.get(info.name).expect("a row of this model");
                let mut help = info.help(default);
                if rows.len() > 1 {
                    help = format!("{kind}: {help}");
                }
                for &(other, row) in &rows[1..] {
                    let default =
                        crate::model::ModelParams::defaults(other).get(row.name).expect("a row of this model");
                    help = format!("{help}\n{other}: {}", row.help(default));
                }
                // A shared option goes under a heading of its own, naming its models.
                let heading = if rows.len() > 1 {
                    let names: Vec<&str> = rows.iter().map(|r| r.0.name()).collect();
                    format!("{} (the box's edges)", names.join(" and "))
                } else {
                    format!("{} ({})", kind.info().name, kind.info().about)
                };
                let value_name = match info.kind {
                    crate::model::ParamKind::Pair(_) => "X,Y",
                    crate::model::ParamKind::Count { .. } => "N",
                    crate::model::ParamKind::Choice(_) => "CHOICE",
                    crate::model::ParamKind::Real(_) => "NUMBER",
                };
                cmd = cmd.arg(
                    clap::Arg::new(info.name)
                        .long(info.name)
                        .value_name(value_name)
                        .help(help)
                        .help_heading(heading)
                        .allow_hyphen_values(true)
                        .value_parser(clap::builder::ValueParser::new(move |s: &str| info.parse(s))),
                );
            }
        }
        cmd
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

#[derive(Args, Debug)]
pub(crate) struct ViewArgs {
    #[command(flatten)]
    pub(crate) sim: SimArgs,
    /// Simulation steps per displayed frame, 1..=1000 [default: automatic, as many as fit 12 ms
    /// of stepping per frame; the panel's Time section changes it].
    #[arg(long, value_name = "N")]
    pub(crate) steps_per_frame: Option<u32>,
    /// Window points per cell, 1..=64 (initial window size; the window fits the screen).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub(crate) scale: u32,
    #[arg(long, help = field_help("The field shown at start (V cycles through them)"))]
    pub(crate) field: Option<String>,
    /// Quit after this many frames (for automated checks; with --screenshot).
    #[arg(long)]
    pub(crate) frames: Option<u64>,
    /// Save what the window shows, panel included, as a PNG (a .png path) when the viewer ends
    /// after --frames or at a --script's `quit` (one of them is required).
    #[arg(long, value_name = "PATH.png")]
    pub(crate) screenshot: Option<PathBuf>,
    /// Start paused (Space runs).
    #[arg(long)]
    pub(crate) paused: bool,
    #[arg(long, value_name = "NAME", help = colour_map_help())]
    pub(crate) colour_map: Option<String>,
    /// How the model is drawn: map (the field through its colour map) or styled (smoke lit and
    /// shaded, water as a surface with foam, gas as a schlieren image) [default: map].
    #[arg(long, value_name = "LOOK")]
    pub(crate) look: Option<String>,
    /// Play a script of timed actions (TOML; see docs/scripts.md): switch model, set
    /// parameters, draw strokes, take screenshots, record GIFs, save, quit. Its mode, scene, size
    /// and seed apply unless given here.
    #[arg(long, value_name = "FILE.toml")]
    pub(crate) script: Option<PathBuf>,
    /// Keep the fluid moving on its own: random strokes every few frames, and the next model
    /// (reset) every 1800 frames; for a screen left running.
    #[arg(long)]
    pub(crate) demo: bool,
    /// Start with the panel hidden (F2 shows it).
    #[arg(long)]
    pub(crate) no_panel: bool,
    /// Water: let still water sleep from the start (the panel's "still water sleeps": only the
    /// tiles where something can change are stepped, the same masses to the bit).
    #[arg(long)]
    pub(crate) sleep: bool,
}

#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub(crate) sim: SimArgs,
    /// Number of steps to run [default: 1000, or with --script its last action's step].
    #[arg(long, value_name = "N")]
    pub(crate) steps: Option<u64>,
    /// Write the final state here (a .npz path; written to a temporary file and renamed, so an
    /// existing file is replaced only by a complete one, never a read-only one). Checked to be
    /// writable before the first step. Arrays per model: see "State files" below.
    #[arg(long, value_name = "OUT.npz")]
    pub(crate) save: Option<PathBuf>,
    /// Write PNG frames into this directory (frame_000000.png, ... numbered by step), created if
    /// missing; a directory that already holds frame_*.png files is refused (they would be
    /// overwritten or mixed with the new ones).
    #[arg(long, value_name = "DIR")]
    pub(crate) frames: Option<PathBuf>,
    /// With --frames and --vtk: write a frame (and a VTK file) every K steps (and the first and
    /// last).
    #[arg(long, value_name = "K", default_value_t = 100)]
    pub(crate) every: u64,
    /// Write the fields as VTK XML ImageData into this directory (step_00000100.vti, ... every
    /// --every steps, and series.pvd listing them with their times, which ParaView opens as a
    /// time series), created if missing; a directory that already holds step_*.vti files is
    /// refused. Cell data, y up: row 0 of the .npz arrays is the top row (docs/formats.md).
    #[arg(long, value_name = "DIR")]
    pub(crate) vtk: Option<PathBuf>,
    /// With --frames: pixels per cell, 1..=64.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub(crate) scale: u32,
    #[arg(long, help = field_help("The field drawn into frames"))]
    pub(crate) field: Option<String>,
    #[arg(long, value_name = "NAME", help = colour_map_help())]
    pub(crate) colour_map: Option<String>,
    /// How the model is drawn: map (the field through its colour map) or styled (smoke lit and
    /// shaded, water as a surface with foam, gas as a schlieren image) [default: map].
    #[arg(long, value_name = "LOOK")]
    pub(crate) look: Option<String>,
    /// Write an animated GIF of the run (frames every --gif-every steps, at --scale pixels per
    /// cell, at most 1000 frames, playing at --fps; written to a temporary file and renamed when
    /// complete).
    #[arg(long, value_name = "OUT.gif")]
    pub(crate) gif: Option<PathBuf>,
    /// With --gif: steps between its frames.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub(crate) gif_every: u64,
    /// Write an H.264 video (MP4) of the run, which browsers and players play (frames every
    /// --video-every steps, at --scale pixels per cell, at most 90000 frames and 3840x2160
    /// pixels, playing at --fps; written to a temporary file and renamed when complete).
    #[arg(long, value_name = "OUT.mp4")]
    pub(crate) video: Option<PathBuf>,
    /// With --video: steps between its frames.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub(crate) video_every: u64,
    /// With --gif and --video: frames a second they play at (GIF: 1 to 50, each frame's delay
    /// rounded to whole hundredths of a second; video: 1 to 60) [default: 25].
    #[arg(long, value_name = "F")]
    pub(crate) fps: Option<f64>,
    /// Write the fluid's force and torque on every body, every step, to this CSV file
    /// (step,time,body,fx,fy,torque,drag_coefficient,lift_coefficient: force per unit depth in
    /// cell masses x cells / time unit^2, the fluid 1 a cell; y down; the coefficients against
    /// the stream an inflow edge drives and the body's extent across it, else empty). Smoke on
    /// the staggered grid, water with bodies, gas. Written beside the target as the run goes and
    /// renamed over it when the run ends, however it ends.
    #[arg(long, value_name = "OUT.csv")]
    pub(crate) forces: Option<PathBuf>,
    /// Play a script of timed actions (TOML; see docs/scripts.md); the same file gives
    /// the same --save on the same adapter. Its mode, scene, size and seed apply unless given
    /// here; --steps defaults to its last action's step.
    #[arg(long, value_name = "FILE.toml")]
    pub(crate) script: Option<PathBuf>,
    /// Smoke: stop early once the largest change of any velocity component over one time unit,
    /// divided by the largest speed, falls below TOL (checked every time unit, by reading the
    /// velocity back); prints the step and time reached. --steps stays the limit.
    #[arg(long, value_name = "TOL")]
    pub(crate) steady: Option<f64>,
    /// Water: step only the tiles where something can change (a tile sleeps while no cell within
    /// 2 of it changed in the last step and no edit touched it): the same masses to the bit,
    /// faster where most of the world is still. The summary says how many tiles were awake at
    /// the end.
    #[arg(long)]
    pub(crate) sleep: bool,
    /// Write the state hash (the state's bits, such as water's masses and walls, as 16 hex
    /// digits) at the start and at every step that is a multiple of --hash-every, to this CSV
    /// file (step,hash), for a replay to be checked against (--check-hashes). Written beside the
    /// target as the run goes and renamed over it when the run ends, however it ends.
    #[arg(long, value_name = "OUT.csv")]
    pub(crate) hashes: Option<PathBuf>,
    /// With --hashes: steps between its rows [default: 1].
    #[arg(long, value_name = "K")]
    pub(crate) hash_every: Option<u64>,
    /// Check this run against a log --hashes wrote (a replay: the same start, or a state
    /// saved at a logged step, and the same inputs): the hash at each logged step the run
    /// reaches must be the log's. The first step that differs stops the run with an error naming
    /// it (the state reached saved as a stopped run's); the summary says how many steps matched.
    #[arg(long, value_name = "LOG.csv")]
    pub(crate) check_hashes: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Fluid model.
    #[arg(long, value_parser = parse_mode, default_value = "water")]
    pub(crate) mode: ModelKind,
    /// Square grid sizes to measure (cells per side), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "256,512,1024")]
    pub(crate) sizes: Vec<usize>,
    /// Timed runs per size, 1..=100; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub(crate) runs: usize,
    /// Seconds each timed run should last (the step count is calibrated to it, at least 2
    /// steps; the default matches the Taichi peer's runs), 0.01..=60.
    #[arg(long, default_value_t = 1.0)]
    pub(crate) seconds: f64,
    /// Skip the CPU reference.
    #[arg(long)]
    pub(crate) no_cpu: bool,
    /// The largest grid side the CPU reference is timed at: it steps one core's worth of cells,
    /// a step taking seconds at 1024x1024 and minutes beyond; larger sizes get GPU rows only.
    #[arg(long, value_name = "SIDE", default_value_t = 1024)]
    pub(crate) cpu_max_size: usize,
    /// Skip the smoke solver race (the pressure solve alone, Jacobi against V-cycles).
    #[arg(long)]
    pub(crate) no_race: bool,
    /// Add a table per row: each pass's GPU time (timestamps around each dispatch, where the
    /// adapter has them inside passes), share of the step, dispatches and bytes, sorted by time.
    #[arg(long)]
    pub(crate) passes: bool,
    /// Also write everything measured to this JSON file (written whole at the end).
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,
    /// Water: the worlds a 512x512 pond sleeps in, comma-separated `WxH` (e.g. 32768x8192: past
    /// the adapter's largest texture side, a packed world) [default: the square sizes above 512].
    #[arg(long, value_delimiter = ',', value_name = "WxH", value_parser = parse_size)]
    pub(crate) worlds: Vec<(usize, usize)>,
}

/// `--mode`'s help: the models, from the registry.
fn mode_help() -> String {
    let names: Vec<&str> = ModelKind::all().iter().map(|k| k.name()).collect();
    format!(
        "Fluid model: {} [default: what --load's arrays or --scene's preset belong to, else {}]",
        names.join(", "),
        ModelKind::all()[0]
    )
}

/// `--scene`'s help: the scene colours and every model's presets, from the registry.
fn scene_help() -> String {
    let presets: Vec<String> = ModelKind::all().iter().map(|k| format!("{} ({k})", k.preset_names())).collect();
    let defaults: Vec<String> = ModelKind::all().iter().map(|k| format!("{} for {k}", k.default_scene())).collect();
    format!(
        "Scene: a PNG file (black = solid, blue = water / smoke / dense gas, white or transparent = empty, \
         red = smoke or gas source) or a preset: {} [default: {}]",
        presets.join(", "),
        defaults.join(", ")
    )
}

/// `--colour-map`'s help: the maps.
fn colour_map_help() -> String {
    let names: Vec<&str> = crate::colour::ColourMap::ALL.iter().map(|m| m.name()).collect();
    format!(
        "Colour map of the field: {} [default: own: the field's own look, else inferno, or blue-red for signed fields]",
        names.join(", ")
    )
}

/// Checks every file a script writes can be written, before the first step, and that no file
/// gets two writers: two of the script's recordings, or the script and one of `options` (an
/// output option's name and path, e.g. `("--gif", Some(path))`).
pub(crate) fn check_script_outputs(
    script: &crate::script::Script,
    options: &[(&str, Option<&std::path::Path>)],
) -> Result {
    let recordings: Vec<&std::path::Path> = script
        .actions
        .iter()
        .filter_map(|t| match &t.action {
            crate::script::Action::Record { path, .. } => Some(path.as_path()),
            _ => None,
        })
        .collect();
    for (i, path) in recordings.iter().enumerate() {
        // Two recordings into one file: the later would replace the earlier without a word.
        if recordings[..i].contains(path) {
            return Err(usage(format!(
                "the script records twice into {}: give each recording its own path",
                path.display()
            )));
        }
    }
    for path in script.outputs() {
        crate::files::check_writable_file(path)
            .map_err(|e| usage(format!("the script writes {}: {e}", path.display())))?;
        if let Some((option, _)) = options.iter().find(|(_, p)| *p == Some(path)) {
            return Err(usage(format!(
                "the script and {option} both write {}: give them different paths",
                path.display()
            )));
        }
    }
    Ok(())
}

/// `--field`'s help: every model's fields, from the registry.
fn field_help(what: &str) -> String {
    let fields: Vec<String> = ModelKind::all().iter().map(|k| format!("{k}: {}", k.view_names())).collect();
    format!("{what}: {} [default: the model's first]", fields.join("; "))
}

/// `eddy run --help`'s closing text: the state files' arrays, from the registry.
fn run_help() -> String {
    let mut text = String::from("State files (.npz, row 0 at the top; also an int64 `step`):\n");
    for kind in ModelKind::all() {
        let arrays: Vec<String> =
            kind.info().arrays.iter().map(|a| format!("{} {} ({})", a.name, a.shape, a.doc)).collect();
        text.push_str(&format!("  {kind}: {}\n", arrays.join("; ")));
    }
    text.push_str(
        "\nCtrl-C (or SIGTERM) stops at the next check (about every 0.25 s of stepping, after the step \
         in progress) and saves the state reached to --save (or eddy-interrupted-<mode>.npz), then exits \
         130. A value that becomes NaN or infinite stops the run at the next check and saves the last \
         finite state (to --save, or eddy-last-finite-<mode>.npz).",
    );
    text
}

/// `eddy view --help`'s closing text: every key and mouse action, the parameter keys from the
/// tables.
pub(crate) fn viewer_help() -> String {
    #[cfg(feature = "viewer")]
    return crate::viewer::controls::help_text();
    #[cfg(not(feature = "viewer"))]
    return "This eddy was built without the viewer (feature `viewer`).".to_string();
}

impl SimArgs {
    /// Takes a script's mode, scene, size and seed where the command line gave none.
    pub fn fill_from(&mut self, script: &crate::script::Script) {
        self.scripted = true;
        if self.load.is_none() {
            self.mode = self.mode.or(script.mode);
            if self.scene.is_none() {
                self.scene.clone_from(&script.scene);
            }
        }
        self.size = self.size.or(script.size);
        self.seed = self.seed.or(script.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A registered model's parameters may take no name the command already gives an option:
    /// the registry's list of those names is every long option of `run`, `view` and `bench`
    /// (and the top level) that is no model's parameter, and nothing else.
    #[test]
    fn the_registry_knows_the_commands_own_options() {
        use clap::CommandFactory;
        let mut cmd = Cli::command();
        cmd.build();
        let mut longs: Vec<&str> = cmd.get_arguments().filter_map(|a| a.get_long()).collect();
        for sub in cmd.get_subcommands() {
            longs.extend(sub.get_arguments().filter_map(|a| a.get_long()));
        }
        let params: Vec<&str> = ModelKind::ALL.iter().flat_map(|k| k.params()).map(|p| p.name).collect();
        longs.retain(|l| !params.contains(l));
        longs.sort();
        longs.dedup();
        let mut listed = crate::model::custom::COMMAND_OPTIONS.to_vec();
        listed.sort();
        assert_eq!(longs, listed);
    }
}
