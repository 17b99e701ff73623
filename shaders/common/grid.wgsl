// Grid indexing shared by compute passes.
// Texel (x, y) is grid cell (row = y, col = x); row 0 is the top, so "down" is +y.

const DOWN: vec2<i32> = vec2<i32>(0, 1);
const UP: vec2<i32> = vec2<i32>(0, -1);
const LEFT: vec2<i32> = vec2<i32>(-1, 0);
const RIGHT: vec2<i32> = vec2<i32>(1, 0);

fn inside(p: vec2<i32>, size: vec2<u32>) -> bool {
    return p.x >= 0 && p.y >= 0 && p.x < i32(size.x) && p.y < i32(size.y);
}
