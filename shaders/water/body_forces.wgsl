// Uses: common/body.wgsl (Body, body_contains); common/force_log.wgsl (FORCE_LOG_STEPS,
//   ForceLog, LOGGED_BODIES); water/body_region.wgsl (BodyRegion); water/params.wgsl (SOLID_BODY,
//   SOLID_SELF, WaterParams).
// Water pass, the bodies' forces: for each body, Archimedes' force in a hydrostatic pressure
// under a surface running straight between the water's levels beside it (src/water/bodies.rs,
// module docs): the levels from the open columns left and right of its reach (from the row
// below the body, or the first open cell above it, up to the first cell that is not full,
// filled from its bottom to its mass), then
// F = g S (l', -1) with S the area of its cells under that surface, applied at their centroid.
// Written into the force log's slot for this step (`head`), as smoke's forces pass does. One
// workgroup a body: invocation 0 finds the levels, all 64 sum the cells of the body's square.
// CPU mirror: `level`, `column_level` and `forces` in src/water/bodies.rs (the sums in another
// order: the tests allow for rounding).

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var<uniform> region: BodyRegion;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(2) var<uniform> bodies: array<Body, 16>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var mass: texture_storage_2d<rgba32float, read>;
@group(0) @binding(5) var<storage, read_write> force_log: ForceLog;

// How far outside a body's columns the levels are looked for (LEVEL_REACH).
const LEVEL_REACH: i32 = 4;
const PI: f32 = 3.14159265;

var<workgroup> levels: vec4<f32>; // (x_left, level_left, x_right, level_right)
var<workgroup> found: u32;
var<workgroup> sums: array<vec3<f32>, 64>;

fn height() -> i32 {
    return i32(textureDimensions(solid).y);
}

// Whether cell q is open: inside the grid, neither wall nor a body's (the step's displacement,
// water/bodies.wgsl, marked the bodies' cells in the solid bits).
fn open(q: vec2<i32>) -> bool {
    if q.x < 0 || q.y < 0 || q.x >= i32(params.width) || q.y >= height() {
        return false;
    }
    return (textureLoad(solid, q).r & (SOLID_SELF | SOLID_BODY)) == 0u;
}

// Whether body i is the first body holding the centre of cell q, a body's cell.
fn first_holder(q: vec2<i32>, i: u32) -> bool {
    let centre = vec2<f32>(f32(q.x) + 0.5, f32(q.y) + 0.5);
    for (var j = 0u; j < i; j++) {
        if body_contains(bodies[j], centre) {
            return false;
        }
    }
    return body_contains(bodies[i], centre);
}

fn cell_mass(q: vec2<i32>) -> f32 {
    return abs(textureLoad(mass, vec2<i32>(q.x / 4, q.y))[q.x % 4]);
}

// column_level: the level in column c seen from row `below` up, from the first open cell at or
// above it; a negative value for none.
fn column_level(c: i32, below: i32) -> f32 {
    if c < 0 || c >= i32(params.width) {
        return -1.0;
    }
    var start = min(below, height() - 1);
    while start >= 0 && !open(vec2<i32>(c, start)) {
        start -= 1;
    }
    if start < 0 {
        return -1.0;
    }
    var r = start;
    while r >= 0 && open(vec2<i32>(c, r)) {
        let m = cell_mass(vec2<i32>(c, r));
        if m < params.max_mass {
            return f32(r) + 1.0 - m / params.max_mass;
        }
        r -= 1;
    }
    return f32(r) + 1.0;
}

// The body's reach: a circle's radius, a box's half diagonal (`Body::reach`).
fn reach_of(b: Body) -> f32 {
    if b.kind == BODY_CIRCLE {
        return b.size.x;
    }
    return sqrt(b.size.x * b.size.x + b.size.y * b.size.y);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let i = wid.x;
    // (region.count is the same for the whole workgroup: the barriers below are uniform.)
    if i >= region.count {
        return;
    }
    let b = bodies[i];
    let reach = reach_of(b);
    if lid == 0u {
        let below = i32(floor(b.centre.y + reach)) + 1;
        var left = vec2<f32>(0.0, -1.0);
        var right = vec2<f32>(0.0, -1.0);
        let first_left = i32(floor(b.centre.x - reach)) - 1;
        for (var k = 0; k < LEVEL_REACH; k++) {
            let l = column_level(first_left - k, below);
            if l >= 0.0 {
                left = vec2<f32>(f32(first_left - k) + 0.5, l);
                break;
            }
        }
        let first_right = i32(floor(b.centre.x + reach)) + 1;
        for (var k = 0; k < LEVEL_REACH; k++) {
            let l = column_level(first_right + k, below);
            if l >= 0.0 {
                right = vec2<f32>(f32(first_right + k) + 0.5, l);
                break;
            }
        }
        found = 1u;
        if left.y < 0.0 && right.y < 0.0 {
            found = 0u;
        } else if left.y < 0.0 {
            left = vec2<f32>(right.x - 1.0, right.y);
        } else if right.y < 0.0 {
            right = vec2<f32>(left.x + 1.0, left.y);
        }
        levels = vec4<f32>(left, right);
    }
    workgroupBarrier();
    let lv = levels;
    let any_level = found != 0u;
    let slope = (lv.w - lv.y) / (lv.z - lv.x);
    // The body's square of cells, as the CPU mirror bounds it.
    let r0 = i32(max(floor(b.centre.y - reach), 0.0));
    let r1 = min(i32(ceil(b.centre.y + reach)) + 1, height());
    let c0 = i32(max(floor(b.centre.x - reach), 0.0));
    let c1 = min(i32(ceil(b.centre.x + reach)) + 1, i32(params.width));
    let cols = max(c1 - c0, 0);
    let cells = max(r1 - r0, 0) * cols;
    var sum = vec3<f32>(0.0);
    if any_level {
        for (var k = i32(lid); k < cells; k += 64) {
            let q = vec2<i32>(c0 + k % cols, r0 + k / cols);
            let bits = textureLoad(solid, q).r & (SOLID_SELF | SOLID_BODY);
            if bits == SOLID_BODY && first_holder(q, i) {
                let x = f32(q.x) + 0.5;
                let under = clamp(f32(q.y) + 1.0 - (lv.y + slope * (x - lv.x)), 0.0, 1.0);
                sum += vec3<f32>(under, under * x, under * (f32(q.y) + 0.5));
            }
        }
    }
    sums[lid] = sum;
    workgroupBarrier();
    for (var half = 32u; half > 0u; half >>= 1u) {
        if lid < half {
            sums[lid] += sums[lid + half];
        }
        workgroupBarrier();
    }
    if lid == 0u {
        let total = sums[0];
        let area = total.x;
        let fx = params.gravity * area * slope;
        let fy = -params.gravity * area;
        var torque = 0.0;
        if area > 0.0 {
            torque = (total.y / area - b.centre.x) * fy - (total.z / area - b.centre.y) * fx;
        }
        var force = vec4<f32>(fx, fy, torque, 0.0);
        if !any_level {
            force = vec4<f32>(0.0);
        }
        force_log.forces[(force_log.head % FORCE_LOG_STEPS) * LOGGED_BODIES + i] = force;
    }
}
