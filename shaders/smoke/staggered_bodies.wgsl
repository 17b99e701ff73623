// Uses: common/body.wgsl (Body, BodyRect, body_contains, body_rect_cell); common/grid.wgsl (inside);
//   smoke/params.wgsl (BODY_SHIFT, SOLID, SmokeParams, has).
// Staggered smoke pass, the bodies rasterised, first of two: each cell's solid bits
// from the walls (drawn or from the scene: `walls`, written on the CPU) and the bodies where
// they are now: a cell that is not a wall is covered by the first body holding its centre
// (bit 0 set, bits 8..15 the body's index + 1). Bits 1..4 keep the walls' neighbours (only the
// collocated grid's passes read them, and it has no bodies). One invocation a cell of the rect
// (per body, a cell of a body's square: cells in two squares are written twice, the same bits).
// CPU mirror: `rasterise` in src/smoke/staggered/bodies.rs (its mask).

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var<uniform> rect: BodyRect;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(2) var<uniform> bodies: array<Body, 16>;
@group(0) @binding(3) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = body_rect_cell(rect, bodies[min(id.z, 15u)], id);
    if id.x >= rect.size.x || id.y >= rect.size.y || !inside(p, textureDimensions(walls)) {
        return;
    }
    var bits = textureLoad(walls, p).r;
    let centre = vec2<f32>(f32(p.x) + 0.5, f32(p.y) + 0.5);
    // Last to first, so the first body that holds the centre wins; the loop's control stays
    // the same for every invocation (faster on a CPU adapter than leaving it at the first hit).
    var covering = 0u;
    for (var i = params.bodies; i > 0u; i--) {
        // Most cells are far from every body: they read two of its fields, not all of it.
        let d = centre - bodies[i - 1u].centre;
        if dot(d, d) <= bodies[i - 1u].reach2 && body_contains(bodies[i - 1u], centre) {
            covering = i;
        }
    }
    if covering != 0u && !has(bits, SOLID) {
        bits |= SOLID | (covering << BODY_SHIFT);
    }
    textureStore(solid, p, vec4<u32>(bits, 0u, 0u, 0u));
}
