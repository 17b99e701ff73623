// Smoke pass 3 of 6: impulse. Each open cell the impulse covers moves its temperature and
// density towards the impulse's by a weight a, x (1 - a) + value a, and gains a * velocity.
// Per step the impulse covers the scene's source cells (a = 1); a splat (the viewer's drags)
// covers a disc with Rideout's soft edge a = min((radius - d) / 2, 1).
// CPU mirror: `impulse` and `impulse_weight` in src/smoke/cpu.rs.

@group(0) @binding(0) var<uniform> impulse: Impulse;
@group(0) @binding(1) var velocity: texture_storage_2d<rg32float, read>;
@group(0) @binding(2) var temperature: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var density: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(5) var velocity_out: texture_storage_2d<rg32float, write>;
@group(0) @binding(6) var temperature_out: texture_storage_2d<r32float, write>;
@group(0) @binding(7) var density_out: texture_storage_2d<r32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(velocity);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let a = weight(p, textureLoad(solid, p).r);
    let v = textureLoad(velocity, p).xy + a * impulse.velocity;
    let t = lerp(textureLoad(temperature, p).r, impulse.temperature, a);
    let rho = lerp(textureLoad(density, p).r, impulse.density, a);
    textureStore(velocity_out, p, vec4<f32>(v, 0.0, 0.0));
    textureStore(temperature_out, p, vec4<f32>(t, 0.0, 0.0, 0.0));
    textureStore(density_out, p, vec4<f32>(rho, 0.0, 0.0, 0.0));
}
