// Uses: common/body.wgsl (Body, BodyRect, body_rect_cell, body_velocity); common/grid.wgsl (LEFT, UP, inside);
//   smoke/params.wgsl (SOLID, SmokeParams, body_id, has).
// Staggered smoke pass, the bodies rasterised, second of two, after
// staggered_bodies.wgsl: each closed face inside the box beside a body's cell at that body's
// rigid velocity at the face's centre (the cell on the left or above first), a closed face
// beside walls only at 0; open faces and the box's edge faces are left as they are.
// One invocation a cell (col, row) of the rect (or of a body's square, BodyRect): the u face on
// its left and the v face above it (a face in two squares is written twice, the same value).
// CPU mirror: `rasterise` in src/smoke/staggered/bodies.rs (its faces).

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var<uniform> rect: BodyRect;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(2) var<uniform> bodies: array<Body, 16>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var u: texture_storage_2d<r32float, write>;
@group(0) @binding(5) var v: texture_storage_2d<r32float, write>;

// The velocity component `axis` at `at` of the body beside a closed face between cells whose
// bits are `first` (left or above) and `second`, or 0 beside walls only.
fn face_velocity(first: u32, second: u32, at: vec2<f32>, axis: u32) -> f32 {
    let body = select(body_id(second), body_id(first), body_id(first) != 0u);
    if body == 0u {
        return 0.0;
    }
    return body_velocity(bodies[body - 1u], at)[axis];
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = body_rect_cell(rect, bodies[min(id.z, 15u)], id);
    if id.x >= rect.size.x || id.y >= rect.size.y || !inside(p, textureDimensions(solid)) {
        return;
    }
    let here = textureLoad(solid, p).r;
    if p.x > 0 {
        let left = textureLoad(solid, p + LEFT).r;
        if has(left | here, SOLID) {
            let value = face_velocity(left, here, vec2<f32>(f32(p.x), f32(p.y) + 0.5), 0u);
            textureStore(u, p, vec4<f32>(value, 0.0, 0.0, 0.0));
        }
    }
    if p.y > 0 {
        let up = textureLoad(solid, p + UP).r;
        if has(up | here, SOLID) {
            let value = face_velocity(up, here, vec2<f32>(f32(p.x) + 0.5, f32(p.y)), 1u);
            textureStore(v, p, vec4<f32>(value, 0.0, 0.0, 0.0));
        }
    }
}
