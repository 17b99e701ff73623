// Staggered smoke pass: buoyancy on the horizontal faces, in place (GPU Gems 38.5, as
// buoyancy.wgsl at the face). On every open v face, with T and d the means of the cells above
// and below it, v += dt ((T - T0) sigma - d kappa) up where T > T0, up = -y.
// CPU mirror: `buoyancy` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var v: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var temperature: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var density: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    if !inside(p, textureDimensions(v)) || !open_at(solid, p + UP) || !open_at(solid, p) {
        return;
    }
    let t = 0.5 * (textureLoad(temperature, p + UP).r + textureLoad(temperature, p).r);
    if t > params.ambient_temperature {
        let rho = 0.5 * (textureLoad(density, p + UP).r + textureLoad(density, p).r);
        let value = textureLoad(v, p).r - params.dt * ((t - params.ambient_temperature) * params.buoyancy - rho * params.weight);
        textureStore(v, p, vec4<f32>(value, 0.0, 0.0, 0.0));
    }
}
