// Packed Jacobi, after the iterations: the packed pressure back into one cell a texel, four
// cells an invocation; padding cells are dropped.
// CPU mirror: `unpack` in src/solver/packed.rs.

@group(0) @binding(0) var packed_pressure: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var pressure_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(packed_pressure);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let width = i32(textureDimensions(pressure_out).x);
    let p = textureLoad(packed_pressure, id.xy);
    for (var k = 0; k < 4; k++) {
        let x = 4 * i32(id.x) + k;
        if x < width {
            textureStore(pressure_out, vec2<i32>(x, i32(id.y)), vec4<f32>(p[k], 0.0, 0.0, 0.0));
        }
    }
}
