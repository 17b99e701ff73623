//! [`AnyGpuModel`]: every model of the registry, eddy's own and those registered
//! ([`super::custom`]), as one [`GpuModel`], whose state, parameters and statistics are
//! [`AnyState`], [`ModelParams`] and [`AnyStats`]. The registry's one dispatch: each operation
//! goes to the model inside through its own [`GpuModel`] implementation (`each_model!`, in
//! `model/mod.rs`, lists the models once for every such match).

use super::ModelKind;
use super::custom::CustomGpu;
use super::state::{AnyState, AnyStats, ModelParams};
use crate::body::Body;
use crate::error::{Error, ParamError};
use crate::gas::GpuGas;
use crate::gpu::GpuError;
use crate::gpu_model::GpuModel;
use crate::grid::Grid;
use crate::smoke::GpuSmoke;
use crate::water::GpuWater;

/// One of the registry's models on the GPU.
pub enum AnyGpuModel {
    /// [`crate::water`].
    Water(Box<GpuWater>),
    /// [`crate::smoke`].
    Smoke(Box<GpuSmoke>),
    /// [`crate::gas`].
    Gas(Box<GpuGas>),
    /// A registered model ([`super::custom::register`]).
    Custom(CustomGpu),
}

/// `params` unwrapped for `$model`'s own type, or the error that they are another model's.
macro_rules! params_for {
    ($model:expr, $params:expr, $m:ident, $p:ident => $body:expr) => {
        match ($model, $params) {
            (AnyGpuModel::Water($m), ModelParams::Water($p)) => $body,
            (AnyGpuModel::Smoke($m), ModelParams::Smoke($p)) => $body,
            (AnyGpuModel::Gas($m), ModelParams::Gas($p)) => $body,
            (AnyGpuModel::Custom($m), ModelParams::Custom($p)) => $body,
            (m, p) => Err(ParamError::new("mode", p.kind(), format!("this model is {}", m.kind())).into()),
        }
    };
}

impl AnyGpuModel {
    /// Which model.
    pub fn kind(&self) -> ModelKind {
        match self {
            AnyGpuModel::Water(_) => ModelKind::Water,
            AnyGpuModel::Smoke(_) => ModelKind::Smoke,
            AnyGpuModel::Gas(_) => ModelKind::Gas,
            AnyGpuModel::Custom(m) => m.kind(),
        }
    }
}

impl GpuModel for AnyGpuModel {
    type State = AnyState;
    type Params = ModelParams;
    type Stats = AnyStats;
    const NAME: &'static str = "any model";

    /// # Errors
    /// As each model's constructor; [`Error::Param`] when `params` are another model's than
    /// `state`.
    fn new(device: &wgpu::Device, queue: &wgpu::Queue, state: &AnyState, params: ModelParams) -> Result<Self, Error> {
        Ok(match (state, params) {
            (AnyState::Water(s), ModelParams::Water(p)) => {
                AnyGpuModel::Water(Box::new(GpuWater::new(device, queue, s, p)?))
            }
            (AnyState::Smoke(s), ModelParams::Smoke(p)) => {
                AnyGpuModel::Smoke(Box::new(GpuSmoke::new(device, queue, s, p)?))
            }
            (AnyState::Gas(s), ModelParams::Gas(p)) => AnyGpuModel::Gas(Box::new(GpuGas::new(device, queue, s, p)?)),
            (AnyState::Custom(s), ModelParams::Custom(p)) if s.kind() == p.kind() => {
                AnyGpuModel::Custom(CustomGpu::new(device, queue, s, &p)?)
            }
            (s, p) => {
                return Err(ParamError::new("mode", p.kind(), format!("the state is a {} state", s.kind())).into());
            }
        })
    }

    fn device(&self) -> &wgpu::Device {
        each_model!(AnyGpuModel, self, m => m.device())
    }

    fn queue(&self) -> &wgpu::Queue {
        each_model!(AnyGpuModel, self, m => m.queue())
    }

    fn size(&self) -> (u32, u32) {
        each_model!(AnyGpuModel, self, m => m.size())
    }

    fn params(&self) -> ModelParams {
        match self {
            AnyGpuModel::Water(m) => ModelParams::Water(m.params()),
            AnyGpuModel::Smoke(m) => ModelParams::Smoke(m.params()),
            AnyGpuModel::Gas(m) => ModelParams::Gas(m.params()),
            AnyGpuModel::Custom(m) => ModelParams::Custom(m.params()),
        }
    }

    fn encode_params(&mut self, encoder: &mut wgpu::CommandEncoder, params: ModelParams) -> Result<(), Error> {
        params_for!(self, params, m, p => m.encode_params(encoder, p))
    }

    fn set_params(&mut self, params: ModelParams) -> Result<(), Error> {
        params_for!(self, params, m, p => m.set_params(p))
    }

    fn encode_steps(&mut self, encoder: &mut wgpu::CommandEncoder, steps: u32) {
        each_model!(AnyGpuModel, self, m => m.encode_steps(encoder, steps))
    }

    fn steps_recorded(&self) -> u64 {
        each_model!(AnyGpuModel, self, m => m.steps_recorded())
    }

    fn steps_to_plan(&self) -> Option<u64> {
        each_model!(AnyGpuModel, self, m => m.steps_to_plan())
    }

    fn plan_solver(&mut self) -> Result<(), GpuError> {
        each_model!(AnyGpuModel, self, m => m.plan_solver())
    }

    fn encode_stats(&self, encoder: &mut wgpu::CommandEncoder) {
        each_model!(AnyGpuModel, self, m => m.encode_stats(encoder))
    }

    fn stats_requested(&self) -> bool {
        each_model!(AnyGpuModel, self, m => m.stats_requested())
    }

    fn collect_stats(&self) -> Option<Result<AnyStats, GpuError>> {
        Some(match self {
            AnyGpuModel::Water(m) => m.collect_stats()?.map(AnyStats::Water),
            AnyGpuModel::Smoke(m) => m.collect_stats()?.map(AnyStats::Smoke),
            AnyGpuModel::Gas(m) => m.collect_stats()?.map(AnyStats::Gas),
            AnyGpuModel::Custom(m) => m.collect_stats()?.map(AnyStats::Custom),
        })
    }

    async fn stats_async(&self) -> Result<AnyStats, GpuError> {
        Ok(match self {
            AnyGpuModel::Water(m) => AnyStats::Water(m.stats_async().await?),
            AnyGpuModel::Smoke(m) => AnyStats::Smoke(m.stats_async().await?),
            AnyGpuModel::Gas(m) => AnyStats::Gas(m.stats_async().await?),
            AnyGpuModel::Custom(m) => AnyStats::Custom(m.stats_async().await?),
        })
    }

    fn state_reader(&self) -> impl Future<Output = Result<AnyState, GpuError>> + 'static {
        let reader: std::pin::Pin<Box<dyn Future<Output = Result<AnyState, GpuError>>>> = match self {
            AnyGpuModel::Water(m) => {
                let r = m.state_reader();
                Box::pin(async move { Ok(AnyState::Water(r.await?)) })
            }
            AnyGpuModel::Smoke(m) => {
                let r = m.state_reader();
                Box::pin(async move { Ok(AnyState::Smoke(r.await?)) })
            }
            AnyGpuModel::Gas(m) => {
                let r = m.state_reader();
                Box::pin(async move { Ok(AnyState::Gas(r.await?)) })
            }
            AnyGpuModel::Custom(m) => {
                let r = m.state_reader();
                Box::pin(async move { Ok(AnyState::Custom(r.await?)) })
            }
        };
        reader
    }

    async fn read_state_async(&self) -> Result<AnyState, GpuError> {
        Ok(match self {
            AnyGpuModel::Water(m) => AnyState::Water(m.read_state_async().await?),
            AnyGpuModel::Smoke(m) => AnyState::Smoke(m.read_state_async().await?),
            AnyGpuModel::Gas(m) => AnyState::Gas(m.read_state_async().await?),
            AnyGpuModel::Custom(m) => AnyState::Custom(m.read_state_async().await?),
        })
    }

    fn state_textures(&self) -> Vec<&wgpu::Texture> {
        each_model!(AnyGpuModel, self, m => m.state_textures())
    }
    fn hashed_textures(&self) -> Vec<&wgpu::Texture> {
        each_model!(AnyGpuModel, self, m => m.hashed_textures())
    }

    fn solid_mask(&self) -> &Grid<u8> {
        each_model!(AnyGpuModel, self, m => m.solid_mask())
    }

    fn source_mask(&self) -> Option<&Grid<u8>> {
        each_model!(AnyGpuModel, self, m => m.source_mask())
    }

    fn scalar_view(&self) -> Option<crate::gpu_model::ScalarView<'_>> {
        each_model!(AnyGpuModel, self, m => m.scalar_view())
    }

    fn body_list(&self) -> &[Body] {
        each_model!(AnyGpuModel, self, m => m.body_list())
    }

    fn refresh_bodies(&mut self) {
        match self {
            AnyGpuModel::Water(m) => m.refresh_bodies(),
            AnyGpuModel::Smoke(m) => m.refresh_bodies(),
            AnyGpuModel::Gas(m) => m.refresh_bodies(),
            // A registered model's bodies move as its own passes say.
            AnyGpuModel::Custom(_) => {}
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn sync_bodies(&mut self) -> Result<(), GpuError> {
        match self {
            AnyGpuModel::Water(m) => m.sync_bodies(),
            AnyGpuModel::Smoke(m) => m.sync_bodies(),
            AnyGpuModel::Gas(m) => m.sync_bodies(),
            AnyGpuModel::Custom(_) => Ok(()),
        }
    }

    fn force_log(&mut self) -> Option<&mut crate::body::forces::ForceLog> {
        match self {
            AnyGpuModel::Water(m) => m.force_log(),
            AnyGpuModel::Smoke(m) => m.force_log(),
            AnyGpuModel::Gas(m) => m.force_log(),
            // A registered model's bodies feel no force from eddy.
            AnyGpuModel::Custom(_) => None,
        }
    }

    fn encode_bodies(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[Body]) -> Result<(), Error> {
        each_model!(AnyGpuModel, self, m => m.encode_bodies(encoder, bodies))
    }

    fn encode_bodies_restored(&mut self, encoder: &mut wgpu::CommandEncoder, bodies: &[Body]) -> Result<(), Error> {
        each_model!(AnyGpuModel, self, m => m.encode_bodies_restored(encoder, bodies))
    }

    fn encode_drive(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        index: usize,
        velocity: (f32, f32),
        spin: f32,
    ) -> Result<(), Error> {
        each_model!(AnyGpuModel, self, m => m.encode_drive(encoder, index, velocity, spin))
    }

    fn restored(&mut self) {
        each_model!(AnyGpuModel, self, m => m.restored())
    }

    fn solver_plan(&self) -> Option<crate::solver::plan::SavedPlan> {
        each_model!(AnyGpuModel, self, m => m.solver_plan())
    }

    fn restore_solver_plan(&mut self, plan: Option<crate::solver::plan::SavedPlan>) {
        each_model!(AnyGpuModel, self, m => m.restore_solver_plan(plan))
    }
}
