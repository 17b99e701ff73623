// Uses: common/grid.wgsl (DOWN, RIGHT); smoke/params.wgsl (SOLID, SmokeParams, has).
// Staggered smoke pass, after the projection: the cell-centre velocity ((u_left + u_right) / 2,
// (v_top + v_bottom) / 2) into the rg32float velocity texture that the views read, and the
// divergence left after the projection, which the statistics read; both 0 in solids.
// CPU mirror: `centres` in src/smoke/staggered/cpu.rs and `divergence` in
// src/smoke/staggered/mod.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var velocity: texture_storage_2d<rg32float, write>;
@group(0) @binding(5) var divergence_after: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(solid);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var centre = vec2<f32>(0.0);
    var d = 0.0;
    if !has(textureLoad(solid, p).r, SOLID) {
        let left = textureLoad(u, p).r;
        let right = textureLoad(u, p + RIGHT).r;
        let top = textureLoad(v, p).r;
        let bottom = textureLoad(v, p + DOWN).r;
        centre = vec2<f32>(0.5 * left + 0.5 * right, 0.5 * top + 0.5 * bottom);
        d = (right - left + bottom - top) / params.cell_size;
    }
    textureStore(velocity, p, vec4<f32>(centre, 0.0, 0.0));
    textureStore(divergence_after, p, vec4<f32>(d, 0.0, 0.0, 0.0));
}
