//! A fixed cylinder in a uniform stream, for any box, cylinder and numerics: runs eddy's
//! staggered smoke on the GPU past it (`eddy_fluid::smoke::wake`) and prints the numbers
//! published for it beside their references (`eddy_fluid::smoke::wake::PUBLISHED`, Williamson's
//! St): the mean drag coefficient, the lift coefficient's amplitude and the Strouhal number from
//! the lift's period (a shedding wake), the length of the recirculation bubble behind it (a
//! steady one). The forces are the fluid's on the cylinder each step, read from the GPU's
//! force log (`eddy_fluid::body::forces`); the cylinder is a body held still.
//!
//! `cargo run --release --example cylinder -- [KEY=VALUE ...]`, keys and their defaults
//! (`Wake::new`'s, on the `channel` pipeline): `w=320 h=288` the box (cells), `d=24` the
//! diameter (cells), `re=100`, `upstream=8` (the centre from the inlet, diameters), `dt=0.5`,
//! `advection=maccormack|semi-lagrangian`, `tolerance=1e-4` (multigrid), `sides=slip|wall`,
//! `settle=600` and `window=1000` (time units before and while sampling). The tests
//! (`tests/smoke_strouhal.rs`) run `w=400 h=240 d=20 dt=1` at Re 100 and `w=288 h=192 d=16` at
//! Re 20 and 40.

use eddy_fluid::GpuModel;
use eddy_fluid::Simulation;
use eddy_fluid::body::forces::{Reference, StepForces};
use eddy_fluid::gpu::{Gpu, Requirements};
use eddy_fluid::smoke::wake::{PUBLISHED, Wake, bubble_length, drag_from_momentum, period, williamson_strouhal};
use eddy_fluid::smoke::{Advection, EdgeKind, GpuSmoke};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut wake = Wake::new((320, 288), 24.0, 100.0);
    let (mut settle, mut window) = (600.0f64, 1000.0f64);
    for arg in std::env::args().skip(1) {
        let (key, value) = arg.split_once('=').ok_or_else(|| format!("expected KEY=VALUE, got {arg:?}"))?;
        match key {
            "w" => wake.size.0 = value.parse()?,
            "h" => wake.size.1 = value.parse()?,
            "d" => wake.diameter = value.parse()?,
            "re" => wake.reynolds = value.parse()?,
            "upstream" => wake.upstream = value.parse()?,
            "dt" => wake.dt = value.parse()?,
            "tolerance" => wake.tolerance = value.parse()?,
            "advection" => {
                wake.advection = match value {
                    "maccormack" => Advection::MacCormack,
                    "semi-lagrangian" => Advection::SemiLagrangian,
                    _ => return Err(format!("advection is maccormack or semi-lagrangian, not {value:?}").into()),
                }
            }
            "sides" => {
                wake.sides = match value {
                    "slip" => EdgeKind::Slip,
                    "wall" => EdgeKind::Wall,
                    _ => return Err(format!("sides is slip or wall, not {value:?}").into()),
                }
            }
            "settle" => settle = value.parse()?,
            "window" => window = value.parse()?,
            _ => return Err(format!("unknown key {key:?} (see the example's docs)").into()),
        }
    }
    let params = wake.params();
    params.validate()?;
    let gpu = Gpu::headless_for(&Requirements::default())?;
    let state = wake.state();
    let mut sim = GpuSmoke::new(&gpu.device, &gpu.queue, &state, params)?;
    let clock = std::time::Instant::now();
    let dt = wake.dt as f64;
    let reference = Reference::across(&state.bodies[0], 1.0, (1.0, 0.0));
    // The forces are read every 200 steps (the log holds 256).
    let run = |steps: u32, sim: &mut GpuSmoke| -> Result<Vec<StepForces>, Box<dyn std::error::Error>> {
        let mut logged = Vec::new();
        let mut left = steps;
        while left > 0 {
            let n = left.min(200);
            sim.step(n)?;
            left -= n;
            logged.extend(sim.force_log().expect("the staggered grid logs forces").read(&gpu.device, &gpu.queue)?);
        }
        Ok(logged)
    };
    run((settle / dt).round() as u32, &mut sim)?;
    let logged = run((window / dt).round() as u32, &mut sim)?;
    let (drag, lift): (Vec<f32>, Vec<f32>) = logged.iter().map(|s| s.forces[0].coefficients(&reference)).unzip();
    let mean = |v: &[f32]| v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64;
    let half = drag.len() / 2;
    let (cd, cd_first, cd_second) = (mean(&drag), mean(&drag[..half]), mean(&drag[half..]));
    let lift_amplitude = 0.5
        * (lift.iter().fold(f32::NEG_INFINITY, |m, &x| m.max(x)) - lift.iter().fold(f32::INFINITY, |m, &x| m.min(x)));
    let end = sim.read_state()?;
    let bubble = bubble_length(&wake, &end);
    let balance = drag_from_momentum(&wake, &end);
    let line = format!(
        "{}x{} d={} re={} upstream={} dt={} advection={:?} tolerance={} sides={:?} (blockage 1/{:.0})",
        wake.size.0,
        wake.size.1,
        wake.diameter,
        wake.reynolds,
        wake.upstream,
        wake.dt,
        wake.advection,
        wake.tolerance,
        wake.sides,
        wake.size.1 as f32 / wake.diameter,
    );
    println!("{line}; {:.1} s on {}", clock.elapsed().as_secs_f64(), gpu.adapter_label());
    println!(
        "  C_D {cd:.4} (window halves {cd_first:.4}, {cd_second:.4}; from the momentum balance at the end \
         {balance:.4}); C_L amplitude {lift_amplitude:.4}; bubble L/D {}",
        bubble.map_or("beyond the box".into(), |l| format!("{l:.3}"))
    );
    if let Some((t, cycles)) = period(&lift, dt) {
        let st = wake.diameter as f64 / t;
        let reference = williamson_strouhal(wake.reynolds as f64);
        println!(
            "  St {st:.4} from the lift's period over {cycles} cycles ({:+.1}% from Williamson's {reference:.4})",
            100.0 * (st / reference - 1.0)
        );
    }
    for p in PUBLISHED.iter().filter(|p| p.reynolds == wake.reynolds) {
        let off = |ours: f64, theirs: f32| match theirs.is_nan() {
            true => "-".to_string(),
            false => format!("{theirs} ({:+.1}%)", 100.0 * (ours / theirs as f64 - 1.0)),
        };
        println!(
            "  {}: C_D {}, L/D {}, C_L amplitude {}",
            p.source,
            off(cd, p.drag),
            off(bubble.unwrap_or(f32::NAN) as f64, p.bubble),
            off(lift_amplitude as f64, p.lift)
        );
    }
    Ok(())
}
