// Uses: solver/level.wgsl (Level); solver/restrict_cells.wgsl (restricted).
// Multigrid pass from the last packed level (packed.wgsl) to the coarse kernel's first level
// (one cell a texel, coarse.wgsl), one invocation per coarse cell: the residual summed onto the
// coarse right-hand side (restrict_cells.wgsl), and the coarse correction started at 0:
// the residual and its restriction in one pass, reading four cells a texel and writing no
// residual texture. restrict_to_packed.wgsl does the same onto a packed level.
// CPU mirror: `residual` in src/solver/mod.rs and `restrict` in src/solver/multigrid.rs.

@group(0) @binding(0) var<uniform> level: Level;
@group(0) @binding(1) var pressure: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var rhs: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var coarse_rhs: texture_storage_2d<r32float, write>;
@group(0) @binding(5) var coarse_pressure: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(coarse_rhs);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let c = vec2<i32>(id.xy);
    textureStore(coarse_rhs, c, vec4<f32>(restricted(c), 0.0, 0.0, 0.0));
    textureStore(coarse_pressure, c, vec4<f32>(0.0));
}
