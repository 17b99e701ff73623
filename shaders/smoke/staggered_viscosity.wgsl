// Uses: common/grid.wgsl (DOWN, LEFT, RIGHT, UP, inside); smoke/edges.wgsl (EDGE_BOTTOM, EDGE_LEFT,
//   EDGE_RIGHT, EDGE_TOP, zero_gradient_edge); smoke/faces.wgsl (open_at); smoke/params.wgsl
//   (SmokeParams).
// Staggered smoke pass, one Jacobi iteration of the implicit viscous diffusion (GPU Gems 38.2),
// (1 + 4k) u - k sum(neighbours) = b with k = nu dt (cells^2). For each open face:
// x' = (b + k (sum of open neighbours + sum over ghosts of 2 U)) / (1 + k (4 + n_g)). A closed neighbour along the
// face's own axis holds the wall's normal velocity (its stored 0); a closed or outside
// neighbour across it is a no-slip wall half a cell away, ghost value 2 U - x, U = the lid's
// speed above the top row of u faces, the closed face's own velocity inside the grid (a body's,
// a wall's 0), else 0; n_g counts them; beyond an outflow edge the
// neighbour is the face itself (zero gradient, edges.wgsl), as beyond a slip edge. Closed faces keep x.
// One invocation per (col, row) of (W + 1) x (H + 1).
// CPU mirror: `viscosity_iteration` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var bu: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var bv: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var xu: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var xv: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(6) var u_out: texture_storage_2d<r32float, write>;
@group(0) @binding(7) var v_out: texture_storage_2d<r32float, write>;

fn u_face_open(q: vec2<i32>) -> bool {
    return open_at(solid, q + LEFT) && open_at(solid, q);
}

fn v_face_open(q: vec2<i32>) -> bool {
    return open_at(solid, q + UP) && open_at(solid, q);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    let k = params.viscosity_k;
    if inside(p, textureDimensions(xu)) {
        var value = textureLoad(xu, p).r;
        if u_face_open(p) {
            var sum = textureLoad(xu, p + LEFT).r + textureLoad(xu, p + RIGHT).r;
            var ghosts = 0.0;
            // Above (the top edge moves at the lid's speed), then below.
            if p.y - 1 >= 0 && u_face_open(p + UP) {
                sum += textureLoad(xu, p + UP).r;
            } else if p.y - 1 < 0 && zero_gradient_edge(EDGE_TOP) {
                sum += textureLoad(xu, p).r;
            } else {
                sum += 2.0 * select(textureLoad(xu, p + UP).r, params.lid, p.y - 1 < 0);
                ghosts += 1.0;
            }
            if p.y + 1 < i32(textureDimensions(xu).y) && u_face_open(p + DOWN) {
                sum += textureLoad(xu, p + DOWN).r;
            } else if p.y + 1 >= i32(textureDimensions(xu).y) && zero_gradient_edge(EDGE_BOTTOM) {
                sum += textureLoad(xu, p).r;
            } else {
                if p.y + 1 < i32(textureDimensions(xu).y) {
                    sum += 2.0 * textureLoad(xu, p + DOWN).r;
                }
                ghosts += 1.0;
            }
            value = (textureLoad(bu, p).r + k * sum) / (1.0 + k * (4.0 + ghosts));
        }
        textureStore(u_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
    if inside(p, textureDimensions(xv)) {
        var value = textureLoad(xv, p).r;
        if v_face_open(p) {
            var sum = textureLoad(xv, p + UP).r + textureLoad(xv, p + DOWN).r;
            var ghosts = 0.0;
            if p.x - 1 >= 0 && v_face_open(p + LEFT) {
                sum += textureLoad(xv, p + LEFT).r;
            } else if p.x - 1 < 0 && zero_gradient_edge(EDGE_LEFT) {
                sum += textureLoad(xv, p).r;
            } else {
                if p.x - 1 >= 0 {
                    sum += 2.0 * textureLoad(xv, p + LEFT).r;
                }
                ghosts += 1.0;
            }
            if p.x + 1 < i32(textureDimensions(xv).x) && v_face_open(p + RIGHT) {
                sum += textureLoad(xv, p + RIGHT).r;
            } else if p.x + 1 >= i32(textureDimensions(xv).x) && zero_gradient_edge(EDGE_RIGHT) {
                sum += textureLoad(xv, p).r;
            } else {
                if p.x + 1 < i32(textureDimensions(xv).x) {
                    sum += 2.0 * textureLoad(xv, p + RIGHT).r;
                }
                ghosts += 1.0;
            }
            value = (textureLoad(bv, p).r + k * sum) / (1.0 + k * (4.0 + ghosts));
        }
        textureStore(v_out, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
}
