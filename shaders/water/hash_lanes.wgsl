// The state hash's two lanes of a cell (src/water/hash.rs, module docs), shared by the hash over
// one cell a texel (water/hash.wgsl) and over a packed world (water/hash_packed.wgsl). CPU
// mirror: `lanes` in src/water/hash.rs.

fn pcg(x: u32) -> u32 {
    let state = x * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

// Cell `index`'s lanes for its word `v` (its mass's bits, the top bit set where it is a wall).
fn lanes(index: u32, v: u32) -> vec2<u32> {
    return vec2<u32>(pcg(v ^ pcg(index)), pcg(v + pcg(index ^ 0x9e3779b9u)));
}
