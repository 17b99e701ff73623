// Uses: gas/params.wgsl (GasParams); gas/walls.wgsl (BEYOND_INFLOW, Beyond, Mirror, image,
//   in_frame, inflow_state, mirrored); the pass's bindings (state).
// The face into a wall's ghost with the constant reconstruction (ghost.wgsl): the cell's value
// and its ghost's (mirror rule m), the friction exchanging the same, in the frame of the wall's
// velocity v. CPU mirror: `ghost_flux`.

fn ghost_states(p: vec2<i32>, m: Mirror, j: u32, v: vec2<f32>) -> array<vec3<f32>, 4> {
    let a = in_frame(textureLoad(state, p).xyz, v);
    let g = image(m, v);
    return array<vec3<f32>, 4>(a, g, a, g);
}

// The face into an open edge's ghost (b.kind = BEYOND_INFLOW or BEYOND_OUTFLOW): the cell's
// value and the inflow's state, or the cell's value on both sides, the ghost mirrored by b.sign.
// CPU mirror: `ghost_flux`.
fn edge_states(p: vec2<i32>, j: u32, b: Beyond, params: GasParams) -> array<vec3<f32>, 4> {
    let a = textureLoad(state, p).xyz;
    var g = a;
    if b.kind == BEYOND_INFLOW {
        g = inflow_state(b, params);
    }
    g = mirrored(g, b.sign);
    return array<vec3<f32>, 4>(a, g, a, g);
}
