// Uses: common/grid.wgsl (DOWN, UP, inside); smoke/faces.wgsl (open_at, open_row);
//   smoke/params.wgsl (SmokeParams).
// Staggered smoke pass, vorticity confinement's second part (Fedkiw, Stam & Jensen 2001, eq. 10
// and 11, with h = 1 cell): at each open cell the force f = eps (N_y w, -N_x w), N the unit
// vector along grad |w| (central differences, a solid or outside neighbour reading the cell's
// own |w|; no force where the gradient is below 1e-6 per cell), pushing the flow around the
// vortex it belongs to; 0 in solids. Into the scratch force texture (rg32float), which
// staggered_forces.wgsl averages onto the faces: each cell's force computed once, not once for
// each of the three faces that read it.
// One invocation a strip of STRIP cells along a row, which share their row's vorticity and
// solid bits: 28 texels loaded for 4 cells instead of 40.
// CPU mirror: `confinement_force` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var vorticity: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var force_out: texture_storage_2d<rg32float, write>;

// Cells an invocation (written out below); the dispatch is ceil(W / STRIP) x H
// (`StaggeredPasses::dispatch`).
const STRIP: i32 = 4;

// |w| at p + d where that cell is open, else `own`.
fn magnitude(p: vec2<i32>, d: vec2<i32>, own: f32) -> f32 {
    return select(own, abs(textureLoad(vorticity, p + d).r), open_at(solid, p + d));
}

// The force at cell p (open: `open_c`) from its row's w left, own and right (`w_*`, with whether
// the left and right cells are open).
fn force(p: vec2<i32>, open_l: bool, open_c: bool, open_r: bool, w_l: f32, w: f32, w_r: f32) -> vec4<f32> {
    var f = vec2<f32>(0.0);
    if open_c {
        let own = abs(w);
        let right = select(own, abs(w_r), open_r);
        let left = select(own, abs(w_l), open_l);
        let g = vec2<f32>(0.5 * (right - left), 0.5 * (magnitude(p, DOWN, own) - magnitude(p, UP, own)));
        let length = sqrt(g.x * g.x + g.y * g.y);
        if length >= 1e-6 {
            let n = g / length;
            f = params.vorticity * vec2<f32>(n.y * w, -n.x * w);
        }
    }
    return vec4<f32>(f, 0.0, 0.0);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cells = textureDimensions(solid);
    let p = vec2<i32>(i32(id.x) * STRIP, i32(id.y));
    if !inside(p, cells) {
        return;
    }
    // Row p.y from p.x - 1 to p.x + 4: whether each cell is open, and its w (loaded whether or not
    // it is used: a load outside the texture reads 0 or some texel of it, WGSL's rule, and then
    // nothing uses it). Written out, not as a loop over arrays (see `open_row`).
    let o = open_row(solid, p);
    let w0 = textureLoad(vorticity, p - vec2<i32>(1, 0)).r;
    let w1 = textureLoad(vorticity, p).r;
    let w2 = textureLoad(vorticity, p + vec2<i32>(1, 0)).r;
    let w3 = textureLoad(vorticity, p + vec2<i32>(2, 0)).r;
    let w4 = textureLoad(vorticity, p + vec2<i32>(3, 0)).r;
    let w5 = textureLoad(vorticity, p + vec2<i32>(4, 0)).r;
    // A strip reaching past the grid's last column writes only the cells inside it.
    let last = i32(cells.x) - 1 - p.x;
    textureStore(force_out, p, force(p, o.o0, o.o1, o.o2, w0, w1, w2));
    if last >= 1 {
        textureStore(force_out, p + vec2<i32>(1, 0), force(p + vec2<i32>(1, 0), o.o1, o.o2, o.o3, w1, w2, w3));
    }
    if last >= 2 {
        textureStore(force_out, p + vec2<i32>(2, 0), force(p + vec2<i32>(2, 0), o.o2, o.o3, o.o4, w2, w3, w4));
    }
    if last >= 3 {
        textureStore(force_out, p + vec2<i32>(3, 0), force(p + vec2<i32>(3, 0), o.o3, o.o4, o.o5, w3, w4, w5));
    }
}
