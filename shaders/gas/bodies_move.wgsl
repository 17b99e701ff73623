// Uses: common/body.wgsl (Body, body_advanced); gas/params.wgsl (GasParams).
// Gas pass, moving bodies: each of the params.bodies bodies advances by one step
// (body_advanced with dt = 1: velocities are in cells/step). One invocation a body.
// CPU mirror: `bodies::step` in src/gas/bodies.rs (`Body::advance`).

@group(0) @binding(0) var<uniform> params: GasParams;
@group(0) @binding(1) var<storage, read_write> bodies: array<Body>;

@compute @workgroup_size(16, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < params.bodies {
        bodies[id.x] = body_advanced(bodies[id.x], 1.0);
    }
}
