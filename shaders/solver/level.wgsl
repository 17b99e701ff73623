// Multigrid level helpers, shared by the solver passes. A level's walls are an r32uint texture,
// 1 = wall, 0 = open; cells beyond the level are walls. CPU mirror: `open` in src/solver/mod.rs.

fn open_cell(solid: texture_storage_2d<r32uint, read>, q: vec2<i32>) -> bool {
    return inside(q, textureDimensions(solid)) && textureLoad(solid, q).r == 0u;
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
