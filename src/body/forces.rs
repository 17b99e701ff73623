//! What the fluid does to its bodies: each body's force and torque each step, and the GPU's log
//! of them ([`ForceLog`]), read back without blocking.
//!
//! Units, as the rest of [`crate::body`]: lengths in cells, time in time units, and the fluid's
//! density 1 per cell (a cell of fluid has mass 1). A force is per unit depth (the grid is a
//! slice of a 2D flow): cell masses times cells per time unit squared, a torque that times
//! cells. `fx` points right, `fy` down (as the grid's y), and a positive torque turns the body
//! in the sense of its `angle` (from x towards y, clockwise on the screen).
//!
//! The drag and lift coefficients ([`Force::coefficients`]) are the force along and across a
//! reference flow over `1/2 rho U^2 L` (`rho` 1): `C_D = 2 F.d / (U^2 L)`, `C_L = 2 F.n / (U^2
//! L)`, `d` the flow's direction and `n` its left-hand normal (up on the screen for a flow to
//! the right).

use super::{Body, GpuBody, MAX_BODIES, Shape};
use crate::gpu::{DeviceCaps, GpuError, Kernel};
use std::collections::VecDeque;

/// Steps the GPU's force log holds (`FORCE_LOG_STEPS` in `shaders/common/force_log.wgsl`): a
/// reader that waits longer between reads than this many steps loses the oldest.
pub const LOG_STEPS: usize = 256;

/// The fluid's force and torque on one body over one step (units in the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Force {
    /// Along x (right), cell masses x cells / time unit^2.
    pub fx: f32,
    /// Along y (down), cell masses x cells / time unit^2.
    pub fy: f32,
    /// About the body's centre, in the sense of its angle (x towards y), cell masses x cells^2 /
    /// time unit^2.
    pub torque: f32,
}

/// A reference flow for [`Force::coefficients`]: its speed, direction and length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reference {
    /// `U`, cells per time unit (> 0).
    pub speed: f32,
    /// The flow's direction, a unit vector `(x, y)` (y down).
    pub direction: (f32, f32),
    /// `L`, cells (> 0): a cylinder's diameter, a body's extent across the flow.
    pub length: f32,
}

impl Reference {
    /// The reference of a uniform stream of `speed` along `direction` past `body`: `L` is the
    /// body's extent across the stream (a circle's diameter, a box's shadow on the normal).
    pub fn across(body: &Body, speed: f32, direction: (f32, f32)) -> Self {
        let length = match body.shape {
            Shape::Circle { radius } => 2.0 * radius,
            Shape::Box { half_width, half_height } => {
                // The box's axes in the grid, projected on the stream's normal.
                let (s, c) = body.angle.sin_cos();
                let n = (direction.1, -direction.0);
                2.0 * (half_width * (c * n.0 + s * n.1).abs() + half_height * (-s * n.0 + c * n.1).abs())
            }
        };
        Self { speed, direction, length }
    }
}

impl Force {
    /// The drag and lift coefficients `(C_D, C_L)` against `reference` (module docs).
    pub fn coefficients(&self, reference: &Reference) -> (f32, f32) {
        let (dx, dy) = reference.direction;
        let q = 0.5 * reference.speed * reference.speed * reference.length;
        ((self.fx * dx + self.fy * dy) / q, (self.fx * dy - self.fy * dx) / q)
    }
}

/// One step's forces, a [`Force`] per body (in the bodies' order).
#[derive(Clone, Debug, PartialEq)]
pub struct StepForces {
    /// The step they were measured over (the model's step count after it).
    pub step: u64,
    /// Body `i`'s force at `[i]`.
    pub forces: Vec<Force>,
}

/// Adds up forces on bodies: one [`Force`] per body, each a sum of `(x, y, fx, fy)` pieces
/// applied at points `(x, y)` (cells), summed in f64. The CPU mirrors' accumulator.
#[derive(Clone, Debug)]
pub struct ForceSum {
    bodies: Vec<(f32, f32)>,
    sums: Vec<[f64; 3]>,
}

impl ForceSum {
    /// An empty sum for `bodies` (their centres are the torques' axes).
    pub fn new(bodies: &[Body]) -> Self {
        Self { bodies: bodies.iter().map(|b| (b.x, b.y)).collect(), sums: vec![[0.0; 3]; bodies.len()] }
    }

    /// Adds force `(fx, fy)` on body `i` applied at `(x, y)`: its torque `(x - cx) fy - (y - cy)
    /// fx` about the body's centre `(cx, cy)`.
    pub fn add(&mut self, i: usize, (x, y): (f32, f32), (fx, fy): (f32, f32)) {
        let (cx, cy) = self.bodies[i];
        let s = &mut self.sums[i];
        s[0] += fx as f64;
        s[1] += fy as f64;
        s[2] += ((x - cx) * fy - (y - cy) * fx) as f64;
    }

    /// The forces, body by body.
    pub fn forces(&self) -> Vec<Force> {
        self.sums.iter().map(|s| Force { fx: s[0] as f32, fy: s[1] as f32, torque: s[2] as f32 }).collect()
    }
}

/// The GPU's log of forces: a storage buffer `struct ForceLog` (`shaders/common/force_log.wgsl`)
/// holding a head (the steps logged so far) and the last [`LOG_STEPS`] steps' forces,
/// [`MAX_BODIES`] `vec4` (fx, fy, torque, 0) a step. A model's forces pass writes step `head`'s
/// slot (`head % LOG_STEPS`), then `force_log_head.wgsl` counts it ([`ForceLog::encode_step`]);
/// the CPU keeps which model step each logged step was, and reads the log back without blocking
/// ([`ForceLog::encode_request`], [`ForceLog::collect`]).
pub struct ForceLog {
    /// The log (storage, copy source).
    pub buffer: wgpu::Buffer,
    head: (Kernel, wgpu::BindGroup),
    /// `(ordinal, model step, bodies)` of the last [`LOG_STEPS`] steps logged, oldest first:
    /// the `ordinal`-th step logged (from 0) is in slot `ordinal % LOG_STEPS`.
    logged: VecDeque<(u64, u64, usize)>,
    /// Steps logged so far (the GPU's head once they have run).
    count: u64,
    /// Steps logged before this ordinal were handed to a request.
    requested: u64,
    pending: Option<Pending>,
    /// The last step's forces collected.
    latest: Option<StepForces>,
    /// The model's body table, copied with each request ([`ForceLog::take_bodies`]).
    table: Option<wgpu::Buffer>,
    /// Counts the replacements of the bodies ([`ForceLog::bodies_replaced`]): a copy of the
    /// table made before the last is not handed on.
    generation: u64,
    /// The bodies of the last request's copy of the table, not yet taken.
    bodies: Option<Vec<Body>>,
}

/// A request in flight: its copy of the log, and the steps it holds.
struct Pending {
    copy: wgpu::Buffer,
    mapped: futures_channel::oneshot::Receiver<Result<(), wgpu::BufferAsyncError>>,
    steps: Vec<(u64, u64, usize)>,
    /// The GPU's head the copy must show.
    head: u64,
    /// Bodies in the table's copy after the log, and the generation they are of.
    bodies: (usize, u64),
}

/// Bytes of the log: the head (16 bytes, padded), then the slots.
const LOG_BYTES: u64 = 16 + (LOG_STEPS * MAX_BODIES * 16) as u64;

/// Bytes of a body table ([`super::table::table`]).
const TABLE_BYTES: u64 = (MAX_BODIES * std::mem::size_of::<GpuBody>()) as u64;

impl ForceLog {
    /// An empty log and its head pass.
    pub fn new(device: &wgpu::Device, caps: &DeviceCaps, label: &str) -> Self {
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: LOG_BYTES,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let kernel = Kernel::new(device, caps, "force_log_head", crate::shaders::FORCE_LOG_HEAD);
        let group = kernel.bind_group(device, &[buffer.as_entire_binding()]);
        Self {
            buffer,
            head: (kernel, group),
            logged: VecDeque::new(),
            count: 0,
            requested: 0,
            pending: None,
            latest: None,
            table: None,
            generation: 0,
            bodies: None,
        }
    }

    /// The log, whose requests also copy the model's body `table` (its free bodies move where
    /// only the GPU knows: [`ForceLog::take_bodies`] hands them on).
    pub fn with_bodies(device: &wgpu::Device, caps: &DeviceCaps, label: &str, table: &wgpu::Buffer) -> Self {
        Self { table: Some(table.clone()), ..Self::new(device, caps, label) }
    }

    /// Says the model's bodies were replaced: a copy of the table requested before is not
    /// handed on.
    pub fn bodies_replaced(&mut self) {
        self.generation += 1;
        self.bodies = None;
    }

    /// The bodies as the last request's copy of the table held them (the table's first `n`, `n`
    /// the bodies of the request's last step), once, if collected since the last take and the
    /// bodies were not replaced since the request.
    pub fn take_bodies(&mut self) -> Option<Vec<Body>> {
        self.bodies.take()
    }

    /// Brings the free bodies of `list` to where the last read of the log found them
    /// ([`ForceLog::take_bodies`]), where that copy holds as many bodies; the driven ones stay
    /// (the CPU moves them as the GPU does). The models' `refresh_bodies`.
    pub fn refresh_free(&mut self, list: &mut [Body]) {
        if let Some(read) = self.take_bodies()
            && read.len() == list.len()
        {
            for (body, read) in list.iter_mut().zip(read) {
                if body.is_free() {
                    *body = read;
                }
            }
        }
    }

    /// Records the head's count of the step whose forces were just recorded (after the model's
    /// forces pass, in the same compute pass): it was model step `step`, with `bodies` bodies.
    pub fn encode_step(&mut self, pass: &mut wgpu::ComputePass<'_>, step: u64, bodies: usize) {
        self.head.0.dispatch(pass, &self.head.1, 1, 1);
        if self.logged.len() == LOG_STEPS {
            self.logged.pop_front();
        }
        self.logged.push_back((self.count, step, bodies));
        self.count += 1;
    }

    /// Records a copy of the log into `encoder`, mapped once the encoder's command buffer is
    /// submitted: [`ForceLog::collect`] then gives the steps logged since the last request (at
    /// most the last [`LOG_STEPS`]). A request while one is in flight is ignored (the next one
    /// takes its steps); nothing is recorded when no step was logged since the last.
    pub fn encode_request(&mut self, device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder) {
        if self.pending.is_some() || self.requested == self.count {
            return;
        }
        let steps: Vec<_> = self.logged.iter().copied().filter(|&(ordinal, ..)| ordinal >= self.requested).collect();
        self.requested = self.count;
        let table_bytes = if self.table.is_some() { TABLE_BYTES } else { 0 };
        let copy = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("eddy force log readback"),
            size: LOG_BYTES + table_bytes,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        encoder.copy_buffer_to_buffer(&self.buffer, 0, &copy, 0, LOG_BYTES);
        if let Some(table) = &self.table {
            encoder.copy_buffer_to_buffer(table, 0, &copy, LOG_BYTES, TABLE_BYTES);
        }
        let bodies = (steps.last().map_or(0, |s| s.2), self.generation);
        let (tx, rx) = futures_channel::oneshot::channel();
        encoder.map_buffer_on_submit(&copy, wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.pending = Some(Pending { copy, mapped: rx, steps, head: self.count, bodies });
    }

    /// Whether a request is in flight.
    pub fn is_requested(&self) -> bool {
        self.pending.is_some()
    }

    /// The steps of the last [`ForceLog::encode_request`] if they have arrived, oldest first
    /// (`None`: not yet, or nothing requested). Never waits (polls the device once on native).
    ///
    /// # Errors
    /// [`GpuError::Readback`] when the copy's command buffer never ran or the GPU's head is not
    /// the steps recorded (a forces pass that did not run).
    pub fn collect(&mut self, device: &wgpu::Device) -> Option<Result<Vec<StepForces>, GpuError>> {
        #[cfg(not(target_arch = "wasm32"))]
        let _ = device.poll(wgpu::PollType::Poll);
        #[cfg(target_arch = "wasm32")]
        let _ = device;
        let pending = self.pending.as_mut()?;
        let mapped = match pending.mapped.try_recv() {
            Ok(None) => return None,
            Ok(Some(r)) => r.map_err(|e| GpuError::Readback(e.to_string())),
            Err(_) => Err(GpuError::Readback(
                "the force log's command buffer was never run (dropped unsubmitted, or the device was lost)".into(),
            )),
        };
        let Pending { copy, steps, head, bodies, .. } = self.pending.take().expect("pending above");
        Some(mapped.and_then(|()| self.unpack(&copy, &steps, head, bodies)))
    }

    /// The steps of the last request, as a future that never blocks: it completes once the
    /// device has been polled after the GPU did the work.
    ///
    /// # Errors
    /// As [`ForceLog::collect`]; nothing requested gives no steps.
    pub async fn finish(&mut self, device: &wgpu::Device) -> Result<Vec<StepForces>, GpuError> {
        let Some(Pending { copy, mapped, steps, head, bodies }) = self.pending.take() else { return Ok(Vec::new()) };
        let _ = device; // the map completes when the device's owner polls it
        match mapped.await {
            Ok(Ok(())) => self.unpack(&copy, &steps, head, bodies),
            Ok(Err(e)) => Err(GpuError::Readback(e.to_string())),
            Err(_) => Err(GpuError::Readback("the force log's command buffer was never run".into())),
        }
    }

    /// The forces of every step logged since the last request, oldest first (at most the last
    /// [`LOG_STEPS`]), waiting for the GPU: a request in flight first, then one for the steps
    /// since.
    ///
    /// # Errors
    /// As [`ForceLog::collect`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read(&mut self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<Vec<StepForces>, GpuError> {
        let mut steps = crate::gpu::wait(device, self.finish(device))??;
        let mut encoder = device.create_command_encoder(&Default::default());
        self.encode_request(device, &mut encoder);
        queue.submit([encoder.finish()]);
        steps.extend(crate::gpu::wait(device, self.finish(device))??);
        Ok(steps)
    }

    /// The last step's forces collected so far (`None` before any).
    pub fn latest(&self) -> Option<&StepForces> {
        self.latest.as_ref()
    }

    /// The forces of `steps` from a mapped `copy` of the log, which must show `head` steps, and
    /// `(n, generation)`: the bodies in the copy of the table after it.
    fn unpack(
        &mut self,
        copy: &wgpu::Buffer,
        steps: &[(u64, u64, usize)],
        head: u64,
        (n, generation): (usize, u64),
    ) -> Result<Vec<StepForces>, GpuError> {
        let bytes = {
            let view = copy.slice(..).get_mapped_range().map_err(|e| GpuError::Readback(e.to_string()))?;
            view.to_vec()
        };
        copy.unmap();
        if self.table.is_some() && generation == self.generation && n > 0 {
            let table = &bytes[LOG_BYTES as usize..][..n * std::mem::size_of::<GpuBody>()];
            self.bodies = Some(bytemuck::pod_collect_to_vec::<u8, GpuBody>(table).iter().map(Body::from_gpu).collect());
        }
        let words: &[f32] = bytemuck::cast_slice(&bytes[..LOG_BYTES as usize]);
        let logged = u64::from(words[0].to_bits());
        if logged != head % (1 << 32) {
            return Err(GpuError::Readback(format!(
                "the force log holds {logged} steps where {head} were recorded (a forces pass did not run)"
            )));
        }
        let steps: Vec<StepForces> = steps
            .iter()
            .map(|&(ordinal, step, bodies)| {
                let slot = 4 + 4 * MAX_BODIES * (ordinal as usize % LOG_STEPS);
                let forces = (0..bodies)
                    .map(|i| {
                        let f = &words[slot + 4 * i..slot + 4 * i + 3];
                        Force { fx: f[0], fy: f[1], torque: f[2] }
                    })
                    .collect();
                StepForces { step, forces }
            })
            .collect();
        if let Some(last) = steps.last() {
            self.latest = Some(last.clone());
        }
        Ok(steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coefficients_of_a_stream_to_the_right_and_to_the_left() {
        let body = Body::new(Shape::Circle { radius: 10.0 }, 50.0, 50.0);
        let right = Reference::across(&body, 2.0, (1.0, 0.0));
        assert_eq!(right.length, 20.0);
        // q = 1/2 4 20 = 40: fx 80 is C_D 2; fy -40 (up) is C_L 1.
        let f = Force { fx: 80.0, fy: -40.0, torque: 0.0 };
        assert_eq!(f.coefficients(&right), (2.0, 1.0));
        // Against a stream to the left the same force is thrust and downforce.
        let left = Reference::across(&body, 2.0, (-1.0, 0.0));
        assert_eq!(f.coefficients(&left), (-2.0, -1.0));
        // A 10 x 2 plate across the stream shows 10 cells, along it 2.
        let plate = Body {
            angle: std::f32::consts::FRAC_PI_2,
            ..Body::new(Shape::Box { half_width: 5.0, half_height: 1.0 }, 0.0, 0.0)
        };
        assert!((Reference::across(&plate, 1.0, (1.0, 0.0)).length - 10.0).abs() < 1e-5);
        assert!((Reference::across(&plate, 1.0, (0.0, 1.0)).length - 2.0).abs() < 1e-5);
    }

    #[test]
    fn a_force_sum_takes_torques_about_each_centre() {
        let bodies =
            [Body::new(Shape::Circle { radius: 1.0 }, 0.0, 0.0), Body::new(Shape::Circle { radius: 1.0 }, 10.0, 0.0)];
        let mut sum = ForceSum::new(&bodies);
        // A push down (+y) at x = 1 turns body 0 from x towards y (+); up at x = 9, body 1 too.
        sum.add(0, (1.0, 0.0), (0.0, 2.0));
        sum.add(1, (9.0, 0.0), (0.0, -2.0));
        sum.add(1, (10.0, 1.0), (3.0, 0.0));
        assert_eq!(sum.forces()[0], Force { fx: 0.0, fy: 2.0, torque: 2.0 });
        assert_eq!(sum.forces()[1], Force { fx: 3.0, fy: -2.0, torque: 2.0 - 3.0 });
    }
}
