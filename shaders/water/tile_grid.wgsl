// Water that sleeps, shared by its passes (water/step_tiles.wgsl, water/wake.wgsl,
// water/changed_tiles.wgsl): the grid of tiles, and the change flags a tile's workgroup writes
// (a cell changed; one changed within REACH of the tile's left, right, top, bottom edge; within
// REACH of both edges at a corner). src/water/gpu.rs, `TilePasses`.

// Mirrors the tile grid's uniform in src/water/gpu.rs (16 bytes): tiles across and down.
struct TileGrid {
    across: u32,
    down: u32,
    _pad0: u32,
    _pad1: u32,
};

const ANY: u32 = 1u;
const LEFT: u32 = 2u;
const RIGHT: u32 = 4u;
const TOP: u32 = 8u;
const BOTTOM: u32 = 16u;
const TOP_LEFT: u32 = 32u;
const TOP_RIGHT: u32 = 64u;
const BOTTOM_LEFT: u32 = 128u;
const BOTTOM_RIGHT: u32 = 256u;
