//! Shared test helpers: the test device, random states, field comparison with artefacts.
#![allow(dead_code)]

use eddy_fluid::Grid;
use eddy_fluid::gpu::Gpu;
use eddy_fluid::water::WaterState;
use std::path::PathBuf;

pub mod files;
mod states;
pub use states::*;

/// The test device: an adapter that runs every model (a software one is fine), validation on. Panics with an install
/// hint when there is none: a GPU test never passes without a device.
pub fn gpu() -> Gpu {
    match Gpu::headless_for(&eddy_fluid::ModelKind::requirements(&eddy_fluid::ModelKind::ALL)) {
        Ok(g) => g,
        Err(e) => panic!(
            "GPU tests need a wgpu adapter and found none: {e}\n\
             On Linux without a GPU: apt-get install -y mesa-vulkan-drivers libvulkan1"
        ),
    }
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
    // Without the `npz` feature (the bare library's tests) the fields are not written.
    #[cfg(feature = "npz")]
    {
        gpu.save_npz(&dir.join(format!("{name}-gpu.npz"))).unwrap();
        cpu.save_npz(&dir.join(format!("{name}-cpu.npz"))).unwrap();
    }
    panic!(
        "{name}: GPU and CPU differ by {d} at (row, col) {at:?} (tolerance {tol}); gpu {} cpu {}; fields written to {}",
        gpu.mass[at],
        cpu.mass[at],
        dir.display()
    );
}

/// Asserts every `(name, gpu, cpu)` field agrees within `rel` of the CPU field's largest
/// magnitude; on failure writes both states with `save` to `target/tmp/test-failures/`.
pub fn assert_close_rel(
    name: &str,
    fields: &[(&str, &Grid<f32>, &Grid<f32>)],
    rel: f32,
    save: impl Fn(&std::path::Path, &str),
) {
    for (field, g, c) in fields {
        let max = c.as_slice().iter().fold(0.0f32, |m, v| m.max(v.abs())).max(f32::MIN_POSITIVE);
        let (d, at) = max_abs_diff(g, c);
        if d <= rel * max {
            continue;
        }
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("test-failures");
        std::fs::create_dir_all(&dir).unwrap();
        save(&dir, name);
        panic!(
            "{name}: {field} differs by {d} at (row, col) {at:?}, more than {rel} x max {max}; gpu {} cpu {}; states in {}",
            g[at],
            c[at],
            dir.display()
        );
    }
}

/// Asserts every smoke field of `gpu` is within `rel` of the CPU field's largest magnitude.
///
/// Pressures are compared pinned ([`pin_pressure`]): less their mean over each closed region.
pub fn assert_smoke_close(
    name: &str,
    gpu: &eddy_fluid::smoke::SmokeState,
    cpu: &eddy_fluid::smoke::SmokeState,
    rel: f32,
) {
    let (gpu_p, cpu_p) = (pin_pressure(&gpu.pressure, &gpu.solid), pin_pressure(&cpu.pressure, &cpu.solid));
    assert_close_rel(
        name,
        &[
            ("velocity x", &gpu.velocity_x, &cpu.velocity_x),
            ("velocity y", &gpu.velocity_y, &cpu.velocity_y),
            ("temperature", &gpu.temperature, &cpu.temperature),
            ("density", &gpu.density, &cpu.density),
            ("pressure (pinned)", &gpu_p, &cpu_p),
            ("divergence", &gpu.divergence, &cpu.divergence),
            ("dye red", &gpu.dye[0], &cpu.dye[0]),
            ("dye green", &gpu.dye[1], &cpu.dye[1]),
            ("dye blue", &gpu.dye[2], &cpu.dye[2]),
        ],
        rel,
        |_dir, _name| {
            #[cfg(feature = "npz")]
            {
                gpu.save_npz(&_dir.join(format!("{_name}-gpu.npz"))).unwrap();
                cpu.save_npz(&_dir.join(format!("{_name}-cpu.npz"))).unwrap();
            }
        },
    );
}

/// `model` drawn over a target cleared to transparent (so `Blend::Alpha`'s see-through pixels
/// show), `scale` pixels a cell: the image read back.
#[cfg(feature = "png")]
pub fn draw_over_transparent(gpu: &Gpu, model: &mut eddy_fluid::model::AnyModel, scale: u32) -> image::RgbaImage {
    use eddy_fluid::render::FrameTarget;
    let target = FrameTarget::new(&gpu.device, model.size(), scale).unwrap();
    target
        .render(&gpu.device, &gpu.queue, |encoder, view, size| {
            let drawing = model.prepare(encoder, FrameTarget::FORMAT, size)?;
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: None,
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            drawing.render(&mut pass);
            Ok(())
        })
        .unwrap()
}
