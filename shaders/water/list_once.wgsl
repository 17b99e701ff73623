// Uses: water/tile_grid.wgsl (TileGrid, ARGS); the pass's bindings (grid, lists, args, marks,
//   wake_count).
// Water that sleeps: listing a tile for a step once (water/wake.wgsl, water/wake_requests.wgsl).

// Lists tile `t` for the step of `slot` unless it is listed already (`marks`, one a tile a slot,
// claimed by exchange): appends it and counts it in both of the slot's dispatches (`wake_count`:
// the wake's arguments of that slot).
fn list_once(slot: u32, t: u32) {
    let tiles = grid.across * grid.down;
    if atomicExchange(&marks[slot * tiles + t], 1u) == 0u {
        lists[slot * tiles + atomicAdd(&args[ARGS * slot], 1u)] = t;
        atomicAdd(&wake_count[0], 1u);
    }
}
