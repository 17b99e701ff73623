// Uses: common/hash_lanes.wgsl (lanes).
// The state hash of one texture of a model's state (src/gpu/state_hash.rs, module docs), shared
// by the float and the unsigned integer textures' passes (common/hash_float.wgsl,
// common/hash_uint.wgsl): one invocation a texel row, the sums of its words' two lanes
// (wrapping) written to `rows`; the CPU adds all textures' rows the same way.

struct HashPart {
    // The index of the texture's first word among the state's (the words of the textures
    // before it).
    base: u32,
    // The words a texel holds: its format's channels.
    channels: u32,
    // The texture's first row's entry in `rows`.
    first_row: u32,
    _pad: u32,
}

@group(0) @binding(0) var<uniform> part: HashPart;
@group(0) @binding(2) var<storage, read_write> rows: array<vec2<u32>>;

// The lanes of row `row`'s texel `x`, whose channels' bits are `texel`, in a texture `width`
// texels wide.
fn texel_lanes(row: u32, x: u32, width: u32, texel: vec4<u32>) -> vec2<u32> {
    let first = part.base + (row * width + x) * part.channels;
    var sum = vec2<u32>(0u);
    for (var k = 0u; k < part.channels; k++) {
        sum += lanes(first + k, texel[k]);
    }
    return sum;
}
