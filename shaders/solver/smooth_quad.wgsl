// Multigrid pass on the finest level, packed (packed.wgsl): two red-black Gauss-Seidel sweeps in
// one pass, red (colour 0, (column + row) even) then black, twice: quad_walk.wgsl's four levels,
// each a half-sweep that gives each open cell of its colour with an open neighbour the p that
// zeroes its residual, (sum of open neighbours' p - b) / (open neighbours), and keeps every
// other cell. A neighbour beyond an edge held at pressure 0 counts 1 and reads 0 (the finest
// level's ghosts are 0: level.wgsl). The order of operations is smooth.wgsl's, so the result is
// four smooth.wgsl dispatches' (red, black, red, black) to the bit. A half-sweep's cells read
// only the other colour, which it keeps, so it is a stencil over the level before as a Jacobi
// iteration is, and the walk's temporal blocking holds for it.
// CPU mirror: `smooth` in src/solver/multigrid.rs, colours 0, 1, 0, 1.

// Level `level` (1..4) of row y: cells of colour (level - 1) % 2 relaxed, the others kept. Cell
// k of a texel (or of a Trim, whose cells alternate as a texel's do) lies in column 4 x + k, so
// its colour is (k + y) % 2.
fn relax(c: vec4<f32>, up4: vec4<f32>, left4: vec4<f32>, right4: vec4<f32>, down4: vec4<f32>, b: vec4<f32>,
         bits: vec4<u32>, y: i32, level: i32) -> vec4<f32> {
    let zero = vec4<f32>(0.0);
    let one = vec4<f32>(1.0);
    let up = open_through(bits, 2u);
    let left = open_through(bits, 4u);
    let right = open_through(bits, 8u);
    let down = open_through(bits, 16u);
    let sum = select(zero, up4, up) + select(zero, left4, left) + select(zero, right4, right)
        + select(zero, down4, down);
    let count = select(zero, one, up) + select(zero, one, left) + select(zero, one, right) + select(zero, one, down);
    let odd = ((y + level - 1) & 1) == 1;
    let colour = vec4<bool>(!odd, odd, !odd, odd);
    let wall = (bits & vec4<u32>(PACKED_WALL)) != vec4<u32>(0u);
    let relaxed = colour & !wall & (count > zero);
    return select(c, (sum - b) / count, relaxed);
}
