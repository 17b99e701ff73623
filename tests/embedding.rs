//! eddy inside an application's own wgpu device: steps, edits, wall changes and
//! statistics recorded into one application encoder take effect in recording order.
//!
//! Each test records k steps, an edit, a statistics request, a change of walls (and in smoke a
//! second edit) and m more steps into one encoder after some steps already submitted, submits once, and compares with
//! the CPU reference doing the same sequence in order, at the models' GPU-vs-CPU tolerances
//! (water bit for bit, gas and smoke 1e-5 of each field's largest value; see
//! `water_gpu_vs_cpu.rs`, `gas_gpu_vs_cpu.rs`, `smoke_gpu_vs_cpu.rs`). Each test also checks
//! that the CPU sequence with the edit moved differs beyond that tolerance, so that a GPU that
//! ran the edit out of order fails.

mod common;

use eddy_fluid::GpuModel;
use eddy_fluid::Simulation;
use eddy_fluid::gas::{CpuGas, GasBrush, GasParams, GasStats, GpuGas};
use eddy_fluid::smoke::{CpuSmoke, GpuSmoke, Impulse, SmokeParams, SmokeStats};
use eddy_fluid::water::{Brush, CpuWater, GpuWater, WaterParams, WaterStats};
use eddy_fluid::wgpu;

/// A device made as an application makes it: its own instance, the first adapter, wgpu's
/// default limits and no features (eddy's own `Gpu` asks for the adapter's limits).
fn app_device() -> (wgpu::Device, wgpu::Queue) {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
        .expect("GPU tests need a wgpu adapter: apt-get install -y mesa-vulkan-drivers libvulkan1");
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))
        .expect("the adapter refused a device with default limits");
    (device, queue)
}

/// Polls `device` until the statistics recorded into a submitted encoder arrive.
fn collect<T>(device: &wgpu::Device, mut collect: impl FnMut() -> Option<T>) -> T {
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    collect().expect("statistics recorded into a submitted encoder had not arrived after the device went idle")
}

/// `solid` with a vertical wall segment added at column `c`, rows `rows`.
fn with_wall(solid: &eddy_fluid::Grid<u8>, c: usize, rows: std::ops::Range<usize>) -> eddy_fluid::Grid<u8> {
    let mut s = solid.clone();
    for r in rows {
        s[(r, c)] = 1;
    }
    s
}

#[test]
fn water_steps_brush_stats_and_walls_run_in_recording_order() {
    let (device, queue) = app_device();
    let state = common::random_water(53, 37, 5, 0.08);
    let p = WaterParams::default();
    let mut gpu = GpuWater::new(&device, &queue, &state, p).unwrap();
    let mut cpu = CpuWater::new(state.clone(), p).unwrap();
    let pour = Brush::pour((20.5, 14.0), 6.0);
    let walls = with_wall(&state.solid, 30, 5..25);

    // 10 steps submitted, then one encoder: 1 step, the brush, statistics, the walls, 2 steps.
    gpu.step(10).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    gpu.encode_steps(&mut encoder, 1);
    gpu.encode_brush(&mut encoder, &pour);
    gpu.encode_stats(&mut encoder);
    gpu.encode_solid(&mut encoder, &walls).unwrap();
    gpu.encode_steps(&mut encoder, 2);
    queue.submit([encoder.finish()]);
    let stats = collect(&device, || gpu.collect_stats()).unwrap();

    cpu.step(11).unwrap();
    let before_brush = cpu.state().clone();
    cpu.brush(&pour);
    let cpu_stats = WaterStats::of(cpu.state(), p.min_mass);
    let mut after = cpu.state().clone();
    after.solid = walls.clone();
    let mut cpu = CpuWater::new(after, p).unwrap();
    // A zero-radius brush empties the cells that became solid, as the GPU's wall change does.
    cpu.brush(&Brush { center: (0.0, 0.0), radius: 0.0, scale: 1.0, add: 0.0 });
    cpu.step(2).unwrap();

    assert_eq!(gpu.steps_done(), 13);
    common::assert_fields_close("embedded-water", &gpu.read_state().unwrap(), cpu.state(), 0.0);
    let rel = (stats.total_mass - cpu_stats.total_mass).abs() / cpu_stats.total_mass;
    assert!(rel < 1e-5, "statistics recorded after the brush: GPU {} CPU {}", stats.total_mass, cpu_stats.total_mass);
    // The statistics were of the state between the brush and the walls: neither before the
    // brush nor at the end.
    for other in
        [WaterStats::of(&before_brush, p.min_mass).total_mass, WaterStats::of(cpu.state(), p.min_mass).total_mass]
    {
        assert!((other - cpu_stats.total_mass).abs() / cpu_stats.total_mass > 1e-3, "the order would not show");
    }
    // The brush recorded before the steps of its encoder (as it used to run) gives another state.
    let mut moved = CpuWater::new(state, p).unwrap();
    moved.step(10).unwrap();
    moved.brush(&pour);
    moved.step(1).unwrap();
    assert_ne!(moved.state().mass, before_brush.mass, "the order would not show");
}

#[test]
fn gas_steps_blast_stats_and_walls_run_in_recording_order() {
    let (device, queue) = app_device();
    let state = common::random_gas(48, 40, 11, 0.05);
    let p = GasParams::default();
    let mut gpu = GpuGas::new(&device, &queue, &state, p).unwrap();
    let mut cpu = CpuGas::new(state.clone(), p).unwrap();
    let blast = GasBrush::blast((22.0, 18.5), 5.0);
    let walls = with_wall(&state.solid, 35, 4..30);

    gpu.step(6).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    gpu.encode_steps(&mut encoder, 2);
    gpu.encode_brush(&mut encoder, &blast);
    gpu.encode_stats(&mut encoder);
    gpu.encode_masks(&mut encoder, &walls, &state.source).unwrap();
    gpu.encode_steps(&mut encoder, 3);
    queue.submit([encoder.finish()]);
    let stats = collect(&device, || gpu.collect_stats()).unwrap();

    cpu.step(8).unwrap();
    let before_blast = cpu.state().clone();
    cpu.brush(&blast);
    let cpu_stats = GasStats::of(cpu.state());
    let mut after = cpu.state().clone();
    after.solid = walls.clone();
    let mut cpu = CpuGas::new(after, p).unwrap();
    let empty = GasBrush { center: (0.0, 0.0), radius: 0.0, scale: 1.0, add: 0.0, velocity: (0.0, 0.0), radial: 0.0 };
    cpu.brush(&empty);
    cpu.step(3).unwrap();

    assert_eq!(gpu.steps_done(), 11);
    let (g, c) = (gpu.read_state().unwrap(), cpu.state());
    let fields = [
        ("density", &g.density, &c.density),
        ("momentum_x", &g.momentum_x, &c.momentum_x),
        ("momentum_y", &g.momentum_y, &c.momentum_y),
    ];
    common::assert_close_rel("embedded-gas", &fields, 1e-5, |_, _| {});
    let rel = (stats.total_mass - cpu_stats.total_mass).abs() / cpu_stats.total_mass;
    assert!(rel < 1e-5, "statistics recorded after the blast: GPU {} CPU {}", stats.total_mass, cpu_stats.total_mass);
    let before = GasStats::of(&before_blast).total_mass;
    assert!((before - cpu_stats.total_mass).abs() / cpu_stats.total_mass > 1e-3, "the order would not show");
}

#[test]
fn smoke_steps_splat_stats_and_walls_run_in_recording_order() {
    let (device, queue) = app_device();
    let state = common::random_smoke_staggered(40, 32, 21, 0.05);
    let p = SmokeParams { jacobi_iterations: 20, ..SmokeParams::default() };
    let mut gpu = GpuSmoke::new(&device, &queue, &state, p).unwrap();
    let mut cpu = CpuSmoke::new(state.clone(), p).unwrap();
    let splat = Impulse::splat((15.0, 12.0), 5.0, &p, (1.0, -0.5), 120.0);
    let second = Impulse::splat((30.0, 22.0), 4.0, &p, (-0.5, 0.0), 240.0);
    let walls = with_wall(&state.solid, 28, 3..20);

    gpu.step(2).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    gpu.encode_steps(&mut encoder, 1);
    gpu.encode_splat(&mut encoder, &splat);
    gpu.encode_stats(&mut encoder);
    gpu.encode_masks(&mut encoder, &walls, &state.source).unwrap();
    // A second splat in the same encoder: each keeps its own uniform.
    gpu.encode_splat(&mut encoder, &second);
    gpu.encode_steps(&mut encoder, 2);
    queue.submit([encoder.finish()]);
    let stats = collect(&device, || gpu.collect_stats()).unwrap();

    cpu.step(3).unwrap();
    let before_splat = cpu.state().clone();
    cpu.splat(&splat);
    let cpu_stats = SmokeStats::of(cpu.state(), &p);
    let mut after = cpu.state().clone();
    after.solid = walls.clone();
    let mut cpu = CpuSmoke::new(after, p).unwrap();
    cpu.splat(&second);
    cpu.step(2).unwrap();

    assert_eq!(gpu.steps_done(), 5);
    common::assert_smoke_close("embedded-smoke", &gpu.read_state().unwrap(), cpu.state(), 1e-5);
    let rel = (stats.total_density - cpu_stats.total_density).abs() / cpu_stats.total_density;
    assert!(
        rel < 1e-5,
        "statistics recorded after the splat: GPU {} CPU {}",
        stats.total_density,
        cpu_stats.total_density
    );
    let before = SmokeStats::of(&before_splat, &p).total_density;
    assert!((before - cpu_stats.total_density).abs() / cpu_stats.total_density > 1e-3, "the order would not show");
}

/// Bodies in an application's encoder: steps, a body added, steps, the body driven
/// anew, steps, all recorded into one encoder, take effect in recording order: the state equals
/// the CPU reference doing the same in that order, and not the one where the drive came first;
/// a read of the fluid's forces recorded between them holds the steps before it.
#[test]
fn smoke_bodies_and_their_drives_run_in_recording_order() {
    let (device, queue) = app_device();
    let state = common::random_smoke_staggered(40, 32, 22, 0.05);
    let p = SmokeParams { jacobi_iterations: 20, ..SmokeParams::default() };
    let disc = eddy_fluid::body::Body::parse("circle:x=12.3,y=15.2,r=4,vx=6").unwrap();
    let mut gpu = GpuSmoke::new(&device, &queue, &state, p).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    gpu.encode_steps(&mut encoder, 2);
    gpu.encode_bodies(&mut encoder, &[disc]).unwrap();
    gpu.encode_steps(&mut encoder, 3);
    // The fluid's forces on the body so far, read where the encoder has got to.
    gpu.force_log().unwrap().encode_request(&device, &mut encoder);
    gpu.encode_drive(&mut encoder, 0, (-2.0, 5.0), 0.5).unwrap();
    gpu.encode_steps(&mut encoder, 3);
    queue.submit([encoder.finish()]);
    let logged = collect(&device, || gpu.force_log().unwrap().collect(&device)).unwrap();
    let got = gpu.read_state().unwrap();

    let mut cpu = CpuSmoke::new(state.clone(), p).unwrap();
    cpu.step(2).unwrap();
    let mut s = cpu.state().clone();
    s.bodies = vec![disc];
    let mut cpu = CpuSmoke::new(s, p).unwrap();
    cpu.step(3).unwrap();
    // The request holds the three steps with the body before it, the last one's forces the
    // CPU mirror's of the state there (to the steps' own agreement; the forces sum many faces).
    assert_eq!(logged.iter().map(|s| s.step).collect::<Vec<_>>(), [3, 4, 5]);
    let mirror = eddy_fluid::smoke::staggered::bodies::forces(cpu.state(), &p)[0];
    let f = logged[2].forces[0];
    let scale = mirror.fx.abs().max(mirror.fy.abs()).max(1.0);
    assert!(
        (f.fx - mirror.fx).abs() < 1e-2 * scale && (f.fy - mirror.fy).abs() < 1e-2 * scale,
        "the logged force {f:?}, the CPU mirror's {mirror:?}"
    );
    let mut s = cpu.state().clone();
    (s.bodies[0].vx, s.bodies[0].vy, s.bodies[0].spin) = (-2.0, 5.0, 0.5);
    let mut cpu = CpuSmoke::new(s, p).unwrap();
    cpu.step(3).unwrap();
    common::assert_smoke_close("embedded-bodies", &got, cpu.state(), 1e-4);
    assert_eq!(got.solid, cpu.state().solid, "the masks differ");
    let (g, c) = (got.bodies[0], cpu.state().bodies[0]);
    assert!((g.x - c.x).abs() < 1e-4 && (g.y - c.y).abs() < 1e-4, "the body is at {g:?}, the CPU's at {c:?}");
    // Driven from the start instead, the body would be elsewhere: the order shows.
    assert!((c.x - (12.3 + 6.0 * 3.0 * p.dt - 2.0 * 3.0 * p.dt)).abs() < 1e-3, "the CPU's body at {c:?}");
}

/// An `Rgba8Unorm` texture an application renders into and reads back.
fn target(device: &wgpu::Device, size: (u32, u32)) -> wgpu::Texture {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    eddy_fluid::gpu::texture_2d(device, "app target", size, wgpu::TextureFormat::Rgba8Unorm, usage)
}

/// The application's own render pass over `view`, cleared to `background` (or loaded).
fn app_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    view: &wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("app pass"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
        })],
        ..Default::default()
    })
}

const APP_BACKGROUND: wgpu::Color = wgpu::Color { r: 1.0, g: 0.0, b: 1.0, a: 1.0 };
const APP_PIXEL: [u8; 4] = [255, 0, 255, 255];

/// A water state with water in its lower half and air above, walls round the edge.
fn half_full(w: usize, h: usize) -> eddy_fluid::water::WaterState {
    let solid = eddy_fluid::Grid::from_fn(w, h, |r, c| (r == 0 || c == 0 || r == h - 1 || c == w - 1) as u8);
    let mass = eddy_fluid::Grid::from_fn(w, h, |r, c| if r >= h / 2 && solid[(r, c)] == 0 { 1.0 } else { 0.0 });
    eddy_fluid::water::WaterState { mass, solid, bodies: Vec::new() }
}

#[test]
fn two_draws_of_one_renderer_in_one_encoder_each_show_their_own_settings() {
    use eddy_fluid::colour::ColourMap;
    use eddy_fluid::render::WaterRenderer;
    let (device, queue) = app_device();
    let sim = GpuWater::new(&device, &queue, &half_full(24, 16), WaterParams::default()).unwrap();
    let mut renderer = WaterRenderer::new(&device, wgpu::TextureFormat::Rgba8Unorm).unwrap();
    let size = (48, 32);
    let maps = [ColourMap::Own, ColourMap::Viridis];
    let targets = maps.map(|_| target(&device, size));
    let views = targets.each_ref().map(|t| t.create_view(&Default::default()));

    // Both draws prepared, then both rendered, in one encoder.
    let mut encoder = device.create_command_encoder(&Default::default());
    let drawings = maps.map(|m| renderer.prepare(&device, &mut encoder, size, &sim, m));
    for (drawing, view) in drawings.iter().zip(&views) {
        drawing.render(&mut app_pass(&mut encoder, view, wgpu::LoadOp::Clear(APP_BACKGROUND)));
    }
    queue.submit([encoder.finish()]);
    let together = targets.each_ref().map(|t| eddy_fluid::gpu::read_texture(&device, &queue, t, 4).unwrap());
    assert_ne!(together[0], together[1], "the two settings draw the same image: the test would prove nothing");

    // Each alone, in an encoder of its own.
    for (k, map) in maps.into_iter().enumerate() {
        let mut encoder = device.create_command_encoder(&Default::default());
        let drawing = renderer.prepare(&device, &mut encoder, size, &sim, map);
        drawing.render(&mut app_pass(&mut encoder, &views[k], wgpu::LoadOp::Clear(APP_BACKGROUND)));
        queue.submit([encoder.finish()]);
        let alone = eddy_fluid::gpu::read_texture(&device, &queue, &targets[k], 4).unwrap();
        assert!(alone == together[k], "draw {k} ({map:?}) in one encoder with another differs from it alone");
    }
}

#[test]
fn a_draw_into_the_apps_pass_keeps_the_apps_pixels_and_blends_air() {
    use eddy_fluid::colour::ColourMap;
    use eddy_fluid::render::{Area, Blend, WaterRenderer};
    let (device, queue) = app_device();
    let (w, h) = (24, 16);
    let sim = GpuWater::new(&device, &queue, &half_full(w, h), WaterParams::default()).unwrap();
    let size = (64u32, 48u32);
    // The grid at 2 pixels a cell, at (8, 10) in the app's target.
    let area = Area { origin: (8.0, 10.0), size: (48.0, 32.0) };
    for blend in [Blend::Opaque, Blend::Alpha] {
        let mut renderer = WaterRenderer::with_blend(&device, wgpu::TextureFormat::Rgba8Unorm, blend).unwrap();
        let texture = target(&device, size);
        let view = texture.create_view(&Default::default());
        // The app clears in one pass and draws eddy in a second that loads what is there.
        let mut encoder = device.create_command_encoder(&Default::default());
        drop(app_pass(&mut encoder, &view, wgpu::LoadOp::Clear(APP_BACKGROUND)));
        let drawing = renderer.prepare(&device, &mut encoder, area, &sim, ColourMap::Own);
        drawing.render(&mut app_pass(&mut encoder, &view, wgpu::LoadOp::Load));
        queue.submit([encoder.finish()]);
        let pixels = eddy_fluid::gpu::read_texture(&device, &queue, &texture, 4).unwrap();
        let at = |x: u32, y: u32| -> [u8; 4] {
            let i = 4 * (y * size.0 + x) as usize;
            pixels[i..i + 4].try_into().unwrap()
        };
        for y in 0..size.1 {
            for x in 0..size.0 {
                let inside = area.contains((x as f32 + 0.5, y as f32 + 0.5));
                let (col, row) = ((x - 8 * inside as u32) / 2, (y - 10 * inside as u32) / 2);
                let wall = inside && (row == 0 || col == 0 || row == h as u32 - 1 || col == w as u32 - 1);
                let water = inside && !wall && row >= h as u32 / 2;
                let air = inside && !wall && !water;
                if !inside || (air && blend == Blend::Alpha) {
                    assert_eq!(at(x, y), APP_PIXEL, "{blend:?}: pixel ({x}, {y}) should be the app's");
                } else {
                    assert_ne!(at(x, y), APP_PIXEL, "{blend:?}: pixel ({x}, {y}) should be eddy's");
                }
            }
        }
    }
}

#[test]
fn a_renderer_for_a_format_it_cannot_draw_to_is_an_error_not_a_panic() {
    use eddy_fluid::render::{GasRenderer, SmokeRenderer, WaterRenderer};
    let (device, _queue) = app_device();
    let depth = wgpu::TextureFormat::Depth32Float;
    let errors = [
        WaterRenderer::new(&device, depth).err(),
        SmokeRenderer::new(&device, depth).err(),
        GasRenderer::new(&device, depth).err(),
    ];
    for e in errors {
        let e = e.expect("a renderer for a depth format was made");
        assert!(matches!(e, eddy_fluid::gpu::GpuError::Validation(_)), "{e}");
    }
}

/// A device on the first adapter with exactly `limits`.
fn device_with(limits: wgpu::Limits) -> (wgpu::Device, wgpu::Queue) {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default())).unwrap();
    let desc = wgpu::DeviceDescriptor { required_limits: limits, ..Default::default() };
    pollster::block_on(adapter.request_device(&desc)).expect("the adapter refused lower limits")
}

/// What each model's constructor says on `device` (`None`: it was made).
fn construct_all(device: &wgpu::Device, queue: &wgpu::Queue) -> [Option<eddy_fluid::Error>; 3] {
    let water = common::random_water(16, 12, 1, 0.1);
    let gas = common::random_gas(16, 12, 1, 0.1);
    let smoke = common::random_smoke_staggered(16, 12, 1, 0.1);
    [
        GpuWater::new(device, queue, &water, WaterParams::default()).err(),
        GpuSmoke::new(device, queue, &smoke, SmokeParams::default()).err(),
        GpuGas::new(device, queue, &gas, GasParams::default()).err(),
    ]
}

#[test]
fn a_device_with_webgl2_limits_gets_eddys_error_naming_the_limits() {
    let (device, queue) = device_with(wgpu::Limits::downlevel_webgl2_defaults());
    for (model, e) in ["water", "smoke", "gas"].into_iter().zip(construct_all(&device, &queue)) {
        let e = e.unwrap_or_else(|| panic!("{model} was made on a device without compute shaders"));
        let text = e.to_string();
        assert!(matches!(e, eddy_fluid::Error::Gpu(eddy_fluid::gpu::GpuError::DeviceLacks { .. })), "{model}: {text}");
        assert!(text.contains(&format!("cannot run {model}")), "{text}");
        assert!(text.contains("max_compute_workgroups_per_dimension 1 (it has 0)"), "{text}");
        assert!(text.contains("max_storage_textures_per_shader_stage"), "{text}");
        assert!(text.contains("required_limits"), "the message says what to do: {text}");
    }
}

#[test]
fn two_storage_textures_per_stage_run_water_and_name_the_limit_for_smoke_and_gas() {
    let limits = wgpu::Limits { max_storage_textures_per_shader_stage: 2, ..wgpu::Limits::default() };
    let (device, queue) = device_with(limits);
    let [water, smoke, gas] = construct_all(&device, &queue);
    assert!(water.is_none(), "water needs one storage texture a stage: {water:?}");
    for (e, needed) in [(smoke, 4), (gas, 4)] {
        let text = e.expect("made with too few storage textures").to_string();
        assert!(text.contains(&format!("max_storage_textures_per_shader_stage {needed} (it has 2)")), "{text}");
    }
}

#[test]
fn a_device_made_with_the_required_limits_runs_every_model() {
    let needs = eddy_fluid::ModelKind::requirements(&eddy_fluid::ModelKind::ALL);
    let (device, queue) = device_with(needs.limits());
    needs.check_device(&device).unwrap();
    for (model, e) in ["water", "smoke", "gas"].into_iter().zip(construct_all(&device, &queue)) {
        assert!(e.is_none(), "{model} on the required limits: {e:?}");
    }
}

#[test]
fn a_readback_future_completes_under_the_apps_own_poll() {
    use std::task::{Context, Poll, Waker};
    let (device, queue) = app_device();
    let state = common::random_water(30, 20, 3, 0.1);
    let mut sim = GpuWater::new(&device, &queue, &state, WaterParams::default()).unwrap();
    let mut cpu = CpuWater::new(state, WaterParams::default()).unwrap();
    sim.step(4).unwrap();
    cpu.step(4).unwrap();
    // A frame loop: poll the future once a frame, and the device, never blocking in eddy.
    let mut cx = Context::from_waker(Waker::noop());
    let mut future = std::pin::pin!(sim.read_state_async());
    let mut frames = 0;
    let read = loop {
        if let Poll::Ready(r) = future.as_mut().poll(&mut cx) {
            break r.unwrap();
        }
        frames += 1;
        assert!(frames < 100, "the readback did not complete after {frames} frames of polling");
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    };
    assert!(frames >= 1, "the future completed before the device was polled: it must have blocked");
    common::assert_fields_close("embedded-readback", &read, cpu.state(), 0.0);
}

#[test]
fn a_hostile_area_draws_nothing_or_what_fits_and_never_a_validation_error() {
    use eddy_fluid::colour::ColourMap;
    use eddy_fluid::render::{Area, WaterRenderer};
    let (device, queue) = app_device();
    let sim = GpuWater::new(&device, &queue, &half_full(24, 16), WaterParams::default()).unwrap();
    let mut renderer = WaterRenderer::new(&device, wgpu::TextureFormat::Rgba8Unorm).unwrap();
    let texture = target(&device, (64, 48));
    let view = texture.create_view(&Default::default());
    let areas = [
        Area { origin: (f32::NAN, 30.0), size: (20.0, 20.0) },
        Area { origin: (0.0, 0.0), size: (-5.0, 64.0) },
        Area { origin: (0.0, 0.0), size: (f32::INFINITY, 64.0) },
        Area { origin: (-1e6, -1e6), size: (3e6, 3e6) }, // zoomed far in: the target is inside it
        Area { origin: (-20.0, 30.0), size: (96.0, 64.0) }, // partly outside the target
    ];
    for area in areas {
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let mut encoder = device.create_command_encoder(&Default::default());
        let drawing = renderer.prepare(&device, &mut encoder, area, &sim, ColourMap::Own);
        drawing.render(&mut app_pass(&mut encoder, &view, wgpu::LoadOp::Clear(APP_BACKGROUND)));
        queue.submit([encoder.finish()]);
        let error = pollster::block_on(scope.pop());
        assert!(error.is_none(), "{area:?}: {error:?}");
        let pixels = eddy_fluid::gpu::read_texture(&device, &queue, &texture, 4).unwrap();
        let drawn = pixels.chunks_exact(4).filter(|p| *p != APP_PIXEL).count();
        let finite = area.origin.0.is_finite() && area.size.0.is_finite() && area.size.0 > 0.0;
        assert_eq!(drawn > 0, finite, "{area:?}: {drawn} pixels drawn");
    }
}

#[test]
fn parameter_changes_recorded_between_steps_apply_from_there() {
    let (device, queue) = app_device();
    // Water: side share and compression changed after 5 of 12 steps.
    let state = common::random_water(40, 28, 9, 0.08);
    let (p, q) =
        (WaterParams::default(), WaterParams { side_share: 0.3, max_compress: 0.05, ..WaterParams::default() });
    let mut gpu = GpuWater::new(&device, &queue, &state, p).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    gpu.encode_steps(&mut encoder, 5);
    gpu.encode_params(&mut encoder, q).unwrap();
    gpu.encode_steps(&mut encoder, 7);
    queue.submit([encoder.finish()]);
    let mut cpu = CpuWater::new(state.clone(), p).unwrap();
    cpu.step(5).unwrap();
    let mut cpu = CpuWater::new(cpu.state().clone(), q).unwrap();
    cpu.step(7).unwrap();
    common::assert_fields_close("embedded-water-params", &gpu.read_state().unwrap(), cpu.state(), 0.0);
    let mut unchanged = CpuWater::new(state, p).unwrap();
    unchanged.step(12).unwrap();
    assert_ne!(unchanged.state().mass, cpu.state().mass, "the change would not show");

    // Gas: pressure and diffusion changed after 4 of 10 steps.
    let state = common::random_gas(36, 30, 4, 0.05);
    let (p, q) = (GasParams::default(), GasParams { pressure: 0.05, diffusion: 0.02, ..GasParams::default() });
    let mut gpu = GpuGas::new(&device, &queue, &state, p).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    gpu.encode_steps(&mut encoder, 4);
    gpu.encode_params(&mut encoder, q).unwrap();
    gpu.encode_steps(&mut encoder, 6);
    queue.submit([encoder.finish()]);
    let mut cpu = CpuGas::new(state, p).unwrap();
    cpu.step(4).unwrap();
    let mut cpu = CpuGas::new(cpu.state().clone(), q).unwrap();
    cpu.step(6).unwrap();
    let (g, c) = (gpu.read_state().unwrap(), cpu.state());
    let fields = [
        ("density", &g.density, &c.density),
        ("momentum_x", &g.momentum_x, &c.momentum_x),
        ("momentum_y", &g.momentum_y, &c.momentum_y),
    ];
    common::assert_close_rel("embedded-gas-params", &fields, 1e-5, |_, _| {});

    // Smoke: vorticity confinement and buoyancy changed after 2 of 4 steps; a change of grid
    // cannot be recorded and changes nothing.
    let state = common::random_smoke_staggered(32, 24, 8, 0.05);
    let p = SmokeParams { jacobi_iterations: 20, ..SmokeParams::default() };
    let q = SmokeParams { vorticity: p.vorticity * 2.0 + 1.0, buoyancy: p.buoyancy * 0.5, ..p };
    let mut gpu = GpuSmoke::new(&device, &queue, &state, p).unwrap();
    let mut encoder = device.create_command_encoder(&Default::default());
    gpu.encode_steps(&mut encoder, 2);
    gpu.encode_params(&mut encoder, q).unwrap();
    let other_grid = SmokeParams { grid: eddy_fluid::smoke::GridLayout::Collocated, ..q };
    assert!(gpu.encode_params(&mut encoder, other_grid).is_err(), "a change of grid was recorded");
    assert_eq!(gpu.params(), q);
    gpu.encode_steps(&mut encoder, 2);
    queue.submit([encoder.finish()]);
    let mut cpu = CpuSmoke::new(state, p).unwrap();
    cpu.step(2).unwrap();
    let mut cpu = CpuSmoke::new(cpu.state().clone(), q).unwrap();
    cpu.step(2).unwrap();
    common::assert_smoke_close("embedded-smoke-params", &gpu.read_state().unwrap(), cpu.state(), 1e-5);
}
