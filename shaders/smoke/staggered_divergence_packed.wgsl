// Uses: common/grid.wgsl (DOWN); smoke/packed_start.wgsl (starts); smoke/params.wgsl (SOLID,
//   SmokeParams, has).
// Staggered smoke pass: the divergence before the projection, as staggered_divergence.wgsl
// computes it (div = (u[r][c+1] - u[r][c] + v[r+1][c] - v[r][c]) / h, 0 in solids), four cells
// an invocation, written where the packed Jacobi iterations read it (solver/packed.rs): the
// divergence texture as it is, and the right-hand side h^2 div and the starting pressure (the
// last solve's with warm starts, else 0: Rideout's ClearSurface) straight into the packed
// layout of packed.wgsl, padding cells 0. It replaces the divergence pass and the solve's pack
// (solver/pack.wgsl, whose scale is 1 on the staggered grid) when the Jacobi iterations follow
// it, to the bit: the same values in the same textures, in one pass with a quarter of the
// invocations. The pressure texture itself is left as it is; the gradient that follows the
// iterations (staggered_gradient_packed.wgsl) writes it.
// CPU mirror: `project` (its first lines) and `divergence` in src/smoke/staggered/mod.rs, and
// `pack` in src/gpu/packed.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var divergence_out: texture_storage_2d<r32float, write>;
@group(0) @binding(6) var rhs_packed: texture_storage_2d<rgba32float, write>;
@group(0) @binding(7) var pressure_packed: texture_storage_2d<rgba32float, write>;

// Cell q's divergence, from its u faces `left` and `right`, written to the divergence texture;
// returns h^2 div for the right-hand side, 0 for a padding cell (past the grid's last column).
fn cell(q: vec2<i32>, left: f32, right: f32) -> f32 {
    if q.x >= i32(textureDimensions(solid).x) {
        return 0.0;
    }
    var d = 0.0;
    if !has(textureLoad(solid, q).r, SOLID) {
        d = (right - left + textureLoad(v, q + DOWN).r - textureLoad(v, q).r) / params.cell_size;
    }
    textureStore(divergence_out, q, vec4<f32>(d, 0.0, 0.0, 0.0));
    return d * params.cell_size * params.cell_size;
}

// The u face at q; past the last face (beside padding cells), 0, unused.
fn u_at(q: vec2<i32>) -> f32 {
    if q.x >= i32(textureDimensions(u).x) {
        return 0.0;
    }
    return textureLoad(u, q).r;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(rhs_packed);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let q = vec2<i32>(4 * i32(id.x), i32(id.y));
    // The five u faces of the four cells, each cell's right face the next one's left.
    let f0 = u_at(q);
    let f1 = u_at(q + vec2<i32>(1, 0));
    let f2 = u_at(q + vec2<i32>(2, 0));
    let f3 = u_at(q + vec2<i32>(3, 0));
    let f4 = u_at(q + vec2<i32>(4, 0));
    let b = vec4<f32>(cell(q, f0, f1), cell(q + vec2<i32>(1, 0), f1, f2), cell(q + vec2<i32>(2, 0), f2, f3),
                      cell(q + vec2<i32>(3, 0), f3, f4));
    textureStore(rhs_packed, id.xy, b);
    textureStore(pressure_packed, id.xy, starts(q));
}
