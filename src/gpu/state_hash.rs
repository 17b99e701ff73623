//! The state hash: 64 bits that say whether two states are the same to the bit (a run and its
//! replay, the same run on two adapters), computed on the GPU ([`StateHasher`]) and, the same
//! way, on the CPU ([`hash_words`]).
//!
//! A state is a sequence of 32-bit words numbered from 0. For any model they are the words of
//! the textures [`crate::GpuModel::hashed_textures`] names, one texture after another, each's
//! texels row by row from row 0 and a texel's channels in order, a channel's word its bits as
//! the texture holds them (a float's `f32::to_bits`); water numbers its own words, one a cell
//! with the wall in its top bit ([`crate::water::hash`]). Word `i` with bits `v` gives two
//! 32-bit lanes, `lane0 = pcg(v ^ pcg(i))` and `lane1 = pcg(v + pcg(i ^ 0x9e3779b9))` (`pcg`: the
//! PCG output permutation as a hash, Jarzynski & Olano, "Hash Functions for GPU Rendering",
//! JCGT 9(3), 2020), summed over the words with wrapping; the hash is `lane1 << 32 | lane0`. A
//! sum does not depend on the order the words are added in, so every adapter and thread count
//! gives the same hash for the same bits, and a word that differs changes it but for a chance
//! of about 2^-64. Indices past 2^32 words wrap.

use super::{GpuError, Kernel};
use wgpu::util::DeviceExt;

/// The PCG hash of `x` (`pcg` in `shaders/common/hash_lanes.wgsl`).
pub fn pcg(x: u32) -> u32 {
    let state = x.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    let word = ((state >> ((state >> 28) + 4)) ^ state).wrapping_mul(277_803_737);
    (word >> 22) ^ word
}

/// The two lanes of word `index` with bits `v` (module docs).
pub fn lanes(index: u32, v: u32) -> (u32, u32) {
    (pcg(v ^ pcg(index)), pcg(v.wrapping_add(pcg(index ^ 0x9e37_79b9))))
}

/// The hash of the words `words` gives, numbered from 0 in its order (module docs).
pub fn hash_words(words: impl IntoIterator<Item = u32>) -> u64 {
    let (mut lo, mut hi) = (0u32, 0u32);
    for (i, v) in words.into_iter().enumerate() {
        let (a, b) = lanes(i as u32, v);
        lo = lo.wrapping_add(a);
        hi = hi.wrapping_add(b);
    }
    (u64::from(hi) << 32) | u64::from(lo)
}

/// The hash as `eddy run`, the viewer and Python print it: 16 hexadecimal digits.
pub fn hex(hash: u64) -> String {
    format!("{hash:016x}")
}

/// The passes that hash any model's state textures ([`StateHasher::encode`]).
pub struct StateHasher {
    /// Float textures' rows (`common/hash_float.wgsl`).
    float: Kernel,
    /// Unsigned integer textures' rows (`common/hash_uint.wgsl`).
    uint: Kernel,
}

/// `HashPart` in `shaders/common/hash_part.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct HashPart {
    base: u32,
    channels: u32,
    first_row: u32,
    _pad: u32,
}

impl StateHasher {
    /// Builds the passes on `device`.
    pub fn new(device: &wgpu::Device, caps: &super::DeviceCaps) -> Self {
        StateHasher {
            float: Kernel::new(device, caps, "common/hash_float", crate::shaders::HASH_FLOAT),
            uint: Kernel::new(device, caps, "common/hash_uint", crate::shaders::HASH_UINT),
        }
    }

    /// Records the hash of `textures`' words (module docs) into `encoder`, in recording order:
    /// it hashes what the passes recorded before it leave. Once the encoder is submitted,
    /// [`StateHashCopy::read`] gives the hash. The textures need `TEXTURE_BINDING`.
    ///
    /// # Errors
    /// [`GpuError::Validation`] when `textures` is empty or one's format is neither a float nor
    /// an unsigned integer colour format (an `r32sint` or a depth texture); nothing is recorded.
    pub fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        textures: &[&wgpu::Texture],
    ) -> Result<StateHashCopy, GpuError> {
        let mut parts = Vec::with_capacity(textures.len());
        let (mut base, mut first_row) = (0u32, 0u32);
        for texture in textures {
            let format = texture.format();
            let kernel = match format.sample_type(None, Some(device.features())) {
                Some(wgpu::TextureSampleType::Float { .. }) => &self.float,
                Some(wgpu::TextureSampleType::Uint) => &self.uint,
                _ => {
                    return Err(GpuError::Validation(format!(
                        "the state hash reads float and unsigned integer textures, and one of the state's is {format:?}"
                    )));
                }
            };
            let channels = u32::from(format.components());
            parts.push((kernel, HashPart { base, channels, first_row, _pad: 0 }));
            let words = u64::from(texture.width()) * u64::from(texture.height()) * u64::from(channels);
            base = base.wrapping_add(words as u32);
            first_row += texture.height();
        }
        if textures.is_empty() {
            return Err(GpuError::Validation("the state hash was given no textures to read".into()));
        }
        let len = 8 * u64::from(first_row);
        let rows = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("state hash rows"),
            size: len,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let uniforms: Vec<_> = parts
            .iter()
            .map(|(_, part)| {
                device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("state hash part"),
                    contents: bytemuck::bytes_of(part),
                    usage: wgpu::BufferUsages::UNIFORM,
                })
            })
            .collect();
        {
            let mut pass = encoder
                .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("state hash"), timestamp_writes: None });
            for ((texture, (kernel, _)), uniform) in textures.iter().zip(&parts).zip(&uniforms) {
                let view = texture.create_view(&Default::default());
                let resources =
                    [uniform.as_entire_binding(), wgpu::BindingResource::TextureView(&view), rows.as_entire_binding()];
                kernel.dispatch_once(&mut pass, device, &resources, texture.height(), 1);
            }
        }
        Ok(StateHashCopy::new(device, encoder, &rows, len))
    }
}

/// The state hash's rows' sums, copied for reading ([`StateHasher::encode`],
/// [`crate::water::GpuWater::encode_state_hash`]).
pub struct StateHashCopy {
    copy: wgpu::Buffer,
    len: u64,
}

impl StateHashCopy {
    /// The rows' sums in `rows` (`len` bytes, two `u32` lanes a row), copied for reading.
    pub(crate) fn new(
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        rows: &wgpu::Buffer,
        len: u64,
    ) -> Self {
        StateHashCopy { copy: super::copy_for_reading(device, encoder, "state hash readback", rows, 0, len), len }
    }

    /// The hash, once the encoder holding the copy was submitted: the rows' sums added with
    /// wrapping (module docs).
    ///
    /// # Errors
    /// [`GpuError::DeviceLost`] / [`GpuError::Readback`].
    pub async fn read(self, device: wgpu::Device) -> Result<u64, GpuError> {
        let bytes = super::map_read_async(&device, &self.copy, self.len).await?;
        let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let (mut lo, mut hi) = (0u32, 0u32);
        for row in bytes.chunks_exact(8) {
            lo = lo.wrapping_add(word(&row[..4]));
            hi = hi.wrapping_add(word(&row[4..]));
        }
        Ok((u64::from(hi) << 32) | u64::from(lo))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Order of addition does not matter, and the index does: the same words in another order
    /// hash differently.
    #[test]
    fn words_are_numbered() {
        let a = hash_words([1, 2, 3]);
        assert_ne!(a, hash_words([2, 1, 3]));
        assert_eq!(a, hash_words([1, 2, 3]));
        assert_ne!(hash_words([0]), hash_words([0, 0]));
    }
}
