// Uses: common/hash_part.wgsl (part, rows, texel_lanes).
// The state hash's pass over a float texture of any channels (r32float, rg32float, rgba32float):
// a channel's word is its value's bits as the texture loads it. CPU mirror: `lanes` and `hash_words` in
// src/gpu/state_hash.rs.

@group(0) @binding(1) var field: texture_2d<f32>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(field);
    if id.x >= size.y {
        return;
    }
    var sum = vec2<u32>(0u);
    for (var x = 0u; x < size.x; x++) {
        sum += texel_lanes(id.x, x, size.x, bitcast<vec4<u32>>(textureLoad(field, vec2<u32>(x, id.x), 0)));
    }
    rows[part.first_row + id.x] = sum;
}
