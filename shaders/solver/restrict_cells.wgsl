// Uses: common/grid.wgsl (inside); solver/level.wgsl (WALL, clamped, edge, edge_open, neighbour);
//   the pass's bindings (level, pressure, rhs, walls).
// The residual of a packed level (packed.wgsl) summed onto the level below, per coarse cell, for
// restrict_packed.wgsl and restrict_to_packed.wgsl (which bind `level`, `pressure`, `rhs` and
// `walls`): r = b - A p in coarse.wgsl's order of operations (A p = sum over open neighbours
// of (p_n - p), a neighbour beyond an edge held at pressure 0 reading the level's ghost,
// level.wgsl), summed over the coarse cell's open children in row-major order, laid as the
// level's `offset` says (the CPU mirror's order). CPU mirror: `residual` in
// src/solver/mod.rs and `restrict` in src/solver/multigrid.rs.

// Cell q's value in a packed field (q inside the level).
fn packed_cell(t: texture_storage_2d<rgba32float, read>, q: vec2<i32>) -> f32 {
    return textureLoad(t, vec2<i32>(q.x >> 2u, q.y))[q.x & 3];
}

// Cell q's wall bits (level.wgsl's; q inside the level).
fn bits_at(q: vec2<i32>) -> u32 {
    return (textureLoad(walls, vec2<i32>(q.x >> 2u, q.y)).r >> (8u * u32(q.x & 3))) & 0xffu;
}

// The residual of open cell q (bits `bits`).
fn residual_at(q: vec2<i32>, bits: u32) -> f32 {
    let size = level.size;
    let centre = packed_cell(pressure, q);
    var lap = 0.0;
    for (var k = 0u; k < 4u; k++) {
        if edge_open(bits, k) {
            let n = q + edge(k);
            lap += neighbour(packed_cell(pressure, clamped(n, size)), n, size, level, k, centre) - centre;
        }
    }
    return packed_cell(rhs, q) - lap;
}

// The coarse right-hand side of coarse cell c: its open children's residuals summed (0 for a
// cell with none, a padding cell's included).
fn restricted(c: vec2<i32>) -> f32 {
    var sum = 0.0;
    for (var i = 0; i < 2; i++) {
        for (var j = 0; j < 2; j++) {
            let q = 2 * c + vec2<i32>(j, i) - level.offset;
            if inside(q, level.size) {
                let bits = bits_at(q);
                if (bits & WALL) == 0u {
                    sum += residual_at(q, bits);
                }
            }
        }
    }
    return sum;
}
