//! The smoke model's GPU fields, shared by both pipelines' passes ([`super::collocated`], the
//! staggered grid's) and the model that owns them ([`super::gpu`]): the textures, their
//! formats, and which impulse uniform is which.

use crate::gpu::PingPong;

pub(super) const R32: wgpu::TextureFormat = wgpu::TextureFormat::R32Float;
pub(super) const RG32: wgpu::TextureFormat = wgpu::TextureFormat::Rg32Float;
pub(super) const BITS: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;
pub(super) const RGBA32: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

/// The fields' textures.
pub(super) struct Fields {
    pub(super) velocity: PingPong,
    pub(super) temperature: PingPong,
    pub(super) density: PingPong,
    pub(super) pressure: PingPong,
    pub(super) divergence: wgpu::Texture,
    pub(super) divergence_view: wgpu::TextureView,
    pub(super) solid: wgpu::Texture,
    pub(super) solid_view: wgpu::TextureView,
    /// The curl at cell centres (staggered grid; stays 0 on the collocated grid).
    pub(super) vorticity_view: wgpu::TextureView,
    /// The dye, `rgba32float` (r g b in .rgb; staggered grid, kept as loaded on the collocated).
    pub(super) dye: PingPong,
}

/// The impulse uniform of a step (the scene's sources).
pub(super) const IMPULSE_STEP: usize = 0;
/// The impulse uniform of the splats.
pub(super) const IMPULSE_SPLAT: usize = 1;
