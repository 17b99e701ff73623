// Uses: common/grid.wgsl (DOWN, RIGHT); smoke/params.wgsl (lerp); the pass's bindings (params).
// Staggered grid sampling, shared by the staggered smoke passes. Positions are continuous cell
// coordinates (x, y) = (col, row) with cell centres at whole numbers; vertical face u(col c,
// row r) sits at (c - 1/2, r), horizontal face v(c, r) at (c, r - 1/2).
// CPU mirror: `velocity_at`, `node_velocity`, `back_trace` and `forward_trace` in
// src/smoke/staggered/cpu.rs, `bilinear` in src/smoke/cpu.rs.

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

// The velocity at a node: bilinear() of u at (x + 1/2, y) and of v at (x, y + 1/2) there (the
// CPU's `velocity_at`), from the 4 or 5 texels it weighs by more than 0 instead of 8 (the others
// it weighs by 0, and x (1 - 0) + y 0 is x for finite y). At u face p, (p.x - 1/2, p.y): u at
// its own texel, v halfway between the four around it (clamped as bilinear() clamps).
fn u_node_velocity(u: texture_storage_2d<r32float, read>, v: texture_storage_2d<r32float, read>, p: vec2<i32>) -> vec2<f32> {
    let hi = vec2<i32>(textureDimensions(v)) - 1;
    let c0 = clamp(p.x - 1, 0, hi.x);
    let c1 = min(p.x, hi.x);
    let r1 = min(p.y + 1, hi.y);
    let top = lerp(textureLoad(v, vec2<i32>(c0, p.y)).r, textureLoad(v, vec2<i32>(c1, p.y)).r, 0.5);
    let bottom = lerp(textureLoad(v, vec2<i32>(c0, r1)).r, textureLoad(v, vec2<i32>(c1, r1)).r, 0.5);
    return vec2<f32>(textureLoad(u, p).r, lerp(top, bottom, 0.5));
}

// At v face p, (p.x, p.y - 1/2): u halfway between the four around it, v at its own texel.
fn v_node_velocity(u: texture_storage_2d<r32float, read>, v: texture_storage_2d<r32float, read>, p: vec2<i32>) -> vec2<f32> {
    let hi = vec2<i32>(textureDimensions(u)) - 1;
    let c1 = min(p.x + 1, hi.x);
    let r0 = clamp(p.y - 1, 0, hi.y);
    let r1 = min(p.y, hi.y);
    let top = lerp(textureLoad(u, vec2<i32>(p.x, r0)).r, textureLoad(u, vec2<i32>(c1, r0)).r, 0.5);
    let bottom = lerp(textureLoad(u, vec2<i32>(p.x, r1)).r, textureLoad(u, vec2<i32>(c1, r1)).r, 0.5);
    return vec2<f32>(lerp(top, bottom, 0.5), textureLoad(v, p).r);
}

// At cell centre p: the mean of its two faces on each axis.
fn cell_velocity(u: texture_storage_2d<r32float, read>, v: texture_storage_2d<r32float, read>, p: vec2<i32>) -> vec2<f32> {
    return vec2<f32>(lerp(textureLoad(u, p).r, textureLoad(u, p + RIGHT).r, 0.5),
                     lerp(textureLoad(v, p).r, textureLoad(v, p + DOWN).r, 0.5));
}

// Where the point at `at`, moving at `vel`, was dt ago, clamped to one cell beyond the grid of
// `cells` (W, H).
fn back_trace(at: vec2<f32>, vel: vec2<f32>, cells: vec2<u32>) -> vec2<f32> {
    return clamp(at - params.dt * vel, vec2<f32>(-1.0), vec2<f32>(cells));
}

// Where it will be dt from now (MacCormack's backward step), clamped as back_trace.
fn forward_trace(at: vec2<f32>, vel: vec2<f32>, cells: vec2<u32>) -> vec2<f32> {
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
