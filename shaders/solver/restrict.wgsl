// Multigrid pass, one invocation per coarse cell: the coarse right-hand side is the sum of its
// open fine cells' residuals (children in row-major order, laid as the fine level's `offset`
// says), and the coarse correction starts at 0. CPU mirror: `restrict` in
// src/solver/multigrid.rs.

@group(0) @binding(0) var<uniform> level: Level;
@group(0) @binding(1) var fine_residual: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var fine_solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var coarse_rhs: texture_storage_2d<r32float, write>;
@group(0) @binding(4) var coarse_pressure: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(coarse_rhs);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var sum = 0.0;
    for (var i = 0; i < 2; i++) {
        for (var j = 0; j < 2; j++) {
            let q = 2 * p + vec2<i32>(j, i) - level.offset;
            if open_cell(fine_solid, q) {
                sum += textureLoad(fine_residual, q).r;
            }
        }
    }
    textureStore(coarse_rhs, p, vec4<f32>(sum, 0.0, 0.0, 0.0));
    textureStore(coarse_pressure, p, vec4<f32>(0.0));
}
