// Grid indexing shared by compute passes.
// Texel (x, y) is grid cell (row = y, col = x); row 0 is the top, so "down" is +y.

const DOWN: vec2<i32> = vec2<i32>(0, 1);
const UP: vec2<i32> = vec2<i32>(0, -1);
const LEFT: vec2<i32> = vec2<i32>(-1, 0);
const RIGHT: vec2<i32> = vec2<i32>(1, 0);

fn inside(p: vec2<i32>, size: vec2<u32>) -> bool {
    return p.x >= 0 && p.y >= 0 && p.x < i32(size.x) && p.y < i32(size.y);
}

// The bit of the box's edge that `p`, an edge neighbour of a cell of a `size` grid, lies beyond:
// 1 left, 2 right, 4 top, 8 bottom (`crate::edge`'s order), 0 inside. Bit e of a set of
// edges held at pressure 0 (`dirichlet_bits` in src/solver/gpu.rs; `beyond` in src/solver/mod.rs).
fn beyond_bit(p: vec2<i32>, size: vec2<u32>) -> u32 {
    if p.x < 0 {
        return 1u;
    }
    if p.x >= i32(size.x) {
        return 2u;
    }
    if p.y < 0 {
        return 4u;
    }
    if p.y >= i32(size.y) {
        return 8u;
    }
    return 0u;
}
