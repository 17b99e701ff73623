// Pressure solve: two Jacobi iterations in one dispatch (the arithmetic of jacobi.wgsl twice,
// without the intermediate texture): each open cell computes the first iteration's value at
// itself and at its open neighbours from the pressure around them, then its own second
// iteration from those. Half the dispatches (and barriers) for 37 texel loads per cell (13
// distinct pressure texels) instead of 14. CPU mirror: `jacobi` in src/solver/mod.rs, twice.

@group(0) @binding(0) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(1) var rhs: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var pressure_out: texture_storage_2d<r32float, write>;

// One Jacobi iteration's value at open cell q (jacobi.wgsl's arithmetic).
fn once(q: vec2<i32>) -> f32 {
    let bits = textureLoad(solid, q).r;
    let c = textureLoad(pressure, q).r;
    let up = select(c, textureLoad(pressure, q + UP).r, edge_open(bits, 0u));
    let left = select(c, textureLoad(pressure, q + LEFT).r, edge_open(bits, 1u));
    let right = select(c, textureLoad(pressure, q + RIGHT).r, edge_open(bits, 2u));
    let down = select(c, textureLoad(pressure, q + DOWN).r, edge_open(bits, 3u));
    return (up + left + right + down - textureLoad(rhs, q).r) * 0.25;
}

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
        let c = once(p);
        var up = c;
        var left = c;
        var right = c;
        var down = c;
        if edge_open(bits, 0u) {
            up = once(p + UP);
        }
        if edge_open(bits, 1u) {
            left = once(p + LEFT);
        }
        if edge_open(bits, 2u) {
            right = once(p + RIGHT);
        }
        if edge_open(bits, 3u) {
            down = once(p + DOWN);
        }
        value = (up + left + right + down - textureLoad(rhs, p).r) * 0.25;
    }
    textureStore(pressure_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
}
