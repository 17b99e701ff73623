//! [`Action`]: one change to a [`crate::model::Session`] or to what its front end shows and
//! writes, from the viewer's controls or a script's line ([`crate::script`], feature `script`).

use super::ModelKind;
use super::tools::{Stroke, Tool};
use crate::colour::ColourMap;
use crate::params::Value;
use std::path::PathBuf;

/// Most points a front end takes in one drawn path (a script's stroke, Python's `stroke`): a
/// path is drawn segment by segment, each about as costly as a viewer's pointer move.
pub const MAX_STROKE_POINTS: usize = 100_000;

/// One change to a [`crate::model::Session`] or to what its front end shows and writes.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Make this model current.
    Model(ModelKind),
    /// Set a parameter of the current model (name as the CLI spells it), as an interactive
    /// control does: parameters tied to it move into the range it needs
    /// ([`crate::model::ParamTable::set_fitted`]).
    Set(&'static str, Value),
    /// Set parameters of the current model together, as the command line does (a script's
    /// `set` table): each value must be in its row's range, and the set as a whole must pass
    /// the limits that tie parameters together; nothing else moves, and on error nothing
    /// changes.
    SetAll(Vec<(&'static str, Value)>),
    /// Show this field.
    View(String),
    /// Colour the shown field with this map.
    ColourMap(ColourMap),
    /// Draw every model this way: its field through the colour map, or its styled look.
    Look(crate::render::Look),
    /// Brush radius, cells; `None`: the model's default.
    Brush(Option<f32>),
    /// Start the scene again (parameters kept).
    Reset,
    /// Parameters back to their defaults (state kept).
    Defaults,
    /// One pointer move of a tool, in cells (the viewer's mouse).
    Stroke(Stroke),
    /// A drawn path of a tool through `points` (`(col, row)` cells).
    Path {
        /// The tool.
        tool: Tool,
        /// Erase instead.
        erase: bool,
        /// The path's points; one point is a dab. Front ends take at most
        /// [`MAX_STROKE_POINTS`].
        points: Vec<(f32, f32)>,
    },
    /// The fluid tool pressed and released without moving, at `(col, row)` cells.
    Click((f32, f32)),
    /// Add a rigid body to the current model (smoke; [`crate::body`]).
    AddBody(crate::body::Body),
    /// Give a body a new motion: its velocity, cells per time unit, and spin, radians per time
    /// unit (where it is stays).
    Drive {
        /// Which body (from 0, in the order they were added).
        body: usize,
        /// `(vx, vy)`, cells per time unit (y down).
        velocity: (f32, f32),
        /// Radians per time unit.
        spin: f32,
    },
    /// Remove a body (the later ones move down one).
    RemoveBody(usize),
    /// Show this many frames without stepping (viewer only).
    Pause(u32),
    /// Save the simulation view as a PNG at this many pixels per cell.
    Screenshot(PathBuf, u32),
    /// Record a GIF or a video, its format by the path's extension ([`crate::record::Format`]).
    Record {
        /// Where (`.gif` or `.mp4`).
        path: PathBuf,
        /// How many frames.
        frames: u32,
        /// Steps between frames (at least 1).
        every: u32,
        /// Frames a second it plays at.
        fps: f64,
    },
    /// Save the current model's state as `.npz`.
    Save(PathBuf),
    /// End: the viewer closes; a run stops here (and saves to `--save`).
    Quit,
    /// Resize the viewer's window to `(width, height)` pixels (nothing in `run`).
    Window(u32, u32),
}

impl Action {
    /// The action as a script writes it (`body = "circle:r=3,x=20,..."`, `drive = { body = 2,
    /// vx = 1, vy = 0, spin = 0 }`, `set = { dt = 0.5 }`), for messages about it.
    pub fn describe(&self) -> String {
        /// A parameter's value as its row writes it.
        fn value(name: &str, v: Value) -> String {
            match ModelKind::param_rows(name).first() {
                Some((_, info)) => info.format(v),
                None => format!("{v:?}"),
            }
        }
        let pair = |(x, y): (f32, f32)| format!("[{x}, {y}]");
        match self {
            Action::Model(k) => format!("model = \"{k}\""),
            Action::Set(name, v) => format!("set = {{ {name} = {} }}", value(name, *v)),
            Action::SetAll(values) => {
                let all: Vec<String> = values.iter().map(|(n, v)| format!("{n} = {}", value(n, *v))).collect();
                format!("set = {{ {} }}", all.join(", "))
            }
            Action::View(name) => format!("view = \"{name}\""),
            Action::ColourMap(map) => format!("colour-map = \"{}\"", map.name()),
            Action::Look(look) => format!("look = \"{}\"", look.name()),
            Action::Brush(Some(r)) => format!("brush = {r}"),
            Action::Brush(None) => "brush = \"default\"".into(),
            Action::Reset => "reset = true".into(),
            Action::Defaults => "defaults = true".into(),
            Action::Stroke(s) => format!("a {:?} stroke from {} to {}", s.tool, pair(s.from), pair(s.to)),
            Action::Path { tool, erase, points } => {
                let tool = tool.name(*erase);
                format!("stroke = {{ tool = \"{tool}\", {} points from {} }}", points.len(), pair(points[0]))
            }
            Action::Click(at) => format!("click = {}", pair(*at)),
            Action::AddBody(body) => format!("body = \"{body}\""),
            Action::Drive { body, velocity: (vx, vy), spin } => {
                format!("drive = {{ body = {body}, vx = {vx}, vy = {vy}, spin = {spin} }}")
            }
            Action::RemoveBody(i) => format!("remove-body = {i}"),
            Action::Pause(n) => format!("pause = {n}"),
            Action::Screenshot(path, scale) => {
                format!("screenshot = \"{}\", screenshot-scale = {scale}", path.display())
            }
            Action::Record { path, frames, every, fps } => {
                let key = if crate::files::has_extension(path, "gif") { "gif" } else { "video" };
                format!("{key} = {{ path = \"{}\", frames = {frames}, every = {every}, fps = {fps} }}", path.display())
            }
            Action::Save(path) => format!("save = \"{}\"", path.display()),
            Action::Quit => "quit = true".into(),
            Action::Window(w, h) => format!("window = [{w}, {h}]"),
        }
    }
}
