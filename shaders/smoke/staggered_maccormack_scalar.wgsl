// Staggered smoke pass, MacCormack advection of one cell-centred scalar (temperature or
// density; `field.which` picks the dissipation), after staggered_advect_scalars.wgsl wrote the
// undamped semi-Lagrangian prediction: at each open cell x,
// f' = clamp(f^(x) + (f(x) - f^(x + dt vel(x))) / 2, bounds of the four f the prediction
// interpolated at x - dt vel(x)) times the field's dissipation; 0 in solids.
// CPU mirror: `Transport::correct` (via `advect_scalars`) in src/smoke/staggered/cpu.rs.

struct Field {
    which: u32, // 0 temperature, 1 density
};

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var<uniform> field: Field;
@group(0) @binding(2) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var f: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var f_hat: texture_storage_2d<r32float, read>;
@group(0) @binding(6) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(7) var f_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cells = textureDimensions(solid);
    let p = vec2<i32>(id.xy);
    if !inside(p, cells) {
        return;
    }
    var value = 0.0;
    if !has(textureLoad(solid, p).r, SOLID) {
        let at = vec2<f32>(p);
        let vel = cell_velocity(u, v, p);
        let back = back_trace(at, vel, cells);
        let ahead = forward_trace(at, vel, cells);
        let corrected = textureLoad(f_hat, p).r + 0.5 * (textureLoad(f, p).r - bilinear(f_hat, ahead));
        let bounds = bilinear_bounds(f, back);
        let dissipation = select(params.temperature_dissipation, params.density_dissipation, field.which == 1u);
        value = dissipation * clamp(corrected, bounds.x, bounds.y);
    }
    textureStore(f_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
}
