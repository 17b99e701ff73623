//! From `SimArgs` to what a run starts with: the model (given, or inferred from `--load` or the
//! preset), its parameters from the tables, and the starting state; every inconsistency in the
//! command line is a usage error naming what to change.

use super::{Result, SimArgs, usage};
use eddy::gpu::Gpu;
use eddy::model::{AnyState, ModelKind, ModelParams, memory};
use eddy::scene::{SceneError, SceneSource};

/// What a run starts from.
pub struct Setup {
    /// The model.
    pub kind: ModelKind,
    /// Its parameters: the defaults with the options given.
    pub params: ModelParams,
    /// Where it starts: a scene to build, or a state already loaded (with its step).
    pub origin: Origin,
}

/// Where a run starts.
pub enum Origin {
    /// A scene file or preset, built at `size` with `seed`.
    Scene(SceneSource),
    /// A state loaded from `--load`, and the step it was saved at.
    State(Box<AnyState>, u64),
}

impl SimArgs {
    /// Works out the model and its parameters and checks the command line is consistent:
    /// `--scene` and `--load` together, a preset or an option of another model, a value out of
    /// its range are usage errors. Reads `--load` (which can tell the model).
    pub fn setup(&self) -> Result<Setup> {
        if self.scene.is_some() && self.load.is_some() {
            return Err(usage("--scene and --load both say where the run starts: give one of them"));
        }
        let preset = self.scene.as_deref().and_then(ModelKind::owning_preset);
        let (kind, origin) = match &self.load {
            Some(path) => {
                let (state, step) = AnyState::load_npz(path, self.mode)?;
                (state.kind(), Origin::State(Box::new(state), step))
            }
            None => {
                let kind = self.mode.or(preset).unwrap_or(ModelKind::Water);
                let name = self.scene.as_deref().unwrap_or(kind.default_scene());
                (kind, Origin::Scene(SceneSource::parse(name)?))
            }
        };
        if let (Some(owner), Some(name)) = (preset, &self.scene)
            && owner != kind
            && matches!(origin, Origin::Scene(SceneSource::Preset(_)))
        {
            return Err(usage(format!(
                "--scene {name} is a {owner} preset, and this run is {kind}: use --mode {owner} (or drop --mode), \
                 or one of {kind}'s presets: {}",
                kind.info().presets.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
            )));
        }
        let mut params = ModelParams::defaults(kind);
        for (owner, info, value) in &self.params.given {
            if *owner != kind {
                return Err(usage(format!(
                    "--{} is a {owner} option, and this run is {kind}: use --mode {owner}, or drop --{}",
                    info.name, info.name
                )));
            }
            params.set(info.name, *value).map_err(usage)?;
        }
        params.check().map_err(usage)?;
        Ok(Setup { kind, params, origin })
    }
}

impl Setup {
    /// `(W, H)` of the grid the run will have, without building it (the PNG's header, the
    /// preset size, the loaded state's shape).
    pub fn size(&self, args: &SimArgs) -> Result<(usize, usize)> {
        match &self.origin {
            Origin::State(state, _) => {
                let (h, w) = state.shape();
                Ok((w, h))
            }
            Origin::Scene(SceneSource::Preset(_)) => Ok(args.size),
            Origin::Scene(SceneSource::Png(path)) => {
                let (w, h) = image::image_dimensions(path)
                    .map_err(|source| SceneError::Image { path: path.clone(), source })
                    .map_err(|e| match std::fs::metadata(path) {
                        Err(io) => SceneError::Io { path: path.clone(), source: io },
                        Ok(_) => e,
                    })?;
                Ok((w as usize, h as usize))
            }
        }
    }

    /// Checks the grid fits the adapter (texture limit, memory with `extras`), then builds the
    /// starting state.
    pub fn state(self, args: &SimArgs, gpu: &Gpu, extras: memory::Extras) -> Result<(AnyState, u64)> {
        let (w, h) = self.size(args)?;
        let limits = gpu.device.limits();
        eddy::gpu::check_grid_size(&gpu.device, w, h).map_err(usage)?;
        memory::check(self.kind, (w, h), extras, Some(&gpu.adapter.get_info()), &limits).map_err(usage)?;
        Ok(match self.origin {
            Origin::State(state, step) => (*state, step),
            Origin::Scene(source) => (AnyState::start(&source, (w, h), args.seed, &self.params)?, 0),
        })
    }

    /// What the run starts from, for messages.
    pub fn describe(&self, args: &SimArgs) -> String {
        match (&self.origin, &args.load) {
            (Origin::State(_, step), Some(p)) => format!("state {} (step {step})", p.display()),
            (Origin::Scene(s @ SceneSource::Preset(_)), _) => format!("{s} at {}x{}", args.size.0, args.size.1),
            (Origin::Scene(s), _) => s.to_string(),
            (Origin::State(..), None) => "a state".to_string(),
        }
    }
}
