// Multigrid level helpers, shared by the solver passes. A level's walls are an r32uint texture
// of bits per cell (written by `gpu::upload_walls`): bit 0 the cell is a wall; bits 1 to 4 its
// neighbour up, left, right, down is a wall or beyond the level. CPU mirror: `open` and
// `EDGES` in src/solver/mod.rs.

const WALL: u32 = 1u;

fn open_cell(solid: texture_storage_2d<r32uint, read>, q: vec2<i32>) -> bool {
    return inside(q, textureDimensions(solid)) && (textureLoad(solid, q).r & WALL) == 0u;
}

// The four edge neighbours in the CPU mirror's order (`EDGES`: up, left, right, down).
fn edge(k: u32) -> vec2<i32> {
    switch k {
        case 0u: { return UP; }
        case 1u: { return LEFT; }
        case 2u: { return RIGHT; }
        default: { return DOWN; }
    }
}

// Whether edge neighbour k (in `edge`'s order) of a cell with wall bits `bits` is open.
fn edge_open(bits: u32, k: u32) -> bool {
    return (bits & (2u << k)) == 0u;
}
