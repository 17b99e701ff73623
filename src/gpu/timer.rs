//! GPU time of a stretch of commands, from timestamp queries, read back without waiting.
//!
//! WebGPU and wgpu write timestamps only at the beginning and end of a pass (the `timestamp-query`
//! feature, [`wgpu::Features::TIMESTAMP_QUERY`]). [`StepTimer`] brackets the commands it times
//! with two empty compute passes: the first writes a timestamp as it begins, the second as it
//! ends, so the span covers every pass recorded between them, whatever model recorded them. The
//! two values are resolved into a buffer, copied into a mappable one and mapped asynchronously;
//! [`StepTimer::poll`] collects what has arrived without blocking, so a viewer can time every
//! frame's steps without stalling on the GPU. A few slots are in flight at once; when all are
//! busy, that frame's steps simply go untimed.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

/// How many timed spans may be in flight at once.
const SLOTS: usize = 4;
/// Bytes between slots in the resolve buffer (resolve offsets must be aligned to this).
const STRIDE: u64 = wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT;

const MAPPING: u8 = 0;
const MAPPED: u8 = 1;
const FAILED: u8 = 2;

#[derive(Clone)]
enum Slot {
    Free,
    /// Recorded into an encoder, not yet submitted.
    Recorded {
        steps: u32,
        tag: u32,
    },
    /// Submitted and being mapped: the flag says when the map finished.
    Mapping {
        steps: u32,
        tag: u32,
        flag: Arc<AtomicU8>,
    },
}

/// A measured span: GPU time per step, in nanoseconds, averaged over the spans collected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuTime {
    /// Mean GPU time per step, nanoseconds.
    pub per_step_ns: f64,
    /// Steps the mean covers.
    pub steps: u64,
}

/// Times spans of GPU commands by timestamp queries; see the module docs.
pub struct StepTimer {
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))] // the browser maps without polling
    device: wgpu::Device,
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    readback: Vec<wgpu::Buffer>,
    slots: Vec<Slot>,
    /// Nanoseconds per timestamp tick ([`wgpu::Queue::get_timestamp_period`]).
    period: f64,
    /// Collected since the last [`StepTimer::take`]: nanoseconds and steps, per tag.
    done: Vec<(f64, u64)>,
}

impl StepTimer {
    /// A timer on `device`, or `None` when the device was not opened with
    /// [`wgpu::Features::TIMESTAMP_QUERY`] (the adapter lacks it, or the application did not ask
    /// for it).
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Option<Self> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("eddy step timer"),
            ty: wgpu::QueryType::Timestamp,
            count: 2 * SLOTS as u32,
        });
        let resolve = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("eddy step timer resolve"),
            size: STRIDE * SLOTS as u64,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let readback = (0..SLOTS)
            .map(|_| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("eddy step timer readback"),
                    size: 16,
                    usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                    mapped_at_creation: false,
                })
            })
            .collect();
        Some(Self {
            device: device.clone(),
            queries,
            resolve,
            readback,
            slots: vec![Slot::Free; SLOTS],
            period: queue.get_timestamp_period() as f64,
            done: Vec::new(),
        })
    }

    /// Records `steps` steps' commands (what `record` puts into the encoder) between two
    /// timestamps, tagged `tag` (e.g. which model ran). Returns whether this span is timed: when
    /// every slot is still in flight, `record` runs untimed. Call [`StepTimer::submitted`] after
    /// submitting the encoder.
    pub fn time(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        steps: u32,
        tag: u32,
        record: impl FnOnce(&mut wgpu::CommandEncoder),
    ) -> bool {
        let Some(i) = self.slots.iter().position(|s| matches!(s, Slot::Free)) else {
            record(encoder);
            return false;
        };
        let (begin, end) = (2 * i as u32, 2 * i as u32 + 1);
        let mark = |encoder: &mut wgpu::CommandEncoder, b: Option<u32>, e: Option<u32>| {
            encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("eddy step timer mark"),
                timestamp_writes: Some(wgpu::ComputePassTimestampWrites {
                    query_set: &self.queries,
                    beginning_of_pass_write_index: b,
                    end_of_pass_write_index: e,
                }),
            });
        };
        mark(encoder, Some(begin), None);
        record(encoder);
        mark(encoder, None, Some(end));
        encoder.resolve_query_set(&self.queries, begin..end + 1, &self.resolve, STRIDE * i as u64);
        encoder.copy_buffer_to_buffer(&self.resolve, STRIDE * i as u64, &self.readback[i], 0, 16);
        self.slots[i] = Slot::Recorded { steps, tag };
        true
    }

    /// Starts mapping the spans recorded since the last call; call after submitting the encoder
    /// they were recorded into.
    pub fn submitted(&mut self) {
        for (slot, buffer) in self.slots.iter_mut().zip(&self.readback) {
            if let Slot::Recorded { steps, tag } = *slot {
                let flag = Arc::new(AtomicU8::new(MAPPING));
                let sink = flag.clone();
                buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                    sink.store(if r.is_ok() { MAPPED } else { FAILED }, Ordering::Release);
                });
                *slot = Slot::Mapping { steps, tag, flag };
            }
        }
    }

    /// Collects the spans the GPU has finished, without waiting (polls the device once, on
    /// native; in a browser the maps finish on their own).
    pub fn poll(&mut self) {
        #[cfg(not(target_arch = "wasm32"))]
        let _ = self.device.poll(wgpu::PollType::Poll);
        for (slot, buffer) in self.slots.iter_mut().zip(&self.readback) {
            let Slot::Mapping { steps, tag, flag } = slot else { continue };
            match flag.load(Ordering::Acquire) {
                MAPPING => continue,
                MAPPED => {
                    let ticks: [u64; 2] = {
                        let bytes = buffer.slice(..).get_mapped_range().map(|b| b.to_vec()).unwrap_or_default();
                        if bytes.len() == 16 { bytemuck::pod_read_unaligned(&bytes) } else { [0, 0] }
                    };
                    buffer.unmap();
                    // A span whose end is not after its beginning (a driver that wrote no
                    // timestamps, or a wrapped counter) is dropped rather than reported as 0.
                    if ticks[1] > ticks[0] && *steps > 0 {
                        let t = *tag as usize;
                        if self.done.len() <= t {
                            self.done.resize(t + 1, (0.0, 0));
                        }
                        self.done[t].0 += (ticks[1] - ticks[0]) as f64 * self.period;
                        self.done[t].1 += *steps as u64;
                    }
                }
                _ => {}
            }
            *slot = Slot::Free;
        }
    }

    /// The mean GPU time per step of the spans tagged `tag` collected since the last call (those
    /// of other tags are dropped), or `None` when none arrived.
    pub fn take(&mut self, tag: u32) -> Option<GpuTime> {
        self.poll();
        let (ns, steps) = self.done.get(tag as usize).copied().unwrap_or((0.0, 0));
        self.done.clear();
        (steps > 0).then(|| GpuTime { per_step_ns: ns / steps as f64, steps })
    }
}
