// Uses: common/grid.wgsl (DOWN, LEFT, RIGHT, UP); smoke/params.wgsl (SOLID_DOWN, SOLID_LEFT,
//   SOLID_RIGHT, SOLID_UP, has); the pass's bindings (params, velocity).
// The collocated projection's per-cell formulas, shared by the divergence and gradient passes
// in their one-cell-a-texel forms (divergence.wgsl, gradient.wgsl) and their packed forms
// (divergence_packed.wgsl, gradient_packed.wgsl), which the including pass binds `velocity`
// (rg32float) for. CPU mirror: `divergence_of` and `gradient` in src/smoke/cpu.rs.

// The velocity of the neighbour at q: 0 (the obstacle's) where it is solid or outside.
fn velocity_at(q: vec2<i32>, is_wall: bool) -> vec2<f32> {
    if is_wall {
        return vec2<f32>(0.0);
    }
    return textureLoad(velocity, q).xy;
}

// The divergence at open cell p with solid bits `bits`, by central differences: 0.5 / h ((vR.x
// - vL.x) + (vD.y - vU.y)) (Rideout's ComputeDivergence).
fn divergence_at(p: vec2<i32>, bits: u32) -> f32 {
    let left = velocity_at(p + LEFT, has(bits, SOLID_LEFT)).x;
    let right = velocity_at(p + RIGHT, has(bits, SOLID_RIGHT)).x;
    let up = velocity_at(p + UP, has(bits, SOLID_UP)).y;
    let down = velocity_at(p + DOWN, has(bits, SOLID_DOWN)).y;
    return params.half_inverse_cell_size * ((right - left) + (down - up));
}

// The velocity of open cell p (solid bits `bits`) less the pressure gradient, from the
// pressures of its neighbours left, right, up and down (the centre's already standing in for a
// solid or outside one): v -= gradient_factor (pR - pL, pD - pU), the x component zeroed next to
// a solid on the left or right, the y component next to one above or below (Rideout's
// SubtractGradient and vMask, free slip).
fn projected(p: vec2<i32>, bits: u32, left: f32, right: f32, up: f32, down: f32) -> vec2<f32> {
    let mask = vec2<f32>(
        select(1.0, 0.0, has(bits, SOLID_LEFT | SOLID_RIGHT)),
        select(1.0, 0.0, has(bits, SOLID_UP | SOLID_DOWN)),
    );
    let grad = vec2<f32>((right - left) * params.gradient_factor, (down - up) * params.gradient_factor);
    return (textureLoad(velocity, p).xy - grad) * mask;
}
