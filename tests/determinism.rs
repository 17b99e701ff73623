//! Same input, same output: every model and solver gives byte-identical states however its
//! steps are batched and however often its statistics are read (the multigrid V-cycle count
//! was once re-planned at each statistics readback, whose timing depends on the machine's
//! speed). The command line's half (two runs, and scripts) is in `tests/hostile.rs`.

mod common;

use eddy_fluid::gas::{GasParams, Neighbours};
use eddy_fluid::model::{AnyModel, AnyState, AnyStats, ModelParams};
use eddy_fluid::scene::SceneSource;
use eddy_fluid::smoke::{SmokeParams, SmokePreset, Solver};
use eddy_fluid::water::{RulePreset, WaterParams};

/// Every model and solver, with the preset scene that starts it.
fn cases() -> Vec<(&'static str, &'static str, ModelParams)> {
    let staggered = SmokeParams::preset(SmokePreset::Staggered);
    vec![
        ("water elsts", "basin", ModelParams::Water(WaterParams::preset(RulePreset::Elsts))),
        ("water unity", "u-tube", ModelParams::Water(WaterParams::preset(RulePreset::Unity))),
        ("smoke staggered jacobi", "plume", ModelParams::Smoke(staggered)),
        (
            "smoke staggered multigrid",
            "plume",
            ModelParams::Smoke(SmokeParams { solver: Solver::Multigrid, ..staggered }),
        ),
        ("smoke cavity (multigrid 1e-5)", "cavity", ModelParams::Smoke(SmokeParams::preset(SmokePreset::Cavity))),
        ("smoke gpu-gems (collocated)", "plume", ModelParams::Smoke(SmokeParams::preset(SmokePreset::GpuGems))),
        ("gas 8-way", "explosion", ModelParams::Gas(GasParams::default())),
        ("gas 4-way", "explosion", ModelParams::Gas(GasParams { neighbours: Neighbours::Four, ..Default::default() })),
    ]
}

/// The `.npz` bytes after `steps` steps, run as `batches` (step counts in order), reading the
/// statistics after each batch when `stats` is set.
fn run(gpu: &eddy_fluid::gpu::Gpu, start: &AnyState, params: &ModelParams, batches: &[u32], stats: bool) -> Vec<u8> {
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, start, params, 0).unwrap();
    for &n in batches {
        model.step(n).unwrap();
        if stats {
            model.stats().unwrap();
        }
    }
    gpu.check().unwrap();
    model.read_state().unwrap().to_npz_bytes(0, None).unwrap() // step 0: the bytes say only the state
}

#[test]
fn every_model_and_solver_is_the_same_however_its_steps_are_batched() {
    let gpu = common::gpu();
    const STEPS: u32 = 60;
    for (label, scene, params) in cases() {
        let start = AnyState::start(&SceneSource::Preset(scene.into()), (48, 40), 3, &params).unwrap();
        // One batch; one step at a time with a statistics readback after each (which re-planned
        // the V-cycles every step); uneven batches that straddle the plan points.
        let whole = run(&gpu, &start, &params, &[STEPS], false);
        let single = run(&gpu, &start, &params, &[1; STEPS as usize], true);
        let uneven = run(&gpu, &start, &params, &[3, 14, 1, 25, 17], true);
        assert!(whole == single, "{label}: 60 steps at once and one at a time with statistics differ");
        assert!(whole == uneven, "{label}: 60 steps at once and in batches 3, 14, 1, 25, 17 differ");
        let moved = run(&gpu, &start, &params, &[STEPS + 1], false);
        assert!(whole != moved, "{label}: a 61st step changes nothing, so this comparison cannot fail");
        // The plan adapts (all batchings would also agree if it never planned at all): after
        // the first plan points a warm start needs fewer V-cycles than a cold one.
        if let ModelParams::Smoke(p) = params
            && p.solver == Solver::Multigrid
        {
            let mut model = AnyModel::new(&gpu.device, &gpu.queue, &start, &params, 0).unwrap();
            model.step(STEPS).unwrap();
            let AnyStats::Smoke(stats) = model.stats().unwrap() else { unreachable!() };
            let cold = eddy_fluid::solver::plan::CyclePlan::new(p.tolerance, p.max_cycles, 0).cycles();
            let planned = stats.solver_cycles.expect("multigrid reports its cycles");
            assert!(planned < cold, "{label}: still {planned} V-cycles a step after {STEPS} steps (cold start {cold})");
            println!("{label}: {planned} V-cycles a step after {STEPS} steps, from {cold} at the cold start");
        }
        println!("{label}: 60 steps byte-identical in 3 batchings ({} bytes)", whole.len());
    }
}

/// Free bodies and their contacts (`src/body/contact.rs`) keep it too: the contact points, where
/// the GPU reads its bodies back (and, natively, asks for a copy half way to each), come at
/// steps the state decides, and a run keeps to them however it is batched. Smoke with a heavy
/// disc dropped towards the floor beside a light one rising, water with two crates drifting into
/// each other; 90 steps, by the end of which some body of each is within half a cell of touching
/// something (so contacts were taken). (Gas cushions its bodies: a disc thrown at the box's wall
/// stopped 1.3 cells short of it, the compressed gas between pushing it back.)
#[test]
fn free_bodies_and_their_contacts_are_the_same_however_the_steps_are_batched() {
    use eddy_fluid::body::{Body, Shape};
    let gpu = common::gpu();
    const STEPS: u32 = 90;
    let free = |shape, x, y, density: f32| Body { density: Some(density), ..Body::new(shape, x, y) };
    let cases: Vec<(&str, &str, ModelParams, Vec<Body>)> = vec![
        (
            "smoke",
            "plume",
            ModelParams::Smoke(SmokeParams { gravity: 3.0, ..SmokeParams::preset(SmokePreset::Staggered) }),
            vec![
                free(Shape::Circle { radius: 4.0 }, 12.0, 30.0, 3.0),
                free(Shape::Circle { radius: 3.0 }, 36.0, 10.0, 0.3),
            ],
        ),
        (
            "water",
            "basin",
            ModelParams::Water(WaterParams::preset(RulePreset::Elsts)),
            vec![
                Body { vx: 0.3, ..free(Shape::Box { half_width: 5.0, half_height: 2.5 }, 12.0, 14.0, 0.5) },
                Body { vx: -0.3, ..free(Shape::Box { half_width: 5.0, half_height: 2.5 }, 34.0, 14.0, 0.5) },
            ],
        ),
    ];
    for (label, scene, params, bodies) in cases {
        let mut start = AnyState::start(&SceneSource::Preset(scene.into()), (48, 40), 3, &params).unwrap();
        match &mut start {
            AnyState::Smoke(s) => s.bodies = bodies,
            AnyState::Water(s) => s.bodies = bodies,
            AnyState::Gas(s) => s.bodies = bodies,
            _ => unreachable!("eddy's models"),
        }
        let whole = run(&gpu, &start, &params, &[STEPS], false);
        let single = run(&gpu, &start, &params, &[1; STEPS as usize], true);
        let uneven = run(&gpu, &start, &params, &[7, 2, 30, 1, 50], true);
        assert!(whole == single, "{label}: {STEPS} steps at once and one at a time differ");
        assert!(whole == uneven, "{label}: {STEPS} steps at once and in batches 7, 2, 30, 1, 50 differ");
        let mut model = AnyModel::new(&gpu.device, &gpu.queue, &start, &params, 0).unwrap();
        model.step(STEPS).unwrap();
        let (bodies, solid) = match model.read_state().unwrap() {
            AnyState::Smoke(s) => (s.bodies, s.solid),
            AnyState::Water(s) => (s.bodies, s.solid),
            AnyState::Gas(s) => (s.bodies, s.solid),
            _ => unreachable!("eddy's models"),
        };
        let (h, w) = solid.shape();
        let d =
            eddy_fluid::body::dynamics::Dynamics { max_step: 0.0, size: (w as f32, h as f32), ..dynamics_of(&params) };
        let walls = eddy_fluid::body::walls(&solid);
        let nearest =
            (0..bodies.len()).map(|i| eddy_fluid::body::contact::gap(i, &bodies, &walls, &d)).fold(f32::MAX, f32::min);
        assert!(nearest < 0.5, "{label}: no body came within half a cell of anything (nearest {nearest}): {bodies:?}");
        println!("{label}: free bodies, {STEPS} steps byte-identical in 3 batchings; nearest gap {nearest:.3}");
    }
}

/// The free bodies' dynamics of `params`' model on a grid of no size (the caller sets it).
fn dynamics_of(params: &ModelParams) -> eddy_fluid::body::dynamics::Dynamics {
    match params {
        ModelParams::Smoke(p) => eddy_fluid::smoke::staggered::bodies::dynamics(p, (0, 0)),
        ModelParams::Water(p) => eddy_fluid::water::bodies::dynamics(p, (0, 0)),
        ModelParams::Gas(_) => eddy_fluid::gas::bodies::dynamics((0, 0)),
        _ => unreachable!("eddy's models"),
    }
}
