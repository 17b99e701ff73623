//! The cylinder wake's Strouhal number, for any box, cylinder and numerics: runs
//! eddy's staggered smoke on the GPU past a fixed cylinder (`eddy_fluid::smoke::wake`), reads the
//! shedding period from a probe 2 D behind it, and prints St beside Williamson's.
//!
//! `cargo run --release --example strouhal -- [KEY=VALUE ...]`, keys and their defaults
//! (`Wake::new`'s, on the `channel` pipeline): `w=320 h=288` the box (cells), `d=24` the
//! diameter (cells), `re=100`, `upstream=8` (the centre from the inlet, diameters), `dt=0.5`,
//! `advection=maccormack|semi-lagrangian`, `tolerance=1e-4` (multigrid), `sides=slip|wall`,
//! `settle=600` and `window=1000` (time units before and while sampling). The test
//! (`tests/smoke_strouhal.rs`) runs `w=400 h=240 d=20 dt=1`.

use eddy_fluid::Simulation;
use eddy_fluid::gpu::{Gpu, Requirements};
use eddy_fluid::smoke::wake::{Wake, period, swing, williamson_strouhal};
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
    let mut sim = GpuSmoke::new(&gpu.device, &gpu.queue, &wake.state(), params)?;
    let clock = std::time::Instant::now();
    let dt = wake.dt as f64;
    // A sample every 4 steps, or every 2 time units, whichever is shorter.
    let every = ((2.0 / dt).floor() as u32).clamp(1, 4);
    sim.step((settle / dt).round() as u32)?;
    let probe = wake.probe();
    let samples = (window / dt) as u32 / every;
    let mut v = Vec::with_capacity(samples as usize);
    for _ in 0..samples {
        sim.step(every)?;
        v.push(sim.read_state()?.velocity_y[probe]);
    }
    let (first, second) = (swing(&v[..v.len() / 2]), swing(&v[v.len() / 2..]));
    let reference = williamson_strouhal(wake.reynolds as f64);
    let line = format!(
        "{}x{} d={} re={} upstream={} dt={} advection={:?} tolerance={} sides={:?}",
        wake.size.0,
        wake.size.1,
        wake.diameter,
        wake.reynolds,
        wake.upstream,
        wake.dt,
        wake.advection,
        wake.tolerance,
        wake.sides
    );
    match period(&v, every as f64 * dt) {
        Some((t, cycles)) => {
            let st = wake.diameter as f64 / t;
            println!(
                "{line}: St {st:.4} ({:+.1}% from Williamson's {reference:.4}) over {cycles} cycles; \
                 v swings {first:.3} then {second:.3}; {:.1} s on {}",
                100.0 * (st / reference - 1.0),
                clock.elapsed().as_secs_f64(),
                gpu.adapter_label()
            );
        }
        None => println!("{line}: no shedding (v swings {first:.2e} then {second:.2e})"),
    }
    Ok(())
}
