//! Invariants of the gas model: conservation, positivity, symmetry, reflection at walls.
//! All on the GPU; the symmetry test also on the CPU reference.

mod common;

use eddy_fluid::gas::cpu::MAX_SPEED;
use eddy_fluid::gas::{CpuGas, FluxScheme, GasParams, GasState, GpuGas, Reconstruction};
use eddy_fluid::model::{ParamKind, ParamTable, Value};
use eddy_fluid::scene::Scene;
use eddy_fluid::{Grid, Simulation};

/// Runs `steps` GPU steps, calling `each` with the state every `every` steps.
fn gpu_run(state: &GasState, p: GasParams, steps: u32, every: u32, mut each: impl FnMut(u32, &GasState)) -> GasState {
    let gpu = common::gpu();
    let mut sim = GpuGas::new(&gpu.device, &gpu.queue, state, p).unwrap();
    let mut done = 0;
    while done < steps {
        let n = (steps - done).min(every);
        sim.step(n).unwrap();
        done += n;
        each(done, &sim.read_state().unwrap());
    }
    gpu.check().unwrap();
    sim.read_state().unwrap()
}

/// An empty `n x n` room (the grid edge is the wall) of ambient gas, with a disc of density
/// `rho` moving at `velocity` centred at `center` (col, row).
fn room_with_blob(w: usize, h: usize, center: (f32, f32), radius: f32, rho: f32, velocity: (f32, f32)) -> GasState {
    let mut s = GasState::from_scene(&Scene::empty(w, h).unwrap());
    for r in 0..h {
        for c in 0..w {
            let (dx, dy) = (c as f32 + 0.5 - center.0, r as f32 + 0.5 - center.1);
            if dx * dx + dy * dy <= radius * radius {
                s.density[(r, c)] = rho;
                s.momentum_x[(r, c)] = rho * velocity.0;
                s.momentum_y[(r, c)] = rho * velocity.1;
            }
        }
    }
    s
}

#[test]
fn mass_is_conserved_without_damping_and_drain() {
    let start = GasState::from_scene(&Scene::preset("explosion", 96, 64, 0).unwrap());
    let p = GasParams { damping: 1.0, drain: 1.0, ..Default::default() };
    let m0 = start.stats().total_mass;
    let end = gpu_run(&start, p, 2000, 500, |_, _| {});
    let m1 = end.stats().total_mass;
    let rel = ((m1 - m0) / m0).abs();
    eprintln!("explosion 96x64, damping = drain = 1, 2000 steps: mass {m0} -> {m1}, relative change {rel:.2e}");
    assert!(rel <= 1e-5, "mass {m0} -> {m1}: relative change {rel:.2e} > 1e-5");
}

#[test]
fn momentum_is_conserved_away_from_walls() {
    let start = room_with_blob(96, 96, (48.0, 48.0), 8.0, 2.0, (0.1, 0.05));
    let p = GasParams { damping: 1.0, drain: 1.0, ..Default::default() };
    let p0 = start.stats().total_momentum;
    let end = gpu_run(&start, p, 20, 20, |_, _| {});
    let p1 = end.stats().total_momentum;
    let norm = (p0.0 * p0.0 + p0.1 * p0.1).sqrt();
    let change = ((p1.0 - p0.0).powi(2) + (p1.1 - p0.1).powi(2)).sqrt() / norm;
    eprintln!("moving blob, 20 steps: momentum {p0:?} -> {p1:?}, relative change {change:.2e}");
    assert!(change <= 1e-5, "momentum {p0:?} -> {p1:?}: relative change {change:.2e} > 1e-5");
}

// Two tests, one a scene, so that the test harness runs them side by side: a 64x48 step is
// mostly lavapipe's cost per dispatch, which one thread pays.
#[test]
fn no_negative_density_nan_or_speed_cap_over_5000_steps_at_every_range_end_in_the_explosion() {
    range_ends_hold("explosion");
}

#[test]
fn no_negative_density_nan_or_speed_cap_over_5000_steps_at_every_range_end_in_the_wind() {
    range_ends_hold("wind");
}

/// 5000 steps of `scene` at every end of every row of the parameter table (each component of
/// the wind, each choice; the open edges on the wind scene only) keep the density non-negative,
/// everything finite and the speed below the cap.
fn range_ends_hold(scene: &str) {
    let d = GasParams::default();
    let mut cases = vec![("defaults".to_string(), d)];
    // The box's edges, on the `wind` scene only: every edge an inflow, every edge an
    // outflow, and a stream from the left edge to the right at the ends of the inflow's speed
    // and density (the edge rows one by one would add 16 runs a scene, each a wall, a slip edge
    // that is a wall for gas, or one of these; each run of 5000 steps costs about 7 s on
    // lavapipe).
    {
        use eddy_fluid::edge::EdgeKind::{Inflow, Outflow, Wall};
        let (limit, _) = GasParams::limits(d.reconstruction);
        let stream = GasParams { edges: [Inflow, Outflow, Wall, Wall], ..d };
        for (name, p) in [
            ("edges=inflow", GasParams { edges: [Inflow; 4], ..d }),
            ("edges=outflow", GasParams { edges: [Outflow; 4], ..d }),
            ("stream inflow=0", GasParams { inflow: 0.0, ..stream }),
            ("stream inflow=max", GasParams { inflow: limit, ..stream }),
            ("stream inflow-density=0.5", GasParams { inflow_density: 0.5, ..stream }),
            ("stream inflow-density=4", GasParams { inflow_density: 4.0, ..stream }),
        ] {
            p.validate().unwrap();
            cases.push((name.to_string(), p));
        }
    }
    for spec in GasParams::TABLE {
        if spec.info.name.ends_with("-edge") || spec.info.name.starts_with("inflow") {
            continue; // above
        }
        let ends: Vec<Value> = match spec.info.kind {
            ParamKind::Real(r) => vec![Value::Real(r.min), Value::Real(r.max)],
            ParamKind::Count { min, max, .. } => vec![Value::Count(min), Value::Count(max)],
            ParamKind::Choice(names) => (0..names.len()).map(Value::Choice).collect(),
            // The wind's speed is limited too (GasParams::WIND_LIMIT): each end along each axis.
            ParamKind::Pair(r) => {
                vec![Value::Pair(r.min, 0.0), Value::Pair(r.max, 0.0), Value::Pair(0.0, r.min), Value::Pair(0.0, r.max)]
            }
        };
        for v in ends {
            let mut p = d;
            (spec.set)(&mut p, v);
            if p.flux == FluxScheme::Central {
                // The central flux's own ranges (GasParams::diffusion_range, pressure_range), and
                // the constant reconstruction, the only one it allows.
                p.reconstruction = Reconstruction::Constant;
                let ((d0, d1), (p0, p1)) = (GasParams::diffusion_range(p.flux), GasParams::pressure_range(p.flux));
                p.diffusion = p.diffusion.clamp(d0, d1);
                p.pressure = p.pressure.clamp(p0, p1);
            }
            // The linear reconstruction's own limits on the wind and the friction.
            let (wind, friction) = GasParams::limits(p.reconstruction);
            p.friction = p.friction.min(friction);
            p.wind = (p.wind.0.clamp(-wind, wind), p.wind.1.clamp(-wind, wind));
            p.validate().unwrap();
            cases.push((format!("{}={}", spec.info.name, spec.info.format(v)), p));
        }
    }
    {
        let start = GasState::from_scene(&Scene::preset(scene, 64, 48, 0).unwrap());
        for (name, p) in &cases {
            if scene == "explosion" && (name.starts_with("edges") || name.starts_with("stream")) {
                continue; // the open edges run on the channel with obstacles, where the flow is fastest
            }
            let check = |step: u32, s: &GasState| {
                let st = s.stats();
                assert!(
                    st.min_density >= 0.0
                        && st.total_mass.is_finite()
                        && st.total_momentum.0.is_finite()
                        && st.total_momentum.1.is_finite(),
                    "{scene}, {name}, step {step}: min density {}, mass {}, momentum {:?}",
                    st.min_density,
                    st.total_mass,
                    st.total_momentum
                );
                assert!(
                    s.momentum_x.as_slice().iter().chain(s.momentum_y.as_slice()).all(|m| m.is_finite()),
                    "{scene}, {name}: NaN momentum"
                );
                // In range, the speed cap is a safety net that never acts.
                assert!(
                    st.max_speed < MAX_SPEED,
                    "{scene}, {name}, step {step}: speed {} reached the cap",
                    st.max_speed
                );
            };
            gpu_run(&start, *p, 5_000, 500, check);
        }
    }
}

/// `max |a(r, c) - a(f(r, c))|` over the grid, for a symmetry map `f`.
fn asymmetry(a: &Grid<f32>, f: impl Fn(usize, usize) -> (usize, usize)) -> f32 {
    let (h, w) = a.shape();
    let mut worst = 0.0f32;
    for r in 0..h {
        for c in 0..w {
            worst = worst.max((a[(r, c)] - a[f(r, c)]).abs());
        }
    }
    worst
}

#[test]
fn centred_explosion_keeps_its_four_fold_symmetry() {
    let n = 64;
    let start = room_with_blob(n, n, (32.0, 32.0), 8.0, 4.0, (0.0, 0.0));
    let p = GasParams::default(); // 8-way
    let gpu_end = gpu_run(&start, p, 200, 200, |_, _| {});
    let mut cpu = CpuGas::new(start, p).unwrap();
    cpu.step(200).unwrap();
    for (backend, s) in [("GPU", &gpu_end), ("CPU", cpu.state())] {
        let rho = &s.density;
        let max = rho.as_slice().iter().fold(0.0f32, |m, v| m.max(v.abs()));
        type Map<'a> = &'a dyn Fn(usize, usize) -> (usize, usize);
        let maps: [(&str, Map); 3] = [
            ("left-right mirror", &|r, c| (r, n - 1 - c)),
            ("up-down mirror", &|r, c| (n - 1 - r, c)),
            ("transpose (with the mirrors: 90-degree rotation)", &|r, c| (c, r)),
        ];
        for (what, f) in maps {
            let a = asymmetry(rho, f);
            eprintln!("{backend}: {what}: max density difference {a:.2e} (max density {max})");
            assert!(a <= 1e-4 * max, "{backend}: {what} broken by {a} (> 1e-4 x {max}) after 200 steps");
        }
        let moving = s.momentum_x.as_slice().iter().fold(0.0f32, |m, v| m.max(v.abs()));
        assert!(moving > 1e-3, "{backend}: the explosion should set the gas moving (max |mx| {moving})");
    }
}

#[test]
fn momentum_reflects_at_a_wall() {
    // A blob moving right towards the right wall of a 64x32 room of ambient gas: the gas it
    // pushes piles up against the wall, the wall pushes back and reflects the momentum.
    let start = room_with_blob(64, 32, (44.0, 16.0), 5.0, 2.0, (0.3, 0.0));
    let p = GasParams { damping: 1.0, drain: 1.0, ..Default::default() };
    let px0 = start.stats().total_momentum.0;
    assert!(px0 > 0.0);
    let mut lowest = f64::MAX;
    gpu_run(&start, p, 400, 25, |_, s| lowest = lowest.min(s.stats().total_momentum.0));
    eprintln!("blob moving right: total x momentum {px0} -> lowest {lowest} within 400 steps");
    assert!(lowest < -0.3 * px0, "the blob should bounce back: x momentum {px0} never went below {}", -0.3 * px0);
}
