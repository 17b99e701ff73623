// Uses: solver/level.wgsl (Level); solver/restrict_cells.wgsl (restricted).
// Multigrid pass from a packed level to the packed level below it (packed.wgsl), one invocation
// per coarse texel (four coarse cells): the residual summed onto the coarse right-hand side
// (restrict_cells.wgsl; padding cells 0), and the coarse correction started at 0 in the coarse
// level's first packed pressure. restrict_packed.wgsl does the same onto the coarse kernel's
// level. CPU mirror: `residual` in src/solver/mod.rs and `restrict` in src/solver/multigrid.rs.

@group(0) @binding(0) var<uniform> level: Level;
@group(0) @binding(1) var pressure: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var rhs: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var coarse_rhs: texture_storage_2d<rgba32float, write>;
@group(0) @binding(5) var coarse_pressure: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(coarse_rhs);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let c = vec2<i32>(4 * i32(id.x), i32(id.y));
    let b = vec4<f32>(restricted(c), restricted(c + vec2<i32>(1, 0)), restricted(c + vec2<i32>(2, 0)),
                      restricted(c + vec2<i32>(3, 0)));
    textureStore(coarse_rhs, id.xy, b);
    textureStore(coarse_pressure, id.xy, vec4<f32>(0.0));
}
