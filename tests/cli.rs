//! The `eddy` binary: `run` writes what it is asked for; bad input gives one clear line on
//! stderr and a non-zero exit, never a panic.

use std::path::Path;
use std::process::{Command, Output};

fn eddy(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_eddy")).args(args).env("NODEVICE_SELECT", "1").output().expect("run eddy")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Shape and dtype string (e.g. `<f4`) of array `name` in an .npz, read with npyz directly.
fn npz_array(path: &Path, name: &str) -> (Vec<u64>, String) {
    let mut npz = npyz::npz::NpzArchive::open(path).unwrap();
    let npy = npz.by_name(name).unwrap().unwrap_or_else(|| panic!("{name} missing from {}", path.display()));
    let dtype = match npy.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => panic!("unexpected dtype {other:?}"),
    };
    (npy.shape().to_vec(), dtype)
}

#[test]
fn run_writes_frames_and_state() {
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("frames");
    let save = dir.path().join("out.npz");
    let o = eddy(&[
        "run",
        "--mode",
        "water",
        "--scene",
        "basin",
        "--size",
        "80x50",
        "--steps",
        "120",
        "--frames",
        frames.to_str().unwrap(),
        "--every",
        "50",
        "--save",
        save.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("adapter: ") && out.contains("steps/s") && out.contains("total mass"), "{out}");
    // Frames at steps 0, 50, 100 and the last one, 120.
    for step in [0, 50, 100, 120] {
        let png = frames.join(format!("frame_{step:06}.png"));
        let img = image::open(&png).unwrap_or_else(|e| panic!("{}: {e}", png.display()));
        assert_eq!((img.width(), img.height()), (80, 50));
    }
    assert_eq!(std::fs::read_dir(&frames).unwrap().count(), 4);
    assert_eq!(npz_array(&save, "mass"), (vec![50, 80], "<f4".to_string()));
    assert_eq!(npz_array(&save, "solid"), (vec![50, 80], "|u1".to_string()));

    // The saved state loads back and runs on; mass is conserved in the closed basin.
    let again = dir.path().join("again.npz");
    let o = eddy(&["run", "--load", save.to_str().unwrap(), "--steps", "10", "--save", again.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let a = eddy::water::WaterState::load_npz(&save).unwrap().stats(0.0).total_mass;
    let b = eddy::water::WaterState::load_npz(&again).unwrap().stats(0.0).total_mass;
    assert!(((a - b) / a).abs() < 1e-5, "mass {a} -> {b}");
}

#[test]
fn gas_run_writes_documented_arrays() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("new-folder").join("gas.npz"); // --save makes its folder
    let frames = dir.path().join("frames");
    let o = eddy(&[
        "run",
        "--mode",
        "gas",
        "--scene",
        "wind",
        "--size",
        "60x40",
        "--steps",
        "50",
        "--save",
        save.to_str().unwrap(),
        "--frames",
        frames.to_str().unwrap(),
        "--every",
        "50",
        "--field",
        "velocity",
        "--scale",
        "2",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("total momentum"), "{}", text(&o));
    assert_eq!(npz_array(&save, "density"), (vec![40, 60], "<f4".to_string()));
    assert_eq!(npz_array(&save, "momentum"), (vec![40, 60, 2], "<f4".to_string()));
    assert_eq!(npz_array(&save, "solid"), (vec![40, 60], "|u1".to_string()));
    assert_eq!(npz_array(&save, "source"), (vec![40, 60], "|u1".to_string()));
    let img = image::open(frames.join("frame_000050.png")).unwrap();
    assert_eq!((img.width(), img.height()), (120, 80));
    // The saved state loads back: momentum components in the documented order (x = right).
    let state = eddy::gas::GasState::load_npz(&save).unwrap();
    assert!(state.stats().total_momentum.0 > 0.0, "the wind blows right (+x)");
    let o = eddy(&["run", "--mode", "gas", "--load", save.to_str().unwrap(), "--steps", "5"]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn smoke_run_writes_documented_arrays() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("smoke.npz");
    let frames = dir.path().join("frames");
    let o = eddy(&[
        "run",
        "--mode",
        "smoke",
        "--size",
        "64x48",
        "--steps",
        "40",
        "--jacobi",
        "20",
        "--save",
        save.to_str().unwrap(),
        "--frames",
        frames.to_str().unwrap(),
        "--every",
        "40",
        "--field",
        "temperature",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("divergence L2 after projection"), "{}", text(&o));
    assert_eq!(npz_array(&save, "velocity"), (vec![48, 64, 2], "<f4".to_string()));
    for name in ["density", "temperature", "pressure", "divergence"] {
        assert_eq!(npz_array(&save, name), (vec![48, 64], "<f4".to_string()), "{name}");
    }
    assert_eq!(npz_array(&save, "solid"), (vec![48, 64], "|u1".to_string()));
    let img = image::open(frames.join("frame_000040.png")).unwrap();
    assert_eq!((img.width(), img.height()), (64, 48));
    // Velocity components in the documented order: [..., 1] is y, down, so rising smoke is < 0.
    let state = eddy::smoke::SmokeState::load_npz(&save).unwrap();
    let rising: f32 =
        (0..48 * 64).filter(|&i| state.density.as_slice()[i] > 0.5).map(|i| state.velocity_y.as_slice()[i]).sum();
    assert!(rising < 0.0, "smoke should move up (negative y): sum of v_y over smoke {rising}");
    let o = eddy(&["run", "--mode", "smoke", "--load", save.to_str().unwrap(), "--steps", "5"]);
    assert!(o.status.success(), "{}", text(&o));
}

/// Runs `args`, expects failure with one line on stderr containing `needle`, and no panic.
fn fails_with(args: &[&str], needle: &str) {
    let o = eddy(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{args:?} should fail; output:\n{}", text(&o));
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
    assert!(err.contains(needle), "{args:?}: stderr should mention {needle:?}:\n{err}");
    let error_lines = err.lines().filter(|l| l.contains("error")).count();
    assert_eq!(error_lines, 1, "{args:?}: expected one error line:\n{err}");
}

#[test]
fn bad_input_gives_one_clear_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();

    fails_with(&["run", "--scene", &p("missing.png"), "--steps", "1"], "No such file");
    std::fs::write(p("corrupt.png"), b"not a png at all").unwrap();
    fails_with(&["run", "--scene", &p("corrupt.png"), "--steps", "1"], "not a readable PNG");
    image::RgbImage::from_fn(8, 8, |x, _| if x == 5 { image::Rgb([0, 255, 0]) } else { image::Rgb([255; 3]) })
        .save(p("green.png"))
        .unwrap();
    fails_with(&["run", "--scene", &p("green.png"), "--steps", "1"], "pixel (x=5, y=0)");
    fails_with(&["run", "--scene", "no-such-preset", "--steps", "1"], "presets are: basin");
    fails_with(&["run", "--scene", "basin", "--size", "0x10", "--steps", "1"], "0x10");
    fails_with(&["run", "--scene", "basin", "--size", "100000x64", "--steps", "1"], "max_texture_dimension_2d");
    fails_with(&["run", "--scene", "basin", "--side-share", "2", "--steps", "1"], "side-share");
    fails_with(&["run", "--scene", "basin", "--max-speed", "NaN", "--steps", "1"], "max-speed");
    fails_with(&["run", "--load", &p("missing.npz"), "--steps", "1"], "missing.npz");
    std::fs::write(p("corrupt.npz"), b"PK but not really").unwrap();
    fails_with(&["run", "--load", &p("corrupt.npz"), "--steps", "1"], "not a readable .npz");

    fails_with(&["run", "--mode", "gas", "--diffusion", "0.5", "--steps", "1"], "diffusion");
    fails_with(&["run", "--mode", "gas", "--pressure", "-1", "--steps", "1"], "pressure");
    fails_with(&["run", "--mode", "gas", "--wind", "2,0", "--steps", "1"], "the x component");
    image::RgbImage::from_fn(8, 8, |x, _| if x == 2 { image::Rgb([255, 0, 0]) } else { image::Rgb([255; 3]) })
        .save(p("red.png"))
        .unwrap();
    // Red is a gas source, but not a water colour.
    fails_with(&["run", "--mode", "water", "--scene", &p("red.png"), "--steps", "1"], "pixel (x=2, y=0)");
    let o = eddy(&["run", "--mode", "gas", "--scene", &p("red.png"), "--steps", "1"]);
    assert!(o.status.success(), "a red pixel is a gas source: {}", text(&o));

    fails_with(&["run", "--mode", "smoke", "--dt", "0", "--steps", "1"], "dt");
    fails_with(&["run", "--mode", "smoke", "--dt", "inf", "--steps", "1"], "dt");
    fails_with(&["run", "--mode", "smoke", "--jacobi", "0", "--steps", "1"], "jacobi");
    fails_with(&["run", "--mode", "smoke", "--velocity-dissipation", "1.5", "--steps", "1"], "velocity-dissipation");
    fails_with(&["run", "--mode", "smoke", "--buoyancy", "NaN", "--steps", "1"], "buoyancy");
    fails_with(&["run", "--mode", "smoke", "--cell-size", "-1", "--steps", "1"], "cell-size");
    fails_with(&["run", "--mode", "smoke", "--splat-radius", "0", "--steps", "1"], "splat-radius");
    fails_with(&["run", "--mode", "gas", "--field", "temperature", "--steps", "1"], "not a gas field");
    let o = eddy(&["run", "--mode", "smoke", "--scene", &p("red.png"), "--steps", "3"]);
    assert!(o.status.success(), "a red pixel is a smoke source: {}", text(&o));

    let mut mass = eddy::Grid::filled(6, 4, 0.5f32);
    mass[(2, 3)] = f32::NAN;
    eddy::water::WaterState { mass: mass.clone(), solid: eddy::Grid::filled(6, 4, 0) }
        .save_npz(Path::new(&p("nan.npz")))
        .unwrap();
    fails_with(&["run", "--load", &p("nan.npz"), "--steps", "1"], "mass[2, 3] = NaN");
    mass[(2, 3)] = -1.0;
    eddy::water::WaterState { mass, solid: eddy::Grid::filled(6, 4, 0) }.save_npz(Path::new(&p("neg.npz"))).unwrap();
    fails_with(&["run", "--load", &p("neg.npz"), "--steps", "1"], "mass[2, 3] = -1");
}

#[test]
fn help_lists_commands_and_options() {
    let o = eddy(&["--help"]);
    assert!(o.status.success());
    let t = text(&o);
    for word in ["view", "run", "bench"] {
        assert!(t.contains(word), "--help lacks {word}:\n{t}");
    }
    let t = text(&eddy(&["run", "--help"]));
    for word in [
        "--scene",
        "--steps",
        "--boundary",
        "--preset",
        "--save",
        "--frames",
        "--every",
        "--load",
        "--size",
        "--jacobi",
        "--dt",
        "--field",
    ] {
        assert!(t.contains(word), "run --help lacks {word}:\n{t}");
    }
}
