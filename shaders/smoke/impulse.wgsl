// Uses: smoke/splat.wgsl (Cell, Impulse, apply_impulse, weight).
// The viewer's splats: the impulse pass outside the step. Each open cell the splat's disc covers
// moves its temperature and density towards the impulse's by a weight a, x (1 - a) + value a,
// and gains a * velocity (Rideout's soft edge a = min((radius - d) / 2, 1), splat.wgsl). The
// step's own impulse, the scene's sources (a = 1 on source cells), is part of pass 1
// (advect.wgsl), with the same `apply_impulse`.
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
    let cell = apply_impulse(
        weight(p, textureLoad(solid, p).r),
        Cell(textureLoad(velocity, p).xy, textureLoad(temperature, p).r, textureLoad(density, p).r),
    );
    textureStore(velocity_out, p, vec4<f32>(cell.velocity, 0.0, 0.0));
    textureStore(temperature_out, p, vec4<f32>(cell.temperature, 0.0, 0.0, 0.0));
    textureStore(density_out, p, vec4<f32>(cell.density, 0.0, 0.0, 0.0));
}
