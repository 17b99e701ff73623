// The flux from an open cell to the ghost beyond a blocked face (walls.wgsl), shared by
// limit.wgsl and apply.wgsl, at the face states `ghost_states` gives: ghost_constant.wgsl's
// (the cell and its ghost) or ghost_linear.wgsl's (the predicted states).
// CPU mirror: `ghost_flux` in src/gas/cpu.rs, where the conservation along walls is explained.

struct GhostFlux {
    flux: vec3<f32>,     // (f, px, py) from the cell to the ghost, times the face length
    mirror: vec2<i32>,   // the cell the ghost mirrors (its limiter factor scales inflow)
};

fn ghost_flux(p: vec2<i32>, bits: u32, j: u32, params: GasParams) -> GhostFlux {
    let m = mirror_rule(p, bits, j);
    let k = j % 4u;
    let st = ghost_states(p, m, j);
    var out: GhostFlux;
    out.flux = face_length(params, k) * face_flux_between(st[0], st[1], st[2], st[3], direction_unit(j), face_distance(k), params);
    out.mirror = m.cell;
    return out;
}
