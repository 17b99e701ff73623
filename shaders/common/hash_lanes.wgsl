// The state hash's two lanes of a word (src/gpu/state_hash.rs, module docs), shared by every
// hash pass: water's (water/hash.wgsl, water/hash_packed.wgsl) and any model's
// (common/hash_float.wgsl, common/hash_uint.wgsl). CPU mirror: `lanes` in src/gpu/state_hash.rs.

fn pcg(x: u32) -> u32 {
    let state = x * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// Word `index`'s lanes for its bits `v`.
fn lanes(index: u32, v: u32) -> vec2<u32> {
    return vec2<u32>(pcg(v ^ pcg(index)), pcg(v + pcg(index ^ 0x9e3779b9u)));
}
