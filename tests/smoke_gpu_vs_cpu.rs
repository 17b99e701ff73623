//! The smoke model's GPU passes against their CPU mirrors, on both grids: the collocated
//! passes (`src/smoke/cpu.rs`) and the staggered ones (`src/smoke/staggered/`), each on its own
//! from random states with random solids and sources within 1e-5 of each field's largest
//! magnitude (f32 rounding in a different order: a few ulps of the largest value); whole steps
//! within 1e-5 after one and 1e-4 after ten (rounding differences grow through the advection's
//! interpolation); splats; statistics.

mod common;

use common::{assert_smoke_close, gpu, random_smoke, random_smoke_staggered};
use eddy_fluid::GpuModel;
use eddy_fluid::Simulation;
use eddy_fluid::smoke::{
    Advection, GpuSmoke, GridLayout, Impulse, SmokeParams, SmokePass, SmokePreset, SmokeState, Solver, StaggeredPass,
    cpu, staggered,
};

/// Grid sizes that are not multiples of the 64x1 workgroup, and a wide and a tall one.
const SIZES: [(usize, usize); 3] = [(77, 45), (130, 33), (40, 90)];

fn cpu_pass(s: &mut SmokeState, p: &SmokeParams, pass: SmokePass) {
    match pass {
        // One GPU pass: advection, then buoyancy and the sources' impulse on each cell.
        SmokePass::Advect => {
            cpu::advect(s, p);
            cpu::buoyancy(s, p);
            cpu::impulse(s, &Impulse::sources(p));
        }
        SmokePass::Divergence => cpu::divergence(s, p),
        SmokePass::Jacobi => cpu::jacobi(s, p),
        SmokePass::Gradient => cpu::gradient(s, p),
    }
}

/// The CPU mirror of a run of staggered passes.
fn cpu_staggered(s: &mut SmokeState, p: &SmokeParams, passes: &[StaggeredPass]) {
    let mg = eddy_fluid::solver::multigrid::Multigrid::with_dirichlet(&s.solid, p.dirichlet(), Default::default());
    for pass in passes {
        match pass {
            StaggeredPass::Bodies => staggered::bodies::step(s, p),
            StaggeredPass::AdvectScalars => staggered::cpu::advect_scalars(s, p),
            StaggeredPass::AdvectVelocity => staggered::cpu::advect_velocity(s, p),
            StaggeredPass::Viscosity => staggered::cpu::viscosity(s, p),
            StaggeredPass::Forces => {
                staggered::cpu::confinement(s, p);
                staggered::cpu::buoyancy(s, p);
            }
            StaggeredPass::Impulse => staggered::cpu::impulse(s, &Impulse::sources(p)),
            StaggeredPass::Divergence => {
                s.divergence = staggered::divergence(&s.velocity_x, &s.velocity_y, &s.solid, p.cell_size);
                if !p.warm_start {
                    s.pressure.as_mut_slice().fill(0.0);
                }
            }
            StaggeredPass::Solve => {
                let h = p.cell_size;
                let rhs = s.divergence.map(|d| d * h * h);
                match p.solver {
                    Solver::Jacobi => {
                        let problem = eddy_fluid::solver::Poisson {
                            solid: s.solid.clone(),
                            rhs,
                            dirichlet: p.dirichlet(),
                            ghosts: eddy_fluid::solver::AT_CENTRES,
                        };
                        for _ in 0..p.jacobi_iterations {
                            s.pressure = eddy_fluid::solver::jacobi(&s.pressure, &problem);
                        }
                    }
                    Solver::Multigrid => {
                        mg.solve(&mut s.pressure, &rhs, p.tolerance as f64, p.max_cycles);
                    }
                }
            }
            StaggeredPass::Gradient => {
                let (u, v) = (&mut s.velocity_x, &mut s.velocity_y);
                staggered::subtract_gradient(u, v, &s.pressure, &s.solid, &p.dirichlet(), p.cell_size);
            }
            // Forces change no field: held to their mirror in tests/smoke_bodies.rs.
            StaggeredPass::BodyForces | StaggeredPass::Centres => {}
        }
    }
}

/// Moved values: negative ambient so buoyancy acts in more cells, strong dissipation, a
/// different cell size, an odd Jacobi count.
fn moved(base: SmokeParams) -> SmokeParams {
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
        ..base
    }
}

/// Collocated parameter sets: Rideout's, the moved values with a warm start.
fn collocated_sets() -> [SmokeParams; 2] {
    let rideout = SmokeParams::preset(SmokePreset::Rideout);
    [rideout, SmokeParams { warm_start: true, ..moved(rideout) }]
}

/// Staggered parameter sets: the defaults (MacCormack, warm start, Jacobi x 50); the moved
/// values, semi-Lagrangian from a cold start, with viscosity and a moving lid; multigrid (3
/// V-cycles: a tolerance no solve reaches, so both run the most) with the cavity's viscosity;
/// 12 Jacobi iterations (the GPU runs four a dispatch, `jacobi_quad.wgsl`, and two or one for
/// the rest: 12 is 3 quads, 50 is 12 and a pair, the moved values' 7 a quad, a pair and a single
/// iteration); and two sets with inflow and outflow edges, every edge kind on both
/// axes, with the viscosity's ghosts beyond them and the pressure held at 0 beyond the outflows
/// (the packed Jacobi passes reading 0 there): semi-Lagrangian from the left (a custom profile) into outflows right and top, a slip wall
/// below; MacCormack from the right (a parabolic profile) into outflows left and bottom; and multigrid from the left
/// into outflows right and bottom (every level holding them at 0).
fn staggered_sets() -> [SmokeParams; 7] {
    use eddy_fluid::smoke::EdgeKind::{Inflow, Outflow, Slip, Wall};
    let d = SmokeParams::default();
    [
        d,
        SmokeParams { jacobi_iterations: 12, ..d },
        // 6 iterations: two dispatches, so the result lands in the other packed pressure than
        // 12's and 50's three and thirteen (`PackedJacobi::dispatch_iterations`).
        SmokeParams {
            warm_start: false,
            jacobi_iterations: 6,
            advection: Advection::SemiLagrangian,
            viscosity: 0.7,
            lid: 1.5,
            ..moved(d)
        },
        SmokeParams { solver: Solver::Multigrid, tolerance: 1e-30, max_cycles: 3, reynolds: Some(50.0), ..d },
        SmokeParams {
            advection: Advection::SemiLagrangian,
            viscosity: 0.7,
            edges: [Inflow, Outflow, Outflow, Slip],
            inflow: 1.5,
            // The random state's left faces are the profile, each kept.
            inflow_profile: eddy_fluid::smoke::InflowProfile::Custom,
            ..d
        },
        SmokeParams {
            reynolds: Some(40.0),
            edges: [Outflow, Inflow, Wall, Outflow],
            inflow: 2.5,
            inflow_profile: eddy_fluid::smoke::InflowProfile::Parabolic,
            ..d
        },
        SmokeParams {
            solver: Solver::Multigrid,
            tolerance: 1e-30,
            max_cycles: 3,
            edges: [Inflow, Outflow, Slip, Outflow],
            ..d
        },
    ]
}

#[test]
fn each_collocated_pass_matches_its_cpu_mirror() {
    let g = gpu();
    let passes = [SmokePass::Advect, SmokePass::Divergence, SmokePass::Jacobi, SmokePass::Gradient];
    for (k, p) in collocated_sets().into_iter().enumerate() {
        for (i, &(w, h)) in SIZES.iter().enumerate() {
            for pass in passes {
                let state = random_smoke(w, h, 100 + i as u64, 0.15);
                let mut sim = GpuSmoke::new(&g.device, &g.queue, &state, p).unwrap();
                sim.run_pass(pass);
                let gpu_state = sim.read_state().unwrap();
                let mut cpu_state = state.clone();
                cpu_pass(&mut cpu_state, &p, pass);
                if !(pass == SmokePass::Divergence && p.warm_start) {
                    assert_ne!(cpu_state, state, "{pass:?} changed nothing: the test would prove nothing");
                }
                if pass == SmokePass::Advect {
                    // The forces the pass applies after advecting change the state too.
                    let mut advected = state.clone();
                    cpu::advect(&mut advected, &p);
                    assert_ne!(advected.velocity_y, cpu_state.velocity_y, "no buoyancy: the test would not see it");
                    assert_ne!(advected.density, cpu_state.density, "no sources: the test would not see the impulse");
                }
                assert_smoke_close(&format!("smoke-{pass:?}-params{k}-{w}x{h}"), &gpu_state, &cpu_state, 1e-5);
            }
        }
    }
    g.check().unwrap();
}

#[test]
fn each_staggered_pass_matches_its_cpu_mirror() {
    use StaggeredPass::*;
    let g = gpu();
    // The solve and the gradient need the right-hand side the divergence pass writes.
    let runs: [&[StaggeredPass]; 7] = [
        &[AdvectScalars],
        &[AdvectVelocity],
        &[Viscosity],
        &[Forces],
        &[Impulse],
        &[Divergence, Solve],
        &[Divergence, Solve, Gradient],
    ];
    for (k, p) in staggered_sets().into_iter().enumerate() {
        for (i, &(w, h)) in SIZES.iter().enumerate() {
            // Each run with its passes recorded one at a time, and (when more than one)
            // together: then the divergence packs the Jacobi iterations' input and the gradient
            // unpacks their result (`GpuSmoke::encode_staggered`), which one at a time they do
            // not.
            let together = runs.iter().filter(|r| r.len() > 1).map(|&r| (r, true));
            for (run, together) in runs.iter().map(|&r| (r, false)).chain(together) {
                let mut state = random_smoke_staggered(w, h, 300 + i as u64, 0.15);
                // The edges' faces as a run starts with them (GpuSmoke::new holds them too).
                eddy_fluid::smoke::staggered::hold_edges(&mut state, &p);
                let mut sim = GpuSmoke::new(&g.device, &g.queue, &state, p).unwrap();
                if together {
                    sim.run_staggered_passes(run);
                } else {
                    for &pass in run {
                        sim.run_staggered_pass(pass);
                    }
                }
                let gpu_state = sim.read_state().unwrap();
                let mut cpu_state = state.clone();
                cpu_staggered(&mut cpu_state, &p, run);
                let does_nothing = run == [Viscosity] && p.viscosity_for(w) == 0.0;
                if !does_nothing {
                    assert_ne!(cpu_state, state, "{run:?} changed nothing: the test would prove nothing");
                }
                if run == [Forces] {
                    // One dispatch applies both forces: each must change the faces on its own,
                    // or the test would not see it wrong.
                    let mut buoyancy_only = state.clone();
                    staggered::cpu::buoyancy(&mut buoyancy_only, &p);
                    assert_ne!(buoyancy_only, state, "no buoyancy: the test would not see it");
                    if p.vorticity != 0.0 {
                        assert_ne!(buoyancy_only, cpu_state, "no confinement: the test would not see it");
                    }
                }
                let name = format!("smoke-staggered-{run:?}-together-{together}-params{k}-{w}x{h}");
                assert_smoke_close(&name, &gpu_state, &cpu_state, 1e-5);
            }
        }
    }
    g.check().unwrap();
}

#[test]
fn ten_steps_match_the_cpu_reference_on_both_grids() {
    let g = gpu();
    let sets = collocated_sets().into_iter().chain(staggered_sets());
    for (k, p) in sets.enumerate() {
        for (i, &(w, h)) in SIZES.iter().enumerate() {
            let state = match p.grid {
                GridLayout::Collocated => random_smoke(w, h, 200 + i as u64, 0.1),
                GridLayout::Staggered => random_smoke_staggered(w, h, 200 + i as u64, 0.1),
            };
            let mut gpu_sim = GpuSmoke::new(&g.device, &g.queue, &state, p).unwrap();
            let mut cpu_sim = eddy_fluid::smoke::CpuSmoke::new(state, p).unwrap();
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
fn splats_match_the_cpu_reference_on_both_grids() {
    let g = gpu();
    for p in [SmokeParams::preset(SmokePreset::Rideout), SmokeParams::default()] {
        let state = random_smoke(96, 64, 7, 0.05);
        let mut gpu_sim = GpuSmoke::new(&g.device, &g.queue, &state, p).unwrap();
        let mut cpu_sim = eddy_fluid::smoke::CpuSmoke::new(state, p).unwrap();
        let splats = [
            Impulse {
                center: (30.3, 20.7),
                radius: 9.0,
                temperature: 10.0,
                density: 1.0,
                velocity: (3.0, -2.0),
                sources: false,
                dye: [0.2, 0.9, 0.4],
            },
            Impulse {
                center: (70.0, 50.0),
                radius: 5.5,
                temperature: 0.0,
                density: 0.0,
                velocity: (0.0, 0.0),
                sources: false,
                dye: [0.0; 3],
            },
            Impulse::sources(&p),
            // Discs across the grid's corner and its right and bottom edges (the staggered pass
            // covers the disc's rectangle of nodes alone, clipped to the grid).
            Impulse { center: (1.5, 0.5), radius: 6.0, velocity: (-2.0, 3.0), ..Impulse::default() },
            Impulse { center: (95.0, 63.8), radius: 4.5, velocity: (1.0, 1.0), ..Impulse::default() },
        ];
        for s in &splats {
            gpu_sim.splat(s);
            cpu_sim.splat(s);
        }
        let name = format!("smoke-splats-{:?}", p.grid);
        assert_smoke_close(&name, &gpu_sim.read_state().unwrap(), cpu_sim.state(), 1e-5);
        // A step after the splats: the parities of the ping-pongs must still line up.
        gpu_sim.step(1).unwrap();
        cpu_sim.step(1).unwrap();
        assert_smoke_close(&format!("{name}-step"), &gpu_sim.read_state().unwrap(), cpu_sim.state(), 1e-5);
    }
    g.check().unwrap();
}

/// The GPU statistics (reductions, the staggered centres pass, the solver's residual) against
/// `SmokeStats::of` on the same state read back, on both grids: 1e-6 relative, as
/// `tests/model.rs` holds every model's (the GPU sums rows in f32 with Kahan compensation, the
/// CPU cells in f64; measured here within 3e-8, and the maxima exact).
#[test]
fn statistics_match_the_cpu_on_both_grids() {
    let g = gpu();
    for p in [SmokeParams::preset(SmokePreset::GpuGems), SmokeParams::default()] {
        let state = random_smoke(83, 51, 11, 0.1);
        let mut sim = GpuSmoke::new(&g.device, &g.queue, &state, p).unwrap();
        sim.step(3).unwrap();
        let gpu_stats = sim.stats().unwrap();
        let cpu_stats = sim.read_state().unwrap().stats(&p);
        let close = |a: f64, b: f64, what: &str| {
            let rel = (a - b).abs() / a.abs().max(b.abs()).max(1e-30);
            assert!(rel <= 1e-6, "{:?} {what}: GPU {a}, CPU {b}", p.grid);
        };
        close(gpu_stats.total_density, cpu_stats.total_density, "total density");
        close(gpu_stats.max_speed as f64, cpu_stats.max_speed as f64, "max speed");
        close(gpu_stats.divergence_l2, cpu_stats.divergence_l2, "divergence left");
        close(gpu_stats.solver_residual, cpu_stats.solver_residual, "solver residual");
        assert_eq!(gpu_stats.non_finite, 0);
    }
    g.check().unwrap();
}
