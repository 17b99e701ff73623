// The water step's packed mass (water/pack.wgsl: solid cells' masses stored negated) back into
// one cell a texel, four cells an invocation: each cell's |m|; padding cells are dropped.

@group(0) @binding(0) var packed_mass: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var mass_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(packed_mass);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let width = i32(textureDimensions(mass_out).x);
    let v = abs(textureLoad(packed_mass, id.xy));
    for (var k = 0; k < 4; k++) {
        let x = 4 * i32(id.x) + k;
        if x < width {
            textureStore(mass_out, vec2<i32>(x, i32(id.y)), vec4<f32>(v[k], 0.0, 0.0, 0.0));
        }
    }
}
