// Uses: common/grid.wgsl (inside); smoke/splat.wgsl (Impulse).
// Staggered smoke pass: the dye of the impulse's rectangle (`ImpulseRect` in
// src/smoke/fields.rs, from impulse.origin) copied into the other texture of its ping-pong
// pair, whose contents are dead until the next step's advection writes all of it, for
// staggered_impulse_dye.wgsl to read while it writes the dye in place. One invocation per cell
// of the rectangle. No CPU mirror: it changes no field.

@group(0) @binding(0) var<uniform> impulse: Impulse;
@group(0) @binding(1) var dye: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var stash: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy + impulse.origin);
    if inside(p, textureDimensions(dye)) {
        textureStore(stash, p, textureLoad(dye, p));
    }
}
