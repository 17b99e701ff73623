// A packed field (packed.wgsl) back into one cell a texel, four cells an invocation; padding
// cells are dropped. CPU mirror: `unpack` in src/gpu/packed.rs (with MAGNITUDE, of |v|).

@group(0) @binding(0) var packed_field: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var field_out: texture_storage_2d<r32float, write>;

// Whether each cell's magnitude |v| is written instead of v: the water step's packed masses
// carry the solid cells as negated masses (water/pack.wgsl), which come back as the masses.
override MAGNITUDE: bool = false;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(packed_field);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let width = i32(textureDimensions(field_out).x);
    let texel = textureLoad(packed_field, id.xy);
    let v = select(texel, abs(texel), MAGNITUDE);
    for (var k = 0; k < 4; k++) {
        let x = 4 * i32(id.x) + k;
        if x < width {
            textureStore(field_out, vec2<i32>(x, i32(id.y)), vec4<f32>(v[k], 0.0, 0.0, 0.0));
        }
    }
}
