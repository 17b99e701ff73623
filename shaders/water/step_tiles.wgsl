// Uses: water/params.wgsl (WaterParams, outside_mass); water/walk.wgsl (walk, STRIP, Changes);
//   water/tile_grid.wgsl (TileGrid, ANY, LEFT, RIGHT, TOP, BOTTOM, TOP_LEFT, TOP_RIGHT,
//   BOTTOM_LEFT, BOTTOM_RIGHT).
// The water step over the awake tiles alone (src/water/tiles.rs: why a sleeping tile is exact):
// one workgroup a tile of the list water/wake.wgsl built, its 64 invocations TILE_PAIRS columns
// of two texels by TILE_STRIPS strips of STRIP rows, each walking as the dense step's do
// (water/step.wgsl), so every cell's new mass is the dense step's to the bit. The walks report
// which cells they changed; the tile's change flags (ANY, and which of its edges and corners a
// changed cell lies within REACH of) go to `changed` for the next wake pass. A tile that sleeps
// is not written: the ping-pong's other texture already holds its masses (src/water/gpu.rs,
// `TilePasses`). CPU mirror: `compression_step` in src/water/tiles.rs.

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var mass_out: texture_storage_2d<rgba32float, write>;
// The lists of awake tiles, by index (tile row x tiles across + tile column), a slot's after
// another: this step's, in `grid.slot`, are the dispatch's workgroups.
@group(0) @binding(3) var<storage, read> lists: array<u32>;
// Each tile's change flags, written by the tile's workgroup when it is awake.
@group(0) @binding(4) var<storage, read_write> changed: array<u32>;
@group(0) @binding(5) var<uniform> grid: TileGrid;

// A tile's invocations across (columns of two texels, 8 cells each) and down (strips of STRIP
// rows); their product is the workgroup's 64. src/water/gpu.rs sets them.
override TILE_PAIRS: i32;
override TILE_STRIPS: i32;

// How far a change reaches in one step, cells: `tiles::REACH` (a test holds them equal).
const REACH: i32 = 2;

var<workgroup> tile_flags: atomic<u32>;

// The flags of what one walk changed: `edges` the pair's cells within REACH of the tile's left
// (bits 0-1 of the first pair) and right edge (bits 6-7 of the last).
fn flags_of(c: Changes, left: u32, right: u32) -> u32 {
    var f = select(0u, ANY, c.any != 0u);
    f |= select(0u, LEFT, (c.any & left) != 0u) | select(0u, RIGHT, (c.any & right) != 0u);
    f |= select(0u, TOP, c.top != 0u) | select(0u, BOTTOM, c.bottom != 0u);
    f |= select(0u, TOP_LEFT, (c.top & left) != 0u) | select(0u, TOP_RIGHT, (c.top & right) != 0u);
    f |= select(0u, BOTTOM_LEFT, (c.bottom & left) != 0u) | select(0u, BOTTOM_RIGHT, (c.bottom & right) != 0u);
    return f;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let size = vec2<i32>(textureDimensions(mass_in));
    let tile_w = 2 * TILE_PAIRS;
    let tile_h = TILE_STRIPS * STRIP;
    let across = i32(grid.across);
    let tile = lists[grid.slot * grid.across * grid.down + wid.x];
    let t = vec2<i32>(i32(tile) % across, i32(tile) / across);
    let px = i32(lid) % TILE_PAIRS;
    let x = t.x * tile_w + 2 * px;
    let top = t.y * tile_h;
    let y0 = top + (i32(lid) / TILE_PAIRS) * STRIP;
    if x < size.x && y0 < size.y {
        let c = walk(x, y0, min(y0 + STRIP, size.y), size, top + REACH, top + tile_h - REACH);
        let left = select(0u, 3u, px == 0);
        let right = select(0u, 0xc0u, px == TILE_PAIRS - 1);
        let f = flags_of(c, left, right);
        if f != 0u {
            atomicOr(&tile_flags, f);
        }
    }
    workgroupBarrier();
    if lid == 0u {
        changed[tile] = atomicLoad(&tile_flags);
    }
}
