// Uses: smoke/splat.wgsl (weight); the pass's bindings (params).
// Buoyancy (GPU Gems 38.5; Rideout's ApplyBuoyancy), applied by pass 1 (advect.wgsl) to each
// open cell just advected. Where the cell is warmer than ambient, v += dt ((T - T0) sigma -
// density kappa) up, with up = (0, -1) (y is down, row 0 at the top). Joyce's shader pushes
// along (1, 1); eddy pushes straight up.
// CPU mirror: `buoyancy` in src/smoke/cpu.rs.

fn buoyancy(v: vec2<f32>, t: f32, rho: f32) -> vec2<f32> {
    var out = v;
    if t > params.ambient_temperature {
        out.y -= params.dt * ((t - params.ambient_temperature) * params.buoyancy - rho * params.weight);
    }
    return out;
}
