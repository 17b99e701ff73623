// Staggered smoke pass: semi-Lagrangian advection of the dye (rgba32float, r g b in .rgb) at
// cell centres along the old face velocity, channel by channel as staggered_advect_scalars.wgsl
// does a scalar, times the density dissipation (MacCormack: undamped, into its prediction
// texture); 0 in solids.
// CPU mirror: `advect_scalars` (its dye) in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var dye: texture_storage_2d<rgba32float, read>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(5) var dye_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cells = textureDimensions(solid);
    let p = vec2<i32>(id.xy);
    if !inside(p, cells) {
        return;
    }
    var colour = vec4<f32>(0.0);
    if !has(textureLoad(solid, p).r, SOLID) {
        let back = back_trace(vec2<f32>(p), cell_velocity(u, v, p), cells);
        colour = select(params.density_dissipation, 1.0, params.maccormack != 0u) * bilinear_rgba(dye, back);
    }
    textureStore(dye_out, p, colour);
}
