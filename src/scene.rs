//! Scenes (what a run starts from) and state files.
//!
//! - **PNG scenes** ([`Scene::from_png`]): one pixel per cell, row 0 at the top; black
//!   `(0,0,0)` = solid, blue `(0,0,255)` = fluid (water of mass 1.0 in `water`, dense gas in
//!   `gas`), white `(255,255,255)` = empty, and where the mode has sources ([`Colours::WithSources`]:
//!   `gas`) red `(255,0,0)` = source. A pixel counts as one of these when each channel is within
//!   [`COLOUR_TOLERANCE`] of it (anti-aliased drawings); any other colour is an error naming the
//!   first such pixel. A pixel with alpha below 128 is empty whatever its colour (drawing
//!   programs export transparent areas as transparent black).
//! - **Presets** ([`Scene::preset`]): built-in scenes by name, each listed by the model it is
//!   made for ([`crate::model::ModelInfo::presets`]).
//! - **`.npz` state** (feature `npz`): see `eddy_fluid::npz` (`Npz`, `NpzReader`).

use crate::grid::Grid;
use std::fmt;
use std::path::{Path, PathBuf};

/// How far (per channel, 0..=255) a pixel may be from a scene colour and still count as it.
pub const COLOUR_TOLERANCE: u8 = 32;

/// Default size of presets, `(W, H)` cells.
pub const DEFAULT_PRESET_SIZE: (usize, usize) = (192, 128);

/// Largest side of a PNG scene, pixels: no wgpu adapter allows a larger 2D texture (the
/// largest `max_texture_dimension_2d` there is; lavapipe's is 16384). Water takes scenes four
/// times as wide and as tall ([`crate::water::packed_world::largest`]).
pub const MAX_SIDE: u32 = 32768;

/// The longest PNG scene file read, bytes (256 MiB): a scene of flat colours at [`MAX_SIDE`]
/// squared compresses to a few MB, so only something else is refused. Decoding then takes about
/// ten bytes a pixel, and only for an image whose header says it fits and whose file could hold
/// it.
pub const MAX_PNG_BYTES: u64 = 256 << 20;

/// The built-in scenes [`Scene::preset`] draws; which model each is made for is the registry's
/// to say ([`crate::model::ModelInfo::presets`], which a test keeps equal to this list).
pub const PRESETS: &[&str] =
    &["basin", "u-tube", "random", "explosion", "wind", "tunnel", "plume", "cavity", "channel", "clear"];

pub use crate::files::SceneError;

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

impl fmt::Display for SceneSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneSource::Preset(n) => write!(f, "preset {n}"),
            SceneSource::Png(p) => write!(f, "{}", p.display()),
        }
    }
}

/// The scene colours, in the order they are tried.
#[cfg(feature = "png")]
const PALETTE: [([u8; 3], Cell); 4] =
    [([0, 0, 0], Cell::Solid), ([0, 0, 255], Cell::Fluid), ([255, 255, 255], Cell::Empty), ([255, 0, 0], Cell::Source)];

#[derive(Clone, Copy, PartialEq)]
#[cfg(feature = "png")]
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
    /// [`SceneError::Io`] / `SceneError::Image` when the file is missing or not a PNG,
    /// [`SceneError::UnknownColour`] naming the first pixel (row-major from the top left) whose
    /// colour is not a scene colour; [`SceneError::FeatureOff`] in a build without the `png`
    /// feature.
    pub fn from_png(path: &Path, colours: Colours) -> Result<Self, SceneError> {
        let bytes = crate::files::read_bounded(path, MAX_PNG_BYTES, "a PNG file (or a preset name)")
            .map_err(|source| SceneError::Io { path: path.to_path_buf(), source })?;
        Self::from_png_bytes(path, &bytes, colours)
    }

    /// [`Scene::from_png`] of a PNG's bytes (a file picked or dropped in a browser); `name` is
    /// what errors call it.
    ///
    /// # Errors
    /// [`SceneError::FeatureOff`]: this build has no `png` feature.
    #[cfg(not(feature = "png"))]
    pub fn from_png_bytes(name: &Path, _bytes: &[u8], _colours: Colours) -> Result<Self, SceneError> {
        Err(SceneError::FeatureOff { path: name.to_path_buf(), what: "PNG scenes", feature: "png" })
    }

    /// [`Scene::from_png`] of a PNG's bytes (a file picked or dropped in a browser); `name` is
    /// what errors call it.
    ///
    /// # Errors
    /// [`SceneError::Image`] when not a PNG, [`SceneError::UnknownColour`] as [`Scene::from_png`].
    #[cfg(feature = "png")]
    pub fn from_png_bytes(name: &Path, bytes: &[u8], colours: Colours) -> Result<Self, SceneError> {
        let path = name;
        let (palette, allowed): (&[([u8; 3], Cell)], _) = match colours {
            Colours::Plain => (
                &PALETTE[..3],
                "black (0,0,0) = solid, blue (0,0,255) = fluid, white (255,255,255) = empty \
                     (red = a source is for smoke and gas)",
            ),
            Colours::WithSources => (
                &PALETTE[..],
                "black (0,0,0) = solid, blue (0,0,255) = fluid, white (255,255,255) = empty, red (255,0,0) = source",
            ),
        };
        let image_error = |source| SceneError::Image { path: path.to_path_buf(), source };
        let reader = || image::ImageReader::with_format(std::io::Cursor::new(bytes), image::ImageFormat::Png);
        // The size first, from the header: an image no adapter could hold is refused before it
        // is decoded (a 20000x20000 PNG took 26 s and 2 GB to be refused after decoding).
        let (w, h) = reader().into_dimensions().map_err(image_error)?;
        // At three bytes a pixel (an RGB scene's scanlines, which flat colours compress to about
        // deflate's ratio), no more than that ratio times the file can be real pixels. Reading
        // then takes about ten bytes a pixel (the decoded image, RGBA, the scene), under four times
        // the ratio times the file (tests/fuzz_readers.rs holds it to that).
        let rgb = w as u64 * h as u64 * 3;
        if rgb > (bytes.len() as u64).saturating_mul(crate::files::DEFLATE_RATIO) + (1 << 20) {
            let why = format!(
                "the image says it is {w}x{h} pixels ({rgb} bytes as RGB) in a file of {} bytes, more than any \
                 compression gives: the file is damaged or not a PNG",
                bytes.len()
            );
            return Err(SceneError::Io { path: path.to_path_buf(), source: std::io::Error::other(why) });
        }
        let (widest, tallest) = crate::water::packed_world::largest(MAX_SIDE);
        if w as usize > widest || h as usize > tallest {
            let why = format!(
                "the image is {w}x{h} pixels, and a grid is at most {widest}x{tallest} cells (water's largest \
                 world) on any adapter (one pixel per cell): scale it down"
            );
            return Err(SceneError::Io { path: path.to_path_buf(), source: std::io::Error::other(why) });
        }
        // Any size up to that decodes (image's default limit, 512 MB, refused a 16384x16384 RGBA
        // scene that the adapter would hold); the adapter's own limit is checked before the run.
        let mut reader = reader();
        reader.no_limits();
        let img = reader.decode().map_err(image_error)?.to_rgba8();
        let (w, h) = img.dimensions();
        let mut scene = Self::empty(w as usize, h as usize)?;
        for (x, y, px) in img.enumerate_pixels() {
            let [r, g, b, a] = px.0;
            let rgb = [r, g, b];
            let cell = if a < 128 {
                Cell::Empty // transparent: air, whatever colour the drawing program stored
            } else {
                palette
                    .iter()
                    .find(|(c, _)| c.iter().zip(rgb).all(|(&a, b)| a.abs_diff(b) <= COLOUR_TOLERANCE))
                    .map(|&(_, cell)| cell)
                    .ok_or(SceneError::UnknownColour { path: path.to_path_buf(), x, y, rgb, allowed })?
            };
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

    /// A built-in scene ([`crate::model::ModelInfo::presets`]) at `width x height` cells; `seed` drives `random`.
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
            "tunnel" => {
                // Gas past a cylinder (gas's `tunnel` parameters: inflow through the left edge,
                // outflow through the right, the top and bottom edges walls): a solid disc of
                // diameter H / 5 a quarter of the way along, half a cell below the centreline
                // so that the wake need not wait for rounding to break its symmetry.
                s.fill_solid_disc((w * 0.25, h * 0.5 + 0.5), h * 0.1);
            }
            "plume" => return Self::plume(width, height, w / 8.0),
            // Smoke's empty box: still air, no walls inside, no sources; splats and strokes
            // make all there is (the web component's hero background).
            "clear" => {}
            "cavity" => {
                // The lid-driven cavity: all fluid in the closed box of the grid's edge (the
                // lid, its top edge, moves with smoke's --lid). Smoke in the left half, to
                // show the flow; it is passive (no temperature, so no buoyancy or weight).
                s.fill_fluid(0..height, 0..col(0.5), 1.0);
            }
            "channel" => {
                // Flow past a cylinder (smoke's `channel` pipeline: inflow through the left edge,
                // outflow through the right, walls top and bottom): a solid disc of diameter
                // H / 8 (a blockage of 1/8) two diameters from the inlet, half a cell below the
                // centreline so that the wake need not wait for rounding to break its symmetry;
                // dye sources one cell wide at the inlet, every eighth of the height.
                let d = h / 8.0;
                s.fill_solid_disc((3.0 * d, h * 0.5 + 0.5), d * 0.5);
                for k in 1..8 {
                    let r = ((k as f32 * h / 8.0) as usize).min(height - 1);
                    s.for_each(r..r + 1, 0..1, |s, at| s.source[at] = 1);
                }
            }
            _ => return Err(SceneError::UnknownScene { name: name.to_string(), presets: PRESETS.join(", ") }),
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

/// Checks that a solid and a source mask (`(H, W)` each) are both of the grid's `shape`.
///
/// # Errors
/// [`crate::gpu::GpuError::Validation`] giving both masks' shapes and the grid's.
pub fn check_masks(solid: &Grid<u8>, source: &Grid<u8>, shape: (usize, usize)) -> Result<(), crate::gpu::GpuError> {
    if solid.shape() != shape || source.shape() != shape {
        return Err(crate::gpu::GpuError::Validation(format!(
            "masks are {:?} and {:?}, grid is {shape:?}",
            solid.shape(),
            source.shape()
        )));
    }
    Ok(())
}
