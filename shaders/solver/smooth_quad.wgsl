// Uses: common/packed.wgsl (PACKED_WALL, open_through); solver/level.wgsl (Level).
// Multigrid pass on a packed level (packed.wgsl): two red-black Gauss-Seidel sweeps in one pass,
// red (colour 0, (column + row) even) then black, twice: quad_walk.wgsl's four levels, each a
// half-sweep that gives each open cell of its colour with an open neighbour the p that zeroes
// its residual, (sum of open neighbours' p - b) / (open neighbours), and keeps every other cell.
// A neighbour beyond an edge held at pressure 0 reads -g p (the level's ghost g: level.wgsl;
// 0 on the finest level), so it counts 1 + g and adds nothing. The order of operations is the
// CPU mirror's and coarse.wgsl's, so the result is four of their half-sweeps to the bit. A
// half-sweep's cells read only the other colour, which it keeps, so it is a stencil over the
// level before as a Jacobi iteration is, and the walk's temporal blocking holds for it.
// CPU mirror: `smooth` in src/solver/multigrid.rs, colours 0, 1, 0, 1.

@group(0) @binding(4) var<uniform> level: Level;

// Level `stage` (1..4) of row y: cells of colour (stage - 1) % 2 relaxed, the others kept. Lane
// k lies in column columns[k]; a texel's (or a Trim's) lanes alternate in colour, (k + y) % 2.
fn relax(c: vec4<f32>, up4: vec4<f32>, left4: vec4<f32>, right4: vec4<f32>, down4: vec4<f32>, b: vec4<f32>,
         bits: vec4<u32>, y: i32, stage: i32, columns: vec4<i32>) -> vec4<f32> {
    let zero = vec4<f32>(0.0);
    let one = vec4<f32>(1.0);
    let up = open_through(bits, 2u);
    let left = open_through(bits, 4u);
    let right = open_through(bits, 8u);
    let down = open_through(bits, 16u);
    // An open neighbour beyond the level's edge (held at 0, or read 0 past the last column)
    // counts 1 + the edge's ghost; inside, 1.
    let size = vec2<i32>(level.size);
    let g = level.ghosts; // left, right, top, bottom
    let up_count = one + vec4<f32>(select(0.0, g.z, y == 0));
    let down_count = one + vec4<f32>(select(0.0, g.w, y == size.y - 1));
    let left_count = one + select(zero, vec4<f32>(g.x), columns == vec4<i32>(0));
    let right_count = one + select(zero, vec4<f32>(g.y), columns == vec4<i32>(size.x - 1));
    let sum = select(zero, up4, up) + select(zero, left4, left) + select(zero, right4, right)
        + select(zero, down4, down);
    let count = select(zero, up_count, up) + select(zero, left_count, left) + select(zero, right_count, right)
        + select(zero, down_count, down);
    let odd = ((y + stage - 1) & 1) == 1;
    let colour = vec4<bool>(!odd, odd, !odd, odd);
    let wall = (bits & vec4<u32>(PACKED_WALL)) != vec4<u32>(0u);
    let relaxed = colour & !wall & (count > zero);
    return select(c, (sum - b) / count, relaxed);
}
