// Uses: common/body.wgsl (Body); common/grid.wgsl (inside); gas/ghost.wgsl (ghost_flux);
//   gas/params.wgsl (AMBIENT, GasParams, MAX_SPEED, SOURCE, WALL, forward, neighbour_is_wall);
//   gas/walls.wgsl (BEYOND_WALL, beyond, blocked, wall_velocity).
// Gas pass 3: gather. Each face's flux, scaled by the limiter factor of the cell its mass
// leaves, is subtracted from the face's source side and added to its other side; then the
// flux to the ghost beyond each wall (ghost.wgsl) and the reflection of the momentum
// pointing into an edge-adjacent wall; then momentum is damped and density drains towards
// ambient; speed is capped at MAX_SPEED, sources are reset.
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
