// Uses: common/packed.wgsl (PACKED_WALL, cell_bits); the pass's bindings (pressure, walls).
// Rows of packed texels for the passes that walk a column of texel rows and run more than one
// iteration a dispatch (jacobi_pair.wgsl, quad_walk.wgsl): a row's four texels around an
// invocation's two, read with the grid's edges as the packed passes read them (packed.wgsl).

// A row of the invocation's two texels `a`, `b` (columns x, x + 1) and their outer neighbours
// `l`, `r` (x - 1, x + 2).
struct Row {
    l: vec4<f32>,
    a: vec4<f32>,
    b: vec4<f32>,
    r: vec4<f32>,
}

// The texel of `t` at column x of row y, both clamped to the grid.
fn texel(t: texture_storage_2d<rgba32float, read>, x: i32, y: i32, size: vec2<i32>) -> vec4<f32> {
    return textureLoad(t, clamp(vec2<i32>(x, y), vec2<i32>(0), size - 1));
}

// Row y of the texels at x - 1 .. x + 2, clamped (the right-hand side: a cell beyond the grid
// is a wall, whatever its b).
fn row_of(t: texture_storage_2d<rgba32float, read>, x: i32, y: i32, size: vec2<i32>) -> Row {
    return Row(texel(t, x - 1, y, size), texel(t, x, y, size), texel(t, x + 1, y, size), texel(t, x + 2, y, size));
}

// Row y of the pressure's texels at x - 1 .. x + 2, 0 beyond the grid (`inside`: whether each
// of the four columns is in it): a cell reads past the edge only where its wall bits say the
// neighbour is open beyond an edge held at pressure 0 (beyond a no-flux edge it takes its own
// value instead). Past the last column's real cells, the padding holds 0.
fn pressure_row(x: i32, y: i32, size: vec2<i32>, inside: vec4<bool>) -> Row {
    let zero = vec4<f32>(0.0);
    let row = Row(texel(pressure, x - 1, y, size), texel(pressure, x, y, size), texel(pressure, x + 1, y, size),
                  texel(pressure, x + 2, y, size));
    if y >= 0 && y < size.y {
        return Row(select(zero, row.l, inside.x), row.a, select(zero, row.b, inside.z), select(zero, row.r, inside.w));
    }
    return Row(zero, zero, zero, zero);
}

// The wall bits of texel (x, y); beyond the grid, walls (so the first iteration there is 0, the
// pressure an edge held at 0 has beyond it, and never read beyond a no-flux edge).
fn walls_at(x: i32, y: i32, size: vec2<i32>) -> vec4<u32> {
    let q = vec2<i32>(x, y);
    let c = clamp(q, vec2<i32>(0), size - 1);
    return select(cell_bits(textureLoad(walls, c).r), vec4<u32>(PACKED_WALL), any(q != c));
}
