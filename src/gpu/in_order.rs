//! Writes recorded into a command encoder, so that they take effect in recording order.
//!
//! `queue.write_buffer` and `queue.write_texture` run before every command buffer of the next
//! `queue.submit`, whatever was recorded before them: a brush's uniform written that way while
//! an application's encoder already holds a step lands before the step. The forms here copy the
//! bytes into a fresh staging buffer (`create_buffer_init`) and record a copy from it into the
//! encoder, as wgpu's `util::StagingBelt` does, so the write happens where it was recorded.
//! A staging buffer lives until the command buffer that reads it has run; the cost is one small
//! buffer per edit, which a mouse-driven tool does a few times a frame.

/// Records a write of `bytes` (a multiple of 4 bytes, as wgpu's copies need) into `buffer` at
/// byte `offset`.
///
/// # Panics
/// When `bytes` is empty or not a multiple of [`wgpu::COPY_BUFFER_ALIGNMENT`] (eddy's uniforms
/// are padded to 16 bytes).
pub fn write_buffer(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    buffer: &wgpu::Buffer,
    offset: u64,
    bytes: &[u8],
) {
    assert!(
        !bytes.is_empty() && (bytes.len() as u64).is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT),
        "uniform of {} bytes",
        bytes.len()
    );
    let staging = staging_buffer(device, bytes);
    encoder.copy_buffer_to_buffer(&staging, 0, buffer, offset, bytes.len() as u64);
}

/// Records a write of a whole 2D texture from tightly packed rows (row 0 = top),
/// `bytes_per_texel` each; the recorded form of [`super::upload`]. Rows are padded to
/// [`wgpu::COPY_BYTES_PER_ROW_ALIGNMENT`] in the staging buffer, as copies from a buffer need.
///
/// # Panics
/// When `bytes` is not `width * height * bytes_per_texel` long.
pub fn upload(
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    bytes: &[u8],
    bytes_per_texel: u32,
) {
    let (w, h) = (texture.width(), texture.height());
    let row = (w * bytes_per_texel) as usize;
    assert_eq!(bytes.len(), row * h as usize, "texture upload of the wrong size");
    let padded = (w * bytes_per_texel).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let mut rows = vec![0u8; padded as usize * h as usize];
    for (dst, src) in rows.chunks_exact_mut(padded as usize).zip(bytes.chunks_exact(row)) {
        dst[..row].copy_from_slice(src);
    }
    let staging = staging_buffer(device, &rows);
    encoder.copy_buffer_to_texture(
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: None },
        },
        texture.as_image_copy(),
        texture.size(),
    );
}

/// A copy source holding `bytes`.
fn staging_buffer(device: &wgpu::Device, bytes: &[u8]) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("eddy recorded write"),
        contents: bytes,
        usage: wgpu::BufferUsages::COPY_SRC,
    })
}
