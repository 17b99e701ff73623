//! The viewer in a browser (wasm32): the device is opened asynchronously while the page's event
//! loop runs, errors are written into the page, and what needs a file system or a blocking
//! readback (screenshots, GIFs, saving and loading by path) says it is not in the browser build.

use super::{App, Error, Live, Opened, connect};
use crate::gpu::{Gpu, GpuError};
use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use winit::event_loop::ActiveEventLoop;
use winit::platform::web::WindowAttributesExtWebSys;

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

    pub(super) fn toggle_gif(&mut self) -> Result<(), Error> {
        Err(format!("GIF recording is {NOT_HERE}").into())
    }

    pub(super) fn screenshot(&mut self, _: &Path, _: u32) -> Result<(), Error> {
        self.screenshot_now()
    }

    pub(super) fn start_gif(&mut self, _: &Path, _: u32, _: super::Every, _: u32) -> Result<(), Error> {
        self.toggle_gif()
    }

    pub(super) fn record(&mut self) -> Result<(), Error> {
        Ok(())
    }

    pub(super) fn finish_gif(&mut self, _: super::Recording) -> Result<(), Error> {
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

    pub(super) fn save(&mut self, _: &Path) -> Result<(), Error> {
        Err(format!("saving a state is {NOT_HERE}").into())
    }

    pub(super) fn load(&mut self, _: &Path) {
        self.controls.notice = format!("loading a file is {NOT_HERE}");
    }
}
