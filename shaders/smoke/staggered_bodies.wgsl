// Staggered smoke pass, the bodies rasterised (issue 24): each cell's solid bits from the walls
// (drawn or from the scene: `walls`, written on the CPU) and the bodies where they are now (a
// cell that is not a wall is covered by the first body holding its centre; bits 8..15 its index
// + 1), and each closed face inside the box beside a covered cell at that body's rigid velocity
// at the face's centre (the cell on the left or above first), a closed face beside walls only
// at 0. Open faces and the box's edge faces are left as they are.
// One invocation a cell (col, row) of W x H: the cell, and the u face on its left and the v face
// above it when those are inside the box.
// CPU mirror: `rasterise` in src/smoke/staggered/bodies.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var<storage, read> bodies: array<Body>;
@group(0) @binding(2) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, write>;
@group(0) @binding(4) var u: texture_storage_2d<r32float, write>;
@group(0) @binding(5) var v: texture_storage_2d<r32float, write>;

// 1 + the index of the first body holding the centre of cell q, or 0 (also for walls and
// cells outside the grid, whose `solid` says the rest).
fn cover(q: vec2<i32>) -> u32 {
    if !inside(q, textureDimensions(walls)) || has(textureLoad(walls, q).r, SOLID) {
        return 0u;
    }
    let centre = vec2<f32>(f32(q.x) + 0.5, f32(q.y) + 0.5);
    for (var i = 0u; i < params.bodies; i++) {
        if body_contains(bodies[i], centre) {
            return i + 1u;
        }
    }
    return 0u;
}

// Whether cell q is solid: outside the grid, a wall, or covered by a body (`id`, its cover).
fn solid_at(q: vec2<i32>, id: u32) -> bool {
    return !inside(q, textureDimensions(walls)) || has(textureLoad(walls, q).r, SOLID) || id != 0u;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(walls);
    let p = vec2<i32>(id.xy);
    if !inside(p, size) {
        return;
    }
    let here = cover(p);
    let left = cover(p + LEFT);
    let up = cover(p + UP);
    let right = cover(p + RIGHT);
    let down = cover(p + DOWN);
    let solid_here = solid_at(p, here);
    let solid_left = solid_at(p + LEFT, left);
    let solid_up = solid_at(p + UP, up);
    var bits = select(0u, SOLID, solid_here)
        | select(0u, SOLID_LEFT, solid_left)
        | select(0u, SOLID_RIGHT, solid_at(p + RIGHT, right))
        | select(0u, SOLID_UP, solid_up)
        | select(0u, SOLID_DOWN, solid_at(p + DOWN, down))
        | (textureLoad(walls, p).r & SOURCE)
        | (here << BODY_SHIFT);
    textureStore(solid, p, vec4<u32>(bits, 0u, 0u, 0u));
    // The u face on the left of this cell, between it and the cell on the left.
    if p.x > 0 && (solid_left || solid_here) {
        let body = select(here, left, left != 0u);
        var value = 0.0;
        if body != 0u {
            value = body_velocity(bodies[body - 1u], vec2<f32>(f32(p.x), f32(p.y) + 0.5)).x;
        }
        textureStore(u, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
    // The v face above this cell.
    if p.y > 0 && (solid_up || solid_here) {
        let body = select(here, up, up != 0u);
        var value = 0.0;
        if body != 0u {
            value = body_velocity(bodies[body - 1u], vec2<f32>(f32(p.x) + 0.5, f32(p.y))).y;
        }
        textureStore(v, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
}
