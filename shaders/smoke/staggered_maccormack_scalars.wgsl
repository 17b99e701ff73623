// Uses: common/grid.wgsl (inside); smoke/params.wgsl (SOLID, SmokeParams, has);
//   smoke/staggered_sample.wgsl (back_trace, bilinear, bilinear_bounds, bilinear_bounds_rgba,
//   bilinear_rgba, cell_velocity, forward_trace).
// Staggered smoke pass, MacCormack advection of the cell-centred fields (temperature, density,
// the dye channel by channel) after staggered_advect_scalars.wgsl wrote their undamped
// semi-Lagrangian predictions f^: at each open cell x,
// f' = clamp(f^(x) + (f(x) - f^(x + dt vel(x))) / 2, bounds of the four f the prediction
// interpolated at x - dt vel(x)) times the field's dissipation (the dye's is the density's); 0
// in solids (Selle, Fedkiw, Kim, Liu & Rossignac 2008, eq. 7-9 and sect. 3.3). The three share
// one velocity and one pair of traces a cell.
// CPU mirror: `Transport::correct` (via `advect_scalars`) in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var temperature: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var temperature_hat: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var density: texture_storage_2d<r32float, read>;
@group(0) @binding(6) var density_hat: texture_storage_2d<r32float, read>;
@group(0) @binding(7) var dye: texture_storage_2d<rgba32float, read>;
@group(0) @binding(8) var dye_hat: texture_storage_2d<rgba32float, read>;
@group(0) @binding(9) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(10) var temperature_out: texture_storage_2d<r32float, write>;
@group(0) @binding(11) var density_out: texture_storage_2d<r32float, write>;
@group(0) @binding(12) var dye_out: texture_storage_2d<rgba32float, write>;

// The corrected value of one r32float field at p, clamped, undamped.
fn correct(f: texture_storage_2d<r32float, read>, f_hat: texture_storage_2d<r32float, read>, p: vec2<i32>,
           back: vec2<f32>, ahead: vec2<f32>) -> f32 {
    let corrected = textureLoad(f_hat, p).r + 0.5 * (textureLoad(f, p).r - bilinear(f_hat, ahead));
    let bounds = bilinear_bounds(f, back);
    return clamp(corrected, bounds.x, bounds.y);
}

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
        let at = vec2<f32>(p);
        let vel = cell_velocity(u, v, p);
        let back = back_trace(at, vel, cells);
        let ahead = forward_trace(at, vel, cells);
        t = params.temperature_dissipation * correct(temperature, temperature_hat, p, back, ahead);
        rho = params.density_dissipation * correct(density, density_hat, p, back, ahead);
        let corrected = textureLoad(dye_hat, p) + 0.5 * (textureLoad(dye, p) - bilinear_rgba(dye_hat, ahead));
        let bounds = bilinear_bounds_rgba(dye, back);
        colour = params.density_dissipation * clamp(corrected, bounds[0], bounds[1]);
    }
    textureStore(temperature_out, p, vec4<f32>(t, 0.0, 0.0, 0.0));
    textureStore(density_out, p, vec4<f32>(rho, 0.0, 0.0, 0.0));
    textureStore(dye_out, p, colour);
}
