//! The smoke model's GPU passes against their CPU mirrors (`src/smoke/cpu.rs`): each pass on
//! its own from random states with random solids and sources, within 1e-5 of each field's
//! largest magnitude; whole steps, 10 steps within 1e-4; splats.

mod common;

use common::{assert_smoke_close, gpu, random_smoke};
use eddy::Simulation;
use eddy::smoke::{GpuSmoke, Impulse, SmokeParams, SmokePass, SmokeState, cpu};

/// Grid sizes that are not multiples of the 64x1 workgroup, and a wide and a tall one.
const SIZES: [(usize, usize); 3] = [(77, 45), (130, 33), (40, 90)];

fn cpu_pass(s: &mut SmokeState, p: &SmokeParams, pass: SmokePass) {
    match pass {
        SmokePass::Advect => cpu::advect(s, p),
        SmokePass::Buoyancy => cpu::buoyancy(s, p),
        SmokePass::Impulse => cpu::impulse(s, &Impulse::sources(p)),
        SmokePass::Divergence => cpu::divergence(s, p),
        SmokePass::Jacobi => cpu::jacobi(s, p),
        SmokePass::Gradient => cpu::gradient(s, p),
    }
}

/// Parameter sets: the defaults, and one with every value moved (negative ambient so buoyancy
/// acts in more cells, strong dissipation, a different cell size and gradient scale).
fn param_sets() -> [SmokeParams; 2] {
    [
        SmokeParams::default(),
        SmokeParams {
            dt: 0.4,
            buoyancy: 0.7,
            weight: 0.3,
            ambient_temperature: 2.0,
            impulse_temperature: 4.0,
            impulse_density: 0.5,
            velocity_dissipation: 0.9,
            temperature_dissipation: 0.95,
            density_dissipation: 0.8,
            cell_size: 0.8,
            gradient_scale: 0.5,
            jacobi_iterations: 7,
            splat_radius: None,
        },
    ]
}

#[test]
fn each_pass_matches_its_cpu_mirror() {
    let g = gpu();
    let passes = [
        SmokePass::Advect,
        SmokePass::Buoyancy,
        SmokePass::Impulse,
        SmokePass::Divergence,
        SmokePass::Jacobi,
        SmokePass::Gradient,
    ];
    for (k, p) in param_sets().into_iter().enumerate() {
        for (i, &(w, h)) in SIZES.iter().enumerate() {
            for pass in passes {
                let state = random_smoke(w, h, 100 + i as u64, 0.15);
                let mut sim = GpuSmoke::new(&g.device, &g.queue, &state, p).unwrap();
                sim.run_pass(pass);
                let gpu_state = sim.read_state().unwrap();
                let mut cpu_state = state.clone();
                cpu_pass(&mut cpu_state, &p, pass);
                assert_ne!(cpu_state, state, "{pass:?} changed nothing: the test would prove nothing");
                assert_smoke_close(&format!("smoke-{pass:?}-params{k}-{w}x{h}"), &gpu_state, &cpu_state, 1e-5);
            }
        }
    }
    g.check().unwrap();
}

#[test]
fn ten_steps_match_the_cpu_reference() {
    let g = gpu();
    for (k, p) in param_sets().into_iter().enumerate() {
        for (i, &(w, h)) in SIZES.iter().enumerate() {
            let state = random_smoke(w, h, 200 + i as u64, 0.1);
            let mut gpu_sim = GpuSmoke::new(&g.device, &g.queue, &state, p).unwrap();
            let mut cpu_sim = eddy::smoke::CpuSmoke::new(state, p).unwrap();
            gpu_sim.step(1).unwrap();
            cpu_sim.step(1).unwrap();
            let name = format!("smoke-1-step-params{k}-{w}x{h}");
            assert_smoke_close(&name, &gpu_sim.read_state().unwrap(), cpu_sim.state(), 1e-5);
            gpu_sim.step(9).unwrap();
            cpu_sim.step(9).unwrap();
            let name = format!("smoke-10-steps-params{k}-{w}x{h}");
            assert_smoke_close(&name, &gpu_sim.read_state().unwrap(), cpu_sim.state(), 1e-4);
        }
    }
    g.check().unwrap();
}

#[test]
fn splats_match_the_cpu_reference() {
    let g = gpu();
    let state = random_smoke(96, 64, 7, 0.05);
    let p = SmokeParams::default();
    let mut gpu_sim = GpuSmoke::new(&g.device, &g.queue, &state, p).unwrap();
    let mut cpu_sim = eddy::smoke::CpuSmoke::new(state, p).unwrap();
    let splats = [
        Impulse {
            center: (30.3, 20.7),
            radius: 9.0,
            temperature: 10.0,
            density: 1.0,
            velocity: (3.0, -2.0),
            sources: false,
        },
        Impulse {
            center: (70.0, 50.0),
            radius: 5.5,
            temperature: 0.0,
            density: 0.0,
            velocity: (0.0, 0.0),
            sources: false,
        },
        Impulse::sources(&p),
    ];
    for s in &splats {
        gpu_sim.splat(s);
        cpu_sim.splat(s);
    }
    // A step after the splats: the parities of the ping-pongs must still line up.
    gpu_sim.step(1).unwrap();
    cpu_sim.step(1).unwrap();
    assert_smoke_close("smoke-splats", &gpu_sim.read_state().unwrap(), cpu_sim.state(), 1e-5);
    g.check().unwrap();
}
