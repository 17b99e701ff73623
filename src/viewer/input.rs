//! What the keys, the mouse buttons and the wheel do in the viewer: the keyboard's shortcuts
//! (the table in [`super::controls::CONTROLS`]), the tools under the buttons, and the body tool
//! (place, drag, spin and remove a rigid body).

use super::panel::Command;
use super::{Error, Live};
use crate::body::{Body, Shape};
use crate::colour::ColourMap;
use crate::model::ModelKind;
use crate::model::tools::Tool;
use crate::script::Action;
use winit::event::{ElementState, MouseButton};
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{Key, NamedKey};

impl Live {
    pub(super) fn key(&mut self, key: Key<&str>, event_loop: &ActiveEventLoop) -> Result<(), Error> {
        match key {
            Key::Named(NamedKey::Escape) if self.controls.help => self.controls.help = false,
            Key::Named(NamedKey::Escape) => event_loop.exit(),
            Key::Named(NamedKey::F1) | Key::Character("?") => self.controls.help = !self.controls.help,
            Key::Named(NamedKey::F2) => self.controls.panel = !self.controls.panel,
            Key::Named(NamedKey::F3) => {
                let model = self.session.model_ref();
                let i = ColourMap::ALL.iter().position(|&m| m == model.colour_map()).unwrap_or(0);
                self.act(&Action::ColourMap(ColourMap::ALL[(i + 1) % ColourMap::ALL.len()]));
            }
            Key::Named(NamedKey::F4) => {
                let look = self.session.look();
                let i = crate::render::Look::ALL.iter().position(|&l| l == look).unwrap_or(0);
                self.act(&Action::Look(crate::render::Look::ALL[(i + 1) % crate::render::Look::ALL.len()]));
            }
            Key::Named(NamedKey::F12) => self.command(Command::Screenshot),
            Key::Named(NamedKey::Home) => self.zoom = super::zoom::Zoom::whole(),
            Key::Named(NamedKey::Space) => self.controls.paused = !self.controls.paused,
            Key::Named(NamedKey::Tab) => self.switch_next(),
            Key::Character(c @ ("1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9")) => {
                let i: usize = c.parse().expect("a digit");
                if let Some(&kind) = ModelKind::all().get(i - 1) {
                    self.act(&Action::Model(kind));
                }
            }
            Key::Character(".") => self.step_once = true,
            Key::Character("b" | "B") => self.toggle_body_tool(),
            Key::Character("r" | "R") => self.act(&Action::Reset),
            Key::Character("g" | "G") => self.command(Command::ToggleRecording(crate::record::Format::Gif)),
            Key::Character("m" | "M") => self.command(Command::ToggleRecording(crate::record::Format::Mp4)),
            Key::Character("v" | "V") => {
                let kind = self.session.current();
                let views = kind.info().views;
                if views.len() < 2 {
                    // Say so rather than do nothing silently.
                    self.controls.notice = format!("{kind} has one field to show ({})", views[0].name);
                } else {
                    self.session.model().cycle_view();
                }
            }
            Key::Character(c) => {
                if let Some(ch) = c.chars().next()
                    && c.chars().count() == 1
                {
                    // The key's value, set as the panel sets it (and said the same way).
                    let mut params = self.session.model_ref().params();
                    match params.nudge(ch) {
                        Ok(Some(info)) => {
                            let value = params.get(info.name).expect("a row of this model");
                            self.act(&Action::Set(info.name, value));
                        }
                        Ok(None) => {}
                        Err(e) => self.controls.notice = e.to_string(),
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The left button between the model's fluid tool and the body tool.
    pub(super) fn toggle_body_tool(&mut self) {
        self.controls.body_tool = !self.controls.body_tool;
        self.controls.notice = if self.controls.body_tool {
            "body tool: drag a body (or place one), Shift+click removes, the wheel spins; B again for the fluid tool"
                .into()
        } else {
            "left drag: the fluid tool again".into()
        };
        note!("{}", self.controls.notice);
    }

    pub(super) fn mouse(&mut self, state: ElementState, button: MouseButton) -> Result<(), Error> {
        if button == MouseButton::Middle {
            // The middle button drags the zoomed view.
            let inside = self.pointer.at.is_some_and(|p| self.frame.contains(p));
            self.pointer.panning = state == ElementState::Pressed && inside && self.zoom.zoomed();
            return Ok(());
        }
        if button == MouseButton::Left && self.controls.body_tool {
            self.body_tool(state == ElementState::Pressed);
            return Ok(());
        }
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
            self.act(&Action::Click(at));
        }
        let inside = self.pointer.at.is_some_and(|p| self.frame.contains(p));
        self.pointer.held = if released || !inside { None } else { tool };
        self.pointer.last = None;
        self.pointer.moved = false;
        if !released { self.paint() } else { Ok(()) }
    }

    /// The body tool's press and release (left button, `B`): a press on a body grabs it
    /// (Shift: removes it), elsewhere places a circle there and grabs it; while held the body
    /// follows the pointer ([`Live::drag_body`]); the release stops it.
    pub(super) fn body_tool(&mut self, pressed: bool) {
        let inside = self.pointer.at.filter(|&p| self.frame.contains(p));
        if !pressed {
            if let Some(i) = self.pointer.grabbed.take()
                && let Some(b) = self.session.model_ref().bodies().get(i).copied()
            {
                self.act(&Action::Drive { body: i, velocity: (0.0, 0.0), spin: b.spin });
            }
            return;
        }
        let Some(at) = inside else { return };
        match self.body_under_pointer() {
            Some((i, _)) if self.pointer.shift => self.act(&Action::RemoveBody(i)),
            Some((i, _)) => self.pointer.grabbed = Some(i),
            None if self.pointer.shift => {}
            None => {
                let count = self.session.model_ref().bodies().len();
                let radius = crate::body::default_size(self.session.model_ref().size());
                let (x, y) = self.cell_at(at);
                let density =
                    self.controls.body_density.filter(|_| !matches!(self.session.current(), ModelKind::Custom(_)));
                self.act(&Action::AddBody(Body { density, ..Body::new(Shape::Circle { radius }, x, y) }));
                if self.session.model_ref().bodies().len() > count {
                    self.pointer.grabbed = Some(count);
                }
            }
        }
    }

    /// The first body whose shape holds the point under the pointer (cells), with its index.
    pub(super) fn body_under_pointer(&self) -> Option<(usize, Body)> {
        let (x, y) = self.cell_at(self.pointer.at?);
        self.session.model_ref().bodies().iter().copied().enumerate().find(|(_, b)| b.contains(x, y))
    }

    /// The time unit of the model's body velocities (smoke's `dt`, water's and gas's step) and
    /// the fastest a dragged body moves, cells a step: 2 in smoke,
    /// [`crate::water::bodies::MAX_BODY_STEP`] in water, [`crate::gas::bodies::MAX_BODY_SPEED`]
    /// in gas, whose bodies push the gas as a piston does.
    pub(super) fn body_motion(&self) -> Option<(f32, f32)> {
        match self.session.model_ref().params() {
            crate::model::ModelParams::Smoke(p) => Some((p.dt, 2.0)),
            crate::model::ModelParams::Gas(_) => Some((1.0, crate::gas::bodies::MAX_BODY_SPEED)),
            crate::model::ModelParams::Water(_) => Some((1.0, crate::water::bodies::MAX_BODY_STEP)),
            crate::model::ModelParams::Custom(_) => None,
        }
    }

    /// While the body tool holds a body: its velocity becomes what takes it to the pointer in
    /// the `steps` steps this frame runs (at most [`Live::body_motion`]'s cells a step), so the
    /// drag's speed is the body's.
    pub(super) fn drag_body(&mut self, steps: u32) {
        let (Some(i), Some(at)) = (self.pointer.grabbed, self.pointer.at) else { return };
        let to = self.cell_at(at);
        let (Some(b), Some((dt, fastest))) = (self.session.model_ref().bodies().get(i).copied(), self.body_motion())
        else {
            self.pointer.grabbed = None;
            return;
        };
        let time = steps.max(1) as f32 * dt;
        let (mut vx, mut vy) = ((to.0 - b.x) / time, (to.1 - b.y) / time);
        // Water's and gas's limits are on the body's fastest point: what its spin leaves.
        let on_fastest = matches!(self.session.current(), ModelKind::Water | ModelKind::Gas);
        let spinning = if on_fastest { b.spin.abs() * b.reach() } else { 0.0 };
        let most = (fastest - spinning).max(0.0) / dt;
        let speed = (vx * vx + vy * vy).sqrt();
        if speed > most {
            (vx, vy) = (vx * most / speed, vy * most / speed);
        }
        if (vx, vy) != (b.vx, b.vy) {
            self.act(&Action::Drive { body: i, velocity: (vx, vy), spin: b.spin });
        }
    }

    /// The wheel over a body with the body tool: turns its spin by `notches` quarter radians
    /// per time unit (smoke), or 0.02 radians a step (water and gas, whose step is the time unit). False
    /// when there is no body under the pointer.
    pub(super) fn spin_body(&mut self, notches: f32) -> bool {
        let Some((i, b)) = self.body_under_pointer() else { return false };
        let notch = if matches!(self.session.current(), ModelKind::Water | ModelKind::Gas) { 0.02 } else { 0.25 };
        self.act(&Action::Drive { body: i, velocity: (b.vx, b.vy), spin: b.spin + notch * notches });
        true
    }

    pub(super) fn cell_at(&self, p: (f32, f32)) -> (f32, f32) {
        self.area.cell_at(p, self.session.model_ref().size())
    }
}
