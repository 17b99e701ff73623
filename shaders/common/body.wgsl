// Rigid bodies, shared by the passes that rasterise them and give faces their
// velocity. Coordinates in cells from the top-left corner (x right, y down; cell (r, c)'s
// centre at (c + 0.5, r + 0.5)), angles in radians from x towards y.
// CPU mirror: `Body`, `GpuBody` in src/body/mod.rs (the same arithmetic in the same order).

struct Body {
    centre: vec2<f32>,   // cells
    velocity: vec2<f32>, // cells per time unit
    angle: f32,          // radians
    spin: f32,           // radians per time unit
    size: vec2<f32>,     // a circle's (radius, 0), a box's (half width, half height)
    kind: u32,           // 0 circle, 1 box
    reach2: f32,         // beyond this squared distance from the centre no point is inside (with a margin)
    density: f32,        // a free body's, relative to the fluid's; 0: driven (keeps its velocity)
    accel_x: f32,        // a free body's acceleration over its last step, cells per time unit^2
    accel_y: f32,
    accel_spin: f32,     // radians per time unit^2
    _pad1: u32,
    _pad2: u32,
};

const BODY_CIRCLE: u32 = 0u;

// Whether point q (cells) is inside body b, its boundary included.
fn body_contains(b: Body, q: vec2<f32>) -> bool {
    let dx = q.x - b.centre.x;
    let dy = q.y - b.centre.y;
    // Most points are far from every body: out, without the rotation (the CPU mirror rotates
    // every point; reach2's margin makes the answer the same).
    if dx * dx + dy * dy > b.reach2 {
        return false;
    }
    if b.kind == BODY_CIRCLE {
        return dx * dx + dy * dy <= b.size.x * b.size.x;
    }
    let s = sin(b.angle);
    let c = cos(b.angle);
    let lx = c * dx + s * dy;
    let ly = c * dy - s * dx;
    return abs(lx) <= b.size.x && abs(ly) <= b.size.y;
}

// The rigid motion's velocity at point q: (vx - spin (qy - y), vy + spin (qx - x)).
fn body_velocity(b: Body, q: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(b.velocity.x - b.spin * (q.y - b.centre.y), b.velocity.y + b.spin * (q.x - b.centre.x));
}

// Body b after dt time units of its motion: centre += dt velocity, angle += dt spin.
// CPU mirror: `Body::advance`.
fn body_advanced(b: Body, dt: f32) -> Body {
    var out = b;
    out.centre.x = b.centre.x + b.velocity.x * dt;
    out.centre.y = b.centre.y + b.velocity.y * dt;
    out.angle = b.angle + b.spin * dt;
    return out;
}

// The cells the body passes cover this step (all that the bodies cover, covered, or cross, with
// a margin; written on the CPU, `StaggeredPasses::plan_bodies`): one invocation a cell of it.
// Either one rectangle (`per_body` 0: from `origin`, `size` cells), or a square of `size` cells
// around each body (`per_body` 1: the dispatch's z is the body, the square's corner `half`
// cells up and left of the cell holding its centre, where the body is now), whichever has fewer
// cells: a few bodies in a large grid cover a small part of it, and a free body can be anywhere.
struct BodyRect {
    origin: vec2<i32>,
    size: vec2<u32>,
    half: i32,
    per_body: u32,
    _pad0: u32,
    _pad1: u32,
};

// The cell of invocation `id` of a body pass over `rect`, for bodies `bodies`.
fn body_rect_cell(rect: BodyRect, b: Body, id: vec3<u32>) -> vec2<i32> {
    if rect.per_body != 0u {
        return vec2<i32>(floor(b.centre)) - vec2<i32>(rect.half) + vec2<i32>(id.xy);
    }
    return rect.origin + vec2<i32>(id.xy);
}
