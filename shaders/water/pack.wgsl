// Uses: water/params.wgsl (SOLID_SELF, WaterParams, outside_mass).
// The mass into the water step's packed layout (common/packed.wgsl: four cells of a row a texel,
// four cells an invocation), with which cells are solid in the sign bits: a solid cell's mass
// is stored negated (-0.0 when empty, as the brush and a new solid mask keep it), every other
// mass as +|m| (masses are >= 0; -0.0 becomes +0.0), padding cells past the last column as the
// step reads cells beyond the grid's edges (`outside_mass`, params.wgsl: +0.0, empty air, with
// the open boundary, -0.0, solid, with the wall boundary). water/step.wgsl reads a cell's solid
// bit from its sign and writes padding back unchanged; common/unpack.wgsl with MAGNITUDE takes
// |m|. Checked through the step: its tests against the CPU push loop
// (tests/water_gpu_vs_cpu.rs) pack, step and unpack.

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var mass: texture_storage_2d<r32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>; // bit 0: this cell is solid
@group(0) @binding(3) var packed_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(packed_out);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let width = i32(textureDimensions(mass).x);
    var v = vec4<f32>(outside_mass(params));
    for (var k = 0; k < 4; k++) {
        let q = vec2<i32>(4 * i32(id.x) + k, i32(id.y));
        if q.x < width {
            let m = abs(textureLoad(mass, q).r);
            v[k] = select(m, -m, (textureLoad(solid, q).r & SOLID_SELF) != 0u);
        }
    }
    textureStore(packed_out, id.xy, v);
}
