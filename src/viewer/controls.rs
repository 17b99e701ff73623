//! Every key and mouse action of the viewer, as data: the help overlay (F1 or `?`), `eddy view
//! --help` and the README list them from here. Parameter keys come from the models' tables.

use crate::model::ModelKind;

/// The fixed controls: `(keys or buttons, what they do)`.
pub const CONTROLS: &[(&str, &str)] = &[
    ("Left drag", "the model's fluid tool (per model, listed below)"),
    ("Left click", "gas: an explosion where it is released"),
    ("Right drag", "draw walls"),
    ("Shift + drag", "erase walls and fluid"),
    ("Mouse wheel", "brush radius (the circle under the pointer shows it)"),
    ("Ctrl + wheel", "zoom in and out about the pointer (a minimap in the corner shows where the view is)"),
    ("Middle drag", "pan the zoomed view"),
    ("Home", "the whole grid again"),
    (
        "B",
        "the body tool on the left button: drag a body (its speed is the drag's), place one, Shift+click removes, the wheel spins",
    ),
    ("Tab, 1 / 2 / 3", "switch model: water, smoke, gas, then 4 to 9 any registered (each keeps its state)"),
    ("Space", "pause / run"),
    (".", "one step (paused)"),
    ("R", "reset the scene (parameters kept)"),
    ("V", "next field"),
    ("F3", "next colour map"),
    ("F4", "next look: map, styled"),
    ("F2", "show / hide the panel"),
    ("F12", "screenshot of the simulation (PNG, the panel's scale)"),
    ("G", "start / stop recording a GIF"),
    ("M", "start / stop recording a video (MP4, desktop)"),
    ("F1 or ?", "this help"),
    ("Drop a file", "a PNG scene or an .npz state replaces the model's state"),
    ("Esc", "close the help; quit"),
];

/// A parameter's viewer key: `(key, parameter name, allowed values)`.
pub type ParamKey = (char, &'static str, String);

/// The keys of the parameters, per model.
pub fn parameter_keys() -> Vec<(ModelKind, Vec<ParamKey>)> {
    ModelKind::all()
        .iter()
        .map(|&kind| {
            let keys = kind.params().into_iter().filter_map(|p| p.key.map(|k| (k, p.name, p.allowed()))).collect();
            (kind, keys)
        })
        .collect()
}

/// What the left button's fluid tool does in each model: `water: ...; smoke: ...; gas: ...`.
pub fn fluid_tools() -> String {
    let tools: Vec<String> = ModelKind::all().iter().map(|k| format!("{k}: {}", k.info().left_button)).collect();
    tools.join("; ")
}

/// The controls as plain text, for `eddy view --help`.
pub fn help_text() -> String {
    let mut text = String::from("Controls (also in the window: F1 or ?):\n");
    let width = CONTROLS.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    for (keys, what) in CONTROLS {
        text.push_str(&format!("  {keys:width$}  {what}\n"));
    }
    text.push_str(&format!("The fluid tool: {}.\n", fluid_tools()));
    text.push_str("Parameter keys (lower case lowers, Shift raises, within the allowed range):\n");
    for (kind, keys) in parameter_keys() {
        if !keys.is_empty() {
            let keys: Vec<String> = keys.iter().map(|(k, name, allowed)| format!("{k} {name} ({allowed})")).collect();
            text.push_str(&format!("  {kind}: {}\n", keys.join(", ")));
        }
    }
    text.push_str(
        "The panel (left; F2 hides it) has every parameter with its unit, range and source, the tools, \
         time, field, colour map and legend, live statistics, and screenshot, GIF, load and save.",
    );
    text
}
