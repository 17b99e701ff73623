// Uses: common/grid.wgsl (LEFT, UP, inside); smoke/params.wgsl (SmokeParams);
//   smoke/staggered_held.wgsl (held).
// Staggered smoke pass: subtract the pressure gradient on every face between two cells the
// solve holds, in place: u[r][c] -= (p[r][c] - p[r][c-1]) / h, v[r][c] -= (p[r][c] - p[r-1][c]) / h.
// The cell beyond an outflow edge is held at pressure 0 (the solve's Dirichlet edge), so an
// outflow face beside an open cell is driven by the pressure inside; a face beside a solid or on
// another edge keeps its (wall, inflow) velocity. One invocation per (col, row) of
// (W+1) x (H+1), the u face and the v face at that index where they exist.
// CPU mirror: `subtract_gradient` in src/smoke/staggered/mod.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var pressure: texture_storage_2d<r32float, read>;

// The pressure of a held cell: 0 beyond the grid.
fn pressure_at(q: vec2<i32>) -> f32 {
    if inside(q, textureDimensions(solid)) {
        return textureLoad(pressure, q).r;
    }
    return 0.0;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    // Both faces at p need cell p held; its pressure, once.
    if !held(p) {
        return;
    }
    let here = pressure_at(p);
    if inside(p, textureDimensions(u)) && held(p + LEFT) {
        let g = (here - pressure_at(p + LEFT)) / params.cell_size;
        textureStore(u, p, vec4<f32>(textureLoad(u, p).r - g, 0.0, 0.0, 0.0));
    }
    if inside(p, textureDimensions(v)) && held(p + UP) {
        let g = (here - pressure_at(p + UP)) / params.cell_size;
        textureStore(v, p, vec4<f32>(textureLoad(v, p).r - g, 0.0, 0.0, 0.0));
    }
}
