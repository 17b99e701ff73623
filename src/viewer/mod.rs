//! The viewer: a winit window running the models live.
//!
//! Tab (or 1 = water, 2 = smoke, 3 = gas) switches models, each keeping its own state.
//! Left-drag pours water / injects hot smoke with velocity along the drag / pushes gas along
//! the drag (a click without dragging sets off an explosion in gas), right-drag draws walls,
//! Shift+drag erases, Space pauses, `.` steps once, R resets, V cycles the field shown (gas:
//! density, velocity; smoke: density, temperature, speed, pressure, divergence), Esc quits. In
//! gas, d/m/k/f/p lower diffusion, damping, drain, friction, pressure (Shift raises them) and N
//! toggles 4/8-way flow; in smoke, j/J lower/raise the Jacobi iterations. The title shows the
//! model, fps, steps/s and totals (smoke: the divergence norm after projection). `--frames N --screenshot PATH` runs N frames, saves what the window
//! showed (copied from the window's own surface texture) and exits.

mod input;

use crate::cli::model::{Painter, Sim};
use crate::cli::{Field, Mode, Result, SimArgs, ViewArgs};
use eddy::gas::{AMBIENT_DENSITY, GasBrush, Neighbours};
use eddy::gpu::Gpu;
use eddy::smoke::Impulse;
use eddy::water::Brush;
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
/// Water added per cell per brush stamp when pouring (full-cell units).
const POUR: f32 = 0.5;
/// Gas: density added per stamp along a drag, and the speed it is given (cells/step).
const PUSH: (f32, f32) = (0.3, 0.3);
/// Gas: density added by a click, and the outward speed at its rim (cells/step).
const BLAST: (f32, f32) = (2.0, 0.3);
/// Gas parameter keys (see `Live::tune_gas`).
const GAS_KEYS: &str = "dDmMkKfFpPnN";
/// Smoke: speed given along a drag, cells per time unit.
const DRAG_SPEED: f32 = 10.0;
/// Smoke: Jacobi iterations added or removed by J / j.
const JACOBI_STEP: u32 = 10;

pub fn run(args: ViewArgs) -> Result {
    args.sim.check_params()?;
    if args.scale == 0 {
        return Err("--scale must be at least 1 pixel per cell".into());
    }
    let event_loop = EventLoop::new().map_err(|e| {
        format!("cannot open a window ({e}); set DISPLAY (e.g. run under `xvfb-run -a`) or use `eddy run`")
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App { args, live: None, error: None };
    event_loop.run_app(&mut app)?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

struct App {
    args: ViewArgs,
    live: Option<Live>,
    error: Option<Box<dyn std::error::Error>>,
}

/// One model in the viewer, with the masks the tools edit.
struct Model {
    sim: Sim,
    painter: Painter,
    solid: eddy::Grid<u8>,
    source: eddy::Grid<u8>,
}

/// Everything that exists while the window is open.
struct Live {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    sim_args: SimArgs,
    /// The field shown per model (indexed like `models`).
    fields: [Field; 3],
    models: [Option<Model>; 3],
    current: Mode,
    paused: bool,
    step_once: bool,
    minimized: bool,
    tool: input::Pointer,
    frames: u64,
    title_clock: Instant,
    title_frames: u64,
    title_steps: u64,
}

fn slot(mode: Mode) -> usize {
    match mode {
        Mode::Water => 0,
        Mode::Smoke => 1,
        Mode::Gas => 2,
    }
}

/// The fields V cycles through in `mode`.
fn fields_of(mode: Mode) -> &'static [Field] {
    match mode {
        Mode::Water => &[Field::Density],
        Mode::Gas => &[Field::Density, Field::Velocity],
        Mode::Smoke => &[Field::Density, Field::Temperature, Field::Velocity, Field::Pressure, Field::Divergence],
    }
}

impl App {
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<Live> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        )));
        let (w, h) = self.args.sim.size_hint()?;
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
        let mut live = Live {
            window,
            surface,
            config,
            gpu,
            sim_args: self.args.sim.clone(),
            fields: [Mode::Water, Mode::Smoke, Mode::Gas]
                .map(|m| if fields_of(m).contains(&self.args.field) { self.args.field } else { Field::Density }),
            models: [None, None, None],
            current: self.args.sim.mode,
            paused: false,
            step_once: false,
            minimized: inner.width == 0 || inner.height == 0,
            tool: input::Pointer::default(),
            frames: 0,
            title_clock: Instant::now(),
            title_frames: 0,
            title_steps: 0,
        };
        live.switch(self.args.sim.mode)?;
        Ok(live)
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
                live.key(event.logical_key.as_ref(), event_loop).map(|_| false)
            }
            WindowEvent::MouseInput { state, button, .. } => live.mouse(state, button).map(|_| false),
            WindowEvent::CursorMoved { position, .. } => {
                live.tool.at = Some((position.x as f32, position.y as f32));
                live.paint().map(|_| false)
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
    fn model(&mut self) -> &mut Model {
        self.models[slot(self.current)].as_mut().expect("the current model exists")
    }

    /// Makes `mode` current, creating it on first use (from the scene given, or the mode's
    /// default scene; `--load` belongs to the mode the viewer started in).
    fn switch(&mut self, mode: Mode) -> Result {
        if self.models[slot(mode)].is_none() {
            let mut args = self.sim_args.clone();
            if mode != args.mode {
                args.load = None;
            }
            args.mode = mode;
            let sim = Sim::new(&self.gpu, &args, mode)?;
            let painter = Painter::new(&self.gpu.device, mode, self.config.format, self.fields[slot(mode)]);
            let (solid, source) = match &sim {
                Sim::Water(w) => (w.solid_mask().clone(), w.solid_mask().map(|_| 0)),
                Sim::Smoke(s) => (s.masks().0.clone(), s.masks().1.clone()),
                Sim::Gas(g) => (g.masks().0.clone(), g.masks().1.clone()),
            };
            self.models[slot(mode)] = Some(Model { sim, painter, solid, source });
        }
        self.current = mode;
        Ok(())
    }

    fn key(&mut self, key: Key<&str>, event_loop: &ActiveEventLoop) -> Result {
        match key {
            Key::Named(NamedKey::Escape) => event_loop.exit(),
            Key::Named(NamedKey::Space) => self.paused = !self.paused,
            Key::Named(NamedKey::Tab) => self.switch(match self.current {
                Mode::Water => Mode::Smoke,
                Mode::Smoke => Mode::Gas,
                Mode::Gas => Mode::Water,
            })?,
            Key::Character("1") => self.switch(Mode::Water)?,
            Key::Character("2") => self.switch(Mode::Smoke)?,
            Key::Character("3") => self.switch(Mode::Gas)?,
            Key::Character(".") => self.step_once = true,
            Key::Character("r") | Key::Character("R") => {
                self.models[slot(self.current)] = None;
                self.switch(self.current)?;
            }
            Key::Character(c) if self.current == Mode::Gas && GAS_KEYS.contains(c) => self.tune_gas(c)?,
            Key::Character(c @ ("j" | "J")) if self.current == Mode::Smoke => {
                if let Some(Model { sim: Sim::Smoke(s), .. }) = self.models[slot(Mode::Smoke)].as_mut() {
                    let mut p = *s.params();
                    p.jacobi_iterations = if c == "J" {
                        p.jacobi_iterations + JACOBI_STEP
                    } else {
                        p.jacobi_iterations.saturating_sub(JACOBI_STEP).max(1)
                    };
                    s.set_params(p)?;
                }
            }
            Key::Character("v") | Key::Character("V") => {
                let (mode, i) = (self.current, slot(self.current));
                let cycle = fields_of(mode);
                let next = cycle.iter().position(|&f| f == self.fields[i]).map_or(0, |k| (k + 1) % cycle.len());
                self.fields[i] = cycle[next];
                if let Some(m) = self.models[i].as_mut() {
                    m.painter = Painter::new(&self.gpu.device, mode, self.config.format, self.fields[i]);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Gas parameter keys: lower case lowers, upper case raises, each clamped to its validated
    /// range (`GasParams::ranges`); N toggles 4/8-way flow.
    fn tune_gas(&mut self, key: &str) -> Result {
        let Some(Model { sim: Sim::Gas(g), .. }) = self.models[slot(Mode::Gas)].as_mut() else { return Ok(()) };
        let mut p = *g.params();
        let ranges = p.ranges();
        let raise = key.chars().all(char::is_uppercase);
        let nudge = |value: f32, step: f32, name: &str| {
            let &(_, _, lo, hi) = ranges.iter().find(|r| r.0 == name).expect("a parameter with a range");
            (value + if raise { step } else { -step }).clamp(lo, hi)
        };
        match key.to_ascii_lowercase().as_str() {
            "d" => p.diffusion = nudge(p.diffusion, 0.01, "diffusion"),
            "m" => p.damping = nudge(p.damping, 0.001, "damping"),
            "k" => p.drain = nudge(p.drain, 0.0005, "drain"),
            "f" => p.friction = nudge(p.friction, 0.01, "friction"),
            "p" => p.pressure = nudge(p.pressure, 0.01, "pressure"),
            "n" => p.neighbours = if p.neighbours == Neighbours::Eight { Neighbours::Four } else { Neighbours::Eight },
            _ => return Ok(()),
        }
        g.set_params(p)?;
        Ok(())
    }

    fn mouse(&mut self, state: ElementState, button: MouseButton) -> Result {
        let tool = match button {
            MouseButton::Left => Some(Tool::Pour),
            MouseButton::Right => Some(Tool::Wall),
            _ => None,
        };
        let released = state == ElementState::Released;
        // A gas click that did not drag sets off an explosion where it was released.
        if released && self.tool.held == Some(Tool::Pour) && !self.tool.moved && !self.tool.shift {
            if let (Some(at), Mode::Gas) = (self.tool.at, self.current) {
                let (center, radius) = (self.to_cell(at), self.radius());
                if let Sim::Gas(g) = &mut self.model().sim {
                    g.brush(&GasBrush {
                        center,
                        radius,
                        scale: 1.0,
                        add: BLAST.0,
                        velocity: (0.0, 0.0),
                        radial: BLAST.1,
                    });
                }
            }
        }
        self.tool.held = if released { None } else { tool };
        self.tool.last = None;
        self.tool.moved = false;
        if !released { self.paint() } else { Ok(()) }
    }

    fn to_cell(&self, (x, y): (f32, f32)) -> (f32, f32) {
        let m = self.models[slot(self.current)].as_ref().expect("current model");
        let (gw, gh) = m.sim.size();
        (x / self.config.width as f32 * gw as f32, y / self.config.height as f32 * gh as f32)
    }

    /// Radius of the viewer's smoke splats: half of `--splat-radius` (default `W / 16`).
    fn splat_radius(&self) -> f32 {
        let (gw, _) = self.models[slot(self.current)].as_ref().expect("current model").sim.size();
        (self.sim_args.splat_radius(gw as usize) * 0.5).max(1.5)
    }

    fn radius(&self) -> f32 {
        let (gw, gh) = self.models[slot(self.current)].as_ref().expect("current model").sim.size();
        (gw.max(gh) as f32 / 64.0).max(1.5)
    }

    /// Applies the held tool along the pointer's path since the last event.
    fn paint(&mut self) -> Result {
        let (Some(tool), Some(at)) = (self.tool.held, self.tool.at) else { return Ok(()) };
        let to = self.to_cell(at);
        let from = self.tool.last.map(|p| self.to_cell(p)).unwrap_or(to);
        let moved = self.tool.last.is_some();
        self.tool.last = Some(at);
        self.tool.moved |= moved && from != to;
        let (radius, erase) = (self.radius(), self.tool.shift);
        let splat_radius = self.splat_radius();
        let model = self.model();
        let stroke = input::stroke(from, to, radius, tool, erase, &mut model.solid);
        match &mut model.sim {
            Sim::Water(w) => {
                if stroke.solid_changed {
                    w.upload_solid(&model.solid)?;
                }
                if erase {
                    for &center in &stroke.stamps {
                        w.brush(&Brush { center, radius, scale: 0.0, add: 0.0 });
                    }
                } else if tool == Tool::Pour {
                    w.brush(&Brush { center: to, radius, scale: 1.0, add: POUR });
                }
            }
            Sim::Smoke(s) => {
                if stroke.solid_changed {
                    s.upload_masks(&model.solid, &model.source)?;
                }
                let p = *s.params();
                let velocity = (stroke.direction.0 * DRAG_SPEED, stroke.direction.1 * DRAG_SPEED);
                for &center in &stroke.stamps {
                    let splat = if erase {
                        // Clear air: temperature back to ambient, no smoke, no added velocity.
                        Impulse {
                            center,
                            radius: splat_radius,
                            temperature: p.ambient_temperature,
                            density: 0.0,
                            velocity: (0.0, 0.0),
                            sources: false,
                        }
                    } else if tool == Tool::Pour {
                        Impulse {
                            center,
                            radius: splat_radius,
                            temperature: p.impulse_temperature,
                            density: p.impulse_density,
                            velocity,
                            sources: false,
                        }
                    } else {
                        continue;
                    };
                    s.splat(&splat);
                }
            }
            Sim::Gas(g) => {
                if stroke.solid_changed {
                    g.upload_masks(&model.solid, &model.source)?;
                }
                let velocity = (stroke.direction.0 * PUSH.1, stroke.direction.1 * PUSH.1);
                for &center in &stroke.stamps {
                    if erase {
                        let calm = GasBrush {
                            center,
                            radius,
                            scale: 0.0,
                            add: AMBIENT_DENSITY,
                            velocity: (0.0, 0.0),
                            radial: 0.0,
                        };
                        g.brush(&calm);
                    } else if tool == Tool::Pour && moved && from != to {
                        g.brush(&GasBrush { center, radius, scale: 1.0, add: PUSH.0, velocity, radial: 0.0 });
                    }
                }
            }
        }
        Ok(())
    }

    fn resize(&mut self, size: PhysicalSize<u32>) {
        self.minimized = size.width == 0 || size.height == 0;
        if !self.minimized {
            self.config.width = size.width;
            self.config.height = size.height;
            self.surface.configure(&self.gpu.device, &self.config);
        }
    }

    /// Steps, draws and presents one frame. Returns Ok(true) when the run should end.
    fn frame(&mut self, steps: u32, limit: Option<u64>, screenshot: &Option<std::path::PathBuf>) -> Result<bool> {
        self.gpu.check()?;
        let steps = if self.paused { self.step_once as u32 } else { steps };
        self.step_once = false;
        if steps > 0 {
            self.model().sim.step(steps)?;
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
        let model = self.models[slot(self.current)].as_ref().expect("current model");
        model.painter.draw(&self.gpu, &mut encoder, &view, size, &model.sim);
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
        let (fps, rate) = (self.title_frames as f64 / dt, self.title_steps as f64 / dt);
        let paused = self.paused;
        let mode = self.current;
        let summary = self.model().sim.summary()?;
        let hint = match (paused, mode) {
            (true, _) => "paused (Space)",
            (false, Mode::Water) => "L pour, R wall, Shift erase, Tab smoke",
            (false, Mode::Smoke) => "L inject, R wall, Shift erase, V field, Tab gas",
            (false, Mode::Gas) => "L push / click blast, R wall, Shift erase, V view, Tab water",
        };
        let mode_name = format!("{mode:?}").to_lowercase();
        let field = self.fields[slot(mode)];
        let params = match &self.model().sim {
            Sim::Gas(g) => {
                let p = g.params();
                let ways = if p.neighbours == Neighbours::Eight { 8 } else { 4 };
                format!(
                    " | D {:.2} damp {:.3} drain {:.4} fric {:.2} p {:.2} {ways}-way (d/m/k/f/p, Shift raises; N)",
                    p.diffusion, p.damping, p.drain, p.friction, p.pressure
                )
            }
            Sim::Smoke(s) => format!(
                " | |div| after projection {:.3} | {} Jacobi (j/J) | field {}",
                summary.divergence.unwrap_or(f64::NAN),
                s.params().jacobi_iterations,
                format!("{field:?}").to_lowercase()
            ),
            Sim::Water(_) => String::new(),
        };
        self.window.set_title(&format!(
            "eddy | {mode_name} | {fps:.0} fps | {rate:.0} steps/s | mass {:.2} | {hint}{params}",
            summary.mass
        ));
        self.title_clock = Instant::now();
        self.title_frames = 0;
        self.title_steps = 0;
        Ok(())
    }
}
