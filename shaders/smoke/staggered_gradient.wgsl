// Staggered grid: subtract the pressure gradient on every open face, in place:
// u[r][c] -= (p[r][c] - p[r][c-1]) / h, v[r][c] -= (p[r][c] - p[r-1][c]) / h; a face beside a
// wall or the grid's edge keeps its (wall) velocity. One invocation per (col, row) in
// (W+1) x (H+1), handling the u face and the v face at that index where they exist.
// CPU mirror: `subtract_gradient` in src/smoke/staggered.rs.

struct Cell {
    size: f32,
};

@group(0) @binding(0) var<uniform> cell: Cell;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var pressure: texture_storage_2d<r32float, read>;

fn open_cell(q: vec2<i32>) -> bool {
    return inside(q, textureDimensions(solid)) && textureLoad(solid, q).r == 0u;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    if inside(p, textureDimensions(u)) && open_cell(p + LEFT) && open_cell(p) {
        let g = (textureLoad(pressure, p).r - textureLoad(pressure, p + LEFT).r) / cell.size;
        textureStore(u, p, vec4<f32>(textureLoad(u, p).r - g, 0.0, 0.0, 0.0));
    }
    if inside(p, textureDimensions(v)) && open_cell(p + UP) && open_cell(p) {
        let g = (textureLoad(pressure, p).r - textureLoad(pressure, p + UP).r) / cell.size;
        textureStore(v, p, vec4<f32>(textureLoad(v, p).r - g, 0.0, 0.0, 0.0));
    }
}
