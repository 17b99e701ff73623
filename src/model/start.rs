//! From a [`Request`] (what `eddy run` and `eddy view` are given on the command line, and what
//! the Python module's `Simulation(...)` is given) to what a run starts with: the model (given,
//! or inferred from the state file or the preset), its parameters from the tables, and the
//! starting state; every inconsistency is a [`StartError::Usage`] naming what to change (in the
//! command line's words: `--scene`, `--size`, ...). Files (a state file, a PNG scene) are read
//! and checked here, before any GPU work.

use super::{AnyState, ModelKind, ModelParams, ParamInfo, Value, memory};
use crate::error::Error;
use crate::gpu::Gpu;
use crate::scene::{Colours, DEFAULT_PRESET_SIZE, Scene, SceneError, SceneSource};
use std::path::PathBuf;

/// What a run is asked to start from: each field as `eddy run`'s option of the same name.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// `--mode`: the model, or `None` to infer it (the state file's arrays, the preset's owner,
    /// else water).
    pub mode: Option<ModelKind>,
    /// `--scene`: a PNG file or a preset name (any case).
    pub scene: Option<String>,
    /// `--load`: a `.npz` state file; its saved parameters ([`super::PARAMETERS_ARRAY`]) are
    /// the run's before the options given.
    pub load: Option<PathBuf>,
    /// `--size`: `(W, H)` cells of a preset.
    pub size: Option<(usize, usize)>,
    /// `--seed`: the `random` preset's seed.
    pub seed: Option<u64>,
    /// `--body`: rigid bodies to add to the starting state ([`crate::body`]).
    pub bodies: Vec<crate::body::Body>,
    /// The parameters given, `(model, row, value)`, in any order; an option that two models
    /// share ([`super::SHARED_PARAMS`]) once for each (the run applies its own model's).
    pub given: Vec<(ModelKind, &'static ParamInfo, Value)>,
    /// A script plays in this run: an option that does nothing at the start may count later, so
    /// such options are not refused.
    pub scripted: bool,
}

/// Why a run cannot start.
#[derive(Debug)]
pub enum StartError {
    /// What was asked is inconsistent or out of range; the message says what to change.
    Usage(String),
    /// A file could not be read, or is not a state or scene eddy can use.
    Failed(Error),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Usage(m) => f.write_str(m),
            StartError::Failed(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for StartError {}

impl<E: Into<Error>> From<E> for StartError {
    fn from(e: E) -> Self {
        StartError::Failed(e.into())
    }
}

/// A usage error.
fn usage(message: impl std::fmt::Display) -> StartError {
    StartError::Usage(message.to_string())
}

type Result<T> = std::result::Result<T, StartError>;

/// What a run starts from.
pub struct Setup {
    /// The model.
    pub kind: ModelKind,
    /// Its parameters: the defaults with the options given.
    pub params: ModelParams,
    /// Where it starts.
    pub origin: Origin,
    /// Bodies to add to the starting state (`--body`).
    pub bodies: Vec<crate::body::Body>,
}

/// Where a run starts.
pub enum Origin {
    /// A preset, to be built at `size` `(W, H)` with `seed` once the size is checked.
    Preset {
        /// Its name.
        name: String,
        /// `(W, H)`, cells.
        size: (usize, usize),
        /// Seed of `random`.
        seed: u64,
    },
    /// A PNG scene, read and checked.
    Png(PathBuf, Box<Scene>),
    /// A state file (`--load`), its headers read: the grid `(W, H)` and the step it was saved
    /// at. Its arrays are read once the grid is checked against the device
    /// ([`Setup::state`]), so a file that declares a huge array is refused before it is
    /// decompressed.
    State {
        /// The file.
        path: PathBuf,
        /// `(W, H)`, cells.
        size: (usize, usize),
        /// The step it was saved at.
        step: u64,
    },
}

impl Request {
    /// The model the request names or implies before a script is read: `--mode`, the
    /// owner of a `--scene` preset, or the model of a `--load` file's arrays; `None` leaves it to
    /// the script's `mode` (and then water).
    pub fn stated_mode(&self) -> Option<ModelKind> {
        self.mode.or_else(|| self.preset_owner()).or_else(|| {
            let names = crate::npz::NpzReader::open(self.load.as_deref()?).ok()?.array_names();
            ModelKind::of_arrays(&names)
        })
    }

    /// The model whose preset `--scene` names (in any case), if it names one.
    fn preset_owner(&self) -> Option<ModelKind> {
        ModelKind::owning_preset(&self.scene.as_deref()?.to_ascii_lowercase())
    }

    /// Works out the model and its parameters and checks the command line is consistent:
    /// `--scene` and `--load` together, a preset or an option of another model, `--size` or
    /// `--seed` where they do nothing, a value out of its range are usage errors. Reads `--load`
    /// (which can tell the model) and a PNG `--scene`.
    pub fn setup(&self) -> Result<Setup> {
        if self.scene.is_some() && self.load.is_some() {
            return Err(usage("--scene and --load both say where the run starts: give one of them"));
        }
        if let Some((w, h)) = self.size
            && (w == 0 || h == 0)
        {
            return Err(usage(format!("--size {w}x{h}: each side must be at least 1 cell")));
        }
        let scene = self.scene.as_deref().map(str::to_ascii_lowercase);
        let preset = self.preset_owner();
        let (kind, source) = match &self.load {
            Some(path) => {
                let (kind, size, step) = AnyState::peek_npz(path, self.mode)?;
                (kind, Err(Origin::State { path: path.clone(), size, step }))
            }
            None => {
                let kind = self.mode.or(preset).unwrap_or(ModelKind::Water);
                let name = self.scene.as_deref().unwrap_or(kind.default_scene());
                (kind, Ok(SceneSource::parse(name)?))
            }
        };
        if let (Some(owner), Some(name), Ok(SceneSource::Preset(_))) = (preset, &scene, &source)
            && owner != kind
        {
            return Err(usage(format!(
                "--scene {name} is a {owner} preset, and this run is {kind}: use --mode {owner} (or drop --mode), \
                 or one of {kind}'s presets: {}",
                kind.preset_names()
            )));
        }
        let mut params = ModelParams::defaults(kind);
        // A scene preset that names a parameter set of its model (smoke's `cavity`) starts it.
        if let Ok(SceneSource::Preset(name)) = &source {
            params.apply_scene_preset(name);
        }
        // A state file goes on with the parameters it was saved with (the options given refine
        // them, and --pipeline or --preset starts a set afresh, as after a scene).
        if let Some(path) = &self.load
            && let Some(saved) = AnyState::read_parameters(path, kind)?
        {
            params = saved;
        }
        // A row that resets others (water's --preset, smoke's --pipeline) goes first, so the
        // options given with it refine it whatever their order.
        let mut given: Vec<_> = self.given.iter().collect();
        given.sort_by_key(|(_, info, _)| !matches!(info.name, "preset" | "pipeline"));
        for (owner, info, value) in given {
            // A shared option (SHARED_PARAMS) comes once per model that has it: this model's row.
            let own_row = self.given.iter().any(|(o, i, _)| *o == kind && i.name == info.name);
            if *owner != kind && own_row {
                continue;
            }
            if *owner != kind {
                let names: Vec<&str> = ModelKind::param_rows(info.name).iter().map(|r| r.0.name()).collect();
                let modes: Vec<String> = names.iter().map(|k| format!("--mode {k}")).collect();
                return Err(usage(format!(
                    "--{} is a {} option, and this run is {kind}: use {}, or drop --{}",
                    info.name,
                    names.join(" and "),
                    modes.join(" or "),
                    info.name
                )));
            }
            params.set_row_only(info.name, *value).map_err(usage)?;
        }
        // Limits that tie parameters together are checked once all are set.
        params.check().map_err(usage)?;
        // An option given that would do nothing is refused, all of them in one line (unless a
        // script plays, whose actions may make it count later).
        let unused: Vec<String> = self
            .given
            .iter()
            .filter(|(o, _, _)| *o == kind)
            .filter_map(|(_, info, _)| params.unused(info.name))
            .collect();
        if !unused.is_empty() && !self.scripted {
            return Err(usage(unused.join("; ")));
        }
        let has_own_size = |what: &str| usage(format!("--size sets a preset's size; {what} has its own: drop --size"));
        let origin = match source {
            Err(state) => {
                if self.size.is_some() {
                    return Err(has_own_size("a loaded state"));
                }
                state
            }
            Ok(SceneSource::Png(path)) => {
                if self.size.is_some() {
                    return Err(has_own_size("a PNG scene"));
                }
                let colours = if kind == ModelKind::Water { Colours::Plain } else { Colours::WithSources };
                let scene = Scene::from_png(&path, colours)?;
                Origin::Png(path, Box::new(scene))
            }
            Ok(SceneSource::Preset(name)) => {
                Origin::Preset { name, size: self.size.unwrap_or(DEFAULT_PRESET_SIZE), seed: self.seed.unwrap_or(1) }
            }
        };
        if self.seed.is_some() && !matches!(&origin, Origin::Preset { name, .. } if name == "random") {
            return Err(usage("--seed only seeds the `random` preset: drop it, or use --scene random"));
        }
        if !self.bodies.is_empty() {
            match &params {
                ModelParams::Smoke(p) => {
                    crate::smoke::check_bodies(&self.bodies, p).map_err(|e| usage(format!("--body: {e}")))?
                }
                ModelParams::Gas(_) => {
                    crate::gas::bodies::check(&self.bodies).map_err(|e| usage(format!("--body: {e}")))?
                }
                ModelParams::Water(_) => {
                    crate::water::bodies::check(&self.bodies).map_err(|e| usage(format!("--body: {e}")))?
                }
                ModelParams::Custom(_) => {
                    return Err(usage(format!(
                        "--body: bodies move through water, smoke and gas, and this run is {kind}"
                    )));
                }
            }
        }
        Ok(Setup { kind, params, origin, bodies: self.bodies.clone() })
    }
}

impl Setup {
    /// `(W, H)` of the grid the run will have, without building it.
    pub fn size(&self) -> (usize, usize) {
        match &self.origin {
            Origin::State { size, .. } => *size,
            Origin::Preset { size, .. } => *size,
            Origin::Png(_, scene) => {
                let (h, w) = scene.solid.shape();
                (w, h)
            }
        }
    }

    /// Checks the grid fits the adapter (texture limit, memory with `extras`), then builds the
    /// starting state and the step it is at.
    pub fn state(self, gpu: &Gpu, extras: memory::Extras) -> Result<(AnyState, u64)> {
        let (w, h) = self.size();
        let limits = gpu.device.limits();
        // A file's grid is the file's: the message names it.
        let file = match &self.origin {
            Origin::State { path, .. } => format!("--load {}: ", path.display()),
            Origin::Png(path, _) => format!("--scene {}: ", path.display()),
            Origin::Preset { .. } => String::new(),
        };
        let refused = |e: crate::gpu::GpuError| usage(format!("{file}{e}"));
        self.kind.check_size(w, h, limits.max_texture_dimension_2d).map_err(refused)?;
        memory::check(self.kind, (w, h), extras, Some(&gpu.adapter.get_info()), &limits).map_err(refused)?;
        let (mut state, step) = match self.origin {
            Origin::State { path, step, .. } => {
                let limits = memory::read_limits(Some(limits.max_texture_dimension_2d));
                let (state, _) = AnyState::load_npz_within(&path, Some(self.kind), limits)?;
                (state, step)
            }
            Origin::Png(path, scene) => {
                let state = AnyState::from_scene(self.kind, &scene, &self.params);
                let refused =
                    || usage(format!("--scene {}: {} does not start from PNG scenes", path.display(), self.kind));
                (state.ok_or_else(refused)?, 0)
            }
            Origin::Preset { name, size, seed } => {
                // A size the preset cannot be drawn at is the command line's to fix (--size).
                let state = AnyState::start(&SceneSource::Preset(name), size, seed, &self.params);
                let state = state.map_err(|e| match e {
                    SceneError::BadSize { .. } => usage(format!("--size: {e}")),
                    e => e.into(),
                })?;
                (state, 0)
            }
        };
        if !self.bodies.is_empty() {
            match (&mut state, &self.params) {
                (AnyState::Smoke(s), ModelParams::Smoke(p)) => {
                    s.bodies.extend(self.bodies.iter().copied());
                    crate::smoke::check_bodies(&s.bodies, p).map_err(|e| usage(format!("--body: {e}")))?;
                }
                (AnyState::Gas(s), _) => {
                    s.bodies.extend(self.bodies.iter().copied());
                    crate::gas::bodies::check(&s.bodies).map_err(|e| usage(format!("--body: {e}")))?;
                }
                (AnyState::Water(s), _) => {
                    s.bodies.extend(self.bodies.iter().copied());
                    crate::water::bodies::check(&s.bodies).map_err(|e| usage(format!("--body: {e}")))?;
                }
                _ => {}
            }
        }
        Ok((state, step))
    }

    /// What the run starts from, for messages.
    pub fn describe(&self) -> String {
        match &self.origin {
            Origin::State { path, step, .. } => format!("state {} (step {step})", path.display()),
            Origin::Preset { name, size, .. } => format!("preset {name} at {}x{}", size.0, size.1),
            Origin::Png(path, _) => path.display().to_string(),
        }
    }
}

/// Why an option given does nothing on `state` in a run that draws nothing (`eddy run` without a
/// script: no splats, no strokes), and what to do instead; `None` when each counts. `given` are
/// the option names (`dye-hue`) of the run's model. What [`crate::model::ParamTable::unused`]
/// cannot tell from the parameters alone: the options of source cells on a scene without any.
pub fn unused_on(state: &AnyState, given: &[&str]) -> Option<String> {
    let (source, options): (_, &[(&str, &str)]) = match state {
        AnyState::Smoke(s) => (
            &s.source,
            &[("dye-hue", "colours the smoke of source cells"), ("splat-radius", "sizes the plume scene's source")],
        ),
        AnyState::Gas(s) => (&s.source, &[("wind", "is the velocity source cells blow at")]),
        AnyState::Water(_) | AnyState::Custom(_) => return None,
    };
    if source.as_slice().iter().any(|&c| c != 0) {
        return None;
    }
    let unused: Vec<String> = options
        .iter()
        .filter(|(name, _)| given.contains(name))
        .map(|(name, what)| {
            format!(
                "--{name} {what}, and this run's scene has none: drop --{name}, or start from a scene with source \
                 cells ({})",
                if matches!(state, AnyState::Gas(_)) { "--scene wind" } else { "--scene plume" }
            )
        })
        .collect();
    (!unused.is_empty()).then(|| unused.join("; "))
}
