//! The viewer: a winit window running the models live ([`run`]), with an egui panel. Feature
//! `viewer`.
//!
//! The panel ([`panel`]) is generated from the model layer's tables: model, scene and size,
//! every parameter with its unit, range and source, the tools and brush, time (pause, step,
//! speed or an automatic frame budget), the field with its colour map and legend, live
//! statistics with a plot, and recording (screenshot, GIF, video). Every key and mouse action is in
//! [`controls::CONTROLS`] (the help overlay, F1, and `eddy view --help` list them). The picture is
//! letterboxed beside the panel, so cells stay square. Paused, the window redraws only when
//! something changed. A [`Script`] plays timed actions; `demo` keeps the fluid moving with random
//! strokes. With `frames` it quits after that many frames, saving what the window showed (panel
//! included) to `screenshot`.
//!
//! The viewer's statistics are asked for in one frame and read in a later one, and in a browser
//! its frames never wait for a readback. So it also runs there (wasm32, `web/`): the device
//! opens asynchronously, files come from the page's picker or a drop and saves are downloads
//! (`web.rs`), while the desktop's files, screenshots and GIFs live in `desktop.rs`.

/// `eprintln!` that ignores a failed write (a closed or full standard error must not stop the
/// viewer, or lose a recording it would finish next).
macro_rules! note {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

pub mod controls;
#[cfg(not(target_arch = "wasm32"))]
mod desktop;
mod input;
pub mod panel;
#[cfg(target_arch = "wasm32")]
mod web;
mod zoom;
#[cfg(target_arch = "wasm32")]
pub use web::open_file;

use crate::colour::ColourMap;
use crate::gpu::{Gpu, GpuError};
use crate::model::tools::{Stroke, Tool};
use crate::model::{Done, ModelKind, Session, SessionOptions, changes};
use crate::record::Recorder;
use crate::render::{Area, FrameTarget};
use crate::scene::SceneSource;
use crate::script::{Action, Player, Script};
use panel::{Command, Controls, History, Sample, Series, Speed};
use std::path::PathBuf;
use std::sync::Arc;
use web_time::{Duration, Instant};
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::{ElementState, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

pub use crate::model::Start;

/// Largest initial window side, points (pixels at a scale factor of 1).
#[cfg(not(target_arch = "wasm32"))]
const MAX_WINDOW: u32 = 1600;
/// The panel's width at start, points.
#[cfg(not(target_arch = "wasm32"))]
const PANEL_WIDTH: f32 = 300.0;
/// The window's least height with the panel, points: its model, time, tools and view sections.
#[cfg(not(target_arch = "wasm32"))]
const PANEL_MIN_HEIGHT: f32 = 560.0;
/// Statistics are read (a small GPU reduction) this often while running.
const STATS_EVERY: Duration = Duration::from_millis(500);
/// The automatic speed's default budget of stepping per frame, milliseconds.
const AUTO_BUDGET_MS: f32 = 12.0;
/// Demo: frames between random strokes, and frames before moving on to the next model.
const DEMO_STROKE_EVERY: u64 = 6;
const DEMO_MODEL_EVERY: u64 = 1800;

/// Any error the viewer stops with.
pub type Error = Box<dyn std::error::Error>;

/// A mistake in what the viewer was given that shows only once its session has started (a
/// script's action the starting parameters or bodies rule out): the command line's usage error
/// (`eddy view` exits 2 for it, as `eddy run` does).
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// What the viewer opens with.
pub struct ViewerOptions {
    /// The first model, its parameters, where it starts, preset size and seed.
    pub session: SessionOptions,
    /// Steps per displayed frame (1..=1000); `None`: automatic, as many as fit a frame budget.
    pub steps_per_frame: Option<u32>,
    /// Window pixels per cell (the window is fitted to the screen).
    pub scale: u32,
    /// The field shown at start; `None`: the model's first.
    pub field: Option<String>,
    /// The colour map of that field; `None`: its own.
    pub colour_map: Option<ColourMap>,
    /// How the models are drawn; `None`: [`crate::render::Look::Map`].
    pub look: Option<crate::render::Look>,
    /// Quit after this many frames.
    pub frames: Option<u64>,
    /// Save what the window shows (panel included) as a PNG when the viewer ends after `frames`
    /// or at a script's `quit`.
    pub screenshot: Option<PathBuf>,
    /// Timed actions to play.
    pub script: Option<Script>,
    /// Keep the fluid moving with random strokes, changing model now and then.
    pub demo: bool,
    /// Show the panel at start (F2 toggles it).
    pub panel: bool,
    /// Start paused.
    pub paused: bool,
    /// Let still water sleep ([`crate::model::Session::set_sleep`]; the panel's "still water
    /// sleeps").
    pub sleep: bool,
    /// Set by the caller to end the viewer as closing its window does (the `eddy` command's
    /// Ctrl-C and SIGTERM handler): a GIF being recorded is finished first. Polled at least
    /// every [`STOP_POLL`] while the viewer waits for events.
    pub stop: Option<Arc<std::sync::atomic::AtomicBool>>,
}

/// How often a waiting viewer looks at [`ViewerOptions::stop`].
pub const STOP_POLL: Duration = Duration::from_millis(250);

/// Opens the window and runs until it is closed (or `frames` have been shown, or a script's
/// `quit`).
///
/// In a browser (wasm32) it returns at once: the page's event loop runs the viewer in a canvas
/// appended to the page, and an error is written into the page's `#status` element.
///
/// # Errors
/// No display (one line saying to set `DISPLAY` or use `eddy run`), no adapter that can draw into
/// the window, a grid that does not fit, a bad scene or state, a lost device.
#[cfg(not(target_arch = "wasm32"))]
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

/// See the desktop `run`.
///
/// # Errors
/// The page's event loop cannot be made (winit's message).
#[cfg(target_arch = "wasm32")]
pub fn run(options: ViewerOptions) -> Result<(), Error> {
    use winit::platform::web::EventLoopExtWebSys;
    let event_loop = EventLoop::new()?;
    event_loop.set_control_flow(ControlFlow::Poll);
    event_loop.spawn_app(App { options, live: None, error: None, starting: Default::default() });
    Ok(())
}

struct App {
    options: ViewerOptions,
    live: Option<Live>,
    error: Option<Error>,
    /// In a browser: the window and its device while the device is being opened.
    #[cfg(target_arch = "wasm32")]
    starting: web::Starting,
}

/// The pointer: position (window pixels), held tool, Shift, and whether the press has moved.
#[derive(Default)]
struct Pointer {
    at: Option<(f32, f32)>,
    last: Option<(f32, f32)>,
    held: Option<Tool>,
    shift: bool,
    ctrl: bool,
    moved: bool,
    /// The middle button drags the zoomed view.
    panning: bool,
    /// The body the body tool holds, by index.
    grabbed: Option<usize>,
}

/// egui's context, its winit input state and its wgpu renderer.
struct Egui {
    ctx: egui::Context,
    state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
}

/// A GIF or video being recorded: frames drawn offscreen at its scale, one every `every` steps
/// or displayed frames.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))] // recorded on the desktop only
struct Recording {
    recorder: Recorder,
    target: FrameTarget,
    scale: u32,
    cap: u32,
    every: Every,
    next: u64,
}

#[derive(Clone, Copy, PartialEq)]
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
enum Every {
    Steps(u64),
    Frames(u64),
}

/// Everything that exists while the window is open.
struct Live {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: Gpu,
    egui: Egui,
    session: Session,
    controls: Controls,
    history: History,
    step_once: bool,
    minimized: bool,
    /// Something changed since the last frame (input, a resize): paused, the viewer draws a
    /// frame only then, and otherwise sleeps until the next event.
    dirty: bool,
    pointer: Pointer,
    /// The panel's free rectangle, window pixels; the simulation's frame in it (letterboxed, or
    /// the whole of it when zoomed in), and where the whole grid is drawn: the frame, or larger
    /// when zoomed in ([`zoom::Zoom`]).
    view: Area,
    frame: Area,
    area: Area,
    zoom: zoom::Zoom,
    /// While zoomed: the minimap and the part of it the frame shows.
    minimap: Option<(Area, Area)>,
    frames: u64,
    clock: Instant,
    clock_frames: u64,
    clock_steps: u64,
    /// GIFs and videos being recorded (a script may run several at once).
    recordings: Vec<Recording>,
    player: Option<Player>,
    /// Frames the script still holds without stepping.
    script_pause: u32,
    demo: Option<fastrand::Rng>,
    quit: bool,
    /// Statistics asked of this model and not yet arrived.
    stats_pending: Option<ModelKind>,
    /// The water's state hash asked for with them, of this model at this step, not yet arrived.
    hash_pending: Option<PendingHash>,
}

/// A state hash on its way back from the GPU ([`crate::model::AnyModel::state_hash_reader`]).
struct PendingHash {
    kind: ModelKind,
    step: u64,
    hash: std::pin::Pin<Box<dyn Future<Output = Result<u64, crate::gpu::GpuError>>>>,
}

/// The window and what draws into it, before a device is chosen.
struct Opened {
    window: Arc<Window>,
    instance: wgpu::Instance,
    surface: wgpu::Surface<'static>,
}

/// A device that can draw into `surface`: one that runs every model if there is one, else one
/// that runs `kind`. Asynchronous, as a browser requires.
async fn connect(
    instance: &wgpu::Instance,
    surface: &wgpu::Surface<'static>,
    kind: ModelKind,
) -> Result<Gpu, GpuError> {
    let all = ModelKind::requirements(&ModelKind::all());
    match Gpu::with_instance(instance.clone(), Some(surface), &all).await {
        Err(GpuError::Unsupported { .. }) => {
            Gpu::with_instance(instance.clone(), Some(surface), &ModelKind::requirements(&[kind])).await
        }
        other => other,
    }
}

impl App {
    /// The window (in a browser: a canvas appended to the page) and its surface.
    fn open_window(&self, event_loop: &ActiveEventLoop) -> Result<Opened, Error> {
        crate::gpu::check_backend_env()?;
        let instance = wgpu::Instance::new(crate::gpu::without_indirect_validation(
            wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(event_loop.owned_display_handle())),
        ));
        let attributes = Window::default_attributes().with_title("eddy");
        #[cfg(not(target_arch = "wasm32"))]
        let attributes = attributes.with_inner_size(initial_size(event_loop, &self.options));
        #[cfg(target_arch = "wasm32")]
        let attributes = web::canvas(attributes);
        let window = Arc::new(event_loop.create_window(attributes)?);
        let surface =
            instance.create_surface(window.clone()).map_err(|e| format!("cannot draw into the window: {e}"))?;
        Ok(Opened { window, instance, surface })
    }

    /// Opens the window and its device, waiting for the device (the desktop's way).
    #[cfg(not(target_arch = "wasm32"))]
    fn open(&mut self, event_loop: &ActiveEventLoop) -> Result<Live, Error> {
        let opened = self.open_window(event_loop)?;
        let kind = self.options.session.params.kind();
        let gpu = pollster::block_on(connect(&opened.instance, &opened.surface, kind))?;
        self.live(opened, gpu)
    }

    /// Everything else the running viewer holds, once the device is open.
    fn live(&mut self, opened: Opened, gpu: Gpu) -> Result<Live, Error> {
        let Opened { window, surface, .. } = opened;
        let o = &mut self.options;
        let kind = o.session.params.kind();
        note!("adapter: {}", gpu.adapter_label());
        let caps = surface.get_capabilities(&gpu.adapter);
        let format = caps.formats.iter().copied().find(|f| !f.is_srgb()).unwrap_or(caps.formats[0]);
        let inner = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, inner.width.max(1), inner.height.max(1))
            .ok_or("the window surface is not supported by this adapter")?;
        config.format = format;
        surface.configure(&gpu.device, &config);

        let mut session = Session::new(&gpu.device, &gpu.queue, &gpu.adapter, o.session.clone())?;
        if let Some(script) = &o.script {
            script.check_from(&session).map_err(|e| UsageError(format!("script: {e}")))?;
        }
        if let Some(f) = &o.field {
            session.model().set_view(f)?;
        }
        if let Some(map) = o.colour_map {
            session.model().set_colour_map(map);
        }
        if let Some(look) = o.look {
            session.set_look(look);
        }
        if o.sleep {
            session.set_sleep(true)?;
        }
        let ctx = egui::Context::default();
        let state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        let renderer = egui_wgpu::Renderer::new(&gpu.device, format, egui_wgpu::RendererOptions::default());
        let preset = match &o.session.start {
            Start::Scene(SceneSource::Preset(name)) => name.clone(),
            _ => kind.default_scene().to_string(),
        };
        let controls = Controls {
            paused: o.paused,
            speed: o.steps_per_frame.map_or(Speed::Auto(AUTO_BUDGET_MS), Speed::Fixed),
            steps_per_frame: o.steps_per_frame.unwrap_or(1),
            panel: o.panel,
            help: false,
            screenshot_scale: 2,
            record_scale: 2,
            record_every: 2,
            record_frames: 200,
            record_fps: crate::record::DEFAULT_FPS,
            save_path: format!("eddy-{kind}.npz"),
            load_path: String::new(),
            preset,
            size: o.session.size,
            plotted: Series::Total,
            notice: String::new(),
            body_tool: false,
            forces: Vec::new(),
            body_density: None,
            sleep: o.sleep,
        };
        let demo = o.demo.then(|| fastrand::Rng::with_seed(o.session.seed));
        Ok(Live {
            window,
            surface,
            config,
            gpu,
            egui: Egui { ctx, state, renderer },
            session,
            controls,
            history: History::default(),
            step_once: false,
            minimized: inner.width == 0 || inner.height == 0,
            pointer: Pointer::default(),
            view: Area::full((inner.width, inner.height)),
            frame: Area::full((inner.width, inner.height)),
            area: Area::full((inner.width, inner.height)),
            zoom: zoom::Zoom::whole(),
            minimap: None,
            frames: 0,
            dirty: true,
            clock: Instant::now(),
            clock_frames: 0,
            clock_steps: 0,
            recordings: Vec::new(),
            player: o.script.as_ref().map(Player::new),
            script_pause: 0,
            demo,
            quit: false,
            stats_pending: None,
            hash_pending: None,
        })
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, e: Error) {
        #[cfg(target_arch = "wasm32")]
        web::show_error(&e.to_string());
        self.error = Some(e);
        event_loop.exit();
    }
}

/// The window's first size: the grid at `scale` points per cell beside the panel, shrunk to fit
/// 90% of the monitor, at least [`PANEL_MIN_HEIGHT`] points tall with the panel (HiDPI: sizes
/// are in points, times the monitor's scale factor).
#[cfg(not(target_arch = "wasm32"))]
fn initial_size(event_loop: &ActiveEventLoop, o: &ViewerOptions) -> PhysicalSize<u32> {
    let (w, h) = match &o.session.start {
        Start::State(state, _) => {
            let (h, w) = state.shape();
            (w, h)
        }
        _ => o.session.size,
    };
    let monitor = event_loop.primary_monitor();
    let screen = monitor.as_ref().map(|m| m.size()).unwrap_or(PhysicalSize::new(MAX_WINDOW, MAX_WINDOW));
    let dpi = monitor.as_ref().map_or(1.0, |m| m.scale_factor()) as f32;
    let panel = if o.panel { PANEL_WIDTH * dpi } else { 0.0 };
    let max_w = (screen.width as f32 * 0.9).min(MAX_WINDOW as f32 * dpi) - panel;
    let max_h = (screen.height as f32 * 0.9).min(MAX_WINDOW as f32 * dpi);
    let (pw, ph) = ((w as u32 * o.scale) as f32 * dpi, (h as u32 * o.scale) as f32 * dpi);
    let fit = (max_w / pw).min(max_h / ph).min(1.0);
    // Tall enough for the panel's first sections, whatever the grid's aspect, and at least a third
    // as tall as the grid is drawn wide: a world far wider than tall (a packed world) shows as a
    // strip in a window that zooming in then fills.
    let min_h = if o.panel { (PANEL_MIN_HEIGHT * dpi).min(max_h) } else { 200.0 };
    let min_h = min_h.max((pw * fit / 3.0).min(max_h));
    PhysicalSize::new((pw * fit + panel).max(200.0) as u32, (ph * fit).max(min_h) as u32)
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.live.is_some() {
            return;
        }
        #[cfg(not(target_arch = "wasm32"))]
        match self.open(event_loop) {
            Ok(live) => {
                live.window.request_redraw();
                self.live = Some(live);
            }
            Err(e) => self.fail(event_loop, e),
        }
        #[cfg(target_arch = "wasm32")]
        if let Err(e) = self.start(event_loop) {
            self.fail(event_loop, e);
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        #[cfg(target_arch = "wasm32")]
        self.poll_start(event_loop);
        let Some(live) = self.live.as_mut() else { return };
        // Keys are the simulation's unless a text field is being edited: egui never sees them
        // then (a Tab would move its focus, a Space press the focused button), and whatever
        // widget had the focus gives it up.
        let typing = live.egui.ctx.text_edit_focused();
        let ours = matches!(event, WindowEvent::KeyboardInput { .. }) && !typing;
        let response = if ours {
            live.egui.ctx.memory_mut(|m| {
                if let Some(id) = m.focused() {
                    m.surrender_focus(id);
                }
            });
            egui_winit::EventResponse { consumed: false, repaint: true }
        } else {
            live.egui.state.on_window_event(&live.window, &event)
        };
        if !matches!(event, WindowEvent::RedrawRequested) {
            live.dirty = true;
        }
        let over_panel = live.egui.ctx.is_pointer_over_egui() || live.egui.ctx.egui_wants_pointer_input();
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
                live.pointer.ctrl = m.state().control_key();
                Ok(false)
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed && ours => {
                live.key(event.logical_key.as_ref(), event_loop).map(|_| false)
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let press = state == ElementState::Pressed;
                if press && (response.consumed || over_panel) {
                    Ok(false)
                } else {
                    live.mouse(state, button).map(|_| false)
                }
            }
            // The wheel sizes the brush over the simulation only; over the panel it scrolls it.
            WindowEvent::MouseWheel { delta, .. }
                if !over_panel && !response.consumed && live.pointer.at.is_some_and(|p| live.frame.contains(p)) =>
            {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
                };
                let grid = live.session.model_ref().size();
                if live.pointer.ctrl
                    && let Some(p) = live.pointer.at
                {
                    // Ctrl + wheel zooms about the pointer.
                    live.zoom.zoom_at(live.view, grid, p, lines);
                    live.dirty = true;
                } else if !(live.controls.body_tool && live.spin_body(lines)) {
                    // With the body tool, the wheel over a body spins it.
                    let r = live.session.model_ref().brush_radius() * 1.1f32.powf(lines);
                    live.act(&Action::Brush(Some(r)));
                }
                Ok(false)
            }
            WindowEvent::CursorMoved { position, .. } => {
                let at = (position.x as f32, position.y as f32);
                if live.pointer.panning
                    && let Some(before) = live.pointer.at
                {
                    let grid = live.session.model_ref().size();
                    live.zoom.pan(live.view, grid, (at.0 - before.0, at.1 - before.1));
                    live.dirty = true;
                }
                live.pointer.at = Some(at);
                live.paint().map(|_| false)
            }
            WindowEvent::DroppedFile(path) => {
                live.load(&path);
                Ok(false)
            }
            WindowEvent::RedrawRequested => live.frame(&self.options),
            _ => Ok(false),
        };
        match result {
            Ok(true) => event_loop.exit(),
            Ok(false) if live.quit => event_loop.exit(),
            Ok(false) => {}
            Err(e) => self.fail(event_loop, e),
        }
    }

    /// Running, recording, playing a script or asked for a fixed number of frames: draw
    /// continuously. Paused: draw only after something changed, and wait for events in between
    /// (no CPU or GPU spent idle).
    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let stop = self.options.stop.as_ref();
        if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst)) {
            event_loop.exit();
            return;
        }
        if let Some(live) = &self.live {
            let busy = !live.controls.paused
                || live.dirty
                || self.options.frames.is_some()
                || live.script_pause > 0
                || live.player.as_ref().is_some_and(|p| !p.finished() && !live.controls.paused);
            if busy {
                event_loop.set_control_flow(ControlFlow::Poll);
                live.window.request_redraw();
            } else if stop.is_some() {
                event_loop.set_control_flow(ControlFlow::WaitUntil(Instant::now() + STOP_POLL));
            } else {
                event_loop.set_control_flow(ControlFlow::Wait);
            }
        }
    }

    /// However the viewer ends (Esc, the window closed, a script's quit, a stop signal), a GIF
    /// or video being recorded is finished and saved, or the reason it could not be is said.
    fn exiting(&mut self, _: &ActiveEventLoop) {
        if let Some(live) = self.live.as_mut() {
            for r in std::mem::take(&mut live.recordings) {
                let path = r.recorder.path().display().to_string();
                if let Err(e) = live.finish_recording(r) {
                    note!("eddy: the recording being made ({path}) could not be finished: {e}");
                }
            }
        }
    }
}

impl Live {
    /// Applies an action; its error becomes the panel's notice (the simulation goes on).
    fn act(&mut self, action: &Action) {
        match self.session.apply(action) {
            Ok(Done::Set(kind, changed)) => {
                let line = format!("{kind}: {}", changes(&changed));
                note!("{line}");
                self.controls.notice = line;
            }
            Ok(Done::Applied) => {
                if let Action::Model(k) = action {
                    self.controls.preset = k.default_scene().to_string();
                    self.controls.save_path = format!("eddy-{k}.npz");
                    self.controls.notice.clear();
                    note!("showing {k}");
                }
            }
            Ok(Done::Front) => self.front(action),
            Err(e) => {
                self.controls.notice = e.to_string();
                note!("eddy: {e}");
            }
        }
    }

    /// The actions that are the viewer's own: pauses, screenshots, GIFs, saves, quitting.
    fn front(&mut self, action: &Action) {
        let result: Result<(), Error> = match action {
            Action::Pause(frames) => {
                self.script_pause = *frames;
                Ok(())
            }
            Action::Screenshot(path, scale) => self.screenshot(path, *scale),
            Action::Record { path, frames, every, fps } => {
                self.start_recording(path, *frames, Every::Steps(*every as u64), self.controls.record_scale, *fps)
            }
            Action::Save(path) => self.save(path),
            Action::Quit => {
                self.quit = true;
                Ok(())
            }
            Action::Window(w, h) => {
                // The window manager may refuse or adjust it; a Resized event follows if it agrees.
                let _ = self.window.request_inner_size(PhysicalSize::new(*w, *h));
                Ok(())
            }
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.controls.notice = e.to_string();
            note!("eddy: {e}");
        }
    }

    /// Makes a loaded `.npz` state current (its model becomes the current one) with the
    /// parameters it was saved with (`saved_params` of its model; the present ones when it has
    /// none); says what was loaded, named `name`.
    fn take_state(
        &mut self,
        name: &dyn std::fmt::Display,
        loaded: Result<(crate::model::AnyState, u64), crate::scene::SceneError>,
        saved_params: impl FnOnce(ModelKind) -> Result<Option<crate::model::ModelParams>, crate::scene::SceneError>,
    ) -> Result<String, Error> {
        let (state, step) = loaded?;
        self.session.replace(&state, step, saved_params(state.kind())?)?;
        // The model may have changed with the file: the save name and preset follow it, as on
        // a switch of model (a gas state loaded in water mode was saved as eddy-water.npz).
        let kind = state.kind();
        self.controls.save_path = format!("eddy-{kind}.npz");
        self.controls.preset = kind.default_scene().to_string();
        Ok(format!("loaded {name} ({kind}, step {step})"))
    }

    /// Shows how a load went in the panel and the terminal; on error the simulation goes on.
    fn say_loaded(&mut self, result: Result<String, Error>) {
        self.controls.notice = match result {
            Ok(said) => said,
            Err(e) => format!("{e} (the simulation goes on)"),
        };
        note!("{}", self.controls.notice);
    }

    /// Switches to the next model after the current one (in [`ModelKind::all`]'s order) that
    /// can start; those that cannot say why in the notice.
    fn switch_next(&mut self) {
        let all = ModelKind::all();
        let from = self.session.current().index();
        for k in 1..all.len() {
            let kind = all[(from + k) % all.len()];
            self.act(&Action::Model(kind));
            if self.session.current() == kind {
                return;
            }
        }
    }

    fn command(&mut self, command: Command) {
        let result: Result<(), Error> = match command {
            Command::Act(action) => {
                self.act(&action);
                Ok(())
            }
            Command::StepOnce => {
                self.step_once = true;
                Ok(())
            }
            Command::Restart(preset, size) => {
                let source = SceneSource::Preset(preset.clone());
                self.session.restart(&source, size).map_err(Into::into).map(|_| {
                    self.controls.notice = format!("started {preset} at {}x{}", size.0, size.1);
                })
            }
            Command::Screenshot => self.screenshot_now(),
            Command::ToggleRecording(format) => self.toggle_recording(format),
            Command::Save(path) => self.save(&path),
            Command::Pick => self.pick(),
            Command::Sleep(on) => self.session.set_sleep(on).map_err(Into::into),
            Command::Load(path) => {
                self.load(&path);
                Ok(())
            }
        };
        if let Err(e) = result {
            self.controls.notice = e.to_string();
            note!("eddy: {e}");
        }
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
        self.act(&Action::Stroke(stroke));
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

    /// How many steps this frame runs: none while paused (but `.`) or held by the script,
    /// else the fixed count or the automatic one, cut short at the script's next action.
    fn steps_this_frame(&mut self) -> u32 {
        if self.script_pause > 0 {
            self.script_pause -= 1;
            return 0;
        }
        if self.controls.paused {
            return std::mem::take(&mut self.step_once) as u32;
        }
        let mut n = match self.controls.speed {
            Speed::Fixed(n) => n.clamp(1, panel::MAX_STEPS_PER_FRAME),
            Speed::Auto(_) => self.controls.steps_per_frame.clamp(1, panel::MAX_STEPS_PER_FRAME),
        } as u64;
        if let Some(p) = &self.player {
            n = p.steps_until_next(self.session.steps(), n);
        }
        for r in &self.recordings {
            if let Every::Steps(_) = r.every {
                n = n.min(r.next.saturating_sub(self.session.steps()).max(1)); // a frame on each recorded step
            }
        }
        n as u32
    }

    /// Plays the script's actions due now.
    fn play_script(&mut self) {
        let Some(player) = &mut self.player else { return };
        for action in player.due(self.session.steps()) {
            self.act(&action);
        }
    }

    /// Demo mode: a random stroke every few frames; now and then the next model, reset.
    fn demo(&mut self) {
        let Some(rng) = &mut self.demo else { return };
        if self.frames > 0 && self.frames.is_multiple_of(DEMO_MODEL_EVERY) {
            self.switch_next();
            self.act(&Action::Reset);
            return;
        }
        if !self.frames.is_multiple_of(DEMO_STROKE_EVERY) {
            return;
        }
        let (w, h) = self.session.model_ref().size();
        let (w, h) = (w as f32, h as f32);
        let kind = self.session.current();
        // Water pours from the top third; smoke and gas start anywhere and move a little.
        let start = (rng.f32() * w, rng.f32() * h * if kind == ModelKind::Water { 0.3 } else { 1.0 });
        let angle = rng.f32() * std::f32::consts::TAU;
        let len = 0.08 * w.max(h);
        let end = (start.0 + angle.cos() * len, start.1 + angle.sin() * len);
        let action = if kind == ModelKind::Gas && rng.u8(0..4) == 0 {
            Action::Click(start)
        } else {
            Action::Path { tool: Tool::Fluid, erase: false, points: vec![start, end] }
        };
        self.act(&action);
    }

    /// Steps, draws the simulation and the panel, and presents one frame. Returns Ok(true) when
    /// the run should end.
    fn frame(&mut self, o: &ViewerOptions) -> Result<bool, Error> {
        self.gpu.check()?;
        #[cfg(target_arch = "wasm32")]
        self.inbox();
        self.play_script();
        self.demo();
        let steps = self.steps_this_frame();
        self.drag_body(steps);
        self.dirty = false;
        if steps > 0 {
            let started = Instant::now();
            self.session.step(steps)?;
            self.clock_steps += steps as u64;
            if let Speed::Auto(budget) = self.controls.speed {
                // Aim the next frame's count at the budget: from the time these steps took.
                #[cfg(not(target_arch = "wasm32"))]
                let took = {
                    self.gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(GpuError::from)?;
                    Some(started.elapsed().as_secs_f32() * 1000.0)
                };
                // A browser cannot wait for the GPU: the last GPU time per step (timestamp
                // queries) stands in; without it the count stays where it is.
                #[cfg(target_arch = "wasm32")]
                let took = {
                    let _ = started;
                    let kind = self.session.current();
                    self.history.last(kind).and_then(|s| s.gpu_ms).map(|ms| ms as f32 * steps as f32)
                };
                if let Some(took) = took {
                    let ratio = (budget / took.max(0.01)).clamp(0.5, 2.0);
                    self.controls.steps_per_frame =
                        ((steps as f32 * ratio).round() as u32).clamp(1, panel::MAX_STEPS_PER_FRAME);
                }
            } else {
                self.controls.steps_per_frame = steps;
            }
        }
        self.follow_free_bodies();
        self.statistics()?;
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
        let (jobs, screen) = self.run_panel();
        let view = texture.texture.create_view(&Default::default());
        self.draw(&view, self.config.format, &jobs, &screen)?;
        self.frames += 1;
        self.clock_frames += 1;
        self.record()?;
        let done = o.frames.is_some_and(|n| self.frames >= n);
        if (done || self.quit)
            && let Some(path) = &o.screenshot
        {
            self.window_shot(path, &jobs, &screen)?;
        }
        self.window.pre_present_notify();
        self.gpu.queue.present(texture);
        if done || self.quit {
            for r in std::mem::take(&mut self.recordings) {
                self.finish_recording(r)?;
            }
            self.say_hash()?;
        }
        Ok(done)
    }

    /// Says the state hash where the viewer ends (after `frames` or a script's quit), as
    /// `eddy run` ends with it (native; a browser's viewer does not end so).
    fn say_hash(&self) -> Result<(), Error> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let model = self.session.model_ref();
            let (hash, step) = (crate::gpu::state_hash::hex(model.state_hash()?), model.steps_done());
            note!("state hash {hash} at step {step} ({}, bit for bit)", model.state_hash_covers());
        }
        Ok(())
    }

    /// With free bodies, reads the forces (and with them where the free bodies are) every frame
    /// rather than every half second, so that the body tool finds a free body where it is drawn.
    fn follow_free_bodies(&mut self) {
        if !self.session.model_ref().bodies().iter().any(crate::body::Body::is_free) {
            return;
        }
        self.collect_forces();
        self.session.model().request_forces();
    }

    /// The last step's forces of a read that has arrived, for the panel (and, inside
    /// [`crate::model::AnyModel::collect_forces`], the free bodies' places).
    fn collect_forces(&mut self) {
        if let Some(Ok(steps)) = self.session.model().collect_forces()
            && let Some(last) = steps.last()
        {
            self.controls.forces = last.forces.clone();
        }
    }

    /// Asks for the statistics (a GPU reduction) every half second, and reads them in a later
    /// frame once they arrive, without waiting (a browser cannot wait). Pauses on
    /// a non-finite value and says so.
    fn statistics(&mut self) -> Result<(), Error> {
        if let Some(p) = &mut self.hash_pending {
            // Polled each frame (the device is polled between frames): no waiting.
            let mut context = std::task::Context::from_waker(std::task::Waker::noop());
            if let std::task::Poll::Ready(hash) = p.hash.as_mut().poll(&mut context) {
                self.history.hash.insert(p.kind, (p.step, hash?));
                self.hash_pending = None;
            }
        }
        if let Some(kind) = self.stats_pending {
            if kind != self.session.current() || !self.session.model_ref().stats_requested() {
                // Asked of a model since switched away from (its next request starts afresh), or
                // of one since rebuilt (a reset, a load): ask again.
                self.stats_pending = None;
                return Ok(());
            }
            self.collect_forces();
            let Some(stats) = self.session.model_ref().collect_stats() else {
                self.dirty = true; // look again next frame, paused or not
                return Ok(());
            };
            self.stats_pending = None;
            return self.sample(stats?);
        }
        if self.clock.elapsed() < STATS_EVERY && !(self.controls.paused && self.clock_frames == 0) {
            return Ok(());
        }
        self.session.model_ref().request_stats();
        if self.hash_pending.is_none() {
            let model = self.session.model_ref();
            let (kind, step) = (model.kind(), model.steps_done());
            self.hash_pending = Some(PendingHash { kind, step, hash: Box::pin(model.state_hash_reader()) });
        }
        self.session.model().request_forces();
        if self.session.model_ref().bodies().is_empty() {
            self.controls.forces.clear();
        }
        self.stats_pending = Some(self.session.current());
        self.dirty = true;
        Ok(())
    }

    /// Records arrived statistics in the history, the title and (non-finite values) the notice.
    fn sample(&mut self, stats: crate::model::AnyStats) -> Result<(), Error> {
        let dt = self.clock.elapsed().as_secs_f64();
        let gpu_ms = self.session.gpu_time().map(|t| t.per_step_ns / 1e6);
        let model = self.session.model_ref();
        let kind = model.kind();
        let rate = self.clock_steps as f64 / dt;
        let fps = self.clock_frames as f64 / dt;
        let max_speed = match stats {
            crate::model::AnyStats::Smoke(s) => Some(s.max_speed as f64),
            crate::model::AnyStats::Gas(s) => Some(s.max_speed as f64),
            crate::model::AnyStats::Water(_) | crate::model::AnyStats::Custom(_) => None,
        };
        let residual = match stats {
            crate::model::AnyStats::Smoke(s) => Some(s.solver_residual),
            _ => None,
        };
        let sample = Sample {
            step: model.steps_done() as f64,
            total: stats.total(),
            rate,
            divergence: stats.divergence(),
            residual,
            max_speed,
            kinetic: stats.kinetic_energy(),
            gpu_ms,
        };
        self.history.push(kind, sample, stats.line());
        if stats.non_finite() > 0 && !self.controls.paused {
            // Stop here, say so (panel, title and terminal), and let the user reset or change parameters.
            self.controls.paused = true;
            self.controls.notice = format!(
                "{} cells became NaN or infinite: paused; R resets the scene, the panel changes parameters",
                stats.non_finite()
            );
            note!("eddy: {kind}: {}", self.controls.notice);
        }
        let paused = if self.controls.paused { " · paused" } else { "" };
        let rec: String =
            self.recordings.iter().map(|r| format!(" · ● REC {}/{}", r.recorder.frames(), r.cap)).collect();
        self.window
            .set_title(&format!("eddy · {kind} · {} · {fps:.0} fps · {rate:.0} steps/s{paused}{rec}", model.view()));
        self.clock = Instant::now();
        self.clock_frames = 0;
        self.clock_steps = 0;
        Ok(())
    }

    /// Runs the panel: its commands are carried out, the simulation's area is laid out beside it,
    /// and the brush and recording marks drawn over it. Returns egui's paint jobs.
    fn run_panel(&mut self) -> (Vec<egui::ClippedPrimitive>, egui_wgpu::ScreenDescriptor) {
        let input = self.egui.state.take_egui_input(&self.window);
        let mut commands = Vec::new();
        let (session, controls, history) = (&self.session, &mut self.controls, &self.history);
        let recordings: Vec<_> =
            self.recordings.iter().map(|r| (r.recorder.format(), r.recorder.frames(), r.cap)).collect();
        let (pointer, zoom) = (self.pointer.at, self.zoom);
        let mut placed = Placed::of(egui::Rect::NOTHING, 1.0, session.model_ref().size(), zoom);
        let output = self.egui.ctx.run_ui(input, |ui| {
            commands = panel::show(ui, session, controls, history, &recordings);
            let ppp = ui.ctx().pixels_per_point();
            placed = Placed::of(ui.available_rect_before_wrap(), ppp, session.model_ref().size(), zoom);
            overlay(ui.ctx(), session, pointer, &placed, recordings.first().map(|&(_, n, cap)| (n, cap)));
        });
        self.egui.state.handle_platform_output(&self.window, output.platform_output);
        if output.viewport_output.get(&egui::ViewportId::ROOT).is_some_and(|v| v.repaint_delay.is_zero()) {
            self.dirty = true;
        }
        let ppp = output.pixels_per_point;
        (self.view, self.frame, self.area, self.minimap) = (placed.view, placed.frame, placed.area, placed.minimap);
        let jobs = self.egui.ctx.tessellate(output.shapes, ppp);
        for (id, deltas) in &output.textures_delta.set {
            for delta in deltas {
                self.egui.renderer.update_texture(&self.gpu.device, &self.gpu.queue, *id, delta);
            }
        }
        for id in &output.textures_delta.free {
            self.egui.renderer.free_texture(id);
        }
        for command in commands {
            self.dirty = true;
            self.command(command);
        }
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [self.config.width, self.config.height],
            pixels_per_point: ppp,
        };
        (jobs, screen)
    }

    /// Draws the simulation into its area of `target` (the rest black) and the panel over it.
    fn draw(
        &mut self,
        target: &wgpu::TextureView,
        format: wgpu::TextureFormat,
        jobs: &[egui::ClippedPrimitive],
        screen: &egui_wgpu::ScreenDescriptor,
    ) -> Result<(), Error> {
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        let area = self.area;
        self.session.model().draw(&mut encoder, target, format, area)?;
        if let Some((map, _)) = self.minimap {
            // The whole grid again, small, in the frame's corner (the panel's outline over it).
            let drawing = self.session.model().prepare(&mut encoder, format, map)?;
            drawing.render(&mut crate::render::target_pass(&mut encoder, target, "minimap", wgpu::LoadOp::Load));
        }
        let (device, queue) = (&self.gpu.device, &self.gpu.queue);
        let extra = self.egui.renderer.update_buffers(device, queue, &mut encoder, jobs, screen);
        {
            let pass = crate::render::target_pass(&mut encoder, target, "egui", wgpu::LoadOp::Load);
            self.egui.renderer.render(&mut pass.forget_lifetime(), jobs, screen);
        }
        self.gpu.queue.submit(extra.into_iter().chain([encoder.finish()]));
        Ok(())
    }
}

/// Where the simulation goes in the window, pixels: the view (the panel's free `rect`, points,
/// at `ppp` pixels a point), its frame (where the grid is seen: letterboxed in the view, or the
/// whole view when zoomed in), where the whole grid is drawn (the frame, or larger when zoomed
/// in), and while zoomed the minimap and the part of it the view shows.
struct Placed {
    view: Area,
    frame: Area,
    area: Area,
    minimap: Option<(Area, Area)>,
}

impl Placed {
    fn of(rect: egui::Rect, ppp: f32, grid: (u32, u32), zoom: zoom::Zoom) -> Self {
        let view = Area {
            origin: (rect.min.x * ppp, rect.min.y * ppp),
            size: ((rect.width() * ppp).max(1.0), (rect.height() * ppp).max(1.0)),
        };
        Placed { view, frame: zoom.frame(view, grid), area: zoom.area(view, grid), minimap: zoom.minimap(view, grid) }
    }
}

/// Draws over the simulation: the brush's circle under the pointer, the recording mark, and
/// while zoomed the minimap's outline and the part of the grid the frame shows.
fn overlay(
    ctx: &egui::Context,
    session: &Session,
    pointer: Option<(f32, f32)>,
    placed: &Placed,
    recording: Option<(u32, u32)>,
) {
    let painter = ctx.layer_painter(egui::LayerId::new(egui::Order::Foreground, egui::Id::unique("eddy-overlay")));
    let ppp = ctx.pixels_per_point();
    let model = session.model_ref();
    let (frame, area) = (placed.frame, placed.area);
    if let Some(p) = pointer
        && frame.contains(p)
    {
        let radius = model.brush_radius() * area.size.0 / model.size().0 as f32 / ppp;
        let centre = egui::pos2(p.0 / ppp, p.1 / ppp);
        painter.circle_stroke(centre, radius, egui::Stroke::new(1.0, egui::Color32::from_white_alpha(180)));
    }
    if let Some((map, view)) = placed.minimap {
        let points = |a: Area| {
            egui::Rect::from_min_size(
                egui::pos2(a.origin.0 / ppp, a.origin.1 / ppp),
                egui::vec2(a.size.0 / ppp, a.size.1 / ppp),
            )
        };
        let grey = egui::Color32::from_white_alpha(160);
        painter.rect_stroke(points(map), 0.0, egui::Stroke::new(1.0, grey), egui::StrokeKind::Outside);
        let yellow = egui::Color32::from_rgb(255, 210, 60);
        painter.rect_stroke(points(view), 0.0, egui::Stroke::new(1.5, yellow), egui::StrokeKind::Middle);
    }
    if let Some((n, cap)) = recording {
        let at = egui::pos2(frame.origin.0 / ppp + frame.size.0 / ppp - 90.0, frame.origin.1 / ppp + 14.0);
        painter.circle_filled(at, 6.0, egui::Color32::from_rgb(230, 40, 40));
        painter.text(
            at + egui::vec2(10.0, 0.0),
            egui::Align2::LEFT_CENTER,
            format!("REC {n}/{cap}"),
            egui::FontId::proportional(13.0),
            egui::Color32::from_rgb(230, 40, 40),
        );
    }
}
