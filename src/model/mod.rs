//! The registry of models: which models eddy has, and for each its parameters ([`params`]),
//! fields, presets, GPU needs and memory per cell, and one type that runs and draws any of them
//! ([`AnyModel`]).
//!
//! The command line, the viewer and the bench read these tables; none of them lists models or
//! parameters of its own. A model's own module (`water`, `smoke`, `gas`) holds its parameter
//! table ([`params::ParamTable::TABLE`]); this module says which models exist and lists their
//! variants once (`each_model!`), through which [`any_gpu`], [`any`] and [`state`] reach each
//! model where every model does the same; their other matches hold what differs per model.

/// Runs `$body` with `$x` bound to what `$value`, a `$kind::Water(..)`, `$kind::Smoke(..)`,
/// `$kind::Gas(..)` or `$kind::Custom(..)` (a registered model's, [`custom`]), holds, as its own
/// type: the one list of the models' variants that [`AnyGpuModel`], [`ModelParams`], [`AnyState`]
/// and [`AnyStats`] are matched through where every model does the same.
macro_rules! each_model {
    ($kind:ident, $value:expr, $x:ident => $body:expr) => {
        match $value {
            $kind::Water($x) => $body,
            $kind::Smoke($x) => $body,
            $kind::Gas($x) => $body,
            $kind::Custom($x) => $body,
        }
    };
}

mod action;
pub mod any;
pub mod any_gpu;
pub mod custom;
pub mod memory;
pub mod runner;
pub mod session;
// Reads state files and PNG scenes: feature `files`.
#[cfg(feature = "files")]
pub mod start;
pub mod state;
pub mod tools;

/// The parameter tables' machinery, below the models that use it ([`crate::params`]).
pub use crate::params;
pub use crate::params::{ParamInfo, ParamKind, ParamSpec, ParamTable, Value};
pub use action::{Action, MAX_STROKE_POINTS};
pub use any::{AnyModel, check_bodies};
pub use any_gpu::AnyGpuModel;
pub use custom::{CustomModel, register};
pub use runner::Runner;
pub use session::{Done, Session, SessionOptions, Start, changes};
pub use state::{AnyState, AnyStats, ModelParams, PARAMETERS_ARRAY, STEP_ARRAY};

use crate::gas::GasParams;
use crate::scene::{SceneError, SceneSource};
use crate::smoke::SmokeParams;
use crate::water::WaterParams;
use std::fmt;
use std::path::Path;

/// A fluid model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ModelKind {
    /// Elsts' compressible-water cellular automaton ([`crate::water`]).
    Water,
    /// The GPU Gems ch. 38 Eulerian smoke ([`crate::smoke`]).
    Smoke,
    /// The mass-and-momentum flow automaton ([`crate::gas`]).
    Gas,
    /// A model written outside eddy and registered ([`custom::register`]).
    Custom(custom::CustomId),
}

/// One field a model can draw or saves: its name (as `--field` takes it), unit and `.npz` shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// Name, e.g. `density`.
    pub name: &'static str,
    /// Unit, e.g. `cells/step`.
    pub unit: &'static str,
    /// Shape in the `.npz`, e.g. `(H, W)` or `(H, W, 2)`.
    pub shape: &'static str,
    /// What it is, and how it is drawn.
    pub doc: &'static str,
}

/// What a model is: everything the front ends need besides running it.
#[derive(Debug)]
pub struct ModelInfo {
    /// Its name, as `--mode` takes it.
    pub name: &'static str,
    /// One line: what it is and where it comes from.
    pub about: &'static str,
    /// The fields it can draw (`--field`, the viewer's V key), the first being the default.
    pub views: &'static [FieldInfo],
    /// The arrays of its `.npz` state, in the order they are saved ([`ModelKind::of_arrays`]
    /// tells a file's model from them).
    pub arrays: &'static [FieldInfo],
    /// Its scene presets (`--scene NAME`) with a line each; the first is its default scene.
    pub presets: &'static [(&'static str, &'static str)],
    /// The scene `eddy bench` measures on.
    pub bench_scene: &'static str,
    /// What the left mouse button does in the viewer.
    pub left_button: &'static str,
    /// Storage-texture formats its passes bind, read-only and write-only.
    pub storage_formats: &'static [(wgpu::TextureFormat, &'static str)],
    /// Of those, the formats some pass binds read-write (in-place red-black sweeps and
    /// gradient subtraction; gas's body bits); WebGPU allows it for `r32float` and `r32uint`
    /// without a feature.
    pub storage_read_write: &'static [wgpu::TextureFormat],
    /// Most storage textures one of its passes writes (write-only or read-write). A pass that
    /// binds more storage textures than the device allows reads its inputs as sampled
    /// textures instead (`src/gpu/fit.rs`), so this, not the total bound, is what a device
    /// must allow; WebGPU guarantees 4.
    pub storage_textures_per_stage: u32,
    /// Every texture it allocates: `(name, bytes per texel, how many)`, one texel per cell.
    pub textures: &'static [(&'static str, u32, u32)],
    /// Of [`ModelInfo::textures`], the bytes per cell of its state (what a checkpoint copies).
    pub state_bytes_per_cell: u32,
    /// Bytes per cell of its state on the CPU ([`AnyState`]: f32 fields and u8 masks).
    pub host_bytes_per_cell: u32,
}

const R32: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
const RG32: wgpu::TextureFormat = wgpu::TextureFormat::Rg32Float;
const RGBA32: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;
const U32: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

const SOLID: FieldInfo = FieldInfo { name: "solid", unit: "", shape: "(H, W) uint8", doc: "1 = solid, 0 = open" };
const SOURCE: FieldInfo = FieldInfo { name: "source", unit: "", shape: "(H, W) uint8", doc: "1 = source cell" };
const BODIES: FieldInfo = FieldInfo {
    name: "bodies",
    unit: "cells, radians, cells/time unit (gas: cells/step)",
    shape: "(N, 13) float32",
    doc: "rigid bodies, a row each: kind (0 circle, 1 box), x, y, angle, vx, vy, spin, size a, size b, density \
          (a free body's, times the fluid's; 0 driven), ax, ay, angular acceleration; solid marks a body's cells 2 + i",
};

static WATER: ModelInfo = ModelInfo {
    name: "water",
    about: "compressible-water cellular automaton (J. Elsts, Simple Fluid Simulation With Cellular Automata, 2009; and its Unity port)",
    views: &[FieldInfo {
        name: "mass",
        unit: "full cells",
        shape: "(H, W) float32",
        doc: "water per cell; 1 = full, more = compressed; a colour map spans 0 to 1.5",
    }],
    arrays: &[
        FieldInfo { name: "mass", unit: "full cells", shape: "(H, W) float32", doc: "water per cell, >= 0" },
        SOLID,
    ],
    presets: &[
        ("basin", "a block of water falling into a container with an obstacle in it"),
        ("u-tube", "communicating vessels, water in the left arm of a U-tube"),
        ("random", "Elsts-style random map, scattered ground and water cells (seeded)"),
    ],
    bench_scene: "random",
    left_button: "pour water",
    storage_formats: &[(R32, "mass"), (RGBA32, "packed mass"), (U32, "solid and body bits")],
    // The bodies' displacement marks the cells they cover in the solid bits beside the walls.
    storage_read_write: &[U32],
    storage_textures_per_stage: crate::water::STORAGE_TEXTURES_PER_STAGE,
    textures: &[
        ("mass, r32float", 4, 2),
        ("solid bits, r32uint", 4, 1),
        // The step's packed mass, four cells a texel (gpu::packed), solid cells' negated.
        ("packed mass, rgba32float", 4, 2),
    ],
    state_bytes_per_cell: 4,
    host_bytes_per_cell: 5,
};

static SMOKE: ModelInfo = ModelInfo {
    name: "smoke",
    about: "GPU Gems ch. 38 Eulerian smoke on a staggered (MAC) grid: advection, buoyancy, impulse, divergence, Jacobi or multigrid pressure solve, gradient subtraction (Harris 2004; Rideout 2010; Harlow & Welch 1965)",
    views: &[
        FieldInfo {
            name: "dye",
            unit: "",
            shape: "(H, W, 3) float32",
            doc: "the coloured dye, each channel full at 1 (staggered grid; density on the collocated grid)",
        },
        FieldInfo { name: "density", unit: "", shape: "(H, W) float32", doc: "smoke density, white at 1" },
        FieldInfo {
            name: "temperature",
            unit: "degrees",
            shape: "(H, W) float32",
            doc: "heat ramp, white at the impulse temperature",
        },
        FieldInfo {
            name: "velocity",
            unit: "cells/time unit",
            shape: "(H, W, 2) float32",
            doc: "speed |v|, white at 20",
        },
        FieldInfo {
            name: "pressure",
            unit: "",
            shape: "(H, W) float32",
            doc: "the last pressure solve, blue - red at +-10",
        },
        FieldInfo {
            name: "divergence",
            unit: "per time unit",
            shape: "(H, W) float32",
            doc: "before the last projection, blue - red over its largest magnitude rounded up to 1, 2 or 5 x 10^k",
        },
        FieldInfo {
            name: "vorticity",
            unit: "per time unit",
            shape: "(H, W) float32",
            doc: "curl dv/dx - du/dy (staggered grid; 0 on the collocated grid), blue - red as the divergence",
        },
    ],
    arrays: &[
        FieldInfo {
            name: "velocity",
            unit: "cells/time unit",
            shape: "(H, W, 2) float32",
            doc: "at cell centres (face means on the staggered grid): [..., 0] = x (right), [..., 1] = y (down)",
        },
        FieldInfo {
            name: "velocity_x",
            unit: "cells/time unit",
            shape: "(H, W + 1) float32",
            doc: "staggered grid only: x velocity on vertical faces, [r, c] = left face of cell (r, c)",
        },
        FieldInfo {
            name: "velocity_y",
            unit: "cells/time unit",
            shape: "(H + 1, W) float32",
            doc: "staggered grid only: y velocity (down) on horizontal faces, [r, c] = top face of cell (r, c)",
        },
        FieldInfo { name: "density", unit: "", shape: "(H, W) float32", doc: "smoke density, >= 0" },
        FieldInfo { name: "temperature", unit: "degrees", shape: "(H, W) float32", doc: "temperature" },
        FieldInfo { name: "pressure", unit: "", shape: "(H, W) float32", doc: "the last pressure solve" },
        FieldInfo {
            name: "divergence",
            unit: "per time unit",
            shape: "(H, W) float32",
            doc: "before the last projection",
        },
        FieldInfo { name: "dye", unit: "", shape: "(H, W, 3) float32", doc: "red, green, blue dye, >= 0" },
        SOLID,
        SOURCE,
        BODIES,
        FieldInfo {
            name: "v_cycles",
            unit: "",
            shape: "() int64",
            doc: "multigrid only: V-cycles a step until the solver's next plan, >= 1 (with the next two, the plan a \
                  loaded state resumes, so that its run replays the one that saved it)",
        },
        FieldInfo {
            name: "v_cycle_plan_started",
            unit: "steps",
            shape: "() int64",
            doc: "multigrid only: steps from the V-cycle plan's start to the save",
        },
        FieldInfo {
            name: "v_cycle_plan_last",
            unit: "steps",
            shape: "() int64",
            doc: "multigrid only: steps from the V-cycle plan's last planning to the save, <= v_cycle_plan_started",
        },
    ],
    presets: &[
        ("plume", "a closed box, a round obstacle in the middle, a hot smoke source at the bottom centre"),
        ("cavity", "the lid-driven cavity: a closed box of fluid whose top edge moves (starts --pipeline cavity)"),
        (
            "channel",
            "flow past a cylinder: inflow left, outflow right, dye streaks from the inlet (starts --pipeline channel)",
        ),
        ("clear", "a closed box of still air, nothing in it: splats and strokes make the smoke"),
    ],
    bench_scene: "plume",
    left_button: "inject hot smoke, pushed along the drag",
    storage_formats: &[
        (R32, "scalar fields"),
        (RG32, "velocity, confinement's force"),
        (RGBA32, "dye"),
        (U32, "solid and source bits"),
    ],
    // The staggered passes update faces in place, and the multigrid smooths in place.
    storage_read_write: &[R32],
    storage_textures_per_stage: crate::smoke::STORAGE_TEXTURES_PER_STAGE,
    // The larger of the two grids' needs: the staggered grid's (faces, solver levels summing to
    // 4/3 of the finest, the divergence after) is the larger.
    textures: &[
        ("velocity, rg32float", 8, 2),
        ("temperature, density, pressure, r32float", 4, 6),
        ("divergence, r32float", 4, 1),
        ("solid and source bits, r32uint", 4, 1),
        ("faces u and v, r32float", 4, 4),
        ("solver levels: pressure, rhs, residual, r32float + walls, r32uint", 4, 6),
        ("divergence after, vorticity, r32float", 4, 2),
        ("vorticity confinement's force, rg32float", 8, 1),
        ("dye and its prediction, rgba32float", 16, 3),
        // The Jacobi iterations' packed textures, four cells a texel (solver::packed).
        ("packed pressure pair and right-hand side, rgba32float", 4, 3),
        ("packed walls, r32uint", 1, 1),
    ],
    state_bytes_per_cell: 40,
    // The state's six f32 fields, the dye's three, two masks, and the centre velocity made
    // for saving.
    host_bytes_per_cell: 46,
};

static GAS: ModelInfo = ModelInfo {
    name: "gas",
    about: "mass-and-momentum flow automaton (dtosoftware, Fluid dynamics part 2, 2012) with an isothermal pressure",
    views: &[
        FieldInfo {
            name: "density",
            unit: "",
            shape: "(H, W) float32",
            doc: "dark at 0.5, purple at ambient 1, yellow at 2.5",
        },
        FieldInfo {
            name: "velocity",
            unit: "cells/step",
            shape: "(H, W, 2) float32",
            doc: "hue = direction, brightness = speed (full at 0.25)",
        },
    ],
    arrays: &[
        FieldInfo { name: "density", unit: "", shape: "(H, W) float32", doc: "gas per cell, ambient 1, >= 0" },
        FieldInfo {
            name: "momentum",
            unit: "density x cells/step",
            shape: "(H, W, 2) float32",
            doc: "[..., 0] = x (right), [..., 1] = y (down)",
        },
        SOLID,
        SOURCE,
        BODIES,
    ],
    presets: &[
        ("explosion", "a dense blob in the middle of a closed room with some walls"),
        ("wind", "a channel with obstacles, wind blown in from sources on the left, out on the right"),
        (
            "tunnel",
            "gas past a cylinder: inflow through the left edge, outflow through the right (starts gas's tunnel parameters)",
        ),
    ],
    bench_scene: "explosion",
    left_button: "push gas along the drag; a click sets off an explosion",
    storage_formats: &[(R32, "limiter"), (RGBA32, "state and faces"), (U32, "wall, source and body bits")],
    // The bodies' rasterisation keeps each cell's bits from before the step beside the new ones.
    storage_read_write: &[U32],
    storage_textures_per_stage: crate::gas::STORAGE_TEXTURES_PER_STAGE,
    textures: &[
        ("state, rgba32float", 16, 2),
        ("faces, rgba32float", 16, 3),
        ("limiter, r32float", 4, 1),
        ("wall, source and body bits and the walls' alone, r32uint", 4, 2),
    ],
    state_bytes_per_cell: 16,
    host_bytes_per_cell: 14,
};

/// The rows of `P`'s table, in CLI order.
fn infos<P: ParamTable>() -> Vec<&'static ParamInfo> {
    P::TABLE.iter().map(|s| &s.info).collect()
}

/// The parameters two models share by name: the box's edges and the speed through its inflow
/// edges, smoke's and gas's, and gravity on bodies, water's and smoke's. Each model's row says
/// what the option means there, with its own range; a run applies its own model's row, so
/// `--left-edge inflow` means the same to the user in both.
pub const SHARED_PARAMS: &[&str] = &["left-edge", "right-edge", "top-edge", "bottom-edge", "inflow", "gravity"];

impl ModelKind {
    /// eddy's own models: the first of [`ModelKind::all`], which the viewer's Tab and 1 to 9
    /// keys go through.
    pub const ALL: [ModelKind; 3] = [ModelKind::Water, ModelKind::Smoke, ModelKind::Gas];

    /// Every model: eddy's own ([`ModelKind::ALL`]), then those registered
    /// ([`custom::register`]) in the order they were.
    pub fn all() -> Vec<ModelKind> {
        let mut all = Self::ALL.to_vec();
        all.extend(custom::registered());
        all
    }

    /// Its place in [`ModelKind::all`].
    pub fn index(self) -> usize {
        match self {
            ModelKind::Custom(id) => Self::ALL.len() + id.index(),
            k => Self::ALL.iter().position(|&x| x == k).expect("eddy's models are in ALL"),
        }
    }

    /// Its table row.
    pub fn info(self) -> &'static ModelInfo {
        match self {
            ModelKind::Water => &WATER,
            ModelKind::Smoke => &SMOKE,
            ModelKind::Gas => &GAS,
            ModelKind::Custom(id) => custom::info(id),
        }
    }

    /// Its name, as `--mode` takes it.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The model named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::all().into_iter().find(|k| k.name().eq_ignore_ascii_case(name))
    }

    /// Its parameters, in CLI order.
    pub fn params(self) -> Vec<&'static ParamInfo> {
        match self {
            ModelKind::Water => infos::<WaterParams>(),
            ModelKind::Smoke => infos::<SmokeParams>(),
            ModelKind::Gas => infos::<GasParams>(),
            ModelKind::Custom(id) => custom::params(id),
        }
    }

    /// Its parameters' names, comma-separated (for error messages).
    pub fn param_names(self) -> String {
        self.params().iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
    }

    /// The scene it starts on when none is given: its first preset.
    pub fn default_scene(self) -> &'static str {
        self.info().presets[0].0
    }

    /// The first model (in [`ModelKind::all`]'s order) that has parameter `name`, and its row.
    /// A name in [`SHARED_PARAMS`] has a row in two models: [`ModelKind::param_rows`] gives both.
    pub fn owning_param(name: &str) -> Option<(ModelKind, &'static ParamInfo)> {
        Self::param_rows(name).into_iter().next()
    }

    /// Every model that has parameter `name`, with its row, in [`ModelKind::all`]'s order: one
    /// model, or two for a name in [`SHARED_PARAMS`], none for an unknown name.
    pub fn param_rows(name: &str) -> Vec<(ModelKind, &'static ParamInfo)> {
        Self::all()
            .into_iter()
            .filter_map(|k| k.params().into_iter().find(|p| p.name == name).map(|p| (k, p)))
            .collect()
    }

    /// The model whose preset is `name`.
    pub fn owning_preset(name: &str) -> Option<ModelKind> {
        Self::all().into_iter().find(|k| k.info().presets.iter().any(|(n, _)| *n == name))
    }

    /// The model whose state has these `.npz` arrays: a registered model's when they are
    /// exactly its arrays; else `mass` is water, `velocity` or `temperature` smoke, `momentum`
    /// gas; `None` when they do not say (e.g. `density` alone).
    pub fn of_arrays(names: &[String]) -> Option<ModelKind> {
        custom::registered().into_iter().rev().chain(Self::ALL).find(|k| k.marks(names))
    }

    /// Checks that a `width x height` grid of this model fits an adapter whose largest 2D
    /// texture side is `max_side`: each side up to it, and water up to four times it across
    /// ([`crate::water::packed_world`]).
    ///
    /// # Errors
    /// [`crate::gpu::GpuError::GridTooLarge`] (water: [`crate::gpu::GpuError::WorldTooLarge`]) when a side is 0 or too
    /// large.
    pub fn check_size(self, width: usize, height: usize, max_side: u32) -> Result<(), crate::gpu::GpuError> {
        match self {
            ModelKind::Water => crate::water::packed_world::check_size(width, height, max_side),
            _ if width == 0 || height == 0 || width > max_side as usize || height > max_side as usize => {
                Err(crate::gpu::GpuError::GridTooLarge { width, height, max: max_side })
            }
            _ => Ok(()),
        }
    }

    /// Whether this model at `(width, height)` is a packed world where the largest texture side is
    /// `max_side`: water past it ([`crate::water::packed_world`]).
    pub fn is_packed_world(self, (width, height): (usize, usize), max_side: u32) -> bool {
        self == ModelKind::Water && crate::water::packed_world::is_packed_world((width, height), max_side)
    }

    /// What an adapter needs to run these models (see [`crate::gpu::Requirements`]).
    pub fn requirements(kinds: &[ModelKind]) -> crate::gpu::Requirements {
        let mut r = crate::gpu::Requirements {
            what: kinds.iter().map(|k| k.name()).collect::<Vec<_>>().join(", "),
            ..Default::default()
        };
        for k in kinds {
            let info = k.info();
            for &(format, what) in info.storage_formats {
                if !r.storage.iter().any(|(f, _)| *f == format) {
                    r.storage.push((format, format!("{k} {what}")));
                }
            }
            for &format in info.storage_read_write {
                if !r.storage_read_write.contains(&format) {
                    r.storage_read_write.push(format);
                }
            }
            r.storage_textures_per_stage = r.storage_textures_per_stage.max(info.storage_textures_per_stage);
        }
        r
    }

    /// Whether `names` has an array only this model saves (`mass`; `velocity`, `temperature`;
    /// `momentum`; not `bodies`, which every model saves), or, for a registered model,
    /// are exactly the arrays it saves; see [`ModelKind::of_arrays`].
    pub fn marks(self, names: &[String]) -> bool {
        let marks: &[&str] = match self {
            ModelKind::Water => &["mass"],
            ModelKind::Smoke => &["velocity", "temperature"],
            ModelKind::Gas => &["momentum"],
            ModelKind::Custom(id) => return custom::marks(id, names),
        };
        names.iter().any(|n| marks.contains(&n.as_str()))
    }

    /// Whether it has a CPU twin of its whole step ([`any::cpu_reference`]): eddy's models do; a
    /// registered model when it gave one ([`CustomModel::CPU_STEP`]).
    pub fn has_cpu_twin(self) -> bool {
        match self {
            ModelKind::Custom(id) => custom::has_cpu_twin(id),
            _ => true,
        }
    }

    /// Index of field `name` among [`ModelInfo::views`].
    ///
    /// # Errors
    /// `"{name} is not a {model} field: {model} has ..."` when the model has no such field.
    pub fn view(self, name: &str) -> Result<usize, String> {
        self.info()
            .views
            .iter()
            .position(|f| f.name == name)
            .ok_or_else(|| format!("{name} is not a {self} field: {self} has {}", self.view_names()))
    }

    /// Names of [`ModelInfo::views`], comma-separated, for messages.
    pub fn view_names(self) -> String {
        self.info().views.iter().map(|f| f.name).collect::<Vec<_>>().join(", ")
    }

    /// Refuses preset `name` when it is another model's: `plume is a smoke preset; water's
    /// presets are basin, u-tube, random`. A name no model has is the scene loader's to refuse.
    ///
    /// # Errors
    /// That message.
    pub fn own_preset(self, name: &str) -> Result<(), String> {
        match Self::owning_preset(name).filter(|&k| k != self) {
            Some(owner) => Err(format!("{name} is a {owner} preset; {self}'s presets are {}", self.preset_names())),
            None => Ok(()),
        }
    }

    /// Names of [`ModelInfo::presets`], comma-separated, for messages.
    pub fn preset_names(self) -> String {
        self.info().presets.iter().map(|p| p.0).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for ModelKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// A scene argument names a preset or a file; which presets there are is the registry's to say,
// so the parsing lives here, above the models, while `SceneSource` itself lives below them.
impl SceneSource {
    /// A preset name (in any letter case) is the preset; otherwise a path that exists, or ends
    /// in `.png`, is a file. A file named like a preset is given as `./name` (or with `.png`).
    ///
    /// # Errors
    /// [`SceneError::UnknownScene`] when it is neither.
    pub fn parse(s: &str) -> Result<Self, SceneError> {
        let path = Path::new(s);
        let lower = s.to_ascii_lowercase();
        if Self::names_preset(s) {
            Ok(SceneSource::Preset(lower))
        } else if path.exists() || lower.ends_with(".png") {
            Ok(SceneSource::Png(path.to_path_buf()))
        } else {
            Err(SceneError::UnknownScene { name: s.to_string(), presets: all_preset_names() })
        }
    }
}

impl SceneSource {
    /// Whether `s` names a preset (in any letter case) rather than a file: a preset's name is
    /// the preset, whatever the working folder holds (a folder named `plume` hid the preset),
    /// while `./plume` or `plume.png` names a file.
    pub fn names_preset(s: &str) -> bool {
        let lower = s.to_ascii_lowercase();
        let says_file = lower.ends_with(".png") || s.contains('/') || s.contains(std::path::MAIN_SEPARATOR);
        ModelKind::owning_preset(&lower).is_some() && !says_file
    }
}

/// `basin, u-tube, random (water), plume (smoke), explosion, wind (gas)`.
fn all_preset_names() -> String {
    ModelKind::all().iter().map(|k| format!("{} ({k})", k.preset_names())).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_and_preset_names_are_unique_across_models() {
        let mut names: Vec<&str> = ModelKind::ALL.iter().flat_map(|k| k.params()).map(|p| p.name).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n - SHARED_PARAMS.len(), "a parameter name is used by two models and not shared");
        for name in SHARED_PARAMS {
            let rows = ModelKind::param_rows(name);
            assert_eq!(rows.len(), 2, "{name}");
            // The same kind of value, so that one option parses for both.
            match (rows[0].1.kind, rows[1].1.kind) {
                (ParamKind::Choice(a), ParamKind::Choice(b)) => assert_eq!(a, b, "{name}"),
                (ParamKind::Real(_), ParamKind::Real(_)) => {}
                _ => panic!("{name}: the two rows take different kinds of value"),
            }
        }
        let mut presets: Vec<&str> = ModelKind::ALL.iter().flat_map(|k| k.info().presets.iter().map(|p| p.0)).collect();
        let n = presets.len();
        presets.sort();
        presets.dedup();
        assert_eq!(presets.len(), n);
        let mut drawn = crate::scene::PRESETS.to_vec();
        drawn.sort();
        assert_eq!(presets, drawn, "the registry's presets and the scenes Scene::preset draws differ");
        for p in &presets {
            assert!(crate::scene::Scene::preset(p, 16, 16, 0).is_ok(), "{p} is not a scene preset");
        }
    }

    #[test]
    fn defaults_pass_their_own_tables_and_every_value_round_trips() {
        fn check<P: ParamTable>() {
            let d = P::default();
            d.check().unwrap();
            for spec in P::TABLE {
                let v = (spec.get)(&d);
                let mut p = d;
                (spec.set)(&mut p, v);
                assert_eq!(p, d, "{} does not round-trip", spec.info.name);
                if v != Value::Auto {
                    let text = spec.info.format(v);
                    assert_eq!(spec.info.parse(&text), Ok(v), "{}: {text}", spec.info.name);
                }
            }
        }
        check::<WaterParams>();
        check::<SmokeParams>();
        check::<GasParams>();
    }
}
