// Uses: solver/jacobi_iterate.wgsl (iterate).
// Four Jacobi iterations in one pass, in the packed layout of packed.wgsl: `iterate`
// (jacobi_iterate.wgsl, p' = (up + left + right + down - b) / 4, a wall or the grid's edge
// reading the cell's own p, 0 in walls) applied four times by quad_walk.wgsl's walk (temporal
// blocking in registers), so the result is four jacobi_packed.wgsl dispatches' to the bit.
// CPU mirror: `jacobi` in src/solver/mod.rs, four times.

// A Jacobi iteration is the same at every level and row.
fn relax(c: vec4<f32>, up4: vec4<f32>, left4: vec4<f32>, right4: vec4<f32>, down4: vec4<f32>, b: vec4<f32>,
         bits: vec4<u32>, y: i32, stage: i32, columns: vec4<i32>) -> vec4<f32> {
    return iterate(c, up4, left4, right4, down4, b, bits);
}
