// Uses: water/params.wgsl (WaterParams); water/walk.wgsl (walk, STRIP, Changes);
//   water/tile_grid.wgsl (TileGrid, ANY, LEFT, RIGHT, TOP, BOTTOM, TOP_LEFT, TOP_RIGHT,
//   BOTTOM_LEFT, BOTTOM_RIGHT, flag_towards); water/list_once.wgsl (list_once).
// The water step over the awake tiles alone (src/water/tiles.rs: why a sleeping tile is exact),
// which also lists the tiles awake for the next step: one workgroup a tile of this step's list,
// its 64 invocations TILE_PAIRS columns of two texels by TILE_STRIPS strips of STRIP rows, each
// walking as the dense step's do (water/step.wgsl), so every cell's new mass is the dense step's
// to the bit. The walks report which cells they changed, gathered into the tile's change flags
// (ANY, and which of its edges and corners a changed cell lies within REACH of); then the
// workgroup's first 9 invocations take the tile and its 8 neighbours: a neighbour wakes when the
// flag for the edge or corner they share is set, the tile itself when a cell of its own changed,
// each listed once for the next step (`list_once`, in an order that varies while the result does
// not). Only the tiles stepped can have changed, so the others need no look. The tile's own
// invocation also notes a change in `dirty` (for the unpack at the end of the run) and frees the
// tile's mark in this step's slot, whose list the step after next's reuses. The dispatch's last
// workgroup (one more than the tiles listed, so there is always one) starts the list of the step
// after next again. A tile that sleeps is not written: the ping-pong's other texture already
// holds its masses (src/water/gpu.rs, `TilePasses`). CPU mirror: `compression_step`,
// `Tiles::wake_around_changes` and `Tiles::wake_cells` in src/water/tiles.rs.

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var mass_in: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var mass_out: texture_storage_2d<rgba32float, write>;
// The lists of awake tiles, by index (tile row x tiles across + tile column), a slot's after
// another: this step's, in `grid.slot`, are the dispatch's workgroups; the next step's are
// appended to.
@group(0) @binding(3) var<storage, read_write> lists: array<u32>;
@group(0) @binding(4) var<uniform> grid: TileGrid;
// The three slots' marks (a tile listed in the slot), the next step's indirect arguments
// (counted as tiles are listed) and the step after next's (started again).
@group(0) @binding(5) var<storage, read_write> marks: array<atomic<u32>>;
@group(0) @binding(6) var<storage, read_write> count: array<atomic<u32>, 3>;
@group(0) @binding(7) var<storage, read_write> count_after: array<u32, 3>;
// The tiles changed since the run began (water/changed_tiles.wgsl lists them for the unpack).
@group(0) @binding(8) var<storage, read_write> dirty: array<u32>;

// A tile's invocations across (columns of two texels, 8 cells each) and down (strips of STRIP
// rows); their product is the workgroup's 64. src/water/gpu.rs sets them.
override TILE_PAIRS: i32;
override TILE_STRIPS: i32;

// In a paged world (src/water/packed_world.rs, "Pages"): the rows of halo above and below the
// page's own rows in its texture.
override HALO: i32 = 0;

// A paged world's wakes across the pages' edges, two words a tile column a page (`grid.page`):
// its first tile row's, then its last's. A tile that changed within REACH of its page's edge sets
// the word of the tile it wakes in the page beyond, and water/wake_edges.wgsl lists that tile for
// the next step once every page has stepped (the halo copies between bring it the change).
@group(0) @binding(9) var<storage, read_write> edges: array<u32>;

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
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let now = grid.slot;
    let tiles = grid.across * grid.down;
    if wid.x == groups.x - 1u {
        // The extra workgroup: the list of the step after next (this slot's last user was the
        // step before this one) starts empty.
        if lid == 0u {
            count_after[0] = 1u;
        }
        return;
    }
    let size = vec2<i32>(textureDimensions(mass_in));
    let tile_w = 2 * TILE_PAIRS;
    let tile_h = TILE_STRIPS * STRIP;
    let across = i32(grid.across);
    let tile = lists[now * tiles + wid.x];
    let t = vec2<i32>(i32(tile) % across, i32(tile) / across);
    let px = i32(lid) % TILE_PAIRS;
    let x = t.x * tile_w + 2 * px;
    let top = HALO + t.y * tile_h;
    let y0 = top + (i32(lid) / TILE_PAIRS) * STRIP;
    let end = size.y - HALO;
    if x < size.x && y0 < end {
        // The tile's bottom edge: its last row, or the page's where that cuts it short (a change
        // there wakes the page below's tile).
        let c = walk(x, y0, min(y0 + STRIP, end), size, top + REACH, min(top + tile_h, end) - REACH);
        let left = select(0u, 3u, px == 0);
        let right = select(0u, 0xc0u, px == TILE_PAIRS - 1);
        let f = flags_of(c, left, right);
        if f != 0u {
            atomicOr(&tile_flags, f);
        }
    }
    workgroupBarrier();
    if lid >= 9u {
        return;
    }
    let flags = atomicLoad(&tile_flags);
    let d = vec2<i32>(i32(lid % 3u) - 1, i32(lid / 3u) - 1);
    if lid == 4u {
        atomicStore(&marks[now * tiles + tile], 0u);
        if (flags & ANY) != 0u {
            dirty[tile] = 1u;
        }
    }
    let u = t + d;
    if (flags & flag_towards(d)) == 0u || u.x < 0 || u.x >= across {
        return;
    }
    // Past the page's first or last tile row: the page beyond's last or first, if there is one.
    if u.y < 0 {
        if grid.page > 0u {
            edges[((grid.page - 1u) * 2u + 1u) * grid.across + u32(u.x)] = 1u;
        }
        return;
    }
    if u.y >= i32(grid.down) {
        if grid.page + 1u < grid.pages {
            edges[(grid.page + 1u) * 2u * grid.across + u32(u.x)] = 1u;
        }
        return;
    }
    list_once((now + 1u) % 3u, u32(u.y) * grid.across + u32(u.x));
}
