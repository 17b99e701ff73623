// One field into the packed layout of packed.wgsl, four cells an invocation; padding cells get 0.
// CPU mirror: `pack` in src/gpu/packed.rs (with scale 1).

@group(0) @binding(0) var field: texture_storage_2d<r32float, read>;
@group(0) @binding(1) var packed_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(packed_out);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let width = i32(textureDimensions(field).x);
    var v = vec4<f32>(0.0);
    for (var k = 0; k < 4; k++) {
        let x = 4 * i32(id.x) + k;
        if x < width {
            v[k] = textureLoad(field, vec2<i32>(x, i32(id.y))).r;
        }
    }
    textureStore(packed_out, id.xy, v);
}
