//! `eddy run`: the headless runner.

use super::{Result, RunArgs};
use eddy::Simulation;
use eddy::gpu::Gpu;
use eddy::render::FrameRenderer;
use eddy::water::GpuWater;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Instant;

/// Most steps recorded into one command buffer between progress updates.
const MAX_CHUNK: u64 = 256;

pub fn run(args: RunArgs) -> Result {
    let params = args.sim.water_params()?;
    if args.every == 0 {
        return Err("--every must be at least 1 step".into());
    }
    if args.scale == 0 || args.scale > 64 {
        return Err("--scale must be 1..=64 pixels per cell".into());
    }
    let gpu = Gpu::headless()?;
    eprintln!("adapter: {}", gpu.adapter_label());
    let state = args.sim.initial_state(gpu.device.limits().max_texture_dimension_2d)?;
    let (h, w) = state.shape();
    let start_mass = state.stats(params.min_mass).total_mass;
    let mut sim = GpuWater::new(&gpu.device, &gpu.queue, &state, params)?;
    eprintln!(
        "water: {} ({w}x{h} cells), {} steps, {:?} rules, {:?} boundary",
        args.sim.describe_start(),
        args.steps,
        args.sim.preset,
        params.boundary
    );

    let frames = match &args.frames {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create frame directory {}: {e}", dir.display()))?;
            Some((dir, FrameRenderer::new(&gpu.device, (w as u32, h as u32), args.scale)?))
        }
        None => None,
    };
    let save_frame = |sim: &GpuWater, step: u64| -> Result {
        if let Some((dir, renderer)) = &frames {
            let path = dir.join(format!("frame_{step:06}.png"));
            renderer
                .render(&gpu.device, &gpu.queue, sim)?
                .save(&path)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    };
    save_frame(&sim, 0)?;

    let bar = ProgressBar::new(args.steps).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} steps  {per_sec}  eta {eta}").expect("static template"),
    );
    let chunk =
        if frames.is_some() { args.every.min(MAX_CHUNK) } else { MAX_CHUNK.min(args.steps.div_ceil(100).max(1)) };
    let started = Instant::now();
    let mut done = 0u64;
    while done < args.steps {
        let mut n = chunk.min(args.steps - done);
        if frames.is_some() {
            n = n.min(args.every - done % args.every); // land exactly on frame steps
        }
        sim.step(n as u32)?;
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(eddy::gpu::GpuError::from)?;
        gpu.check()?;
        done += n;
        bar.set_position(done);
        if done.is_multiple_of(args.every) || done == args.steps {
            save_frame(&sim, done)?;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    bar.finish_and_clear();
    gpu.check()?;

    let state = sim.read_state()?;
    let stats = state.stats(params.min_mass);
    if !stats.total_mass.is_finite() {
        return Err("the simulation produced non-finite masses; check the parameters".into());
    }
    let rate = args.steps as f64 / elapsed.max(1e-9);
    println!(
        "ran {} steps in {elapsed:.2} s: {rate:.1} steps/s, {:.1} Mcells/s (including progress syncs)",
        args.steps,
        rate * (w * h) as f64 / 1e6
    );
    println!(
        "total mass {:.4} (start {start_mass:.4}, change {:+.3e}), wet cells {}",
        stats.total_mass,
        stats.total_mass - start_mass,
        stats.wet_cells
    );
    if let Some(path) = &args.save {
        state.save_npz(path)?;
        println!("saved {}", path.display());
    }
    if let Some(dir) = &args.frames {
        println!("frames in {}", dir.display());
    }
    Ok(())
}
