// Water pass, the unpack of the tiles a run changed (water/changed_tiles.wgsl lists them): one
// workgroup a tile, the packed masses back to one cell a texel as common/unpack.wgsl with
// MAGNITUDE does it (|m|; padding cells dropped). The other tiles' cells are as the run found
// them, which the mass texture already holds. CPU mirror: `unpack` in src/gpu/packed.rs.

@group(0) @binding(0) var packed_field: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var field_out: texture_storage_2d<r32float, write>;
@group(0) @binding(2) var<storage, read> tiles: array<u32>;

// A tile's texels across and rows down (src/water/gpu.rs, `TilePasses`).
override TILE_W: i32;
override TILE_H: i32;

@compute @workgroup_size(64, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let packed = vec2<i32>(textureDimensions(packed_field));
    let across = (packed.x + TILE_W - 1) / TILE_W;
    let tile = i32(tiles[wid.x]);
    let origin = vec2<i32>(tile % across * TILE_W, tile / across * TILE_H);
    let width = i32(textureDimensions(field_out).x);
    for (var k = i32(lid); k < TILE_W * TILE_H; k += 64) {
        let q = origin + vec2<i32>(k % TILE_W, k / TILE_W);
        if q.x >= packed.x || q.y >= packed.y {
            continue;
        }
        let v = abs(textureLoad(packed_field, q));
        for (var c = 0; c < 4; c++) {
            let x = 4 * q.x + c;
            if x < width {
                textureStore(field_out, vec2<i32>(x, q.y), vec4<f32>(v[c], 0.0, 0.0, 0.0));
            }
        }
    }
}
