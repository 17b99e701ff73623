//! Hostile input, as a table: each row is a command, the exit status it must give (0 done, 1
//! failed, 2 wrong command line) and a phrase its output must contain. Every failure must be one
//! line on stderr without a panic, a path into the cargo registry, or Mesa's XDG_RUNTIME_DIR
//! noise (the commands run without XDG_RUNTIME_DIR and without NODEVICE_SELECT, as on a bare
//! server).
#![cfg(feature = "cli")]

use eddy_fluid::Grid;
use eddy_fluid::scene::Scene;
use eddy_fluid::smoke::SmokeState;
use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::files::{npy, stored_zip};

fn eddy(args: &[String], env: &[(&str, &str)], remove: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_eddy"));
    cmd.args(args).env_remove("XDG_RUNTIME_DIR").env_remove("NODEVICE_SELECT");
    for k in remove {
        cmd.env_remove(k);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run eddy")
}

/// One row: arguments, extra environment, environment to remove, exit status, a phrase.
struct Row {
    args: Vec<String>,
    env: Vec<(&'static str, &'static str)>,
    remove: Vec<&'static str>,
    code: i32,
    phrase: &'static str,
}

fn row(args: &[&str], code: i32, phrase: &'static str) -> Row {
    Row { args: args.iter().map(|s| s.to_string()).collect(), env: vec![], remove: vec![], code, phrase }
}

/// Writes the files the rows use into `dir`.
fn fixtures(dir: &Path, max_side: usize) {
    let p = |n: &str| dir.join(n);
    std::fs::create_dir_all(p("a-directory")).unwrap();
    std::fs::write(p("corrupt.png"), b"not a png at all").unwrap();
    // 140000x1: refused from its header, before it is decoded.
    image::GrayImage::from_pixel(140_000, 1, image::Luma([255])).save(p("wide.png")).unwrap();
    std::fs::write(p("corrupt.npz"), b"PK but not really").unwrap();
    // Hash logs (--check-hashes): not a log, a bad row, steps going back, steps past the run.
    std::fs::write(p("not-a-log.csv"), "step,time,body\n1,2,3\n").unwrap();
    std::fs::write(p("bad-row.csv"), "step,hash\n0,307bfffbc460c686\n1,xyz\n").unwrap();
    std::fs::write(p("backwards.csv"), "step,hash\n5,307bfffbc460c686\n3,307bfffbc460c686\n").unwrap();
    std::fs::write(p("later.csv"), "step,hash\n9000,307bfffbc460c686\n").unwrap();
    std::fs::write(p("empty-log.csv"), "step,hash\n").unwrap();
    std::fs::write(p("resets.toml"), "mode = \"water\"\n[[action]]\nat = 3\nreset = true\n").unwrap();
    image::RgbImage::from_fn(8, 8, |x, _| if x == 5 { image::Rgb([0, 255, 0]) } else { image::Rgb([255; 3]) })
        .save(p("green.png"))
        .unwrap();
    image::RgbImage::from_fn(8, 8, |x, _| if x == 2 { image::Rgb([255, 0, 0]) } else { image::Rgb([255; 3]) })
        .save(p("red.png"))
        .unwrap();
    let mut mass = Grid::filled(6, 4, 0.5f32);
    mass[(2, 3)] = f32::NAN;
    eddy_fluid::water::WaterState { mass: mass.clone(), solid: Grid::filled(6, 4, 0), bodies: Vec::new() }
        .save_npz(&p("nan.npz"))
        .unwrap();
    eddy_fluid::water::WaterState { mass: Grid::filled(6, 4, 1e38), solid: Grid::filled(6, 4, 0), bodies: Vec::new() }
        .save_npz(&p("huge.npz"))
        .unwrap();
    mass[(2, 3)] = -1.0;
    eddy_fluid::water::WaterState { mass, solid: Grid::filled(6, 4, 0), bodies: Vec::new() }
        .save_npz(&p("neg.npz"))
        .unwrap();
    // A valid smoke state, and one at the edge of f32: hot enough that buoyancy overflows.
    let smoke = SmokeState::from_scene(&Scene::preset("plume", 32, 24, 0).unwrap(), 0.0);
    smoke.save_npz(&p("smoke.npz")).unwrap();
    let mut hot = smoke.clone();
    // Still, but so hot that buoyancy gives speeds whose squares overflow f32 in one step.
    hot.temperature.as_mut_slice().fill(3.0e38);
    hot.save_npz(&p("hot.npz")).unwrap();
    // Staggered smoke files gone wrong: one face array without the other, a face array of the
    // collocated shape, a negative dye.
    let mut npz = eddy_fluid::npz::Npz::create(&p("half-faces.npz")).unwrap();
    npz.write_f32("density", &Grid::filled(8, 6, 0.5)).unwrap();
    npz.write_f32("velocity_x", &Grid::filled(9, 6, 0.0)).unwrap();
    npz.finish().unwrap();
    // Multigrid's V-cycle plan gone wrong: one of its three scalars alone, no cycles, planned
    // before it started.
    for (name, plan) in [("plan-half.npz", &[3][..]), ("plan-zero.npz", &[0, 5, 1]), ("plan-order.npz", &[2, 5, 9])] {
        let mut npz = eddy_fluid::npz::Npz::create(&p(name)).unwrap();
        npz.write_f32("density", &Grid::filled(8, 6, 0.5)).unwrap();
        for (array, &v) in eddy_fluid::smoke::V_CYCLE_PLAN.iter().zip(plan) {
            npz.write_scalar_i64(array, v).unwrap();
        }
        npz.finish().unwrap();
    }
    // Body tables gone wrong: a row of 5, a kind that is no shape.
    let mut npz = eddy_fluid::npz::Npz::create(&p("body-row.npz")).unwrap();
    npz.write_f32("density", &Grid::filled(8, 6, 0.5)).unwrap();
    npz.write_f32("bodies", &Grid::filled(5, 1, 1.0)).unwrap();
    npz.finish().unwrap();
    let mut npz = eddy_fluid::npz::Npz::create(&p("body-kind.npz")).unwrap();
    npz.write_f32("density", &Grid::filled(8, 6, 0.5)).unwrap();
    npz.write_f32("bodies", &Grid::from_vec(9, 1, vec![7.0, 4.0, 3.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0]).unwrap()).unwrap();
    npz.finish().unwrap();
    // Saved parameters gone wrong: a parameter this model does not have (a newer eddy's, say),
    // a value out of range, two that do not fit together, numbers instead of text, bytes that are
    // not UTF-8.
    for (name, text) in [
        ("params-unknown.npz", "pipeline = staggered\nswirl = 3\n"),
        ("params-range.npz", "dt = 99\n"),
        ("params-rule.npz", "top-edge = outflow\nlid = 1\n"),
        ("params-line.npz", "dt: 0.5\n"),
    ] {
        let mut npz = eddy_fluid::npz::Npz::create(&p(name)).unwrap();
        npz.write_f32("density", &Grid::filled(8, 6, 0.5)).unwrap();
        npz.write_f32("temperature", &Grid::filled(8, 6, 0.0)).unwrap();
        npz.write_text("parameters", text).unwrap();
        npz.finish().unwrap();
    }
    let mut npz = eddy_fluid::npz::Npz::create(&p("params-numbers.npz")).unwrap();
    npz.write_f32("mass", &Grid::filled(8, 6, 0.5)).unwrap();
    npz.write_f32("parameters", &Grid::filled(2, 1, 0.5)).unwrap();
    npz.finish().unwrap();
    let mut npz = eddy_fluid::npz::Npz::create(&p("face-shape.npz")).unwrap();
    npz.write_f32("density", &Grid::filled(8, 6, 0.5)).unwrap();
    npz.write_f32("velocity_x", &Grid::filled(8, 6, 0.0)).unwrap();
    npz.write_f32("velocity_y", &Grid::filled(8, 7, 0.0)).unwrap();
    npz.finish().unwrap();
    let mut dye = smoke.clone();
    dye.dye[1][(3, 4)] = -0.5;
    dye.save_npz(&p("negative-dye.npz")).unwrap();
    // Arrays of two models in one file; a negative step; a zero-sized array.
    let mut npz = eddy_fluid::npz::Npz::create(&p("two-models.npz")).unwrap();
    npz.write_f32("mass", &Grid::filled(8, 8, 1.0)).unwrap();
    npz.write_f32_components("momentum", &[&Grid::filled(8, 8, 0.0), &Grid::filled(8, 8, 0.0)]).unwrap();
    npz.write_f32("density", &Grid::filled(8, 8, 1.0)).unwrap();
    npz.finish().unwrap();
    let mut npz = eddy_fluid::npz::Npz::create(&p("negative-step.npz")).unwrap();
    npz.write_f32("mass", &Grid::filled(8, 8, 1.0)).unwrap();
    npz.write_scalar_i64("step", -5).unwrap();
    npz.finish().unwrap();
    let mut npz = eddy_fluid::npz::Npz::create(&p("last-step.npz")).unwrap();
    npz.write_f32("mass", &Grid::filled(8, 8, 1.0)).unwrap();
    npz.write_scalar_i64("step", i64::MAX).unwrap();
    npz.finish().unwrap();
    let mut npz = eddy_fluid::npz::Npz::create(&p("empty.npz")).unwrap();
    npz.write_f32("mass", &Grid::filled(0, 4, 1.0)).unwrap();
    npz.finish().unwrap();
    std::fs::write(p("read-only.npz"), b"precious").unwrap();
    let mut ro = std::fs::metadata(p("read-only.npz")).unwrap().permissions();
    ro.set_readonly(true);
    std::fs::set_permissions(p("read-only.npz"), ro).unwrap();
    std::fs::write(p("a-file"), b"not a folder").unwrap();
    std::fs::create_dir_all(p("old-vtk")).unwrap();
    std::fs::write(p("old-vtk/step_00000100.vti"), b"an earlier run's file").unwrap();
    std::fs::create_dir_all(p("old-frames")).unwrap();
    std::fs::write(p("old-frames/frame_000500.png"), b"an earlier run's frame").unwrap();
    // Only `density`: no array says which model.
    let mut npz = eddy_fluid::npz::Npz::create(&p("density-only.npz")).unwrap();
    npz.write_f32("density", &Grid::filled(8, 8, 1.0)).unwrap();
    npz.finish().unwrap();
    // Headers that declare more than the data: 1.6 GB in a few hundred bytes, a side above any
    // adapter's, a side one above this adapter's largest texture.
    let mass8 = || npy("<f4", "(8, 8)", &[0u8; 256]);
    let zip = |name: &str, entries: &[(&str, Vec<u8>)]| std::fs::write(p(name), stored_zip(entries)).unwrap();
    zip("huge-header.npz", &[("mass.npy", npy("<f4", "(20000, 20000)", &[0u8; 64]))]);
    zip("too-wide.npz", &[("mass.npy", npy("<f4", "(4, 140000)", &[0u8; 64]))]);
    // Water takes four texture sides across (a packed world) and four down (in pages).
    let tall = 4 * max_side + 1;
    zip("tall.npz", &[("mass.npy", npy("<f4", &format!("({tall}, 4)"), &vec![0u8; 4 * tall * 4]))]);
    // A real 20000x20000 header over all its data would be 1.6 GB: the adapter's side limit
    // must refuse it from the header. Stored data that could not hold what the header says is
    // refused before that (huge-header.npz).
    // NumPy's default integer on Windows is int32; an object array; no eddy array at all.
    zip("int32-step.npz", &[("mass.npy", mass8()), ("step.npy", npy("<i4", "()", &7i32.to_le_bytes()))]);
    zip("object-step.npz", &[("mass.npy", mass8()), ("step.npy", npy("|O", "()", &[0u8; 8]))]);
    zip("not-eddy.npz", &[("weights.npy", npy("<f4", "(8, 8)", &[0u8; 256]))]);
    // Staggered smoke: velocity_x of the wrong shape beside a right velocity_y; a NaN in
    // velocity_x.
    let mut npz = eddy_fluid::npz::Npz::create(&p("bad-velocity-x.npz")).unwrap();
    npz.write_f32("density", &Grid::filled(8, 6, 0.5)).unwrap();
    npz.write_f32("velocity_x", &Grid::filled(10, 6, 0.0)).unwrap();
    npz.write_f32("velocity_y", &Grid::filled(8, 7, 0.0)).unwrap();
    npz.finish().unwrap();
    let mut vx = Grid::filled(9, 6, 0.0f32);
    vx[(2, 2)] = f32::NAN;
    let mut npz = eddy_fluid::npz::Npz::create(&p("nan-velocity-x.npz")).unwrap();
    npz.write_f32("density", &Grid::filled(8, 6, 0.5)).unwrap();
    npz.write_f32("velocity_x", &vx).unwrap();
    npz.write_f32("velocity_y", &Grid::filled(8, 7, 0.0)).unwrap();
    npz.finish().unwrap();
    // A 3 GB sparse file: judged from its length, not read.
    std::fs::File::create(p("sparse.toml")).unwrap().set_len(3 << 30).unwrap();
    std::fs::File::create(p("sparse.png")).unwrap().set_len(3 << 30).unwrap();
    // Scripts with mistakes.
    std::fs::write(dir.join("bad-param.toml"), "[[action]]\nat = 0\nset = { dt = 0.5 }\n").unwrap();
    std::fs::write(dir.join("backwards.toml"), "[[action]]\nat = 9\nreset = true\n[[action]]\nat = 2\nreset = true\n")
        .unwrap();
    std::fs::write(dir.join("not-toml.toml"), "bad-param = [\n").unwrap();
    // Gas' central flux without the diffusion and pressure it needs (with the defaults, or with
    // the command line's --diffusion): refused before the first step, as `--flux central` is.
    let central = "mode = \"gas\"\n[[action]]\nat = 3\nset = { flux = \"central\", pressure = 0.02 }\n";
    std::fs::write(dir.join("central.toml"), central).unwrap();
    std::fs::create_dir_all(p("folder.npz")).unwrap();
    let writes_dir = format!("[[action]]\nat = 0\nsave = {:?}\n", dir.join("folder.npz").to_str().unwrap());
    std::fs::write(dir.join("writes-dir.toml"), writes_dir).unwrap();
    // Script outputs of the wrong kind, two writers of one file, a time that never comes, and
    // a scene beside the script named relative to it.
    std::fs::write(p("to-multigrid.toml"), "mode = \"smoke\"\n[[action]]\nat = 2\nset = { solver = \"multigrid\" }\n")
        .unwrap();
    std::fs::write(p("jpg.toml"), "[[action]]\nat = 1\nscreenshot = \"shot.jpg\"\n").unwrap();
    std::fs::write(p("txt.toml"), "[[action]]\nat = 1\nsave = \"state.txt\"\n").unwrap();
    let gif = format!("{:?}", p("twice.gif").to_str().unwrap());
    let gifs = format!(
        "[[action]]\nat = 0\ngif = {{ path = {gif}, frames = 2 }}\n[[action]]\nat = 5\ngif = {{ path = {gif}, frames = 2 }}\n"
    );
    std::fs::write(p("two-gifs.toml"), gifs).unwrap();
    std::fs::write(p("one-gif.toml"), format!("[[action]]\nat = 0\ngif = {{ path = {gif}, frames = 2 }}\n")).unwrap();
    std::fs::write(p("forever.toml"), "[[action]]\nat = 9223372036854775807\nquit = true\n").unwrap();
    std::fs::write(p("video-gif.toml"), "[[action]]\nat = 0\nvideo = { path = \"v.gif\", frames = 2 }\n").unwrap();
    std::fs::write(p("gif-fps.toml"), "[[action]]\nat = 0\ngif = { path = \"g.gif\", frames = 2, fps = 60 }\n")
        .unwrap();
    let big = format!("[[action]]\nat = 1\nvideo = {{ path = {:?}, frames = 2 }}\n", p("big.mp4").to_str().unwrap());
    std::fs::write(p("big-video.toml"), big).unwrap();
    // Body actions a run could not do: refused before the first step, with the
    // action's number and as the script writes it.
    let scripts = [
        ("fast-water-body.toml", "[[action]]\nat = 2\nbody = \"circle:x=5,y=5,r=2,vx=0.6\"\n".to_string()),
        (
            "body-17.toml",
            "mode = \"smoke\"\n".to_string()
                + &"[[action]]\nat = 1\nbody = \"circle:x=5,y=5,r=2\"\n".repeat(17),
        ),
        ("drive-none.toml", "mode = \"smoke\"\n[[action]]\nat = 1\ndrive = { body = 3, vx = 1 }\n".to_string()),
        ("remove-none.toml", "mode = \"smoke\"\n[[action]]\nat = 1\nremove-body = 0\n".to_string()),
        (
            "collocated-bodies.toml",
            "mode = \"smoke\"\n[[action]]\nat = 1\nbody = \"circle:x=5,y=5,r=2\"\n[[action]]\nat = 3\nset = { pipeline = \"gpu-gems\" }\n"
                .to_string(),
        ),
        (
            "fast-gas-body.toml",
            "mode = \"gas\"\n[[action]]\nat = 1\nbody = \"circle:x=5,y=5,r=2\"\n[[action]]\nat = 2\ndrive = { body = 0, vx = 0.5 }\n"
                .to_string(),
        ),
        (
            "channel-wall.toml",
            "mode = \"smoke\"\nscene = \"channel\"\n[[action]]\nat = 2\nset = { right-edge = \"wall\" }\n".to_string(),
        ),
        ("shiny-look.toml", "[[action]]\nat = 2\nlook = \"shiny\"\n".to_string()),
    ];
    for (name, text) in scripts {
        std::fs::write(p(name), text).unwrap();
    }
    // Bodies tables: a flat (9,) row; an empty (0, 9) table (what numpy.zeros((0, 9)) writes);
    // one in a water state. A step beyond i64, as uint64.
    zip(
        "body-flat.npz",
        &[("density.npy", npy("<f4", "(6, 8)", &[0u8; 192])), ("bodies.npy", npy("<f4", "(9,)", &[0u8; 36]))],
    );
    zip(
        "body-empty.npz",
        &[("density.npy", npy("<f4", "(6, 8)", &[0u8; 192])), ("bodies.npy", npy("<f4", "(0, 9)", &[]))],
    );
    zip("water-bodies.npz", &[("mass.npy", mass8()), ("bodies.npy", npy("<f4", "(0, 9)", &[]))]);
    // A free body a million times as dense as the fluid.
    let dense: Vec<u8> = [0.0f32, 3.0, 3.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1e6, 0.0, 0.0, 0.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    zip(
        "body-dense.npz",
        &[("density.npy", npy("<f4", "(6, 8)", &[0u8; 192])), ("bodies.npy", npy("<f4", "(1, 13)", &dense))],
    );
    zip("huge-step.npz", &[("mass.npy", mass8()), ("step.npy", npy("<u8", "()", &u64::MAX.to_le_bytes()))]);
    std::fs::create_dir_all(p("scripts")).unwrap();
    std::fs::write(p("scripts/beside.toml"), "scene = \"green.png\"\n[[action]]\nat = 2\nquit = true\n").unwrap();
    image::RgbImage::from_fn(12, 8, |x, _| if x == 0 { image::Rgb([0, 0, 0]) } else { image::Rgb([255; 3]) })
        .save(p("scripts/green.png"))
        .unwrap();
}

#[test]
fn hostile_input_table() {
    let dir = tempfile::tempdir().unwrap();
    // The adapter's largest texture side: lavapipe's 16384, 32768 on many GPUs.
    let side = common::gpu().device.limits().max_texture_dimension_2d as usize;
    fixtures(dir.path(), side);
    let d = |n: &str| dir.path().join(n).to_str().unwrap().to_string();
    let square = format!("{side}x{side}");
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let (dirpath, out) = (d("a-directory"), d("out.npz"));
    let mut rows = vec![
        // Smoke's staggered-grid options and files.
        row(&["run", "--mode", "smoke", "--grid", "collocated"], 2, "--advection semi-lagrangian"),
        row(&["run", "--mode", "smoke", "--pipeline", "rideout", "--solver", "multigrid"], 2, "use --solver jacobi"),
        row(&["run", "--mode", "smoke", "--pipeline", "gpu-gems", "--lid", "1"], 2, "the moving lid"),
        row(&["run", "--mode", "smoke", "--pipeline", "gpu-gems", "--reynolds", "100"], 2, "drop --reynolds"),
        row(&["run", "--mode", "smoke", "--tolerance", "0"], 2, "never reached in f32"),
        row(&["run", "--mode", "smoke", "--max-cycles", "0"], 2, "skips the pressure solve"),
        row(&["run", "--mode", "smoke", "--vorticity", "-1"], 2, "damps the swirls"),
        row(&["run", "--mode", "smoke", "--viscosity", "-1"], 2, "amplifies every wavelength"),
        row(&["run", "--mode", "smoke", "--reynolds", "0"], 2, "Reynolds number of a flow is > 0"),
        row(&["run", "--mode", "smoke", "--dye-hue", "400"], 2, "hues run from 0"),
        row(&["run", "--mode", "smoke", "--steady", "0"], 2, "must be a number > 0"),
        row(&["run", "--mode", "smoke", "--steady", "NaN"], 2, "must be a number > 0"),
        row(&["run", "--mode", "water", "--steady", "1e-5"], 2, "--steady compares smoke's velocity"),
        // The box's edges.
        row(&["run", "--mode", "smoke", "--left-edge", "door"], 2, "is not one of wall, inflow, outflow, slip"),
        row(&["run", "--mode", "smoke", "--left-edge", "inflow", "--inflow", "-1"], 2, "an inflow runs into the box"),
        row(&["run", "--mode", "smoke", "--top-edge", "outflow", "--lid", "1"], 2, "the lid moves the top edge"),
        row(&["run", "--mode", "smoke", "--top-edge", "slip", "--lid", "1"], 2, "which is set to slip"),
        row(&["run", "--mode", "smoke", "--pipeline", "gpu-gems", "--right-edge", "outflow"], 2, "--right-edge wall"),
        row(&["run", "--mode", "smoke", "--inflow", "2"], 2, "this run has none"),
        row(&["run", "--mode", "water", "--left-edge", "inflow"], 2, "--left-edge is a smoke and gas option"),
        row(&["run", "--mode", "gas", "--left-edge", "inflow", "--inflow", "1"], 2, "allowed: [0, 0.25] cells/step"),
        row(
            &["run", "--mode", "gas", "--left-edge", "inflow", "--inflow", "0.25"],
            2,
            "at most 0.2 cells/step with the linear",
        ),
        row(
            &["run", "--mode", "gas", "--inflow-density", "2"],
            2,
            "--inflow-density is the gas entering through inflow edges",
        ),
        row(
            &["run", "--mode", "gas", "--top-edge", "inflow", "--inflow-density", "0"],
            2,
            "below half the ambient density",
        ),
        row(&["run", "--scene", "tunnel", "--inflow", "nan"], 2, "it must be a finite number"),
        // Bodies.
        row(&["run", "--mode", "smoke", "--body", "star:x=1,y=1"], 2, "unknown shape 'star'"),
        row(&["run", "--mode", "smoke", "--body", "circle:x=1,y=1"], 2, "'r' is missing"),
        row(&["run", "--mode", "smoke", "--body", "circle:x=1,y=1,r=-2"], 2, "r must be positive"),
        row(&["run", "--mode", "smoke", "--body", "circle:x=1,y=1,r=2,vx=nan"], 2, "vx must be finite"),
        row(
            &["run", "--mode", "water", "--body", "circle:x=5,y=5,r=2,vx=0.6"],
            2,
            "bodies in water move at most 0.5 cells/step",
        ),
        row(
            &["run", "--mode", "gas", "--body", "circle:x=5,y=5,r=2,vx=1"],
            2,
            "gas bodies move at most 0.25 cells/step",
        ),
        row(
            &["run", "--mode", "gas", "--body", "box:x=9,y=9,w=20,h=2,spin=0.1"],
            2,
            "body 0 moves at 1.005 cells/step",
        ),
        row(
            &["run", "--mode", "smoke", "--pipeline", "gpu-gems", "--body", "box:x=5,y=5,w=2,h=2"],
            2,
            "staggered grid",
        ),
        row(&["run", "--load", &d("half-faces.npz"), "--mode", "smoke"], 1, "come in pairs"),
        row(
            &["run", "--load", &d("plan-half.npz"), "--mode", "smoke"],
            1,
            "\"v_cycle_plan_started\": is missing: the V-cycle plan's",
        ),
        row(
            &["run", "--load", &d("plan-zero.npz"), "--mode", "smoke"],
            1,
            "\"v_cycles\": = 0: a step runs at least 1 V-cycle",
        ),
        row(&["run", "--load", &d("plan-order.npz"), "--mode", "smoke"], 1, "last planned after it started"),
        row(&["run", "--mode", "smoke", "--load", &d("body-row.npz")], 1, "a body is a row of 13"),
        row(&["run", "--mode", "smoke", "--load", &d("body-kind.npz")], 1, "row 0: a body's kind is 7"),
        row(&["run", "--mode", "gas", "--load", &d("body-kind.npz")], 1, "row 0: a body's kind is 7"),
        // Smoke and gas both save bodies: the table alone does not say which model a file is.
        row(&["run", "--load", &d("body-row.npz")], 1, "do not say which model it is a state of: give --mode"),
        row(&["run", "--load", &d("face-shape.npz"), "--mode", "smoke"], 1, "(H, W + 1)"),
        row(&["run", "--load", &d("params-unknown.npz")], 1, "line 2: smoke has no parameter \"swirl\""),
        row(&["run", "--load", &d("params-range.npz")], 1, "line 1: "),
        row(&["run", "--load", &d("params-rule.npz")], 1, "lid"),
        row(&["run", "--load", &d("params-line.npz")], 1, "is not `name = value`"),
        row(&["run", "--load", &d("params-numbers.npz")], 1, "expected text as a 1-d uint8 array"),
        row(&["run", "--load", &d("negative-dye.npz")], 1, "dye[3, 4] = -0.5"),
        // Outputs are checked before the first step.
        row(&["run", "--steps", "5000", "--save", &dirpath], 2, "is a directory"),
        row(&["run", "--steps", "5", "--save", "/proc/eddy-test.npz"], 2, "cannot create files in its folder"),
        row(&["run", "--steps", "5", "--save", "/dev/full"], 2, "not a regular file"),
        row(
            &["run", "--steps", "5", "--frames", "/proc/eddy-frames"],
            2,
            "/proc/eddy-frames: cannot create this folder",
        ),
        row(&["view", "--frames", "1", "--screenshot", &dirpath], 2, "is a directory"),
        // Scripts, GIFs and colour maps: refused before the first step.
        row(&["run", "--script", &d("missing.toml")], 2, "cannot read script"),
        row(&["run", "--script", &d("bad-param.toml")], 2, "water has no parameter \"dt\""),
        row(&["run", "--script", &d("backwards.toml")], 2, "before the one above it"),
        row(
            &["run", "--script", &d("central.toml")],
            2,
            "action 1 (step 3: set = { flux = central, pressure = 0.02 })",
        ),
        row(
            &[
                "run",
                "--script",
                &d("central.toml"),
                "--diffusion",
                "0.1",
                "--reconstruction",
                "constant",
                "--steps",
                "4",
            ],
            0,
            "step 3: gas: pressure 0.05 -> 0.02, flux rusanov -> central",
        ),
        row(
            &["run", "--script", &d("not-toml.toml")],
            2,
            "not-toml.toml: line 1, column 14 (`bad-param = [`): unclosed array",
        ),
        row(&["view", "--script", &d("writes-dir.toml")], 2, "the script writes"),
        row(&["run", "--steps", "5", "--gif", &dirpath], 2, "is a directory"),
        row(&["run", "--steps", "5", "--gif", &d("frames.png")], 2, "give a path ending in .gif"),
        row(&["run", "--steps", "5", "--gif-every", "0"], 2, "--gif-every must be at least 1"),
        // Videos and frame rates: the format's limits, before the first step.
        row(&["run", "--steps", "5", "--video", &d("clip.gif")], 2, "clip.gif: give a path ending in .mp4"),
        row(&["run", "--steps", "5", "--video-every", "0"], 2, "--video-every must be at least 1"),
        row(&["run", "--steps", "5", "--fps", "30"], 2, "--fps sets how fast --gif and --video play"),
        row(&["run", "--steps", "5", "--gif", &d("f.gif"), "--fps", "0"], 2, "a GIF plays at 1 to 50 frames/s, not 0"),
        row(&["run", "--steps", "5", "--gif", &d("f.gif"), "--fps", "60"], 2, "record a video (.mp4) for up to 60"),
        row(
            &["run", "--steps", "5", "--video", &d("f.mp4"), "--fps", "NaN"],
            2,
            "a video plays at 1 to 60 frames/s, not NaN",
        ),
        row(&["run", "--steps", "5", "--video", &d("f.mp4"), "--fps", "120"], 2, "a video plays at 1 to 60 frames/s"),
        row(
            &["run", "--steps", "5", "--video", &d("f.mp4"), "--size", "1000x600", "--scale", "4"],
            2,
            "--video: a video's frames are at most 3840x2160 (or 2160x3840) pixels (H.264 level 5.2, what OpenH264 encodes), and these would be 4000x2400",
        ),
        row(&["run", "--script", &d("video-gif.toml")], 2, "action 1: video \"v.gif\": give a path ending in .mp4"),
        row(&["run", "--script", &d("gif-fps.toml")], 2, "action 1: gif: a GIF plays at 1 to 50 frames/s, not 60"),
        row(
            &["run", "--script", &d("big-video.toml"), "--size", "2200x100", "--scale", "2"],
            2,
            "and these would be 4400x200",
        ),
        row(&["run", "--steps", "5", "--colour-map", "jet"], 2, "the maps are own, inferno"),
        row(&["view", "--colour-map", "jet"], 2, "not a colour map"),
        row(&["run", "--steps", "5", "--look", "lit"], 2, "\"lit\" is not a look; the looks are map"),
        row(&["view", "--look", ""], 2, "is not a look"),
        row(&["run", "--script", &d("shiny-look.toml")], 2, "action 1: \"shiny\" is not a look"),
        // A custom inflow profile needs speeds to keep.
        row(
            &[
                "run",
                "--mode",
                "smoke",
                "--left-edge",
                "inflow",
                "--right-edge",
                "outflow",
                "--inflow-profile",
                "custom",
            ],
            2,
            "--inflow-profile custom keeps the speeds the inflow faces hold, and this run's are all 0",
        ),
        // --forces: a model with bodies that feel forces, a .csv, a path of its own.
        row(
            &["run", "--steps", "5", "--forces", &d("f.csv")],
            2,
            "--forces: water logs the forces on its bodies, and this run has none",
        ),
        row(&["run", "--mode", "smoke", "--steps", "5", "--forces", &d("f.txt")], 2, "--forces"),
        row(
            &["run", "--mode", "smoke", "--steps", "5", "--forces", &d("same.npz"), "--save", &d("same.npz")],
            2,
            "--forces",
        ),
        row(
            &["run", "--mode", "smoke", "--pipeline", "gpu-gems", "--steps", "5", "--forces", &d("f.csv")],
            2,
            "--forces: smoke's collocated grid has no bodies",
        ),
        // --hashes and --check-hashes: a .csv of its own, a log that is one and reaches the run.
        row(&["run", "--steps", "5", "--hashes", &d("h.txt")], 2, "give a path ending in .csv"),
        row(&["run", "--steps", "5", "--hashes", &d("hs.csv"), "--forces", &d("hs.csv")], 2, "--hashes names the same"),
        row(&["run", "--steps", "5", "--hashes", &d("h.csv"), "--hash-every", "0"], 2, "at least 1 step"),
        row(&["run", "--steps", "5", "--hash-every", "2"], 2, "give --hashes too"),
        row(&["run", "--steps", "5", "--check-hashes", &d("missing.csv")], 2, "--check-hashes"),
        row(&["run", "--steps", "5", "--check-hashes", &d("not-a-log.csv")], 2, "not a hash log"),
        row(
            &["run", "--steps", "5", "--check-hashes", &d("bad-row.csv")],
            2,
            "line 3 (\"1,xyz\") has no hash of 16 hex",
        ),
        row(&["run", "--steps", "5", "--check-hashes", &d("backwards.csv")], 2, "a log's steps increase"),
        row(&["run", "--steps", "5", "--check-hashes", &d("later.csv")], 2, "no step to compare"),
        row(&["run", "--steps", "5", "--check-hashes", &d("empty-log.csv")], 2, "write one with eddy run --hashes"),
        row(
            &["run", "--steps", "5", "--hashes", &d("h.csv"), "--script", &d("resets.toml")],
            2,
            "the script's reset at step 3 takes the step count back",
        ),
        // Every state eddy saves loads back: no negative density.
        row(&["run", "--mode", "smoke", "--impulse-density", "-5"], 2, "smoke density is >= 0"),
        // Sizes: refused before allocating, one line, with what fits.
        // Smoke and gas at the adapter's largest square (lavapipe's 16384x16384) outgrow its
        // largest buffer or the host's memory. (Water there runs where memory allows: since its
        // step packs four cells a texel, its largest texture is 1 GiB at 16384.)
        row(&["run", "--mode", "smoke", "--size", &square, "--steps", "1"], 2, "fits"),
        row(&["run", "--mode", "gas", "--size", &square, "--steps", "1"], 2, "fits"),
        row(&["run", "--scene", "basin", "--size", "0x10", "--steps", "1"], 2, "0x10"),
        row(&["run", "--scene", "basin", "--size", "100000x64", "--steps", "1"], 2, "1..=65536 cells across"),
        row(&["run", "--mode", "smoke", "--size", "20000x64", "--steps", "1"], 2, "max_texture_dimension_2d"),
        // Water past the largest texture side runs packed, in pages past it down.
        row(&["run", "--scene", "basin", "--size", "64x70000", "--steps", "1"], 2, "1..=65536 down"),
        row(
            &["run", "--scene", "basin", "--size", "20000x16", "--steps", "1", "--frames", &d("frames")],
            2,
            "past this adapter's largest texture side (16384): record a smaller world",
        ),
        // Non-finite values stop the run and keep the last finite state.
        row(
            &["run", "--load", &d("hot.npz"), "--steps", "50", "--save", &out],
            1,
            "the last finite state (step 0) is saved",
        ),
        // Bench bounds.
        row(&["bench", "--seconds", "inf"], 2, "--seconds"),
        row(&["bench", "--mode", "gas", "--worlds", "1024x1024"], 2, "the pond in a world is water's"),
        row(&["bench", "--worlds", "2048x300"], 2, "give both sides above 512"),
        row(&["bench", "--worlds", "70000x1024"], 2, "1..=65536 cells across"),
        row(&["bench", "--seconds", "NaN"], 2, "--seconds"),
        row(&["bench", "--runs", "0"], 2, "allowed 1..=100 timed runs"),
        row(&["bench", "--sizes", "0"], 2, "grid sides >= 1"),
        // Options, presets and starts that do not fit together.
        row(&["run", "--mode", "water", "--dt", "5"], 2, "--dt is a smoke option"),
        row(&["run", "--mode", "water", "--wind", "0.4,0"], 2, "--wind is a gas option"),
        row(&["run", "--mode", "water", "--scene", "plume"], 2, "plume is a smoke preset"),
        row(&["run", "--scene", "basin", "--load", &d("smoke.npz")], 2, "--scene and --load"),
        row(&["run", "--load", &d("smoke.npz"), "--steps", "2"], 0, "smoke: state"),
        row(&["run", "--scene", "wind", "--steps", "2"], 0, "gas: preset wind"),
        row(&["run", "--mode", "water", "--load", &d("smoke.npz")], 1, "holds a smoke state"),
        row(&["run", "--load", &d("density-only.npz")], 1, "give --mode"),
        // Every reason true.
        row(&["run", "--mode", "smoke", "--dt", "11"], 2, "largest dt"),
        row(&["run", "--mode", "smoke", "--dt", "0"], 2, "does not advance"),
        row(&["run", "--mode", "smoke", "--velocity-dissipation", "-0.5"], 2, "negative factor"),
        row(&["run", "--mode", "smoke", "--velocity-dissipation", "1.5"], 2, "grows every step"),
        row(&["run", "--mode", "smoke", "--dt", "inf"], 2, "it must be a finite number"),
        // A rejected value is shown with every digit, not rounded into the range.
        row(&["run", "--mode", "smoke", "--dt", "10.00001"], 2, "dt = 10.00001"),
        row(&["run", "--mode", "smoke", "--jacobi", "0"], 2, "skips the pressure solve"),
        row(&["run", "--mode", "smoke", "--buoyancy", "NaN"], 2, "it must be a finite number"),
        row(&["run", "--mode", "smoke", "--cell-size", "-1"], 2, "cell sizes from 1e-3 to 1e3"),
        row(&["run", "--mode", "smoke", "--cell-size", "1e30"], 2, "h^2 overflows f32"),
        row(&["run", "--scene", "cavity", "--lid", "1e30"], 2, "faster lids than 100"),
        // Finite but too large: the sums overflow f32.
        row(&["run", "--load", &d("huge.npz"), "--steps", "5"], 1, "the starting state's total is inf in f32"),
        row(&["run", "--mode", "smoke", "--splat-radius", "0"], 2, "a splat needs a radius > 0"),
        row(&["run", "--mode", "gas", "--diffusion", "0.5"], 2, "stability limit of 4-way faces"),
        row(&["run", "--mode", "gas", "--diffusion", "-0.1"], 2, "negative diffusion"),
        row(&["run", "--mode", "gas", "--pressure", "-1"], 2, "near-vacuum wakes"),
        row(&["run", "--mode", "gas", "--pressure", "0"], 2, "near-vacuum wakes"),
        // Limits that depend on another parameter (GasParams::check_together).
        row(
            &["run", "--mode", "gas", "--flux", "central"],
            2,
            "--diffusion in [0.1, 0.15] and --pressure in [0.015, 0.02]",
        ),
        // The order of the options does not matter to limits that tie them together.
        row(
            &[
                "run",
                "--mode",
                "gas",
                "--steps",
                "1",
                "--flux",
                "central",
                "--pressure",
                "0.02",
                "--diffusion",
                "0.1",
                "--reconstruction",
                "constant",
            ],
            0,
            "gas: preset explosion",
        ),
        row(&["run", "--mode", "gas", "--flux", "central", "--diffusion", "0.1"], 2, "pressure in [0.015, 0.02]"),
        // The linear reconstruction (the default) and what it allows.
        row(
            &["run", "--mode", "gas", "--flux", "central", "--pressure", "0.02", "--diffusion", "0.1"],
            2,
            "the linear reconstruction needs the Rusanov flux",
        ),
        row(
            &["run", "--mode", "gas", "--friction", "0.05"],
            2,
            "friction = 0.05: at most 0.02 with the linear reconstruction",
        ),
        row(&["run", "--mode", "gas", "--wind", "0.25,0"], 2, "above 0.2 cells/step with the linear reconstruction"),
        row(&["run", "--mode", "gas", "--reconstruction", "quadratic"], 2, "constant, linear"),
        row(&["run", "--mode", "gas", "--wind", "0.25,0.25"], 2, "speed 0.3536 is above 0.2 cells/step"),
        row(&["run", "--mode", "gas", "--wind", "2,0"], 2, "the x component"),
        row(&["run", "--mode", "gas", "--neighbours", "6"], 2, "not one of 4, 8"),
        row(&["run", "--scene", "basin", "--side-share", "2"], 2, "oscillate"),
        row(&["run", "--scene", "basin", "--max-speed", "NaN"], 2, "max-speed = NaN"),
        row(&["run", "--mode", "gas", "--field", "temperature"], 2, "not a gas field"),
        row(&["run", "--every", "0"], 2, "--every must be at least 1"),
        row(&["run", "--scale", "0"], 2, "0 is not in 1..=64"),
        row(&["view", "--scale=-3"], 2, "see `eddy view --help`"),
        row(&["bench", "--runs", "x"], 2, "see `eddy bench --help`"),
        row(&["view", "--steps-per-frame", "100000"], 2, "freezes the window"),
        // Outputs that would destroy something or mislead.
        row(&["run", "--steps", "5", "--save", &d("read-only.npz")], 2, "is read-only"),
        row(&["run", "--steps", "5", "--save", &d("scene.png")], 2, "give a path ending in .npz"),
        row(&["view", "--frames", "1", "--screenshot", &d("w.npz")], 2, "give a path ending in .png"),
        row(&["run", "--steps", "5", "--save", &d("same.npz"), "--frames", &d("same.npz")], 2, "the same path"),
        row(&["run", "--steps", "5", "--frames", &d("a-file")], 2, "is a file, not a folder"),
        row(&["run", "--steps", "5", "--save", &d("a-file/x.npz")], 2, "its folder is a file"),
        row(&["run", "--steps", "5", "--frames", &d("old-frames")], 2, "already holds 1 frame_*.png files"),
        row(&["run", "--steps", "5", "--save", &format!("{}/", d("x.npz"))], 2, "ends in a path separator"),
        row(&["run", "--steps", "5", "--save", &d(&format!("{}.npz", "a".repeat(300)))], 2, "above the 255"),
        // Options that would do nothing.
        row(&["run", "--load", &d("smoke.npz"), "--size", "64x48"], 2, "a loaded state has its own"),
        row(&["run", "--scene", &d("red.png"), "--mode", "gas", "--size", "64x48"], 2, "a PNG scene has its own"),
        row(&["run", "--scene", "basin", "--seed", "3"], 2, "--seed only seeds the `random` preset"),
        row(&["run", "--scene", "BASIN", "--steps", "2", "--size", "32x24"], 0, "preset basin"),
        row(&["view", "--size", "0x0"], 2, "each side must be at least 1 cell"),
        row(&["run", "--mode", "gas", "--size", "11585x11585", "--steps", "1"], 2, "a texture of 2147395600 bytes"),
        row(&["bench", "--sizes", "64,70000", "--runs", "1", "--seconds", "0.01"], 2, "70000x70000"),
        // Files eddy cannot start from.
        row(&["run", "--load", &d("two-models.npz")], 1, "more than one model"),
        row(&["run", "--load", &d("negative-step.npz")], 1, "a step count is >= 0"),
        row(&["run", "--load", &d("empty.npz")], 1, "at least one cell"),
        row(&["run", "--load", &d("last-step.npz"), "--steps", "3"], 2, "the largest step a .npz holds"),
        row(&["run", "--scene", &d("wide.png")], 1, "a grid is at most 131072x131072 cells"),
        row(&["run", "--load", &dirpath], 1, "is a directory; give an .npz file"),
        row(&["run", "--scene", &dirpath, "--steps", "1"], 1, "is a directory; give a PNG file"),
        row(&["run", "--mode", "gas", "--wind", "0,0,0"], 2, "two numbers"),
        // What clap refuses: one line, exit 2.
        row(&["view", "--screenshot", &d("only.png")], 2, "--frames"),
        row(&["run", "--bogus"], 2, "unexpected argument"),
        row(&["run", "--steps", "abc"], 2, "invalid value"),
        row(&["run", "--mode", "lava"], 2, "not a model"),
        // Files.
        row(&["run", "--scene", &d("missing.png"), "--steps", "1"], 1, "No such file"),
        row(&["run", "--scene", &d("corrupt.png"), "--steps", "1"], 1, "not a readable PNG"),
        row(&["run", "--scene", &d("green.png"), "--steps", "1"], 1, "pixel (x=5, y=0)"),
        row(&["run", "--mode", "water", "--scene", &d("red.png"), "--steps", "1"], 1, "pixel (x=2, y=0)"),
        row(&["run", "--mode", "gas", "--scene", &d("red.png"), "--steps", "1"], 0, "total momentum"),
        row(&["run", "--mode", "smoke", "--scene", &d("red.png"), "--steps", "3"], 0, "total density"),
        row(&["run", "--scene", "no-such-preset", "--steps", "1"], 1, "presets are: basin"),
        row(&["run", "--load", &d("missing.npz"), "--steps", "1"], 1, "missing.npz"),
        row(&["run", "--load", &d("corrupt.npz"), "--steps", "1"], 1, "not a readable .npz"),
        row(&["run", "--load", &d("nan.npz"), "--steps", "1"], 1, "mass[2, 3] = NaN"),
        row(&["run", "--load", &d("neg.npz"), "--steps", "1"], 1, "mass[2, 3] = -1"),
        // Inputs that would eat the machine: refused from a header or a length, before reading.
        row(&["run", "--load", &d("huge-header.npz")], 1, "declares shape [20000, 20000] (1600000000 bytes) in"),
        row(&["run", "--load", &d("too-wide.npz")], 1, "a side of 140000 cells is more than"),
        row(&["run", "--load", &d("tall.npz")], 2, leak(format!("tall.npz: water world 4x{}", 4 * side + 1))),
        row(&["run", "--scene", "/dev/zero"], 1, "/dev/zero: is not a regular file"),
        row(&["run", "--script", "/dev/zero"], 2, "/dev/zero: is not a regular file"),
        row(&["run", "--scene", &d("sparse.png")], 1, "is 3221225472 bytes, more than the 268435456 bytes a PNG file"),
        row(&["run", "--script", &d("sparse.toml")], 2, "is 3221225472 bytes, more than the 1048576 bytes"),
        // Messages that name the right array.
        row(&["run", "--load", &d("int32-step.npz"), "--steps", "1"], 0, "(step 7)"),
        row(&["run", "--load", &d("object-step.npz")], 1, "array \"step\""),
        row(&["run", "--load", &d("not-eddy.npz")], 1, "holds none of eddy's state arrays (arrays: weights"),
        row(&["run", "--load", &d("bad-velocity-x.npz"), "--mode", "smoke"], 1, "array \"velocity_x\": shape (6, 10)"),
        row(&["run", "--load", &d("nan-velocity-x.npz"), "--mode", "smoke"], 1, "velocity_x[2, 2] = NaN"),
        // Scripts: outputs as the command line checks them, one writer per file, times that come.
        row(&["run", "--script", &d("jpg.toml")], 2, "screenshot \"shot.jpg\": give a path ending in .png"),
        row(&["run", "--script", &d("txt.toml")], 2, "save \"state.txt\": give a path ending in .npz"),
        row(&["run", "--script", &d("two-gifs.toml"), "--steps", "10"], 2, "the script records twice into"),
        row(&["run", "--script", &d("one-gif.toml"), "--gif", &d("twice.gif")], 2, "the script and --gif both write"),
        row(&["run", "--script", &d("forever.toml")], 2, "a script's times go up to 1000000000000"),
        row(&["run", "--script", &d("scripts/beside.toml")], 0, "scripts/green.png (12x8 cells)"),
        // Options that would be silently ignored, or silently overridden: refused, all at once.
        row(&["run", "--mode", "smoke", "--tolerance", "1e-3"], 2, "--tolerance is the multigrid solve's"),
        row(
            &["run", "--mode", "smoke", "--pipeline", "gpu-gems", "--tolerance", "1e-3"],
            2,
            "which runs on the staggered grid only",
        ),
        // A script that switches to multigrid makes --tolerance count from its step on.
        row(
            &["run", "--script", &d("to-multigrid.toml"), "--tolerance", "1e-3", "--steps", "4"],
            0,
            "solver jacobi -> multigrid",
        ),
        row(
            &["run", "--mode", "smoke", "--max-cycles", "5", "--tolerance", "1e-3"],
            2,
            "drop --tolerance; --max-cycles is",
        ),
        row(
            &["run", "--mode", "smoke", "--solver", "multigrid", "--jacobi", "80"],
            2,
            "--jacobi counts Jacobi iterations",
        ),
        row(&["run", "--mode", "smoke", "--gradient-scale", "1.2"], 2, "the staggered grid's is exact"),
        row(&["run", "--mode", "smoke", "--reynolds", "100", "--viscosity", "0.1"], 2, "--viscosity is overridden"),
        row(&["run", "--scene", "cavity", "--viscosity", "0.1"], 2, "--viscosity is overridden"),
        row(
            &["run", "--mode", "smoke", "--grid", "collocated"],
            2,
            "MacCormack advection, vorticity confinement are built on the staggered grid's faces",
        ),
        row(&["run", "--mode", "smoke", "--pipeline", "gpu-gems", "--reynolds", "100"], 2, "reynolds = 100:"),
    ];
    // No Vulkan: the GL adapter is passed over for smoke (or there is none), with the hint.
    let mut gl = row(&["run", "--mode", "smoke", "--steps", "2"], 1, "apt-get install mesa-vulkan-drivers");
    gl.env.push(("WGPU_BACKEND", "gl"));
    rows.push(gl);
    // A backend name wgpu does not know: eddy's one line, not wgpu's two warnings.
    let mut bogus = row(&["run", "--steps", "1"], 1, "WGPU_BACKEND=\"bogus\": \"bogus\" is not a backend");
    bogus.env.push(("WGPU_BACKEND", "bogus"));
    rows.push(bogus);
    // Parameters past where the model holds (measured; see the rows' ranges).
    rows.push(row(&["run", "--mode", "smoke", "--buoyancy", "1e20"], 2, "above 1000 the plume rises faster"));
    rows.push(row(&["run", "--mode", "smoke", "--weight", "-5000"], 2, "below -1000 dense smoke rises"));
    rows.push(row(
        &["run", "--mode", "smoke", "--pipeline", "gpu-gems", "--gradient-scale=-5"],
        2,
        "a negative scale adds divergence",
    ));
    // Seventeen bodies: one more than a model holds.
    rows.extend([
        // Inflow with nowhere to go: smoke is incompressible.
        row(
            &[
                "run",
                "--mode",
                "smoke",
                "--left-edge",
                "inflow",
                "--right-edge",
                "inflow",
                "--top-edge",
                "inflow",
                "--bottom-edge",
                "inflow",
            ],
            2,
            "has no way out without an outflow edge",
        ),
        row(
            &["run", "--mode", "smoke", "--left-edge", "inflow", "--right-edge", "inflow", "--inflow", "100"],
            2,
            "the left and right edges at 100 cells/time unit",
        ),
        row(&["run", "--scene", "channel", "--right-edge", "wall"], 2, "(--right-edge outflow), or give --inflow 0"),
        row(&["run", "--script", &d("channel-wall.toml")], 2, "action 1 (step 2: set = { right-edge = wall })"),
        // The viewer finds it when its session starts, and exits as `run` does.
        row(
            &["view", "--script", &d("channel-wall.toml")],
            2,
            "channel-wall.toml: action 1 (step 2: set = { right-edge = wall })",
        ),
        // An inflow of 0 pushes nothing in: the edges are walls in effect, and it runs.
        row(
            &["run", "--mode", "smoke", "--size", "24x16", "--left-edge", "inflow", "--inflow", "0", "--steps", "2"],
            0,
            "ran 2 steps",
        ),
        // A multigrid that stops at its cycle cap says so.
        row(
            &[
                "run",
                "--mode",
                "smoke",
                "--size",
                "32x24",
                "--solver",
                "multigrid",
                "--max-cycles",
                "1",
                "--tolerance",
                "1e-6",
                "--steps",
                "3",
            ],
            0,
            "warning: the multigrid solve stopped at its cap of 1 V-cycles short of the tolerance",
        ),
        // The collocated grid lists what it lacks once, however many edges lack it.
        row(
            &["run", "--mode", "smoke", "--grid", "collocated", "--left-edge", "slip", "--right-edge", "slip"],
            2,
            "inflow, outflow and slip edges are built on",
        ),
        // Script body actions are played in advance.
        row(&["run", "--script", &d("fast-water-body.toml")], 2, "action 1 (step 2: body = \"circle:r=2,x=5,y=5"),
        row(&["run", "--script", &d("fast-water-body.toml")], 2, "bodies in water move at most 0.5 cells/step"),
        row(&["run", "--script", &d("body-17.toml")], 2, "action 17 (step 1: body = "),
        row(&["run", "--script", &d("body-17.toml")], 2, "17 bodies: a model holds at most 16"),
        row(&["run", "--script", &d("drive-none.toml")], 2, "no body 3: this model has 0"),
        row(&["run", "--script", &d("remove-none.toml")], 2, "action 1 (step 1: remove-body = 0): smoke: no body 0"),
        row(&["run", "--script", &d("collocated-bodies.toml")], 2, "bodies move on the staggered grid"),
        row(&["run", "--script", &d("fast-gas-body.toml")], 2, "action 2 (step 2: drive = { body = 0, vx = 0.5"),
        // Smoke bodies are bounded as gas bodies are.
        row(&["run", "--mode", "smoke", "--body", "circle:x=5,y=5,r=2,vx=1e6"], 2, "body 0 moves 125000 cells a step"),
        row(&["run", "--mode", "smoke", "--body", "circle:x=5,y=5,r=1e30"], 2, "its size is 1.00e30 cells"),
        row(&["run", "--mode", "smoke", "--body", "circle:x=5,y=5,r=2,spin=1e30"], 2, "smoke bodies move at most 2"),
        row(&["run", "--mode", "smoke", "--body", "circle:x=1e9,y=5,r=2"], 2, "x is 1.00e9 cells"),
        // Bodies tables.
        row(&["run", "--mode", "smoke", "--load", &d("body-flat.npz")], 1, "has shape (9,): a bodies table is (N, 13)"),
        row(&["run", "--mode", "smoke", "--load", &d("body-dense.npz")], 1, "row 0: density 1000000: a free body is"),
        // Free bodies: a density in range, smoke only.
        row(
            &["run", "--mode", "smoke", "--body", "circle:x=5,y=5,r=2,density=0"],
            2,
            "density 0: a free body is 0.001",
        ),
        row(&["run", "--mode", "smoke", "--body", "circle:x=5,y=5,r=2,density=-1"], 2, "density -1: a free body is"),
        row(&["run", "--mode", "gas", "--body", "circle:x=5,y=5,r=2,density=2", "--steps", "3"], 0, "ran 3 steps"),
        row(
            &["run", "--mode", "gas", "--body", "circle:x=5,y=5,r=2,density=2,vx=0.3"],
            2,
            "gas bodies move at most 0.25 cells/step",
        ),
        row(&["run", "--mode", "smoke", "--load", &d("body-empty.npz"), "--steps", "1"], 0, "ran 1 steps"),
        row(&["run", "--mode", "water", "--load", &d("water-bodies.npz"), "--steps", "1"], 0, "ran 1 steps"),
        row(&["run", "--load", &d("huge-step.npz")], 1, "a step count is at most 2^63 - 1"),
        // Messages that say the value given.
        row(&["run", "--mode", "gas", "--wind", "0.2000001,0"], 2, "its speed 0.2000001 is above 0.2"),
        // Options that would do nothing on the scene, and a splat past any grid.
        row(&["run", "--scene", "cavity", "--dye-hue", "90"], 2, "--dye-hue colours the smoke of source cells"),
        row(&["run", "--scene", "cavity", "--splat-radius", "4"], 2, "--splat-radius sizes the plume scene's source"),
        row(&["run", "--scene", "tunnel", "--wind", "0.1,0"], 2, "--wind is the velocity source cells blow at"),
        row(&["run", "--mode", "smoke", "--splat-radius", "1e30"], 2, "a wider splat covers the largest grid whole"),
        // VTK output: its folder is checked before the first step, and never mixed with another run's.
        row(&["run", "--steps", "5", "--vtk", "/proc/eddy-vtk"], 2, "--vtk: /proc/eddy-vtk: cannot create this folder"),
        row(&["run", "--steps", "5", "--vtk", &d("a-file")], 2, "is a file, not a folder"),
        row(&["run", "--steps", "5", "--vtk", &d("old-vtk")], 2, "already holds 1 step_*.vti files"),
        row(&["run", "--steps", "5", "--vtk", &d("old-frames"), "--frames", &d("old-frames")], 2, "--frames: "),
        // `auto` unsets a parameter that may be unset, as the messages say.
        row(
            &[
                "run",
                "--scene",
                "cavity",
                "--size",
                "16x16",
                "--reynolds",
                "auto",
                "--viscosity",
                "0.1",
                "--steps",
                "1",
            ],
            0,
            "ran 1 steps",
        ),
        // bench: an unwritable --json is the command line's mistake, as run's --save.
        row(&["bench", "--json", "/proc/eddy-bench.json"], 2, "cannot create files in its folder"),
        row(&["bench", "--cpu-max-size", "0"], 2, "--cpu-max-size 0"),
    ]);
    let mut many = vec!["run", "--mode", "smoke"];
    for _ in 0..17 {
        many.extend(["--body", "circle:x=5,y=5,r=2"]);
    }
    rows.push(row(&many, 2, "17 bodies: a model holds at most 16"));
    // No display: one line that says what to do, no source path.
    let mut headless = row(&["view", "--frames", "1"], 1, "set DISPLAY");
    headless.remove.extend(["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]);
    rows.push(headless);

    let tmp = format!("{}/", dir.path().display());
    let mut failures = Vec::new();
    for r in &rows {
        let o = eddy(&r.args, &r.env, &r.remove);
        let (stdout, stderr) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        // The table as a person reads it (`cargo test --test hostile -- --nocapture`): the
        // command without the temporary folder, its exit status and its error line.
        let shown: Vec<String> = r.args.iter().map(|a| a.replace(&tmp, "")).collect();
        let said = stderr.lines().find(|l| l.starts_with("eddy: error: ")).unwrap_or("");
        let env: String = r.env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
        let unset: String = r.remove.iter().map(|k| format!("-u {k} ")).collect();
        let code = o.status.code().map_or("signal".to_string(), |c| c.to_string());
        println!("{unset}{env}eddy {} | {code} | {}", shown.join(" "), said.replace(&tmp, ""));
        let mut problems = Vec::new();
        if o.status.code() != Some(r.code) {
            problems.push(format!("exit {:?}, expected {}", o.status.code(), r.code));
        }
        if !stdout.contains(r.phrase) && !stderr.contains(r.phrase) {
            problems.push(format!("no {:?} in the output", r.phrase));
        }
        for bad in ["panicked", "XDG_RUNTIME_DIR", ".cargo/registry", "ZipWriter"] {
            if stderr.contains(bad) {
                problems.push(format!("stderr contains {bad:?}"));
            }
        }
        if r.code != 0 {
            let lines = stderr.lines().filter(|l| l.contains("error")).count();
            if lines != 1 || !stderr.lines().any(|l| l.starts_with("eddy: error: ")) {
                problems.push(format!("{lines} error lines, expected one `eddy: error: ...`"));
            }
        }
        if !problems.is_empty() {
            failures.push(format!("{:?}: {}\n  stderr: {}", r.args, problems.join("; "), stderr.trim()));
        }
    }
    assert!(failures.is_empty(), "{} of {} rows failed:\n{}", failures.len(), rows.len(), failures.join("\n"));

    // The run that blew up saved the last finite state, and it loads back.
    let (state, step) = eddy_fluid::model::AnyState::load_npz(Path::new(&out), None).unwrap();
    assert!(state.first_non_finite().is_none(), "the saved state is finite");
    assert_eq!(state.kind(), eddy_fluid::ModelKind::Smoke);
    assert!(step < 50, "saved at step {step}, before the blow-up");
}

#[test]
fn help_texts_say_what_eddy_does() {
    let o = eddy(&["--help".to_string()], &[], &[]);
    assert!(o.status.success());
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(!t.contains("to come"), "{t}");
    for word in ["smoke", "water", "gas", "view", "run", "bench", "Exit status"] {
        assert!(t.contains(word), "--help lacks {word}:\n{t}");
    }
    let t = String::from_utf8_lossy(&eddy(&["view".to_string(), "--help".to_string()], &[], &[]).stdout).to_string();
    for word in ["Right drag", "Shift", "Tab", "Space", "Esc", "F1", "d diffusion", "j jacobi", "pour water"] {
        assert!(t.contains(word), "view --help lacks {word}:\n{t}");
    }
    let t = String::from_utf8_lossy(&eddy(&["run".to_string(), "--help".to_string()], &[], &[]).stdout).to_string();
    // Every parameter of every model has its option, with its range and default.
    for kind in eddy_fluid::ModelKind::ALL {
        for p in kind.params() {
            assert!(t.contains(&format!("--{}", p.name)), "run --help lacks --{}", p.name);
        }
    }
    for word in [
        "--steps",
        "--save",
        "--frames",
        "--every",
        "--load",
        "--size",
        "--field",
        "--gif",
        "--video",
        "--fps",
        "--vtk",
        "allowed:",
        "(H, W, 2)",
        "smoke and gas (the box's edges)",
    ] {
        assert!(t.contains(word), "run --help lacks {word}:\n{t}");
    }
}

/// `eddy run` with `args`, saving to `save`; panics with its stderr unless it succeeds.
fn run_saving(args: &[&str], save: &Path) {
    let mut all: Vec<String> = std::iter::once("run").chain(args.iter().copied()).map(String::from).collect();
    all.extend(["--save".to_string(), save.to_str().unwrap().to_string()]);
    let o = eddy(&all, &[], &[]);
    assert!(o.status.success(), "{all:?}: {}", String::from_utf8_lossy(&o.stderr));
}

/// The second table: every model and solver run twice, the second time with frames every 7
/// steps (which cuts the run into other chunks between checks), and a script that switches to
/// multigrid; each pair of `.npz` files must be byte-identical, as the README promises.
#[test]
fn two_runs_of_the_same_input_save_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("multigrid.toml");
    std::fs::write(&script, "mode = \"smoke\"\n[[action]]\nat = 5\nset = { solver = \"multigrid\" }\n").unwrap();
    let script = script.to_str().unwrap();
    let cases: [(&str, &[&str]); 10] = [
        ("water", &["--mode", "water", "--steps", "200"]),
        ("water unity", &["--mode", "water", "--preset", "unity", "--scene", "u-tube", "--steps", "200"]),
        ("smoke jacobi", &["--mode", "smoke", "--size", "64x64", "--steps", "120"]),
        ("smoke multigrid", &["--mode", "smoke", "--size", "64x64", "--steps", "120", "--solver", "multigrid"]),
        ("smoke gpu-gems", &["--mode", "smoke", "--pipeline", "gpu-gems", "--size", "64x64", "--steps", "120"]),
        ("smoke cavity", &["--scene", "cavity", "--size", "48x48", "--steps", "150"]),
        ("smoke channel", &["--scene", "channel", "--size", "64x32", "--steps", "120"]),
        (
            "smoke bodies",
            &[
                "--mode",
                "smoke",
                "--size",
                "64x48",
                "--body",
                "circle:x=20,y=24,r=5,vx=1,vy=-0.3",
                "--body",
                "box:x=44,y=20,w=9,h=4,angle=0.3,spin=0.5",
                "--steps",
                "60",
            ],
        ),
        ("gas", &["--mode", "gas", "--scene", "explosion", "--size", "64x64", "--steps", "150"]),
        ("script to multigrid", &["--script", script, "--size", "64x64", "--steps", "120"]),
    ];
    for (label, args) in cases {
        let (a, b) = (dir.path().join(format!("{label}-a.npz")), dir.path().join(format!("{label}-b.npz")));
        run_saving(args, &a);
        let frames = dir.path().join(format!("{label}-frames"));
        let mut chunked = args.to_vec();
        chunked.extend(["--frames", frames.to_str().unwrap(), "--every", "7"]);
        run_saving(&chunked, &b);
        let (a, b) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
        assert!(a == b, "{label}: two runs of the same input saved different files");
        println!("{label} | {} bytes | identical", a.len());
    }
}

/// Standard output closed, full or a broken pipe: the run goes on and saves its state; a pipe
/// or a full disk is said once on stderr (exit 1); nothing panics.
#[test]
fn a_broken_or_full_stdout_never_loses_the_run() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let base = ["run", "--mode", "water", "--size", "48x32", "--steps", "400"];
    let spawn = |save: &Path, stdout: Stdio| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_eddy"));
        cmd.args(base).arg("--save").arg(save).stdout(stdout).stderr(Stdio::piped());
        cmd.spawn().expect("run eddy")
    };
    // A pipe whose reader has gone: the first write fails with EPIPE.
    let pipe = dir.path().join("pipe.npz");
    let child = spawn(&pipe, Stdio::piped());
    let mut child = child;
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    // /dev/full: every write fails with ENOSPC.
    let full = dir.path().join("full.npz");
    let f = spawn(&full, std::fs::File::create("/dev/full").unwrap().into()).wait_with_output().unwrap();
    // A closed descriptor 1: writes fail with EBADF, which the standard library takes as
    // success: the run saves and exits 0.
    let closed = dir.path().join("closed.npz");
    let line = format!("exec {:?} {} --save {:?} >&-", env!("CARGO_BIN_EXE_eddy"), base.join(" "), closed);
    let c = Command::new("sh").args(["-c", &line]).output().unwrap();
    assert_eq!(c.status.code(), Some(0), "closed stdout: {}", String::from_utf8_lossy(&c.stderr));
    assert_eq!(eddy_fluid::model::AnyState::load_npz(&closed, None).expect("saved").1, 400);
    for (what, path, o, kind) in [("broken pipe", &pipe, o, "broken pipe"), ("/dev/full", &full, f, "no storage space")]
    {
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{what}: {stderr}");
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
        assert!(stderr.contains(&format!("standard output failed ({kind})")), "{what}: {stderr}");
        let (_, step) = eddy_fluid::model::AnyState::load_npz(path, None).expect("the state was saved");
        assert_eq!(step, 400, "{what}");
        println!("{what} | exit 1 | {}", stderr.lines().last().unwrap_or(""));
    }
}

/// A folder in the working folder named like a preset does not hide the preset (it once gave
/// "is a directory; give a PNG file"); `./plume` still names the folder.
#[test]
fn a_folder_named_like_a_preset_leaves_the_preset() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("plume")).unwrap();
    let run = |scene: &str| {
        Command::new(env!("CARGO_BIN_EXE_eddy"))
            .args(["run", "--scene", scene, "--steps", "2"])
            .current_dir(dir.path())
            .env("NODEVICE_SELECT", "1")
            .output()
            .unwrap()
    };
    let o = run("plume");
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && said.contains("smoke: preset plume"), "{said}");
    let o = run("./plume");
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.code() == Some(1) && said.contains("is a directory"), "{said}");
}
