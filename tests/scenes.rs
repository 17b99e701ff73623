//! Scene and state-file formats (CPU only): PNG colours and tolerance, presets, .npz round trip.

use eddy_fluid::Grid;
use eddy_fluid::scene::{Colours, Scene, SceneError, SceneSource};
use eddy_fluid::water::WaterState;

fn write_png(path: &std::path::Path, w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 3]) {
    image::RgbImage::from_fn(w, h, |x, y| image::Rgb(f(x, y))).save(path).unwrap();
}

#[test]
fn png_colours_within_tolerance_map_to_cells() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scene.png");
    // Row 0: solid, anti-aliased solid; row 1: water, anti-aliased water; row 2: empty, off-white.
    write_png(&path, 2, 3, |x, y| match (x, y) {
        (0, 0) => [0, 0, 0],
        (1, 0) => [30, 20, 32],
        (0, 1) => [0, 0, 255],
        (1, 1) => [25, 30, 230],
        (0, 2) => [255, 255, 255],
        _ => [230, 240, 250],
    });
    let s = Scene::from_png(&path, Colours::Plain).unwrap();
    assert_eq!(s.solid.shape(), (3, 2));
    assert_eq!(s.solid.as_slice(), &[1, 1, 0, 0, 0, 0]);
    assert_eq!(s.fluid.as_slice(), &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn unknown_colour_names_first_pixel() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.png");
    write_png(&path, 4, 3, |x, y| if (x, y) == (2, 1) || (x, y) == (3, 2) { [200, 30, 40] } else { [255; 3] });
    match Scene::from_png(&path, Colours::Plain) {
        Err(SceneError::UnknownColour { x: 2, y: 1, rgb: [200, 30, 40], .. }) => {}
        other => panic!("expected UnknownColour at (2, 1), got {other:?}"),
    }
    let msg = Scene::from_png(&path, Colours::Plain).unwrap_err().to_string();
    assert!(msg.contains("x=2, y=1") && msg.contains("(200, 30, 40)"), "{msg}");
}

#[test]
fn presets_have_water_and_solids_and_reject_zero_size() {
    for name in ["basin", "u-tube", "random", "explosion", "wind"] {
        let s = Scene::preset(name, 64, 48, 7).unwrap();
        assert_eq!(s.solid.shape(), (48, 64));
        let fluid: f32 = s.fluid.as_slice().iter().sum();
        let solids: usize = s.solid.as_slice().iter().map(|&v| v as usize).sum();
        assert!(solids > 10, "{name}: solid cells {solids}");
        assert!(fluid > 10.0 || name == "wind", "{name}: fluid {fluid}");
        assert!(
            s.fluid.as_slice().iter().zip(s.solid.as_slice()).all(|(&m, &s)| s == 0 || m == 0.0),
            "{name}: water in solid"
        );
    }
    assert_ne!(Scene::preset("random", 64, 48, 1).unwrap(), Scene::preset("random", 64, 48, 2).unwrap());
    assert_eq!(Scene::preset("random", 64, 48, 3).unwrap(), Scene::preset("random", 64, 48, 3).unwrap());
    assert!(matches!(Scene::preset("basin", 0, 48, 0), Err(SceneError::BadSize { .. })));
    assert!(matches!(SceneSource::parse("no-such-preset"), Err(SceneError::UnknownScene { .. })));
}

/// Smoke's `clear` preset is an empty box: no walls, no fluid, no sources, at any size; and the
/// registry knows it as smoke's.
#[test]
fn the_clear_preset_is_empty() {
    for (w, h) in [(8, 8), (64, 48), (33, 17)] {
        let s = Scene::preset("clear", w, h, 0).unwrap();
        assert_eq!(s.solid.shape(), (h, w));
        assert!(s.solid.as_slice().iter().all(|&v| v == 0), "clear {w}x{h} has walls");
        assert!(s.fluid.as_slice().iter().all(|&v| v == 0.0), "clear {w}x{h} has fluid");
        assert!(s.source.as_slice().iter().all(|&v| v == 0), "clear {w}x{h} has sources");
    }
    assert_eq!(eddy_fluid::model::ModelKind::owning_preset("clear"), Some(eddy_fluid::model::ModelKind::Smoke));
}

#[test]
fn npz_round_trip_keeps_shapes_and_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.npz");
    let mass = Grid::from_fn(5, 3, |r, c| (r * 5 + c) as f32 * 0.25);
    let solid = Grid::from_fn(5, 3, |r, c| ((r + c) % 3 == 0) as u8);
    let state = WaterState { mass, solid, bodies: Vec::new() }.validated(&path).unwrap();
    state.save_npz(&path).unwrap();
    let back = WaterState::load_npz(&path).unwrap();
    assert_eq!(back, state);
    // Solid cells were emptied by `validated`.
    assert!(back.mass.as_slice().iter().zip(back.solid.as_slice()).all(|(&m, &s)| s == 0 || m == 0.0));
}

#[test]
fn npz_with_nan_or_negative_mass_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    for (bad, name) in [(f32::NAN, "nan"), (-0.5, "negative"), (f32::INFINITY, "inf")] {
        let path = dir.path().join(format!("{name}.npz"));
        let mut mass = Grid::filled(4, 2, 0.5);
        mass[(1, 2)] = bad;
        WaterState { mass, solid: Grid::filled(4, 2, 0), bodies: Vec::new() }.save_npz(&path).unwrap();
        match WaterState::load_npz(&path) {
            Err(SceneError::BadValue { row: 1, col: 2, .. }) => {}
            other => panic!("{name}: expected BadValue at [1, 2], got {other:?}"),
        }
    }
}

#[test]
fn wind_has_sources_at_both_ends() {
    let s = Scene::preset("wind", 64, 48, 0).unwrap();
    let col_sources = |c: usize| (0..48).filter(|&r| s.source[(r, c)] != 0).count();
    assert!(col_sources(0) > 30 && col_sources(63) > 30, "inflow {} / outflow {}", col_sources(0), col_sources(63));
    assert_eq!(col_sources(32), 0);
}

#[test]
fn gas_npz_round_trip_and_bad_momentum() {
    use eddy_fluid::gas::GasState;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gas.npz");
    let mut state = GasState::from_scene(&Scene::preset("explosion", 20, 10, 0).unwrap());
    assert_eq!(state.solid[(1, 1)], 0);
    state.momentum_x[(1, 1)] = 0.25;
    state.momentum_y[(1, 1)] = -0.5;
    state.save_npz(&path).unwrap();
    let back = GasState::load_npz(&path).unwrap();
    assert_eq!(back, state);
    assert_eq!(state.solid[(5, 6)], 0);
    state.momentum_y[(5, 6)] = f32::NAN;
    state.save_npz(&path).unwrap();
    match GasState::load_npz(&path) {
        Err(SceneError::BadValue { array: "momentum", row: 5, col: 6, .. }) => {}
        other => panic!("expected BadValue for momentum[5, 6], got {other:?}"),
    }
}
