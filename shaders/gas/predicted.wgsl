// Uses: gas/reconstruct.wgsl (conserved); the pass's bindings (half_state, slope_rho, slope_ux,
//   slope_uy).
// The predicted states of MUSCL-Hancock (predict.wgsl) as the faces see them. The including
// pass binds half_state, slope_rho, slope_ux and slope_uy (read). CPU mirror: `Predicted` in
// src/gas/cpu.rs.

// One cell's prediction: (rho, ux, uy) half a step on, and the slope of each along face k in
// channel k.
struct Predicted {
    half: vec3<f32>,
    rho: vec4<f32>,
    ux: vec4<f32>,
    uy: vec4<f32>,
};

fn load_predicted(p: vec2<i32>) -> Predicted {
    return Predicted(textureLoad(half_state, p).xyz, textureLoad(slope_rho, p), textureLoad(slope_ux, p), textureLoad(slope_uy, p));
}

// (rho, rho ux, rho uy) at the cell's face in direction j (0..3 forward, 4..7 backward,
// walls.wgsl): the half-step state plus or minus half the slope along the face's line, the
// density clamped at 0. CPU mirror: `Predicted::face`.
fn predicted_face(c: Predicted, j: u32) -> vec3<f32> {
    let k = j % 4u;
    let s = vec3<f32>(c.rho[k], c.ux[k], c.uy[k]);
    var w = c.half - 0.5 * s;
    if j < 4u {
        w = c.half + 0.5 * s;
    }
    return conserved(vec3<f32>(max(w.x, 0.0), w.yz));
}

// The cell's state half a step on, (rho, rho ux, rho uy). CPU mirror: `Predicted::centre`.
fn predicted_centre(c: Predicted) -> vec3<f32> {
    return conserved(c.half);
}
