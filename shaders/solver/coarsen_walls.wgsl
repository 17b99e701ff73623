// Uses: common/grid.wgsl (DOWN, LEFT, RIGHT, UP, inside); solver/level.wgsl (open_cell).
// Multigrid, when the finest level's walls change on the GPU (moving bodies): the next
// level's walls from this one's, as `coarsen` makes them on the CPU (a coarse cell is a wall only
// when all four of its fine cells are; beyond the fine grid counts as wall; laid on it as `lay`
// says), with the neighbour bits of level.wgsl (`solver::wall_bits`, the edges held at pressure 0
// those of the fine level); for the levels the coarse kernel holds, also into its walls buffer
// at `offset`. One invocation a coarse cell; one dispatch a level, finest first.
// CPU mirror: `Multigrid::with_dirichlet` (`coarsen`) in src/solver/multigrid.rs, `wall_bits` in
// src/solver/mod.rs.

struct Coarsen {
    offset: u32,    // where this level starts in the coarse kernel's walls buffer
    to_buffer: u32, // 1: the coarse kernel holds this level
    lay: vec2<i32>, // how it lies on the fine level (`Offset`: its cell q has fine cells 2 q + k - lay)
};

@group(0) @binding(0) var<uniform> params: Coarsen;
@group(0) @binding(1) var fine: texture_storage_2d<r32uint, read>;
@group(0) @binding(2) var coarse: texture_storage_2d<r32uint, write>;
@group(0) @binding(3) var<storage, read_write> coarse_walls: array<u32>;

// 1 when coarse cell q is a wall, or beyond the level through an edge with no flux; 0 beyond an
// edge held at pressure 0 (an outflow), as it is on every level: the fine level's cell on that
// edge says which (its neighbour bit across the edge clear).
fn coarse_wall(q: vec2<i32>, size: vec2<u32>) -> u32 {
    if !inside(q, size) {
        let f = clamp(2 * q - params.lay, vec2<i32>(0), vec2<i32>(textureDimensions(fine)) - 1);
        // level.wgsl's neighbour bits: 2 up, 4 left, 8 right, 16 down.
        let across = select(select(select(16u, 2u, q.y < 0), 8u, q.x >= i32(size.x)), 4u, q.x < 0);
        return select(0u, 1u, (textureLoad(fine, f).r & across) != 0u);
    }
    for (var k = 0; k < 4; k++) {
        if open_cell(fine, 2 * q + vec2<i32>(k % 2, k / 2) - params.lay) {
            return 0u;
        }
    }
    return 1u;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(coarse);
    let p = vec2<i32>(id.xy);
    if !inside(p, size) {
        return;
    }
    let bits = coarse_wall(p, size) | (coarse_wall(p + UP, size) << 1u) | (coarse_wall(p + LEFT, size) << 2u)
        | (coarse_wall(p + RIGHT, size) << 3u) | (coarse_wall(p + DOWN, size) << 4u);
    textureStore(coarse, p, vec4<u32>(bits, 0u, 0u, 0u));
    if params.to_buffer != 0u {
        coarse_walls[params.offset + id.y * size.x + id.x] = bits;
    }
}
