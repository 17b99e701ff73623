//! The models on a browser's WebGPU adapter against their CPU mirrors, compiled to wasm32 and
//! run in headless Chromium by `wasm-bindgen-test` (see the README's "In the browser" and
//! `.ci/run`):
//!
//! ```sh
//! CHROMEDRIVER=/usr/bin/chromedriver cargo test --release --target wasm32-unknown-unknown --no-default-features --features viewer --test web
//! ```
//!
//! For each model one step from a random state (random walls and sources, sizes that are not
//! multiples of the workgroup) must match the CPU reference, also compiled to wasm, within the
//! desktop tests' tolerance: 1e-5 of each field's largest magnitude (water: 1e-5 per cell, its
//! masses being O(1)). The GPU and CPU do the same f32 arithmetic in the same order; what is
//! left is rounding (fused multiply-adds, division), far below 1e-5.
#![cfg(target_arch = "wasm32")]

#[path = "common/states.rs"]
mod states;

use eddy_fluid::gpu::Gpu;
use eddy_fluid::model::{AnyModel, AnyState, ModelKind, ModelParams};
use eddy_fluid::{Grid, Simulation};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

// A page in a real browser (Chromium through ChromeDriver): Node has no WebGPU.
wasm_bindgen_test_configure!(run_in_browser);

/// The browser's WebGPU device, with what every model needs.
async fn gpu() -> Gpu {
    match Gpu::browser(&ModelKind::requirements(&ModelKind::ALL)).await {
        Ok(g) => g,
        Err(e) => panic!("the browser's WebGPU adapter cannot run eddy: {e} (Chromium needs --enable-unsafe-webgpu)"),
    }
}

/// One GPU step of `state` under `params`, read back without blocking.
async fn gpu_step(gpu: &Gpu, state: &AnyState, params: &ModelParams) -> AnyState {
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, state, params, 0).expect("the model builds");
    model.step(1).unwrap();
    let out = model.read_state_async().await.expect("the state reads back");
    gpu.check().expect("no WebGPU error");
    out
}

/// One smoke step of `state` under `params` on the GPU and on its CPU mirror: `(gpu, cpu)`.
async fn smoke_step(
    gpu: &Gpu,
    state: eddy_fluid::smoke::SmokeState,
    params: eddy_fluid::smoke::SmokeParams,
) -> (eddy_fluid::smoke::SmokeState, eddy_fluid::smoke::SmokeState) {
    let AnyState::Smoke(g) = gpu_step(gpu, &AnyState::Smoke(state.clone()), &ModelParams::Smoke(params)).await else {
        panic!("smoke")
    };
    let mut cpu = eddy_fluid::smoke::CpuSmoke::new(state, params).unwrap();
    cpu.step(1).unwrap();
    (g, cpu.state().clone())
}

/// Every `(name, gpu, cpu)` field within `rel` of the CPU field's largest magnitude.
fn assert_close(what: &str, fields: &[(&str, &Grid<f32>, &Grid<f32>)], rel: f32) {
    for (field, g, c) in fields {
        let max = c.as_slice().iter().fold(0.0f32, |m, v| m.max(v.abs())).max(f32::MIN_POSITIVE);
        let (d, at) = states::max_abs_diff(g, c);
        assert!(
            d <= rel * max,
            "{what}: {field} differs by {d} at (row, col) {at:?}, more than {rel} x max {max}; gpu {} cpu {}",
            g[at],
            c[at]
        );
    }
}

#[wasm_bindgen_test]
async fn water_one_step_matches_the_cpu_mirror() {
    let gpu = gpu().await;
    for (seed, (w, h)) in [(1, (37, 23)), (2, (64, 64)), (3, (129, 70))] {
        let state = states::random_water(w, h, seed, 0.15);
        let params = eddy_fluid::water::WaterParams::default();
        let AnyState::Water(g) = gpu_step(&gpu, &AnyState::Water(state.clone()), &ModelParams::Water(params)).await
        else {
            panic!("water")
        };
        let mut cpu = eddy_fluid::water::CpuWater::new(state, params).unwrap();
        cpu.step(1).unwrap();
        let (d, at) = states::max_abs_diff(&g.mass, &cpu.state().mass);
        assert!(d <= 1e-5, "water {w}x{h}: mass differs by {d} at {at:?} (tolerance 1e-5)");
    }
}

/// Fixed-point water (`eddy_fluid::water::fixed`) on Chromium's WebGPU gives the CPU mirror's
/// state hash after 1000 steps of the U-tube and basin presets (128 x 96), dense and sleeping:
/// `tests/water_fixed.rs` holds the native adapter to the same mirror, so the hash is the same on
/// both. Integer arithmetic leaves nothing to round, so the comparison is exact.
#[wasm_bindgen_test]
async fn fixed_point_water_hashes_as_the_cpu_mirror_after_1000_steps() {
    use eddy_fluid::GpuModel;
    use eddy_fluid::water::{Arithmetic, CpuWater, GpuWater, WaterParams, WaterState};
    let gpu = gpu().await;
    let params = WaterParams { arithmetic: Arithmetic::Fixed, ..WaterParams::default() };
    for preset in ["u-tube", "basin"] {
        let state = WaterState::from_scene(&eddy_fluid::scene::Scene::preset(preset, 128, 96, 0).unwrap());
        let mut cpu = CpuWater::new(state.clone(), params).unwrap();
        cpu.step(1000).unwrap();
        let want = eddy_fluid::water::hash::state_hash(&cpu.state().mass, &cpu.state().solid);
        for sleeping in [None, Some(8)] {
            let mut sim = GpuWater::new(&gpu.device, &gpu.queue, &state, params).unwrap();
            sim.set_sleeping(sleeping).unwrap();
            for _ in 0..10 {
                let mut encoder = gpu.device.create_command_encoder(&Default::default());
                sim.encode_steps(&mut encoder, 100);
                gpu.queue.submit([encoder.finish()]);
            }
            let got = sim.state_hash_async().await.expect("the hash reads back");
            gpu.check().expect("no WebGPU error");
            wasm_bindgen_test::console_log!(
                "fixed-point {preset} 128x96, 1000 steps, sleeping {sleeping:?}: hash {got:016x}"
            );
            assert_eq!(
                got, want,
                "{preset}, sleeping {sleeping:?}: WebGPU's hash {got:016x}, the CPU mirror's {want:016x}"
            );
        }
    }
}

/// A water world wider than the browser's largest texture (8192 in Chromium's WebGPU by default)
/// runs as a packed world (`eddy_fluid::water::packed_world`): fixed-point water, 10000 x 16 cells
/// of the `random` scene, 300 steps dense then 200 sleeping, gives the CPU mirror's hash, and reads
/// back its masses.
#[wasm_bindgen_test]
async fn a_world_wider_than_a_texture_runs_packed_in_the_browser() {
    use eddy_fluid::GpuModel;
    use eddy_fluid::water::{Arithmetic, CpuWater, GpuWater, WaterParams, WaterState};
    let gpu = gpu().await;
    let side = gpu.device.limits().max_texture_dimension_2d as usize;
    let (w, h) = ((side + 1808).min(4 * side), 16);
    let params = WaterParams { arithmetic: Arithmetic::Fixed, ..WaterParams::default() };
    let state = WaterState::from_scene(&eddy_fluid::scene::Scene::preset("random", w, h, 5).unwrap());
    let mut cpu = CpuWater::new(state.clone(), params).unwrap();
    cpu.step(500).unwrap();
    let want = eddy_fluid::water::hash::state_hash(&cpu.state().mass, &cpu.state().solid);
    let mut sim = GpuWater::new(&gpu.device, &gpu.queue, &state, params).unwrap();
    assert!(sim.is_packed_world(), "{w}x{h} on a side of {side}");
    for sleeping in [None, Some(8)] {
        sim.set_sleeping(sleeping).unwrap();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        sim.encode_steps(&mut encoder, if sleeping.is_none() { 300 } else { 200 });
        gpu.queue.submit([encoder.finish()]);
    }
    let got = sim.state_hash_async().await.expect("the hash reads back");
    let mass = sim.read_mass_async().await.expect("the masses read back");
    gpu.check().expect("no WebGPU error");
    wasm_bindgen_test::console_log!("packed world {w}x{h} on a texture side of {side}: hash {got:016x}");
    assert_eq!(got, want, "WebGPU's hash {got:016x}, the CPU mirror's {want:016x}");
    assert!(mass == cpu.state().mass, "the masses read back differ from the CPU mirror's");
}

/// A water world taller than the browser's largest texture runs in pages of rows
/// (`eddy_fluid::water::packed_world`, "Pages"): fixed-point water, 16 x (side + 1808) cells of
/// the `random` scene in two pages, 400 steps, gives the CPU mirror's hash and masses.
#[wasm_bindgen_test]
async fn a_world_taller_than_a_texture_runs_in_pages_in_the_browser() {
    use eddy_fluid::GpuModel;
    use eddy_fluid::water::{Arithmetic, CpuWater, GpuWater, WaterParams, WaterState};
    let gpu = gpu().await;
    let side = gpu.device.limits().max_texture_dimension_2d as usize;
    let (w, h) = (16, side + 1808);
    let params = WaterParams { arithmetic: Arithmetic::Fixed, ..WaterParams::default() };
    let state = WaterState::from_scene(&eddy_fluid::scene::Scene::preset("random", w, h, 6).unwrap());
    let mut cpu = CpuWater::new(state.clone(), params).unwrap();
    cpu.step(400).unwrap();
    let want = eddy_fluid::water::hash::state_hash(&cpu.state().mass, &cpu.state().solid);
    let mut sim = GpuWater::new(&gpu.device, &gpu.queue, &state, params).unwrap();
    let pages = sim.packed_world_pages().len();
    assert!(pages > 1, "{w}x{h} on a side of {side}: {pages} pages");
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    sim.encode_steps(&mut encoder, 400);
    gpu.queue.submit([encoder.finish()]);
    let got = sim.state_hash_async().await.expect("the hash reads back");
    let mass = sim.read_mass_async().await.expect("the masses read back");
    gpu.check().expect("no WebGPU error");
    wasm_bindgen_test::console_log!(
        "paged world {w}x{h} in {pages} pages on a texture side of {side}: hash {got:016x}"
    );
    assert_eq!(got, want, "WebGPU's hash {got:016x}, the CPU mirror's {want:016x}");
    assert!(mass == cpu.state().mass, "the masses read back differ from the CPU mirror's");
}

#[wasm_bindgen_test]
async fn smoke_one_step_matches_the_cpu_mirror() {
    let gpu = gpu().await;
    // The third with moving bodies: a disc and a turning box, rasterised on the GPU;
    // the fourth too, with the multigrid (3 V-cycles: every level's uniform, the packed levels'
    // passes, level 1 included (48 x 36), the coarse kernel, coarsen_walls and pack_walls) and
    // outflow edges held at pressure 0.
    use eddy_fluid::smoke::EdgeKind::{Inflow, Outflow, Slip};
    let d = eddy_fluid::smoke::SmokeParams::default();
    let multigrid = eddy_fluid::smoke::SmokeParams {
        solver: eddy_fluid::smoke::Solver::Multigrid,
        tolerance: 1e-30,
        max_cycles: 3,
        edges: [Inflow, Outflow, Slip, Outflow],
        ..d
    };
    let cases =
        [(4, (37, 23), false, d), (5, (64, 48), false, d), (6, (64, 48), true, d), (7, (96, 72), true, multigrid)];
    for (seed, (w, h), with_bodies, params) in cases {
        let mut state = states::random_smoke_staggered(w, h, seed, 0.1);
        if with_bodies {
            state.bodies = ["circle:x=20.3,y=24.2,r=7,vx=3,vy=-1", "box:x=44.6,y=20.1,w=12,h=5,angle=0.4,spin=0.8"]
                .iter()
                .map(|b| eddy_fluid::body::Body::parse(b).unwrap())
                .collect();
        }
        let (g, c) = smoke_step(&gpu, state, params).await;
        let (gp, cp) = (states::pin_pressure(&g.pressure, &g.solid), states::pin_pressure(&c.pressure, &c.solid));
        assert_close(
            &format!("smoke {w}x{h}"),
            &[
                ("velocity x", &g.velocity_x, &c.velocity_x),
                ("velocity y", &g.velocity_y, &c.velocity_y),
                ("temperature", &g.temperature, &c.temperature),
                ("density", &g.density, &c.density),
                ("pressure (pinned)", &gp, &cp),
                ("divergence", &g.divergence, &c.divergence),
                ("dye red", &g.dye[0], &c.dye[0]),
                ("dye green", &g.dye[1], &c.dye[1]),
                ("dye blue", &g.dye[2], &c.dye[2]),
            ],
            1e-5,
        );
        assert_eq!(g.solid, c.solid, "smoke {w}x{h}: the masks differ");
        assert_eq!(g.bodies.len(), c.bodies.len());
    }
}

/// The collocated GPU Gems step (`--pipeline gpu-gems`), whose advection pass also applies
/// buoyancy and the sources' impulse and binds two uniforms beside its seven textures.
#[wasm_bindgen_test]
async fn the_gpu_gems_smoke_step_matches_the_cpu_mirror() {
    let gpu = gpu().await;
    for (seed, (w, h)) in [(8, (37, 23)), (9, (64, 48))] {
        let state = states::random_smoke(w, h, seed, 0.1);
        let params = eddy_fluid::smoke::SmokeParams::preset(eddy_fluid::smoke::SmokePreset::GpuGems);
        let (g, c) = smoke_step(&gpu, state, params).await;
        assert_close(
            &format!("seed's smoke {w}x{h}"),
            &[
                ("velocity x", &g.velocity_x, &c.velocity_x),
                ("velocity y", &g.velocity_y, &c.velocity_y),
                ("temperature", &g.temperature, &c.temperature),
                ("density", &g.density, &c.density),
                ("pressure", &g.pressure, &c.pressure),
                ("divergence", &g.divergence, &c.divergence),
            ],
            1e-5,
        );
    }
}

#[wasm_bindgen_test]
async fn gas_one_step_matches_the_cpu_mirror() {
    let gpu = gpu().await;
    // The last with moving bodies: their rasterisation binds the solid bits
    // read-write, and the handoff and the faces into them run too.
    for (seed, (w, h), bodies) in [(6, (37, 23), false), (7, (100, 70), false), (8, (64, 48), true)] {
        let mut state = states::random_gas(w, h, seed, 0.1);
        if bodies {
            state.bodies = states::moving_gas_bodies();
        }
        let params = eddy_fluid::gas::GasParams::default();
        let AnyState::Gas(g) = gpu_step(&gpu, &AnyState::Gas(state.clone()), &ModelParams::Gas(params)).await else {
            panic!("gas")
        };
        let mut cpu = eddy_fluid::gas::CpuGas::new(state, params).unwrap();
        cpu.step(1).unwrap();
        let c = cpu.state();
        assert_eq!(g.solid, c.solid, "gas {w}x{h}: the masks (where the bodies are) differ");
        assert_close(
            &format!("gas {w}x{h}"),
            &[
                ("density", &g.density, &c.density),
                ("momentum x", &g.momentum_x, &c.momentum_x),
                ("momentum y", &g.momentum_y, &c.momentum_y),
            ],
            1e-5,
        );
    }
}

/// What the browser offers that eddy's shaders rely on, printed for the notes and asserted:
/// read-only storage textures need WGSL's `readonly_and_readwrite_storage_textures` language
/// extension (WebGPU core has only write-only ones).
#[wasm_bindgen_test]
async fn the_browser_offers_what_eddy_asks_for() {
    let gpu = gpu().await;
    let features = gpu.instance.wgsl_language_features();
    let limits = gpu.adapter.limits();
    wasm_bindgen_test::console_log!(
        "adapter {:?}; WGSL language features {:?}; max storage textures per stage {}; max 2D texture {}; \
         timestamp queries {}",
        gpu.adapter.get_info(),
        features,
        limits.max_storage_textures_per_shader_stage,
        limits.max_texture_dimension_2d,
        gpu.device.features().contains(wgpu::Features::TIMESTAMP_QUERY)
    );
    assert!(
        features.contains(wgpu::WgslLanguageFeatures::ReadOnlyAndReadWriteStorageTextures),
        "the browser's WGSL lacks readonly_and_readwrite_storage_textures: {features:?}"
    );
}

/// The browser's save and load: a state read back by a task that borrows nothing
/// (`AnyModel::state_reader`, as the page's "download .npz" runs it), written to `.npz` bytes
/// in memory and read back from them, equals the state uploaded (no step ran), for every model.
#[wasm_bindgen_test]
async fn a_state_saved_in_memory_loads_back_equal() {
    let gpu = gpu().await;
    let states = [
        AnyState::Water(states::random_water(29, 17, 8, 0.1)),
        AnyState::Smoke(states::random_smoke_staggered(29, 17, 9, 0.1)),
        AnyState::Gas(states::random_gas(29, 17, 10, 0.1)),
    ];
    for state in states {
        let params = ModelParams::defaults(state.kind());
        let model = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 7).expect("the model builds");
        let read = model.state_reader().await.expect("the state reads back");
        let bytes = read.to_npz_bytes(7, None).expect("the archive is written");
        let (back, step) = AnyState::load_npz_bytes(std::path::Path::new("saved.npz"), bytes, None).expect("it loads");
        assert_eq!((back.kind(), step), (state.kind(), 7));
        assert!(back == state, "{}: the state saved in memory did not load back equal", state.kind());
    }
}

/// Contacts in a browser, which may not wait (`src/body/contact.rs`): the GPU asks for its
/// bodies at a contact point and takes their contacts when the copy arrives, a few steps late.
/// A crate twice as dense as water sinks 20 cells onto a wall ledge, in runs of 10 steps with a
/// read between (the viewer reads its statistics between frames): it comes to rest on the ledge,
/// its bottom within half a cell of the ledge's top (late contacts can let it sink in by up to
/// the steps late times its speed, before the rapier push-out), not through it.
#[wasm_bindgen_test]
async fn a_crate_sinks_onto_a_ledge_and_rests_there_in_the_browser() {
    use eddy_fluid::body::{Body, Shape};
    let gpu = gpu().await;
    let (w, h, ledge) = (64usize, 48usize, 36usize);
    let solid = Grid::from_fn(w, h, |r, _| (r >= ledge) as u8);
    let mass = Grid::from_fn(w, h, |r, _| if (16..ledge).contains(&r) { 1.0 } else { 0.0 });
    let crate_ = Body { density: Some(2.0), ..Body::new(Shape::Box { half_width: 6.0, half_height: 3.0 }, 32.0, 12.0) };
    let state = AnyState::Water(eddy_fluid::water::WaterState { mass, solid, bodies: vec![crate_] });
    let params = ModelParams::Water(eddy_fluid::water::WaterParams::default());
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 0).expect("the model builds");
    let mut bottoms = Vec::new();
    for _ in 0..40 {
        model.step(10).unwrap();
        let AnyState::Water(now) = model.read_state_async().await.expect("the state reads back") else { panic!() };
        bottoms.push(now.bodies[0].y + 3.0);
    }
    gpu.check().expect("no WebGPU error");
    let last = bottoms[bottoms.len() - 1];
    assert!(bottoms[0] < ledge as f32 - 5.0, "it started on the ledge already: {bottoms:?}");
    assert!((last - ledge as f32).abs() < 0.5, "its bottom rests at {last}, the ledge's top is {ledge}: {bottoms:?}");
    assert!(bottoms.iter().all(|&b| b < ledge as f32 + 1.0), "it sank into the ledge: {bottoms:?}");
}
