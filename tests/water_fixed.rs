//! Fixed-point water (`eddy_fluid::water::fixed`): the GPU's integer rules
//! (`water/rules_fixed.wgsl`) against the CPU mirror's, bit for bit, dense and sleeping; the
//! mass kept exactly (integer sums); a U-tube levelled; and the limits refused.

mod common;

use eddy_fluid::body::{Body, Shape};
use eddy_fluid::gpu::DeviceCaps;
use eddy_fluid::grid::Grid;
use eddy_fluid::scene::Scene;
use eddy_fluid::water::fixed::{self, UNIT};
use eddy_fluid::water::hash::state_hash;
use eddy_fluid::water::{Arithmetic, Boundary, Brush, CpuWater, GpuWater, RulePreset, WaterParams, WaterState};
use eddy_fluid::{GpuModel, Simulation};

fn fixed_params(preset: RulePreset, boundary: Boundary) -> WaterParams {
    WaterParams { boundary, arithmetic: Arithmetic::Fixed, ..WaterParams::preset(preset) }
}

/// The total mass in whole units, summed exactly.
fn units(mass: &Grid<f32>) -> i64 {
    mass.as_slice().iter().map(|&m| i64::from(fixed::to_units(m))).sum()
}

fn assert_same(name: &str, step: u64, cpu: &Grid<f32>, gpu: &Grid<f32>) {
    if let Some((r, c)) = common::first_difference(cpu, gpu) {
        panic!(
            "{name}: after step {step} the GPU differs first at (row {r}, col {c}): CPU {:e}, GPU {:e}",
            cpu[(r, c)],
            gpu[(r, c)]
        );
    }
}

/// The GPU's fixed-point step equals the CPU mirror's to the bit: random states (15% walls,
/// masses 0 to 1.5, rounded down to the unit as both take them) on grids with padding in the last
/// packed texel and heights that end mid-strip, both rule presets and both boundaries, 200 steps
/// compared after every 20; strips of 1, 5 and 32 rows; and with MaxMass 0.73 and MaxCompress 1.9
/// (near fixed point's limit), whose stable state's quotients reach 31,000, where the shader's
/// division through f32 is most often corrected. Integer arithmetic leaves no rounding to differ
/// in, so any difference is a defect.
#[test]
fn the_gpu_steps_fixed_point_water_as_the_cpu_does_bit_for_bit() {
    let g = common::gpu();
    let mut seed = 100;
    let compressible = |p: WaterParams| WaterParams { max_mass: 0.73, max_compress: 1.9, ..p };
    for preset in [RulePreset::Elsts, RulePreset::Unity] {
        for boundary in [Boundary::Wall, Boundary::Open] {
            for (size, strip) in [((37, 23), 32), ((129, 70), 5), ((6, 2), 1), ((64, 64), 32), ((96, 48), 32)] {
                seed += 1;
                let p = fixed_params(preset, boundary);
                let p = if size == (96, 48) { compressible(p) } else { p };
                let state = common::random_water(size.0, size.1, seed, 0.15);
                let caps = DeviceCaps { strip, ..DeviceCaps::of(&g.device) };
                let mut gpu = GpuWater::with_caps(&g.device, &caps, &g.queue, &state, p).unwrap();
                let mut cpu = CpuWater::new(state, p).unwrap();
                let name = format!("{preset:?} {boundary:?} {size:?} strip {strip}");
                assert_same(&name, 0, &cpu.state().mass, &gpu.read_mass().unwrap());
                for k in 1..=10 {
                    gpu.step(20).unwrap();
                    cpu.step(20).unwrap();
                    assert_same(&name, 20 * k, &cpu.state().mass, &gpu.read_mass().unwrap());
                }
            }
        }
    }
    g.check().unwrap();
}

/// Fixed-point water keeps its mass to the unit: the sum of the units of a closed basin (and of
/// a random state with walls) is the same after 5000 steps on the GPU, exactly, where the floats
/// drift by rounding (`tests/water_invariants.rs` allows them 1e-4).
#[test]
fn fixed_point_water_keeps_its_mass_exactly() {
    let g = common::gpu();
    let p = fixed_params(RulePreset::Elsts, Boundary::Wall);
    let basin = WaterState::from_scene(&Scene::preset("basin", 96, 64, 0).unwrap());
    for (name, state) in [("basin 96x64", basin), ("random 80x60", common::random_water(80, 60, 5, 0.15))] {
        let mut sim = GpuWater::new(&g.device, &g.queue, &state, p).unwrap();
        let before = units(&sim.read_mass().unwrap());
        for _ in 0..10 {
            sim.step(500).unwrap();
        }
        let after = units(&sim.read_mass().unwrap());
        println!("{name}: {before} units ({} full cells) before, {after} after 5000 steps", before as f32 / UNIT);
        assert!(before > 0);
        assert_eq!(after, before, "{name}: the mass in units changed over 5000 steps");
    }
    g.check().unwrap();
}

/// Height of water (cells) in columns `cols` over rows `rows`.
fn level(mass: &Grid<f32>, cols: std::ops::Range<usize>, rows: std::ops::Range<usize>) -> f32 {
    let n = cols.len() as f32;
    let total: f32 = rows.flat_map(|r| cols.clone().map(move |c| (r, c))).map(|rc| mass[rc].min(1.0)).sum();
    total / n
}

/// Fixed-point water still levels a U-tube (the communicating vessels `tests/water_invariants.rs`
/// holds the floats to): the arms of the 48 x 48 preset, 10 cells apart at the start, end within
/// one cell of each other after 60,000 steps, with the mass kept to the unit.
#[test]
fn fixed_point_water_levels_a_u_tube() {
    let (w, h) = (48, 48);
    let start = WaterState::from_scene(&Scene::preset("u-tube", w, h, 0).unwrap());
    let (left, right) = (
        (w as f32 * 0.15) as usize..(w as f32 * 0.35) as usize,
        (w as f32 * 0.65) as usize..(w as f32 * 0.85) as usize,
    );
    let arms = 0..(h as f32 * 0.72) as usize;
    let before = (level(&start.mass, left.clone(), arms.clone()), level(&start.mass, right.clone(), arms.clone()));
    assert!(before.0 - before.1 > 10.0, "the preset should start with the left arm fuller: {before:?}");
    let g = common::gpu();
    let mut sim = GpuWater::new(&g.device, &g.queue, &start, fixed_params(RulePreset::Elsts, Boundary::Wall)).unwrap();
    for _ in 0..60 {
        sim.step(1000).unwrap();
    }
    let end = sim.read_mass().unwrap();
    g.check().unwrap();
    let after = (level(&end, left, arms.clone()), level(&end, right, arms));
    println!("fixed-point u-tube 48x48, 60000 steps: arm levels (left, right) {before:?} -> {after:?}");
    assert!((after.0 - after.1).abs() <= 1.0, "levels went from {before:?} to {after:?}: not within one cell");
    assert_eq!(units(&end), units(&start.mass), "the u-tube's mass in units");
}

/// Water that sleeps gives fixed-point water's dense steps bit for bit, on the GPU, with edits
/// (pours, an erase; masses rounded down to the unit by the brush) and both boundaries: 1000
/// steps in runs of 1 and 10; and fixed-point water comes to rest exactly, so the awake tiles of
/// a settled basin fall to none (Elsts' small flows, rounded down to nothing, stop).
#[test]
fn sleeping_fixed_point_water_is_its_dense_step_bit_for_bit_and_comes_to_rest() {
    let g = common::gpu();
    let basin = WaterState::from_scene(&Scene::preset("basin", 96, 64, 0).unwrap());
    for boundary in [Boundary::Wall, Boundary::Open] {
        let p = fixed_params(RulePreset::Elsts, boundary);
        let mut dense = GpuWater::new(&g.device, &g.queue, &basin, p).unwrap();
        let caps = DeviceCaps { strip: 2, ..DeviceCaps::of(&g.device) };
        let mut sparse = GpuWater::with_caps(&g.device, &caps, &g.queue, &basin, p).unwrap();
        sparse.set_sleeping(Some(4)).unwrap();
        let mut step = 0u64;
        while step < 1000 {
            for b in match step {
                100 => vec![Brush::pour((30.0, 10.0), 4.3)],
                400 => vec![
                    Brush::erase((60.0, 50.0), 6.0),
                    Brush { center: (20.0, 5.0), radius: 3.0, scale: 0.7, add: 0.01 },
                ],
                _ => vec![],
            } {
                dense.brush(&b);
                sparse.brush(&b);
            }
            let run = if step < 500 { 1 } else { 10 };
            dense.step(run).unwrap();
            sparse.step(run).unwrap();
            step += u64::from(run);
            assert_same(
                &format!("sleeping, {boundary:?}"),
                step,
                &dense.read_mass().unwrap(),
                &sparse.read_mass().unwrap(),
            );
        }
        if boundary == Boundary::Wall {
            // 30,000 steps more without edits: the basin settles, every tile asleep (measured:
            // by 25,000 steps; the floats' surface keeps 3 of the 6 tiles awake through 60,000).
            for _ in 0..30 {
                sparse.step(1000).unwrap();
            }
            let awake = sparse.awake_tiles().unwrap().unwrap();
            println!("fixed-point basin after 31,000 steps: {} of {} tiles awake", awake.awake, awake.all);
            assert_eq!(awake.awake, 0, "a settled fixed-point basin should sleep whole");
        }
    }
    g.check().unwrap();
}

/// The hash of fixed-point water after 1000 steps of the U-tube and basin presets is the CPU
/// mirror's, natively; the browser tests (`tests/web.rs`) hold Chromium's WebGPU to the same CPU
/// mirror, so the hash is the same on both adapters. The water page's table of hashes across
/// adapters gives the CPU mirror's in every column (a change to the rules or the hash that left
/// it behind fails here).
#[test]
fn fixed_point_hashes_after_1000_steps_are_the_cpu_mirrors() {
    let g = common::gpu();
    let p = fixed_params(RulePreset::Elsts, Boundary::Wall);
    for preset in ["u-tube", "basin"] {
        let state = WaterState::from_scene(&Scene::preset(preset, 128, 96, 0).unwrap());
        let mut gpu = GpuWater::new(&g.device, &g.queue, &state, p).unwrap();
        let mut cpu = CpuWater::new(state, p).unwrap();
        gpu.step(1000).unwrap();
        cpu.step(1000).unwrap();
        let (gh, ch) = (gpu.state_hash().unwrap(), state_hash(&cpu.state().mass, &cpu.state().solid));
        println!("fixed-point {preset} 128x96, 1000 steps: hash {gh:016x} on {}", g.adapter_label());
        assert_eq!(gh, ch, "{preset}: GPU hash {gh:016x}, CPU {ch:016x}");
        let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/models/water.md")).unwrap();
        let row = page.lines().find(|l| l.starts_with(&format!("| `{preset}` | `"))).expect("the page's row");
        let said: Vec<&str> = row.split('|').map(str::trim).filter(|c| !c.is_empty()).skip(1).collect();
        assert_eq!(said.len(), 4, "{row}");
        for cell in said {
            assert_eq!(cell, format!("`{ch:016x}`"), "docs/models/water.md's {preset} row: {row}");
        }
    }
    g.check().unwrap();
}

/// Switching a running model from float to fixed point rounds its masses down to the unit, and
/// from then on steps as the CPU mirror does from those masses; bodies in fixed-point water, and
/// constants out of fixed point's range, are refused with a line saying what to do, and change
/// nothing.
#[test]
fn switching_to_fixed_point_rounds_the_masses_and_limits_are_refused() {
    let g = common::gpu();
    let state = common::random_water(50, 40, 9, 0.1);
    let float = WaterParams::default();
    let mut sim = GpuWater::new(&g.device, &g.queue, &state, float).unwrap();
    sim.step(30).unwrap();
    let mut mass = sim.read_mass().unwrap();
    let fixed = WaterParams { arithmetic: Arithmetic::Fixed, ..float };
    sim.set_params(fixed).unwrap();
    fixed::quantize_grid(&mut mass);
    assert_same("switched to fixed point", 30, &mass, &sim.read_mass().unwrap());
    let mut cpu = CpuWater::new(WaterState { mass, ..state.clone() }, fixed).unwrap();
    sim.step(100).unwrap();
    cpu.step(100).unwrap();
    assert_same("fixed point after the switch", 130, &cpu.state().mass, &sim.read_mass().unwrap());

    let body = Body::new(Shape::Circle { radius: 3.0 }, 25.0, 10.0);
    let err = sim.set_bodies(std::slice::from_ref(&body)).unwrap_err().to_string();
    assert!(err.contains("fixed-point water takes no bodies"), "{err}");
    assert!(sim.body_list().is_empty());
    let err = CpuWater::new(WaterState { bodies: vec![body], ..state }, fixed).err().unwrap().to_string();
    assert!(err.contains("set arithmetic to float"), "{err}");
    for (bad, name) in [
        (WaterParams { max_compress: 3.0, ..fixed }, "max-compress"),
        (WaterParams { max_mass: 2000.0, ..fixed }, "max-mass"),
        (WaterParams { side_share: 1e-6, ..fixed }, "side-share"),
    ] {
        let err = sim.set_params(bad).unwrap_err().to_string();
        assert!(err.contains(name) && err.contains("set arithmetic to float"), "{err}");
        assert_eq!(sim.params(), fixed, "a refused change leaves the parameters");
        assert!(bad.validate().is_err() && WaterParams { arithmetic: Arithmetic::Float, ..bad }.validate().is_ok());
    }
    g.check().unwrap();
}
