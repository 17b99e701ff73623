// Uses: common/packed.wgsl (cell_bits); solver/jacobi_quad.wgsl | solver/smooth_quad.wgsl (relax);
//   solver/jacobi_rows.wgsl (Row, pressure_row, row_of).
// The walk of the four-level passes in the packed layout of packed.wgsl (jacobi_quad.wgsl: four
// Jacobi iterations; smooth_quad.wgsl: two red-black Gauss-Seidel sweeps, four half-sweeps): a
// pass applies its `relax` (c, its neighbours up, left, right, down, b, wall bits, the row y,
// the level 1..4 and each lane's column) four times, each level to the one before it, and
// writes the fourth. `relax`
// reads only a cell's four edge neighbours, so level k of a cell depends on level k - 1 of the
// cells around it as a Jacobi iteration does, whatever the pass does with them.
//
// Temporal blocking in registers. One invocation writes two texels (eight cells) of each of
// STRIP rows, walking down its column. Level k of row y needs level k - 1 of rows y - 1 to
// y + 1 and of the cells up to one further left and right, so the fourth level of its eight
// cells needs the first of the rows three above to three below and of the three cells beyond
// each side. The invocation therefore reads the four texels x - 1 .. x + 2 of each row (a
// `Row`, jacobi_rows.wgsl: 16 cells, 4 beyond each side) and runs the levels one row behind the
// other: step s computes the first level of row s + 3 (all four texels), the second of s + 2
// and the third of s + 1 (the two inner texels and the two cells each side of them, a `Trim`)
// and the fourth of s (the inner texels), which it writes, keeping each level's last rows and
// the right-hand side and walls of rows s .. s + 3 in registers. A cell at the outer edge of
// what a level holds has no neighbour beyond it and reads a wrong value there instead; the error
// moves one cell in per level, and each level keeps only cells it has not reached, so the fourth
// level reads exact values. Cells beyond the grid are walls holding 0, as the other packed
// passes read them.
//
// Per texel written and four levels: 6 loads and 1 store, and 6 x 6 / STRIP loads more for the
// six rows above the strip that fill the windows (about 8.1 and 1 at STRIP 32, lavapipe's),
// against 12.5 and 2 for two jacobi_pair.wgsl dispatches, and 12 evaluations of `relax` a row of
// two texels against 10 (14 without the Trims for the second and third levels). On lavapipe,
// where texel operations and dispatches bound the solve, the fewer loads and dispatches
// outweigh the extra evaluations (measured: docs/performance.md).

@group(0) @binding(0) var pressure: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var rhs: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var pressure_out: texture_storage_2d<rgba32float, write>;

// Texel rows one invocation writes, set for the adapter by src/solver/packed.rs (`quad_strip`),
// which dispatches ceil(H / STRIP) rows.
override STRIP: i32;

// Every cell of a texel a wall (beyond the grid).
const ALL_WALLS: u32 = 0x01010101u;

// The wall texels (packed.wgsl's bits, four cells a u32) of a Row's four columns.
struct Walls {
    l: u32,
    a: u32,
    b: u32,
    r: u32,
}

// The wall texel at (x, y); beyond the grid, four walls.
fn wall_texel(x: i32, y: i32, size: vec2<i32>) -> u32 {
    let q = vec2<i32>(x, y);
    let c = clamp(q, vec2<i32>(0), size - 1);
    return select(textureLoad(walls, c).r, ALL_WALLS, any(q != c));
}

fn walls_row(x: i32, y: i32, size: vec2<i32>) -> Walls {
    return Walls(wall_texel(x - 1, y, size), wall_texel(x, y, size), wall_texel(x + 1, y, size),
                 wall_texel(x + 2, y, size));
}

// `relax` of texel `m` (column x) of row y between its neighbours `l` and `r` of its row,
// `above` and `below`, as level `stage` of the walk.
fn relax_texel(above: vec4<f32>, l: vec4<f32>, m: vec4<f32>, r: vec4<f32>, below: vec4<f32>, b: vec4<f32>,
               bits: vec4<u32>, y: i32, stage: i32, x: i32) -> vec4<f32> {
    return relax(m, above, vec4<f32>(l.w, m.xyz), vec4<f32>(m.yzw, r.x), below, b, bits, y, stage,
                 4 * x + vec4<i32>(0, 1, 2, 3));
}

// The first level of row y's four texels (the invocation's first at column x); the outer
// texels' outer cells read their own texel beyond the Row (see above).
fn relax_row(above: Row, mid: Row, below: Row, b: Row, bits: Walls, y: i32, x: i32) -> Row {
    return Row(relax_texel(above.l, mid.l, mid.l, mid.a, below.l, b.l, cell_bits(bits.l), y, 1, x - 1),
               relax_texel(above.a, mid.l, mid.a, mid.b, below.a, b.a, cell_bits(bits.a), y, 1, x),
               relax_texel(above.b, mid.a, mid.b, mid.r, below.b, b.b, cell_bits(bits.b), y, 1, x + 1),
               relax_texel(above.r, mid.b, mid.r, mid.r, below.r, b.r, cell_bits(bits.r), y, 1, x + 2));
}

// The second and third levels' cells: the two texels `a`, `b` and, in `e`, the two cells
// each side of them that the next level reads beyond them (l.z, l.w, r.x, r.y of a Row).
struct Trim {
    e: vec4<f32>,
    a: vec4<f32>,
    b: vec4<f32>,
}

// The Trim cells of a Row.
fn trim_edge(row: Row) -> vec4<f32> {
    return vec4<f32>(row.l.zw, row.r.xy);
}

// The wall bits of the Trim's edge cells.
fn edge_bits(bits: Walls) -> vec4<u32> {
    return vec4<u32>(cell_bits(bits.l).zw, cell_bits(bits.r).xy);
}

// The columns of the Trim's edge cells, the invocation's first texel at column x.
fn edge_columns(x: i32) -> vec4<i32> {
    return 4 * x + vec4<i32>(-2, -1, 8, 9);
}

// The second level of row y, from the first's Rows.
fn relax_to_trim(above: Row, mid: Row, below: Row, b: Row, bits: Walls, y: i32, x: i32) -> Trim {
    let e = relax(trim_edge(mid), trim_edge(above), vec4<f32>(mid.l.yz, mid.b.w, mid.r.x),
                  vec4<f32>(mid.l.w, mid.a.x, mid.r.yz), trim_edge(below), trim_edge(b), edge_bits(bits), y, 2,
                  edge_columns(x));
    return Trim(e, relax_texel(above.a, mid.l, mid.a, mid.b, below.a, b.a, cell_bits(bits.a), y, 2, x),
                relax_texel(above.b, mid.a, mid.b, mid.r, below.b, b.b, cell_bits(bits.b), y, 2, x + 1));
}

// The third level of row y, from the second's Trims; its outer edge cells (l.z, r.y) read a
// wrong neighbour beyond them (l.y and r.z are not kept) and are not read by the fourth.
fn relax_trim(above: Trim, mid: Trim, below: Trim, b: Row, bits: Walls, y: i32, x: i32) -> Trim {
    let m = mid.e;
    let e = relax(m, above.e, vec4<f32>(m.x, m.x, mid.b.w, m.z), vec4<f32>(m.y, mid.a.x, m.w, m.w), below.e,
                  trim_edge(b), edge_bits(bits), y, 3, edge_columns(x));
    return Trim(e, relax_texel(above.a, vec4<f32>(m.y), mid.a, mid.b, below.a, b.a, cell_bits(bits.a), y, 3, x),
                relax_texel(above.b, mid.a, mid.b, vec4<f32>(m.z), below.b, b.b, cell_bits(bits.b), y, 3, x + 1));
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
    // computed as a wall (0) and not written.
    let has_b = x + 1 < size.x;
    let in_grid = vec4<bool>(x >= 1, true, has_b, x + 2 < size.x);

    // Step s reads the pressure of row s + 4 and the right-hand side and walls of row s + 3.
    // The windows, named by their row at step s:
    var p_2 = pressure_row(x, y0 - 4, size, in_grid); // p(s + 2), p(s + 3)
    var p_3 = pressure_row(x, y0 - 3, size, in_grid);
    let zero = Row(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    var b_0 = zero; // b(s), b(s + 1), b(s + 2)
    var b_1 = zero;
    var b_2 = zero;
    var w_0 = Walls(ALL_WALLS, ALL_WALLS, ALL_WALLS, ALL_WALLS); // walls(s) .. walls(s + 2)
    var w_1 = w_0;
    var w_2 = w_0;
    var first_1 = zero; // the first level of rows s + 1, s + 2
    var first_2 = zero;
    let none = Trim(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    var second_0 = none; // the second of rows s, s + 1
    var second_1 = none;
    var third_m = none; // the third of rows s - 1, s
    var third_0 = none;
    // Rows y0 - 6 .. y0 - 1 only fill the windows: the first of row y0 - 3 is the earliest the
    // fourth of row y0 needs (through the second of y0 - 2 and the third of y0 - 1).
    for (var s = y0 - 6; s < last; s++) {
        let p_4 = pressure_row(x, s + 4, size, in_grid);
        let b_3 = row_of(rhs, x, s + 3, size);
        let w_3 = walls_row(x, s + 3, size);
        let first_3 = relax_row(p_2, p_3, p_4, b_3, w_3, s + 3, x);
        var second_2 = none;
        if s >= y0 - 4 {
            second_2 = relax_to_trim(first_1, first_2, first_3, b_2, w_2, s + 2, x);
        }
        var third_1 = none;
        if s >= y0 - 2 {
            third_1 = relax_trim(second_0, second_1, second_2, b_1, w_1, s + 1, x);
        }
        if s >= y0 {
            let fourth_a = relax_texel(third_m.a, vec4<f32>(third_0.e.y), third_0.a, third_0.b, third_1.a, b_0.a,
                                       cell_bits(w_0.a), s, 4, x);
            textureStore(pressure_out, vec2<i32>(x, s), fourth_a);
            if has_b {
                let fourth_b = relax_texel(third_m.b, third_0.a, third_0.b, vec4<f32>(third_0.e.z), third_1.b, b_0.b,
                                           cell_bits(w_0.b), s, 4, x + 1);
                textureStore(pressure_out, vec2<i32>(x + 1, s), fourth_b);
            }
        }
        p_2 = p_3;
        p_3 = p_4;
        b_0 = b_1;
        b_1 = b_2;
        b_2 = b_3;
        w_0 = w_1;
        w_1 = w_2;
        w_2 = w_3;
        first_1 = first_2;
        first_2 = first_3;
        second_0 = second_1;
        second_1 = second_2;
        third_m = third_0;
        third_0 = third_1;
    }
}
