//! The viewer in a browser (wasm32): the device is opened asynchronously while the page's event
//! loop runs, errors are written into the page, and what needs a file system or a blocking
//! readback (screenshots, GIFs, saving and loading by path) says it is not in the browser build.

use super::{App, Error, Live, Opened, connect};
use crate::gpu::{Gpu, GpuError};
use crate::model::AnyState;
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use winit::event_loop::ActiveEventLoop;
use winit::platform::web::WindowAttributesExtWebSys;

thread_local! {
    /// Files the page handed over ([`open_file`]), loaded at the next frame.
    static INBOX: RefCell<Vec<(String, Vec<u8>)>> = const { RefCell::new(Vec::new()) };
    /// What a background task (a save) has to say, shown at the next frame.
    static SAID: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The object URL of the last download.
    static LAST_URL: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The viewer's window, to wake it when a file or a message arrives.
    static WINDOW: RefCell<Option<std::sync::Arc<winit::window::Window>>> = const { RefCell::new(None) };
}

/// Hands the viewer a file the user picked or dropped on the page: a `.npz` state or a PNG scene
/// (`name` says which by its extension), loaded at the next frame. The page's script calls it
/// (through `web/src/lib.rs`).
pub fn open_file(name: String, bytes: Vec<u8>) {
    INBOX.with(|i| i.borrow_mut().push((name, bytes)));
    wake();
}

fn tell(said: String) {
    SAID.with(|s| *s.borrow_mut() = Some(said));
    wake();
}

fn wake() {
    WINDOW.with(|w| {
        if let Some(w) = &*w.borrow() {
            w.request_redraw();
        }
    });
}

/// Offers `bytes` to the user as a download named `name`.
fn download(name: &str, bytes: &[u8]) -> Result<(), Error> {
    use wasm_bindgen::JsCast;
    let js = |e: wasm_bindgen::JsValue| -> Error { format!("{e:?}").into() };
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/octet-stream");
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(js)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(js)?;
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").map_err(js)?.dyn_into().map_err(|_| "no <a>")?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    // Revoked at the next download, not now: some browsers read the URL after click() returns.
    if let Some(old) = LAST_URL.with(|u| u.borrow_mut().replace(url)) {
        let _ = web_sys::Url::revoke_object_url(&old);
    }
    Ok(())
}

/// What the desktop build does that the browser build does not (yet).
const NOT_HERE: &str = "not in the browser build: it has no file system (use `eddy view` on the desktop)";

/// The window and the device opened for it (or why none could be).
type Opening = (Opened, Result<Gpu, GpuError>);

/// The window and the device being opened for it: filled by the opening task, taken by the
/// event loop.
#[derive(Default)]
pub(super) struct Starting {
    begun: bool,
    done: Rc<RefCell<Option<Opening>>>,
}

/// A canvas appended to the page's body; the page's CSS sizes it, and winit follows its size.
pub(super) fn canvas(attributes: winit::window::WindowAttributes) -> winit::window::WindowAttributes {
    attributes.with_append(true).with_prevent_default(true).with_focusable(true)
}

/// Writes `message` into the page's `#status` element and shows it (the page's own script
/// hides it once the viewer runs).
pub(super) fn show_error(message: &str) {
    let Some(status) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("status")) else {
        return;
    };
    status.set_text_content(Some(&format!("eddy cannot run here: {message}")));
    let _ = status.set_attribute("class", "error");
}

/// Hides the page's `#status` and marks the page as running (the page test waits for it).
fn show_running(adapter: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(status) = document.get_element_by_id("status") {
        let _ = status.set_attribute("hidden", "");
    }
    if let Some(body) = document.body() {
        let _ = body.set_attribute("data-eddy", "running");
        let _ = body.set_attribute("data-adapter", adapter);
    }
}

impl App {
    /// Opens the canvas and starts opening a device for it, without waiting.
    pub(super) fn start(&mut self, event_loop: &ActiveEventLoop) -> Result<(), Error> {
        if self.starting.begun {
            return Ok(());
        }
        self.starting.begun = true;
        let opened = self.open_window(event_loop)?;
        let kind = self.options.session.params.kind();
        let done = self.starting.done.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let gpu = connect(&opened.instance, &opened.surface, kind).await;
            opened.window.request_redraw();
            *done.borrow_mut() = Some((opened, gpu));
        });
        Ok(())
    }

    /// Once the device is open, makes the running viewer (or reports why it cannot run).
    pub(super) fn poll_start(&mut self, event_loop: &ActiveEventLoop) {
        if self.live.is_some() {
            return;
        }
        let Some((opened, gpu)) = self.starting.done.borrow_mut().take() else { return };
        let live = gpu.map_err(Error::from).and_then(|gpu| self.live(opened, gpu));
        match live {
            Ok(live) => {
                show_running(&live.gpu.adapter_label());
                WINDOW.with(|w| *w.borrow_mut() = Some(live.window.clone()));
                live.window.request_redraw();
                self.live = Some(live);
            }
            Err(e) => self.fail(event_loop, e),
        }
    }
}

impl Live {
    pub(super) fn screenshot_now(&mut self) -> Result<(), Error> {
        Err(format!("screenshots are {NOT_HERE}").into())
    }

    pub(super) fn toggle_recording(&mut self, _: crate::record::Format) -> Result<(), Error> {
        Err(format!("recording GIFs and videos is {NOT_HERE}").into())
    }

    pub(super) fn screenshot(&mut self, _: &Path, _: u32) -> Result<(), Error> {
        self.screenshot_now()
    }

    pub(super) fn start_recording(&mut self, _: &Path, _: u32, _: super::Every, _: u32, _: f64) -> Result<(), Error> {
        self.toggle_recording(crate::record::Format::Gif)
    }

    pub(super) fn record(&mut self) -> Result<(), Error> {
        Ok(())
    }

    pub(super) fn finish_recording(&mut self, _: super::Recording) -> Result<(), Error> {
        Ok(())
    }

    pub(super) fn window_shot(
        &mut self,
        _: &Path,
        _: &[egui::ClippedPrimitive],
        _: &egui_wgpu::ScreenDescriptor,
    ) -> Result<(), Error> {
        Ok(())
    }

    /// Offers the current state as a download named after `path`'s file name: the fields are
    /// copied on the GPU now and read back by a task while the model runs on
    /// ([`crate::model::AnyModel::state_reader`]).
    pub(super) fn save(&mut self, path: &Path) -> Result<(), Error> {
        let name = path.file_name().map_or("eddy.npz".into(), |n| n.to_string_lossy().into_owned());
        let model = self.session.model_ref();
        let (reader, step, params) = (model.state_reader(), model.steps_done(), model.params());
        wasm_bindgen_futures::spawn_local(async move {
            let bytes = reader.await.map_err(Error::from).and_then(|s| Ok(s.to_npz_bytes(step, Some(&params))?));
            let said = match bytes.and_then(|b| download(&name, &b)) {
                Ok(()) => format!("saved {name} (step {step}) as a download"),
                Err(e) => format!("could not save {name}: {e} (the simulation goes on)"),
            };
            tell(said);
        });
        self.controls.notice = format!("saving {}…", path.display());
        Ok(())
    }

    /// Files are loaded from bytes the page hands over ([`open_file`]); a path means nothing here.
    pub(super) fn load(&mut self, _: &Path) {
        self.controls.notice = "drop a file on the page, or use \"open a file…\"".into();
    }

    /// Opens the page's file picker (its `<input type="file" id="file">`).
    pub(super) fn pick(&mut self) -> Result<(), Error> {
        use wasm_bindgen::JsCast;
        let input = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("file"))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            .ok_or("this page has no file picker (an <input type=\"file\" id=\"file\">)")?;
        input.click();
        Ok(())
    }

    /// Loads the files the page handed over and shows what the background tasks said.
    pub(super) fn inbox(&mut self) {
        let files = INBOX.with(|i| std::mem::take(&mut *i.borrow_mut()));
        let loaded = !files.is_empty();
        for (name, bytes) in files {
            self.load_bytes(&name, bytes);
        }
        let said = SAID.with(|s| s.borrow_mut().take());
        if let Some(said) = &said {
            self.controls.notice = said.clone();
        }
        if loaded || said.is_some() {
            // Also on the page, for scripts and tests: <body data-notice="...">.
            if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
                let _ = body.set_attribute("data-notice", &self.controls.notice);
            }
        }
    }

    /// A `.npz` state (of whichever model its arrays say) or a PNG scene for the current model;
    /// on error the running simulation stays and the panel says why.
    fn load_bytes(&mut self, name: &str, bytes: Vec<u8>) {
        let path = Path::new(name);
        let result = if name.to_ascii_lowercase().ends_with(".npz") {
            let loaded = AnyState::load_npz_bytes(path, bytes.clone(), None);
            self.take_state(&name, loaded, |kind| AnyState::read_parameters_bytes(path, bytes, kind))
        } else {
            let params = self.session.model_ref().params();
            AnyState::from_png_bytes(path, &bytes, &params).map_err(Error::from).and_then(|state| {
                self.session.replace(&state, 0, None)?;
                Ok(format!("loaded the scene {name}"))
            })
        };
        self.say_loaded(result);
        self.dirty = true;
    }
}
