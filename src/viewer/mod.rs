//! The viewer: a winit window running the water model live.
//!
//! Left-drag pours water, right-drag draws walls, Shift+drag erases (water and walls),
//! Space pauses, `.` steps once, R resets, Esc quits. The title shows fps, steps/s and the
//! total mass. `--frames N --screenshot PATH` runs N frames, saves what the window showed
//! (copied from the window's own surface texture) and exits.

mod input;

use crate::cli::{Result, ViewArgs};
use eddy::Simulation;
use eddy::gpu::{Gpu, GpuError};
use eddy::render::WaterRenderer;
use eddy::water::{GpuWater, WaterParams, WaterState};
use input::Tool;
use std::sync::Arc;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

/// Largest initial window side, pixels.
const MAX_WINDOW: u32 = 1400;
/// Largest grid side considered before the device is open (wgpu's highest common limit).
const MAX_GRID_SIDE: u32 = 16384;

pub fn run(args: ViewArgs) -> Result {
    let params = args.sim.water_params()?;
    if args.scale == 0 {
        return Err("--scale must be at least 1 pixel per cell".into());
    }
    let event_loop = EventLoop::new().map_err(|e| {
        format!("cannot open a window ({e}); set DISPLAY (e.g. run under `xvfb-run -a`) or use `eddy run`")
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App { args, params, live: None, error: None };
    event_loop.run_app(&mut app)?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

struct App {
    args: ViewArgs,
    params: WaterParams,
    live: Option<Live>,
    error: Option<Box<dyn std::error::Error>>,
}

/// Everything that exists while the window is open.
struct Live {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    renderer: WaterRenderer,
    initial: WaterState,
    sim: GpuWater,
    solid: eddy::Grid<u8>,
    paused: bool,
    step_once: bool,
    minimized: bool,
    tool: input::Pointer,
    frames: u64,
    title_clock: Instant,
    title_frames: u64,
    title_steps: u64,
}

impl App {
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<Live> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        )));
        // Size the window from the scene before creating it; the device checks the grid
        // against its real texture limit when the simulation is created.
        let initial = self.args.sim.initial_state(MAX_GRID_SIDE)?;
        let (h, w) = initial.shape();
        let fit = (MAX_WINDOW as f32 / (w.max(h) as f32 * self.args.scale as f32)).min(1.0);
        let size = PhysicalSize::new(
            ((w as u32 * self.args.scale) as f32 * fit).max(64.0) as u32,
            ((h as u32 * self.args.scale) as f32 * fit).max(64.0) as u32,
        );
        let window =
            Arc::new(event_loop.create_window(Window::default_attributes().with_title("eddy").with_inner_size(size))?);
        let surface =
            instance.create_surface(window.clone()).map_err(|e| format!("cannot draw into the window: {e}"))?;
        let gpu = pollster::block_on(Gpu::with_instance(instance, Some(&surface)))?;
        eprintln!("adapter: {}", gpu.adapter_label());
        let caps = surface.get_capabilities(&gpu.adapter);
        let format = caps.formats.iter().copied().find(|f| !f.is_srgb()).unwrap_or(caps.formats[0]);
        let inner = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, inner.width.max(1), inner.height.max(1))
            .ok_or("the window surface is not supported by this adapter")?;
        config.format = format;
        if caps.usages.contains(wgpu::TextureUsages::COPY_SRC) {
            config.usage |= wgpu::TextureUsages::COPY_SRC; // for --screenshot
        }
        surface.configure(&gpu.device, &config);
        let renderer = WaterRenderer::new(&gpu.device, format);
        let sim = GpuWater::new(&gpu.device, &gpu.queue, &initial, self.params)?;
        Ok(Live {
            solid: initial.solid.clone(),
            window,
            surface,
            config,
            renderer,
            initial,
            sim,
            gpu,
            paused: false,
            step_once: false,
            minimized: inner.width == 0 || inner.height == 0,
            tool: input::Pointer::default(),
            frames: 0,
            title_clock: Instant::now(),
            title_frames: 0,
            title_steps: 0,
        })
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, e: Box<dyn std::error::Error>) {
        self.error = Some(e);
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.live.is_some() {
            return;
        }
        match self.open(event_loop) {
            Ok(live) => {
                live.window.request_redraw();
                self.live = Some(live);
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(live) = self.live.as_mut() else { return };
        let result = match event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                Ok(false)
            }
            WindowEvent::Resized(size) => {
                live.resize(size);
                Ok(false)
            }
            WindowEvent::ModifiersChanged(m) => {
                live.tool.shift = m.state().shift_key();
                Ok(false)
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                match event.logical_key.as_ref() {
                    Key::Named(NamedKey::Escape) => event_loop.exit(),
                    Key::Named(NamedKey::Space) => live.paused = !live.paused,
                    Key::Character(".") => live.step_once = true,
                    Key::Character("r") | Key::Character("R") => live.reset(),
                    _ => {}
                }
                Ok(false)
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let tool = match button {
                    MouseButton::Left => Some(Tool::Pour),
                    MouseButton::Right => Some(Tool::Wall),
                    _ => None,
                };
                live.tool.held = if state == ElementState::Pressed { tool } else { None };
                live.tool.last = None;
                live.paint();
                Ok(false)
            }
            WindowEvent::CursorMoved { position, .. } => {
                live.tool.at = Some((position.x as f32, position.y as f32));
                live.paint();
                Ok(false)
            }
            WindowEvent::RedrawRequested => {
                live.frame(self.args.steps_per_frame, self.args.frames, &self.args.screenshot)
            }
            _ => Ok(false),
        };
        match result {
            Ok(true) => event_loop.exit(),
            Ok(false) => {}
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn about_to_wait(&mut self, _: &ActiveEventLoop) {
        if let Some(live) = &self.live {
            live.window.request_redraw();
        }
    }
}

impl Live {
    fn resize(&mut self, size: PhysicalSize<u32>) {
        self.minimized = size.width == 0 || size.height == 0;
        if !self.minimized {
            self.config.width = size.width;
            self.config.height = size.height;
            self.surface.configure(&self.gpu.device, &self.config);
        }
    }

    fn reset(&mut self) {
        match GpuWater::new(&self.gpu.device, &self.gpu.queue, &self.initial, *self.sim.params()) {
            Ok(sim) => {
                self.sim = sim;
                self.solid = self.initial.solid.clone();
            }
            Err(e) => log::error!("reset failed: {e}"),
        }
    }

    /// Applies the held tool along the pointer's path since the last event.
    fn paint(&mut self) {
        let Some(tool) = self.tool.held else { return };
        let Some(at) = self.tool.at else { return };
        let (gw, gh) = self.sim.size();
        let to_cell =
            |(x, y): (f32, f32)| (x / self.config.width as f32 * gw as f32, y / self.config.height as f32 * gh as f32);
        let radius = (gw.max(gh) as f32 / 64.0).max(1.5);
        let from = self.tool.last.map(to_cell).unwrap_or(to_cell(at));
        let to = to_cell(at);
        self.tool.last = Some(at);
        let edit = input::stroke(from, to, radius, tool, self.tool.shift, &mut self.solid);
        if edit.solid_changed {
            if let Err(e) = self.sim.upload_solid(&self.solid) {
                log::error!("{e}");
            }
        }
        for b in edit.brushes {
            self.sim.brush(&b);
        }
    }

    /// Steps, draws and presents one frame. Returns Ok(true) when the run should end.
    fn frame(&mut self, steps: u32, limit: Option<u64>, screenshot: &Option<std::path::PathBuf>) -> Result<bool> {
        self.gpu.check()?;
        let steps = if self.paused { self.step_once as u32 } else { steps };
        self.step_once = false;
        if steps > 0 {
            self.sim.step(steps)?;
            self.title_steps += steps as u64;
        }
        if self.minimized {
            return Ok(false);
        }
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.gpu.device, &self.config);
                return Ok(false);
            }
            _ => return Ok(false), // timeout, occluded: skip this frame
        };
        let view = texture.texture.create_view(&Default::default());
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        let size = (self.config.width, self.config.height);
        self.renderer.draw(&self.gpu.device, &self.gpu.queue, &mut encoder, &view, size, &self.sim);
        self.gpu.queue.submit([encoder.finish()]);
        self.frames += 1;
        self.title_frames += 1;
        let done = limit.is_some_and(|n| self.frames >= n);
        if done && let Some(path) = screenshot {
            self.save_screenshot(&texture.texture, path)?;
        }
        self.window.pre_present_notify();
        self.gpu.queue.present(texture);
        self.update_title()?;
        Ok(done)
    }

    fn save_screenshot(&self, texture: &wgpu::Texture, path: &std::path::Path) -> Result {
        if !self.config.usage.contains(wgpu::TextureUsages::COPY_SRC) {
            return Err("this surface cannot be read back (no COPY_SRC); use `eddy run --frames` instead".into());
        }
        let mut bytes = eddy::gpu::read_texture(&self.gpu.device, &self.gpu.queue, texture, 4)?;
        if matches!(self.config.format, wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb) {
            bytes.chunks_exact_mut(4).for_each(|px| px.swap(0, 2));
        }
        for px in bytes.chunks_exact_mut(4) {
            px[3] = 255; // the window is opaque whatever alpha the surface holds
        }
        let img = image::RgbaImage::from_raw(self.config.width, self.config.height, bytes).ok_or("screenshot size")?;
        img.save(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("screenshot: {}", path.display());
        Ok(())
    }

    fn update_title(&mut self) -> Result {
        let dt = self.title_clock.elapsed().as_secs_f64();
        if dt < 0.5 {
            return Ok(());
        }
        let stats = self.sim.stats().map_err(|e: GpuError| Box::new(e) as Box<dyn std::error::Error>)?;
        self.window.set_title(&format!(
            "eddy | water | {:.0} fps | {:.0} steps/s | mass {:.2} | {}",
            self.title_frames as f64 / dt,
            self.title_steps as f64 / dt,
            stats.total_mass,
            if self.paused { "paused (Space)" } else { "L pour, R wall, Shift erase" }
        ));
        self.title_clock = Instant::now();
        self.title_frames = 0;
        self.title_steps = 0;
        Ok(())
    }
}
