// Uses: gas/params.wgsl (BEFORE_SHIFT, GasParams, WALL, direction, used_directions).
// Gas pass, the handoff: the gas of the cells whose coverage the step's
// rasterisation (bodies.wgsl) changed is handed over, conserving mass and momentum. A cell a
// body covered gives its gas in equal shares to its neighbours open now; a cell a body left gets
// `opening_share` of each neighbour open before and now, which keeps the rest; closed cells end
// empty. Every share comes from `state` as it was (gather only). Coverage before and now is in
// each cell's solid bits (bits 0..8 now, BEFORE_SHIFT.. before).
// CPU mirror: `handoff` in src/gas/bodies.rs (the rules and why there).

@group(0) @binding(0) var<uniform> params: GasParams;
@group(0) @binding(1) var state: texture_storage_2d<rgba32float, read>;
@group(0) @binding(2) var solid: texture_storage_2d<r32uint, read>;
@group(0) @binding(3) var state_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(64, 1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(state);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let p = vec2<i32>(id.xy);
    let bits = textureLoad(solid, p).r;
    if (bits & WALL) != 0u {
        textureStore(state_out, p, vec4<f32>(0.0));
        return;
    }
    let used = used_directions(params);
    let closed_now = (bits >> 1u) & used;
    let closed_before = (bits >> (BEFORE_SHIFT + 1u)) & used;
    let covered = closed_now & ~closed_before;
    let share = 1.0 / (1.0 + f32(countOneBits(used)));
    var q = vec3<f32>(0.0);
    var gifts = covered;
    if ((bits >> BEFORE_SHIFT) & WALL) == 0u {
        // Open before: all but a share for each neighbour opened.
        let opened = closed_before & ~closed_now;
        q = (1.0 - share * f32(countOneBits(opened))) * textureLoad(state, p).xyz;
    } else {
        // Opened: a share of each neighbour open before and now, too.
        gifts |= ~closed_before & ~closed_now & used;
    }
    while gifts != 0u {
        let j = firstTrailingBit(gifts);
        gifts &= gifts - 1u;
        let n = p + direction(j);
        let g = textureLoad(state, n).xyz;
        if ((covered >> j) & 1u) != 0u {
            let receivers = countOneBits(~(textureLoad(solid, n).r >> 1u) & used);
            q += g / f32(receivers);
        } else {
            q += share * g;
        }
    }
    textureStore(state_out, p, vec4<f32>(q, 0.0));
}
