// A full-screen triangle: three vertices, no vertex buffer (vertex_index 0, 1, 2).

struct VertexOut {
    @builtin(position) position: vec4<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> VertexOut {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    var out: VertexOut;
    out.position = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    return out;
}

// The colour map (binding 3): 256 x 1 rgba8unorm, sRGB-encoded colours, texel i the colour at
// i / 255 of the legend's range (eddy::colour::ColourMap::lut).
@group(0) @binding(3) var colour_lut: texture_2d<f32>;

// The colour map's colour at t in [0, 1] (clamped), sRGB-encoded like the rest of these shaders.
fn colour_map(t: f32) -> vec3<f32> {
    let i = i32(round(clamp(t, 0.0, 1.0) * 255.0));
    return textureLoad(colour_lut, vec2<i32>(i, 0), 0).rgb;
}

// sRGB-encoded -> linear, for targets that encode sRGB themselves.
fn to_linear(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}
