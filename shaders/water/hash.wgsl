// Uses: water/params.wgsl (SOLID_SELF).
// Water pass, the state hash (src/water/hash.rs, module docs): one invocation a row, the sums of
// its cells' two lanes (wrapping), written to `rows`; the CPU adds the rows the same way. CPU
// mirror: `state_hash` in src/water/hash.rs.

@group(0) @binding(0) var mass: texture_storage_2d<r32float, read>;
@group(0) @binding(1) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(2) var<storage, read_write> rows: array<vec2<u32>>;

fn pcg(x: u32) -> u32 {
    let state = x * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

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
        let i = id.x * size.x + c;
        sum += vec2<u32>(pcg(v ^ pcg(i)), pcg(v + pcg(i ^ 0x9e3779b9u)));
    }
    rows[id.x] = sum;
}
