//! eddy in any web page: the wasm module under the npm package `eddy-fluid` (`web/component/`).
//!
//! One [`Fluid`] is one simulation drawn into one `<canvas>`: its own WebGPU device, surface and
//! [`Session`], so two on a page share nothing. The package's JavaScript (`js/eddy-fluid.js`)
//! drives it: the animation frames, the pointer, the page's visibility, the canvas's size; this
//! module steps, draws, and applies what it is asked, with eddy's messages for what is wrong.
//!
//! Coordinates are cells, `(x, y)` = `(column, row)` with row 0 at the top; the JavaScript
//! converts CSS pixels. Only for wasm32 (`web/component/build.sh`); elsewhere the crate is empty.
#![cfg(target_arch = "wasm32")]

use eddy_fluid::Grid;
use eddy_fluid::gpu::Gpu;
use eddy_fluid::model::tools::{Stroke, Tool};
use eddy_fluid::model::{Action, AnyState, Done, ModelKind, ModelParams, Session, SessionOptions, Start};
use eddy_fluid::render::smoke_lit::Lighting;
use eddy_fluid::render::{Blend, Look};
use eddy_fluid::scene::SceneSource;
use eddy_fluid::smoke::Impulse;
use eddy_fluid::wgpu;
use wasm_bindgen::prelude::*;

/// Largest grid side a component takes, cells: the JavaScript caps its `resolution` here too.
const MAX_SIDE: u32 = 2048;

/// Smallest grid side, cells.
const MIN_SIDE: u32 = 8;

/// An error for JavaScript: eddy's one-line message.
fn error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// The model named `name`, or an error listing the names there are.
fn model_kind(name: &str) -> Result<ModelKind, JsError> {
    ModelKind::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = ModelKind::all().iter().map(|k| k.name()).collect();
        error(format!("no model {name:?}; the models are {}", names.join(", ")))
    })
}

/// `(w, h)` cells, or an error saying the range.
fn grid(w: u32, h: u32) -> Result<(usize, usize), JsError> {
    let ok = |s: u32| (MIN_SIDE..=MAX_SIDE).contains(&s);
    if !ok(w) || !ok(h) {
        return Err(error(format!("a grid of {w}x{h} cells: each side must be {MIN_SIDE} to {MAX_SIDE}")));
    }
    Ok((w as usize, h as usize))
}

/// One simulation drawn into one canvas.
#[wasm_bindgen]
pub struct Fluid {
    gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    session: Session,
    /// Premultiplied alpha: water's air and smoke's empty cells show the page behind.
    transparent: bool,
    /// The styled smoke's glow ([`eddy_fluid::render::smoke_lit::Lighting::bloom`]).
    bloom: f32,
}

#[wasm_bindgen]
impl Fluid {
    /// Opens a WebGPU device for `canvas` and starts `model` (`water`, `smoke`, `gas`) on its
    /// preset `scene` (empty: the model's default) at `width` x `height` cells, drawn opaque or
    /// over the page (`transparent`).
    ///
    /// # Errors
    /// No WebGPU adapter (the browser has none, or it is off), one that lacks what eddy needs,
    /// an unknown model or preset, a grid side outside 8 to 2048 cells.
    pub async fn create(
        canvas: web_sys::HtmlCanvasElement,
        model: String,
        scene: String,
        width: u32,
        height: u32,
        transparent: bool,
        seed: u32,
    ) -> Result<Fluid, JsError> {
        let kind = model_kind(&model)?;
        let size = grid(width, height)?;
        let scene = if scene.is_empty() { kind.default_scene().to_string() } else { scene };
        kind.own_preset(&scene).map_err(error)?;
        // A preset made for a parameter set (smoke's cavity, gas's tunnel) starts with it.
        let mut params = ModelParams::defaults(kind);
        params.apply_scene_preset(&scene);
        let (pixels_w, pixels_h) = (canvas.width().max(1), canvas.height().max(1));
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::BROWSER_WEBGPU;
        let instance = wgpu::Instance::new(desc);
        let surface = instance
            .create_surface(wgpu::SurfaceTarget::Canvas(canvas))
            .map_err(|e| error(format!("cannot draw into the canvas: {e}")))?;
        // Every built-in model's needs, so the component can switch models later.
        let needs = ModelKind::requirements(&ModelKind::ALL);
        let gpu = Gpu::with_instance(instance, Some(&surface), &needs).await.map_err(error)?;
        let caps = surface.get_capabilities(&gpu.adapter);
        let mut config = surface
            .get_default_config(&gpu.adapter, pixels_w, pixels_h)
            .ok_or_else(|| error("this adapter cannot draw into the canvas"))?;
        config.format = caps.formats.iter().copied().find(|f| !f.is_srgb()).unwrap_or(config.format);
        // Every WebGPU canvas takes "premultiplied" (the spec's GPUCanvasAlphaMode), so the
        // capabilities are not asked: wgpu 30.0.1 lists only Opaque for a web surface.
        config.alpha_mode = match transparent {
            true => wgpu::CompositeAlphaMode::PreMultiplied,
            false => wgpu::CompositeAlphaMode::Opaque,
        };
        surface.configure(&gpu.device, &config);
        let options =
            SessionOptions { params, start: Start::Scene(SceneSource::Preset(scene)), size, seed: seed.into() };
        let session = Session::new(&gpu.device, &gpu.queue, &gpu.adapter, options).map_err(error)?;
        Ok(Fluid { gpu, surface, config, session, transparent, bloom: Lighting::default().bloom })
    }

    /// Draws every model with the look named `look` from now on: `styled` (smoke lit and
    /// shaded, water as a surface with foam, gas as a schlieren image) or `map` (the field
    /// through its colour map, as `eddy view` shows it).
    ///
    /// # Errors
    /// Another name, with the names.
    pub fn set_look(&mut self, look: String) -> Result<(), JsError> {
        self.session.set_look(Look::from_name(&look).map_err(error)?);
        Ok(())
    }

    /// The look drawn: `styled` or `map`.
    #[wasm_bindgen(getter)]
    pub fn look(&self) -> String {
        self.session.look().name().to_string()
    }

    /// The styled smoke's glow from now on, 0 (none) to 4.
    ///
    /// # Errors
    /// A value that is not finite or lies outside 0 to 4.
    pub fn set_bloom(&mut self, bloom: f32) -> Result<(), JsError> {
        if !(bloom.is_finite() && (0.0..=4.0).contains(&bloom)) {
            return Err(error(format!("bloom is {bloom}; it takes a number from 0 to 4")));
        }
        self.bloom = bloom;
        Ok(())
    }

    /// Whether the canvas shows the page behind where the fluid is empty (`transparent`).
    #[wasm_bindgen(getter)]
    pub fn transparent(&self) -> bool {
        self.transparent
    }

    /// The adapter, e.g. `SwiftShader Device (Subzero) (BrowserWebGpu, Cpu)`.
    #[wasm_bindgen(getter)]
    pub fn adapter(&self) -> String {
        self.gpu.adapter_label()
    }

    /// The current model's name.
    #[wasm_bindgen(getter)]
    pub fn model(&self) -> String {
        self.session.current().name().to_string()
    }

    /// The grid, `[width, height]` cells.
    #[wasm_bindgen(getter)]
    pub fn grid(&self) -> Vec<u32> {
        let (w, h) = self.session.model_ref().size();
        vec![w, h]
    }

    /// Steps taken since the model started.
    #[wasm_bindgen(getter)]
    pub fn steps(&self) -> f64 {
        self.session.steps() as f64
    }

    /// The current model's preset scenes.
    #[wasm_bindgen(getter)]
    pub fn scenes(&self) -> Vec<String> {
        self.session.current().info().presets.iter().map(|(name, _)| name.to_string()).collect()
    }

    /// Takes `steps` steps, then draws the current field into the canvas.
    ///
    /// # Errors
    /// A GPU error (the device was lost); the simulation stops there.
    pub fn frame(&mut self, steps: u32) -> Result<(), JsError> {
        if steps > 0 {
            self.session.step(steps).map_err(error)?;
        }
        self.draw()
    }

    /// Draws the current field into the canvas, letterboxed to the grid's aspect.
    ///
    /// # Errors
    /// A GPU error.
    pub fn draw(&mut self) -> Result<(), JsError> {
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.gpu.device, &self.config);
                return Ok(());
            }
            _ => return Ok(()),
        };
        let view = texture.texture.create_view(&Default::default());
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        let model = self.session.model();
        model.set_blend(if self.transparent { Blend::Alpha } else { Blend::Opaque });
        model.set_lighting(Lighting { bloom: self.bloom, ..Lighting::default() });
        let drawing =
            model.prepare(&mut encoder, self.config.format, (self.config.width, self.config.height)).map_err(error)?;
        let clear = if self.transparent { wgpu::Color::TRANSPARENT } else { wgpu::Color::BLACK };
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("eddy component"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Store },
                })],
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            drawing.render(&mut pass);
        }
        self.gpu.queue.submit([encoder.finish()]);
        self.gpu.queue.present(texture);
        self.gpu.check().map_err(error)
    }

    /// The canvas's drawing buffer is now `width` x `height` pixels (CSS size times
    /// `devicePixelRatio`).
    pub fn resize(&mut self, width: u32, height: u32) {
        let (w, h) = (width.clamp(1, 16384), height.clamp(1, 16384));
        if (w, h) != (self.config.width, self.config.height) {
            self.config.width = w;
            self.config.height = h;
            self.surface.configure(&self.gpu.device, &self.config);
        }
    }

    /// Starts the current model again on its preset `scene` (empty: the one it started on) at
    /// `width` x `height` cells; its parameters stay.
    ///
    /// # Errors
    /// An unknown preset, a grid side outside 8 to 2048; nothing changes then.
    pub fn restart(&mut self, scene: String, width: u32, height: u32) -> Result<(), JsError> {
        let size = grid(width, height)?;
        let kind = self.session.current();
        let scene = if scene.is_empty() { kind.default_scene().to_string() } else { scene };
        self.session.restart(&SceneSource::Preset(scene), size).map_err(error)
    }

    /// Makes `model` current, started on its default preset at the present grid.
    ///
    /// # Errors
    /// An unknown model.
    pub fn set_model(&mut self, model: String) -> Result<(), JsError> {
        let kind = model_kind(&model)?;
        if kind == self.session.current() {
            return Ok(());
        }
        let (w, h) = self.session.model_ref().size();
        let size = (w as usize, h as usize);
        self.session.switch(kind).map_err(error)?;
        self.session.restart(&SceneSource::Preset(kind.default_scene().to_string()), size).map_err(error)
    }

    /// Starts the scene again, parameters kept.
    ///
    /// # Errors
    /// A GPU error.
    pub fn reset(&mut self) -> Result<(), JsError> {
        self.session.reset().map_err(error)
    }

    /// The current model's parameters as `[name, value]` pairs, as the command line writes
    /// them.
    pub fn params(&self) -> Vec<JsValue> {
        let kind = self.session.current();
        let params = self.session.params_of(kind);
        kind.params()
            .iter()
            .filter_map(|info| {
                let value = params.get(info.name)?;
                let pair = js_sys::Array::of2(&info.name.into(), &info.format(value).into());
                Some(pair.into())
            })
            .collect()
    }

    /// Sets parameters as the command line takes them (`name`, text), checked together as the
    /// command line checks them; returns the changes, `name before -> after, ...`.
    ///
    /// # Errors
    /// A name the model has no parameter for, a value its row refuses (the command line's
    /// message), or a set that breaks a rule between parameters; nothing changes then.
    pub fn set(&mut self, names: Vec<String>, values: Vec<String>) -> Result<String, JsError> {
        let kind = self.session.current();
        let rows = kind.params();
        let mut set = Vec::new();
        for (name, text) in names.iter().zip(&values) {
            let Some(info) = rows.iter().find(|i| i.name == name) else {
                return Err(error(format!("{kind} has no parameter {name:?}; its parameters: {}", kind.param_names())));
            };
            let value = info.parse(text).map_err(|e| error(format!("{name}: {e}")))?;
            set.push((info.name, value));
        }
        match self.session.apply(&Action::SetAll(set)).map_err(error)? {
            Done::Set(_, changed) => Ok(eddy_fluid::model::changes(&changed)),
            _ => Ok("no change".to_string()),
        }
    }

    /// A splat at `(x, y)` cells of `radius` cells moving at `(vx, vy)` cells per time unit: in
    /// smoke dye of colour `(r, g, b)` (0 to 1 each) with the impulse's temperature and density;
    /// in water, water poured; in gas, gas pushed along `(vx, vy)`.
    ///
    /// # Errors
    /// Numbers that are not finite, a radius not above 0.
    #[allow(clippy::too_many_arguments)]
    pub fn splat(
        &mut self,
        x: f32,
        y: f32,
        vx: f32,
        vy: f32,
        radius: f32,
        r: f32,
        g: f32,
        b: f32,
    ) -> Result<(), JsError> {
        let model = self.session.model();
        if model.kind() == ModelKind::Smoke {
            let p = match model.params() {
                ModelParams::Smoke(p) => p,
                _ => unreachable!("the model is smoke"),
            };
            let impulse = Impulse {
                center: (x, y),
                radius,
                temperature: p.impulse_temperature,
                density: p.impulse_density,
                velocity: (vx, vy),
                sources: false,
                dye: [r, g, b],
            };
            return model.splat(&impulse).map_err(error);
        }
        if ![x, y, vx, vy, radius].iter().all(|v| v.is_finite()) || radius <= 0.0 {
            return Err(error("a splat needs finite numbers and a radius above 0"));
        }
        let speed = vx.hypot(vy);
        let back = if speed > 0.0 { (vx / speed, vy / speed) } else { (0.0, 0.0) };
        let stroke = Stroke { from: (x - back.0, y - back.1), to: (x, y), tool: Tool::Fluid, erase: false };
        self.session.apply(&Action::Brush(Some(radius))).map_err(error)?;
        self.session.apply(&Action::Stroke(stroke)).map_err(error)?;
        Ok(())
    }

    /// One move of the fluid tool from `(x0, y0)` to `(x1, y1)` cells, as the viewer's left
    /// button (or erasing, as with Shift), with the model's brush.
    ///
    /// # Errors
    /// A GPU error.
    pub fn stroke(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, erase: bool) -> Result<(), JsError> {
        let stroke = Stroke { from: (x0, y0), to: (x1, y1), tool: Tool::Fluid, erase };
        self.session.apply(&Action::Brush(None)).map_err(error)?;
        self.session.apply(&Action::Stroke(stroke)).map_err(error)?;
        Ok(())
    }

    /// Reads the current model's field `name` back from the GPU without blocking: a
    /// `Float32Array` of `H * W` values, `(H, W)` row-major with row 0 at the top (`grid` is
    /// `[W, H]`), in the model's units (water: mass a cell, 1 full; smoke: density, temperature,
    /// pressure, divergence, velocity_x, velocity_y in cells per time unit; gas: density,
    /// momentum_x, momentum_y). The steps asked for before it are in it.
    ///
    /// # Errors
    /// (The promise rejects.) A field the model has not, naming those it has; a GPU error.
    pub fn read(&self, name: String) -> js_sys::Promise {
        let reader = self.session.model_ref().state_reader();
        wasm_bindgen_futures::future_to_promise(async move {
            let state = reader.await.map_err(|e| JsValue::from(error(e)))?;
            let grid = field(&state, &name).map_err(JsValue::from)?;
            Ok(js_sys::Float32Array::from(grid.as_slice()).into())
        })
    }

    /// Lets still water sleep (`true`: only the tiles where something can change are stepped,
    /// the same masses to the bit) or steps every cell; the other models step every cell either
    /// way, and a water model made later takes it too.
    ///
    /// # Errors
    /// A GPU error building the tiles' passes.
    pub fn set_sleep(&mut self, on: bool) -> Result<(), JsError> {
        self.session.set_sleep(on).map_err(error)
    }

    /// Whether still water sleeps.
    #[wasm_bindgen(getter)]
    pub fn sleep(&self) -> bool {
        self.session.sleep()
    }

    /// The state hash, 16 hex digits, the same exactly when the state's bits are (`eddy run`
    /// prints it; `eddy_fluid::gpu::state_hash`): water's masses and walls, smoke's fields, dye
    /// and solid bits. The steps asked for before it are in it.
    ///
    /// # Errors
    /// (The promise rejects.) A GPU error.
    pub fn state_hash(&self) -> js_sys::Promise {
        let reader = self.session.model_ref().state_hash_reader();
        wasm_bindgen_futures::future_to_promise(async move {
            let hash = reader.await.map_err(|e| JsValue::from(error(e)))?;
            Ok(JsValue::from_str(&eddy_fluid::gpu::state_hash::hex(hash)))
        })
    }

    /// Frees every GPU resource now (the device is destroyed); the object is unusable after.
    pub fn destroy(self) {
        self.gpu.device.destroy();
    }
}

/// `state`'s field `name`, or an error naming the fields there are.
fn field<'a>(state: &'a AnyState, name: &str) -> Result<&'a Grid<f32>, JsError> {
    let fields: Vec<(&str, &Grid<f32>)> = match state {
        AnyState::Water(s) => vec![("mass", &s.mass)],
        AnyState::Smoke(s) => vec![
            ("density", &s.density),
            ("temperature", &s.temperature),
            ("pressure", &s.pressure),
            ("divergence", &s.divergence),
            ("velocity_x", &s.velocity_x),
            ("velocity_y", &s.velocity_y),
        ],
        AnyState::Gas(s) => vec![("density", &s.density), ("momentum_x", &s.momentum_x), ("momentum_y", &s.momentum_y)],
        _ => vec![],
    };
    let names: Vec<&str> = fields.iter().map(|(n, _)| *n).collect();
    fields
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, g)| g)
        .ok_or_else(|| error(format!("{} has no field {name:?}; its fields: {}", state.kind(), names.join(", "))))
}
