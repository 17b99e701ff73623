// Gas pass 1's face states with the constant reconstruction (faces.wgsl): the two cells' own
// values, the source's face-midpoint rule. CPU mirror: `faces` in src/gas/cpu.rs.

@group(0) @binding(1) var state: texture_storage_2d<rgba32float, read>; // (rho, mx, my, 0)

alias Owner = vec3<f32>;

fn owner(p: vec2<i32>) -> Owner {
    return textureLoad(state, p).xyz;
}

// (left, right, shear_a, shear_b) of face k between the owner a and its neighbour at q.
fn face_states(a: Owner, k: u32, q: vec2<i32>) -> array<vec3<f32>, 4> {
    let b = textureLoad(state, q).xyz;
    return array<vec3<f32>, 4>(a, b, a, b);
}
