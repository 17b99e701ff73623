//! Scripts: timed actions that `eddy view --script F` and `eddy run --script F` play the same
//! way, so that the same file gives the same `.npz` on the same adapter.
//!
//! A script is a TOML file:
//!
//! ```toml
//! # Where it starts (each optional; the command line's --mode, --scene, --size, --seed win).
//! mode = "water"
//! scene = "u-tube"
//! size = [160, 100]     # (W, H) cells
//! seed = 1
//!
//! [[action]]
//! at = 0                # the session's step: steps taken by all models since the start
//! set = { side-share = 0.4 }          # parameters of the current model, as the CLI takes them
//!
//! [[action]]
//! at = 20
//! stroke = { tool = "fluid", points = [[20, 10], [60, 10]], radius = 3 }
//!
//! [[action]]
//! at = 200
//! model = "smoke"       # switch model (each keeps its state)
//! ```
//!
//! An action's keys (one or more per `[[action]]`, applied in this order): `model` (`water`,
//! `smoke`, `gas`); `set` (a table of parameter = value); `view` (a field name); `colour-map`
//! ([`ColourMap`] name); `look` (`map` or `styled`, [`crate::render::Look`]: every model from
//! then on); `brush` (radius in cells, or `"default"`); `reset = true` (the scene
//! again); `defaults = true` (the parameters back to their defaults); `stroke` (`tool` = `fluid`,
//! `wall` or `erase`; `points` = `[[col, row], ...]` in cells, row 0 at the top; optional
//! `radius`); `click = [col, row]` (the fluid tool without a drag: gas' explosion); `body =
//! "circle:x=40,y=32,r=8,vx=0.5"` (add a rigid body to smoke or gas, the form `--body` takes,
//! [`crate::body::Body::parse`]); `drive = { body = 0, vx = 1, vy = 0, spin = 0 }` (a body's new
//! velocity, cells per time unit, and spin, radians per time unit; each 0 unless given);
//! `remove-body = 0` (bodies are numbered from 0 in the order they were added); `pause = N`
//! (the viewer shows N frames without stepping; nothing in `run`); `screenshot = "f.png"` (the
//! simulation view, `screenshot-scale` pixels per cell, default 2); `gif = { path = "f.gif",
//! frames = 20, every = 4, fps = 25 }` (record `frames` frames, one every `every` steps,
//! playing at `fps` frames a second: 1 to 50, default 25); `video = { path = "f.mp4", frames =
//! 200, every = 4, fps = 30 }` (the same as an H.264 video: fps 1 to 60; the `video` feature's);
//! `save =
//! "f.npz"` (the current model's state); `quit = true` (the viewer closes, a run ends); `window = [w, h]` (resize the viewer's
//! window, pixels; nothing in `run`). Times never go backwards; steps between actions run
//! the current model. Paths are relative to the current folder.

use crate::body::Body;
use crate::colour::ColourMap;
use crate::error::Error;
use crate::model::tools::Tool;
use crate::model::{ModelKind, ModelParams};
use crate::record::Format;
use serde::Deserialize;
use std::path::{Path, PathBuf};

pub use crate::model::Action;

/// The longest script read, bytes (1 MiB: some 20,000 actions); a longer file, or one that
/// is not a regular file (`/dev/zero`), is refused before it is read.
pub const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// The latest step an action may be at: a script without `--steps` runs to its last action, and
/// 2^63 - 1 would start a run of 9.2e18 steps.
pub const MAX_AT: u64 = 1_000_000_000_000;

/// An action and the session step it happens at.
#[derive(Clone, Debug, PartialEq)]
pub struct Timed {
    /// Session step (steps taken by all models since the start).
    pub at: u64,
    /// The number of the `[[action]]` it comes from, counting from 1 (one table may hold
    /// several actions).
    pub number: usize,
    /// What happens.
    pub action: Action,
}

/// A parsed, checked script.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Script {
    /// The model it starts in.
    pub mode: Option<ModelKind>,
    /// The scene it starts on (a preset name or a PNG path).
    pub scene: Option<String>,
    /// Grid size `(W, H)`, cells.
    pub size: Option<(usize, usize)>,
    /// Seed of the `random` preset.
    pub seed: Option<u64>,
    /// The actions, in time order.
    pub actions: Vec<Timed>,
}

/// Most actions a script may hold (a stroke's points: [`crate::model::MAX_STROKE_POINTS`]): a
/// file beyond this is a mistake, not a script.
const MAX_ACTIONS: usize = 100_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScript {
    mode: Option<String>,
    scene: Option<String>,
    size: Option<[usize; 2]>,
    seed: Option<u64>,
    #[serde(default)]
    action: Vec<RawAction>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawAction {
    at: u64,
    model: Option<String>,
    set: Option<toml::Table>,
    view: Option<String>,
    colour_map: Option<String>,
    look: Option<String>,
    brush: Option<toml::Value>,
    reset: Option<bool>,
    defaults: Option<bool>,
    stroke: Option<RawStroke>,
    click: Option<[f32; 2]>,
    body: Option<String>,
    drive: Option<RawDrive>,
    remove_body: Option<usize>,
    pause: Option<u32>,
    screenshot: Option<PathBuf>,
    screenshot_scale: Option<u32>,
    gif: Option<RawRecording>,
    video: Option<RawRecording>,
    save: Option<PathBuf>,
    quit: Option<bool>,
    window: Option<[u32; 2]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStroke {
    tool: String,
    points: Vec<[f32; 2]>,
    radius: Option<f32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDrive {
    body: usize,
    vx: Option<f32>,
    vy: Option<f32>,
    spin: Option<f32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecording {
    path: PathBuf,
    frames: u32,
    every: Option<u32>,
    fps: Option<f64>,
}

impl Script {
    /// Checks the script's parameter changes and bodies against what the run really starts
    /// with (`session`: its current model, and each model's parameters and bodies, the command
    /// line's options among them), following the actions through the run: the model
    /// current at each, its parameters, and the bodies added, driven and removed so far (a body
    /// in water, a 17th body, one too fast, a body that does not exist, the collocated grid
    /// while bodies move). [`Self::parse`] could only check values against the defaults.
    ///
    /// # Errors
    /// One line naming the action's number and step, what it does as the script says it, and
    /// why it cannot.
    pub fn check_from(&self, session: &crate::model::Session) -> Result<(), String> {
        let all = ModelKind::all();
        let mut current = session.current();
        let mut params: Vec<ModelParams> = all.iter().map(|&k| session.params_of(k)).collect();
        let bodies: Vec<Vec<Body>> = all.iter().map(|&k| session.bodies_of(k)).collect();
        let slot = |k: ModelKind| k.index();
        let start = bodies.clone();
        let mut bodies = bodies;
        for Timed { at, number, action } in &self.actions {
            let i = slot(current);
            let (p, list) = (&mut params[i], &mut bodies[i]);
            let result: Result<(), Error> = match action {
                Action::Model(k) => {
                    current = *k;
                    Ok(())
                }
                Action::Set(name, value) => p.set_fitted(name, *value).map_err(Error::from),
                Action::SetAll(values) => values
                    .iter()
                    .try_for_each(|(name, value)| p.set_row_only(name, *value))
                    .and_then(|()| p.check())
                    .map_err(Error::from),
                Action::Defaults => {
                    *p = ModelParams::defaults(current);
                    Ok(())
                }
                Action::Reset => {
                    *list = start[i].clone();
                    Ok(())
                }
                Action::AddBody(body) => {
                    list.push(*body);
                    Ok(())
                }
                Action::Drive { body, velocity, spin } => crate::body::drive(list, *body, *velocity, *spin),
                Action::RemoveBody(index) => crate::body::remove(list, *index),
                _ => Ok(()),
            };
            // Every change above may leave bodies the model cannot move (a faster one, a longer
            // step, the collocated grid, a 17th).
            let result = result.and_then(|()| crate::model::check_bodies(&params[i], &bodies[i]));
            result.map_err(|e| format!("action {number} (step {at}: {}): {current}: {e}", action.describe()))?;
        }
        Ok(())
    }

    /// Reads and checks a script file (a regular file of at most [`MAX_SCRIPT_BYTES`]); `mode`
    /// is the model the command line starts in, which comes before the script's own `mode` (as
    /// in [`Self::parse`]). A relative `scene` path that is not a preset name is taken from the
    /// script's folder.
    ///
    /// # Errors
    /// One line naming the file and what is wrong: unreadable, not TOML, an unknown key, an
    /// action out of time order, a model, field, colour map or tool that does not exist, a
    /// parameter the model current at that point lacks or a value out of its range, a path of no
    /// points, a brush, size or GIF out of range.
    pub fn load(path: &Path, mode: Option<ModelKind>) -> Result<Self, String> {
        let cannot = |e: &dyn std::fmt::Display| format!("cannot read script {}: {e}", path.display());
        let bytes = crate::files::read_bounded(path, MAX_SCRIPT_BYTES, "a script").map_err(|e| cannot(&e))?;
        let text = String::from_utf8(bytes).map_err(|e| cannot(&format!("not UTF-8 text ({e})")))?;
        let mut script = Self::parse(&text, mode).map_err(|e| format!("script {}: {e}", path.display()))?;
        // A scene file beside the script goes with it: a relative path is the script's folder's,
        // unless it names a preset.
        if let Some(scene) = &script.scene
            && !crate::scene::SceneSource::names_preset(scene)
            && Path::new(scene).is_relative()
            && let Some(dir) = path.parent()
        {
            script.scene = Some(dir.join(scene).to_string_lossy().into_owned());
        }
        Ok(script)
    }

    /// Parses and checks a script's text; `mode` is the model it starts in when the script does
    /// not say (the command line's), else water.
    ///
    /// # Errors
    /// As [`Self::load`], without the file name.
    pub fn parse(text: &str, mode: Option<ModelKind>) -> Result<Self, String> {
        let raw: RawScript = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
        let script_mode = raw.mode.as_deref().map(model_named).transpose()?;
        let size = match raw.size {
            Some([w, h]) if w == 0 || h == 0 || w > 1 << 15 || h > 1 << 15 => {
                return Err(format!("size = [{w}, {h}]: each side must be 1..=32768 cells"));
            }
            Some([w, h]) => Some((w, h)),
            None => None,
        };
        if raw.action.len() > MAX_ACTIONS {
            return Err(format!("{} actions: at most {MAX_ACTIONS}", raw.action.len()));
        }
        // The model current at each action: its parameters and views are the ones it may name.
        let mut current = mode.or(script_mode).unwrap_or(ModelKind::all()[0]);
        let mut actions = Vec::new();
        let mut last = 0;
        for (i, a) in raw.action.into_iter().enumerate() {
            let n = i + 1;
            let at = a.at;
            if at > MAX_AT {
                return Err(format!(
                    "action {n} is at step {at}; a script's times go up to {MAX_AT} (a year at 30,000 steps/s)"
                ));
            }
            if at < last {
                return Err(format!("action {n} is at step {at}, before the one above it (step {last})"));
            }
            last = at;
            let mut these = Vec::new();
            a.model_actions(n, &mut current, &mut these)?;
            a.edit_actions(n, &mut these)?;
            a.output_actions(n, &mut these)?;
            if these.is_empty() {
                return Err(format!("action {n} (step {at}) does nothing: give it a key such as set, stroke or model"));
            }
            actions.extend(these.into_iter().map(|action| Timed { at, number: n, action }));
        }
        Ok(Script { mode: script_mode, scene: raw.scene, size, seed: raw.seed, actions })
    }

    /// The files it writes (screenshots, GIFs, saves), to check before the first step.
    pub fn outputs(&self) -> Vec<&Path> {
        self.actions
            .iter()
            .filter_map(|t| match &t.action {
                Action::Screenshot(p, _) | Action::Save(p) | Action::Record { path: p, .. } => Some(p.as_path()),
                _ => None,
            })
            .collect()
    }

    /// The step of the last action (0 for none).
    pub fn end(&self) -> u64 {
        self.actions.last().map_or(0, |t| t.at)
    }
}

/// A model by its name, or the message naming the models.
fn model_named(name: &str) -> Result<ModelKind, String> {
    ModelKind::from_name(name).ok_or_else(|| {
        let names: Vec<_> = ModelKind::all().iter().map(|k| k.name()).collect();
        format!("{name:?} is not a model; the models are {}", names.join(", "))
    })
}

/// An `[[action]]` table's keys as actions, in the order they apply (the module docs); `n` is
/// the action's number in the script, for messages.
impl RawAction {
    /// `model`, `set`, `view`, `colour-map`, `look`, `brush`, `reset`, `defaults`. Parameter names and
    /// each value's range are checked against the model current at this action (`current`, which
    /// a `model` key changes), as they will be; limits that tie parameters together wait for
    /// [`Script::check_from`], since the command line may change them.
    fn model_actions(&self, n: usize, current: &mut ModelKind, out: &mut Vec<Action>) -> Result<(), String> {
        let at = self.at;
        if let Some(name) = &self.model {
            *current = model_named(name).map_err(|e| format!("action {n}: {e}"))?;
            out.push(Action::Model(*current));
        }
        let current = *current;
        if let Some(table) = &self.set {
            let mut all = Vec::new();
            for (name, value) in table {
                let info = current.params().into_iter().find(|p| p.name == name.as_str()).ok_or_else(|| {
                    format!(
                        "action {n}: {current} has no parameter {name:?} (the model current at step {at}); its parameters: {}",
                        current.param_names()
                    )
                })?;
                let text = match value {
                    toml::Value::String(s) => s.clone(),
                    toml::Value::Array(xs) => {
                        xs.iter().map(|x| x.to_string().trim_matches('"').to_string()).collect::<Vec<_>>().join(",")
                    }
                    other => other.to_string(),
                };
                let value = info.parse(&text).map_err(|e| format!("action {n}: {name}: {e}"))?;
                info.check(value).map_err(|e| format!("action {n}: {e}"))?;
                all.push((info.name, value));
            }
            if !all.is_empty() {
                out.push(Action::SetAll(all));
            }
        }
        if let Some(view) = &self.view {
            current.view(view).map_err(|e| format!("action {n}: view {e}"))?;
            out.push(Action::View(view.clone()));
        }
        if let Some(map) = &self.colour_map {
            out.push(Action::ColourMap(ColourMap::from_name(map).map_err(|e| format!("action {n}: {e}"))?));
        }
        if let Some(look) = &self.look {
            out.push(Action::Look(crate::render::Look::from_name(look).map_err(|e| format!("action {n}: {e}"))?));
        }
        if let Some(brush) = &self.brush {
            let radius = match brush {
                toml::Value::String(s) if s == "default" => None,
                toml::Value::Float(r) if r.is_finite() && *r >= 0.5 && *r <= 4096.0 => Some(*r as f32),
                toml::Value::Integer(r) if (1..=4096).contains(r) => Some(*r as f32),
                other => {
                    return Err(format!("action {n}: brush = {other}: a radius of 0.5..=4096 cells, or \"default\""));
                }
            };
            out.push(Action::Brush(radius));
        }
        if self.reset == Some(true) {
            out.push(Action::Reset);
        }
        if self.defaults == Some(true) {
            out.push(Action::Defaults);
        }
        Ok(())
    }

    /// `stroke` (after its `radius` as a brush), `click`, `body`, `drive`, `remove-body`, `pause`.
    fn edit_actions(&self, n: usize, out: &mut Vec<Action>) -> Result<(), String> {
        if let Some(stroke) = &self.stroke {
            let Some((tool, erase)) = Tool::from_name(&stroke.tool) else {
                return Err(format!("action {n}: tool {:?}: fluid, wall or erase", stroke.tool));
            };
            if stroke.points.is_empty() || stroke.points.len() > crate::model::MAX_STROKE_POINTS {
                let most = crate::model::MAX_STROKE_POINTS;
                return Err(format!("action {n}: a stroke needs 1..={most} points"));
            }
            if stroke.points.iter().flatten().any(|v| !v.is_finite()) {
                return Err(format!("action {n}: a stroke's points must be finite numbers"));
            }
            if let Some(r) = stroke.radius {
                if !(r.is_finite() && (0.5..=4096.0).contains(&r)) {
                    return Err(format!("action {n}: stroke radius {r}: 0.5..=4096 cells"));
                }
                out.push(Action::Brush(Some(r)));
            }
            let points = stroke.points.iter().map(|&[c, r]| (c, r)).collect();
            out.push(Action::Path { tool, erase, points });
        }
        if let Some([c, r]) = self.click {
            if !(c.is_finite() && r.is_finite()) {
                return Err(format!("action {n}: click must be two finite numbers"));
            }
            out.push(Action::Click((c, r)));
        }
        if let Some(text) = &self.body {
            let body = crate::body::Body::parse(text).map_err(|e| format!("action {n}: {e}"))?;
            out.push(Action::AddBody(body));
        }
        if let Some(d) = &self.drive {
            let (vx, vy, spin) = (d.vx.unwrap_or(0.0), d.vy.unwrap_or(0.0), d.spin.unwrap_or(0.0));
            if ![vx, vy, spin].iter().all(|v| v.is_finite()) {
                return Err(format!("action {n}: drive: vx, vy and spin must be finite numbers"));
            }
            out.push(Action::Drive { body: d.body, velocity: (vx, vy), spin });
        }
        if let Some(index) = self.remove_body {
            out.push(Action::RemoveBody(index));
        }
        if let Some(frames) = self.pause {
            out.push(Action::Pause(frames.min(100_000)));
        }
        Ok(())
    }

    /// `screenshot`, `gif`, `video`, `save`, `window`, `quit`. Each output's kind is told by
    /// its extension, as the command line's --screenshot, --gif, --video and --save are (a
    /// state written to shot.png would pass for a picture).
    fn output_actions(&self, n: usize, out: &mut Vec<Action>) -> Result<(), String> {
        let ext = |what: &str, path: &Path, ext: &str| {
            if crate::files::has_extension(path, ext) {
                Ok(())
            } else {
                Err(format!("action {n}: {what} {:?}: give a path ending in .{ext}", path.display().to_string()))
            }
        };
        if let Some(path) = &self.screenshot {
            ext("screenshot", path, "png")?;
            let scale = self.screenshot_scale.unwrap_or(2);
            if !(1..=64).contains(&scale) {
                return Err(format!("action {n}: screenshot-scale {scale}: 1..=64 pixels per cell"));
            }
            out.push(Action::Screenshot(path.clone(), scale));
        }
        for (what, format, recording) in [("gif", Format::Gif, &self.gif), ("video", Format::Mp4, &self.video)] {
            let Some(r) = recording else { continue };
            ext(what, &r.path, format.extension())?;
            let every = r.every.unwrap_or(1);
            let max = format.max_frames();
            if !(1..=max).contains(&r.frames) || every == 0 {
                return Err(format!("action {n}: {what}: frames must be 1..={max} and every at least 1 step"));
            }
            let fps = r.fps.unwrap_or(crate::record::DEFAULT_FPS);
            format.check_fps(fps).map_err(|e| format!("action {n}: {what}: {e}"))?;
            out.push(Action::Record { path: r.path.clone(), frames: r.frames, every, fps });
        }
        if let Some(path) = &self.save {
            ext("save", path, "npz")?;
            out.push(Action::Save(path.clone()));
        }
        if let Some([w, h]) = self.window {
            if !(64..=8192).contains(&w) || !(64..=8192).contains(&h) {
                return Err(format!("action {n}: window = [{w}, {h}]: each side 64..=8192 pixels"));
            }
            out.push(Action::Window(w, h));
        }
        if self.quit == Some(true) {
            out.push(Action::Quit);
        }
        Ok(())
    }
}

/// Plays a [`Script`]'s actions in order against a clock of session steps.
#[derive(Clone, Debug)]
pub struct Player {
    actions: Vec<Timed>,
    next: usize,
}

impl Player {
    /// A player at the script's start.
    pub fn new(script: &Script) -> Self {
        Player { actions: script.actions.clone(), next: 0 }
    }

    /// The step of the next action not yet played, `None` when all are.
    pub fn next_at(&self) -> Option<u64> {
        self.actions.get(self.next).map(|t| t.at)
    }

    /// The actions due at or before `step`, in order; each is returned once.
    pub fn due(&mut self, step: u64) -> Vec<Action> {
        let mut due = Vec::new();
        while let Some(t) = self.actions.get(self.next).filter(|t| t.at <= step) {
            due.push(t.action.clone());
            self.next += 1;
        }
        due
    }

    /// Whether every action has been played.
    pub fn finished(&self) -> bool {
        self.next >= self.actions.len()
    }

    /// How many steps may run from `step` before the next action is due (`limit` when none is).
    pub fn steps_until_next(&self, step: u64, limit: u64) -> u64 {
        self.next_at().map_or(limit, |at| at.saturating_sub(step).min(limit))
    }
}

/// A TOML error as one line: ``line L, column C (`the line`): what`` (toml's own text spans
/// several lines, with the source line and a caret under it).
fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let what = e.message().trim().replace('\n', " ");
    match e.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            let source: String = text.lines().nth(line - 1).unwrap_or("").trim().chars().take(60).collect();
            format!("line {line}, column {column} (`{source}`): {what}")
        }
        None => what,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Value;

    #[test]
    fn a_script_parses_in_order() {
        let s = Script::parse(
            r#"
            mode = "water"
            size = [64, 32]
            [[action]]
            at = 0
            set = { side-share = 0.3 }
            [[action]]
            at = 5
            stroke = { tool = "wall", points = [[1, 2], [10, 2]], radius = 2 }
            [[action]]
            at = 9
            model = "smoke"
            set = { dt = 0.5, advection = "semi-lagrangian" }
            view = "pressure"
            "#,
            None,
        )
        .unwrap();
        assert_eq!(s.mode, Some(ModelKind::Water));
        assert_eq!(s.size, Some((64, 32)));
        let kinds: Vec<_> = s.actions.iter().map(|t| (t.at, std::mem::discriminant(&t.action))).collect();
        assert_eq!(kinds.len(), 6);
        assert_eq!(s.actions[0].action, Action::SetAll(vec![("side-share", Value::Real(0.3))]));
        assert_eq!(s.actions[3].action, Action::Model(ModelKind::Smoke));
        // One `set` table is one action: its values are set together, as on the command line.
        let Action::SetAll(values) = &s.actions[4].action else { panic!("{:?}", s.actions[4]) };
        assert_eq!(values.iter().map(|v| v.0).collect::<Vec<_>>(), ["advection", "dt"]);
        let mut player = Player::new(&s);
        assert_eq!(player.steps_until_next(0, 100), 0);
        assert_eq!(player.due(0).len(), 1);
        assert_eq!(player.steps_until_next(1, 100), 4);
        assert_eq!(player.due(8).len(), 2);
        assert_eq!(player.due(100).len(), 3);
        assert!(player.finished());
    }

    /// Each mistake names the action and what to change.
    #[test]
    fn hostile_scripts_are_refused_with_a_reason() {
        for (text, says) in [
            ("[[action]]\nat = 0\nset = { dt = 0.5 }", "water has no parameter \"dt\""),
            ("[[action]]\nat = 5\nreset = true\n[[action]]\nat = 1\nreset = true", "before the one above"),
            ("[[action]]\nat = 0\nmodel = \"lava\"", "not a model"),
            ("[[action]]\nat = 0\nview = \"heat\"", "action 1: view"),
            ("[[action]]\nat = 0", "does nothing"),
            ("[[action]]\nat = 0\nstroke = { tool = \"fluid\", points = [] }", "1..="),
            ("[[action]]\nat = 0\nstroke = { tool = \"spray\", points = [[1, 1]] }", "fluid, wall or erase"),
            ("[[action]]\nat = 0\nbrush = -3", "0.5..=4096"),
            ("[[action]]\nat = 0\ngif = { path = \"a.gif\", frames = 0 }", "frames must be"),
            ("[[action]]\nat = 0\nteleport = true", "unknown field"),
            ("size = [0, 10]", "each side"),
            ("mode = \"smoke\"\n[[action]]\nat = 0\nset = { dt = 99 }", "dt"),
            ("[[action]]\nat = -1\nreset = true", "line 2, column 6 (`at = -1`): invalid value"),
            ("not toml at all [", "expected"),
        ] {
            let e = Script::parse(text, None).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }
}
