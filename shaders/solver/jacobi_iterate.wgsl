// Uses: common/packed.wgsl (PACKED_WALL, open_through).
// The Jacobi iteration of the Poisson problem on four packed cells (packed.wgsl), shared by
// jacobi_packed.wgsl (one iteration a dispatch) and jacobi_pair.wgsl (two), so both compute it
// with the same arithmetic in the same order: p' = (up + left + right + down - b) / 4, a wall or
// the grid's edge reading the cell's own p (pure Neumann, Rideout's Jacobi), a cell beyond an
// edge held at pressure 0 (its neighbour bit clear) 0, which the callers read for it; 0 in walls.
// CPU mirror: `jacobi` in src/solver/mod.rs.

// Four cells with values c, their neighbours' up4, left4, right4, down4, right-hand side b and
// wall bits `bits` (packed.wgsl: bit 0 a wall, bits 1-4 the neighbour up, left, right, down is
// a wall or beyond a no-flux edge).
fn iterate(c: vec4<f32>, up4: vec4<f32>, left4: vec4<f32>, right4: vec4<f32>, down4: vec4<f32>, b: vec4<f32>,
           bits: vec4<u32>) -> vec4<f32> {
    let up = select(c, up4, open_through(bits, 2u));
    let left = select(c, left4, open_through(bits, 4u));
    let right = select(c, right4, open_through(bits, 8u));
    let down = select(c, down4, open_through(bits, 16u));
    let value = (up + left + right + down - b) * 0.25;
    return select(value, vec4<f32>(0.0), (bits & vec4<u32>(PACKED_WALL)) != vec4<u32>(0u));
}
