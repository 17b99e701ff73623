//! How many Jacobi iterations and how many multigrid V-cycles bring a random divergence's
//! residual to 1e-4 of its start (CPU reference, counts), and what a V-cycle costs on the GPU
//! at 512 x 512. `cargo run --release --example solver`.

use eddy_fluid::Grid;
use eddy_fluid::gpu::Gpu;
use eddy_fluid::solver::multigrid::{Multigrid, Settings};
use eddy_fluid::solver::{self, AT_CENTRES, GpuMultigrid, NEUMANN, Poisson};
use std::time::Instant;

/// `h^2 div u` of random face fluxes on an `n x n` grid with a disc obstacle (as in the `plume`
/// scene): compatible, mostly short-wavelength.
fn problem(n: usize, seed: u64) -> Poisson {
    let solid = Grid::from_fn(n, n, |r, c| {
        let (x, y) = (c as f32 + 0.5 - n as f32 / 2.0, r as f32 + 0.5 - n as f32 / 2.0);
        (x * x + y * y < (n as f32 / 10.0).powi(2)) as u8
    });
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut rhs = Grid::filled(n, n, 0.0f32);
    for r in 0..n {
        for c in 0..n {
            for (dr, dc) in [(0, 1), (1, 0)] {
                let (nr, nc) = (r + dr, c + dc);
                if nr < n && nc < n && solid[(r, c)] == 0 && solid[(nr, nc)] == 0 {
                    let f = rng.f32() * 2.0 - 1.0;
                    rhs[(r, c)] += f;
                    rhs[(nr, nc)] -= f;
                }
            }
        }
    }
    Poisson { solid, rhs, dirichlet: NEUMANN, ghosts: AT_CENTRES }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tol = 1e-4;
    println!("| grid | Jacobi iterations to {tol:e} | V(2,2) cycles to {tol:e} |");
    println!("|---|---|---|");
    for n in [64, 128, 256] {
        let pr = problem(n, 1);
        let start = solver::norm(&pr.rhs, &pr.solid);
        let mut p = Grid::filled(n, n, 0.0);
        let mut iterations = 0;
        while solver::norm(&solver::residual(&p, &pr), &pr.solid) > tol * start {
            for _ in 0..100 {
                p = solver::jacobi(&p, &pr);
            }
            iterations += 100;
        }
        let mut q = Grid::filled(n, n, 0.0);
        let report = Multigrid::new(&pr.solid, Settings::default()).solve(&mut q, &pr.rhs, tol, 100);
        println!("| {n}x{n} | {iterations} (to the next 100) | {} |", report.cycles);
    }
    let gpu = Gpu::headless()?;
    let n = 512;
    let pr = problem(n, 2);
    let mg = GpuMultigrid::new(&gpu.device, &gpu.caps, &gpu.queue, &pr.solid, NEUMANN, Settings::default())?;
    let zero = Grid::filled(n, n, 0.0);
    let mut times = Vec::new();
    for cycles in [0u32, 20] {
        let mut best = f64::INFINITY;
        for _ in 0..5 {
            mg.upload(&gpu.queue, &pr.rhs, &zero);
            let t = Instant::now();
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            mg.encode_cycles(&mut encoder, cycles);
            gpu.queue.submit([encoder.finish()]);
            mg.read_pressure(&gpu.device, &gpu.queue)?; // waits for the work
            best = best.min(t.elapsed().as_secs_f64());
        }
        times.push(best);
    }
    let got = mg.read_pressure(&gpu.device, &gpu.queue)?;
    let rel = solver::norm(&solver::residual(&got, &pr), &pr.solid) / solver::norm(&pr.rhs, &pr.solid);
    println!(
        "\n{n}x{n} on {}: one V(2,2) cycle ({} levels) takes {:.1} ms (best of 5 runs of 20); after 20 the residual is {rel:.1e}",
        gpu.adapter_label(),
        mg.level_count(),
        1e3 * (times[1] - times[0]) / 20.0
    );
    Ok(())
}
