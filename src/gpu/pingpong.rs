//! [`PingPong`]: two storage textures that take turns being read and written.

/// A pair of same-sized 2D textures for one field: each step reads one (`textureLoad`) and writes
/// the other (a `write` storage binding), then [`PingPong::swap`] makes the written one current.
///
/// Passes that use it build two bind groups, `[reads 0 writes 1, reads 1 writes 0]`, and pick
/// one with [`PingPong::read_index`] (the wgpu `boids` pattern), so swapping costs nothing.
/// Texture size is `(W, H)` texels for an `(H, W)` grid; texel `(x, y)` is grid cell
/// `(row = y, col = x)`, row 0 at the top.
pub struct PingPong {
    textures: [wgpu::Texture; 2],
    views: [wgpu::TextureView; 2],
    read: usize,
}

impl PingPong {
    /// Creates both textures, `width x height` texels of `format`, usable as sampled textures,
    /// write storage textures, and copy source/destination (uploads and readback).
    pub fn new(device: &wgpu::Device, label: &str, width: u32, height: u32, format: wgpu::TextureFormat) -> Self {
        let usage = wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::STORAGE_BINDING
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST;
        let make = |i: usize| super::texture_2d(device, &format!("{label}[{i}]"), (width, height), format, usage);
        let textures = [make(0), make(1)];
        let views = [textures[0].create_view(&Default::default()), textures[1].create_view(&Default::default())];
        Self { textures, views, read: 0 }
    }

    /// The texture holding the current state (what the next step reads).
    pub fn current(&self) -> &wgpu::Texture {
        &self.textures[self.read]
    }

    /// View of the current state.
    pub fn current_view(&self) -> &wgpu::TextureView {
        &self.views[self.read]
    }

    /// Index (0 or 1) of the texture the next step reads; bind group `read_index()` of a pass
    /// reads it and writes the other one.
    pub fn read_index(&self) -> usize {
        self.read
    }

    /// Both views, in index order, for building the two bind groups.
    pub fn views(&self) -> &[wgpu::TextureView; 2] {
        &self.views
    }

    /// Makes the texture just written the current one.
    pub fn swap(&mut self) {
        self.read ^= 1;
    }
}
