//! The model layer: statistics by GPU reduction against their CPU mirrors, checkpoints, the
//! parameter tables' keys, and the states every model must be able to save and load back.

mod common;

use eddy_fluid::Grid;
use eddy_fluid::model::{AnyModel, AnyState, AnyStats, ModelKind, ModelParams, ParamKind, Value};
use eddy_fluid::water::{RulePreset, WaterParams, WaterState};

/// `a` and `b` within `rel` of the larger magnitude (both infinite with the same sign counts).
fn close(name: &str, a: f64, b: f64, rel: f64) {
    if a == b {
        return;
    }
    let scale = a.abs().max(b.abs()).max(1e-30);
    assert!((a - b).abs() <= rel * scale, "{name}: GPU {a} vs CPU {b} (relative tolerance {rel})");
}

/// Every number of the GPU's statistics against the CPU's. Sums: 1e-6 relative (the GPU adds a
/// row in f32 with Kahan compensation, the CPU cell by cell in f64; both see the same f32
/// values). Minima, maxima and counts: exact (the same f32 values are compared).
fn assert_stats_match(gpu: &AnyStats, cpu: &AnyStats) {
    const SUM: f64 = 1e-6;
    match (gpu, cpu) {
        (AnyStats::Water(g), AnyStats::Water(c)) => {
            close("total mass", g.total_mass, c.total_mass, SUM);
            assert_eq!(
                (g.wet_cells, g.non_finite, g.min_mass, g.max_mass),
                (c.wet_cells, c.non_finite, c.min_mass, c.max_mass)
            );
        }
        (AnyStats::Smoke(g), AnyStats::Smoke(c)) => {
            close("total density", g.total_density, c.total_density, SUM);
            close("centroid row", g.density_centroid_row, c.density_centroid_row, SUM);
            close("divergence L2", g.divergence_l2, c.divergence_l2, SUM);
            close("kinetic energy", g.kinetic_energy, c.kinetic_energy, SUM);
            assert_eq!(
                (g.non_finite, g.min_density, g.max_temperature),
                (c.non_finite, c.min_density, c.max_temperature)
            );
            close("max speed", g.max_speed as f64, c.max_speed as f64, 1e-6);
        }
        (AnyStats::Gas(g), AnyStats::Gas(c)) => {
            close("total mass", g.total_mass, c.total_mass, SUM);
            close("momentum x", g.total_momentum.0, c.total_momentum.0, SUM);
            close("momentum y", g.total_momentum.1, c.total_momentum.1, SUM);
            close("kinetic energy", g.kinetic_energy, c.kinetic_energy, SUM);
            assert_eq!((g.non_finite, g.min_density), (c.non_finite, c.min_density));
            close("max speed", g.max_speed as f64, c.max_speed as f64, 1e-6);
        }
        _ => panic!("stats of different models"),
    }
}

fn random_states(w: usize, h: usize, seed: u64) -> Vec<AnyState> {
    vec![
        AnyState::Water(common::random_water(w, h, seed, 0.1)),
        AnyState::Smoke(common::random_smoke_staggered(w, h, seed, 0.1)),
        AnyState::Gas(common::random_gas(w, h, seed, 0.1)),
    ]
}

#[test]
fn statistics_by_reduction_equal_the_cpu_mirror() {
    let gpu = common::gpu();
    // 150 rows: more than one workgroup of 64 row-invocations, and a ragged last one.
    for (i, state) in random_states(203, 150, 5).into_iter().enumerate() {
        let params = ModelParams::defaults(state.kind());
        let model = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 0).unwrap();
        let (g, c) = (model.stats().unwrap(), state.stats(&params).unwrap());
        eprintln!("{}: {}", state.kind(), g.line());
        assert_stats_match(&g, &c);
        assert_eq!(g.non_finite(), 0, "case {i}");
    }
}

#[test]
fn reduction_counts_non_finite_cells_and_names_the_first() {
    let gpu = common::gpu();
    for mut state in random_states(40, 30, 9) {
        let (a, b) = ((3, 7), (20, 33));
        let kind = state.kind();
        match &mut state {
            AnyState::Water(s) => {
                s.solid[a] = 0;
                s.solid[b] = 0;
                s.mass[a] = f32::NAN;
                s.mass[b] = f32::INFINITY;
            }
            AnyState::Smoke(s) => {
                // Face b of the staggered v: the cells above and below it both read it.
                for cell in [a, b, (b.0 - 1, b.1)] {
                    s.solid[cell] = 0;
                }
                s.temperature[a] = f32::NAN;
                s.velocity_y[b] = f32::NEG_INFINITY;
            }
            AnyState::Gas(s) => {
                s.momentum_x[a] = f32::NAN;
                s.density[b] = f32::INFINITY;
            }
            AnyState::Custom(_) => unreachable!("eddy's own models only"),
        }
        // Uploaded as is (AnyModel does not validate a state: that is the loader's job).
        let params = ModelParams::defaults(kind);
        let model = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 0).unwrap();
        let (g, c) = (model.stats().unwrap(), state.stats(&params).unwrap());
        // Smoke counts cells: the non-finite face makes both its cells' centre velocity so.
        let cells = if kind == ModelKind::Smoke { 3 } else { 2 };
        assert_eq!((g.non_finite(), c.non_finite()), (cells, cells), "{kind}");
        // The first in saving order: water's mass at a; smoke's velocity (before temperature)
        // at b; gas' density (before momentum) at b.
        let expected = match kind {
            ModelKind::Water => ("mass", a),
            ModelKind::Smoke => ("velocity", b),
            ModelKind::Gas => ("density", b),
            ModelKind::Custom(_) => unreachable!("eddy's own models only"),
        };
        let (field, row, col) = state.first_non_finite().unwrap();
        assert_eq!((field, (row, col)), expected, "{kind}");
    }
}

#[test]
fn rollback_restores_the_checkpointed_state_exactly() {
    let gpu = common::gpu();
    // And with moving bodies: they go back with the fields, and so does the mask.
    let mut moving = random_states(48, 32, 3);
    for state in &mut moving {
        let spinning =
            |vx: f32| eddy_fluid::body::Body::parse(&format!("box:x=20,y=14,w=8,h=3,vx={vx},spin=0.02")).unwrap();
        match state {
            AnyState::Smoke(s) => s.bodies.push(spinning(4.0)),
            AnyState::Gas(s) => s.bodies.push(spinning(0.15)),
            AnyState::Water(_) | AnyState::Custom(_) => {}
        }
    }
    for state in random_states(48, 32, 3).into_iter().chain(moving) {
        let params = ModelParams::defaults(state.kind());
        let mut model = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 100).unwrap();
        model.step(3).unwrap();
        model.checkpoint();
        let at = model.read_state().unwrap();
        model.step(7).unwrap();
        assert_eq!(model.steps_done(), 110);
        assert_ne!(model.read_state().unwrap(), at, "{}: seven steps change the state", state.kind());
        assert_eq!(model.rollback(), Some(103));
        assert_eq!(model.steps_done(), 103);
        assert_eq!(model.read_state().unwrap(), at, "{}: rollback gives back the checkpoint", state.kind());
        let bodies: &[eddy_fluid::body::Body] = match &at {
            AnyState::Smoke(s) => &s.bodies,
            AnyState::Gas(s) => &s.bodies,
            AnyState::Water(_) | AnyState::Custom(_) => &[],
        };
        assert_eq!(model.bodies(), bodies, "{}: the bodies' list goes back too", state.kind());
        // Smoke's statistics read the centre velocities, made again from the restored faces.
        if let AnyState::Smoke(_) = at {
            assert_stats_match(&model.stats().unwrap(), &at.stats(&params).unwrap());
        }
    }
}

/// Mass is >= 0 by construction: the gather subtracts a cell's outflows in the order the push
/// loop takes them from what remains, so rounding cannot take it below 0. With the Unity side
/// share (1/2) cells often give away everything, where summing the outflows first rounded to
/// -9.3e-10 (`--preset unity` on `basin`).
#[test]
fn unity_water_never_goes_negative() {
    let gpu = common::gpu();
    let p = WaterParams::preset(RulePreset::Unity);
    for scene in ["basin", "random", "u-tube"] {
        let state =
            AnyState::Water(WaterState::from_scene(&eddy_fluid::scene::Scene::preset(scene, 96, 64, 2).unwrap()));
        let mut model = AnyModel::new(&gpu.device, &gpu.queue, &state, &ModelParams::Water(p), 0).unwrap();
        for _ in 0..20 {
            model.step(50).unwrap();
            let AnyStats::Water(st) = model.stats().unwrap() else { unreachable!() };
            assert!(st.min_mass >= 0.0, "{scene}, step {}: min mass {}", model.steps_done(), st.min_mass);
        }
        let AnyState::Water(end) = model.read_state().unwrap() else { unreachable!() };
        let min = end.mass.as_slice().iter().copied().fold(f32::INFINITY, f32::min);
        assert!(min >= 0.0, "{scene}: a cell holds {min}");
        // And so what eddy saves, eddy loads.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("unity.npz");
        model.save_npz(&path).unwrap();
        let (back, step) = AnyState::load_npz(&path, None).unwrap();
        assert_eq!((back, step), (AnyState::Water(end), 1000));
    }
}

#[test]
fn viewer_keys_move_parameters_within_their_ranges() {
    for kind in ModelKind::ALL {
        for info in kind.params().into_iter().filter(|p| p.key.is_some()) {
            let key = info.key.unwrap();
            let mut p = ModelParams::defaults(kind);
            for _ in 0..20_000 {
                assert_eq!(p.nudge(key.to_ascii_uppercase()).unwrap().map(|i| i.name), Some(info.name));
            }
            let high = p.get(info.name).unwrap();
            for _ in 0..20_000 {
                p.nudge(key).unwrap();
            }
            let low = p.get(info.name).unwrap();
            p.check().unwrap();
            match info.kind {
                ParamKind::Real(r) => {
                    // Gas' friction stops at what the default (linear) reconstruction allows.
                    let max = if kind == ModelKind::Gas && info.name == "friction" {
                        eddy_fluid::gas::GasParams::limits(eddy_fluid::gas::Reconstruction::Linear).1
                    } else {
                        r.max
                    };
                    assert_eq!((low, high), (Value::Real(r.min), Value::Real(max)), "{}", info.name)
                }
                ParamKind::Count { min, max, .. } => {
                    assert_eq!(low, Value::Count(min), "{}", info.name);
                    assert!(high.count() <= max, "{}", info.name);
                }
                ParamKind::Choice(names) => assert!(low.choice() < names.len()),
                ParamKind::Pair(_) => {}
            }
        }
    }
    // Keys are unique within a model and leave the viewer's own keys alone.
    for kind in ModelKind::ALL {
        let keys: Vec<char> = kind.params().iter().filter_map(|p| p.key).collect();
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "{kind}: a key used twice");
        for k in keys {
            assert!(k.is_ascii_lowercase(), "{kind}: key {k:?} must be a lower-case letter (Shift raises)");
            assert!(!"rv123. ".contains(k), "{kind}: key {k:?} is one of the viewer's own");
        }
    }
    // A key no parameter has changes nothing.
    let mut p = ModelParams::defaults(ModelKind::Water);
    assert!(p.nudge('q').unwrap().is_none());
    assert_eq!(p, ModelParams::defaults(ModelKind::Water));
}

#[test]
fn a_bad_value_leaves_the_parameters_unchanged() {
    for kind in ModelKind::ALL {
        let mut p = ModelParams::defaults(kind);
        for info in kind.params() {
            let bad = match info.kind {
                ParamKind::Real(r) if r.max.is_finite() => Value::Real(r.max * 2.0 + 1.0),
                ParamKind::Real(_) => Value::Real(f32::NAN),
                ParamKind::Count { max, .. } => Value::Count(max + 1),
                ParamKind::Choice(names) => Value::Choice(names.len()),
                ParamKind::Pair(r) => Value::Pair(r.max + 1.0, 0.0),
            };
            let e = p.set(info.name, bad).unwrap_err();
            assert_eq!(e.name, info.name);
            assert_eq!(p, ModelParams::defaults(kind), "{} changed on a bad value", info.name);
        }
    }
}

#[test]
fn transparent_pixels_are_air_whatever_their_colour() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("alpha.png");
    // Transparent black background (what drawing programs export), an opaque black wall in
    // column 1, opaque blue water in column 2, a transparent green pixel.
    image::RgbaImage::from_fn(6, 4, |x, y| match (x, y) {
        (1, _) => image::Rgba([0, 0, 0, 255]),
        (2, _) => image::Rgba([0, 0, 255, 200]),
        (4, 0) => image::Rgba([0, 255, 0, 10]),
        _ => image::Rgba([0, 0, 0, 0]),
    })
    .save(&path)
    .unwrap();
    let scene = eddy_fluid::scene::Scene::from_png(&path, eddy_fluid::scene::Colours::Plain).unwrap();
    let solid: Vec<_> = (0..6).map(|c| scene.solid[(0, c)]).collect();
    assert_eq!(solid, vec![0, 1, 0, 0, 0, 0]);
    let fluid: Vec<_> = (0..6).map(|c| scene.fluid[(0, c)]).collect();
    assert_eq!(fluid, vec![0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
    assert_eq!(scene.solid, Grid::from_fn(6, 4, |_, c| (c == 1) as u8));
}

/// The registry lists each model's `.npz` arrays (the zip's index does not keep their order, so
/// they are compared as sets), and a file eddy writes tells its model by them.
#[test]
fn saved_arrays_are_the_registrys_in_its_order() {
    let dir = tempfile::tempdir().unwrap();
    for mut state in random_states(12, 8, 1) {
        let kind = state.kind();
        // Smoke and gas save their bodies' table when they have bodies, multigrid smoke its
        // V-cycle plan.
        match &mut state {
            AnyState::Smoke(s) => {
                s.bodies.push(eddy_fluid::body::Body::parse("box:x=6,y=4,w=3,h=2,angle=0.5,vx=1,spin=2").unwrap());
                s.v_cycle_plan =
                    Some(eddy_fluid::solver::plan::SavedPlan { cycles: 3, since_start: 40, since_planned: 8 });
            }
            AnyState::Gas(s) => {
                s.bodies.push(eddy_fluid::body::Body::parse("box:x=6,y=4,w=3,h=2,angle=0.5,vx=0.1,spin=0.05").unwrap())
            }
            AnyState::Water(_) | AnyState::Custom(_) => {}
        }
        let path = dir.path().join(format!("{kind}.npz"));
        state.save_npz(&path, 5).unwrap();
        let mut names = eddy_fluid::npz::NpzReader::open(&path).unwrap().array_names();
        let mut expected: Vec<String> = kind.info().arrays.iter().map(|a| a.name.to_string()).collect();
        expected.push("step".to_string());
        names.sort();
        expected.sort();
        assert_eq!(names, expected, "{kind}");
        assert_eq!(ModelKind::of_arrays(&names), Some(kind));
        assert_eq!(AnyState::load_npz(&path, None).unwrap(), (state, 5));
    }
}

/// `m` rounded up to 1, 2 or 5 times a power of ten, at least 1e-6: the scale the signed smoke
/// views are drawn over, as their docs define it (`SmokeField::Divergence`), computed here in f64.
fn round_up_1_2_5(m: f32) -> f32 {
    let m = m as f64;
    (-6..=38)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|f| f * 10f64.powi(e)))
        .find(|&s| s >= m * (1.0 - 1e-7))
        .expect("a finite field") as f32
}

/// What gas's views draw at each cell's centre, as `GasRenderer` documents its resampling: the
/// value at each cell corner is the mean of the open cells around it (0 where none is), and a
/// cell's centre the mean of its four corners.
fn corner_means_at_centres(field: &Grid<f32>, solid: &Grid<u8>) -> Grid<f32> {
    let (h, w) = field.shape();
    let corner = |r: usize, c: usize| {
        let around = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            .into_iter()
            .filter(|&(i, j)| i >= 1 && j >= 1 && i <= h && j <= w && solid[(i - 1, j - 1)] == 0)
            .map(|(i, j)| field[(i - 1, j - 1)] as f64);
        let (sum, n) = around.fold((0.0, 0.0), |(s, n), v| (s + v, n + 1.0));
        sum / f64::max(n, 1.0)
    };
    Grid::from_fn(w, h, |r, c| {
        ((corner(r, c) + corner(r, c + 1) + corner(r + 1, c) + corner(r + 1, c + 1)) / 4.0) as f32
    })
}

/// The field view `view` of `state` draws, `(H, W)`, and the range a colour map spans over it,
/// as the registry's view docs (`eddy_fluid::model::ModelInfo::views`) state them, written here
/// rather than read from the renderer. `None` for the views drawn in their own colours only
/// (the staggered dye, checked channel by channel; gas velocity, the direction wheel:
/// `gas_velocity_draws_the_direction_wheel`).
fn documented_field(state: &AnyState, params: &ModelParams, view: &str) -> Option<(Grid<f32>, (f32, f32))> {
    let signed = |f: &Grid<f32>, solid: &Grid<u8>| {
        let open = f.as_slice().iter().zip(solid.as_slice()).filter(|(_, s)| **s == 0);
        let s = round_up_1_2_5(open.fold(0.0f32, |m, (v, _)| m.max(v.abs())));
        (-s, s)
    };
    match (state, params, view) {
        (AnyState::Water(s), _, "mass") => Some((s.mass.clone(), (0.0, 1.5))),
        (AnyState::Gas(s), _, "density") => Some((corner_means_at_centres(&s.density, &s.solid), (0.5, 2.5))),
        (AnyState::Smoke(s), ModelParams::Smoke(p), view) => {
            let staggered = s.layout() == eddy_fluid::smoke::GridLayout::Staggered;
            match view {
                "dye" if staggered => None,
                "dye" | "density" => Some((s.density.clone(), (0.0, 1.0))),
                "temperature" => Some((s.temperature.clone(), (0.0, p.impulse_temperature))),
                "velocity" => {
                    let (u, v) = s.centre_velocity();
                    let speed = u.as_slice().iter().zip(v.as_slice()).map(|(x, y)| x.hypot(*y)).collect();
                    Some((Grid::from_vec(u.width(), u.height(), speed).unwrap(), (0.0, 20.0)))
                }
                "pressure" => Some((s.pressure.clone(), (-10.0, 10.0))),
                "divergence" => Some((s.divergence.clone(), signed(&s.divergence, &s.solid))),
                // 0 on the collocated grid, which computes no curl (`GpuSmoke::vorticity_view`).
                "vorticity" if !staggered => {
                    Some((Grid::filled(s.solid.width(), s.solid.height(), 0.0), (-1e-6, 1e-6)))
                }
                "vorticity" => {
                    let w = eddy_fluid::smoke::staggered::cpu::vorticity(&s.velocity_x, &s.velocity_y, &s.solid);
                    let range = signed(&w, &s.solid);
                    Some((w, range))
                }
                _ => panic!("smoke has no view {view}"),
            }
        }
        (_, _, "velocity") => None,
        (state, _, view) => panic!("{} has no view {view}", state.kind()),
    }
}

/// Every view of every model (smoke on both grids) draws the field it names. At scale 3 a cell's
/// centre pixel sits on its centre, where smoke's bilinear resampling gives the cell's own value,
/// water's nearest lookup always does, and gas's corner resampling gives
/// [`corner_means_at_centres`], so:
/// - in a colour map (viridis), the legend spans the range the view's docs give
///   ([`documented_field`]; within 1e-6, the GPU's f32 powers of ten) and each open cell's pixel
///   is the map's table at `(v - low) / (high - low)`, within one entry either way (`t` rounded
///   to 1/255 in f32 on the GPU may land on the next entry);
/// - in the view's own colours, a pixel is a function of the cell's value, each channel moving
///   one way as the value grows (water darkens, white smoke brightens; each dye channel with its
///   own dye), within 1 of 255 where two values are close; water's air is one colour of its own.
///
/// A view bound to the wrong texture, channel or scale fails the first; a map run backwards or a
/// channel from another field the second.
#[test]
fn every_view_draws_its_field_over_the_documented_range() {
    use eddy_fluid::colour::{ColourMap, Legend};
    use eddy_fluid::render::FrameTarget;
    use eddy_fluid::smoke::{SmokeParams, SmokePreset};
    let gpu = common::gpu();
    let mut cases: Vec<(AnyState, ModelParams)> =
        random_states(30, 20, 5).into_iter().map(|s| (s.clone(), ModelParams::defaults(s.kind()))).collect();
    let collocated = ModelParams::Smoke(SmokeParams::preset(SmokePreset::GpuGems));
    cases.push((AnyState::Smoke(common::random_smoke(30, 20, 5, 0.1)), collocated));
    for (state, params) in cases {
        let mut model = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 0).unwrap();
        model.step(3).unwrap();
        let now = model.read_state().unwrap();
        let solid = now.vtk_fields().1.clone();
        let target = FrameTarget::new(&gpu.device, model.size(), 3).unwrap();
        let collocated = matches!(&now, AnyState::Smoke(s) if s.layout() == eddy_fluid::smoke::GridLayout::Collocated);
        let name = format!("{}{}", state.kind(), if collocated { " (collocated)" } else { "" });
        for view in state.kind().info().views.iter().map(|v| v.name) {
            model.set_view(view).unwrap();
            let draw = |model: &mut AnyModel, map| {
                model.set_colour_map(map);
                // A signed view's scale, computed for the first draws, reaches the legend by the third.
                let images: Vec<_> = (0..3)
                    .map(|_| {
                        target
                            .render(&gpu.device, &gpu.queue, |encoder, t, size| {
                                model.draw(encoder, t, FrameTarget::FORMAT, size)
                            })
                            .unwrap()
                    })
                    .collect();
                gpu.check().unwrap_or_else(|e| panic!("{name} view {view}: {e}"));
                images.into_iter().last().unwrap()
            };
            let centre =
                |image: &image::RgbaImage, r: usize, c: usize| image.get_pixel(3 * c as u32 + 1, 3 * r as u32 + 1).0;
            let open: Vec<(usize, usize)> = (0..solid.height())
                .flat_map(|r| (0..solid.width()).map(move |c| (r, c)))
                .filter(|&at| solid[at] == 0)
                .collect();
            assert!(open.len() > 400, "{name}: only {} open cells", open.len());

            // In a colour map.
            if let Some((field, (low, high))) = documented_field(&now, &params, view) {
                let image = draw(&mut model, ColourMap::Viridis);
                let Legend::Scale { low: l, high: h, map, .. } = model.legend() else {
                    panic!("{name} view {view}: no scale in a colour map")
                };
                let off = (l - low).abs().max((h - high).abs());
                assert!(off <= 1e-6 * high.abs(), "{name} view {view}: legend [{l}, {h}], its docs [{low}, {high}]");
                let varies = field.as_slice().iter().any(|v| (v - field[open[0]]).abs() > 0.05 * (high - low));
                assert!(varies || (collocated && view == "vorticity"), "{name} {view}: a field that varies");
                let lut = map.lut();
                for &(r, c) in &open {
                    let t = ((field[(r, c)] - low) / (high - low)).clamp(0.0, 1.0);
                    let i = (t * 255.0).round() as usize;
                    let px = centre(&image, r, c);
                    let near = (i.saturating_sub(1)..=(i + 1).min(255)).any(|j| lut[j][..3] == px[..3]);
                    assert!(
                        near,
                        "{name} view {view} cell ({r}, {c}) = {}: drew {px:?}, the map gives {:?}",
                        field[(r, c)],
                        lut[i]
                    );
                }
            }

            // In its own colours, where it has them.
            let image = draw(&mut model, ColourMap::Own);
            if !matches!(model.legend(), Legend::Own(_)) {
                continue;
            }
            let channels: Vec<Grid<f32>> = match (&now, view) {
                (AnyState::Smoke(s), "dye") if !collocated => s.dye.to_vec(),
                _ => vec![documented_field(&now, &params, view).expect("a field").0; 3],
            };
            // Water's air (below `min_mass`) is one colour of its own, above the map.
            let air = match &params {
                ModelParams::Water(p) => p.min_mass,
                _ => f32::NEG_INFINITY,
            };
            for (k, field) in channels.iter().enumerate() {
                let (mut cells, dry): (Vec<_>, Vec<_>) = open.iter().partition(|&&at| field[at] >= air);
                let colours: std::collections::HashSet<_> = dry.iter().map(|&(r, c)| centre(&image, r, c)).collect();
                assert!(colours.len() <= 1, "{name} view {view}: air drawn in {} colours", colours.len());
                cells.sort_by(|&a, &b| field[a].total_cmp(&field[b]));
                let steps: Vec<i32> = cells
                    .windows(2)
                    .map(|p| centre(&image, p[1].0, p[1].1)[k] as i32 - centre(&image, p[0].0, p[0].1)[k] as i32)
                    .collect();
                let (up, down) = (steps.iter().filter(|&&d| d > 1).count(), steps.iter().filter(|&&d| d < -1).count());
                assert!(
                    up == 0 || down == 0,
                    "{name} view {view}, channel {k}: {up} steps up and {down} down as the value grows"
                );
                assert!(up + down > 0, "{name} view {view}, channel {k}: one colour for every value");
            }
        }
    }
}

/// The gas velocity view's hue wheel is [`eddy_fluid::colour::direction_colour`]: a uniform flow
/// faster than full brightness (0.25 cells/step) draws every pixel in the colour the CPU gives
/// its direction, within 1 of 255 per channel (the shader's f32 hue against the CPU's), for
/// eight directions round the wheel.
#[test]
fn gas_velocity_draws_the_direction_wheel() {
    use eddy_fluid::render::FrameTarget;
    let gpu = common::gpu();
    for k in 0..8 {
        let angle = (k as f32 + 0.3) * std::f32::consts::TAU / 8.0 - std::f32::consts::PI;
        let (w, h) = (16, 12);
        let state = eddy_fluid::gas::GasState {
            density: Grid::filled(w, h, 1.0),
            momentum_x: Grid::filled(w, h, 0.3 * angle.cos()),
            momentum_y: Grid::filled(w, h, 0.3 * angle.sin()),
            solid: Grid::filled(w, h, 0),
            source: Grid::filled(w, h, 0),
            bodies: Vec::new(),
        };
        let mut model =
            AnyModel::new(&gpu.device, &gpu.queue, &AnyState::Gas(state), &ModelParams::defaults(ModelKind::Gas), 0)
                .unwrap();
        model.set_view("velocity").unwrap();
        let target = FrameTarget::new(&gpu.device, model.size(), 2).unwrap();
        let image = target
            .render(&gpu.device, &gpu.queue, |encoder, t, size| model.draw(encoder, t, FrameTarget::FORMAT, size))
            .unwrap();
        let want = eddy_fluid::colour::direction_colour(angle);
        for (x, y, px) in image.enumerate_pixels() {
            let off = (0..3).map(|i| px.0[i].abs_diff(want[i])).max().unwrap();
            assert!(off <= 1, "angle {angle:.3}: pixel ({x}, {y}) is {px:?}, the wheel gives {want:?}");
        }
    }
}

/// Pouring water along a drag leaves a continuous stream, not one disc per pointer event: after
/// one long move across an empty box, every column along the path holds water.
#[test]
fn pouring_along_a_drag_leaves_a_stream() {
    use eddy_fluid::model::tools::{Stroke, Tool};
    let gpu = common::gpu();
    let state = AnyState::Water(WaterState {
        mass: Grid::filled(96, 32, 0.0),
        solid: Grid::filled(96, 32, 0),
        bodies: Vec::new(),
    });
    let mut model =
        AnyModel::new(&gpu.device, &gpu.queue, &state, &ModelParams::defaults(ModelKind::Water), 0).unwrap();
    model.stroke(&Stroke { from: (10.0, 16.0), to: (86.0, 16.0), tool: Tool::Fluid, erase: false }).unwrap();
    let AnyState::Water(s) = model.read_state().unwrap() else { panic!("water") };
    let dry: Vec<usize> = (10..86).filter(|&c| (0..32).all(|r| s.mass[(r, c)] <= 0.0)).collect();
    assert!(dry.is_empty(), "columns the drag crossed got no water: {dry:?}");
}

/// A session keeps each model's state while another is shown, and an action that cannot apply
/// (a parameter another model's or out of range, a preset of another model, a field the model
/// lacks) is refused with a reason and changes nothing: the viewer's panel, keys and scripts all
/// go through `Session::apply`.
#[test]
fn a_session_keeps_each_models_state_and_refuses_bad_actions_without_loss() {
    use eddy_fluid::model::{Done, Session, SessionOptions, Start};
    use eddy_fluid::scene::SceneSource;
    use eddy_fluid::script::Action;
    let gpu = common::gpu();
    let options = SessionOptions {
        params: ModelParams::defaults(ModelKind::Water),
        start: Start::Scene(SceneSource::Preset("basin".into())),
        size: (48, 32),
        seed: 1,
    };
    let mut session = Session::new(&gpu.device, &gpu.queue, &gpu.adapter, options).unwrap();
    session.step(5).unwrap();
    let water = session.model().read_state().unwrap();
    session.apply(&Action::Model(ModelKind::Smoke)).unwrap();
    session.step(3).unwrap();
    assert_eq!(session.current(), ModelKind::Smoke);
    session.apply(&Action::Model(ModelKind::Water)).unwrap();
    assert_eq!(session.model().read_state().unwrap(), water, "water's state was not kept");
    assert_eq!((session.model_ref().steps_done(), session.steps()), (5, 8));

    let params = session.model_ref().params();
    let refused = [
        (Action::Set("dt", Value::Real(0.5)), "water has no parameter \"dt\""),
        (Action::Set("side-share", Value::Real(0.7)), "side-share"),
        (Action::View("pressure".into()), "pressure"),
    ];
    for (action, says) in refused {
        let e = session.apply(&action).unwrap_err().to_string();
        assert!(e.contains(says), "{action:?}: {e}");
    }
    let e = session.restart(&SceneSource::Preset("plume".into()), (48, 32)).unwrap_err().to_string();
    assert!(e.contains("plume"), "a smoke preset on water: {e}");
    assert_eq!(session.model_ref().params(), params);
    assert_eq!(session.model().read_state().unwrap(), water, "a refused action changed the state");

    // A preset made for a parameter set starts with it, as --scene does (the panel's "start this
    // scene"): gas's tunnel has its inflow and outflow edges and its gas streaming.
    session.apply(&Action::Model(ModelKind::Gas)).unwrap();
    session.restart(&SceneSource::Preset("tunnel".into()), (48, 24)).unwrap();
    let gas = session.model_ref().params();
    assert_eq!((gas.get("left-edge"), gas.get("right-edge")), (Some(Value::Choice(1)), Some(Value::Choice(2))));
    let AnyState::Gas(tunnel) = session.model().read_state().unwrap() else { panic!("not gas") };
    assert!(tunnel.momentum_x[(12, 2)] > 0.09, "the tunnel's gas does not stream");
    session.apply(&Action::Model(ModelKind::Water)).unwrap();

    // A parameter set as the panel sets it says its value before and after, read back.
    let done = session.apply(&Action::Set("side-share", Value::Real(0.4))).unwrap();
    assert_eq!(done, Done::Set(ModelKind::Water, vec![("side-share", "0.25".into(), "0.4".into())]));
    // A state of another model (a dropped .npz) makes its model current.
    let smoke = AnyState::Smoke(common::random_smoke_staggered(20, 10, 3, 0.1));
    session.replace(&smoke, 7, None).unwrap();
    assert_eq!(
        (session.current(), session.model_ref().size(), session.model_ref().steps_done()),
        (ModelKind::Smoke, (20, 10), 7)
    );

    // Gas' central flux needs other diffusion and pressure than the defaults. A panel or key
    // (fitted) moves them and says so; a script's set (all together, as the command line) is
    // refused without a change unless it gives values that fit.
    session.apply(&Action::Model(ModelKind::Gas)).unwrap();
    let central = Value::Choice(0);
    assert_eq!(ModelKind::Gas.params().iter().find(|p| p.name == "flux").unwrap().format(central), "central");
    let before = session.model_ref().params();
    let e = session.apply(&Action::SetAll(vec![("flux", central)])).unwrap_err().to_string();
    assert!(e.contains("diffusion in [0.1, 0.15]"), "{e}");
    assert_eq!(session.model_ref().params(), before, "a refused set changed the parameters");
    let Done::Set(_, moved) = session.apply(&Action::Set("flux", central)).unwrap() else { panic!() };
    let names: Vec<_> = moved.iter().map(|m| m.0).collect();
    assert_eq!(
        names,
        ["diffusion", "pressure", "flux", "reconstruction"],
        "every parameter that moved is reported: {moved:?}"
    );
    session.apply(&Action::Defaults).unwrap();
    let all = vec![
        ("flux", central),
        ("diffusion", Value::Real(0.12)),
        ("pressure", Value::Real(0.02)),
        ("reconstruction", Value::Choice(0)),
    ];
    let Done::Set(_, set) = session.apply(&Action::SetAll(all)).unwrap() else { panic!() };
    assert_eq!(
        set.iter().map(|(n, _, a)| format!("{n} {a}")).collect::<Vec<_>>(),
        ["diffusion 0.12", "pressure 0.02", "flux central", "reconstruction constant"]
    );
}

/// A draw fills its letterboxed area and leaves the border black, and a colour map is what
/// colours the field: two maps draw the same gas differently, inside the area only.
#[test]
fn draws_fill_their_letterboxed_area_in_the_chosen_map() {
    use eddy_fluid::colour::ColourMap;
    use eddy_fluid::render::{Area, FrameTarget};
    let gpu = common::gpu();
    let state = AnyState::Gas(common::random_gas(40, 20, 5, 0.0));
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, &state, &ModelParams::defaults(ModelKind::Gas), 0).unwrap();
    let target = FrameTarget::new(&gpu.device, (50, 50), 2).unwrap(); // 100 x 100 pixels
    let area = Area::letterbox(Area::full((100, 100)), (40, 20));
    assert_eq!(area, Area { origin: (0.0, 25.0), size: (100.0, 50.0) });
    let mut draw = |map| {
        model.set_colour_map(map);
        target
            .render(&gpu.device, &gpu.queue, |encoder, t, _| model.draw(encoder, t, FrameTarget::FORMAT, area))
            .unwrap()
    };
    let (inferno, viridis) = (draw(ColourMap::Inferno), draw(ColourMap::Viridis));
    for img in [&inferno, &viridis] {
        for x in 0..100 {
            for y in (0..25).chain(75..100) {
                assert_eq!(img.get_pixel(x, y).0, [0, 0, 0, 255], "border pixel ({x}, {y}) is not black");
            }
        }
        assert!((25..75).all(|y| img.get_pixel(50, y).0 != [0, 0, 0, 255]), "the area has black pixels");
    }
    let differ = (25..75).filter(|&y| inferno.get_pixel(50, y) != viridis.get_pixel(50, y)).count();
    assert!(differ > 40, "inferno and viridis drew the same pixels ({differ} of 50 differ)");
}

/// GPU time per step from timestamp queries: lavapipe has `TIMESTAMP_QUERY`, so steps are
/// timed. A span cannot exceed the wall-clock time around its submission and wait (the GPU
/// cannot finish work before it was submitted), must be positive, and a smoke step (advection,
/// buoyancy, divergence, 50 Jacobi iterations, gradient: more than 50 passes over the grid)
/// must cost more GPU time than a water step (2 passes) on the same grid.
#[test]
fn steps_are_timed_on_the_gpu_within_the_wall_clock() {
    use eddy_fluid::model::{Session, SessionOptions, Start};
    use eddy_fluid::scene::SceneSource;
    use eddy_fluid::script::Action;
    use std::time::Instant;
    let gpu = common::gpu();
    let options = SessionOptions {
        params: ModelParams::defaults(ModelKind::Water),
        start: Start::Scene(SceneSource::Preset("basin".into())),
        size: (128, 128),
        seed: 1,
    };
    let mut session = Session::new(&gpu.device, &gpu.queue, &gpu.adapter, options).unwrap();
    assert!(session.timed(), "{} offers TIMESTAMP_QUERY, but steps are not timed", gpu.adapter_label());
    assert_eq!(session.gpu_time(), None, "a time before any step");
    let mut per_step = Vec::new();
    for kind in [ModelKind::Water, ModelKind::Smoke] {
        session.apply(&Action::Model(kind)).unwrap();
        let started = Instant::now();
        session.step(10).unwrap();
        gpu.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        let wall_ns = started.elapsed().as_nanos() as f64;
        let t = session.gpu_time().unwrap_or_else(|| panic!("{kind}: no GPU time after waiting for the steps"));
        assert_eq!(t.steps, 10);
        assert!(t.per_step_ns > 0.0, "{kind}: {t:?}");
        assert!(
            t.per_step_ns * 10.0 <= wall_ns,
            "{kind}: GPU {} ns for 10 steps, wall clock {wall_ns} ns",
            t.per_step_ns * 10.0
        );
        assert_eq!(session.gpu_time(), None, "{kind}: the same span reported twice");
        eprintln!("{kind} at 128x128: GPU {:.3} ms/step, wall clock {:.3} ms/step", t.per_step_ns / 1e6, wall_ns / 1e7);
        per_step.push(t.per_step_ns);
    }
    assert!(per_step[1] > per_step[0], "smoke {} ns/step is not above water {} ns/step", per_step[1], per_step[0]);
}

/// WebGPU guarantees 4 storage textures per stage, and browsers on software adapters offer no
/// more; several passes bind up to 7. On a device opened with that limit, those passes read
/// their inputs as sampled textures (`eddy_fluid::gpu::fit`), and every model's step (both smoke
/// grids) and statistics must still equal the CPU mirror: within 1e-5 of each field's largest
/// magnitude after one step, as on the full device, and the statistics as
/// `statistics_by_reduction_equal_the_cpu_mirror` holds them.
#[test]
fn passes_fitted_to_four_storage_textures_match_the_cpu_mirror() {
    use eddy_fluid::Simulation;
    use eddy_fluid::smoke::{GridLayout, SmokeParams, SmokePreset};
    let full = common::gpu();
    let limits = wgpu::Limits { max_storage_textures_per_shader_stage: 4, ..full.adapter.limits() };
    let (device, queue) = pollster::block_on(full.adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("eddy at WebGPU's storage-texture limit"),
        required_limits: limits,
        ..Default::default()
    }))
    .unwrap();
    assert_eq!(device.limits().max_storage_textures_per_shader_stage, 4);
    let (w, h) = (67, 45);
    let water = common::random_water(w, h, 31, 0.1);
    let gas = common::random_gas(w, h, 32, 0.1);
    let smokes = [
        (common::random_smoke_staggered(w, h, 33, 0.1), SmokeParams::default()),
        (common::random_smoke(w, h, 34, 0.1), SmokeParams::preset(SmokePreset::GpuGems)),
    ];
    assert_eq!(smokes[1].1.grid, GridLayout::Collocated);

    let p = eddy_fluid::water::WaterParams::default();
    let mut g = eddy_fluid::water::GpuWater::new(&device, &queue, &water, p).unwrap();
    let mut c = eddy_fluid::water::CpuWater::new(water.clone(), p).unwrap();
    g.step(1).unwrap();
    c.step(1).unwrap();
    common::assert_fields_close("water at 4 storage textures", &g.read_state().unwrap(), c.state(), 1e-5);

    let p = eddy_fluid::gas::GasParams::default();
    let mut g = eddy_fluid::gas::GpuGas::new(&device, &queue, &gas, p).unwrap();
    let mut c = eddy_fluid::gas::CpuGas::new(gas.clone(), p).unwrap();
    g.step(1).unwrap();
    c.step(1).unwrap();
    let (gs, cs) = (g.read_state().unwrap(), c.state());
    common::assert_close_rel(
        "gas at 4 storage textures",
        &[
            ("density", &gs.density, &cs.density),
            ("momentum_x", &gs.momentum_x, &cs.momentum_x),
            ("momentum_y", &gs.momentum_y, &cs.momentum_y),
        ],
        1e-5,
        |_, _| {},
    );

    for (state, p) in &smokes {
        let mut g = eddy_fluid::smoke::GpuSmoke::new(&device, &queue, state, *p).unwrap();
        let mut c = eddy_fluid::smoke::CpuSmoke::new(state.clone(), *p).unwrap();
        g.step(1).unwrap();
        c.step(1).unwrap();
        let name = format!("smoke ({:?} grid) at 4 storage textures", p.grid);
        common::assert_smoke_close(&name, &g.read_state().unwrap(), c.state(), 1e-5);
    }

    for state in [AnyState::Water(water), AnyState::Smoke(smokes[0].0.clone()), AnyState::Gas(gas)] {
        let params = ModelParams::defaults(state.kind());
        let model = AnyModel::new(&device, &queue, &state, &params, 0).unwrap();
        assert_stats_match(&model.stats().unwrap(), &state.stats(&params).unwrap());
    }
}

/// A state written to `.npz` bytes in memory (the browser's download) is byte for byte the file
/// `save_npz` writes, and loads back equal from those bytes (the browser's file picker).
#[test]
fn npz_bytes_in_memory_equal_the_file_and_load_back() {
    let dir = tempfile::tempdir().unwrap();
    for state in random_states(23, 11, 12) {
        let path = dir.path().join(format!("{}.npz", state.kind()));
        state.save_npz(&path, 42).unwrap();
        let bytes = state.to_npz_bytes(42, None).unwrap();
        assert_eq!(bytes, std::fs::read(&path).unwrap(), "{}: memory and file differ", state.kind());
        let (back, step) = AnyState::load_npz_bytes(&path, bytes, None).unwrap();
        assert_eq!(step, 42);
        assert!(back == state, "{}: did not load back equal", state.kind());
    }
    let e = AnyState::load_npz_bytes(std::path::Path::new("junk.npz"), b"not a zip".to_vec(), None).unwrap_err();
    assert!(e.to_string().contains("junk.npz"), "{e}");
}

/// Statistics asked for and not collected (the viewer asks in one frame and reads in a later
/// one) never stand in for fresh ones: a blocking `stats()` after more steps reports the state
/// now, not the one asked about, whether the earlier request is still in flight (it is waited
/// out and dropped) or has arrived (it is dropped); which of the two happens depends on the
/// driver's timing. And `stats_requested` says when there is something to collect,
/// so a viewer whose model was rebuilt in between asks again instead of waiting forever.
#[test]
fn statistics_asked_for_earlier_do_not_stand_in_for_fresh_ones() {
    let gpu = common::gpu();
    let state = AnyState::Gas(common::random_gas(40, 30, 21, 0.1));
    let mut params = ModelParams::defaults(ModelKind::Gas);
    params.set("drain", Value::Real(0.9)).unwrap(); // densities (mean 1.6) relax towards 1 fast
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 0).unwrap();
    assert!(!model.stats_requested(), "a new model has nothing to collect");
    model.request_stats();
    assert!(model.stats_requested());
    model.step(5).unwrap();
    let fresh = model.stats().unwrap();
    let now = model.read_state().unwrap().stats(&params).unwrap();
    assert_stats_match(&fresh, &now);
    // The state asked about differs from the state now by far more than the match's 1e-6.
    assert!(fresh.total() < 0.95 * state.stats(&params).unwrap().total(), "the drain did not act");
    // Asked again and collected without waiting: nothing is left to collect afterwards.
    model.request_stats();
    let collected = loop {
        if let Some(s) = model.collect_stats() {
            break s.unwrap();
        }
    };
    assert_stats_match(&collected, &now);
    assert!(!model.stats_requested(), "collected statistics are still pending");
}

/// What a step records, counted as it is recorded (`eddy_fluid::gpu::tally`, what `eddy bench`
/// reports): the collocated GPU Gems step is advection (with buoyancy and the sources' impulse in
/// the same pass), divergence, 50 Jacobi iterations and the gradient (GPU Gems 38.3); the
/// iterations run packed four cells a texel, four a dispatch (`jacobi_quad.wgsl`, 12 of them)
/// and the last two in one (`jacobi_pair.wgsl`), the divergence packing their input and the
/// gradient unpacking their result, 16 dispatches. Counted by hand from the passes' textures,
/// each bound texel read or written once a dispatch: advection 36 bytes a cell (velocity
/// rg32float 8, temperature 4, density 4, solid bits 4 read; 8 + 4 + 4 written), the packing
/// divergence 28 (velocity 8, solid bits 4 and pressure 4 read, divergence 4 written, and the
/// packed right-hand side and pressure, 16 + 16 per 4 cells), each dispatch of iterations 13
/// (packed pressure and right-hand side 4 + 4, packed walls 1, packed pressure written 4), the
/// unpacking gradient 28 (velocity 8, packed pressure 4, solid bits 4 read; velocity 8 and
/// pressure 4 written): 261 bytes a cell (273 with a pack and an unpack of their own, 429 at two
/// iterations a dispatch, 493 with buoyancy 28 and the impulse 36 as passes of their own, 818 at
/// one iteration a dispatch, 944 unpacked).
#[test]
fn the_gpu_gems_step_records_16_dispatches_moving_261_bytes_a_cell() {
    use eddy_fluid::smoke::{SmokeParams, SmokePreset};
    let gpu = common::gpu();
    let params = ModelParams::Smoke(SmokeParams::preset(SmokePreset::GpuGems));
    let state = AnyState::start(&eddy_fluid::scene::SceneSource::Preset("plume".into()), (40, 30), 1, &params).unwrap();
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, &state, &params, 0).unwrap();
    eddy_fluid::gpu::tally::start();
    model.step(10).unwrap();
    let tally = eddy_fluid::gpu::tally::finish().expect("a count was open");
    assert_eq!(tally.dispatches, 160, "{tally:?}");
    assert_eq!(tally.bytes, (36 + 28 + 13 * 13 + 28) * 40 * 30 * 10, "{tally:?}");
    assert_eq!(eddy_fluid::gpu::tally::finish(), None, "finish closes the count");
}

/// A pass that touches only part of the texels it binds (the staggered impulse over its
/// rectangle) is counted for that part: `Kernel::dispatch_part` over a quarter of a 40 x 30
/// texture copy counts a quarter of the 32 bytes a texel (16 read, 16 written) that
/// `Kernel::dispatch` counts over all of it.
#[test]
fn a_dispatch_over_part_of_its_textures_counts_that_part() {
    let gpu = common::gpu();
    let kernel = eddy_fluid::gpu::Kernel::new(&gpu.device, &gpu.caps, "common/copy", eddy_fluid::shaders::COPY);
    let usage = wgpu::TextureUsages::STORAGE_BINDING;
    let format = wgpu::TextureFormat::Rgba32Float;
    let [a, b] = ["a", "b"].map(|label| {
        eddy_fluid::gpu::texture_2d(&gpu.device, label, (40, 30), format, usage).create_view(&Default::default())
    });
    use wgpu::BindingResource::TextureView as View;
    let group = kernel.bind_group(&gpu.device, &[View(&a), View(&b)]);
    let count = |part: Option<f64>| {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        eddy_fluid::gpu::tally::start();
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            match part {
                None => kernel.dispatch(&mut pass, &group, 40, 30),
                Some(part) => kernel.dispatch_part(&mut pass, &group, 20, 15, part),
            }
        }
        gpu.queue.submit([encoder.finish()]);
        eddy_fluid::gpu::tally::finish().expect("a count was open").bytes
    };
    assert_eq!(count(None), 32 * 40 * 30);
    assert_eq!(count(Some(0.25)), 32 * 40 * 30 / 4);
}

/// Empty smoke (no density, no dye, no walls) in a `w` x `h` box.
fn empty_smoke(w: usize, h: usize) -> AnyState {
    let scene = eddy_fluid::scene::Scene {
        solid: Grid::filled(w, h, 0),
        fluid: Grid::filled(w, h, 0.0),
        source: Grid::filled(w, h, 0),
    };
    AnyState::Smoke(eddy_fluid::smoke::SmokeState::from_scene(&scene, 0.0))
}

/// `AnyModel::splat` (the web component's splat): in smoke, the disc gets the impulse's density
/// and its dye colour, and the faces in it its velocity, while cells beyond the disc stay
/// empty; another model, a number that is not finite or a radius of 0 is refused with a
/// message, and nothing is recorded.
#[test]
fn a_smoke_splat_puts_its_dye_and_velocity_in_its_disc_and_bad_ones_are_refused() {
    use eddy_fluid::smoke::Impulse;
    let gpu = common::gpu();
    let (w, h) = (32, 24);
    let params = ModelParams::defaults(ModelKind::Smoke);
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, &empty_smoke(w, h), &params, 0).unwrap();
    let splat = Impulse {
        center: (10.0, 12.0),
        radius: 4.0,
        temperature: 0.0,
        density: 0.8,
        velocity: (5.0, 0.0),
        sources: false,
        dye: [0.25, 0.5, 1.0],
    };
    for bad in [
        Impulse { center: (f32::NAN, 12.0), ..splat },
        Impulse { radius: 0.0, ..splat },
        Impulse { velocity: (f32::INFINITY, 0.0), ..splat },
        Impulse { dye: [0.0, f32::NAN, 0.0], ..splat },
    ] {
        let e = model.splat(&bad).unwrap_err().to_string();
        assert!(e.contains("finite numbers and a radius above 0"), "{e}");
    }
    let before = model.read_state().unwrap();
    assert_eq!(before, model.read_state().unwrap());
    let AnyState::Smoke(s) = &before else { panic!("smoke") };
    assert!(s.density.as_slice().iter().all(|&d| d == 0.0), "a refused splat changed the density");
    model.splat(&splat).unwrap();
    let AnyState::Smoke(s) = model.read_state().unwrap() else { panic!("smoke") };
    let at = (12, 10); // (row, column) of the centre
    assert!(s.density[at] > 0.5, "density at the splat's centre: {}", s.density[at]);
    let dye = [s.dye[0][at], s.dye[1][at], s.dye[2][at]];
    assert!(dye[2] > 0.5 && (dye[1] / dye[2] - 0.5).abs() < 0.05 && (dye[0] / dye[2] - 0.25).abs() < 0.05, "{dye:?}");
    assert!(s.velocity_x[at] > 1.0, "velocity at the centre: {}", s.velocity_x[at]);
    for (r, c) in [(12, 20), (2, 10), (22, 10), (12, 2)] {
        assert_eq!(s.density[(r, c)], 0.0, "({r}, {c}) lies beyond the splat's disc");
    }

    let water =
        AnyState::Water(WaterState { mass: Grid::filled(w, h, 0.0), solid: Grid::filled(w, h, 0), bodies: Vec::new() });
    let mut water =
        AnyModel::new(&gpu.device, &gpu.queue, &water, &ModelParams::defaults(ModelKind::Water), 0).unwrap();
    let e = water.splat(&splat).unwrap_err().to_string();
    assert!(e.contains("smoke's") && e.contains("water"), "{e}");
}

/// `AnyModel::set_blend`: drawn with `Blend::Alpha` over a transparent target, empty smoke
/// leaves the target transparent and a splat's dye is opaque where it is dense; drawn opaque
/// (the default), every pixel is opaque.
#[test]
fn empty_smoke_drawn_with_alpha_leaves_the_target_transparent() {
    use eddy_fluid::render::Blend;
    use eddy_fluid::smoke::Impulse;
    let gpu = common::gpu();
    let params = ModelParams::defaults(ModelKind::Smoke);
    let mut model = AnyModel::new(&gpu.device, &gpu.queue, &empty_smoke(32, 24), &params, 0).unwrap();
    model
        .splat(&Impulse {
            center: (8.0, 12.0),
            radius: 3.0,
            temperature: 0.0,
            density: 1.0,
            velocity: (0.0, 0.0),
            sources: false,
            dye: [1.0, 0.0, 0.0],
        })
        .unwrap();
    let draw = |model: &mut AnyModel| common::draw_over_transparent(&gpu, model, 2);
    let opaque = draw(&mut model);
    assert!(opaque.pixels().all(|p| p.0[3] == 255), "an opaque draw left a pixel see-through");
    model.set_blend(Blend::Alpha);
    let layered = draw(&mut model);
    // Pixels (x, y) = 2 x cells: the splat's centre, and empty air far from it.
    let (centre, air) = (layered.get_pixel(16, 24).0, layered.get_pixel(50, 10).0);
    assert_eq!(air, [0, 0, 0, 0], "empty air drawn with alpha");
    assert!(centre[3] > 200 && centre[0] > 200 && centre[1] < 40, "the dense red dye drawn with alpha: {centre:?}");
}
