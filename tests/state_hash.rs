//! Every model's state hash (`eddy_fluid::gpu::state_hash`): the GPU's passes
//! (`common/hash_float.wgsl`, `common/hash_uint.wgsl`) against the CPU's `hash_words` of the same
//! textures read back, and runs that replay from a saved state ending with the same hash. Water's
//! own hash has its tests in `tests/water_hash.rs`.

mod common;

use eddy_fluid::GpuModel;
use eddy_fluid::gas::{GasParams, Neighbours};
use eddy_fluid::gpu::state_hash::hash_words;
use eddy_fluid::model::{AnyModel, AnyState, ModelParams};
use eddy_fluid::scene::SceneSource;
use eddy_fluid::smoke::{SmokeParams, SmokePreset, Solver};
use eddy_fluid::water::{RulePreset, WaterParams};

/// Every model and solver, with the preset scene that starts it.
fn cases() -> Vec<(&'static str, &'static str, ModelParams)> {
    let staggered = SmokeParams::preset(SmokePreset::Staggered);
    vec![
        ("water", "basin", ModelParams::Water(WaterParams::preset(RulePreset::Elsts))),
        ("smoke staggered jacobi", "plume", ModelParams::Smoke(staggered)),
        (
            "smoke staggered multigrid",
            "plume",
            ModelParams::Smoke(SmokeParams { solver: Solver::Multigrid, ..staggered }),
        ),
        ("smoke channel (open edges)", "channel", ModelParams::Smoke(SmokeParams::preset(SmokePreset::Channel))),
        ("smoke gpu-gems (collocated)", "plume", ModelParams::Smoke(SmokeParams::preset(SmokePreset::GpuGems))),
        ("gas 8-way", "explosion", ModelParams::Gas(GasParams::default())),
        ("gas 4-way", "wind", ModelParams::Gas(GasParams { neighbours: Neighbours::Four, ..Default::default() })),
    ]
}

/// The CPU's hash of the textures the model names, read back: their texels' bytes as
/// little-endian words, one texture after another.
fn cpu_hash(gpu: &eddy_fluid::gpu::Gpu, model: &AnyModel) -> u64 {
    let mut words = Vec::new();
    for texture in model.runner().model().hashed_textures() {
        let texel = texture.format().block_copy_size(None).expect("a colour format");
        let bytes = eddy_fluid::gpu::read_texture(&gpu.device, &gpu.queue, texture, texel).unwrap();
        words.extend(bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])));
    }
    hash_words(words)
}

/// The GPU hashes what the CPU hashes, for smoke and gas (every texture the hash covers, float
/// and integer, one to four channels): at the start and after 25 steps, on a grid whose height is
/// not a multiple of a workgroup (71 rows) and one shorter than a workgroup; and a step changes
/// the hash.
#[test]
fn the_gpu_hashes_every_models_textures_as_the_cpu_does() {
    let gpu = common::gpu();
    for (label, scene, params) in cases().into_iter().filter(|c| !c.0.starts_with("water")) {
        for size in [(37, 71), (40, 30)] {
            let start = AnyState::start(&SceneSource::Preset(scene.into()), size, 3, &params).unwrap();
            let mut model = AnyModel::new(&gpu.device, &gpu.queue, &start, &params, 0).unwrap();
            let textures = model.runner().model().hashed_textures().len();
            assert!(textures >= 2, "{label}: the state and the wall bits at least, not {textures} textures");
            let first = model.state_hash().unwrap();
            assert_eq!(first, cpu_hash(&gpu, &model), "{label} {size:?}: as uploaded");
            model.step(25).unwrap();
            let hash = model.state_hash().unwrap();
            assert_eq!(hash, cpu_hash(&gpu, &model), "{label} {size:?}: after 25 steps");
            assert_ne!(hash, first, "{label} {size:?}: 25 steps changed no bit");
        }
    }
    gpu.check().unwrap();
}

/// A run and its replays end with the same hash, for every model and solver: 60 steps straight;
/// 30 steps saved to `.npz` bytes, loaded and run 30 more; and the straight run rolled back to a
/// checkpoint at step 30 and run 30 more (the multigrid's V-cycle plan travels in the file and
/// is kept with the checkpoint, `GpuModel::solver_plan`). The loaded state hashes as the saved
/// one did (the file holds every word the hash covers), and a 61st step changes the hash (so the
/// comparisons can fail).
#[test]
fn a_run_and_its_replays_from_a_saved_state_and_a_checkpoint_end_with_the_same_hash() {
    let gpu = common::gpu();
    for (label, scene, params) in cases() {
        let start = AnyState::start(&SceneSource::Preset(scene.into()), (48, 40), 3, &params).unwrap();
        let mut straight = AnyModel::new(&gpu.device, &gpu.queue, &start, &params, 0).unwrap();
        straight.step(30).unwrap();
        let at_30 = straight.state_hash().unwrap();
        let saved = straight.read_state().unwrap().to_npz_bytes(30, Some(&params)).unwrap();
        straight.checkpoint();
        straight.step(30).unwrap();
        let end = straight.state_hash().unwrap();

        let (loaded, step) = AnyState::load_npz_bytes("mid.npz".as_ref(), saved, None).unwrap();
        assert_eq!(step, 30);
        let mut replay = AnyModel::new(&gpu.device, &gpu.queue, &loaded, &params, step).unwrap();
        assert_eq!(replay.state_hash().unwrap(), at_30, "{label}: the state loaded hashes as the one saved");
        replay.step(30).unwrap();
        assert_eq!(replay.state_hash().unwrap(), end, "{label}: the replay from step 30");
        assert_eq!(straight.rollback(), Some(30), "{label}");
        straight.step(30).unwrap();
        assert_eq!(straight.state_hash().unwrap(), end, "{label}: the 30 steps after the rollback");
        straight.step(1).unwrap();
        assert_ne!(straight.state_hash().unwrap(), end, "{label}: a 61st step changed no bit");
        println!("{label}: the replays from step 30 end at step 60 with hash {end:016x}");
    }
    gpu.check().unwrap();
}
