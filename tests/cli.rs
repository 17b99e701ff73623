//! The `eddy` binary: `run` writes what it is asked for (bad input is `tests/hostile.rs`).
#![cfg(feature = "cli")]

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
