// Uses: water/params.wgsl (WaterParams); water/page.wgsl (Page); common/hash_lanes.wgsl (lanes).
// Water pass, the state hash of a packed world (src/water/packed_world.rs): as water/hash.wgsl,
// one invocation a row, over the packed masses, whose stored sign is the wall bit the hash sets
// (water/pack.wgsl), so each cell's word is its stored bits; padding cells past the grid's width
// are left out. It gives the hash of one cell a texel for the same water; a paged world's pages
// each write their own rows' sums (its halo rows are left out). CPU mirror:
// `state_hash` in src/water/hash.rs.

@group(0) @binding(0) var<uniform> params: WaterParams;
@group(0) @binding(1) var mass: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var<storage, read_write> rows: array<vec2<u32>>;
@group(0) @binding(3) var<uniform> page: Page;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= page.rows {
        return;
    }
    let row = page.first_row + id.x;
    let size = textureDimensions(mass);
    var sum = vec2<u32>(0u);
    for (var x = 0u; x < size.x; x++) {
        let v = bitcast<vec4<u32>>(textureLoad(mass, vec2<u32>(x, id.x + page.halo)));
        for (var k = 0u; k < 4u; k++) {
            let c = 4u * x + k;
            if c < params.width {
                sum += lanes(row * params.width + c, v[k]);
            }
        }
    }
    rows[row] = sum;
}
