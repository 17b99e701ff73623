// Uses: common/body.wgsl (Body, body_advanced); smoke/params.wgsl (SmokeParams).
// Smoke pass, moving bodies: each of the params.bodies bodies advances by one step,
// centre += dt velocity, angle += dt spin. One invocation a body.
// CPU mirror: `Body::advance` in src/body/mod.rs (via `bodies::step` in
// src/smoke/staggered/bodies.rs).

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var<storage, read_write> bodies: array<Body>;

@compute @workgroup_size(16, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= params.bodies {
        return;
    }
    bodies[id.x] = body_advanced(bodies[id.x], params.dt);
}
