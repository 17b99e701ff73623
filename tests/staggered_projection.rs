//! The staggered (MAC) grid's projection (`eddy_fluid::smoke::staggered`, CPU reference) against the
//! property that makes it worth having: divergence-of-gradient is the 5-point Laplacian the
//! solvers solve, so a converged solve leaves no divergence and more Jacobi iterations never
//! leave more; and the GPU's projection against the CPU's.

use eddy_fluid::Grid;
use eddy_fluid::smoke::staggered::{self, u_open, v_open};
use eddy_fluid::solver::multigrid::{Multigrid, Settings};
use eddy_fluid::solver::{self, AT_CENTRES, NEUMANN, Poisson};

const H: f32 = 1.25; // Rideout's cell size

/// Face velocities `u` `(H, W + 1)`, `v` `(H + 1, W)`.
#[derive(Clone)]
struct Faces {
    u: Grid<f32>,
    v: Grid<f32>,
}

fn divergence(f: &Faces, solid: &Grid<u8>) -> Grid<f32> {
    staggered::divergence(&f.u, &f.v, solid, H)
}

/// Random walls (12% of cells, isolated pockets included) and random velocities on the open
/// faces (0 on closed ones: walls at rest).
fn random_case(w: usize, h: usize, seed: u64) -> (Grid<u8>, Faces) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let solid = Grid::from_fn(w, h, |_, _| (rng.f32() < 0.12) as u8);
    let u = Grid::from_fn(w + 1, h, |r, c| if u_open(&solid, r, c) { rng.f32() * 2.0 - 1.0 } else { 0.0 });
    let v = Grid::from_fn(w, h + 1, |r, c| if v_open(&solid, r, c) { rng.f32() * 2.0 - 1.0 } else { 0.0 });
    (solid, Faces { u, v })
}

fn l2(d: &Grid<f32>) -> f64 {
    d.as_slice().iter().map(|&x| (x as f64) * (x as f64)).sum::<f64>().sqrt()
}

/// Multigrid to a relative residual of 1e-6, then the gradient subtraction: the divergence left
/// is at most 1e-5 of the divergence before (L2 over the grid), with random obstacles; also with
/// edges held at pressure 0 (outflows), whose faces the gradient then drives.
#[test]
fn converged_projection_leaves_no_divergence() {
    let cases = [
        (64, 64, 1, NEUMANN),
        (97, 61, 2, NEUMANN),
        (97, 61, 3, [false, true, false, false]),
        (70, 45, 4, [true, true, false, true]),
    ];
    for (w, h, seed, dirichlet) in cases {
        let (solid, mut faces) = random_case(w, h, seed);
        let before = l2(&divergence(&faces, &solid));
        let rhs = staggered::poisson_rhs(&faces.u, &faces.v, &solid, H);
        let mut p = Grid::filled(w, h, 0.0);
        let report = Multigrid::with_dirichlet(&solid, dirichlet, Settings::default()).solve(&mut p, &rhs, 1e-6, 60);
        staggered::subtract_gradient(&mut faces.u, &mut faces.v, &p, &solid, &dirichlet, H);
        let after = l2(&divergence(&faces, &solid));
        eprintln!("{w}x{h}: {report:?}; divergence {before:.3e} -> {after:.3e} ({:.1e} of before)", after / before);
        assert!(report.relative_residual <= 1e-6, "{report:?}");
        assert!(after <= 1e-5 * before, "{w}x{h}: divergence {before} -> {after}");
    }
}

/// Jacobi x 50, 200, 2000 (the smoke model's solve): each leaves no more divergence than fewer
/// iterations did (on the collocated grid they do not: L2 84 after 50 and 306 after 2000).
#[test]
fn more_jacobi_iterations_never_leave_more_divergence() {
    let (w, h) = (64, 64);
    let (solid, faces) = random_case(w, h, 3);
    let rhs = staggered::poisson_rhs(&faces.u, &faces.v, &solid, H);
    let problem = Poisson { solid: solid.clone(), rhs, dirichlet: NEUMANN, ghosts: AT_CENTRES };
    let mut p = Grid::filled(w, h, 0.0);
    let mut done = 0;
    let mut last = l2(&divergence(&faces, &solid));
    eprintln!("before: divergence {last:.4e}");
    for n in [50, 200, 2000] {
        while done < n {
            p = solver::jacobi(&p, &problem);
            done += 1;
        }
        let mut projected = faces.clone();
        staggered::subtract_gradient(&mut projected.u, &mut projected.v, &p, &solid, &NEUMANN, H);
        let d = l2(&divergence(&projected, &solid));
        eprintln!("Jacobi x {n}: divergence {d:.4e}");
        assert!(d <= last * (1.0 + 1e-6), "Jacobi x {n} left {d}, more than {last} with fewer");
        last = d;
    }
}

mod common;

/// The GPU projection (divergence pass, multigrid V-cycles, gradient pass) against the CPU
/// mirror: faces within 1e-5 of the largest face speed after 1 cycle and 1e-4 after 10, pressure
/// likewise; and the GPU's own faces keep at most 1e-5 of the divergence after 25 cycles.
#[test]
fn gpu_projection_matches_the_cpu() {
    use eddy_fluid::Simulation;
    use eddy_fluid::smoke::{GpuSmoke, SmokeParams, SmokeState, Solver, StaggeredPass};
    let gpu = common::gpu();
    for (w, h, seed) in [(64usize, 64usize, 4u64), (97, 61, 5)] {
        let (solid, faces) = random_case(w, h, seed);
        let zero = Grid::filled(w, h, 0.0f32);
        let state = SmokeState {
            velocity_x: faces.u.clone(),
            velocity_y: faces.v.clone(),
            temperature: zero.clone(),
            density: zero.clone(),
            pressure: zero.clone(),
            divergence: zero.clone(),
            solid: solid.clone(),
            source: Grid::filled(w, h, 0),
            dye: [zero.clone(), zero.clone(), zero.clone()],
            bodies: Vec::new(),
            v_cycle_plan: None,
        };
        let mg = Multigrid::new(&solid, Settings::default());
        let before = l2(&divergence(&faces, &solid));
        for (cycles, tol) in [(1u32, 1e-5f32), (10, 1e-4), (25, 1e-4)] {
            let params = SmokeParams {
                solver: Solver::Multigrid,
                tolerance: 1e-30,
                max_cycles: cycles,
                cell_size: H,
                warm_start: false,
                ..SmokeParams::default()
            };
            let mut sim = GpuSmoke::new(&gpu.device, &gpu.queue, &state, params).unwrap();
            for pass in [StaggeredPass::Divergence, StaggeredPass::Solve, StaggeredPass::Gradient] {
                sim.run_staggered_pass(pass);
            }
            let read = sim.read_state().unwrap();
            let got = Faces { u: read.velocity_x, v: read.velocity_y };
            let got_p = read.pressure;
            gpu.check().unwrap();
            let mut cpu = faces.clone();
            let mut p = Grid::filled(w, h, 0.0);
            mg.solve(&mut p, &staggered::poisson_rhs(&faces.u, &faces.v, &solid, H), 0.0, cycles);
            staggered::subtract_gradient(&mut cpu.u, &mut cpu.v, &p, &solid, &NEUMANN, H);
            let speed = faces.u.as_slice().iter().chain(faces.v.as_slice()).fold(0.0f32, |m, x| m.max(x.abs()));
            let pmax = p.as_slice().iter().fold(0.0f32, |m, x| m.max(x.abs()));
            let (du, _) = common::max_abs_diff(&got.u, &cpu.u);
            let (dv, _) = common::max_abs_diff(&got.v, &cpu.v);
            let (dp, _) = common::max_abs_diff(&got_p, &p);
            let left = l2(&divergence(&got, &solid)) / before;
            eprintln!(
                "{w}x{h}, {cycles} cycles: faces differ {:.1e}, pressure {:.1e} (relative); divergence left {left:.1e}",
                du.max(dv) / speed,
                dp / pmax
            );
            assert!(du.max(dv) <= tol * speed && dp <= tol * pmax, "{w}x{h}, {cycles} cycles: GPU and CPU differ");
            if cycles == 25 {
                assert!(left <= 1e-5, "{w}x{h}: the GPU projection left {left:.1e} of the divergence");
            }
        }
    }
}
