// Uses: common/grid.wgsl (LEFT, UP, inside); smoke/faces.wgsl (open_at); smoke/params.wgsl
//   (SmokeParams).
// Staggered smoke pass, the forces on the faces in place (GPU Gems 38.3's "add forces", after
// the advection): vorticity confinement's force (staggered_confinement.wgsl's, per cell), then
// buoyancy, in that order on each face, so that each face is read and written once for both.
// - Confinement (when its eps is not 0): each open face gains dt times the mean of its two
//   cells' force component across it (Fedkiw, Stam & Jensen 2001, eq. 11).
// - Buoyancy, on every open v face (GPU Gems 38.5, as buoyancy.wgsl at the face): with T and d
//   the means of the cells above and below it, v += dt ((T - T0) sigma - d kappa) up where
//   T > T0, up = -y.
// One invocation per (col, row) of (W + 1) x (H + 1), the u face and the v face at that index
// where they exist.
// CPU mirror: `confinement` then `buoyancy` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var force: texture_storage_2d<rg32float, read>;
@group(0) @binding(4) var temperature: texture_storage_2d<r32float, read>;
@group(0) @binding(5) var density: texture_storage_2d<r32float, read>;
@group(0) @binding(6) var solid: texture_storage_2d<r32uint, read>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    let confined = params.vorticity != 0.0;
    let open_p = open_at(solid, p);
    // Only confinement acts on the u faces.
    let u_face = confined && open_p && inside(p, textureDimensions(u)) && open_at(solid, p + LEFT);
    let v_face = open_p && inside(p, textureDimensions(v)) && open_at(solid, p + UP);
    if !u_face && !v_face {
        return;
    }
    // Cell p's force, which both its faces read, once.
    var own = vec2<f32>(0.0);
    if confined {
        own = textureLoad(force, p).xy;
    }
    if u_face {
        let f = 0.5 * (textureLoad(force, p + LEFT).x + own.x);
        textureStore(u, p, vec4<f32>(textureLoad(u, p).r + params.dt * f, 0.0, 0.0, 0.0));
    }
    if v_face {
        var value = textureLoad(v, p).r;
        if confined {
            value += params.dt * (0.5 * (textureLoad(force, p + UP).y + own.y));
        }
        let t = 0.5 * (textureLoad(temperature, p + UP).r + textureLoad(temperature, p).r);
        if t > params.ambient_temperature {
            let rho = 0.5 * (textureLoad(density, p + UP).r + textureLoad(density, p).r);
            value -= params.dt * ((t - params.ambient_temperature) * params.buoyancy - rho * params.weight);
        }
        textureStore(v, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
}
