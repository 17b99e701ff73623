// Staggered smoke pass: subtract the pressure gradient on every open face, in place:
// u[r][c] -= (p[r][c] - p[r][c-1]) / h, v[r][c] -= (p[r][c] - p[r-1][c]) / h; a face beside a
// solid or on the grid's edge keeps its (wall) velocity. One invocation per (col, row) of
// (W+1) x (H+1), the u face and the v face at that index where they exist.
// CPU mirror: `subtract_gradient` in src/smoke/staggered/mod.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var pressure: texture_storage_2d<r32float, read>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    if inside(p, textureDimensions(u)) && open_at(solid, p + LEFT) && open_at(solid, p) {
        let g = (textureLoad(pressure, p).r - textureLoad(pressure, p + LEFT).r) / params.cell_size;
        textureStore(u, p, vec4<f32>(textureLoad(u, p).r - g, 0.0, 0.0, 0.0));
    }
    if inside(p, textureDimensions(v)) && open_at(solid, p + UP) && open_at(solid, p) {
        let g = (textureLoad(pressure, p).r - textureLoad(pressure, p + UP).r) / params.cell_size;
        textureStore(v, p, vec4<f32>(textureLoad(v, p).r - g, 0.0, 0.0, 0.0));
    }
}
