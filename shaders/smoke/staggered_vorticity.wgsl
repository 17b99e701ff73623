// Uses: common/grid.wgsl (DOWN, RIGHT, UP, inside); smoke/faces.wgsl (open_at, open_row);
//   smoke/params.wgsl (SmokeParams).
// Staggered smoke pass, vorticity confinement's first half (Fedkiw, Stam & Jensen, "Visual
// Simulation of Smoke", SIGGRAPH 2001, eq. 9): the curl w = dv/dx - du/dy at every cell centre,
// by central differences of the cell-centre velocity (face means), per cell: a solid or
// outside neighbour reads the centre's own velocity (one-sided there); 0 in solids. Written to
// the vorticity texture, which the `vorticity` view also draws (per time unit).
// One invocation a strip of STRIP cells along a row, which share the faces and solid bits
// between them: 41 distinct texels loaded for 4 cells instead of 68 one cell an invocation.
// CPU mirror: `vorticity` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var vorticity: texture_storage_2d<r32float, write>;

// Cells an invocation (written out below); the dispatch is ceil(W / STRIP) x H
// (`StaggeredPasses::encode_vorticity`).
const STRIP: i32 = 4;

// The mean of u's faces q and q + RIGHT: cell q's centre u.
fn centre_u(q: vec2<i32>) -> f32 {
    return 0.5 * textureLoad(u, q).r + 0.5 * textureLoad(u, q + RIGHT).r;
}

// The curl at open cell p (`open_c`) from its row's centre v left, own and right (`cv_*`, with
// whether the left and right cells are open) and its u faces left and right.
fn curl(p: vec2<i32>, open_l: bool, open_c: bool, open_r: bool, cv_l: f32, cv_c: f32, cv_r: f32, face_l: f32,
        face_r: f32) -> f32 {
    if !open_c {
        return 0.0;
    }
    let own = vec2<f32>(0.5 * face_l + 0.5 * face_r, cv_c);
    let right = select(own.y, cv_r, open_r);
    let left = select(own.y, cv_l, open_l);
    let down = select(own.x, centre_u(p + DOWN), open_at(solid, p + DOWN));
    let up = select(own.x, centre_u(p + UP), open_at(solid, p + UP));
    return 0.5 * (right - left) - 0.5 * (down - up);
}

// The mean of v's faces q and q + DOWN: cell q's centre v.
fn centre_v(q: vec2<i32>) -> f32 {
    return 0.5 * textureLoad(v, q).r + 0.5 * textureLoad(v, q + DOWN).r;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cells = textureDimensions(solid);
    let p = vec2<i32>(i32(id.x) * STRIP, i32(id.y));
    if !inside(p, cells) {
        return;
    }
    // Row p.y from p.x - 1 to p.x + 4: whether each cell is open, its centre v, and its u faces
    // (loaded whether or not they are used: a load outside the texture reads 0 or some texel
    // of it, WGSL's rule, and then nothing uses it). Written out, not as a loop over arrays
    // (see `open_row`).
    let o = open_row(solid, p);
    let c0 = centre_v(p - vec2<i32>(1, 0));
    let c1 = centre_v(p);
    let c2 = centre_v(p + vec2<i32>(1, 0));
    let c3 = centre_v(p + vec2<i32>(2, 0));
    let c4 = centre_v(p + vec2<i32>(3, 0));
    let c5 = centre_v(p + vec2<i32>(4, 0));
    let f0 = textureLoad(u, p).r;
    let f1 = textureLoad(u, p + vec2<i32>(1, 0)).r;
    let f2 = textureLoad(u, p + vec2<i32>(2, 0)).r;
    let f3 = textureLoad(u, p + vec2<i32>(3, 0)).r;
    let f4 = textureLoad(u, p + vec2<i32>(4, 0)).r;
    // A strip reaching past the grid's last column writes only the cells inside it.
    let last = i32(cells.x) - 1 - p.x;
    textureStore(vorticity, p, vec4<f32>(curl(p, o.o0, o.o1, o.o2, c0, c1, c2, f0, f1), 0.0, 0.0, 0.0));
    if last >= 1 {
        let q = p + vec2<i32>(1, 0);
        textureStore(vorticity, q, vec4<f32>(curl(q, o.o1, o.o2, o.o3, c1, c2, c3, f1, f2), 0.0, 0.0, 0.0));
    }
    if last >= 2 {
        let q = p + vec2<i32>(2, 0);
        textureStore(vorticity, q, vec4<f32>(curl(q, o.o2, o.o3, o.o4, c2, c3, c4, f2, f3), 0.0, 0.0, 0.0));
    }
    if last >= 3 {
        let q = p + vec2<i32>(3, 0);
        textureStore(vorticity, q, vec4<f32>(curl(q, o.o3, o.o4, o.o5, c3, c4, c5, f3, f4), 0.0, 0.0, 0.0));
    }
}
