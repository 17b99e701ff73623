// Uses: common/grid.wgsl (inside); smoke/edge_rules.wgsl (u_rule, v_rule); smoke/params.wgsl
//   (SmokeParams); smoke/staggered_sample.wgsl (back_trace, bilinear, bilinear_bounds,
//   forward_trace, u_node_velocity, v_node_velocity).
// Staggered smoke pass, MacCormack advection of the face velocities (Selle, Fedkiw, Kim, Liu &
// Rossignac 2008, eq. 7-9 and sect. 3.3), after staggered_advect_velocity.wgsl wrote the
// undamped semi-Lagrangian prediction u^, v^. For each open face at position x:
// u' = clamp(u^(x) + (u(x) - u^(x + dt vel(x))) / 2, bounds of the four u the prediction
// interpolated at x - dt vel(x)) times the velocity dissipation; the other faces as the
// prediction holds them (edges.wgsl).
// One invocation per (col, row) of (W + 1) x (H + 1), as the prediction.
// CPU mirror: `Transport::correct` (via `advect_velocity`) in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var u_hat: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var v_hat: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(6) var u_out: texture_storage_2d<r32float, write>;
@group(0) @binding(7) var v_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    let cells = textureDimensions(solid);
    if inside(p, textureDimensions(u)) {
        let rule = u_rule(p);
        var value = rule.value;
        if rule.advected {
            let at = vec2<f32>(f32(p.x) - 0.5, f32(p.y));
            let o = vec2<f32>(0.5, 0.0);
            let vel = u_node_velocity(u, v, p);
            let back = back_trace(at, vel, cells) + o;
            let ahead = forward_trace(at, vel, cells) + o;
            let corrected = textureLoad(u_hat, p).r + 0.5 * (vel.x - bilinear(u_hat, ahead));
            let bounds = bilinear_bounds(u, back);
            value = params.velocity_dissipation * clamp(corrected, bounds.x, bounds.y);
        }
        textureStore(u_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
    if inside(p, textureDimensions(v)) {
        let rule = v_rule(p);
        var value = rule.value;
        if rule.advected {
            let at = vec2<f32>(f32(p.x), f32(p.y) - 0.5);
            let o = vec2<f32>(0.0, 0.5);
            let vel = v_node_velocity(u, v, p);
            let back = back_trace(at, vel, cells) + o;
            let ahead = forward_trace(at, vel, cells) + o;
            let corrected = textureLoad(v_hat, p).r + 0.5 * (vel.y - bilinear(v_hat, ahead));
            let bounds = bilinear_bounds(v, back);
            value = params.velocity_dissipation * clamp(corrected, bounds.x, bounds.y);
        }
        textureStore(v_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
}
