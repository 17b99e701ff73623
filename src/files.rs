//! Output files that are never half-written: a file is written beside its target and renamed
//! over it when complete (`write_atomically`, and `npz::Npz`), and an output path is checked
//! before a run starts (`check_writable_file`, `check_writable_dir`): feature `write`, which
//! `png` and `npz` turn on. [`SceneError`] and the bounded reads are always here.

use std::path::{Path, PathBuf};

/// An error reading or writing a scene or state file (defined here, at the bottom of the
/// modules, and re-exported as `scene::SceneError`, its name in the API).
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
    #[cfg(feature = "png")]
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
    #[error("no scene file or preset named {name:?}; presets are: {presets}")]
    UnknownScene {
        /// The name given.
        name: String,
        /// The presets there are, by model: `basin, u-tube, random (water), plume (smoke), ...`.
        presets: String,
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
    /// A state file of another model than the one asked for, or one whose model its arrays do
    /// not tell.
    #[error("{}: {message}", path.display())]
    WrongModel {
        /// The file.
        path: PathBuf,
        /// What it holds and what to do.
        message: String,
    },
    /// A file format this build of eddy was made without: the error names the cargo feature
    /// that adds it.
    #[error("{}: {what} need eddy's `{feature}` feature; enable it in Cargo.toml: eddy = {{ features = [\"{feature}\"] }}", path.display())]
    FeatureOff {
        /// The file.
        path: PathBuf,
        /// The format, e.g. `PNG scenes`.
        what: &'static str,
        /// The cargo feature, e.g. `png`.
        feature: &'static str,
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

/// The most deflate can compress: 1032 to 1 (RFC 1951's longest match, 258 bytes, in about two
/// bits). An array or image that declares more bytes than this times what is stored for it is
/// refused from its header, which bounds what a reader allocates by the size of its input.
pub const DEFLATE_RATIO: u64 = 1032;

/// The folder `path` is in (`.` for a bare file name).
#[cfg(feature = "write")]
fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Prefix of the temporary file eddy writes beside a target before renaming it over the target.
/// Only a process killed outright (SIGKILL, a second Ctrl-C, a power cut) can leave one behind.
pub const PARTIAL_PREFIX: &str = ".eddy-partial-";

/// The file `path` names, following symbolic links (up to 40 of them): writing through a link
/// replaces the file it points to, never the link. A dangling link's target is created.
#[cfg(feature = "write")]
fn resolve(path: &Path) -> PathBuf {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(&p) {
                Ok(t) if t.is_absolute() => p = t,
                Ok(t) => p = parent_dir(&p).join(t),
                Err(_) => break,
            },
            _ => break,
        }
    }
    p
}

/// Longest file name most file systems take, bytes (ext4, XFS, Btrfs, APFS, NTFS in UTF-16
/// units).
#[cfg(feature = "write")]
const NAME_MAX: usize = 255;

/// Refuses a path that ends in a separator or whose file name is too long, and a target that
/// is a directory, not a regular file (a device, a pipe) or read-only.
#[cfg(feature = "write")]
fn check_target(path: &Path, target: &Path) -> Result<(), SceneError> {
    let fail =
        |why: &str| Err(SceneError::Io { path: path.to_path_buf(), source: std::io::Error::other(why.to_string()) });
    let name = target.file_name().map_or(0, |n| n.len());
    if path.as_os_str().to_string_lossy().ends_with(std::path::MAIN_SEPARATOR) {
        return fail("ends in a path separator, which names a folder; give a file path");
    }
    if name > NAME_MAX {
        return fail(&format!("its file name is {name} bytes, above the {NAME_MAX} most file systems allow"));
    }
    match std::fs::metadata(target) {
        Ok(meta) if meta.is_dir() => fail("is a directory; give a file path"),
        Ok(meta) if !meta.is_file() => fail("is not a regular file (a device or pipe); give a file path"),
        Ok(meta) if meta.permissions().readonly() => {
            fail("is read-only; eddy does not replace it: remove it or give another path")
        }
        _ => Ok(()),
    }
}

#[cfg(feature = "write")]
/// A file being written: the temporary file beside its target, and the target (symbolic links
/// followed) it will be renamed over.
pub(crate) struct Partial {
    pub(crate) file: std::fs::File,
    temp: tempfile::TempPath,
    target: PathBuf,
}

/// A temporary file beside `path`'s target (its folder created if missing), to be renamed over it.
#[cfg(feature = "write")]
pub(crate) fn partial(path: &Path) -> Result<Partial, SceneError> {
    let target = resolve(path);
    check_target(path, &target)?;
    let dir = parent_dir(&target);
    let io = |e: std::io::Error| {
        let why = if dir.exists() && !dir.is_dir() {
            "its folder is a file".to_string()
        } else {
            format!("cannot create files in its folder ({})", e.kind())
        };
        SceneError::Io { path: path.to_path_buf(), source: std::io::Error::new(e.kind(), why) }
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let (file, temp) = tempfile::Builder::new().prefix(PARTIAL_PREFIX).tempfile_in(dir).map_err(io)?.into_parts();
    Ok(Partial { file, temp, target })
}

/// Flushes the file to disk and renames it over its target, with the permissions of the file it
/// replaces (a new file gets `rw-r--r--`, not the temporary file's owner-only mode). `path` is
/// the name errors give.
#[cfg(feature = "write")]
pub(crate) fn commit(partial: Partial, path: &Path) -> Result<(), SceneError> {
    let Partial { file, temp, target } = partial;
    let io = |source| SceneError::Io { path: path.to_path_buf(), source };
    #[cfg(unix)]
    let permissions = std::fs::metadata(&target).map(|m| m.permissions()).unwrap_or_else(|_| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::Permissions::from_mode(0o644)
    });
    #[cfg(unix)]
    file.set_permissions(permissions).map_err(io)?;
    file.sync_all().map_err(io)?;
    #[cfg_attr(target_arch = "wasm32", allow(clippy::drop_non_drop))] // a stub File there
    drop(file);
    temp.persist(&target).map_err(|e| io(e.error))
}

/// Checks that `path` can be written as a file: not a directory, a device or a read-only file,
/// and its folder (created if missing) takes new files. Writes nothing at `path` itself.
///
/// # Errors
/// [`SceneError::Io`] saying what is wrong.
#[cfg(feature = "write")]
pub fn check_writable_file(path: &Path) -> Result<(), SceneError> {
    partial(path).map(drop)
}

/// Whether `path` ends in `.ext` (any letter case): how an output's kind is told, a state from a
/// picture, on the command line and in scripts alike.
pub fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// Checks that `path` is a regular file (after following links): a folder, a device such as
/// `/dev/zero`, a pipe or a socket is refused, since reading one may never end. `hint` says
/// what to give instead.
///
/// # Errors
/// The metadata's error (a missing file: [`std::io::ErrorKind::NotFound`]), or one saying what
/// `path` is.
pub fn check_regular_file(path: &Path, hint: &str) -> std::io::Result<()> {
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Err(std::io::Error::other(format!("is a directory; {hint}")));
    }
    if !meta.is_file() {
        return Err(std::io::Error::other(format!("is not a regular file (a device, a pipe or a socket); {hint}")));
    }
    Ok(())
}

/// Reads the regular file `path` ([`check_regular_file`]) whole, refusing one longer than
/// `max_bytes` from its length, before reading any of it (a 3 GB sparse file was read whole to
/// be judged); reads at most `max_bytes` + 1 bytes however the file grows meanwhile. `what`
/// names the file's kind in the error ("a script").
///
/// # Errors
/// As [`check_regular_file`]; an error with both sizes when it is too long; a read error.
pub fn read_bounded(path: &Path, max_bytes: u64, what: &str) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    check_regular_file(path, &format!("give {what}"))?;
    let file = std::fs::File::open(path)?;
    let too_long = |len: u64| {
        std::io::Error::other(format!(
            "is {len} bytes, more than the {max_bytes} bytes {what} may have here: give a smaller file"
        ))
    };
    let len = file.metadata()?.len();
    if len > max_bytes {
        return Err(too_long(len));
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_long(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The names in `dir` that start with `prefix` and end with `.suffix` (a run's frames, say),
/// sorted; none when `dir` cannot be read.
pub fn files_like(dir: &Path, prefix: &str, suffix: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.starts_with(prefix) && n.ends_with(suffix))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Creates `dir` if missing and checks a file can be created in it (a temporary one, removed).
///
/// # Errors
/// [`SceneError::Io`] naming `dir`.
#[cfg(feature = "write")]
pub fn check_writable_dir(dir: &Path) -> Result<(), SceneError> {
    let io = |source| SceneError::Io { path: dir.to_path_buf(), source };
    if dir.exists() && !dir.is_dir() {
        return Err(io(std::io::Error::other("is a file, not a folder")));
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        io(std::io::Error::new(
            e.kind(),
            format!("cannot create this folder ({}); give a folder you can write", e.kind()),
        ))
    })?;
    tempfile::Builder::new()
        .prefix(PARTIAL_PREFIX)
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| io(std::io::Error::new(e.kind(), format!("cannot create files in this folder ({})", e.kind()))))
}

/// Writes `path` atomically: `write` fills a temporary file beside it, which is then renamed
/// over `path`; if `write` fails, `path` is left as it was. Used for PNG frames and screenshots.
///
/// # Errors
/// [`SceneError::Io`] from creating, writing or renaming the file.
#[cfg(feature = "write")]
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<&std::fs::File>) -> std::io::Result<()>,
) -> Result<(), SceneError> {
    let partial = partial(path)?;
    let mut w = std::io::BufWriter::new(&partial.file);
    let written = write(&mut w).and_then(|()| std::io::Write::flush(&mut w));
    drop(w);
    written.map_err(|source| SceneError::Io { path: path.to_path_buf(), source })?;
    commit(partial, path)
}
