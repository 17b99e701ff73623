//! Prints the gas model's physics tables (README, "The gas model"): blob translation, sound
//! speed and the shock tube, for 4- and 8-way flow and both face fluxes at the ends of their
//! ranges, on the CPU reference; `ranges` sweeps pressure and diffusion past the ranges (the
//! stability map behind them, several minutes); `plot FILE.svg` draws the shock tube.
//! `limiters` compares the linear reconstruction's slope limiters; `wave` runs a packet of
//! sound against the exact simple wave and the convergence study.
//! `cargo run --release --example gas_physics [translation|sound|wave|shock|ranges [flux]|plot F|limiters]`.

use eddy_fluid::gas::checks::{self, ShockTube};
use eddy_fluid::gas::{FluxScheme, GasParams, Neighbours};

const NEIGHBOURS: [Neighbours; 2] = [Neighbours::Four, Neighbours::Eight];
const FLUXES: [FluxScheme; 2] = [FluxScheme::Central, FluxScheme::Rusanov];

fn name(n: Neighbours, f: FluxScheme) -> String {
    format!("{}-way {:?}", if n == Neighbours::Four { 4 } else { 8 }, f).to_lowercase()
}

/// Every flux and neighbourhood at both ends of the flux's pressure range, at the lower end of
/// its diffusion range: the settings the tests use.
fn settings() -> Vec<GasParams> {
    let mut out = Vec::new();
    for f in FLUXES {
        for n in NEIGHBOURS {
            let (p0, p1) = GasParams::pressure_range(f);
            for pressure in [p0, p1] {
                let diffusion = GasParams::diffusion_range(f).0;
                out.push(GasParams { neighbours: n, flux: f, pressure, diffusion, ..GasParams::default() });
            }
        }
    }
    out
}

fn translation() {
    println!("| flow | D | c^2 | along x | along y | along the diagonal | max speed |");
    println!("|---|---|---|---|---|---|---|");
    let s = 0.1 / 2f64.sqrt();
    for p in settings() {
        let runs = [(0.1, 0.0), (0.0, 0.1), (s, s)].map(|v| checks::translation(&p, v, 200));
        let cell = |t: &checks::Translation| {
            let along = (t.measured.0 * t.velocity.0 + t.measured.1 * t.velocity.1) / 0.1;
            format!("{along:.5} ({:.2}%)", 100.0 * t.error)
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {:.3} |",
            name(p.neighbours, p.flux),
            p.diffusion,
            p.pressure,
            cell(&runs[0]),
            cell(&runs[1]),
            cell(&runs[2]),
            runs.iter().map(|t| t.max_speed).fold(0.0, f32::max)
        );
    }
}

fn rel(v: f64, exact: f64) -> String {
    format!("{v:.4} ({:+.2}%)", 100.0 * (v / exact - 1.0))
}

fn sound() {
    println!("| flow | D | c^2 | exact c | spread (second moment) | crest, axes | crest, diagonals |");
    println!("|---|---|---|---|---|---|---|");
    for p in settings() {
        let steps = (60.0 / p.sound_speed()) as u32;
        let s = checks::sound_speed(&p, 0.01, 6.0, steps);
        println!(
            "| {} | {} | {} | {:.4} | {} | {} | {} |",
            name(p.neighbours, p.flux),
            p.diffusion,
            p.pressure,
            s.exact,
            rel(s.spread, s.exact),
            rel(s.crest_axes, s.exact),
            rel(s.crest_diagonals, s.exact),
        );
    }
}

fn shock() {
    println!(
        "| flow | D | c^2 | ahead of shock (allowed), cells | plateau spread | plateau level | overshoot | max speed (exact u*) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for f in FLUXES {
        for n in NEIGHBOURS {
            let ((d0, d1), (p0, p1)) = (GasParams::diffusion_range(f), GasParams::pressure_range(f));
            for pressure in [p0, p1] {
                for d in [d0, d1] {
                    let p = GasParams { neighbours: n, flux: f, pressure, diffusion: d, ..GasParams::default() };
                    let c = p.sound_speed() as f64;
                    let steps = (120.0 / c) as u32;
                    let r = checks::shock_tube(ShockTube::ratio_8(c, steps), &p, steps);
                    let allow = checks::foot_allowance(&r.exact, checks::exchange_along_x(&p));
                    println!(
                        "| {} | {d} | {pressure} | {:.1} ({allow:.1}) | {:.2}% | {:+.2}% | {:.1}% | {:.3} ({:.3}) |",
                        name(n, f),
                        r.ahead,
                        100.0 * r.plateau_spread,
                        100.0 * r.plateau_level,
                        100.0 * r.overshoot,
                        r.max_speed,
                        r.exact.star.u
                    );
                }
            }
        }
    }
}

/// The stability map behind the parameter ranges: every flux and neighbourhood over a grid of
/// pressure, diffusion and friction, on the shock tube and the undamped explosion and wind
/// presets; one line per combination.
fn ranges() {
    println!(
        "flux n c2 D fric | tube: ok ahead/allow spread maxu | explosion maxu | wind(.25,0) maxu | wind(.3,.3) maxu"
    );
    let only = std::env::args().nth(2);
    for f in FLUXES.into_iter().filter(|f| only.as_ref().is_none_or(|o| format!("{f:?}").to_lowercase() == *o)) {
        for n in NEIGHBOURS {
            for pressure in [0.0f32, 0.01, 0.05, 0.1, 0.15] {
                for d in [0.0f32, 0.05, 0.1, 0.2] {
                    {
                        let friction = 0.1f32;
                        let p = GasParams {
                            neighbours: n,
                            flux: f,
                            pressure,
                            diffusion: d,
                            friction,
                            ..GasParams::default()
                        };
                        let undamped = checks::undamped(p);
                        let c = p.sound_speed() as f64;
                        let tube = if c > 0.0 {
                            let steps = (120.0 / c) as u32;
                            let r =
                                checks::shock_tube(ShockTube::ratio_8(c, steps), &GasParams { friction, ..p }, steps);
                            let allow = checks::foot_allowance(&r.exact, checks::exchange_along_x(&p));
                            let ok = r.ahead <= allow && r.plateau_spread <= 0.01 && r.max_speed < 0.5;
                            format!(
                                "{} {:.1}/{:.1} {:.3} {:.3}",
                                if ok { "ok" } else { "FAIL" },
                                r.ahead,
                                allow,
                                r.plateau_spread,
                                r.max_speed
                            )
                        } else {
                            "-".to_string()
                        };
                        let e = checks::preset_run("explosion", (96, 96), &GasParams { friction, ..undamped }, 1500);
                        let w1 = checks::preset_run("wind", (128, 64), &GasParams { wind: (0.25, 0.0), ..p }, 1500);
                        let w2 = checks::preset_run("wind", (128, 64), &GasParams { wind: (0.3, 0.3), ..p }, 1500);
                        let show =
                            |r: checks::PresetRun| if r.finite { format!("{:.3}", r.max_speed) } else { "NaN".into() };
                        println!(
                            "{} {pressure} {d} {friction} | {tube} | {} | {} | {}",
                            name(n, f),
                            show(e),
                            show(w1),
                            show(w2)
                        );
                    }
                }
            }
        }
    }
}

/// The shock tube's density along the channel against the exact solution, as an SVG: the
/// default flux (Rusanov) and the central one at its lowest diffusion, 8-way, `c^2 = 0.05`.
fn plot(path: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    use plotters::prelude::*;
    let d = GasParams::default();
    let c = d.sound_speed() as f64;
    let steps = (120.0 / c) as u32;
    let tube = ShockTube::ratio_8(c, steps);
    let constant = GasParams { reconstruction: eddy_fluid::gas::Reconstruction::Constant, ..d };
    let runs = [
        ("rusanov, linear (default)", d, RGBColor(0, 114, 178)),
        ("rusanov, constant", constant, RGBColor(0, 158, 115)),
        (
            "central, D = 0.1",
            GasParams { flux: FluxScheme::Central, diffusion: 0.1, ..constant },
            RGBColor(230, 159, 0),
        ),
    ]
    .map(|(label, p, colour)| (label, checks::shock_tube(tube, &p, steps), colour));
    let exact = runs[0].1.exact;
    let x = |col: usize| (col as f64 + 0.5 - tube.membrane as f64) / steps as f64 / c; // x / (c t)
    let root = SVGBackend::new(path, (720, 360)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(format!("shock tube, density 1 | 0.125, c^2 = 0.05, after {steps} steps (8-way)"), ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(-1.3f64..1.9, 0.0f64..1.05)?;
    chart.configure_mesh().x_desc("x / (c t)").y_desc("density").disable_mesh().draw()?;
    let cols = 0..tube.width;
    chart
        .draw_series(LineSeries::new(cols.clone().map(|i| (x(i), exact.sample(x(i) * c).rho)), BLACK.stroke_width(1)))?
        .label("exact (isothermal Riemann)")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], BLACK));
    for (label, run, colour) in &runs {
        let colour = *colour;
        chart
            .draw_series(cols.clone().map(|i| Circle::new((x(i), run.density[i] as f64), 2, colour.filled())))?
            .label(*label)
            .legend(move |(x, y)| Circle::new((x + 9, y), 3, colour.filled()));
    }
    chart.configure_series_labels().border_style(BLACK).background_style(WHITE).draw()?;
    root.present()?;
    Ok(())
}

fn main() {
    let which = std::env::args().nth(1);
    let all = which.is_none();
    let is = |s: &str| all || which.as_deref() == Some(s);
    if is("translation") {
        translation();
    }
    if is("sound") {
        sound();
    }
    if which.as_deref() == Some("plot") {
        let out = std::env::args().nth(2).unwrap_or_else(|| "shock-tube.svg".into());
        plot(std::path::Path::new(&out)).expect("the plot is written");
        eprintln!("wrote {out}");
    }
    if which.as_deref() == Some("ranges") {
        ranges();
    }
    if is("shock") {
        shock();
    }
    if which.as_deref() == Some("limiters") {
        limiters();
    }
    if is("wave") {
        wave();
    }
}

/// A packet of sound along a channel against the exact simple wave (`checks::sound_wave`):
/// speed, amplitude kept and L1 error after 100 cells, both ways, both reconstructions and
/// neighbourhoods; then the convergence study, the packet at four resolutions (sigma 3, 6, 12,
/// 24 cells, running 20 sigma), and the order between them.
fn wave() {
    use eddy_fluid::gas::Reconstruction;
    use eddy_fluid::gas::cpu::LIMITER;
    let (amplitude, sigma, distance) = (0.01, 4.0, 100.0);
    println!("| reconstruction | neighbours | speed / c, right | left | kept, right | left | L1 error, right |");
    println!("|---|---|---|---|---|---|---|");
    for reconstruction in [Reconstruction::Constant, Reconstruction::Linear] {
        for n in NEIGHBOURS {
            let p = GasParams { neighbours: n, reconstruction, ..GasParams::default() };
            let [r, l] = [1.0, -1.0].map(|dir| checks::sound_wave(&p, LIMITER, amplitude, sigma, distance, dir));
            println!(
                "| {reconstruction:?} | {} | {:.4} | {:.4} | {:.1}% | {:.1}% | {:.2e} |",
                if n == Neighbours::Four { 4 } else { 8 },
                r.speed / r.exact,
                -l.speed / l.exact,
                100.0 * r.kept,
                100.0 * l.kept,
                r.error
            );
        }
    }
    println!();
    println!("| reconstruction | neighbours | L1 error, sigma 3 | 6 | 12 | 24 | order 3->6 | 6->12 | 12->24 |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for reconstruction in [Reconstruction::Constant, Reconstruction::Linear] {
        for n in NEIGHBOURS {
            let p = GasParams { neighbours: n, reconstruction, ..GasParams::default() };
            let e = [3.0, 6.0, 12.0, 24.0].map(|s| checks::sound_wave(&p, LIMITER, amplitude, s, 20.0 * s, 1.0).error);
            println!(
                "| {reconstruction:?} | {} | {:.2e} | {:.2e} | {:.2e} | {:.2e} | {:.2} | {:.2} | {:.2} |",
                if n == Neighbours::Four { 4 } else { 8 },
                e[0],
                e[1],
                e[2],
                e[3],
                (e[0] / e[1]).log2(),
                (e[1] / e[2]).log2(),
                (e[2] / e[3]).log2()
            );
        }
    }
}

/// The linear reconstruction's slope limiters side by side (README, "Second order"): the 2D
/// pulse (amplitude 0.01, sigma 3 cells, after its ring has run 60 cells) as the share of the
/// exact crest kept along the axes and the diagonals, and the shock tube (ratio 8) at both ends
/// of the pressure range: overshoot behind the shock, plateau level, cells moved ahead of it.
/// The constant reconstruction's row is the first-order baseline.
fn limiters() {
    use eddy_fluid::gas::Reconstruction;
    use eddy_fluid::gas::cpu::Limiter;
    let rows = [
        ("constant (first order)", Reconstruction::Constant, Limiter::Minmod),
        ("linear, minmod", Reconstruction::Linear, Limiter::Minmod),
        ("linear, van Leer", Reconstruction::Linear, Limiter::VanLeer),
        ("linear, monotonized central", Reconstruction::Linear, Limiter::MonotonizedCentral),
    ];
    println!(
        "| reconstruction | neighbours | pulse kept, axes | diagonals | shock overshoot (c^2 0.01 / 0.05) | plateau level | ahead of the shock (cells) | fastest / u* (start-up) | wind preset at wind 0.25, friction 0.1: fastest, axis / diagonal wind |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for n in NEIGHBOURS {
        for (label, reconstruction, limiter) in rows {
            let p = GasParams { neighbours: n, reconstruction, ..GasParams::default() };
            let c = p.sound_speed() as f64;
            let ring = checks::pulse_ring_with(&p, limiter, 0.01, 3.0, (60.0 / c) as u32);
            let kept = ring.kept();
            let tubes: Vec<_> = [0.01f32, 0.05]
                .iter()
                .map(|&pressure| {
                    let p = GasParams { pressure, ..p };
                    let c = p.sound_speed() as f64;
                    let steps = (120.0 / c) as u32;
                    checks::shock_tube_with(ShockTube::ratio_8(c, steps), &p, limiter, steps)
                })
                .collect();
            // The wind preset at the hardest corner of the ranges (tests/gas_physics.rs
            // range_corners_never_reach_the_speed_cap): c^2 0.05, D 0.15, friction 0.1, undamped.
            let corner = GasParams { pressure: 0.05, diffusion: 0.15, friction: 0.1, damping: 1.0, drain: 1.0, ..p };
            let wind = [(0.25, 0.0), (-0.25 * std::f32::consts::FRAC_1_SQRT_2, 0.25 * std::f32::consts::FRAC_1_SQRT_2)]
                .map(|wind| {
                    checks::preset_run_with("wind", (64, 48), &GasParams { wind, ..corner }, limiter, 2000).max_speed
                });
            let fastest = tubes.iter().map(|t| t.max_speed as f64 / t.exact.star.u).fold(0.0, f64::max);
            println!(
                "| {label} | {} | {:.1}% | {:.1}% | {:.2}% / {:.2}% | {:+.2}% / {:+.2}% | {:.1} / {:.1} | {fastest:.3} | {:.3} / {:.3} |",
                if n == Neighbours::Four { 4 } else { 8 },
                100.0 * kept.0,
                100.0 * kept.1,
                100.0 * tubes[0].overshoot,
                100.0 * tubes[1].overshoot,
                100.0 * tubes[0].plateau_level,
                100.0 * tubes[1].plateau_level,
                tubes[0].ahead,
                tubes[1].ahead,
                wind[0],
                wind[1],
            );
        }
    }
}
