//! [`Runner`]: what runs any [`GpuModel`], eddy's own ([`super::AnyModel`] is a runner of
//! [`super::AnyGpuModel`]) or one written outside eddy (`examples/custom_model.rs`): steps in runs
//! that end at the model's plan points, timed when asked; statistics; the state read back and
//! saved as `.npz` with its step and parameters; checkpoints on the GPU and rolling back to
//! them; frames drawn for PNG files.

use crate::body::Body;
use crate::colour::ColourMap;
use crate::gpu::{self, Checkpoint, GpuError, StepTimer};
use crate::gpu_model::GpuModel;
#[cfg(feature = "npz")]
use crate::{
    gpu_model::{ModelParameters, ModelState},
    npz::Npz,
    scene::SceneError,
};

/// The last checkpoint: the fields, the step and the bodies where they were then.
struct Saved {
    fields: Checkpoint,
    step: u64,
    bodies: Vec<Body>,
    /// What else the steps after it depend on ([`GpuModel::solver_plan`]).
    plan: Option<crate::solver::plan::SavedPlan>,
}

/// A model, the step it has reached and its last checkpoint; see the module docs.
pub struct Runner<M: GpuModel> {
    model: M,
    step: u64,
    checkpoint: Option<Saved>,
    painter: Option<(wgpu::TextureFormat, crate::render::FieldRenderer)>,
}

impl<M: GpuModel> Runner<M> {
    /// Runs `model`, whose state was reached at step `step` (0 for a scene).
    pub fn new(model: M, step: u64) -> Self {
        Self { model, step, checkpoint: None, painter: None }
    }

    /// The model.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// The model, to edit (the steps it records through this are not counted: use
    /// [`Self::encode_steps`]).
    pub fn model_mut(&mut self) -> &mut M {
        &mut self.model
    }

    /// The step reached (counting from the loaded state's step).
    pub fn steps_done(&self) -> u64 {
        self.step
    }

    /// Records `steps` steps into `encoder` ([`GpuModel::encode_steps`]). With plan points
    /// ([`GpuModel::steps_to_plan`]) record runs that end at them and call
    /// [`GpuModel::plan_solver`] after submitting each ([`Self::step_in_runs`] does both).
    pub fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        self.model.encode_steps(encoder, steps);
        self.step += steps as u64;
    }

    /// Submits `steps` steps (does not wait after the last; see [`Self::step_in_runs`]).
    ///
    /// # Errors
    /// As [`Self::step_in_runs`].
    pub fn step(&mut self, steps: u32) -> Result<(), GpuError> {
        self.step_in_runs(steps, |r, e, n| r.encode_steps(e, n), || {})
    }

    /// Runs `steps` steps in runs that end at the model's plan points (one run for a model
    /// without): `record` records each run's steps into a new encoder, which is then submitted
    /// and `submitted` called; at each plan point [`GpuModel::plan_solver`] runs (and waits for
    /// the GPU there). This is what makes a multigrid run the same however its steps are
    /// batched.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`] when a plan point cannot read back; the
    /// steps recorded before it were submitted. [`GpuError::Validation`] / `OutOfMemory` when the
    /// device rejects the recorded work (error scopes around it, so that a device eddy did not
    /// make reports it here too, not to its uncaptured-error handler).
    pub fn step_in_runs(
        &mut self,
        steps: u32,
        mut record: impl FnMut(&mut Self, &mut wgpu::CommandEncoder, u32),
        mut submitted: impl FnMut(),
    ) -> Result<(), GpuError> {
        let plan = |r: &mut Self| {
            r.model.plan_solver()?;
            Ok(r.model.steps_to_plan())
        };
        let device = self.model.device().clone();
        gpu::scoped(&device, || {
            crate::solver::plan::in_runs(self, steps, plan, |r, n| {
                let mut encoder = r.model.device().create_command_encoder(&Default::default());
                record(r, &mut encoder, n);
                r.model.queue().submit([encoder.finish()]);
                submitted();
            })
        })?
    }

    /// [`Self::step_in_runs`] with each run timed by `timer`, tagged `tag` (which model ran),
    /// when one is given ([`StepTimer::time`]; its spans are collected as they arrive).
    ///
    /// # Errors
    /// As [`Self::step_in_runs`].
    pub fn step_timed(&mut self, steps: u32, timer: Option<&mut StepTimer>, tag: u32) -> Result<(), GpuError> {
        let timer = std::cell::RefCell::new(timer);
        let record = |r: &mut Self, e: &mut wgpu::CommandEncoder, n: u32| match timer.borrow_mut().as_mut() {
            Some(timer) => {
                timer.poll(); // frees the slots whose spans arrived
                timer.time(e, n, tag, |e| r.encode_steps(e, n));
            }
            None => r.encode_steps(e, n),
        };
        let submitted = || {
            if let Some(timer) = timer.borrow_mut().as_mut() {
                timer.submitted();
            }
        };
        self.step_in_runs(steps, record, submitted)
    }

    /// The statistics by the model's reduction. Waits for the GPU.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn stats(&self) -> Result<M::Stats, GpuError> {
        self.model.stats()
    }

    /// Reads the whole state back. Waits for the GPU (native targets; see
    /// [`GpuModel::read_state_async`]).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_state(&self) -> Result<M::State, GpuError> {
        gpu::wait(self.model.device(), self.model.read_state_async())?
    }

    /// Reads the state back and writes it, with the step reached and the parameters, as `.npz`
    /// (atomically: see [`Npz`]; [`write_npz`] lays it out).
    ///
    /// # Errors
    /// As [`Self::read_state`]; [`SceneError::Io`], whatever was at `path` then unchanged.
    #[cfg(all(feature = "npz", not(target_arch = "wasm32")))]
    pub fn save_npz(&self, path: &std::path::Path) -> Result<(), crate::Error> {
        let state = self.read_state()?;
        let mut npz = Npz::create(path)?;
        write_npz(&mut npz, &state, self.step, Some(&self.model.params()))?;
        Ok(npz.finish()?)
    }

    /// Copies the current fields into a checkpoint on the GPU (allocated on first use), with
    /// the step reached and the bodies. Submitted, not waited for; a texture copy, no readback,
    /// but where a body is free, natively, the bodies are read back (only the GPU knows where
    /// they are; in a browser the last read of the forces says).
    pub fn checkpoint(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Err(e) = self.model.sync_bodies() {
            log::warn!("the checkpoint keeps the free bodies where they were last read: {e}");
        }
        let (device, queue) = (self.model.device().clone(), self.model.queue().clone());
        let mut encoder = device.create_command_encoder(&Default::default());
        let previous = self.checkpoint.take().map(|saved| saved.fields);
        let sources = self.model.state_textures();
        let fields = previous.unwrap_or_else(|| Checkpoint::new(&device, &sources));
        fields.capture(&mut encoder, &sources);
        drop(sources);
        queue.submit([encoder.finish()]);
        let (bodies, plan) = (self.model.body_list().to_vec(), self.model.solver_plan());
        self.checkpoint = Some(Saved { fields, step: self.step, bodies, plan });
    }

    /// Goes back to the last [`Self::checkpoint`]; returns its step, or `None` (and changes
    /// nothing) when there is none. The fields are restored, the bodies to where they were then
    /// ([`GpuModel::encode_bodies_restored`]) and the solver's plan ([`GpuModel::solver_plan`]),
    /// not the walls and sources;
    /// [`Self::steps_done`] goes back to the checkpoint's step, while the model's own
    /// [`GpuModel::steps_recorded`] keeps counting the steps run.
    pub fn rollback(&mut self) -> Option<u64> {
        let saved = self.checkpoint.as_ref()?;
        let (step, bodies, plan) = (saved.step, saved.bodies.clone(), saved.plan);
        let (device, queue) = (self.model.device().clone(), self.model.queue().clone());
        let mut encoder = device.create_command_encoder(&Default::default());
        saved.fields.restore(&mut encoder, &self.model.state_textures());
        if !bodies.is_empty()
            && let Err(e) = self.model.encode_bodies_restored(&mut encoder, &bodies)
        {
            // Only parameters changed since the checkpoint can refuse them (a longer dt).
            log::warn!("the bodies stay where the steps left them: {e}");
        }
        queue.submit([encoder.finish()]);
        self.model.restored();
        self.model.restore_solver_plan(plan);
        self.step = step;
        Some(step)
    }

    /// Records a draw of the model's [`GpuModel::scalar_view`] filling `area` of `target` (a
    /// `format` texture) with `map`, in a render pass of its own that clears the target first.
    ///
    /// # Errors
    /// [`GpuError::Validation`] when the model has no scalar view (eddy's own models draw
    /// through [`super::AnyModel::draw`]); as [`crate::render::FieldRenderer::new`] the first
    /// time a `format` is drawn to.
    pub fn draw(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        format: wgpu::TextureFormat,
        area: impl Into<crate::render::Area>,
        map: ColourMap,
    ) -> Result<(), GpuError> {
        let Some(view) = self.model.scalar_view() else {
            return Err(GpuError::Validation(format!("{} has no scalar view to draw", M::NAME)));
        };
        let device = self.model.device().clone();
        if self.painter.as_ref().is_none_or(|(f, _)| *f != format) {
            self.painter = Some((format, crate::render::FieldRenderer::new(&device, format)?));
        }
        let painter = &mut self.painter.as_mut().expect("made above").1;
        let drawing = painter.prepare(&device, encoder, area, self.model.size(), view, map);
        crate::render::draw_cleared(encoder, target, &drawing);
        Ok(())
    }

    /// A frame of `scale` pixels a cell drawn with [`Self::draw`] and read back (what `eddy run
    /// --frames` writes as PNG). Waits for the GPU.
    ///
    /// # Errors
    /// As [`Self::draw`] and [`crate::render::FrameTarget::render`].
    #[cfg(all(feature = "png", not(target_arch = "wasm32")))]
    pub fn frame(&mut self, scale: u32, map: ColourMap) -> Result<image::RgbaImage, GpuError> {
        let (device, queue) = (self.model.device().clone(), self.model.queue().clone());
        let target = crate::render::FrameTarget::new(&device, self.model.size(), scale)?;
        // In error scopes, so that a draw the device refuses is an error here, not a blank frame.
        gpu::scoped(&device, || {
            target.render(&device, &queue, |encoder, view, size| {
                self.draw(encoder, view, crate::render::FrameTarget::FORMAT, size, map)
            })
        })?
    }
}

/// Writes `state`'s arrays ([`ModelState::write_npz`]), then the parameters as text
/// ([`super::PARAMETERS_ARRAY`]) when given, then the step ([`super::STEP_ARRAY`]): the layout
/// of every `.npz` eddy saves.
///
/// # Errors
/// [`SceneError::Io`].
#[cfg(feature = "npz")]
pub fn write_npz(
    npz: &mut Npz,
    state: &impl ModelState,
    step: u64,
    params: Option<&impl ModelParameters>,
) -> Result<(), SceneError> {
    state.write_npz(npz)?;
    if let Some(params) = params {
        npz.write_text(super::PARAMETERS_ARRAY, &params.to_text())?;
    }
    npz.write_scalar_i64(super::STEP_ARRAY, i64::try_from(step).unwrap_or(i64::MAX))
}
