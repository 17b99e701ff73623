// Uses: the pass's bindings (params, pressure, solid).
// The packed Jacobi iterations' starting pressure as the divergence passes that pack it write
// it (divergence_packed.wgsl, staggered_divergence_packed.wgsl, which bind `pressure` and
// `solid`): the last solve's with warm starts, else 0 (Rideout's ClearSurface); padding cells 0.

// Cell q's starting pressure.
fn start(q: vec2<i32>) -> f32 {
    if params.warm_start == 0u || q.x >= i32(textureDimensions(solid).x) {
        return 0.0;
    }
    return textureLoad(pressure, q).r;
}

// The starting pressures of the texel whose first cell is q.
fn starts(q: vec2<i32>) -> vec4<f32> {
    return vec4<f32>(start(q), start(q + vec2<i32>(1, 0)), start(q + vec2<i32>(2, 0)), start(q + vec2<i32>(3, 0)));
}
