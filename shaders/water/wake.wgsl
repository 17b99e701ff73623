// Uses: water/tile_grid.wgsl (TileGrid, ANY, ARGS, flag_towards); water/list_once.wgsl (list_once).
// Water pass, the wake: after a step over the awake tiles (water/step_tiles.wgsl), the list of
// the tiles awake for the next step. One workgroup a tile the step took (dispatched indirectly,
// by the slot's second arguments), its first 9 invocations the tile and its 8 neighbours: a
// neighbour wakes when the tile's flag for the edge or corner they share says a changed cell
// lies within REACH of it, the tile itself when a cell of its own changed; each is listed once
// for the next step (`list_once`), in an order that varies while the result does not. Only the
// tiles the step took can have changed, so the others need no look. The tile's own invocation
// also notes a change in `dirty` (for the unpack at the end of the run) and frees the tile's mark
// in this step's slot, whose list the step after next's slot reuses. The last workgroup (one more
// than the tiles listed, so there is always one) starts the count of the step after next again.
// CPU mirror: `Tiles::wake_around_changes` and `Tiles::wake_cells` in src/water/tiles.rs.

@group(0) @binding(0) var<uniform> grid: TileGrid;
// The flags the step just taken wrote, for the tiles it took.
@group(0) @binding(1) var<storage, read> changed: array<u32>;
// The three slots' lists, each `tiles` long, their marks, and the steps' indirect arguments.
@group(0) @binding(2) var<storage, read_write> lists: array<u32>;
@group(0) @binding(3) var<storage, read_write> args: array<atomic<u32>, 9>;
@group(0) @binding(4) var<storage, read_write> marks: array<atomic<u32>>;
// The tiles changed since the run began (water/changed_tiles.wgsl lists them for the unpack).
@group(0) @binding(5) var<storage, read_write> dirty: array<u32>;
// The wake's indirect arguments of the next step (counted as tiles are listed) and of the step
// after next (started again).
@group(0) @binding(6) var<storage, read_write> wake_count: array<atomic<u32>, 3>;
@group(0) @binding(7) var<storage, read_write> wake_after: array<u32, 3>;

@compute @workgroup_size(16, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let now = grid.slot;
    let next = (now + 1u) % 3u;
    let tiles = grid.across * grid.down;
    if wid.x >= atomicLoad(&args[ARGS * now]) {
        if lid == 0u {
            let after = (now + 2u) % 3u;
            atomicStore(&args[ARGS * after], 0u);
            wake_after[0] = 1u;
        }
        return;
    }
    if lid >= 9u {
        return;
    }
    let tile = lists[now * tiles + wid.x];
    let flags = changed[tile];
    let d = vec2<i32>(i32(lid % 3u) - 1, i32(lid / 3u) - 1);
    if lid == 4u {
        atomicStore(&marks[now * tiles + tile], 0u);
        if (flags & ANY) != 0u {
            dirty[tile] = 1u;
        }
    }
    let u = vec2<i32>(i32(tile % grid.across), i32(tile / grid.across)) + d;
    if (flags & flag_towards(d)) == 0u || u.x < 0 || u.y < 0 || u.x >= i32(grid.across) || u.y >= i32(grid.down) {
        return;
    }
    list_once(next, u32(u.y) * grid.across + u32(u.x));
}
