// Uses: water/tile_grid.wgsl (TileGrid, ANY, LEFT, RIGHT, TOP, BOTTOM, TOP_LEFT, TOP_RIGHT,
//   BOTTOM_LEFT, BOTTOM_RIGHT).
// Water pass, the wake: after a step over the awake tiles (water/step_tiles.wgsl), the list of
// the tiles awake for the next step, one invocation a tile. A tile wakes when a cell of its own
// changed, when a neighbour's changed cell lies within REACH of it (the neighbour's flag for the
// edge or corner they share), or when an edit asked (`wake`, written by src/water/gpu.rs). Each
// awake tile takes a place in `awake` by an atomic count in `args` (the next step's indirect
// dispatch: the list's order varies, the result does not). It also clears the flags the next
// step writes into and the edits' requests, and resets the count of the step after next
// (`args_after`: its list was last used two steps ago), and notes the tiles that changed in
// `dirty`. CPU mirror: `Tiles::wake_around_changes`
// and `Tiles::wake_cells` in src/water/tiles.rs.

@group(0) @binding(0) var<uniform> grid: TileGrid;
// The flags the step just taken wrote (water/step_tiles.wgsl's constants).
@group(0) @binding(1) var<storage, read> changed: array<u32>;
// The flags the next step writes into, cleared here for the tiles it will not step.
@group(0) @binding(2) var<storage, read_write> next_changed: array<u32>;
// Non-zero: an edit touched the tile (or came within REACH of it). Cleared here.
@group(0) @binding(3) var<storage, read_write> wake: array<u32>;
// The next step's awake tiles and its indirect dispatch (workgroups x, y, z: x counts them).
@group(0) @binding(4) var<storage, read_write> awake: array<u32>;
@group(0) @binding(5) var<storage, read_write> args: array<atomic<u32>, 3>;
// The step after next's indirect dispatch, whose count starts again from 0.
@group(0) @binding(6) var<storage, read_write> args_after: array<u32, 3>;
// The tiles changed since the run began (water/changed_tiles.wgsl lists them for the unpack).
@group(0) @binding(7) var<storage, read_write> dirty: array<u32>;

// Whether tile (tx, ty), if inside the grid of tiles, has `flag` set.
fn has(tx: i32, ty: i32, flag: u32) -> bool {
    if tx < 0 || ty < 0 || tx >= i32(grid.across) || ty >= i32(grid.down) {
        return false;
    }
    return (changed[u32(ty) * grid.across + u32(tx)] & flag) != 0u;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x == 0u {
        args_after[0] = 0u;
    }
    if id.x >= grid.across * grid.down {
        return;
    }
    let tx = i32(id.x % grid.across);
    let ty = i32(id.x / grid.across);
    let own = (changed[id.x] & ANY) != 0u;
    if own {
        dirty[id.x] = 1u;
    }
    var up = own || wake[id.x] != 0u;
    // A neighbour's change within REACH of this tile: the left neighbour's near its right edge, ...
    up = up || has(tx - 1, ty, RIGHT) || has(tx + 1, ty, LEFT) || has(tx, ty - 1, BOTTOM) || has(tx, ty + 1, TOP);
    up = up || has(tx - 1, ty - 1, BOTTOM_RIGHT) || has(tx + 1, ty - 1, BOTTOM_LEFT);
    up = up || has(tx - 1, ty + 1, TOP_RIGHT) || has(tx + 1, ty + 1, TOP_LEFT);
    next_changed[id.x] = 0u;
    wake[id.x] = 0u;
    if up {
        awake[atomicAdd(&args[0], 1u)] = id.x;
    }
}
