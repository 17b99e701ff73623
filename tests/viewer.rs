//! The viewer in a real window (needs an X display: CI runs the tests under `xvfb-run`).
#![cfg(all(feature = "viewer", feature = "cli"))]

use std::process::Command;

#[test]
fn viewer_window_shows_the_scene() {
    assert!(
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some(),
        "the viewer test needs a display: run the tests under `xvfb-run -a` (apt-get install xvfb)"
    );
    let _display = shared_use();
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("shot.png");
    // 10 frames of 1 step: the water block of `basin` has fallen at most a few cells.
    let o = Command::new(env!("CARGO_BIN_EXE_eddy"))
        .args([
            "view",
            "--scene",
            "basin",
            "--size",
            "96x64",
            "--scale",
            "4",
            "--steps-per-frame",
            "1",
            "--frames",
            "10",
            "--no-panel",
        ])
        .arg("--screenshot")
        .arg(&shot)
        .env("NODEVICE_SELECT", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "viewer failed:\n{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&shot).unwrap().to_rgb8();
    assert_eq!((img.width(), img.height()), (384, 256));

    let is_water = |p: &image::Rgb<u8>| p[2] > 150 && p[0] < 120;
    let is_ground = |p: &image::Rgb<u8>| p[0] > p[2] + 30 && p[0] > 80 && p[0] < 140;
    let water = img.pixels().filter(|p| is_water(p)).count();
    let ground = img.pixels().filter(|p| is_ground(p)).count();
    let total = (img.width() * img.height()) as usize;
    assert!(water > total / 40, "too little water on screen: {water} of {total} pixels");
    assert!(ground > total / 200, "no container on screen: {ground} of {total} pixels");
    // The centre of the scene's water block (cols 0.22..0.52, rows 0.04..0.34) is water;
    // the top-right corner, far from any water, is not.
    let centre = img.get_pixel((0.37 * 384.0) as u32, (0.2 * 256.0) as u32);
    assert!(is_water(centre), "expected water at the block's centre, found {centre:?}");
    let corner = img.get_pixel(380, 4);
    assert!(!is_water(corner) && !is_ground(corner), "expected air at the top right, found {corner:?}");
}

/// The tests share one X display (no window manager: a new window opens on top of the others).
/// Those that send keys or move the pointer hold it alone ([`sole_use`]), so that their Escape
/// or drag lands in their own window and no window opens over it mid-drag; the others share it
/// ([`shared_use`]). (In CI a window that another test opened during the body tool's drag took
/// the drag.)
static DISPLAY: std::sync::RwLock<()> = std::sync::RwLock::new(());

fn sole_use() -> std::sync::RwLockWriteGuard<'static, ()> {
    DISPLAY.write().unwrap_or_else(|e| e.into_inner())
}

fn shared_use() -> std::sync::RwLockReadGuard<'static, ()> {
    DISPLAY.read().unwrap_or_else(|e| e.into_inner())
}

fn xdotool(args: &[&str]) -> String {
    let o = Command::new("timeout")
        .arg("30")
        .arg("xdotool")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("xdotool is needed for this test (apt-get install xdotool): {e}"));
    assert!(o.status.success(), "xdotool {args:?} failed: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Starts `eddy` with `args` (its stderr piped, for the lines it says) and gives it with its
/// window's id, found by PID: another viewer test may have a window open at the same time.
fn spawn_viewer<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> (std::process::Child, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_eddy"))
        .args(args)
        .env("NODEVICE_SELECT", "1")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let window = xdotool(&["search", "--sync", "--pid", &child.id().to_string()]);
    let window = window.lines().next().unwrap().to_string();
    (child, window)
}

/// Gas parameters are settable from the viewer's keys: each press sets the parameter as the
/// panel does, and the viewer says the value before and after (read back from the live model).
#[test]
fn viewer_keys_set_gas_parameters() {
    let _display = sole_use();
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    // Enough frames for the keys to land; the viewer quits on its own if Escape does not.
    let (child, window) =
        spawn_viewer(&["view", "--mode", "gas", "--size", "64x48", "--scale", "4", "--frames", "3000"]);
    std::thread::sleep(std::time::Duration::from_millis(700));
    // Real (XTEST) key presses to the focused window: winit ignores synthetic ones.
    // Raise diffusion twice (Shift+d), lower pressure once (p), switch to 4-way (n).
    xdotool(&["windowfocus", "--sync", &window]);
    // 150 ms apart: a Shift pressed with its key at once can reach the window after the key.
    xdotool(&["key", "--delay", "150", "shift+d", "shift+d", "p", "n"]);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    xdotool(&["key", "Escape"]);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "viewer exited with {}", o.status);
    let said = String::from_utf8_lossy(&o.stderr);
    for line in [
        "gas: diffusion 0.05 -> 0.06",
        "gas: diffusion 0.06 -> 0.07",
        "gas: pressure 0.05 -> 0.04",
        "gas: neighbours 8 -> 4",
    ] {
        assert!(said.contains(line), "the viewer did not say {line:?}:\n{said}");
    }
}

/// Resizing the window, hiding it (unmap, the X11 analogue of minimising) and showing it again
/// keeps the viewer running; the screenshot has the window's final size. Uses xdotool.
#[test]
fn viewer_survives_resize_and_hide() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = shared_use();
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("resized.png");
    let shot_arg = shot.to_str().unwrap();
    let (mut child, window) = spawn_viewer(&[
        "view",
        "--scene",
        "basin",
        "--size",
        "96x64",
        "--scale",
        "4",
        "--frames",
        "3000",
        "--no-panel",
        "--screenshot",
        shot_arg,
    ]);
    let pause = || std::thread::sleep(std::time::Duration::from_millis(300));
    pause();
    xdotool(&["windowsize", &window, "300", "150"]);
    pause();
    xdotool(&["windowunmap", &window]);
    pause();
    xdotool(&["windowmap", &window]);
    pause();
    xdotool(&["windowsize", &window, "200", "100"]);
    let status = child.wait().unwrap();
    assert!(status.success(), "viewer exited with {status}");
    let img = image::open(&shot).unwrap().to_rgb8();
    assert_eq!((img.width(), img.height()), (200, 100), "screenshot should have the window's final size");
    let water = img.pixels().filter(|p| p[2] > 150 && p[0] < 120).count();
    assert!(water > 200, "no water visible after the resizes: {water} pixels");
}

/// The gas model in the viewer: the `explosion` scene's dense blob shows bright in the middle,
/// its wall segments grey.
#[test]
fn viewer_shows_gas() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = shared_use();
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("gas.png");
    let o = Command::new(env!("CARGO_BIN_EXE_eddy"))
        .args(["view", "--mode", "gas", "--size", "96x64", "--scale", "4", "--steps-per-frame", "1", "--frames", "5"])
        .arg("--no-panel")
        .arg("--screenshot")
        .arg(&shot)
        .env("NODEVICE_SELECT", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "viewer failed:\n{}", String::from_utf8_lossy(&o.stderr));
    let img = image::open(&shot).unwrap().to_rgb8();
    let centre = img.get_pixel(192, 128);
    assert!(
        centre[0] > 200 && centre[1] > 150,
        "the dense blob should be bright yellow at the centre, found {centre:?}"
    );
    let corner = img.get_pixel(20, 20);
    assert!(corner[2] > corner[1] && corner[0] > corner[1], "ambient gas should be purple, found {corner:?}");
    let grey = img
        .pixels()
        .filter(|p| p[0] > 120 && p[0] < 160 && p[0].abs_diff(p[2]) < 10 && p[0].abs_diff(p[1]) < 10)
        .count();
    assert!(grey > 200, "the wall segments should be visible (grey pixels: {grey})");
}

/// Smoke in the viewer: key 2 switches from water to smoke (the title says so), and a left-drag injects smoke where the plume is not.
#[test]
fn viewer_switches_to_smoke_and_takes_impulses() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = sole_use();
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("smoke.png");
    let shot_arg = shot.to_str().unwrap();
    let (mut child, window) = spawn_viewer(&[
        "view",
        "--size",
        "96x64",
        "--scale",
        "4",
        "--steps-per-frame",
        "1",
        "--frames",
        "1500",
        "--no-panel",
        "--screenshot",
        shot_arg,
    ]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    xdotool(&["windowfocus", "--sync", &window]);
    // Smoke, paused at once so the plume stays at the bottom, then one step (`.`) so the
    // source has had its impulse whatever the timing.
    xdotool(&["key", "2", "space", "period"]);
    // On top of any other test's window, so that the drag below lands in this one.
    xdotool(&["windowraise", &window]);
    let mut title = String::new();
    for _ in 0..40 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        title = xdotool(&["getwindowname", &window]);
        if title.contains("smoke") && title.contains("paused") {
            break;
        }
    }
    // Drag across the top left (window pixels; the grid is 4 px per cell).
    xdotool(&["mousemove", "--window", &window, "40", "40"]);
    xdotool(&["mousedown", "1"]);
    for x in (50..=120).step_by(10) {
        xdotool(&["mousemove", "--window", &window, &x.to_string(), "40"]);
    }
    xdotool(&["mouseup", "1"]);
    let status = child.wait().unwrap();
    assert!(status.success(), "viewer exited with {status}");
    assert!(title.contains("smoke") && title.contains("paused"), "title after key 2 and Space: {title}");
    if let Ok(keep) = std::env::var("EDDY_KEEP_SCREENSHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }
    let img = image::open(&shot).unwrap().to_rgb8();
    // The default view draws the dye: a drag's cycling hues and the source's orange each have
    // a bright channel over the dark background.
    let bright = |x: u32, y: u32| img.get_pixel(x, y).0.iter().any(|&c| c > 150);
    assert!(bright(80, 40), "no dye where the drag went: {:?}", img.get_pixel(80, 40));
    assert!(!bright(300, 40), "dye where nothing was injected: {:?}", img.get_pixel(300, 40));
    assert!(bright(192, 250), "the source at the bottom centre should be coloured: {:?}", img.get_pixel(192, 250));
}

fn eddy_view(args: &[&str]) -> std::process::Output {
    let o =
        Command::new(env!("CARGO_BIN_EXE_eddy")).arg("view").args(args).env("NODEVICE_SELECT", "1").output().unwrap();
    assert!(o.status.success(), "viewer failed:\n{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// A script drives the viewer through every model: in each it sets a parameter (through the
/// same action the panel sends; the viewer reads the value back from the running model and says
/// it), draws a wall, puts fluid somewhere, and takes a screenshot; in gas it records a 20-frame
/// GIF and a 12-frame video. The files decode, the GIF has its 20 frames and the video its 12 at
/// 30 frames/s, each screenshot shows fluid where the
/// script put it and a wall where it drew one, and the window's screenshot shows the panel.
#[test]
fn a_script_tours_every_model_with_screenshots_and_a_gif() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = shared_use();
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().replace('\\', "/");
    let script = format!(
        r#"
mode = "water"
scene = "basin"
size = [96, 64]

[[action]]
at = 0
set = {{ side-share = 0.3 }}
stroke = {{ tool = "wall", points = [[70, 20], [90, 20]], radius = 1.5 }}

[[action]]
at = 2
stroke = {{ tool = "fluid", points = [[76, 12], [84, 12]], radius = 2 }}
screenshot = "{water}"

[[action]]
at = 3
model = "smoke"
set = {{ vorticity = 0.5 }}
stroke = {{ tool = "wall", points = [[70, 20], [90, 20]], radius = 1.5 }}

[[action]]
at = 3
stroke = {{ tool = "fluid", points = [[16, 10], [32, 10]], radius = 4 }}
screenshot = "{smoke}"

[[action]]
at = 4
model = "gas"
set = {{ diffusion = 0.08 }}
stroke = {{ tool = "wall", points = [[70, 20], [90, 20]], radius = 1.5 }}
click = [16, 12]
screenshot = "{gas}"
gif = {{ path = "{gif}", frames = 20, every = 1 }}
{video}

[[action]]
at = 30
quit = true
"#,
        water = p("water.png"),
        smoke = p("smoke.png"),
        gas = p("gas.png"),
        gif = p("tour.gif"),
        video = if cfg!(feature = "video") {
            format!("video = {{ path = \"{}\", frames = 12, every = 2, fps = 30 }}", p("tour.mp4"))
        } else {
            String::new()
        },
    );
    let file = dir.path().join("tour.toml");
    std::fs::write(&file, script).unwrap();
    let window = dir.path().join("window.png");
    let o = eddy_view(&["--script", file.to_str().unwrap(), "--screenshot", window.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&o.stderr);
    for line in ["water: side-share 0.25 -> 0.3", "smoke: vorticity 0.2 -> 0.5", "gas: diffusion 0.05 -> 0.08"] {
        assert!(said.contains(line), "the viewer did not say {line:?}:\n{said}");
    }

    // Screenshots: 2 pixels per cell; cell (col, row) is at pixel (2 col + 1, 2 row + 1).
    let at = |img: &image::RgbImage, col: u32, row: u32| *img.get_pixel(2 * col + 1, 2 * row + 1);
    let grey_or_brown = |p: image::Rgb<u8>| p[2] <= p[0] + 12 && p[0] > 60 && p[0] < 180 && p[1] < 180;
    let water = image::open(dir.path().join("water.png")).unwrap().to_rgb8();
    assert_eq!(water.dimensions(), (192, 128));
    let poured = at(&water, 80, 12);
    assert!(poured[2] > 150 && poured[0] < 150, "no water where it was poured: {poured:?}");
    assert!(grey_or_brown(at(&water, 80, 20)), "no wall where it was drawn: {:?}", at(&water, 80, 20));
    let smoke = image::open(dir.path().join("smoke.png")).unwrap().to_rgb8();
    let dyed = at(&smoke, 24, 10);
    assert!(dyed.0.iter().any(|&c| c > 150), "no dye where it was injected: {dyed:?}");
    assert!(at(&smoke, 50, 8).0.iter().all(|&c| c < 60), "dye where none was put: {:?}", at(&smoke, 50, 8));
    assert!(grey_or_brown(at(&smoke, 80, 20)), "no wall in smoke: {:?}", at(&smoke, 80, 20));
    let gas = image::open(dir.path().join("gas.png")).unwrap().to_rgb8();
    let blast = at(&gas, 16, 12);
    let ambient = at(&gas, 4, 60);
    assert!(
        blast[0] as u32 + blast[1] as u32 > ambient[0] as u32 + ambient[1] as u32 + 150,
        "the click's dense gas should be much brighter than ambient: {blast:?} vs {ambient:?}"
    );
    assert!(grey_or_brown(at(&gas, 80, 20)), "no wall in gas: {:?}", at(&gas, 80, 20));

    // The GIF: 20 frames of the gas grid at 2 pixels per cell.
    let reader = std::io::BufReader::new(std::fs::File::open(dir.path().join("tour.gif")).unwrap());
    let decoder = image::codecs::gif::GifDecoder::new(reader).unwrap();
    let frames = image::AnimationDecoder::into_frames(decoder).collect_frames().unwrap();
    assert_eq!(frames.len(), 20, "the GIF should have the 20 frames asked for");
    assert_eq!(frames[0].buffer().dimensions(), (192, 128));
    // The video: 12 frames, one every 2 steps from step 4, at 30 frames/s (3000 ticks of the
    // 90 kHz clock each). (CI decodes `eddy run`'s videos with FFmpeg: .ci/check_video.py.)
    #[cfg(feature = "video")]
    {
        let bytes = std::fs::read(dir.path().join("tour.mp4")).unwrap();
        let size = bytes.len() as u64;
        let mut mp4 = mp4::Mp4Reader::read_header(std::io::Cursor::new(bytes), size).unwrap();
        let track = mp4.tracks().get(&1).unwrap();
        assert_eq!((track.width(), track.height(), track.sample_count()), (192, 128, 12));
        let last = mp4.read_sample(1, 12).unwrap().unwrap();
        assert_eq!((last.start_time, last.duration), (11 * 3000, 3000));
    }

    // The window: the panel on the left (egui's dark fill with lighter text on it), the
    // simulation on the right.
    let img = image::open(&window).unwrap().to_rgb8();
    assert!(img.width() > 400, "window {:?}", img.dimensions());
    let panel: Vec<_> =
        (0..200).flat_map(|x| (0..300).map(move |y| (x, y))).map(|(x, y)| *img.get_pixel(x, y)).collect();
    let fill = panel.iter().filter(|p| p[0] == p[1] && p[1] == p[2] && (20..40).contains(&p[0])).count();
    let text = panel.iter().filter(|p| p[0] > 140 && p[1] > 140 && p[2] > 140).count();
    assert!(fill > panel.len() / 2, "no panel background at the left: {fill} of {} pixels", panel.len());
    assert!(text > panel.len() / 100, "no text on the panel: {text} light pixels");
}

/// `eddy run --script` twice gives byte-identical `.npz` files (a script's strokes, parameter
/// changes and model switches are deterministic on one adapter).
#[test]
fn a_script_run_twice_gives_identical_files() {
    let dir = tempfile::tempdir().unwrap();
    let script = env!("CARGO_MANIFEST_DIR").to_string() + "/examples/scripts/smoke-walls.toml";
    let mut files = Vec::new();
    for i in 0..2 {
        let out = dir.path().join(format!("run{i}.npz"));
        let o = Command::new(env!("CARGO_BIN_EXE_eddy"))
            .args(["run", "--script", &script, "--size", "96x72", "--steps", "200", "--save"])
            .arg(&out)
            .env("NODEVICE_SELECT", "1")
            .output()
            .unwrap();
        assert!(o.status.success(), "run failed:\n{}", String::from_utf8_lossy(&o.stderr));
        files.push(std::fs::read(out).unwrap());
    }
    assert!(files[0].len() > 10_000);
    assert!(files[0] == files[1], "two runs of one script differ");
}

/// CPU time (user + system) of process `pid` so far, seconds, from `/proc/PID/stat`.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name (which is in parentheses): utime is the 14th, stime the 15th.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
    ticks / 100.0 // USER_HZ, 100 on Linux
}

/// Paused, the viewer sleeps: over 3 s it uses under 0.2 cores.
#[test]
fn the_paused_viewer_is_idle() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = shared_use();
    let mut child = Command::new(env!("CARGO_BIN_EXE_eddy"))
        .args(["view", "--paused", "--mode", "smoke", "--size", "128x96"])
        .env("NODEVICE_SELECT", "1")
        .spawn()
        .unwrap();
    let pid = child.id();
    xdotool(&["search", "--sync", "--pid", &pid.to_string()]);
    std::thread::sleep(std::time::Duration::from_secs(2)); // first frames, fonts, statistics
    let before = cpu_seconds(pid);
    std::thread::sleep(std::time::Duration::from_secs(3));
    let used = cpu_seconds(pid) - before;
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(used / 3.0 < 0.2, "paused, the viewer used {:.2} cores", used / 3.0);
}

/// Resized to a window of another aspect, the picture is letterboxed: its cells stay square.
#[test]
fn resizing_keeps_cells_square() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = shared_use();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("resize.toml");
    std::fs::write(&file, "[[action]]\nat = 0\nwindow = [900, 300]\npause = 40\n[[action]]\nat = 1\nquit = true\n")
        .unwrap();
    let shot = dir.path().join("window.png");
    eddy_view(&[
        "--scene",
        "basin",
        "--size",
        "96x64",
        "--no-panel",
        "--script",
        file.to_str().unwrap(),
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    let img = image::open(&shot).unwrap().to_rgb8();
    assert_eq!(img.dimensions(), (900, 300), "the window should have been resized");
    // The picture: the bounding box of pixels that are not the letterbox's black.
    let lit: Vec<(u32, u32)> =
        img.enumerate_pixels().filter(|(_, _, p)| p.0.iter().any(|&c| c > 30)).map(|(x, y, _)| (x, y)).collect();
    let (x0, x1) = (lit.iter().map(|p| p.0).min().unwrap(), lit.iter().map(|p| p.0).max().unwrap());
    let (y0, y1) = (lit.iter().map(|p| p.1).min().unwrap(), lit.iter().map(|p| p.1).max().unwrap());
    let (w, h) = ((x1 - x0 + 1) as f64, (y1 - y0 + 1) as f64);
    // 96x64 cells in a 900x300 window: 450x300 pixels, centred; a cell is 4.6875 px square.
    assert!((w / h - 1.5).abs() < 0.01, "the picture is {w}x{h} pixels: cells are not square");
    assert!((x0 as f64 - 225.0).abs() <= 1.0 && y0 == 0, "the picture should be centred: starts at ({x0}, {y0})");
}

/// HiDPI: under a scale factor of 2 (winit's `WINIT_X11_SCALE_FACTOR`, as a HiDPI X screen sets
/// it), `--scale` stays in points per cell, so the window opens at twice the pixels of scale 1,
/// and the scene fills it with square cells.
#[test]
fn a_hidpi_window_keeps_points_per_cell() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = shared_use();
    let dir = tempfile::tempdir().unwrap();
    let mut sizes = Vec::new();
    for factor in ["1", "2"] {
        let shot = dir.path().join(format!("x{factor}.png"));
        let o = Command::new(env!("CARGO_BIN_EXE_eddy"))
            .args(["view", "--scene", "basin", "--size", "96x64", "--scale", "4", "--frames", "3", "--no-panel"])
            .arg("--screenshot")
            .arg(&shot)
            .env("NODEVICE_SELECT", "1")
            .env("WINIT_X11_SCALE_FACTOR", factor)
            .output()
            .unwrap();
        assert!(o.status.success(), "viewer failed at scale factor {factor}:\n{}", String::from_utf8_lossy(&o.stderr));
        let img = image::open(&shot).unwrap().to_rgb8();
        // Ground (brown) spans the scene's bottom row: its extent is the scene's width.
        let ground: Vec<u32> =
            img.enumerate_pixels().filter(|(_, _, p)| p[0] > p[2] + 30 && p[0] > 80).map(|(x, _, _)| x).collect();
        let span = ground.iter().max().unwrap() - ground.iter().min().unwrap() + 1;
        sizes.push((img.dimensions(), span));
    }
    assert_eq!(sizes[0].0, (384, 256), "96x64 cells at 4 points per cell, scale factor 1");
    assert_eq!(sizes[1].0, (768, 512), "the same at scale factor 2 should be twice the pixels");
    assert!(sizes[1].1 >= 2 * sizes[0].1 - 2, "the scene did not scale with the window: {sizes:?}");
}

/// The simulation's keys stay the simulation's: two Tabs switch the model twice (egui once took
/// the second to move its keyboard focus). And however the viewer ends, a GIF being recorded is
/// finished: closed with Esc (exit 0), or sent SIGTERM (exit 130); either way the file decodes
/// and the viewer says where it went.
#[test]
fn keys_stay_the_simulations_and_ending_finishes_the_gif() {
    let _display = sole_use();
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let dir = tempfile::tempdir().unwrap();
    for how in ["Escape", "SIGTERM"] {
        let gif = dir.path().join(format!("{how}.gif"));
        let script = dir.path().join(format!("{how}.toml"));
        let toml = format!("[[action]]\nat = 0\ngif = {{ path = {:?}, frames = 900 }}\n", gif.to_str().unwrap());
        std::fs::write(&script, toml).unwrap();
        let script = script.to_str().unwrap();
        let (child, window) =
            spawn_viewer(&["view", "--size", "64x48", "--scale", "4", "--frames", "5000", "--script", script]);
        std::thread::sleep(std::time::Duration::from_millis(700));
        xdotool(&["windowfocus", "--sync", &window]);
        if how == "Escape" {
            xdotool(&["key", "--delay", "300", "Tab", "Tab"]);
            std::thread::sleep(std::time::Duration::from_millis(1000));
            xdotool(&["key", "Escape"]);
        } else {
            std::thread::sleep(std::time::Duration::from_millis(1000));
            let kill = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
            assert!(kill.success());
        }
        let o = child.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&o.stderr);
        let want = if how == "Escape" { 0 } else { 130 };
        assert_eq!(o.status.code(), Some(want), "{how}: {said}");
        if how == "Escape" {
            for line in ["showing smoke", "showing gas"] {
                assert!(said.contains(line), "{how}: the viewer did not say {line:?}:\n{said}");
            }
        }
        assert!(said.contains(&format!("saved {}", gif.display())), "{how}: no word of the GIF:\n{said}");
        let file = std::io::BufReader::new(std::fs::File::open(&gif).unwrap());
        let frames = image::AnimationDecoder::into_frames(image::codecs::gif::GifDecoder::new(file).unwrap());
        let n = frames.collect_frames().unwrap().len();
        assert!(n >= 2, "{how}: the GIF has {n} frames");
    }
}

/// The body tool (B, smoke): a left press away from any body places a circle there, and a drag
/// carries it along; on release it stops. The screenshot shows the body (a solid's grey) where
/// the drag ended and open fluid where it began. Uses xdotool.
#[test]
fn the_body_tool_places_a_body_and_drags_it_through_the_smoke() {
    drag_a_body("smoke", 2, 2000);
}

/// The body tool in gas, as in smoke: gas bodies move at most 0.25 cells a step, so
/// the viewer runs 8 steps a frame (2 cells a frame) and the pointer waits longer at the end.
#[test]
fn the_body_tool_places_a_body_and_drags_it_through_the_gas() {
    drag_a_body("gas", 8, 4000);
}

/// The body tool in water, as in smoke: water bodies move at most 0.5 cells a step, so the
/// viewer runs 8 steps a frame (4 cells a frame); a water body is drawn in a wood colour.
#[test]
fn the_body_tool_places_a_body_and_drags_it_through_the_water() {
    drag_a_body("water", 8, 3000);
}

/// The body tool's test in `mode`, `steps` a frame, the pointer held still `hold_ms` at the end
/// of the drag for the body to catch up.
fn drag_a_body(mode: &str, steps: u32, hold_ms: u64) {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = sole_use();
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("body.png");
    let steps = steps.to_string();
    let (mut child, window) = spawn_viewer(&[
        "view",
        "--mode",
        mode,
        "--size",
        "96x64",
        "--scale",
        "4",
        "--steps-per-frame",
        &steps,
        "--frames",
        "2500",
        "--no-panel",
        "--screenshot",
        shot.to_str().unwrap(),
    ]);
    // The viewer's lines, as it says them: the drag starts once it has taken the key B.
    let said = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let reader = {
        let said = said.clone();
        let stderr = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)).map_while(Result::ok) {
                let mut said = said.lock().unwrap();
                said.push_str(&line);
                said.push('\n');
            }
        })
    };
    // Time for the window to take keys (the first frames compile the pipelines).
    std::thread::sleep(std::time::Duration::from_millis(1200));
    // The pointer away from the window (384 x 256 at the screen's corner; xvfb-run's screen is
    // 1280 x 1024) while B goes in, so that the press below comes with a motion into the window
    // (a press where the pointer already was gave the viewer no position: CI failed the test so).
    // Under Xvfb with no window manager a key sometimes reaches the window twice (B on, then
    // off: the drag then poured smoke; either way "no body where the drag ended"), so B is
    // pressed until the viewer's last word on the tool is the body tool's.
    xdotool(&["mousemove", "1000", "900"]);
    xdotool(&["windowfocus", "--sync", &window]);
    xdotool(&["windowraise", &window]);
    let tool_lines = || -> Vec<String> {
        let said = said.lock().unwrap();
        said.lines().filter(|l| l.contains("body tool") || l.contains("fluid tool again")).map(String::from).collect()
    };
    let body_tool_on = || tool_lines().last().is_some_and(|l| l.contains("body tool"));
    for _ in 0..4 {
        let before = tool_lines().len();
        xdotool(&["key", "b"]);
        for _ in 0..100 {
            if tool_lines().len() > before {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        // A second delivery of the same key comes within a frame or two.
        std::thread::sleep(std::time::Duration::from_millis(400));
        if body_tool_on() {
            break;
        }
    }
    assert!(body_tool_on(), "the viewer did not take B:\n{}", said.lock().unwrap());
    // Press at cell (12, 12), drag to cell (72, 22) in small moves, a frame or more apart.
    xdotool(&["mousemove", "--window", &window, "48", "48"]);
    xdotool(&["mousedown", "1"]);
    for k in 1..=30 {
        let (x, y) = (48 + 8 * k, 48 + 4 * k / 3);
        xdotool(&["mousemove", "--window", &window, &x.to_string(), &y.to_string()]);
        std::thread::sleep(std::time::Duration::from_millis(60));
    }
    // Hold still at the end so the body catches up with the pointer (smoke: 4 cells a frame at
    // most, 2 s is 15 frames at 7.5 frames/s, slower than the viewer runs under a parallel
    // test's load; gas: 2 cells a frame), then let go.
    std::thread::sleep(std::time::Duration::from_millis(hold_ms));
    xdotool(&["mouseup", "1"]);
    // Paused until the frames run out: the body stays where it was let go.
    xdotool(&["key", "space"]);
    let status = child.wait().unwrap();
    reader.join().unwrap();
    assert!(status.success(), "viewer exited with {status}:\n{}", said.lock().unwrap());
    if let Ok(keep) = std::env::var("EDDY_KEEP_SCREENSHOT") {
        std::fs::copy(&shot, keep).unwrap();
    }
    let img = image::open(&shot).unwrap().to_rgb8();
    // A body: in smoke and gas a solid's grey (the three channels within 16 of each other,
    // between 70 and 200); in water the wood colour (0.70, 0.50, 0.30), within 16 a channel.
    let grey = |x: u32, y: u32| {
        let p = img.get_pixel(x, y).0;
        if mode == "water" {
            return [178u8, 128, 77].iter().zip(p).all(|(&want, got)| want.abs_diff(got) <= 16);
        }
        let (lo, hi) = (*p.iter().min().unwrap(), *p.iter().max().unwrap());
        hi - lo < 16 && (70..=200).contains(&lo)
    };
    let end = (288, 88); // cell (72, 22)
    assert!(grey(end.0, end.1), "{mode}: no body where the drag ended: {:?}", img.get_pixel(end.0, end.1));
    assert!(!grey(48, 48), "{mode}: the body stayed where it was placed: {:?}", img.get_pixel(48, 48));
}

/// Ctrl + wheel zooms the view about the pointer, with a minimap in the frame's corner (its
/// outline of the part shown is yellow), and Home shows the whole grid again: the `basin` at 256 x
/// 128, zoomed six notches over its air, shows no wall nor water in the frame but the minimap's
/// yellow; with Home pressed after, the whole basin and no minimap. Real (XTEST) input by
/// xdotool.
#[test]
fn ctrl_wheel_zooms_with_a_minimap_and_home_shows_the_whole_grid() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = sole_use();
    let yellow = |p: &image::Rgb<u8>| p[0] > 230 && (190..=235).contains(&p[1]) && p[2] < 140;
    let water = |p: &image::Rgb<u8>| p[2] > 150 && p[0] < 120;
    for home in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let shot = dir.path().join("zoom.png");
        let args = ["view", "--scene", "basin", "--size", "256x128", "--scale", "3", "--frames", "400", "--no-panel"];
        let (child, window) = spawn_viewer(&[&args[..], &["--screenshot", shot.to_str().unwrap()]].concat());
        std::thread::sleep(std::time::Duration::from_millis(1200));
        xdotool(&["windowfocus", "--sync", &window]);
        xdotool(&["windowraise", &window]);
        // Over the air above the basin's left wall (a third across, a sixth down).
        xdotool(&["mousemove", "--window", &window, "256", "64"]);
        std::thread::sleep(std::time::Duration::from_millis(200));
        for _ in 0..6 {
            xdotool(&["keydown", "ctrl", "click", "4", "keyup", "ctrl"]);
            std::thread::sleep(std::time::Duration::from_millis(150));
        }
        if home {
            std::thread::sleep(std::time::Duration::from_millis(300));
            xdotool(&["key", "Home"]);
        }
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "viewer exited with {}", o.status);
        let img = image::open(&shot).unwrap().to_rgb8();
        let (w, h) = (img.width(), img.height());
        let yellows = img.pixels().filter(|p| yellow(p)).count();
        // The water outside the minimap's corner (its bottom-right 200 x 110 pixels).
        let waters = img.enumerate_pixels().filter(|&(x, y, p)| water(p) && (x < w - 200 || y < h - 110)).count();
        if home {
            assert_eq!(yellows, 0, "Home: no minimap");
            assert!(waters > 5000, "Home: the whole basin shows, {waters} water pixels");
        } else {
            assert!(yellows > 20, "zoomed: the minimap's view outline, {yellows} yellow pixels");
            assert!(waters < 100, "zoomed over the air: {waters} water pixels in the frame");
        }
    }
}

/// The viewer ends a water run with its state hash, as `eddy run` does, and steps the same water:
/// 25 frames of 2 steps each of the 96 x 64 basin end with the hash `eddy run --steps 50` prints.
#[test]
fn the_viewer_ends_with_the_hash_eddy_run_gives_after_the_same_steps() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let _display = shared_use();
    let hash_of = |text: &str| {
        let line = text.lines().find(|l| l.starts_with("state hash ")).unwrap_or_else(|| panic!("no hash:\n{text}"));
        (line.split(' ').nth(2).unwrap().to_string(), line.to_string())
    };
    let scene = ["--scene", "basin", "--size", "96x64"];
    let o = eddy_view(&[&scene[..], &["--steps-per-frame", "2", "--frames", "25"]].concat());
    let (viewed, line) = hash_of(&String::from_utf8_lossy(&o.stderr));
    assert!(line.contains("at step 50"), "{line}");
    let o = Command::new(env!("CARGO_BIN_EXE_eddy"))
        .args([&["run"][..], &scene[..], &["--steps", "50"]].concat())
        .env("NODEVICE_SELECT", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (ran, _) = hash_of(&String::from_utf8_lossy(&o.stdout));
    assert_eq!(viewed, ran, "the viewer's hash after 50 steps against eddy run's");
}
