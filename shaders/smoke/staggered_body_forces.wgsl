// Uses: common/body.wgsl (Body); common/force_log.wgsl (FORCE_LOG_STEPS, ForceLog, LOGGED_BODIES);
//   common/grid.wgsl (DOWN, LEFT, RIGHT, UP, inside); smoke/params.wgsl (SOLID, SmokeParams,
//   body_id, has).
// Staggered smoke pass, after the projection: the fluid's force and torque on each body, the
// pressure and the viscous stress over the faces between the body's cells and open cells, as
// the step's own operators apply them (module docs of src/smoke/staggered/bodies.rs):
// - pressure: an open cell beside the body pushes on the face between them with p / (h dt)
//   (the solve's p, in velocity times h: u -= (p_b - p_a) / h is dt grad P for unit density);
// - shear: an open u face with a closed face of the body above or below it (the viscous
//   diffusion's no-slip ghost half a cell away) pulls it along x with 2 nu (u - U), U the closed
//   face's (the body's) velocity; an open v face beside one, along y;
// - normal stress: an open u face with a closed face of the body beside it along x (which the
//   diffusion reads as it is) pushes it with nu (u - U); a v face along y.
// Each piece applied at the face's centre gives the torque about the body's centre. One
// workgroup a body, its invocations striding over the cells and faces of a box around it, then
// adding up their sums in workgroup memory; the sum goes to the force log's current slot.
// CPU mirror: `forces` in src/smoke/staggered/bodies.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
// 16: MAX_BODIES in src/body/mod.rs (a test holds them equal).
@group(0) @binding(1) var<uniform> bodies: array<Body, 16>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var pressure: texture_storage_2d<r32float, read>;
@group(0) @binding(6) var<storage, read_write> force_log: ForceLog;

const THREADS: u32 = 64u;
var<workgroup> partial: array<vec3<f32>, 64>;
// This invocation's (fx, fy, torque), and the body's centre.
var<private> sum: vec3<f32>;
var<private> centre: vec2<f32>;

fn is_open(q: vec2<i32>) -> bool {
    return inside(q, textureDimensions(solid)) && !has(textureLoad(solid, q).r, SOLID);
}

// 1 + the index of the body covering cell q, 0 when none or outside the grid.
fn body_at(q: vec2<i32>) -> u32 {
    if !inside(q, textureDimensions(solid)) {
        return 0u;
    }
    return body_id(textureLoad(solid, q).r);
}

// The body beside the closed face between cells a and b: a's, else b's (0: none, a wall's).
fn beside(a: vec2<i32>, b: vec2<i32>) -> u32 {
    let first = body_at(a);
    return select(body_at(b), first, first != 0u);
}

fn add(at: vec2<f32>, f: vec2<f32>) {
    let d = at - centre;
    sum += vec3<f32>(f.x, f.y, d.x * f.y - d.y * f.x);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) lane: u32) {
    let i = group.x;
    let me = i + 1u;
    let size = vec2<i32>(textureDimensions(solid));
    centre = bodies[i].centre;
    let reach = sqrt(bodies[i].reach2) + 2.0;
    // Cells and faces from lo to hi (faces reach index W and H).
    let lo = max(vec2<i32>(floor(centre - reach)), vec2<i32>(0, 0));
    let hi = min(vec2<i32>(ceil(centre + reach)), size);
    let span = max(hi - lo + 1, vec2<i32>(0, 0));
    let nu = params.viscosity_k / params.dt;
    let to_pressure = 1.0 / (params.cell_size * params.dt);
    sum = vec3<f32>(0.0);
    let dirs = array<vec2<i32>, 4>(LEFT, RIGHT, UP, DOWN);
    for (var k = lane; k < u32(span.x * span.y); k += THREADS) {
        let q = lo + vec2<i32>(i32(k % u32(span.x)), i32(k / u32(span.x)));
        let cell = vec2<f32>(q) + 0.5;
        if is_open(q) {
            let pr = textureLoad(pressure, q).r * to_pressure;
            for (var n = 0; n < 4; n++) {
                if body_at(q + dirs[n]) == me {
                    add(cell + 0.5 * vec2<f32>(dirs[n]), pr * vec2<f32>(dirs[n]));
                }
            }
        }
        // The u face q (the left face of cell q), inside the box and open.
        if q.x >= 1 && q.x < size.x && q.y < size.y && is_open(q + LEFT) && is_open(q) {
            let x = textureLoad(u, q).r;
            for (var s = -1; s <= 1; s += 2) {
                let n = q + vec2<i32>(0, s);
                if n.y >= 0 && n.y < size.y && !(is_open(n + LEFT) && is_open(n)) && beside(n + LEFT, n) == me {
                    add(vec2<f32>(f32(q.x), cell.y + 0.5 * f32(s)), vec2<f32>(2.0 * nu * (x - textureLoad(u, n).r), 0.0));
                }
                let m = q + vec2<i32>(s, 0);
                if m.x >= 1 && m.x < size.x && !(is_open(m + LEFT) && is_open(m)) && beside(m + LEFT, m) == me {
                    add(vec2<f32>(f32(m.x), cell.y), vec2<f32>(nu * (x - textureLoad(u, m).r), 0.0));
                }
            }
        }
        // The v face q (the top face of cell q).
        if q.y >= 1 && q.y < size.y && q.x < size.x && is_open(q + UP) && is_open(q) {
            let y = textureLoad(v, q).r;
            for (var s = -1; s <= 1; s += 2) {
                let n = q + vec2<i32>(s, 0);
                if n.x >= 0 && n.x < size.x && !(is_open(n + UP) && is_open(n)) && beside(n + UP, n) == me {
                    add(vec2<f32>(cell.x + 0.5 * f32(s), f32(q.y)), vec2<f32>(0.0, 2.0 * nu * (y - textureLoad(v, n).r)));
                }
                let m = q + vec2<i32>(0, s);
                if m.y >= 1 && m.y < size.y && !(is_open(m + UP) && is_open(m)) && beside(m + UP, m) == me {
                    add(vec2<f32>(cell.x, f32(m.y)), vec2<f32>(0.0, nu * (y - textureLoad(v, m).r)));
                }
            }
        }
    }
    partial[lane] = sum;
    workgroupBarrier();
    for (var half = THREADS / 2u; half > 0u; half /= 2u) {
        if lane < half {
            partial[lane] += partial[lane + half];
        }
        workgroupBarrier();
    }
    if lane == 0u {
        force_log.forces[(force_log.head % FORCE_LOG_STEPS) * LOGGED_BODIES + i] = vec4<f32>(partial[0], 0.0);
    }
}
