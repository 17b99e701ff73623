// The log of the fluid's forces on bodies, shared by the models' forces passes: a head (the
// steps logged so far) and the last FORCE_LOG_STEPS steps' forces, LOGGED_BODIES a step,
// (fx, fy, torque, 0) a body (units: src/body/forces.rs). A forces pass writes slot
// head % FORCE_LOG_STEPS; force_log_head.wgsl then counts the step.
// CPU mirror: `ForceLog` in src/body/forces.rs.

// LOG_STEPS and MAX_BODIES in src/body/forces.rs and src/body/mod.rs (a test holds them equal).
const FORCE_LOG_STEPS: u32 = 256u;
const LOGGED_BODIES: u32 = 16u;

struct ForceLog {
    head: u32,
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
    // Step s's body i at (s % FORCE_LOG_STEPS) * LOGGED_BODIES + i: 256 x 16.
    forces: array<vec4<f32>, 4096>,
};
