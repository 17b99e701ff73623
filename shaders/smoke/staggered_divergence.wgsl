// Uses: common/grid.wgsl (DOWN, RIGHT); smoke/params.wgsl (SOLID, SmokeParams, has).
// Staggered smoke pass: the divergence before the projection, div = (u[r][c+1] - u[r][c] +
// v[r+1][c] - v[r][c]) / h from the face velocities (u: (W+1) x H texels, v: W x (H+1)), 0 in
// solids; into the divergence texture and, as h^2 div, into the pressure solve's right-hand
// side. Unless warm-starting, also clears the pressure to 0 (Rideout's ClearSurface).
// CPU mirror: `project` (its first lines) and `divergence` in src/smoke/staggered/mod.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var divergence_out: texture_storage_2d<r32float, write>;
@group(0) @binding(5) var rhs: texture_storage_2d<r32float, write>;
@group(0) @binding(6) var pressure: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(solid);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var d = 0.0;
    if !has(textureLoad(solid, p).r, SOLID) {
        d = (textureLoad(u, p + RIGHT).r - textureLoad(u, p).r + textureLoad(v, p + DOWN).r - textureLoad(v, p).r) / params.cell_size;
    }
    textureStore(divergence_out, p, vec4<f32>(d, 0.0, 0.0, 0.0));
    textureStore(rhs, p, vec4<f32>(d * params.cell_size * params.cell_size, 0.0, 0.0, 0.0));
    if params.warm_start == 0u {
        textureStore(pressure, p, vec4<f32>(0.0));
    }
}
