//! The gas model against the physics it discretises (isothermal compressible flow), on the CPU
//! reference (the GPU is held to it by `gas_gpu_vs_cpu.rs`): blob translation, sound speed, the
//! shock tube against the exact Riemann solution, and the parameter ranges' corners never
//! reaching the speed cap. The experiments are in `eddy::gas::checks`; the README's tables come
//! from `examples/gas_physics.rs`.

use eddy::gas::checks::{self, ShockTube};
use eddy::gas::cpu::MAX_SPEED;
use eddy::gas::{FluxScheme, GasParams, Neighbours};

const NEIGHBOURS: [Neighbours; 2] = [Neighbours::Four, Neighbours::Eight];
const FLUXES: [FluxScheme; 2] = [FluxScheme::Central, FluxScheme::Rusanov];

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
    for flux in FLUXES {
        for n in NEIGHBOURS {
            for pressure in pressure_ends(flux) {
                for v in [(0.1, 0.0), (0.0, 0.1), (s, s)] {
                    let p = GasParams {
                        neighbours: n,
                        flux,
                        pressure,
                        diffusion: diffusion_ends(flux)[0],
                        ..Default::default()
                    };
                    let t = checks::translation(&p, v, 150);
                    eprintln!(
                        "{flux:?} {n:?} c^2={pressure} {v:?}: measured {:?}, error {:.3}%",
                        t.measured,
                        100.0 * t.error
                    );
                    assert!(t.error <= 0.01, "{flux:?} {n:?} c^2={pressure} {v:?}: moved at {:?}", t.measured);
                    assert!(t.max_speed < MAX_SPEED, "{flux:?} {n:?}: the speed cap acted ({})", t.max_speed);
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
    for flux in FLUXES {
        for n in NEIGHBOURS {
            for pressure in pressure_ends(flux) {
                let p = GasParams {
                    neighbours: n,
                    flux,
                    pressure,
                    diffusion: diffusion_ends(flux)[0],
                    ..Default::default()
                };
                let steps = (60.0 / p.sound_speed()) as u32;
                let s = checks::sound_speed(&p, 0.01, 6.0, steps);
                let c = s.exact;
                eprintln!(
                    "{flux:?} {n:?} c^2={pressure}: c {c:.4}, spread {:.4}, crest along axes {:.4}, diagonals {:.4}",
                    s.spread, s.crest_axes, s.crest_diagonals
                );
                let name = format!("{flux:?} {n:?} c^2={pressure}");
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
/// (Rusanov, the default). The undamped exact ring is what issue 23's reconstructions are
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
    use eddy::gas::acoustics::gaussian_pulse_2d_crest;
    let (amplitude, sigma) = (0.01, 3.0);
    for n in NEIGHBOURS {
        let p = GasParams { neighbours: n, ..Default::default() };
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
    for flux in FLUXES {
        for n in NEIGHBOURS {
            for (diffusion, pressure) in
                diffusion_ends(flux).into_iter().flat_map(|d| pressure_ends(flux).map(|p| (d, p)))
            {
                let p = GasParams { neighbours: n, flux, diffusion, pressure, ..Default::default() };
                let c = p.sound_speed() as f64;
                let steps = (120.0 / c) as u32;
                let r = checks::shock_tube(ShockTube::ratio_8(c, steps), &p, steps);
                let allow = checks::foot_allowance(&r.exact, exchange_along_x(&p));
                let name = format!("{flux:?} {n:?} D={diffusion} c^2={pressure}");
                eprintln!(
                    "{name}: ahead {:.1} (allowed {allow:.1}), plateau spread {:.3}%, level {:+.3}%, overshoot {:.2}%, max speed {:.3} (u* {:.3}), across {:.1e}",
                    r.ahead,
                    100.0 * r.plateau_spread,
                    100.0 * r.plateau_level,
                    100.0 * r.overshoot,
                    r.max_speed,
                    r.exact.star.u,
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
                assert!(r.max_speed <= 1.01 * u_star, "{name}: speed {} overshoots u* = {u_star}", r.max_speed);
            }
        }
    }
}

/// Every corner of the allowed parameter box (each flux with its diffusion and pressure range,
/// both neighbourhoods, the largest friction, the wind at its largest along an axis and a
/// diagonal, damping and drain off) on the explosion and wind presets: nothing non-finite and
/// the speed cap never reached (it is a safety net). Prints the largest speed of each run.
#[test]
fn range_corners_never_reach_the_speed_cap() {
    let w = GasParams::WIND_LIMIT;
    let mut worst = 0.0f32;
    let mut failed = Vec::new();
    for flux in FLUXES {
        for n in NEIGHBOURS {
            for diffusion in diffusion_ends(flux) {
                for pressure in pressure_ends(flux) {
                    for wind in [(w, 0.0), (-w * std::f32::consts::FRAC_1_SQRT_2, w * std::f32::consts::FRAC_1_SQRT_2)]
                    {
                        let p = GasParams {
                            neighbours: n,
                            flux,
                            diffusion,
                            pressure,
                            wind,
                            friction: 0.1,
                            ..Default::default()
                        };
                        let p = GasParams { damping: 1.0, drain: 1.0, ..p };
                        for scene in ["explosion", "wind"] {
                            let r = checks::preset_run(scene, (64, 48), &p, 2000);
                            eprintln!(
                                "{scene} {flux:?} {n:?} D={diffusion} c^2={pressure} wind={wind:?}: max speed {:.3}",
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
