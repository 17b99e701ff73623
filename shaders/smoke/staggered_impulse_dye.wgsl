// Uses: common/grid.wgsl (inside); smoke/splat.wgsl (Impulse, weight).
// Staggered smoke pass: the impulse's dye. One invocation per cell of the impulse's rectangle
// (`ImpulseRect` in src/smoke/fields.rs, from impulse.origin): the dye moves towards the
// impulse's colour by the cell's weight, as temperature and density do in
// staggered_impulse.wgsl. rgba32float has no read_write storage in WebGPU, so the rectangle's
// dye is first copied into the other texture of its ping-pong pair
// (staggered_impulse_dye_stash.wgsl), which this pass reads, writing the dye in place: no pass
// copies the dye outside the rectangle, where the impulse leaves it as it is.
// CPU mirror: the dye lines of `impulse` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> impulse: Impulse;
@group(0) @binding(1) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(2) var stash: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var dye: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy + impulse.origin);
    if inside(p, textureDimensions(solid)) {
        let a = weight(p, textureLoad(solid, p).r);
        // A cell of weight 0 keeps its dye (x (1 - 0) + y 0 is x): it is not written.
        if a != 0.0 {
            let colour = textureLoad(stash, p).rgb * (1.0 - a) + impulse.dye * a;
            textureStore(dye, p, vec4<f32>(colour, 0.0));
        }
    }
}
