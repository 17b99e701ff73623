// Uses: common/grid.wgsl (inside); smoke/params.wgsl (SOLID, SmokeParams, has);
//   smoke/staggered_sample.wgsl (back_trace, bilinear, bilinear_rgba, cell_velocity).
// Staggered smoke pass: semi-Lagrangian advection of the cell-centred fields, temperature,
// density and the dye (rgba32float, r g b in .rgb, channel by channel), along the old face
// velocity, times their dissipations (the dye's is the density's; MacCormack: undamped, into its
// prediction textures); 0 in solids. The three share one back trace a cell.
// CPU mirror: `advect_scalars` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var temperature: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var density: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var dye: texture_storage_2d<rgba32float, read>;
@group(0) @binding(6) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(7) var temperature_out: texture_storage_2d<r32float, write>;
@group(0) @binding(8) var density_out: texture_storage_2d<r32float, write>;
@group(0) @binding(9) var dye_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cells = textureDimensions(solid);
    let p = vec2<i32>(id.xy);
    if !inside(p, cells) {
        return;
    }
    var t = 0.0;
    var rho = 0.0;
    var colour = vec4<f32>(0.0);
    if !has(textureLoad(solid, p).r, SOLID) {
        let back = back_trace(vec2<f32>(p), cell_velocity(u, v, p), cells);
        // The prediction of MacCormack is left undamped (the correction damps).
        let undamped = params.maccormack != 0u;
        t = select(params.temperature_dissipation, 1.0, undamped) * bilinear(temperature, back);
        let density_factor = select(params.density_dissipation, 1.0, undamped);
        rho = density_factor * bilinear(density, back);
        colour = density_factor * bilinear_rgba(dye, back);
    }
    textureStore(temperature_out, p, vec4<f32>(t, 0.0, 0.0, 0.0));
    textureStore(density_out, p, vec4<f32>(rho, 0.0, 0.0, 0.0));
    textureStore(dye_out, p, colour);
}
