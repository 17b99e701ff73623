// Uses: common/body.wgsl (Body); water/body_region.wgsl (BodyRegion); water/tile_grid.wgsl
//   (TileGrid); water/list_once.wgsl (list_once).
// Water that sleeps, with bodies: before each step over the awake tiles, the tiles within REACH
// of each body's region (where water/bodies.wgsl has just pushed water out of the cells the
// bodies cover, and the water flows around them) join the step's list, each once, and are noted
// as changed in the run, for the unpack at its end. One workgroup a body, its invocations
// striding over the tiles. CPU mirror: `Tiles::wake_cells` in src/water/tiles.rs.

@group(0) @binding(0) var<uniform> grid: TileGrid;
@group(0) @binding(1) var<uniform> region: BodyRegion;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(2) var<uniform> bodies: array<Body, 16>;
@group(0) @binding(3) var<storage, read_write> lists: array<u32>;
// The step at hand's indirect arguments.
@group(0) @binding(4) var<storage, read_write> count: array<atomic<u32>, 3>;
@group(0) @binding(5) var<storage, read_write> marks: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> dirty: array<u32>;

// A tile's cells across and down (src/water/gpu.rs sets them).
override TILE_W: i32;
override TILE_H: i32;

// How far a change reaches in one step, cells: `tiles::REACH`.
const REACH: i32 = 2;

@compute @workgroup_size(64, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    if wid.x >= region.count {
        return;
    }
    // The body's region in cells (water/body_region.wgsl: texels around the one holding its
    // centre), and REACH around it.
    let b = bodies[wid.x];
    let first = vec2<i32>(i32(floor(b.centre.x / 4.0)), i32(floor(b.centre.y))) - region.half;
    let lo = vec2<i32>(4 * first.x, first.y) - vec2<i32>(REACH);
    let hi = vec2<i32>(4 * (first.x + i32(region.size.x)) - 1, first.y + i32(region.size.y) - 1) + vec2<i32>(REACH);
    let tile = vec2<i32>(TILE_W, TILE_H);
    let last = vec2<i32>(i32(grid.across) - 1, i32(grid.down) - 1);
    let t0 = max(lo, vec2<i32>(0)) / tile;
    let t1 = min(hi / tile, last);
    if any(hi < vec2<i32>(0)) || any(t1 < t0) {
        return;
    }
    let span = t1 - t0 + vec2<i32>(1);
    for (var k = i32(lid); k < span.x * span.y; k += 64) {
        let t = u32(t0.y + k / span.x) * grid.across + u32(t0.x + k % span.x);
        list_once(grid.slot, t);
        dirty[t] = 1u;
    }
}
