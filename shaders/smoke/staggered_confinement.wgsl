// Staggered smoke pass, vorticity confinement's second half (Fedkiw, Stam & Jensen 2001, eq. 10
// and 11, with h = 1 cell): at each open cell the force f = eps (N_y w, -N_x w), N the unit
// vector along grad |w| (central differences, a solid or outside neighbour reading the cell's
// own |w|; no force where the gradient is below 1e-6 per cell), pushing the flow around the
// vortex it belongs to; each open face gains dt times the mean of its two cells' forces'
// component across it, in place. One invocation per (col, row) of (W + 1) x (H + 1).
// CPU mirror: `confinement_force` and `confinement` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var vorticity: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read>;

fn magnitude(p: vec2<i32>, d: vec2<i32>, own: f32) -> f32 {
    if open_at(solid, p + d) {
        return abs(textureLoad(vorticity, p + d).r);
    }
    return own;
}

fn force(p: vec2<i32>) -> vec2<f32> {
    let w = textureLoad(vorticity, p).r;
    let own = abs(w);
    let g = vec2<f32>(
        0.5 * (magnitude(p, RIGHT, own) - magnitude(p, LEFT, own)),
        0.5 * (magnitude(p, DOWN, own) - magnitude(p, UP, own)),
    );
    let length = sqrt(g.x * g.x + g.y * g.y);
    if length < 1e-6 {
        return vec2<f32>(0.0);
    }
    let n = g / length;
    return params.vorticity * vec2<f32>(n.y * w, -n.x * w);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    let open_p = open_at(solid, p);
    let u_face = open_p && inside(p, textureDimensions(u)) && open_at(solid, p + LEFT);
    let v_face = open_p && inside(p, textureDimensions(v)) && open_at(solid, p + UP);
    if !u_face && !v_face {
        return;
    }
    // Cell p's force, which both its faces read, once.
    let own = force(p);
    if u_face {
        let f = 0.5 * (force(p + LEFT).x + own.x);
        textureStore(u, p, vec4<f32>(textureLoad(u, p).r + params.dt * f, 0.0, 0.0, 0.0));
    }
    if v_face {
        let f = 0.5 * (force(p + UP).y + own.y);
        textureStore(v, p, vec4<f32>(textureLoad(v, p).r + params.dt * f, 0.0, 0.0, 0.0));
    }
}
