//! The types [`super::AnyModel`] deals in, for any model: its parameters ([`ModelParams`]), its
//! state on the CPU ([`AnyState`]: start, load, save) and its statistics ([`AnyStats`]). Each
//! matches on the model once per operation, as `any.rs` does for running one.

use super::ModelKind;
use super::ParamInfo;
use super::custom::{self, CustomParams, CustomState, CustomStats};
use crate::error::ParamError;
use crate::gas::{GasParams, GasState, GasStats};
use crate::grid::Grid;
#[cfg(feature = "npz")]
use crate::npz::{Npz, NpzReader, ReadLimits};
use crate::params::{ParamTable, Value};
use crate::scene::{Colours, Scene, SceneError, SceneSource};
use crate::smoke::{SmokeParams, SmokeState, SmokeStats};
use crate::water::{WaterParams, WaterState, WaterStats};
use std::path::Path;

/// Name of the `.npz` array that holds the step a state was saved at (int64, 0-d).
pub const STEP_ARRAY: &str = "step";

/// Name of the `.npz` array that holds the parameters a state was saved with: UTF-8 text, a
/// `name = value` line a parameter (the command line's names and values, [`ModelParams::to_text`]),
/// as a 1-d uint8 array (NumPy: `bytes(npz["parameters"]).decode()`). `--load` starts from them.
pub const PARAMETERS_ARRAY: &str = "parameters";

/// The parameters of one model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ModelParams {
    /// Water's.
    Water(WaterParams),
    /// Smoke's.
    Smoke(SmokeParams),
    /// Gas'.
    Gas(GasParams),
    /// A registered model's ([`custom`]).
    Custom(CustomParams),
}

impl ModelParams {
    /// The defaults of `kind` (each row's documented default).
    pub fn defaults(kind: ModelKind) -> Self {
        match kind {
            ModelKind::Water => ModelParams::Water(WaterParams::default()),
            ModelKind::Smoke => ModelParams::Smoke(SmokeParams::default()),
            ModelKind::Gas => ModelParams::Gas(GasParams::default()),
            ModelKind::Custom(id) => ModelParams::Custom(CustomParams::defaults(id)),
        }
    }

    /// Which model these belong to.
    pub fn kind(&self) -> ModelKind {
        match self {
            ModelParams::Water(_) => ModelKind::Water,
            ModelParams::Smoke(_) => ModelKind::Smoke,
            ModelParams::Gas(_) => ModelKind::Gas,
            ModelParams::Custom(p) => p.kind(),
        }
    }

    /// The value of parameter `name`, `None` if the model has no such parameter.
    pub fn get(&self, name: &str) -> Option<Value> {
        each_model!(ModelParams, self, p => p.get(name))
    }

    /// Sets parameter `name` after checking it; nothing changes on error.
    ///
    /// # Errors
    /// [`ParamError`] when the value is out of range or the model has no such parameter.
    pub fn set(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        each_model!(ModelParams, self, p => p.set_checked(name, value))
    }

    /// Sets `name` as an interactive control does ([`ParamTable::set_fitted`]): in its row's
    /// range, with the parameters tied to it moved to fit.
    ///
    /// # Errors
    /// [`ParamError`] when the value is out of its row's range or the parameter is not this
    /// model's; nothing changes on error.
    pub fn set_fitted(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        each_model!(ModelParams, self, p => p.set_fitted(name, value))
    }

    /// Sets `name` checking only its row ([`ParamTable::set_row_only`]): call
    /// [`Self::check`] once all are set.
    ///
    /// # Errors
    /// [`ParamError`] when the value is out of its row's range or the parameter is not this
    /// model's.
    pub fn set_row_only(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        each_model!(ModelParams, self, p => p.set_row_only(name, value))
    }

    /// When the model has a parameter-set row (`preset` or `pipeline`) with a choice named
    /// `scene` (smoke's `cavity` scene and pipeline), chooses it: the scene preset then starts
    /// with the parameters it is made for. Gas has no such row; its `tunnel` scene starts
    /// [`crate::gas::GasParams::tunnel`]. Returns whether it did.
    pub fn apply_scene_preset(&mut self, scene: &str) -> bool {
        if let (ModelParams::Gas(p), "tunnel") = (&mut *self, scene) {
            *p = crate::gas::GasParams::tunnel();
            return true;
        }
        for info in self.kind().params() {
            if let ("preset" | "pipeline", super::ParamKind::Choice(names)) = (info.name, info.kind)
                && let Some(i) = names.iter().position(|n| *n == scene)
            {
                return self.set_row_only(info.name, Value::Choice(i)).is_ok();
            }
        }
        false
    }

    /// Why the parameter `name` does nothing with these parameters, if it does nothing
    /// ([`ParamTable::unused`]).
    pub fn unused(&self, name: &str) -> Option<String> {
        each_model!(ModelParams, self, p => p.unused(name))
    }

    /// Checks every parameter against its row.
    ///
    /// # Errors
    /// [`ParamError`] for the first one out of range.
    pub fn check(&self) -> Result<(), ParamError> {
        each_model!(ModelParams, self, p => p.check())
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
        let next = info.nudge(value, key != lower);
        each_model!(ModelParams, self, p => p.set_fitted(info.name, next))?;
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

    /// Every parameter as a `name = value` line, in the table's order, each value as the command
    /// line takes it, exactly (every digit an f32 keeps; `auto` for one left unset): what a saved
    /// state carries ([`PARAMETERS_ARRAY`]) and [`Self::from_text`] reads back.
    pub fn to_text(&self) -> String {
        each_model!(ModelParams, self, p => crate::gpu_model::ModelParameters::to_text(p))
    }

    /// `kind`'s parameters from `text` as [`Self::to_text`] writes it: the defaults, then the
    /// parameter-set row (`preset`, `pipeline`) if named, then every other line in order, then
    /// the rules between parameters checked; a parameter not named keeps its default (or the
    /// set's value). Blank lines and lines starting with `#` are skipped.
    ///
    /// # Errors
    /// A message naming the line: not `name = value`, a name `kind` has no parameter for (a
    /// newer eddy's), a value its row refuses; or the rule between parameters that fails.
    pub fn from_text(kind: ModelKind, text: &str) -> Result<Self, String> {
        let rows = kind.params();
        let mut lines = Vec::new();
        for (n, line) in text.lines().enumerate().map(|(n, l)| (n + 1, l.trim())) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((name, value)) = line.split_once('=').map(|(a, b)| (a.trim(), b.trim())) else {
                return Err(format!("line {n} {line:?} is not `name = value`"));
            };
            let Some(info) = rows.iter().find(|info| info.name == name) else {
                return Err(format!(
                    "line {n}: {kind} has no parameter {name:?} (its parameters: {})",
                    kind.param_names()
                ));
            };
            let value = match (value, info.auto) {
                ("auto", Some(_)) => Value::Auto,
                _ => info.parse(value).map_err(|e| format!("line {n}: --{name}: {e}"))?,
            };
            lines.push((n, info.name, value));
        }
        // The parameter set resets the others, so it goes first whatever its line.
        lines.sort_by_key(|(_, name, _)| !matches!(*name, "preset" | "pipeline"));
        let mut params = Self::defaults(kind);
        for (n, name, value) in lines {
            params.set_row_only(name, value).map_err(|e| format!("line {n}: {e}"))?;
        }
        params.check().map_err(|e| e.to_string())?;
        Ok(params)
    }

    /// The smoke splat radius for a grid `width` cells wide ([`SmokeParams::splat_radius_for`]);
    /// `W / 8` for the other models, which have none.
    pub(crate) fn splat_radius(&self, width: usize) -> f32 {
        match self {
            ModelParams::Smoke(p) => p.splat_radius_for(width),
            _ => width as f32 / 8.0,
        }
    }
}

/// The state of one model on the CPU.
// A smoke state's grids make its variant the largest; states are few and long-lived, so the
// size is not worth a box at every match.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum AnyState {
    /// Water's.
    Water(WaterState),
    /// Smoke's.
    Smoke(SmokeState),
    /// Gas'.
    Gas(GasState),
    /// A registered model's ([`custom`]).
    Custom(CustomState),
}

impl AnyState {
    /// Which model it is a state of.
    pub fn kind(&self) -> ModelKind {
        match self {
            AnyState::Water(_) => ModelKind::Water,
            AnyState::Smoke(_) => ModelKind::Smoke,
            AnyState::Gas(_) => ModelKind::Gas,
            AnyState::Custom(s) => s.kind(),
        }
    }

    /// `(H, W)`.
    pub fn shape(&self) -> (usize, usize) {
        each_model!(AnyState, self, s => crate::ModelState::shape(s))
    }

    /// `state` of registered model `M` as an [`AnyState`] (what [`super::Session`] and
    /// [`super::Start::State`] take).
    ///
    /// # Errors
    /// [`crate::Error::Message`] when `M` is not registered ([`custom::register`]).
    pub fn custom<M: custom::CustomModel>(state: M::State) -> Result<Self, crate::Error> {
        Ok(AnyState::Custom(CustomState::of::<M>(state)?))
    }

    /// The state `kind` starts in from `scene` with `params` (smoke's ambient temperature; gas
    /// with an inflow edge already streaming, [`GasState::streaming`]); `None` for a registered
    /// model that does not start from scenes ([`custom::CustomModel::from_scene`]).
    pub fn from_scene(kind: ModelKind, scene: &Scene, params: &ModelParams) -> Option<Self> {
        Some(match (kind, params) {
            (ModelKind::Water, _) => AnyState::Water(WaterState::from_scene(scene)),
            (ModelKind::Smoke, ModelParams::Smoke(p)) => {
                AnyState::Smoke(SmokeState::from_scene(scene, p.ambient_temperature))
            }
            (ModelKind::Smoke, _) => AnyState::Smoke(SmokeState::from_scene(scene, 0.0)),
            (ModelKind::Gas, ModelParams::Gas(p)) => AnyState::Gas(GasState::from_scene(scene).streaming(p)),
            (ModelKind::Gas, _) => AnyState::Gas(GasState::from_scene(scene)),
            (ModelKind::Custom(_), ModelParams::Custom(p)) if p.kind() == kind => {
                AnyState::Custom(custom::from_scene(scene, p)?)
            }
            (ModelKind::Custom(id), _) => AnyState::Custom(custom::from_scene(scene, &CustomParams::defaults(id))?),
        })
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
        let scene = match (source, params) {
            (SceneSource::Preset(name), _) if name == "plume" => {
                Scene::plume(size.0, size.1, params.splat_radius(size.0))?
            }
            (SceneSource::Preset(name), ModelParams::Custom(p)) => {
                if !kind.info().presets.iter().any(|(n, _)| n == name) {
                    let presets = format!("{} ({kind})", kind.preset_names());
                    return Err(SceneError::UnknownScene { name: name.clone(), presets });
                }
                return Ok(AnyState::Custom(custom::preset(name, size, seed, p)?));
            }
            _ => Scene::load(source, size, seed, Self::colours(kind))?,
        };
        let path = match source {
            SceneSource::Png(path) => path.as_path(),
            SceneSource::Preset(name) => Path::new(name),
        };
        Self::from_scene(kind, &scene, params).ok_or_else(|| Self::no_scenes(kind, path))
    }

    /// Why a registered model that does not start from scenes cannot start from `path`.
    fn no_scenes(kind: ModelKind, path: &Path) -> SceneError {
        let message =
            format!("{kind} does not start from PNG scenes; start it from a preset ({})", kind.preset_names());
        SceneError::WrongModel { path: path.to_path_buf(), message }
    }

    /// The state `params`' model starts in from a PNG scene's bytes (a file picked or dropped in
    /// a browser); `name` is what errors call it.
    ///
    /// # Errors
    /// As [`Scene::from_png_bytes`].
    pub fn from_png_bytes(name: &Path, bytes: &[u8], params: &ModelParams) -> Result<Self, SceneError> {
        let kind = params.kind();
        let scene = Scene::from_png_bytes(name, bytes, Self::colours(kind))?;
        Self::from_scene(kind, &scene, params).ok_or_else(|| Self::no_scenes(kind, name))
    }

    /// The PNG colours a model reads: red sources only where the model has sources.
    fn colours(kind: ModelKind) -> Colours {
        if kind == ModelKind::Water { Colours::Plain } else { Colours::WithSources }
    }

    /// Reads a state saved by eddy (or written by NumPy with the same arrays), with the step it
    /// was saved at (0 when the file does not say). The model is `kind` when given, else the one
    /// its arrays tell ([`ModelKind::of_arrays`]).
    ///
    /// # Errors
    /// [`SceneError::WrongModel`] when the arrays are another model's than `kind`, or say no
    /// model and `kind` is `None`; otherwise as the model's `load_npz`.
    #[cfg(feature = "npz")]
    pub fn load_npz(path: &Path, kind: Option<ModelKind>) -> Result<(Self, u64), SceneError> {
        Self::load_npz_within(path, kind, super::memory::read_limits(None))
    }

    /// [`AnyState::load_npz`] with every array's header checked against `limits` (the device's
    /// side limit, say) before any array is decompressed.
    ///
    /// # Errors
    /// As [`AnyState::load_npz`]; [`SceneError::Npz`] naming an array larger than `limits`.
    #[cfg(feature = "npz")]
    pub fn load_npz_within(
        path: &Path,
        kind: Option<ModelKind>,
        limits: ReadLimits,
    ) -> Result<(Self, u64), SceneError> {
        Self::read_npz(NpzReader::open_within(path, limits)?, path, kind)
    }

    /// What a state file holds, from the array headers alone (nothing is decompressed but the
    /// step): its model (as [`AnyState::load_npz`] decides it), grid `(W, H)` and step. A caller
    /// checks the grid against the device before it loads the file.
    ///
    /// # Errors
    /// As [`AnyState::load_npz`] for the archive, its model and its step;
    /// [`SceneError::MissingArray`] when the model's first array is absent.
    #[cfg(feature = "npz")]
    pub fn peek_npz(path: &Path, kind: Option<ModelKind>) -> Result<(ModelKind, (usize, usize), u64), SceneError> {
        Self::peek(NpzReader::open_within(path, super::memory::read_limits(None))?, path, kind)
    }

    /// [`AnyState::peek_npz`] of an archive's bytes (`name` is what errors call it), every
    /// array's header checked against `limits`.
    ///
    /// # Errors
    /// As [`AnyState::peek_npz`]; [`SceneError::Npz`] naming an array larger than `limits`.
    #[cfg(feature = "npz")]
    pub fn peek_npz_bytes(
        name: &Path,
        bytes: &[u8],
        kind: Option<ModelKind>,
        limits: ReadLimits,
    ) -> Result<(ModelKind, (usize, usize), u64), SceneError> {
        Self::peek(NpzReader::from_bytes_within(name, bytes.to_vec(), limits)?, name, kind)
    }

    #[cfg(feature = "npz")]
    fn peek(
        mut npz: NpzReader,
        path: &Path,
        kind: Option<ModelKind>,
    ) -> Result<(ModelKind, (usize, usize), u64), SceneError> {
        let kind = Self::kind_of(&npz.array_names(), path, kind)?;
        let first = match kind {
            ModelKind::Water => "mass",
            ModelKind::Custom(_) => kind.info().arrays[0].name,
            _ => "density",
        };
        let shape = npz.shape(first)?;
        let step = npz.read_scalar_i64(STEP_ARRAY)?.unwrap_or(0) as u64;
        let side = |k: usize| shape.get(k).copied().unwrap_or(0) as usize;
        let (h, w) = (side(0), side(1));
        if h == 0 || w == 0 {
            let message = format!("has shape {shape:?}: a grid needs at least one cell");
            return Err(SceneError::BadArray { path: path.to_path_buf(), name: first, message });
        }
        Ok((kind, (w, h), step))
    }

    /// [`AnyState::load_npz`] of an archive's bytes (a file picked or dropped in a browser);
    /// `name` is what errors call it.
    ///
    /// # Errors
    /// As [`AnyState::load_npz`].
    #[cfg(feature = "npz")]
    pub fn load_npz_bytes(name: &Path, bytes: Vec<u8>, kind: Option<ModelKind>) -> Result<(Self, u64), SceneError> {
        Self::load_npz_bytes_within(name, bytes, kind, super::memory::read_limits(None))
    }

    /// [`AnyState::load_npz_bytes`] with every array's header checked against `limits` (the
    /// device's side limit, say) before any array is decompressed.
    ///
    /// # Errors
    /// As [`AnyState::load_npz_bytes`]; [`SceneError::Npz`] naming an array larger than `limits`.
    #[cfg(feature = "npz")]
    pub fn load_npz_bytes_within(
        name: &Path,
        bytes: Vec<u8>,
        kind: Option<ModelKind>,
        limits: ReadLimits,
    ) -> Result<(Self, u64), SceneError> {
        Self::read_npz(NpzReader::from_bytes_within(name, bytes, limits)?, name, kind)
    }

    #[cfg(feature = "npz")]
    fn read_npz(mut npz: NpzReader, path: &Path, kind: Option<ModelKind>) -> Result<(Self, u64), SceneError> {
        let kind = Self::kind_of(&npz.array_names(), path, kind)?;
        let step = npz.read_scalar_i64(STEP_ARRAY)?.unwrap_or(0) as u64;
        let state = match kind {
            ModelKind::Water => AnyState::Water(WaterState::read_from(&mut npz, path)?),
            ModelKind::Smoke => AnyState::Smoke(SmokeState::read_from(&mut npz, path)?),
            ModelKind::Gas => AnyState::Gas(GasState::read_from(&mut npz, path)?),
            ModelKind::Custom(id) => AnyState::Custom(custom::read_npz(id, &mut npz, path)?),
        };
        Ok((state, step))
    }

    /// The model of an archive with arrays `names`: `kind` when given, else the one the arrays
    /// tell; an error when they tell another, several, or none.
    #[cfg(feature = "npz")]
    fn kind_of(names: &[String], path: &Path, kind: Option<ModelKind>) -> Result<ModelKind, SceneError> {
        let found = ModelKind::of_arrays(names);
        // A registered model's arrays are exactly its own: that settles it.
        let owners: Vec<ModelKind> = match found {
            Some(k @ ModelKind::Custom(_)) => vec![k],
            _ => ModelKind::ALL.into_iter().filter(|k| k.marks(names)).collect(),
        };
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
            // `density` alone is smoke's or gas' (give --mode); without it, no eddy state.
            (None, None) if names.iter().any(|n| n == "density") => {
                return Err(SceneError::WrongModel {
                    path: path.to_path_buf(),
                    message: format!(
                        "its arrays ({}) do not say which model it is a state of: give --mode",
                        names.join(", ")
                    ),
                });
            }
            (None, None) => {
                return Err(SceneError::WrongModel {
                    path: path.to_path_buf(),
                    message: format!(
                        "holds none of eddy's state arrays (arrays: {}; a state has `mass` for water, `density` \
                         with `velocity` for smoke or `momentum` for gas): give a file that eddy saved",
                        if names.is_empty() { "none".to_string() } else { names.join(", ") }
                    ),
                });
            }
        };
        Ok(kind)
    }

    /// The parameters a state file was saved with ([`PARAMETERS_ARRAY`]), for its model `kind`;
    /// `None` when it holds none (a file from NumPy, or from eddy before they were saved).
    ///
    /// # Errors
    /// As [`AnyState::load_npz`] for the archive; [`SceneError::BadArray`] naming
    /// `parameters` when they are not text, or a line is not a parameter of `kind` or out of
    /// its range ([`ModelParams::from_text`]'s message).
    #[cfg(feature = "npz")]
    pub fn read_parameters(path: &Path, kind: ModelKind) -> Result<Option<ModelParams>, SceneError> {
        Self::parameters_in(NpzReader::open_within(path, super::memory::read_limits(None))?, path, kind)
    }

    /// [`AnyState::read_parameters`] of an archive's bytes (a file picked or dropped in a
    /// browser); `name` is what errors call it.
    ///
    /// # Errors
    /// As [`AnyState::read_parameters`].
    #[cfg(feature = "npz")]
    pub fn read_parameters_bytes(
        name: &Path,
        bytes: Vec<u8>,
        kind: ModelKind,
    ) -> Result<Option<ModelParams>, SceneError> {
        Self::parameters_in(NpzReader::from_bytes_within(name, bytes, super::memory::read_limits(None))?, name, kind)
    }

    #[cfg(feature = "npz")]
    fn parameters_in(mut npz: NpzReader, path: &Path, kind: ModelKind) -> Result<Option<ModelParams>, SceneError> {
        let Some(text) = npz.read_text_opt(PARAMETERS_ARRAY)? else { return Ok(None) };
        ModelParams::from_text(kind, &text).map(Some).map_err(|message| SceneError::BadArray {
            path: path.to_path_buf(),
            name: PARAMETERS_ARRAY,
            message: format!("{message}; fix or delete the array to load the state with the defaults"),
        })
    }

    /// Writes the state and `step` as `.npz` (atomically: see [`Npz`]), without parameters
    /// (see [`AnyState::save_npz_with`]).
    ///
    /// # Errors
    /// [`SceneError::Io`]; whatever was at `path` is then unchanged.
    #[cfg(feature = "npz")]
    pub fn save_npz(&self, path: &Path, step: u64) -> Result<(), SceneError> {
        let mut npz = Npz::create(path)?;
        self.write_to(&mut npz, step, None)?;
        npz.finish()
    }

    /// Writes the state, `step` and the parameters it runs with ([`PARAMETERS_ARRAY`]) as
    /// `.npz` (atomically): what `eddy run --save` writes, so that `--load` goes on as the run
    /// would have.
    ///
    /// # Errors
    /// [`SceneError::Io`]; whatever was at `path` is then unchanged.
    #[cfg(feature = "npz")]
    pub fn save_npz_with(&self, path: &Path, step: u64, params: &ModelParams) -> Result<(), SceneError> {
        let mut npz = Npz::create(path)?;
        self.write_to(&mut npz, step, Some(params))?;
        npz.finish()
    }

    /// The bytes [`AnyState::save_npz`] would write, with `params` when given (a browser offers
    /// them as a download).
    ///
    /// # Errors
    /// [`SceneError::Io`] when the archive cannot be assembled.
    #[cfg(feature = "npz")]
    pub fn to_npz_bytes(&self, step: u64, params: Option<&ModelParams>) -> Result<Vec<u8>, SceneError> {
        let mut npz = Npz::in_memory(Path::new("state.npz"));
        self.write_to(&mut npz, step, params)?;
        npz.finish_bytes()
    }

    #[cfg(feature = "npz")]
    fn write_to(&self, npz: &mut Npz, step: u64, params: Option<&ModelParams>) -> Result<(), SceneError> {
        super::runner::write_npz(npz, self, step, params)
    }

    /// Statistics computed on the CPU (the mirror of [`super::AnyModel::stats`]'s reduction); `params`
    /// give water's wet threshold and smoke's cell size. `None` when `params` are another
    /// model's.
    pub fn stats(&self, params: &ModelParams) -> Option<AnyStats> {
        Some(match (self, params) {
            (AnyState::Water(s), ModelParams::Water(p)) => AnyStats::Water(WaterStats::of(s, p.min_mass)),
            (AnyState::Smoke(s), ModelParams::Smoke(p)) => AnyStats::Smoke(SmokeStats::of(s, p)),
            (AnyState::Gas(s), ModelParams::Gas(_)) => AnyStats::Gas(GasStats::of(s)),
            // A registered model's CPU statistics are its own to give.
            _ => return None,
        })
    }

    /// The fields a VTK file holds ([`crate::vtk`]), named as the `.npz` arrays, and the walls:
    /// water's `mass`; smoke's `density`, `temperature`, `pressure`, `divergence`, `velocity`
    /// (at the cell centres, cells per time unit) and `dye`; gas' `density` and `momentum`.
    #[cfg(feature = "vtk")]
    pub fn vtk_fields(&self) -> (Vec<crate::vtk::Field>, &Grid<u8>) {
        use crate::vtk::Field;
        match self {
            AnyState::Water(s) => (vec![Field::scalar("mass", &s.mass)], &s.solid),
            AnyState::Smoke(s) => {
                let (u, v) = s.centre_velocity();
                let [r, g, b] = &s.dye;
                let fields = vec![
                    Field::scalar("density", &s.density),
                    Field::scalar("temperature", &s.temperature),
                    Field::scalar("pressure", &s.pressure),
                    Field::scalar("divergence", &s.divergence),
                    Field::vector("velocity", &u, &v),
                    Field::colour("dye", [r, g, b]),
                ];
                (fields, &s.solid)
            }
            AnyState::Gas(s) => {
                let momentum = Field::vector("momentum", &s.momentum_x, &s.momentum_y);
                (vec![Field::scalar("density", &s.density), momentum], &s.solid)
            }
            AnyState::Custom(s) => (Vec::new(), crate::ModelState::solid(s)),
        }
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
            // A registered model's statistics count its non-finite cells.
            AnyState::Custom(_) => Vec::new(),
        };
        fields.into_iter().find_map(|(name, g)| {
            let i = g.as_slice().iter().position(|v| !v.is_finite())?;
            Some((name, i / g.width(), i % g.width()))
        })
    }
}

/// Statistics of one model, computed on the GPU by reduction (or on the CPU from a state).
#[derive(Clone, Debug, PartialEq)]
pub enum AnyStats {
    /// Water's.
    Water(WaterStats),
    /// Smoke's.
    Smoke(SmokeStats),
    /// Gas'.
    Gas(GasStats),
    /// A registered model's ([`custom`]).
    Custom(CustomStats),
}

impl AnyStats {
    /// The total: water's mass, smoke's density, gas' mass (conserved by the step in a closed
    /// box), a registered model's [`crate::ModelStats::total`].
    pub fn total(&self) -> f64 {
        each_model!(AnyStats, self, s => crate::ModelStats::total(s))
    }

    /// Smoke: whether the last multigrid solve stopped at its V-cycle cap above the tolerance
    /// ([`crate::smoke::SmokeStats::solver_capped`]); false elsewhere.
    pub fn solver_capped(&self) -> bool {
        matches!(self, AnyStats::Smoke(s) if s.solver_capped)
    }

    /// Cells with a NaN or infinite value.
    pub fn non_finite(&self) -> u64 {
        each_model!(AnyStats, self, s => crate::ModelStats::non_finite(s))
    }

    /// The first sum over the state that is not finite although every cell is: values so large
    /// that their sum or their squares pass f32's range (about 3.4e38), which is a blow-up by
    /// another name. Checks the total, the kinetic energy, and smoke's divergence norm and solver
    /// residual. Gives the first such sum's name and value; `None` when all are finite.
    pub fn overflowed(&self) -> Option<(&'static str, f64)> {
        let sums = [
            ("total", Some(self.total())),
            ("kinetic energy", self.kinetic_energy()),
            ("divergence norm", self.divergence()),
            ("solver residual", if let AnyStats::Smoke(s) = self { Some(s.solver_residual) } else { None }),
        ];
        sums.into_iter().find_map(|(name, v)| v.filter(|v| !v.is_finite()).map(|v| (name, v)))
    }

    /// Smoke: the last pressure solve's relative residual, and its V-cycles for multigrid
    /// ([`SmokeStats::solver_line`]).
    pub fn solver(&self) -> Option<String> {
        match self {
            AnyStats::Smoke(s) => Some(s.solver_line()),
            _ => None,
        }
    }

    /// Smoke and gas: the kinetic energy (water's cellular automaton has no velocity).
    pub fn kinetic_energy(&self) -> Option<f64> {
        match self {
            AnyStats::Smoke(s) => Some(s.kinetic_energy),
            AnyStats::Gas(s) => Some(s.kinetic_energy),
            AnyStats::Water(_) | AnyStats::Custom(_) => None,
        }
    }

    /// Smoke: the L2 norm of the divergence left after the last projection.
    pub fn divergence(&self) -> Option<f64> {
        match self {
            AnyStats::Smoke(s) => Some(s.divergence_l2),
            _ => None,
        }
    }

    /// One line describing the state ([`crate::ModelStats::line`]).
    pub fn line(&self) -> String {
        each_model!(AnyStats, self, s => crate::ModelStats::line(s))
    }
}

impl crate::ModelState for AnyState {
    fn shape(&self) -> (usize, usize) {
        AnyState::shape(self)
    }

    fn solid(&self) -> &Grid<u8> {
        each_model!(AnyState, self, s => crate::ModelState::solid(s))
    }

    #[cfg(feature = "npz")]
    fn write_npz(&self, npz: &mut Npz) -> Result<(), SceneError> {
        each_model!(AnyState, self, s => crate::ModelState::write_npz(s, npz))
    }
}

impl crate::ModelStats for AnyStats {
    fn total(&self) -> f64 {
        AnyStats::total(self)
    }

    fn non_finite(&self) -> u64 {
        AnyStats::non_finite(self)
    }

    fn line(&self) -> String {
        AnyStats::line(self)
    }
}

impl crate::gpu_model::ModelParameters for ModelParams {
    fn to_text(&self) -> String {
        ModelParams::to_text(self)
    }
}
