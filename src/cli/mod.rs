//! Command-line arguments (clap) and the `run` and `bench` commands.

pub mod bench;
pub mod model;
pub mod run;

use clap::{Args, Parser, Subcommand, ValueEnum};
use eddy::gas::{GasParams, GasState};
use eddy::render::{GasField, SmokeField};
use eddy::scene::{self, Scene, SceneSource};
use eddy::smoke::{SmokeParams, SmokeState};
use eddy::water::{Boundary, RulePreset, WaterParams, WaterState};
use std::path::PathBuf;

/// What the commands return: any error, printed by `main` as one line.
pub type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// eddy: 2D fluids as WGSL compute passes on wgpu.
///
/// With no command, opens the viewer on the default scene.
#[derive(Parser, Debug)]
#[command(version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of `view`, when no command is given.
    #[command(flatten)]
    pub view: ViewArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open a window and run a model live (the default command).
    View(ViewArgs),
    /// Run a model headless: scene in, PNG frames and .npz state out.
    Run(RunArgs),
    /// Measure steps/s and Mcells/s of the GPU path and the CPU reference.
    Bench(BenchArgs),
}

/// The fluid model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// Elsts' compressible-water cellular automaton.
    #[default]
    Water,
    /// The GPU Gems ch. 38 Eulerian smoke: advection, buoyancy, pressure projection.
    Smoke,
    /// The mass-and-momentum flow automaton.
    Gas,
}

impl Mode {
    /// The scene a mode starts on when `--scene` is not given.
    pub fn default_scene(self) -> &'static str {
        match self {
            Mode::Water => "basin",
            Mode::Smoke => "plume",
            Mode::Gas => "explosion",
        }
    }
}

/// Where a run starts and by which rules: shared by `view` and `run`.
#[derive(Args, Debug, Clone)]
pub struct SimArgs {
    /// Fluid model.
    #[arg(long, value_enum, default_value_t = Mode::Water)]
    pub mode: Mode,
    /// Scene: a PNG file (black = solid, blue = water / dense gas / smoke, white = empty, red =
    /// gas or smoke source) or a preset: basin, u-tube, random (water), plume (smoke), explosion,
    /// wind (gas) [default: basin for water, plume for smoke, explosion for gas].
    #[arg(long)]
    pub scene: Option<String>,
    /// Start from a saved .npz state instead of a scene (water: `mass`, `solid`; gas:
    /// `density`, `momentum`, `solid`, `source`; smoke: `density`, `velocity`, `temperature`,
    /// `pressure`, `divergence`, `solid`, `source`).
    #[arg(long, value_name = "STATE.npz")]
    pub load: Option<PathBuf>,
    /// Size of a preset scene, WxH cells (PNG scenes have their image's size).
    #[arg(long, value_name = "WxH", value_parser = parse_size, default_value = "192x128")]
    pub size: (usize, usize),
    /// Seed of the `random` preset.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rule set: elsts (side flow 1/4) or unity (side flow 1/2).
    #[arg(long, value_enum, default_value_t = RulePreset::Elsts, help_heading = "Water")]
    pub preset: RulePreset,
    /// Outside the grid: wall (solid) or open (empty air; water flowing out is removed).
    #[arg(long, value_enum, default_value_t = Boundary::Wall, help_heading = "Water")]
    pub boundary: Boundary,
    /// MaxMass: mass of a full cell [default: 1.0].
    #[arg(long, allow_negative_numbers = true, help_heading = "Water")]
    pub max_mass: Option<f32>,
    /// MaxCompress: extra mass per full cell above [default: 0.02].
    #[arg(long, allow_negative_numbers = true, help_heading = "Water")]
    pub max_compress: Option<f32>,
    /// MinMass: cells below count as dry [default: 0.0001].
    #[arg(long, allow_negative_numbers = true, help_heading = "Water")]
    pub min_mass: Option<f32>,
    /// MinFlow: flows above are halved [default: 0.01].
    #[arg(long, allow_negative_numbers = true, help_heading = "Water")]
    pub min_flow: Option<f32>,
    /// MaxSpeed: cap on vertical flow per step [default: 1.0].
    #[arg(long, allow_negative_numbers = true, help_heading = "Water")]
    pub max_speed: Option<f32>,
    /// Share of a side difference that flows per step, in (0, 0.5] [default: by --preset].
    #[arg(long, allow_negative_numbers = true, help_heading = "Water")]
    pub side_share: Option<f32>,
    /// Gas: diffusion constant D, [0.03, 0.1] [default: 0.05].
    #[arg(long, allow_negative_numbers = true, help_heading = "Gas")]
    pub diffusion: Option<f32>,
    /// Gas: momentum kept per step, [0.9, 1] [default: 0.999].
    #[arg(long, allow_negative_numbers = true, help_heading = "Gas")]
    pub damping: Option<f32>,
    /// Gas: density kept per step (the rest relaxes to 1), [0.9, 1] [default: 0.9995].
    #[arg(long, allow_negative_numbers = true, help_heading = "Gas")]
    pub drain: Option<f32>,
    /// Gas: perpendicular momentum exchange across faces, [0, 0.1] [default: 0.01].
    #[arg(long, allow_negative_numbers = true, help_heading = "Gas")]
    pub friction: Option<f32>,
    /// Gas: isothermal pressure c^2 (eddy's extension; 0 = the source's model), [0, 0.05] [default: 0.05].
    #[arg(long, allow_negative_numbers = true, help_heading = "Gas")]
    pub pressure: Option<f32>,
    /// Gas: 4- or 8-way flow [default: 8].
    #[arg(long, value_enum, help_heading = "Gas")]
    pub neighbours: Option<eddy::gas::Neighbours>,
    /// Gas: velocity X,Y (cells/step, y down) of source cells, each in [-0.5, 0.5] [default: 0.25,0].
    #[arg(long, value_name = "X,Y", value_parser = parse_pair, allow_hyphen_values = true, help_heading = "Gas")]
    pub wind: Option<(f32, f32)>,
    /// Smoke: time step dt, in (0, 10] [default: 0.125].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub dt: Option<f32>,
    /// Smoke: buoyancy sigma, upward push per degree above ambient [default: 1].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub buoyancy: Option<f32>,
    /// Smoke: weight kappa, downward pull per unit of density [default: 0.05].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub weight: Option<f32>,
    /// Smoke: ambient temperature T0 [default: 0].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub ambient_temperature: Option<f32>,
    /// Smoke: temperature given to source cells each step [default: 10].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub impulse_temperature: Option<f32>,
    /// Smoke: density given to source cells each step [default: 1].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub impulse_density: Option<f32>,
    /// Smoke: velocity kept per step, [0, 1] [default: 0.99].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub velocity_dissipation: Option<f32>,
    /// Smoke: temperature kept per step, [0, 1] [default: 0.99].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub temperature_dissipation: Option<f32>,
    /// Smoke: density kept per step, [0, 1] [default: 0.9999].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub density_dissipation: Option<f32>,
    /// Smoke: cell size h (divergence 0.5/h, Jacobi alpha -h^2) [default: 1.25].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub cell_size: Option<f32>,
    /// Smoke: numerator of the gradient scale, which is this / cell size [default: 1.125, Rideout's].
    #[arg(long, allow_negative_numbers = true, help_heading = "Smoke")]
    pub gradient_scale: Option<f32>,
    /// Smoke: Jacobi iterations of the pressure solve per step, 1..=100000 [default: 50].
    #[arg(long, value_name = "N", help_heading = "Smoke")]
    pub jacobi: Option<u32>,
    /// Smoke: radius (cells) of the `plume` scene's source and of the viewer's splats [default: W/8].
    #[arg(long, value_name = "CELLS", allow_negative_numbers = true, help_heading = "Smoke")]
    pub splat_radius: Option<f32>,
}

impl SimArgs {
    /// The water rule constants: the preset's, with the overrides given, validated.
    pub fn water_params(&self) -> std::result::Result<WaterParams, eddy::ParamError> {
        let mut p = WaterParams::preset(self.preset);
        p.boundary = self.boundary;
        override_with(&mut p.max_mass, self.max_mass);
        override_with(&mut p.max_compress, self.max_compress);
        override_with(&mut p.min_mass, self.min_mass);
        override_with(&mut p.min_flow, self.min_flow);
        override_with(&mut p.max_speed, self.max_speed);
        override_with(&mut p.side_share, self.side_share);
        p.validate()?;
        Ok(p)
    }

    /// Validates the parameters of `self.mode`, so a bad one is reported before any device work.
    pub fn check_params(&self) -> std::result::Result<(), eddy::ParamError> {
        match self.mode {
            Mode::Water => self.water_params().map(drop),
            Mode::Smoke => self.smoke_params().map(drop),
            Mode::Gas => self.gas_params().map(drop),
        }
    }

    /// The smoke parameters: Rideout's defaults with the overrides given, validated.
    pub fn smoke_params(&self) -> std::result::Result<SmokeParams, eddy::ParamError> {
        let mut p = SmokeParams::default();
        override_with(&mut p.dt, self.dt);
        override_with(&mut p.buoyancy, self.buoyancy);
        override_with(&mut p.weight, self.weight);
        override_with(&mut p.ambient_temperature, self.ambient_temperature);
        override_with(&mut p.impulse_temperature, self.impulse_temperature);
        override_with(&mut p.impulse_density, self.impulse_density);
        override_with(&mut p.velocity_dissipation, self.velocity_dissipation);
        override_with(&mut p.temperature_dissipation, self.temperature_dissipation);
        override_with(&mut p.density_dissipation, self.density_dissipation);
        override_with(&mut p.cell_size, self.cell_size);
        override_with(&mut p.gradient_scale, self.gradient_scale);
        if let Some(n) = self.jacobi {
            p.jacobi_iterations = n;
        }
        p.validate()?;
        if let Some(r) = self.splat_radius
            && !(r.is_finite() && r > 0.0)
        {
            return Err(eddy::ParamError::new("splat-radius", r, "a radius > 0 cells"));
        }
        Ok(p)
    }

    /// The splat radius in cells for a grid `width` cells wide: `--splat-radius`, or `W / 8`
    /// (Rideout's `SplatRadius`).
    pub fn splat_radius(&self, width: usize) -> f32 {
        self.splat_radius.unwrap_or(width as f32 / 8.0)
    }

    /// The gas parameters: defaults with the overrides given, validated.
    pub fn gas_params(&self) -> std::result::Result<GasParams, eddy::ParamError> {
        let mut p = GasParams::default();
        override_with(&mut p.diffusion, self.diffusion);
        override_with(&mut p.damping, self.damping);
        override_with(&mut p.drain, self.drain);
        override_with(&mut p.friction, self.friction);
        override_with(&mut p.pressure, self.pressure);
        if let Some(n) = self.neighbours {
            p.neighbours = n;
        }
        if let Some(w) = self.wind {
            p.wind = w;
        }
        p.validate()?;
        Ok(p)
    }

    /// The scene argument, or the mode's default scene.
    pub fn scene_name(&self) -> &str {
        self.scene.as_deref().unwrap_or(self.mode.default_scene())
    }

    /// The scene (not for `--load`). Preset sizes are checked against `max_side` (the adapter's
    /// texture limit) before anything is allocated.
    fn scene(&self, max_side: u32, colours: scene::Colours) -> Result<Scene> {
        let source = SceneSource::parse(self.scene_name())?;
        if let SceneSource::Preset(_) = source {
            let (w, h) = self.size;
            if w == 0 || h == 0 {
                return Err(scene::SceneError::BadSize {
                    width: w,
                    height: h,
                    reason: "each side must be at least 1 cell",
                }
                .into());
            }
            if w > max_side as usize || h > max_side as usize {
                return Err(eddy::gpu::GpuError::GridTooLarge { width: w, height: h, max: max_side }.into());
            }
        }
        Ok(Scene::load(&source, self.size, self.seed, colours)?)
    }

    /// The water model's starting state: `--load` if given, else the scene.
    pub fn water_state(&self, max_side: u32) -> Result<WaterState> {
        match &self.load {
            Some(path) => Ok(WaterState::load_npz(path)?),
            None => Ok(WaterState::from_scene(&self.scene(max_side, scene::Colours::Plain)?)),
        }
    }

    /// The smoke model's starting state: `--load` if given, else the scene (the `plume` preset
    /// with `--splat-radius`).
    pub fn smoke_state(&self, max_side: u32) -> Result<SmokeState> {
        let ambient = self.smoke_params()?.ambient_temperature;
        match &self.load {
            Some(path) => Ok(SmokeState::load_npz(path)?),
            None => {
                let mut scene = self.scene(max_side, scene::Colours::WithSources)?;
                if self.scene_name() == "plume" {
                    let (w, h) = self.size;
                    scene = Scene::plume(w, h, self.splat_radius(w))?;
                }
                Ok(SmokeState::from_scene(&scene, ambient))
            }
        }
    }

    /// The gas model's starting state: `--load` if given, else the scene.
    pub fn gas_state(&self, max_side: u32) -> Result<GasState> {
        match &self.load {
            Some(path) => Ok(GasState::load_npz(path)?),
            None => Ok(GasState::from_scene(&self.scene(max_side, scene::Colours::WithSources)?)),
        }
    }

    /// The grid size `(W, H)` the run will have, without building it (for sizing a window):
    /// the preset size, the PNG's size, or the saved state's.
    pub fn size_hint(&self) -> Result<(usize, usize)> {
        let (h, w) = match (&self.load, self.mode) {
            (Some(_), Mode::Water) => self.water_state(u32::MAX)?.shape(),
            (Some(_), Mode::Gas) => self.gas_state(u32::MAX)?.shape(),
            (Some(_), Mode::Smoke) => self.smoke_state(u32::MAX)?.shape(),
            (None, _) => match SceneSource::parse(self.scene_name())? {
                SceneSource::Preset(_) => return Ok(self.size),
                SceneSource::Png(path) => {
                    let (w, h) =
                        image::image_dimensions(&path).map_err(|source| scene::SceneError::Image { path, source })?;
                    (h as usize, w as usize)
                }
            },
        };
        Ok((w, h))
    }

    /// What the run starts from, for messages.
    pub fn describe_start(&self) -> String {
        match &self.load {
            Some(p) => format!("state {}", p.display()),
            None => match SceneSource::parse(self.scene_name()) {
                Ok(s @ SceneSource::Preset(_)) => format!("{s} at {}x{}", self.size.0, self.size.1),
                Ok(s) => s.to_string(),
                Err(_) => self.scene_name().to_string(),
            },
        }
    }
}

/// Parses `X,Y` (e.g. `0.25,0`).
fn parse_pair(s: &str) -> std::result::Result<(f32, f32), String> {
    let (x, y) = s.split_once(',').ok_or_else(|| format!("{s:?} is not X,Y, e.g. 0.25,0"))?;
    let num = |t: &str| t.trim().parse::<f32>().map_err(|_| format!("{s:?} is not X,Y with numbers, e.g. 0.25,0"));
    Ok((num(x)?, num(y)?))
}

/// Replaces `field` with the value given on the command line, if any.
fn override_with(field: &mut f32, given: Option<f32>) {
    if let Some(v) = given {
        *field = v;
    }
}

/// Parses `WxH` (e.g. `256x128`).
fn parse_size(s: &str) -> std::result::Result<(usize, usize), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("{s:?} is not WxH, e.g. 256x128"))?;
    let num =
        |t: &str| t.trim().parse::<usize>().map_err(|_| format!("{s:?} is not WxH with whole numbers, e.g. 256x128"));
    Ok((num(w)?, num(h)?))
}

/// The field drawn (`--field`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Field {
    /// Water: mass; gas and smoke: density.
    #[default]
    Density,
    /// Gas: velocity (hue = direction); smoke: speed.
    Velocity,
    /// Smoke: temperature.
    Temperature,
    /// Smoke: pressure of the last solve.
    Pressure,
    /// Smoke: divergence before the last projection.
    Divergence,
}

impl Field {
    /// Checks `mode` can draw this field.
    pub fn check(self, mode: Mode) -> Result {
        let ok = match mode {
            Mode::Water => self == Field::Density,
            Mode::Gas => matches!(self, Field::Density | Field::Velocity),
            Mode::Smoke => true,
        };
        if ok {
            return Ok(());
        }
        let have = match mode {
            Mode::Water => "water draws its mass (--field density)",
            _ => "gas has --field density or velocity",
        };
        Err(format!("--field {self:?} is not a {mode:?} field: {have}").to_lowercase().into())
    }

    /// The gas view of this field.
    pub fn gas(self) -> GasField {
        if self == Field::Velocity { GasField::Velocity } else { GasField::Density }
    }

    /// The smoke view of this field.
    pub fn smoke(self) -> SmokeField {
        match self {
            Field::Density => SmokeField::Density,
            Field::Velocity => SmokeField::Speed,
            Field::Temperature => SmokeField::Temperature,
            Field::Pressure => SmokeField::Pressure,
            Field::Divergence => SmokeField::Divergence,
        }
    }
}

#[derive(Args, Debug)]
pub struct ViewArgs {
    #[command(flatten)]
    pub sim: SimArgs,
    /// Simulation steps per displayed frame.
    #[arg(long, default_value_t = 4)]
    pub steps_per_frame: u32,
    /// Window pixels per cell (initial window size).
    #[arg(long, default_value_t = 5)]
    pub scale: u32,
    /// The field shown at start, in gas and smoke (V cycles through the model's fields).
    #[arg(long, value_enum, default_value_t = Field::Density)]
    pub field: Field,
    /// Quit after this many frames (for automated checks; with --screenshot).
    #[arg(long)]
    pub frames: Option<u64>,
    /// Save what the window shows as a PNG when quitting after --frames.
    #[arg(long, value_name = "PATH", requires = "frames")]
    pub screenshot: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    pub sim: SimArgs,
    /// Number of steps to run.
    #[arg(long, default_value_t = 1000)]
    pub steps: u64,
    /// Write the final state here as .npz (water: `mass` float32 (H, W), `solid` uint8 (H, W);
    /// gas: `density` (H, W), `momentum` (H, W, 2) float32, `solid`, `source` uint8 (H, W);
    /// smoke: `velocity` (H, W, 2) [x right, y down], `density`, `temperature`, `pressure`,
    /// `divergence` float32 (H, W), `solid`, `source` uint8 (H, W)).
    #[arg(long, value_name = "OUT.npz")]
    pub save: Option<PathBuf>,
    /// Write PNG frames into this directory (frame_000000.png, ...), created if missing.
    #[arg(long, value_name = "DIR")]
    pub frames: Option<PathBuf>,
    /// With --frames: write a frame every K steps (and the first and last).
    #[arg(long, value_name = "K", default_value_t = 100)]
    pub every: u64,
    /// With --frames: pixels per cell.
    #[arg(long, default_value_t = 1)]
    pub scale: u32,
    /// The field drawn into frames (gas: density, velocity; smoke: density, temperature,
    /// velocity = speed, pressure, divergence).
    #[arg(long, value_enum, default_value_t = Field::Density)]
    pub field: Field,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Fluid model.
    #[arg(long, value_enum, default_value_t = Mode::Water)]
    pub mode: Mode,
    /// Square grid sizes to measure (cells per side), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "256,512,1024")]
    pub sizes: Vec<usize>,
    /// Timed runs per size; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Seconds each timed run should last (the step count is calibrated to it).
    #[arg(long, default_value_t = 0.5)]
    pub seconds: f64,
    /// Skip the CPU reference.
    #[arg(long)]
    pub no_cpu: bool,
}
