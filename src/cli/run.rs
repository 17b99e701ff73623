//! `eddy run`: the headless runner.

use super::model::{Painter, Sim};
use super::{Result, RunArgs};
use eddy::gpu::{Gpu, GpuError};
use eddy::render::FrameTarget;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::Instant;

/// Most steps recorded into one command buffer between progress updates.
const MAX_CHUNK: u64 = 256;

pub fn run(args: RunArgs) -> Result {
    let mode = args.sim.mode;
    args.sim.check_params()?;
    args.field.check(mode)?;
    if args.every == 0 {
        return Err("--every must be at least 1 step".into());
    }
    if args.scale == 0 || args.scale > 64 {
        return Err("--scale must be 1..=64 pixels per cell".into());
    }
    // Make --save's folder now: a run should not fail at its end for want of it.
    if let Some(dir) = args.save.as_ref().and_then(|p| p.parent()).filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {} for --save: {e}", dir.display()))?;
    }
    let gpu = Gpu::headless()?;
    eprintln!("adapter: {}", gpu.adapter_label());
    let mut sim = Sim::new(&gpu, &args.sim, mode)?;
    let (w, h) = sim.size();
    let start = sim.summary()?;
    eprintln!("{mode:?}: {} ({w}x{h} cells), {} steps", args.sim.describe_start(), args.steps);

    let frames = match &args.frames {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create frame directory {}: {e}", dir.display()))?;
            let target = FrameTarget::new(&gpu.device, (w, h), args.scale)?;
            Some((dir, target, Painter::new(&gpu.device, mode, FrameTarget::FORMAT, args.field)))
        }
        None => None,
    };
    let save_frame = |sim: &Sim, step: u64| -> Result {
        if let Some((dir, target, painter)) = &frames {
            let path = dir.join(format!("frame_{step:06}.png"));
            let image = target
                .render(&gpu.device, &gpu.queue, |encoder, view, size| painter.draw(&gpu, encoder, view, size, sim))?;
            image.save(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
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
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(GpuError::from)?;
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

    let end = sim.summary()?;
    let rate = args.steps as f64 / elapsed.max(1e-9);
    println!(
        "ran {} steps in {elapsed:.2} s: {rate:.1} steps/s, {:.1} Mcells/s (including progress syncs)",
        args.steps,
        rate * (w * h) as f64 / 1e6
    );
    println!("{} (start {:.4}, change {:+.3e})", end.line, start.mass, end.mass - start.mass);
    if let Some(path) = &args.save {
        sim.save(path)?;
        println!("saved {}", path.display());
    }
    if let Some(dir) = &args.frames {
        println!("frames in {}", dir.display());
    }
    Ok(())
}
