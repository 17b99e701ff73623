// Uses: water/tile_grid.wgsl (TileGrid); water/list_once.wgsl (list_once).
// Water pass, the edits' wake: before the first step of a run, the tiles an edit asked for
// (`requests`, written by src/water/gpu.rs: the brush's disc, the cells whose walls changed, each
// with REACH around it) join the list of that step, in `grid.slot`, each once; the requests are
// cleared. One invocation a tile. CPU mirror: `Tiles::wake_cells` in src/water/tiles.rs.

@group(0) @binding(0) var<uniform> grid: TileGrid;
@group(0) @binding(1) var<storage, read_write> requests: array<u32>;
@group(0) @binding(2) var<storage, read_write> lists: array<u32>;
// The step at hand's indirect arguments.
@group(0) @binding(3) var<storage, read_write> count: array<atomic<u32>, 3>;
@group(0) @binding(4) var<storage, read_write> marks: array<atomic<u32>>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= grid.across * grid.down || requests[id.x] == 0u {
        return;
    }
    requests[id.x] = 0u;
    list_once(grid.slot, id.x);
}
