//! The multigrid pressure solve (CPU reference, `eddy_fluid::solver`) against Jacobi and against its
//! own residual: it converges, fast, to the solution Jacobi converges to, with obstacles; with
//! edges held at pressure 0, to the discrete problem's exact solution.

use eddy_fluid::Grid;
use eddy_fluid::solver::multigrid::{Multigrid, Settings, coarsen};
use eddy_fluid::solver::{self, AT_CENTRES, NEUMANN, Poisson};

/// Walls: a few discs away from the edges (the open region stays connected).
fn discs(w: usize, h: usize) -> Grid<u8> {
    let centres = [(0.3, 0.35, 0.1), (0.7, 0.6, 0.12), (0.45, 0.75, 0.06)];
    Grid::from_fn(w, h, |r, c| {
        let (x, y) = (c as f32 + 0.5, r as f32 + 0.5);
        centres.iter().any(|&(cx, cy, rad)| {
            let (dx, dy) = (x - cx * w as f32, y - cy * h as f32);
            dx * dx + dy * dy < (rad * w as f32).powi(2)
        }) as u8
    })
}

/// `b = h^2 div u` of a random velocity that crosses no wall: random fluxes on the faces
/// between open cells, summed out of each cell. It sums to zero over every open region, as the
/// divergence of a real velocity does, so the problem has a solution.
fn divergence_of_random_flow(solid: &Grid<u8>, seed: u64) -> Grid<f32> {
    let (h, w) = solid.shape();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut b = Grid::filled(w, h, 0.0f32);
    for r in 0..h {
        for c in 0..w {
            for (dr, dc) in [(0, 1), (1, 0)] {
                let (nr, nc) = (r + dr, c + dc);
                if solid[(r, c)] == 0 && nr < h && nc < w && solid[(nr, nc)] == 0 {
                    let f = rng.f32() * 2.0 - 1.0;
                    b[(r, c)] += f;
                    b[(nr, nc)] -= f;
                }
            }
        }
    }
    b
}

/// The four neighbours `[up, left, right, down]` of open cell `(r, c)` as the problem is defined
/// (`eddy_fluid::solver`'s module docs), written here from that definition rather than from the
/// solver's `open_neighbour` and `wall_bits`, which the CPU mirror and the GPU's walls share:
/// `Some(pressure)` for an open cell inside the grid, `Some(0)` beyond an edge held at 0
/// (`dirichlet`, `[left, right, top, bottom]`: the cell beyond reads 0), `None` for a wall or
/// beyond an edge with no flux.
fn reference_neighbours(p: &[f64], solid: &Grid<u8>, dirichlet: [bool; 4], r: usize, c: usize) -> [Option<f64>; 4] {
    let (h, w) = solid.shape();
    let inside = |r: usize, c: usize| (solid[(r, c)] == 0).then(|| p[r * w + c]);
    let held = |edge: usize| dirichlet[edge].then_some(0.0);
    [
        if r == 0 { held(2) } else { inside(r - 1, c) },
        if c == 0 { held(0) } else { inside(r, c - 1) },
        if c + 1 == w { held(1) } else { inside(r, c + 1) },
        if r + 1 == h { held(3) } else { inside(r + 1, c) },
    ]
}

/// One Jacobi iteration of the problem in f64, from [`reference_neighbours`]: `p' = (sum of the
/// four neighbours, a wall or a closed edge reading `p`, - b) / 4`; walls 0.
fn reference_jacobi(p: &[f64], solid: &Grid<u8>, rhs: &Grid<f32>, dirichlet: [bool; 4]) -> Vec<f64> {
    let (h, w) = solid.shape();
    (0..h * w)
        .map(|i| {
            let (r, c) = (i / w, i % w);
            if solid[(r, c)] != 0 {
                return 0.0;
            }
            let sum: f64 = reference_neighbours(p, solid, dirichlet, r, c).iter().map(|n| n.unwrap_or(p[i])).sum();
            (sum - rhs[(r, c)] as f64) / 4.0
        })
        .collect()
}

/// One red-black Gauss-Seidel half-sweep in f64 over the cells with `(r + c) % 2 == colour`, from
/// [`reference_neighbours`]: each such open cell solves its own row of the problem, `p = (sum of
/// its open neighbours - b) / (how many)`.
fn reference_sweep(p: &mut [f64], solid: &Grid<u8>, rhs: &Grid<f32>, dirichlet: [bool; 4], colour: usize) {
    let (h, w) = solid.shape();
    for i in (0..h * w).filter(|i| (i / w + i % w) % 2 == colour) {
        let (r, c) = (i / w, i % w);
        let open: Vec<f64> = reference_neighbours(p, solid, dirichlet, r, c).into_iter().flatten().collect();
        if solid[(r, c)] == 0 && !open.is_empty() {
            p[i] = (open.iter().sum::<f64>() - rhs[(r, c)] as f64) / open.len() as f64;
        }
    }
}

/// The L2 norm over the open cells of the residual `b - sum over open neighbours (p_n - p)`, in
/// f64 from [`reference_neighbours`].
fn reference_residual(p: &Grid<f32>, solid: &Grid<u8>, rhs: &Grid<f32>, dirichlet: [bool; 4]) -> f64 {
    let (h, w) = solid.shape();
    let p: Vec<f64> = p.as_slice().iter().map(|&v| v as f64).collect();
    (0..h * w)
        .filter(|&i| solid.as_slice()[i] == 0)
        .map(|i| {
            let (r, c) = (i / w, i % w);
            let a: f64 = reference_neighbours(&p, solid, dirichlet, r, c).iter().flatten().map(|n| n - p[i]).sum();
            (rhs[(r, c)] as f64 - a).powi(2)
        })
        .sum::<f64>()
        .sqrt()
}

/// How far the GPU's f32 iterations may stray from the f64 reference, relative to the largest
/// pressure: a few f32 roundings (2^-24 = 6e-8) a cell, which average out over iterations
/// (lavapipe stays near 1e-7), with 10x room. A wall or a held edge read the wrong way moves a
/// cell by the size of a pressure difference, far beyond.
const REFERENCE_TOLERANCE: f64 = 1e-6;

/// The largest difference between `got` and the f64 reference `want`, over the largest `|want|`.
fn relative_to_reference(got: &Grid<f32>, want: &[f64]) -> f64 {
    let scale = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    got.as_slice().iter().zip(want).fold(0.0f64, |m, (&g, &w)| m.max((g as f64 - w).abs())) / scale
}

#[test]
fn coarse_walls_only_where_every_fine_cell_is_a_wall() {
    let solid = discs(37, 23);
    let coarse = coarsen(&solid, Default::default());
    assert_eq!(coarse.shape(), (12, 19));
    for r in 0..12 {
        for c in 0..19 {
            let all = (0..2)
                .all(|i| (0..2).all(|j| solid.get((2 * r + i) as isize, (2 * c + j) as isize).is_none_or(|&s| s != 0)));
            assert_eq!(coarse[(r, c)] != 0, all, "coarse cell ({r}, {c})");
        }
    }
}

/// V-cycles bring the residual of a random divergence with obstacles to 1e-6 of its start
/// within 12 cycles, each cutting it by at least 2x until then (measured: 2.6x to 250x per
/// cycle, 7-8 cycles; below ~1e-7 f32 rounding is the floor).
#[test]
fn v_cycles_converge_fast_with_obstacles() {
    for (w, h) in [(128, 128), (97, 61)] {
        let solid = discs(w, h);
        let rhs = divergence_of_random_flow(&solid, 7);
        let mg = Multigrid::new(&solid, Settings::default());
        let mut p = Grid::filled(w, h, 0.0);
        let problem = Poisson { solid: solid.clone(), rhs: rhs.clone(), dirichlet: NEUMANN, ghosts: AT_CENTRES };
        let start = solver::norm(&rhs, &solid);
        let mut last = start;
        for cycle in 1..=12 {
            let report = mg.solve(&mut p, &rhs, 0.0, 1);
            let now = solver::norm(&solver::residual(&p, &problem), &solid);
            eprintln!(
                "{w}x{h}, {} levels, cycle {cycle}: relative residual {:.3e}, factor {:.3}",
                mg.levels.len(),
                now / start,
                now / last
            );
            assert!((report.relative_residual - now / start).abs() <= 1e-9 + 1e-6 * report.relative_residual);
            if now / start > 1e-6 {
                assert!(now <= last / 2.0, "cycle {cycle} cut the residual only {:.2}x", last / now);
            }
            last = now;
        }
        assert!(last / start <= 1e-6, "{w}x{h}: residual {:.2e} of its start after 12 cycles", last / start);
    }
}

/// Multigrid and Jacobi (the smoke model's solve, run to convergence) reach the same pressure,
/// up to the constant a Neumann problem leaves free: within 1e-4 of its range on 32 x 24.
#[test]
fn multigrid_and_jacobi_agree() {
    let (w, h) = (32, 24);
    let solid = discs(w, h);
    let rhs = divergence_of_random_flow(&solid, 3);
    let problem = Poisson { solid: solid.clone(), rhs: rhs.clone(), dirichlet: NEUMANN, ghosts: AT_CENTRES };
    let mut jacobi = Grid::filled(w, h, 0.0);
    for _ in 0..40_000 {
        jacobi = solver::jacobi(&jacobi, &problem);
    }
    let mut mg = Grid::filled(w, h, 0.0);
    let report = Multigrid::new(&solid, Settings::default()).solve(&mut mg, &rhs, 1e-6, 50);
    let mean = |p: &Grid<f32>| {
        let open: Vec<f64> =
            p.as_slice().iter().zip(solid.as_slice()).filter(|(_, s)| **s == 0).map(|(v, _)| *v as f64).collect();
        open.iter().sum::<f64>() / open.len() as f64
    };
    let (mj, mm) = (mean(&jacobi), mean(&mg));
    let (mut worst, mut lo, mut hi) = (0.0f64, f64::INFINITY, f64::NEG_INFINITY);
    for i in 0..w * h {
        if solid.as_slice()[i] == 0 {
            let (a, b) = (jacobi.as_slice()[i] as f64 - mj, mg.as_slice()[i] as f64 - mm);
            worst = worst.max((a - b).abs());
            lo = lo.min(a);
            hi = hi.max(a);
        }
    }
    eprintln!("multigrid: {report:?}; largest difference from Jacobi {worst:.2e} over a range of {:.3}", hi - lo);
    assert!(report.relative_residual <= 1e-6, "{report:?}");
    assert!(worst <= 1e-4 * (hi - lo), "multigrid and Jacobi differ by {worst} (range {})", hi - lo);
}

mod common;

/// Edges held at pressure 0 (an outflow's Dirichlet condition, [`solver::DirichletEdges`]) with
/// a uniform right-hand side `b` and no walls: the top and bottom edges' no flux makes every row
/// the same 1D problem `p[c-1] - 2 p[c] + p[c+1] = b` (columns held at 0 beyond the held edges,
/// equal beyond the others), whose exact solution is a parabola: with both ends held
/// (`p[-1] = p[W] = 0`), `p[c] = b (c + 1)(c - W) / 2`; with the far end alone
/// (`p[-1] = p[0]`, `p[W] = 0`), `p[c] = b (c (c + 1) - W (W + 1)) / 2` (each has second
/// difference `b` and meets its ends). The same transposed, along the columns. 30 V-cycles reach
/// them within 1e-5 of their largest value (measured 2-3e-7: f32 rounding of values up to
/// `b W^2 / 2`; their residual is then at f32's floor, a few ulps of those values against `b`).
#[test]
fn v_cycles_reach_the_exact_parabola_with_edges_held_at_zero() {
    let b = 0.3f32;
    // (w, h, edges held, along rows, both ends held)
    let cases = [
        (61, 24, [true, true, false, false], true, true),
        (50, 9, [false, true, false, false], true, false),
        (20, 45, [false, false, true, true], false, true),
        (13, 70, [false, false, false, true], false, false),
    ];
    for (w, h, dirichlet, along_rows, both) in cases {
        let solid = Grid::filled(w, h, 0u8);
        let rhs = Grid::filled(w, h, b);
        let n = if along_rows { w } else { h } as f64;
        let exact = |r: usize, c: usize| {
            let i = if along_rows { c } else { r } as f64;
            let p = if both { (i + 1.0) * (i - n) } else { i * (i + 1.0) - n * (n + 1.0) };
            0.5 * b as f64 * p
        };
        let mg = Multigrid::with_dirichlet(&solid, dirichlet, Settings::default());
        let mut p = Grid::filled(w, h, 0.0f32);
        let report = mg.solve(&mut p, &rhs, 0.0, 30);
        let largest =
            (0..h).flat_map(|r| (0..w).map(move |c| (r, c))).fold(0.0f64, |m, (r, c)| m.max(exact(r, c).abs()));
        let worst = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .fold(0.0f64, |m, (r, c)| m.max((p[(r, c)] as f64 - exact(r, c)).abs()));
        eprintln!(
            "{w}x{h}, held {dirichlet:?}: {report:?}; off the parabola by {:.2e} of its largest",
            worst / largest
        );
        assert!(worst <= 1e-5 * largest, "{w}x{h}, held {dirichlet:?}: {:.2e} off the parabola", worst / largest);
    }
}

/// The GPU V-cycle against the CPU mirror (every pass: smooth, residual, restrict, prolong),
/// from a random pressure and a random divergence with obstacles, with no edge and with edges
/// held at pressure 0 (every level reading 0 beyond them): within 1e-5 of the largest pressure
/// after one cycle and 1e-4 after eight, and the GPU's own residual (measured by
/// [`reference_residual`], not the solver's) down to 1e-5 of its start after eight: V-cycles
/// whose coarse levels were wrong for the problem would not get there, whatever the CPU's agree.
#[test]
fn gpu_v_cycles_match_the_cpu() {
    use eddy_fluid::solver::GpuMultigrid;
    let gpu = common::gpu();
    let cases = [
        (128usize, 128usize, 1u64, NEUMANN),
        (97, 61, 2, NEUMANN),
        (5, 3, 3, NEUMANN),
        (97, 61, 4, [false, true, false, false]),
        (70, 45, 5, [true, false, false, true]),
        (5, 3, 6, [true, true, true, true]),
    ];
    for (w, h, seed, dirichlet) in cases {
        let solid = discs(w, h);
        let rhs = divergence_of_random_flow(&solid, seed);
        let mut rng = fastrand::Rng::with_seed(seed + 10);
        let start = Grid::from_fn(w, h, |r, c| if solid[(r, c)] == 0 { rng.f32() - 0.5 } else { 0.0 });
        let cpu = Multigrid::with_dirichlet(&solid, dirichlet, Settings::default());
        let g = GpuMultigrid::new(&gpu.device, &gpu.caps, &gpu.queue, &solid, dirichlet, Settings::default()).unwrap();
        assert_eq!(g.level_count(), cpu.levels.len());
        g.upload(&gpu.queue, &rhs, &start);
        let mut p = start.clone();
        let mut done = 0;
        for (cycles, tol) in [(1u32, 1e-5f32), (7, 1e-4)] {
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            g.encode_cycles(&mut encoder, cycles);
            gpu.queue.submit([encoder.finish()]);
            cpu.solve(&mut p, &rhs, 0.0, cycles);
            done += cycles;
            let got = g.read_pressure(&gpu.device, &gpu.queue).unwrap();
            gpu.check().unwrap();
            let scale = p.as_slice().iter().fold(0.0f32, |m, v| m.max(v.abs()));
            let (diff, at) = common::max_abs_diff(&got, &p);
            eprintln!("{w}x{h}, {done} cycles: GPU vs CPU {diff:.2e} at {at:?} (max |p| {scale:.3})");
            assert!(diff <= tol * scale, "{w}x{h} after {done} cycles: GPU and CPU differ by {diff} at {at:?}");
        }
        let got = g.read_pressure(&gpu.device, &gpu.queue).unwrap();
        let (r0, r8) =
            (reference_residual(&start, &solid, &rhs, dirichlet), reference_residual(&got, &solid, &rhs, dirichlet));
        eprintln!("{w}x{h}: GPU residual {:.2e} of its start after 8 cycles", r8 / r0);
        assert!(r8 <= 1e-5 * r0, "{w}x{h}: GPU residual {:.2e} of its start", r8 / r0);
    }
}

/// The V-cycles' smoother on the GPU's packed finest level (`smooth_quad.wgsl`: two red-black
/// sweeps a dispatch, run by the Jacobi quad's walk) against the CPU's
/// [`solver::multigrid::smooth`], colours 0, 1, 0, 1, ..., from a random pressure and a random
/// divergence with obstacles: bit for bit, after 2, 4 and 6 sweeps, on grids with an odd and an
/// even count of texels a row, padding cells in the last texel, fewer rows than a strip and many
/// strips, with no edge and with edges held at pressure 0. Bit for bit because the pass sums the
/// same neighbours in the same order and divides by the same count; a cell relaxed in the wrong
/// half-sweep, or reading a neighbour from the wrong place, changes at the first. And both within
/// [`REFERENCE_TOLERANCE`] of [`reference_sweep`], so that walls and held edges both read the same
/// wrong way (their wall bits and the mirror share `open_neighbour`) fail too.
#[test]
fn gpu_sweeps_match_the_cpu_bit_for_bit() {
    use eddy_fluid::solver::GpuMultigrid;
    let gpu = common::gpu();
    let cases = [
        (97usize, 61usize, 1u64, NEUMANN),
        (128, 150, 2, [true, false, true, false]),
        (38, 200, 3, [false, true, false, true]),
        (45, 77, 4, [false, true, true, false]),
        (130, 9, 5, NEUMANN),
    ];
    for (w, h, seed, dirichlet) in cases {
        let solid = discs(w, h);
        let rhs = divergence_of_random_flow(&solid, seed);
        let mut rng = fastrand::Rng::with_seed(seed + 40);
        let start = Grid::from_fn(w, h, |r, c| if solid[(r, c)] == 0 { rng.f32() - 0.5 } else { 0.0 });
        let problem = Poisson { solid: solid.clone(), rhs: rhs.clone(), dirichlet, ghosts: AT_CENTRES };
        let g = GpuMultigrid::new(&gpu.device, &gpu.caps, &gpu.queue, &solid, dirichlet, Settings::default()).unwrap();
        assert!(g.packs_cycles(), "{w}x{h} sweeps its finest level packed");
        let mut cpu = start.clone();
        let mut reference: Vec<f64> = start.as_slice().iter().map(|&v| v as f64).collect();
        for n in 1..=3u32 {
            g.upload(&gpu.queue, &rhs, &start);
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            g.encode_sweeps(&mut encoder, n);
            gpu.queue.submit([encoder.finish()]);
            for colour in [0, 1, 0, 1] {
                solver::multigrid::smooth(&mut cpu, &problem, colour);
                reference_sweep(&mut reference, &solid, &rhs, dirichlet, colour);
            }
            let got = g.read_pressure(&gpu.device, &gpu.queue).unwrap();
            gpu.check().unwrap();
            let differ = (0..h * w).filter(|&i| got.as_slice()[i].to_bits() != cpu.as_slice()[i].to_bits()).count();
            let (diff, at) = common::max_abs_diff(&got, &cpu);
            assert_eq!(differ, 0, "{w}x{h}, {} sweeps: {differ} cells differ, by up to {diff:e} at {at:?}", 2 * n);
            let off = relative_to_reference(&got, &reference);
            eprintln!("{w}x{h}, {} sweeps: {off:.2e} off the f64 reference", 2 * n);
            assert!(off <= REFERENCE_TOLERANCE, "{w}x{h}, {} sweeps: {off:.2e} off the f64 reference", 2 * n);
        }
    }
}

/// The packed levels sweep two red-black sweeps a dispatch, so an odd count before or after the
/// coarse correction is refused with a message that says so, not run as another count.
#[test]
fn odd_sweep_counts_are_refused_on_the_gpu() {
    use eddy_fluid::solver::GpuMultigrid;
    let gpu = common::gpu();
    let solid = discs(64, 48);
    for (pre, post) in [(1, 2), (2, 3)] {
        let settings = Settings { pre, post, ..Settings::default() };
        let Err(e) = GpuMultigrid::new(&gpu.device, &gpu.caps, &gpu.queue, &solid, NEUMANN, settings) else {
            panic!("{pre} and {post} sweeps were accepted");
        };
        let message = e.to_string();
        let expected = format!("{pre} before and {post} after the coarse correction cannot be run; give even counts");
        assert!(message.contains(&expected), "{message}");
    }
}

/// The GPU's packed Jacobi iterations (`GpuMultigrid::encode_jacobi`: four cells a texel,
/// several iterations a dispatch, each dispatch a column of texel rows an invocation) against
/// the CPU's [`solver::jacobi`], from a random pressure and a random divergence with obstacles:
/// bit for bit, at every count a dispatch schedule can end in (1 to 9, and the smoke step's
/// 50), on grids of one texel row and many, an odd and an even count of texels a row, with
/// padding cells in the last texel, with no edge and with edges held at pressure 0. Bit for bit
/// because every pass applies the same `(up + left + right + down - b) / 4` in the same order;
/// a cell a pass reads from the wrong place changes its result at the first iteration. And
/// within [`REFERENCE_TOLERANCE`] of [`reference_jacobi`], as the sweeps are.
#[test]
fn gpu_jacobi_iterations_match_the_cpu_bit_for_bit() {
    use eddy_fluid::solver::GpuMultigrid;
    let gpu = common::gpu();
    let cases = [
        (97usize, 61usize, 1u64, NEUMANN),
        (128, 150, 2, [true, false, true, false]),
        (5, 3, 3, [true, true, true, true]),
        (38, 200, 4, [false, true, false, true]),
        (13, 1, 5, NEUMANN),
    ];
    for (w, h, seed, dirichlet) in cases {
        let solid = discs(w, h);
        let rhs = divergence_of_random_flow(&solid, seed);
        let mut rng = fastrand::Rng::with_seed(seed + 20);
        let start = Grid::from_fn(w, h, |r, c| if solid[(r, c)] == 0 { rng.f32() - 0.5 } else { 0.0 });
        let problem = Poisson { solid: solid.clone(), rhs: rhs.clone(), dirichlet, ghosts: AT_CENTRES };
        let g = GpuMultigrid::new(&gpu.device, &gpu.caps, &gpu.queue, &solid, dirichlet, Settings::default()).unwrap();
        let mut cpu = start.clone();
        let mut reference: Vec<f64> = start.as_slice().iter().map(|&v| v as f64).collect();
        let mut done = 0;
        for iterations in (1..=9).chain([50]) {
            g.upload(&gpu.queue, &rhs, &start);
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            g.encode_jacobi(&mut encoder, iterations);
            gpu.queue.submit([encoder.finish()]);
            while done < iterations {
                cpu = solver::jacobi(&cpu, &problem);
                reference = reference_jacobi(&reference, &solid, &rhs, dirichlet);
                done += 1;
            }
            let got = g.read_pressure(&gpu.device, &gpu.queue).unwrap();
            gpu.check().unwrap();
            let differ = (0..h * w).filter(|&i| got.as_slice()[i].to_bits() != cpu.as_slice()[i].to_bits()).count();
            let (diff, at) = common::max_abs_diff(&got, &cpu);
            assert_eq!(
                differ, 0,
                "{w}x{h}, {iterations} iterations: {differ} cells differ, by up to {diff:e} at {at:?}"
            );
            let off = relative_to_reference(&got, &reference);
            eprintln!("{w}x{h}, {iterations} iterations: {off:.2e} off the f64 reference");
            assert!(off <= REFERENCE_TOLERANCE, "{w}x{h}, {iterations} iterations: {off:.2e} off the f64 reference");
        }
    }
}

/// The four-iterations pass (`jacobi_quad.wgsl`) at every strip length an adapter may get
/// (`eddy_fluid::gpu::DeviceCaps::strip`: 32 rows an invocation on a CPU adapter, 8 on others)
/// and at 1 and 5 (strips that end inside the grid's last rows), against the CPU's iterations,
/// bit for bit as above: a strip's first rows and its last read the rows around it as the
/// strip before and after do.
#[test]
fn every_quad_strip_gives_the_cpus_iterations() {
    use eddy_fluid::solver::packed::PackedJacobi;
    let gpu = common::gpu();
    let (w, h) = (45usize, 77usize);
    let dirichlet = [false, true, true, false];
    let solid = discs(w, h);
    let rhs = divergence_of_random_flow(&solid, 8);
    let mut rng = fastrand::Rng::with_seed(30);
    let start = Grid::from_fn(w, h, |r, c| if solid[(r, c)] == 0 { rng.f32() - 0.5 } else { 0.0 });
    let problem = Poisson { solid: solid.clone(), rhs: rhs.clone(), dirichlet, ghosts: AT_CENTRES };
    let mut cpu = start.clone();
    for _ in 0..12 {
        cpu = solver::jacobi(&cpu, &problem);
    }
    let usage = wgpu::TextureUsages::STORAGE_BINDING
        | wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST
        | wgpu::TextureUsages::COPY_SRC;
    let texture = |label| {
        eddy_fluid::gpu::texture_2d(&gpu.device, label, (w as u32, h as u32), wgpu::TextureFormat::R32Float, usage)
    };
    let (pressure, b) = (texture("pressure"), texture("rhs"));
    let views = [&pressure, &b].map(|t| t.create_view(&Default::default()));
    for strip in [1, 5, 8, 32] {
        let caps = eddy_fluid::gpu::DeviceCaps { strip, ..gpu.caps.clone() };
        let jacobi = PackedJacobi::new(&gpu.device, &caps, &gpu.queue, (w as u32, h as u32), &[&views[0]], &views[1]);
        eddy_fluid::gpu::upload(&gpu.queue, &pressure, bytemuck::cast_slice(start.as_slice()), 4);
        eddy_fluid::gpu::upload(&gpu.queue, &b, bytemuck::cast_slice(rhs.as_slice()), 4);
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        jacobi.encode_walls(&gpu.device, &mut encoder, &solid, &dirichlet);
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            jacobi.dispatch(&mut pass, 0, 12);
        }
        gpu.queue.submit([encoder.finish()]);
        let got = eddy_fluid::gpu::read_r32float(&gpu.device, &gpu.queue, &pressure).unwrap();
        gpu.check().unwrap();
        let differ = (0..h * w).filter(|&i| got.as_slice()[i].to_bits() != cpu.as_slice()[i].to_bits()).count();
        let (diff, at) = common::max_abs_diff(&got, &cpu);
        assert_eq!(differ, 0, "strip {strip}: {differ} cells differ, by up to {diff:e} at {at:?}");
    }
}
