//! [`BuiltIn`]: eddy's own models as one [`GpuModel`], whose state, parameters and statistics
//! are [`AnyState`], [`ModelParams`] and [`AnyStats`]. The registry's one dispatch: each
//! operation goes to the model inside through its own [`GpuModel`] implementation
//! (`each_model!`, in `model/mod.rs`, lists the models once for every such match).

use super::ModelKind;
use super::state::{AnyState, AnyStats, ModelParams};
use crate::body::Body;
use crate::error::{Error, ParamError};
use crate::gas::GpuGas;
use crate::gpu::GpuError;
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::smoke::GpuSmoke;
use crate::water::GpuWater;

/// One of eddy's models on the GPU.
pub enum BuiltIn {
    /// [`crate::water`].
    Water(Box<GpuWater>),
    /// [`crate::smoke`].
    Smoke(Box<GpuSmoke>),
    /// [`crate::gas`].
    Gas(Box<GpuGas>),
}

/// `params` unwrapped for `$model`'s own type, or the error that they are another model's.
macro_rules! params_for {
    ($model:expr, $params:expr, $m:ident, $p:ident => $body:expr) => {
        match ($model, $params) {
            (BuiltIn::Water($m), ModelParams::Water($p)) => $body,
            (BuiltIn::Smoke($m), ModelParams::Smoke($p)) => $body,
            (BuiltIn::Gas($m), ModelParams::Gas($p)) => $body,
            (m, p) => Err(ParamError::new("mode", p.kind(), format!("this model is {}", m.kind())).into()),
        }
    };
}

impl BuiltIn {
    /// Which model.
    pub fn kind(&self) -> ModelKind {
        match self {
            BuiltIn::Water(_) => ModelKind::Water,
            BuiltIn::Smoke(_) => ModelKind::Smoke,
            BuiltIn::Gas(_) => ModelKind::Gas,
        }
    }
}

impl GpuModel for BuiltIn {
    type State = AnyState;
    type Params = ModelParams;
    type Stats = AnyStats;
    const NAME: &'static str = "water, smoke or gas";

    /// # Errors
    /// As each model's constructor; [`Error::Param`] when `params` are another model's than
    /// `state`.
    fn new(device: &wgpu::Device, queue: &wgpu::Queue, state: &AnyState, params: ModelParams) -> Result<Self, Error> {
        Ok(match (state, params) {
            (AnyState::Water(s), ModelParams::Water(p)) => {
                BuiltIn::Water(Box::new(GpuWater::new(device, queue, s, p)?))
            }
            (AnyState::Smoke(s), ModelParams::Smoke(p)) => {
                BuiltIn::Smoke(Box::new(GpuSmoke::new(device, queue, s, p)?))
            }
            (AnyState::Gas(s), ModelParams::Gas(p)) => BuiltIn::Gas(Box::new(GpuGas::new(device, queue, s, p)?)),
            (s, p) => {
                return Err(ParamError::new("mode", p.kind(), format!("the state is a {} state", s.kind())).into());
            }
        })
    }

    fn device(&self) -> &wgpu::Device {
        each_model!(BuiltIn, self, m => m.device())
    }

    fn queue(&self) -> &wgpu::Queue {
        each_model!(BuiltIn, self, m => m.queue())
    }

    fn size(&self) -> (u32, u32) {
        each_model!(BuiltIn, self, m => m.size())
    }

    fn params(&self) -> ModelParams {
        match self {
            BuiltIn::Water(m) => ModelParams::Water(m.params()),
            BuiltIn::Smoke(m) => ModelParams::Smoke(m.params()),
            BuiltIn::Gas(m) => ModelParams::Gas(m.params()),
        }
    }

    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: ModelParams) -> Result<(), Error> {
        params_for!(self, params, m, p => m.encode_params(encoder, p))
    }

    fn set_params(&mut self, params: ModelParams) -> Result<(), Error> {
        params_for!(self, params, m, p => m.set_params(p))
    }

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        each_model!(BuiltIn, self, m => m.encode_steps(encoder, steps))
    }

    fn steps_recorded(&self) -> u64 {
        each_model!(BuiltIn, self, m => m.steps_recorded())
    }

    fn steps_to_plan(&self) -> Option<u64> {
        each_model!(BuiltIn, self, m => m.steps_to_plan())
    }

    fn plan_solver(&mut self) -> Result<(), GpuError> {
        each_model!(BuiltIn, self, m => m.plan_solver())
    }

    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder) {
        each_model!(BuiltIn, self, m => m.encode_stats(encoder))
    }

    fn stats_requested(&self) -> bool {
        each_model!(BuiltIn, self, m => m.stats_requested())
    }

    fn collect_stats(&self) -> Option<Result<AnyStats, GpuError>> {
        Some(match self {
            BuiltIn::Water(m) => m.collect_stats()?.map(AnyStats::Water),
            BuiltIn::Smoke(m) => m.collect_stats()?.map(AnyStats::Smoke),
            BuiltIn::Gas(m) => m.collect_stats()?.map(AnyStats::Gas),
        })
    }

    async fn stats_async(&self) -> Result<AnyStats, GpuError> {
        Ok(match self {
            BuiltIn::Water(m) => AnyStats::Water(m.stats_async().await?),
            BuiltIn::Smoke(m) => AnyStats::Smoke(m.stats_async().await?),
            BuiltIn::Gas(m) => AnyStats::Gas(m.stats_async().await?),
        })
    }

    fn state_reader(&self) -> impl Future<Output = Result<AnyState, GpuError>> + 'static {
        let reader: std::pin::Pin<Box<dyn Future<Output = Result<AnyState, GpuError>>>> = match self {
            BuiltIn::Water(m) => {
                let r = m.state_reader();
                Box::pin(async move { Ok(AnyState::Water(r.await?)) })
            }
            BuiltIn::Smoke(m) => {
                let r = m.state_reader();
                Box::pin(async move { Ok(AnyState::Smoke(r.await?)) })
            }
            BuiltIn::Gas(m) => {
                let r = m.state_reader();
                Box::pin(async move { Ok(AnyState::Gas(r.await?)) })
            }
        };
        reader
    }

    async fn read_state_async(&self) -> Result<AnyState, GpuError> {
        Ok(match self {
            BuiltIn::Water(m) => AnyState::Water(m.read_state_async().await?),
            BuiltIn::Smoke(m) => AnyState::Smoke(m.read_state_async().await?),
            BuiltIn::Gas(m) => AnyState::Gas(m.read_state_async().await?),
        })
    }

    fn state_textures(&self) -> Vec<&wgpu::Texture> {
        each_model!(BuiltIn, self, m => m.state_textures())
    }

    fn solid_mask(&self) -> &Grid<u8> {
        each_model!(BuiltIn, self, m => m.solid_mask())
    }

    fn source_mask(&self) -> Option<&Grid<u8>> {
        each_model!(BuiltIn, self, m => m.source_mask())
    }

    fn body_list(&self) -> &[Body] {
        each_model!(BuiltIn, self, m => m.body_list())
    }

    fn encode_bodies(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[Body]) -> Result<(), Error> {
        each_model!(BuiltIn, self, m => m.encode_bodies(encoder, bodies))
    }

    fn encode_bodies_restored(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[Body]) -> Result<(), Error> {
        each_model!(BuiltIn, self, m => m.encode_bodies_restored(encoder, bodies))
    }

    fn encode_drive(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        index: usize,
        velocity: (f32, f32),
        spin: f32,
    ) -> Result<(), Error> {
        each_model!(BuiltIn, self, m => m.encode_drive(encoder, index, velocity, spin))
    }

    fn restored(&mut self) {
        each_model!(BuiltIn, self, m => m.restored())
    }
}
