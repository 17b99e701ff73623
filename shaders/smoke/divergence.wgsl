// Uses: smoke/params.wgsl (SOLID, SmokeParams, has); smoke/projection_cells.wgsl (divergence_at).
// Smoke pass 2 of 4: divergence of the velocity by central differences,
// 0.5 / h ((vR.x - vL.x) + (vD.y - vU.y)), a solid or outside neighbour's velocity counting as
// the obstacle's, 0 (Rideout's ComputeDivergence); 0 in solid cells. Unless warm-starting, also
// clears the pressure to 0 for the Jacobi iterations (Rideout's ClearSurface), saving a dispatch.
// The formula is projection_cells.wgsl's. CPU mirror: `divergence` and `divergence_of` in
// src/smoke/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var velocity: texture_storage_2d<rg32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var divergence_out: texture_storage_2d<r32float, write>;
@group(0) @binding(4) var pressure_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(velocity);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let bits = textureLoad(solid, p).r;
    var div = 0.0;
    if !has(bits, SOLID) {
        div = divergence_at(p, bits);
    }
    textureStore(divergence_out, p, vec4<f32>(div, 0.0, 0.0, 0.0));
    if params.warm_start == 0u {
        textureStore(pressure_out, p, vec4<f32>(0.0));
    }
}
