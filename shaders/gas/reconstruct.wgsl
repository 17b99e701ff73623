// Uses: gas/params.wgsl (RHO_EPSILON).
// The linear reconstruction (MUSCL) of the gas's face states: slope limiters and the
// primitive variables. Shared by predict.wgsl and predicted.wgsl.
// CPU mirror: `limited_slope`, `primitive`, `conserved` in src/gas/cpu.rs.

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
