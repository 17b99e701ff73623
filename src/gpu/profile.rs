//! GPU time per compute pass: a timestamp written just before and just after each dispatch
//! [`super::Kernel::dispatch`] records while a profile is open on this thread (what
//! `eddy bench --passes` reports).
//!
//! Needs [`wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES`] (Vulkan, DX12, Metal; not WebGPU),
//! which [`super::Gpu`] asks for where the adapter has it. One profile holds
//! [`wgpu::QUERY_SET_MAX_QUERIES`] timestamps, two per dispatch; dispatches past that go
//! untimed, and [`Profile::untimed`] says how many.
//!
//! wgpu puts a barrier only between dispatches that depend on each other, and an adapter may
//! run on with one dispatch's work while it records the next when they do not: a span then holds
//! part of the work of the dispatch before it. Seen on lavapipe: an advection that writes other
//! textures than the pass before it reads shows ~0.1 ms, and the first pass that reads what it
//! wrote carries its time. The sum over a step's passes holds, and so does a pass that depends
//! on the one before (the Jacobi iterations, each reading the last).

use std::cell::RefCell;

/// Timestamps one profile holds.
const CAPACITY: u32 = wgpu::QUERY_SET_MAX_QUERIES;

thread_local! {
    static OPEN: RefCell<Option<Open>> = const { RefCell::new(None) };
}

struct Open {
    queries: wgpu::QuerySet,
    /// The timed dispatches in recording order: the kernel's label and the bytes it moved.
    timed: Vec<(&'static str, u64)>,
    untimed: u64,
}

/// One pass (kernel label) of a profile: its dispatches, their GPU time and bytes, summed.
#[derive(Clone, Debug, PartialEq)]
pub struct PassTime {
    /// The kernel's label, e.g. `smoke/jacobi`.
    pub label: &'static str,
    /// Dispatches of it the profile timed.
    pub dispatches: u64,
    /// Their GPU time, nanoseconds, summed.
    pub ns: f64,
    /// The bytes they move (each bound storage texture's texels once, [`super::texel_bytes`]), summed.
    pub bytes: u64,
}

/// What a profile measured: each pass's time, in the order the passes were first recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// One row per kernel label.
    pub passes: Vec<PassTime>,
    /// Dispatches recorded after the query set was full (not in `passes`).
    pub untimed: u64,
}

/// Opens a profile on this thread (an open one is dropped). Returns `false`, and opens none,
/// when `device` was not opened with [`wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES`].
pub fn start(device: &wgpu::Device) -> bool {
    let supported = device.features().contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES);
    let open = supported.then(|| Open {
        queries: device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("eddy pass profile"),
            ty: wgpu::QueryType::Timestamp,
            count: CAPACITY,
        }),
        timed: Vec::new(),
        untimed: 0,
    });
    OPEN.with(|o| *o.borrow_mut() = open);
    supported
}

/// Whether a profile is open on this thread.
pub fn is_open() -> bool {
    OPEN.with(|o| o.borrow().is_some())
}

/// Records `dispatch` between two timestamps when a profile is open and has room.
pub(super) fn around(
    pass: &mut wgpu::ComputePass<'_>,
    label: &'static str,
    bytes: u64,
    dispatch: impl FnOnce(&mut wgpu::ComputePass<'_>),
) {
    let queries = OPEN.with(|o| {
        let mut o = o.borrow_mut();
        let open = o.as_mut()?;
        let index = 2 * open.timed.len() as u32;
        if index + 2 > CAPACITY {
            open.untimed += 1;
            return None;
        }
        open.timed.push((label, bytes));
        Some((open.queries.clone(), index))
    });
    match queries {
        Some((queries, index)) => {
            pass.write_timestamp(&queries, index);
            dispatch(pass);
            pass.write_timestamp(&queries, index + 1);
        }
        None => dispatch(pass),
    }
}

/// Closes this thread's profile and reads its timestamps back, waiting for the GPU. Call after
/// the commands recorded while it was open have been submitted. `None` when no profile was
/// open.
///
/// # Errors
/// [`super::GpuError`] when the readback fails (device lost).
#[cfg(not(target_arch = "wasm32"))]
pub fn finish(device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Option<Profile>, super::GpuError> {
    let Some(open) = OPEN.with(|o| o.borrow_mut().take()) else { return Ok(None) };
    let count = 2 * open.timed.len() as u32;
    let mut profile = Profile { passes: Vec::new(), untimed: open.untimed };
    if count == 0 {
        return Ok(Some(profile));
    }
    let size = count as u64 * 8;
    let resolve = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("eddy pass profile resolve"),
        size,
        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("eddy pass profile readback"),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.resolve_query_set(&open.queries, 0..count, &resolve, 0);
    encoder.copy_buffer_to_buffer(&resolve, 0, &readback, 0, size);
    queue.submit([encoder.finish()]);
    let bytes = super::map_read(device, &readback, size)?;
    let ticks: Vec<u64> = bytes.chunks_exact(8).map(bytemuck::pod_read_unaligned).collect();
    let period = queue.get_timestamp_period() as f64;
    for (i, &(label, moved)) in open.timed.iter().enumerate() {
        // A span whose end is not after its beginning (a wrapped counter) counts 0.
        let ns = ticks[2 * i + 1].saturating_sub(ticks[2 * i]) as f64 * period;
        match profile.passes.iter_mut().find(|p| p.label == label) {
            Some(p) => {
                p.dispatches += 1;
                p.ns += ns;
                p.bytes += moved;
            }
            None => profile.passes.push(PassTime { label, dispatches: 1, ns, bytes: moved }),
        }
    }
    Ok(Some(profile))
}
