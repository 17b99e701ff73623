// Uses: common/body.wgsl (Body); gas/params.wgsl (AXIS_LENGTH_8, GasParams, RHO_EPSILON, WALL);
//   gas/reconstruct.wgsl (limited_slope, primitive); gas/walls.wgsl (neighbour_or_ghost).
// Gas pass 0 of 4 with the linear reconstruction: the predictor of MUSCL-Hancock. Per open
// cell, in the primitive variables w = (rho, ux, uy): the slope along each face direction k,
// limited from the cells behind and beyond (mirror images through walls, walls.wgsl), and the
// state half a step on from the quasi-linear isothermal Euler equations, the gradient taken from
// the slopes as the fluxes weigh the faces. Walls get zeros.
// CPU mirror: `predict` and `gradient` in src/gas/cpu.rs (formulas and sources there).
// Output: half_state = (rho, ux, uy, 0) half a step on; slope_rho / slope_ux / slope_uy =
// the slope of each variable along face k in channel k (per step of forward(k)).

@group(0) @binding(0) var<uniform> params: GasParams;
@group(0) @binding(1) var state: texture_storage_2d<rgba32float, read>; // (rho, mx, my, 0)
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var half_state: texture_storage_2d<rgba32float, write>;
@group(0) @binding(4) var slope_rho: texture_storage_2d<rgba32float, write>;
@group(0) @binding(5) var slope_ux: texture_storage_2d<rgba32float, write>;
@group(0) @binding(6) var slope_uy: texture_storage_2d<rgba32float, write>;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(7) var<uniform> bodies: array<Body, 16>;

// 1/6 = L_diagonal / sqrt(2): a diagonal slope's weight in the 8-way gradient. CPU: `SIXTH`.
const SIXTH: f32 = 0.16666667;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(state);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let bits = textureLoad(solid, p).r;
    var s = array<vec3<f32>, 4>(vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0), vec3<f32>(0.0));
    var half = vec3<f32>(0.0);
    if (bits & WALL) == 0u {
        let w = primitive(textureLoad(state, p).xyz);
        for (var k = 0u; k < params.faces; k++) {
            let back = primitive(neighbour_or_ghost(p, bits, k + 4u, params));
            let fwd = primitive(neighbour_or_ghost(p, bits, k, params));
            s[k] = vec3<f32>(
                limited_slope(w.x - back.x, fwd.x - w.x),
                limited_slope(w.y - back.y, fwd.y - w.y),
                limited_slope(w.z - back.z, fwd.z - w.z),
            );
        }
        var x = s[0];
        var y = s[1];
        if params.faces == 4u {
            x = AXIS_LENGTH_8 * s[0] + SIXTH * (s[2] + -s[3]);
            y = AXIS_LENGTH_8 * s[1] + SIXTH * (s[2] + s[3]);
        }
        half = w;
        if w.x > RHO_EPSILON {
            let c2 = params.pressure;
            half = vec3<f32>(
                w.x - 0.5 * (w.y * x.x + w.x * x.y + w.z * y.x + w.x * y.z),
                w.y - 0.5 * (w.y * x.y + w.z * y.y + c2 * x.x / w.x),
                w.z - 0.5 * (w.y * x.z + w.z * y.z + c2 * y.x / w.x),
            );
        }
    }
    textureStore(half_state, p, vec4<f32>(half, 0.0));
    textureStore(slope_rho, p, vec4<f32>(s[0].x, s[1].x, s[2].x, s[3].x));
    textureStore(slope_ux, p, vec4<f32>(s[0].y, s[1].y, s[2].y, s[3].y));
    textureStore(slope_uy, p, vec4<f32>(s[0].z, s[1].z, s[2].z, s[3].z));
}
