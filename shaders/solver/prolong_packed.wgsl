// Multigrid pass onto the last packed level from the coarse kernel's first level (one cell a
// texel, coarse.wgsl): prolong_cells.wgsl with the correction read there.
// CPU mirror: `prolong` in src/solver/multigrid.rs.

@group(0) @binding(3) var correction: texture_storage_2d<r32float, read>;

// The correction of coarse cell c.
fn correction_at(c: vec2<i32>) -> f32 {
    return textureLoad(correction, c).r;
}
