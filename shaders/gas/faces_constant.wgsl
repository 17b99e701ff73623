// Gas pass 1's face states with the constant reconstruction (faces.wgsl): the two cells' own
// values, the source's face-midpoint rule. CPU mirror: `faces` in src/gas/cpu.rs.

fn face_states(p: vec2<i32>, bits: u32, k: u32, a: vec3<f32>, q: vec2<i32>, b: vec3<f32>) -> array<vec3<f32>, 2> {
    return array<vec3<f32>, 2>(a, b);
}
