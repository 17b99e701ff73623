//! [`GpuError`]: everything that can go wrong between eddy and the graphics device.

/// An error from the GPU side: no adapter, no device, a validation error, a lost device.
///
/// Returned by [`crate::gpu::Gpu`]'s constructors, by every GPU simulation's constructor and
/// step/readback methods, and by the renderer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// No graphics adapter was found (or none matched `WGPU_ADAPTER_NAME` / `WGPU_BACKEND`).
    #[error(
        "no GPU adapter found ({reason}); on Linux without a GPU install a software Vulkan driver: \
         `apt-get install mesa-vulkan-drivers libvulkan1`"
    )]
    NoAdapter {
        /// What wgpu said when asked for an adapter.
        reason: String,
    },
    /// `WGPU_BACKEND` names a backend wgpu does not know (it would warn twice and find no
    /// adapter); the text says which names there are.
    #[error(
        "WGPU_BACKEND={value:?}: {unknown} is not a backend; give vulkan, gl, metal, dx12 or webgpu (comma-separated), or unset it"
    )]
    UnknownBackend {
        /// The variable's value.
        value: String,
        /// The names in it that are not backends, quoted.
        unknown: String,
    },
    /// The adapter refused to open a device.
    #[error("could not open a device on adapter {adapter}: {reason}")]
    RequestDevice {
        /// The adapter's name.
        adapter: String,
        /// What wgpu said.
        reason: String,
    },
    /// A grid side is 0 or larger than the device allows: its `max_texture_dimension_2d`, less
    /// what the model's largest texture adds to the grid (one face more a side on smoke's
    /// staggered grid).
    #[error(
        "grid {width}x{height} is not usable on this device: each side must be 1..={max} cells \
         (from its max_texture_dimension_2d)"
    )]
    GridTooLarge {
        /// Requested columns (cells).
        width: usize,
        /// Requested rows (cells).
        height: usize,
        /// The largest side this model takes on the device, cells.
        max: u32,
    },
    /// A water world's side is 0 or past what the device takes: four cells a texel of its
    /// `max_texture_dimension_2d` across, one down ([`crate::water::packed_world`]).
    #[error(
        "water world {width}x{height} is not usable on this device: it takes 1..={max_width} cells across \
         (four a texel of its max_texture_dimension_2d) and 1..={max_height} down"
    )]
    WorldTooLarge {
        /// Requested columns (cells).
        width: usize,
        /// Requested rows (cells).
        height: usize,
        /// The most columns the device takes, cells.
        max_width: usize,
        /// The most rows, cells.
        max_height: usize,
    },
    /// A frame of a grid at some pixels a cell is larger than the device's largest texture.
    #[error(
        "a frame of {width}x{height} pixels is past this device's largest texture side ({max}): draw fewer pixels a \
         cell, or a smaller grid"
    )]
    FrameTooLarge {
        /// The frame's width, pixels.
        width: u64,
        /// Its height, pixels.
        height: u64,
        /// The device's `max_texture_dimension_2d`.
        max: u32,
    },
    /// The model would not fit in memory at this size (estimated before allocating; see
    /// [`crate::model::memory`]).
    #[error("{what} needs {needs}, but {has}: use a smaller grid (about {fits} fits)")]
    TooLarge {
        /// The model and grid, e.g. `smoke at 16384x16384`.
        what: String,
        /// What it needs, e.g. `about 13.0 GB`.
        needs: String,
        /// What there is.
        has: String,
        /// The largest square grid that fits, `NxN`.
        fits: String,
    },
    /// No adapter has what a model needs (storage formats, compute, limits).
    #[error("no GPU adapter can run {model}: {reasons}; {hint}")]
    Unsupported {
        /// The model (or models) asked for.
        model: String,
        /// Each adapter and what it lacks.
        reasons: String,
        /// How to get one that can.
        hint: &'static str,
    },
    /// An application's device lacks limits a model needs ([`crate::gpu::check_device`]).
    #[error(
        "this device cannot run {model}: {lacks}; make it with the limits eddy_fluid::gpu::required_limits gives \
         (or ModelKind::requirements(..).limits()) in request_device"
    )]
    DeviceLacks {
        /// The model (or models) asked for.
        model: String,
        /// Each limit it lacks: its name, the value needed and the value the device has.
        lacks: String,
    },
    /// wgpu rejected a command or resource: a bug in eddy or in the data it was given.
    #[error("GPU validation error: {0}")]
    Validation(String),
    /// The device ran out of memory.
    #[error("GPU out of memory ({0}); try a smaller grid")]
    OutOfMemory(String),
    /// The device was lost (driver reset, GPU removed, or destroyed).
    #[error("GPU device lost: {0}; restart eddy (and check the driver) to go on")]
    DeviceLost(String),
    /// Mapping a readback buffer failed.
    #[error("reading back from the GPU failed ({0}); the device may have been lost: restart eddy")]
    Readback(String),
}

impl From<wgpu::Error> for GpuError {
    fn from(e: wgpu::Error) -> Self {
        match e {
            wgpu::Error::OutOfMemory { source } => GpuError::OutOfMemory(one_line(&source.to_string())),
            wgpu::Error::Validation { description, .. } => GpuError::Validation(one_line(&description)),
            wgpu::Error::Internal { description, .. } => GpuError::Validation(one_line(&description)),
        }
    }
}

impl From<wgpu::PollError> for GpuError {
    fn from(e: wgpu::PollError) -> Self {
        GpuError::DeviceLost(e.to_string())
    }
}

/// wgpu's multi-line descriptions ("Validation Error\n\nCaused by:\n  In ...\n    ...") as one
/// line: the non-empty lines, trimmed, joined with ": ", without the "Caused by:" headings.
pub(crate) fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty() && *l != "Caused by:").collect::<Vec<_>>().join(": ")
}
