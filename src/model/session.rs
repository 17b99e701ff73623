//! [`Session`]: every model at once, as the viewer and a scripted run hold them. One slot per
//! model, each created on first use and keeping its state when another is shown; the parameters
//! each is (re)made with; which one is current; and the [`Action`]s that change them (from the
//! viewer's panel, its keys, or a script), applied in one place.

use super::Action;
use super::tools::Stroke;
use super::{AnyModel, AnyState, ModelKind, ModelParams, Value, memory};
use crate::error::Error;
use crate::gpu::{GpuError, GpuTime, StepTimer};
use crate::scene::SceneSource;
use std::collections::BTreeMap;

/// Where the first model starts.
#[derive(Clone)]
pub enum Start {
    /// A scene file or preset. A PNG applies to every model that can read it; a preset to its own
    /// model, the others starting on their default preset at the same size.
    Scene(SceneSource),
    /// A loaded state and its step; the other models start on their default preset at its size.
    State(Box<AnyState>, u64),
}

/// What a [`Session`] is made with.
#[derive(Clone)]
pub struct SessionOptions {
    /// The first model's parameters (which model, too); the others start with their defaults.
    pub params: ModelParams,
    /// Where the first model starts.
    pub start: Start,
    /// Grid size `(W, H)` of presets, cells.
    pub size: (usize, usize),
    /// Seed of the `random` preset.
    pub seed: u64,
}

/// What an applied [`Action`] leaves to the front end (files and pauses are theirs).
#[derive(Debug, PartialEq)]
pub enum Done {
    /// Nothing more to do.
    Applied,
    /// Parameters of `model` changed: each `(name, before, after)` as the CLI writes values,
    /// those set and those that moved with them, in the table's order.
    Set(ModelKind, Vec<(&'static str, String, String)>),
    /// The front end's to do: a screenshot, a GIF, a save, a pause.
    Front,
}

/// [`Done::Set`]'s changes as one line: `flux rusanov -> central, diffusion 0.05 -> 0.1`, or
/// `no change`.
pub fn changes(changed: &[(&'static str, String, String)]) -> String {
    if changed.is_empty() {
        return "no change".to_string();
    }
    changed.iter().map(|(name, before, after)| format!("{name} {before} -> {after}")).collect::<Vec<_>>().join(", ")
}

/// The models' slots (eddy's and those registered), their parameters and the current one; see
/// the module docs.
pub struct Session {
    device: wgpu::Device,
    queue: wgpu::Queue,
    adapter: wgpu::Adapter,
    info: wgpu::AdapterInfo,
    options: SessionOptions,
    slots: BTreeMap<ModelKind, Slot>,
    current: ModelKind,
    /// Steps taken by all models since the session began (a script's clock).
    steps: u64,
    /// Times each [`Session::step`] where the device has timestamp queries.
    timer: Option<StepTimer>,
    /// How every model is drawn ([`Session::set_look`]).
    look: crate::render::Look,
    /// Whether the water sleeps ([`Session::set_sleep`]).
    sleep: bool,
}

/// One model's place in a [`Session`].
struct Slot {
    /// The model, once made.
    model: Option<AnyModel>,
    /// The parameters it is (re)made with.
    params: ModelParams,
    /// Where it starts when reset, once it was restarted or loaded since the session began
    /// (`None`: [`SessionOptions::start`] or the model's default preset).
    origin: Option<Start>,
    /// The size its restarted scene was made at.
    size: (usize, usize),
}

/// The tag of `kind`'s steps in the step timer.
fn tag(kind: ModelKind) -> u32 {
    kind.index() as u32
}

impl Session {
    /// Makes the first model (`options.params`' model) and makes it current.
    ///
    /// # Errors
    /// As [`AnyModel::new`] and [`AnyState::start`] for the first model; an adapter that lacks
    /// what it needs ([`crate::gpu::Requirements::lacks`]); [`memory::check`]'s refusal.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        adapter: &wgpu::Adapter,
        options: SessionOptions,
    ) -> Result<Self, Error> {
        let kind = options.params.kind();
        let mut session = Session {
            device: device.clone(),
            queue: queue.clone(),
            adapter: adapter.clone(),
            info: adapter.get_info(),
            options,
            slots: BTreeMap::new(),
            current: kind,
            steps: 0,
            timer: StepTimer::new(device, queue),
            look: crate::render::Look::Map,
            sleep: false,
        };
        session.slot_mut(kind).params = session.options.params;
        session.switch(kind)?;
        Ok(session)
    }

    /// `kind`'s slot, made with its defaults on first use.
    fn slot_mut(&mut self, kind: ModelKind) -> &mut Slot {
        let size = self.options.size;
        self.slots.entry(kind).or_insert_with(|| Slot {
            model: None,
            params: ModelParams::defaults(kind),
            origin: None,
            size,
        })
    }

    fn slot(&self, kind: ModelKind) -> Option<&Slot> {
        self.slots.get(&kind)
    }

    /// Brings free bodies to where the GPU has them before the bodies are rewritten whole
    /// (natively, waiting for it; in a browser they are where the last read of the forces found
    /// them).
    fn sync_free_bodies(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        if let Err(e) = self.model().sync_bodies() {
            log::warn!("the free bodies stay where they were last read: {e}");
        }
    }

    /// The current model.
    pub fn model(&mut self) -> &mut AnyModel {
        let current = self.current;
        self.slot_mut(current).model.as_mut().expect("the current model exists")
    }

    /// The current model, shared.
    pub fn model_ref(&self) -> &AnyModel {
        self.slot(self.current).and_then(|s| s.model.as_ref()).expect("the current model exists")
    }

    /// Which model is current.
    pub fn current(&self) -> ModelKind {
        self.current
    }

    /// Whether `kind` has been created (switching to it keeps its state).
    pub fn has(&self, kind: ModelKind) -> bool {
        self.slot(kind).is_some_and(|s| s.model.is_some())
    }

    /// Steps taken by all models since the session began.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Grid size of presets, `(W, H)` cells.
    pub fn size(&self) -> (usize, usize) {
        self.options.size
    }

    /// Runs `n` steps of the current model (recorded, not waited for), timed on the GPU where
    /// the device has timestamp queries ([`Session::gpu_time`]). A multigrid solve's V-cycle
    /// count is planned at fixed steps ([`super::Runner::step_in_runs`]), which waits for the GPU there.
    ///
    /// # Errors
    /// As [`super::Runner::step_in_runs`]; the steps before the error count as run.
    pub fn step(&mut self, n: u32) -> Result<(), GpuError> {
        if n == 0 {
            return Ok(());
        }
        let tag = tag(self.current);
        let current = self.current;
        let model = self.slots.get_mut(&current).and_then(|s| s.model.as_mut()).expect("the current model exists");
        let before = model.steps_done();
        let result = model.step_timed(n, self.timer.as_mut(), tag);
        self.steps += model.steps_done() - before;
        result
    }

    /// Whether steps are timed on the GPU: the device was opened with
    /// [`wgpu::Features::TIMESTAMP_QUERY`] ([`crate::gpu::Gpu`] asks for it where the adapter has it).
    pub fn timed(&self) -> bool {
        self.timer.is_some()
    }

    /// The current model's mean GPU time per step over the steps whose timestamps arrived since
    /// the last call (from timestamp queries written before and after each [`Session::step`]'s
    /// passes; see [`StepTimer`]). Does not wait: `None` when none arrived yet, or when steps
    /// are not timed ([`Session::timed`]).
    pub fn gpu_time(&mut self) -> Option<GpuTime> {
        let tag = tag(self.current);
        self.timer.as_mut()?.take(tag)
    }

    /// Makes `kind` current, creating it on first use: from the loaded state or the scene when
    /// it is the model the session started with, else from the scene if it is a PNG this model
    /// can read, else from its default preset at the same size.
    ///
    /// # Errors
    /// Why `kind` cannot start (an adapter that lacks what it needs, a grid too large for it, a
    /// scene it cannot read); the current model stays current and runs on.
    pub fn switch(&mut self, kind: ModelKind) -> Result<(), Error> {
        if !self.has(kind) {
            let model = self.create(kind)?;
            self.slot_mut(kind).model = Some(model);
        }
        self.current = kind;
        Ok(())
    }

    fn create(&self, kind: ModelKind) -> Result<AnyModel, Error> {
        let lacks = ModelKind::requirements(&[kind]).lacks(&self.adapter);
        if !lacks.is_empty() {
            return Err(Error::Message(format!("{kind} cannot start: this adapter lacks {}", lacks.join(", "))));
        }
        let o = &self.options;
        let (params, origin, size) = match self.slot(kind) {
            Some(s) => (s.params, s.origin.as_ref(), s.size),
            None => (ModelParams::defaults(kind), None, o.size),
        };
        let first = o.params.kind() == kind;
        let preset = || AnyState::start(&SceneSource::Preset(kind.default_scene().into()), o.size, o.seed, &params);
        let (state, step) = match origin.unwrap_or(&o.start) {
            Start::Scene(source) if origin.is_some() => (AnyState::start(source, size, o.seed, &params)?, 0),
            Start::State(state, step) if first || origin.is_some() => ((**state).clone(), *step),
            Start::Scene(source) if first => (AnyState::start(source, o.size, o.seed, &params)?, 0),
            // A PNG serves every model that can read its colours (red sources are not water's).
            Start::Scene(source @ SceneSource::Png(_)) => {
                (AnyState::start(source, o.size, o.seed, &params).or_else(|_| preset())?, 0)
            }
            _ => (preset()?, 0),
        };
        let (h, w) = state.shape();
        memory::check(kind, (w, h), memory::Extras::default(), Some(&self.info), &self.device.limits())?;
        let mut model = AnyModel::new(&self.device, &self.queue, &state, &params, step)?;
        model.set_look(self.look);
        model.set_sleep(self.sleep)?;
        Ok(model)
    }

    /// How the models are drawn ([`crate::render::Look`]; the map, until set).
    pub fn look(&self) -> crate::render::Look {
        self.look
    }

    /// Draws every model, those made later too, with `look` from now on.
    pub fn set_look(&mut self, look: crate::render::Look) {
        self.look = look;
        for slot in self.slots.values_mut() {
            if let Some(model) = slot.model.as_mut() {
                model.set_look(look);
            }
        }
    }

    /// Whether the water sleeps ([`Session::set_sleep`]).
    pub fn sleep(&self) -> bool {
        self.sleep
    }

    /// From now on the water, made now or later, steps only the tiles where something can change
    /// (`true`) or every cell ([`AnyModel::set_sleep`]); the other models step every cell.
    ///
    /// # Errors
    /// As [`AnyModel::set_sleep`]; nothing changes.
    pub fn set_sleep(&mut self, sleep: bool) -> Result<(), Error> {
        let was = self.sleep;
        for slot in self.slots.values_mut() {
            if let Some(model) = slot.model.as_mut()
                && let Err(e) = model.set_sleep(sleep)
            {
                // Everything stays as it was (stepping every cell needs nothing built).
                for model in self.slots.values_mut().filter_map(|s| s.model.as_mut()) {
                    let _ = model.set_sleep(was);
                }
                return Err(e);
            }
        }
        self.sleep = sleep;
        Ok(())
    }

    /// Starts the current model's scene again with its parameters as they are now, keeping the
    /// field shown, its colour map and the brush.
    ///
    /// # Errors
    /// As [`Self::switch`].
    pub fn reset(&mut self) -> Result<(), Error> {
        let current = self.current;
        let old = self.model_ref();
        let (params, view, map, brush) = (old.params(), old.view(), old.colour_map(), old.chosen_brush());
        self.slot_mut(current).params = params;
        let mut model = self.create(current)?;
        model.set_view(view).map_err(Error::Message)?;
        model.set_colour_map(map);
        model.set_brush_radius(brush);
        self.slot_mut(current).model = Some(model);
        Ok(())
    }

    /// The current model's parameters back to their defaults (the state is kept).
    ///
    /// # Errors
    /// As [`AnyModel::set_params`].
    pub fn reset_params(&mut self) -> Result<(), Error> {
        let defaults = ModelParams::defaults(self.current);
        self.model().set_params(defaults)
    }

    /// Replaces the current model's state with `state` (a dropped `.npz` or PNG scene): the model
    /// `state` belongs to becomes current, made anew at the state's size with `params` (those a
    /// state file was saved with) when they are that model's, else its present parameters, and
    /// its field and colour map. Nothing changes on error.
    ///
    /// # Errors
    /// As [`AnyModel::new`] and [`memory::check`].
    pub fn replace(&mut self, state: &AnyState, step: u64, params: Option<ModelParams>) -> Result<(), Error> {
        let kind = state.kind();
        let params = match (params, self.slot(kind)) {
            (Some(p), _) if p.kind() == kind => p,
            (_, Some(Slot { model: Some(m), .. })) => m.params(),
            (_, Some(s)) => s.params,
            (_, None) => ModelParams::defaults(kind),
        };
        let (h, w) = state.shape();
        memory::check(kind, (w, h), memory::Extras::default(), Some(&self.info), &self.device.limits())?;
        let mut model = AnyModel::new(&self.device, &self.queue, state, &params, step)?;
        model.set_look(self.look);
        model.set_sleep(self.sleep)?;
        if let Some(old) = self.slot(kind).and_then(|s| s.model.as_ref()) {
            model.set_view(old.view()).map_err(Error::Message)?;
            model.set_colour_map(old.colour_map());
            model.set_brush_radius(old.chosen_brush());
        }
        let slot = self.slot_mut(kind);
        slot.model = Some(model);
        slot.origin = Some(Start::State(Box::new(state.clone()), step));
        self.current = kind;
        Ok(())
    }

    /// Starts the current model on `scene` (a preset or PNG) at `size` `(W, H)` cells (a PNG
    /// keeps its own size), with its present parameters, or with the parameter set a preset is
    /// made for (smoke's `cavity` and `channel`, gas's `tunnel`, as `--scene` starts them); R
    /// then starts this scene again.
    /// Nothing changes on error.
    ///
    /// # Errors
    /// [`Error::Message`] for a preset of another model; as [`AnyState::start`] (an unknown
    /// preset, an unreadable PNG, a bad size) and [`Self::replace`].
    pub fn restart(&mut self, scene: &SceneSource, size: (usize, usize)) -> Result<(), Error> {
        let kind = self.current;
        if let SceneSource::Preset(name) = scene {
            kind.own_preset(name).map_err(Error::Message)?;
        }
        // A preset made for a parameter set (smoke's cavity and channel, gas's tunnel) starts
        // with it, as `--scene` does; any other keeps the parameters as they are.
        let mut params = self.model_ref().params();
        let set = match scene {
            SceneSource::Preset(name) => params.apply_scene_preset(name),
            _ => false,
        };
        let state = AnyState::start(scene, size, self.options.seed, &params)?;
        self.replace(&state, 0, set.then_some(params))?;
        let slot = self.slot_mut(kind);
        slot.origin = Some(Start::Scene(scene.clone()));
        slot.size = size;
        Ok(())
    }

    /// Applies one action to the models. Screenshots, GIFs, saves and pauses are the front
    /// end's ([`Done::Front`]); so are strokes' pixels (a script's strokes are in cells already).
    ///
    /// # Errors
    /// A model that cannot start, a parameter that is not the current model's or is out of its
    /// range, a field the model does not have; nothing changes on error.
    pub fn apply(&mut self, action: &Action) -> Result<Done, Error> {
        match action {
            Action::Model(kind) => self.switch(*kind)?,
            Action::Set(name, value) => return self.set(&[(name, *value)], true),
            Action::SetAll(values) => return self.set(values, false),
            Action::View(name) => self.model().set_view(name).map_err(Error::Message)?,
            Action::ColourMap(map) => self.model().set_colour_map(*map),
            Action::Look(look) => self.set_look(*look),
            Action::Brush(radius) => self.model().set_brush_radius(*radius),
            Action::Reset => self.reset()?,
            Action::Defaults => self.reset_params()?,
            Action::Stroke(stroke) => self.model().stroke(stroke)?,
            Action::Path { tool, erase, points } => {
                for pair in points.windows(2) {
                    let stroke = Stroke { from: pair[0], to: pair[1], tool: *tool, erase: *erase };
                    self.model().stroke(&stroke)?;
                }
                if let [only] = points[..] {
                    self.model().stroke(&Stroke { from: only, to: only, tool: *tool, erase: *erase })?;
                }
            }
            Action::Click(at) => self.model().click(*at),
            Action::AddBody(body) => {
                self.sync_free_bodies();
                let mut bodies = self.model().bodies().to_vec();
                bodies.push(*body);
                self.model().set_bodies(&bodies)?;
            }
            Action::Drive { body, velocity, spin } => self.model().drive_body(*body, *velocity, *spin)?,
            Action::RemoveBody(index) => {
                self.sync_free_bodies();
                let mut bodies = self.model().bodies().to_vec();
                crate::body::remove(&mut bodies, *index)?;
                self.model().set_bodies(&bodies)?;
            }
            Action::Pause(_)
            | Action::Screenshot(..)
            | Action::Record { .. }
            | Action::Save(_)
            | Action::Quit
            | Action::Window(..) => {
                return Ok(Done::Front);
            }
        }
        Ok(Done::Applied)
    }

    /// Sets `values` on the current model: `fitted`, as an interactive control does (one value;
    /// tied parameters move with it, [`super::ParamTable::set_fitted`]), or else as the command
    /// line does (every row, then the limits that tie them, and nothing else moves). Reports
    /// every parameter that changed. Nothing changes on error.
    fn set(&mut self, values: &[(&str, Value)], fitted: bool) -> Result<Done, Error> {
        let kind = self.current;
        let before = self.model().params();
        let mut params = before;
        for &(name, value) in values {
            if !kind.params().iter().any(|p| p.name == name) {
                let names = kind.param_names();
                return Err(Error::Message(format!("{kind} has no parameter {name:?}; its parameters: {names}")));
            }
            if fitted {
                params.set_fitted(name, value)?;
            } else {
                params.set_row_only(name, value)?;
            }
        }
        params.check()?;
        self.model().set_params(params)?;
        let after = self.model().params();
        let changed = kind
            .params()
            .into_iter()
            .filter_map(|info| {
                let (b, a) = (before.get(info.name)?, after.get(info.name)?);
                (b != a).then(|| (info.name, info.format(b), info.format(a)))
            })
            .collect();
        Ok(Done::Set(kind, changed))
    }

    /// The bodies `kind` holds now (none in a model not made yet: its start has none of the
    /// command line's, which are the first model's).
    pub fn bodies_of(&self, kind: ModelKind) -> Vec<crate::body::Body> {
        self.slot(kind).and_then(|s| s.model.as_ref()).map_or_else(Vec::new, |m| m.bodies().to_vec())
    }

    /// The parameters `kind` runs with (or will, once made current).
    pub fn params_of(&self, kind: ModelKind) -> ModelParams {
        match self.slot(kind) {
            Some(Slot { model: Some(model), .. }) => model.params(),
            Some(s) => s.params,
            None => ModelParams::defaults(kind),
        }
    }
}
