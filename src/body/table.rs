//! The GPU's body table, shared by the models with moving bodies: a buffer of
//! [`MAX_BODIES`] [`GpuBody`] (64 bytes each; `struct Body` in
//! `shaders/common/body.wgsl`), which the models' move passes write as storage and their other
//! passes read as a uniform array, and its readback.

use super::{Body, GpuBody, MAX_BODIES};
use crate::gpu::GpuError;

/// A body table for [`MAX_BODIES`] bodies (storage, uniform, copy source and destination).
pub fn table(device: &wgpu::Device, label: &str) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (MAX_BODIES * std::mem::size_of::<GpuBody>()) as u64,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::UNIFORM
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    })
}

/// Records the write of `bodies` (at most [`MAX_BODIES`]) at the start of `table`.
pub fn encode_write(device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, table: &wgpu::Buffer, bodies: &[Body]) {
    if !bodies.is_empty() {
        let rows: Vec<GpuBody> = bodies.iter().map(Body::gpu).collect();
        crate::gpu::in_order::write_buffer(device, encoder, table, 0, bytemuck::cast_slice(&rows));
    }
}

/// Records the write of body `index`'s velocity `(vx, vy)` and `spin` into `table` (where it
/// is stays the GPU's).
pub fn encode_drive(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    table: &wgpu::Buffer,
    index: usize,
    (vx, vy): (f32, f32),
    spin: f32,
) {
    // GpuBody: velocity at bytes 8..16, spin at 20..24.
    let at = (index * std::mem::size_of::<GpuBody>()) as u64;
    crate::gpu::in_order::write_buffer(device, encoder, table, at + 8, bytemuck::cast_slice(&[vx, vy]));
    crate::gpu::in_order::write_buffer(device, encoder, table, at + 20, bytemuck::bytes_of(&spin));
}

/// Writes body `index`'s velocity and spin from `body` into `table` by the queue (before any
/// work submitted later; where it is stays the GPU's): a contact's answer
/// ([`super::contact::ContactPlan`]).
pub fn write_velocity(queue: &wgpu::Queue, table: &wgpu::Buffer, index: usize, body: &Body) {
    // GpuBody: velocity at bytes 8..16, spin at 20..24.
    let at = (index * std::mem::size_of::<GpuBody>()) as u64;
    queue.write_buffer(table, at + 8, bytemuck::cast_slice(&[body.vx, body.vy]));
    queue.write_buffer(table, at + 20, bytemuck::bytes_of(&body.spin));
}

/// Gives body `index` of `list` the velocity `(vx, vy)` and `spin` where `check` takes the
/// bodies so driven (a model's bounds on its bodies), and records the write into `table`
/// ([`encode_drive`]): the models' `encode_drive`.
///
/// # Errors
/// [`super::drive`]'s (no body `index`, a value not finite) and `check`'s; nothing changes.
#[allow(clippy::too_many_arguments)]
pub fn encode_drive_checked(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    table: &wgpu::Buffer,
    list: &mut Vec<Body>,
    index: usize,
    velocity: (f32, f32),
    spin: f32,
    check: impl FnOnce(&[Body]) -> Result<(), crate::Error>,
) -> Result<(), crate::Error> {
    let mut driven = list.clone();
    super::drive(&mut driven, index, velocity, spin)?;
    check(&driven)?;
    *list = driven;
    encode_drive(device, encoder, table, index, velocity, spin);
    Ok(())
}

/// A readable copy of the first `n` (> 0) bodies of `table`, its copy recorded and submitted
/// now: it holds the bodies as the work submitted before leaves them.
pub fn copy(device: &wgpu::Device, queue: &wgpu::Queue, table: &wgpu::Buffer, n: usize) -> wgpu::Buffer {
    copy_submitted(device, queue, table, n).0
}

/// [`copy`], with the submission that holds it (to wait for it alone).
pub fn copy_submitted(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    table: &wgpu::Buffer,
    n: usize,
) -> (wgpu::Buffer, wgpu::SubmissionIndex) {
    let len = (n * std::mem::size_of::<GpuBody>()) as u64;
    let mut encoder = device.create_command_encoder(&Default::default());
    let copy = crate::gpu::copy_for_reading(device, &mut encoder, "eddy bodies readback", table, 0, len);
    let submission = queue.submit([encoder.finish()]);
    (copy, submission)
}

/// `list` read back from `table` now, waiting for the GPU, where a body of it is free (a list
/// of driven bodies the CPU moves as the GPU does: nothing to read); the copies of `log` in
/// flight, older, are not handed on. The models' `sync_bodies`.
///
/// # Errors
/// [`GpuError::DeviceLost`] / [`GpuError::Readback`]; `list` stays.
#[cfg(not(target_arch = "wasm32"))]
pub fn sync_free(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    table: &wgpu::Buffer,
    list: &mut Vec<Body>,
    log: &mut super::forces::ForceLog,
) -> Result<(), GpuError> {
    if !list.iter().any(Body::is_free) {
        return Ok(());
    }
    let n = list.len();
    *list = crate::gpu::wait(device, read(device, &copy(device, queue, table, n), n))??;
    log.bodies_replaced();
    Ok(())
}

/// The `n` bodies of a [`copy`], as a future that never blocks.
///
/// # Errors
/// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
pub async fn read(device: &wgpu::Device, copy: &wgpu::Buffer, n: usize) -> Result<Vec<Body>, GpuError> {
    let bytes = crate::gpu::map_read_async(device, copy, (n * std::mem::size_of::<GpuBody>()) as u64).await?;
    Ok(bytemuck::pod_collect_to_vec::<u8, GpuBody>(&bytes).iter().map(Body::from_gpu).collect())
}
