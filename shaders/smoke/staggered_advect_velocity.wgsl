// Uses: common/grid.wgsl (inside); smoke/edge_rules.wgsl (u_rule, v_rule); smoke/params.wgsl
//   (SmokeParams); smoke/staggered_sample.wgsl (back_trace, bilinear, u_node_velocity,
//   v_node_velocity).
// Staggered smoke pass: semi-Lagrangian advection (Stam 1999; GPU Gems 38.2) of the face
// velocities along the old velocity. One invocation per (col, row) of (W + 1) x (H + 1): the u
// face and the v face at that index, where they exist. An open face traces back from its own
// position and samples its own component there, times the velocity dissipation; a closed face
// (beside a solid or on a wall edge) gets 0, the wall's normal velocity, an inflow edge's face
// its speed into the box, an outflow edge's is advected (edges.wgsl). For MacCormack this is the
// undamped prediction, written to its own textures.
// CPU mirror: `advect_velocity` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var u_out: texture_storage_2d<r32float, write>;
@group(0) @binding(5) var v_out: texture_storage_2d<r32float, write>;

// The prediction of MacCormack is left undamped (the correction damps).
fn velocity_factor() -> f32 {
    return select(params.velocity_dissipation, 1.0, params.maccormack != 0u);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    let cells = textureDimensions(solid);
    if inside(p, textureDimensions(u)) {
        let rule = u_rule(p);
        var value = rule.value;
        if rule.advected {
            let back = back_trace(vec2<f32>(f32(p.x) - 0.5, f32(p.y)), u_node_velocity(u, v, p), cells);
            value = velocity_factor() * bilinear(u, back + vec2<f32>(0.5, 0.0));
        }
        textureStore(u_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
    if inside(p, textureDimensions(v)) {
        let rule = v_rule(p);
        var value = rule.value;
        if rule.advected {
            let back = back_trace(vec2<f32>(f32(p.x), f32(p.y) - 0.5), v_node_velocity(u, v, p), cells);
            value = velocity_factor() * bilinear(v, back + vec2<f32>(0.0, 0.5));
        }
        textureStore(v_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
}
