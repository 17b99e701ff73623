//! eddy's viewer in a browser page: [`start`] runs when the page loads the module
//! (`web/index.html`). The query string picks what opens: `?model=water|smoke|gas` (default
//! water) and `?size=WxH` (cells; default 160x100), e.g. `index.html?model=smoke&size=192x128`.
//! Only for wasm32 (`web/build.sh`); on other targets the crate is empty.
#![cfg(target_arch = "wasm32")]

use eddy_fluid::model::{ModelKind, ModelParams, SessionOptions, Start};
use eddy_fluid::scene::SceneSource;
use eddy_fluid::viewer::ViewerOptions;
use wasm_bindgen::prelude::wasm_bindgen;

/// Largest grid side the page accepts from its query string, cells.
const MAX_SIDE: usize = 1024;

/// `?model=` and `?size=` from the page's address; anything unreadable keeps the default.
fn query() -> (ModelKind, (usize, usize)) {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let (mut kind, mut size) = (ModelKind::Water, (160, 100));
    for pair in search.trim_start_matches('?').split('&') {
        match pair.split_once('=') {
            Some(("model", m)) => {
                if let Some(k) = ModelKind::ALL.into_iter().find(|k| k.name() == m) {
                    kind = k;
                }
            }
            Some(("size", s)) => {
                if let Some((w, h)) = s.split_once('x')
                    && let (Ok(w), Ok(h)) = (w.parse::<usize>(), h.parse::<usize>())
                    && (8..=MAX_SIDE).contains(&w)
                    && (8..=MAX_SIDE).contains(&h)
                {
                    size = (w, h);
                }
            }
            _ => {}
        }
    }
    (kind, size)
}

/// Hands the viewer a file picked or dropped on the page (`name` ends in `.npz` for a state,
/// else it is read as a PNG scene); the page's script calls it.
#[wasm_bindgen]
pub fn open_file(name: String, bytes: Vec<u8>) {
    eddy_fluid::viewer::open_file(name, bytes);
}

/// Opens the viewer in a canvas appended to the page. Errors (no WebGPU adapter, one that lacks
/// what the model needs) are written into the page's `#status` element.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    let (kind, size) = query();
    let options = ViewerOptions {
        session: SessionOptions {
            params: ModelParams::defaults(kind),
            start: Start::Scene(SceneSource::Preset(kind.default_scene().to_string())),
            size,
            seed: 1,
        },
        steps_per_frame: None,
        scale: 4,
        field: None,
        colour_map: None,
        look: None,
        frames: None,
        screenshot: None,
        script: None,
        demo: false,
        panel: true,
        paused: false,
        sleep: false,
        stop: None,
    };
    if let Err(e) = eddy_fluid::viewer::run(options) {
        web_sys::console::error_1(&format!("eddy: {e}").into());
    }
}
