// What the velocity's advection passes do with each face (edges.wgsl; they bind the velocity
// before the advection as `u` and `v`). CPU mirror: `FaceRule`, `u_rule`, `v_rule` in
// src/smoke/staggered/mod.rs.

// What the advection does with a face: advected, or held at `value`.
struct FaceRule {
    advected: bool,
    value: f32,
};

// A face on edge `edge` beside a cell that is open or not; `sign` the edge's inward direction,
// `next` the velocity of the face one cell inside (an outflow's zero gradient).
fn edge_rule(edge: u32, inner_open: bool, sign: f32, next: f32) -> FaceRule {
    let kind = edge_kind(edge);
    if !inner_open || kind == EDGE_WALL {
        return FaceRule(false, 0.0);
    }
    if kind == EDGE_INFLOW {
        return FaceRule(false, sign * params.inflow);
    }
    return FaceRule(false, next);
}

// Vertical face p of (W + 1) x H.
fn u_rule(p: vec2<i32>) -> FaceRule {
    let w = i32(textureDimensions(solid).x);
    if p.x == 0 {
        return edge_rule(EDGE_LEFT, open_at(solid, p), 1.0, textureLoad(u, p + RIGHT).r);
    }
    if p.x == w {
        return edge_rule(EDGE_RIGHT, open_at(solid, p + LEFT), -1.0, textureLoad(u, p + LEFT).r);
    }
    return FaceRule(open_at(solid, p + LEFT) && open_at(solid, p), 0.0);
}

// Horizontal face p of W x (H + 1).
fn v_rule(p: vec2<i32>) -> FaceRule {
    let h = i32(textureDimensions(solid).y);
    if p.y == 0 {
        return edge_rule(EDGE_TOP, open_at(solid, p), 1.0, textureLoad(v, p + DOWN).r);
    }
    if p.y == h {
        return edge_rule(EDGE_BOTTOM, open_at(solid, p + UP), -1.0, textureLoad(v, p + UP).r);
    }
    return FaceRule(open_at(solid, p + UP) && open_at(solid, p), 0.0);
}
