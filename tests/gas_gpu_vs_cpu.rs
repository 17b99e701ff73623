//! The GPU gas step against the CPU reference, from random states.

mod common;

use eddy_fluid::GpuModel;
use eddy_fluid::Simulation;
use eddy_fluid::gas::{CpuGas, FluxScheme, GasParams, GasState, GpuGas, Neighbours, Reconstruction};

fn compare(seed: u64, (w, h): (usize, usize), p: GasParams, steps: u32, rel: f32) {
    let state = common::random_gas(w, h, seed, 0.1);
    let name = format!("gas-seed{seed}-{w}x{h}-{:?}-{steps}steps", p.neighbours);
    compare_state(&name, state, p, steps, rel);
}

/// `steps` steps of `state` on the GPU and the CPU: the states within `rel` of the largest
/// magnitude; with bodies, the masks equal (where each put the bodies) and the bodies within
/// 1e-5 cells (radians).
fn compare_state(name: &str, state: GasState, p: GasParams, steps: u32, rel: f32) {
    let gpu = common::gpu();
    let mut g = GpuGas::new(&gpu.device, &gpu.queue, &state, p).unwrap();
    let mut c = CpuGas::new(state, p).unwrap();
    g.step(steps).unwrap();
    c.step(steps).unwrap();
    let gs = g.read_state().unwrap();
    gpu.check().unwrap();
    let cs = c.state();
    assert_eq!(gs.bodies.len(), cs.bodies.len(), "{name}: bodies");
    for (a, b) in gs.bodies.iter().zip(&cs.bodies) {
        let d = [a.x - b.x, a.y - b.y, a.angle - b.angle];
        assert!(d.iter().all(|d| d.abs() < 1e-5), "{name}: a body moved to {a} on the GPU, {b} on the CPU");
    }
    let differ = gs.solid.as_slice().iter().zip(cs.solid.as_slice()).filter(|(a, b)| a != b).count();
    assert_eq!(differ, 0, "{name}: {differ} cells of the mask differ");
    // Without the `npz` feature (the bare library's tests) the states are not written.
    let save = |_dir: &std::path::Path, _name: &str| {
        #[cfg(feature = "npz")]
        {
            gs.save_npz(&_dir.join(format!("{_name}-gpu.npz"))).unwrap();
            cs.save_npz(&_dir.join(format!("{_name}-cpu.npz"))).unwrap();
        }
    };
    common::assert_close_rel(
        name,
        &[
            ("density", &gs.density, &cs.density),
            ("momentum_x", &gs.momentum_x, &cs.momentum_x),
            ("momentum_y", &gs.momentum_y, &cs.momentum_y),
        ],
        rel,
        save,
    );
}

/// Parameter sets: defaults (Rusanov, 8-way, linear), 4-way, both with the constant
/// reconstruction, the central flux in both neighbourhoods, and the range ends.
fn param_sets() -> Vec<GasParams> {
    let d = GasParams::default();
    let constant = GasParams { reconstruction: Reconstruction::Constant, ..d };
    let central = GasParams { flux: FluxScheme::Central, diffusion: 0.1, pressure: 0.02, ..constant };
    let sets = vec![
        d,
        GasParams { neighbours: Neighbours::Four, ..d },
        constant,
        GasParams { neighbours: Neighbours::Four, ..constant },
        central,
        GasParams { neighbours: Neighbours::Four, diffusion: 0.15, pressure: 0.015, ..central },
        GasParams {
            diffusion: 0.15,
            damping: 0.9,
            drain: 0.9,
            friction: 0.02,
            pressure: 0.05,
            wind: (-0.12, 0.16),
            ..d
        },
        GasParams { diffusion: 0.05, damping: 1.0, drain: 1.0, friction: 0.0, pressure: 0.01, wind: (0.2, 0.0), ..d },
        GasParams {
            diffusion: 0.15,
            damping: 0.9,
            drain: 0.9,
            friction: 0.1,
            pressure: 0.05,
            wind: (-0.15, 0.2),
            ..constant
        },
    ];
    for p in &sets {
        p.validate().unwrap();
    }
    sets
}

const SIZES: [(usize, usize); 3] = [(37, 23), (64, 64), (100, 70)];

#[test]
fn one_step_matches_cpu_within_1e_5_of_max() {
    let mut seed = 0;
    for p in param_sets() {
        for size in SIZES {
            for _ in 0..2 {
                seed += 1;
                compare(seed, size, p, 1, 1e-5);
            }
        }
    }
}

#[test]
fn ten_steps_match_cpu_within_1e_4_of_max() {
    let mut seed = 100;
    for p in param_sets() {
        for size in SIZES {
            seed += 1;
            compare(seed, size, p, 10, 1e-4);
        }
    }
}

/// Open edges: inflow and outflow ghosts beside walls inside the grid, with corners
/// where an inflow meets an outflow and where an open edge meets a wall or slip edge (the
/// diagonal ghosts mirrored in the wall), in both reconstructions and neighbourhoods, one step
/// at 1e-5 and ten at 1e-4 as every other set. Mutating the outflow ghost (the cell's centre for
/// its face state) or the corner mirror's sign fails it.
#[test]
fn open_edges_match_cpu() {
    use eddy_fluid::edge::EdgeKind::{Inflow, Outflow, Slip, Wall};
    let d = GasParams { inflow: 0.12, inflow_density: 1.5, ..GasParams::default() };
    let constant = GasParams { reconstruction: Reconstruction::Constant, ..d };
    let mut seed = 300;
    for edges in
        [[Inflow, Outflow, Wall, Slip], [Outflow, Inflow, Outflow, Inflow], [Outflow; 4], [Wall, Outflow, Inflow, Wall]]
    {
        for base in [d, constant] {
            for neighbours in [Neighbours::Eight, Neighbours::Four] {
                let p = GasParams { edges, neighbours, ..base };
                p.validate().unwrap();
                seed += 1;
                compare(seed, (37, 23), p, 1, 1e-5);
                compare(seed + 1000, (64, 40), p, 10, 1e-4);
            }
        }
    }
}

/// A random 64 x 48 gas state (walls with probability `p_wall`) with the moving bodies of
/// `common::moving_gas_bodies` and a plate at rest, turned 0.6 rad.
fn gas_with_bodies(seed: u64, p_wall: f32) -> GasState {
    use eddy_fluid::body::{Body, Shape};
    let mut state = common::random_gas(64, 48, seed, p_wall);
    state.bodies = common::moving_gas_bodies();
    state.bodies.push(Body { angle: 0.6, ..Body::new(Shape::Box { half_width: 6.0, half_height: 1.0 }, 12.0, 38.0) });
    state
}

/// Bodies moving through the gas: a circle crossing the grid along a diagonal, a box
/// turning as it drifts and a plate at rest, over random states with walls; both
/// reconstructions and neighbourhoods, one step at 1e-5 and ten at 1e-4 as every other set.
/// Covers the move, the rasterisation (the masks must be equal), the handoff of the cells whose
/// coverage changes (several a step at these speeds), the faces into a moving wall (in its
/// frame) and the bounce relative to it.
#[test]
fn moving_bodies_match_cpu() {
    let d = GasParams::default();
    let constant = GasParams { reconstruction: Reconstruction::Constant, ..d };
    let mut seed = 500;
    for base in [d, constant] {
        for neighbours in [Neighbours::Eight, Neighbours::Four] {
            let p = GasParams { neighbours, ..base };
            for (steps, rel) in [(1, 1e-5), (10, 1e-4)] {
                seed += 1;
                let state = gas_with_bodies(seed, 0.02);
                compare_state(&format!("gas-bodies-seed{seed}-{neighbours:?}-{steps}steps"), state, p, steps, rel);
            }
        }
    }
}

/// Mass in a closed box while bodies move through it: the handoff gives the gas of
/// every cell a body covers to the cells beside it and fills the cells it leaves from their
/// neighbours, and no gas crosses a moving wall (the mirror in its frame), so the total mass
/// stays what it was, up to f32 rounding: within 1e-5 after 400 steps on the GPU, with a circle
/// crossing the box and back and a turning box, no damping or drain, 8-way and 4-way. (Momentum
/// is not conserved: the bodies push.) Mutating the handoff's shares or letting mass through a
/// moving wall's face fails it.
#[test]
fn moving_bodies_conserve_the_gas_mass() {
    use eddy_fluid::body::{Body, Shape};
    let gpu = common::gpu();
    for neighbours in [Neighbours::Eight, Neighbours::Four] {
        let p = GasParams { neighbours, ..eddy_fluid::gas::checks::undamped(GasParams::default()) };
        let mut state = common::random_gas(96, 64, 7, 0.0);
        state.source = state.source.map(|_| 0); // sources reset their cells' mass
        state.bodies = vec![
            Body { vx: 0.24, vy: 0.04, ..Body::new(Shape::Circle { radius: 8.0 }, 15.0, 20.0) },
            Body { spin: 0.02, ..Body::new(Shape::Box { half_width: 10.0, half_height: 2.0 }, 70.0, 53.0) },
        ];
        let mut g = GpuGas::new(&gpu.device, &gpu.queue, &state, p).unwrap();
        let start = g.stats().unwrap().total_mass;
        g.step(200).unwrap();
        let mut bodies = g.read_state().unwrap().bodies;
        (bodies[0].vx, bodies[0].vy) = (-0.24, -0.04);
        g.set_bodies(&bodies).unwrap();
        g.step(200).unwrap();
        let end = g.stats().unwrap();
        gpu.check().unwrap();
        let change = end.total_mass / start - 1.0;
        println!(
            "{neighbours:?}: mass {start:.3} -> {:.3} ({change:+.2e}), least density {}",
            end.total_mass, end.min_density
        );
        assert!(change.abs() < 1e-5, "{neighbours:?}: the mass changed by {change:e}");
        assert!(end.min_density >= 0.0 && end.non_finite == 0, "{neighbours:?}: {end:?}");
    }
}

#[test]
fn scene_presets_match_cpu() {
    for name in ["explosion", "wind", "tunnel"] {
        let gpu = common::gpu();
        let mut p = eddy_fluid::model::ModelParams::defaults(eddy_fluid::model::ModelKind::Gas);
        p.apply_scene_preset(name);
        let eddy_fluid::model::ModelParams::Gas(p) = p else { unreachable!() };
        let state = GasState::from_scene(&eddy_fluid::scene::Scene::preset(name, 80, 60, 0).unwrap()).streaming(&p);
        let mut g = GpuGas::new(&gpu.device, &gpu.queue, &state, p).unwrap();
        let mut c = CpuGas::new(state, p).unwrap();
        g.step(10).unwrap();
        c.step(10).unwrap();
        let (gs, cs) = (g.read_state().unwrap(), c.state().clone());
        gpu.check().unwrap();
        common::assert_close_rel(
            name,
            &[
                ("density", &gs.density, &cs.density),
                ("momentum_x", &gs.momentum_x, &cs.momentum_x),
                ("momentum_y", &gs.momentum_y, &cs.momentum_y),
            ],
            1e-4,
            |_, _| {},
        );
    }
}

/// The brush (push along a drag, a blast, an erase) against its CPU mirror, then a step.
#[test]
fn brush_matches_cpu() {
    use eddy_fluid::gas::GasBrush;
    let gpu = common::gpu();
    let state = common::random_gas(50, 40, 11, 0.1);
    let p = GasParams::default();
    let mut g = GpuGas::new(&gpu.device, &gpu.queue, &state, p).unwrap();
    let mut c = CpuGas::new(state, p).unwrap();
    for b in [
        GasBrush { center: (10.5, 12.0), radius: 5.0, scale: 1.0, add: 0.3, velocity: (0.3, -0.1), radial: 0.0 },
        GasBrush { center: (30.0, 25.0), radius: 7.0, scale: 1.0, add: 2.0, velocity: (0.0, 0.0), radial: 0.3 },
        GasBrush { center: (45.0, 5.0), radius: 4.0, scale: 0.0, add: 1.0, velocity: (0.0, 0.0), radial: 0.0 },
    ] {
        g.brush(&b);
        c.brush(&b);
    }
    g.step(1).unwrap();
    c.step(1).unwrap();
    let (gs, cs) = (g.read_state().unwrap(), c.state().clone());
    gpu.check().unwrap();
    common::assert_close_rel(
        "gas-brush",
        &[
            ("density", &gs.density, &cs.density),
            ("momentum_x", &gs.momentum_x, &cs.momentum_x),
            ("momentum_y", &gs.momentum_y, &cs.momentum_y),
        ],
        1e-5,
        |_, _| {},
    );
}

/// The gas's push on moving bodies (the forces pass: `apply.wgsl`'s fixed-point sums, logged by
/// `body_forces.wgsl`) against the CPU mirror (`gas::cpu::apply`'s), step by step for three
/// steps, over the bodies and random states of `moving_bodies_match_cpu`, both reconstructions
/// and neighbourhoods. The sums are integers, the same in any order, so what is left is the
/// rounding of the fluxes each piece comes from (the states agree to 1e-5): allowed 1e-4 of
/// the largest force component (or torque), and 1e-5 absolute.
#[test]
fn the_gas_pushes_moving_bodies_as_the_cpu_sums_it() {
    let gpu = common::gpu();
    let d = GasParams::default();
    let mut seed = 700;
    for base in [d, GasParams { reconstruction: Reconstruction::Constant, ..d }] {
        for neighbours in [Neighbours::Eight, Neighbours::Four] {
            let p = GasParams { neighbours, ..base };
            seed += 1;
            let state = gas_with_bodies(seed, 0.02);
            let mut g = GpuGas::new(&gpu.device, &gpu.queue, &state, p).unwrap();
            let mut cpu = state.clone();
            eddy_fluid::gas::bodies::place(&mut cpu, &p);
            for step in 1..=3u64 {
                let want = eddy_fluid::gas::cpu::step(&mut cpu, &p);
                g.step(1).unwrap();
                let log = g.force_log().unwrap().read(&gpu.device, &gpu.queue).unwrap();
                let got = &log.last().expect("a step logged").forces;
                assert_eq!(log.last().unwrap().step, step);
                let scale = want.iter().flat_map(|f| [f.fx.abs(), f.fy.abs(), f.torque.abs()]).fold(0.0f32, f32::max);
                assert!(scale > 1e-3, "seed {seed}: the bodies feel no push ({want:?})");
                for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                    for (x, y) in [(a.fx, b.fx), (a.fy, b.fy), (a.torque, b.torque)] {
                        assert!(
                            (x - y).abs() <= 1e-4 * scale + 1e-5,
                            "seed {seed} {neighbours:?} step {step}: body {i} got {a:?} on the GPU, {b:?} on the CPU"
                        );
                    }
                }
            }
            gpu.check().unwrap();
        }
    }
}

/// Free bodies in the gas (`gas::bodies::dynamics`: each answers the gas's push, the
/// added-mass-corrected coupling, then its contacts) on the GPU against the CPU reference: a
/// light disc, a heavy box and a plate as dense as the gas, over a random state without walls
/// (walls beside a body make every step a contact, whose answer turns on rounding: contacts have
/// their own tests), both reconstructions and neighbourhoods, after 5 steps: the states within
/// 1e-4 of the largest value and the bodies within 1e-5 cells, as for driven bodies; the
/// velocities within 1e-3 of the largest (they come from the pushes, which carry the states'
/// rounding). The test proves something: each free body's velocity changed.
#[test]
fn free_bodies_match_cpu() {
    let d = GasParams::default();
    let mut seed = 800;
    for base in [d, GasParams { reconstruction: Reconstruction::Constant, ..d }] {
        for neighbours in [Neighbours::Eight, Neighbours::Four] {
            let p = GasParams { neighbours, ..base };
            seed += 1;
            let mut state = gas_with_bodies(seed, 0.0);
            for (b, density) in state.bodies.iter_mut().zip([0.5, 3.0, 1.0]) {
                b.density = Some(density);
            }
            let name = format!("gas-free-bodies-seed{seed}-{neighbours:?}");
            compare_state(&name, state.clone(), p, 5, 1e-4);
            let gpu = common::gpu();
            let mut g = GpuGas::new(&gpu.device, &gpu.queue, &state, p).unwrap();
            let mut c = CpuGas::new(state.clone(), p).unwrap();
            g.step(5).unwrap();
            c.step(5).unwrap();
            let gb = g.read_state().unwrap().bodies;
            let cb = &c.state().bodies;
            let scale = cb.iter().flat_map(|b| [b.vx.abs(), b.vy.abs(), b.spin.abs()]).fold(1e-3f32, f32::max);
            for ((a, b), start) in gb.iter().zip(cb).zip(&state.bodies) {
                for (x, y) in [(a.vx, b.vx), (a.vy, b.vy), (a.spin, b.spin)] {
                    assert!((x - y).abs() <= 1e-3 * scale, "{name}: the GPU's {a:?}, the CPU's {b:?}");
                }
                assert!((b.vx - start.vx).abs() + (b.vy - start.vy).abs() > 1e-4, "{name}: {b:?} kept its velocity");
            }
        }
    }
}
