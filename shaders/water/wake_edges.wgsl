// Uses: water/tile_grid.wgsl (TileGrid); water/list_once.wgsl (list_once).
// Water that sleeps in a paged world (src/water/packed_world.rs, "Pages"): before a page's step
// over its awake tiles, the tiles of its first and last tile rows that the pages beside it woke
// in their last step (`edges`, set by water/step_tiles.wgsl where a cell changed within REACH of
// their shared edge) join the step's list, each once; the words are cleared. One invocation a
// tile column an edge. CPU mirror: `Tiles::wake_cells` in src/water/tiles.rs.

@group(0) @binding(0) var<uniform> grid: TileGrid;
@group(0) @binding(1) var<storage, read_write> edges: array<u32>;
@group(0) @binding(2) var<storage, read_write> lists: array<u32>;
// The step at hand's indirect arguments.
@group(0) @binding(3) var<storage, read_write> count: array<atomic<u32>, 3>;
@group(0) @binding(4) var<storage, read_write> marks: array<atomic<u32>>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= 2u * grid.across {
        return;
    }
    let word = grid.page * 2u * grid.across + id.x;
    if edges[word] == 0u {
        return;
    }
    edges[word] = 0u;
    let row = select(0u, grid.down - 1u, id.x >= grid.across);
    list_once(grid.slot, row * grid.across + id.x % grid.across);
}
