// The packed layout (src/gpu/packed.rs): four cells of a row in one texel, cell (row y,
// column 4 * x + k) in component k of texel (x, y), so one invocation reads and writes four cells
// with one texel operation each (on lavapipe a texel operation costs about as much as a cell's
// arithmetic). Cells past the grid's last column (padding) hold 0. Per-cell bits (walls) are one
// r32uint texel per four cells, cell k's bits in byte k. The Jacobi iterations' wall bits
// (`gpu::wall_bits`): bit 0 the cell is a wall; bits 1 to 4 its neighbour up, left, right, down
// is a wall or beyond the grid; padding cells are walls.

const PACKED_WALL: u32 = 1u;

// Each of the texel's four cells' wall bits.
fn cell_bits(packed: u32) -> vec4<u32> {
    return (vec4<u32>(packed) >> vec4<u32>(0u, 8u, 16u, 24u)) & vec4<u32>(0xffu);
}

// Whether each cell's neighbour through edge bit `bit` (2 up, 4 left, 8 right, 16 down) is open.
fn open_through(bits: vec4<u32>, bit: u32) -> vec4<bool> {
    return (bits & vec4<u32>(bit)) == vec4<u32>(0u);
}

// Bit `bit` of `bits` moved to bit `to` (both single bits): a neighbour's wall bits from the
// bits of the cell beside it (a packed texel's edge cells carry their outer neighbours').
fn moved(bits: u32, bit: u32, to: u32) -> u32 {
    return select(0u, to, (bits & bit) != 0u);
}
