//! GPU failures come back as errors, not panics or hangs.

mod common;

use eddy_fluid::Simulation;
use eddy_fluid::gpu::GpuError;
use eddy_fluid::water::{GpuWater, WaterParams};

#[test]
fn lost_device_is_an_error_not_a_hang() {
    let gpu = common::gpu();
    let state = common::random_water(32, 32, 5, 0.1);
    let mut sim = GpuWater::new(&gpu.device, &gpu.queue, &state, WaterParams::default()).unwrap();
    sim.step(3).unwrap();
    gpu.device.destroy();
    match sim.read_state() {
        Err(e) => eprintln!("readback after destroy: {e}"),
        Ok(_) => panic!("a readback from a destroyed device must fail"),
    }
}

/// Water takes worlds four texture sides across (packed four cells a texel) and four down (in
/// pages): one cell past either is refused before anything is allocated.
#[test]
fn grid_over_the_texture_limit_is_rejected_before_allocating() {
    let gpu = common::gpu();
    let max = gpu.device.limits().max_texture_dimension_2d as usize;
    for (w, h) in [(4 * max + 1, 1), (1, 4 * max + 1)] {
        let state = eddy_fluid::water::WaterState::empty(w, h);
        match GpuWater::new(&gpu.device, &gpu.queue, &state, WaterParams::default()) {
            Err(eddy_fluid::Error::Gpu(GpuError::WorldTooLarge { width, height, max_width, max_height })) => {
                assert_eq!((width, height, max_width, max_height), (w, h, 4 * max, 4 * max));
            }
            Err(e) => panic!("expected WorldTooLarge, got {e}"),
            Ok(_) => panic!("a {w}x{h} world should not fit a {max} texture limit"),
        }
    }
}

/// On the staggered grid the faces are one texel more a side than the cells (`W + 1` columns of
/// horizontal velocity; Harlow & Welch 1965), so the largest grid is one less than the device's
/// texture limit: asking for the limit itself is refused with the grid asked for, the side that
/// would fit, and the device (not the adapter) named.
#[test]
fn staggered_smoke_at_the_texture_limit_names_the_grid_asked_for() {
    use eddy_fluid::smoke::{GpuSmoke, SmokeParams};
    let gpu = common::gpu();
    let max = gpu.device.limits().max_texture_dimension_2d as usize;
    let state = common::random_smoke_staggered(max, 1, 7, 0.0);
    match GpuSmoke::new(&gpu.device, &gpu.queue, &state, SmokeParams::default()) {
        Err(e @ eddy_fluid::Error::Gpu(GpuError::GridTooLarge { width, height, max: fits })) => {
            assert_eq!((width, height, fits as usize), (max, 1, max - 1), "{e}");
            let text = e.to_string();
            assert!(text.contains(&format!("grid {max}x1 ")) && text.contains("this device"), "{text}");
        }
        Err(e) => panic!("expected GridTooLarge, got {e}"),
        Ok(_) => panic!("a {max}x1 staggered grid needs {}x2 faces, over the {max} limit", max + 1),
    }
}

#[cfg(feature = "cli")]
#[test]
fn unknown_adapter_name_is_a_clear_error() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_eddy"))
        .args(["run", "--steps", "1"])
        .env("WGPU_ADAPTER_NAME", "no-such-adapter-xyz")
        .env("NODEVICE_SELECT", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(!err.contains("panicked"), "{err}");
    // The name asked for, and every adapter there is to choose from (as wgpu lists them here,
    // whatever the machine has), each on its own: none can stand in for another.
    for phrase in ["no GPU adapter found", "WGPU_ADAPTER_NAME=\"no-such-adapter-xyz\"", "matches none of: "] {
        assert!(err.contains(phrase), "no {phrase:?} in: {err}");
    }
    use eddy_fluid::wgpu;
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let names: Vec<String> = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()))
        .iter()
        .map(|a| a.get_info().name)
        .collect();
    assert!(!names.is_empty(), "the GPU tests need an adapter (Mesa's lavapipe will do)");
    for name in names {
        assert!(err.contains(&name), "the adapter {name:?} is not listed in: {err}");
    }
}
