// Staggered grid: the projection's right-hand side h^2 div per cell, with
// div = (u[r][c+1] - u[r][c] + v[r+1][c] - v[r][c]) / h from the face velocities (u: (W+1) x H
// texels, v: W x (H+1)); 0 in walls. CPU mirror: `poisson_rhs` in src/smoke/staggered.rs.

struct Cell {
    size: f32, // h, length units per cell
};

@group(0) @binding(0) var<uniform> cell: Cell;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var rhs: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(solid);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var b = 0.0;
    if textureLoad(solid, p).r == 0u {
        let d = (textureLoad(u, p + RIGHT).r - textureLoad(u, p).r + textureLoad(v, p + DOWN).r - textureLoad(v, p).r) / cell.size;
        b = d * cell.size * cell.size;
    }
    textureStore(rhs, p, vec4<f32>(b, 0.0, 0.0, 0.0));
}
