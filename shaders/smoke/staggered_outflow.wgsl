// Staggered smoke pass, before the divergence when an edge is an outflow: the outflow edges'
// faces (each the velocity of the face one cell inside, from the advection: edge_rules.wgsl) move
// by one common amount along their inward direction so that what flows out through them is
// what flows in through the others (inflow edges; walls carry nothing): the pressure solve's
// no-flux problem then has a solution (its right-hand side sums to zero over the box). One
// workgroup: each invocation sums the inward flux of every 256th edge face, the sums are
// reduced in workgroup memory, and each invocation corrects its outflow faces in place.
// CPU mirror: `outflow` in src/smoke/staggered/cpu.rs (the same partial sums in the same order).

@group(0) @binding(0) var<uniform> params: SmokeParams;
@group(0) @binding(1) var u: texture_storage_2d<r32float, read_write>;
@group(0) @binding(2) var v: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var solid: texture_storage_2d<r32uint, read>;

const THREADS: u32 = 256u;
var<workgroup> flux: array<f32, 256>;
var<workgroup> outflows: array<u32, 256>;

// Face i of edge e: its texel, the cell beside it inside the box, its inward sign.
struct EdgeFace {
    texel: vec2<i32>,
    cell: vec2<i32>,
    sign: f32,
};

fn edge_face(e: u32, i: u32, size: vec2<i32>) -> EdgeFace {
    let k = i32(i);
    switch e {
        case 0u: { return EdgeFace(vec2<i32>(0, k), vec2<i32>(0, k), 1.0); }
        case 1u: { return EdgeFace(vec2<i32>(size.x, k), vec2<i32>(size.x - 1, k), -1.0); }
        case 2u: { return EdgeFace(vec2<i32>(k, 0), vec2<i32>(k, 0), 1.0); }
        default: { return EdgeFace(vec2<i32>(k, size.y), vec2<i32>(k, size.y - 1), -1.0); }
    }
}

fn face_value(e: u32, texel: vec2<i32>) -> f32 {
    if e < 2u {
        return textureLoad(u, texel).r;
    }
    return textureLoad(v, texel).r;
}

@compute @workgroup_size(256, 1)
fn main(@builtin(local_invocation_index) t: u32) {
    let size = vec2<i32>(textureDimensions(solid));
    var f = 0.0;
    var n = 0u;
    for (var e = 0u; e < 4u; e++) {
        let faces = u32(select(size.x, size.y, e < 2u));
        for (var i = t; i < faces; i += THREADS) {
            let face = edge_face(e, i, size);
            if open_at(solid, face.cell) {
                f += face.sign * face_value(e, face.texel);
                n += select(0u, 1u, edge_kind(e) == EDGE_OUTFLOW);
            }
        }
    }
    flux[t] = f;
    outflows[t] = n;
    workgroupBarrier();
    for (var stride = THREADS / 2u; stride > 0u; stride /= 2u) {
        if t < stride {
            flux[t] += flux[t + stride];
            outflows[t] += outflows[t + stride];
        }
        workgroupBarrier();
    }
    let total = flux[0];
    let count = outflows[0];
    if count == 0u {
        return;
    }
    let delta = -total / f32(count);
    for (var e = 0u; e < 4u; e++) {
        if edge_kind(e) != EDGE_OUTFLOW {
            continue;
        }
        let faces = u32(select(size.x, size.y, e < 2u));
        for (var i = t; i < faces; i += THREADS) {
            let face = edge_face(e, i, size);
            if open_at(solid, face.cell) {
                let value = face_value(e, face.texel) + face.sign * delta;
                if e < 2u {
                    textureStore(u, face.texel, vec4<f32>(value, 0.0, 0.0, 0.0));
                } else {
                    textureStore(v, face.texel, vec4<f32>(value, 0.0, 0.0, 0.0));
                }
            }
        }
    }
}
