// Pressure solve: two Jacobi iterations in one dispatch (jacobi_step.wgsl's `once` twice,
// without the intermediate texture): each open cell computes the first iteration's value at
// itself and at its open neighbours from the pressure around them, then its own second
// iteration from those. Half the dispatches (and barriers) for 36 texel loads per cell (13
// distinct pressure texels) instead of 14. CPU mirror: `jacobi` in src/solver/mod.rs, twice.

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
        let c = once(p, bits);
        var up = c;
        var left = c;
        var right = c;
        var down = c;
        if edge_open(bits, 0u) {
            up = once(p + UP, textureLoad(solid, p + UP).r);
        }
        if edge_open(bits, 1u) {
            left = once(p + LEFT, textureLoad(solid, p + LEFT).r);
        }
        if edge_open(bits, 2u) {
            right = once(p + RIGHT, textureLoad(solid, p + RIGHT).r);
        }
        if edge_open(bits, 3u) {
            down = once(p + DOWN, textureLoad(solid, p + DOWN).r);
        }
        value = (up + left + right + down - textureLoad(rhs, p).r) * 0.25;
    }
    textureStore(pressure_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
}
