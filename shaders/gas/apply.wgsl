// Uses: common/body.wgsl (Body); common/grid.wgsl (inside); gas/ghost.wgsl (ghost_flux);
//   gas/params.wgsl (AMBIENT, BODY_MASK, BODY_SHIFT, FORCE_SCALE, GasParams, MAX_SPEED, SOURCE,
//   TORQUE_SCALE, WALL, direction, forward, neighbour_is_wall);
//   gas/walls.wgsl (BEYOND_WALL, beyond, blocked, wall_velocity).
// Gas pass 3: gather. Each face's flux, scaled by the limiter factor of the cell its mass
// leaves, is subtracted from the face's source side and added to its other side; then the
// flux to the ghost beyond each wall (ghost.wgsl) and the reflection of the momentum
// pointing into an edge-adjacent wall; then momentum is damped and density drains towards
// ambient; speed is capped at MAX_SPEED, sources are reset. The momentum the ghost fluxes and the
// bounces give a body's faces is added to its sums (push_body).
// CPU mirror: `apply` in src/gas/cpu.rs (same order of operations).

@group(0) @binding(0) var<uniform> params: GasParams;
@group(0) @binding(1) var state: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var face_f: texture_storage_2d<rgba32float, read>;
@group(0) @binding(4) var face_px: texture_storage_2d<rgba32float, read>;
@group(0) @binding(5) var face_py: texture_storage_2d<rgba32float, read>;
@group(0) @binding(6) var factor: texture_storage_2d<r32float, read>;
@group(0) @binding(7) var state_out: texture_storage_2d<rgba32float, write>;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(8) var<uniform> bodies: array<Body, 16>;
// The gas's push on each body over the step, (fx, fy, torque) in fixed point (FORCE_SCALE,
// TORQUE_SCALE): integer sums, the same bits in any order. body_forces.wgsl logs and clears them.
@group(0) @binding(9) var<storage, read_write> body_sums: array<atomic<i32>, 48>;

// Adds momentum m given to body id - 1 (none: id 0) at point at to its sums, the torque about
// its centre. CPU mirror: `ForceSums::add` in src/gas/bodies.rs.
fn add_push(id: u32, at: vec2<f32>, m: vec2<f32>) {
    if id == 0u {
        return;
    }
    let i = id - 1u;
    let r = at - bodies[i].centre;
    let torque = r.x * m.y - r.y * m.x;
    atomicAdd(&body_sums[3u * i], i32(round(m.x * FORCE_SCALE)));
    atomicAdd(&body_sums[3u * i + 1u], i32(round(m.y * FORCE_SCALE)));
    atomicAdd(&body_sums[3u * i + 2u], i32(round(torque * TORQUE_SCALE)));
}

// The index + 1 of the body covering cell q (0: none, or outside the grid).
fn body_at(q: vec2<i32>) -> u32 {
    if !inside(q, textureDimensions(solid)) {
        return 0u;
    }
    return (textureLoad(solid, q).r >> BODY_SHIFT) & BODY_MASK;
}

// Adds momentum m that open cell p (its bits) gives through its face in direction j to what
// blocks it, where that is a body's cell; at the face's midpoint. A diagonal face's push along
// x goes to what blocks the x neighbour if it is blocked, else to what blocks the diagonal;
// along y likewise. CPU mirror: `ForceSums::push` in src/gas/bodies.rs.
fn push_body(p: vec2<i32>, bits: u32, j: u32, m: vec2<f32>) {
    if !BODIES {
        return;
    }
    let d = direction(j);
    let at = vec2<f32>(p) + vec2<f32>(0.5) + 0.5 * vec2<f32>(d);
    if d.x == 0 || d.y == 0 {
        add_push(body_at(p + d), at, m);
        return;
    }
    var x = p + d;
    if neighbour_is_wall(bits, select(4u, 0u, d.x > 0)) {
        x = vec2<i32>(p.x + d.x, p.y);
    }
    var y = p + d;
    if neighbour_is_wall(bits, select(5u, 1u, d.y > 0)) {
        y = vec2<i32>(p.x, p.y + d.y);
    }
    add_push(body_at(x), at, vec2<f32>(m.x, 0.0));
    add_push(body_at(y), at, vec2<f32>(0.0, m.y));
}

// The limiter factor of whichever cell the face's mass leaves: the owner when f >= 0.
fn scale(f: f32, owner: vec2<i32>, other: vec2<i32>) -> f32 {
    if f >= 0.0 {
        return textureLoad(factor, owner).r;
    }
    return textureLoad(factor, other).r;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(state);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let old = textureLoad(state, p);
    let bits = textureLoad(solid, p).r;
    if (bits & WALL) != 0u {
        textureStore(state_out, p, old);
        return;
    }
    var rho = old.x;
    var m = old.yz;
    // Faces this cell owns: it is the owner (a) side.
    let f = textureLoad(face_f, p);
    let px = textureLoad(face_px, p);
    let py = textureLoad(face_py, p);
    for (var k = 0u; k < params.faces; k++) {
        let t = scale(f[k], p, p + forward(k));
        rho -= t * f[k];
        m -= t * vec2<f32>(px[k], py[k]);
    }
    // Faces owned by the backward neighbours: this cell is their b side.
    for (var k = 0u; k < params.faces; k++) {
        let q = p - forward(k);
        if inside(q, size) {
            let fk = textureLoad(face_f, q)[k];
            let t = scale(fk, q, p);
            rho += t * fk;
            m += t * vec2<f32>(textureLoad(face_px, q)[k], textureLoad(face_py, q)[k]);
        }
    }
    // Walls: the flux to the ghost beyond each blocked face, its mass scaled by the limiter
    // factor of the cell it leaves (this one, or the one the ghost mirrors).
    var left = blocked(bits, params);
    while left != 0u {
        let j = firstTrailingBit(left);
        left &= left - 1u;
        let g = ghost_flux(p, bits, j, params);
        var t = scale(g.flux.x, p, g.mirror);
        if g.edge && g.flux.x < 0.0 {
            t = 1.0;
        }
        rho -= t * g.flux.x;
        m -= t * g.flux.yz;
        push_body(p, bits, j, t * g.flux.yz);
    }
    // Momentum pointing into an edge-adjacent wall bounces off (E, S, W, N; not at an open edge),
    // relative to the wall (a body's moves).
    let edges = array<vec2<f32>, 4>(vec2<f32>(1.0, 0.0), vec2<f32>(0.0, 1.0), vec2<f32>(-1.0, 0.0), vec2<f32>(0.0, -1.0));
    let edge_bits = array<u32, 4>(0u, 1u, 4u, 5u);
    for (var e = 0u; e < 4u; e++) {
        if neighbour_is_wall(bits, edge_bits[e]) && beyond(p, edge_bits[e], params).kind == BEYOND_WALL {
            let v = wall_velocity(p, edge_bits[e], params);
            let into = dot(m - rho * v, edges[e]);
            if into > 0.0 {
                m -= 2.0 * into * edges[e];
                push_body(p, bits, edge_bits[e], 2.0 * into * edges[e]);
            }
        }
    }
    m *= params.damping;
    rho = rho * params.drain + (1.0 - params.drain) * AMBIENT;
    let speed2 = dot(m, m);
    let cap = MAX_SPEED * rho;
    if speed2 > cap * cap {
        m *= cap / sqrt(speed2);
    }
    if (bits & SOURCE) != 0u {
        rho = AMBIENT;
        m = AMBIENT * params.wind;
    }
    textureStore(state_out, p, vec4<f32>(max(rho, 0.0), m, 0.0));
}
