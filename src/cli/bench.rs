//! `eddy bench`: steps/s and Mcells/s of the GPU path and the CPU reference.

use super::{BenchArgs, Result};
use eddy::Simulation;
use eddy::gpu::{Gpu, GpuError};
use eddy::scene::Scene;
use eddy::water::{CpuWater, GpuWater, WaterParams, WaterState};
use std::time::Instant;

/// Median of `runs` timings of `steps` steps each, as steps/s. `sync` waits for the work.
fn measure(runs: usize, steps: u64, mut step: impl FnMut(u64) -> Result) -> Result<f64> {
    let mut rates = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        step(steps)?;
        rates.push(steps as f64 / t.elapsed().as_secs_f64());
    }
    rates.sort_by(f64::total_cmp);
    Ok(rates[rates.len() / 2])
}

/// Steps that take about `seconds`, from timing a short probe run.
fn calibrate(seconds: f64, mut step: impl FnMut(u64) -> Result) -> Result<u64> {
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        step(n)?;
        let dt = t.elapsed().as_secs_f64();
        if dt > 0.05 || n >= 1 << 16 {
            return Ok(((seconds / dt * n as f64) as u64).max(1));
        }
        n *= 4;
    }
}

pub fn bench(args: BenchArgs) -> Result {
    if args.runs == 0 || args.sizes.is_empty() || args.seconds.is_nan() || args.seconds <= 0.0 {
        return Err("--runs, --sizes and --seconds must be positive".into());
    }
    let gpu = Gpu::headless()?;
    let adapter = gpu.adapter_label();
    let params = WaterParams::default();
    println!("eddy bench: water (Elsts rules, wall boundary, `random` scene seed 1), 2 dispatches/step");
    println!("adapter: {adapter}; median of {} runs of ~{} s each", args.runs, args.seconds);
    println!();
    println!("| grid | GPU steps/s | GPU Mcells/s | CPU ref steps/s | CPU ref Mcells/s | GPU / CPU |");
    println!("|---|---|---|---|---|---|");
    for &n in &args.sizes {
        eddy::gpu::check_grid_size(&gpu.device, n, n)?;
        let state = WaterState::from_scene(&Scene::preset("random", n, n, 1)?);
        let cells = (n * n) as f64;

        let mut sim = GpuWater::new(&gpu.device, &gpu.queue, &state, params)?;
        let mut gpu_steps = |k: u64| -> Result {
            let mut left = k;
            while left > 0 {
                let c = left.min(64);
                sim.step(c as u32)?;
                left -= c;
            }
            gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(GpuError::from)?;
            Ok(gpu.check()?)
        };
        gpu_steps(20)?; // warm-up: pipelines, first-touch of memory
        let k = calibrate(args.seconds, &mut gpu_steps)?;
        let gpu_rate = measure(args.runs, k, &mut gpu_steps)?;

        let cpu_rate = if args.no_cpu {
            None
        } else {
            let mut cpu = CpuWater::new(state.clone(), params)?;
            let mut cpu_steps = |k: u64| -> Result { Ok(cpu.step(k as u32)?) };
            let k = calibrate(args.seconds, &mut cpu_steps)?;
            Some(measure(args.runs, k, &mut cpu_steps)?)
        };
        let fmt = |r: Option<f64>, scale: f64| r.map_or("-".to_string(), |r| format!("{:.1}", r * scale));
        println!(
            "| {n}x{n} | {:.1} | {:.1} | {} | {} | {} |",
            gpu_rate,
            gpu_rate * cells / 1e6,
            fmt(cpu_rate, 1.0),
            fmt(cpu_rate, cells / 1e6),
            cpu_rate.map_or("-".to_string(), |c| format!("{:.1}x", gpu_rate / c)),
        );
    }
    Ok(())
}
