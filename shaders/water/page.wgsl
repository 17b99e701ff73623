// A page of a packed world's rows (src/water/packed_world.rs, "Pages"; `PageUniform` in
// src/water/gpu.rs): its texture holds the world's rows `first_row` to `first_row + rows - 1`
// between `halo` rows above them and `halo` below. A world one texture holds is one page without
// halo.

struct Page {
    first_row: u32,
    rows: u32,
    halo: u32,
    _pad: u32,
};
