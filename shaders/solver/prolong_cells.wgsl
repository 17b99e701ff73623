// Uses: common/packed.wgsl (PACKED_WALL, cell_bits); solver/level.wgsl (Level);
//   solver/prolong_from_packed.wgsl | solver/prolong_packed.wgsl (correction_at).
// The coarse correction added to a packed level (packed.wgsl), four cells an invocation, for
// prolong_packed.wgsl and prolong_from_packed.wgsl (which bind `correction` and give
// `correction_at`): p += e of the parent cell at open cells (piecewise constant; the parent as
// the level's `offset` lays the coarse level), as coarse.wgsl does, from one packed pressure
// into the other (a packed texel cannot be read and written in place). Padding cells are walls
// and keep their 0. CPU mirror: `prolong` in src/solver/multigrid.rs.

@group(0) @binding(0) var<uniform> level: Level;
@group(0) @binding(1) var pressure: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var pressure_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(pressure);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    var p = textureLoad(pressure, id.xy);
    let open = (cell_bits(textureLoad(walls, id.xy).r) & vec4<u32>(PACKED_WALL)) == vec4<u32>(0u);
    for (var k = 0; k < 4; k++) {
        if open[k] {
            let q = vec2<i32>(4 * i32(id.x) + k, i32(id.y));
            p[k] += correction_at((q + level.offset) / 2);
        }
    }
    textureStore(pressure_out, id.xy, p);
}
