// Pressure solve: one Jacobi iteration of the Poisson problem (GPU Gems 38.3, on the solver's
// finest level) at every open cell (`once`, jacobi_step.wgsl), 0 in walls; ping-ponged
// between two textures.
// CPU mirror: `jacobi` in src/solver/mod.rs.

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(pressure);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let bits = textureLoad(solid, p).r;
    var value = 0.0;
    if (bits & WALL) == 0u {
        value = once(p, bits);
    }
    textureStore(pressure_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
}
