//! The egui panel: every control generated from the model layer's tables (models, presets,
//! parameters with unit, range and source, fields), the tools, time, view with its legend,
//! live statistics with a plot, and recording. It reads the session and the viewer's controls
//! and returns [`Command`]s; `mod.rs` carries them out, so the panel, the keys and scripts change
//! the simulation through the same [`Action`]s.

use super::controls::{CONTROLS, fluid_tools, parameter_keys};
use crate::colour::{ColourMap, Legend, direction_colour};
use crate::model::{AnyModel, ModelKind, ParamInfo, ParamKind, Session, Value};
use crate::record::Format;
use crate::render::Look;
use crate::script::Action;
use egui::{Color32, RichText};
use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;

/// Largest steps per frame the viewer takes (more freezes the window between frames).
pub const MAX_STEPS_PER_FRAME: u32 = 1000;
/// Samples kept for the statistics plot.
const HISTORY: usize = 600;

/// How many steps each frame runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Speed {
    /// This many steps per frame.
    Fixed(u32),
    /// As many as fit this budget of milliseconds per frame (measured, adjusted every frame).
    Auto(f32),
}

/// The viewer's own controls (not the simulation's): what the panel and keys change directly.
pub struct Controls {
    /// Stepping is stopped.
    pub paused: bool,
    /// Steps per frame, or the automatic budget.
    pub speed: Speed,
    /// Steps the last frame ran (the automatic mode's current choice).
    pub steps_per_frame: u32,
    /// The panel is shown.
    pub panel: bool,
    /// The help overlay is shown.
    pub help: bool,
    /// Screenshot pixels per cell.
    pub screenshot_scale: u32,
    /// Recordings (GIF, video): pixels per cell.
    pub record_scale: u32,
    /// Recordings: one frame every this many displayed frames.
    pub record_every: u32,
    /// Recordings: stop after this many frames (a GIF at most `record::MAX_FRAMES`).
    pub record_frames: u32,
    /// Recordings: frames a second they play at.
    pub record_fps: f64,
    /// Where Save writes.
    pub save_path: String,
    /// Where a file is loaded from (besides dropping it on the window).
    pub load_path: String,
    /// The preset and size the Scene section starts.
    pub preset: String,
    /// `(W, H)` cells.
    pub size: (usize, usize),
    /// The plotted statistic.
    pub plotted: Series,
    /// A message for the user (an error, what a file did), shown at the panel's top.
    pub notice: String,
    /// The left button moves bodies (`B`).
    pub body_tool: bool,
    /// The water sleeps ([`crate::model::Session::set_sleep`]).
    pub sleep: bool,
    /// The fluid's forces on the bodies at the last step read (with the statistics), a
    /// [`crate::body::forces::Force`] per body.
    pub forces: Vec<crate::body::forces::Force>,
    /// Smoke: the density of the bodies the body tool and the buttons place, times the fluid's
    /// (`None`: driven bodies).
    pub body_density: Option<f32>,
}

/// What the panel asks for.
#[derive(Clone, Debug)]
pub enum Command {
    /// A change to the session.
    Act(Action),
    /// One step while paused.
    StepOnce,
    /// Start the preset (or PNG) at a size.
    Restart(String, (usize, usize)),
    /// Save the simulation view as a PNG.
    Screenshot,
    /// Start a recording of this format, or stop the one being made.
    ToggleRecording(Format),
    /// Save the state.
    Save(PathBuf),
    /// Load a PNG scene or `.npz` state.
    Load(PathBuf),
    /// Open the browser's file picker (the browser build).
    Pick,
    /// Water: step only the tiles where something can change, or every cell.
    Sleep(bool),
}

/// A statistic the plot shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Series {
    /// The conserved total (mass, density).
    Total,
    /// Steps per second.
    Rate,
    /// Smoke: divergence L2 after projection.
    Divergence,
    /// Smoke: the solver's relative residual.
    Residual,
    /// Largest speed (smoke, gas).
    MaxSpeed,
    /// Kinetic energy (smoke, gas).
    Kinetic,
    /// GPU time per step, from timestamp queries.
    GpuTime,
}

impl Series {
    const ALL: [Series; 7] = [
        Series::Total,
        Series::Kinetic,
        Series::Rate,
        Series::GpuTime,
        Series::Divergence,
        Series::Residual,
        Series::MaxSpeed,
    ];

    fn name(self) -> &'static str {
        match self {
            Series::Total => "total (mass or density)",
            Series::Rate => "steps/s",
            Series::Divergence => "divergence after projection (L2)",
            Series::Residual => "solver residual (relative)",
            Series::MaxSpeed => "largest speed",
            Series::Kinetic => "kinetic energy",
            Series::GpuTime => "GPU time per step (ms)",
        }
    }
}

/// One sample of the statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    /// The model's step.
    pub step: f64,
    /// Conserved total.
    pub total: f64,
    /// Steps per second since the last sample.
    pub rate: f64,
    /// Smoke's divergence.
    pub divergence: Option<f64>,
    /// Smoke's residual.
    pub residual: Option<f64>,
    /// Largest speed.
    pub max_speed: Option<f64>,
    /// Kinetic energy.
    pub kinetic: Option<f64>,
    /// GPU time per step, milliseconds (timestamp queries; `None` without them or while paused).
    pub gpu_ms: Option<f64>,
}

impl Sample {
    fn get(&self, s: Series) -> Option<f64> {
        match s {
            Series::Total => Some(self.total),
            Series::Rate => Some(self.rate),
            Series::Divergence => self.divergence,
            Series::Residual => self.residual,
            Series::MaxSpeed => self.max_speed,
            Series::Kinetic => self.kinetic,
            Series::GpuTime => self.gpu_ms,
        }
    }
}

/// The statistics over time, per model, and the last line of text.
#[derive(Default)]
pub struct History {
    samples: BTreeMap<ModelKind, VecDeque<Sample>>,
    /// The last statistics line of each model.
    pub line: BTreeMap<ModelKind, String>,
    /// The last state hash of each model that has one (water), and its step.
    pub hash: BTreeMap<ModelKind, (u64, u64)>,
}

impl History {
    /// Adds a sample of `kind` (dropping the oldest beyond the plot's length; a sample at an
    /// earlier step than the last, after a reset, starts the plot again).
    pub fn push(&mut self, kind: ModelKind, sample: Sample, line: String) {
        let samples = self.samples.entry(kind).or_default();
        if samples.back().is_some_and(|s| s.step > sample.step) {
            samples.clear();
        }
        if samples.len() == HISTORY {
            samples.pop_front();
        }
        samples.push_back(sample);
        self.line.insert(kind, line);
    }

    /// The last sample of `kind`, if any.
    pub fn last(&self, kind: ModelKind) -> Option<&Sample> {
        self.samples.get(&kind)?.back()
    }
}

/// Builds the panel (unless hidden), the help overlay, and returns what was asked for.
pub fn show(
    ui: &mut egui::Ui,
    session: &Session,
    controls: &mut Controls,
    history: &History,
    recordings: &[(Format, u32, u32)],
) -> Vec<Command> {
    let mut out = Vec::new();
    if controls.panel {
        egui::Panel::left("eddy-panel").resizable(true).default_size(300.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                contents(ui, session, controls, history, recordings, &mut out);
            });
        });
    }
    help(ui.ctx(), &mut controls.help);
    out
}

fn contents(
    ui: &mut egui::Ui,
    session: &Session,
    c: &mut Controls,
    history: &History,
    recordings: &[(Format, u32, u32)],
    out: &mut Vec<Command>,
) {
    let model = session.model_ref();
    header(ui, session, c, out);
    time(ui, model, c, out);
    scene(ui, model.kind(), c, out);
    // A registered model takes no edits: the contract has none (strokes and bodies do nothing).
    match model.kind() {
        ModelKind::Water | ModelKind::Smoke | ModelKind::Gas => {
            tools(ui, model, out);
            bodies(ui, model, c, out);
        }
        ModelKind::Custom(_) => {}
    }
    view(ui, model, out);
    statistics(ui, session, c, history);
    // The browser build has no screenshots or recordings (no file system).
    #[cfg(not(target_arch = "wasm32"))]
    record(ui, c, recordings, out);
    #[cfg(target_arch = "wasm32")]
    let _ = recordings;
    // Last: the longest section (smoke has 25 rows), so the statistics and the recording above
    // it show in the first window without scrolling.
    parameters(ui, model, out);
}

/// The title, the notice, the model switch and what the model is.
fn header(ui: &mut egui::Ui, session: &Session, c: &mut Controls, out: &mut Vec<Command>) {
    let kind = session.model_ref().kind();
    ui.horizontal(|ui| {
        ui.heading("eddy");
        if ui.small_button("help (F1)").clicked() {
            c.help = !c.help;
        }
    });
    if !c.notice.is_empty() {
        ui.colored_label(Color32::from_rgb(255, 190, 90), &c.notice);
    }
    ui.horizontal(|ui| {
        for k in ModelKind::all() {
            let label = if session.has(k) || k == kind { k.name().to_string() } else { format!("{} ·", k.name()) };
            if ui.selectable_label(k == kind, label).on_hover_text(k.info().about).clicked() && k != kind {
                out.push(Command::Act(Action::Model(k)));
            }
        }
    });
    ui.label(RichText::new(kind.info().about).small());
}

/// Run, pause, step, reset, and the steps per frame (fixed or a frame budget).
fn time(ui: &mut egui::Ui, model: &AnyModel, c: &mut Controls, out: &mut Vec<Command>) {
    egui::CollapsingHeader::new("Time").default_open(true).show(ui, |ui| {
        ui.horizontal(|ui| {
            if ui.button(if c.paused { "run (Space)" } else { "pause (Space)" }).clicked() {
                c.paused = !c.paused;
            }
            if ui.add_enabled(c.paused, egui::Button::new("step (.)")).clicked() {
                out.push(Command::StepOnce);
            }
            if ui.button("reset (R)").on_hover_text("start the scene again, parameters kept").clicked() {
                out.push(Command::Act(Action::Reset));
            }
        });
        ui.horizontal(|ui| {
            let mut auto = matches!(c.speed, Speed::Auto(_));
            if ui.checkbox(&mut auto, "auto").on_hover_text("as many steps per frame as fit a frame budget").changed() {
                c.speed = if auto { Speed::Auto(14.0) } else { Speed::Fixed(c.steps_per_frame.max(1)) };
            }
            match &mut c.speed {
                Speed::Fixed(n) => {
                    ui.add(egui::Slider::new(n, 1..=MAX_STEPS_PER_FRAME).logarithmic(true).text("steps/frame"));
                }
                Speed::Auto(ms) => {
                    ui.add(egui::Slider::new(ms, 4.0..=100.0).text("ms budget"));
                }
            }
        });
        ui.label(format!("step {} · {} steps/frame", model.steps_done(), c.steps_per_frame));
        if model.kind() == ModelKind::Water {
            let hover = "step only the tiles where something can change: the same water to the bit, faster where most \
                         of it is still";
            if ui.checkbox(&mut c.sleep, "still water sleeps").on_hover_text(hover).changed() {
                out.push(Command::Sleep(c.sleep));
            }
        }
    });
}

/// The presets and the grid size to start, and files: loaded or dropped, saved (the browser's
/// picker and downloads).
fn scene(ui: &mut egui::Ui, kind: ModelKind, c: &mut Controls, out: &mut Vec<Command>) {
    egui::CollapsingHeader::new("Scene").default_open(false).show(ui, |ui| {
        egui::ComboBox::from_id_salt("preset").selected_text(c.preset.as_str()).show_ui(ui, |ui| {
            for (name, about) in kind.info().presets {
                ui.selectable_value(&mut c.preset, name.to_string(), *name).on_hover_text(*about);
            }
        });
        ui.horizontal(|ui| {
            ui.label("size");
            ui.add(egui::DragValue::new(&mut c.size.0).range(8..=4096).suffix(" W"));
            ui.add(egui::DragValue::new(&mut c.size.1).range(8..=4096).suffix(" H"));
            ui.label("cells");
        });
        if ui.button("start this scene").clicked() {
            out.push(Command::Restart(c.preset.clone(), c.size));
        }
        ui.separator();
        if cfg!(target_arch = "wasm32") {
            // A browser: files come from a picker or a drop, and saves are downloads.
            ui.label(RichText::new("Drop a PNG scene or an .npz state on the page, or:").small());
            if ui.button("open a file…").clicked() {
                out.push(Command::Pick);
            }
            ui.horizontal(|ui| {
                ui.text_edit_singleline(&mut c.save_path);
                if ui.button("download .npz").clicked() && !c.save_path.trim().is_empty() {
                    out.push(Command::Save(PathBuf::from(c.save_path.trim())));
                }
            });
            return;
        }
        ui.label(RichText::new("Drop a PNG scene or an .npz state on the window, or:").small());
        ui.horizontal(|ui| {
            ui.text_edit_singleline(&mut c.load_path);
            if ui.button("load").clicked() && !c.load_path.trim().is_empty() {
                out.push(Command::Load(PathBuf::from(c.load_path.trim())));
            }
        });
        ui.horizontal(|ui| {
            ui.text_edit_singleline(&mut c.save_path);
            if ui.button("save .npz").clicked() && !c.save_path.trim().is_empty() {
                out.push(Command::Save(PathBuf::from(c.save_path.trim())));
            }
        });
    });
}

/// What the mouse buttons do, and the brush.
fn tools(ui: &mut egui::Ui, model: &AnyModel, out: &mut Vec<Command>) {
    let kind = model.kind();
    egui::CollapsingHeader::new("Tools").default_open(true).show(ui, |ui| {
        ui.label(format!("left drag: {} · right drag: walls · Shift: erase", kind.info().left_button));
        let mut radius = model.brush_radius();
        let (w, h) = model.size();
        let max = (w.max(h) as f32 / 4.0).max(2.0);
        ui.horizontal(|ui| {
            if ui.add(egui::Slider::new(&mut radius, 0.5..=max).text("brush radius, cells")).changed() {
                out.push(Command::Act(Action::Brush(Some(radius))));
            }
            if model.chosen_brush().is_some() && ui.small_button("default").clicked() {
                out.push(Command::Act(Action::Brush(None)));
            }
        });
    });
}

/// The field drawn, its colour map and its legend.
fn view(ui: &mut egui::Ui, model: &AnyModel, out: &mut Vec<Command>) {
    let kind = model.kind();
    egui::CollapsingHeader::new("View").default_open(true).show(ui, |ui| {
        let look = model.look();
        ui.horizontal(|ui| {
            ui.label("look (F4):");
            for l in Look::ALL {
                let hint = match l {
                    Look::Map => "the field through its colour map",
                    Look::Styled => "smoke lit and shaded, water as a surface with foam, gas as a schlieren image",
                };
                if ui.selectable_label(l == look, l.name()).on_hover_text(hint).clicked() && l != look {
                    out.push(Command::Act(Action::Look(l)));
                }
            }
        });
        if look == Look::Styled && !matches!(kind, crate::model::ModelKind::Custom(_)) {
            draw_legend(ui, &model.legend());
            return;
        }
        let view = model.view();
        egui::ComboBox::from_label("field").selected_text(view).show_ui(ui, |ui| {
            for f in kind.info().views {
                let text = format!("{} ({})", f.name, if f.unit.is_empty() { "-" } else { f.unit });
                if ui.selectable_label(f.name == view, text).on_hover_text(f.doc).clicked() && f.name != view {
                    out.push(Command::Act(Action::View(f.name.to_string())));
                }
            }
        });
        let legend = model.legend();
        // A map applies to every field but the gas velocity's wheel and the dye's own colours.
        let fixed = matches!(legend, Legend::Direction { .. }) || (matches!(legend, Legend::Own(_)) && view == "dye");
        if !fixed {
            let map = model.colour_map();
            egui::ComboBox::from_label("colour map (F3)").selected_text(map.name()).show_ui(ui, |ui| {
                for m in ColourMap::ALL {
                    if ui.selectable_label(m == map, m.name()).clicked() && m != map {
                        out.push(Command::Act(Action::ColourMap(m)));
                    }
                }
            });
        }
        draw_legend(ui, &legend);
    });
}

/// The statistics line, the speed and the GPU time, and the plot of one series.
fn statistics(ui: &mut egui::Ui, session: &Session, c: &mut Controls, history: &History) {
    let kind = session.model_ref().kind();
    egui::CollapsingHeader::new("Statistics").default_open(true).show(ui, |ui| {
        for part in history.line.get(&kind).map_or("", String::as_str).split(", ") {
            ui.label(RichText::new(part).small().monospace());
        }
        if let Some(&(step, hash)) = history.hash.get(&kind) {
            let hex = crate::gpu::state_hash::hex(hash);
            let text = RichText::new(format!("state hash {hex} (step {step})")).small().monospace();
            let covers = session.model_ref().state_hash_covers();
            ui.label(text).on_hover_text(format!("{covers}, bit for bit, as eddy run prints it"));
        }
        let pages = session.model_ref().packed_world_pages();
        if pages > 0 {
            let text = match pages {
                1 => "a packed world: four cells a texel".to_string(),
                n => format!("a packed world: four cells a texel, {n} pages of rows"),
            };
            ui.label(RichText::new(text).small().monospace()).on_hover_text(
                "past this adapter's largest texture, the water is kept in the step's packed layout alone \
                 (taller than one texture holds, in pages of rows); the styled look draws it plain",
            );
        }
        if let Some(last) = history.last(kind) {
            let gpu = match last.gpu_ms {
                Some(ms) => format!("GPU {ms:.3} ms/step"),
                None if !session.timed() => "GPU time: no timestamp queries on this device".into(),
                None => "GPU time: runs when stepping".into(),
            };
            ui.label(RichText::new(format!("{:.0} steps/s · {gpu}", last.rate)).small().monospace());
        }
        egui::ComboBox::from_id_salt("series").selected_text(c.plotted.name()).show_ui(ui, |ui| {
            for s in Series::ALL {
                ui.selectable_value(&mut c.plotted, s, s.name());
            }
        });
        let points: Vec<[f64; 2]> = history
            .samples
            .get(&kind)
            .into_iter()
            .flatten()
            .filter_map(|s| s.get(c.plotted).map(|v| [s.step, v]))
            .collect();
        if points.is_empty() {
            ui.label(RichText::new(format!("{kind} has no {}", c.plotted.name())).small());
        } else {
            egui_plot::Plot::new("stats-plot")
                .height(110.0)
                .allow_drag(false)
                .allow_zoom(false)
                .allow_scroll(false)
                .x_axis_label("step")
                .show(ui, |plot| plot.line(egui_plot::Line::new(c.plotted.name(), points)));
        }
    });
}

/// Every parameter of the current model with its widget, and the defaults button.
fn parameters(ui: &mut egui::Ui, model: &AnyModel, out: &mut Vec<Command>) {
    let kind = model.kind();
    egui::CollapsingHeader::new("Parameters").default_open(true).show(ui, |ui| {
        let params = model.params();
        let defaults = crate::model::ModelParams::defaults(kind);
        egui::Grid::new("params").num_columns(2).striped(true).show(ui, |ui| {
            for info in kind.params() {
                let Some(value) = params.get(info.name) else { continue };
                let default = defaults.get(info.name).unwrap_or(Value::Auto);
                let key = info.key.map_or(String::new(), |k| format!(" [{k}/{}]", k.to_ascii_uppercase()));
                ui.label(format!("{}{key}", info.name)).on_hover_text(tooltip(info, default));
                if let Some(next) = param_widget(ui, info, value) {
                    out.push(Command::Act(Action::Set(info.name, next)));
                }
                ui.end_row();
            }
        });
        if ui.button("defaults").on_hover_text("every parameter back to its default; the fluid stays").clicked() {
            out.push(Command::Act(Action::Defaults));
        }
    });
}

/// The rigid bodies: the body tool, a row per body (where it is; its velocity and spin
/// to edit; remove), and buttons that add one in the middle.
fn bodies(ui: &mut egui::Ui, model: &AnyModel, c: &mut Controls, out: &mut Vec<Command>) {
    use crate::body::{Body, PLATE_THICKNESS, Shape};
    let kind = model.kind();
    egui::CollapsingHeader::new("Bodies").default_open(true).show(ui, |ui| {
        ui.checkbox(&mut c.body_tool, "body tool (B): left drag moves a body or places one")
            .on_hover_text("Shift+click removes a body; the wheel over one spins it; the drag's speed is its velocity");
        for (i, b) in model.bodies().iter().enumerate() {
            let shape = match b.shape {
                Shape::Circle { radius } => format!("circle r {radius:.1}"),
                Shape::Box { half_width, half_height } => {
                    format!("box {:.1} x {:.1}", 2.0 * half_width, 2.0 * half_height)
                }
            };
            let free = b.density.map_or(String::new(), |s| format!(", free, density {s}"));
            ui.label(format!("{i}: {shape} at ({:.1}, {:.1}), {:.0} deg{free}", b.x, b.y, b.angle.to_degrees()));
            if let Some(f) = c.forces.get(i) {
                ui.label(RichText::new(format!("force ({:.3}, {:.3}), torque {:.3}", f.fx, f.fy, f.torque)).small())
                    .on_hover_text(
                        "the fluid's force on the body over the last step read: cell masses x cells / time unit^2 \
                         (the fluid 1 a cell), y down; torque about its centre, from x towards y",
                    );
            }
            ui.horizontal(|ui| {
                let (mut vx, mut vy, mut spin) = (b.vx, b.vy, b.spin);
                // Gas's time unit is its step: finer steps for its slower bodies.
                let fine = if kind == ModelKind::Gas { 0.1 } else { 1.0 };
                let mut changed = ui.add(egui::DragValue::new(&mut vx).speed(0.05 * fine).prefix("vx ")).changed();
                changed |= ui.add(egui::DragValue::new(&mut vy).speed(0.05 * fine).prefix("vy ")).changed();
                changed |= ui.add(egui::DragValue::new(&mut spin).speed(0.02 * fine).prefix("spin ")).changed();
                if changed {
                    out.push(Command::Act(Action::Drive { body: i, velocity: (vx, vy), spin }));
                }
                if ui.small_button("remove").clicked() {
                    out.push(Command::Act(Action::RemoveBody(i)));
                }
            });
        }
        let unit = if kind == ModelKind::Gas { "step" } else { "time unit" };
        ui.label(RichText::new(format!("velocities in cells per {unit} (y down), spin in radians per {unit}")).small());
        if !matches!(kind, ModelKind::Custom(_)) {
            ui.horizontal(|ui| {
                let mut free = c.body_density.is_some();
                let moves = match kind {
                    ModelKind::Gas => "the gas's push (the gas has no gravity)",
                    _ => "the fluid's force and by gravity (the gravity parameter)",
                };
                ui.checkbox(&mut free, "new bodies free").on_hover_text(format!(
                    "a free body is moved by {moves}, and collides with the walls and the other bodies; a driven one \
                     keeps the velocity it is given"
                ));
                let mut density = c.body_density.unwrap_or(0.5);
                ui.add_enabled(
                    free,
                    egui::DragValue::new(&mut density)
                        .range(crate::body::MIN_DENSITY..=crate::body::MAX_DENSITY)
                        .speed(0.01)
                        .prefix("density "),
                )
                .on_hover_text("times the fluid's: below 1 it rises, above 1 it sinks");
                c.body_density = free.then_some(density);
            });
        }
        let (w, h) = model.size();
        let (x, y, size) = (w as f32 / 2.0, h as f32 / 2.0, crate::body::default_size((w, h)));
        ui.horizontal(|ui| {
            let shapes = [
                ("add circle", Shape::Circle { radius: size }),
                ("add box", Shape::Box { half_width: size, half_height: size / 2.0 }),
                ("add plate", Shape::Box { half_width: 2.0 * size, half_height: PLATE_THICKNESS / 2.0 }),
            ];
            for (label, shape) in shapes {
                if ui.small_button(label).clicked() {
                    let body = Body { density: c.body_density, ..Body::new(shape, x, y) };
                    out.push(Command::Act(Action::AddBody(body)));
                }
            }
        });
    });
}

/// The Record section: a screenshot, and a GIF with its scale, pace and length.
#[cfg(not(target_arch = "wasm32"))]
fn record(ui: &mut egui::Ui, c: &mut Controls, recordings: &[(Format, u32, u32)], out: &mut Vec<Command>) {
    egui::CollapsingHeader::new("Record").default_open(false).show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut c.screenshot_scale).range(1..=16).suffix(" px/cell"));
            if ui.button("screenshot (F12)").on_hover_text("PNG of the simulation, without the panel").clicked() {
                out.push(Command::Screenshot);
            }
        });
        ui.horizontal(|ui| {
            ui.add(egui::DragValue::new(&mut c.record_scale).range(1..=8).suffix(" px/cell"));
            ui.add(egui::DragValue::new(&mut c.record_every).range(1..=100).prefix("every ").suffix(" frames"));
        });
        ui.horizontal(|ui| {
            ui.add(
                egui::DragValue::new(&mut c.record_frames)
                    .range(1..=crate::record::MAX_VIDEO_FRAMES)
                    .prefix("at most ")
                    .suffix(" frames"),
            )
            .on_hover_text(format!("a GIF stops at {} at most", crate::record::MAX_FRAMES));
            ui.add(egui::DragValue::new(&mut c.record_fps).range(1.0..=60.0).speed(0.5).suffix(" frames/s"))
                .on_hover_text(
                    "how fast the recording plays: a GIF at 50 at most, in whole hundredths of a second a frame",
                );
        });
        ui.horizontal(|ui| {
            let formats: &[(Format, &str, &str)] = if cfg!(feature = "video") {
                &[(Format::Gif, "GIF", "G"), (Format::Mp4, "video", "M")]
            } else {
                &[(Format::Gif, "GIF", "G")]
            };
            for &(format, name, key) in formats {
                let label = match recordings.iter().find(|r| r.0 == format) {
                    Some((_, n, cap)) => format!("stop {name} ({n}/{cap})"),
                    None => format!("record {name} ({key})"),
                };
                if ui.button(label).clicked() {
                    out.push(Command::ToggleRecording(format));
                }
            }
        });
    });
}

/// The hover text of a parameter: what it does, the allowed values and why, the default and
/// its source.
fn tooltip(info: &ParamInfo, default: Value) -> String {
    let default = match (default, info.auto) {
        (Value::Auto, Some(auto)) => auto.to_string(),
        (v, _) => info.format(v),
    };
    let mut text = format!("{}\nallowed: {}\ndefault: {default}", info.doc, info.allowed());
    if !info.source.is_empty() {
        text.push_str(&format!(" ({})", info.source));
    }
    if let ParamKind::Real(r) | ParamKind::Pair(r) = info.kind {
        for why in [r.below, r.above] {
            if !why.is_empty() {
                text.push_str(&format!("\n· {why}"));
            }
        }
    }
    text
}

/// The widget of one parameter; the new value when the user changed it.
fn param_widget(ui: &mut egui::Ui, info: &ParamInfo, value: Value) -> Option<Value> {
    let unit = if info.unit.is_empty() { String::new() } else { format!(" {}", info.unit) };
    match (info.kind, value) {
        (ParamKind::Choice(names), Value::Choice(i)) => {
            let mut chosen = i;
            egui::ComboBox::from_id_salt(info.name).selected_text(names.get(i).copied().unwrap_or("?")).show_ui(
                ui,
                |ui| {
                    for (j, n) in names.iter().enumerate() {
                        ui.selectable_value(&mut chosen, j, *n);
                    }
                },
            );
            (chosen != i).then_some(Value::Choice(chosen))
        }
        (ParamKind::Count { min, max, .. }, Value::Count(n)) => {
            let mut v = n;
            ui.add(egui::DragValue::new(&mut v).range(min..=max).suffix(unit));
            (v != n).then_some(Value::Count(v))
        }
        (ParamKind::Real(r), Value::Real(x)) => real_widget(ui, info, r, x, &unit).map(Value::Real),
        (ParamKind::Real(r), Value::Auto) => {
            let mut set = false;
            ui.horizontal(|ui| {
                ui.label(RichText::new(format!("auto: {}", info.auto.unwrap_or(""))).small());
                set = ui.small_button("set").clicked();
            });
            // A value to start from: the range's closed lower end, else one step above it.
            let start = if r.min.is_finite() { r.min + info.step.max(1.0) } else { 1.0 };
            set.then_some(Value::Real(start.min(r.max)))
        }
        (ParamKind::Pair(r), Value::Pair(x, y)) => {
            let mut out = None;
            ui.horizontal(|ui| {
                let nx = real_widget(ui, info, r, x, "");
                let ny = real_widget(ui, info, r, y, &unit);
                if nx.is_some() || ny.is_some() {
                    out = Some(Value::Pair(nx.unwrap_or(x), ny.unwrap_or(y)));
                }
            });
            out
        }
        _ => {
            ui.label(info.format(value));
            None
        }
    }
}

/// A drag value within the range (open ends kept out by a hair); the new value when changed.
fn real_widget(ui: &mut egui::Ui, info: &ParamInfo, r: crate::model::params::Range, x: f32, unit: &str) -> Option<f32> {
    let hair = |v: f32| v.abs().max(1.0) * 1e-6;
    let lo = if r.min.is_finite() { r.min + if r.min_open { hair(r.min) } else { 0.0 } } else { -1e9 };
    let hi = if r.max.is_finite() { r.max - if r.max_open { hair(r.max) } else { 0.0 } } else { 1e9 };
    let speed = if info.step > 0.0 { info.step as f64 / 4.0 } else { (x.abs() as f64 * 0.01).max(1e-3) };
    let mut v = x;
    ui.add(egui::DragValue::new(&mut v).range(lo..=hi).speed(speed).max_decimals(6).suffix(unit.to_string()));
    (v != x && v.is_finite()).then_some(v)
}

/// The legend: a colour bar with its end values and unit, the direction wheel, or what the
/// field's own colours mean.
fn draw_legend(ui: &mut egui::Ui, legend: &Legend) {
    match legend {
        Legend::Scale { low, high, unit, map } => {
            let (rect, _) =
                ui.allocate_exact_size(egui::vec2(ui.available_width().min(260.0), 14.0), egui::Sense::hover());
            let painter = ui.painter_at(rect);
            let n = 64;
            for i in 0..n {
                let t = (i as f64 + 0.5) / n as f64;
                let [r, g, b] = map.at(t).unwrap_or([0, 0, 0]);
                let x0 = rect.left() + rect.width() * i as f32 / n as f32;
                let x1 = rect.left() + rect.width() * (i + 1) as f32 / n as f32 + 0.5;
                let cell = egui::Rect::from_min_max(egui::pos2(x0, rect.top()), egui::pos2(x1, rect.bottom()));
                painter.rect_filled(cell, 0.0, Color32::from_rgb(r, g, b));
            }
            ui.horizontal(|ui| {
                ui.label(RichText::new(crate::model::params::short(*low)).small());
                ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                    ui.label(RichText::new(format!("{} {unit}", crate::model::params::short(*high))).small());
                });
            });
        }
        Legend::Direction { full_speed, unit } => {
            ui.horizontal(|ui| {
                let (rect, _) = ui.allocate_exact_size(egui::vec2(64.0, 64.0), egui::Sense::hover());
                let painter = ui.painter_at(rect);
                let c = rect.center();
                let n = 48;
                for i in 0..n {
                    // Screen y is down, as the field's: angle atan2(vy, vx) with vy down.
                    let a0 = i as f32 / n as f32 * std::f32::consts::TAU;
                    let a1 = (i + 1) as f32 / n as f32 * std::f32::consts::TAU;
                    let [r, g, b] = direction_colour((a0 + a1) * 0.5);
                    let p = |a: f32, rad: f32| c + egui::vec2(a.cos(), a.sin()) * rad;
                    let quad = vec![p(a0, 30.0), p(a1, 30.0), p(a1, 8.0), p(a0, 8.0)];
                    painter.add(egui::Shape::convex_polygon(quad, Color32::from_rgb(r, g, b), egui::Stroke::NONE));
                }
                ui.label(
                    RichText::new(format!(
                        "hue: direction of flow (the wheel's colour at the side it flows to)\nbrightness: speed, full at {full_speed} {unit}"
                    ))
                    .small(),
                );
            });
        }
        Legend::Own(what) => {
            ui.label(RichText::new(*what).small());
        }
    }
}

/// The help overlay: every control (F1 or `?`).
fn help(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Controls")
        .open(open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            egui::Grid::new("controls").num_columns(2).striped(true).show(ui, |ui| {
                for (keys, what) in CONTROLS {
                    ui.label(RichText::new(*keys).strong());
                    ui.label(*what);
                    ui.end_row();
                }
            });
            ui.separator();
            ui.label(format!("The fluid tool: {}.", fluid_tools()));
            ui.separator();
            ui.label("Parameter keys: lower case lowers, Shift raises, within the allowed range");
            for (kind, keys) in parameter_keys() {
                if !keys.is_empty() {
                    let keys: Vec<String> = keys.iter().map(|(k, name, _)| format!("{k} {name}")).collect();
                    ui.label(format!("{kind}: {}", keys.join(", ")));
                }
            }
        });
}
