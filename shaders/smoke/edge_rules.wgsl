// Uses: common/grid.wgsl (DOWN, LEFT, RIGHT, UP); smoke/edges.wgsl (EDGE_BOTTOM, EDGE_INFLOW,
//   EDGE_LEFT, EDGE_RIGHT, EDGE_SLIP, EDGE_TOP, EDGE_WALL, edge_kind); smoke/faces.wgsl (open_at);
//   smoke/params.wgsl (INFLOW_CUSTOM, INFLOW_UNIFORM, SOLID, body_id, has); the pass's bindings (params, solid).
// What the velocity's advection passes do with each face (edges.wgsl; they bind the velocity
// before the advection as `u` and `v`). CPU mirror: `FaceRule`, `u_rule`, `v_rule` in
// src/smoke/staggered/mod.rs.

// What the advection does with a face: advected, or held at `value`.
struct FaceRule {
    advected: bool,
    value: f32,
};

// The speed into the box of face `index` of the `count` along an inflow edge: uniform, or the
// parabola 6 s (1 - s), s = (index + 1/2) / count, over its mean at the faces' centres.
// CPU mirror: `SmokeParams::inflow_at` in src/smoke/params.rs.
fn inflow_at(index: i32, count: i32) -> f32 {
    if params.inflow_profile == INFLOW_UNIFORM {
        return params.inflow;
    }
    let n = f32(count);
    let s = (f32(index) + 0.5) / n;
    return params.inflow * (6.0 * s * (1.0 - s)) / (1.0 + 0.5 / (n * n));
}

// A face on edge `edge` beside a cell that is open or not; `sign` the edge's inward direction,
// `own` its velocity (a custom profile's inflow keeps it), `next` the velocity of the face one
// cell inside (an outflow's zero gradient), `index` of `count` its place along the edge.
fn edge_rule(edge: u32, inner_open: bool, sign: f32, own: f32, next: f32, index: i32, count: i32) -> FaceRule {
    let kind = edge_kind(edge);
    if !inner_open || kind == EDGE_WALL || kind == EDGE_SLIP {
        return FaceRule(false, 0.0);
    }
    if kind == EDGE_INFLOW && params.inflow_profile == INFLOW_CUSTOM {
        return FaceRule(false, own);
    }
    if kind == EDGE_INFLOW {
        return FaceRule(false, sign * inflow_at(index, count));
    }
    return FaceRule(false, next);
}

// A face inside the box between cells a and b, holding `value`: advected when both are open, else
// kept when beside a body's cell (it holds the body's velocity), else the wall's 0.
fn interior_rule(a: vec2<i32>, b: vec2<i32>, value: f32) -> FaceRule {
    let bits_a = textureLoad(solid, a).r;
    let bits_b = textureLoad(solid, b).r;
    if !has(bits_a, SOLID) && !has(bits_b, SOLID) {
        return FaceRule(true, 0.0);
    }
    return FaceRule(false, select(0.0, value, body_id(bits_a) != 0u || body_id(bits_b) != 0u));
}

// Vertical face p of (W + 1) x H.
fn u_rule(p: vec2<i32>) -> FaceRule {
    let w = i32(textureDimensions(solid).x);
    let h = i32(textureDimensions(solid).y);
    if p.x == 0 {
        return edge_rule(EDGE_LEFT, open_at(solid, p), 1.0, textureLoad(u, p).r, textureLoad(u, p + RIGHT).r, p.y, h);
    }
    if p.x == w {
        return edge_rule(EDGE_RIGHT, open_at(solid, p + LEFT), -1.0, textureLoad(u, p).r, textureLoad(u, p + LEFT).r, p.y, h);
    }
    return interior_rule(p, p + LEFT, textureLoad(u, p).r);
}

// Horizontal face p of W x (H + 1).
fn v_rule(p: vec2<i32>) -> FaceRule {
    let w = i32(textureDimensions(solid).x);
    let h = i32(textureDimensions(solid).y);
    if p.y == 0 {
        return edge_rule(EDGE_TOP, open_at(solid, p), 1.0, textureLoad(v, p).r, textureLoad(v, p + DOWN).r, p.x, w);
    }
    if p.y == h {
        return edge_rule(EDGE_BOTTOM, open_at(solid, p + UP), -1.0, textureLoad(v, p).r, textureLoad(v, p + UP).r, p.x, w);
    }
    return interior_rule(p, p + UP, textureLoad(v, p).r);
}
