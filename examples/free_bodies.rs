//! How light a free body may be: drops (or lets rise) free bodies of each density in smoke at
//! rest under gravity, on the GPU, and says for each shape and density whether the coupling
//! stayed stable (`eddy_fluid::body::dynamics`: the added-mass correction), with the
//! acceleration over the first steps beside `g (s - 1) / (s + 1)`, a disc's in an ideal fluid.
//!
//! Stable means: over `steps` steps the body's velocity stays finite, and its fastest point's
//! acceleration exceeds 5 g in at most a fifth of the last 50 steps. An unstable coupling's
//! error grows geometrically until the speed limit holds it, then flips every step; a light
//! body also takes single kicks as the cells it covers change, which this lets by.
//!
//! `cargo run --release --example free_bodies -- [KEY=VALUE ...]`: `n=192` the box (cells),
//! `size=8` a disc's radius and a square's half side (a plate is 3 sizes long, 2 cells thick),
//! `g=0.02` (cells per time unit^2), `dt=0.5`, `nu=0` the viscosity (cells^2 per time unit),
//! `steps=150` (a light disc rises about 60 cells), `densities=0.001,0.003,0.01,0.03,0.05,0.1,0.5,2` (a comma-separated list).
//!
//! `model=gas`: the gas has no gravity, so the bodies are released at rest in a wind instead: a
//! channel `n` long and `n / 2` wide, gas of density 1 moving at `wind=0.1` cells/step everywhere,
//! the left edge an inflow of that gas, the right an outflow (default parameters otherwise;
//! `size=8`, `steps=300`). Stable means: finite, and its fastest point's change of velocity a
//! step past half the wind in at most a fifth of the last 50 steps; the table gives each body's
//! speed at the end beside the wind's (a light body is carried at nearly the wind's speed).

use eddy_fluid::Simulation;
use eddy_fluid::body::{Body, Shape};
use eddy_fluid::gpu::{Gpu, Requirements};
use eddy_fluid::smoke::{Advection, GpuSmoke, SmokeParams, SmokeState, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().any(|a| a == "model=gas") {
        return gas();
    }
    let (mut n, mut size, mut g, mut dt, mut nu, mut steps) = (192usize, 8.0f32, 0.02f32, 0.5f32, 0.0f32, 150u32);
    let mut densities = vec![0.001, 0.003, 0.01, 0.03, 0.05, 0.1, 0.5, 2.0];
    for arg in std::env::args().skip(1) {
        let (key, value) = arg.split_once('=').ok_or_else(|| format!("expected KEY=VALUE, got {arg:?}"))?;
        match key {
            "n" => n = value.parse()?,
            "size" => size = value.parse()?,
            "g" => g = value.parse()?,
            "dt" => dt = value.parse()?,
            "nu" => nu = value.parse()?,
            "steps" => steps = value.parse()?,
            "densities" => densities = value.split(',').map(str::parse).collect::<Result<_, _>>()?,
            _ => return Err(format!("unknown key {key:?} (see the example's docs)").into()),
        }
    }
    let params = SmokeParams {
        dt,
        gravity: g,
        viscosity: nu,
        buoyancy: 0.0,
        weight: 0.0,
        vorticity: 0.0,
        velocity_dissipation: 1.0,
        advection: Advection::SemiLagrangian,
        cell_size: 1.0,
        solver: Solver::Multigrid,
        tolerance: 1e-5,
        max_cycles: 30,
        ..SmokeParams::default()
    };
    params.validate()?;
    let gpu = Gpu::headless_for(&Requirements::default())?;
    let mut fluid = SmokeState::from_scene(&eddy_fluid::scene::Scene::empty(n, n)?, 0.0);
    fluid.source.as_mut_slice().fill(0);
    fluid.density.as_mut_slice().fill(0.0);
    let centre = n as f32 / 2.0 + 0.3;
    println!("{n} x {n} cells, g {g}, dt {dt}, nu {nu}, {steps} steps; the acceleration over steps 2..12, in g");
    println!("{:<8} {:>8} {:>10} {:>10} {:>8}", "shape", "density", "measured", "disc's", "stable");
    for (name, shape, angle) in shapes(size) {
        for &s in &densities {
            let mut state = fluid.clone();
            state.bodies = vec![Body { density: Some(s), angle, ..Body::new(shape, centre, centre) }];
            let mut sim = GpuSmoke::new(&gpu.device, &gpu.queue, &state, params)?;
            let (mut stable, mut early, mut kicks) = (true, 0.0, Vec::new());
            let mut last = sim.bodies()?[0];
            for step in 1..=steps {
                sim.step(1)?;
                let body = sim.bodies()?[0];
                if std::env::var("TRACE").as_deref() == Ok(name) {
                    println!(
                        "  {step}: v ({:.5}, {:.5}) spin {:.5} a {:?}",
                        body.vx, body.vy, body.spin, body.acceleration
                    );
                }
                // The fastest point's acceleration.
                let a = (((body.vx - last.vx).powi(2) + (body.vy - last.vy).powi(2)).sqrt()
                    + (body.spin - last.spin).abs() * body.reach())
                    / dt;
                kicks.push(a > 5.0 * g);
                let recent = kicks.iter().rev().take(50).filter(|&&k| k).count();
                if !(body.vx.is_finite() && body.vy.is_finite() && body.spin.is_finite()) || recent > 10 {
                    stable = false;
                    break;
                }
                if step == 2 {
                    early = body.vy;
                } else if step == 12 {
                    early = (body.vy - early) / (10.0 * dt);
                }
                last = body;
            }
            let disc = (s - 1.0) / (s + 1.0);
            let measured = if stable { format!("{:.4}", early / g) } else { "-".into() };
            println!("{name:<8} {s:>8} {measured:>10} {disc:>10.4} {:>8}", if stable { "yes" } else { "no" });
        }
    }
    Ok(())
}

/// The shapes each model's sweep releases: a disc of radius `size`, a square of half side `size`
/// and a plate 3 `size` long, 2 cells thick, tilted 0.2 rad (so that it may turn).
fn shapes(size: f32) -> [(&'static str, Shape, f32); 3] {
    [
        ("disc", Shape::Circle { radius: size }, 0.0),
        ("square", Shape::Box { half_width: size, half_height: size }, 0.0),
        ("plate", Shape::Box { half_width: 1.5 * size, half_height: 1.0 }, 0.2),
    ]
}

/// `model=gas` (module docs): free bodies released at rest in a channel's wind.
fn gas() -> Result<(), Box<dyn std::error::Error>> {
    use eddy_fluid::edge::EdgeKind;
    use eddy_fluid::gas::{GasParams, GpuGas, checks};
    let (mut n, mut size, mut wind, mut steps) = (192usize, 8.0f32, 0.1f32, 300u32);
    let mut densities = vec![0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 10.0];
    for arg in std::env::args().skip(1) {
        let (key, value) = arg.split_once('=').ok_or_else(|| format!("expected KEY=VALUE, got {arg:?}"))?;
        match key {
            "model" => {}
            "n" => n = value.parse()?,
            "size" => size = value.parse()?,
            "wind" => wind = value.parse()?,
            "steps" => steps = value.parse()?,
            "densities" => densities = value.split(',').map(str::parse).collect::<Result<_, _>>()?,
            _ => return Err(format!("unknown key {key:?} for model=gas (see the example's docs)").into()),
        }
    }
    let mut edges = [EdgeKind::Wall; 4];
    edges[eddy_fluid::edge::LEFT] = EdgeKind::Inflow;
    edges[eddy_fluid::edge::RIGHT] = EdgeKind::Outflow;
    let params = GasParams { edges, inflow: wind, inflow_density: 1.0, ..GasParams::default() };
    params.validate()?;
    let gpu = Gpu::headless_for(&Requirements::default())?;
    let (w, h) = (n, n / 2);
    let fluid = checks::state_from(w, h, |_, _| 1.0, |_, _| (wind as f64, 0.0));
    println!("{w} x {h} cells, wind {wind} cells/step from the left, {steps} steps");
    println!("{:<8} {:>8} {:>14} {:>8}", "shape", "density", "speed at end", "stable");
    for (name, shape, angle) in shapes(size) {
        for &s in &densities {
            let mut state = fluid.clone();
            state.bodies =
                vec![Body { density: Some(s), angle, ..Body::new(shape, w as f32 / 3.0, h as f32 / 2.0 + 0.3) }];
            let mut sim = GpuGas::new(&gpu.device, &gpu.queue, &state, params)?;
            let (mut stable, mut kicks) = (true, Vec::new());
            let mut last = state.bodies[0];
            for _ in 1..=steps {
                sim.step(1)?;
                let body = sim.read_state()?.bodies[0];
                if std::env::var("TRACE").as_deref() == Ok(name) {
                    println!(
                        "  v ({:.5}, {:.5}) spin {:.5} at ({:.3}, {:.3})",
                        body.vx, body.vy, body.spin, body.x, body.y
                    );
                }
                let a = ((body.vx - last.vx).powi(2) + (body.vy - last.vy).powi(2)).sqrt()
                    + (body.spin - last.spin).abs() * body.reach();
                kicks.push(a > 0.5 * wind);
                let recent = kicks.iter().rev().take(50).filter(|&&k| k).count();
                if !(body.vx.is_finite() && body.vy.is_finite() && body.spin.is_finite()) || recent > 10 {
                    stable = false;
                    break;
                }
                last = body;
            }
            let speed = if stable { format!("{:.4}", last.vx.hypot(last.vy)) } else { "-".into() };
            println!("{name:<8} {s:>8} {speed:>14} {:>8}", if stable { "yes" } else { "no" });
        }
    }
    Ok(())
}
