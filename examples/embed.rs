//! Embed eddy in an application that owns its wgpu device: the app creates the device, eddy's
//! steps and its renderer are recorded into the app's own command encoder, and the water is
//! drawn into the app's own render pass, over the app's background, in a viewport the app
//! chooses (here an offscreen texture, saved as `embed.png`).
//!
//! `cargo run --release --example embed`

use eddy::colour::ColourMap;
use eddy::render::{Area, Blend, WaterRenderer};
use eddy::scene::Scene;
use eddy::water::{Brush, GpuWater, WaterParams, WaterState};
use eddy::wgpu;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The application's own instance, adapter and device (no eddy code involved).
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.request_adapter(&Default::default()))?;
    let (device, queue) = pollster::block_on(adapter.request_device(&Default::default()))?;

    // eddy on that device: a u-tube, with a splash of water poured into the right arm.
    let state = WaterState::from_scene(&Scene::preset("u-tube", 96, 64, 0)?);
    let mut sim = GpuWater::new(&device, &queue, &state, WaterParams::default())?;
    sim.brush(&Brush { center: (72.0, 10.0), radius: 4.0, scale: 1.0, add: 1.0 });

    // The app's render target and one frame: 500 steps, then draw, in one encoder.
    let size = (384, 256);
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("app target"),
        size: wgpu::Extent3d { width: size.0, height: size.1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let view = target.create_view(&Default::default());
    let mut renderer = WaterRenderer::with_blend(&device, wgpu::TextureFormat::Rgba8Unorm, Blend::Alpha)?;
    let mut encoder = device.create_command_encoder(&Default::default());
    sim.encode_steps(&mut encoder, 500);
    // The app's own pass, cleared to its own background; eddy draws the water into the left
    // two thirds, its air transparent, and leaves the rest of the pass to the app.
    let drawing = renderer.prepare(
        &device,
        &mut encoder,
        Area { origin: (0.0, 0.0), size: (256.0, 171.0) },
        &sim,
        ColourMap::Own,
    );
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("app pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.9, g: 0.75, b: 0.5, a: 1.0 }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        drawing.render(&mut pass);
    }
    queue.submit([encoder.finish()]);

    let pixels = eddy::gpu::read_texture(&device, &queue, &target, 4)?;
    image::RgbaImage::from_raw(size.0, size.1, pixels).ok_or("size")?.save("embed.png")?;
    println!("wrote embed.png after {} steps", 500);
    Ok(())
}
