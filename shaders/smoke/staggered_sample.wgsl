// Staggered grid sampling, shared by the staggered smoke passes. Positions are continuous cell
// coordinates (x, y) = (col, row) with cell centres at whole numbers; vertical face u(col c,
// row r) sits at (c - 1/2, r), horizontal face v(c, r) at (c, r - 1/2).
// CPU mirror: `velocity_at` and `back_trace` in src/smoke/staggered/cpu.rs, `bilinear` in
// src/smoke/cpu.rs.

// Bilinear interpolation of `f` at texel coordinates (x, y), indices clamped to the texture
// (OpenGL's CLAMP_TO_EDGE).
fn bilinear(f: texture_storage_2d<r32float, read>, at: vec2<f32>) -> f32 {
    let hi = vec2<i32>(textureDimensions(f)) - 1;
    let base = floor(at);
    let t = at - base;
    let q0 = clamp(vec2<i32>(base), vec2<i32>(0), hi);
    let q1 = clamp(vec2<i32>(base) + 1, vec2<i32>(0), hi);
    let top = lerp(textureLoad(f, q0).r, textureLoad(f, vec2<i32>(q1.x, q0.y)).r, t.x);
    let bottom = lerp(textureLoad(f, vec2<i32>(q0.x, q1.y)).r, textureLoad(f, q1).r, t.x);
    return lerp(top, bottom, t.y);
}

// The velocity at `at`: u sampled at (x + 1/2, y) of its (W + 1) x H texels, v at (x, y + 1/2)
// of its W x (H + 1).
fn velocity_at(u: texture_storage_2d<r32float, read>, v: texture_storage_2d<r32float, read>, at: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(bilinear(u, at + vec2<f32>(0.5, 0.0)), bilinear(v, at + vec2<f32>(0.0, 0.5)));
}

// Where the point at `at` was dt ago, clamped to one cell beyond the grid of `cells` (W, H).
fn back_trace(u: texture_storage_2d<r32float, read>, v: texture_storage_2d<r32float, read>, at: vec2<f32>, cells: vec2<u32>) -> vec2<f32> {
    let vel = velocity_at(u, v, at);
    return clamp(at - params.dt * vel, vec2<f32>(-1.0), vec2<f32>(cells));
}

// Where the point at `at` will be dt from now (MacCormack's backward step), clamped as
// back_trace.
fn forward_trace(u: texture_storage_2d<r32float, read>, v: texture_storage_2d<r32float, read>, at: vec2<f32>, cells: vec2<u32>) -> vec2<f32> {
    let vel = velocity_at(u, v, at);
    return clamp(at + params.dt * vel, vec2<f32>(-1.0), vec2<f32>(cells));
}

// The smallest (x) and largest (y) of the four values bilinear() interpolates at `at`.
fn bilinear_bounds(f: texture_storage_2d<r32float, read>, at: vec2<f32>) -> vec2<f32> {
    let hi = vec2<i32>(textureDimensions(f)) - 1;
    let base = floor(at);
    let q0 = clamp(vec2<i32>(base), vec2<i32>(0), hi);
    let q1 = clamp(vec2<i32>(base) + 1, vec2<i32>(0), hi);
    let a = textureLoad(f, q0).r;
    let b = textureLoad(f, vec2<i32>(q1.x, q0.y)).r;
    let c = textureLoad(f, vec2<i32>(q0.x, q1.y)).r;
    let d = textureLoad(f, q1).r;
    return vec2<f32>(min(min(a, b), min(c, d)), max(max(a, b), max(c, d)));
}

// bilinear() for an rgba32float field (the dye), channel by channel.
fn bilinear_rgba(f: texture_storage_2d<rgba32float, read>, at: vec2<f32>) -> vec4<f32> {
    let hi = vec2<i32>(textureDimensions(f)) - 1;
    let base = floor(at);
    let t = at - base;
    let q0 = clamp(vec2<i32>(base), vec2<i32>(0), hi);
    let q1 = clamp(vec2<i32>(base) + 1, vec2<i32>(0), hi);
    let top = textureLoad(f, q0) * (1.0 - t.x) + textureLoad(f, vec2<i32>(q1.x, q0.y)) * t.x;
    let bottom = textureLoad(f, vec2<i32>(q0.x, q1.y)) * (1.0 - t.x) + textureLoad(f, q1) * t.x;
    return top * (1.0 - t.y) + bottom * t.y;
}

// bilinear_bounds() for an rgba32float field: the smallest and largest of each channel.
fn bilinear_bounds_rgba(f: texture_storage_2d<rgba32float, read>, at: vec2<f32>) -> array<vec4<f32>, 2> {
    let hi = vec2<i32>(textureDimensions(f)) - 1;
    let base = floor(at);
    let q0 = clamp(vec2<i32>(base), vec2<i32>(0), hi);
    let q1 = clamp(vec2<i32>(base) + 1, vec2<i32>(0), hi);
    let a = textureLoad(f, q0);
    let b = textureLoad(f, vec2<i32>(q1.x, q0.y));
    let c = textureLoad(f, vec2<i32>(q0.x, q1.y));
    let d = textureLoad(f, q1);
    return array<vec4<f32>, 2>(min(min(a, b), min(c, d)), max(max(a, b), max(c, d)));
}
