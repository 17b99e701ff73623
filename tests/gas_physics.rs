//! The gas model against the physics it discretises (isothermal compressible flow), on the CPU
//! reference (the GPU is held to it by `gas_gpu_vs_cpu.rs`): blob translation, sound speed, the
//! 2D pulse against the exact ring and a textbook second-order code, a packet of sound against
//! the exact simple wave and its convergence, the shock tube against the exact Riemann
//! solution, and the parameter ranges' corners never reaching the speed cap. The experiments are in `eddy_fluid::gas::checks`; the README's tables come
//! from `examples/gas_physics.rs`.

use eddy_fluid::gas::checks::{self, ShockTube};
use eddy_fluid::gas::cpu::MAX_SPEED;
use eddy_fluid::gas::{FluxScheme, GasParams, Neighbours, Reconstruction};

const NEIGHBOURS: [Neighbours; 2] = [Neighbours::Four, Neighbours::Eight];
/// The schemes: the central flux (constant reconstruction only, the source's), Rusanov's with
/// the constant (first-order) and the linear (second-order, the default) reconstruction.
const SCHEMES: [(FluxScheme, Reconstruction); 3] = [
    (FluxScheme::Central, Reconstruction::Constant),
    (FluxScheme::Rusanov, Reconstruction::Constant),
    (FluxScheme::Rusanov, Reconstruction::Linear),
];

/// The ends of the diffusion range `flux` accepts ([`GasParams::diffusion_range`]).
fn diffusion_ends(flux: FluxScheme) -> [f32; 2] {
    let (lo, hi) = GasParams::diffusion_range(flux);
    [lo, hi]
}

/// The pressure range's ends that `flux` accepts.
fn pressure_ends(flux: FluxScheme) -> [f32; 2] {
    let (lo, hi) = GasParams::pressure_range(flux);
    [lo, hi]
}

/// A blob in a uniform flow moves at the flow's velocity: centroid speed within 1% (the issue's
/// tolerance; measured at most 0.2%), along x, y and a diagonal, in 4- and 8-way, for both
/// fluxes at the lower end of their diffusion range and both ends of their pressure range.
#[test]
fn blob_moves_with_the_flow() {
    let s = 0.1 / 2f64.sqrt();
    for (flux, reconstruction) in SCHEMES {
        for n in NEIGHBOURS {
            for pressure in pressure_ends(flux) {
                for v in [(0.1, 0.0), (0.0, 0.1), (s, s)] {
                    let p = GasParams {
                        neighbours: n,
                        flux,
                        reconstruction,
                        pressure,
                        diffusion: diffusion_ends(flux)[0],
                        ..Default::default()
                    };
                    let t = checks::translation(&p, v, 150);
                    eprintln!(
                        "{flux:?} {reconstruction:?} {n:?} c^2={pressure} {v:?}: measured {:?}, error {:.3}%",
                        t.measured,
                        100.0 * t.error
                    );
                    assert!(
                        t.error <= 0.01,
                        "{flux:?} {reconstruction:?} {n:?} c^2={pressure} {v:?}: moved at {:?}",
                        t.measured
                    );
                    assert!(
                        t.max_speed < MAX_SPEED,
                        "{flux:?} {reconstruction:?} {n:?}: the speed cap acted ({})",
                        t.max_speed
                    );
                }
            }
        }
    }
}

/// A small pressure pulse spreads at c = sqrt(pressure), in 4- and 8-way, both fluxes at both
/// ends of their pressure range, lowest diffusion (as the README's table): its second moment gives c within 1% (the issue asks 3%;
/// measured at most 0.2%; exact for linear acoustics, see `checks::sound_speed`); its crest
/// runs along the diagonals at the speed it runs along the axes, within 1% of c (measured at
/// most 0.5%), and within 5% of c itself (a cylindrical crest closes in on `c t` from behind,
/// so it reads 2.7-4.4% fast over these times).
#[test]
fn sound_spreads_at_c_in_every_direction() {
    for (flux, reconstruction) in SCHEMES {
        for n in NEIGHBOURS {
            for pressure in pressure_ends(flux) {
                let p = GasParams {
                    neighbours: n,
                    flux,
                    reconstruction,
                    pressure,
                    diffusion: diffusion_ends(flux)[0],
                    ..Default::default()
                };
                let steps = (60.0 / p.sound_speed()) as u32;
                let s = checks::sound_speed(&p, 0.01, 6.0, steps);
                let c = s.exact;
                eprintln!(
                    "{flux:?} {reconstruction:?} {n:?} c^2={pressure}: c {c:.4}, spread {:.4}, crest along axes {:.4}, diagonals {:.4}",
                    s.spread, s.crest_axes, s.crest_diagonals
                );
                let name = format!("{flux:?} {reconstruction:?} {n:?} c^2={pressure}");
                assert!((s.spread / c - 1.0).abs() <= 0.01, "{name}: spreads at {} vs c {c}", s.spread);
                assert!(
                    (s.crest_diagonals - s.crest_axes).abs() <= 0.01 * c,
                    "{name}: crest along diagonals {} vs axes {}",
                    s.crest_diagonals,
                    s.crest_axes
                );
                for v in [s.crest_axes, s.crest_diagonals] {
                    assert!((v / c - 1.0).abs() <= 0.05, "{name}: crest at {v} vs c {c}");
                }
            }
        }
    }
}

/// A Gaussian pulse (amplitude 1%, sigma 3 cells) released from rest, against the exact linear
/// solution (`gas::acoustics`: the Hankel transform of the Gaussian, no code of the scheme's),
/// after the ring has run 60 cells, along the axes and the diagonals, both neighbourhoods
/// (Rusanov, the constant reconstruction). The undamped exact ring is what the reconstructions are
/// compared against: this prints the amplitude the scheme keeps of it (first order: about a
/// quarter: 22% in 8-way, 25% in 4-way). The test holds the ring to the exact solution *with the
/// scheme's own diffusion*: an exchange `nu` on density and momentum alike
/// (`exchange_along_x`, from the flux's formula) less forward Euler's `c^2 dt / 2` multiplies
/// every mode by `exp(-nu k^2 t)`, which turns the Gaussian's transform into that of a Gaussian
/// of variance `sigma^2 + 2 nu t` with the same excess mass, so the damped exact ring is
/// `gas::acoustics` of that wider pulse. Crest radius within 1% and amplitude within 5% of it
/// (measured: 0.1-0.3% and 0.5-1.4%; what is left is the scheme's dispersion and its nonlinear
/// flux at 1% amplitude).
#[test]
fn the_pulse_ring_matches_exact_acoustics_with_the_schemes_exchange() {
    use eddy_fluid::gas::acoustics::gaussian_pulse_2d_crest;
    let (amplitude, sigma) = (0.01, 3.0);
    for n in NEIGHBOURS {
        let p = GasParams { neighbours: n, reconstruction: Reconstruction::Constant, ..Default::default() };
        let (c, nu) = (p.sound_speed() as f64, exchange_along_x(&p));
        let steps = (60.0 / c) as u32;
        let t = steps as f64;
        let ring = checks::pulse_ring(&p, amplitude, sigma, steps);
        // Forward Euler in time adds -c^2 dt / 2 to the diffusion (its modified equation: the
        // step multiplies a mode by 1 + dt L, i.e. exp(dt L - dt^2 L^2 / 2 + ...), and L^2 =
        // -c^2 k^2 for sound), dt = 1 step.
        let nu = nu - 0.5 * c * c;
        let wide = (sigma * sigma + 2.0 * nu * t).sqrt();
        let (damped_radius, damped_peak) = gaussian_pulse_2d_crest(t, amplitude * (sigma / wide).powi(2), wide, c);
        let kept = ring.kept();
        eprintln!(
            "{n:?}: exact crest {:.2} cells, excess {:.3e}; with the exchange {damped_radius:.2}, {damped_peak:.3e}; \
             scheme axes {:.2} ({:.1}% of the exact amplitude), diagonals {:.2} ({:.1}%)",
            ring.exact_radius,
            ring.exact_peak,
            ring.radius.0,
            100.0 * kept.0,
            ring.radius.1,
            100.0 * kept.1
        );
        for (dir, r, peak) in [("axes", ring.radius.0, ring.peak.0), ("diagonals", ring.radius.1, ring.peak.1)] {
            assert!((r / damped_radius - 1.0).abs() <= 0.01, "{n:?} {dir}: crest at {r} vs {damped_radius}");
            assert!((peak / damped_peak - 1.0).abs() <= 0.05, "{n:?} {dir}: crest excess {peak} vs {damped_peak}");
        }
    }
}

/// The pulse of the test above with the linear reconstruction (the default), against the exact
/// ring without any damping and against a textbook second-order finite-volume code on the same
/// grid from the same cells ([`textbook`]: dimension by dimension, MUSCL with the monotonized
/// central limiter, the Rusanov flux in LeVeque's form, Heun's RK2, in f64; written here, none
/// of eddy's code). Asserted, both neighbourhoods: the crest's radius within 1% of the exact
/// (measured 0.2-0.8% beyond it: what dissipation is left widens the pulse and moves its crest
/// out) and within 1% of the textbook code's (measured 0.3-0.8% inside it; the textbook's own
/// is 1.04% beyond the exact: eddy's MUSCL-Hancock step is a different time integration from the
/// textbook's Heun stages); the amplitude kept at least 2.5 times the constant reconstruction's
/// (measured 3.2-3.4x) and within 5% of the textbook code's along the axes (measured: 4-way
/// 77.9% and 8-way 74.7% against 75.1%); round: 8-way's crest along the diagonals within 1% of
/// the axes' in radius and 3% in amplitude (measured 0.34% and 2.0%); 4-way, whose faces are the
/// textbook's, as anisotropic as the textbook (its diagonals keep 83.1%, the textbook's 82.0%;
/// within 5%).
#[test]
fn the_linear_reconstruction_keeps_the_pulse_as_a_textbook_second_order_code_does() {
    let (amplitude, sigma) = (0.01, 3.0);
    let p = GasParams::default();
    assert_eq!(p.reconstruction, Reconstruction::Linear, "the default");
    let c = p.sound_speed() as f64;
    let steps = (60.0 / c) as u32;
    let (start, half, _) = checks::pulse(amplitude, sigma, c, steps);
    let book = textbook::run(&start, p.pressure as f64, steps);
    let ((book_radius, _), (book_axes, book_diagonals)) = checks::ring(&book, half);
    for n in NEIGHBOURS {
        let linear = checks::pulse_ring(&GasParams { neighbours: n, ..p }, amplitude, sigma, steps);
        let constant = checks::pulse_ring(
            &GasParams { neighbours: n, reconstruction: Reconstruction::Constant, ..p },
            amplitude,
            sigma,
            steps,
        );
        let (kept, first) = (linear.kept(), constant.kept());
        let exact = linear.exact_peak;
        eprintln!(
            "{n:?}: exact crest {:.2} cells, excess {exact:.3e}; linear: radius {:.2} / {:.2}, kept {:.1}% / {:.1}% \
             (axes / diagonals); constant kept {:.1}% / {:.1}%; textbook radius {book_radius:.2}, kept {:.1}% / {:.1}%",
            linear.exact_radius,
            linear.radius.0,
            linear.radius.1,
            100.0 * kept.0,
            100.0 * kept.1,
            100.0 * first.0,
            100.0 * first.1,
            100.0 * book_axes / exact,
            100.0 * book_diagonals / exact,
        );
        for r in [linear.radius.0, linear.radius.1] {
            assert!((r / linear.exact_radius - 1.0).abs() <= 0.01, "{n:?}: crest at {r} vs {}", linear.exact_radius);
            assert!((r / book_radius - 1.0).abs() <= 0.01, "{n:?}: crest at {r}, the textbook code's at {book_radius}");
        }
        for (dir, k, f) in [("axes", kept.0, first.0), ("diagonals", kept.1, first.1)] {
            assert!(k >= 2.5 * f, "{n:?} {dir}: linear keeps {k:.3}, constant {f:.3}");
        }
        assert!(
            (linear.peak.0 / book_axes - 1.0).abs() <= 0.05,
            "{n:?}: axes keep {:.4e}, the textbook code {book_axes:.4e}",
            linear.peak.0
        );
        match n {
            Neighbours::Eight => {
                assert!(
                    (linear.radius.1 / linear.radius.0 - 1.0).abs() <= 0.01,
                    "{n:?}: not round: {:?}",
                    linear.radius
                );
                assert!((kept.1 / kept.0 - 1.0).abs() <= 0.03, "{n:?}: not round: kept {kept:?}");
            }
            Neighbours::Four => assert!(
                (linear.peak.1 / book_diagonals - 1.0).abs() <= 0.05,
                "{n:?}: diagonals keep {:.4e}, the textbook code {book_diagonals:.4e}",
                linear.peak.1
            ),
        }
    }
}

/// A packet of sound (amplitude 0.01, sigma 4 cells) running 100 cells along a channel, right
/// and left, against the exact simple wave (`checks::sound_wave`), both reconstructions and
/// neighbourhoods: its centroid runs at c within 1% (measured 0.26-0.37% fast, of which the
/// exact wave's own nonlinearity is 0.2%); the two directions are alike (speed and amplitude
/// within 1e-3 of each other: the scheme has no preferred direction); the linear
/// reconstruction keeps at least 2 times the amplitude the constant one keeps (measured 86-88%
/// against 39-41%) with an L1 error below 0.15 of the packet (measured 0.10-0.11; constant
/// 0.8).
#[test]
fn a_sound_wave_runs_at_c_both_ways_and_the_linear_reconstruction_keeps_it() {
    use eddy_fluid::gas::cpu::LIMITER;
    for n in NEIGHBOURS {
        let kept = [Reconstruction::Constant, Reconstruction::Linear].map(|reconstruction| {
            let p = GasParams { neighbours: n, reconstruction, ..Default::default() };
            let [right, left] = [1.0, -1.0].map(|dir| checks::sound_wave(&p, LIMITER, 0.01, 4.0, 100.0, dir));
            let c = right.exact;
            let name = format!("{reconstruction:?} {n:?}");
            eprintln!(
                "{name}: speed / c {:.4} right, {:.4} left; kept {:.3} right, {:.3} left; L1 error {:.3}",
                right.speed / c,
                -left.speed / c,
                right.kept,
                left.kept,
                right.error
            );
            assert!((right.speed / c - 1.0).abs() <= 0.01, "{name}: runs right at {} vs c {c}", right.speed);
            assert!((-left.speed / c - 1.0).abs() <= 0.01, "{name}: runs left at {} vs c {c}", -left.speed);
            assert!(
                (right.speed + left.speed).abs() <= 1e-3 * c,
                "{name}: {} right vs {} left",
                right.speed,
                left.speed
            );
            assert!((right.kept - left.kept).abs() <= 1e-3, "{name}: keeps {} right vs {} left", right.kept, left.kept);
            if reconstruction == Reconstruction::Linear {
                assert!(right.error <= 0.15, "{name}: L1 error {}", right.error);
            }
            right.kept
        });
        assert!(kept[1] >= 2.0 * kept[0], "{n:?}: linear keeps {}, constant {}", kept[1], kept[0]);
    }
}

/// The convergence study: the packet of the test above at three resolutions (sigma 3, 6 and
/// 12 cells, running 20 sigma: the same wave, twice as finely resolved each time, with the
/// same Courant number), its L1 error against the exact simple wave. The constant
/// reconstruction is first order and still far from its asymptote here (order 0.4-0.6,
/// measured); the linear one converges at second order (measured 1.89-2.04 between sigma 3, 6
/// and 12; asserted at least 1.7 between 6 and 12: a limiter clips every smooth extremum to
/// first order, Osher 1984, which the crest's few cells let through only in part), and its error
/// is at least 20 times smaller at sigma 12 (measured 40-45x). The README's table adds sigma 24.
#[test]
fn the_linear_reconstruction_converges_at_nearly_second_order() {
    use eddy_fluid::gas::cpu::LIMITER;
    for n in NEIGHBOURS {
        let errors = [Reconstruction::Constant, Reconstruction::Linear].map(|reconstruction| {
            let p = GasParams { neighbours: n, reconstruction, ..Default::default() };
            [3.0, 6.0, 12.0].map(|sigma| checks::sound_wave(&p, LIMITER, 0.01, sigma, 20.0 * sigma, 1.0).error)
        });
        let order = |e: [f64; 3]| ((e[0] / e[1]).log2(), (e[1] / e[2]).log2());
        let ([c3, c6, c12], [l3, l6, l12]) = (errors[0], errors[1]);
        let (co, lo) = (order(errors[0]), order(errors[1]));
        eprintln!(
            "{n:?}: constant {c3:.3e} {c6:.3e} {c12:.3e} (orders {:.2}, {:.2}); linear {l3:.3e} {l6:.3e} {l12:.3e} (orders {:.2}, {:.2})",
            co.0, co.1, lo.0, lo.1
        );
        assert!(lo.1 >= 1.7, "{n:?}: linear converges at order {:.2}", lo.1);
        assert!(co.1 > 0.3 && co.1 <= 1.0, "{n:?}: constant converges at order {:.2}", co.1);
        assert!(l12 * 20.0 <= c12, "{n:?}: linear error {l12} vs constant {c12}");
    }
}

/// A textbook finite-volume solver of the isothermal Euler equations (`rho_t + div m = 0`,
/// `m_t + div(m m / rho) + c^2 grad rho = 0`), second order: MUSCL reconstruction with the
/// monotonized central limiter (van Leer 1977) dimension by dimension, the Rusanov flux in
/// LeVeque's form `(f(q_L) + f(q_R)) / 2 - alpha (q_R - q_L) / 2`, `alpha = max(|u_L|, |u_R|) +
/// c` (LeVeque 2002, eq. 12.12), and Heun's SSP-RK2 (Shu & Osher 1988), `dx = dt = 1`, in f64.
/// The reference for eddy's linear reconstruction; it shares no code with eddy's scheme.
/// (Index loops: a stencil reads its neighbours by index.)
#[allow(clippy::needless_range_loop)]
mod textbook {
    use eddy_fluid::gas::GasState;

    type Q = [f64; 3];

    fn mc(back: f64, fwd: f64) -> f64 {
        if back * fwd <= 0.0 {
            return 0.0;
        }
        back.signum() * (2.0 * back.abs()).min(2.0 * fwd.abs()).min(0.5 * (back + fwd).abs())
    }

    /// The flux along axis `d` (0 = x, 1 = y) of state `q`.
    fn flux(q: Q, d: usize, c2: f64) -> Q {
        let u = q[1 + d] / q[0];
        let mut f = [q[1 + d], q[1] * u, q[2] * u];
        f[1 + d] += c2 * q[0];
        f
    }

    fn rusanov(l: Q, r: Q, d: usize, c2: f64) -> Q {
        let alpha = (l[1 + d] / l[0]).abs().max((r[1 + d] / r[0]).abs()) + c2.sqrt();
        let (fl, fr) = (flux(l, d, c2), flux(r, d, c2));
        [0, 1, 2].map(|k| 0.5 * (fl[k] + fr[k]) - 0.5 * alpha * (r[k] - l[k]))
    }

    /// `L(q)`: minus the divergence of the fluxes, on every cell two or more from the edge
    /// (the edge cells keep their values: the pulse's ring never reaches them).
    fn rate(q: &[Vec<Q>], c2: f64) -> Vec<Vec<Q>> {
        let n = q.len();
        let mut out = vec![vec![[0.0; 3]; n]; n];
        for d in 0..2 {
            let at = |r: usize, c: usize, k: isize| -> Q {
                if d == 0 { q[r][(c as isize + k) as usize] } else { q[(r as isize + k) as usize][c] }
            };
            for r in 2..n - 2 {
                for c in 2..n - 2 {
                    // The face between this cell and the next along d: cells -1, 0, 1, 2.
                    let face = |r: usize, c: usize| -> Q {
                        let (m, a, b, p) = (at(r, c, -1), at(r, c, 0), at(r, c, 1), at(r, c, 2));
                        let left = [0, 1, 2].map(|k| a[k] + 0.5 * mc(a[k] - m[k], b[k] - a[k]));
                        let right = [0, 1, 2].map(|k| b[k] - 0.5 * mc(b[k] - a[k], p[k] - b[k]));
                        rusanov(left, right, d, c2)
                    };
                    let (fr, fl) = if d == 0 { (face(r, c), face(r, c - 1)) } else { (face(r, c), face(r - 1, c)) };
                    for k in 0..3 {
                        out[r][c][k] -= fr[k] - fl[k];
                    }
                }
            }
        }
        out
    }

    /// `steps` steps from `start` (square, no walls) with pressure `c2`; the result as a
    /// `GasState` for `checks::ring`.
    pub fn run(start: &GasState, c2: f64, steps: u32) -> GasState {
        let (n, _) = start.density.shape();
        let mut q: Vec<Vec<Q>> = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        let at = (r, c);
                        [start.density[at] as f64, start.momentum_x[at] as f64, start.momentum_y[at] as f64]
                    })
                    .collect()
            })
            .collect();
        let add = |q: &[Vec<Q>], l: &[Vec<Q>]| -> Vec<Vec<Q>> {
            q.iter()
                .zip(l)
                .map(|(a, b)| a.iter().zip(b).map(|(x, y)| [0, 1, 2].map(|k| x[k] + y[k])).collect())
                .collect()
        };
        for _ in 0..steps {
            let q1 = add(&q, &rate(&q, c2));
            let q2 = add(&q1, &rate(&q1, c2));
            q = q
                .iter()
                .zip(&q2)
                .map(|(a, b)| a.iter().zip(b).map(|(x, y)| [0, 1, 2].map(|k| 0.5 * (x[k] + y[k]))).collect())
                .collect();
        }
        let mut out = start.clone();
        for r in 0..n {
            for c in 0..n {
                let at = (r, c);
                (out.density[at], out.momentum_x[at], out.momentum_y[at]) =
                    (q[r][c][0] as f32, q[r][c][1] as f32, q[r][c][2] as f32);
            }
        }
        out
    }
}

/// The exchange along x (cells^2/step) of gas at rest, from the flux's formula rather than the
/// code under test: a face `h` cells long carries `nu = D` (central) or `nu = max(D, c h / 2)`
/// (Rusanov 1961, local Lax-Friedrichs: the fastest signal of gas at rest is the sound speed
/// `c`), weighted by its length `L` over `h` and by `dx^2` of its direction. 4-way: one axis face,
/// `L = 1`. 8-way: the axis face with `L = 2/3` and the two diagonals (`h = sqrt 2`, `dx = 1`)
/// with `L = sqrt(2)/6`, the weights that make sound travel at `c` in every direction (the gas
/// module's derivation): `2/3 nu(1) + 2 (sqrt(2)/6) nu(sqrt 2) / sqrt 2`, which for Rusanov with
/// a small `D` is `(2 + sqrt 2)/6 c`, against `c / 2` in 4-way.
fn exchange_along_x(p: &GasParams) -> f64 {
    let (d, c) = (p.diffusion as f64, p.sound_speed() as f64);
    let nu = |h: f64| match p.flux {
        FluxScheme::Central => d,
        FluxScheme::Rusanov => d.max(0.5 * c * h),
    };
    let root2 = std::f64::consts::SQRT_2;
    match p.neighbours {
        Neighbours::Four => nu(1.0),
        Neighbours::Eight => 2.0 / 3.0 * nu(1.0) + 2.0 * (root2 / 6.0) * nu(root2) / root2,
    }
}

/// The shock tube (densities 1 | 0.125 at rest, a 4-cell channel, damping = drain = 1, friction
/// 0) for both neighbourhoods, both fluxes and both ends of each flux's diffusion and pressure
/// ranges: no cell ahead of the exact shock's foot moves (see `checks::foot_allowance`), the
/// plateau is flat within 1% of its density and its level within 1% of the exact one, nothing
/// behind the shock overshoots it by more than 1%, the channel flow stays one-dimensional
/// (walls are mirrors), and no speed passes the exact `u*` by more than 1% (so the cap never
/// acts).
#[test]
fn shock_tube_is_clean_at_every_range_end() {
    for (flux, reconstruction) in SCHEMES {
        for n in NEIGHBOURS {
            for (diffusion, pressure) in
                diffusion_ends(flux).into_iter().flat_map(|d| pressure_ends(flux).map(|p| (d, p)))
            {
                let p = GasParams { neighbours: n, flux, reconstruction, diffusion, pressure, ..Default::default() };
                let c = p.sound_speed() as f64;
                let steps = (120.0 / c) as u32;
                let r = checks::shock_tube(ShockTube::ratio_8(c, steps), &p, steps);
                let allow = checks::foot_allowance(&r.exact, exchange_along_x(&p));
                let name = format!("{flux:?} {reconstruction:?} {n:?} D={diffusion} c^2={pressure}");
                eprintln!(
                    "{name}: ahead {:.1} (allowed {allow:.1}), plateau spread {:.3}%, level {:+.3}%, overshoot {:.2}%, max speed {:.4} (u* {:.4}, at the end {:.4}), across {:.1e}",
                    r.ahead,
                    100.0 * r.plateau_spread,
                    100.0 * r.plateau_level,
                    100.0 * r.overshoot,
                    r.max_speed,
                    r.exact.star.u,
                    r.end_speed,
                    r.across
                );
                assert!(
                    r.ahead <= allow,
                    "{name}: gas moved {:.1} cells ahead of the shock (allowed {allow:.1})",
                    r.ahead
                );
                assert!(r.plateau_spread <= 0.01, "{name}: plateau spread {:.3}%", 100.0 * r.plateau_spread);
                assert!(r.plateau_level.abs() <= 0.01, "{name}: plateau level off by {:.3}%", 100.0 * r.plateau_level);
                assert!(r.overshoot <= 0.01, "{name}: overshoot {:.2}% behind the shock", 100.0 * r.overshoot);
                assert!(r.across <= 1e-4, "{name}: rows of the channel differ by {:.1e}", r.across);
                let u_star = r.exact.star.u as f32;
                // The linear reconstruction overshoots u* while the sharp jump first breaks into
                // the two waves (up to 5.1%, D = 0.15, c^2 = 0.01), then settles: at the end its
                // fastest cell is within 1% of u* (measured 0.5%).
                let start_up = match reconstruction {
                    Reconstruction::Constant => 1.01,
                    Reconstruction::Linear => 1.06,
                };
                assert!(r.max_speed <= start_up * u_star, "{name}: speed {} overshoots u* = {u_star}", r.max_speed);
                assert!(r.end_speed <= 1.01 * u_star, "{name}: speed {} at the end vs u* = {u_star}", r.end_speed);
            }
        }
    }
}

/// Every corner of the allowed parameter box (each flux with its diffusion and pressure range,
/// each reconstruction with its largest friction and wind (`GasParams::limits`), both
/// neighbourhoods, the wind along an axis and a diagonal, damping and drain off) on the explosion and wind presets: nothing non-finite and
/// the speed cap never reached (it is a safety net). Prints the largest speed of each run.
#[test]
fn range_corners_never_reach_the_speed_cap() {
    let mut worst = 0.0f32;
    let mut failed = Vec::new();
    for (flux, reconstruction) in SCHEMES {
        let (w, friction) = GasParams::limits(reconstruction);
        for n in NEIGHBOURS {
            for diffusion in diffusion_ends(flux) {
                for pressure in pressure_ends(flux) {
                    for wind in [(w, 0.0), (-w * std::f32::consts::FRAC_1_SQRT_2, w * std::f32::consts::FRAC_1_SQRT_2)]
                    {
                        let p = GasParams {
                            neighbours: n,
                            flux,
                            reconstruction,
                            diffusion,
                            pressure,
                            wind,
                            friction,
                            ..Default::default()
                        };
                        p.validate().unwrap();
                        let p = GasParams { damping: 1.0, drain: 1.0, ..p };
                        for scene in ["explosion", "wind"] {
                            let r = checks::preset_run(scene, (64, 48), &p, 2000);
                            eprintln!(
                                "{scene} {flux:?} {reconstruction:?} {n:?} D={diffusion} c^2={pressure} wind={wind:?}: max speed {:.3}",
                                r.max_speed
                            );
                            if !(r.finite && r.min_density >= 0.0 && r.max_speed < MAX_SPEED) {
                                failed.push(format!("{scene} {p:?}: {r:?}"));
                            }
                            worst = worst.max(r.max_speed);
                        }
                    }
                }
            }
        }
    }
    eprintln!("largest speed over all corners: {worst:.3} (cap {MAX_SPEED})");
    assert!(failed.is_empty(), "non-finite, negative, or the speed cap acted:\n{}", failed.join("\n"));
}

/// The mean density of column `col`.
fn column(s: &eddy_fluid::gas::GasState, col: usize) -> f64 {
    let h = s.shape().0;
    (0..h).map(|r| s.density[(r, col)] as f64).sum::<f64>() / h as f64
}

/// The mean density over the columns `cols`.
fn mean_density(s: &eddy_fluid::gas::GasState, cols: std::ops::Range<usize>) -> f64 {
    let n = cols.len() as f64;
    cols.map(|col| column(s, col)).sum::<f64>() / n
}

/// Where the column density last falls through `half` going right (a shock running into the
/// lower density on its right), interpolated between columns, cells from the left edge.
fn shock_position(s: &eddy_fluid::gas::GasState, half: f64) -> f64 {
    (1..s.shape().1)
        .rev()
        .find(|&col| column(s, col - 1) >= half && column(s, col) < half)
        .map(|col| col as f64 - 0.5 + (column(s, col - 1) - half) / (column(s, col - 1) - column(s, col)))
        .expect("a shock")
}

/// The piston tests' report, and their tolerance: the shock's speed and the density behind it
/// each within 2% of the jump conditions' (the issue's).
fn assert_jump(what: &str, (speed, exact): (f64, f64), (level, rho_1): (f64, f64)) {
    println!(
        "{what} at {speed:.4} (exact {exact:.4}, {:+.2}%), density behind {level:.4} (exact {rho_1:.4}, {:+.2}%)",
        100.0 * (speed / exact - 1.0),
        100.0 * (level / rho_1 - 1.0)
    );
    assert!((speed / exact - 1.0).abs() < 0.02, "{what}: speed {speed}, exact {exact}");
    assert!((level / rho_1 - 1.0).abs() < 0.02, "{what}: density {level}, exact {rho_1}");
}

/// The gas piston, in the piston's frame: gas of density 1 flowing at `U` into a
/// fixed wall is the gas a piston driven at `U` into gas at rest meets, seen from the piston.
/// The isothermal jump conditions (mass `[rho u] = s [rho]`, momentum `[rho u^2 + c^2 rho] =
/// s [rho u]`) across a shock moving at `S` into gas at rest, with the gas behind it moving at
/// the piston's `U`, give `S (S - U) = c^2`, so `S = U / 2 + sqrt(U^2 / 4 + c^2)`, and the density
/// behind it `rho_1 = S / (S - U)` (derived here, not taken from `gas::exact`). From the wall
/// the shock runs back at `S - U` and the gas behind it is at rest. Checked for `U` = 0.25 c,
/// 0.5 c and c, both reconstructions, a 4-cell channel, 300 steps: the shock's speed (where the
/// density crosses halfway between 1 and `rho_1`, from its start at the wall) and the mean
/// density of the plateau between 5 cells from the wall and 10 cells behind the shock, each
/// within 2% (the tolerance; the shock's spread of a few cells over a run of 40-60 cells
/// is the limit on the speed). Measured: the speed within 0.18-0.41% (constant) and 0.05-0.11%
/// (linear), the density within 0.00-0.09%. The piston as a wall that moves:
/// `a_moving_piston_drives_the_isothermal_shock`.
#[test]
fn a_wall_driven_into_gas_sets_up_the_isothermal_jump() {
    for reconstruction in [Reconstruction::Constant, Reconstruction::Linear] {
        let p = checks::undamped(GasParams { reconstruction, ..GasParams::default() });
        let c = p.sound_speed() as f64;
        for fraction in [0.25, 0.5, 1.0] {
            let u = fraction * c;
            let s = u / 2.0 + (u * u / 4.0 + c * c).sqrt();
            let (back, rho_1) = (s - u, s / (s - u));
            let steps = 300u32;
            // Room for the shock and for the rarefaction from the right edge (at U + c).
            let width = ((back + u + c) * steps as f64) as usize + 60;
            let mut state = checks::state_from(width, 4, |_, _| 1.0, |_, _| (-u, 0.0));
            checks::run(&mut state, &p, steps, |_, _| {});
            let crossing = shock_position(&state, (1.0 + rho_1) / 2.0);
            let speed = crossing / steps as f64;
            let level = mean_density(&state, 5..(crossing - 10.0) as usize);
            let what = format!("{reconstruction:?}, U = {fraction} c: shock back from the wall");
            assert_jump(&what, (speed, back), (level, rho_1));
        }
    }
}

/// Half the width of the gas piston of the tests below, cells.
const PISTON_HALF_WIDTH: f32 = 4.0;

/// The gas piston's channel: a box body as tall as the 4-cell channel and
/// `2 PISTON_HALF_WIDTH` wide at its left end, driven at `u`, with gas of density 1 at rest
/// ahead of it (none where it is: what it covers when placed would be handed to the column
/// ahead), long enough for the shock `late` steps on (`c` the sound speed). Returns the state,
/// the shock's speed `S = U / 2 + sqrt(U^2 / 4 + c^2)` and the density behind it,
/// `rho_1 = S / (S - U)`.
fn piston_channel(u: f64, c: f64, late: u32) -> (eddy_fluid::gas::GasState, f64, f64) {
    use eddy_fluid::body::{Body, Shape};
    let s = u / 2.0 + (u * u / 4.0 + c * c).sqrt();
    let (height, start) = (4usize, PISTON_HALF_WIDTH);
    let width = (s * late as f64) as usize + 60;
    let gas = |x: f64, _| if x < 2.0 * start as f64 { 0.0 } else { 1.0 };
    let mut state = checks::state_from(width, height, gas, |_, _| (0.0, 0.0));
    let piston = Shape::Box { half_width: start, half_height: height as f32 };
    state.bodies = vec![Body { vx: u as f32, ..Body::new(piston, start, height as f32 / 2.0) }];
    (state, s, s / (s - u))
}

/// The gas piston as a moving wall: a box body as tall as the channel, driven at `U`
/// into gas of density 1 at rest, against the isothermal jump derived above (`S (S - U) = c^2`,
/// `rho_1 = S / (S - U)`), in the grid's frame. The piston is a staircase of cells that jumps a
/// cell each `1 / U` steps, its faces the mirror in its frame and the gas of each column it
/// covers handed to the column ahead ([`eddy_fluid::gas::bodies`]), so the gas next to it pulses; the
/// shock ahead sees only the mean push. Measured over steps 600 to 900 (the shock's position
/// where the column density crosses halfway between 1 and `rho_1`, so its spread cancels) and
/// at step 900 the mean density between 8 cells ahead of the piston and 10 cells behind the
/// shock, each within 2% (the tolerance); the channel long enough that the rarefaction
/// from its far wall does not come back. `U` = 0.25 c, 0.5 c and c, both reconstructions.
#[test]
fn a_moving_piston_drives_the_isothermal_shock() {
    for reconstruction in [Reconstruction::Constant, Reconstruction::Linear] {
        let p = checks::undamped(GasParams { reconstruction, ..GasParams::default() });
        let c = p.sound_speed() as f64;
        for fraction in [0.25, 0.5, 1.0] {
            let u = fraction * c;
            let (early, late) = (600u32, 900u32);
            let (state, s, rho_1) = piston_channel(u, c, late);
            let start = PISTON_HALF_WIDTH;
            let mass = state.stats().total_mass;
            let mut sim = eddy_fluid::gas::CpuGas::new(state, p).unwrap();
            let half = (1.0 + rho_1) / 2.0;
            use eddy_fluid::Simulation;
            sim.step(early).unwrap();
            let first = shock_position(sim.state(), half);
            sim.step(late - early).unwrap();
            let last = shock_position(sim.state(), half);
            let speed = (last - first) / (late - early) as f64;
            let front = (2.0 * start as f64 + u * late as f64) as usize;
            let level = mean_density(sim.state(), front + 8..(last - 10.0) as usize);
            let lost = sim.state().stats().total_mass / mass - 1.0;
            assert_jump(
                &format!("{reconstruction:?}, U = {fraction} c: shock (mass {lost:+.1e})"),
                (speed, s),
                (level, rho_1),
            );
            assert!(lost.abs() < 1e-5, "{reconstruction:?}, U = {fraction} c: the gas's mass changed by {lost:e}");
        }
    }
}

/// The force on the gas piston (the forces on bodies, for gas: the momentum flux through
/// the body's faces): the piston of the test above, driven at `U` into gas at rest, pushes the
/// gas ahead of it up to the density `rho_1` of the isothermal jump, which moves with the piston,
/// so the gas pushes back on its front face with its pressure `c^2 rho_1` per unit length, and
/// behind it is the vacuum the piston leaves: the force on it is `-c^2 rho_1 H` along x (`H` the
/// channel's height), and 0 across it. The staircase piston pulses as it jumps a cell each
/// `1 / U` steps, so the force is averaged over steps 600 to 900 (a whole number of jumps
/// within one), from the forces pass's CPU mirror (`gas::cpu::apply`, as the GPU sums it).
/// Measured: within 0.01-0.07% (`U` = 0.25 c to c, both reconstructions); allowed 2%, as the
/// jump's density. Across it, 0 to rounding (the channel is symmetric). And momentum: what the
/// gas gains over those steps is what the piston gives it less the far wall's push on the gas
/// at rest there (`c^2 H` a step), to 1e-4 of the push (measured 1e-5: the fixed-point sums'
/// rounding). Without the corners' rule (a diagonal face at the piston's corner against the
/// channel's wall pushes the piston along x, `gas::bodies::ForceSums::push`) the force came out
/// 4.3% low at `U` = 0.25 c, the gas gaining momentum the sums never gave it.
#[test]
fn the_piston_feels_the_pressure_of_the_gas_it_drives() {
    for reconstruction in [Reconstruction::Constant, Reconstruction::Linear] {
        let p = checks::undamped(GasParams { reconstruction, ..GasParams::default() });
        let c = p.sound_speed() as f64;
        for fraction in [0.25, 0.5, 1.0] {
            let u = fraction * c;
            let (early, late) = (600u32, 900u32);
            let (mut state, _, rho_1) = piston_channel(u, c, late);
            let height = state.density.height();
            eddy_fluid::gas::bodies::place(&mut state, &p);
            let (mut fx, mut fy) = (0.0f64, 0.0f64);
            let momentum =
                |st: &eddy_fluid::gas::GasState| st.momentum_x.as_slice().iter().map(|&m| m as f64).sum::<f64>();
            let mut p0 = 0.0;
            for step in 1..=late {
                if step == early + 1 {
                    p0 = momentum(&state);
                }
                let forces = eddy_fluid::gas::cpu::step(&mut state, &p);
                if step > early {
                    fx += f64::from(forces[0].fx) / f64::from(late - early);
                    fy += f64::from(forces[0].fy) / f64::from(late - early);
                }
            }
            let exact = -c * c * rho_1 * height as f64;
            let gained = (momentum(&state) - p0) / f64::from(late - early);
            let given = -fx - c * c * height as f64;
            println!(
                "{reconstruction:?}, U = {fraction} c: force {fx:.5} (exact {exact:.5}, {:+.2}%), across {fy:.2e}",
                100.0 * (fx / exact - 1.0)
            );
            assert!((fx / exact - 1.0).abs() < 0.02, "{reconstruction:?}, U = {fraction} c: force {fx}, exact {exact}");
            assert!(fy.abs() < 1e-4 * exact.abs(), "{reconstruction:?}, U = {fraction} c: a force across of {fy}");
            assert!(
                (gained - given).abs() < 1e-4 * exact.abs(),
                "{reconstruction:?}, U = {fraction} c: the gas gained {gained} a step, the piston and the far wall gave {given}"
            );
        }
    }
}

/// Momentum, with a free body: a free block (8 x 5.6 cells, twice as dense as the gas, a row
/// of gas open above and below it) thrown at 0.1 cells/step along a channel 8 cells high of gas
/// at rest pushes the gas ahead, leaves a rarefaction behind, and stops. Its push is the
/// momentum the gas loses at its faces (`gas::bodies::ForceSums`), so the gas's x momentum and
/// the block's (`s A v`) together are kept while the waves have not reached the channel's ends
/// (whose walls push back, each with the pressure of gas at rest, and cancel): over 400 steps
/// within 1e-3 of the block's starting momentum. The coupling's added-mass correction
/// (`body::dynamics`) carries `M a` from step to step, which the block's momentum misses only
/// while it decelerates. Measured: the block stops (0.1-0.2% of its speed left), the sum
/// drifting by 5.8e-4 (constant reconstruction) and 1.5e-7 (linear). The block stays clear of
/// the channel's walls (farther than the contacts' margin): touching them, it would rub on them
/// (friction 0.3 against the gas's sideways push, `body::contact`), which takes momentum as a
/// wall does (1% of it here).
#[test]
fn a_free_block_and_the_gas_keep_their_momentum() {
    use eddy_fluid::body::{Body, Shape};
    for reconstruction in [Reconstruction::Constant, Reconstruction::Linear] {
        let p = checks::undamped(GasParams { reconstruction, ..GasParams::default() });
        let (w, h) = (480usize, 8usize);
        let mut state = checks::state_from(w, h, |_, _| 1.0, |_, _| (0.0, 0.0));
        let block = Body {
            vx: 0.1,
            density: Some(2.0),
            ..Body::new(
                Shape::Box { half_width: 4.0, half_height: h as f32 / 2.0 - 1.2 },
                w as f32 / 2.0,
                h as f32 / 2.0,
            )
        };
        state.bodies = vec![block];
        let mass = f64::from(eddy_fluid::body::dynamics::mass(&block));
        eddy_fluid::gas::bodies::place(&mut state, &p);
        let total = |s: &eddy_fluid::gas::GasState| {
            s.momentum_x.as_slice().iter().map(|&m| f64::from(m)).sum::<f64>() + mass * f64::from(s.bodies[0].vx)
        };
        let start = total(&state);
        for _ in 0..400 {
            eddy_fluid::gas::cpu::step(&mut state, &p);
        }
        let kept = f64::from(state.bodies[0].vx) / f64::from(block.vx);
        let drift = (total(&state) - start) / start;
        println!(
            "{reconstruction:?}: the block kept {:.1}% of its speed; the sum drifted by {drift:.1e}",
            100.0 * kept
        );
        assert!(kept.abs() < 0.05, "{reconstruction:?}: the gas did not stop the block ({kept})");
        assert!(drift.abs() < 1e-3, "{reconstruction:?}: gas and piston together changed their momentum by {drift:e}");
    }
}

/// The stability of a light free body in the gas: discs, squares and plates from 1e-5 to 10
/// times as dense as the gas, released at rest in a channel's wind, are carried along without
/// blowing up (`cargo run --release --example free_bodies -- model=gas` is the sweep). Here a disc
/// of radius 8 a hundredth as dense as the gas and a plate a thousandth, in a 128 x 64 channel
/// whose gas moves at 0.1 cells/step, fed by an inflow edge at that speed: stable means, over
/// 200 steps, its fastest point's velocity changing by more than half the wind in one step in at
/// most 10 of the last 50 steps (an unstable coupling flips every step at the speed limit), and
/// at the end it moves downstream at least half as fast as the wind, no faster than the speed
/// limit. With the staircase's turning layer of smoke (a tenth, `body::dynamics::TURNING_LAYER`)
/// instead of the gas's half, the disc spun back and forth at the speed limit and stayed where it
/// was.
#[test]
fn a_light_free_disc_and_plate_are_carried_by_the_wind_without_blowing_up() {
    use eddy_fluid::body::{Body, Shape};
    use eddy_fluid::edge::{EdgeKind, LEFT, RIGHT};
    let wind = 0.1f32;
    let mut edges = [EdgeKind::Wall; 4];
    (edges[LEFT], edges[RIGHT]) = (EdgeKind::Inflow, EdgeKind::Outflow);
    let p = GasParams { edges, inflow: wind, ..GasParams::default() };
    let (w, h) = (128usize, 64usize);
    let shapes =
        [(Shape::Circle { radius: 8.0 }, 0.01, 0.0), (Shape::Box { half_width: 12.0, half_height: 1.0 }, 0.001, 0.2)];
    for (shape, density, angle) in shapes {
        let mut state = checks::state_from(w, h, |_, _| 1.0, |_, _| (f64::from(wind), 0.0));
        state.bodies = vec![Body { density: Some(density), angle, ..Body::new(shape, 40.0, 32.3) }];
        eddy_fluid::gas::bodies::place(&mut state, &p);
        let (mut kicks, mut last) = (Vec::new(), state.bodies[0]);
        for _ in 0..200 {
            eddy_fluid::gas::cpu::step(&mut state, &p);
            let b = state.bodies[0];
            assert!(b.vx.is_finite() && b.vy.is_finite() && b.spin.is_finite(), "{shape:?}: {b:?}");
            let change = (b.vx - last.vx).hypot(b.vy - last.vy) + (b.spin - last.spin).abs() * b.reach();
            kicks.push(change > 0.5 * wind);
            last = b;
        }
        let recent = kicks.iter().rev().take(50).filter(|&&k| k).count();
        println!("{shape:?}, density {density}: {recent} kicks in the last 50 steps, at the end {last:?}");
        assert!(recent <= 10, "{shape:?}, density {density}: {recent} of the last 50 steps kicked: {last:?}");
        assert!(last.vx >= 0.5 * wind && last.vx <= eddy_fluid::gas::bodies::MAX_BODY_SPEED, "{shape:?}: {last:?}");
    }
}

/// Open edges, exact solution 1: a uniform stream entering through an inflow edge at
/// the inflow's density and velocity and leaving through the opposite outflow edge is a steady
/// state of the isothermal Euler equations, so every cell keeps it: within 1e-5 of the density
/// and of the momentum's largest component after 300 steps (f32 rounding of fluxes that cancel;
/// measured 0 to a few ulps). Along x both ways and along y, the sides walls or slip edges (their
/// diagonal corners the inflow's or outflow's ghost mirrored in the wall), 4- and 8-way, both
/// reconstructions. With a corner's mirror at the diagonal out of a corner cell instead (the
/// rule inside walls have), the 8-way stream's density is off by 0.39 within the 300 steps.
#[test]
fn a_stream_between_an_inflow_and_an_outflow_edge_stays_uniform() {
    use eddy_fluid::edge::EdgeKind::{Inflow, Outflow, Slip, Wall};
    for (edges, (nx, ny)) in [
        ([Inflow, Outflow, Wall, Slip], (1.0, 0.0)),
        ([Outflow, Inflow, Slip, Wall], (-1.0, 0.0)),
        ([Wall, Wall, Inflow, Outflow], (0.0, 1.0)),
    ] {
        for reconstruction in [Reconstruction::Constant, Reconstruction::Linear] {
            for neighbours in NEIGHBOURS {
                let p = GasParams {
                    edges,
                    inflow: 0.12,
                    inflow_density: 1.5,
                    reconstruction,
                    neighbours,
                    ..checks::undamped(GasParams::default())
                };
                let mut state = checks::state_from(48, 32, |_, _| 1.5, |_, _| (0.12 * nx, 0.12 * ny));
                checks::run(&mut state, &p, 300, |_, _| {});
                let worst = |g: &eddy_fluid::grid::Grid<f32>, want: f32| {
                    g.as_slice().iter().map(|v| (v - want).abs()).fold(0.0f32, f32::max)
                };
                let (dr, dx, dy) = (
                    worst(&state.density, 1.5),
                    worst(&state.momentum_x, 1.5 * 0.12 * nx as f32),
                    worst(&state.momentum_y, 1.5 * 0.12 * ny as f32),
                );
                println!(
                    "{edges:?} {reconstruction:?} {neighbours:?}: density off by {dr:.1e}, momentum by {dx:.1e}, {dy:.1e}"
                );
                assert!(dr < 1e-5 * 1.5 && dx.max(dy) < 1e-5 * 0.18, "{edges:?} {reconstruction:?} {neighbours:?}");
            }
        }
    }
}

/// Open edges, exact solution 2: gas at rest between an inflow edge (density 1, speed U) and an
/// outflow edge. The inflow's ghost and the gas meet as an isothermal Riemann problem: a shock
/// runs into the gas and out through the outflow edge, the other wave leaves through the inflow
/// edge, and the box is left holding the middle state (Toro 2009 ch. 4; `eddy_fluid::gas::exact`).
/// Both edges must let their waves out for that: an outflow that reflected would turn the
/// shock back and fill the box (measured with a corner's mirror at the outflow's corners:
/// density 1.8 at rest, or +5% and -69% of the velocity at U = 0.05).
/// Tolerance 3%: the middle state that the boundary face's Rusanov flux keeps is its own
/// approximation of the exact one, not the exact Riemann solver's (measured, constant / linear
/// reconstruction: at U = 0.05 density -0.13%, velocity -1.1%; at U = 0.15, Mach 0.67, density
/// -0.76% / -0.87%, velocity -2.3% / -2.4%, all printed).
#[test]
fn inflow_into_gas_at_rest_leaves_the_riemann_middle_state() {
    use eddy_fluid::edge::EdgeKind::{Inflow, Outflow, Wall};
    use eddy_fluid::gas::exact::{Riemann, Side};
    for reconstruction in [Reconstruction::Constant, Reconstruction::Linear] {
        for u in [0.05, 0.15] {
            let p = GasParams {
                edges: [Inflow, Outflow, Wall, Wall],
                inflow: u as f32,
                inflow_density: 1.0,
                reconstruction,
                ..checks::undamped(GasParams::default())
            };
            let c = p.sound_speed() as f64;
            let exact = Riemann::solve(Side { rho: 1.0, u }, Side { rho: 1.0, u: 0.0 }, c).star;
            let width = 300;
            // The shock leaves after width / speed steps; as long again for what it stirs.
            let steps = (2.0 * width as f64 / (u + c)) as u32;
            let mut state = checks::state_from(width, 4, |_, _| 1.0, |_, _| (0.0, 0.0));
            checks::run(&mut state, &p, steps, |_, _| {});
            let (mut rho, mut m) = (0.0, 0.0);
            for r in 0..4 {
                for col in 20..width - 20 {
                    rho += state.density[(r, col)] as f64;
                    m += state.momentum_x[(r, col)] as f64;
                }
            }
            let cells = (4 * (width - 40)) as f64;
            let (rho, vel) = (rho / cells, m / rho);
            println!(
                "{reconstruction:?}, U = {u}: density {rho:.4} (exact {:.4}, {:+.2}%), velocity {vel:.4} (exact {:.4}, {:+.2}%)",
                exact.rho,
                100.0 * (rho / exact.rho - 1.0),
                exact.u,
                100.0 * (vel / exact.u - 1.0)
            );
            assert!(
                (rho / exact.rho - 1.0).abs() < 0.03,
                "{reconstruction:?} U = {u}: density {rho}, exact {}",
                exact.rho
            );
            assert!(
                (vel / exact.u - 1.0).abs() < 0.03,
                "{reconstruction:?} U = {u}: velocity {vel}, exact {}",
                exact.u
            );
        }
    }
}

/// Open edges, what the outflow lets go: a pulse of sound (a Gaussian bump of density) in a box
/// whose four edges are outflows leaves it, where walls keep it. The acoustic energy
/// `sum c^2 (rho - 1)^2 / 2 + |m|^2 / 2` left once the front has crossed every edge (twice the
/// time to the far corner), as a fraction of the same box with walls: below 2% (measured
/// below, printed). A zero-gradient outflow reflects waves that meet it obliquely, more the
/// more oblique (Toro 2009, section 6.3.3; non-reflecting conditions need characteristics,
/// Thompson 1987): the corners are where it does worst.
#[test]
fn a_pulse_leaves_through_outflow_edges() {
    use eddy_fluid::edge::EdgeKind::{Outflow, Wall};
    for reconstruction in [Reconstruction::Constant, Reconstruction::Linear] {
        let energy = |edges| {
            let p = GasParams { edges, reconstruction, ..checks::undamped(GasParams::default()) };
            let c2 = p.pressure as f64;
            let n = 96;
            let mid = n as f64 / 2.0;
            let mut state = checks::state_from(
                n,
                n,
                |x, y| 1.0 + 0.1 * (-((x - mid).powi(2) + (y - mid).powi(2)) / 32.0).exp(),
                |_, _| (0.0, 0.0),
            );
            let steps = (2.0 * mid * std::f64::consts::SQRT_2 / p.sound_speed() as f64) as u32;
            checks::run(&mut state, &p, steps, |_, _| {});
            let mut e = 0.0;
            for i in 0..state.density.as_slice().len() {
                let (rho, mx, my) = (
                    state.density.as_slice()[i] as f64,
                    state.momentum_x.as_slice()[i] as f64,
                    state.momentum_y.as_slice()[i] as f64,
                );
                e += 0.5 * c2 * (rho - 1.0).powi(2) + 0.5 * (mx * mx + my * my);
            }
            e
        };
        let (open, closed) = (energy([Outflow; 4]), energy([Wall; 4]));
        println!("{reconstruction:?}: acoustic energy left {:.3}% of the closed box's", 100.0 * open / closed);
        assert!(open < 0.02 * closed, "{reconstruction:?}: {open} of {closed}");
    }
}
