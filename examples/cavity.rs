//! The lid-driven cavity at Re = 100 against Ghia, Ghia & Shin (1982): runs eddy's staggered
//! smoke (`--pipeline cavity`) on the GPU to a steady state and prints the centreline profiles
//! beside Ghia's Tables I and II, and the largest difference.
//!
//! `cargo run --release --example cavity -- [N] [STEADY_TOL]` (default 128, 1e-5).

use eddy_fluid::GpuModel;
use eddy_fluid::Simulation;
use eddy_fluid::gpu::{Gpu, Requirements};
use eddy_fluid::scene::Scene;
use eddy_fluid::smoke::{GpuSmoke, SmokeParams, SmokePreset, SmokeState, cavity};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().map_or(Ok(128), |a| a.parse())?;
    let tolerance: f32 = args.get(1).map_or(Ok(1e-5), |a| a.parse())?;
    let gpu = Gpu::headless_for(&Requirements::default())?;
    eprintln!("adapter: {}", gpu.adapter_label());
    let params = SmokeParams::preset(SmokePreset::Cavity);
    let state = SmokeState::from_scene(&Scene::preset("cavity", n, n, 0)?, 0.0);
    let mut sim = GpuSmoke::new(&gpu.device, &gpu.queue, &state, params)?;
    let clock = std::time::Instant::now();
    let steady = cavity::run_to_steady(&mut sim, &params, tolerance, 20_000.0, |_| Ok(()))?;
    eprintln!("{steady:?} in {:.1} s; {}", clock.elapsed().as_secs_f64(), sim.stats()?.solver_residual);
    let s = sim.read_state()?;
    let mut worst = 0.0f32;
    for (name, profile) in
        [("u(y), x = 1/2", cavity::u_profile(&s, params.lid)), ("v(x), y = 1/2", cavity::v_profile(&s, params.lid))]
    {
        println!("{name}: at, Ghia, eddy, difference");
        for p in profile {
            println!("  {:.4}  {:+.5}  {:+.5}  {:+.5}", p.at, p.ghia, p.eddy, p.eddy - p.ghia);
            worst = worst.max(p.error());
        }
    }
    println!("largest difference: {worst:.4} (lid speed 1)");
    Ok(())
}
