//! Run the water model headless and print its statistics: the smallest complete use of eddy.
//!
//! `cargo run --release --example headless`

use eddy_fluid::GpuModel;
use eddy_fluid::Simulation;
use eddy_fluid::gpu::Gpu;
use eddy_fluid::scene::Scene;
use eddy_fluid::water::{GpuWater, WaterParams, WaterState};

fn main() -> Result<(), eddy_fluid::Error> {
    let gpu = Gpu::headless()?;
    println!("adapter: {}", gpu.adapter_label());

    // 160x100 cells of the `basin` preset; row 0 is the top.
    let state = WaterState::from_scene(&Scene::preset("basin", 160, 100, 0)?);
    let mut sim = GpuWater::new(&gpu.device, &gpu.queue, &state, WaterParams::default())?;
    for _ in 0..5 {
        sim.step(200)?; // submits 200 steps, does not wait
        let stats = sim.stats()?; // reads the mass back (waits)
        println!("step {:5}: total mass {:.3}, wet cells {}", sim.steps_done(), stats.total_mass, stats.wet_cells);
    }
    // The fields as (H, W) grids, e.g. to save as .npz for NumPy.
    let end = sim.read_state()?;
    println!("mass at the bottom centre: {:.3}", end.mass[(end.mass.height() - 3, end.mass.width() / 2)]);
    Ok(())
}
