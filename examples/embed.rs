//! eddy inside an application that owns everything: its winit window, its wgpu device (default
//! limits), its render pass. Each frame the app records eddy's steps, a brush while the left
//! button is held, and eddy's drawing into its own encoder; the water is drawn, air transparent,
//! in a viewport on the left of the app's own pass, beside the app's own drawing (a triangle).
//!
//! `cargo run --release --example embed` (drag to pour; `EMBED_FRAMES=n` quits after n frames)

use eddy_fluid::GpuModel;
use eddy_fluid::render::{Area, Blend, WaterRenderer};
use eddy_fluid::water::{Brush, GpuWater, WaterParams, WaterState};
use eddy_fluid::{colour::ColourMap, scene::Scene, wgpu};
use std::sync::Arc;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

/// The app's own drawing: one triangle, no buffers.
const TRIANGLE: &str = "
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let p = array(vec2(0.55, -0.5), vec2(0.95, -0.5), vec2(0.75, 0.5));
    return vec4(p[i], 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return vec4(0.9, 0.3, 0.1, 1.0); }";

struct App {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    device: wgpu::Device,
    queue: wgpu::Queue,
    triangle: wgpu::RenderPipeline,
    sim: GpuWater,
    renderer: WaterRenderer,
    cursor: (f32, f32),
    pouring: bool,
    frames_left: Option<u32>,
}

impl App {
    fn new(event_loop: &ActiveEventLoop) -> Result<Self, Box<dyn std::error::Error>> {
        let window = Arc::new(event_loop.create_window(Window::default_attributes().with_title("eddy in an app"))?);
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            event_loop.owned_display_handle(),
        )));
        let surface = instance.create_surface(window.clone())?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            compatible_surface: Some(&surface),
            ..Default::default()
        }))?;
        let (device, queue) = pollster::block_on(adapter.request_device(&Default::default()))?;
        let size = window.inner_size();
        let config = surface.get_default_config(&adapter, size.width.max(1), size.height.max(1)).ok_or("no surface")?;
        surface.configure(&device, &config);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("app triangle"),
            source: wgpu::ShaderSource::Wgsl(TRIANGLE.into()),
        });
        let triangle = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("app triangle"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: None,
                compilation_options: Default::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: None,
                compilation_options: Default::default(),
                targets: &[Some(config.format.into())],
            }),
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            multiview_mask: None,
            cache: None,
        });
        // eddy on the app's device: a u-tube, drawn with transparent air into the app's format.
        let state = WaterState::from_scene(&Scene::preset("u-tube", 96, 64, 0)?);
        let sim = GpuWater::new(&device, &queue, &state, WaterParams::default())?;
        let renderer = WaterRenderer::with_blend(&device, config.format, Blend::Alpha)?;
        let frames_left = std::env::var("EMBED_FRAMES").ok().and_then(|n| n.parse().ok());
        Ok(Self {
            window,
            surface,
            config,
            device,
            queue,
            triangle,
            sim,
            renderer,
            cursor: (0.0, 0.0),
            pouring: false,
            frames_left,
        })
    }

    /// The water's viewport: the left 60% of the window, cells square.
    fn area(&self) -> Area {
        let within = Area { origin: (0.0, 0.0), size: (self.config.width as f32 * 0.6, self.config.height as f32) };
        Area::letterbox(within, self.sim.size())
    }

    fn frame(&mut self) -> Result<(), Box<dyn std::error::Error>> {
        let wgpu::CurrentSurfaceTexture::Success(texture) = self.surface.get_current_texture() else {
            self.surface.configure(&self.device, &self.config);
            return Ok(());
        };
        let view = texture.texture.create_view(&Default::default());
        let mut encoder = self.device.create_command_encoder(&Default::default());
        self.sim.encode_steps(&mut encoder, 4);
        let area = self.area();
        if self.pouring && area.contains(self.cursor) {
            let at = area.cell_at(self.cursor, self.sim.size());
            self.sim.encode_brush(&mut encoder, &Brush::pour(at, 3.0));
        }
        let drawing = self.renderer.prepare(&self.device, &mut encoder, area, &self.sim, ColourMap::Own);
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.1, g: 0.12, b: 0.2, a: 1.0 }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            drawing.render(&mut pass); // sets the viewport to the water's area
            let (w, h) = (self.config.width as f32, self.config.height as f32);
            pass.set_viewport(0.0, 0.0, w, h, 0.0, 1.0);
            pass.set_pipeline(&self.triangle);
            pass.draw(0..3, 0..1);
        }
        self.queue.submit([encoder.finish()]);
        self.window.pre_present_notify();
        self.queue.present(texture);
        Ok(())
    }
}

#[derive(Default)]
struct Runner(Option<App>);

impl ApplicationHandler for Runner {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.0.is_none() {
            self.0 = Some(App::new(event_loop).unwrap_or_else(|e| panic!("cannot start: {e}")));
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(app) = &mut self.0 else { return };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                (app.config.width, app.config.height) = (size.width.max(1), size.height.max(1));
                app.surface.configure(&app.device, &app.config);
            }
            WindowEvent::CursorMoved { position, .. } => app.cursor = (position.x as f32, position.y as f32),
            WindowEvent::MouseInput { state, button: MouseButton::Left, .. } => {
                app.pouring = state == ElementState::Pressed
            }
            WindowEvent::RedrawRequested => {
                app.frame().unwrap_or_else(|e| panic!("frame: {e}"));
                if let Some(n) = &mut app.frames_left {
                    *n = n.saturating_sub(1);
                    if *n == 0 {
                        event_loop.exit();
                    }
                }
                app.window.request_redraw();
            }
            _ => {}
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    EventLoop::new()?.run_app(&mut Runner::default())?;
    Ok(())
}
