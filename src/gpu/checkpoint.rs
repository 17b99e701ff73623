//! [`Checkpoint`]: a GPU copy of a model's state textures, to roll back to.

/// Copies of a set of same-sized textures (a model's state), made and restored with texture
/// copies on the GPU: no readback. `eddy run` keeps one of the last state whose statistics were
/// finite, so a run that blows up still saves a good state.
pub struct Checkpoint {
    copies: Vec<wgpu::Texture>,
}

impl Checkpoint {
    /// Allocates one copy of each of `sources` (same size and format; they need `COPY_SRC` and
    /// `COPY_DST`).
    pub fn new(device: &wgpu::Device, sources: &[&wgpu::Texture]) -> Self {
        let usage = wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST;
        let copies = sources
            .iter()
            .map(|t| super::texture_2d(device, "eddy checkpoint", (t.width(), t.height()), t.format(), usage))
            .collect();
        Self { copies }
    }

    /// Records copies `sources -> checkpoint` into `encoder`. `sources` must be the textures
    /// [`Checkpoint::new`] was given (same count, sizes and formats); others are a wgpu
    /// validation error, reported by the device.
    pub fn capture(&self, encoder: &mut wgpu::CommandEncoder, sources: &[&wgpu::Texture]) {
        for (from, to) in sources.iter().zip(&self.copies) {
            encoder.copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), from.size());
        }
    }

    /// Records copies `checkpoint -> targets` into `encoder`; `targets` as for
    /// [`Checkpoint::capture`].
    pub fn restore(&self, encoder: &mut wgpu::CommandEncoder, targets: &[&wgpu::Texture]) {
        for (from, to) in self.copies.iter().zip(targets) {
            encoder.copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), from.size());
        }
    }
}
