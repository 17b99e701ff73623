//! [`GpuModel`]: what a model on the GPU offers, the one contract that water, smoke and gas
//! implement and that a model written outside eddy implements to run on eddy's runner
//! ([`crate::model::Runner`]: stepping in runs, statistics, checkpoints, `.npz` saves and
//! drawn frames). `examples/custom_model.rs` is such a model: heat diffusion, one WGSL pass and
//! its CPU twin.
//!
//! The contract is the embedding surface of the crate docs: every operation records into the
//! caller's `&mut wgpu::CommandEncoder` in recording order, and each has a form that submits at
//! once, provided here from the recording one. [`crate::Simulation`] (step, read the state, steps
//! done) comes with every `GpuModel` on native targets.

use crate::error::Error;
#[cfg(not(target_arch = "wasm32"))]
use crate::gpu;
use crate::gpu::GpuError;
use crate::grid::Grid;
use crate::params::ParamTable;
#[cfg(feature = "npz")]
use crate::{npz::Npz, scene::SceneError};

/// A model's state on the CPU: the fields read back, what a model is built from and saves.
pub trait ModelState: Clone + 'static {
    /// `(H, W)`, cells.
    fn shape(&self) -> (usize, usize);

    /// The solid mask, `(H, W)`, 1 (or a body's `2 + i`) where a cell is solid.
    fn solid(&self) -> &Grid<u8>;

    /// Adds its arrays to `npz`, float32 and uint8 `(H, W)` (vectors `(H, W, 2)`), row 0 at the
    /// top; the runner adds the step and the parameters.
    ///
    /// # Errors
    /// [`SceneError::Io`].
    #[cfg(feature = "npz")]
    fn write_npz(&self, npz: &mut Npz) -> Result<(), SceneError>;
}

/// A model's parameters as the runner needs them. Every [`ParamTable`] has it.
pub trait ModelParameters: Copy + PartialEq + std::fmt::Debug + 'static {
    /// Every parameter as a `name = value` line, each value as the command line takes it,
    /// exactly: what a saved state carries ([`crate::model::PARAMETERS_ARRAY`]).
    fn to_text(&self) -> String;
}

impl<P: ParamTable> ModelParameters for P {
    fn to_text(&self) -> String {
        P::TABLE
            .iter()
            .map(|spec| format!("{} = {}\n", spec.info.name, spec.info.format_exact((spec.get)(self))))
            .collect()
    }
}

/// A model's statistics, reduced on the GPU (or computed from a state on the CPU).
pub trait ModelStats: Clone + std::fmt::Debug + 'static {
    /// The conserved total (water's mass, smoke's density, gas' mass, the custom model's heat).
    fn total(&self) -> f64;

    /// Cells holding a NaN or an infinity.
    fn non_finite(&self) -> u64;

    /// One line for a log: `total mass 123.4567, ...`.
    fn line(&self) -> String;
}

/// A model on the GPU, built on the caller's device. Required: building, the parameters, the
/// step, the statistics' reduction and the state's readback, each in recording form; the
/// submit-now forms and bodies (none) are provided. See the module docs.
pub trait GpuModel: Sized + 'static {
    /// The fields read back and built from.
    type State: ModelState;
    /// Its parameters: a [`ParamTable`] (names, units, ranges), which gives
    /// [`ModelParameters`].
    type Params: ModelParameters;
    /// What its statistics' reduction gives.
    type Stats: ModelStats;

    /// Its name, as messages call it (`water`, `heat`).
    const NAME: &'static str;

    /// Uploads `state` and builds the passes on the caller's device.
    ///
    /// # Errors
    /// [`Error::Param`] for parameters that fail their table; [`GpuError`]s (as [`Error::Gpu`])
    /// when the device refuses a texture or a pipeline.
    fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        state: &Self::State,
        params: Self::Params,
    ) -> Result<Self, Error>;

    /// The device it was built on.
    fn device(&self) -> &wgpu::Device;

    /// The queue it was built with.
    fn queue(&self) -> &wgpu::Queue;

    /// `(W, H)` in cells.
    fn size(&self) -> (u32, u32);

    /// The parameters in use.
    fn params(&self) -> Self::Params;

    /// Records a change of the parameters into `encoder`: the steps recorded before it run
    /// with the old values, those after with the new.
    ///
    /// # Errors
    /// [`Error::Param`] for values out of their table; nothing changes and nothing is recorded.
    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: Self::Params) -> Result<(), Error>;

    /// Records `steps` steps into `encoder`.
    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32);

    /// Steps recorded since it was built.
    fn steps_recorded(&self) -> u64;

    /// Steps that may be recorded before [`Self::plan_solver`] must run (smoke's multigrid
    /// V-cycle plan, [`crate::solver::plan`]); `None`, the default: any number.
    fn steps_to_plan(&self) -> Option<u64> {
        None
    }

    /// Plans what depends on the GPU's results at a plan point (smoke's V-cycle count); waits
    /// for the GPU there. Nothing by default.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`] when a result cannot be read back.
    fn plan_solver(&mut self) -> Result<(), GpuError> {
        Ok(())
    }

    /// Records the statistics' reduction into `encoder`: the statistics of the fields where the
    /// encoder has got to, which [`Self::collect_stats`] gives once the caller has submitted the
    /// encoder and polled its device.
    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder);

    /// Whether statistics were asked for and not yet collected (`false`: ask again).
    fn stats_requested(&self) -> bool;

    /// The statistics last asked for if they have arrived (`None`: not yet, or none asked for).
    /// Never waits.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    fn collect_stats(&self) -> Option<Result<Self::Stats, GpuError>>;

    /// The statistics of the fields as they are, as a future that never blocks: it completes
    /// once the device has been polled after the GPU did the work.
    ///
    /// # Errors
    /// As [`Self::collect_stats`].
    fn stats_async(&self) -> impl Future<Output = Result<Self::Stats, GpuError>> + '_;

    /// A reader of the state as it is now, which borrows nothing: the fields are copied on the
    /// GPU at once ([`gpu::snapshot`]) and read back when the future is awaited.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    fn state_reader(&self) -> impl Future<Output = Result<Self::State, GpuError>> + 'static;

    /// The state read back, as a future that never blocks (it completes once the device has
    /// been polled after the GPU did the work). It reads the fields themselves, so they must not
    /// change before it completes; [`Self::state_reader`] copies them first (the default here).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    fn read_state_async(&self) -> impl Future<Output = Result<Self::State, GpuError>> + '_ {
        self.state_reader()
    }

    /// The textures holding the state, for [`gpu::Checkpoint`]: copying them back restores
    /// the model's fields.
    fn state_textures(&self) -> Vec<&wgpu::Texture>;

    /// The textures the state hash covers ([`gpu::state_hash`], in this order): the state's
    /// ([`Self::state_textures`], the default) and what else the steps read that edits change,
    /// such as the walls' and sources' bits. Float and unsigned integer formats, with
    /// `TEXTURE_BINDING`.
    fn hashed_textures(&self) -> Vec<&wgpu::Texture> {
        self.state_textures()
    }

    /// The solid mask last uploaded, `(H, W)`.
    fn solid_mask(&self) -> &Grid<u8>;

    /// The source mask last uploaded, `(H, W)`, 1 = source; `None` for a model without sources.
    fn source_mask(&self) -> Option<&Grid<u8>> {
        None
    }

    /// The field a frame shows by default, for [`crate::render::FieldRenderer`]: an `r32float`
    /// texture of `(W, H)` texels, the `r32uint` solid bits beside it (bit 0: solid), and the
    /// values at the colour map's two ends. `None` (the default) for a model that draws itself
    /// (eddy's own models have renderers of their own).
    fn scalar_view(&self) -> Option<ScalarView<'_>> {
        None
    }

    /// The rigid bodies moving through the fluid where the steps recorded so far leave them;
    /// none by default.
    fn body_list(&self) -> &[crate::body::Body] {
        &[]
    }

    /// Brings [`Self::body_list`]'s free bodies to where the last read of the force log found
    /// them (their motion is the GPU's alone); nothing by default.
    fn refresh_bodies(&mut self) {}

    /// Brings [`Self::body_list`] to the GPU's body table now, waiting for it, where the list
    /// cannot follow the GPU itself (free bodies); nothing by default.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    fn sync_bodies(&mut self) -> Result<(), GpuError> {
        Ok(())
    }

    /// The log of the fluid's forces on the bodies, one entry a step ([`crate::body::forces`]);
    /// `None` for a model whose bodies feel no force (the default).
    fn force_log(&mut self) -> Option<&mut crate::body::forces::ForceLog> {
        None
    }

    /// Records a replacement of the bodies into `encoder`.
    ///
    /// # Errors
    /// [`Error::Message`] when the model takes no bodies (the default) or refuses these.
    fn encode_bodies(
        &mut self,
        _encoder: &mut wgpu::CommandEncoder,
        _bodies: &[crate::body::Body],
    ) -> Result<(), Error> {
        Err(no_bodies(Self::NAME))
    }

    /// Records the bodies put back where a checkpoint had them, the fields already restored
    /// ([`Self::encode_bodies`] by default).
    ///
    /// # Errors
    /// As [`Self::encode_bodies`].
    fn encode_bodies_restored(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        bodies: &[crate::body::Body],
    ) -> Result<(), Error> {
        self.encode_bodies(encoder, bodies)
    }

    /// Records a new velocity `(vx, vy)` and `spin` for body `index`.
    ///
    /// # Errors
    /// [`Error::Message`] when the model takes no bodies (the default), for a body that is not
    /// there, or a value not finite.
    fn encode_drive(
        &mut self,
        _encoder: &mut wgpu::CommandEncoder,
        _index: usize,
        _velocity: (f32, f32),
        _spin: f32,
    ) -> Result<(), Error> {
        Err(no_bodies(Self::NAME))
    }

    /// Brings what is derived from the state up to date after a checkpoint was restored into
    /// [`Self::state_textures`] (smoke's cell-centred velocity); nothing by default.
    fn restored(&mut self) {}

    /// What the coming steps depend on that [`Self::state_textures`] do not hold, for a
    /// checkpoint to keep: the multigrid's V-cycle plan ([`crate::solver::plan`]); `None` by
    /// default.
    fn solver_plan(&self) -> Option<crate::solver::plan::SavedPlan> {
        None
    }

    /// Puts back a plan [`Self::solver_plan`] gave, as a checkpoint is restored, so the steps
    /// after it run as they did after the checkpoint; nothing by default.
    fn restore_solver_plan(&mut self, _plan: Option<crate::solver::plan::SavedPlan>) {}

    /// Changes the parameters now ([`Self::encode_params`] in an encoder of its own, submitted).
    ///
    /// # Errors
    /// As [`Self::encode_params`].
    fn set_params(&mut self, params: Self::Params) -> Result<(), Error> {
        let mut encoder = self.device().create_command_encoder(&Default::default());
        self.encode_params(&mut encoder, params)?;
        self.queue().submit([encoder.finish()]);
        Ok(())
    }

    /// Replaces the bodies now ([`Self::encode_bodies`] in an encoder of its own, submitted).
    ///
    /// # Errors
    /// As [`Self::encode_bodies`]; nothing changes.
    fn set_bodies(&mut self, bodies: &[crate::body::Body]) -> Result<(), Error> {
        let mut encoder = self.device().create_command_encoder(&Default::default());
        self.encode_bodies(&mut encoder, bodies)?;
        self.queue().submit([encoder.finish()]);
        Ok(())
    }

    /// Submits the statistics' reduction without waiting; [`Self::collect_stats`] gives them
    /// once they arrive (a viewer asks in one frame and reads a later one).
    fn request_stats(&self) {
        let mut encoder = self.device().create_command_encoder(&Default::default());
        self.encode_stats(&mut encoder);
        self.queue().submit([encoder.finish()]);
    }

    /// The statistics, waiting for the GPU (native targets; [`Self::stats_async`] never waits).
    /// The reduction is recorded and submitted inside error scopes, so a reduction the device
    /// rejects (a bind group that does not match its shader) is an error here, not statistics
    /// of zeros.
    ///
    /// # Errors
    /// As [`Self::collect_stats`]; [`GpuError::Validation`] / `OutOfMemory` when the device
    /// rejects the reduction.
    #[cfg(not(target_arch = "wasm32"))]
    fn stats(&self) -> Result<Self::Stats, GpuError> {
        gpu::scoped(self.device(), || gpu::wait(self.device(), self.stats_async()))??
    }
}

/// What [`crate::render::FieldRenderer`] draws of a model: see [`GpuModel::scalar_view`].
#[derive(Clone, Copy)]
pub struct ScalarView<'a> {
    /// The field, `r32float`, a texel a cell.
    pub field: &'a wgpu::TextureView,
    /// The solid bits, `r32uint`, bit 0 set where a cell is solid.
    pub solid: &'a wgpu::TextureView,
    /// The values at the colour map's low and high ends.
    pub range: (f32, f32),
}

#[cfg(not(target_arch = "wasm32"))]
impl<M: GpuModel> crate::Simulation for M {
    type State = M::State;

    /// Runs `steps` steps: records them into command buffers, one per run of steps between the
    /// plan points ([`GpuModel::plan_solver`], which waits for the GPU there), and submits them;
    /// does not wait after the last.
    ///
    /// # Errors
    /// A GPU error at a plan point; [`GpuError::Validation`] / `OutOfMemory` when the device
    /// rejects the recorded work (error scopes around it, so on an application's device too).
    fn step(&mut self, steps: u32) -> Result<(), Error> {
        let plan = |m: &mut Self| {
            m.plan_solver()?;
            Ok(m.steps_to_plan())
        };
        let device = self.device().clone();
        gpu::scoped(&device, || {
            crate::solver::plan::in_runs(self, steps, plan, |m, n| {
                let mut encoder = m.device().create_command_encoder(&Default::default());
                m.encode_steps(&mut encoder, n);
                m.queue().submit([encoder.finish()]);
            })
        })??;
        Ok(())
    }

    /// Reads the state back (waits for the GPU).
    fn read_state(&mut self) -> Result<M::State, Error> {
        Ok(gpu::wait(self.device(), self.read_state_async())??)
    }

    fn steps_done(&self) -> u64 {
        self.steps_recorded()
    }
}

/// Why a model without bodies refuses them.
pub(crate) fn no_bodies(model: &str) -> Error {
    Error::Message(format!(
        "bodies move through water, smoke and gas, and this model is {model}: switch to one of those"
    ))
}

/// `v` with `digits` decimals, or `n/a` when it is an empty set's +-infinity or NaN (a
/// minimum, maximum or centroid over no cells).
pub(crate) fn or_na(v: f64, digits: usize) -> String {
    if v.is_finite() { format!("{v:.digits$}") } else { "n/a".to_string() }
}
