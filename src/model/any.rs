//! [`AnyModel`]: one type that runs, measures, saves and draws any model, and the types it
//! deals in ([`ModelParams`], [`AnyState`], [`AnyStats`]). This file is the one place that
//! matches on the model; the CLI and the viewer only call it.

use super::memory;
use super::params::{ParamTable, Value};
use super::tools::{Stroke, Tool};
use super::{ModelKind, ParamInfo};
use crate::Simulation;
use crate::error::{Error, ParamError};
use crate::gas::{AMBIENT_DENSITY, GasBrush, GasParams, GasState, GasStats, GpuGas};
use crate::gpu::{self, Checkpoint, GpuError};
use crate::grid::Grid;
use crate::npz::{Npz, NpzReader};
use crate::render::{GasField, GasRenderer, SmokeField, SmokeRenderer, WaterRenderer};
use crate::scene::{Colours, Scene, SceneError, SceneSource};
use crate::smoke::{GpuSmoke, Impulse, SmokeParams, SmokeState, SmokeStats};
use crate::water::{Brush, GpuWater, WaterParams, WaterState, WaterStats};
use std::path::Path;

/// Water added per cell per brush stamp when pouring (full-cell units).
const POUR: f32 = 0.5;
/// Gas: density added per stamp along a drag, and the speed it is given (cells/step).
const PUSH: (f32, f32) = (0.3, 0.3);
/// Gas: density added by a click, and the outward speed at its rim (cells/step).
const BLAST: (f32, f32) = (2.0, 0.3);
/// Smoke: speed given along a drag, cells per time unit.
const DRAG_SPEED: f32 = 10.0;

/// Name of the `.npz` array that holds the step a state was saved at (int64, 0-d).
pub const STEP_ARRAY: &str = "step";

/// The parameters of one model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ModelParams {
    /// Water's.
    Water(WaterParams),
    /// Smoke's.
    Smoke(SmokeParams),
    /// Gas'.
    Gas(GasParams),
}

/// Runs `$body` with `$p` bound to the parameter struct inside, whatever the model.
macro_rules! with_params {
    ($params:expr, $p:ident => $body:expr) => {
        match $params {
            ModelParams::Water($p) => $body,
            ModelParams::Smoke($p) => $body,
            ModelParams::Gas($p) => $body,
        }
    };
}

fn get<P: ParamTable>(p: &P, name: &str) -> Option<Value> {
    P::spec(name).map(|s| (s.get)(p))
}

impl ModelParams {
    /// The defaults of `kind` (each row's documented default).
    pub fn defaults(kind: ModelKind) -> Self {
        match kind {
            ModelKind::Water => ModelParams::Water(WaterParams::default()),
            ModelKind::Smoke => ModelParams::Smoke(SmokeParams::default()),
            ModelKind::Gas => ModelParams::Gas(GasParams::default()),
        }
    }

    /// Which model these belong to.
    pub fn kind(&self) -> ModelKind {
        match self {
            ModelParams::Water(_) => ModelKind::Water,
            ModelParams::Smoke(_) => ModelKind::Smoke,
            ModelParams::Gas(_) => ModelKind::Gas,
        }
    }

    /// The value of parameter `name`, `None` if the model has no such parameter.
    pub fn get(&self, name: &str) -> Option<Value> {
        with_params!(self, p => get(p, name))
    }

    /// Sets parameter `name` after checking it; nothing changes on error.
    ///
    /// # Errors
    /// [`ParamError`] when the value is out of range or the model has no such parameter.
    pub fn set(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        with_params!(self, p => p.set_checked(name, value))
    }

    /// Checks every parameter against its row.
    ///
    /// # Errors
    /// [`ParamError`] for the first one out of range.
    pub fn check(&self) -> Result<(), ParamError> {
        with_params!(self, p => p.check())
    }

    /// The parameter whose viewer key is `key` (lower case lowers, upper case raises) moved one
    /// step; `Ok(None)` when no parameter has that key.
    ///
    /// # Errors
    /// [`ParamError`] if the moved value fails a rule between parameters (nothing changes).
    pub fn nudge(&mut self, key: char) -> Result<Option<&'static ParamInfo>, ParamError> {
        let lower = key.to_ascii_lowercase();
        let Some(info) = self.kind().params().into_iter().find(|p| p.key == Some(lower)) else { return Ok(None) };
        let value = self.get(info.name).expect("a row of this model");
        self.set(info.name, info.nudge(value, key != lower))?;
        Ok(Some(info))
    }

    /// The parameters that have viewer keys, as `symbol value` pairs with the key: for a title
    /// or status line, e.g. `D 0.05 (d)`.
    pub fn keyed_summary(&self) -> String {
        self.kind()
            .params()
            .into_iter()
            .filter_map(|info| {
                let key = info.key?;
                let value = self.get(info.name)?;
                Some(format!("{} {} ({key})", info.symbol, info.format(value)))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn splat_radius(&self, width: usize) -> f32 {
        match self {
            ModelParams::Smoke(p) => p.splat_radius_for(width),
            _ => width as f32 / 8.0,
        }
    }
}

/// The state of one model on the CPU.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyState {
    /// Water's.
    Water(WaterState),
    /// Smoke's.
    Smoke(SmokeState),
    /// Gas'.
    Gas(GasState),
}

impl AnyState {
    /// Which model it is a state of.
    pub fn kind(&self) -> ModelKind {
        match self {
            AnyState::Water(_) => ModelKind::Water,
            AnyState::Smoke(_) => ModelKind::Smoke,
            AnyState::Gas(_) => ModelKind::Gas,
        }
    }

    /// `(H, W)`.
    pub fn shape(&self) -> (usize, usize) {
        match self {
            AnyState::Water(s) => s.shape(),
            AnyState::Smoke(s) => s.shape(),
            AnyState::Gas(s) => s.shape(),
        }
    }

    /// The state `kind` starts in from `scene` with `params` (smoke's ambient temperature).
    pub fn from_scene(kind: ModelKind, scene: &Scene, params: &ModelParams) -> Self {
        match (kind, params) {
            (ModelKind::Water, _) => AnyState::Water(WaterState::from_scene(scene)),
            (ModelKind::Smoke, ModelParams::Smoke(p)) => {
                AnyState::Smoke(SmokeState::from_scene(scene, p.ambient_temperature))
            }
            (ModelKind::Smoke, _) => AnyState::Smoke(SmokeState::from_scene(scene, 0.0)),
            (ModelKind::Gas, _) => AnyState::Gas(GasState::from_scene(scene)),
        }
    }

    /// The state `params`' model starts in from a scene file or preset; presets are built at
    /// `size` `(W, H)` with `seed` (the `plume` preset with the smoke's splat radius).
    ///
    /// # Errors
    /// [`SceneError`] as [`Scene::load`] gives them.
    pub fn start(
        source: &SceneSource,
        size: (usize, usize),
        seed: u64,
        params: &ModelParams,
    ) -> Result<Self, SceneError> {
        let kind = params.kind();
        let colours = if kind == ModelKind::Water { Colours::Plain } else { Colours::WithSources };
        let scene = match source {
            SceneSource::Preset(name) if name == "plume" => Scene::plume(size.0, size.1, params.splat_radius(size.0))?,
            _ => Scene::load(source, size, seed, colours)?,
        };
        Ok(Self::from_scene(kind, &scene, params))
    }

    /// Reads a state saved by eddy (or written by NumPy with the same arrays), with the step it
    /// was saved at (0 when the file does not say). The model is `kind` when given, else the one
    /// its arrays tell ([`ModelKind::of_arrays`]).
    ///
    /// # Errors
    /// [`SceneError::WrongModel`] when the arrays are another model's than `kind`, or say no
    /// model and `kind` is `None`; otherwise as the model's `load_npz`.
    pub fn load_npz(path: &Path, kind: Option<ModelKind>) -> Result<(Self, u64), SceneError> {
        let mut npz = NpzReader::open(path)?;
        let names = npz.array_names();
        let owners: Vec<ModelKind> = ModelKind::ALL.into_iter().filter(|k| k.marks(&names)).collect();
        if owners.len() > 1 {
            let owners: Vec<&str> = owners.iter().map(|k| k.name()).collect();
            return Err(SceneError::WrongModel {
                path: path.to_path_buf(),
                message: format!(
                    "its arrays ({}) belong to more than one model ({}): save one model's state per file",
                    names.join(", "),
                    owners.join(", ")
                ),
            });
        }
        let found = ModelKind::of_arrays(&names);
        let kind = match (kind, found) {
            (Some(k), Some(f)) if k != f => {
                return Err(SceneError::WrongModel {
                    path: path.to_path_buf(),
                    message: format!(
                        "holds a {f} state (arrays {}), not {k}: drop --mode or use --mode {f}",
                        names.join(", ")
                    ),
                });
            }
            (Some(k), _) => k,
            (None, Some(f)) => f,
            (None, None) => {
                return Err(SceneError::WrongModel {
                    path: path.to_path_buf(),
                    message: format!(
                        "its arrays ({}) do not say which model it is a state of: give --mode",
                        names.join(", ")
                    ),
                });
            }
        };
        let step = npz.read_scalar_i64(STEP_ARRAY)?.unwrap_or(0) as u64;
        let state = match kind {
            ModelKind::Water => AnyState::Water(WaterState::read_from(&mut npz, path)?),
            ModelKind::Smoke => AnyState::Smoke(SmokeState::read_from(&mut npz, path)?),
            ModelKind::Gas => AnyState::Gas(GasState::read_from(&mut npz, path)?),
        };
        Ok((state, step))
    }

    /// Writes the state and `step` as `.npz` (atomically: see [`Npz`]).
    ///
    /// # Errors
    /// [`SceneError::Io`]; whatever was at `path` is then unchanged.
    pub fn save_npz(&self, path: &Path, step: u64) -> Result<(), SceneError> {
        let mut npz = Npz::create(path)?;
        match self {
            AnyState::Water(s) => s.write_to(&mut npz)?,
            AnyState::Smoke(s) => s.write_to(&mut npz)?,
            AnyState::Gas(s) => s.write_to(&mut npz)?,
        }
        npz.write_scalar_i64(STEP_ARRAY, i64::try_from(step).unwrap_or(i64::MAX))?;
        npz.finish()
    }

    /// Statistics computed on the CPU (the mirror of [`AnyModel::stats`]'s reduction); `params`
    /// give water's wet threshold and smoke's cell size. `None` when `params` are another
    /// model's.
    pub fn stats(&self, params: &ModelParams) -> Option<AnyStats> {
        Some(match (self, params) {
            (AnyState::Water(s), ModelParams::Water(p)) => AnyStats::Water(WaterStats::of(s, p.min_mass)),
            (AnyState::Smoke(s), ModelParams::Smoke(p)) => AnyStats::Smoke(SmokeStats::of(s, p)),
            (AnyState::Gas(s), ModelParams::Gas(_)) => AnyStats::Gas(GasStats::of(s)),
            _ => return None,
        })
    }

    /// The first non-finite value, `(array, row, col)`, looking at the arrays in saving order.
    pub fn first_non_finite(&self) -> Option<(&'static str, usize, usize)> {
        let fields: Vec<(&'static str, &Grid<f32>)> = match self {
            AnyState::Water(s) => vec![("mass", &s.mass)],
            AnyState::Smoke(s) => vec![
                ("velocity", &s.velocity_x),
                ("velocity", &s.velocity_y),
                ("density", &s.density),
                ("temperature", &s.temperature),
                ("pressure", &s.pressure),
                ("divergence", &s.divergence),
            ],
            AnyState::Gas(s) => {
                vec![("density", &s.density), ("momentum", &s.momentum_x), ("momentum", &s.momentum_y)]
            }
        };
        fields.into_iter().find_map(|(name, g)| {
            let i = g.as_slice().iter().position(|v| !v.is_finite())?;
            Some((name, i / g.width(), i % g.width()))
        })
    }
}

/// Statistics of one model, computed on the GPU by reduction (or on the CPU from a state).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AnyStats {
    /// Water's.
    Water(WaterStats),
    /// Smoke's.
    Smoke(SmokeStats),
    /// Gas'.
    Gas(GasStats),
}

impl AnyStats {
    /// The conserved total: water's mass, smoke's density, gas' mass.
    pub fn total(&self) -> f64 {
        match self {
            AnyStats::Water(s) => s.total_mass,
            AnyStats::Smoke(s) => s.total_density,
            AnyStats::Gas(s) => s.total_mass,
        }
    }

    /// Cells with a NaN or infinite value.
    pub fn non_finite(&self) -> u64 {
        match self {
            AnyStats::Water(s) => s.non_finite,
            AnyStats::Smoke(s) => s.non_finite,
            AnyStats::Gas(s) => s.non_finite,
        }
    }

    /// Smoke: the L2 norm of the divergence left after the last projection.
    pub fn divergence(&self) -> Option<f64> {
        match self {
            AnyStats::Smoke(s) => Some(s.divergence_l2),
            _ => None,
        }
    }

    /// One line describing the state; a minimum, maximum or centroid over no cells reads `n/a`.
    pub fn line(&self) -> String {
        /// `v` with `digits` decimals, or `n/a` when it is an empty set's +-infinity or NaN.
        fn or_na(v: f64, digits: usize) -> String {
            if v.is_finite() { format!("{v:.digits$}") } else { "n/a".to_string() }
        }
        match self {
            AnyStats::Water(s) => format!(
                "total mass {:.4}, wet cells {}, mass of open cells {}..{}",
                s.total_mass,
                s.wet_cells,
                or_na(s.min_mass as f64, 4),
                or_na(s.max_mass as f64, 4)
            ),
            AnyStats::Smoke(s) => format!(
                "total density {:.4}, density centroid row {}, max speed {} cells/time unit, divergence L2 after projection {:.4}",
                s.total_density,
                or_na(s.density_centroid_row, 2),
                or_na(s.max_speed as f64, 3),
                s.divergence_l2
            ),
            AnyStats::Gas(s) => format!(
                "total mass {:.4}, total momentum ({:.4}, {:.4}), min density {}, max speed {} cells/step",
                s.total_mass,
                s.total_momentum.0,
                s.total_momentum.1,
                or_na(s.min_density as f64, 4),
                or_na(s.max_speed as f64, 3)
            ),
        }
    }
}

/// A model on the GPU.
enum Sim {
    Water(GpuWater),
    Smoke(Box<GpuSmoke>),
    Gas(GpuGas),
}

/// The renderer of a [`Sim`] for one target format.
enum Painter {
    Water(WaterRenderer),
    Smoke(SmokeRenderer),
    Gas(GasRenderer),
}

/// Any model on the GPU, with its renderer and the field it shows: step, statistics, save,
/// load, tools, draw. Holds clones of the device and queue it was made with.
pub struct AnyModel {
    sim: Sim,
    device: wgpu::Device,
    queue: wgpu::Queue,
    view: usize,
    painter: Option<(wgpu::TextureFormat, Painter)>,
    checkpoint: Option<(Checkpoint, u64)>,
    step: u64,
}

impl AnyModel {
    /// Uploads `state` and builds the model `params` are for; `step` is the step `state` was
    /// reached at (0 for a scene).
    ///
    /// # Errors
    /// [`Error::Param`] when `params` fail their table or are another model's than `state`;
    /// [`GpuError::GridTooLarge`] when a side is 0 or above the device's 2D texture limit;
    /// [`GpuError::TooLarge`] when one texture would exceed what the device allows in one
    /// resource or the state would not fit the machine's memory ([`memory::check`], without
    /// adapter information); [`GpuError::OutOfMemory`] (one line, with the estimate) when the
    /// device refuses the allocation; other [`GpuError`]s as the model's constructor gives them.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: &AnyState,
        params: &ModelParams,
        step: u64,
    ) -> Result<Self, Error> {
        let kind = state.kind();
        if params.kind() != kind {
            return Err(ParamError::new("mode", params.kind(), format!("the state is a {kind} state")).into());
        }
        params.check()?;
        let (h, w) = state.shape();
        gpu::check_grid_size(device, w, h)?;
        let estimate = memory::check(kind, (w, h), memory::Extras::default(), None, &device.limits())?;
        let built = match (state, params) {
            (AnyState::Water(s), ModelParams::Water(p)) => GpuWater::new(device, queue, s, *p).map(Sim::Water),
            (AnyState::Smoke(s), ModelParams::Smoke(p)) => {
                GpuSmoke::new(device, queue, s, *p).map(|g| Sim::Smoke(Box::new(g)))
            }
            (AnyState::Gas(s), ModelParams::Gas(p)) => GpuGas::new(device, queue, s, *p).map(Sim::Gas),
            _ => unreachable!("kinds checked above"),
        };
        let sim = built.map_err(|e| match e {
            Error::Gpu(GpuError::OutOfMemory(m) | GpuError::Validation(m)) => {
                Error::Gpu(GpuError::OutOfMemory(format!(
                    "{kind} at {w}x{h} needs about {} of GPU memory; the device said: {m}",
                    memory::human(estimate.gpu)
                )))
            }
            other => other,
        })?;
        Ok(Self { sim, device: device.clone(), queue: queue.clone(), view: 0, painter: None, checkpoint: None, step })
    }

    /// Which model.
    pub fn kind(&self) -> ModelKind {
        match &self.sim {
            Sim::Water(_) => ModelKind::Water,
            Sim::Smoke(_) => ModelKind::Smoke,
            Sim::Gas(_) => ModelKind::Gas,
        }
    }

    /// `(W, H)` in cells.
    pub fn size(&self) -> (u32, u32) {
        match &self.sim {
            Sim::Water(s) => s.size(),
            Sim::Smoke(s) => s.size(),
            Sim::Gas(s) => s.size(),
        }
    }

    /// The parameters in use.
    pub fn params(&self) -> ModelParams {
        match &self.sim {
            Sim::Water(s) => ModelParams::Water(*s.params()),
            Sim::Smoke(s) => ModelParams::Smoke(*s.params()),
            Sim::Gas(s) => ModelParams::Gas(*s.params()),
        }
    }

    /// Replaces the parameters from the next step on.
    ///
    /// # Errors
    /// [`Error::Param`] when they fail their table or are another model's; nothing changes.
    pub fn set_params(&mut self, params: ModelParams) -> Result<(), Error> {
        match (&mut self.sim, params) {
            (Sim::Water(s), ModelParams::Water(p)) => s.set_params(p),
            (Sim::Smoke(s), ModelParams::Smoke(p)) => s.set_params(p),
            (Sim::Gas(s), ModelParams::Gas(p)) => s.set_params(p),
            (_, p) => Err(ParamError::new("mode", p.kind(), format!("this model is {}", self.kind())).into()),
        }
    }

    /// The viewer key `key` applied to the parameters ([`ModelParams::nudge`]); the row it
    /// moved, if any.
    ///
    /// # Errors
    /// As [`ModelParams::nudge`].
    pub fn nudge(&mut self, key: char) -> Result<Option<&'static ParamInfo>, Error> {
        let mut p = self.params();
        let moved = p.nudge(key)?;
        if moved.is_some() {
            self.set_params(p)?;
        }
        Ok(moved)
    }

    /// Records `steps` steps into `encoder` (see each model's `encode_steps`).
    pub fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        match &mut self.sim {
            Sim::Water(s) => s.encode_steps(encoder, steps),
            Sim::Smoke(s) => s.encode_steps(encoder, steps),
            Sim::Gas(s) => s.encode_steps(encoder, steps),
        }
        self.step += steps as u64;
    }

    /// Submits `steps` steps (does not wait).
    pub fn step(&mut self, steps: u32) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_steps(&mut encoder, steps);
        self.queue.submit([encoder.finish()]);
    }

    /// The step reached (counting from the loaded state's step).
    pub fn steps_done(&self) -> u64 {
        self.step
    }

    /// Statistics by a reduction pass on the GPU. Waits for the GPU.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    pub fn stats(&self) -> Result<AnyStats, GpuError> {
        Ok(match &self.sim {
            Sim::Water(s) => AnyStats::Water(s.stats()?),
            Sim::Smoke(s) => AnyStats::Smoke(s.stats()?),
            Sim::Gas(s) => AnyStats::Gas(s.stats()?),
        })
    }

    /// Reads the whole state back. Waits for the GPU.
    ///
    /// # Errors
    /// As the model's `read_state`.
    pub fn read_state(&mut self) -> Result<AnyState, Error> {
        Ok(match &mut self.sim {
            Sim::Water(s) => AnyState::Water(s.read_state()?),
            Sim::Smoke(s) => AnyState::Smoke(s.read_state()?),
            Sim::Gas(s) => AnyState::Gas(s.read_state()?),
        })
    }

    /// Reads the state back and writes it with the step reached as `.npz` (atomically).
    ///
    /// # Errors
    /// As [`AnyModel::read_state`] and [`AnyState::save_npz`].
    pub fn save_npz(&mut self, path: &Path) -> Result<(), Error> {
        let step = self.step;
        Ok(self.read_state()?.save_npz(path, step)?)
    }

    fn state_textures(&self) -> Vec<&wgpu::Texture> {
        match &self.sim {
            Sim::Water(s) => s.state_textures(),
            Sim::Smoke(s) => s.state_textures(),
            Sim::Gas(s) => s.state_textures(),
        }
    }

    /// Copies the current fields into a checkpoint on the GPU (allocated on first use:
    /// [`super::ModelInfo::state_bytes_per_cell`] per cell), with the step reached. Submitted,
    /// not waited for; a texture copy, no readback.
    pub fn checkpoint(&mut self) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let previous = self.checkpoint.take().map(|(cp, _)| cp);
        let sources = self.state_textures();
        let cp = previous.unwrap_or_else(|| Checkpoint::new(&self.device, &sources));
        cp.capture(&mut encoder, &sources);
        drop(sources);
        self.queue.submit([encoder.finish()]);
        self.checkpoint = Some((cp, self.step));
    }

    /// Goes back to the last [`AnyModel::checkpoint`]; returns its step, or `None` (and changes
    /// nothing) when there is none. The fields are restored, not the solid and source masks
    /// (`eddy run` never edits them); [`AnyModel::steps_done`] goes back to the checkpoint's
    /// step, while the model's own [`Simulation::steps_done`] keeps counting the steps run.
    pub fn rollback(&mut self) -> Option<u64> {
        let (cp, step) = self.checkpoint.as_ref()?;
        let mut encoder = self.device.create_command_encoder(&Default::default());
        cp.restore(&mut encoder, &self.state_textures());
        self.queue.submit([encoder.finish()]);
        self.step = *step;
        Some(*step)
    }

    /// The field drawn, one of [`super::ModelInfo::views`].
    pub fn view(&self) -> &'static str {
        self.kind().info().views[self.view].name
    }

    /// Draws field `name` from now on.
    ///
    /// # Errors
    /// A message listing the model's fields when it has no such field.
    pub fn set_view(&mut self, name: &str) -> Result<(), String> {
        let kind = self.kind();
        self.view = kind
            .view_index(name)
            .ok_or_else(|| format!("{kind} has no field {name:?} to draw; its fields are {}", kind.view_names()))?;
        Ok(())
    }

    /// Draws the next field (the viewer's V key).
    pub fn cycle_view(&mut self) {
        self.view = (self.view + 1) % self.kind().info().views.len();
    }

    /// Records a draw of the current field filling `target` (`size` pixels, `format`).
    pub fn draw(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        format: wgpu::TextureFormat,
        size: (u32, u32),
    ) {
        if self.painter.as_ref().is_none_or(|(f, _)| *f != format) {
            let painter = match self.kind() {
                ModelKind::Water => Painter::Water(WaterRenderer::new(&self.device, format)),
                ModelKind::Smoke => Painter::Smoke(SmokeRenderer::new(&self.device, format)),
                ModelKind::Gas => Painter::Gas(GasRenderer::new(&self.device, format)),
            };
            self.painter = Some((format, painter));
        }
        let (d, q) = (&self.device, &self.queue);
        let view = self.view;
        match (&self.painter.as_ref().expect("made above").1, &self.sim) {
            (Painter::Water(r), Sim::Water(s)) => r.draw(d, q, encoder, target, size, s),
            (Painter::Smoke(r), Sim::Smoke(s)) => {
                let field = [
                    SmokeField::Density,
                    SmokeField::Temperature,
                    SmokeField::Speed,
                    SmokeField::Pressure,
                    SmokeField::Divergence,
                ][view];
                r.draw(d, q, encoder, target, size, s, field)
            }
            (Painter::Gas(r), Sim::Gas(s)) => {
                let field = if view == 1 { GasField::Velocity } else { GasField::Density };
                r.draw(d, q, encoder, target, size, s, field)
            }
            _ => unreachable!("the painter is made for the sim's model"),
        }
    }

    /// The solid and source masks, `(H, W)` each, 1 = solid / source (water has no sources).
    pub fn masks(&self) -> (Grid<u8>, Grid<u8>) {
        match &self.sim {
            Sim::Water(s) => (s.solid_mask().clone(), s.solid_mask().map(|_| 0)),
            Sim::Smoke(s) => (s.masks().0.clone(), s.masks().1.clone()),
            Sim::Gas(s) => (s.masks().0.clone(), s.masks().1.clone()),
        }
    }

    /// The radius of the viewer's brushes, cells: 1/64 of the grid's longer side, at least 1.5;
    /// smoke's splats are half its splat radius (so `W / 16` by default), at least 1.5.
    pub fn brush_radius(&self) -> f32 {
        let (w, h) = self.size();
        match (&self.sim, self.params()) {
            (Sim::Smoke(_), p) => (p.splat_radius(w as usize) * 0.5).max(1.5),
            _ => (w.max(h) as f32 / 64.0).max(1.5),
        }
    }

    /// Applies one pointer move of a tool: walls drawn or erased, fluid poured, injected or
    /// pushed along it, or erased (see [`super::ModelInfo::left_button`]).
    ///
    /// # Errors
    /// [`GpuError`] if the masks cannot be uploaded.
    pub fn stroke(&mut self, s: &Stroke) -> Result<(), GpuError> {
        let radius = self.brush_radius();
        let (mut solid, source) = self.masks();
        let walls = s.edit_walls(&mut solid, radius);
        let stamps = s.stamps(radius);
        let fluid = s.tool == Tool::Fluid && !s.erase;
        match &mut self.sim {
            Sim::Water(w) => {
                if walls {
                    w.upload_solid(&solid)?;
                }
                if s.erase {
                    for &center in &stamps {
                        w.brush(&Brush { center, radius, scale: 0.0, add: 0.0 });
                    }
                } else if fluid {
                    w.brush(&Brush { center: s.to, radius, scale: 1.0, add: POUR });
                }
            }
            Sim::Smoke(sm) => {
                if walls {
                    sm.upload_masks(&solid, &source)?;
                }
                let p = *sm.params();
                let dir = s.direction();
                for &center in &stamps {
                    let splat = if s.erase {
                        // Clear air: temperature back to ambient, no smoke, no added velocity.
                        Impulse {
                            temperature: p.ambient_temperature,
                            density: 0.0,
                            velocity: (0.0, 0.0),
                            ..splat(center, radius)
                        }
                    } else if fluid {
                        Impulse {
                            temperature: p.impulse_temperature,
                            density: p.impulse_density,
                            velocity: (dir.0 * DRAG_SPEED, dir.1 * DRAG_SPEED),
                            ..splat(center, radius)
                        }
                    } else {
                        continue;
                    };
                    sm.splat(&splat);
                }
            }
            Sim::Gas(g) => {
                if walls {
                    g.upload_masks(&solid, &source)?;
                }
                let dir = s.direction();
                for &center in &stamps {
                    if s.erase {
                        let calm = GasBrush {
                            center,
                            radius,
                            scale: 0.0,
                            add: AMBIENT_DENSITY,
                            velocity: (0.0, 0.0),
                            radial: 0.0,
                        };
                        g.brush(&calm);
                    } else if fluid && s.moved() {
                        let velocity = (dir.0 * PUSH.1, dir.1 * PUSH.1);
                        g.brush(&GasBrush { center, radius, scale: 1.0, add: PUSH.0, velocity, radial: 0.0 });
                    }
                }
            }
        }
        Ok(())
    }

    /// A click of the fluid tool without a drag at `at` (cells): in gas an explosion (dense gas
    /// blown outwards); nothing in the other models, whose press already poured or injected.
    pub fn click(&mut self, at: (f32, f32)) {
        let radius = self.brush_radius();
        if let Sim::Gas(g) = &mut self.sim {
            g.brush(&GasBrush { center: at, radius, scale: 1.0, add: BLAST.0, velocity: (0.0, 0.0), radial: BLAST.1 });
        }
    }
}

/// A CPU reference as a function that runs `n` steps.
pub type CpuSteps = Box<dyn FnMut(u32) -> Result<(), Error>>;

/// A model's CPU reference (`CpuWater`, `CpuSmoke`, `CpuGas`) from `state`: a function that runs
/// `n` steps.
///
/// # Errors
/// [`Error::Param`] when `params` fail their table or are another model's than `state`.
pub fn cpu_reference(state: AnyState, params: ModelParams) -> Result<CpuSteps, Error> {
    use crate::gas::CpuGas;
    use crate::smoke::CpuSmoke;
    use crate::water::CpuWater;
    fn boxed(mut sim: impl Simulation + 'static) -> CpuSteps {
        Box::new(move |n| sim.step(n))
    }
    Ok(match (state, params) {
        (AnyState::Water(s), ModelParams::Water(p)) => boxed(CpuWater::new(s, p)?),
        (AnyState::Smoke(s), ModelParams::Smoke(p)) => boxed(CpuSmoke::new(s, p)?),
        (AnyState::Gas(s), ModelParams::Gas(p)) => boxed(CpuGas::new(s, p)?),
        (s, p) => return Err(ParamError::new("mode", p.kind(), format!("the state is a {} state", s.kind())).into()),
    })
}

/// A smoke splat at `center` of `radius` (temperature, density and velocity to be filled in).
fn splat(center: (f32, f32), radius: f32) -> Impulse {
    Impulse { center, radius, temperature: 0.0, density: 0.0, velocity: (0.0, 0.0), sources: false }
}
