//! Scenes (what a run starts from) and state files.
//!
//! - **PNG scenes** ([`Scene::from_png`]): one pixel per cell, row 0 at the top; black
//!   `(0,0,0)` = solid, blue `(0,0,255)` = fluid (water of mass 1.0 in `water`, dense gas in
//!   `gas`), white `(255,255,255)` = empty, and where the mode has sources ([`Colours::WithSources`]:
//!   `gas`) red `(255,0,0)` = source. A pixel counts as one of these when each channel is within
//!   [`COLOUR_TOLERANCE`] of it (anti-aliased drawings); any other colour is an error naming the
//!   first such pixel.
//! - **Presets** ([`Scene::preset`]): built-in scenes by name, [`PRESETS`].
//! - **`.npz` state** ([`Npz`], [`NpzReader`]): NumPy archives of float32 `(H, W)` fields and a
//!   uint8 `(H, W)` solid mask, row 0 at the top, loadable with `numpy.load`.

use crate::grid::Grid;
use std::fmt;
use std::path::{Path, PathBuf};

/// How far (per channel, 0..=255) a pixel may be from a scene colour and still count as it.
pub const COLOUR_TOLERANCE: u8 = 32;

/// Built-in scene names, usable wherever a scene is asked for (each made for one mode, usable
/// in any).
pub const PRESETS: &[(&str, &str)] = &[
    ("basin", "water: a block of water falling into a container with an obstacle in it"),
    ("u-tube", "water: communicating vessels, water in the left arm of a U-tube"),
    ("random", "water: Elsts-style random map, scattered ground and water cells (seeded)"),
    ("explosion", "gas: a dense blob in the middle of a closed room with some walls"),
    ("wind", "gas: a channel with obstacles, wind blown in from sources on the left, out on the right"),
    ("plume", "smoke: a closed box, a round obstacle in the middle, a hot smoke source at the bottom centre"),
];

/// Default size of presets, `(W, H)` cells.
pub const DEFAULT_PRESET_SIZE: (usize, usize) = (192, 128);

/// An error reading or writing a scene or state file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SceneError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not a readable PNG.
    #[error("{}: not a readable PNG image ({source})", path.display())]
    Image {
        /// The file.
        path: PathBuf,
        /// The decoder's error.
        source: image::ImageError,
    },
    /// A pixel whose colour is none of the scene colours.
    #[error(
        "{}: pixel (x={x}, y={y}) has colour ({}, {}, {}), which is not a scene colour; use {allowed}",
        path.display(), rgb[0], rgb[1], rgb[2]
    )]
    UnknownColour {
        /// The file.
        path: PathBuf,
        /// Column of the pixel (0 = left).
        x: u32,
        /// Row of the pixel (0 = top).
        y: u32,
        /// Its colour.
        rgb: [u8; 3],
        /// The colours this mode accepts.
        allowed: &'static str,
    },
    /// Neither a file nor a preset of that name exists.
    #[error("no scene file or preset named {name:?}; presets are: {}", preset_names())]
    UnknownScene {
        /// The name given.
        name: String,
    },
    /// A size with a zero side (or one too large to allocate).
    #[error("scene size {width}x{height} is not usable: {reason}")]
    BadSize {
        /// Columns asked for.
        width: usize,
        /// Rows asked for.
        height: usize,
        /// Why not.
        reason: &'static str,
    },
    /// An `.npz` file that cannot be read as one.
    #[error("{}: not a readable .npz archive ({message})", path.display())]
    Npz {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A required array is missing from an `.npz`.
    #[error("{}: array {name:?} is missing (arrays present: {present})", path.display())]
    MissingArray {
        /// The file.
        path: PathBuf,
        /// The array expected.
        name: &'static str,
        /// Names found instead.
        present: String,
    },
    /// An array of the wrong dtype, rank or order.
    #[error("{}: array {name:?}: {message}", path.display())]
    BadArray {
        /// The file.
        path: PathBuf,
        /// The array.
        name: &'static str,
        /// What is wrong and what is expected.
        message: String,
    },
    /// Two arrays of one state with different shapes.
    #[error("{}: array {a:?} has shape {a_shape:?} but {b:?} has {b_shape:?}; they must match", path.display())]
    ShapeMismatch {
        /// The file.
        path: PathBuf,
        /// First array.
        a: &'static str,
        /// Its `(H, W)`.
        a_shape: (usize, usize),
        /// Second array.
        b: &'static str,
        /// Its `(H, W)`.
        b_shape: (usize, usize),
    },
    /// A value that the model cannot start from (NaN, infinite, negative mass).
    #[error("{}: {array}[{row}, {col}] = {value}: {expected}", path.display())]
    BadValue {
        /// The file.
        path: PathBuf,
        /// The array.
        array: &'static str,
        /// Row of the first bad cell (0 = top).
        row: usize,
        /// Column of the first bad cell.
        col: usize,
        /// Its value.
        value: f32,
        /// What values are allowed.
        expected: &'static str,
    },
}

fn preset_names() -> String {
    PRESETS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// A scene: solid mask, where the fluid starts, and sources; all `(H, W)`, row 0 at the top.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// 1 = solid, 0 = open.
    pub solid: Grid<u8>,
    /// Where the scene puts fluid (0..=1; 0 in solid cells): water of that mass in `water`,
    /// dense gas in `gas`.
    pub fluid: Grid<f32>,
    /// 1 = a source cell (gas: a fan that blows wind), 0 elsewhere.
    pub source: Grid<u8>,
}

/// Which colours a PNG scene may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colours {
    /// Black = solid, blue = fluid, white = empty (`water`).
    Plain,
    /// Also red = source (`gas`).
    WithSources,
}

/// What a `--scene` argument names.
#[derive(Clone, Debug, PartialEq)]
pub enum SceneSource {
    /// A built-in preset, by name.
    Preset(String),
    /// A PNG file.
    Png(PathBuf),
}

impl SceneSource {
    /// A path that exists (or ends in `.png`) is a file; otherwise a known preset name.
    ///
    /// # Errors
    /// [`SceneError::UnknownScene`] when it is neither.
    pub fn parse(s: &str) -> Result<Self, SceneError> {
        let path = Path::new(s);
        if path.exists() || s.to_ascii_lowercase().ends_with(".png") {
            Ok(SceneSource::Png(path.to_path_buf()))
        } else if PRESETS.iter().any(|(n, _)| *n == s) {
            Ok(SceneSource::Preset(s.to_string()))
        } else {
            Err(SceneError::UnknownScene { name: s.to_string() })
        }
    }
}

impl fmt::Display for SceneSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneSource::Preset(n) => write!(f, "preset {n}"),
            SceneSource::Png(p) => write!(f, "{}", p.display()),
        }
    }
}

/// The scene colours, in the order they are tried.
const PALETTE: [([u8; 3], Cell); 4] =
    [([0, 0, 0], Cell::Solid), ([0, 0, 255], Cell::Fluid), ([255, 255, 255], Cell::Empty), ([255, 0, 0], Cell::Source)];

#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Solid,
    Fluid,
    Empty,
    Source,
}

impl Scene {
    /// An empty `width x height` scene.
    ///
    /// # Errors
    /// [`SceneError::BadSize`] when a side is 0.
    pub fn empty(width: usize, height: usize) -> Result<Self, SceneError> {
        if width == 0 || height == 0 {
            return Err(SceneError::BadSize { width, height, reason: "each side must be at least 1 cell" });
        }
        Ok(Self {
            solid: Grid::filled(width, height, 0),
            fluid: Grid::filled(width, height, 0.0),
            source: Grid::filled(width, height, 0),
        })
    }

    /// Loads `source`; presets are built at `size` `(W, H)` cells with `seed` (for `random`).
    ///
    /// # Errors
    /// As [`Scene::from_png`] and [`Scene::preset`].
    pub fn load(source: &SceneSource, size: (usize, usize), seed: u64, colours: Colours) -> Result<Self, SceneError> {
        match source {
            SceneSource::Preset(name) => Self::preset(name, size.0, size.1, seed),
            SceneSource::Png(path) => Self::from_png(path, colours),
        }
    }

    /// Reads a PNG scene; its size is the image's size (one pixel per cell).
    ///
    /// # Errors
    /// [`SceneError::Io`] / [`SceneError::Image`] when the file is missing or not a PNG,
    /// [`SceneError::UnknownColour`] naming the first pixel (row-major from the top left) whose
    /// colour is not a scene colour.
    pub fn from_png(path: &Path, colours: Colours) -> Result<Self, SceneError> {
        let (palette, allowed): (&[([u8; 3], Cell)], _) = match colours {
            Colours::Plain => {
                (&PALETTE[..3], "black (0,0,0) = solid, blue (0,0,255) = fluid, white (255,255,255) = empty")
            }
            Colours::WithSources => (
                &PALETTE[..],
                "black (0,0,0) = solid, blue (0,0,255) = fluid, white (255,255,255) = empty, red (255,0,0) = source",
            ),
        };
        let bytes = std::fs::read(path).map_err(|source| SceneError::Io { path: path.to_path_buf(), source })?;
        let img = image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
            .map_err(|source| SceneError::Image { path: path.to_path_buf(), source })?
            .to_rgb8();
        let (w, h) = img.dimensions();
        let mut scene = Self::empty(w as usize, h as usize)?;
        for (x, y, px) in img.enumerate_pixels() {
            let cell = palette
                .iter()
                .find(|(c, _)| c.iter().zip(px.0).all(|(&a, b)| a.abs_diff(b) <= COLOUR_TOLERANCE))
                .map(|&(_, cell)| cell)
                .ok_or(SceneError::UnknownColour { path: path.to_path_buf(), x, y, rgb: px.0, allowed })?;
            let at = (y as usize, x as usize);
            match cell {
                Cell::Solid => scene.solid[at] = 1,
                Cell::Fluid => scene.fluid[at] = 1.0,
                Cell::Source => scene.source[at] = 1,
                Cell::Empty => {}
            }
        }
        Ok(scene)
    }

    /// A built-in scene ([`PRESETS`]) at `width x height` cells; `seed` drives `random`.
    ///
    /// # Errors
    /// [`SceneError::UnknownScene`] for an unknown name, [`SceneError::BadSize`] for a zero side.
    pub fn preset(name: &str, width: usize, height: usize, seed: u64) -> Result<Self, SceneError> {
        let mut s = Self::empty(width, height)?;
        let (w, h) = (width as f32, height as f32);
        let col = |f: f32| ((f * w) as usize).min(width);
        let row = |f: f32| ((f * h) as usize).min(height);
        match name {
            "basin" => {
                // Container: two walls and a floor, open at the top; an obstacle inside.
                s.fill_solid(row(0.45)..height, col(0.12)..col(0.12) + 2);
                s.fill_solid(row(0.45)..height, col(0.88).saturating_sub(2)..col(0.88));
                s.fill_solid(height.saturating_sub(2)..height, col(0.12)..col(0.88));
                s.fill_solid(row(0.72)..row(0.8), col(0.45)..col(0.55));
                s.fill_fluid(row(0.04)..row(0.34), col(0.22)..col(0.52), 1.0);
            }
            "u-tube" => {
                // Solid everywhere but two arms joined by a channel at the bottom.
                s.fill_solid(0..height, 0..width);
                let (l0, l1) = (col(0.15), col(0.35));
                let (r0, r1) = (col(0.65), col(0.85));
                let (c0, c1) = (row(0.72), row(0.9));
                s.clear_solid(row(0.05)..c1, l0..l1);
                s.clear_solid(row(0.05)..c1, r0..r1);
                s.clear_solid(c0..c1, l0..r1);
                s.fill_fluid(row(0.25)..c1, l0..l1, 1.0);
                s.fill_fluid(c0..c1, l1..r1, 1.0);
            }
            "random" => {
                // After Elsts' random map: each cell ground (1/8), water (1/4) or air.
                let mut rng = fastrand::Rng::with_seed(seed);
                for r in 0..height {
                    for c in 0..width {
                        let u = rng.f32();
                        if u < 0.125 {
                            s.solid[(r, c)] = 1;
                        } else if u < 0.375 {
                            s.fluid[(r, c)] = 1.0;
                        }
                    }
                }
            }
            "explosion" => {
                // A closed room (the grid edge) with four wall segments and a dense blob in the
                // middle.
                let (t, b) = (row(0.2), row(0.8));
                let (l, r) = (col(0.2), col(0.8));
                s.fill_solid(t..t + 2, l..col(0.4));
                s.fill_solid(b - 2..b, col(0.6)..r);
                s.fill_solid(row(0.55)..row(0.8), l..l + 2);
                s.fill_solid(t..row(0.45), r - 2..r);
                s.fill_disc((w * 0.5, h * 0.5), w.min(h) * 0.12, 1.0);
            }
            "wind" => {
                // A channel: walls top and bottom, a round obstacle and two plates downstream.
                // Source columns at both ends hold ambient gas moving at the wind velocity: an
                // inflow on the left, and on the right an outflow that keeps the mass bounded.
                s.fill_solid(0..2, 0..width);
                s.fill_solid(height.saturating_sub(2)..height, 0..width);
                s.for_each(2..height.saturating_sub(2), 0..2, |s, at| s.source[at] = 1);
                s.for_each(2..height.saturating_sub(2), width.saturating_sub(2)..width, |s, at| s.source[at] = 1);
                s.fill_solid_disc((w * 0.3, h * 0.5), h * 0.14);
                s.fill_solid(row(0.2)..row(0.45), col(0.6)..col(0.6) + 2);
                s.fill_solid(row(0.6)..row(0.85), col(0.75)..col(0.75) + 2);
            }
            "plume" => return Self::plume(width, height, w / 8.0),
            _ => return Err(SceneError::UnknownScene { name: name.to_string() }),
        }
        Ok(s)
    }

    /// The smoke model's default scene, after Rideout's and Joyce's: a closed box (the grid's
    /// edge), a round obstacle of radius `W / 10` centred in it, and a source at the bottom
    /// centre: the cells within `splat_radius` (cells; Rideout's `SplatRadius`, `W / 8`) of the
    /// point `splat_radius / 2` below the middle of the bottom edge (Rideout's
    /// `ImpulsePosition`), a cap `splat_radius / 2` rows high.
    ///
    /// # Errors
    /// [`SceneError::BadSize`] for a zero side.
    pub fn plume(width: usize, height: usize, splat_radius: f32) -> Result<Self, SceneError> {
        let mut s = Self::empty(width, height)?;
        let (w, h) = (width as f32, height as f32);
        s.fill_solid_disc((w * 0.5, h * 0.5), w * 0.1);
        s.for_disc((w * 0.5, h + splat_radius * 0.5), splat_radius, |s, at| {
            if s.solid[at] == 0 {
                s.source[at] = 1;
            }
        });
        Ok(s)
    }

    /// Makes the cells in `rows x cols` solid (no fluid, no source).
    pub fn fill_solid(&mut self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) {
        self.for_each(rows, cols, |s, at| {
            s.solid[at] = 1;
            s.fluid[at] = 0.0;
            s.source[at] = 0;
        });
    }

    /// Makes the cells whose centres lie in the disc (`center` = `(col, row)`, cells) solid.
    pub fn fill_solid_disc(&mut self, center: (f32, f32), radius: f32) {
        self.for_disc(center, radius, |s, at| {
            s.solid[at] = 1;
            s.fluid[at] = 0.0;
            s.source[at] = 0;
        });
    }

    /// Sets the fluid of the open cells whose centres lie in the disc to `amount`.
    pub fn fill_disc(&mut self, center: (f32, f32), radius: f32, amount: f32) {
        self.for_disc(center, radius, |s, at| {
            if s.solid[at] == 0 {
                s.fluid[at] = amount;
            }
        });
    }

    fn for_disc(&mut self, center: (f32, f32), radius: f32, mut f: impl FnMut(&mut Self, (usize, usize))) {
        let (h, w) = self.solid.shape();
        for r in 0..h {
            for c in 0..w {
                let (dx, dy) = (c as f32 + 0.5 - center.0, r as f32 + 0.5 - center.1);
                if dx * dx + dy * dy <= radius * radius {
                    f(self, (r, c));
                }
            }
        }
    }

    /// Makes the cells in `rows x cols` open.
    pub fn clear_solid(&mut self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) {
        self.for_each(rows, cols, |s, at| s.solid[at] = 0);
    }

    /// Sets the fluid of the open cells in `rows x cols` to `amount`.
    pub fn fill_fluid(&mut self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>, amount: f32) {
        self.for_each(rows, cols, |s, at| {
            if s.solid[at] == 0 {
                s.fluid[at] = amount;
            }
        });
    }

    fn for_each(
        &mut self,
        rows: std::ops::Range<usize>,
        cols: std::ops::Range<usize>,
        mut f: impl FnMut(&mut Self, (usize, usize)),
    ) {
        let (h, w) = self.solid.shape();
        for r in rows.start.min(h)..rows.end.min(h) {
            for c in cols.start.min(w)..cols.end.min(w) {
                f(self, (r, c));
            }
        }
    }
}

/// Fails unless the two named `(H, W)` shapes are equal.
///
/// # Errors
/// [`SceneError::ShapeMismatch`].
pub fn check_same_shape(
    path: &Path,
    a: (&'static str, (usize, usize)),
    b: (&'static str, (usize, usize)),
) -> Result<(), SceneError> {
    if a.1 != b.1 {
        return Err(SceneError::ShapeMismatch { path: path.to_path_buf(), a: a.0, a_shape: a.1, b: b.0, b_shape: b.1 });
    }
    Ok(())
}

/// Fails at the first cell (row-major) that is NaN, infinite or negative.
///
/// # Errors
/// [`SceneError::BadValue`].
pub fn check_finite_non_negative(path: &Path, array: &'static str, grid: &Grid<f32>) -> Result<(), SceneError> {
    check_cells(path, array, grid, |v| v.is_finite() && v >= 0.0, "must be finite and >= 0")
}

/// Fails at the first cell (row-major) that is NaN or infinite.
///
/// # Errors
/// [`SceneError::BadValue`].
pub fn check_finite(path: &Path, array: &'static str, grid: &Grid<f32>) -> Result<(), SceneError> {
    check_cells(path, array, grid, f32::is_finite, "must be finite")
}

fn check_cells(
    path: &Path,
    array: &'static str,
    grid: &Grid<f32>,
    ok: impl Fn(f32) -> bool,
    expected: &'static str,
) -> Result<(), SceneError> {
    match grid.as_slice().iter().position(|&v| !ok(v)) {
        None => Ok(()),
        Some(i) => Err(SceneError::BadValue {
            path: path.to_path_buf(),
            array,
            row: i / grid.width(),
            col: i % grid.width(),
            value: grid.as_slice()[i],
            expected,
        }),
    }
}

/// Writes a NumPy `.npz` archive of `(H, W)` arrays (C order, row 0 first).
pub struct Npz {
    path: PathBuf,
    zip: npyz::npz::NpzWriter<std::io::BufWriter<std::fs::File>>,
}

impl Npz {
    /// Creates (or truncates) `path`.
    ///
    /// # Errors
    /// [`SceneError::Io`].
    pub fn create(path: &Path) -> Result<Self, SceneError> {
        let zip =
            npyz::npz::NpzWriter::create(path).map_err(|source| SceneError::Io { path: path.to_path_buf(), source })?;
        Ok(Self { path: path.to_path_buf(), zip })
    }

    fn io(&self, source: impl Into<std::io::Error>) -> SceneError {
        SceneError::Io { path: self.path.clone(), source: source.into() }
    }

    fn write<T: npyz::AutoSerialize + Copy>(
        &mut self,
        name: &str,
        shape: &[u64],
        data: &[T],
    ) -> Result<(), SceneError> {
        use npyz::WriterBuilder;
        let result = (|| {
            let mut w = self.zip.array::<T>(name, Default::default())?.default_dtype().shape(shape).begin_nd()?;
            w.extend(data.iter().copied())?;
            w.finish()
        })();
        result.map_err(|e| self.io(e))
    }

    /// Adds a float32 `(H, W)` array.
    ///
    /// # Errors
    /// [`SceneError::Io`].
    pub fn write_f32(&mut self, name: &str, grid: &Grid<f32>) -> Result<(), SceneError> {
        let (h, w) = grid.shape();
        self.write(name, &[h as u64, w as u64], grid.as_slice())
    }

    /// Adds a float32 `(H, W, C)` array from `C` `(H, W)` components (e.g. a velocity field).
    ///
    /// # Errors
    /// [`SceneError::Io`].
    pub fn write_f32_components(&mut self, name: &str, components: &[&Grid<f32>]) -> Result<(), SceneError> {
        let (h, w) = components[0].shape();
        let data: Vec<f32> = (0..h * w).flat_map(|i| components.iter().map(move |g| g.as_slice()[i])).collect();
        self.write(name, &[h as u64, w as u64, components.len() as u64], &data)
    }

    /// Adds a uint8 `(H, W)` array.
    ///
    /// # Errors
    /// [`SceneError::Io`].
    pub fn write_u8(&mut self, name: &str, grid: &Grid<u8>) -> Result<(), SceneError> {
        let (h, w) = grid.shape();
        self.write(name, &[h as u64, w as u64], grid.as_slice())
    }

    /// Finishes the archive and flushes it to disk.
    ///
    /// # Errors
    /// [`SceneError::Io`].
    pub fn finish(mut self) -> Result<(), SceneError> {
        use std::io::Write;
        let mut file = self.zip.zip_writer().finish().map_err(|e| self.io(std::io::Error::other(e)))?;
        file.flush().map_err(|e| self.io(e))
    }
}

/// Reads `(H, W)` arrays from a NumPy `.npz` archive.
pub struct NpzReader {
    path: PathBuf,
    archive: npyz::npz::NpzArchive<std::io::BufReader<std::fs::File>>,
}

impl NpzReader {
    /// Opens `path`.
    ///
    /// # Errors
    /// [`SceneError::Io`] when missing, [`SceneError::Npz`] when not a zip archive.
    pub fn open(path: &Path) -> Result<Self, SceneError> {
        let p = path.to_path_buf();
        let archive = npyz::npz::NpzArchive::open(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => SceneError::Npz { path: p.clone(), message: e.to_string() },
            _ => SceneError::Io { path: p.clone(), source: e },
        })?;
        Ok(Self { path: p, archive })
    }

    /// Reads array `name`, which must have shape `(H, W)` (`components` = `None`) or
    /// `(H, W, C)` (`Some(C)`); `None` when absent. `read` turns the data (given the dtype
    /// string, e.g. `<f4`) into `T`, or says it cannot. Returns `(W, H, data)`.
    fn read_array<T>(
        &mut self,
        name: &'static str,
        components: Option<u64>,
        expected: &str,
        read: impl FnOnce(npyz::NpyFile<npyz::zip::read::ZipFile<'_>>, &str) -> Option<std::io::Result<Vec<T>>>,
    ) -> Result<Option<(usize, usize, Vec<T>)>, SceneError> {
        let path = self.path.clone();
        let npz_err = |e: std::io::Error| SceneError::Npz { path: path.clone(), message: e.to_string() };
        let bad = |message: String| SceneError::BadArray { path: path.clone(), name, message };
        let Some(npy) = self.archive.by_name(name).map_err(npz_err)? else { return Ok(None) };
        let shape = npy.shape().to_vec();
        let rank_ok = match components {
            None => shape.len() == 2,
            Some(c) => shape.len() == 3 && shape[2] == c,
        };
        if !rank_ok {
            let want = components.map_or("(H, W)".to_string(), |c| format!("(H, W, {c})"));
            return Err(bad(format!("has shape {shape:?}; expected {want}")));
        }
        if npy.order() != npyz::Order::C {
            return Err(bad("is in Fortran order; save it with numpy.ascontiguousarray".into()));
        }
        let dtype = match npy.dtype() {
            npyz::DType::Plain(t) => t.to_string(), // e.g. `<f4`
            other => other.descr(),
        };
        let data = read(npy, &dtype)
            .ok_or_else(|| bad(format!("has dtype {dtype}; expected {expected}")))?
            .map_err(npz_err)?;
        let (h, w) = (shape[0] as usize, shape[1] as usize);
        if data.len() != h * w * components.unwrap_or(1) as usize {
            return Err(bad("is truncated".into()));
        }
        Ok(Some((w, h, data)))
    }

    fn read_f32_array(
        &mut self,
        name: &'static str,
        components: Option<u64>,
    ) -> Result<Option<(usize, usize, Vec<f32>)>, SceneError> {
        self.read_array(name, components, "float32", |npy, dtype| match dtype {
            "<f4" => Some(npy.into_vec::<f32>()),
            "<f8" => Some(npy.into_vec::<f64>().map(|v| v.into_iter().map(|x| x as f32).collect())),
            _ => None,
        })
    }

    fn names(&self) -> String {
        self.archive.array_names().collect::<Vec<_>>().join(", ")
    }

    /// Reads float32 (or float64, converted) array `name`, `(H, W)`.
    ///
    /// # Errors
    /// [`SceneError::MissingArray`], [`SceneError::BadArray`] (wrong rank, dtype or order),
    /// [`SceneError::Npz`] (corrupt data).
    pub fn read_f32(&mut self, name: &'static str) -> Result<Grid<f32>, SceneError> {
        match self.read_f32_array(name, None)? {
            Some((w, h, data)) => Ok(Grid::from_vec(w, h, data).expect("size checked")),
            None => Err(SceneError::MissingArray { path: self.path.clone(), name, present: self.names() }),
        }
    }

    /// Reads float32 (or float64) array `name`, `(H, W)`; `None` when absent.
    ///
    /// # Errors
    /// As [`NpzReader::read_f32`].
    pub fn read_f32_opt(&mut self, name: &'static str) -> Result<Option<Grid<f32>>, SceneError> {
        Ok(self.read_f32_array(name, None)?.map(|(w, h, data)| Grid::from_vec(w, h, data).expect("size checked")))
    }

    /// Reads float32 (or float64) array `name` of shape `(H, W, C)` as `C` `(H, W)` grids;
    /// `None` when absent.
    ///
    /// # Errors
    /// As [`NpzReader::read_f32`].
    pub fn read_f32_components_opt(
        &mut self,
        name: &'static str,
        c: usize,
    ) -> Result<Option<Vec<Grid<f32>>>, SceneError> {
        Ok(self.read_f32_array(name, Some(c as u64))?.map(|(w, h, data)| {
            (0..c)
                .map(|k| Grid::from_vec(w, h, data.iter().skip(k).step_by(c).copied().collect()).expect("size"))
                .collect()
        }))
    }

    /// Reads an integer or bool mask `name` as u8 (non-zero = 1); `None` when absent.
    ///
    /// # Errors
    /// As [`NpzReader::read_f32`].
    pub fn read_u8_opt(&mut self, name: &'static str) -> Result<Option<Grid<u8>>, SceneError> {
        fn ones<T: PartialEq + Default>(v: Vec<T>) -> Vec<u8> {
            v.into_iter().map(|x| (x != T::default()) as u8).collect()
        }
        let array = self.read_array(name, None, "uint8 or bool", |npy, dtype| match dtype {
            "|u1" => Some(npy.into_vec::<u8>().map(ones)),
            "|b1" => Some(npy.into_vec::<bool>().map(ones)),
            "|i1" => Some(npy.into_vec::<i8>().map(ones)),
            "<i4" => Some(npy.into_vec::<i32>().map(ones)),
            "<i8" => Some(npy.into_vec::<i64>().map(ones)),
            _ => None,
        })?;
        Ok(array.map(|(w, h, data)| Grid::from_vec(w, h, data).expect("size checked")))
    }
}
