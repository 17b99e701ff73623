//! [`Reduction`]: statistics of a whole grid on the GPU, read back as one row of numbers per
//! grid row instead of every cell.

use super::{GpuError, Kernel};
use std::cell::RefCell;

/// Mirrors `struct Partial` in `shaders/common/reduce.wgsl` (48 bytes): one grid row's four
/// sums, two minima, two maxima and four more sums.
#[repr(C)]
#[derive(Clone, Copy, Debug, bytemuck::Pod, bytemuck::Zeroable)]
struct Partial {
    sum: [f32; 4],
    lo: [f32; 2],
    hi: [f32; 2],
    more: [f32; 4],
}

/// A whole grid's statistics: the eight sums (rows added in f64), the two minima and two
/// maxima. What each slot means is the model's `stats.wgsl`'s choice.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Totals {
    /// Sums over the grid.
    pub sum: [f64; 4],
    /// Minima (3e38 where no cell contributed).
    pub lo: [f32; 2],
    /// Maxima (-3e38 where no cell contributed).
    pub hi: [f32; 2],
    /// Four more sums (0 where the model fills none).
    pub more: [f64; 4],
}

impl Totals {
    /// Minimum `k` (0 or 1; panics otherwise), or infinity where no cell contributed one. Only
    /// meaningful when the model's non-finite count is 0: WGSL's `min` of a NaN may return either
    /// operand.
    pub fn min(&self, k: usize) -> f32 {
        if self.lo[k] >= 3e38 { f32::INFINITY } else { self.lo[k] }
    }

    /// Maximum `k` (0 or 1; panics otherwise), or minus infinity where no cell contributed one;
    /// as [`Totals::min`], only meaningful without non-finite cells.
    pub fn max(&self, k: usize) -> f32 {
        if self.hi[k] <= -3e38 { f32::NEG_INFINITY } else { self.hi[k] }
    }

    /// The totals of grids `parts` together (the pages of a paged water world): the sums added
    /// in order, the least of the minima and the greatest of the maxima.
    ///
    /// # Panics
    /// When `parts` is empty.
    pub fn merge_all(parts: &[Totals]) -> Totals {
        let mut all = parts[0];
        for p in &parts[1..] {
            for k in 0..4 {
                all.sum[k] += p.sum[k];
                all.more[k] += p.more[k];
            }
            for k in 0..2 {
                all.lo[k] = all.lo[k].min(p.lo[k]);
                all.hi[k] = all.hi[k].max(p.hi[k]);
            }
        }
        all
    }

    /// Sum `k` (0 to 3; panics otherwise) as a count: rounded, 0 when negative or NaN.
    pub fn count(&self, k: usize) -> u64 {
        self.sum[k].round().max(0.0) as u64
    }
}

/// A statistics pass: the model's `stats.wgsl` composed with `shaders/common/reduce.wgsl`,
/// one invocation per row. Binding 0 is the row results; the model's resources follow from 1.
pub struct Reduction {
    /// Shared by [`Reduction::sibling`]s.
    kernel: std::sync::Arc<Kernel>,
    rows: wgpu::Buffer,
    staging: wgpu::Buffer,
    height: u32,
    pending: RefCell<Pending>,
}

/// Where a requested reduction stands.
enum Pending {
    Idle,
    Mapping(futures_channel::oneshot::Receiver<Result<(), wgpu::BufferAsyncError>>),
    Mapped(Result<(), GpuError>),
}

impl Reduction {
    /// Builds the pass for a grid `height` rows tall (cells), with a row-results buffer and a
    /// staging buffer of `height x 48` bytes; binding 0 is the row results, the model's own
    /// bindings (1 and up) are what `source` declares. Creation errors surface through the device's error scopes
    /// ([`super::scoped`]), as for [`Kernel::new`].
    pub fn new(
        device: &wgpu::Device,
        caps: &super::DeviceCaps,
        label: &'static str,
        source: &str,
        height: u32,
    ) -> Self {
        // In the browser a kernel holds a `wgpu::Device` (to build its pipeline when first
        // dispatched), which is neither Send nor Sync there: one thread, so the Arc is plain sharing.
        #[cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]
        let kernel = std::sync::Arc::new(Kernel::new(device, caps, label, source));
        Self::with_kernel(device, kernel, height)
    }

    /// [`Reduction::new`] for WGSL that may not reflect (a model written outside eddy).
    ///
    /// # Errors
    /// As [`Kernel::try_new`].
    pub fn try_new(
        device: &wgpu::Device,
        caps: &super::DeviceCaps,
        label: &'static str,
        source: &str,
        height: u32,
    ) -> Result<Self, GpuError> {
        // As in `new`.
        #[cfg_attr(target_arch = "wasm32", allow(clippy::arc_with_non_send_sync))]
        let kernel = std::sync::Arc::new(Kernel::try_new(device, caps, label, source)?);
        Ok(Self::with_kernel(device, kernel, height))
    }

    /// Another reduction of the same pass for a grid `height` rows tall, with its own buffers and
    /// requests but this one's pipeline (no shader compiled again: for many requests in flight
    /// at once, as a solve's residual after each V-cycle).
    pub fn sibling(&self, device: &wgpu::Device, height: u32) -> Self {
        Self::with_kernel(device, self.kernel.clone(), height)
    }

    fn with_kernel(device: &wgpu::Device, kernel: std::sync::Arc<Kernel>, height: u32) -> Self {
        let label = kernel.label();
        let size = height as u64 * std::mem::size_of::<Partial>() as u64;
        let rows = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Self { kernel, rows, staging, height, pending: RefCell::new(Pending::Idle) }
    }

    /// Runs the pass over `resources` (bindings 1 and up, in the order `source` declares them;
    /// other resources are a wgpu validation error, reported by the device)
    /// and adds the rows up in f64. Waits for the GPU (native targets; see
    /// [`Reduction::request`] for the form that never waits).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`] when the rows cannot be read back.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn run(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        resources: &[wgpu::BindingResource<'_>],
    ) -> Result<Totals, GpuError> {
        super::wait(device, self.run_async(device, queue, resources))?
    }

    /// [`Reduction::run`] as a future that never blocks: it completes once the device
    /// has been polled after the GPU did the work (a frame loop's `device.poll`, any submit, a
    /// browser's event loop; see `gpu::read_texture_async`).
    ///
    /// # Errors
    /// As [`Reduction::run`].
    pub async fn run_async(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        resources: &[wgpu::BindingResource<'_>],
    ) -> Result<Totals, GpuError> {
        self.settle(device).await;
        self.request(device, queue, resources);
        self.finish(device).await
    }

    /// Waits out a request still in flight and drops its totals, so that the next
    /// [`Reduction::request`] is taken (a one-shot reader must not get an earlier request's
    /// totals).
    pub async fn settle(&self, device: &wgpu::Device) {
        if self.is_requested() {
            let _ = self.finish(device).await;
        }
    }

    /// Whether a request is in flight or arrived and not yet collected (`false`: nothing to
    /// collect; ask again).
    pub fn is_requested(&self) -> bool {
        !matches!(*self.pending.borrow(), Pending::Idle)
    }

    /// Submits the pass and starts mapping its rows, without waiting; [`Reduction::collect`]
    /// (or [`Reduction::finish`]) gives the totals once they arrive. A request while one is
    /// still in flight is ignored (the rows have one staging buffer: [`Reduction::settle`]
    /// first where that matters); one that arrived and was never collected is dropped.
    pub fn request(&self, device: &wgpu::Device, queue: &wgpu::Queue, resources: &[wgpu::BindingResource<'_>]) {
        let mut encoder = device.create_command_encoder(&Default::default());
        self.encode_request(device, &mut encoder, resources);
        queue.submit([encoder.finish()]);
    }

    /// Records the pass and the copy of its rows into `encoder`, the rows mapped once the
    /// encoder's command buffer is submitted ([`wgpu::CommandEncoder::map_buffer_on_submit`]):
    /// the totals are of the fields where the encoder has got to. [`Reduction::collect`] gives
    /// them once the application has submitted and polled its device; an encoder dropped
    /// unsubmitted makes them [`GpuError::Readback`]. In flight, ignored and dropped requests
    /// as for [`Reduction::request`].
    pub fn encode_request(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        resources: &[wgpu::BindingResource<'_>],
    ) {
        // One still in flight keeps the staging buffer; one that arrived but was never collected
        // (its asker moved on) is dropped.
        self.ready(device);
        match std::mem::replace(&mut *self.pending.borrow_mut(), Pending::Idle) {
            Pending::Idle => {}
            Pending::Mapped(r) => {
                if r.is_ok() {
                    self.staging.unmap();
                }
            }
            mapping @ Pending::Mapping(_) => {
                *self.pending.borrow_mut() = mapping;
                return;
            }
        }
        let mut all = vec![self.rows.as_entire_binding()];
        all.extend_from_slice(resources);
        {
            // A group for this request only: the fields bound change from request to request.
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.kernel.dispatch_once(&mut pass, device, &all, self.height, 1);
        }
        encoder.copy_buffer_to_buffer(&self.rows, 0, &self.staging, 0, self.rows.size());
        let (tx, rx) = futures_channel::oneshot::channel();
        encoder.map_buffer_on_submit(&self.staging, wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        *self.pending.borrow_mut() = Pending::Mapping(rx);
    }

    /// Whether a requested reduction has arrived (polls the device once on native, without
    /// waiting).
    pub fn ready(&self, device: &wgpu::Device) -> bool {
        #[cfg(not(target_arch = "wasm32"))]
        let _ = device.poll(wgpu::PollType::Poll);
        #[cfg(target_arch = "wasm32")]
        let _ = device; // the browser maps on its own event loop
        let mut pending = self.pending.borrow_mut();
        if let Pending::Mapping(rx) = &mut *pending {
            match rx.try_recv() {
                Ok(Some(r)) => *pending = Pending::Mapped(r.map_err(|e| GpuError::Readback(e.to_string()))),
                Ok(None) => {}
                Err(_) => *pending = Pending::Mapped(Err(dropped())),
            }
        }
        matches!(*pending, Pending::Mapped(_))
    }

    /// The totals of the last [`Reduction::request`] if they have arrived (`None`: not yet, or
    /// nothing requested). Never waits.
    ///
    /// # Errors
    /// As [`Reduction::run`].
    pub fn collect(&self, device: &wgpu::Device) -> Option<Result<Totals, GpuError>> {
        if !self.ready(device) {
            return None;
        }
        let Pending::Mapped(mapped) = std::mem::replace(&mut *self.pending.borrow_mut(), Pending::Idle) else {
            unreachable!("ready() said mapped")
        };
        Some(mapped.and_then(|()| self.totals()))
    }

    /// The last [`Reduction::request`]'s totals, as a future that never blocks: it completes once
    /// the device has been polled after the GPU did the work ([`super::wait`] polls it).
    ///
    /// # Errors
    /// As [`Reduction::run`]; [`GpuError::Readback`] when nothing was requested.
    pub async fn finish(&self, device: &wgpu::Device) -> Result<Totals, GpuError> {
        let pending = std::mem::replace(&mut *self.pending.borrow_mut(), Pending::Idle);
        let mapped = match pending {
            Pending::Idle => return Err(GpuError::Readback("no reduction was requested".into())),
            Pending::Mapped(r) => r,
            Pending::Mapping(rx) => {
                // Completes when the device's owner polls it (gpu::wait does in the blocking forms).
                let _ = device;
                match rx.await {
                    Ok(r) => r.map_err(|e| GpuError::Readback(e.to_string())),
                    Err(_) => Err(dropped()),
                }
            }
        };
        mapped.and_then(|()| self.totals())
    }

    /// Reads the mapped rows, unmaps them, and adds them up.
    fn totals(&self) -> Result<Totals, GpuError> {
        let bytes = {
            let view = self.staging.slice(..).get_mapped_range().map_err(|e| GpuError::Readback(e.to_string()))?;
            view.to_vec()
        };
        self.staging.unmap();
        let rows: Vec<Partial> = bytemuck::pod_collect_to_vec(&bytes);
        let mut t = Totals { sum: [0.0; 4], lo: [f32::INFINITY; 2], hi: [f32::NEG_INFINITY; 2], more: [0.0; 4] };
        for r in rows {
            for k in 0..4 {
                t.sum[k] += r.sum[k] as f64;
                t.more[k] += r.more[k] as f64;
            }
            for k in 0..2 {
                t.lo[k] = t.lo[k].min(r.lo[k]);
                t.hi[k] = t.hi[k].max(r.hi[k]);
            }
        }
        Ok(t)
    }
}

/// The error of a request whose map never ran: its encoder was dropped unsubmitted, or the
/// device went away with it.
fn dropped() -> GpuError {
    GpuError::Readback(
        "the reduction's command buffer was never run (dropped unsubmitted, or the device was lost)".into(),
    )
}
