//! NumPy `.npz` archives: [`Npz`] writes them (atomically, through [`crate::files`]),
//! [`NpzReader`] reads them.
//!
//! Arrays are C-order `(H, W)` or `(H, W, C)`, row 0 at the top, float32 fields and uint8 masks,
//! loadable with `numpy.load`.

use crate::files::{SceneError, commit, partial};
use crate::grid::Grid;
use std::path::{Path, PathBuf};

/// Writes a NumPy `.npz` archive of `(H, W)` arrays (C order, row 0 first), atomically: the
/// archive is written to a temporary file in the same folder ([`crate::files::PARTIAL_PREFIX`]) and renamed
/// over `path` only by [`Npz::finish`]. A failed write or a dropped `Npz` leaves whatever was at
/// `path` as it was and removes the temporary file; a process killed outright leaves `path` as
/// it was too, with the temporary file beside it.
pub struct Npz {
    path: PathBuf,
    sink: Sink,
    zip: npyz::npz::NpzWriter<Box<dyn WriteSeek + Send>>,
}

/// Where an archive goes: a temporary file renamed at the end, or memory (a browser's download).
enum Sink {
    File(crate::files::Partial),
    Memory(Shared),
}

/// Something an archive can be written to or read from.
trait WriteSeek: std::io::Write + std::io::Seek {}
impl<T: std::io::Write + std::io::Seek> WriteSeek for T {}
trait ReadSeek: std::io::Read + std::io::Seek {}
impl<T: std::io::Read + std::io::Seek> ReadSeek for T {}

/// A file that goes quiet after its first error: the error is returned, and every later write,
/// flush or seek succeeds without touching the file, keeping only the position a real file
/// would have. The zip writer finishes the archive again when it is dropped unfinished and
/// prints `ZipWriter drop failed: ...` to stderr if that fails (a full disk); after an error
/// nothing is worth writing (the temporary file is removed), so the retry must not fail.
struct Quiet {
    file: std::fs::File,
    failed: bool,
    /// The position, and the end: where the file's cursor and end would be.
    pos: u64,
    end: u64,
}

impl std::io::Write for Quiet {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = if self.failed { buf.len() } else { self.file.write(buf).inspect_err(|_| self.failed = true)? };
        self.pos += n as u64;
        self.end = self.end.max(self.pos);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if self.failed { Ok(()) } else { self.file.flush().inspect_err(|_| self.failed = true) }
    }
}

impl std::io::Seek for Quiet {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        use std::io::SeekFrom;
        self.pos = if self.failed {
            let at =
                |base: u64, d: i64| base.checked_add_signed(d).ok_or_else(|| std::io::Error::other("seek before 0"));
            match to {
                SeekFrom::Start(n) => n,
                SeekFrom::Current(d) => at(self.pos, d)?,
                SeekFrom::End(d) => at(self.end, d)?,
            }
        } else {
            self.file.seek(to).inspect_err(|_| self.failed = true)?
        };
        self.end = self.end.max(self.pos);
        Ok(self.pos)
    }
}

/// An in-memory archive the writer and [`Npz::finish_bytes`] share.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<std::io::Cursor<Vec<u8>>>>);

impl Shared {
    fn cursor(&self) -> std::sync::MutexGuard<'_, std::io::Cursor<Vec<u8>>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.cursor().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl std::io::Seek for Shared {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.cursor().seek(pos)
    }
}

impl Npz {
    /// Starts writing `path` (nothing at `path` changes until [`Npz::finish`]); its folder is
    /// created if missing.
    ///
    /// # Errors
    /// [`SceneError::Io`] when `path` is a directory or not a regular file, or no file can be
    /// created in its folder.
    pub fn create(path: &Path) -> Result<Self, SceneError> {
        let partial = partial(path)?;
        let file = partial.file.try_clone().map_err(|source| SceneError::Io { path: path.to_path_buf(), source })?;
        let quiet = Quiet { file, failed: false, pos: 0, end: 0 };
        let zip = npyz::npz::NpzWriter::new(Box::new(std::io::BufWriter::new(quiet)) as Box<dyn WriteSeek + Send>);
        Ok(Self { path: path.to_path_buf(), sink: Sink::File(partial), zip })
    }

    /// Starts an archive in memory, to be taken by [`Npz::finish_bytes`] (a browser saves it as
    /// a download); `name` is what errors call it.
    pub fn in_memory(name: &Path) -> Self {
        let shared = Shared::default();
        let zip = npyz::npz::NpzWriter::new(Box::new(shared.clone()) as Box<dyn WriteSeek + Send>);
        Self { path: name.to_path_buf(), sink: Sink::Memory(shared), zip }
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
        // Every entry dated 1980-01-01 (zip's epoch): the same state gives the same bytes, so
        // runs can be compared by hash (a script played twice, `eddy run --script`).
        let options = npyz::zip::write::FileOptions::default().last_modified_time(npyz::zip::DateTime::default());
        let result = (|| {
            let zip = self.zip.zip_writer();
            zip.start_file(npyz::npz::file_name_from_array_name(name), options)?;
            // Buffered: the npy writer writes an element at a time, and each small write into the
            // deflater costs about as much as a large one.
            let buffered = std::io::BufWriter::with_capacity(1 << 20, zip);
            let mut w = npyz::WriteOptions::<T>::new().default_dtype().shape(shape).writer(buffered).begin_nd()?;
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

    /// Adds the rigid bodies as `bodies` float32 `(N, 13)`, a row a body
    /// ([`crate::body::Body::to_row`]); nothing without bodies.
    ///
    /// # Errors
    /// [`SceneError::Io`].
    pub fn write_bodies(&mut self, bodies: &[crate::body::Body]) -> Result<(), SceneError> {
        if bodies.is_empty() {
            return Ok(());
        }
        let rows: Vec<f32> = bodies.iter().flat_map(|b| b.to_row()).collect();
        let row = crate::body::ROW;
        self.write_f32("bodies", &Grid::from_vec(row, bodies.len(), rows).expect("ROW a row"))
    }

    /// Adds a 0-d int64 array (a scalar, e.g. the step the state was saved at).
    ///
    /// # Errors
    /// [`SceneError::Io`].
    pub fn write_scalar_i64(&mut self, name: &str, value: i64) -> Result<(), SceneError> {
        self.write(name, &[], &[value])
    }

    /// Adds UTF-8 `text` as a 1-d uint8 array of its bytes (NumPy: `bytes(a).decode()`).
    ///
    /// # Errors
    /// [`SceneError::Io`].
    pub fn write_text(&mut self, name: &str, text: &str) -> Result<(), SceneError> {
        self.write(name, &[text.len() as u64], text.as_bytes())
    }

    /// Finishes the archive, flushes it to disk and renames it over `path`.
    ///
    /// # Errors
    /// [`SceneError::Io`]; `path` is then as it was before. An archive made by
    /// [`Npz::in_memory`] is an error here (take it with [`Npz::finish_bytes`]).
    pub fn finish(mut self) -> Result<(), SceneError> {
        use std::io::Write;
        let mut writer = self.zip.zip_writer().finish().map_err(|e| self.io(std::io::Error::other(e)))?;
        writer.flush().map_err(|e| self.io(e))?;
        drop(writer); // closes the file before it is renamed
        match self.sink {
            Sink::File(partial) => commit(partial, &self.path),
            Sink::Memory(_) => Err(self.io(std::io::Error::other("an in-memory archive has no file to finish"))),
        }
    }

    /// Finishes an archive made by [`Npz::in_memory`] and returns its bytes.
    ///
    /// # Errors
    /// [`SceneError::Io`] when the zip cannot be finished, or the archive was made by
    /// [`Npz::create`].
    pub fn finish_bytes(mut self) -> Result<Vec<u8>, SceneError> {
        let writer = self.zip.zip_writer().finish().map_err(|e| self.io(std::io::Error::other(e)))?;
        drop(writer);
        match self.sink {
            Sink::Memory(shared) => Ok(std::mem::take(shared.cursor().get_mut())),
            Sink::File(_) => Err(self.io(std::io::Error::other("a file archive is finished with finish()"))),
        }
    }
}

pub use crate::files::DEFLATE_RATIO;

/// What the arrays of an archive may hold, checked from every array's header when the archive
/// is opened, before any array is decompressed (a 1.5 MB file can declare a 20000x20000 array).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// The longest side (rows or columns) of any array, cells: the device's
    /// `max_texture_dimension_2d` where it is known, else [`crate::scene::MAX_SIDE`].
    pub max_side: usize,
    /// The bytes all arrays together may decompress to.
    pub max_bytes: u64,
}

impl Default for ReadLimits {
    /// Sides up to [`crate::scene::MAX_SIDE`] (what any adapter allows), 4 GiB in all.
    fn default() -> Self {
        Self { max_side: crate::scene::MAX_SIDE as usize, max_bytes: 4 << 30 }
    }
}

/// An array's dtype as NumPy writes it, e.g. `<f4`.
fn dtype_of<R: std::io::Read>(npy: &npyz::NpyFile<R>) -> String {
    match npy.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => other.descr(),
    }
}

/// Reads `(H, W)` arrays from a NumPy `.npz` archive.
pub struct NpzReader {
    path: PathBuf,
    archive: npyz::npz::NpzArchive<Box<dyn ReadSeek + Send>>,
}

/// An archive entry read through a buffer ([`NpzReader`]'s arrays).
type Buffered<'a> = std::io::BufReader<npyz::zip::read::ZipFile<'a>>;

impl NpzReader {
    /// Opens `path` and checks every array's header against the default [`ReadLimits`].
    ///
    /// # Errors
    /// As [`NpzReader::open_within`].
    pub fn open(path: &Path) -> Result<Self, SceneError> {
        Self::open_within(path, ReadLimits::default())
    }

    /// Opens `path` and checks every array's header against `limits`.
    ///
    /// # Errors
    /// [`SceneError::Io`] when missing or not a regular file, [`SceneError::Npz`] naming the array
    /// when not a zip archive, when an array's header cannot be read (an object dtype, say), or
    /// when an array is larger than `limits` allow.
    pub fn open_within(path: &Path, limits: ReadLimits) -> Result<Self, SceneError> {
        let p = path.to_path_buf();
        crate::files::check_regular_file(path, "give an .npz file")
            .map_err(|source| SceneError::Io { path: p.clone(), source })?;
        let file = std::fs::File::open(path).map_err(|source| SceneError::Io { path: p.clone(), source })?;
        Self::new(p, Box::new(std::io::BufReader::new(file)), limits)
    }

    /// Reads an archive from its bytes (a file picked or dropped in a browser); `name` is what
    /// errors call it. Checks the headers against the default [`ReadLimits`].
    ///
    /// # Errors
    /// As [`NpzReader::open_within`].
    pub fn from_bytes(name: &Path, bytes: Vec<u8>) -> Result<Self, SceneError> {
        Self::from_bytes_within(name, bytes, ReadLimits::default())
    }

    /// [`NpzReader::from_bytes`] within `limits`.
    ///
    /// # Errors
    /// As [`NpzReader::open_within`].
    pub fn from_bytes_within(name: &Path, bytes: Vec<u8>, limits: ReadLimits) -> Result<Self, SceneError> {
        Self::new(name.to_path_buf(), Box::new(std::io::Cursor::new(bytes)), limits)
    }

    fn new(p: PathBuf, reader: Box<dyn ReadSeek + Send>, limits: ReadLimits) -> Result<Self, SceneError> {
        let archive = npyz::npz::NpzArchive::new(reader).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => SceneError::Npz { path: p.clone(), message: e.to_string() },
            _ => SceneError::Io { path: p.clone(), source: e },
        })?;
        let mut reader = Self { path: p, archive };
        reader.check_headers(limits)?;
        Ok(reader)
    }

    /// Reads every array's header (its shape and dtype; the data stays compressed) and refuses
    /// the archive when an array has a side above `limits.max_side` or all of them would
    /// decompress to more than `limits.max_bytes`.
    fn check_headers(&mut self, limits: ReadLimits) -> Result<(), SceneError> {
        let mut total: u64 = 0;
        for name in self.array_names() {
            let path = self.path.clone();
            let message = |m: String| SceneError::Npz { path: path.clone(), message: format!("array {name:?}: {m}") };
            // What the archive stores for it: nothing decompresses to more than DEFLATE_RATIO
            // times that, so a header that declares more is a lie told to make us allocate.
            let stored = self
                .archive
                .zip_archive()
                .by_name(&npyz::npz::file_name_from_array_name(&name))
                .map(|f| f.compressed_size())
                .unwrap_or(0);
            let npy = self.archive.by_name(&name).map_err(|e| {
                message(format!(
                    "its header cannot be read ({e}); eddy reads arrays of numbers (float32, uint8, int64)"
                ))
            })?;
            let Some(npy) = npy else { continue };
            let shape = npy.shape().to_vec();
            let item = npy.dtype().num_bytes().unwrap_or(8) as u64;
            let bytes = shape.iter().try_fold(item, |b, &d| b.checked_mul(d)).unwrap_or(u64::MAX);
            // The grid's sides: every axis but a trailing component axis of up to 4.
            let sides = if shape.len() == 3 && shape[2] <= 4 { &shape[..2] } else { &shape[..] };
            if let Some(&side) = sides.iter().find(|&&d| d > limits.max_side as u64) {
                return Err(message(format!(
                    "has shape {shape:?}, and a side of {side} cells is more than this device takes ({}): \
                     refused before reading it",
                    limits.max_side
                )));
            }
            if bytes > stored.saturating_mul(DEFLATE_RATIO).saturating_add(4096) {
                return Err(message(format!(
                    "declares shape {shape:?} ({bytes} bytes) in {stored} stored bytes, more than any compression \
                     gives: the file is damaged or not what it says; refused before reading it"
                )));
            }
            total = total.saturating_add(bytes);
            if total > limits.max_bytes {
                return Err(message(format!(
                    "has shape {shape:?}, which with the arrays before it would take {:.1} GB, more than the {:.1} GB \
                     a state may take here: refused before reading it",
                    total as f64 / 1e9,
                    limits.max_bytes as f64 / 1e9
                )));
            }
        }
        Ok(())
    }

    /// Reads array `name`, which must have shape `(H, W)` (`components` = `None`) or
    /// `(H, W, C)` (`Some(C)`); `None` when absent. `read` turns the data (given the dtype
    /// string, e.g. `<f4`) into `T`, or says it cannot. Returns `(W, H, data)`.
    fn read_array<T>(
        &mut self,
        name: &'static str,
        components: Option<u64>,
        expected: &str,
        read: impl FnOnce(npyz::NpyFile<Buffered<'_>>, &str) -> Option<std::io::Result<Vec<T>>>,
    ) -> Result<Option<(usize, usize, Vec<T>)>, SceneError> {
        let path = self.path.clone();
        let npz_err = |e: std::io::Error| SceneError::Npz { path: path.clone(), message: e.to_string() };
        let bad = |message: String| SceneError::BadArray { path: path.clone(), name, message };
        if self.archive.by_name(name).map_err(npz_err)?.is_none() {
            return Ok(None);
        }
        // Through a buffer: the npy reader reads an element at a time, and each small read from
        // the inflater costs about as much as a large one.
        let entry = npyz::npz::file_name_from_array_name(name);
        let file = self.archive.zip_archive().by_name(&entry).map_err(|e| npz_err(std::io::Error::other(e)))?;
        let npy = npyz::NpyFile::new(std::io::BufReader::with_capacity(1 << 20, file)).map_err(npz_err)?;
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
        let dtype = dtype_of(&npy);
        let data = read(npy, &dtype)
            .ok_or_else(|| bad(format!("has dtype {dtype}; expected {expected}")))?
            .map_err(npz_err)?;
        let (h, w) = (shape[0] as usize, shape[1] as usize);
        if h == 0 || w == 0 {
            return Err(bad(format!("has shape {shape:?}: a grid needs at least one cell")));
        }
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
        self.read_array(name, components, "float32 or float64, little-endian (<f4, <f8)", |npy, dtype| match dtype {
            "<f4" => Some(npy.into_vec::<f32>()),
            "<f8" => Some(npy.into_vec::<f64>().map(|v| v.into_iter().map(|x| x as f32).collect())),
            _ => None,
        })
    }

    /// The shape of array `name` from its header (nothing is decompressed).
    ///
    /// # Errors
    /// [`SceneError::MissingArray`] when absent, [`SceneError::Npz`] when its header is corrupt.
    pub fn shape(&mut self, name: &'static str) -> Result<Vec<u64>, SceneError> {
        let path = self.path.clone();
        let shape = match self.archive.by_name(name) {
            Ok(npy) => npy.map(|npy| npy.shape().to_vec()),
            Err(e) => return Err(SceneError::Npz { path, message: format!("array {name:?}: {e}") }),
        };
        shape.ok_or_else(|| SceneError::MissingArray { path, name, present: self.names() })
    }

    fn names(&self) -> String {
        self.array_names().join(", ")
    }

    /// The names of the arrays in the archive.
    pub fn array_names(&self) -> Vec<String> {
        self.archive.array_names().map(str::to_string).collect()
    }

    /// Array `name`'s reader, `None` when absent.
    fn array(&mut self, name: &str) -> Result<Option<npyz::NpyFile<npyz::zip::read::ZipFile<'_>>>, SceneError> {
        let path = self.path.clone();
        self.archive.by_name(name).map_err(|e| SceneError::Npz { path, message: e.to_string() })
    }

    /// Reads a scalar integer array `name` (0-d or one element); `None` when absent.
    ///
    /// # Errors
    /// [`SceneError::BadArray`] when it is not one integer, [`SceneError::Npz`] when corrupt.
    pub fn read_scalar_i64(&mut self, name: &'static str) -> Result<Option<i64>, SceneError> {
        let path = self.path.clone();
        let Some(npy) = self.array(name)? else { return Ok(None) };
        let bad = |message: String| SceneError::BadArray { path: path.clone(), name, message };
        // Any integer dtype NumPy gives a scalar: int64 on Linux and macOS, int32 on Windows.
        let dtype = dtype_of(&npy);
        let not_integer = |e: std::io::Error| bad(format!("is not an integer scalar ({e})"));
        let values: Vec<i64> = match dtype.as_str() {
            "<i8" | ">i8" => npy.into_vec::<i64>().map_err(not_integer)?,
            "<i4" | ">i4" => npy.into_vec::<i32>().map_err(not_integer)?.into_iter().map(i64::from).collect(),
            "<u4" => npy.into_vec::<u32>().map_err(not_integer)?.into_iter().map(i64::from).collect(),
            "<u8" => {
                let values = npy.into_vec::<u64>().map_err(not_integer)?;
                if let Some(v) = values.iter().find(|&&v| i64::try_from(v).is_err()) {
                    return Err(bad(format!("= {v}: a step count is at most 2^63 - 1 ({})", i64::MAX)));
                }
                values.into_iter().map(|v| v as i64).collect()
            }
            _ => return Err(bad(format!("has dtype {dtype}; a step is an integer (<i8, <i4, <u8 or <u4)"))),
        };
        match values[..] {
            [v] if v >= 0 => Ok(Some(v)),
            [v] => Err(bad(format!("= {v}: a step count is >= 0"))),
            _ => Err(bad(format!("has {} values; expected one", values.len()))),
        }
    }

    /// Reads UTF-8 text stored as a 1-d uint8 array (as [`Npz::write_text`] writes it); `None`
    /// when absent.
    ///
    /// # Errors
    /// [`SceneError::BadArray`] when it is not a 1-d uint8 array or not UTF-8,
    /// [`SceneError::Npz`] when corrupt.
    pub fn read_text_opt(&mut self, name: &'static str) -> Result<Option<String>, SceneError> {
        let path = self.path.clone();
        let Some(npy) = self.array(name)? else { return Ok(None) };
        let bad = |message: String| SceneError::BadArray { path: path.clone(), name, message };
        let (dtype, shape) = (dtype_of(&npy), npy.shape().to_vec());
        if dtype != "|u1" || shape.len() != 1 {
            return Err(bad(format!(
                "has dtype {dtype} and shape {shape:?}; expected text as a 1-d uint8 array of UTF-8 bytes \
                 (numpy.frombuffer(text.encode(), numpy.uint8))"
            )));
        }
        let bytes = npy.into_vec::<u8>().map_err(|e| bad(format!("cannot be read ({e})")))?;
        String::from_utf8(bytes).map(Some).map_err(|e| bad(format!("is not UTF-8 text ({e})")))
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
        Ok(self.read_u8_values_opt(name)?.map(|g| g.map(|&v| (v != 0) as u8)))
    }

    /// The bodies of a `bodies` table, float32 `(N, 13)` ([`crate::body::Body::to_row`]), or
    /// `(N, 9)` (driven bodies, as states saved before free bodies hold them; none when absent),
    /// and the `solid` mask (`None` when absent): without bodies non-zero = wall; with bodies 1 =
    /// wall and a body's cell (`2 + i`) open, since the bodies are rasterised
    /// anew when a run starts (read as walls, a loaded run would keep a wall where each body was
    /// saved).
    ///
    /// # Errors
    /// As [`NpzReader::read_f32`]; [`SceneError::BadArray`] when the table is not `(N, 13)` or
    /// `(N, 9)`, holds more than [`crate::body::MAX_BODIES`] rows, or a row is not a body.
    pub fn read_bodies_and_solid(&mut self) -> Result<(Vec<crate::body::Body>, Option<Grid<u8>>), SceneError> {
        let bad =
            |path: &Path, message: String| SceneError::BadArray { path: path.to_path_buf(), name: "bodies", message };
        let shape = match self.shape("bodies") {
            Ok(shape) => Some(shape),
            Err(SceneError::MissingArray { .. }) => None,
            Err(e) => return Err(e),
        };
        let bodies = match shape.as_deref() {
            None => Vec::new(),
            // No bodies, as `numpy.zeros((0, 13))` writes it.
            Some([0, 13 | 9]) => Vec::new(),
            Some(shape) if shape.len() != 2 => {
                return Err(bad(
                    &self.path,
                    format!(
                        "has shape {}: a bodies table is (N, 13), a row a body (kind, x, y, angle, vx, vy, spin, \
                         a, b, density, ax, ay, angular); one body is shape (1, 13)",
                        tuple(shape)
                    ),
                ));
            }
            Some(_) => {
                let table = self.read_f32("bodies")?;
                read_bodies(&table).map_err(|message| bad(&self.path, message))?
            }
        };
        let solid = match bodies.is_empty() {
            true => self.read_u8_opt("solid")?,
            false => self.read_u8_values_opt("solid")?.map(|s| crate::body::walls(&s)),
        };
        Ok((bodies, solid))
    }

    /// As [`NpzReader::read_u8_opt`], but a uint8 array's values as they are (a bool or wider
    /// integer array's non-zero = 1): smoke's `solid` marks a body's cells with `2 + i`.
    ///
    /// # Errors
    /// As [`NpzReader::read_f32`].
    pub fn read_u8_values_opt(&mut self, name: &'static str) -> Result<Option<Grid<u8>>, SceneError> {
        fn ones<T: PartialEq + Default>(v: Vec<T>) -> Vec<u8> {
            v.into_iter().map(|x| (x != T::default()) as u8).collect()
        }
        let array = self.read_array(name, None, "uint8 or bool", |npy, dtype| match dtype {
            "|u1" => Some(npy.into_vec::<u8>()),
            "|b1" => Some(npy.into_vec::<bool>().map(ones)),
            "|i1" => Some(npy.into_vec::<i8>().map(ones)),
            "<i4" => Some(npy.into_vec::<i32>().map(ones)),
            "<i8" => Some(npy.into_vec::<i64>().map(ones)),
            _ => None,
        })?;
        Ok(array.map(|(w, h, data)| Grid::from_vec(w, h, data).expect("size checked")))
    }
}

/// A shape as NumPy writes it: `(9,)`, `(2, 9)`.
fn tuple(shape: &[u64]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!("({})", shape.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// The bodies of a `bodies` table, float32 `(N, 13)` or `(N, 9)` ([`crate::body::Body::to_row`]).
fn read_bodies(table: &Grid<f32>) -> Result<Vec<crate::body::Body>, String> {
    use crate::body::{DRIVEN_ROW, ROW};
    let (n, width) = table.shape();
    if width != ROW && width != DRIVEN_ROW {
        return Err(format!(
            "shape ({n}, {width}): a body is a row of {ROW} (kind, x, y, angle, vx, vy, spin, a, b, density, ax, ay, \
             angular), or {DRIVEN_ROW} (a driven body's, without the last four)"
        ));
    }
    crate::body::check_count(n)?;
    (0..n)
        .map(|i| {
            let row: Vec<f32> = (0..width).map(|k| table[(i, k)]).collect();
            crate::body::Body::from_row(&row).map_err(|e| format!("row {i}: {e}"))
        })
        .collect()
}
