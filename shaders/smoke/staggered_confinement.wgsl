// Staggered smoke pass, vorticity confinement's second part (Fedkiw, Stam & Jensen 2001, eq. 10
// and 11, with h = 1 cell): at each open cell the force f = eps (N_y w, -N_x w), N the unit
// vector along grad |w| (central differences, a solid or outside neighbour reading the cell's
// own |w|; no force where the gradient is below 1e-6 per cell), pushing the flow around the
// vortex it belongs to; 0 in solids. Into the scratch force texture (rg32float), which
// staggered_forces.wgsl averages onto the faces: each cell's force computed once, not once for
// each of the three faces that read it.
// CPU mirror: `confinement_force` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var vorticity: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var force_out: texture_storage_2d<rg32float, write>;

fn magnitude(p: vec2<i32>, d: vec2<i32>, own: f32) -> f32 {
    if open_at(solid, p + d) {
        return abs(textureLoad(vorticity, p + d).r);
    }
    return own;
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    if !inside(p, textureDimensions(solid)) {
        return;
    }
    var f = vec2<f32>(0.0);
    if !has(textureLoad(solid, p).r, SOLID) {
        let w = textureLoad(vorticity, p).r;
        let own = abs(w);
        let g = vec2<f32>(
            0.5 * (magnitude(p, RIGHT, own) - magnitude(p, LEFT, own)),
            0.5 * (magnitude(p, DOWN, own) - magnitude(p, UP, own)),
        );
        let length = sqrt(g.x * g.x + g.y * g.y);
        if length >= 1e-6 {
            let n = g / length;
            f = params.vorticity * vec2<f32>(n.y * w, -n.x * w);
        }
    }
    textureStore(force_out, p, vec4<f32>(f, 0.0, 0.0));
}
