//! Prints the gas model's physics tables (README, "The gas model"): blob translation, sound
//! speed and the shock tube, for 4- and 8-way flow and both face fluxes at the ends of their
//! ranges, on the CPU reference; `ranges` sweeps pressure and diffusion past the ranges (the
//! stability map behind them, several minutes); `plot FILE.svg` draws the shock tube.
//! `cargo run --release --example gas_physics [translation|sound|shock|ranges [flux]|plot F]`.

use eddy::gas::checks::{self, ShockTube};
use eddy::gas::{FluxScheme, GasParams, Neighbours};

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
    let runs = [
        ("rusanov, D = 0.05 (default)", GasParams { ..d }, RGBColor(0, 114, 178)),
        ("central, D = 0.1", GasParams { flux: FluxScheme::Central, diffusion: 0.1, ..d }, RGBColor(230, 159, 0)),
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
}
