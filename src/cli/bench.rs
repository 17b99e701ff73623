//! `eddy bench`: steps/s and Mcells/s of the GPU path and the CPU reference.

use super::{BenchArgs, Result, usage};
use eddy::gpu::{Gpu, GpuError};
use eddy::model::{AnyModel, AnyState, ModelKind, ModelParams, any::cpu_reference, memory};
use eddy::scene::SceneSource;
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
            return Ok(((seconds / dt * n as f64) as u64).clamp(1, 1 << 24));
        }
        n *= 4;
    }
}

pub fn bench(args: BenchArgs) -> Result {
    if !(1..=100).contains(&args.runs) {
        return Err(usage(format!("--runs {}: allowed 1..=100 timed runs", args.runs)));
    }
    if !(args.seconds.is_finite() && (0.01..=60.0).contains(&args.seconds)) {
        return Err(usage(format!("--seconds {}: allowed 0.01..=60 seconds per timed run", args.seconds)));
    }
    if args.sizes.is_empty() || args.sizes.contains(&0) {
        return Err(usage("--sizes: give one or more grid sides >= 1, e.g. 256,512"));
    }
    let kind = args.mode;
    let gpu = Gpu::headless_for(&ModelKind::requirements(&[kind]))?;
    for &n in &args.sizes {
        eddy::gpu::check_grid_size(&gpu.device, n, n).map_err(usage)?;
        memory::check(kind, (n, n), memory::Extras::default(), Some(&gpu.adapter.get_info()), &gpu.device.limits())
            .map_err(usage)?;
    }
    let params = ModelParams::defaults(kind);
    let scene = kind.info().bench_scene;
    println!("eddy bench: {kind} (default parameters, `{scene}` scene): {}", kind.info().about);
    println!("adapter: {}; median of {} runs of ~{} s each", gpu.adapter_label(), args.runs, args.seconds);
    println!();
    println!("| grid | GPU steps/s | GPU Mcells/s | CPU ref steps/s | CPU ref Mcells/s | GPU / CPU |");
    println!("|---|---|---|---|---|---|");
    for &n in &args.sizes {
        let state = AnyState::start(&SceneSource::Preset(scene.into()), (n, n), 1, &params)?;
        let mut model = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 0)?;
        let mut gpu_steps = |k: u64| -> Result {
            let mut left = k;
            while left > 0 {
                let c = left.min(64);
                model.step(c as u32);
                left -= c;
            }
            gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(GpuError::from)?;
            Ok(gpu.check()?)
        };
        gpu_steps(20)?; // warm-up: pipelines, first touch of memory
        let k = calibrate(args.seconds, &mut gpu_steps)?;
        let g = measure(args.runs, k, &mut gpu_steps)?;
        let c = if args.no_cpu {
            None
        } else {
            let mut cpu = cpu_reference(state, params)?;
            let mut cpu_steps = |k: u64| -> Result { Ok(cpu(k as u32)?) };
            let k = calibrate(args.seconds, &mut cpu_steps)?;
            Some(measure(args.runs, k, &mut cpu_steps)?)
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
