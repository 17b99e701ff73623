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
        "--colour-map",
        "viridis",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains("adapter: ") && out.contains("steps/s") && out.contains("total mass"), "{out}");
    // The last frame is the saved state drawn: each open cell's pixel is viridis at mass / 1.5
    // (the water legend's range), within one entry of the map's table (t rounded on the GPU).
    let last = image::open(frames.join("frame_000120.png")).unwrap().to_rgb8();
    let state = eddy_fluid::water::WaterState::load_npz(&save).unwrap();
    let lut = eddy_fluid::colour::ColourMap::Viridis.lut();
    let mut open = 0;
    for (x, y, px) in last.enumerate_pixels() {
        let (r, c) = (y as usize, x as usize);
        if state.solid[(r, c)] != 0 {
            continue;
        }
        let i = ((state.mass[(r, c)] / 1.5).clamp(0.0, 1.0) * 255.0).round() as usize;
        let near = (i.saturating_sub(1)..=(i + 1).min(255)).any(|j| lut[j][..3] == px.0);
        assert!(near, "frame 120, cell ({r}, {c}), mass {}: pixel {:?}, map {:?}", state.mass[(r, c)], px.0, lut[i]);
        open += 1;
    }
    assert!(open > 2000, "only {open} open cells were compared");
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
    let a = eddy_fluid::water::WaterState::load_npz(&save).unwrap().stats(0.0).total_mass;
    let b = eddy_fluid::water::WaterState::load_npz(&again).unwrap().stats(0.0).total_mass;
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
    let state = eddy_fluid::gas::GasState::load_npz(&save).unwrap();
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
    let state = eddy_fluid::smoke::SmokeState::load_npz(&save).unwrap();
    let rising: f32 =
        (0..48 * 64).filter(|&i| state.density.as_slice()[i] > 0.5).map(|i| state.velocity_y.as_slice()[i]).sum();
    assert!(rising < 0.0, "smoke should move up (negative y): sum of v_y over smoke {rising}");
    let o = eddy(&["run", "--mode", "smoke", "--load", save.to_str().unwrap(), "--steps", "5"]);
    assert!(o.status.success(), "{}", text(&o));
}

/// The shipped u-tube example walls the channel and erases exactly that wall again: at its end
/// the tube's walls are the preset's, cell for cell (it once cut a notch above the channel and
/// a pit below it).
#[test]
fn the_u_tube_example_leaves_the_tube_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("u.npz");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/scripts/u-tube.toml");
    let o = eddy(&["run", "--script", script, "--steps", "1000", "--save", save.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let end = eddy_fluid::water::WaterState::load_npz(&save).unwrap();
    let preset = eddy_fluid::scene::Scene::preset("u-tube", 160, 100, 1).unwrap();
    let differ: Vec<(usize, usize)> = (0..100)
        .flat_map(|r| (0..160).map(move |c| (r, c)))
        .filter(|&(r, c)| end.solid[(r, c)] != preset.solid[(r, c)])
        .collect();
    assert!(
        differ.is_empty(),
        "{} cells differ from the preset's walls, e.g. {:?}",
        differ.len(),
        &differ[..differ.len().min(8)]
    );
}

/// `--sleep` steps only the water's tiles where something can change, and changes nothing: the
/// u-tube example (a stream poured for 40 steps, a wall drawn across the channel and erased
/// again, the arms levelling out) saves the same mass, bit for bit, with it and without it, and
/// the summary says how many tiles were awake at the end; both summaries print the state hash of
/// the state they saved. A model that does not sleep refuses it.
#[test]
fn sleeping_water_saves_the_same_state_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/scripts/u-tube.toml");
    let mut masses = Vec::new();
    for sleep in [false, true] {
        let save = dir.path().join(format!("u-{sleep}.npz"));
        let mut args = vec!["run", "--script", script, "--steps", "1200", "--save", save.to_str().unwrap()];
        if sleep {
            args.push("--sleep");
        }
        let o = eddy(&args);
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(text(&o).contains("water sleeps: "), sleep, "{}", text(&o));
        let saved = eddy_fluid::water::WaterState::load_npz(&save).unwrap();
        // The summary's state hash is the saved state's.
        let hash = eddy_fluid::water::hash::state_hash(&saved.mass, &saved.solid);
        let line = format!("state hash {} ", eddy_fluid::gpu::state_hash::hex(hash));
        assert!(text(&o).contains(&line), "no `{line}` in:\n{}", text(&o));
        masses.push(saved.mass.as_slice().iter().map(|m| m.to_bits()).collect::<Vec<u32>>());
    }
    assert!(masses[0] == masses[1], "--sleep changed the water");
    let o = eddy(&["run", "--mode", "gas", "--steps", "1", "--sleep"]);
    assert!(!o.status.success() && text(&o).contains("--sleep lets water's still tiles sleep"), "{}", text(&o));
}

/// Runs that replay: the U-tube run 200 steps straight, and run 120 steps, saved, loaded and run
/// the other 80 (stepping every cell, and sleeping), end with the same state hash.
#[test]
fn a_run_and_its_replay_from_a_saved_state_end_with_the_same_hash() {
    let dir = tempfile::tempdir().unwrap();
    let mid = dir.path().join("mid.npz");
    let hash_of = |args: &[&str]| {
        let o = eddy(args);
        assert!(o.status.success(), "{}", text(&o));
        let out = text(&o);
        let line = out.lines().find(|l| l.starts_with("state hash ")).unwrap_or_else(|| panic!("no hash:\n{out}"));
        line.split(' ').nth(2).unwrap().to_string()
    };
    let scene = ["run", "--scene", "u-tube", "--size", "96x64"];
    let straight = hash_of(&[&scene[..], &["--steps", "200"]].concat());
    let first = hash_of(&[&scene[..], &["--steps", "120", "--save", mid.to_str().unwrap()]].concat());
    assert_ne!(first, straight, "120 steps and 200 ended in the same state");
    for sleep in [&[][..], &["--sleep"][..]] {
        let replay = hash_of(&[&["run", "--load", mid.to_str().unwrap(), "--steps", "80"][..], sleep].concat());
        assert_eq!(replay, straight, "the replay from step 120 {sleep:?}");
    }
}

/// A replay is checked step by step against a hash log: a U-tube run of 200 steps logs every
/// step's hash (`--hashes`); its state saved at step 120, loaded and run on, matches the log at
/// steps 120 to 200, stepping every cell and sleeping (so the sleeping steps equal the dense ones
/// at every step, not only at the end); a log with one hash changed at step 150 stops the replay
/// there, naming the step and the last that agreed, with the state reached saved. `--hash-every`
/// thins the log.
#[test]
fn a_replay_is_checked_against_the_hash_log_and_stops_at_the_first_step_that_differs() {
    let dir = tempfile::tempdir().unwrap();
    let path = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let scene = ["run", "--scene", "u-tube", "--size", "96x64"];
    let o = eddy(&[&scene[..], &["--steps", "200", "--hashes", &path("log.csv")]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let log = std::fs::read_to_string(path("log.csv")).unwrap();
    let rows: Vec<&str> = log.lines().collect();
    assert_eq!(rows[0], "step,hash");
    assert_eq!(rows.len(), 202, "a row a step, the start's too");
    assert!(rows[1].starts_with("0,") && rows[201].starts_with("200,"), "{:?}", &rows[..3]);
    let end = text(&o).lines().find_map(|l| l.strip_prefix("state hash ")?.split(' ').next().map(String::from));
    assert_eq!(rows[201].split(',').nth(1).map(String::from), end, "the log's last row is the summary's hash");

    let o = eddy(&[&scene[..], &["--steps", "120", "--save", &path("mid.npz")]].concat());
    assert!(o.status.success(), "{}", text(&o));
    for sleep in [&[][..], &["--sleep"][..]] {
        let args = ["run", "--load", &path("mid.npz"), "--steps", "80", "--check-hashes", &path("log.csv")];
        let o = eddy(&[&args[..], sleep].concat());
        assert!(o.status.success(), "{sleep:?}: {}", text(&o));
        assert!(text(&o).contains("replay check: the hashes of 81 steps match"), "{sleep:?}: {}", text(&o));
    }
    // One hash changed at step 150: the replay stops there.
    let changed: Vec<String> = rows
        .iter()
        .map(|r| match r.strip_prefix("150,") {
            Some(h) => match h.strip_prefix('0') {
                Some(rest) => format!("150,1{rest}"),
                None => format!("150,0{}", &h[1..]),
            },
            None => r.to_string(),
        })
        .collect();
    std::fs::write(path("changed.csv"), changed.join("\n")).unwrap();
    let args = ["--steps", "80", "--check-hashes", &path("changed.csv"), "--save", &path("stopped.npz")];
    let o = eddy(&[&["run", "--load", &path("mid.npz")][..], &args[..]].concat());
    assert!(!o.status.success());
    let said = text(&o);
    assert!(said.contains("first at step 150") && said.contains("the last at step 149"), "{said}");
    assert!(said.contains("the state at step 150 is saved"), "{said}");
    assert!(std::path::Path::new(&path("stopped.npz")).exists());
    // Every 50 steps: rows at 0, 50, ..., 200.
    let o = eddy(&[&scene[..], &["--steps", "200", "--hashes", &path("thin.csv"), "--hash-every", "50"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let thin = std::fs::read_to_string(path("thin.csv")).unwrap();
    let steps: Vec<&str> = thin.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(steps, ["0", "50", "100", "150", "200"]);
    assert!(thin.lines().skip(1).all(|l| rows.contains(&l)), "the thin log's rows are the full log's");
}

/// Smoke and gas replay too: a multigrid plume and a gas explosion, each run 60 steps with every
/// step's hash logged, then 30 steps saved, loaded and run 30 more against the log. The
/// multigrid's V-cycle plan travels in the file (`v_cycles` and the plan's two step counts), so
/// the loaded run solves with the same cycles at the same steps as the logged one.
#[test]
fn smoke_and_gas_runs_replay_from_a_saved_state_against_the_hash_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let smoke = ["run", "--mode", "smoke", "--scene", "plume", "--size", "64x48", "--solver", "multigrid"];
    let gas = ["run", "--mode", "gas", "--scene", "explosion", "--size", "64x48"];
    for (name, scene) in [("smoke", &smoke[..]), ("gas", &gas[..])] {
        let log = path(&format!("{name}.csv"));
        let o = eddy(&[scene, &["--steps", "60", "--hashes", &log]].concat());
        assert!(o.status.success(), "{name}: {}", text(&o));
        let covers = if name == "smoke" { "the smoke's fields and solid bits" } else { "density, momentum" };
        assert!(text(&o).contains(covers), "{name}: the summary says what the hash covers: {}", text(&o));
        let mid = path(&format!("{name}-mid.npz"));
        let o = eddy(&[scene, &["--steps", "30", "--save", &mid]].concat());
        assert!(o.status.success(), "{name}: {}", text(&o));
        let o = eddy(&["run", "--load", &mid, "--steps", "30", "--check-hashes", &log]);
        assert!(o.status.success(), "{name}: {}", text(&o));
        assert!(text(&o).contains("replay check: the hashes of 31 steps match"), "{name}: {}", text(&o));
    }
}

/// The shipped rotameter example holds its ball up: a disc three times as dense as the fluid
/// (radius 6, gravity 0.5 on it), dropped near the foot of a tube that widens upwards, rises to
/// where the stream's drag carries its weight and hovers there. Hovering, its momentum does not
/// grow, so over steps 300 to 600 the fluid's mean upward force is its weight less the fluid it
/// displaces, `(s - 1) pi r^2 g` (within 5%: the ball still sways in the wake it sheds), and it
/// ends in the tube, above the foot and off the floor.
#[test]
fn the_rotameter_example_holds_its_ball_where_the_stream_carries_its_weight() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("forces.csv");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/scripts/smoke-rotameter.toml");
    let o = eddy(&["run", "--script", script, "--steps", "600", "--forces", csv.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let rows = std::fs::read_to_string(&csv).unwrap();
    let fy: Vec<f64> = rows
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let step: u64 = f[0].parse().unwrap();
            (step > 300).then(|| f[4].parse().unwrap())
        })
        .collect();
    assert_eq!(fy.len(), 300, "{rows:.300}");
    let mean = fy.iter().sum::<f64>() / fy.len() as f64;
    let weight = (3.0 - 1.0) * std::f64::consts::PI * 36.0 * 0.5;
    assert!((-mean / weight - 1.0).abs() <= 0.05, "mean upward force {} against a weight of {weight:.2}", -mean);
    let out = text(&o);
    let at = out.split("body 0 (free, density 3): at (").nth(1).expect(&out);
    let y: f64 = at.split([',', ')']).nth(1).unwrap().trim().parse().unwrap();
    assert!((100.0..150.0).contains(&y), "the ball ended at y {y}, out of the stream's hold: {out}");
}

/// `eddy bench` measures the roofline first (a texture copy on the same adapter), then prints
/// per row what a step records: water's step is one pass, four cells a texel, and a run of
/// steps packs the mass before and unpacks it after (bench counts 16 steps: 18 dispatches, 1.1
/// a step). By the textures bound, each texel once a dispatch: the step 8 bytes a cell (packed
/// mass 4 read, 4 written; the solid cells ride in the masses' signs), the pack 12 (mass 4 and
/// solid bits 4 read, packed mass 4 written) and the unpack 8, once in the 16 steps: 8 + 20 / 16
/// = 9.25 bytes a cell-step, printed as 9. Also the GPU time and the fraction of the roofline.
/// `--passes` adds the per-pass table, `--json` writes the same to a file. The rows after it:
/// the water sleeping (lavapipe's tiles of 128 x 128 cells), in fixed point, and with floating
/// boxes; then the sleeping scene against the dense one in interleaved rounds.
#[test]
fn bench_prints_the_roofline_and_what_a_step_moves() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("bench.json");
    let json_arg = json.to_str().unwrap();
    let o = eddy(&[
        "bench",
        "--mode",
        "water",
        "--sizes",
        "64",
        "--runs",
        "1",
        "--seconds",
        "0.02",
        "--no-cpu",
        "--passes",
        "--json",
        json_arg,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let roof: f64 = out
        .lines()
        .find_map(|l| l.strip_prefix("roofline: ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no roofline line:\n{out}"));
    assert!(roof > 0.0 && roof.is_finite(), "roofline {roof}");
    let row = out.lines().find(|l| l.starts_with("| default | 64x64 |")).unwrap_or_else(|| panic!("no row:\n{out}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    assert_eq!((cells[6], cells[7]), ("1.1", "9"), "dispatches/step and B/cell-step: {row}");
    assert!(cells[9].ends_with('%'), "fraction of the roofline: {row}");
    // The default row's per-pass table: lavapipe writes timestamps inside passes; each of the
    // three passes once (packing, the step, unpacking), and their shares add up to the whole.
    let default_passes = out.split("Passes of `default` ").nth(1).unwrap_or_else(|| panic!("no passes:\n{out}"));
    let default_passes = default_passes.split("Passes of ").next().unwrap();
    let passes: Vec<Vec<&str>> = default_passes
        .lines()
        .filter(|l| l.starts_with("| water/") || l.starts_with("| common/"))
        .map(|l| l.split('|').map(str::trim).collect())
        .collect();
    let names: std::collections::BTreeSet<&str> = passes.iter().map(|c| c[1]).collect();
    assert_eq!(names, ["water/pack", "water/step", "water/unpack"].into(), "{out}");
    let share: f64 = passes.iter().map(|c| c[4].trim_end_matches('%').parse::<f64>().unwrap()).sum();
    assert!((share - 100.0).abs() < 0.5, "shares add up to {share}%:\n{out}");
    // --json holds the same row, and the passes.
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let row = &report["rows"][0];
    assert_eq!(row["grid"], serde_json::json!([64, 64]));
    assert_eq!(row["bytes_per_cell_step"].as_f64().map(f64::round), Some(9.0), "{row}");
    assert_eq!(row["passes"].as_array().map(Vec::len), Some(3), "{row}");
    // The sleeping row steps the awake tiles and lists them for the next step, and says how
    // many were awake.
    let sleeping = &report["rows"][1];
    assert!(sleeping["parameters"].as_str().is_some_and(|p| p.contains("tiles of 128x128 cells awake")), "{sleeping}");
    let names: Vec<&str> = sleeping["passes"].as_array().unwrap().iter().filter_map(|p| p["pass"].as_str()).collect();
    assert!(names.contains(&"water/step_tiles"), "{names:?}");
    // The fixed-point row runs the step with the integer rules.
    let fixed = &report["rows"][2];
    assert!(fixed["parameters"].as_str().is_some_and(|p| p.contains("fixed point")), "{fixed}");
    let names: Vec<&str> = fixed["passes"].as_array().unwrap().iter().filter_map(|p| p["pass"].as_str()).collect();
    assert!(names.contains(&"water/step_fixed"), "{names:?}");
    // The row with floating boxes times their passes too.
    let boxes = &report["rows"][3];
    assert!(boxes["parameters"].as_str().is_some_and(|p| p.contains("16 floating boxes")), "{boxes}");
    let names: Vec<&str> = boxes["passes"].as_array().unwrap().iter().filter_map(|p| p["pass"].as_str()).collect();
    assert!(names.contains(&"water/bodies") && names.contains(&"water/body_forces"), "{names:?}");
    assert!(report["roofline_gb_s"].as_f64().is_some_and(|r| r > 0.0), "{report}");
    // The bookkeeping's cost: the scene sleeping against it stepping every cell, interleaved.
    let b = &report["bookkeeping"][0];
    assert_eq!(b["grid"], serde_json::json!([64, 64]));
    let (dense, sleeping) = (b["dense_steps_per_s"].as_f64().unwrap(), b["sleeping_steps_per_s"].as_f64().unwrap());
    assert!(dense > 0.0 && sleeping > 0.0 && b["time_ratio"].as_f64().is_some_and(|r| r > 0.0), "{b}");
    assert!(out.contains("| 64x64 |") && out.contains("sleeping time / dense"), "{out}");
    // lavapipe has timestamp queries: the GPU's own time per step is a number.
    let ms: f64 = cells[5].parse().unwrap_or_else(|_| panic!("GPU ms/step: {row}"));
    assert!(ms > 0.0, "GPU ms/step: {row}");
}

/// A saved state carries its parameters (`parameters`, `name = value` lines) and `--load` goes
/// on with them: for each model, a run with options that change what a step does, saved after
/// 10 steps and loaded for 10 more, saves the same bytes as the same run of 20 steps (the
/// smoke run's inflow and outflow edges, viscosity, step and a moving body included, so a loaded
/// run that loses the outflow's faces or keeps a wall where each body was fails here).
/// Loaded without the saved parameters (the array dropped), the same continuation differs,
/// so the comparison can fail. An option given with `--load` refines the saved ones.
#[test]
fn a_loaded_state_goes_on_with_the_parameters_it_was_saved_with() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let runs: [(&str, &[&str]); 4] = [
        (
            "water",
            &[
                "--mode",
                "water",
                "--scene",
                "u-tube",
                "--size",
                "48x32",
                "--preset",
                "unity",
                "--body",
                "box:x=10,y=6,w=6,h=4,density=0.5",
            ],
        ),
        (
            "smoke",
            &[
                "--mode",
                "smoke",
                "--size",
                "48x32",
                "--left-edge",
                "inflow",
                "--right-edge",
                "outflow",
                "--inflow",
                "1.5",
                "--viscosity",
                "0.05",
                "--dt",
                "0.5",
                "--body",
                "circle:x=16,y=16,r=4,vx=1",
            ],
        ),
        ("gas", &["--scene", "wind", "--size", "48x32", "--reconstruction", "constant", "--wind", "0.1,0.05"]),
        ("tunnel", &["--scene", "tunnel", "--size", "64x32", "--inflow", "0.08", "--inflow-density", "1.2"]),
    ];
    for (mode, options) in runs {
        let (half, whole, resumed, bare) = (
            p(&format!("{mode}-10.npz")),
            p(&format!("{mode}-20.npz")),
            p(&format!("{mode}-resumed.npz")),
            p(&format!("{mode}-bare.npz")),
        );
        let run = |args: &[&str]| {
            let o = eddy(&[&["run"], args].concat());
            assert!(o.status.success(), "{mode} {args:?}: {}", text(&o));
        };
        run(&[options, &["--steps", "10", "--save", &half]].concat());
        run(&[options, &["--steps", "20", "--save", &whole]].concat());
        run(&["--load", &half, "--steps", "10", "--save", &resumed]);
        let saved = read_text(&half, "parameters");
        assert!(saved.lines().count() >= 5, "{mode}: parameters saved:\n{saved}");
        assert!(
            std::fs::read(&resumed).unwrap() == std::fs::read(&whole).unwrap(),
            "{mode}: 10 steps, saved and loaded, then 10 more differ from 20 steps; saved parameters:\n{saved}"
        );
        // The same file without its parameters goes on with the defaults: another state.
        let (state, step) = eddy_fluid::model::AnyState::load_npz(Path::new(&half), None).unwrap();
        state.save_npz(Path::new(&bare), step).unwrap();
        let bare_resumed = p(&format!("{mode}-bare-resumed.npz"));
        run(&["--load", &bare, "--steps", "10", "--save", &bare_resumed]);
        let (a, b) = (
            eddy_fluid::model::AnyState::load_npz(Path::new(&bare_resumed), None).unwrap().0,
            eddy_fluid::model::AnyState::load_npz(Path::new(&whole), None).unwrap().0,
        );
        assert!(a != b, "{mode}: the continuation with the defaults equals the run's own");
    }
    // An option given with --load refines the saved parameters; the others stay the file's.
    let refined = p("smoke-refined.npz");
    let o = eddy(&["run", "--load", &p("smoke-10.npz"), "--steps", "1", "--dt", "0.25", "--save", &refined]);
    assert!(o.status.success(), "{}", text(&o));
    let text = read_text(&refined, "parameters");
    for line in ["dt = 0.25", "left-edge = inflow", "right-edge = outflow", "inflow = 1.5", "viscosity = 0.05"] {
        assert!(text.lines().any(|l| l == line), "{line:?} not in\n{text}");
    }
}

/// A free body's run: a disc three times as dense as the fluid sinks under gravity and a light
/// box rises, and the summary says where each ended and how fast it moves (read back from the
/// GPU; the dynamics are held to their CPU mirror in tests/smoke_bodies.rs); the saved state
/// keeps their densities.
#[test]
fn run_says_where_the_fluid_took_each_free_body() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("free.npz");
    let o = eddy(&[
        "run",
        "--mode",
        "smoke",
        "--scene",
        "clear",
        "--size",
        "96x96",
        "--steps",
        "100",
        "--gravity",
        "0.1",
        "--body",
        "circle:x=48,y=30,r=6,density=3",
        "--body",
        "box:x=30,y=70,w=10,h=6,density=0.3",
        "--body",
        "circle:x=80,y=80,r=4",
        "--save",
        saved.to_str().unwrap(),
    ]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let where_ = |body: &str| -> (f64, f64) {
        let line = out.lines().find(|l| l.starts_with(body)).unwrap_or_else(|| panic!("no {body:?} in {out}"));
        let at = line.split("at (").nth(1).unwrap();
        let (x, rest) = at.split_once(", ").unwrap();
        let y = rest.split(')').next().unwrap();
        (x.parse().unwrap(), y.parse().unwrap())
    };
    assert!(where_("body 0 (free, density 3)").1 > 31.0, "{out}");
    assert!(where_("body 1 (free, density 0.3)").1 < 69.0, "{out}");
    assert!(!out.contains("body 2 (free"), "a driven body is not free: {out}");
    let loaded = eddy(&["run", "--load", saved.to_str().unwrap(), "--steps", "1", "--gravity", "0.1"]);
    assert!(text(&loaded).contains("body 0 (free, density 3)"), "{}", text(&loaded));
}

/// `--forces`: a still cylinder and a turning plate in a clear channel's stream, 300 steps (the force
/// log holds 256, so the runner reads it as it goes): a row per body per step, in order, each
/// step's time `step dt`; the drag coefficient is the x force over `1/2 U^2 D` (U the inflow, D
/// the cylinder's diameter), positive on average behind the stream's start (the stream pushes
/// the cylinder downstream); the plate has its coefficients too. The last step's forces are the
/// GPU's pass (held to its CPU mirror in tests/smoke_bodies.rs).
#[test]
fn run_writes_every_bodys_forces_every_step() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("forces.csv");
    let o = eddy(&[
        "run",
        "--mode",
        "smoke",
        "--scene",
        "clear",
        "--size",
        "96x48",
        "--steps",
        "300",
        "--dt",
        "0.5",
        "--left-edge",
        "inflow",
        "--right-edge",
        "outflow",
        "--inflow",
        "1",
        "--viscosity",
        "0.1",
        "--body",
        "circle:x=30,y=24,r=6",
        "--body",
        "plate:x=70,y=20,length=10,spin=0.2",
        "--forces",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("wrote 600 rows of forces"), "{}", text(&o));
    assert!(text(&o).contains("body 1: the fluid's force ("), "{}", text(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("step,time,body,fx,fy,torque,drag_coefficient,lift_coefficient"));
    let rows: Vec<Vec<f64>> =
        lines.map(|l| l.split(',').map(|v| v.parse().unwrap_or_else(|_| panic!("{l}"))).collect()).collect();
    assert_eq!(rows.len(), 600);
    for (k, row) in rows.iter().enumerate() {
        let (step, body) = ((k / 2 + 1) as f64, (k % 2) as f64);
        assert_eq!((row[0], row[1], row[2]), (step, 0.5 * step, body), "row {k}");
        assert!(row.iter().all(|v| v.is_finite()), "row {k}: {row:?}");
    }
    // The cylinder's C_D is its fx over 1/2 U^2 D = 6 (U 1, D 12).
    for row in rows.iter().step_by(2) {
        assert!((row[6] - row[3] / 6.0).abs() <= 1e-5 * row[3].abs().max(1.0), "{row:?}");
    }
    let late: Vec<f64> = rows.iter().step_by(2).skip(100).map(|r| r[6]).collect();
    let mean = late.iter().sum::<f64>() / late.len() as f64;
    // A cylinder filling a quarter of the channel at Re 120 (measured 3.1): well above 1.
    assert!(mean > 1.0, "the stream pushes the cylinder downstream: mean C_D {mean}");
}

/// The UTF-8 text of a 1-d uint8 array.
fn read_text(path: &str, name: &str) -> String {
    let mut npz = npyz::npz::NpzArchive::open(path).unwrap();
    let npy = npz.by_name(name).unwrap().unwrap_or_else(|| panic!("{name} missing from {path}"));
    String::from_utf8(npy.into_vec::<u8>().unwrap()).unwrap()
}

/// Holds `end`, a water state a run of the `random` scene at `size` saved after `steps` steps in
/// all, to the CPU mirror's run of as many steps, bit for bit (`what` names the run).
fn assert_the_cpu_mirror_ends_as(what: &str, (w, h): (usize, usize), steps: u32, end: &eddy_fluid::water::WaterState) {
    use eddy_fluid::Simulation;
    use eddy_fluid::water::{CpuWater, WaterParams, WaterState};
    let scene = eddy_fluid::scene::Scene::preset("random", w, h, 1).unwrap();
    let mut cpu = CpuWater::new(WaterState::from_scene(&scene), WaterParams::default()).unwrap();
    cpu.step(steps).unwrap();
    let same = cpu.state().mass.as_slice().iter().zip(end.mass.as_slice()).all(|(a, b)| a.to_bits() == b.to_bits());
    assert!(same, "the {what}'s {steps} steps differ from the CPU mirror's");
    assert_eq!(cpu.state().solid, end.solid, "the {what}'s walls");
}

/// A world past the adapter's largest texture side runs as a packed world
/// (`eddy_fluid::water::packed_world`; lavapipe's side is 16384, so a 20000-wide world is one):
/// 250 steps of the `random` scene, saved, then loaded and run 150 more sleeping, end where the
/// CPU mirror's 400 steps of the same scene do, bit for bit, and both summaries print the hash of
/// the state they saved. (Refusals are in `tests/hostile.rs`.)
#[test]
fn a_world_wider_than_a_texture_runs_packed_as_the_cpu_mirror_does() {
    use eddy_fluid::water::{WaterState, hash};
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("first.npz"), dir.path().join("second.npz"));
    let (w, h) = (20_000, 12);
    let run = |args: &[&str], save: &Path| {
        let o = eddy(&[args, &["--save", save.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", text(&o));
        let saved = WaterState::load_npz(save).unwrap();
        let line =
            format!("state hash {} ", eddy_fluid::gpu::state_hash::hex(hash::state_hash(&saved.mass, &saved.solid)));
        assert!(text(&o).contains(&line), "no `{line}` in:\n{}", text(&o));
        assert!(text(&o).contains("cells, a packed world: four cells a texel"), "{}", text(&o));
        saved
    };
    let size = format!("{w}x{h}");
    run(&["run", "--mode", "water", "--scene", "random", "--size", &size, "--steps", "250"], &first);
    let end = run(&["run", "--load", first.to_str().unwrap(), "--steps", "150", "--sleep"], &second);
    assert_the_cpu_mirror_ends_as("packed world", (w, h), 400, &end);
}

/// A world taller than the adapter's largest texture side runs in pages of rows
/// (`eddy_fluid::water::packed_world`, "Pages"; lavapipe's side is 16384, so a 16500-tall world
/// is two pages): 300 steps of the `random` scene, saved, loaded and run 100 more sleeping, end
/// where the CPU mirror's 400 steps do, bit for bit.
#[test]
fn a_world_taller_than_a_texture_runs_in_pages_as_the_cpu_mirror_does() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("first.npz"), dir.path().join("second.npz"));
    let (w, h) = (9, 16_500);
    let size = format!("{w}x{h}");
    let scene = ["run", "--mode", "water", "--scene", "random", "--size", &size];
    let o = eddy(&[&scene[..], &["--steps", "300", "--save", first.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("a packed world in 2 pages of rows"), "{}", text(&o));
    let o = eddy(&[
        "run",
        "--load",
        first.to_str().unwrap(),
        "--steps",
        "100",
        "--sleep",
        "--save",
        second.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let end = eddy_fluid::water::WaterState::load_npz(&second).unwrap();
    assert_the_cpu_mirror_ends_as("paged world", (w, h), 400, &end);
}
