//! One running model of either kind, for the runner and the viewer: step, summarise, save,
//! draw. Keeps the commands free of per-model branches.

use super::{Field, Mode, Result, SimArgs};
use eddy::Simulation;
use eddy::gas::GpuGas;
use eddy::gpu::Gpu;
use eddy::render::{GasField, GasRenderer, SmokeField, SmokeRenderer, WaterRenderer};
use eddy::smoke::GpuSmoke;
use eddy::water::GpuWater;
use std::path::Path;

/// A model on the GPU.
pub enum Sim {
    /// The water automaton.
    Water(GpuWater),
    /// The Eulerian smoke (boxed: it is several times the size of the others).
    Smoke(Box<GpuSmoke>),
    /// The gas automaton.
    Gas(GpuGas),
}

/// Totals printed after a run and shown in the viewer's title.
pub struct Summary {
    /// Total mass (water) or total density (gas, smoke).
    pub mass: f64,
    /// A one-line description of the state.
    pub line: String,
    /// Smoke: L2 norm of the divergence after the last projection.
    pub divergence: Option<f64>,
}

impl Sim {
    /// Builds the model `args.mode` from `args`' scene or state and parameters.
    pub fn new(gpu: &Gpu, args: &SimArgs, mode: Mode) -> Result<Self> {
        let max_side = gpu.device.limits().max_texture_dimension_2d;
        Ok(match mode {
            Mode::Water => {
                Sim::Water(GpuWater::new(&gpu.device, &gpu.queue, &args.water_state(max_side)?, args.water_params()?)?)
            }
            Mode::Smoke => {
                let state = args.smoke_state(max_side)?;
                Sim::Smoke(Box::new(GpuSmoke::new(&gpu.device, &gpu.queue, &state, args.smoke_params()?)?))
            }
            Mode::Gas => {
                Sim::Gas(GpuGas::new(&gpu.device, &gpu.queue, &args.gas_state(max_side)?, args.gas_params()?)?)
            }
        })
    }

    /// `(W, H)` in cells.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Sim::Water(s) => s.size(),
            Sim::Smoke(s) => s.size(),
            Sim::Gas(s) => s.size(),
        }
    }

    /// Submits `n` steps.
    pub fn step(&mut self, n: u32) -> Result {
        match self {
            Sim::Water(s) => s.step(n)?,
            Sim::Smoke(s) => s.step(n)?,
            Sim::Gas(s) => s.step(n)?,
        }
        Ok(())
    }

    /// Reads the state back and summarises it; fails if anything became non-finite.
    pub fn summary(&mut self) -> Result<Summary> {
        let mut divergence = None;
        let (mass, line) = match self {
            Sim::Water(s) => {
                let st = s.stats()?;
                (st.total_mass, format!("total mass {:.4}, wet cells {}", st.total_mass, st.wet_cells))
            }
            Sim::Smoke(s) => {
                let st = s.stats()?;
                divergence = Some(st.divergence_l2);
                (
                    st.total_density,
                    format!(
                        "total density {:.4}, density centroid row {:.2}, max speed {:.3} cells/time unit, divergence L2 after projection {:.4}",
                        st.total_density, st.density_centroid_row, st.max_speed, st.divergence_l2
                    ),
                )
            }
            Sim::Gas(s) => {
                let st = s.stats()?;
                let (px, py) = st.total_momentum;
                (
                    st.total_mass,
                    format!(
                        "total mass {:.4}, total momentum ({px:.4}, {py:.4}), min density {:.4}, max speed {:.3} cells/step",
                        st.total_mass, st.min_density, st.max_speed
                    ),
                )
            }
        };
        if !mass.is_finite() || divergence.is_some_and(|d| !d.is_finite()) {
            return Err("the simulation produced non-finite values; check the parameters".into());
        }
        Ok(Summary { mass, line, divergence })
    }

    /// Writes the state as `.npz`.
    pub fn save(&mut self, path: &Path) -> Result {
        match self {
            Sim::Water(s) => s.read_state()?.save_npz(path)?,
            Sim::Smoke(s) => s.read_state()?.save_npz(path)?,
            Sim::Gas(s) => s.read_state()?.save_npz(path)?,
        }
        Ok(())
    }
}

/// The renderer matching a [`Sim`].
pub enum Painter {
    /// For water.
    Water(WaterRenderer),
    /// For smoke, with the field shown.
    Smoke(SmokeRenderer, SmokeField),
    /// For gas, with the field shown.
    Gas(GasRenderer, GasField),
}

impl Painter {
    /// A renderer for `mode` drawing into `format` targets.
    pub fn new(device: &wgpu::Device, mode: Mode, format: wgpu::TextureFormat, field: Field) -> Self {
        match mode {
            Mode::Water => Painter::Water(WaterRenderer::new(device, format)),
            Mode::Smoke => Painter::Smoke(SmokeRenderer::new(device, format), field.smoke()),
            Mode::Gas => Painter::Gas(GasRenderer::new(device, format), field.gas()),
        }
    }

    /// Records a draw of `sim` filling `target`.
    pub fn draw(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        size: (u32, u32),
        sim: &Sim,
    ) {
        match (self, sim) {
            (Painter::Water(r), Sim::Water(s)) => r.draw(&gpu.device, &gpu.queue, encoder, target, size, s),
            (Painter::Smoke(r, field), Sim::Smoke(s)) => {
                r.draw(&gpu.device, &gpu.queue, encoder, target, size, s, *field)
            }
            (Painter::Gas(r, field), Sim::Gas(s)) => r.draw(&gpu.device, &gpu.queue, encoder, target, size, s, *field),
            _ => unreachable!("a painter is always made for its sim's mode"),
        }
    }
}
