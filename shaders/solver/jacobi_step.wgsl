// One Jacobi iteration of the Poisson problem at one cell, and the bindings it reads, shared by
// jacobi.wgsl (one iteration a dispatch) and jacobi2.wgsl (two): p' = (sum of the four
// neighbours' p, a wall or the grid's edge reading p - b) / 4, the sum in `EDGES` order, the
// neighbours' walls from the cell's own wall bits (one texel).
// CPU mirror: `jacobi` in src/solver/mod.rs.

@group(0) @binding(0) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(1) var rhs: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var pressure_out: texture_storage_2d<r32float, write>;

// One Jacobi iteration's value at open cell q, whose wall bits are `bits`.
fn once(q: vec2<i32>, bits: u32) -> f32 {
    let c = textureLoad(pressure, q).r;
    let up = select(c, textureLoad(pressure, q + UP).r, edge_open(bits, 0u));
    let left = select(c, textureLoad(pressure, q + LEFT).r, edge_open(bits, 1u));
    let right = select(c, textureLoad(pressure, q + RIGHT).r, edge_open(bits, 2u));
    let down = select(c, textureLoad(pressure, q + DOWN).r, edge_open(bits, 3u));
    return (up + left + right + down - textureLoad(rhs, q).r) * 0.25;
}
