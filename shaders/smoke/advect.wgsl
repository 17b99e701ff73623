// Uses: smoke/buoyancy.wgsl (buoyancy); smoke/params.wgsl (SOLID, SmokeParams, has, lerp);
//   smoke/splat.wgsl (Cell, Impulse, apply_impulse, weight).
// Smoke pass 1 of 4: semi-Lagrangian advection of velocity, temperature and density along the
// old velocity (GPU Gems 38.2; Stam 1999), then the forces GPU Gems applies next, each a
// function of the cell alone: buoyancy (buoyancy.wgsl) and the scene sources' impulse
// (splat.wgsl's `apply_impulse` with the step's impulse uniform). Each open cell traces back
// (col, row) - dt v and takes the bilinear value there (done by hand with textureLoad, indices
// clamped to the grid), times the field's dissipation. Solid cells get 0. One pass instead of
// three: the advected values stay in registers instead of making two more round trips through
// the textures.
// CPU mirror: `advect` (and `bilinear`), then `buoyancy`, then `impulse`, in src/smoke/cpu.rs,
// with `Impulse::sources` (src/smoke/mod.rs).

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var velocity: texture_storage_2d<rg32float, read>;
@group(0) @binding(2) var temperature: texture_storage_2d<r32float, read>;
@group(0) @binding(3) var density: texture_storage_2d<r32float, read>;
@group(0) @binding(4) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(5) var velocity_out: texture_storage_2d<rg32float, write>;
@group(0) @binding(6) var temperature_out: texture_storage_2d<r32float, write>;
@group(0) @binding(7) var density_out: texture_storage_2d<r32float, write>;
@group(0) @binding(8) var<uniform> impulse: Impulse;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(velocity);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let bits = textureLoad(solid, p).r;
    if has(bits, SOLID) {
        textureStore(velocity_out, p, vec4<f32>(0.0));
        textureStore(temperature_out, p, vec4<f32>(0.0));
        textureStore(density_out, p, vec4<f32>(0.0));
        return;
    }
    let back = clamp(vec2<f32>(p) - params.dt * textureLoad(velocity, p).xy, vec2<f32>(-1.0), vec2<f32>(size));
    let base = floor(back);
    let f = back - base;
    let hi = vec2<i32>(size) - 1;
    let q0 = clamp(vec2<i32>(base), vec2<i32>(0), hi);
    let q1 = clamp(vec2<i32>(base) + 1, vec2<i32>(0), hi);
    let a = vec2<i32>(q0.x, q0.y); // top-left
    let b = vec2<i32>(q1.x, q0.y); // top-right
    let c = vec2<i32>(q0.x, q1.y); // bottom-left
    let d = vec2<i32>(q1.x, q1.y); // bottom-right

    let va = textureLoad(velocity, a).xy;
    let vb = textureLoad(velocity, b).xy;
    let vc = textureLoad(velocity, c).xy;
    let vd = textureLoad(velocity, d).xy;
    let vx = lerp(lerp(va.x, vb.x, f.x), lerp(vc.x, vd.x, f.x), f.y);
    let vy = lerp(lerp(va.y, vb.y, f.x), lerp(vc.y, vd.y, f.x), f.y);
    let t = lerp(
        lerp(textureLoad(temperature, a).r, textureLoad(temperature, b).r, f.x),
        lerp(textureLoad(temperature, c).r, textureLoad(temperature, d).r, f.x),
        f.y,
    );
    let rho = lerp(
        lerp(textureLoad(density, a).r, textureLoad(density, b).r, f.x),
        lerp(textureLoad(density, c).r, textureLoad(density, d).r, f.x),
        f.y,
    );
    let t_advected = params.temperature_dissipation * t;
    let rho_advected = params.density_dissipation * rho;
    let v_advected = vec2<f32>(params.velocity_dissipation * vx, params.velocity_dissipation * vy);
    let cell = apply_impulse(weight(p, bits), Cell(buoyancy(v_advected, t_advected, rho_advected), t_advected, rho_advected));
    textureStore(velocity_out, p, vec4<f32>(cell.velocity, 0.0, 0.0));
    textureStore(temperature_out, p, vec4<f32>(cell.temperature, 0.0, 0.0, 0.0));
    textureStore(density_out, p, vec4<f32>(cell.density, 0.0, 0.0, 0.0));
}
