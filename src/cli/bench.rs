//! `eddy bench`: steps/s and Mcells/s of the GPU path and the CPU reference.

use super::{BenchArgs, Mode, Result};
use eddy::Simulation;
use eddy::gas::{CpuGas, GasParams, GasState, GpuGas};
use eddy::gpu::{Gpu, GpuError};
use eddy::scene::Scene;
use eddy::smoke::{CpuSmoke, GpuSmoke, SmokeParams, SmokeState};
use eddy::water::{CpuWater, GpuWater, WaterParams, WaterState};
use std::time::Instant;

/// Median over `runs` timings of `steps` steps each, as steps/s.
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

/// Steps that take about `seconds`, from timing short probe runs.
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

/// Median steps/s of a GPU simulation (submitted in chunks of 64, then waited for).
fn gpu_rate(gpu: &Gpu, sim: &mut impl Simulation, args: &BenchArgs) -> Result<f64> {
    let mut steps = |k: u64| -> Result {
        let mut left = k;
        while left > 0 {
            let c = left.min(64);
            sim.step(c as u32)?;
            left -= c;
        }
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(GpuError::from)?;
        Ok(gpu.check()?)
    };
    steps(20)?; // warm-up: pipelines, first touch of memory
    let k = calibrate(args.seconds, &mut steps)?;
    measure(args.runs, k, &mut steps)
}

/// Median steps/s of a CPU reference.
fn cpu_rate(sim: &mut impl Simulation, args: &BenchArgs) -> Result<f64> {
    let mut steps = |k: u64| -> Result { Ok(sim.step(k as u32)?) };
    let k = calibrate(args.seconds, &mut steps)?;
    measure(args.runs, k, &mut steps)
}

pub fn bench(args: BenchArgs) -> Result {
    if args.runs == 0 || args.sizes.is_empty() || args.seconds.is_nan() || args.seconds <= 0.0 {
        return Err("--runs, --sizes and --seconds must be positive".into());
    }
    let gpu = Gpu::headless()?;
    match args.mode {
        Mode::Water => {
            println!("eddy bench: water (Elsts rules, wall boundary, `random` scene seed 1), 2 dispatches/step")
        }
        Mode::Gas => println!("eddy bench: gas (default parameters, 8-way, `explosion` scene), 3 dispatches/step"),
        Mode::Smoke => println!(
            "eddy bench: smoke (Rideout's parameters, {} Jacobi iterations, `plume` scene), {} dispatches/step",
            SmokeParams::default().jacobi_iterations,
            5 + SmokeParams::default().jacobi_iterations
        ),
    }
    println!("adapter: {}; median of {} runs of ~{} s each", gpu.adapter_label(), args.runs, args.seconds);
    println!();
    println!("| grid | GPU steps/s | GPU Mcells/s | CPU ref steps/s | CPU ref Mcells/s | GPU / CPU |");
    println!("|---|---|---|---|---|---|");
    for &n in &args.sizes {
        eddy::gpu::check_grid_size(&gpu.device, n, n)?;
        let (g, c) = match args.mode {
            Mode::Water => {
                let state = WaterState::from_scene(&Scene::preset("random", n, n, 1)?);
                let p = WaterParams::default();
                let g = gpu_rate(&gpu, &mut GpuWater::new(&gpu.device, &gpu.queue, &state, p)?, &args)?;
                let c = if args.no_cpu { None } else { Some(cpu_rate(&mut CpuWater::new(state, p)?, &args)?) };
                (g, c)
            }
            Mode::Smoke => {
                let p = SmokeParams::default();
                let state = SmokeState::from_scene(&Scene::preset("plume", n, n, 1)?, p.ambient_temperature);
                let g = gpu_rate(&gpu, &mut GpuSmoke::new(&gpu.device, &gpu.queue, &state, p)?, &args)?;
                let c = if args.no_cpu { None } else { Some(cpu_rate(&mut CpuSmoke::new(state, p)?, &args)?) };
                (g, c)
            }
            Mode::Gas => {
                let state = GasState::from_scene(&Scene::preset("explosion", n, n, 1)?);
                let p = GasParams::default();
                let g = gpu_rate(&gpu, &mut GpuGas::new(&gpu.device, &gpu.queue, &state, p)?, &args)?;
                let c = if args.no_cpu { None } else { Some(cpu_rate(&mut CpuGas::new(state, p)?, &args)?) };
                (g, c)
            }
        };
        let cells = (n * n) as f64 / 1e6;
        let fmt = |r: Option<f64>, scale: f64| r.map_or("-".to_string(), |r| format!("{:.1}", r * scale));
        println!(
            "| {n}x{n} | {g:.1} | {:.1} | {} | {} | {} |",
            g * cells,
            fmt(c, 1.0),
            fmt(c, cells),
            c.map_or("-".to_string(), |c| format!("{:.1}x", g / c)),
        );
    }
    Ok(())
}
