// Uses: gas/predicted.wgsl (Predicted, load_predicted, predicted_centre, predicted_face).
// Gas pass 1's face states with the linear reconstruction (faces.wgsl): the predicted states of
// MUSCL-Hancock (predict.wgsl, predicted.wgsl) at the face, the owner's forward and the
// neighbour's backward; the friction exchanges the two predicted centres.
// CPU mirror: `faces_predicted` in src/gas/cpu.rs.

@group(0) @binding(1) var half_state: texture_storage_2d<rgba32float, read>;
@group(0) @binding(6) var slope_rho: texture_storage_2d<rgba32float, read>;
@group(0) @binding(7) var slope_ux: texture_storage_2d<rgba32float, read>;
@group(0) @binding(8) var slope_uy: texture_storage_2d<rgba32float, read>;

alias Owner = Predicted;

fn owner(p: vec2<i32>) -> Owner {
    return load_predicted(p);
}

// (left, right, shear_a, shear_b) of face k between the owner a and its neighbour at q.
fn face_states(a: Owner, k: u32, q: vec2<i32>) -> array<vec3<f32>, 4> {
    let b = load_predicted(q);
    return array<vec3<f32>, 4>(predicted_face(a, k), predicted_face(b, k + 4u), predicted_centre(a), predicted_centre(b));
}
