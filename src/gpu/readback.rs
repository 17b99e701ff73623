//! Copying textures back to the CPU.
//!
//! Each readback is an `async fn` (`*_async`) that never blocks: it submits its copy and
//! completes once the device has been polled after the GPU did the work, by whoever owns the
//! device. In a browser that is the page's event loop; in a native application its frame loop
//! (`device.poll(wgpu::PollType::Poll)` once a frame, or any `queue.submit`, which polls too).
//! The blocking forms (`read_texture`, `read_r32float`, `map_read`, and the models' `read_*`
//! and `stats`) run the futures with [`wait`], which polls the device until they complete.

use super::GpuError;
use crate::grid::Grid;

/// Largest staging buffer one readback chunk uses; bigger textures are read in row bands.
const CHUNK_BYTES: u64 = 64 << 20;

/// Reads a whole 2D texture back as tightly packed rows (row 0 = texel row 0 = top),
/// `bytes_per_texel` bytes per texel. Waits for the GPU (native targets only; see
/// [`read_texture_async`]).
///
/// # Errors
/// [`GpuError::DeviceLost`] if the device is lost while waiting, [`GpuError::Readback`] if
/// mapping fails.
#[cfg(not(target_arch = "wasm32"))]
pub fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    bytes_per_texel: u32,
) -> Result<Vec<u8>, GpuError> {
    wait(device, read_texture_async(device, queue, texture, bytes_per_texel))?
}

/// [`read_texture`] as a future (see the module docs): resolves when the texture has been read.
///
/// # Errors
/// As [`read_texture`].
pub async fn read_texture_async(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    bytes_per_texel: u32,
) -> Result<Vec<u8>, GpuError> {
    let (width, height) = (texture.width(), texture.height());
    let row_bytes = width * bytes_per_texel;
    let padded = row_bytes.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
    let rows_per_chunk = ((CHUNK_BYTES / padded as u64).max(1) as u32).min(height);
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("eddy readback"),
        size: padded as u64 * rows_per_chunk as u64,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut out = Vec::with_capacity(row_bytes as usize * height as usize);
    let mut y = 0;
    while y < height {
        let rows = rows_per_chunk.min(height - y);
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin: wgpu::Origin3d { x: 0, y, z: 0 },
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(rows),
                },
            },
            wgpu::Extent3d { width, height: rows, depth_or_array_layers: 1 },
        );
        queue.submit([encoder.finish()]);
        let bytes = map_read_async(device, &buffer, padded as u64 * rows as u64).await?;
        for r in 0..rows as usize {
            let start = r * padded as usize;
            out.extend_from_slice(&bytes[start..start + row_bytes as usize]);
        }
        y += rows;
    }
    Ok(out)
}

/// A new `MAP_READ` buffer of `len` bytes, and the copy into it of `source`'s `len` bytes from
/// `offset` recorded into `encoder`: once that is submitted, [`map_read`] or [`map_read_async`]
/// reads them.
pub fn copy_for_reading(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    label: &str,
    source: &wgpu::Buffer,
    offset: u64,
    len: u64,
) -> wgpu::Buffer {
    let copy = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: len,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_buffer_to_buffer(source, offset, &copy, 0, len);
    copy
}

/// Maps the first `len` bytes of a `MAP_READ` buffer (after the copies into it were
/// submitted), waits for the GPU, and returns them (native targets only; see
/// [`map_read_async`]).
///
/// # Errors
/// As [`read_texture`].
#[cfg(not(target_arch = "wasm32"))]
pub fn map_read(device: &wgpu::Device, buffer: &wgpu::Buffer, len: u64) -> Result<Vec<u8>, GpuError> {
    wait(device, map_read_async(device, buffer, len))?
}

/// [`map_read`] as a future (see the module docs): resolves when the buffer is mapped and copied
/// out.
///
/// # Errors
/// As [`read_texture`].
pub async fn map_read_async(device: &wgpu::Device, buffer: &wgpu::Buffer, len: u64) -> Result<Vec<u8>, GpuError> {
    let slice = buffer.slice(..len);
    let (tx, rx) = futures_channel::oneshot::channel();
    slice.map_async(wgpu::MapMode::Read, move |r| {
        let _ = tx.send(r);
    });
    // The map completes when the device's owner polls it (see the module docs).
    let _ = device;
    rx.await
        .map_err(|_| GpuError::DeviceLost("map callback dropped".into()))?
        .map_err(|e| GpuError::Readback(e.to_string()))?;
    let bytes = slice.get_mapped_range().map_err(|e| GpuError::Readback(e.to_string()))?.to_vec();
    buffer.unmap();
    Ok(bytes)
}

/// Runs `future` (a readback or statistics future of eddy's) to completion on this thread,
/// polling `device` whenever it waits, so that its maps complete: the blocking forms are this
/// around the `*_async` ones. Native targets only (a browser must not block).
///
/// # Errors
/// [`GpuError::DeviceLost`] when polling fails (the device was lost) or the future still
/// waits once the device has no work left (a map that can never complete).
#[cfg(not(target_arch = "wasm32"))]
pub fn wait<T>(device: &wgpu::Device, future: impl Future<Output = T>) -> Result<T, GpuError> {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::task::{Context, Poll, Wake, Waker};
    /// Notes that the future was woken (a map's callback ran).
    struct Flag(AtomicBool);
    impl Wake for Flag {
        fn wake(self: Arc<Self>) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let flag = Arc::new(Flag(AtomicBool::new(false)));
    let waker = Waker::from(flag.clone());
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return Ok(value);
        }
        // Wait for the work submitted so far; the maps it held run their callbacks, which wake
        // the future. Idle and not woken: nothing ever will.
        let status = device.poll(wgpu::PollType::wait_indefinitely())?;
        if !flag.0.swap(false, Ordering::SeqCst) && status.is_queue_empty() {
            return Err(GpuError::DeviceLost("a readback waited on a device with no work left".into()));
        }
    }
}

/// Copies `textures` into new textures of the same size and format, now (the copies are
/// submitted before this returns), so that they can be read back later while the originals run
/// on: what a reader that cannot wait (a browser) needs, since steps submitted after it would
/// overwrite a ping-pong texture before a deferred copy ran.
pub fn snapshot<const N: usize>(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    textures: [&wgpu::Texture; N],
) -> [wgpu::Texture; N] {
    snapshot_all(device, queue, &textures).try_into().expect("one copy per texture")
}

/// [`snapshot`] of any number of textures.
pub fn snapshot_all(device: &wgpu::Device, queue: &wgpu::Queue, textures: &[&wgpu::Texture]) -> Vec<wgpu::Texture> {
    let usage = wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST;
    let copies: Vec<wgpu::Texture> = textures
        .iter()
        .map(|t| super::texture_2d(device, "eddy snapshot", (t.width(), t.height()), t.format(), usage))
        .collect();
    let mut encoder = device.create_command_encoder(&Default::default());
    for (t, c) in textures.iter().zip(&copies) {
        encoder.copy_texture_to_texture(t.as_image_copy(), c.as_image_copy(), t.size());
    }
    queue.submit([encoder.finish()]);
    copies
}

/// Reads an `r32float` texture of `W x H` texels into an `(H, W)` [`Grid<f32>`], row 0 at top.
///
/// # Errors
/// As [`read_texture`].
#[cfg(not(target_arch = "wasm32"))]
pub fn read_r32float(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<Grid<f32>, GpuError> {
    wait(device, read_r32float_async(device, queue, texture))?
}

/// [`read_r32float`] as a future (see the module docs).
///
/// # Errors
/// As [`read_texture`].
pub async fn read_r32float_async(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<Grid<f32>, GpuError> {
    let bytes = read_texture_async(device, queue, texture, 4).await?;
    let data: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
    Ok(Grid::from_vec(texture.width() as usize, texture.height() as usize, data)
        .expect("readback size matches texture"))
}
