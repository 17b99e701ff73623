// Uses: common/grid.wgsl (DOWN, LEFT, RIGHT, UP, beyond_bit, inside); smoke/edges.wgsl
//   (EDGE_OUTFLOW, edge_kind); smoke/params.wgsl (SOLID, SmokeParams).
// Staggered smoke pass, after the bodies are rasterised: the pressure solve's walls
// from the smoke's solid bits (bit 0), for the packed Jacobi iterations (four cells a texel,
// each cell's wall bits in its byte and the cells just beyond the texel's edges in bits 5..7 of
// its first and last byte, as solver/packed.rs lays them out) and for the solver's finest level
// (one cell a texel, which the residual statistics read). Beyond an outflow edge the pressure is
// 0: the cells there are open. One invocation a packed texel.
// CPU mirror: `packed_walls` in src/solver/packed.rs and `wall_bits` in src/solver/mod.rs, of the
// rasterised mask and `SmokeParams::dirichlet`.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(2) var packed_walls: texture_storage_2d<r32uint, write>;
@group(0) @binding(3) var level_walls: texture_storage_2d<r32uint, write>;

// 1 when cell q is solid, or outside the grid beyond an edge that is not an outflow
// (`gpu::wall_or_outside`).
fn wall(q: vec2<i32>) -> u32 {
    let size = textureDimensions(solid);
    if !inside(q, size) {
        let beyond = beyond_bit(q, size);
        return select(1u, 0u, edge_kind(firstTrailingBit(beyond)) == EDGE_OUTFLOW);
    }
    return textureLoad(solid, q).r & SOLID;
}

// Bit 0 the cell, bits 1..4 its neighbours up, left, right, down (`solver::wall_bits`).
fn wall_bits(q: vec2<i32>) -> u32 {
    return wall(q) | (wall(q + UP) << 1u) | (wall(q + LEFT) << 2u) | (wall(q + RIGHT) << 3u) | (wall(q + DOWN) << 4u);
}

// A padding cell past the grid's last column: a wall (`PADDING` in solver/packed.rs).
const PADDING: u32 = 1u;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(packed_walls);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let width = i32(textureDimensions(solid).x);
    let y = i32(id.y);
    let first = 4 * i32(id.x);
    let last = first + 3;
    var texel = 0u;
    for (var k = 0; k < 4; k++) {
        let q = vec2<i32>(first + k, y);
        var bits = PADDING;
        if q.x < width {
            bits = wall_bits(q);
            textureStore(level_walls, q, vec4<u32>(bits, 0u, 0u, 0u));
        }
        texel |= bits << u32(8 * k);
    }
    texel |= (wall(vec2<i32>(first - 1, y - 1)) << 5u) | (wall(vec2<i32>(first - 1, y + 1)) << 6u) | (wall(vec2<i32>(first - 2, y)) << 7u);
    if last < width {
        let right = (wall(vec2<i32>(last + 1, y - 1)) << 5u) | (wall(vec2<i32>(last + 1, y + 1)) << 6u) | (wall(vec2<i32>(last + 2, y)) << 7u);
        texel |= right << 24u;
    }
    textureStore(packed_walls, id.xy, vec4<u32>(texel, 0u, 0u, 0u));
}
