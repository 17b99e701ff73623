// Uses: water/params.wgsl (SOLID_SELF); common/hash_lanes.wgsl (lanes).
// Water pass, the state hash (src/water/hash.rs, module docs): one invocation a row, the sums of
// its cells' two lanes (wrapping), written to `rows`; the CPU adds the rows the same way. CPU
// mirror: `state_hash` in src/water/hash.rs.

@group(0) @binding(0) var mass: texture_storage_2d<r32float, read>;
@group(0) @binding(1) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(2) var<storage, read_write> rows: array<vec2<u32>>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(mass);
    if id.x >= size.y {
        return;
    }
    var sum = vec2<u32>(0u);
    for (var c = 0u; c < size.x; c++) {
        let q = vec2<u32>(c, id.x);
        let wall = (textureLoad(solid, q).r & SOLID_SELF) != 0u;
        let v = bitcast<u32>(textureLoad(mass, q).r) | select(0u, 0x80000000u, wall);
        sum += lanes(id.x * size.x + c, v);
    }
    rows[id.x] = sum;
}
