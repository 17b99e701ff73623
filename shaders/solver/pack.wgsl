// Packed Jacobi, before the iterations: the pressure and the right-hand side (times `scale`:
// 1 for the pressure solve's b, -alpha for the smoke step's divergence) into the packed layout
// of packed.wgsl, four cells an invocation; padding cells get 0.
// CPU mirror: `pack` in src/gpu/packed.rs.

struct PackParams {
    scale: f32,
}

@group(0) @binding(0) var<uniform> params: PackParams;
@group(0) @binding(1) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var rhs: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var pressure_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(4) var rhs_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(pressure_out);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let width = i32(textureDimensions(pressure).x);
    var p = vec4<f32>(0.0);
    var b = vec4<f32>(0.0);
    for (var k = 0; k < 4; k++) {
        let x = 4 * i32(id.x) + k;
        if x < width {
            let q = vec2<i32>(x, i32(id.y));
            p[k] = textureLoad(pressure, q).r;
            b[k] = params.scale * textureLoad(rhs, q).r;
        }
    }
    textureStore(pressure_out, id.xy, p);
    textureStore(rhs_out, id.xy, b);
}
