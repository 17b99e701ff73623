// Uses: common/packed.wgsl (PACKED_WALL, moved); solver/jacobi_iterate.wgsl (iterate);
//   solver/jacobi_rows.wgsl (Row, pressure_row, row_of, walls_at).
// Two Jacobi iterations in one pass, in the packed layout of packed.wgsl: `iterate`
// (jacobi_iterate.wgsl, p' = (up + left + right + down - b) / 4, a wall or the grid's edge
// reading the cell's own p, 0 in walls) applied twice, so the result is two jacobi_packed.wgsl
// dispatches' to the bit. CPU mirror: `jacobi` in src/solver/mod.rs, twice.
//
// One invocation walks a column of STRIP rows of two texels (eight cells) downwards. It computes
// the first iteration's values for the rows around the one it writes (a three-row window), and
// for the two cells just beyond the pair's left and right edges, which the second iteration
// reads as neighbours: one more 4-lane evaluation of the iteration ("edges"), lane 0 the last
// cell of the texel to the left, lane 1 the first of the texel to the right, their wall bits
// taken from the extra bits the pair's edge cells carry (bits 5-7, see `packed_walls` in
// src/solver/packed.rs). Per texel and two iterations: 5 loads and 1 store, against 14 and 2 for
// two jacobi_packed.wgsl dispatches, and one dispatch instead of two: on lavapipe texel
// operations and dispatches bound the solve.

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

// One iteration of texel `m` between its neighbours `l` and `r` of its row, `above` and `below`.
fn iterate_texel(above: vec4<f32>, l: vec4<f32>, m: vec4<f32>, r: vec4<f32>, below: vec4<f32>, b: vec4<f32>,
                 bits: vec4<u32>) -> vec4<f32> {
    return iterate(m, above, vec4<f32>(l.w, m.xyz), vec4<f32>(m.yzw, r.x), below, b, bits);
}

// Two texels' values after one iteration.
struct Pair {
    a: vec4<f32>,
    b: vec4<f32>,
}

fn iterate_pair(above: Row, mid: Row, below: Row, b: Row, bits_a: vec4<u32>, bits_b: vec4<u32>) -> Pair {
    return Pair(iterate_texel(above.a, mid.l, mid.a, mid.b, below.a, b.a, bits_a),
                iterate_texel(above.b, mid.a, mid.b, mid.r, below.b, b.b, bits_b));
}

// One iteration of the cells beside the two texels' outer edges: (last cell of the texel to
// the left, first cell of the texel to the right), their wall bits from the extra bits of the
// first texel's lane 0 and the second's lane 3; 0 for a cell beyond the grid (`beyond_l`,
// `beyond_r`: held at pressure 0 where its edge is, never read where the edge has no flux).
fn iterate_edges(above: Row, mid: Row, below: Row, b: Row, bits_a: u32, bits_b: u32, beyond_l: bool,
                 beyond_r: bool) -> vec2<f32> {
    // The left cell: a wall where lane 0's left neighbour is; lane 0 is its right neighbour.
    let left_bits = moved(bits_a, 4u, PACKED_WALL) | moved(bits_a, EXTRA_UP, 2u) | moved(bits_a, EXTRA_FAR, 4u)
        | moved(bits_a, PACKED_WALL, 8u) | moved(bits_a, EXTRA_DOWN, 16u);
    // The right cell: a wall where lane 3's right neighbour is; lane 3 is its left neighbour.
    let right_bits = moved(bits_b, 8u, PACKED_WALL) | moved(bits_b, EXTRA_UP, 2u) | moved(bits_b, PACKED_WALL, 4u)
        | moved(bits_b, EXTRA_FAR, 8u) | moved(bits_b, EXTRA_DOWN, 16u);
    let value = iterate(vec4<f32>(mid.l.w, mid.r.x, 0.0, 0.0), vec4<f32>(above.l.w, above.r.x, 0.0, 0.0),
                        vec4<f32>(mid.l.z, mid.b.w, 0.0, 0.0), vec4<f32>(mid.a.x, mid.r.y, 0.0, 0.0),
                        vec4<f32>(below.l.w, below.r.x, 0.0, 0.0), vec4<f32>(b.l.w, b.r.x, 0.0, 0.0),
                        vec4<u32>(left_bits, right_bits, PACKED_WALL, PACKED_WALL));
    return select(value.xy, vec2<f32>(0.0), vec2<bool>(beyond_l, beyond_r));
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = vec2<i32>(textureDimensions(pressure));
    let x = 2 * i32(id.x);
    let y0 = i32(id.y) * STRIP;
    if x >= size.x || y0 >= size.y {
        return;
    }
    let last = min(y0 + STRIP, size.y);
    // The second texel may lie past the grid's last (an odd number of texels a row): it is then
    // computed from clamped reads and not written. The first texel's right neighbour is beyond
    // the grid there, so its value is never read.
    let has_b = x + 1 < size.x;
    let inside = vec4<bool>(x >= 1, true, has_b, x + 2 < size.x);

    // The first iteration's window: pressure rows y and y + 1 (and y0 - 1 and y0 - 2 to start),
    // the right-hand side and walls of row y.
    let p_above = pressure_row(x, y0 - 1, size, inside);
    var p_row = pressure_row(x, y0, size, inside);
    var p_below = pressure_row(x, y0 + 1, size, inside);
    var b_row = row_of(rhs, x, y0, size);
    var bits_a = walls_at(x, y0, size);
    var bits_b = walls_at(x + 1, y0, size);
    // The first iteration of row y0 - 1 (the two texels) and of row y0 (and the edges).
    let p_top = pressure_row(x, y0 - 2, size, inside);
    var first_above = iterate_pair(p_top, p_above, p_row, row_of(rhs, x, y0 - 1, size), walls_at(x, y0 - 1, size),
                                   walls_at(x + 1, y0 - 1, size));
    var first = iterate_pair(p_above, p_row, p_below, b_row, bits_a, bits_b);
    // The cells beside the pair: beyond the grid left of texel 0 and right of the last texel.
    let beyond_l = x == 0;
    let beyond_r = x + 2 >= size.x;
    var first_edges = iterate_edges(p_above, p_row, p_below, b_row, bits_a.x, bits_b.w, beyond_l, beyond_r);
    for (var y = y0; y < last; y++) {
        // The first iteration of row y + 1.
        let p_next = pressure_row(x, y + 2, size, inside);
        let b_below = row_of(rhs, x, y + 1, size);
        let bits_a_below = walls_at(x, y + 1, size);
        let bits_b_below = walls_at(x + 1, y + 1, size);
        let first_below = iterate_pair(p_row, p_below, p_next, b_below, bits_a_below, bits_b_below);
        // The second iteration of row y, from the first's values around it.
        let edge_l = vec4<f32>(0.0, 0.0, 0.0, first_edges.x);
        let edge_r = vec4<f32>(first_edges.y, 0.0, 0.0, 0.0);
        let second_a = iterate_texel(first_above.a, edge_l, first.a, first.b, first_below.a, b_row.a, bits_a);
        textureStore(pressure_out, vec2<i32>(x, y), second_a);
        if has_b {
            let second_b = iterate_texel(first_above.b, first.a, first.b, edge_r, first_below.b, b_row.b, bits_b);
            textureStore(pressure_out, vec2<i32>(x + 1, y), second_b);
        }

        first_above = first;
        first = first_below;
        first_edges = iterate_edges(p_row, p_below, p_next, b_below, bits_a_below.x, bits_b_below.w, beyond_l, beyond_r);
        p_row = p_below;
        p_below = p_next;
        b_row = b_below;
        bits_a = bits_a_below;
        bits_b = bits_b_below;
    }
}
