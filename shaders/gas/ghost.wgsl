// Uses: gas/ghost_constant.wgsl | gas/ghost_linear.wgsl (edge_states, ghost_states);
//   gas/params.wgsl (GasParams, direction_unit, face_distance, face_flux_between, face_length);
//   gas/walls.wgsl (BEYOND_WALL, beyond, mirror_rule, wall_velocity).
// The flux from an open cell to the ghost beyond a blocked face (walls.wgsl), shared by
// limit.wgsl and apply.wgsl, at the face states `ghost_states` (a wall's mirror image) or
// `edge_states` (an open edge's ghost) give: ghost_constant.wgsl's (the cell and its ghost) or
// ghost_linear.wgsl's (the predicted states).
// Where a body's cell blocks the way the face states are in the body's frame (wall_velocity)
// and the flux goes back to the grid's, (f, P + V f). CPU mirror: `ghost_flux` in
// src/gas/cpu.rs, where the conservation along walls is explained.

struct GhostFlux {
    flux: vec3<f32>,     // (f, px, py) from the cell to the ghost, times the face length
    mirror: vec2<i32>,   // the cell the ghost mirrors (its limiter factor scales inflow)
    edge: bool,          // the ghost is an open edge's: gas it sends in is not limited
};

fn ghost_flux(p: vec2<i32>, bits: u32, j: u32, params: GasParams) -> GhostFlux {
    let k = j % 4u;
    let b = beyond(p, j, params);
    var out: GhostFlux;
    var st: array<vec3<f32>, 4>;
    var v = vec2<f32>(0.0);
    if b.kind == BEYOND_WALL {
        let m = mirror_rule(p, bits, j);
        v = wall_velocity(p, j, params);
        st = ghost_states(p, m, j, v);
        out.mirror = m.cell;
        out.edge = false;
    } else {
        st = edge_states(p, j, b, params);
        out.mirror = p;
        out.edge = true;
    }
    let flux = face_length(params, k) * face_flux_between(st[0], st[1], st[2], st[3], direction_unit(j), face_distance(k), params);
    out.flux = vec3<f32>(flux.x, flux.yz + v * flux.x);
    return out;
}
