// Uses: common/body.wgsl (Body, body_advanced); water/body_region.wgsl (BodyRegion).
// Water pass, moving bodies: each body of the table is kept as it was (`before`, for the
// displacement's cells covered before) and advances by one step (body_advanced with dt = 1:
// velocities are in cells/step). One invocation a body.
// CPU mirror: `bodies::step` in src/water/bodies.rs (`Body::advance`).

@group(0) @binding(0) var<uniform> region: BodyRegion;
@group(0) @binding(1) var<storage, read_write> bodies: array<Body>;
@group(0) @binding(2) var<storage, read_write> before: array<Body>;

@compute @workgroup_size(16, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < region.count {
        before[id.x] = bodies[id.x];
        bodies[id.x] = body_advanced(bodies[id.x], 1.0);
    }
}
