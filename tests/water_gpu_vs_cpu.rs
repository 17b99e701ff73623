//! The GPU water step against the CPU reference (Elsts' push loop), from random states.

mod common;

use eddy_fluid::GpuModel;
use eddy_fluid::Simulation;
use eddy_fluid::gpu::DeviceCaps;
use eddy_fluid::water::{Boundary, CpuWater, GpuWater, RulePreset, WaterParams};

fn params(preset: RulePreset, boundary: Boundary) -> WaterParams {
    WaterParams { boundary, ..WaterParams::preset(preset) }
}

/// Runs `steps` steps on both backends from the same random state and compares.
fn compare(seed: u64, (w, h): (usize, usize), p: WaterParams, steps: u32, tol: f32) {
    let gpu = common::gpu();
    let state = common::random_water(w, h, seed, 0.15);
    let mut g = GpuWater::new(&gpu.device, &gpu.queue, &state, p).unwrap();
    let mut c = CpuWater::new(state, p).unwrap();
    g.step(steps).unwrap();
    c.step(steps).unwrap();
    let gs = g.read_state().unwrap();
    gpu.check().unwrap();
    let name = format!("water-seed{seed}-{w}x{h}-{:?}-{:?}-{steps}steps", p.boundary, p.side_share);
    common::assert_fields_close(&name, &gs, c.state(), tol);
}

const CASES: [(RulePreset, Boundary); 4] = [
    (RulePreset::Elsts, Boundary::Wall),
    (RulePreset::Elsts, Boundary::Open),
    (RulePreset::Unity, Boundary::Wall),
    (RulePreset::Unity, Boundary::Open),
];

/// Grid sizes that are not multiples of the workgroup, to exercise the edges: widths leaving 3,
/// 2 and no padding cells in the last packed texel, an odd and an even count of texels a row
/// (the step writes two texels an invocation: 33 and 1 leave the last invocation one), heights
/// that end mid-strip and shorter than a strip (the step walks 32 texel rows an invocation on a
/// CPU adapter, 8 on a GPU; `every_strip_matches_cpu_exactly` tries others).
const SIZES: [(usize, usize); 6] = [(37, 23), (64, 64), (129, 70), (38, 17), (6, 2), (3, 21)];

/// Every comparison here is to the bit (tolerance 0): the GPU gather adds and subtracts in the
/// push loop's order (see the 100-step test below), so any difference is a defect.
#[test]
fn one_step_matches_cpu_exactly() {
    let mut seed = 0;
    for (preset, boundary) in CASES {
        for size in SIZES {
            for _ in 0..4 {
                seed += 1;
                compare(seed, size, params(preset, boundary), 1, 0.0);
            }
        }
    }
}

/// The step's strip (texel rows an invocation walks: 32 on a CPU adapter, 8 on a GPU) changes
/// only which invocation computes a row, never what: strips of 1, 5, 8 and 32 rows, against the
/// CPU to the bit, over the sizes above (heights ending mid-strip and shorter than one).
#[test]
fn every_strip_matches_cpu_exactly() {
    let gpu = common::gpu();
    let p = params(RulePreset::Elsts, Boundary::Open);
    for (i, (w, h)) in SIZES.into_iter().enumerate() {
        let state = common::random_water(w, h, 3000 + i as u64, 0.15);
        let mut c = CpuWater::new(state.clone(), p).unwrap();
        c.step(5).unwrap();
        for strip in [1, 5, 8, 32] {
            let caps = DeviceCaps { strip, ..gpu.caps.clone() };
            let mut g = GpuWater::with_caps(&gpu.device, &caps, &gpu.queue, &state, p).unwrap();
            g.step(5).unwrap();
            let name = format!("water-strip{strip}-{w}x{h}");
            common::assert_fields_close(&name, &g.read_state().unwrap(), c.state(), 0.0);
        }
    }
    gpu.check().unwrap();
}

/// A state with no solids at all (and one that is all water) also agrees: the edge cells
/// then meet the boundary rule everywhere along the border.
#[test]
fn extremes_match_cpu() {
    for boundary in [Boundary::Wall, Boundary::Open] {
        let p = params(RulePreset::Elsts, boundary);
        compare(77, (40, 30), p, 10, 0.0);
        let gpu = common::gpu();
        let mut full = common::random_water(40, 30, 78, 0.0);
        full.mass.as_mut_slice().iter_mut().for_each(|m| *m = 1.2);
        let mut g = GpuWater::new(&gpu.device, &gpu.queue, &full, p).unwrap();
        let mut c = CpuWater::new(full, p).unwrap();
        g.step(10).unwrap();
        c.step(10).unwrap();
        common::assert_fields_close(&format!("water-full-{boundary:?}"), &g.read_state().unwrap(), c.state(), 0.0);
    }
}

/// The boundary and the walls changed between runs of steps, as the viewer and scripts change
/// them, agree with the CPU to the bit (tolerance 0, as above): the step reads the boundary
/// from its uniform and which cells are solid from the signs its pack pass gives the masses
/// (`shaders/water/pack.wgsl`), so both must follow each change, at the grid's edges and in the
/// padding cells past its last column (37 columns: 3 padding cells).
#[test]
fn boundary_and_walls_changed_mid_run_match_cpu() {
    let gpu = common::gpu();
    let state = common::random_water(37, 23, 31, 0.15);
    let wall = params(RulePreset::Elsts, Boundary::Wall);
    let open = params(RulePreset::Elsts, Boundary::Open);
    let mut g = GpuWater::new(&gpu.device, &gpu.queue, &state, wall).unwrap();
    let mut c = CpuWater::new(state, wall).unwrap();
    g.step(5).unwrap();
    c.step(5).unwrap();
    for (i, p) in [open, wall, open].into_iter().enumerate() {
        g.set_params(p).unwrap();
        let mut s = c.state().clone();
        if i == 1 {
            // New walls: the cells that become solid are emptied, as `upload_solid` does.
            let solid = common::random_water(37, 23, 32, 0.2).solid;
            g.upload_solid(&solid).unwrap();
            for (m, &w) in s.mass.as_mut_slice().iter_mut().zip(solid.as_slice()) {
                if w != 0 {
                    *m = 0.0;
                }
            }
            s.solid = solid;
        }
        c = CpuWater::new(s, p).unwrap();
        g.step(7).unwrap();
        c.step(7).unwrap();
        let name = format!("water-changed-{i}-{:?}", p.boundary);
        common::assert_fields_close(&name, &g.read_state().unwrap(), c.state(), 0.0);
    }
}

/// The brush (pour and erase discs) against its CPU mirror, then a step on top.
#[test]
fn brush_matches_cpu() {
    let gpu = common::gpu();
    let state = common::random_water(50, 40, 9, 0.1);
    let p = WaterParams::default();
    let mut g = GpuWater::new(&gpu.device, &gpu.queue, &state, p).unwrap();
    let mut c = CpuWater::new(state, p).unwrap();
    for b in [
        eddy_fluid::water::Brush { center: (12.3, 20.7), radius: 6.5, scale: 1.0, add: 0.75 },
        eddy_fluid::water::Brush { center: (40.0, 5.0), radius: 9.0, scale: 0.0, add: 0.0 },
    ] {
        g.brush(&b);
        c.brush(&b);
    }
    g.step(3).unwrap();
    c.step(3).unwrap();
    common::assert_fields_close("water-brush", &g.read_state().unwrap(), c.state(), 0.0);
}

/// The gather adds a cell's inflows and subtracts its outflows in the push loop's own order
/// (`shaders/water/step.wgsl`), and the flows are computed with the same operations, so the
/// GPU gives the CPU's result to the bit, step after step: tolerance 0.
#[test]
fn hundred_steps_equal_cpu_bit_for_bit() {
    let mut seed = 2000;
    for (preset, boundary) in CASES {
        for size in SIZES {
            seed += 1;
            compare(seed, size, params(preset, boundary), 100, 0.0);
        }
    }
}
