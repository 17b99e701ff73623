//! [`DeviceCaps`]: what the adapter changes, derived in one place from a device (or an adapter's
//! information and limits), after re_renderer's `DeviceCaps`. Every adapter-dependent choice
//! reads it: the strips the row-walking passes take, whether a pass's reads are fitted to fewer
//! storage textures, whether the GPU's memory is the machine's. It is derived once, when a
//! device is opened ([`super::Gpu::caps`]) or a model is built on a bare device (its `new`), and
//! handed to every kernel and pass constructor; caps with another strip run every strip on one
//! adapter (the tests do).

/// Texel rows one invocation walks in the passes that walk a column of rows, on a CPU adapter:
/// the rows above and the values an invocation works out before its first row are spread over
/// more rows (docs/performance.md has the measurements).
const CPU_STRIP: u32 = 32;

/// The same on a GPU: 8 keeps the invocations many (at 1024x1024, 32 rows would leave 1024).
const GPU_STRIP: u32 = 8;

/// Share of `max_buffer_size` one texture may take: wgpu does not report the largest resource
/// a device allocates, so eddy takes the largest buffer as that limit, less room for the
/// driver's row padding.
pub const TEXTURE_SHARE: f64 = 0.99;

/// What the adapter changes; see the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceCaps {
    /// The adapter runs on the CPU (lavapipe, WARP, SwiftShader: `wgpu::DeviceType::Cpu`).
    pub runs_on_cpu: bool,
    /// Its memory is the machine's, so what the GPU allocates counts against the machine's
    /// available memory (a CPU adapter). Integrated GPUs share it too, but report no type that
    /// says so reliably, so only a CPU adapter is counted.
    pub unified_memory: bool,
    /// Texel rows one invocation walks in the row-walking passes: the water step's and the packed
    /// Jacobi quad's `override STRIP` (`shaders/water/step.wgsl`, `shaders/solver/jacobi_quad.wgsl`).
    pub strip: u32,
    /// Storage textures one shader stage may bind: a pass that binds more reads its read-only ones
    /// as sampled textures (`src/gpu/fit.rs`).
    pub storage_textures_per_stage: u32,
    /// The largest side of a 2D texture, texels.
    pub max_texture_side: u32,
    /// The most bytes one texture may hold ([`TEXTURE_SHARE`] of `max_buffer_size`): a water
    /// world whose packed texture would hold more is kept in pages
    /// ([`crate::water::packed_world`]).
    pub max_texture_bytes: u64,
    /// Compute pipelines are built when first dispatched rather than when their pass is made
    /// ([`super::Kernel::pipeline`]): in a browser, whose GPU process compiles pipelines in the
    /// order they are made, a first frame drawn before the first step then waits for none of
    /// the step's. Errors building such a pipeline reach the device's uncaptured-error handler,
    /// not the error scope the kernel was made in (eddy's own WGSL is validated by
    /// `tests/shader_validation.rs`). On in the browser (wasm32), off elsewhere.
    pub lazy_pipelines: bool,
}

impl DeviceCaps {
    /// The caps of `device`'s adapter.
    pub fn of(device: &wgpu::Device) -> Self {
        Self::from_adapter(&device.adapter_info(), &device.limits())
    }

    /// The caps of an adapter with `info`, on a device with `limits`.
    pub fn from_adapter(info: &wgpu::AdapterInfo, limits: &wgpu::Limits) -> Self {
        let runs_on_cpu = info.device_type == wgpu::DeviceType::Cpu;
        Self {
            runs_on_cpu,
            unified_memory: runs_on_cpu,
            strip: if runs_on_cpu { CPU_STRIP } else { GPU_STRIP },
            storage_textures_per_stage: limits.max_storage_textures_per_shader_stage,
            max_texture_side: limits.max_texture_dimension_2d,
            max_texture_bytes: (limits.max_buffer_size as f64 * TEXTURE_SHARE) as u64,
            lazy_pipelines: cfg!(target_arch = "wasm32"),
        }
    }
}
