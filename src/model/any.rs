//! [`AnyModel`]: one type that runs, measures, saves and draws any of eddy's models on the GPU
//! (a [`Runner`] of [`AnyGpuModel`], with the renderers, views and tools of each model), and
//! [`cpu_reference`] for its CPU twin. The CLI and the viewer only call it.

use super::any_gpu::AnyGpuModel;
use super::memory;
use super::runner::Runner;
use super::state::{AnyState, AnyStats, ModelParams};
use super::tools::{Stroke, Tool};
use super::{ModelKind, ParamInfo};
use crate::Simulation;
use crate::colour::{ColourMap, Legend};
use crate::error::{Error, ParamError};
use crate::gas::GasBrush;
use crate::gpu::state_hash::StateHasher;
use crate::gpu::{GpuError, StepTimer};
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::render::{
    Area, Blend, FieldRenderer, GasField, GasRenderer, GasSchlierenRenderer, Look, SmokeField, SmokeLitRenderer,
    SmokeRenderer, WaterRenderer, WaterSurfaceRenderer,
};
use crate::smoke::Impulse;
use crate::water::Brush;

/// The renderer of a model for one target format.
enum Painter {
    Water(WaterRenderer),
    Smoke(Box<SmokeRenderer>),
    Gas(GasRenderer),
    /// A registered model's scalar view ([`GpuModel::scalar_view`]).
    Field(FieldRenderer),
    /// The styled looks ([`Look::Styled`]).
    WaterSurface(Box<WaterSurfaceRenderer>),
    SmokeLit(SmokeLitRenderer),
    GasSchlieren(GasSchlierenRenderer),
}

/// Any of eddy's models on the GPU ([`AnyGpuModel`]) on a [`Runner`], with its renderer and the
/// field it shows: step, statistics, save, load, tools, draw. Holds clones of the device and
/// queue it was made with.
pub struct AnyModel {
    runner: Runner<AnyGpuModel>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    view: usize,
    painter: Option<(wgpu::TextureFormat, Painter)>,
    /// How draws combine with the target ([`AnyModel::set_blend`]).
    blend: Blend,
    /// How it is drawn ([`AnyModel::set_look`]).
    look: Look,
    /// The smoke look's light and glow ([`AnyModel::set_lighting`]).
    lighting: crate::render::smoke_lit::Lighting,
    /// Hue (degrees) of the next smoke splat's dye: each splat turns it, so drags cycle hues.
    hue: f32,
    /// The colour map of each view (indexed like [`super::ModelInfo::views`]).
    maps: Vec<ColourMap>,
    /// The brush radius chosen, cells; `None`: [`Self::brush_radius`]'s default.
    brush: Option<f32>,
    /// The state hash's passes for a model other than water, built when first asked for.
    hasher: std::sync::OnceLock<StateHasher>,
}

impl AnyModel {
    /// Uploads `state` and builds the model `params` are for; `step` is the step `state` was
    /// reached at (0 for a scene).
    ///
    /// # Errors
    /// [`Error::Param`] when `params` fail their table or are another model's than `state`;
    /// [`GpuError::GridTooLarge`] when a side is 0 or above the device's 2D texture limit (water:
    /// [`GpuError::WorldTooLarge`] past four times it across, [`ModelKind::check_size`]);
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
        kind.check_size(w, h, device.limits().max_texture_dimension_2d)?;
        let estimate = memory::check(kind, (w, h), memory::Extras::default(), None, &device.limits())?;
        let model = AnyGpuModel::new(device, queue, state, *params).map_err(|e| match e {
            Error::Gpu(GpuError::OutOfMemory(m) | GpuError::Validation(m)) => {
                Error::Gpu(GpuError::OutOfMemory(format!(
                    "{kind} at {w}x{h} needs about {} of GPU memory; the device said: {m}",
                    memory::human(estimate.gpu)
                )))
            }
            other => other,
        })?;
        Ok(Self {
            runner: Runner::new(model, step),
            device: device.clone(),
            queue: queue.clone(),
            view: 0,
            painter: None,
            blend: Blend::Opaque,
            look: Look::Map,
            lighting: Default::default(),
            hue: 0.0,
            maps: vec![ColourMap::Own; kind.info().views.len()],
            brush: None,
            hasher: std::sync::OnceLock::new(),
        })
    }

    /// The runner it is: the model and the steps, checkpoint and saves around it.
    pub fn runner(&self) -> &Runner<AnyGpuModel> {
        &self.runner
    }

    fn sim(&self) -> &AnyGpuModel {
        self.runner.model()
    }

    fn sim_mut(&mut self) -> &mut AnyGpuModel {
        self.runner.model_mut()
    }

    /// Which model.
    pub fn kind(&self) -> ModelKind {
        self.sim().kind()
    }

    /// `(W, H)` in cells.
    pub fn size(&self) -> (u32, u32) {
        self.sim().size()
    }

    /// The parameters in use.
    pub fn params(&self) -> ModelParams {
        self.sim().params()
    }

    /// Replaces the parameters from the next step on.
    ///
    /// # Errors
    /// [`Error::Param`] when they fail their table or are another model's; nothing changes.
    pub fn set_params(&mut self, params: ModelParams) -> Result<(), Error> {
        self.sim_mut().set_params(params)
    }

    /// Records a change of the parameters into `encoder`, in recording order (each model's
    /// `encode_params`).
    ///
    /// # Errors
    /// As [`AnyModel::set_params`]; a change of smoke's grid cannot be recorded (use
    /// [`AnyModel::set_params`]). Nothing changes and nothing is recorded.
    pub fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: ModelParams) -> Result<(), Error> {
        self.sim_mut().encode_params(encoder, params)
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

    /// Records `steps` steps into `encoder` ([`Runner::encode_steps`]). With a multigrid solve,
    /// record runs that end at [`GpuModel::steps_to_plan`] and call [`GpuModel::plan_solver`]
    /// after submitting each ([`Runner::step_in_runs`] does both), or the V-cycle count is never
    /// planned again.
    pub fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        self.runner.encode_steps(encoder, steps);
    }

    /// Submits `steps` steps in runs that end at the multigrid V-cycle plan's points (does not
    /// wait after the last; [`Runner::step_in_runs`]).
    ///
    /// # Errors
    /// As [`Runner::step_in_runs`].
    pub fn step(&mut self, steps: u32) -> Result<(), GpuError> {
        self.runner.step(steps)
    }

    /// [`AnyModel::step`] with each run timed by `timer`, tagged `tag` (which model ran)
    /// ([`Runner::step_timed`]).
    ///
    /// # Errors
    /// As [`Runner::step_in_runs`].
    pub fn step_timed(&mut self, steps: u32, timer: Option<&mut StepTimer>, tag: u32) -> Result<(), GpuError> {
        self.runner.step_timed(steps, timer, tag)
    }

    /// The step reached (counting from the loaded state's step).
    pub fn steps_done(&self) -> u64 {
        self.runner.steps_done()
    }

    /// Statistics by a reduction pass on the GPU. Waits for the GPU.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn stats(&self) -> Result<AnyStats, GpuError> {
        self.runner.stats()
    }

    /// [`AnyModel::stats`] as a future that never blocks (what a browser and a frame loop
    /// use): it completes once the device has been polled after the GPU did the work.
    ///
    /// # Errors
    /// As [`AnyModel::stats`].
    pub async fn stats_async(&self) -> Result<AnyStats, GpuError> {
        self.sim().stats_async().await
    }

    /// Reads the whole state back. Waits for the GPU (native targets; see
    /// [`AnyModel::read_state_async`]).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_state(&mut self) -> Result<AnyState, Error> {
        Ok(self.runner.read_state()?)
    }

    /// Submits the statistics' reductions without waiting; [`AnyModel::collect_stats`] gives
    /// them once they arrive (a viewer asks in one frame and reads a later one).
    pub fn request_stats(&self) {
        self.sim().request_stats();
    }

    /// Records the statistics' reductions into `encoder`: the statistics of the fields where
    /// the encoder has got to, which [`AnyModel::collect_stats`] gives once the application
    /// has submitted the encoder and polled its device.
    pub fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder) {
        self.sim().encode_stats(encoder);
    }

    /// Whether statistics were asked for and not yet collected: `false` after they were, and
    /// for a model made since the request (a reset, a load), which has nothing to collect.
    pub fn stats_requested(&self) -> bool {
        self.sim().stats_requested()
    }

    /// The statistics of the last [`AnyModel::request_stats`] if they have arrived (`None`: not
    /// yet, or none requested). Never waits.
    ///
    /// # Errors
    /// As [`AnyModel::stats`].
    pub fn collect_stats(&self) -> Option<Result<AnyStats, GpuError>> {
        self.sim().collect_stats()
    }

    /// [`AnyModel::read_state`] as a future that never blocks (what a browser and a frame loop
    /// use): it completes once the device has been polled after the GPU did the work.
    ///
    /// # Errors
    /// As [`AnyModel::read_state`].
    pub async fn read_state_async(&self) -> Result<AnyState, GpuError> {
        self.sim().read_state_async().await
    }

    /// A reader of the state as it is now that borrows nothing: the fields are copied on the GPU
    /// at once and read back when it is awaited (a browser's save runs it as a task while the
    /// model runs on). See [`GpuModel::state_reader`].
    pub fn state_reader(&self) -> impl Future<Output = Result<AnyState, GpuError>> + 'static {
        self.sim().state_reader()
    }

    /// Reads the state back and writes it with the step reached and the parameters as `.npz`
    /// (atomically; [`Runner::save_npz`]).
    ///
    /// # Errors
    /// As [`AnyModel::read_state`] and [`AnyState::save_npz`].
    #[cfg(not(target_arch = "wasm32"))]
    #[cfg(feature = "npz")]
    pub fn save_npz(&mut self, path: &std::path::Path) -> Result<(), Error> {
        self.runner.save_npz(path)
    }

    /// Copies the current fields into a checkpoint on the GPU (allocated on first use:
    /// [`super::ModelInfo::state_bytes_per_cell`] per cell), with the step reached
    /// ([`Runner::checkpoint`]). Submitted, not waited for; a texture copy, no readback.
    pub fn checkpoint(&mut self) {
        self.runner.checkpoint();
    }

    /// Goes back to the last [`AnyModel::checkpoint`]; returns its step, or `None` (and changes
    /// nothing) when there is none ([`Runner::rollback`]: the fields and bodies restored, not the
    /// walls and sources, which `eddy run` never edits; the gas restored is already what its
    /// bodies leave, [`crate::gas::GpuGas`]'s `encode_bodies_restored`).
    pub fn rollback(&mut self) -> Option<u64> {
        self.runner.rollback()
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
        self.view = kind.view(name)?;
        Ok(())
    }

    /// Draws the next field (the viewer's V key).
    pub fn cycle_view(&mut self) {
        self.view = (self.view + 1) % self.kind().info().views.len();
    }

    /// The colour map of the current field ([`ColourMap::Own`]: the field's own look, or its
    /// default map; see [`Self::legend`]).
    pub fn colour_map(&self) -> ColourMap {
        self.maps[self.view]
    }

    /// Draws the current field with `map` from now on (each field keeps its own).
    pub fn set_colour_map(&mut self, map: ColourMap) {
        self.maps[self.view] = map;
    }

    /// How the current field is coloured: a map over a range of values (what a colour bar shows),
    /// the field's own colours, or a direction wheel.
    pub fn legend(&self) -> Legend {
        let map = self.colour_map();
        match (self.look, self.sim()) {
            (Look::Styled, AnyGpuModel::Water(_)) => return WaterSurfaceRenderer::legend(),
            (Look::Styled, AnyGpuModel::Smoke(_)) => return SmokeLitRenderer::legend(),
            (Look::Styled, AnyGpuModel::Gas(_)) => return GasSchlierenRenderer::legend(),
            _ => {}
        }
        match self.sim() {
            AnyGpuModel::Water(_) => WaterRenderer::legend(map),
            AnyGpuModel::Smoke(s) => match &self.painter {
                Some((_, Painter::Smoke(r))) => r.legend_drawn(s, self.smoke_field(), map),
                _ => SmokeRenderer::legend(s, self.smoke_field(), map),
            },
            AnyGpuModel::Gas(_) => GasRenderer::legend(self.gas_field(), map),
            AnyGpuModel::Custom(m) => {
                let range = m.scalar_view().map_or((0.0, 1.0), |v| v.range);
                FieldRenderer::legend(range, self.kind().info().views[0].unit, map)
            }
        }
    }

    fn smoke_field(&self) -> SmokeField {
        [
            SmokeField::Dye,
            SmokeField::Density,
            SmokeField::Temperature,
            SmokeField::Speed,
            SmokeField::Pressure,
            SmokeField::Divergence,
            SmokeField::Vorticity,
        ][self.view]
    }

    fn gas_field(&self) -> GasField {
        if self.view == 1 { GasField::Velocity } else { GasField::Density }
    }

    /// Prepares a draw of the current field, in the field's colour map, filling `area` of a
    /// `format` target (a `(width, height)` converts to the whole of one), opaque; record it
    /// into a render pass with [`crate::render::Drawing::render`]. As
    /// [`crate::render::WaterRenderer::prepare`]: prepare after recording the frame's steps.
    ///
    /// # Errors
    /// As [`WaterRenderer::new`], the first time a `format` is drawn to.
    pub fn prepare(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        format: wgpu::TextureFormat,
        area: impl Into<Area>,
    ) -> Result<crate::render::Drawing, GpuError> {
        if self.painter.as_ref().is_none_or(|(f, _)| *f != format) {
            let (d, blend) = (&self.device, self.blend);
            let painter = match (self.kind(), self.look, self.runner.model()) {
                // A packed world keeps no one-cell textures for the surface's foam: drawn plain.
                (ModelKind::Water, Look::Styled, AnyGpuModel::Water(s)) if !s.is_packed_world() => {
                    Painter::WaterSurface(Box::new(WaterSurfaceRenderer::with_blend(d, s.caps(), format, blend)?))
                }
                (ModelKind::Smoke, Look::Styled, _) => {
                    Painter::SmokeLit(SmokeLitRenderer::with_blend(d, format, blend)?)
                }
                (ModelKind::Gas, Look::Styled, _) => {
                    Painter::GasSchlieren(GasSchlierenRenderer::with_blend(d, format, blend)?)
                }
                (ModelKind::Water, ..) => Painter::Water(WaterRenderer::with_blend(d, format, blend)?),
                (ModelKind::Smoke, ..) => Painter::Smoke(Box::new(SmokeRenderer::with_blend(d, format, blend)?)),
                (ModelKind::Gas, ..) => Painter::Gas(GasRenderer::with_blend(d, format, blend)?),
                (ModelKind::Custom(_), ..) => Painter::Field(FieldRenderer::new(&self.device, format)?),
            };
            self.painter = Some((format, painter));
        }
        let d = &self.device;
        let (area, map) = (area.into(), self.colour_map());
        let (smoke_field, gas_field) = (self.smoke_field(), self.gas_field());
        Ok(match (&mut self.painter.as_mut().expect("made above").1, self.runner.model()) {
            (Painter::Water(r), AnyGpuModel::Water(s)) => r.prepare(d, encoder, area, s, map),
            (Painter::Smoke(r), AnyGpuModel::Smoke(s)) => r.prepare(d, encoder, area, s, smoke_field, map),
            (Painter::Gas(r), AnyGpuModel::Gas(s)) => r.prepare(d, encoder, area, s, gas_field, map),
            (Painter::WaterSurface(r), AnyGpuModel::Water(s)) => r.prepare(d, encoder, area, s),
            (Painter::SmokeLit(r), AnyGpuModel::Smoke(s)) => {
                r.lighting = self.lighting;
                r.prepare(d, encoder, area, s)
            }
            (Painter::GasSchlieren(r), AnyGpuModel::Gas(s)) => r.prepare(d, encoder, area, s),
            (Painter::Field(r), AnyGpuModel::Custom(s)) => {
                let Some(view) = s.scalar_view() else {
                    return Err(GpuError::Validation(format!("{} has no scalar view to draw", s.kind())));
                };
                r.prepare(d, encoder, area, s.size(), view, map)
            }
            _ => unreachable!("the painter is made for the sim's model"),
        })
    }

    /// How the draws [`AnyModel::prepare`] makes from now on combine with the target: opaque (the
    /// default), or premultiplied alpha where the renderer has it, so water's air and smoke's
    /// empty cells show what is behind ([`Blend::Alpha`]; a registered model's field stays
    /// opaque).
    pub fn set_blend(&mut self, blend: Blend) {
        if blend != self.blend {
            self.blend = blend;
            self.painter = None;
        }
    }

    /// How the model is drawn: its field through the colour map ([`Look::Map`], the default) or
    /// its styled look ([`Look::Styled`]).
    pub fn look(&self) -> Look {
        self.look
    }

    /// Water: from the next step on, steps only the tiles where something can change (`true`,
    /// tiles of [`crate::water::GpuWater::default_tile_pairs`]) or every cell
    /// ([`crate::water::GpuWater::set_sleeping`]; the same masses to the bit). The other models
    /// step every cell either way.
    ///
    /// # Errors
    /// As [`crate::water::GpuWater::set_sleeping`].
    pub fn set_sleep(&mut self, sleep: bool) -> Result<(), Error> {
        match self.runner.model_mut() {
            AnyGpuModel::Water(w) if sleep != w.tile_cells().is_some() => {
                let pairs = w.default_tile_pairs();
                w.set_sleeping(sleep.then_some(pairs))
            }
            _ => Ok(()),
        }
    }

    /// Whether the model is water past the adapter's largest texture side, kept packed
    /// ([`crate::water::packed_world`]): drawn plain in the styled look too (no foam).
    pub fn is_packed_world(&self) -> bool {
        matches!(self.runner.model(), AnyGpuModel::Water(s) if s.is_packed_world())
    }

    /// The pages of rows a packed world is kept in ([`crate::water::packed_world`], "Pages": 1
    /// for a world one texture holds); 0 for any other model or water kept one cell a texel.
    pub fn packed_world_pages(&self) -> usize {
        match self.runner.model() {
            AnyGpuModel::Water(s) => s.packed_world_pages().len(),
            _ => 0,
        }
    }

    /// While the water sleeps, the tiles the next step takes, of how many
    /// ([`crate::water::GpuWater::awake_tiles`]; waits for the GPU). `None` for a model stepping
    /// every cell.
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn awake_tiles(&self) -> Result<Option<crate::water::tiles::AwakeTiles>, GpuError> {
        match self.runner.model() {
            AnyGpuModel::Water(w) => w.awake_tiles(),
            _ => Ok(None),
        }
    }

    /// The state hash (waits for the GPU): 64 bits that are the same exactly when the state's
    /// bits are ([`crate::gpu::state_hash`]): water's masses and walls ([`crate::water::hash`]),
    /// or the words of the textures [`GpuModel::hashed_textures`] names (smoke's fields, dye and
    /// solid bits; gas's state and bits; a registered model's state textures).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`]; [`GpuError::Validation`] for a
    /// registered model whose state textures are neither float nor unsigned integer.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn state_hash(&self) -> Result<u64, GpuError> {
        crate::gpu::wait(&self.device, self.state_hash_reader())?
    }

    /// What [`AnyModel::state_hash`] covers, in words: "the water's masses and walls".
    pub fn state_hash_covers(&self) -> String {
        let kind = self.kind();
        match self.runner.model() {
            AnyGpuModel::Water(_) => "the water's masses and walls".into(),
            AnyGpuModel::Smoke(_) => "the smoke's fields and solid bits".into(),
            AnyGpuModel::Gas(_) => "the gas's density, momentum and wall bits".into(),
            AnyGpuModel::Custom(_) => format!("{kind}'s state textures"),
        }
    }

    /// [`AnyModel::state_hash`] as a future (the hash's passes recorded and submitted now, read
    /// when it resolves): it never blocks, so a browser can wait on it.
    pub fn state_hash_reader(&self) -> impl Future<Output = Result<u64, GpuError>> + 'static {
        let device = self.device.clone();
        let mut encoder = device.create_command_encoder(&Default::default());
        let copy = match self.runner.model() {
            AnyGpuModel::Water(w) => Ok(w.encode_state_hash(&mut encoder)),
            model => {
                let caps = || crate::gpu::DeviceCaps::of(&device);
                let hasher = self.hasher.get_or_init(|| StateHasher::new(&device, &caps()));
                hasher.encode(&device, &mut encoder, &model.hashed_textures())
            }
        };
        if copy.is_ok() {
            self.queue.submit([encoder.finish()]);
        }
        async move { copy?.read(device).await }
    }

    /// Draws with `look` from now on ([`Look::Styled`] for a model registered outside eddy draws
    /// its map).
    pub fn set_look(&mut self, look: Look) {
        if look != self.look {
            self.look = look;
            self.painter = None;
        }
    }

    /// The styled smoke's light and glow from now on ([`crate::render::smoke_lit::Lighting`]).
    pub fn set_lighting(&mut self, lighting: crate::render::smoke_lit::Lighting) {
        self.lighting = lighting;
    }

    /// Records a draw of the current field filling `area` of `target` (a `format` texture; a
    /// `(width, height)` converts to the whole target), in the field's colour map, in a render
    /// pass of its own that clears the whole target to black first.
    ///
    /// # Errors
    /// As [`AnyModel::prepare`].
    pub fn draw(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        format: wgpu::TextureFormat,
        area: impl Into<Area>,
    ) -> Result<(), GpuError> {
        let drawing = self.prepare(encoder, format, area)?;
        crate::render::draw_cleared(encoder, target, &drawing);
        Ok(())
    }

    /// The rigid bodies moving through the fluid ([`crate::body`]) where the steps recorded so
    /// far leave them ([`GpuModel::body_list`]); free ones, whose motion only the GPU knows,
    /// moved on at the velocity they had where the last read of the forces or
    /// [`AnyModel::sync_bodies`] found them; none in water.
    pub fn bodies(&self) -> &[crate::body::Body] {
        self.sim().body_list()
    }

    /// Whether the model logs the fluid's forces on its bodies ([`GpuModel::force_log`]).
    pub fn logs_forces(&mut self) -> bool {
        self.sim_mut().force_log().is_some()
    }

    /// Records a read of the fluid's forces on the bodies into `encoder`: the steps logged since
    /// the last read ([`crate::body::forces::ForceLog::encode_request`]), which
    /// [`AnyModel::collect_forces`] gives once the encoder is submitted and the device polled.
    /// Nothing for a model whose bodies feel no force.
    pub fn encode_forces_request(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let device = self.sim().device().clone();
        if let Some(log) = self.sim_mut().force_log() {
            log.encode_request(&device, encoder);
        }
    }

    /// [`AnyModel::encode_forces_request`] in an encoder of its own, submitted.
    pub fn request_forces(&mut self) {
        if !self.logs_forces() {
            return; // nothing to record: no empty command buffer
        }
        let mut encoder = self.sim().device().create_command_encoder(&Default::default());
        self.encode_forces_request(&mut encoder);
        self.sim().queue().submit([encoder.finish()]);
    }

    /// The steps' forces of the last [`AnyModel::encode_forces_request`] if they have arrived,
    /// oldest first (`None`: not yet, or nothing asked). Never waits.
    ///
    /// # Errors
    /// [`GpuError::Readback`] / [`GpuError::DeviceLost`].
    pub fn collect_forces(&mut self) -> Option<Result<Vec<crate::body::forces::StepForces>, GpuError>> {
        let device = self.sim().device().clone();
        let forces = self.sim_mut().force_log()?.collect(&device);
        self.sim_mut().refresh_bodies();
        forces
    }

    /// The forces of every step logged since the last read, oldest first (at most the last
    /// [`crate::body::forces::LOG_STEPS`]; none for a model whose bodies feel no force), waiting
    /// for the GPU.
    ///
    /// # Errors
    /// [`GpuError::Readback`] / [`GpuError::DeviceLost`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_forces(&mut self) -> Result<Vec<crate::body::forces::StepForces>, GpuError> {
        let (device, queue) = (self.sim().device().clone(), self.sim().queue().clone());
        let forces = match self.sim_mut().force_log() {
            Some(log) => log.read(&device, &queue),
            None => Ok(Vec::new()),
        };
        self.sim_mut().refresh_bodies();
        forces
    }

    /// Brings [`AnyModel::bodies`] to where the GPU has them now, waiting for it: a free body
    /// ([`crate::body::Body::density`]) moves where only the GPU knows, and [`AnyModel::bodies`]
    /// otherwise shows it where the last read of the forces found it. Without free bodies it
    /// reads nothing.
    ///
    /// # Errors
    /// [`GpuError::Readback`] / [`GpuError::DeviceLost`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn sync_bodies(&mut self) -> Result<(), GpuError> {
        self.sim_mut().sync_bodies()
    }

    /// The last step's forces read so far ([`AnyModel::read_forces`], [`AnyModel::collect_forces`]),
    /// a [`crate::body::forces::Force`] per body; `None` before any.
    pub fn latest_forces(&mut self) -> Option<crate::body::forces::StepForces> {
        self.sim_mut().force_log()?.latest().cloned()
    }

    /// Replaces the bodies now ([`GpuModel::set_bodies`]).
    ///
    /// # Errors
    /// [`Error::Message`] in water, or as [`crate::smoke::GpuSmoke`]'s `encode_bodies` (too
    /// many, the collocated grid) and [`crate::gas::GpuGas`]'s (too many); nothing changes.
    pub fn set_bodies(&mut self, bodies: &[crate::body::Body]) -> Result<(), Error> {
        self.sim_mut().set_bodies(bodies)
    }

    /// [`AnyModel::set_bodies`] recorded into `encoder`, in recording order (the steps recorded
    /// before it move the old bodies, those after the new).
    ///
    /// # Errors
    /// As [`AnyModel::set_bodies`]; nothing is recorded.
    pub fn encode_bodies(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        bodies: &[crate::body::Body],
    ) -> Result<(), Error> {
        self.sim_mut().encode_bodies(encoder, bodies)
    }

    /// Gives body `index` a new velocity `(vx, vy)` (cells per time unit) and `spin` (radians
    /// per time unit), now; where it is stays where the GPU has it.
    ///
    /// # Errors
    /// [`Error::Message`] in water, for a body that is not there, or a value not finite.
    pub fn drive_body(&mut self, index: usize, velocity: (f32, f32), spin: f32) -> Result<(), Error> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_drive_body(&mut encoder, index, velocity, spin)?;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// [`AnyModel::drive_body`] recorded into `encoder`, in recording order.
    ///
    /// # Errors
    /// As [`AnyModel::drive_body`]; nothing is recorded.
    pub fn encode_drive_body(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        index: usize,
        velocity: (f32, f32),
        spin: f32,
    ) -> Result<(), Error> {
        self.sim_mut().encode_drive(encoder, index, velocity, spin)
    }

    /// The solid and source masks, `(H, W)` each, 1 = solid / source (water has no sources).
    pub fn masks(&self) -> (Grid<u8>, Grid<u8>) {
        let solid = self.sim().solid_mask();
        let source = self.sim().source_mask().cloned().unwrap_or_else(|| solid.map(|_| 0));
        (solid.clone(), source)
    }

    /// The radius of the viewer's brushes, cells: the one chosen ([`Self::set_brush_radius`]),
    /// else 1/64 of the grid's longer side, at least 1.5; smoke's splats are half its splat radius
    /// (so `W / 16` by default), at least 1.5.
    pub fn brush_radius(&self) -> f32 {
        if let Some(r) = self.brush {
            return r;
        }
        let (w, h) = self.size();
        match (self.sim(), self.params()) {
            (AnyGpuModel::Smoke(_), p) => (p.splat_radius(w as usize) * 0.5).max(1.5),
            _ => (w.max(h) as f32 / 64.0).max(1.5),
        }
    }

    /// The brush radius chosen with [`Self::set_brush_radius`], `None` when it is the default.
    pub fn chosen_brush(&self) -> Option<f32> {
        self.brush
    }

    /// Chooses the brush radius, cells (clamped to `[0.5, longer side / 2]`; non-finite is
    /// ignored); `None` returns to the default.
    pub fn set_brush_radius(&mut self, radius: Option<f32>) {
        let (w, h) = self.size();
        self.brush = match radius {
            Some(r) if r.is_finite() => Some(r.clamp(0.5, (w.max(h) as f32 / 2.0).max(0.5))),
            Some(_) => self.brush,
            None => None,
        };
    }

    /// Applies one pointer move of a tool now ([`AnyModel::encode_stroke`] in an encoder of its
    /// own, submitted).
    ///
    /// # Errors
    /// As [`AnyModel::encode_stroke`].
    pub fn stroke(&mut self, s: &Stroke) -> Result<(), GpuError> {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_stroke(&mut encoder, s)?;
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Records one pointer move of a tool into `encoder`: walls drawn or erased, fluid poured,
    /// injected or pushed along it, or erased (see [`super::ModelInfo::left_button`]), in
    /// recording order: the edits act on the fields the steps recorded before them leave, and
    /// the steps recorded after see them.
    ///
    /// # Errors
    /// [`GpuError::Validation`] if the masks do not fit the grid (not from a [`Stroke`] made for
    /// this model's grid); nothing is recorded.
    pub fn encode_stroke(&mut self, encoder: &mut wgpu::CommandEncoder, s: &Stroke) -> Result<(), GpuError> {
        let radius = self.brush_radius();
        let (mut solid, source) = self.masks();
        let walls = s.edit_walls(&mut solid, radius);
        let stamps = s.stamps(radius);
        let fluid = s.tool == Tool::Fluid && !s.erase;
        match self.runner.model_mut() {
            AnyGpuModel::Water(w) => {
                if walls {
                    w.encode_solid(encoder, &solid)?;
                }
                if s.erase {
                    for &center in &stamps {
                        w.encode_brush(encoder, &Brush::erase(center, radius));
                    }
                } else if fluid {
                    // A stream along the drag: every stamp but the move's start, poured by the
                    // last call (a pointer that did not move pours once, at its place).
                    for &center in &stamps[1..] {
                        w.encode_brush(encoder, &Brush::pour(center, radius));
                    }
                }
            }
            AnyGpuModel::Smoke(sm) => {
                if walls {
                    sm.encode_masks(encoder, &solid, &source)?;
                }
                let p = sm.params();
                let dir = s.direction();
                for &center in &stamps {
                    let splat = if s.erase {
                        Impulse::clear(center, radius, &p)
                    } else if fluid {
                        self.hue = (self.hue + HUE_PER_SPLAT) % 360.0;
                        Impulse::splat(center, radius, &p, dir, self.hue)
                    } else {
                        continue;
                    };
                    sm.encode_splat(encoder, &splat);
                }
            }
            AnyGpuModel::Gas(g) => {
                if walls {
                    g.encode_masks(encoder, &solid, &source)?;
                }
                let dir = s.direction();
                for &center in &stamps {
                    if s.erase {
                        g.encode_brush(encoder, &GasBrush::calm(center, radius));
                    } else if fluid && s.moved() {
                        g.encode_brush(encoder, &GasBrush::push(center, radius, dir));
                    }
                }
            }
            // The contract has no edits: a registered model's tools do nothing.
            AnyGpuModel::Custom(_) => {}
        }
        Ok(())
    }

    /// Applies a smoke splat with its own velocity and dye now (the web component's `splat`; the
    /// viewer's drags use [`AnyModel::stroke`], whose splats cycle hues).
    ///
    /// # Errors
    /// [`Error::Message`] when the model is not smoke, or the splat's numbers are not finite or
    /// its radius is not positive; nothing is recorded.
    pub fn splat(&mut self, impulse: &crate::smoke::Impulse) -> Result<(), Error> {
        let AnyGpuModel::Smoke(s) = self.runner.model_mut() else {
            return Err(Error::Message(format!("a splat of dye is smoke's; this model is {}", self.kind())));
        };
        let i = impulse;
        let numbers = [i.center.0, i.center.1, i.radius, i.temperature, i.density, i.velocity.0, i.velocity.1];
        if numbers.iter().chain(&i.dye).any(|v| !v.is_finite()) || i.radius <= 0.0 {
            return Err(Error::Message(format!(
                "a splat needs finite numbers and a radius above 0 (got {numbers:?}, dye {:?})",
                i.dye
            )));
        }
        s.splat(impulse);
        Ok(())
    }

    /// A click of the fluid tool without a drag at `at` (cells): in gas an explosion (dense gas
    /// blown outwards); nothing in the other models, whose press already poured or injected.
    pub fn click(&mut self, at: (f32, f32)) {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.encode_click(&mut encoder, at);
        self.queue.submit([encoder.finish()]);
    }

    /// [`AnyModel::click`] recorded into `encoder`, in recording order.
    pub fn encode_click(&mut self, encoder: &mut wgpu::CommandEncoder, at: (f32, f32)) {
        let radius = self.brush_radius();
        if let AnyGpuModel::Gas(g) = self.runner.model_mut() {
            g.encode_brush(encoder, &GasBrush::blast(at, radius));
        }
    }
}

/// Refuses `bodies` that the model `params` belong to cannot move with them: each model's own
/// checks ([`crate::water::bodies::check`]: count, speed; [`crate::smoke::check_bodies`]:
/// count, grid, speed a step; [`crate::gas::bodies::check`]: count, speed). What [`AnyModel::set_bodies`] and a change
/// of parameters refuse, without a model: a script is checked with it before its first step.
///
/// # Errors
/// [`Error::Message`] saying what to change.
pub fn check_bodies(params: &ModelParams, bodies: &[crate::body::Body]) -> Result<(), Error> {
    match params {
        ModelParams::Smoke(p) => crate::smoke::check_bodies(bodies, p),
        ModelParams::Gas(_) => crate::gas::bodies::check(bodies),
        ModelParams::Water(_) => crate::water::bodies::check(bodies),
        ModelParams::Custom(_) if bodies.is_empty() => Ok(()),
        p => Err(crate::gpu_model::no_bodies(p.kind().name())),
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
        (AnyState::Custom(s), ModelParams::Custom(p)) if s.kind() == p.kind() => {
            let kind = p.kind();
            super::custom::cpu_reference(s, p)
                .ok_or_else(|| Error::Message(format!("{kind} registered no CPU twin (CustomModel::CPU_STEP)")))?
        }
        (s, p) => return Err(ParamError::new("mode", p.kind(), format!("the state is a {} state", s.kind())).into()),
    })
}

/// Degrees the dye's hue turns from one smoke splat to the next (a drag of ~120 splats goes
/// round the colour wheel once).
const HUE_PER_SPLAT: f32 = 3.0;
