//! The viewer: a winit window running the models live ([`run`]). Feature `viewer`.
//!
//! Tab (or 1 = water, 2 = smoke, 3 = gas) switches models, each keeping its own state.
//! Left-drag applies the model's fluid tool ([`crate::model::ModelInfo::left_button`]),
//! right-drag draws walls, Shift+drag erases, Space pauses, `.` steps once, R resets the scene,
//! V cycles the field shown, Esc quits; every parameter with a key in its model's table
//! ([`crate::model::ParamInfo::key`]) is lowered by its key and raised by Shift+key. The title
//! shows the model, fps, steps/s, the model's total (from the GPU reduction, not a readback), the
//! keyed parameters and the field. With `frames` and `screenshot` it runs that many frames,
//! saves what the window showed (drawn again into an offscreen target, so any adapter can) and
//! exits.

use crate::gpu::{Gpu, GpuError};
use crate::model::tools::{Stroke, Tool};
use crate::model::{AnyModel, AnyState, ModelKind, ModelParams, memory};
use crate::render::FrameTarget;
use crate::scene::SceneSource;
use std::path::PathBuf;
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

/// Any error the viewer stops with.
pub type Error = Box<dyn std::error::Error>;

/// Where the first model starts.
pub enum Start {
    /// A scene file or preset. A PNG applies to every model; a preset to its own model, the
    /// others starting on their default preset at the same size.
    Scene(SceneSource),
    /// A loaded state and its step; the other models start on their default preset at its size.
    State(Box<AnyState>, u64),
}

/// What the viewer opens with.
pub struct ViewerOptions {
    /// The first model's parameters (which model, too); the others start with their defaults.
    pub params: ModelParams,
    /// Where it starts.
    pub start: Start,
    /// Grid size `(W, H)` of presets, cells (and of the first model).
    pub size: (usize, usize),
    /// Seed of the `random` preset.
    pub seed: u64,
    /// Steps per displayed frame.
    pub steps_per_frame: u32,
    /// Window pixels per cell (the window is fitted to the screen).
    pub scale: u32,
    /// The field shown at start; `None`: the model's first.
    pub field: Option<String>,
    /// Quit after this many frames.
    pub frames: Option<u64>,
    /// With `frames`: save what the window shows as a PNG before quitting.
    pub screenshot: Option<PathBuf>,
}

/// Opens the window and runs until it is closed (or `frames` have been shown).
///
/// # Errors
/// No display (one line saying to set `DISPLAY` or use `eddy run`), no adapter that can draw into
/// the window, a grid that does not fit, a bad scene or state, a lost device.
pub fn run(options: ViewerOptions) -> Result<(), Error> {
    let event_loop = EventLoop::new().map_err(|e| {
        // winit's message starts with the source path of the platform code; keep what it says.
        let text = e.to_string();
        let what = text.rsplit_once(": ").map_or(text.as_str(), |(_, w)| w).to_string();
        format!("cannot open a window ({what}); set DISPLAY (e.g. run under `xvfb-run -a`) or use `eddy run`")
    })?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App { options, live: None, error: None };
    event_loop.run_app(&mut app)?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

struct App {
    options: ViewerOptions,
    live: Option<Live>,
    error: Option<Error>,
}

/// The pointer: position (window pixels), held tool, Shift, and whether the press has moved.
#[derive(Default)]
struct Pointer {
    at: Option<(f32, f32)>,
    last: Option<(f32, f32)>,
    held: Option<Tool>,
    shift: bool,
    moved: bool,
}

/// Everything that exists while the window is open.
struct Live {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    /// One slot per model (indexed like [`ModelKind::ALL`]), created on first use.
    models: [Option<AnyModel>; 3],
    /// The parameters each model is (re)made with.
    params: [ModelParams; 3],
    current: ModelKind,
    paused: bool,
    step_once: bool,
    minimized: bool,
    /// Something changed since the last frame (input, a resize): paused, the viewer draws a
    /// frame only then, and otherwise sleeps until the next event.
    dirty: bool,
    pointer: Pointer,
    frames: u64,
    title_clock: Instant,
    title_frames: u64,
    title_steps: u64,
    /// A message shown in the title until the next one (e.g. a model this adapter cannot run).
    notice: String,
}

fn slot(kind: ModelKind) -> usize {
    ModelKind::ALL.iter().position(|&k| k == kind).expect("every model is in ALL")
}

impl App {
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<Live, Error> {
        let o = &mut self.options;
        let kind = o.params.kind();
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        )));
        let (w, h) = o.size;
        let screen =
            event_loop.primary_monitor().map(|m| m.size()).unwrap_or(PhysicalSize::new(MAX_WINDOW, MAX_WINDOW));
        let max = (screen.width.min(screen.height) * 9 / 10).clamp(64, MAX_WINDOW);
        let fit = (max as f32 / (w.max(h) as f32 * o.scale as f32)).min(1.0);
        let size = PhysicalSize::new(
            ((w as u32 * o.scale) as f32 * fit).max(64.0) as u32,
            ((h as u32 * o.scale) as f32 * fit).max(64.0) as u32,
        );
        let window =
            Arc::new(event_loop.create_window(Window::default_attributes().with_title("eddy").with_inner_size(size))?);
        let surface =
            instance.create_surface(window.clone()).map_err(|e| format!("cannot draw into the window: {e}"))?;
        // An adapter that runs every model if there is one, else one that runs the first.
        let all = ModelKind::requirements(&ModelKind::ALL);
        let gpu = match pollster::block_on(Gpu::with_instance(instance.clone(), Some(&surface), &all)) {
            Err(GpuError::Unsupported { .. }) => {
                pollster::block_on(Gpu::with_instance(instance, Some(&surface), &ModelKind::requirements(&[kind])))?
            }
            other => other?,
        };
        eprintln!("adapter: {}", gpu.adapter_label());
        let caps = surface.get_capabilities(&gpu.adapter);
        let format = caps.formats.iter().copied().find(|f| !f.is_srgb()).unwrap_or(caps.formats[0]);
        let inner = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, inner.width.max(1), inner.height.max(1))
            .ok_or("the window surface is not supported by this adapter")?;
        config.format = format;
        surface.configure(&gpu.device, &config);
        let mut params = ModelKind::ALL.map(ModelParams::defaults);
        params[slot(kind)] = o.params;
        let mut live = Live {
            window,
            surface,
            config,
            gpu,
            models: [None, None, None],
            params,
            current: kind,
            paused: false,
            step_once: false,
            minimized: inner.width == 0 || inner.height == 0,
            pointer: Pointer::default(),
            frames: 0,
            dirty: true,
            title_clock: Instant::now(),
            title_frames: 0,
            title_steps: 0,
            notice: String::new(),
        };
        live.switch(kind, o)?;
        if let Some(f) = &o.field {
            live.model().set_view(f)?;
        }
        Ok(live)
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, e: Error) {
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
        if !matches!(event, WindowEvent::RedrawRequested) {
            live.dirty = true;
        }
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
                live.pointer.shift = m.state().shift_key();
                Ok(false)
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                live.key(event.logical_key.as_ref(), event_loop, &self.options).map(|_| false)
            }
            WindowEvent::MouseInput { state, button, .. } => live.mouse(state, button).map(|_| false),
            WindowEvent::CursorMoved { position, .. } => {
                live.pointer.at = Some((position.x as f32, position.y as f32));
                live.paint().map(|_| false)
            }
            WindowEvent::RedrawRequested => live.frame(&self.options),
            _ => Ok(false),
        };
        match result {
            Ok(true) => event_loop.exit(),
            Ok(false) => {}
            Err(e) => self.fail(event_loop, e),
        }
    }

    /// Running, or asked for a fixed number of frames: draw continuously. Paused: draw only
    /// after something changed, and wait for events in between (no CPU or GPU spent idle).
    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(live) = &self.live {
            if !live.paused || live.dirty || self.options.frames.is_some() {
                event_loop.set_control_flow(ControlFlow::Poll);
                live.window.request_redraw();
            } else {
                event_loop.set_control_flow(ControlFlow::Wait);
            }
        }
    }
}

impl Live {
    fn model(&mut self) -> &mut AnyModel {
        self.models[slot(self.current)].as_mut().expect("the current model exists")
    }

    /// Makes `kind` current, creating it on first use: from the loaded state or the scene when
    /// it is the model the viewer started with, else from the scene if it is a PNG this model
    /// can read, else from its default preset at the same size. The first model's errors end
    /// the viewer (there is nothing to show); another model that cannot start (an adapter that
    /// lacks what it needs, a grid too large for it) stays unselected with a notice in the title,
    /// and the running model goes on. Returns whether `kind` is current.
    fn switch(&mut self, kind: ModelKind, o: &ViewerOptions) -> Result<bool, Error> {
        let i = slot(kind);
        if self.models[i].is_none() {
            match self.create(kind, o) {
                Ok(model) => self.models[i] = Some(model),
                Err(e) if o.params.kind() != kind => {
                    self.notice = format!("{kind} cannot start: {e}");
                    return Ok(false);
                }
                Err(e) => return Err(e),
            }
        }
        self.current = kind;
        self.notice.clear();
        Ok(true)
    }

    fn create(&self, kind: ModelKind, o: &ViewerOptions) -> Result<AnyModel, Error> {
        let lacks = ModelKind::requirements(&[kind]).lacks(&self.gpu.adapter);
        if !lacks.is_empty() {
            return Err(format!("this adapter lacks {}", lacks.join(", ")).into());
        }
        let params = self.params[slot(kind)];
        let preset = || AnyState::start(&SceneSource::Preset(kind.default_scene().into()), o.size, o.seed, &params);
        let (state, step) = match &o.start {
            Start::State(state, step) if o.params.kind() == kind => ((**state).clone(), *step),
            Start::Scene(source) if o.params.kind() == kind => (AnyState::start(source, o.size, o.seed, &params)?, 0),
            // A PNG serves every model that can read its colours (red sources are not water's).
            Start::Scene(source @ SceneSource::Png(_)) => {
                (AnyState::start(source, o.size, o.seed, &params).or_else(|_| preset())?, 0)
            }
            _ => (preset()?, 0),
        };
        let (h, w) = state.shape();
        let info = self.gpu.adapter.get_info();
        memory::check(kind, (w, h), memory::Extras::default(), Some(&info), &self.gpu.device.limits())?;
        Ok(AnyModel::new(&self.gpu.device, &self.gpu.queue, &state, &params, step)?)
    }

    /// Switches to the next model after the current one (in [`ModelKind::ALL`]'s order) that
    /// can start.
    fn switch_next(&mut self, o: &ViewerOptions) -> Result<(), Error> {
        let from = slot(self.current);
        for k in 1..ModelKind::ALL.len() {
            if self.switch(ModelKind::ALL[(from + k) % ModelKind::ALL.len()], o)? {
                return Ok(());
            }
        }
        Ok(())
    }

    fn key(&mut self, key: Key<&str>, event_loop: &ActiveEventLoop, o: &ViewerOptions) -> Result<(), Error> {
        match key {
            Key::Named(NamedKey::Escape) => event_loop.exit(),
            Key::Named(NamedKey::Space) => self.paused = !self.paused,
            Key::Named(NamedKey::Tab) => self.switch_next(o)?,
            Key::Character(c @ ("1" | "2" | "3")) => {
                let i: usize = c.parse().expect("a digit");
                self.switch(ModelKind::ALL[i - 1], o)?;
            }
            Key::Character(".") => self.step_once = true,
            Key::Character("r" | "R") => {
                // Reset the scene, keeping the parameters as they are now.
                let i = slot(self.current);
                self.params[i] = self.model().params();
                let view = self.model().view();
                let mut model = self.create(self.current, o)?;
                model.set_view(view)?;
                self.models[i] = Some(model);
            }
            Key::Character("v" | "V") => {
                let views = self.current.info().views;
                if views.len() < 2 {
                    // Say so rather than do nothing silently.
                    self.notice = format!("{} has one field to show ({})", self.current, views[0].name);
                } else {
                    self.model().cycle_view();
                }
            }
            Key::Character(c) => {
                if let Some(ch) = c.chars().next()
                    && c.chars().count() == 1
                {
                    match self.model().nudge(ch) {
                        Ok(_) => {}
                        Err(e) => self.notice = e.to_string(),
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn mouse(&mut self, state: ElementState, button: MouseButton) -> Result<(), Error> {
        let tool = match button {
            MouseButton::Left => Some(Tool::Fluid),
            MouseButton::Right => Some(Tool::Wall),
            _ => None,
        };
        let released = state == ElementState::Released;
        // A click of the fluid tool that did not drag (in gas: an explosion where it was released).
        if released
            && self.pointer.held == Some(Tool::Fluid)
            && !self.pointer.moved
            && !self.pointer.shift
            && let Some(at) = self.pointer.at
        {
            let at = self.cell_at(at);
            self.model().click(at);
        }
        self.pointer.held = if released { None } else { tool };
        self.pointer.last = None;
        self.pointer.moved = false;
        if !released { self.paint() } else { Ok(()) }
    }

    fn cell_at(&mut self, (x, y): (f32, f32)) -> (f32, f32) {
        let (w, h) = (self.config.width as f32, self.config.height as f32);
        let (gw, gh) = self.model().size();
        (x / w * gw as f32, y / h * gh as f32)
    }

    /// Applies the held tool along the pointer's path since the last event.
    fn paint(&mut self) -> Result<(), Error> {
        let (Some(tool), Some(at)) = (self.pointer.held, self.pointer.at) else { return Ok(()) };
        let to = self.cell_at(at);
        let from = match self.pointer.last {
            Some(p) => self.cell_at(p),
            None => to,
        };
        self.pointer.last = Some(at);
        self.pointer.moved |= from != to;
        let stroke = Stroke { from, to, tool, erase: self.pointer.shift };
        self.model().stroke(&stroke)?;
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
    fn frame(&mut self, o: &ViewerOptions) -> Result<bool, Error> {
        self.gpu.check()?;
        let steps = if self.paused { self.step_once as u32 } else { o.steps_per_frame };
        self.step_once = false;
        self.dirty = false;
        if steps > 0 {
            self.model().step(steps);
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
        let format = self.config.format;
        self.model().draw(&mut encoder, &view, format, size);
        self.gpu.queue.submit([encoder.finish()]);
        self.frames += 1;
        self.title_frames += 1;
        let done = o.frames.is_some_and(|n| self.frames >= n);
        if done && let Some(path) = &o.screenshot {
            self.save_screenshot(path)?;
        }
        self.window.pre_present_notify();
        self.gpu.queue.present(texture);
        self.update_title()?;
        Ok(done)
    }

    /// Draws the current view again into an offscreen RGBA target of the window's size and saves
    /// it: the same pixels the window shows, on any adapter (a surface need not be readable).
    fn save_screenshot(&mut self, path: &std::path::Path) -> Result<(), Error> {
        let size = (self.config.width, self.config.height);
        let target = FrameTarget::new(&self.gpu.device, size, 1)?;
        let (device, queue) = (self.gpu.device.clone(), self.gpu.queue.clone());
        let model = self.model();
        let image = target
            .render(&device, &queue, |encoder, view, size| model.draw(encoder, view, FrameTarget::FORMAT, size))?;
        crate::files::write_atomically(path, |w| {
            image.write_to(w, image::ImageFormat::Png).map_err(std::io::Error::other)
        })?;
        eprintln!("screenshot: {}", path.display());
        Ok(())
    }

    fn update_title(&mut self) -> Result<(), Error> {
        let dt = self.title_clock.elapsed().as_secs_f64();
        if dt < 0.5 && !self.paused {
            return Ok(());
        }
        let (fps, rate) = (self.title_frames as f64 / dt, self.title_steps as f64 / dt);
        let stats = self.model().stats()?;
        if stats.non_finite() > 0 && !self.paused {
            // Stop here, say so (title and terminal), and let the user reset or change parameters.
            self.paused = true;
            let kind = self.current;
            self.notice = format!(
                "{} cells became NaN or infinite: paused; R resets the scene, keys change parameters",
                stats.non_finite()
            );
            eprintln!("eddy: {kind}: {}", self.notice);
        }
        let paused = if self.paused { " | paused (Space)" } else { "" };
        let notice = if self.notice.is_empty() { String::new() } else { format!(" | {}", self.notice) };
        let model = self.model();
        let kind = model.kind();
        let divergence = stats.divergence().map_or(String::new(), |d| format!(" | |div| after projection {d:.3}"));
        let divergence = match stats.solver() {
            Some(solver) => format!("{divergence} | {solver}"),
            None => divergence,
        };
        let title = format!(
            "eddy | {kind} | {fps:.0} fps | {rate:.0} steps/s | total {:.2}{divergence} | {} | field {} (V){paused}{notice}",
            stats.total(),
            model.params().keyed_summary(),
            model.view(),
        );
        self.window.set_title(&title);
        self.title_clock = Instant::now();
        self.title_frames = 0;
        self.title_steps = 0;
        Ok(())
    }
}
