// Uses: water/tile_grid.wgsl (TileGrid); the pass's bindings (grid, lists, count, marks).
// Water that sleeps: listing a tile for a step once (water/step_tiles.wgsl, the tiles awake for
// the next step; water/wake_requests.wgsl, the tiles edits woke).

// Lists tile `t` for the step of `slot` unless it is listed already (`marks`, one a tile a slot,
// claimed by exchange): appends it and counts it in the slot's indirect arguments (`count`,
// whose x is the tiles listed + 1, tile_grid.wgsl).
fn list_once(slot: u32, t: u32) {
    let tiles = grid.across * grid.down;
    if atomicExchange(&marks[slot * tiles + t], 1u) == 0u {
        lists[slot * tiles + atomicAdd(&count[0], 1u) - 1u] = t;
    }
}
