// Uses: water/tile_grid.wgsl (TileGrid).
// Water pass, the tiles a run changed: at the end of a run of steps over the awake tiles, the
// list of those whose cells changed (`dirty`, noted by water/step_tiles.wgsl), for the unpack
// (water/unpack_tiles.wgsl), one invocation a tile; `dirty` is cleared for the next run. No CPU
// mirror: it computes nothing, and the masses unpacked after it are held to the CPU's
// (tests/water_tiles.rs).

@group(0) @binding(0) var<uniform> grid: TileGrid;
@group(0) @binding(1) var<storage, read_write> dirty: array<u32>;
@group(0) @binding(2) var<storage, read_write> list: array<u32>;
// The unpack's indirect dispatch (workgroups x, y, z: x counts the tiles), x 0 before the pass.
@group(0) @binding(3) var<storage, read_write> args: array<atomic<u32>, 3>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= grid.across * grid.down || dirty[id.x] == 0u {
        return;
    }
    dirty[id.x] = 0u;
    list[atomicAdd(&args[0], 1u)] = id.x;
}
