// Gas parameters, constants and the face flux, shared by the gas passes.
// Mirrors `GasUniform` in src/gas/gpu.rs and the constants/`face_flux` of src/gas/cpu.rs.

struct GasParams {
    diffusion: f32,   // D: the exchange nu = D (central) or max(D, alpha h / 2) (Rusanov)
    damping: f32,     // m *= damping after each step
    drain: f32,       // rho = rho * drain + (1 - drain) * AMBIENT
    friction: f32,    // perpendicular-momentum exchange across a face
    wind: vec2<f32>,  // velocity of source cells, cells/step
    pressure: f32,    // eddy's extension: isothermal c^2 (0 = the source's model)
    faces: u32,       // faces owned per cell: 2 (4-way flow) or 4 (8-way)
    flux: u32,        // 0 = central (nu = D), 1 = Rusanov (nu = max(D, alpha h / 2))
    sound_speed: f32, // c = sqrt(pressure), computed on the CPU
    inflow: f32,      // speed into the box through inflow edges, cells/step
    inflow_density: f32,
    edges: vec4<u32>, // left, right, top, bottom: 0 wall, 1 inflow, 2 outflow, 3 slip (EdgeKind)
    bodies: u32,      // bodies in the body table
    _pad0: u32,
    _pad1: u32,
    _pad2: u32,
};

const RUSANOV: u32 = 1u;

const AMBIENT: f32 = 1.0;
const RHO_EPSILON: f32 = 1e-6;
const LIMIT_SAFETY: f32 = 0.99999;
const MAX_SPEED: f32 = 0.5;

// Solid texture bits: bit 0 = this cell is a wall (or a body's), bit 1 + j = the
// neighbour in direction j (`direction`) is a wall, a body's or outside the grid, bit 9 = this
// cell is a source; with bodies (written by bodies.wgsl each step) bits 10..18 are bits 0..8
// as they were before the step's rasterisation, and bits 20..24 the index + 1 of the body
// covering the cell (0: none).
const WALL: u32 = 1u;
const SOURCE: u32 = 512u;
const BEFORE_SHIFT: u32 = 10u;
// Fixed-point scales of the gas's push on the bodies (apply.wgsl's atomic sums,
// body_forces.wgsl): FORCE_SCALE and TORQUE_SCALE in src/gas/bodies.rs (a test holds them equal).
const FORCE_SCALE: f32 = 1048576.0;
const TORQUE_SCALE: f32 = 16384.0;
const BODY_SHIFT: u32 = 20u;
const BODY_MASK: u32 = 31u;

// Faces a cell owns, (dcol, drow): E, S, SE, SW (4-way flow uses the first two).
fn forward(k: u32) -> vec2<i32> {
    switch k {
        case 0u: { return vec2<i32>(1, 0); }
        case 1u: { return vec2<i32>(0, 1); }
        case 2u: { return vec2<i32>(1, 1); }
        default: { return vec2<i32>(-1, 1); }
    }
}

// Direction j of eight: 0..3 forward (E, S, SE, SW, the faces a cell owns), 4..7 backward
// (W, N, NW, NE). Its wall bit is neighbour_is_wall(bits, j).
fn direction(j: u32) -> vec2<i32> {
    if j < 4u {
        return forward(j);
    }
    return -forward(j - 4u);
}

fn direction_unit(j: u32) -> vec2<f32> {
    if j < 4u {
        return unit(j);
    }
    return -unit(j - 4u);
}

// Unit vector of face k, with 1/sqrt(2) written out so the CPU mirror gets the same bits.
const DIAGONAL: f32 = 0.70710678118654752;
fn unit(k: u32) -> vec2<f32> {
    if k < 2u {
        return vec2<f32>(forward(k));
    }
    return vec2<f32>(forward(k)) * DIAGONAL;
}

// Face lengths with 8-way flow (2/3 axis, sqrt(2)/6 diagonal; 4-way: 1) and the distance
// between diagonal neighbours. CPU mirror: `face_length`, `face_distance`; derivation in the
// module docs of src/gas/mod.rs.
const AXIS_LENGTH_8: f32 = 0.6666667;
const DIAGONAL_LENGTH_8: f32 = 0.23570226;
const DIAGONAL_DISTANCE: f32 = 1.4142135;

fn face_length(params: GasParams, k: u32) -> f32 {
    if params.faces == 2u {
        return 1.0;
    }
    return select(DIAGONAL_LENGTH_8, AXIS_LENGTH_8, k < 2u);
}

fn face_distance(k: u32) -> f32 {
    return select(DIAGONAL_DISTANCE, 1.0, k < 2u);
}

// The directions j (`direction`) in use, as a mask over j: E, S, W, N, with 8-way flow also the
// diagonals.
fn used_directions(params: GasParams) -> u32 {
    return select(0x33u, 0xffu, params.faces == 4u);
}

fn neighbour_is_wall(bits: u32, k: u32) -> bool {
    return (bits & (2u << k)) != 0u;
}

// Velocity along d of a cell (rho, mx, my); 0 in vacuum. CPU mirror: `normal_speed`.
fn normal_speed(c: vec3<f32>, d: vec2<f32>) -> f32 {
    if c.x > RHO_EPSILON {
        return abs(c.y * d.x + c.z * d.y) / c.x;
    }
    return 0.0;
}

// The exchange coefficient nu of a face (cells^2/step). CPU mirror: `exchange`.
fn exchange(a: vec3<f32>, b: vec3<f32>, d: vec2<f32>, h: f32, params: GasParams) -> f32 {
    if params.flux == RUSANOV {
        let alpha = max(normal_speed(a, d), normal_speed(b, d)) + params.sound_speed;
        return max(params.diffusion, 0.5 * alpha * h);
    }
    return params.diffusion;
}

// Mass flow f and momentum flow p per unit face length across the face from a to b (unit
// direction d, centres h cells apart), from the face-midpoint values; a and b are
// (rho, mx, my). Returns (f, px, py). CPU mirror: `face_flux`.
fn face_flux(a: vec3<f32>, b: vec3<f32>, d: vec2<f32>, h: f32, params: GasParams) -> vec3<f32> {
    return face_flux_between(a, b, a, b, d, h, params);
}

// face_flux from the face states a and b (the linear reconstruction's), the friction exchanging
// the tangential momentum of the cells themselves (shear_a, shear_b). CPU mirror:
// `face_flux_between`.
fn face_flux_between(a: vec3<f32>, b: vec3<f32>, shear_a: vec3<f32>, shear_b: vec3<f32>, d: vec2<f32>, h: f32, params: GasParams) -> vec3<f32> {
    let rho_f = 0.5 * (a.x + b.x);
    let m_f = 0.5 * (a.yz + b.yz);
    let perp = vec2<f32>(-d.y, d.x);
    let nu = exchange(a, b, d, h, params) / h;
    let advected = m_f.x * d.x + m_f.y * d.y;
    let f = advected + nu * (a.x - b.x);
    var along = 0.0;
    var across = 0.0;
    if rho_f > RHO_EPSILON {
        along = advected * advected / rho_f;
        across = (m_f.x * perp.x + m_f.y * perp.y) * advected / rho_f;
    }
    along += params.pressure * rho_f;
    across += params.friction / h * ((shear_a.y - shear_b.y) * perp.x + (shear_a.z - shear_b.z) * perp.y);
    // The particles that cross by the exchange carry their cell's momentum: nu (m_a - m_b) / h.
    return vec3<f32>(
        f,
        along * d.x + across * perp.x + nu * (a.y - b.y),
        along * d.y + across * perp.y + nu * (a.z - b.z),
    );
}
