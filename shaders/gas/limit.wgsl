// Uses: common/body.wgsl (Body); common/grid.wgsl (inside); gas/ghost.wgsl (ghost_flux);
//   gas/params.wgsl (GasParams, LIMIT_SAFETY, forward); gas/walls.wgsl (blocked).
// Gas pass 2: the mass limiter. A cell whose faces would carry away more mass than it holds
// gets factor rho / out * LIMIT_SAFETY (< 1), applied to every face it is the source of;
// otherwise 1. Faces into a wall's ghost (ghost.wgsl) count too. CPU mirror: `limit` in src/gas/cpu.rs.

@group(0) @binding(0) var<uniform> params: GasParams;
@group(0) @binding(1) var state: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var face_f: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var factor: texture_storage_2d<r32float, write>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read>;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(5) var<uniform> bodies: array<Body, 16>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(state);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let own = textureLoad(face_f, p);
    var out = 0.0;
    for (var k = 0u; k < params.faces; k++) {
        out += max(own[k], 0.0); // owned faces: positive = leaving
    }
    for (var k = 0u; k < params.faces; k++) {
        let q = p - forward(k);
        if inside(q, size) {
            out += max(-textureLoad(face_f, q)[k], 0.0); // faces owned by the backward neighbour
        }
    }
    let bits = textureLoad(solid, p).r;
    var left = blocked(bits, params);
    while left != 0u {
        let j = firstTrailingBit(left);
        left &= left - 1u;
        out += max(ghost_flux(p, bits, j, params).flux.x, 0.0); // into a ghost
    }
    let rho = textureLoad(state, p).x;
    var s = 1.0;
    if out > rho {
        s = rho / out * LIMIT_SAFETY;
    }
    textureStore(factor, p, vec4<f32>(s, 0.0, 0.0, 0.0));
}
