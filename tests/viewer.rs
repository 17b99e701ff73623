//! The viewer in a real window (needs an X display: CI runs the tests under `xvfb-run`).
#![cfg(all(feature = "viewer", feature = "cli"))]

use std::process::Command;

#[test]
fn viewer_window_shows_the_scene() {
    assert!(
        std::env::var_os("DISPLAY").is_some() || std::env::var_os("WAYLAND_DISPLAY").is_some(),
        "the viewer test needs a display: run the tests under `xvfb-run -a` (apt-get install xvfb)"
    );
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

/// Gas parameters are settable from the viewer: keys change them, the title shows them.
#[test]
fn viewer_keys_set_gas_parameters() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let mut child = Command::new(env!("CARGO_BIN_EXE_eddy"))
        // Enough frames for the keys to land; the viewer quits on its own if Escape does not.
        .args(["view", "--mode", "gas", "--size", "64x48", "--scale", "4", "--frames", "3000"])
        .env("NODEVICE_SELECT", "1")
        .spawn()
        .unwrap();
    let window = xdotool(&["search", "--sync", "--pid", &child.id().to_string()]);
    let window = window.lines().next().unwrap().to_string();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let before = xdotool(&["getwindowname", &window]);
    // Real (XTEST) key presses to the focused window: winit ignores synthetic ones.
    // Raise diffusion twice (Shift+d), lower pressure once (p), switch to 4-way (n).
    xdotool(&["windowfocus", "--sync", &window]);
    xdotool(&["key", "shift+d", "shift+d", "p", "n"]);
    let mut after = String::new();
    for _ in 0..40 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        after = xdotool(&["getwindowname", &window]);
        if after.contains("neighbours 4") {
            break;
        }
    }
    xdotool(&["key", "Escape"]);
    let status = child.wait().unwrap();
    assert!(status.success(), "viewer exited with {status}");
    assert!(
        before.contains("D 0.05 (d)") && before.contains("c^2 0.05 (p)") && before.contains("neighbours 8 (n)"),
        "title before: {before}"
    );
    assert!(
        after.contains("D 0.07 (d)") && after.contains("c^2 0.04 (p)") && after.contains("neighbours 4 (n)"),
        "title after: {after}"
    );
}

/// Resizing the window, hiding it (unmap, the X11 analogue of minimising) and showing it again
/// keeps the viewer running; the screenshot has the window's final size. Uses xdotool.
#[test]
fn viewer_survives_resize_and_hide() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("resized.png");
    let mut child = Command::new(env!("CARGO_BIN_EXE_eddy"))
        .args(["view", "--scene", "basin", "--size", "96x64", "--scale", "4", "--frames", "3000"])
        .arg("--screenshot")
        .arg(&shot)
        .env("NODEVICE_SELECT", "1")
        .spawn()
        .unwrap();
    // By PID: the other viewer test may have a window open at the same time.
    let window = xdotool(&["search", "--sync", "--pid", &child.id().to_string()]);
    let window = window.lines().next().unwrap().to_string();
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
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("gas.png");
    let o = Command::new(env!("CARGO_BIN_EXE_eddy"))
        .args(["view", "--mode", "gas", "--size", "96x64", "--scale", "4", "--steps-per-frame", "1", "--frames", "5"])
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

/// Smoke in the viewer: key 2 switches from water to smoke (title says so, with the divergence
/// norm), and a left-drag injects smoke where the plume is not.
#[test]
fn viewer_switches_to_smoke_and_takes_impulses() {
    assert!(std::env::var_os("DISPLAY").is_some(), "needs an X display: run the tests under `xvfb-run -a`");
    let dir = tempfile::tempdir().unwrap();
    let shot = dir.path().join("smoke.png");
    let mut child = Command::new(env!("CARGO_BIN_EXE_eddy"))
        .args(["view", "--size", "96x64", "--scale", "4", "--steps-per-frame", "1", "--frames", "1500"])
        .arg("--screenshot")
        .arg(&shot)
        .env("NODEVICE_SELECT", "1")
        .spawn()
        .unwrap();
    let window = xdotool(&["search", "--sync", "--pid", &child.id().to_string()]);
    let window = window.lines().next().unwrap().to_string();
    std::thread::sleep(std::time::Duration::from_millis(500));
    xdotool(&["windowfocus", "--sync", &window]);
    // Smoke, paused at once so the plume stays at the bottom, then one step (`.`) so the
    // source has had its impulse whatever the timing.
    xdotool(&["key", "2", "space", "period"]);
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
    assert!(title.contains("smoke") && title.contains("|div| after projection"), "title after key 2: {title}");
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
