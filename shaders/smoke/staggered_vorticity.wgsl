// Staggered smoke pass, vorticity confinement's first half (Fedkiw, Stam & Jensen, "Visual
// Simulation of Smoke", SIGGRAPH 2001, eq. 9): the curl w = dv/dx - du/dy at every cell centre,
// by central differences of the cell-centre velocity (face means), per cell: a solid or
// outside neighbour reads the centre's own velocity (one-sided there); 0 in solids. Written to
// the vorticity texture, which the `vorticity` view also draws (per time unit).
// CPU mirror: `vorticity` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(4) var vorticity: texture_storage_2d<r32float, write>;

fn centre(q: vec2<i32>) -> vec2<f32> {
    return vec2<f32>(centre_u(q), centre_v(q));
}

// The components of centre(q) one at a time: a neighbour's difference reads only one.
fn centre_u(q: vec2<i32>) -> f32 {
    return 0.5 * textureLoad(u, q).r + 0.5 * textureLoad(u, q + RIGHT).r;
}

fn centre_v(q: vec2<i32>) -> f32 {
    return 0.5 * textureLoad(v, q).r + 0.5 * textureLoad(v, q + DOWN).r;
}

// The neighbour at p + d's centre u (or v, `vertical`): the cell's own where the neighbour is
// solid or outside.
fn neighbour(p: vec2<i32>, d: vec2<i32>, own: f32, vertical: bool) -> f32 {
    if !open_at(solid, p + d) {
        return own;
    }
    if vertical {
        return centre_v(p + d);
    }
    return centre_u(p + d);
}

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let cells = textureDimensions(solid);
    let p = vec2<i32>(id.xy);
    if !inside(p, cells) {
        return;
    }
    var w = 0.0;
    if !has(textureLoad(solid, p).r, SOLID) {
        let own = centre(p);
        let dv_dx = 0.5 * (neighbour(p, RIGHT, own.y, true) - neighbour(p, LEFT, own.y, true));
        let du_dy = 0.5 * (neighbour(p, DOWN, own.x, false) - neighbour(p, UP, own.x, false));
        w = dv_dx - du_dy;
    }
    textureStore(vorticity, p, vec4<f32>(w, 0.0, 0.0, 0.0));
}
