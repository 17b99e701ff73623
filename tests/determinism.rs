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
