// Uses: common/body.wgsl (Body); common/force_log.wgsl (FORCE_LOG_STEPS, ForceLog, LOGGED_BODIES).
// Free bodies, after a model's forces pass: each free body's velocity and spin change under the
// fluid's force and torque just logged (the slot the forces pass wrote, before the head counts
// it) and gravity, by the added-mass-corrected coupling (src/body/dynamics.rs's module docs):
// (m + M) a' = F + W + M a, in the body's axes (M the ideal ellipse's added mass, at least the
// staircase's and, turning, a box's corners'); then the fastest point is held to max_step cells
// a step and a body whose centre reached an edge of the grid stops there (the contacts,
// src/body/contact.rs, keep its shape inside). Driven bodies (density 0) are left as they are.
// In water (`hydrostatic`) the pressure holds the buoyancy but does not answer the body's
// acceleration: (m + f M) v' = (m + f M) v + dt (F + s A g) - dt k v', f the displaced fraction
// the buoyancy gives, k the implicit rate of the quadratic drag (drag_coefficient) and of the
// waves' linear damping (damping_ratio of critical).
// One invocation a body.
// CPU mirror: `advance` in src/body/dynamics.rs.

struct Dynamics {
    dt: f32,
    gravity: f32,  // cells per time unit^2, down
    max_step: f32, // cells a step
    count: u32,    // bodies in the table
    size: vec2<f32>,
    hydrostatic: u32,       // 0: smoke's projected coupling; 1: water's hydrostatic one
    drag_coefficient: f32,  // C_d of the water's drag (hydrostatic only)
    damping_ratio: f32,     // zeta of the water's damping (hydrostatic only)
    turning_layer: f32,     // the staircase layer's share in the turning added mass
    _pad1: u32,
    _pad2: u32,
};

@group(0) @binding(0) var<uniform> d: Dynamics;
@group(0) @binding(1) var<storage, read_write> bodies: array<Body>;
@group(0) @binding(2) var<storage, read> force_log: ForceLog;

const PI: f32 = 3.14159265;

@compute @workgroup_size(16, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= d.count {
        return;
    }
    var b = bodies[id.x];
    let s = b.density;
    if s <= 0.0 {
        return;
    }
    let force = force_log.forces[(force_log.head % FORCE_LOG_STEPS) * LOGGED_BODIES + id.x].xyz;
    // Area, moment of inertia, and the added mass's estimate (Mx, My, M_turn).
    var area: f32;
    var inertia: f32;
    var mx: f32;
    var my: f32;
    var mt: f32;
    var reach: f32;
    var perimeter: f32;
    var corners: f32;
    if b.kind == BODY_CIRCLE {
        let r = b.size.x;
        area = PI * r * r;
        inertia = s * (0.5 * area * r * r);
        mx = area;
        my = area;
        mt = 0.0;
        reach = r;
        perimeter = 2.0 * PI * r;
        corners = 0.0;
    } else {
        let a = b.size.x;
        let c = b.size.y;
        area = 4.0 * a * c;
        let own = area * (a * a + c * c) / 3.0;
        inertia = s * own;
        let diff = a * a - c * c;
        mx = PI * c * c;
        my = PI * a * a;
        mt = PI * diff * diff / 8.0;
        reach = sqrt(a * a + c * c);
        perimeter = 4.0 * (a + c);
        corners = 0.5 * (0.5 * PI * reach * reach * reach * reach - own);
    }
    // At least what the cells' staircase carries.
    mx = max(mx, perimeter);
    my = max(my, perimeter);
    mt = max(max(mt, d.turning_layer * perimeter * reach * reach), corners);
    let m = s * area;
    let sn = sin(b.angle);
    let cs = cos(b.angle);
    let old = vec3<f32>(b.velocity, b.spin);
    var vx: f32;
    var vy: f32;
    var spin: f32;
    if d.hydrostatic == 0u {
        let fx = force.x;
        let fy = force.y + (s - 1.0) * area * d.gravity;
        let fbx = cs * fx + sn * fy;
        let fby = cs * fy - sn * fx;
        let abx = cs * b.accel_x + sn * b.accel_y;
        let aby = cs * b.accel_y - sn * b.accel_x;
        let nbx = (fbx + mx * abx) / (m + mx);
        let nby = (fby + my * aby) / (m + my);
        let new_turn = (force.z + mt * b.accel_spin) / (inertia + mt);
        vx = old.x + d.dt * (cs * nbx - sn * nby);
        vy = old.y + d.dt * (sn * nbx + cs * nby);
        spin = old.z + d.dt * new_turn;
    } else {
        var f = 0.0;
        if d.gravity > 0.0 {
            f = clamp(-force.y / (area * d.gravity), 0.0, 1.0);
        }
        let fx = force.x;
        let fy = force.y + s * area * d.gravity;
        let fbx = cs * fx + sn * fy;
        let fby = cs * fy - sn * fx;
        let vbx = cs * old.x + sn * old.y;
        let vby = cs * old.y - sn * old.x;
        let r = sqrt(area / PI);
        let k = d.drag_coefficient * f * r * sqrt(old.x * old.x + old.y * old.y);
        let kt = d.drag_coefficient * f * abs(old.z) * r * r * r * r / 4.0;
        let ex = m + f * mx;
        let ey = m + f * my;
        let et = inertia + f * mt;
        let z = 2.0 * d.damping_ratio * min(10.0 * f, 1.0);
        let kx = k + z * sqrt(d.gravity * 2.0 * r * ex);
        let ky = k + z * sqrt(d.gravity * 2.0 * r * ey);
        let kz = kt + z * sqrt(d.gravity * 8.0 * r * r * r / 12.0 * et);
        let nbx = (vbx + d.dt * fbx / ex) / (1.0 + d.dt * kx / ex);
        let nby = (vby + d.dt * fby / ey) / (1.0 + d.dt * ky / ey);
        spin = (old.z + d.dt * force.z / et) / (1.0 + d.dt * kz / et);
        vx = cs * nbx - sn * nby;
        vy = sn * nbx + cs * nby;
    }
    let fastest = (sqrt(vx * vx + vy * vy) + abs(spin) * reach) * d.dt;
    if fastest > d.max_step {
        let k = d.max_step / fastest;
        vx = vx * k;
        vy = vy * k;
        spin = spin * k;
    }
    if (b.centre.x <= 0.0 && vx < 0.0) || (b.centre.x >= d.size.x && vx > 0.0) {
        vx = 0.0;
    }
    if (b.centre.y <= 0.0 && vy < 0.0) || (b.centre.y >= d.size.y && vy > 0.0) {
        vy = 0.0;
    }
    b.accel_x = (vx - old.x) / d.dt;
    b.accel_y = (vy - old.y) / d.dt;
    b.accel_spin = (spin - old.z) / d.dt;
    b.velocity = vec2<f32>(vx, vy);
    b.spin = spin;
    bodies[id.x] = b;
}
