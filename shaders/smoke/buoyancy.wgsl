// Smoke pass 2 of 6: buoyancy (GPU Gems 38.5; Rideout's ApplyBuoyancy). Where an open cell is
// warmer than ambient, v += dt ((T - T0) sigma - density kappa) up, with up = (0, -1) (y is
// down, row 0 at the top). Joyce's shader pushes along (1, 1); eddy pushes straight up.
// CPU mirror: `buoyancy` in src/smoke/cpu.rs.

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var velocity: texture_storage_2d<rg32float, read>;
@group(0) @binding(2) var temperature: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var density: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(5) var velocity_out: texture_storage_2d<rg32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(velocity);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    var v = textureLoad(velocity, p).xy;
    let t = textureLoad(temperature, p).r;
    if !has(textureLoad(solid, p).r, SOLID) && t > params.ambient_temperature {
        let rho = textureLoad(density, p).r;
        v.y -= params.dt * ((t - params.ambient_temperature) * params.buoyancy - rho * params.weight);
    }
    textureStore(velocity_out, p, vec4<f32>(v, 0.0, 0.0));
}
