// Uses: water/rules.wgsl | water/rules_fixed.wgsl (Lanes, Flows, outflows, mass_texel, open,
//   stored); the pass's bindings (params, mass_out).
// The water step's walk: every cell's outflows (the rules, in f32 from water/rules.wgsl or in
// integer units from water/rules_fixed.wgsl, each declaring `Lanes` and the rule's functions)
// and the gather of what its neighbours sent it, in the packed layout (common/packed.wgsl: four
// cells of a row a texel). CPU mirror: `simulate_compression` (src/water/cpu.rs).
//
// Every flow reads only the previous step's masses (the original reads `mass[][]` and writes
// `new_mass[][]`), so a cell's four outflows are a pure function of its 3x3 neighbourhood, and
// its new mass a pure function of its neighbours' outflows towards it: a gather, no scatter,
// the same result whatever the thread order.
//
// One invocation walks a column of STRIP rows of two texels downwards, keeping the rows around
// it in registers, so each row's outflows are computed once and serve the row itself, the row
// below (its down flow) and the row above (its up flow); every texel is loaded about once. The
// flows between the two texels come from their own outflows; those across the pair's outer
// edges from one more 4-lane evaluation of the rule ("side"): lane 0 is the last cell of the
// texel to the left, lane 1 the first of the texel to the right. Each lane's branches of the
// scalar rule are per-lane selects with the same arithmetic in the same order, and the gather
// adds in the push loop's order, so a cell's result is the CPU's to the bit.
// Two texels an invocation, not one: 4 texel operations a texel instead of 5, and one side
// evaluation for 8 cells instead of 4. STRIP is set for the adapter (`DeviceCaps::strip`;
// measured: docs/performance.md).
//
// Which cells are solid rides in the mass texels' sign bits (water/pack.wgsl): a solid cell's
// mass is stored negated, -0.0 when empty, and every other mass is >= +0.0, so a cell is solid
// exactly when its sign bit is set, and the neighbours' solid bits come with the masses the step
// reads anyway, with no texture of solid bits to load beside them (two texel loads fewer a row
// of the walk). A solid cell is never wet (its stored mass is <= 0), the flows towards it are
// selected away, and the step writes its texel lane back unchanged.
//
// Cells outside the grid hold no mass, so they send nothing: they read as +0.0 with the open
// boundary (empty air, where the flow sent out of the grid is lost) and as -0.0, solid, with the
// wall boundary. Padding cells past the last column hold the same (water/pack.wgsl), and the
// step writes them back unchanged: what flows into them under the open boundary is lost.

// Texel rows one invocation steps through, set for the adapter by src/water/gpu.rs
// (`DeviceCaps::strip`).
override STRIP: i32;

// Whether `walk` reports which cells it changed (water/step_tiles.wgsl); the dense step leaves
// it off, and the comparisons are compiled out.
override TRACK_CHANGES: bool = false;

// One row of texels' masses: the texel, and its left and right neighbours'.
struct Row {
    m: Lanes,
    l: Lanes,
    r: Lanes,
}

// The outflows of a row of four cells, given the rows above and below.
fn row_outflows(row: Row, above: Lanes, below: Lanes) -> Flows {
    return outflows(row.m, Lanes(row.l.w, row.m.xyz), Lanes(row.m.yzw, row.r.x), below, above);
}

// The flows across the texel's edges, in lanes 0 and 1: the right flow of the last cell of the
// texel to the left, the left flow of the first cell of the texel to the right. Lane 0 of one evaluation of the
// rule is the former, lane 1 the latter (lanes 2 and 3 hold no mass); `row` and `under` are
// this row and the one below it. Neither cell's up flow is used, so the row above is not read.
fn edge_flows(row: Row, under: Row) -> Lanes {
    let side = outflows(Lanes(row.l.w, row.r.x, 0, 0), Lanes(row.l.z, row.m.w, 0, 0),
                        Lanes(row.m.x, row.r.y, 0, 0), Lanes(under.l.w, under.r.x, 0, 0),
                        Lanes(0));
    return Lanes(side.right.x, side.left.y, 0, 0);
}

// The row of an invocation's two texels `a` (column x) and `b` (x + 1), and their outer
// neighbours' `l` (x - 1) and `r` (x + 2).
struct Pair {
    l: Lanes,
    a: Lanes,
    b: Lanes,
    r: Lanes,
}

fn load_pair(x: i32, y: i32, size: vec2<i32>) -> Pair {
    return Pair(mass_texel(vec2<i32>(x - 1, y), size), mass_texel(vec2<i32>(x, y), size),
                mass_texel(vec2<i32>(x + 1, y), size), mass_texel(vec2<i32>(x + 2, y), size));
}

// The Row of texel `a` and of texel `b` within a Pair.
fn row_a(p: Pair) -> Row {
    return Row(p.a, p.l, p.b);
}

fn row_b(p: Pair) -> Row {
    return Row(p.b, p.a, p.r);
}

// The flows across the pair's outer edges, as edge_flows gives them for one texel: the cell left
// of `a` and the cell right of `b` (a Row whose lanes 0 and 3 are a's first cell and b's last).
fn pair_edge_flows(row: Pair, under: Pair) -> Lanes {
    let outer = Row(Lanes(row.a.x, 0, 0, row.b.w), row.l, row.r);
    let outer_under = Row(Lanes(0), under.l, under.r);
    return edge_flows(outer, outer_under);
}

// A texel's new mass but for what the cell below sends up (`partial_row`, then the caller adds
// it): its own `m`, what the cell above sends down, the cells left and right send sideways, its
// own outflows `own`. The push loop's own order of updates to a cell (row-major from the top
// left): the cell above pushes down into it and the cell to the left pushes right before the
// cell itself is processed; it then gives its outflows one by one, in the order it takes them
// from `remaining_mass`; the cells to the right and below push after. Keeping that order makes
// the result the CPU's to the bit, and >= 0: each outflow is at most what remains, and rounding
// is monotonic, so no partial sum can round below the CPU's remaining mass.
fn gathered_but_below(m0: Lanes, from_above: Lanes, from_left: Lanes, own: Flows,
                      from_right: Lanes) -> Lanes {
    var m = m0;
    m += from_above;
    m += from_left;
    m = m - own.down - own.left - own.right - own.up;
    m += from_right;
    return m;
}

// A row of the pair's new masses but for what the row below sends up, and what it sends down
// (the row below's from_above).
struct Partial {
    a: Lanes,
    b: Lanes,
    down_a: Lanes,
    down_b: Lanes,
}

// The Partial of the pair's row `row`, given the row below `under`, what the row above sends
// down and the row's own outflows.
fn partial_row(row: Pair, under: Pair, from_above_a: Lanes, from_above_b: Lanes, own_a: Flows,
               own_b: Flows) -> Partial {
    let edges = pair_edge_flows(row, under);
    let a = gathered_but_below(row.a, from_above_a, Lanes(edges.x, own_a.right.xyz), own_a,
                               Lanes(own_a.left.yzw, own_b.left.x));
    let b = gathered_but_below(row.b, from_above_b, Lanes(own_a.right.w, own_b.right.xyz), own_b,
                               Lanes(own_b.left.yzw, edges.y));
    return Partial(a, b, own_a.down, own_b.down);
}

// Which cells a walk changed (with TRACK_CHANGES; bitwise: a stored mass whose bits differ from
// the last step's): bit k of `any` is cell k of the pair (0-3 texel `a`'s, 4-7 `b`'s) changed in
// some row, of `top` in a row before `top_end`, of `bottom` in a row from `bottom_start` on.
struct Changes {
    any: u32,
    top: u32,
    bottom: u32,
}

// The lanes of a texel whose bits differ between `now` and `before`, as bits 0 to 3.
fn lane_changes(now: Lanes, before: Lanes) -> u32 {
    let d = bitcast<vec4<u32>>(now) != bitcast<vec4<u32>>(before);
    return select(0u, 1u, d.x) | select(0u, 2u, d.y) | select(0u, 4u, d.z) | select(0u, 8u, d.w);
}

// Steps the pair of texels at columns x and x + 1 from row y0 to row `last - 1` (`size` the
// packed texture's), writing their new masses into `mass_out`; with TRACK_CHANGES, which cells
// changed (Changes, with `top_end` and `bottom_start`).
fn walk(x: i32, y0: i32, last: i32, size: vec2<i32>, top_end: i32, bottom_start: i32) -> Changes {
    // Two texels an invocation: `a` at column x, `b` at x + 1 (past the grid when its width in
    // texels is odd: then it holds no mass, sends nothing and is not written).
    let has_b = x + 1 < size.x;
    let zero = Lanes(0);
    var changes = Changes(0u, 0u, 0u);
    // The cells the step writes back unchanged: solid ones (their sign) and padding past the
    // grid's last column.
    let width = vec4<i32>(i32(params.width));
    let padding_a = 4 * x + vec4<i32>(0, 1, 2, 3) >= width;
    let padding_b = 4 * x + vec4<i32>(4, 5, 6, 7) >= width;

    // Rolling window: `row` (y) and `under` (y + 1), and the row above's masses for the first
    // row's outflows.
    let above_a = mass_texel(vec2<i32>(x, y0 - 1), size);
    let above_b = mass_texel(vec2<i32>(x + 1, y0 - 1), size);
    var row = load_pair(x, y0, size);
    var under = load_pair(x, y0 + 1, size);
    // What the row above sends down (nothing from above the grid, whose cells hold no mass); its
    // other flows are not used, so its own neighbours are not read.
    let from_above_a = outflows(above_a, zero, zero, row.a, zero).down;
    let from_above_b = outflows(above_b, zero, zero, row.b, zero).down;
    let own_a = row_outflows(row_a(row), above_a, under.a);
    let own_b = row_outflows(row_b(row), above_b, under.b);
    // Each step finishes row y with what row y + 1 sends up, and works out all the rest of row
    // y + 1: the loop carries a row's partial sums and down flows (16 values) instead of its
    // outflows and the row above's down flows (40), since lavapipe keeps a walk's values in 16
    // vector registers and spills the rest. The arithmetic is the same, in the same order.
    var partial = partial_row(row, under, from_above_a, from_above_b, own_a, own_b);
    for (var y = y0; y < last; y++) {
        let next = load_pair(x, y + 2, size);
        let below_a = row_outflows(row_a(under), row.a, next.a);
        let below_b = row_outflows(row_b(under), row.b, next.b);
        let new_a = select(partial.a + below_a.up, row.a, padding_a | !open(row.a));
        textureStore(mass_out, vec2<i32>(x, y), stored(new_a));
        var changed = 0u;
        if TRACK_CHANGES {
            changed = lane_changes(new_a, row.a);
        }
        if has_b {
            let new_b = select(partial.b + below_b.up, row.b, padding_b | !open(row.b));
            textureStore(mass_out, vec2<i32>(x + 1, y), stored(new_b));
            if TRACK_CHANGES {
                changed |= lane_changes(new_b, row.b) << 4u;
            }
        }
        if TRACK_CHANGES {
            changes.any |= changed;
            changes.top |= select(0u, changed, y < top_end);
            changes.bottom |= select(0u, changed, y >= bottom_start);
        }
        partial = partial_row(under, next, partial.down_a, partial.down_b, below_a, below_b);
        row = under;
        under = next;
    }
    return changes;
}
