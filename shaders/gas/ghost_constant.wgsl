// The face into a wall's ghost with the constant reconstruction (ghost.wgsl): the cell's value
// and its ghost's (mirror rule m), the friction exchanging the same. CPU mirror: `ghost_flux`.

fn ghost_states(p: vec2<i32>, m: Mirror, j: u32) -> array<vec3<f32>, 4> {
    let a = textureLoad(state, p).xyz;
    let g = image(m);
    return array<vec3<f32>, 4>(a, g, a, g);
}
