// Smoke parameters and solid bits, shared by the smoke passes.
// Mirrors `SmokeUniform` in src/smoke/gpu.rs; the derived values (half_inverse_cell_size,
// alpha, gradient_factor) are computed once on the CPU, as `SmokeParams`' methods do, so both
// backends use the same bits.

struct SmokeParams {
    dt: f32,                      // time units per step
    buoyancy: f32,                // sigma
    weight: f32,                  // kappa
    ambient_temperature: f32,     // T0
    velocity_dissipation: f32,
    temperature_dissipation: f32,
    density_dissipation: f32,
    half_inverse_cell_size: f32,  // 0.5 / cell_size (divergence)
    alpha: f32,                   // -cell_size^2 (Jacobi)
    gradient_factor: f32,         // gradient_scale / cell_size (Rideout: 1.125 / CellSize)
    warm_start: u32,              // 1: the solve starts from the last pressure (no ClearSurface)
    cell_size: f32,               // h (staggered differences)
    staggered: u32,               // 1: the staggered grid (statistics read its divergence after)
    maccormack: u32,              // 1: MacCormack advection (the prediction is left undamped)
    viscosity_k: f32,             // nu dt, cells^2 (nu for the grid's width)
    lid: f32,                     // the top edge's x velocity, cells per time unit
    vorticity: f32,               // confinement eps, cells per time unit
    edges: u32,                   // 2 bits an edge (left, right, top, bottom): 0 wall, 1 inflow, 2 outflow, 3 slip
    inflow: f32,                  // speed into the box through inflow edges, cells per time unit
    bodies: u32,                  // rigid bodies in the body table (0: none, and no body passes run)
    inflow_profile: u32,          // 0 uniform, 1 parabolic (SmokeParams::inflow_at), 2 custom (faces keep theirs)
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
};

const INFLOW_UNIFORM: u32 = 0u;
const INFLOW_CUSTOM: u32 = 2u;

// Solid texture bits (built on the CPU when walls change): bit 0 = this cell is solid;
// bits 1..4 = the neighbour on the left / right / above / below is solid or outside the grid;
// bit 5 = this cell is a source; bits 8..15 = 1 + the index of the body covering this cell (0:
// none), written each step by staggered_bodies.wgsl when there are bodies.
const SOLID: u32 = 1u;
const SOLID_LEFT: u32 = 2u;
const SOLID_RIGHT: u32 = 4u;
const SOLID_UP: u32 = 8u;
const SOLID_DOWN: u32 = 16u;
const SOURCE: u32 = 32u;
const BODY_SHIFT: u32 = 8u;

// 1 + the index of the body covering a cell, 0 when none.
fn body_id(bits: u32) -> u32 {
    return (bits >> BODY_SHIFT) & 255u;
}

fn has(bits: u32, bit: u32) -> bool {
    return (bits & bit) != 0u;
}

// a (1 - t) + b t: the interpolation both backends use (CPU mirror: `cpu::lerp`).
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    return a * (1.0 - t) + b * t;
}
