// A level's wall bits (r32uint, one cell a texel: level.wgsl) into the packed layout
// (packed.wgsl: cell k's bits in byte k of its texel, padding cells walls), after
// coarsen_walls.wgsl has written a packed level's walls on the GPU (moving bodies).
// CPU mirror: `pack_bits` in src/gpu/packed.rs with padding 1 (a wall).

@group(0) @binding(0) var walls: texture_storage_2d<r32uint, read>;
@group(0) @binding(1) var packed_walls: texture_storage_2d<r32uint, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let packed = textureDimensions(packed_walls);
    if id.x >= packed.x || id.y >= packed.y {
        return;
    }
    let width = i32(textureDimensions(walls).x);
    var texel = 0u;
    for (var k = 0; k < 4; k++) {
        let x = 4 * i32(id.x) + k;
        var bits = 1u;
        if x < width {
            bits = textureLoad(walls, vec2<i32>(x, i32(id.y))).r;
        }
        texel |= bits << (8u * u32(k));
    }
    textureStore(packed_walls, id.xy, vec4<u32>(texel, 0u, 0u, 0u));
}
