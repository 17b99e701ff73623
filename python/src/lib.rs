//! `eddy_fluid._eddy`: the Rust half of eddy's Python module (`python/eddy_fluid/__init__.py` is
//! the other, which turns the state files' bytes into NumPy arrays and back).
//!
//! A [`Simulation`] is a [`Session`] of the library's model layer made from the same
//! [`Request`] as `eddy run` (`eddy_fluid::model::start`): the same scenes, presets, inference of
//! the mode and checks, with the parameter tables parsing every value; nothing here lists models or
//! parameters. Errors carry the CLI's one-line messages: `ValueError` for what was asked
//! (parameters, scenes, states), `OSError` for files, [`GpuError`] (a `RuntimeError`) for the
//! adapter and device.

use eddy_fluid::body::{Body, Shape};
use eddy_fluid::error::Error;
use eddy_fluid::files::SceneError;
use eddy_fluid::gpu::Gpu;
use eddy_fluid::model::start::{Request, StartError};
use eddy_fluid::model::{
    Action, AnyState, AnyStats, ModelKind, ModelParams, ParamInfo, ParamKind, Session, SessionOptions, Start, Value,
    memory,
};
use pyo3::exceptions::{PyFloatingPointError, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

pyo3::create_exception!(
    eddy_fluid,
    GpuError,
    PyRuntimeError,
    "The GPU failed eddy: no adapter, a device that lacks what a model needs, a lost device, out of memory."
);

/// The Python exception for a library error: files are `OSError`, the GPU `GpuError`, the rest
/// (parameters, scenes, states, a model that cannot do what was asked) `ValueError`.
fn py_error(e: Error) -> PyErr {
    match e {
        Error::Gpu(g) => GpuError::new_err(g.to_string()),
        Error::Scene(SceneError::Io { .. }) => PyOSError::new_err(e.to_string()),
        other => PyValueError::new_err(other.to_string()),
    }
}

fn start_error(e: StartError) -> PyErr {
    match e {
        StartError::Usage(message) => PyValueError::new_err(message),
        StartError::Failed(e) => py_error(e),
    }
}

fn gpu_error(e: eddy_fluid::gpu::GpuError) -> PyErr {
    GpuError::new_err(e.to_string())
}

/// A Python value as the command line would write it: `(x, y)` as `x,y`, `True` / `False` as
/// `on` / `off`, anything else its `str()`.
fn value_text(v: &Bound<'_, PyAny>) -> PyResult<String> {
    // A NumPy array or scalar (`np.array([0.1, 0])`, `np.float32(0.2)`, `np.bool_`): as the
    // Python list or number it holds.
    if v.hasattr("tolist")? && v.hasattr("dtype")? {
        return value_text(&v.call_method0("tolist")?);
    }
    if let Ok(b) = v.cast::<pyo3::types::PyBool>() {
        return Ok(if b.is_true() { "on" } else { "off" }.to_string());
    }
    if let Ok(t) = v.cast::<PyTuple>() {
        let parts: Vec<String> = t.iter().map(|x| x.str().map(|s| s.to_string())).collect::<PyResult<_>>()?;
        return Ok(parts.join(","));
    }
    if let Ok(l) = v.cast::<PyList>() {
        let parts: Vec<String> = l.iter().map(|x| x.str().map(|s| s.to_string())).collect::<PyResult<_>>()?;
        return Ok(parts.join(","));
    }
    Ok(v.str()?.to_string())
}

/// The table rows a keyword names (`reynolds`, `warm_start` or `warm-start`), each with the value
/// parsed as the CLI parses `--name value`: one row, or one per model for a name two models
/// share (`left_edge`, `inflow`: [`eddy_fluid::model::SHARED_PARAMS`]).
fn parse_param(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<(ModelKind, &'static ParamInfo, Value)>> {
    let option = name.replace('_', "-");
    let rows = ModelKind::param_rows(&option);
    if rows.is_empty() {
        let all: Vec<String> = ModelKind::ALL.iter().map(|k| format!("{k}: {}", k.param_names())).collect();
        return Err(PyValueError::new_err(format!(
            "{name}: no model has this parameter; the parameters are {}",
            all.join("; ")
        )));
    }
    let text = value_text(value)?;
    let mut out = Vec::new();
    for (owner, info) in rows {
        let value = info.parse(&text).map_err(|e| PyValueError::new_err(format!("{option} {text}: {e}")))?;
        out.push((owner, info, value));
    }
    Ok(out)
}

/// An f32 as the f64 of its shortest decimal (0.2, not 0.20000000298023224).
fn decimal(v: f32) -> f64 {
    v.to_string().parse().unwrap_or(v as f64)
}

/// A parameter's value in Python: a float, an int, the choice's name, a pair as a tuple, `None`
/// when unset (automatic).
fn py_value<'py>(py: Python<'py>, info: &ParamInfo, value: Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match (value, info.kind) {
        (Value::Real(v), _) => decimal(v).into_pyobject(py)?.into_any(),
        (Value::Count(v), _) => v.into_pyobject(py)?.into_any(),
        (Value::Choice(i), ParamKind::Choice(names)) => names[i].into_pyobject(py)?.into_any(),
        (Value::Choice(i), _) => i.into_pyobject(py)?.into_any(),
        (Value::Pair(x, y), _) => (decimal(x), decimal(y)).into_pyobject(py)?.into_any(),
        (Value::Auto, _) => py.None().into_bound(py),
    })
}

/// `n` rows `[fx, fy, torque]` of `forces`, flat; NaN rows for bodies past its end.
fn force_rows(forces: &[eddy_fluid::body::forces::Force], n: usize) -> Vec<f32> {
    (0..n)
        .flat_map(|i| match forces.get(i) {
            Some(f) => [f.fx, f.fy, f.torque],
            None => [f32::NAN; 3],
        })
        .collect()
}

fn params_dict<'py>(py: Python<'py>, params: &ModelParams) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for info in params.kind().params() {
        let value = params.get(info.name).expect("a row of this model");
        dict.set_item(info.name.replace('-', "_"), py_value(py, info, value)?)?;
    }
    Ok(dict)
}

/// About this many seconds of stepping between checks for Ctrl-C (as `eddy run`).
const CHECK_EVERY_S: f64 = 0.25;

/// One model on the GPU, made as `eddy run` makes it; see the module's docs (`eddy_fluid.Simulation`).
/// It may be shared between Python threads: every call takes the session's lock, waiting for
/// another thread's call detached from the interpreter ([`Simulation::lock`]); a long `step` or
/// `stroke` lets go of it between its chunks and lets waiting calls in first
/// ([`Simulation::let_others_in`]), so that `stats` from another thread waits for one chunk
/// (about [`CHECK_EVERY_S`]), not the whole call.
#[pyclass(module = "eddy_fluid", subclass, frozen)]
pub struct Simulation {
    gpu: Gpu,
    session: Mutex<Session>,
    /// Calls waiting for the session's lock.
    waiting: AtomicUsize,
}

/// The longest a long call lets waiting calls go first between two of its chunks: past it, it
/// takes its turn again (the lock's own order decides).
const LET_IN_S: f64 = 1.0;

impl Simulation {
    /// The session, once no other thread's call holds it: waits detached from the interpreter
    /// (PyO3's `lock_py_attached`), so the call holding it can finish. A call that panicked
    /// leaves the session as it was.
    fn lock(&self, py: Python<'_>) -> MutexGuard<'_, Session> {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let session = self.session.lock_py_attached(py).unwrap_or_else(|e| e.into_inner());
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        session
    }

    /// Between two chunks of a long call, its lock let go: while other threads' calls wait for
    /// the session, lets them take it first (a mutex does not queue its waiters, and the
    /// thread that let go would take it back at once), for at most [`LET_IN_S`].
    fn let_others_in(&self, py: Python<'_>) {
        if self.waiting.load(Ordering::SeqCst) == 0 {
            return;
        }
        py.detach(|| {
            let started = Instant::now();
            while self.waiting.load(Ordering::SeqCst) > 0 && started.elapsed().as_secs_f64() < LET_IN_S {
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        });
    }
}

#[pymethods]
impl Simulation {
    #[new]
    #[pyo3(signature = (mode=None, scene=None, size=None, seed=None, load=None, bodies=None, **params))]
    fn new(
        mode: Option<&str>,
        scene: Option<String>,
        size: Option<(usize, usize)>,
        seed: Option<u64>,
        load: Option<PathBuf>,
        bodies: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let mode = mode
            .map(|m| {
                ModelKind::from_name(&m.to_ascii_lowercase()).ok_or_else(|| {
                    let names: Vec<&str> = ModelKind::ALL.iter().map(|k| k.name()).collect();
                    PyValueError::new_err(format!("mode {m:?} is not one of {}", names.join(", ")))
                })
            })
            .transpose()?;
        let mut given = Vec::new();
        if let Some(params) = params {
            for (name, value) in params.iter() {
                given.extend(parse_param(&name.extract::<String>()?, &value)?);
            }
        }
        let specs: Vec<String> = match bodies {
            None => Vec::new(),
            Some(b) if b.is_instance_of::<pyo3::types::PyString>() => vec![b.extract()?],
            Some(b) => b.extract().map_err(|_| {
                PyValueError::new_err(
                    "bodies: give a spec such as \"circle:x=40,y=32,r=8\", or a list of them (as --body takes them)",
                )
            })?,
        };
        let bodies = specs.iter().map(|b| Body::parse(b)).collect::<Result<Vec<_>, _>>();
        let bodies = bodies.map_err(PyValueError::new_err)?;
        let request = Request { mode, scene, load, size, seed, given, scripted: false, bodies };
        let setup = request.setup().map_err(start_error)?;
        let gpu = Gpu::headless_for(&ModelKind::requirements(&[setup.kind])).map_err(gpu_error)?;
        let params = setup.params;
        let extras = memory::Extras { checkpoint: true, frame_scale: None };
        let (state, step) = setup.state(&gpu, extras).map_err(start_error)?;
        let (h, w) = state.shape();
        let options = SessionOptions {
            params,
            start: Start::State(Box::new(state), step),
            size: (w, h),
            seed: seed.unwrap_or(1),
        };
        let session = Session::new(&gpu.device, &gpu.queue, &gpu.adapter, options).map_err(py_error)?;
        Ok(Self { gpu, session: Mutex::new(session), waiting: AtomicUsize::new(0) })
    }

    /// `n` steps on the GPU, the GIL released while they run. Ctrl-C raises `KeyboardInterrupt`
    /// at the next check (about every 0.25 s, after the steps in progress); the state reached
    /// stays. A state that becomes non-finite goes back to the last finite one (checked as
    /// often) and raises `FloatingPointError`.
    #[pyo3(signature = (n=1))]
    fn step(&self, py: Python<'_>, n: u64) -> PyResult<()> {
        let (mut done, mut chunk) = (0u64, 1u64);
        self.lock(py).model().checkpoint();
        while done < n {
            py.check_signals()?;
            let k = chunk.min(n - done);
            let started = Instant::now();
            let gpu = &self.gpu;
            let mut guard = self.lock(py);
            let session: &mut Session = &mut guard;
            let stats = py
                .detach(|| -> Result<AnyStats, eddy_fluid::gpu::GpuError> {
                    session.step(k as u32)?;
                    gpu.device.poll(wgpu::PollType::wait_indefinitely()).map_err(eddy_fluid::gpu::GpuError::from)?;
                    gpu.check()?;
                    session.model_ref().stats()
                })
                .map_err(gpu_error)?;
            if stats.non_finite() > 0 || stats.overflowed().is_some() {
                let reached = session.model_ref().steps_done();
                let at = session.model().rollback();
                let bodies = if session.model_ref().bodies().is_empty() { "" } else { ", bodies included" };
                return Err(PyFloatingPointError::new_err(format!(
                    "the state became non-finite by step {reached} (checked every {k} steps); it is back at step {}, its \
                     last finite state{bodies}",
                    at.map_or("?".to_string(), |s| s.to_string())
                )));
            }
            session.model().checkpoint();
            drop(guard);
            self.let_others_in(py);
            done += k;
            let rate = k as f64 / started.elapsed().as_secs_f64().max(1e-6);
            chunk = ((rate * CHECK_EVERY_S) as u64).clamp(1, 10_000);
        }
        Ok(())
    }

    /// The state as the bytes of a `.npz` file (what `eddy run --save` writes, the parameters
    /// included); `state` in `eddy_fluid/__init__.py` reads them with NumPy.
    fn state_npz<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mut session = self.lock(py);
        let model = session.model_ref();
        let (step, params) = (model.steps_done(), model.params());
        let state = session.model().read_state().map_err(py_error)?;
        let bytes = state.to_npz_bytes(step, Some(&params)).map_err(|e| py_error(e.into()))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Replaces the state by the `.npz` bytes given (`set_state` in `eddy_fluid/__init__.py` writes
    /// them), with the checks of `eddy run --load`: every array's header against the device's
    /// largest texture and the memory before anything is decompressed, then the model's arrays,
    /// shapes, dtypes, finite and non-negative values. The step is the file's `step` when it has
    /// one. A grid of another size than this simulation's is refused unless `resize`.
    #[pyo3(signature = (bytes, resize=false))]
    fn set_state_npz(&self, py: Python<'_>, bytes: Vec<u8>, resize: bool) -> PyResult<()> {
        let mut session = self.lock(py);
        let kind = session.current();
        let name = std::path::Path::new("the state given");
        let limits = memory::read_limits(Some(self.gpu.device.limits().max_texture_dimension_2d));
        let (_, (w, h), _) =
            AnyState::peek_npz_bytes(name, &bytes, Some(kind), limits).map_err(|e| py_error(e.into()))?;
        let extras = memory::Extras { checkpoint: true, frame_scale: None };
        let (info, device_limits) = (self.gpu.adapter.get_info(), self.gpu.device.limits());
        memory::check(kind, (w, h), extras, Some(&info), &device_limits)
            .map_err(|e| PyValueError::new_err(format!("the state given: {e}")))?;
        // Loaded (within those bounds) before the size is compared, so that arrays of two sizes get
        // `eddy run --load`'s message.
        let (state, step) =
            AnyState::load_npz_bytes_within(name, bytes, Some(kind), limits).map_err(|e| py_error(e.into()))?;
        let (h, w) = state.shape();
        let (cw, ch) = session.model_ref().size();
        if !resize && (w, h) != (cw as usize, ch as usize) {
            return Err(PyValueError::new_err(format!(
                "the state given is {w}x{h} cells (arrays of shape ({h}, {w})) and this simulation is {cw}x{ch}: give \
                 arrays of shape ({ch}, {cw}) (H, W), or set_state(state, resize=True) to change the grid"
            )));
        }
        session.replace(&state, step, None).map_err(py_error)
    }

    /// Writes the state to `path` (a `.npz`, written beside it and renamed over it, as
    /// `eddy run --save`).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        if !eddy_fluid::files::has_extension(&path, "npz") {
            return Err(PyValueError::new_err(format!("{}: give a path ending in .npz", path.display())));
        }
        self.lock(py).model().save_npz(&path).map_err(py_error)
    }

    /// The model's parameters: name (underscores for dashes) to value.
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let session = self.lock(py);
        params_dict(py, &session.params_of(session.current()))
    }

    /// Sets parameters by name, with the ranges and messages of the command line; the ones that
    /// move with them move too. Returns the changes, `name before -> after, ...`.
    #[pyo3(signature = (**params))]
    fn set(&self, py: Python<'_>, params: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
        let mut session = self.lock(py);
        let kind = session.current();
        let mut values = Vec::new();
        for (name, value) in params.into_iter().flat_map(|d| d.iter()) {
            let name = name.extract::<String>()?;
            let rows = parse_param(&name, &value)?;
            let Some(&(_, info, value)) = rows.iter().find(|r| r.0 == kind) else {
                return Err(PyValueError::new_err(format!(
                    "{name} is a {} parameter, and this simulation is {kind}",
                    rows[0].0
                )));
            };
            values.push((info.name, value));
        }
        match session.apply(&Action::SetAll(values)).map_err(py_error)? {
            eddy_fluid::model::Done::Set(_, changed) => Ok(eddy_fluid::model::changes(&changed)),
            _ => Ok("no change".to_string()),
        }
    }

    /// The model's default parameters (name to value).
    fn defaults<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        params_dict(py, &ModelParams::defaults(self.lock(py).current()))
    }

    /// Totals and extremes as `eddy run` prints them, computed on the GPU.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let session = self.lock(py);
        let stats = session.model_ref().stats().map_err(gpu_error)?;
        let dict = PyDict::new(py);
        dict.set_item("step", session.model_ref().steps_done())?;
        dict.set_item("total", stats.total())?;
        dict.set_item("non_finite", stats.non_finite())?;
        dict.set_item("kinetic_energy", stats.kinetic_energy())?;
        dict.set_item("divergence", stats.divergence())?;
        if let AnyStats::Smoke(s) = stats {
            dict.set_item("solver_residual", s.solver_residual)?;
            dict.set_item("solver_cycles", s.solver_cycles)?;
            dict.set_item("solver_capped", s.solver_capped)?;
        }
        dict.set_item("line", stats.line())?;
        Ok(dict)
    }

    /// The model's name: `water`, `smoke` or `gas`.
    #[getter]
    fn mode(&self, py: Python<'_>) -> &'static str {
        self.lock(py).current().name()
    }

    /// Steps taken since the state's step 0.
    #[getter]
    fn steps(&self, py: Python<'_>) -> u64 {
        self.lock(py).model_ref().steps_done()
    }

    /// `(W, H)`, cells.
    #[getter]
    fn size(&self, py: Python<'_>) -> (u32, u32) {
        self.lock(py).model_ref().size()
    }

    /// Whether the water sleeps: `True` steps only the tiles where something can change (`eddy
    /// run --sleep`; the same masses to the bit, faster where most of the world is still), for
    /// the water made now and later; the other models step every cell either way.
    #[getter]
    fn sleep(&self, py: Python<'_>) -> bool {
        self.lock(py).sleep()
    }

    #[setter]
    fn set_sleep(&self, py: Python<'_>, sleep: bool) -> PyResult<()> {
        self.lock(py).set_sleep(sleep).map_err(py_error)
    }

    /// The state hash, 64 bits as an int, the same exactly when the state's bits are (`eddy
    /// run` prints it; `eddy_fluid::gpu::state_hash`): water's masses and walls, smoke's fields,
    /// dye and solid bits, gas's density, momentum and wall bits.
    fn state_hash(&self, py: Python<'_>) -> PyResult<u64> {
        self.lock(py).model_ref().state_hash().map_err(gpu_error)
    }

    /// While the water sleeps: `{"awake", "all", "tile"}`, the tiles the next step takes, all
    /// the tiles, and a tile's `(width, height)` in cells (waits for the GPU); `None` while every
    /// cell is stepped.
    fn awake_tiles<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(t) = self.lock(py).model_ref().awake_tiles().map_err(gpu_error)? else { return Ok(None) };
        let dict = PyDict::new(py);
        dict.set_item("awake", t.awake)?;
        dict.set_item("all", t.all)?;
        dict.set_item("tile", t.cells)?;
        Ok(Some(dict))
    }

    /// The picture `eddy run --frames` draws: `(H * scale, W * scale, 3)` uint8 RGB, row 0 at
    /// the top. `field`: one of the model's views (`eddy run --help` lists them; default the one
    /// in use); `colour_map`: a map's name (default the field's own); `look`: `map` (the
    /// default: the field through the colour map) or `styled` (smoke lit and shaded, water as a
    /// surface with foam, gas as a schlieren image; `field` and `colour_map` then do not apply).
    #[pyo3(signature = (field=None, colour_map=None, scale=1, look=None))]
    fn render<'py>(
        &self,
        py: Python<'py>,
        field: Option<&str>,
        colour_map: Option<&str>,
        scale: u32,
        look: Option<&str>,
    ) -> PyResult<Bound<'py, numpy::PyArray3<u8>>> {
        if !(1..=64).contains(&scale) {
            return Err(PyValueError::new_err(format!("scale {scale}: give 1..=64 pixels per cell")));
        }
        let map =
            colour_map.map(eddy_fluid::colour::ColourMap::from_name).transpose().map_err(PyValueError::new_err)?;
        let look = look.map(eddy_fluid::render::Look::from_name).transpose().map_err(PyValueError::new_err)?;
        let (device, queue) = (self.gpu.device.clone(), self.gpu.queue.clone());
        let mut session = self.lock(py);
        let model = session.model();
        let (view, old_map, old_look) = (model.view(), model.colour_map(), model.look());
        model.set_look(look.unwrap_or(old_look));
        if let Some(field) = field {
            model.set_view(field).map_err(|e| PyValueError::new_err(format!("field {e}")))?;
        }
        if let Some(map) = map {
            model.set_colour_map(map);
        }
        let target = eddy_fluid::render::FrameTarget::new(&device, model.size(), scale).map_err(gpu_error);
        let image = target.and_then(|target| {
            target
                .render(&device, &queue, |encoder, view, size| {
                    model.draw(encoder, view, eddy_fluid::render::FrameTarget::FORMAT, size)
                })
                .map_err(gpu_error)
        });
        model.set_view(view).expect("the view it had");
        model.set_colour_map(old_map);
        model.set_look(old_look);
        drop(session);
        let image = image?;
        let (w, h) = (image.width() as usize, image.height() as usize);
        let rgb: Vec<u8> = image.pixels().flat_map(|p| [p.0[0], p.0[1], p.0[2]]).collect();
        use numpy::PyArrayMethods;
        numpy::PyArray1::from_vec(py, rgb).reshape([h, w, 3])
    }

    /// Draws along `points` (an `(N, 2)` float32 array of `(x, y)` in cells, x along a row,
    /// `(c + 0.5, r + 0.5)` the centre of cell `(r, c)`; `stroke` in `eddy_fluid/__init__.py` makes it
    /// from any sequence of pairs) with a viewer tool: `fluid` (the model's left button: pour
    /// water, add smoke, push gas), `wall`, or `erase` (walls and fluid go); one point is a dab.
    /// `radius` (cells): the brush, as the viewer's `[` `]` set it; default the model's. At most
    /// [`eddy_fluid::model::MAX_STROKE_POINTS`] points, as a script's stroke; drawn in chunks with the
    /// GIL let go, Ctrl-C checked between them (the chunks drawn so far stay).
    #[pyo3(signature = (points, tool="fluid", radius=None))]
    fn stroke_points(
        &self,
        py: Python<'_>,
        points: numpy::PyReadonlyArray2<'_, f32>,
        tool: &str,
        radius: Option<f32>,
    ) -> PyResult<()> {
        let Some((tool, erase)) = eddy_fluid::model::tools::Tool::from_name(tool) else {
            return Err(PyValueError::new_err(format!("tool {tool:?} is not one of fluid, wall, erase")));
        };
        let array = points.as_array();
        if array.ncols() != 2 {
            return Err(PyValueError::new_err(format!(
                "points: an array of shape {:?}; give (N, 2): one (x, y) pair a row",
                array.shape()
            )));
        }
        let most = eddy_fluid::model::MAX_STROKE_POINTS;
        if array.nrows() == 0 || array.nrows() > most {
            return Err(PyValueError::new_err(format!(
                "stroke needs 1..={most} points (x, y), as a script's stroke; got {}: split a longer path",
                array.nrows()
            )));
        }
        let points: Vec<(f32, f32)> = array.rows().into_iter().map(|r| (r[0], r[1])).collect();
        if let Some(i) = points.iter().position(|(x, y)| !x.is_finite() || !y.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "point {i} is ({}, {}): a stroke's points must be finite numbers",
                points[i].0, points[i].1
            )));
        }
        if let Some(r) = radius
            && !(r.is_finite() && r > 0.0)
        {
            return Err(PyValueError::new_err(format!("radius {r}: give a number of cells > 0")));
        }
        // Chunks that share their end points: their segments are the whole path's, each once.
        const CHUNK: usize = 1024;
        let mut from = 0;
        loop {
            py.check_signals()?;
            let to = (from + CHUNK).min(points.len() - 1);
            let chunk = points[from..=to].to_vec();
            let mut guard = self.lock(py);
            let session: &mut Session = &mut guard;
            py.detach(|| -> Result<(), Error> {
                let before = session.model_ref().chosen_brush();
                if radius.is_some() {
                    session.apply(&Action::Brush(radius))?;
                }
                let done = session.apply(&Action::Path { tool, erase, points: chunk });
                session.apply(&Action::Brush(before))?;
                done.map(|_| ())
            })
            .map_err(py_error)?;
            drop(guard);
            if to + 1 >= points.len() {
                return Ok(());
            }
            self.let_others_in(py);
            from = to;
        }
    }

    /// The fluid's force and torque on each body over the last step, float32 `(N, 3)`: row `i`
    /// is body `i`'s `[fx, fy, torque]` (force per unit depth in cell masses x cells / time
    /// unit^2, the fluid's density 1 a cell; y down; torque about the body's centre, positive
    /// from x towards y). NaN rows before the first step with bodies. Reads the force log, as
    /// `force_log` does. ValueError where bodies feel no force (smoke on the collocated grid;
    /// water that never had bodies). In water the force is the water's hydrostatic push
    /// (Archimedes), per step^2; in gas the momentum its fluxes carry into the body, per step^2.
    fn forces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray2<f32>>> {
        use numpy::PyArrayMethods;
        let mut session = self.lock(py);
        let model = session.model();
        if !model.logs_forces() {
            return Err(PyValueError::new_err(format!("{} does not log forces on bodies", model.kind())));
        }
        model.read_forces().map_err(gpu_error)?;
        let n = model.bodies().len();
        let last = model.latest_forces();
        let rows = force_rows(last.as_ref().map_or(&[], |s| &s.forces), n);
        numpy::PyArray1::from_vec(py, rows).reshape([n, 3])
    }

    /// Gives smoke's inflow edge `edge` (`"left"`, `"right"`, `"top"` or `"bottom"`) a speed into
    /// the box per face, cells per time unit, from the edge's top (left and right edges: `H`
    /// values) or left end (top and bottom: `W`), and makes the inflow profile `custom`: each
    /// inflow face keeps its speed from then on (a saved state keeps them). ValueError for
    /// another model, an edge that is not an inflow, the wrong count, or a speed outside 0 to
    /// 100; nothing changes then.
    fn set_inflow_profile(&self, py: Python<'_>, edge: &str, speeds: Vec<f32>) -> PyResult<()> {
        use eddy_fluid::smoke::{EdgeKind, GridLayout, InflowProfile};
        let mut session = self.lock(py);
        let ModelParams::Smoke(mut params) = session.params_of(session.current()) else {
            return Err(PyValueError::new_err("set_inflow_profile: inflow profiles are smoke's"));
        };
        let Some(e) = eddy_fluid::edge::EDGE_NAMES.iter().position(|s| *s == edge) else {
            return Err(PyValueError::new_err(format!(
                "set_inflow_profile: {edge:?} is not an edge (left, right, top or bottom)"
            )));
        };
        if params.grid != GridLayout::Staggered || params.edges[e] != EdgeKind::Inflow {
            return Err(PyValueError::new_err(format!(
                "set_inflow_profile: the {edge} edge is not an inflow: make it one first ({edge}_edge=\"inflow\", \
                 on the staggered grid)"
            )));
        }
        let step = session.model_ref().steps_done();
        let AnyState::Smoke(mut state) = session.model().read_state().map_err(py_error)? else {
            return Err(PyValueError::new_err("set_inflow_profile: inflow profiles are smoke's"));
        };
        eddy_fluid::smoke::staggered::set_inflow_profile(&mut state, e, &speeds)
            .map_err(|e| PyValueError::new_err(format!("set_inflow_profile: {e}")))?;
        params.inflow_profile = InflowProfile::Custom;
        session.replace(&AnyState::Smoke(state), step, Some(ModelParams::Smoke(params))).map_err(py_error)
    }

    /// The fluid's forces on the bodies at every step logged since the last read (by this or
    /// `forces`; the log holds the last 256 steps, so read at least that often): `(steps,
    /// forces)`, `steps` int64 `(S,)` the step numbers, `forces` float32 `(S, N, 3)` each step's
    /// `[fx, fy, torque]` per body as `forces()` gives them (NaN for bodies a step did not have).
    /// ValueError as `forces`.
    #[allow(clippy::type_complexity)]
    fn force_log<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, numpy::PyArray1<i64>>, Bound<'py, numpy::PyArray3<f32>>)> {
        use numpy::PyArrayMethods;
        let mut session = self.lock(py);
        let model = session.model();
        if !model.logs_forces() {
            return Err(PyValueError::new_err(format!("{} does not log forces on bodies", model.kind())));
        }
        let logged = model.read_forces().map_err(gpu_error)?;
        let n = logged.iter().map(|s| s.forces.len()).max().unwrap_or(0);
        let steps: Vec<i64> = logged.iter().map(|s| s.step as i64).collect();
        let values: Vec<f32> = logged.iter().flat_map(|s| force_rows(&s.forces, n)).collect();
        let s = steps.len();
        Ok((numpy::PyArray1::from_vec(py, steps), numpy::PyArray1::from_vec(py, values).reshape([s, n, 3])?))
    }

    /// The rigid bodies in the fluid, where the steps run so far leave them: a dict each,
    /// `shape` (`circle` with `radius`, or `box` with `width` and `height`, cells), `x`, `y`
    /// (cells, y down), `angle` (radians), `vx`, `vy` (cells per time unit in smoke, per step in
    /// water and gas), `spin` (radians per time unit, or per step), `free` (whether the fluid
    /// moves it) and `density` (a free body's, times the fluid's; None for a driven one). Free
    /// bodies are read back from the GPU.
    #[getter]
    fn bodies<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let mut session = self.lock(py);
        session.model().sync_bodies().map_err(gpu_error)?;
        session
            .model_ref()
            .bodies()
            .iter()
            .map(|b| {
                let d = PyDict::new(py);
                match b.shape {
                    Shape::Circle { radius } => {
                        d.set_item("shape", "circle")?;
                        d.set_item("radius", decimal(radius))?;
                    }
                    Shape::Box { half_width, half_height } => {
                        d.set_item("shape", "box")?;
                        d.set_item("width", decimal(2.0 * half_width))?;
                        d.set_item("height", decimal(2.0 * half_height))?;
                    }
                }
                for (k, v) in [("x", b.x), ("y", b.y), ("angle", b.angle), ("vx", b.vx), ("vy", b.vy), ("spin", b.spin)]
                {
                    d.set_item(k, decimal(v))?;
                }
                d.set_item("free", b.is_free())?;
                d.set_item("density", b.density.map(decimal))?;
                Ok(d)
            })
            .collect()
    }

    /// Adds a rigid body: `spec` as `eddy run --body` takes it, e.g.
    /// `"circle:x=40,y=32,r=8,vx=0.5"` (`density=` a free body, in smoke, water and gas).
    /// Returns its index. ValueError for a bad spec, more than 16 bodies, a body too fast
    /// ([`eddy_fluid::smoke::MAX_BODY_STEP`], [`eddy_fluid::water::bodies::MAX_BODY_STEP`],
    /// [`eddy_fluid::gas::bodies::MAX_BODY_SPEED`]).
    fn add_body(&self, py: Python<'_>, spec: &str) -> PyResult<usize> {
        let body = Body::parse(spec).map_err(PyValueError::new_err)?;
        let mut session = self.lock(py);
        session.apply(&Action::AddBody(body)).map_err(py_error)?;
        Ok(session.model_ref().bodies().len() - 1)
    }

    /// Gives body `index` a new velocity (`vx`, `vy`, cells per time unit in smoke, per step in
    /// gas) and `spin` (radians per the same); where it is stays. ValueError when there is no
    /// such body, or it would be too fast.
    #[pyo3(signature = (index, vx=0.0, vy=0.0, spin=0.0))]
    fn drive_body(&self, py: Python<'_>, index: usize, vx: f32, vy: f32, spin: f32) -> PyResult<()> {
        let action = Action::Drive { body: index, velocity: (vx, vy), spin };
        self.lock(py).apply(&action).map(|_| ()).map_err(py_error)
    }

    /// Removes body `index` (the later ones move down one). ValueError when there is none.
    fn remove_body(&self, py: Python<'_>, index: usize) -> PyResult<()> {
        self.lock(py).apply(&Action::RemoveBody(index)).map(|_| ()).map_err(py_error)
    }

    /// Smoke on the staggered grid: runs until the velocity changes by less than `tolerance`
    /// of its top speed per time unit (`eddy run --steady`), checked every time unit, or
    /// `max_time` time units pass. Returns `{"reached", "time", "steps", "change"}`.
    #[pyo3(signature = (tolerance=1e-5, max_time=5000.0))]
    fn run_to_steady<'py>(&self, py: Python<'py>, tolerance: f32, max_time: f32) -> PyResult<Bound<'py, PyDict>> {
        let (params, current) = {
            let session = self.lock(py);
            (session.params_of(ModelKind::Smoke), session.current())
        };
        let (Some(Value::Real(dt)), ModelKind::Smoke) = (params.get("dt"), current) else {
            return Err(PyValueError::new_err("run_to_steady compares smoke's velocity over time; this is not smoke"));
        };
        if !(tolerance.is_finite() && tolerance > 0.0 && max_time.is_finite() && max_time > 0.0) {
            return Err(PyValueError::new_err("tolerance and max_time must be numbers > 0"));
        }
        let per_unit = (1.0 / dt).ceil().max(1.0) as u64;
        let elapsed = per_unit as f32 * dt;
        let smoke = |sim: &Self| -> PyResult<eddy_fluid::smoke::SmokeState> {
            match sim.lock(py).model().read_state().map_err(py_error)? {
                AnyState::Smoke(s) => Ok(s),
                _ => Err(PyValueError::new_err("another thread switched this simulation away from smoke")),
            }
        };
        let mut before = smoke(self)?;
        let (mut time, mut steps, mut change) = (0.0f32, 0u64, f32::INFINITY);
        while time < max_time {
            self.step(py, per_unit)?;
            let after = smoke(self)?;
            change = eddy_fluid::smoke::cavity::steady_change(&before, &after, elapsed);
            (time, steps, before) = (time + elapsed, steps + per_unit, after);
            if change < tolerance {
                break;
            }
        }
        let dict = PyDict::new(py);
        dict.set_item("reached", change < tolerance)?;
        dict.set_item("time", time)?;
        dict.set_item("steps", steps)?;
        dict.set_item("change", change)?;
        Ok(dict)
    }

    /// Smoke on the staggered grid, a cavity: `u` on the vertical and `v` (up) on the horizontal
    /// centreline at the 15 interior points of Ghia, Ghia & Shin (1982) Tables I and II, in units
    /// of the lid speed: `{"u": [(y, ghia, eddy), ...], "v": [(x, ghia, eddy), ...]}`
    /// (`eddy_fluid::smoke::cavity`; coordinates in units of the cavity's side, y up).
    fn cavity_profiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let mut session = self.lock(py);
        let lid = match session.params_of(ModelKind::Smoke).get("lid") {
            Some(Value::Real(lid)) if lid != 0.0 => lid,
            _ => return Err(PyValueError::new_err("cavity_profiles needs smoke with a moving lid (--scene cavity)")),
        };
        let state = match session.model().read_state().map_err(py_error)? {
            AnyState::Smoke(s) if s.velocity_x.shape().1 == s.shape().1 + 1 => s,
            _ => {
                return Err(PyValueError::new_err(
                    "cavity_profiles needs smoke on the staggered grid (--scene cavity)",
                ));
            }
        };
        let dict = PyDict::new(py);
        for (name, points) in [
            ("u", eddy_fluid::smoke::cavity::u_profile(&state, lid)),
            ("v", eddy_fluid::smoke::cavity::v_profile(&state, lid)),
        ] {
            let rows: Vec<(f32, f32, f32)> = points.iter().map(|p| (p.at, p.ghia, p.eddy)).collect();
            dict.set_item(name, rows)?;
        }
        Ok(dict)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let session = self.lock(py);
        let (w, h) = session.model_ref().size();
        format!(
            "eddy_fluid.Simulation({}, {w}x{h} cells, step {})",
            session.current(),
            session.model_ref().steps_done()
        )
    }
}

/// The adapter eddy would run on: `{"name", "backend", "device_type"}`.
#[pyfunction]
fn adapter<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let gpu = Gpu::headless().map_err(gpu_error)?;
    let info = gpu.adapter.get_info();
    let dict = PyDict::new(py);
    dict.set_item("name", info.name)?;
    dict.set_item("backend", format!("{:?}", info.backend))?;
    dict.set_item("device_type", format!("{:?}", info.device_type))?;
    Ok(dict)
}

/// Every model's parameter table: `{model: [{"name", "symbol", "unit", "allowed", "default",
/// "help", "source"}, ...]}`.
#[pyfunction]
fn models<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    for kind in ModelKind::ALL {
        let defaults = ModelParams::defaults(kind);
        let rows = PyList::empty(py);
        for info in kind.params() {
            let row = PyDict::new(py);
            let default = defaults.get(info.name).expect("a row of this model");
            row.set_item("name", info.name.replace('-', "_"))?;
            row.set_item("symbol", info.symbol)?;
            row.set_item("unit", info.unit)?;
            row.set_item("allowed", info.allowed())?;
            row.set_item("default", py_value(py, info, default)?)?;
            row.set_item("help", info.help(default))?;
            row.set_item("source", info.source)?;
            rows.append(row)?;
        }
        out.set_item(kind.name(), rows)?;
    }
    Ok(out)
}

#[pymodule]
fn _eddy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Simulation>()?;
    m.add_function(wrap_pyfunction!(adapter, m)?)?;
    m.add_function(wrap_pyfunction!(models, m)?)?;
    m.add("GpuError", m.py().get_type::<GpuError>())?;
    Ok(())
}
