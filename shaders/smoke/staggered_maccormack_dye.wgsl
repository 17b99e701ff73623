// Staggered smoke pass, MacCormack advection of the dye after staggered_advect_dye.wgsl wrote
// its undamped prediction: channel by channel as staggered_maccormack_scalar.wgsl, times the
// density dissipation; 0 in solids.
// CPU mirror: `Transport::correct` (via `advect_scalars`, its dye) in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var dye: texture_storage_2d<rgba32float, read>;
@group(0) @binding(4) var dye_hat: texture_storage_2d<rgba32float, read>;
@group(0) @binding(5) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(6) var dye_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cells = textureDimensions(solid);
    let p = vec2<i32>(id.xy);
    if !inside(p, cells) {
        return;
    }
    var colour = vec4<f32>(0.0);
    if !has(textureLoad(solid, p).r, SOLID) {
        let at = vec2<f32>(p);
        let vel = cell_velocity(u, v, p);
        let back = back_trace(at, vel, cells);
        let ahead = forward_trace(at, vel, cells);
        let corrected = textureLoad(dye_hat, p) + 0.5 * (textureLoad(dye, p) - bilinear_rgba(dye_hat, ahead));
        let bounds = bilinear_bounds_rgba(dye, back);
        colour = params.density_dissipation * clamp(corrected, bounds[0], bounds[1]);
    }
    textureStore(dye_out, p, colour);
}
