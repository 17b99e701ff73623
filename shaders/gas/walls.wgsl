// Uses: common/body.wgsl (body_velocity); common/grid.wgsl (inside); gas/params.wgsl (BODY_MASK,
//   BODY_SHIFT, GasParams, WALL, direction, neighbour_is_wall, used_directions); the pass's
//   bindings (bodies, solid, state).
// Gas walls as mirrors: the "ghost" beyond a blocked face, the mirror image of the open cells,
// in the frame of a body's cell where one blocks the way. Shared by predict.wgsl,
// limit.wgsl and apply.wgsl (all bind `state`, `solid` and the body table `bodies`); ghost.wgsl
// has the flux into a ghost. CPU mirror: `ghost`, `MirrorRule` and `neighbour_or_ghost` in
// src/gas/cpu.rs, where the rule is explained, and `wall_velocity` in src/gas/bodies.rs.

// Wall bits of the axis directions E, S, W, N.
const BIT_E: u32 = 0u;
const BIT_S: u32 = 1u;
const BIT_W: u32 = 4u;
const BIT_N: u32 = 5u;

// The directions in use (E, S, W, N; with 8-way also the diagonals) that are blocked by a wall,
// as a mask over j; 0 for a wall cell. Loops walk its set bits in increasing j (the CPU
// mirror's order) and stop when none is left, so cells away from walls skip them entirely
// (a plain `if` inside the loop would not: llvmpipe runs both sides of a branch with masks).
fn blocked(bits: u32, params: GasParams) -> u32 {
    if (bits & WALL) != 0u {
        return 0u;
    }
    return (bits >> 1u) & used_directions(params);
}

// How the gas beyond a wall mirrors the open cells: the mirrored cell, the direction in which
// the mirror image of the line through the wall goes on from it (-onward points from the
// mirrored cell to the face the ghost mirrors), and the sign each momentum component takes in
// the image. CPU mirror: `mirror_rule`.
struct Mirror {
    cell: vec2<i32>,
    onward: vec2<i32>,
    sign: vec2<f32>,
};

fn mirror_rule(p: vec2<i32>, bits: u32, j: u32) -> Mirror {
    let delta = direction(j);
    var out: Mirror;
    out.cell = p;
    out.onward = -delta;
    out.sign = vec2<f32>(-1.0, -1.0);
    if delta.x == 0 {
        out.sign = vec2<f32>(1.0, -1.0);
    } else if delta.y == 0 {
        out.sign = vec2<f32>(-1.0, 1.0);
    } else {
        let h_wall = neighbour_is_wall(bits, select(BIT_W, BIT_E, delta.x > 0));
        let v_wall = neighbour_is_wall(bits, select(BIT_N, BIT_S, delta.y > 0));
        if !h_wall && v_wall {
            out.cell = p + vec2<i32>(delta.x, 0);
            out.onward = vec2<i32>(delta.x, -delta.y);
            out.sign = vec2<f32>(1.0, -1.0);
        } else if h_wall && !v_wall {
            out.cell = p + vec2<i32>(0, delta.y);
            out.onward = vec2<i32>(-delta.x, delta.y);
            out.sign = vec2<f32>(-1.0, 1.0);
        }
    }
    return out;
}

// (rho, mx, my) with the momentum components whose sign is -1 reversed: a mirror rule's
// (Mirror.sign) or an open edge's mirrored in a wall edge (Beyond.sign).
fn mirrored(q: vec3<f32>, sign: vec2<f32>) -> vec3<f32> {
    return vec3<f32>(q.x, q.yz * sign);
}

// Whether the pass is built for a grid with bodies: a pipeline-overridable constant
// (src/gas/gpu.rs builds the wall passes with it true once a model has bodies), so the passes
// built without bodies drop the body code (llvmpipe runs both sides of every `if` with masks:
// as a test of params.bodies, its texture loads would slow every gas step, bodies or none).
override BODIES: bool = false;

// The velocity (cells/step) of what blocks direction j of open cell p: the rigid velocity of
// the body whose cell it is at the face's midpoint, else 0 (a wall, the box's edge).
// CPU mirror: `wall_velocity` in src/gas/bodies.rs.
fn wall_velocity(p: vec2<i32>, j: u32, params: GasParams) -> vec2<f32> {
    if !BODIES {
        return vec2<f32>(0.0);
    }
    let t = p + direction(j);
    if !inside(t, textureDimensions(solid)) {
        return vec2<f32>(0.0);
    }
    let id = (textureLoad(solid, t).r >> BODY_SHIFT) & BODY_MASK;
    if id == 0u {
        return vec2<f32>(0.0);
    }
    let at = vec2<f32>(p) + vec2<f32>(0.5) + 0.5 * vec2<f32>(direction(j));
    return body_velocity(bodies[id - 1u], at);
}

// The ghost of a mirror rule seen from a frame moving at v (a body's; 0 for a wall): the
// mirrored cell's image. CPU mirror: `MirrorRule::image`.
fn image(m: Mirror, v: vec2<f32>) -> vec3<f32> {
    return mirrored(in_frame(textureLoad(state, m.cell).xyz, v), m.sign);
}

// (rho, mx, my) seen from a frame moving at v: (rho, m - rho v); and back. CPU mirror:
// `in_frame`, `out_of_frame`.
fn in_frame(q: vec3<f32>, v: vec2<f32>) -> vec3<f32> {
    return vec3<f32>(q.x, q.yz - q.x * v);
}

fn out_of_frame(q: vec3<f32>, v: vec2<f32>) -> vec3<f32> {
    return vec3<f32>(q.x, q.yz + q.x * v);
}

// What lies beyond blocked direction j of open cell p: kind BEYOND_WALL
// (a wall cell, or only wall or slip edges crossed: the mirror rule) unless the step leaves the
// grid through an open edge; then BEYOND_INFLOW if it crosses an inflow edge, else
// BEYOND_OUTFLOW, with `sign` reversing the momentum component across a wall or slip edge that a
// diagonal step out of a corner cell crosses too. Edge kinds in params.edges (left, right, top,
// bottom) are EdgeKind's order. CPU mirror: `beyond`.
const BEYOND_WALL: u32 = 0u;
const BEYOND_INFLOW: u32 = 1u;
const BEYOND_OUTFLOW: u32 = 2u;
const EDGE_INFLOW: u32 = 1u;
const EDGE_OUTFLOW: u32 = 2u;
const NO_EDGE: u32 = 4u;

struct Beyond {
    kind: u32,
    sign: vec2<f32>,
    inflow_normal: vec2<f32>, // the inward normal of the first inflow edge crossed
};

fn edge_is_open(e: u32) -> bool {
    return e == EDGE_INFLOW || e == EDGE_OUTFLOW;
}

fn beyond(p: vec2<i32>, j: u32, params: GasParams) -> Beyond {
    let t = p + direction(j);
    let size = vec2<i32>(textureDimensions(solid));
    var x = NO_EDGE;
    var nx = vec2<f32>(0.0);
    if t.x < 0 {
        x = params.edges.x;
        nx = vec2<f32>(1.0, 0.0);
    } else if t.x >= size.x {
        x = params.edges.y;
        nx = vec2<f32>(-1.0, 0.0);
    }
    var y = NO_EDGE;
    var ny = vec2<f32>(0.0);
    if t.y < 0 {
        y = params.edges.z;
        ny = vec2<f32>(0.0, 1.0);
    } else if t.y >= size.y {
        y = params.edges.w;
        ny = vec2<f32>(0.0, -1.0);
    }
    var out: Beyond;
    out.kind = BEYOND_WALL;
    out.sign = vec2<f32>(1.0, 1.0);
    out.inflow_normal = vec2<f32>(0.0);
    if !edge_is_open(x) && !edge_is_open(y) {
        return out;
    }
    out.sign = vec2<f32>(select(1.0, -1.0, x != NO_EDGE && !edge_is_open(x)), select(1.0, -1.0, y != NO_EDGE && !edge_is_open(y)));
    out.kind = BEYOND_OUTFLOW;
    if x == EDGE_INFLOW {
        out.kind = BEYOND_INFLOW;
        out.inflow_normal = nx;
    } else if y == EDGE_INFLOW {
        out.kind = BEYOND_INFLOW;
        out.inflow_normal = ny;
    }
    return out;
}

// The inflow's ghost (b.kind = BEYOND_INFLOW): inflow_density moving at inflow along the inward
// normal, before b.sign. CPU mirror: `beyond`'s `Beyond::Inflow`.
fn inflow_state(b: Beyond, params: GasParams) -> vec3<f32> {
    let k = params.inflow_density * params.inflow;
    return vec3<f32>(params.inflow_density, k * b.inflow_normal);
}

// The cell one step from open cell p in direction j, or what stands beyond it where that is a
// wall or outside: a wall's ghost, an inflow's state, or beyond an outflow edge the cell itself.
// CPU mirror: `neighbour_or_ghost`.
fn neighbour_or_ghost(p: vec2<i32>, bits: u32, j: u32, params: GasParams) -> vec3<f32> {
    if neighbour_is_wall(bits, j) {
        let b = beyond(p, j, params);
        if b.kind == BEYOND_INFLOW {
            return mirrored(inflow_state(b, params), b.sign);
        }
        if b.kind == BEYOND_OUTFLOW {
            return mirrored(textureLoad(state, p).xyz, b.sign);
        }
        // The mirror in the frame of what blocks the way (a body's, or a wall's at rest).
        let v = wall_velocity(p, j, params);
        return out_of_frame(image(mirror_rule(p, bits, j), v), v);
    }
    return textureLoad(state, p + direction(j)).xyz;
}

// The direction index j (0..7, `direction`) of a unit step (dcol, drow).
fn direction_index(delta: vec2<i32>) -> u32 {
    for (var j = 0u; j < 8u; j++) {
        if all(direction(j) == delta) {
            return j;
        }
    }
    return 0u;
}
