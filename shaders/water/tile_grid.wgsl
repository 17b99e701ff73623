// Water that sleeps, shared by its passes (water/step_tiles.wgsl, water/wake_requests.wgsl,
// water/changed_tiles.wgsl): the grid of tiles and the list slot of the step at hand, and the
// change flags a tile's workgroup gathers (a cell changed; one changed within REACH of the tile's
// left, right, top, bottom edge; within REACH of both edges at a corner). src/water/gpu.rs,
// `TilePasses`.

// Mirrors the tile grid's uniforms in src/water/gpu.rs (32 bytes): tiles across and down, the
// slot (0 to 2) of the step at hand's list (step n's is n % 3), and in a paged world
// (src/water/packed_world.rs, "Pages") the page whose tiles they are and how many there are (0 of
// 1 elsewhere).
struct TileGrid {
    across: u32,
    down: u32,
    slot: u32,
    page: u32,
    pages: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
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

// Each slot's indirect arguments for its step are a buffer of their own (a dispatch cannot read
// its own arguments' buffer as storage too): x is the tiles listed + 1, the last workgroup
// starting the list of the step after next; y and z are 1.

// The flag of a tile that wakes its neighbour at offset d (each coordinate -1, 0 or 1; 0, 0:
// the tile itself).
fn flag_towards(d: vec2<i32>) -> u32 {
    let flags = array<u32, 9>(TOP_LEFT, TOP, TOP_RIGHT, LEFT, ANY, RIGHT, BOTTOM_LEFT, BOTTOM, BOTTOM_RIGHT);
    return flags[(d.y + 1) * 3 + d.x + 1];
}
