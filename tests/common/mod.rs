//! Shared test helpers: the test device, random states, field comparison with artefacts.
#![allow(dead_code)]

use eddy::Grid;
use eddy::gpu::Gpu;
use eddy::water::WaterState;
use std::path::PathBuf;

/// The test device: any adapter (a software one is fine), validation on. Panics with an install
/// hint when there is none: a GPU test never passes without a device.
pub fn gpu() -> Gpu {
    match Gpu::headless() {
        Ok(g) => g,
        Err(e) => panic!(
            "GPU tests need a wgpu adapter and found none: {e}\n\
             On Linux without a GPU: apt-get install -y mesa-vulkan-drivers libvulkan1"
        ),
    }
}

/// A random water state: solid with probability `p_solid`, otherwise mass uniform in 0..1.5,
/// or exactly 0 a quarter of the time (dry cells matter for the `m <= 0` branches).
pub fn random_water(width: usize, height: usize, seed: u64, p_solid: f32) -> WaterState {
    let mut rng = fastrand::Rng::with_seed(seed);
    let solid = Grid::from_fn(width, height, |_, _| (rng.f32() < p_solid) as u8);
    let mass =
        Grid::from_fn(width, height, |r, c| if solid[(r, c)] != 0 || rng.f32() < 0.25 { 0.0 } else { rng.f32() * 1.5 });
    WaterState { mass, solid }
}

/// Largest absolute difference and where (row, col).
pub fn max_abs_diff(a: &Grid<f32>, b: &Grid<f32>) -> (f32, (usize, usize)) {
    assert_eq!(a.shape(), b.shape());
    let w = a.width();
    let (i, d) = a
        .as_slice()
        .iter()
        .zip(b.as_slice())
        .map(|(x, y)| (x - y).abs())
        .enumerate()
        .fold((0, 0.0f32), |best, (i, d)| if d > best.1 || d.is_nan() { (i, d) } else { best });
    (d, (i / w, i % w))
}

/// Asserts `gpu` and `cpu` agree within `tol` per cell; on failure writes both states to
/// `target/test-failures/<name>-{gpu,cpu}.npz` so a person can look.
pub fn assert_fields_close(name: &str, gpu: &WaterState, cpu: &WaterState, tol: f32) {
    let (d, at) = max_abs_diff(&gpu.mass, &cpu.mass);
    if d <= tol {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("test-failures");
    std::fs::create_dir_all(&dir).unwrap();
    gpu.save_npz(&dir.join(format!("{name}-gpu.npz"))).unwrap();
    cpu.save_npz(&dir.join(format!("{name}-cpu.npz"))).unwrap();
    panic!(
        "{name}: GPU and CPU differ by {d} at (row, col) {at:?} (tolerance {tol}); gpu {} cpu {}; fields written to {}",
        gpu.mass[at],
        cpu.mass[at],
        dir.display()
    );
}
