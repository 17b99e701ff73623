// Uses: gas/params.wgsl (GasParams); gas/predicted.wgsl (load_predicted, predicted_centre,
//   predicted_face); gas/walls.wgsl (BEYOND_INFLOW, Beyond, Mirror, direction_index, in_frame,
//   inflow_state, mirrored).
// The face into a wall's ghost with the linear reconstruction (ghost.wgsl): the cell's predicted
// state at the face and the mirror image of the mirrored cell's at its face towards -onward; the
// friction exchanges the predicted centres (predicted.wgsl; the including pass binds the
// predicted textures, limit_linear.wgsl or apply_linear.wgsl); all in the frame of the wall's
// velocity v. CPU mirror: `ghost_flux`.

fn ghost_states(p: vec2<i32>, m: Mirror, j: u32, v: vec2<f32>) -> array<vec3<f32>, 4> {
    let own = load_predicted(p);
    let other = load_predicted(m.cell);
    let back = direction_index(-m.onward);
    return array<vec3<f32>, 4>(
        in_frame(predicted_face(own, j), v),
        mirrored(in_frame(predicted_face(other, back), v), m.sign),
        in_frame(predicted_centre(own), v),
        mirrored(in_frame(predicted_centre(other), v), m.sign),
    );
}

// The face into an open edge's ghost (b.kind = BEYOND_INFLOW or BEYOND_OUTFLOW): the cell's
// predicted state at the face and the inflow's state (face and centre), or the cell's own face
// state and centre on both sides, the ghost's mirrored by b.sign. CPU mirror: `ghost_flux`.
fn edge_states(p: vec2<i32>, j: u32, b: Beyond, params: GasParams) -> array<vec3<f32>, 4> {
    let own = load_predicted(p);
    let face = predicted_face(own, j);
    let centre = predicted_centre(own);
    if b.kind == BEYOND_INFLOW {
        let g = mirrored(inflow_state(b, params), b.sign);
        return array<vec3<f32>, 4>(face, g, centre, g);
    }
    return array<vec3<f32>, 4>(face, mirrored(face, b.sign), centre, mirrored(centre, b.sign));
}
