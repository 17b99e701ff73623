//! [`EditPass`]: a compute pass that edits a ping-pong field in place, under a uniform.

use super::{Kernel, PingPong};

/// A field edit (the brushes of every model): bindings `uniform` (0), the field read (1), the
/// `r32uint` solid bits (2), the field written (3). Bind group `i` reads ping-pong texture `i`
/// and writes `1 - i`; [`EditPass::encode`] swaps the ping-pong after.
pub struct EditPass {
    kernel: Kernel,
    uniform: wgpu::Buffer,
    bind_groups: [wgpu::BindGroup; 2],
}

impl EditPass {
    /// Builds the pass for `source` over `field` (texels of the format `source` declares).
    pub fn new(
        device: &wgpu::Device,
        caps: &super::DeviceCaps,
        label: &'static str,
        source: &str,
        uniform_size: usize,
        field: &PingPong,
        solid: &wgpu::TextureView,
    ) -> Self {
        let kernel = Kernel::new(device, caps, label, source);
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

    /// Records the edit into `encoder`: writes `uniform` (a recorded copy, [`super::in_order`])
    /// and runs the edit over the whole `field`, in recording order with everything else in
    /// `encoder`; swaps `field` now, as recording a step does.
    pub fn encode(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        field: &mut PingPong,
        uniform: &[u8],
    ) {
        super::in_order::write_buffer(device, encoder, &self.uniform, 0, uniform);
        let (w, h) = (field.current().width(), field.current().height());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(self.kernel.label()),
                timestamp_writes: None,
            });
            self.kernel.dispatch(&mut pass, &self.bind_groups[field.read_index()], w, h);
        }
        field.swap();
    }

    /// [`EditPass::encode`] into an encoder of its own, submitted at once.
    pub fn apply(&self, device: &wgpu::Device, queue: &wgpu::Queue, field: &mut PingPong, uniform: &[u8]) {
        let mut encoder = device.create_command_encoder(&Default::default());
        self.encode(device, &mut encoder, field, uniform);
        queue.submit([encoder.finish()]);
    }
}
