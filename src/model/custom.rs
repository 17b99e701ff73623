//! Models written outside eddy, registered beside water, smoke and gas ([`register`]): a
//! [`GpuModel`] that also says what the registry says of eddy's own ([`CustomModel`]) becomes a
//! [`ModelKind`] that the [`super::Session`], and so `eddy run`, `eddy view` and their scripts,
//! run as they run eddy's own: parameters by name from its table, scenes from its presets,
//! statistics, `.npz` saves and loads, frames drawn from its scalar view.
//!
//! The registry holds each model's operations behind an object-safe trait, so that
//! [`super::ModelParams`], [`super::AnyState`] and [`super::AnyStats`] carry a registered
//! model's values without knowing its types: parameters as their table's values
//! ([`CustomParams`]), states and statistics shared behind an `Arc` ([`CustomState`],
//! [`CustomStats`]).

use super::{ModelInfo, ModelKind, ParamInfo};
use crate::error::{Error, ParamError};
use crate::gpu::GpuError;
use crate::gpu_model::{GpuModel, ModelParameters, ModelState, ModelStats, ScalarView};
use crate::grid::Grid;
#[cfg(feature = "npz")]
use crate::npz::{Npz, NpzReader};
use crate::params::{ParamTable, Value};
use crate::scene::{Scene, SceneError};
use std::any::{Any, TypeId};
use std::fmt;
use std::future::Future;
#[cfg(feature = "npz")]
use std::path::Path;
use std::pin::Pin;
use std::sync::{Arc, RwLock};
use wgpu::{WasmNotSend, WasmNotSendSync};

/// What a [`GpuModel`] written outside eddy gives besides the contract, to be registered
/// ([`register`]) and run by the session, the CLI and the viewer as eddy's own models are.
///
/// Its parameters travel through the session as their table's values, so every field of
/// `Params` should be a row of its table: one that is not is at its default whenever the
/// session hands the parameters back.
pub trait CustomModel:
    GpuModel<Params: ParamTable, State: PartialEq + fmt::Debug + WasmNotSendSync, Stats: PartialEq + WasmNotSendSync>
    + WasmNotSend
{
    /// Its row of the registry: name (as `--mode` takes it; [`GpuModel::NAME`]), fields, presets,
    /// GPU needs and memory per cell. It draws one field, its [`GpuModel::scalar_view`], so
    /// `views` names one; `arrays` are the arrays its `ModelState::write_npz` writes, in
    /// order, which is how a state file is known to be its own. [`register`] says what it
    /// refuses.
    const INFO: ModelInfo;

    /// The state preset `name` (one of [`ModelInfo::presets`]) starts in at `size` `(W, H)`
    /// cells, `seed` for anything random.
    ///
    /// # Errors
    /// [`SceneError::BadSize`] for a size the preset cannot be drawn at.
    fn preset(name: &str, size: (usize, usize), seed: u64, params: &Self::Params) -> Result<Self::State, SceneError>;

    /// The state a PNG scene starts in (its walls, fluid and sources, [`Scene`]); `None`, the
    /// default, for a model that does not start from PNG scenes.
    fn from_scene(_scene: &Scene, _params: &Self::Params) -> Option<Self::State> {
        None
    }

    /// One step of its CPU twin, the mirror its GPU step is tested against, which `eddy bench`
    /// times beside the GPU; `None`, the default, for a model without one.
    const CPU_STEP: Option<CpuStep<Self>> = None;

    /// Reads a state its [`ModelState::write_npz`] wrote (or NumPy, with the same arrays).
    ///
    /// # Errors
    /// As [`NpzReader`]'s reads: [`SceneError::MissingArray`], [`SceneError::BadArray`],
    /// [`SceneError::ShapeMismatch`].
    #[cfg(feature = "npz")]
    fn read_npz(npz: &mut NpzReader, path: &Path) -> Result<Self::State, SceneError>;
}

/// One step of a model's CPU twin ([`CustomModel::CPU_STEP`]).
pub type CpuStep<M> = fn(&mut <M as GpuModel>::State, &<M as GpuModel>::Params);

/// A CPU twin as a function that runs `n` steps (what [`super::any::cpu_reference`] gives).
type CpuSteps = Box<dyn FnMut(u32) -> Result<(), Error>>;

/// Most parameters a registered model's table may have.
pub const MAX_PARAMS: usize = 16;

/// Which registered model: an index into the registry, made only by [`register`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CustomId(u16);

impl CustomId {
    /// Its place among the registered models, in the order they were registered.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Registers `M`, so that the registry, the session, the CLI and the viewer know it; registering
/// the same type again gives the same kind.
///
/// # Errors
/// [`Error::Message`] saying what to change: a name, preset or parameter name another model
/// has, or the same set of `.npz` arrays; a name that [`GpuModel::NAME`] and
/// [`CustomModel::INFO`] give differently, or that is not one lower-case word; a preset name
/// with capitals, a `bench_scene` that is not a preset; no preset, not exactly one view, no
/// arrays; a parameter named as one of the `eddy` command's own options ([`COMMAND_OPTIONS`])
/// or with a viewer key the viewer keeps ([`VIEWER_KEYS`]); more than [`MAX_PARAMS`]
/// parameters; more models than the registry holds (65,535).
pub fn register<M: CustomModel>() -> Result<ModelKind, Error> {
    let mut registry = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = position::<M>(&registry) {
        return Ok(ModelKind::Custom(CustomId(i)));
    }
    let ops: &'static dyn Ops = Box::leak(Box::new(Of::<M>(std::marker::PhantomData)));
    // The others' rows from eddy's tables and from the registry held here (asking ModelKind for
    // a registered model's row would wait on this lock).
    let mut others: Vec<(&ModelInfo, Vec<&ParamInfo>)> =
        ModelKind::ALL.iter().map(|k| (k.info(), k.params())).collect();
    others.extend(registry.iter().map(|e| (e.info, e.ops.params())));
    let info = M::INFO;
    check(&info, M::NAME, &ops.params(), &others)
        .map_err(|why| Error::Message(format!("model {:?} cannot be registered: {why}", info.name)))?;
    let id = u16::try_from(registry.len())
        .map_err(|_| Error::Message(format!("model {:?} cannot be registered: the registry is full", info.name)))?;
    registry.push(Entry { info: Box::leak(Box::new(info)), ops });
    Ok(ModelKind::Custom(CustomId(id)))
}

/// The long options of the `eddy` command's `run`, `view` and `bench` besides the models'
/// parameters: a registered model's parameter may not take one of these names (a test of the
/// command holds the list to its options).
pub const COMMAND_OPTIONS: &[&str] = &[
    "body",
    "check-hashes",
    "colour-map",
    "cpu-max-size",
    "demo",
    "every",
    "field",
    "forces",
    "fps",
    "frames",
    "gif",
    "gif-every",
    "hash-every",
    "hashes",
    "help",
    "json",
    "load",
    "look",
    "mode",
    "no-cpu",
    "no-panel",
    "no-race",
    "passes",
    "paused",
    "runs",
    "save",
    "scale",
    "scene",
    "screenshot",
    "script",
    "seconds",
    "seed",
    "size",
    "sizes",
    "sleep",
    "steady",
    "steps",
    "steps-per-frame",
    "version",
    "video",
    "video-every",
    "vtk",
    "worlds",
];

/// The keys the viewer keeps for itself (digits switch models; see
/// `viewer::controls::CONTROLS`): a registered model's parameter may not take one as its key.
pub const VIEWER_KEYS: &str = "0123456789.bgmrv?";

/// Why a model with row `info`, `GpuModel::NAME` `name` and parameter rows `params` cannot join
/// `others` (each model's row and parameter rows); see [`register`].
fn check(
    info: &ModelInfo,
    name: &str,
    params: &[&ParamInfo],
    others: &[(&ModelInfo, Vec<&ParamInfo>)],
) -> Result<(), String> {
    if info.name != name {
        return Err(format!("GpuModel::NAME is {name:?}; give both the same name"));
    }
    let word = |s: &str| {
        !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    };
    if !word(info.name) {
        return Err("a model's name is one lower-case word (letters, digits, - and _), as --mode takes it".into());
    }
    if let Some((o, _)) = others.iter().find(|(o, _)| o.name.eq_ignore_ascii_case(info.name)) {
        return Err(format!("{} is a model already; choose another name", o.name));
    }
    if info.presets.is_empty() {
        return Err("it has no preset to start from; list at least one in ModelInfo::presets".into());
    }
    for (preset, _) in info.presets {
        if !word(preset) {
            return Err(format!("preset {preset:?} is not one lower-case word, as --scene takes it"));
        }
        if let Some((o, _)) = others.iter().find(|(o, _)| o.presets.iter().any(|(p, _)| p.eq_ignore_ascii_case(preset)))
        {
            return Err(format!("preset {preset:?} is {}'s; choose another name", o.name));
        }
    }
    if !info.presets.iter().any(|(p, _)| *p == info.bench_scene) {
        return Err(format!("its bench_scene {:?} is not one of its presets", info.bench_scene));
    }
    if info.views.len() != 1 {
        return Err(format!("it lists {} views; a registered model draws one, its scalar view", info.views.len()));
    }
    if info.arrays.is_empty() {
        return Err("ModelInfo::arrays is empty; list the arrays its state saves".into());
    }
    let same = |a: &[super::FieldInfo], b: &[super::FieldInfo]| {
        a.len() == b.len() && a.iter().all(|x| b.iter().any(|y| y.name == x.name))
    };
    if let Some((o, _)) = others.iter().find(|(o, _)| same(o.arrays, info.arrays)) {
        return Err(format!(
            "{}'s states save the same arrays, so a file could not say which model it is; name one of them otherwise",
            o.name
        ));
    }
    if params.len() > MAX_PARAMS {
        return Err(format!("it has {} parameters; at most {MAX_PARAMS}", params.len()));
    }
    for p in params {
        if let Some((o, _)) = others.iter().find(|(_, rows)| rows.iter().any(|q| q.name == p.name)) {
            return Err(format!("parameter {:?} is {}'s; choose another name", p.name, o.name));
        }
        if COMMAND_OPTIONS.contains(&p.name) {
            return Err(format!(
                "parameter {:?} is one of the eddy command's own options; choose another name",
                p.name
            ));
        }
        if let Some(key) = p.key.filter(|k| VIEWER_KEYS.contains(k.to_ascii_lowercase())) {
            return Err(format!("parameter {:?}'s viewer key {key:?} is one the viewer keeps ({VIEWER_KEYS})", p.name));
        }
    }
    Ok(())
}

/// Where `M` is in `registry`.
fn position<M: CustomModel>(registry: &[Entry]) -> Option<u16> {
    registry.iter().position(|e| e.ops.model_type() == TypeId::of::<M>()).map(|i| i as u16)
}

/// The kind `M` was registered as, `None` before [`register`].
pub fn kind_of<M: CustomModel>() -> Option<ModelKind> {
    let registry = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    Some(ModelKind::Custom(CustomId(position::<M>(&registry)?)))
}

/// Every registered model, in the order they were registered.
pub(crate) fn registered() -> Vec<ModelKind> {
    let n = REGISTRY.read().unwrap_or_else(|e| e.into_inner()).len();
    (0..n).map(|i| ModelKind::Custom(CustomId(i as u16))).collect()
}

/// A registered model's row of the registry.
pub(crate) fn info(id: CustomId) -> &'static ModelInfo {
    entry(id).info
}

/// A registered model's parameter rows.
pub(crate) fn params(id: CustomId) -> Vec<&'static ParamInfo> {
    entry(id).ops.params()
}

/// Registered model `id`'s CPU twin from `state`: a function that runs `n` steps; `None` when it
/// registered none ([`CustomModel::CPU_STEP`]).
pub(crate) fn cpu_reference(state: CustomState, params: CustomParams) -> Option<CpuSteps> {
    ops(params.id).cpu_reference(state, params)
}

/// Whether registered model `id` has a CPU twin ([`CustomModel::CPU_STEP`]).
pub(crate) fn has_cpu_twin(id: CustomId) -> bool {
    entry(id).ops.has_cpu_twin()
}

/// Whether `names` are exactly the arrays registered model `id` saves (with the step and the
/// parameters, which every save has).
pub(crate) fn marks(id: CustomId, names: &[String]) -> bool {
    let arrays = entry(id).info.arrays;
    let common = [super::STEP_ARRAY, super::PARAMETERS_ARRAY];
    let own: Vec<&String> = names.iter().filter(|n| !common.contains(&n.as_str())).collect();
    own.len() == arrays.len() && arrays.iter().all(|a| own.iter().any(|n| *n == a.name))
}

struct Entry {
    info: &'static ModelInfo,
    ops: &'static dyn Ops,
}

static REGISTRY: RwLock<Vec<Entry>> = RwLock::new(Vec::new());

fn entry(id: CustomId) -> Entry {
    let registry = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    let e = &registry[id.0 as usize];
    Entry { info: e.info, ops: e.ops }
}

fn ops(id: CustomId) -> &'static dyn Ops {
    entry(id).ops
}

/// A registered model's parameters: its table's values, in the table's order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CustomParams {
    id: CustomId,
    values: [Value; MAX_PARAMS],
}

impl CustomParams {
    /// The defaults of registered model `kind`.
    pub(crate) fn defaults(id: CustomId) -> Self {
        ops(id).defaults(id)
    }

    /// Which model these belong to.
    pub fn kind(&self) -> ModelKind {
        ModelKind::Custom(self.id)
    }

    /// These parameters as the model's own type; `None` when they are not `P`'s.
    pub fn typed<P: ParamTable>(&self) -> Option<P> {
        (ops(self.id).params_type() == TypeId::of::<P>()).then(|| from_values(&self.values))
    }

    /// Runs `f` on these parameters as the model's own type, keeping what it changes.
    pub(crate) fn with<R>(&mut self, f: impl FnOnce(&mut dyn DynParams) -> R) -> R {
        let mut f = Some(f);
        let mut out = None;
        ops(self.id).with_params(&mut self.values, &mut |p| out = Some((f.take().expect("called once"))(p)));
        out.expect("with_params calls back once")
    }

    /// [`Self::with`] on a copy, for a question that changes nothing.
    pub(crate) fn read<R>(&self, f: impl FnOnce(&mut dyn DynParams) -> R) -> R {
        let mut copy = *self;
        copy.with(f)
    }

    // The table operations by the names `ParamTable` gives them, so that `each_model!` reaches
    // these parameters as it reaches eddy's own.

    /// The value of parameter `name`, `None` if the model has no such parameter.
    pub fn get(&self, name: &str) -> Option<Value> {
        self.read(|p| p.get(name))
    }

    /// [`ParamTable::set_checked`].
    ///
    /// # Errors
    /// As [`ParamTable::set_checked`].
    pub fn set_checked(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        self.with(|p| p.set_checked(name, value))
    }

    /// [`ParamTable::set_fitted`].
    ///
    /// # Errors
    /// As [`ParamTable::set_fitted`].
    pub fn set_fitted(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        self.with(|p| p.set_fitted(name, value))
    }

    /// [`ParamTable::set_row_only`].
    ///
    /// # Errors
    /// As [`ParamTable::set_row_only`].
    pub fn set_row_only(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        self.with(|p| p.set_row_only(name, value))
    }

    /// [`ParamTable::unused`].
    pub fn unused(&self, name: &str) -> Option<String> {
        self.read(|p| p.unused(name))
    }

    /// [`ParamTable::check`].
    ///
    /// # Errors
    /// As [`ParamTable::check`].
    pub fn check(&self) -> Result<(), ParamError> {
        self.read(|p| p.check())
    }
}

impl ModelParameters for CustomParams {
    fn to_text(&self) -> String {
        self.read(|p| p.to_text())
    }
}

/// A [`ParamTable`]'s operations, object-safe, for a registered model's parameters.
pub(crate) trait DynParams {
    fn get(&self, name: &str) -> Option<Value>;
    fn set_checked(&mut self, name: &str, value: Value) -> Result<(), ParamError>;
    fn set_fitted(&mut self, name: &str, value: Value) -> Result<(), ParamError>;
    fn set_row_only(&mut self, name: &str, value: Value) -> Result<(), ParamError>;
    fn unused(&self, name: &str) -> Option<String>;
    fn check(&self) -> Result<(), ParamError>;
    fn to_text(&self) -> String;
}

impl<P: ParamTable> DynParams for P {
    fn get(&self, name: &str) -> Option<Value> {
        ParamTable::get(self, name)
    }
    fn set_checked(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        ParamTable::set_checked(self, name, value)
    }
    fn set_fitted(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        ParamTable::set_fitted(self, name, value)
    }
    fn set_row_only(&mut self, name: &str, value: Value) -> Result<(), ParamError> {
        ParamTable::set_row_only(self, name, value)
    }
    fn unused(&self, name: &str) -> Option<String> {
        ParamTable::unused(self, name)
    }
    fn check(&self) -> Result<(), ParamError> {
        ParamTable::check(self)
    }
    fn to_text(&self) -> String {
        ModelParameters::to_text(self)
    }
}

/// A registered model's state on the CPU, shared (states are not changed in place).
#[derive(Clone)]
pub struct CustomState {
    id: CustomId,
    state: Arc<dyn DynState>,
}

impl CustomState {
    /// `state` of registered model `M`, which is `kind`.
    fn new<M: CustomModel>(id: CustomId, state: M::State) -> Self {
        CustomState { id, state: Arc::new(state) }
    }

    /// `state` of registered model `M`.
    ///
    /// # Errors
    /// [`Error::Message`] when `M` is not registered ([`register`]).
    pub fn of<M: CustomModel>(state: M::State) -> Result<Self, Error> {
        let registry = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
        let id = position::<M>(&registry).ok_or_else(|| Error::Message(format!("{} is not registered", M::NAME)))?;
        Ok(Self::new::<M>(CustomId(id), state))
    }

    /// Which model it is a state of.
    pub fn kind(&self) -> ModelKind {
        ModelKind::Custom(self.id)
    }

    /// The state as the model's own type; `None` when it is another model's.
    pub fn downcast<M: CustomModel>(&self) -> Option<&M::State> {
        self.state.as_any().downcast_ref()
    }
}

impl fmt::Debug for CustomState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.state.fmt_debug(f)
    }
}

impl PartialEq for CustomState {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.state.eq_dyn(other.state.as_any())
    }
}

impl ModelState for CustomState {
    fn shape(&self) -> (usize, usize) {
        self.state.shape()
    }

    fn solid(&self) -> &Grid<u8> {
        self.state.solid()
    }

    #[cfg(feature = "npz")]
    fn write_npz(&self, npz: &mut Npz) -> Result<(), SceneError> {
        self.state.write_npz(npz)
    }
}

/// A value of a registered model's own type behind a pointer: compared, printed and cast back
/// as that type. What [`DynState`] and [`DynStats`] share.
trait Erased: Any + WasmNotSendSync {
    fn as_any(&self) -> &dyn Any;
    fn eq_dyn(&self, other: &dyn Any) -> bool;
    fn fmt_debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<T: PartialEq + fmt::Debug + WasmNotSendSync + 'static> Erased for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn eq_dyn(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }
    fn fmt_debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

trait DynState: Erased {
    fn shape(&self) -> (usize, usize);
    fn solid(&self) -> &Grid<u8>;
    #[cfg(feature = "npz")]
    fn write_npz(&self, npz: &mut Npz) -> Result<(), SceneError>;
}

impl<S: ModelState + PartialEq + fmt::Debug + WasmNotSendSync> DynState for S {
    fn shape(&self) -> (usize, usize) {
        ModelState::shape(self)
    }
    fn solid(&self) -> &Grid<u8> {
        ModelState::solid(self)
    }
    #[cfg(feature = "npz")]
    fn write_npz(&self, npz: &mut Npz) -> Result<(), SceneError> {
        ModelState::write_npz(self, npz)
    }
}

/// A registered model's statistics, shared.
#[derive(Clone)]
pub struct CustomStats {
    stats: Arc<dyn DynStats>,
}

impl CustomStats {
    /// The statistics as the model's own type; `None` when they are another model's.
    pub fn downcast<M: CustomModel>(&self) -> Option<&M::Stats> {
        self.stats.as_any().downcast_ref()
    }
}

impl fmt::Debug for CustomStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.stats.fmt_debug(f)
    }
}

impl PartialEq for CustomStats {
    fn eq(&self, other: &Self) -> bool {
        self.stats.eq_dyn(other.stats.as_any())
    }
}

impl ModelStats for CustomStats {
    fn total(&self) -> f64 {
        self.stats.total()
    }

    fn non_finite(&self) -> u64 {
        self.stats.non_finite()
    }

    fn line(&self) -> String {
        self.stats.line()
    }
}

trait DynStats: Erased {
    fn total(&self) -> f64;
    fn non_finite(&self) -> u64;
    fn line(&self) -> String;
}

impl<S: ModelStats + PartialEq + WasmNotSendSync> DynStats for S {
    fn total(&self) -> f64 {
        ModelStats::total(self)
    }
    fn non_finite(&self) -> u64 {
        ModelStats::non_finite(self)
    }
    fn line(&self) -> String {
        ModelStats::line(self)
    }
}

fn stats_of<M: CustomModel>(stats: M::Stats) -> CustomStats {
    CustomStats { stats: Arc::new(stats) }
}

/// A future the registry's types come out of.
type Boxed<'a, T> = Pin<Box<dyn Future<Output = Result<T, GpuError>> + 'a>>;

/// A registered model on the GPU: [`GpuModel`] with the registry's types, object-safe. What
/// [`super::AnyGpuModel::Custom`] holds.
pub struct CustomGpu(Box<dyn DynModel>);

impl CustomGpu {
    /// Builds registered model `params.kind()` from `state` on the caller's device.
    pub(crate) fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: &CustomState,
        params: &CustomParams,
    ) -> Result<Self, Error> {
        Ok(CustomGpu(ops(params.id).build(device, queue, state, params)?))
    }

    /// The model inside, as its own type; `None` when it is another.
    pub fn downcast<M: CustomModel>(&self) -> Option<&M> {
        self.0.as_any().downcast_ref::<Wrapped<M>>().map(|w| &w.model)
    }
}

impl std::ops::Deref for CustomGpu {
    type Target = dyn DynModel;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl std::ops::DerefMut for CustomGpu {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut *self.0
    }
}

/// [`GpuModel`] with the registry's types, object-safe (see [`CustomGpu`]).
#[doc(hidden)]
#[allow(missing_docs)]
pub trait DynModel: Any + WasmNotSend {
    fn as_any(&self) -> &dyn Any;
    fn kind(&self) -> ModelKind;
    fn device(&self) -> &wgpu::Device;
    fn queue(&self) -> &wgpu::Queue;
    fn size(&self) -> (u32, u32);
    fn params(&self) -> CustomParams;
    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: CustomParams) -> Result<(), Error>;
    fn set_params(&mut self, params: CustomParams) -> Result<(), Error>;
    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32);
    fn steps_recorded(&self) -> u64;
    fn steps_to_plan(&self) -> Option<u64>;
    fn plan_solver(&mut self) -> Result<(), GpuError>;
    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder);
    fn stats_requested(&self) -> bool;
    fn collect_stats(&self) -> Option<Result<CustomStats, GpuError>>;
    fn stats_async(&self) -> Boxed<'_, CustomStats>;
    fn state_reader(&self) -> Boxed<'static, CustomState>;
    fn read_state_async(&self) -> Boxed<'_, CustomState>;
    fn state_textures(&self) -> Vec<&wgpu::Texture>;
    fn hashed_textures(&self) -> Vec<&wgpu::Texture>;
    fn solid_mask(&self) -> &Grid<u8>;
    fn source_mask(&self) -> Option<&Grid<u8>>;
    fn scalar_view(&self) -> Option<ScalarView<'_>>;
    fn body_list(&self) -> &[crate::body::Body];
    fn encode_bodies(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[crate::body::Body]) -> Result<(), Error>;
    fn encode_bodies_restored(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        bodies: &[crate::body::Body],
    ) -> Result<(), Error>;
    fn encode_drive(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        index: usize,
        velocity: (f32, f32),
        spin: f32,
    ) -> Result<(), Error>;
    fn restored(&mut self);
    fn solver_plan(&self) -> Option<crate::solver::plan::SavedPlan>;
    fn restore_solver_plan(&mut self, plan: Option<crate::solver::plan::SavedPlan>);
}

struct Wrapped<M: CustomModel> {
    model: M,
    id: CustomId,
}

impl<M: CustomModel> Wrapped<M> {
    /// `params` as `M`'s own, when they are this model's (one id, one parameter type).
    fn own(&self, params: CustomParams) -> Result<M::Params, Error> {
        if params.id == self.id {
            Ok(from_values(&params.values))
        } else {
            let this = ModelKind::Custom(self.id);
            Err(ParamError::new("mode", params.kind(), format!("this model is {this}")).into())
        }
    }
}

fn params_of<P: ParamTable>(id: CustomId, p: &P) -> CustomParams {
    CustomParams { id, values: to_values(p) }
}

/// `P` from its table's values, in the table's order.
fn from_values<P: ParamTable>(values: &[Value; MAX_PARAMS]) -> P {
    let mut p = P::default();
    for (spec, &v) in P::TABLE.iter().zip(values) {
        (spec.set)(&mut p, v);
    }
    p
}

/// `p`'s values, in its table's order (the slots past the table's rows [`Value::Auto`]).
fn to_values<P: ParamTable>(p: &P) -> [Value; MAX_PARAMS] {
    let mut values = [Value::Auto; MAX_PARAMS];
    for (v, spec) in values.iter_mut().zip(P::TABLE) {
        *v = (spec.get)(p);
    }
    values
}

impl<M: CustomModel> DynModel for Wrapped<M> {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn kind(&self) -> ModelKind {
        ModelKind::Custom(self.id)
    }
    fn device(&self) -> &wgpu::Device {
        self.model.device()
    }
    fn queue(&self) -> &wgpu::Queue {
        self.model.queue()
    }
    fn size(&self) -> (u32, u32) {
        self.model.size()
    }
    fn params(&self) -> CustomParams {
        params_of(self.id, &self.model.params())
    }
    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: CustomParams) -> Result<(), Error> {
        let p = self.own(params)?;
        self.model.encode_params(encoder, p)
    }
    fn set_params(&mut self, params: CustomParams) -> Result<(), Error> {
        let p = self.own(params)?;
        self.model.set_params(p)
    }
    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        self.model.encode_steps(encoder, steps)
    }
    fn steps_recorded(&self) -> u64 {
        self.model.steps_recorded()
    }
    fn steps_to_plan(&self) -> Option<u64> {
        self.model.steps_to_plan()
    }
    fn plan_solver(&mut self) -> Result<(), GpuError> {
        self.model.plan_solver()
    }
    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder) {
        self.model.encode_stats(encoder)
    }
    fn stats_requested(&self) -> bool {
        self.model.stats_requested()
    }
    fn collect_stats(&self) -> Option<Result<CustomStats, GpuError>> {
        Some(self.model.collect_stats()?.map(stats_of::<M>))
    }
    fn stats_async(&self) -> Boxed<'_, CustomStats> {
        Box::pin(async move { Ok(stats_of::<M>(self.model.stats_async().await?)) })
    }
    fn state_reader(&self) -> Boxed<'static, CustomState> {
        let (reader, id) = (self.model.state_reader(), self.id);
        Box::pin(async move { Ok(Of::<M>::state(id, reader.await?)) })
    }
    fn read_state_async(&self) -> Boxed<'_, CustomState> {
        Box::pin(async move { Ok(Of::<M>::state(self.id, self.model.read_state_async().await?)) })
    }
    fn state_textures(&self) -> Vec<&wgpu::Texture> {
        self.model.state_textures()
    }
    fn hashed_textures(&self) -> Vec<&wgpu::Texture> {
        self.model.hashed_textures()
    }
    fn solid_mask(&self) -> &Grid<u8> {
        self.model.solid_mask()
    }
    fn source_mask(&self) -> Option<&Grid<u8>> {
        self.model.source_mask()
    }
    fn scalar_view(&self) -> Option<ScalarView<'_>> {
        self.model.scalar_view()
    }
    fn body_list(&self) -> &[crate::body::Body] {
        self.model.body_list()
    }
    fn encode_bodies(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[crate::body::Body]) -> Result<(), Error> {
        self.model.encode_bodies(encoder, bodies)
    }
    fn encode_bodies_restored(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        bodies: &[crate::body::Body],
    ) -> Result<(), Error> {
        self.model.encode_bodies_restored(encoder, bodies)
    }
    fn encode_drive(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        index: usize,
        velocity: (f32, f32),
        spin: f32,
    ) -> Result<(), Error> {
        self.model.encode_drive(encoder, index, velocity, spin)
    }
    fn restored(&mut self) {
        self.model.restored()
    }
    fn solver_plan(&self) -> Option<crate::solver::plan::SavedPlan> {
        self.model.solver_plan()
    }
    fn restore_solver_plan(&mut self, plan: Option<crate::solver::plan::SavedPlan>) {
        self.model.restore_solver_plan(plan)
    }
}

/// What the registry does with a registered model's types, object-safe: one per model.
trait Ops: Send + Sync {
    fn model_type(&self) -> TypeId;
    fn params_type(&self) -> TypeId;
    fn params(&self) -> Vec<&'static ParamInfo>;
    fn defaults(&self, id: CustomId) -> CustomParams;
    fn with_params(&self, values: &mut [Value; MAX_PARAMS], f: &mut dyn FnMut(&mut dyn DynParams));
    fn build(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: &CustomState,
        params: &CustomParams,
    ) -> Result<Box<dyn DynModel>, Error>;
    fn preset(
        &self,
        name: &str,
        size: (usize, usize),
        seed: u64,
        params: &CustomParams,
    ) -> Result<CustomState, SceneError>;
    fn scene_state(&self, scene: &Scene, params: &CustomParams) -> Option<CustomState>;
    fn has_cpu_twin(&self) -> bool;
    fn cpu_reference(&self, state: CustomState, params: CustomParams) -> Option<CpuSteps>;
    #[cfg(feature = "npz")]
    fn read_npz(&self, id: CustomId, npz: &mut NpzReader, path: &Path) -> Result<CustomState, SceneError>;
}

struct Of<M>(std::marker::PhantomData<fn() -> M>);

impl<M: CustomModel> Of<M> {
    /// `params` as `M`'s own: the registry calls `M`'s operations only with its id's.
    fn typed(params: &CustomParams) -> M::Params {
        from_values(&params.values)
    }

    fn state(id: CustomId, state: M::State) -> CustomState {
        CustomState::new::<M>(id, state)
    }
}

impl<M: CustomModel> Ops for Of<M> {
    fn model_type(&self) -> TypeId {
        TypeId::of::<M>()
    }
    fn params_type(&self) -> TypeId {
        TypeId::of::<M::Params>()
    }
    fn params(&self) -> Vec<&'static ParamInfo> {
        super::infos::<M::Params>()
    }
    fn defaults(&self, id: CustomId) -> CustomParams {
        params_of(id, &M::Params::default())
    }
    fn with_params(&self, values: &mut [Value; MAX_PARAMS], f: &mut dyn FnMut(&mut dyn DynParams)) {
        let mut p: M::Params = from_values(values);
        f(&mut p);
        *values = to_values(&p);
    }
    fn build(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: &CustomState,
        params: &CustomParams,
    ) -> Result<Box<dyn DynModel>, Error> {
        let Some(own) = state.state.as_any().downcast_ref::<M::State>() else {
            return Err(Error::Message(format!("the state is not a {} state", M::NAME)));
        };
        let model = M::new(device, queue, own, Self::typed(params))?;
        Ok(Box::new(Wrapped { model, id: params.id }))
    }
    fn preset(
        &self,
        name: &str,
        size: (usize, usize),
        seed: u64,
        params: &CustomParams,
    ) -> Result<CustomState, SceneError> {
        Ok(Self::state(params.id, M::preset(name, size, seed, &Self::typed(params))?))
    }
    fn scene_state(&self, scene: &Scene, params: &CustomParams) -> Option<CustomState> {
        Some(Self::state(params.id, M::from_scene(scene, &Self::typed(params))?))
    }
    fn has_cpu_twin(&self) -> bool {
        M::CPU_STEP.is_some()
    }
    fn cpu_reference(&self, state: CustomState, params: CustomParams) -> Option<CpuSteps> {
        let step = M::CPU_STEP?;
        let mut state = state.state.as_any().downcast_ref::<M::State>()?.clone();
        let params = Self::typed(&params);
        Some(Box::new(move |n| {
            for _ in 0..n {
                step(&mut state, &params);
            }
            Ok(())
        }))
    }
    #[cfg(feature = "npz")]
    fn read_npz(&self, id: CustomId, npz: &mut NpzReader, path: &Path) -> Result<CustomState, SceneError> {
        Ok(Self::state(id, M::read_npz(npz, path)?))
    }
}

/// The state registered model `params.kind()` starts in from preset `name`.
pub(crate) fn preset(
    name: &str,
    size: (usize, usize),
    seed: u64,
    params: &CustomParams,
) -> Result<CustomState, SceneError> {
    ops(params.id).preset(name, size, seed, params)
}

/// The state registered model `params.kind()` starts in from a PNG scene, if it reads them.
pub(crate) fn from_scene(scene: &Scene, params: &CustomParams) -> Option<CustomState> {
    ops(params.id).scene_state(scene, params)
}

/// Reads a state of registered model `kind`.
#[cfg(feature = "npz")]
pub(crate) fn read_npz(id: CustomId, npz: &mut NpzReader, path: &Path) -> Result<CustomState, SceneError> {
    ops(id).read_npz(id, npz, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FieldInfo;

    const FIELD: FieldInfo = FieldInfo { name: "heat", unit: "", shape: "(H, W) float32", doc: "" };

    fn row(name: &'static str, presets: &'static [(&'static str, &'static str)], views: usize) -> ModelInfo {
        ModelInfo {
            name,
            about: "a test row",
            views: &[FIELD, FIELD][..views],
            arrays: &[FIELD],
            presets,
            bench_scene: presets.first().map_or("", |p| p.0),
            left_button: "",
            storage_formats: &[],
            storage_read_write: &[],
            storage_textures_per_stage: 1,
            textures: &[],
            state_bytes_per_cell: 4,
            host_bytes_per_cell: 4,
        }
    }

    /// Each refusal says what clashes or what is missing; a row that clashes with nothing
    /// passes.
    #[test]
    fn registration_refuses_what_would_clash_or_cannot_run() {
        let others: Vec<(&ModelInfo, Vec<&ParamInfo>)> =
            ModelKind::ALL.iter().map(|k| (k.info(), k.params())).collect();
        let rooms: &[(&str, &str)] = &[("room", "")];
        let smoke = ModelKind::Smoke.params();
        let dt = smoke.iter().find(|p| p.name == "dt").unwrap();
        let steps = ParamInfo::real("steps", "n", "", crate::params::Range::closed(0.0, 1.0, "", ""));
        let keyed = ParamInfo::real("heat-rate", "k", "", crate::params::Range::closed(0.0, 1.0, "", "")).key('r', 0.1);
        let mut water_arrays = row("heat", rooms, 1);
        water_arrays.arrays = ModelKind::Water.info().arrays;
        let mut bench = row("heat", rooms, 1);
        bench.bench_scene = "hall";
        let cases: [(ModelInfo, &str, Vec<&ParamInfo>, &str); 13] = [
            (row("water", rooms, 1), "water", vec![], "water is a model already"),
            (row("heat", rooms, 1), "Heat", vec![], "GpuModel::NAME is \"Heat\""),
            (row("hot air", rooms, 1), "hot air", vec![], "one lower-case word"),
            (row("heat", &[("plume", "")], 1), "heat", vec![], "preset \"plume\" is smoke's"),
            (row("heat", &[("Room", "")], 1), "heat", vec![], "preset \"Room\" is not one lower-case word"),
            (row("heat", &[], 1), "heat", vec![], "no preset"),
            (bench, "heat", vec![], "bench_scene \"hall\" is not one of its presets"),
            (row("heat", rooms, 2), "heat", vec![], "lists 2 views"),
            (water_arrays, "heat", vec![], "water's states save the same arrays"),
            (row("heat", rooms, 1), "heat", vec![dt], "parameter \"dt\" is smoke's"),
            (row("heat", rooms, 1), "heat", vec![&steps], "one of the eddy command's own options"),
            (row("heat", rooms, 1), "heat", vec![&keyed], "viewer key 'r' is one the viewer keeps"),
            (row("heat", rooms, 1), "heat", vec![dt; MAX_PARAMS + 1], "17 parameters; at most 16"),
        ];
        for (info, name, params, why) in cases {
            let got = check(&info, name, &params, &others).unwrap_err();
            assert!(got.contains(why), "{got:?} does not say {why:?}");
        }
        check(&row("heat", rooms, 1), "heat", &[], &others).unwrap();
    }
}
