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
    /// The adapter refused to open a device.
    #[error("could not open a device on adapter {adapter}: {reason}")]
    RequestDevice {
        /// The adapter's name.
        adapter: String,
        /// What wgpu said.
        reason: String,
    },
    /// A grid side is 0 or larger than the adapter's 2D texture limit.
    #[error(
        "grid {width}x{height} is not usable on this adapter: each side must be 1..={max} cells \
         (its max_texture_dimension_2d)"
    )]
    GridTooLarge {
        /// Requested columns (cells).
        width: usize,
        /// Requested rows (cells).
        height: usize,
        /// The adapter's `max_texture_dimension_2d`.
        max: u32,
    },
    /// wgpu rejected a command or resource: a bug in eddy or in the data it was given.
    #[error("GPU validation error: {0}")]
    Validation(String),
    /// The device ran out of memory.
    #[error("GPU out of memory: {0}; try a smaller grid")]
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
            wgpu::Error::OutOfMemory { source } => GpuError::OutOfMemory(source.to_string()),
            wgpu::Error::Validation { description, .. } => GpuError::Validation(description),
            wgpu::Error::Internal { description, .. } => GpuError::Validation(description),
        }
    }
}

impl From<wgpu::PollError> for GpuError {
    fn from(e: wgpu::PollError) -> Self {
        GpuError::DeviceLost(e.to_string())
    }
}
