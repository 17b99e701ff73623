// Gas pass 1's face states with the linear reconstruction (MUSCL; faces.wgsl): owner a at p and
// neighbour b at q along face k, the cell before a and the one beyond b (mirror images through
// walls, walls.wgsl), a + slope_a / 2 and b - slope_b / 2 in density and velocity, each slope
// limited (reconstruct.wgsl). CPU mirror: `faces_linear` in src/gas/cpu.rs.

fn face_states(p: vec2<i32>, bits: u32, k: u32, a: vec3<f32>, q: vec2<i32>, b: vec3<f32>) -> array<vec3<f32>, 2> {
    let bits_b = textureLoad(solid, q).r;
    return reconstruct(neighbour_or_ghost(p, bits, 4u + k), a, b, neighbour_or_ghost(q, bits_b, k));
}
