// The linear reconstruction (MUSCL) of the gas's face states: slope limiters and the
// primitive variables. Shared by faces_linear.wgsl and walls.wgsl (the faces into walls).
// CPU mirror: `limited_slope`, `primitive`, `reconstruct` in src/gas/cpu.rs.

// The slope limiters of `Limiter` in src/gas/cpu.rs; LIMITER is `cpu::LIMITER`.
const MINMOD: u32 = 0u;
const MONOTONIZED_CENTRAL: u32 = 1u;
const VAN_LEER: u32 = 2u;
const LIMITER: u32 = MONOTONIZED_CENTRAL;

// The limited slope from the backward and forward differences; 0 at an extremum.
fn limited_slope(back: f32, fwd: f32) -> f32 {
    if back * fwd <= 0.0 {
        return 0.0;
    }
    if LIMITER == MINMOD {
        return select(fwd, back, abs(back) < abs(fwd));
    }
    if LIMITER == MONOTONIZED_CENTRAL {
        let m = min(min(2.0 * abs(back), 2.0 * abs(fwd)), 0.5 * abs(back + fwd));
        return select(-m, m, back > 0.0);
    }
    return 2.0 * back * fwd / (back + fwd);
}

fn half_slopes(back: vec3<f32>, fwd: vec3<f32>) -> vec3<f32> {
    return 0.5 * vec3<f32>(limited_slope(back.x, fwd.x), limited_slope(back.y, fwd.y), limited_slope(back.z, fwd.z));
}

// (rho, mx, my) -> (rho, ux, uy), the velocity 0 in vacuum. CPU mirror: `primitive`.
fn primitive(q: vec3<f32>) -> vec3<f32> {
    if q.x > RHO_EPSILON {
        return vec3<f32>(q.x, q.y / q.x, q.z / q.x);
    }
    return vec3<f32>(q.x, 0.0, 0.0);
}

fn conserved(w: vec3<f32>) -> vec3<f32> {
    return vec3<f32>(w.x, w.x * w.y, w.x * w.z);
}

// The two face states between cells a and b from the line (before, a, b, beyond): a + slope / 2
// and b - slope / 2 in density and velocity, each slope limited. CPU mirror: `reconstruct`.
fn reconstruct(before: vec3<f32>, a: vec3<f32>, b: vec3<f32>, beyond: vec3<f32>) -> array<vec3<f32>, 2> {
    let wa = primitive(a);
    let wb = primitive(b);
    let left = conserved(wa + half_slopes(wa - primitive(before), wb - wa));
    let right = conserved(wb - half_slopes(wb - wa, primitive(beyond) - wb));
    return array<vec3<f32>, 2>(left, right);
}
