// Water parameters and Elsts' stable-state rule, shared by the water passes.
// Mirrors `WaterUniform` in src/water/gpu.rs and `get_stable_state_b` in src/water/cpu.rs.

struct WaterParams {
    max_mass: f32,      // MaxMass: mass of a full, uncompressed cell
    max_compress: f32,  // MaxCompress: extra mass a cell holds per cell of water above it
    min_mass: f32,      // MinMass: below this a cell counts as dry (statistics, rendering)
    min_flow: f32,      // MinFlow: flows above this are halved ("smoother flow")
    max_speed: f32,     // MaxSpeed: cap on vertical flow per step
    side_share: f32,    // 1/4 (Elsts) or 1/2 (Unity port): share of a side difference that flows
    open_boundary: u32, // 1: outside the grid is empty air that swallows water; 0: solid wall
    width: u32,         // the grid's width, cells (the packed passes' padding lies past it)
    gravity: f32,       // on bodies, cells/step^2, down (water/body_forces.wgsl)
    // Fixed-point water (water/rules_fixed.wgsl, src/water/fixed.rs): the constants above in
    // units of 1/FIXED_UNIT of a full cell, the side share in 65536ths.
    units_max_mass: i32,
    units_max_compress: i32,
    units_min_flow: i32,
    units_max_speed: i32,
    units_side_share: i32,
    _pad0: u32,
    _pad1: u32,
};

// Fixed-point water's unit, a full cell's mass in units (`fixed::UNIT`), and the most a cell
// holds, full cells (`fixed::MAX_MASS`: 2^24 units, what an f32 holds exactly).
const FIXED_UNIT: f32 = 16384.0;
const FIXED_MAX_MASS: f32 = 1024.0;

// The solid texture (one cell a texel; `solid_bits` in src/water/gpu.rs, built when walls are
// edited) holds, per cell, which of itself and its four neighbours is solid (outside the grid
// counts as solid with the wall boundary). The passes read bit 0; the step reads no bits at all
// but the signs of its packed masses (water/pack.wgsl).
const SOLID_SELF: u32 = 1u;
const SOLID_BELOW: u32 = 2u;
const SOLID_LEFT: u32 = 4u;
const SOLID_RIGHT: u32 = 8u;
const SOLID_ABOVE: u32 = 16u;
// A body covers the cell (written by water/bodies.wgsl each step, for the renderer; the passes
// read bodies from the body table).
const SOLID_BODY: u32 = 32u;


// The stored mass of a cell beyond the grid's edges, as the step reads it and the pack writes
// the padding cells past the last column (water/pack.wgsl, which stores a solid cell's mass
// negated): empty, +0.0 with the open boundary (air), -0.0, solid, with the wall boundary.
fn outside_mass(p: WaterParams) -> f32 {
    return bitcast<f32>(select(0x80000000u, 0u, p.open_boundary != 0u));
}

// J. Elsts, "Simple Fluid Simulation With Cellular Automata" (2009), get_stable_state_b():
// how much of `total_mass` the lower of two stacked cells holds when they are at rest.
fn get_stable_state_b(total_mass: f32, p: WaterParams) -> f32 {
    if total_mass <= p.max_mass {
        return p.max_mass;
    } else if total_mass < 2.0 * p.max_mass + p.max_compress {
        return (p.max_mass * p.max_mass + total_mass * p.max_compress) / (p.max_mass + p.max_compress);
    }
    return (total_mass + p.max_compress) / 2.0;
}
