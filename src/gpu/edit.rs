//! [`EditPass`]: a compute pass that edits a ping-pong field in place, under a uniform.

use super::{Kernel, PingPong};

/// A field edit (the brushes of every model): bindings `uniform` (0), the field read (1), the
/// `r32uint` solid bits (2), the field written (3). Bind group `i` reads ping-pong texture `i`
/// and writes `1 - i`; [`EditPass::apply`] swaps the ping-pong after.
pub struct EditPass {
    kernel: Kernel,
    uniform: wgpu::Buffer,
    bind_groups: [wgpu::BindGroup; 2],
}

impl EditPass {
    /// Builds the pass for `source` over `field` (texels of the format `source` declares).
    pub fn new(
        device: &wgpu::Device,
        label: &'static str,
        source: &str,
        uniform_size: usize,
        field: &PingPong,
        solid: &wgpu::TextureView,
    ) -> Self {
        let kernel = Kernel::new(device, label, source);
        let uniform = super::uniform_buffer(device, label, uniform_size);
        let bind_groups = [0, 1].map(|i| {
            kernel.bind_group(
                device,
                &[
                    uniform.as_entire_binding(),
                    wgpu::BindingResource::TextureView(&field.views()[i]),
                    wgpu::BindingResource::TextureView(solid),
                    wgpu::BindingResource::TextureView(&field.views()[1 - i]),
                ],
            )
        });
        Self { kernel, uniform, bind_groups }
    }

    /// Writes `uniform`, runs the edit over the whole `field` and submits it; swaps `field`.
    pub fn apply(&self, device: &wgpu::Device, queue: &wgpu::Queue, field: &mut PingPong, uniform: &[u8]) {
        queue.write_buffer(&self.uniform, 0, uniform);
        let (w, h) = (field.current().width(), field.current().height());
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            self.kernel.dispatch(&mut pass, &self.bind_groups[field.read_index()], w, h);
        }
        field.swap();
        queue.submit([encoder.finish()]);
    }
}
