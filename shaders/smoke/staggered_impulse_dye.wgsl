// Staggered smoke pass: the impulse's dye, ping-ponged (rgba32float has no read_write storage in
// WebGPU). One invocation per cell: the dye moves towards the impulse's colour by the cell's
// weight, as temperature and density do in staggered_impulse.wgsl.
// CPU mirror: the dye lines of `impulse` in src/smoke/staggered/cpu.rs.

@group(0) @binding(0) var<uniform> impulse: Impulse;
@group(0) @binding(1) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(2) var dye: texture_storage_2d<rgba32float, read>;
@group(0) @binding(3) var dye_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let p = vec2<i32>(id.xy);
    if inside(p, textureDimensions(solid)) {
        let a = weight(p, textureLoad(solid, p).r);
        let colour = textureLoad(dye, p).rgb * (1.0 - a) + impulse.dye * a;
        textureStore(dye_out, p, vec4<f32>(colour, 0.0));
    }
}
