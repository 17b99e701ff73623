//! GPU plumbing: device setup ([`Gpu`]), errors ([`GpuError`]), ping-pong textures
//! ([`PingPong`]), the compute-kernel helper ([`Kernel`]), readback ([`read_r32float`]), statistics by
//! reduction ([`Reduction`]), GPU time by timestamp queries ([`StepTimer`], per pass [`profile`]), state checkpoints ([`Checkpoint`]), the state hash ([`state_hash`]) and adapter choice ([`Requirements`]).
//!
//! Everything that does GPU work takes `&wgpu::Device, &wgpu::Queue`, so an application brings
//! its own device (wgpu's `hello_compute` habit); [`Gpu`] is only the convenience that opens one.

mod caps;
mod checkpoint;
mod edit;
mod error;
pub mod fit;
pub mod in_order;
mod kernel;
pub mod packed;
mod pingpong;
pub mod profile;
mod readback;
mod reduce;
pub mod reflect;
pub mod state_hash;
mod timer;

pub use caps::{DeviceCaps, TEXTURE_SHARE};
pub use checkpoint::Checkpoint;
pub use edit::EditPass;
pub use error::GpuError;
pub use kernel::{Kernel, tally, texel_bytes};
pub use pingpong::PingPong;
pub use readback::{copy_for_reading, map_read_async, read_r32float_async, read_texture_async, snapshot, snapshot_all};
#[cfg(not(target_arch = "wasm32"))]
pub use readback::{map_read, read_r32float, read_texture, wait};
pub use reduce::{Reduction, Totals};
pub use timer::{GpuTime, StepTimer};

use std::sync::{Arc, Mutex};

/// An instance, adapter, device and queue, opened by eddy for the CLI, viewer, tests and benches.
///
/// Honours wgpu's environment variables: `WGPU_BACKEND` (e.g. `vulkan`, `gl`),
/// `WGPU_ADAPTER_NAME` (a substring of the adapter's name), `WGPU_POWER_PREF`.
/// The device gets the adapter's own limits (so large grids work where the adapter allows them)
/// and two optional features where the adapter has them, [`wgpu::Features::TIMESTAMP_QUERY`] (for
/// [`StepTimer`]) and [`wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES`] (for [`profile`]); nothing
/// else depends on them. Uncaptured validation errors and device loss are recorded instead
/// of panicking, and reported by [`Gpu::check`].
pub struct Gpu {
    /// The wgpu instance.
    pub instance: wgpu::Instance,
    /// The chosen adapter.
    pub adapter: wgpu::Adapter,
    /// The device all of eddy's resources live on.
    pub device: wgpu::Device,
    /// The device's queue.
    pub queue: wgpu::Queue,
    /// What the adapter changes, derived once when the device is opened.
    pub caps: DeviceCaps,
    fault: Arc<Mutex<Option<GpuError>>>,
}

/// `desc` with wgpu's validation of indirect dispatches off, unless `WGPU_VALIDATION_INDIRECT_CALL`
/// says otherwise: wgpu checks each indirect dispatch's workgroup counts against the device's
/// limits with a compute pass of its own before it, a pass for every step of water that sleeps
/// (what it costs: docs/performance.md). eddy's own indirect arguments are bounded where they are
/// made: the tiles listed, each once a step, plus one, which `tile_strip` keeps within
/// `max_compute_workgroups_per_dimension` (`src/water/gpu.rs`). An application that brings its
/// own device keeps its own flags.
pub fn without_indirect_validation(mut desc: wgpu::InstanceDescriptor) -> wgpu::InstanceDescriptor {
    if std::env::var_os("WGPU_VALIDATION_INDIRECT_CALL").is_none() {
        desc.flags.remove(wgpu::InstanceFlags::VALIDATION_INDIRECT_CALL);
    }
    desc
}

impl Gpu {
    /// Opens a headless device (no window) on the preferred adapter, with no requirements.
    ///
    /// # Errors
    /// As [`Gpu::headless_for`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn headless() -> Result<Self, GpuError> {
        Self::headless_for(&Requirements::default())
    }

    /// Opens a headless device on the preferred adapter that has what `needs` asks for (see
    /// [`Gpu::with_instance`] for the order adapters are tried in).
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] when there is no adapter (or none whose name contains
    /// `WGPU_ADAPTER_NAME` when that is set; the message lists the adapters there are and says
    /// how to install a software one), [`GpuError::Unsupported`] when no adapter has what
    /// `needs` asks for (naming what each lacks), [`GpuError::RequestDevice`] when the adapter
    /// refuses a device.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn headless_for(needs: &Requirements) -> Result<Self, GpuError> {
        check_backend_env()?;
        let instance = wgpu::Instance::new(without_indirect_validation(
            wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
        ));
        pollster::block_on(Self::with_instance(instance, None, needs))
    }

    /// Opens a device on the browser's WebGPU adapter (`navigator.gpu`; wasm32 builds) that has
    /// what `needs` asks for, with the adapter's own limits.
    ///
    /// # Errors
    /// [`GpuError::NoAdapter`] when the browser offers no WebGPU adapter (WebGPU is off or
    /// absent), [`GpuError::Unsupported`] when its adapter lacks what `needs` asks for (naming
    /// what), [`GpuError::RequestDevice`] when it refuses a device.
    #[cfg(target_arch = "wasm32")]
    pub async fn browser(needs: &Requirements) -> Result<Self, GpuError> {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::BROWSER_WEBGPU;
        Self::with_instance(wgpu::Instance::new(desc), None, needs).await
    }

    /// Opens a device on `instance`, compatible with `surface` when one is given (the viewer),
    /// on the first adapter that has what `needs` asks for. Adapters are tried in this order:
    /// the kind `WGPU_POWER_PREF` asks for (discrete GPU first by default, integrated first with
    /// `low`), then virtual GPUs, then CPU (software) adapters; within a kind, every backend
    /// before OpenGL. An adapter that lacks something is passed over.
    ///
    /// # Errors
    /// As [`Gpu::headless_for`].
    pub async fn with_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
        needs: &Requirements,
    ) -> Result<Self, GpuError> {
        let all = instance.enumerate_adapters(wgpu::Backends::all()).await;
        let labels: Vec<String> = all.iter().map(|a| adapter_label(&a.get_info())).collect();
        let listed = || if labels.is_empty() { "none".to_string() } else { labels.join(", ") };
        let mut candidates: Vec<wgpu::Adapter> = match std::env::var("WGPU_ADAPTER_NAME") {
            // A name was asked for: take it or say which adapters there are; never substitute.
            Ok(name) => {
                let wanted: Vec<_> = all
                    .into_iter()
                    .filter(|a| a.get_info().name.to_lowercase().contains(&name.to_lowercase()))
                    .collect();
                if wanted.is_empty() {
                    return Err(GpuError::NoAdapter {
                        reason: format!("WGPU_ADAPTER_NAME={name:?} matches none of: {}", listed()),
                    });
                }
                wanted
            }
            Err(_) => all,
        };
        if let Some(s) = surface {
            candidates.retain(|a| a.is_surface_supported(s));
        }
        if candidates.is_empty() {
            let reason = if labels.is_empty() {
                "wgpu found none".to_string()
            } else {
                format!("none of these can draw into the window: {}", listed())
            };
            return Err(GpuError::NoAdapter { reason });
        }
        let low_power = wgpu::PowerPreference::from_env() == Some(wgpu::PowerPreference::LowPower);
        candidates.sort_by_key(|a| preference(&a.get_info(), low_power));
        let mut reasons = Vec::new();
        let mut chosen = None;
        for a in candidates {
            let lacks = needs.lacks(&a);
            if lacks.is_empty() {
                chosen = Some(a);
                break;
            }
            reasons.push(format!("{} lacks {}", adapter_label(&a.get_info()), lacks.join(", ")));
        }
        let adapter = chosen.ok_or_else(|| GpuError::Unsupported {
            model: needs.what.clone(),
            reasons: reasons.join("; "),
            hint: "install a Vulkan driver (without a GPU on Linux, Mesa's software one: \
                   `apt-get install mesa-vulkan-drivers libvulkan1`), or set WGPU_BACKEND=vulkan",
        })?;
        let info = adapter.get_info();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("eddy"),
                required_features: adapter.features()
                    & (wgpu::Features::TIMESTAMP_QUERY | wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES),
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .map_err(|e| GpuError::RequestDevice { adapter: info.name.clone(), reason: e.to_string() })?;
        let fault = Arc::new(Mutex::new(None));
        let sink = fault.clone();
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            log::error!("uncaptured GPU error: {e}");
            sink.lock().unwrap().get_or_insert(GpuError::from(e));
        }));
        let sink = fault.clone();
        device.set_device_lost_callback(move |reason, message| {
            if reason != wgpu::DeviceLostReason::Destroyed {
                sink.lock().unwrap().get_or_insert(GpuError::DeviceLost(format!("{reason:?}: {message}")));
            }
        });
        let caps = DeviceCaps::of(&device);
        Ok(Self { instance, adapter, device, queue, caps, fault })
    }

    /// `"name (backend, device type)"`, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, Cpu)`.
    pub fn adapter_label(&self) -> String {
        adapter_label(&self.adapter.get_info())
    }

    /// Reports the first validation error or device loss recorded since the device was opened.
    ///
    /// # Errors
    /// The recorded [`GpuError`] (it stays recorded: a lost device stays lost).
    pub fn check(&self) -> Result<(), GpuError> {
        match &*self.fault.lock().unwrap() {
            None => Ok(()),
            Some(GpuError::DeviceLost(m)) => Err(GpuError::DeviceLost(m.clone())),
            Some(GpuError::OutOfMemory(m)) => Err(GpuError::OutOfMemory(m.clone())),
            Some(e) => Err(GpuError::Validation(e.to_string())),
        }
    }
}

/// Rank of an adapter in the order [`Gpu::with_instance`] tries them (lower first).
fn preference(info: &wgpu::AdapterInfo, low_power: bool) -> (u8, bool) {
    use wgpu::DeviceType::*;
    let kind = match (info.device_type, low_power) {
        (DiscreteGpu, false) | (IntegratedGpu, true) => 0,
        (IntegratedGpu, false) | (DiscreteGpu, true) => 1,
        (VirtualGpu, _) => 2,
        (Cpu, _) => 3,
        (Other, _) => 4,
    };
    (kind, info.backend == wgpu::Backend::Gl)
}

/// What a model (or several) needs from an adapter: compute shaders, storage-texture formats
/// with read-only and write-only access (and read-write for some), and storage textures per
/// pass.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Requirements {
    /// Who needs it, for messages, e.g. `smoke`.
    pub what: String,
    /// Formats bound as read-only and write-only storage textures, with what each holds.
    pub storage: Vec<(wgpu::TextureFormat, String)>,
    /// Of those, the formats also bound read-write.
    pub storage_read_write: Vec<wgpu::TextureFormat>,
    /// Most storage textures one pass writes (its read-only inputs can be sampled textures; see
    /// [`fit`]).
    pub storage_textures_per_stage: u32,
}

impl Requirements {
    /// What `adapter` lacks of these requirements, one phrase each (empty: it has all).
    pub fn lacks(&self, adapter: &wgpu::Adapter) -> Vec<String> {
        let mut lacks = Vec::new();
        if self.storage.is_empty() && self.storage_textures_per_stage == 0 {
            return lacks;
        }
        if !adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::COMPUTE_SHADERS) {
            lacks.push("compute shaders".to_string());
        }
        let access =
            wgpu::TextureFormatFeatureFlags::STORAGE_READ_ONLY | wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY;
        for (format, what) in &self.storage {
            let f = adapter.get_texture_format_features(*format);
            if !f.allowed_usages.contains(wgpu::TextureUsages::STORAGE_BINDING) || !f.flags.contains(access) {
                lacks.push(format!("{format:?} storage textures ({what})"));
            }
        }
        for format in &self.storage_read_write {
            let f = adapter.get_texture_format_features(*format);
            if !f.flags.contains(wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE) {
                lacks.push(format!("read-write {format:?} storage textures"));
            }
        }
        lacks.extend(limits_lacking(&adapter.limits(), self.storage_textures_per_stage));
        lacks
    }

    /// Checks an application's `device` against these requirements' limits (its formats'
    /// features are the adapter's: check those with [`Requirements::lacks`]).
    ///
    /// # Errors
    /// As [`check_device`].
    pub fn check_device(&self, device: &wgpu::Device) -> Result<(), GpuError> {
        check_device(device, &self.what, self.storage_textures_per_stage)
    }

    /// The limits to pass to `request_device` for these requirements ([`required_limits`]).
    pub fn limits(&self) -> wgpu::Limits {
        required_limits(self.storage_textures_per_stage)
    }
}

/// Bytes of workgroup memory the multigrid's coarse levels take (`shaders/solver/coarse.wgsl`:
/// two arrays of `CAPACITY` f32).
const COARSE_WORKGROUP_BYTES: u32 = 2 * 1536 * 4;

/// Each device limit eddy's passes depend on, with the least value they need: `(name in
/// wgpu::Limits, needed, found)`. `storage_textures_per_stage` is the model's
/// ([`Requirements::storage_textures_per_stage`]); the rest hold for every model: compute
/// shaders with workgroups of 64 x 1, 8 x 8 and 256 x 1 invocations (the multigrid's coarse
/// levels), their workgroup memory, one storage buffer (the statistics' reductions), one
/// uniform buffer and one bind group a pass.
fn limit_needs(limits: &wgpu::Limits, storage_textures_per_stage: u32) -> [(&'static str, u32, u32); 9] {
    [
        ("max_compute_workgroups_per_dimension", 1, limits.max_compute_workgroups_per_dimension),
        ("max_compute_invocations_per_workgroup", 256, limits.max_compute_invocations_per_workgroup),
        ("max_compute_workgroup_size_x", 256, limits.max_compute_workgroup_size_x),
        ("max_compute_workgroup_size_y", 8, limits.max_compute_workgroup_size_y),
        ("max_compute_workgroup_storage_size", COARSE_WORKGROUP_BYTES, limits.max_compute_workgroup_storage_size),
        (
            "max_storage_textures_per_shader_stage",
            storage_textures_per_stage,
            limits.max_storage_textures_per_shader_stage,
        ),
        ("max_storage_buffers_per_shader_stage", 1, limits.max_storage_buffers_per_shader_stage),
        ("max_uniform_buffers_per_shader_stage", 1, limits.max_uniform_buffers_per_shader_stage),
        ("max_bind_groups", 1, limits.max_bind_groups),
    ]
}

/// What `limits` lack of what a model whose passes write `storage_textures_per_stage` storage
/// textures needs, one phrase each naming the limit, the value needed and the value found
/// (empty: nothing lacks). The grid's size is checked apart ([`check_grid_size`]).
pub fn limits_lacking(limits: &wgpu::Limits, storage_textures_per_stage: u32) -> Vec<String> {
    limit_needs(limits, storage_textures_per_stage)
        .into_iter()
        .filter(|&(_, needed, found)| found < needed)
        .map(|(name, needed, found)| format!("{name} {needed} (it has {found})"))
        .collect()
}

/// The limits to pass to `request_device` for a model whose passes write
/// `storage_textures_per_stage` storage textures: WebGPU's defaults
/// (`wgpu::Limits::default()`, which every WebGPU adapter has) raised where eddy needs more, so
/// a device made with them passes [`check_device`]. Larger grids need a larger
/// `max_texture_dimension_2d` than its 8192 (ask for the adapter's).
pub fn required_limits(storage_textures_per_stage: u32) -> wgpu::Limits {
    let mut l = wgpu::Limits::default();
    l.max_storage_textures_per_shader_stage = l.max_storage_textures_per_shader_stage.max(storage_textures_per_stage);
    l.max_compute_workgroup_storage_size = l.max_compute_workgroup_storage_size.max(COARSE_WORKGROUP_BYTES);
    l
}

/// Checks that an application's `device` has the limits `what` (a model's name, for the
/// message) needs; every GPU model's constructor calls it first, so a device that is too small
/// gets this error and never wgpu's own text.
///
/// # Errors
/// [`GpuError::DeviceLacks`] naming each limit lacking, the value needed and the value found
/// (a device with WebGL2's downlevel limits lacks compute shaders altogether).
pub fn check_device(device: &wgpu::Device, what: &str, storage_textures_per_stage: u32) -> Result<(), GpuError> {
    let lacks = limits_lacking(&device.limits(), storage_textures_per_stage);
    if lacks.is_empty() {
        return Ok(());
    }
    Err(GpuError::DeviceLacks { model: what.to_string(), lacks: lacks.join(", ") })
}

/// The backend names `WGPU_BACKEND` takes (wgpu's `Backends::from_comma_list`).
const BACKEND_NAMES: [&str; 11] =
    ["vulkan", "vk", "dx12", "d3d12", "metal", "mtl", "opengl", "gles", "gl", "webgpu", "noop"];

/// Checks `WGPU_BACKEND`, when set, names only backends wgpu knows (wgpu itself logs two
/// warnings for a bad name and then finds no adapter).
///
/// # Errors
/// [`GpuError::UnknownBackend`] saying which name is wrong and which there are.
pub fn check_backend_env() -> Result<(), GpuError> {
    let Ok(value) = std::env::var("WGPU_BACKEND") else { return Ok(()) };
    let unknown: Vec<&str> = value
        .split(',')
        .map(str::trim)
        .filter(|b| !b.is_empty() && !BACKEND_NAMES.contains(&b.to_lowercase().as_str()))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    let unknown = unknown.iter().map(|b| format!("{b:?}")).collect::<Vec<_>>().join(", ");
    Err(GpuError::UnknownBackend { value, unknown })
}

/// `"name (backend, device type)"` for an adapter.
pub fn adapter_label(info: &wgpu::AdapterInfo) -> String {
    format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
}

/// Checks that a `width x height` grid fits `device`'s 2D texture limit.
///
/// # Errors
/// [`GpuError::GridTooLarge`] when a side is 0 or larger than `max_texture_dimension_2d`.
pub fn check_grid_size(device: &wgpu::Device, width: usize, height: usize) -> Result<(), GpuError> {
    check_grid_size_with(device, width, height, 0)
}

/// [`check_grid_size`] for a model whose largest textures are `extra` texels a side larger
/// than its grid (smoke's staggered faces: 1): the error names the grid asked for and the
/// largest side the model takes, `max_texture_dimension_2d - extra`.
///
/// # Errors
/// [`GpuError::GridTooLarge`] when a side is 0 or larger than that.
pub fn check_grid_size_with(device: &wgpu::Device, width: usize, height: usize, extra: u32) -> Result<(), GpuError> {
    let max = device.limits().max_texture_dimension_2d.saturating_sub(extra);
    if width == 0 || height == 0 || width > max as usize || height > max as usize {
        return Err(GpuError::GridTooLarge { width, height, max });
    }
    Ok(())
}

/// A `width x height` 2D texture of `format` (one mip level, one sample) with `usage`.
pub fn texture_2d(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

/// A `size`-byte uniform buffer that can be written with `queue.write_buffer`.
pub fn uniform_buffer(device: &wgpu::Device, label: &str, size: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: size as u64,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Writes a whole 2D texture from tightly packed rows (row 0 = top), `bytes_per_texel` each.
pub fn upload(queue: &wgpu::Queue, texture: &wgpu::Texture, bytes: &[u8], bytes_per_texel: u32) {
    queue.write_texture(
        texture.as_image_copy(),
        bytes,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(texture.width() * bytes_per_texel),
            rows_per_image: None,
        },
        texture.size(),
    );
}

/// Runs `f` (resource and pipeline creation) inside validation and out-of-memory error scopes,
/// so a failure comes back as an error instead of reaching the device's uncaptured handler.
/// In a browser, where popping a scope cannot be waited for, `f` runs unscoped and a failure
/// reaches the device's uncaptured-error handler ([`Gpu::check`]).
///
/// # Errors
/// [`GpuError::Validation`] or [`GpuError::OutOfMemory`] with wgpu's description.
#[cfg(target_arch = "wasm32")]
pub fn scoped<T>(_device: &wgpu::Device, f: impl FnOnce() -> T) -> Result<T, GpuError> {
    Ok(f())
}

/// See the wasm32 twin above.
///
/// # Errors
/// [`GpuError::Validation`] or [`GpuError::OutOfMemory`] with wgpu's description.
#[cfg(not(target_arch = "wasm32"))]
pub fn scoped<T>(device: &wgpu::Device, f: impl FnOnce() -> T) -> Result<T, GpuError> {
    let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let value = f();
    let v = pollster::block_on(validation.pop());
    let o = pollster::block_on(oom.pop());
    match o.or(v) {
        Some(e) => Err(e.into()),
        None => Ok(value),
    }
}
