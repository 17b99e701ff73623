// Multigrid pass onto a packed level from the packed level below it: prolong_cells.wgsl with the
// correction read four cells a texel (packed.wgsl). CPU mirror: `prolong` in
// src/solver/multigrid.rs.

@group(0) @binding(3) var correction: texture_storage_2d<rgba32float, read>;

// The correction of coarse cell c.
fn correction_at(c: vec2<i32>) -> f32 {
    return textureLoad(correction, vec2<i32>(c.x >> 2u, c.y))[c.x & 3];
}
