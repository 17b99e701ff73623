// Uses: common/grid.wgsl (inside); solver/level.wgsl (WALL, edge, edge_open, side_of).
// Multigrid: every level from the first coarse one down, in one dispatch of one workgroup. The
// coarse levels' passes are tiny (32x32 cells and less) and many (40 red-black sweeps of the
// coarsest alone, 80 dispatches a V-cycle), so one dispatch each costs more in launching and
// barriers than in work. Here one workgroup keeps those levels' pressure and right-hand side
// in workgroup memory and runs the V-cycle's passes on them in the CPU mirror's order:
// `sweeps(pre)`, then restrict (the residual's sum over the open children, pressure 0) to the
// next level, ... the coarsest's sweeps, then back up: prolong, `sweeps(post)`. The same
// arithmetic as the packed levels' passes (smooth_quad.wgsl, restrict_cells.wgsl,
// prolong_cells.wgsl), cell by cell; a barrier between passes. The first coarse level's pressure is read from and written back to
// its texture; the coarser ones start at 0 each cycle and live only here.
// CPU mirror: `Multigrid::cycle` from the first coarse level (src/solver/multigrid.rs).

struct Coarse {
    levels: u32,    // coarse levels, the first one's textures bound below
    pre: u32,       // sweeps before restricting
    post: u32,      // sweeps after the correction
    coarsest: u32,  // sweeps on the coarsest level
};

// Cells the workgroup holds, over all coarse levels (src/solver/gpu.rs: COARSE_CELLS).
const CAPACITY: u32 = 1536u;
const THREADS: u32 = 256u;

@group(0) @binding(0) var<uniform> coarse: Coarse;
// Per coarse level (first to coarsest): width, height, where its cells start in `walls` and in
// the workgroup arrays, and how the next level lies on it (`Offset`: bit 0 along the columns,
// bit 1 along the rows).
@group(0) @binding(1) var<storage, read> shapes: array<vec4<u32>>;
// Every coarse level's wall bits (gpu::wall_bits: bit 0 wall, bits 1-4 up, left, right, down);
// the first level's are copied in from its texture (`first_walls`) as the kernel starts.
@group(0) @binding(2) var<storage, read_write> walls: array<u32>;
// Per coarse level: what the cell beyond each held edge reads (`Level::ghosts`, level.wgsl).
@group(0) @binding(3) var<storage, read> ghosts: array<vec4<f32>>;
@group(0) @binding(4) var pressure: texture_storage_2d<r32float, read_write>;
@group(0) @binding(5) var rhs: texture_storage_2d<r32float, read>;
// The first level's walls: the texture every writer of walls keeps current (the CPU's uploads,
// coarsen_walls.wgsl, and on the finest level the smoke's solver-walls pass for moving bodies,
// which does not reach this buffer).
@group(0) @binding(6) var first_walls: texture_storage_2d<r32uint, read>;

var<workgroup> p: array<f32, CAPACITY>;
var<workgroup> b: array<f32, CAPACITY>;

// How level l + 1 lies on level l (`Offset`), as (columns, rows).
fn lay(l: u32) -> vec2<u32> {
    let bits = shapes[l].w;
    return vec2<u32>(bits & 1u, bits >> 1u);
}

fn sweep(l: u32, colour: u32, t: u32) {
    let s = shapes[l];
    for (var i = t; i < s.x * s.y; i += THREADS) {
        let r = i / s.x;
        let c = i % s.x;
        let bits = walls[s.z + i];
        if (r + c) % 2u == colour && (bits & WALL) == 0u {
            var sum = 0.0;
            var count = 0.0;
            for (var k = 0u; k < 4u; k++) {
                if edge_open(bits, k) {
                    let q = vec2<i32>(i32(c), i32(r)) + edge(k);
                    if inside(q, s.xy) {
                        sum += p[s.z + u32(q.y) * s.x + u32(q.x)];
                        count += 1.0;
                    } else {
                        count += 1.0 + ghosts[l][side_of(k)];
                    }
                }
            }
            if count > 0.0 {
                p[s.z + i] = (sum - b[s.z + i]) / count;
            }
        }
    }
    workgroupBarrier();
}

fn sweeps(l: u32, n: u32, t: u32) {
    for (var k = 0u; k < n; k++) {
        sweep(l, 0u, t);
        sweep(l, 1u, t);
    }
}

// b - A p at cell (r, c) of level l, 0 in walls (`residual_at`, restrict_cells.wgsl).
fn residual(l: u32, r: u32, c: u32) -> f32 {
    let s = shapes[l];
    let i = s.z + r * s.x + c;
    let bits = walls[i];
    if (bits & WALL) != 0u {
        return 0.0;
    }
    let centre = p[i];
    var lap = 0.0;
    for (var k = 0u; k < 4u; k++) {
        if edge_open(bits, k) {
            let q = vec2<i32>(i32(c), i32(r)) + edge(k);
            if inside(q, s.xy) {
                lap += p[s.z + u32(q.y) * s.x + u32(q.x)] - centre;
            } else {
                lap += -ghosts[l][side_of(k)] * centre - centre;
            }
        }
    }
    return b[i] - lap;
}

// The residual of level l summed onto level l + 1, whose pressure starts at 0 (restrict_cells.wgsl).
fn restrict_to(l: u32, t: u32) {
    let f = shapes[l];
    let s = shapes[l + 1u];
    let o = lay(l);
    for (var i = t; i < s.x * s.y; i += THREADS) {
        let r = i / s.x;
        let c = i % s.x;
        var sum = 0.0;
        for (var di = 0u; di < 2u; di++) {
            for (var dj = 0u; dj < 2u; dj++) {
                // Unsigned: a child before the level's first row (column) wraps past its end.
                let fr = 2u * r + di - o.y;
                let fc = 2u * c + dj - o.x;
                if fr < f.y && fc < f.x && (walls[f.z + fr * f.x + fc] & WALL) == 0u {
                    sum += residual(l, fr, fc);
                }
            }
        }
        b[s.z + i] = sum;
        p[s.z + i] = 0.0;
    }
    workgroupBarrier();
}

// Level l + 1's pressure added to its children's at open cells of level l (prolong_cells.wgsl).
fn prolong_from(l: u32, t: u32) {
    let f = shapes[l];
    let s = shapes[l + 1u];
    let o = lay(l);
    for (var i = t; i < f.x * f.y; i += THREADS) {
        let r = i / f.x;
        let c = i % f.x;
        if (walls[f.z + i] & WALL) == 0u {
            p[f.z + i] = p[f.z + i] + p[s.z + ((r + o.y) / 2u) * s.x + (c + o.x) / 2u];
        }
    }
    workgroupBarrier();
}

@compute @workgroup_size(256, 1)
fn main(@builtin(local_invocation_index) t: u32) {
    let first = shapes[0];
    for (var i = t; i < first.x * first.y; i += THREADS) {
        let q = vec2<i32>(i32(i % first.x), i32(i / first.x));
        p[i] = textureLoad(pressure, q).r;
        b[i] = textureLoad(rhs, q).r;
        walls[i] = textureLoad(first_walls, q).r;
    }
    storageBarrier();
    workgroupBarrier();
    let last = coarse.levels - 1u;
    for (var l = 0u; l < last; l++) {
        sweeps(l, coarse.pre, t);
        restrict_to(l, t);
    }
    sweeps(last, coarse.coarsest, t);
    for (var l = last; l > 0u; l--) {
        prolong_from(l - 1u, t);
        sweeps(l - 1u, coarse.post, t);
    }
    for (var i = t; i < first.x * first.y; i += THREADS) {
        let q = vec2<i32>(i32(i % first.x), i32(i / first.x));
        textureStore(pressure, q, vec4<f32>(p[i], 0.0, 0.0, 0.0));
    }
}
