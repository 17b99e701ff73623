//! An application whose own physics engine owns the bodies: here rapier2d, with crates in a
//! basin of eddy's water. Each step eddy takes the crates' motion from the engine (driven bodies,
//! `GpuModel::encode_drive` with the change of pose over the engine's step, so that eddy moves
//! them as the engine did), steps the water around them, and hands back the water's force and
//! torque on each (the force log); the engine applies them with gravity, its own contacts and
//! damping, and steps. eddy's own free bodies do the same inside eddy
//! ([`eddy_fluid::body::dynamics`], [`eddy_fluid::body::contact`]); this is the split for an
//! application that already has an engine.
//!
//! Units are eddy's water's: cells, steps (the engine's `dt` is 1 step), cells per step, a cell
//! of water weighs 1 (a crate's engine density is its density ratio), gravity in cells per
//! step^2. The water's force already holds the buoyancy (the weight of the water a crate
//! displaces, up), so the engine's gravity pulls with the crate's whole weight. Water's pressure
//! is the automaton's, hydrostatic: it does not answer a crate's acceleration within the step,
//! so this explicit exchange has no added-mass instability; but the automaton's water carries no
//! waves away, so the engine's linear damping stands in for what real water would take.
//!
//! Prints, every 200 steps, each crate's draft over its height (Archimedes: its density ratio;
//! the crates still bob by about a tenth of their height, which the engine's light damping leaves
//! them), and at the end how far eddy's copy of each crate drifted from the engine's (the rounding
//! of `x + v` near 40 cells, a few 1e-6 a step).
//!
//! `cargo run --release --example engine_bodies -- [steps]` (default 1200)

use eddy_fluid::body::{Body, Shape};
use eddy_fluid::gpu::{Gpu, Requirements};
use eddy_fluid::grid::Grid;
use eddy_fluid::water::{Boundary, GpuWater, WaterParams, WaterState};
use eddy_fluid::{GpuModel, Simulation};
use rapier2d::prelude::*;

/// The basin, cells.
const W: usize = 128;
const H: usize = 64;
/// The water's surface at rest (before the automaton compresses it), row.
const SURFACE: usize = 32;
/// The crates: centre x, density ratio; each 16 x 8 cells, let go with its bottom on the
/// surface.
const CRATES: [(f32, f32); 3] = [(24.0, 0.25), (64.0, 0.5), (104.0, 0.75)];
const HALF: (f32, f32) = (8.0, 4.0);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let steps: u32 = std::env::args().nth(1).map(|s| s.parse()).transpose()?.unwrap_or(1200);
    let params = WaterParams { boundary: Boundary::Wall, ..WaterParams::default() };
    let gpu = Gpu::headless_for(&Requirements::default())?;

    // The engine's world: the crates, dynamic, and the basin's walls.
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, params.gravity);
    world.integration_parameters.dt = 1.0;
    world.integration_parameters.length_unit = 8.0;
    let walls = world.insert_body(RigidBodyBuilder::fixed());
    let sides =
        [(Vector::X, Vector::ZERO), (-Vector::X, Vector::new(W as f32, 0.0)), (-Vector::Y, Vector::new(0.0, H as f32))];
    for (normal, at) in sides {
        world.insert_collider(ColliderBuilder::new(SharedShape::halfspace(normal)).translation(at), Some(walls));
    }
    let crates: Vec<RigidBodyHandle> = CRATES
        .iter()
        .map(|&(x, density)| {
            let body = RigidBodyBuilder::dynamic()
                .translation(Vector::new(x, SURFACE as f32 - HALF.1))
                .linear_damping(0.05)
                .angular_damping(0.2)
                .can_sleep(false);
            world.insert(body, ColliderBuilder::cuboid(HALF.0, HALF.1).density(density)).0
        })
        .collect();

    // eddy's water, with the crates as driven bodies where the engine has them.
    let as_body = |rb: &RigidBody| Body {
        angle: rb.rotation().angle(),
        vx: rb.linvel().x,
        vy: rb.linvel().y,
        spin: rb.angvel(),
        ..Body::new(Shape::Box { half_width: HALF.0, half_height: HALF.1 }, rb.translation().x, rb.translation().y)
    };
    let state = WaterState {
        mass: Grid::from_fn(W, H, |r, _| if r >= SURFACE { 1.0 } else { 0.0 }),
        solid: Grid::filled(W, H, 0),
        bodies: crates.iter().map(|&h| as_body(&world.bodies[h])).collect(),
    };
    let mut water = GpuWater::new(&gpu.device, &gpu.queue, &state, params)?;

    println!("step  draft / height of each crate (Archimedes: {:?})", CRATES.map(|c| c.1));
    for step in 1..=steps {
        // eddy steps the water around the crates and logs its force on each.
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        water.encode_steps(&mut encoder, 1);
        gpu.queue.submit([encoder.finish()]);
        let log = water.force_log().expect("bodies").read(&gpu.device, &gpu.queue)?;
        let forces = &log.last().expect("a step logged").forces;
        // The engine: the water's force and torque, gravity, its contacts and damping.
        for (&h, f) in crates.iter().zip(forces) {
            let rb = &mut world.bodies[h];
            rb.reset_forces(false);
            rb.reset_torques(false);
            rb.add_force(Vector::new(f.fx, f.fy), true);
            rb.add_torque(f.torque, true);
        }
        let before: Vec<Body> = crates.iter().map(|&h| as_body(&world.bodies[h])).collect();
        world.step();
        // eddy takes the engine's motion over the step as the crates' velocities for its next
        // step (the change of pose: the engine's substeps move a body by more than its last
        // velocity), at most half a cell a step, the water's bound on its bodies.
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        for (i, (&h, was)) in crates.iter().zip(&before).enumerate() {
            let now = as_body(&world.bodies[h]);
            let moved = Body { vx: now.x - was.x, vy: now.y - was.y, spin: now.angle - was.angle, ..now };
            let k = (0.5 / moved.fastest().max(1e-6)).min(1.0);
            water.encode_drive(&mut encoder, i, (moved.vx * k, moved.vy * k), moved.spin * k)?;
        }
        gpu.queue.submit([encoder.finish()]);
        if step % 200 == 0 {
            let read = water.read_state()?;
            let mask = eddy_fluid::water::bodies::rasterise(&read.solid, &read.bodies);
            let level =
                eddy_fluid::water::bodies::column_level(&read.mass, &mask, 2, H as isize - 1, &params).unwrap_or(0.0);
            let drafts: Vec<String> = crates
                .iter()
                .map(|&h| {
                    let rb = &world.bodies[h];
                    let bottom = rb.translation().y
                        + HALF.1 * rb.rotation().angle().cos().abs()
                        + HALF.0 * rb.rotation().angle().sin().abs();
                    format!("{:.3}", (bottom - level) / (2.0 * HALF.1))
                })
                .collect();
            println!("{step:>5} {}", drafts.join("  "));
        }
    }
    water.sync_bodies()?;
    for (b, &h) in water.body_list().iter().zip(&crates) {
        let rb = &world.bodies[h];
        let drift = (b.x - rb.translation().x).hypot(b.y - rb.translation().y);
        println!(
            "crate at ({:.2}, {:.2}): eddy's copy {drift:.2e} cells from the engine's",
            rb.translation().x,
            rb.translation().y
        );
    }
    Ok(())
}
