// Uses: common/grid.wgsl (DOWN, LEFT, RIGHT, UP, inside).
// Multigrid level helpers, shared by the solver passes. A level's walls are an r32uint texture
// of bits per cell (`gpu::wall_bits`, written by `GpuMultigrid::encode_walls`): bit 0 the cell is a wall; bits 1 to 4 its
// neighbour up, left, right, down is a wall or beyond the level through an edge with no flux.
// A neighbour bit clear on the level's edge: the edge is held at pressure 0 (an outflow), and
// the cell beyond reads -ghosts[e] times the pressure of the cell beside it (`Level`). CPU
// mirror: `open_neighbour`, `neighbour_pressure` and `EDGES` in src/solver/mod.rs.

const WALL: u32 = 1u;

// One level of the hierarchy (src/solver/gpu.rs `LevelUniform`; `Multigrid::ghosts`, `offsets`).
struct Level {
    // Left, right, top, bottom: the cell beyond a held edge reads -ghosts[e] p (0 on the finest).
    ghosts: vec4<f32>,
    // How the next coarser level lies on this one (`Offset`): its cell (r, c) has this level's
    // cells (2 r + i - offset.y, 2 c + j - offset.x).
    offset: vec2<i32>,
    // The level's own size in cells (w, h), for the packed passes, whose textures are padded to
    // whole texels.
    size: vec2<u32>,
};

// The edge of the level (`crate::edge`'s order: 0 left, 1 right, 2 top, 3 bottom) that edge
// neighbour k (`edge`'s order: up, left, right, down) lies beyond when it is outside the level.
fn side_of(k: u32) -> u32 {
    return (0x3102u >> (4u * k)) & 0xfu;
}

// The ghost factor (`Level::ghosts`) beyond edge neighbour k when it is outside the level.
fn ghost_of(level: Level, k: u32) -> f32 {
    return level.ghosts[side_of(k)];
}

// Edge neighbour k of cell p (its pressure `centre`) of a level of `size`, open: its pressure,
// or beyond a held edge its ghost's. Without a branch (lavapipe runs both sides of one): the
// load is clamped into the level and its value dropped outside.
fn neighbour(pressure_at_q: f32, q: vec2<i32>, size: vec2<u32>, level: Level, k: u32, centre: f32) -> f32 {
    return select(-ghost_of(level, k) * centre, pressure_at_q, inside(q, size));
}

// Where a load for neighbour q goes: q itself inside the level, the nearest cell outside it.
fn clamped(q: vec2<i32>, size: vec2<u32>) -> vec2<i32> {
    return clamp(q, vec2<i32>(0), vec2<i32>(size) - 1);
}

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
