//! The water's state hash (`eddy_fluid::water::hash`): the GPU's (`water/hash.wgsl`) against the
//! CPU mirror's, and what changes it.

mod common;

use eddy_fluid::water::hash::state_hash;
use eddy_fluid::water::{CpuWater, GpuWater, WaterParams, WaterState};
use eddy_fluid::{GpuModel, Simulation};

/// The GPU hashes what the CPU hashes: random states (15% walls, masses from 0 to 1.5) on grids
/// whose widths leave padding in the last packed texel and whose heights are not multiples of a
/// workgroup, as uploaded and after 50 steps (the GPU's steps are the CPU's to the bit, so the
/// hashes of the two runs' states agree too); and each equals the hash of the state read back.
#[test]
fn the_gpu_hashes_the_state_as_the_cpu_does() {
    let g = common::gpu();
    for (seed, (w, h)) in [(1, (37, 23)), (2, (64, 64)), (3, (129, 70)), (4, (3, 21))] {
        let state = common::random_water(w, h, seed, 0.15);
        let p = WaterParams::default();
        let mut gpu = GpuWater::new(&g.device, &g.queue, &state, p).unwrap();
        assert_eq!(gpu.state_hash().unwrap(), state_hash(&state.mass, &state.solid), "seed {seed}: as uploaded");
        let mut cpu = CpuWater::new(state, p).unwrap();
        gpu.step(50).unwrap();
        cpu.step(50).unwrap();
        let read = gpu.read_state().unwrap();
        let hash = gpu.state_hash().unwrap();
        assert_eq!(hash, state_hash(&read.mass, &read.solid), "seed {seed}: the state read back");
        assert_eq!(hash, state_hash(&cpu.state().mass, &cpu.state().solid), "seed {seed}: the CPU's run");
    }
    g.check().unwrap();
}

/// Any one cell changes the hash: the last bit of one cell's mass, anywhere (every cell of a
/// 16 x 12 grid in turn), a wall drawn in a dry cell, and two cells' masses swapped (the sum is
/// over the cells' lanes, and each lane mixes in the cell's index).
#[test]
fn one_cell_changes_the_hash() {
    let state = common::random_water(16, 12, 7, 0.15);
    let base = state_hash(&state.mass, &state.solid);
    let mut seen = std::collections::HashSet::from([base]);
    for i in 0..16 * 12 {
        let mut s = state.clone();
        let m = &mut s.mass.as_mut_slice()[i];
        *m = f32::from_bits(m.to_bits() ^ 1);
        assert!(seen.insert(state_hash(&s.mass, &s.solid)), "flipping cell {i}'s last bit hit a hash seen before");
    }
    let mut dry = WaterState::empty(8, 8);
    let empty = state_hash(&dry.mass, &dry.solid);
    dry.solid[(3, 4)] = 1;
    assert_ne!(state_hash(&dry.mass, &dry.solid), empty, "a wall in a dry cell");
    let (a, b) = ((0usize, 0usize), (5usize, 9usize));
    let mut swapped = state.clone();
    swapped.mass[a] = state.mass[b];
    swapped.mass[b] = state.mass[a];
    assert_ne!(state.mass[a], state.mass[b]);
    assert_ne!(state_hash(&swapped.mass, &swapped.solid), base, "two cells' masses swapped");
}

/// The hash records into the caller's encoder, in order (the embedding contract): steps recorded
/// into an encoder and the hash after them in the same encoder give the hash of the stepped
/// state, the CPU's after as many steps.
#[test]
fn the_hash_records_into_the_callers_encoder_after_its_steps() {
    let g = common::gpu();
    let state = common::random_water(40, 30, 11, 0.15);
    let p = WaterParams::default();
    let mut gpu = GpuWater::new(&g.device, &g.queue, &state, p).unwrap();
    let mut encoder = g.device.create_command_encoder(&Default::default());
    gpu.encode_steps(&mut encoder, 10);
    let copy = gpu.encode_state_hash(&mut encoder);
    g.queue.submit([encoder.finish()]);
    let hash = eddy_fluid::gpu::wait(&g.device, copy.read(g.device.clone())).unwrap().unwrap();
    let mut cpu = CpuWater::new(state, p).unwrap();
    cpu.step(10).unwrap();
    assert_eq!(hash, state_hash(&cpu.state().mass, &cpu.state().solid));
    g.check().unwrap();
}
