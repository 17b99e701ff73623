// Two Jacobi iterations in one pass, in the packed layout of packed.wgsl: `iterate`
// (jacobi_iterate.wgsl, p' = (up + left + right + down - b) / 4, a wall or the grid's edge
// reading the cell's own p, 0 in walls) applied twice, so the result is two jacobi_packed.wgsl
// dispatches' to the bit. CPU mirror: `jacobi` in
// src/solver/mod.rs, twice.
//
// One invocation walks a column of STRIP texels downwards. It computes the first iteration's
// values for the rows around the one it writes (a three-row window), and for the two cells just
// beyond its texel's left and right edges, which the second iteration reads as neighbours: one
// more 4-lane evaluation of the iteration ("edges"), lane 0 the last cell of the texel to the
// left, lane 1 the first of the texel to the right, their wall bits taken from the extra bits
// this texel's edge cells carry (bits 5-7, see `packed_walls` in src/solver/packed.rs). Each
// texel is loaded about once per two iterations: on lavapipe, where texel operations and
// dispatches bound the solve, that is what makes it faster than two single iterations.

@group(0) @binding(0) var pressure: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var rhs: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var pressure_out: texture_storage_2d<rgba32float, write>;

// Texel rows one invocation steps through (src/solver/packed.rs dispatches ceil(H / STRIP) rows).
const STRIP: i32 = 8;

// Edge cells' extra wall bits (packed_walls): lane 0 has its up-left, down-left and left-left
// cells' in bits 5, 6, 7; lane 3 its up-right, down-right and right-right cells'.
const EXTRA_UP: u32 = 32u;
const EXTRA_DOWN: u32 = 64u;
const EXTRA_FAR: u32 = 128u;

// A row of texels: the texel and its left and right neighbours.
struct Row {
    l: vec4<f32>,
    m: vec4<f32>,
    r: vec4<f32>,
}

// The texel of `t` at column x of row y, both clamped to the grid: a cell reads past the edge
// only where its wall bits say the neighbour is beyond the grid, and then takes its own value
// instead.
fn texel(t: texture_storage_2d<rgba32float, read>, x: i32, y: i32, size: vec2<i32>) -> vec4<f32> {
    return textureLoad(t, clamp(vec2<i32>(x, y), vec2<i32>(0), size - 1));
}

fn row_of(t: texture_storage_2d<rgba32float, read>, x: i32, y: i32, size: vec2<i32>) -> Row {
    return Row(texel(t, x - 1, y, size), texel(t, x, y, size), texel(t, x + 1, y, size));
}

fn walls_at(x: i32, y: i32, size: vec2<i32>) -> vec4<u32> {
    return cell_bits(textureLoad(walls, clamp(vec2<i32>(x, y), vec2<i32>(0), size - 1)).r);
}

// One iteration of the texel of row `mid` (rows `above` and `below` around it).
fn iterate_texel(above: vec4<f32>, mid: Row, below: vec4<f32>, b: vec4<f32>, bits: vec4<u32>) -> vec4<f32> {
    return iterate(mid.m, above, vec4<f32>(mid.l.w, mid.m.xyz), vec4<f32>(mid.m.yzw, mid.r.x), below, b, bits);
}

// One iteration of the cells beside the texel's edges: (last cell of the texel to the left,
// first cell of the texel to the right), from rows `above`, `mid`, `below`, right-hand sides
// `b` and the texel's wall bits `bits`.
fn iterate_edges(above: Row, mid: Row, below: Row, b: Row, bits: vec4<u32>) -> vec2<f32> {
    // The left cell: a wall where lane 0's left neighbour is; lane 0 is its right neighbour.
    let left_bits = moved(bits.x, 4u, PACKED_WALL) | moved(bits.x, EXTRA_UP, 2u) | moved(bits.x, EXTRA_FAR, 4u)
        | moved(bits.x, PACKED_WALL, 8u) | moved(bits.x, EXTRA_DOWN, 16u);
    // The right cell: a wall where lane 3's right neighbour is; lane 3 is its left neighbour.
    let right_bits = moved(bits.w, 8u, PACKED_WALL) | moved(bits.w, EXTRA_UP, 2u) | moved(bits.w, PACKED_WALL, 4u)
        | moved(bits.w, EXTRA_FAR, 8u) | moved(bits.w, EXTRA_DOWN, 16u);
    let value = iterate(vec4<f32>(mid.l.w, mid.r.x, 0.0, 0.0), vec4<f32>(above.l.w, above.r.x, 0.0, 0.0),
                        vec4<f32>(mid.l.z, mid.m.w, 0.0, 0.0), vec4<f32>(mid.m.x, mid.r.y, 0.0, 0.0),
                        vec4<f32>(below.l.w, below.r.x, 0.0, 0.0), vec4<f32>(b.l.w, b.r.x, 0.0, 0.0),
                        vec4<u32>(left_bits, right_bits, PACKED_WALL, PACKED_WALL));
    return value.xy;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = vec2<i32>(textureDimensions(pressure));
    let x = i32(id.x);
    let y0 = i32(id.y) * STRIP;
    if x >= size.x || y0 >= size.y {
        return;
    }
    let last = min(y0 + STRIP, size.y);

    // The first iteration's window: pressure rows y - 1, y, y + 1; the right-hand side and
    // walls of row y.
    var p_above = row_of(pressure, x, y0 - 1, size);
    var p_row = row_of(pressure, x, y0, size);
    var p_below = row_of(pressure, x, y0 + 1, size);
    var b_row = row_of(rhs, x, y0, size);
    var bits = walls_at(x, y0, size);
    // The first iteration of row y0 - 1 (its texel only) and of row y0 (texel and edges).
    let b_above = texel(rhs, x, y0 - 1, size);
    var first_above =
        iterate_texel(texel(pressure, x, y0 - 2, size), p_above, p_row.m, b_above, walls_at(x, y0 - 1, size));
    var first = iterate_texel(p_above.m, p_row, p_below.m, b_row.m, bits);
    var first_edges = iterate_edges(p_above, p_row, p_below, b_row, bits);
    for (var y = y0; y < last; y++) {
        // The first iteration of row y + 1.
        let p_next = row_of(pressure, x, y + 2, size);
        let b_below = row_of(rhs, x, y + 1, size);
        let bits_below = walls_at(x, y + 1, size);
        let first_below = iterate_texel(p_row.m, p_below, p_next.m, b_below.m, bits_below);
        // The second iteration of row y, from the first's values around it.
        let second = iterate_texel(first_above, Row(vec4<f32>(0.0, 0.0, 0.0, first_edges.x), first,
                                                     vec4<f32>(first_edges.y, 0.0, 0.0, 0.0)),
                                   first_below, b_row.m, bits);
        textureStore(pressure_out, vec2<i32>(x, y), second);

        first_above = first;
        first = first_below;
        first_edges = iterate_edges(p_row, p_below, p_next, b_below, bits_below);
        p_above = p_row;
        p_row = p_below;
        p_below = p_next;
        b_row = b_below;
        bits = bits_below;
    }
}
